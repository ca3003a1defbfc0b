//! `prime-solve analyze`: every dealt hand under one or all rule sets,
//! reports written atomically, one answer line per rule set.

use anyhow::{Context, Result};

use prime_solve::analysis::{Analysis, all_rule_sets, analyze_all};
use prime_solve::deck::deal;
use prime_solve::expr::Style;
use prime_solve::report::{self, write_files};
use prime_solve::words::plural;

use super::args::AnalyzeArgs;
use super::{Verdict, print, progress_bar, thread_pool, tick};

pub fn run(args: &AnalyzeArgs) -> Result<Verdict> {
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
            .collect()
    } else {
        vec![rules]
    };
    let cards = usize::from(args.cards);
    let pool = thread_pool(args.threads)?;
    let total: usize = rule_sets.iter().map(|r| deal(cards, r.faces).0.len()).sum();
    let bar = progress_bar(total as u64, "hands", args.quiet);
    let analyses = pool.install(|| analyze_all(&rule_sets, cards, &|| tick(&bar)))?;
    bar.finish_and_clear();
    let files = pool.install(|| report::render(&analyses, Style::default()));
    write_files(&args.out, &files)
        .with_context(|| format!("cannot write reports to {}", args.out.display()))?;
    let mut out = String::new();
    for a in &analyses {
        out.push_str(&answer_line(a));
        out.push('\n');
    }
    out.push_str(&format!(
        "reports: {} in {}\n",
        plural(files.len(), "file", "files"),
        args.out.display()
    ));
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
            a.failing_probability().decimal(6),
            failing.join(", ")
        ),
    }
}
