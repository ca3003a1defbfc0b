//! The sweep `analyze` runs, whole or one part of it (`analyze --shard`),
//! with its progress bar, and the reports written and answered, by
//! `analyze` and by `merge` alike.

use anyhow::{Context, Result};

use prime_solve::analysis::{
    Analysis, NotDone, Pruned, Sweep, analyze_each_among, analyze_screened_among, screen,
};
use prime_solve::deal;
use prime_solve::report::index::{COMPANIONS, Companion};
use prime_solve::report::{self, json};
use prime_solve::shard::search_cost;
use prime_solve::text::plural;

use crate::cli::args::{AnalyzeArgs, Format};
use crate::cli::write::write_files;
use crate::cli::{Pool, Spinner, Verdict, memory, memory_in_use, print, sweep_bar};

/// Where each rule set's census stops under `args`.
pub(crate) fn screen_of(
    args: &AnalyzeArgs,
    cards: usize,
) -> impl Fn(&prime_solve::Rules) -> Option<u64> + Sync {
    let every = args.count_every_prime;
    move |r: &prime_solve::Rules| screen(r, cards).filter(|_| !every)
}

/// Each rule set's analysis of the hands `keep` keeps, or (under
/// --skip-refused) why it was not done, with a progress bar.
// A rule set's outcome is its analysis or why not, one of each a rule
// set: not many, so the size of the refusal does not matter.
#[allow(clippy::result_large_err)]
pub(crate) fn solve(
    args: &AnalyzeArgs,
    rule_sets: &[prime_solve::Rules],
    cards: usize,
    keep: &(dyn Fn(prime_solve::Hand) -> bool + Sync),
    pool: &Pool,
) -> Result<Vec<Result<Analysis, NotDone>>> {
    let kept = |r: &prime_solve::Rules| {
        deal(cards, r.faces)
            .0
            .iter()
            .filter(|d| keep(d.hand))
            .count()
    };
    let counts: Vec<usize> = rule_sets.iter().map(kept).collect();
    let hands: usize = counts.iter().sum();
    let work: u64 = rule_sets
        .iter()
        .zip(&counts)
        .map(|(r, &n)| n as u64 * search_cost(r, cards))
        .sum();
    let bar = sweep_bar(work, hands as u64, args.work.quiet);
    let done = std::sync::atomic::AtomicU64::new(0);
    let screen = screen_of(args, cards);
    let tick = |r: &prime_solve::Rules| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        bar.inc(search_cost(r, cards));
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
    let budget = memory::budget();
    let pruned = if args.summaries_only {
        Pruned::Flagged
    } else {
        Pruned::Counted
    };
    let sweep = Sweep {
        cards,
        screen: &screen,
        pruned,
        keep,
    };
    let outcomes = if args.skip_refused {
        let each = pool.install(|| analyze_each_among(rule_sets, &sweep, budget, &tick))?;
        rule_sets
            .iter()
            .zip(each)
            .map(|(rules, result)| {
                result.map_err(|why| NotDone {
                    rules: *rules,
                    cards,
                    why,
                })
            })
            .collect()
    } else {
        let analyses = pool.install(|| analyze_screened_among(rule_sets, &sweep, budget, &tick))?;
        analyses.into_iter().map(Ok).collect()
    };
    bar.finish_and_clear();
    // The ways to each prime, where they are counted (three cards, four
    // without functions): a part of a sweep counts those of its hands.
    let mut outcomes: Vec<Result<Analysis, NotDone>> = outcomes;
    if !args.no_ways {
        let _spinner = Spinner::start("counting the ways", args.work.quiet);
        pool.install(|| {
            outcomes
                .iter_mut()
                .filter_map(|o| o.as_mut().ok())
                .try_for_each(|a| a.count_ways(budget))
        })?;
    }
    Ok(outcomes)
}

/// The analyses done and the rule sets not done, in order; an error when
/// none was done.
pub(crate) fn done_and_not(
    outcomes: Vec<Result<Analysis, NotDone>>,
) -> Result<(Vec<Analysis>, Vec<NotDone>)> {
    let mut analyses = Vec::new();
    let mut not_done = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(a) => analyses.push(a),
            Err(n) => not_done.push(n),
        }
    }
    if analyses.is_empty()
        && let Some(first) = not_done.first()
    {
        return Err(first.why.clone().into());
    }
    Ok((analyses, not_done))
}

/// Renders the reports of `analyses` (and the rule sets `not_done`), writes
/// them to `out` and prints the answers: what `analyze` ends with, and
/// `merge` too, so that both write the same bytes.
pub(crate) fn write_reports(
    out_dir: &std::path::Path,
    analyses: &[Analysis],
    not_done: &[NotDone],
    style: prime_solve::Style,
    summaries_only: bool,
    format: Format,
    pool: &Pool,
) -> Result<Verdict> {
    let budget = memory::budget();
    let detail = if summaries_only {
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
        .filter(|c| c.files.iter().all(|f| out_dir.join(f).is_file()))
        .collect();
    let files = pool.install(|| report::render(analyses, not_done, style, detail, &companions));
    write_files(out_dir, &files).context("cannot write reports")?;
    let out = match format {
        Format::Json => {
            let folder = out_dir.display().to_string();
            serde_json::to_string_pretty(&json::analyses(
                analyses,
                not_done,
                style,
                files.len(),
                &folder,
            ))? + "\n"
        }
        Format::Text => {
            let mut out = String::new();
            for a in analyses {
                out.push_str(&answer_line(a));
                out.push('\n');
            }
            for n in not_done {
                out.push_str(&format!("{}: not done: {}\n", n.folder(), n.reason()));
            }
            out.push_str(&format!(
                "reports: {} in {}\n",
                plural(files.len(), "file", "files"),
                prime_solve::text::echo(&out_dir.display().to_string())
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
