//! `prime-solve analyze`: every dealt hand under one or all rule sets,
//! reports written atomically, one answer line per rule set.

use anyhow::{Context, Result};

use prime_solve::analysis::{
    Analysis, NotDone, Pruned, all_rule_sets, analyze_each, analyze_screened, screen,
};
use prime_solve::deal;
use prime_solve::report::index::{COMPANIONS, Companion};
use prime_solve::report::{self, json};

use super::write::{check_folder, write_files};
use prime_solve::text::plural;

use super::args::{AnalyzeArgs, Format};
use super::{Verdict, memory_in_use, print, sweep_bar, thread_pool};

pub(crate) fn run(args: &AnalyzeArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let rule_sets = if args.all_rules {
        // The settings --all-rules does not sweep apply to every rule set;
        // the depth only where there are functions to nest.
        all_rule_sets()
            .into_iter()
            .map(|r| prime_solve::Rules {
                max_value: rules.max_value,
                function_depth: if r.functions.is_empty() {
                    r.function_depth
                } else {
                    rules.function_depth
                },
                ..r
            })
            .filter(|r| !args.ceiling_only || r.max_prime.is_some())
            .collect()
    } else {
        vec![rules]
    };
    let cards = usize::from(args.cards);
    check_folder(&args.out).context("cannot write reports")?;
    let pool = thread_pool(args.work.threads)?;
    let hands: usize = rule_sets.iter().map(|r| deal(cards, r.faces).0.len()).sum();
    let work: u64 = rule_sets
        .iter()
        .map(|r| deal(cards, r.faces).0.len() as u64 * cost(r, cards))
        .sum();
    let bar = sweep_bar(work, hands as u64, args.work.quiet);
    let done = std::sync::atomic::AtomicU64::new(0);
    let screen = |r: &prime_solve::Rules| screen(r, cards).filter(|_| !args.count_every_prime);
    let tick = |r: &prime_solve::Rules| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        bar.inc(cost(r, cards));
        if n.is_multiple_of(16) || n == hands as u64 {
            let rate = n as f64 / bar.elapsed().as_secs_f64().max(0.001);
            bar.set_message(format!(
                "{n}/{hands} hands, {rate:.0}/s (now {}), memory {}",
                r.name(),
                memory_in_use()
            ));
        }
    };
    // hands.csv lists each hand's count of operations beyond the bound;
    // the summaries tell only whether the bound may hide a prime.
    let budget = super::memory::budget();
    let pruned = if args.summaries_only {
        Pruned::Flagged
    } else {
        Pruned::Counted
    };
    let (analyses, not_done) = if args.skip_refused {
        let each =
            pool.install(|| analyze_each(&rule_sets, cards, &screen, pruned, budget, &tick))?;
        let mut analyses = Vec::new();
        let mut not_done = Vec::new();
        for (rules, result) in rule_sets.iter().zip(each) {
            match result {
                Ok(a) => analyses.push(a),
                Err(why) => not_done.push(NotDone {
                    rules: *rules,
                    cards,
                    why,
                }),
            }
        }
        if analyses.is_empty()
            && let Some(first) = not_done.first()
        {
            return Err(first.why.clone().into());
        }
        (analyses, not_done)
    } else {
        let analyses =
            pool.install(|| analyze_screened(&rule_sets, cards, &screen, pruned, budget, &tick))?;
        (analyses, Vec::new())
    };
    bar.finish_and_clear();
    // The ways to each prime, where they are counted (three cards, four
    // without functions).
    let mut analyses = analyses;
    if !args.no_ways {
        let _spinner = super::Spinner::start("counting the ways", args.work.quiet);
        pool.install(|| analyses.iter_mut().try_for_each(|a| a.count_ways(budget)))?;
    }
    let detail = if args.summaries_only {
        report::Detail::Summaries
    } else {
        report::Detail::Full
    };
    // The reports are text of about the size of the results, more for
    // hands.csv, which lists every prime in decimal: charged before they
    // are rendered, with the results themselves.
    let held: u64 = analyses.iter().map(Analysis::held_bytes).sum();
    let text = if detail == report::Detail::Full {
        held.saturating_mul(3)
    } else {
        0
    };
    let _reports = budget.charge(held.saturating_add(text)).map_err(|_| {
        let (needed, limit) = prime_solve::text::apart(
            budget.used().saturating_add(held.saturating_add(text)),
            budget.limit(),
        );
        anyhow::anyhow!(
            "not enough memory to write the reports: about {needed} with the results, more than \
             the limit of {limit}; {}raise --memory-limit",
            if detail == report::Detail::Full {
                "use --summaries-only (no hands.csv or plots) or "
            } else {
                ""
            }
        )
    })?;
    // The index links only to the reports that are there beside it.
    let companions: Vec<Companion> = COMPANIONS
        .into_iter()
        .filter(|c| c.files.iter().all(|f| args.out.join(f).is_file()))
        .collect();
    let files = pool.install(|| {
        report::render(
            &analyses,
            &not_done,
            args.style.style(),
            detail,
            &companions,
        )
    });
    write_files(&args.out, &files).context("cannot write reports")?;
    let out = match args.format {
        Format::Json => {
            let folder = args.out.display().to_string();
            serde_json::to_string_pretty(&json::analyses(
                &analyses,
                &not_done,
                args.style.style(),
                files.len(),
                &folder,
            ))? + "\n"
        }
        Format::Text => {
            let mut out = String::new();
            for a in &analyses {
                out.push_str(&answer_line(a));
                out.push('\n');
            }
            for n in &not_done {
                out.push_str(&format!("{}: not done: {}\n", n.folder(), n.reason()));
            }
            out.push_str(&format!(
                "reports: {} in {}\n",
                plural(files.len(), "file", "files"),
                prime_solve::text::echo(&args.out.display().to_string())
            ));
            out
        }
    };
    print(&out)?;
    Ok(Verdict::Yes)
}

/// "five: no hand fails" or "rank: 2 hands fail (probability p per deal): ...".
fn answer_line(a: &Analysis) -> String {
    let failing: Vec<String> = a.failing().map(|h| h.hand.to_string()).collect();
    match failing.len() {
        0 => format!("{}: no hand fails", a.folder()),
        n => format!(
            "{}: {} (probability {} per deal): {}",
            a.folder(),
            plural(n, "hand fails", "hands fail"),
            a.failing_probability().probability(),
            failing.join(", ")
        ),
    }
}

/// The relative cost of solving one hand under `rules`, so that the
/// progress bar's rate and time left stay steady across rule sets: each
/// house rule multiplies the values a hand reaches (measured on five-card
/// hands: powers ×3, juxtaposition ×1.5, T ×80, T ! √ ×500), more so with
/// more cards.
fn cost(rules: &prime_solve::Rules, cards: usize) -> u64 {
    let grow = |factor: u64| factor.pow(u32::try_from(cards.saturating_sub(2)).unwrap_or(1));
    let mut c = 1;
    if rules.powers {
        c *= grow(2);
    }
    if rules.juxtapose {
        c = c * 3 / 2;
    }
    if rules.function_list().len() == 1 {
        c *= grow(4);
    } else if !rules.functions.is_empty() {
        c *= grow(8);
    }
    c.max(1)
}
