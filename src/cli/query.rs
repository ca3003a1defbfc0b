//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::fmt::Write as _;

use anyhow::Result;

use prime_solve::analysis::COUNTED_UP_TO;
use prime_solve::report::json;
use prime_solve::words::plural;
use prime_solve::{Solver, Value};

use super::args::{Format, QueryArgs, parse_hand};
use super::{Spinner, Verdict, print};

/// Bytes of text a listed value takes at most: 40 characters and a space.
const TEXT_PER_VALUE: u64 = 41;

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
    // Every value asked for: the primes and their witnesses from the
    // search for primes (its projection refuses at once what cannot fit),
    // then the values and the operations beyond the bound from the
    // value-only path, which keeps no witnesses, unless that search had to
    // build the full table anyway: the same answers as one full search, in
    // a fraction of its time and memory.
    let solution = if primes_only || args.values {
        solver.solve_primes(hand)?
    } else {
        solver.solve(hand)?
    };
    let every = match solution.values() {
        Some(_) => None,
        None if args.values => Some(solver.value_sets()?.values(hand)?),
        None => None,
    };
    drop(spinner);
    let pruned = match &every {
        Some(every) => Some(every.pruned()),
        None => solution.pruned(),
    };
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
    let values = match &every {
        Some(every) => every.values(),
        None => solution.values().unwrap_or_default(),
    };
    let found = !primes.is_empty();
    // The list of values can run to millions (hundreds of megabytes of
    // text): room for it is made first, or the request refused.
    let _room = if args.values {
        let per_value: u64 = match args.output.format {
            // A JSON number in the tree, then a line of pretty output.
            Format::Json => 128,
            Format::Text => TEXT_PER_VALUE,
        };
        Some(
            solver
                .budget()
                .room_for_output(values.len() as u64 * per_value)?,
        )
    } else {
        None
    };
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
            j.insert("pruned".into(), pruned.into());
            if args.values {
                let list: Vec<serde_json::Value> =
                    values.iter().map(|&v| json::integer(v)).collect();
                j.insert("values".into(), list.into());
            }
            serde_json::to_string_pretty(&j)? + "\n"
        }
        Format::Text => {
            let mut out = String::new();
            // Made room for above: the list's text is written into it
            // without growing it.
            if args.values {
                let bytes = values.len() * TEXT_PER_VALUE as usize + 4096;
                out.try_reserve(bytes).map_err(|_| {
                    anyhow::anyhow!("not enough memory to write {} values", values.len())
                })?;
            }
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
            if let Some(n) = pruned.filter(|&n| n > 0) {
                writeln!(
                    out,
                    "pruned: {} beyond ±{} and {} not followed",
                    plural(n, "operation went", "operations went"),
                    rules.max_value,
                    if n == 1 { "was" } else { "were" }
                )?;
            }
            if args.values {
                write!(out, "{}:", plural(values.len(), "value", "values"))?;
                for v in values {
                    write!(out, " {v}")?;
                }
                writeln!(out)?;
            }
            out
        }
    };
    print(&text)?;
    Ok(if found { Verdict::Yes } else { Verdict::No })
}
