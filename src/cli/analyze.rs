//! `prime-solve analyze`: every dealt hand under one or all rule sets,
//! reports written atomically, one answer line per rule set.

pub(super) mod sweep;

use anyhow::{Context, Result};

use prime_solve::analysis::all_rule_sets;

use super::args::AnalyzeArgs;
use super::write::check_folder;
use super::{Verdict, thread_pool};
use sweep::{done_and_not, solve, write_reports};

pub(crate) fn run(args: &AnalyzeArgs) -> Result<Verdict> {
    let rule_sets = rule_sets(args)?;
    let cards = usize::from(args.cards);
    if let Some(shard) = args.shard {
        return super::shard::run(args, &rule_sets, cards, shard);
    }
    check_folder(&args.out).context("cannot write reports")?;
    let pool = thread_pool(args.work.threads)?;
    let outcomes = solve(args, &rule_sets, cards, &|_| true, &pool)?;
    let (analyses, not_done) = done_and_not(outcomes)?;
    let style = args.style.style();
    write_reports(
        &args.out,
        &analyses,
        &not_done,
        style,
        args.summaries_only,
        args.format,
        &pool,
    )
}

/// The rule sets `args` sweep, in their order.
pub(crate) fn rule_sets(args: &AnalyzeArgs) -> Result<Vec<prime_solve::Rules>> {
    let rules = args.rules.rules()?;
    Ok(if args.all_rules {
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
    })
}
