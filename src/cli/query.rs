//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::borrow::Cow;
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

/// Bytes a listed value takes in JSON: a number in the tree, then a line of
/// pretty output.
const JSON_PER_VALUE: u64 = 128;

/// Bytes a listed prime takes in JSON beyond two copies of its witness (one
/// in the tree, one in the output): its object of three entries in the tree
/// and their pretty lines.
const JSON_PER_PRIME: u64 = 512;

/// Bytes of the lines around the lists (hand, rules, counts), at most.
const TEXT_AROUND: u64 = 4096;

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
    let count = match &every {
        Some(every) => every.len(),
        None => solution.values().map_or(0, <[Value]>::len),
    };
    // The lists can run to millions of lines (hundreds of megabytes of
    // text, under any prime with functions even without --values): room
    // for all of it is made first, or the request refused. The witnesses
    // are rendered once to measure them, one at a time.
    let prime_values = solution.primes();
    let render = |p: Value| {
        solution
            .witness(p)
            .expect("a reached prime")
            .render_with(style)
    };
    let witness_bytes: u64 = prime_values.iter().map(|&p| render(p).len() as u64).sum();
    let width = prime_values.last().map_or(0, |p| p.to_string().len()) as u64;
    let listed = if args.values { count as u64 } else { 0 };
    // The primes with their witnesses, and the values in full (the
    // value-only path keeps them in 64 bits).
    let held = prime_values.len() as u64 * std::mem::size_of::<PrimeJson>() as u64
        + witness_bytes
        + listed * std::mem::size_of::<Value>() as u64;
    let text_bytes = match args.output.format {
        Format::Text => {
            // "  {value:>width} = {witness}\n" per prime, the values' list.
            TEXT_AROUND
                + prime_values.len() as u64 * (width + 6)
                + witness_bytes
                + listed * TEXT_PER_VALUE
        }
        Format::Json => {
            TEXT_AROUND
                + prime_values.len() as u64 * JSON_PER_PRIME
                + 2 * witness_bytes
                + listed * JSON_PER_VALUE
        }
    };
    let _room = solver.budget().room_for_output(held + text_bytes)?;
    let values: Cow<[Value]> = match &every {
        Some(every) => every.values(),
        _ => Cow::Borrowed(solution.values().unwrap_or_default()),
    };
    let mut primes: Vec<PrimeJson> = Vec::new();
    primes
        .try_reserve_exact(prime_values.len())
        .map_err(|_| out_of_memory(prime_values.len()))?;
    primes.extend(prime_values.iter().map(|&p| PrimeJson {
        value: p,
        witness: render(p),
    }));
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
            j.insert("pruned".into(), pruned.into());
            if args.values {
                let list: Vec<serde_json::Value> =
                    values.iter().map(|&v| json::integer(v)).collect();
                j.insert("values".into(), list.into());
            }
            serde_json::to_string_pretty(&j)? + "\n"
        }
        Format::Text => {
            // Made room for above: the text is written into it without
            // growing it.
            let mut out = String::new();
            out.try_reserve_exact(usize::try_from(text_bytes).unwrap_or(usize::MAX))
                .map_err(|_| out_of_memory(primes.len() + values.len()))?;
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
                for v in values.iter() {
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

/// The refusal when the allocator cannot give the room already charged.
fn out_of_memory(lines: usize) -> anyhow::Error {
    anyhow::anyhow!("not enough memory to write {lines} lines of output")
}
