//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::fmt::Write as _;

use anyhow::Result;
use serde::Serialize;

use prime_solve::expr::Style;
use prime_solve::words::plural;
use prime_solve::{Rules, Solver, Value};

use super::args::{Format, QueryArgs, parse_hand};
use super::{Spinner, Verdict, print};

#[derive(Serialize)]
struct PrimeJson {
    value: Value,
    witness: String,
}

#[derive(Serialize)]
struct QueryJson<'a> {
    hand: Vec<u8>,
    rule_set: String,
    rules: &'a Rules,
    primes: Vec<PrimeJson>,
    highest_prime: Option<Value>,
    pruned: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<&'a [Value]>,
}

pub fn run(args: &QueryArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let hand = parse_hand(&args.cards, rules.faces, &args.hand)?;
    let solver = Solver::new(rules)?;
    let spinner = Spinner::start("solving", false);
    let solution = solver.solve(hand)?;
    drop(spinner);
    let style = Style {
        ascii: args.output.ascii,
        brackets: args.brackets.brackets(),
    };
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
    let values = solution.values().expect("a full solve lists every value");
    let found = !primes.is_empty();
    let text = match args.output.format {
        Format::Json => {
            let json = QueryJson {
                hand: hand.values(),
                rule_set: rules.name(),
                rules: &rules,
                highest_prime: primes.last().map(|p| p.value),
                primes,
                pruned: solution.pruned(),
                values: args.values.then_some(values),
            };
            serde_json::to_string_pretty(&json)? + "\n"
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
            if solution.pruned() > 0 {
                let n = solution.pruned();
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
