//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::fmt::Write as _;

use anyhow::Result;

use prime_solve::analysis::COUNTED_UP_TO;
use prime_solve::report::json;
use prime_solve::words::plural;
use prime_solve::{Solver, Value};

use super::args::{Format, QueryArgs, parse_hand};
use super::{Spinner, Verdict, print};

struct PrimeJson {
    value: Value,
    witness: String,
}

pub fn run(args: &QueryArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let hand = parse_hand(&args.cards, rules.faces, &args.hand)?;
    let solver = Solver::new(rules)?;
    // From five cards on, unless every value is asked for, only the primes
    // are searched for and the operations beyond the bound are not counted
    // (as in `analyze`): seconds instead of minutes and gigabytes.
    let primes_only = !args.values && hand.len() > COUNTED_UP_TO;
    let solver = if primes_only {
        solver.without_pruned_counts()
    } else {
        solver
    };
    let spinner = Spinner::start("solving", false);
    let solution = if primes_only {
        solver.solve_primes(hand)?
    } else {
        solver.solve(hand)?
    };
    drop(spinner);
    let style = args.style.style(args.output.ascii);
    let primes: Vec<PrimeJson> = solution
        .primes()
        .into_iter()
        .map(|p| PrimeJson {
            value: p,
            witness: solution
                .witness(p)
                .expect("a reached prime")
                .render_with(style),
        })
        .collect();
    let values = solution.values().unwrap_or_default();
    let found = !primes.is_empty();
    let text = match args.output.format {
        Format::Json => {
            let mut j = json::hand_header(hand, &rules);
            let list: Vec<serde_json::Value> = primes
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "value": json::integer(p.value),
                        "value_text": p.value.to_string(),
                        "witness": p.witness,
                    })
                })
                .collect();
            let (top, top_text) = json::big(primes.last().map(|p| p.value));
            j.insert("primes".into(), list.into());
            j.insert("highest_prime".into(), top);
            j.insert("highest_prime_text".into(), top_text);
            j.insert("pruned".into(), solution.pruned().into());
            if args.values {
                let list: Vec<serde_json::Value> =
                    values.iter().map(|&v| json::integer(v)).collect();
                j.insert("values".into(), list.into());
            }
            serde_json::to_string_pretty(&j)? + "\n"
        }
        Format::Text => {
            let mut out = String::new();
            writeln!(out, "hand: {hand}")?;
            writeln!(out, "rules: {} ({})", rules.name(), rules.describe())?;
            match primes.last() {
                None => writeln!(out, "no prime: this hand fails under these rules")?,
                Some(top) => {
                    let width = top.value.to_string().len();
                    writeln!(out, "{}:", plural(primes.len(), "prime", "primes"))?;
                    for p in &primes {
                        writeln!(out, "  {:>width$} = {}", p.value, p.witness)?;
                    }
                    writeln!(out, "highest prime: {} = {}", top.value, top.witness)?;
                }
            }
            if let Some(n) = solution.pruned().filter(|&n| n > 0) {
                writeln!(
                    out,
                    "pruned: {} beyond ±{} and {} not followed",
                    plural(n, "operation went", "operations went"),
                    rules.max_value,
                    if n == 1 { "was" } else { "were" }
                )?;
            }
            if args.values {
                let list: Vec<String> = values.iter().map(Value::to_string).collect();
                let count = plural(values.len(), "value", "values");
                writeln!(out, "{count}: {}", list.join(" "))?;
            }
            out
        }
    };
    print(&text)?;
    Ok(if found { Verdict::Yes } else { Verdict::No })
}
