//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::io::{self, Write as _};

use anyhow::Result;

use prime_solve::analysis::COUNTED_UP_TO;
use prime_solve::report::json;
use prime_solve::words::plural;
use prime_solve::{HandValues, Solver, Value};

use super::args::{Format, QueryArgs, parse_hand};
use super::{Spinner, Verdict, print_with};

/// Bytes a listed prime takes in the JSON tree beyond a copy of its
/// witness: its object of three entries (a review measured about 600 with
/// a counting allocator, allocator overhead aside).
const JSON_PER_PRIME: u64 = 768;

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
    // (as in `analyze`): seconds instead of minutes and gigabytes. When
    // every value is asked for, the value-only path counts them, so the
    // search for the primes need not either.
    let primes_only = !args.values && hand.len() > COUNTED_UP_TO;
    let solver = if primes_only || args.values {
        solver.without_pruned_counts()
    } else {
        solver
    };
    let spinner = Spinner::start("solving", false);
    // Every value asked for, from the value-only path: its sub-hands are
    // worked out and the hand's own set projected before the search for
    // the primes, so that values that cannot fit are refused at once, not
    // after that search (minutes for six cards under every rule).
    let mut sets = if args.values && !solver.primes_need_every_value() {
        let mut sets = solver.value_sets()?;
        sets.prepare(hand)?;
        Some(sets)
    } else {
        None
    };
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
        None if args.values => Some(match &mut sets {
            Some(sets) => sets.values(hand)?,
            None => solver.value_sets()?.values(hand)?,
        }),
        None => None,
    };
    // The sub-hands' sets are not needed for the output.
    drop(sets);
    drop(spinner);
    let pruned = match &every {
        Some(every) => Some(every.pruned()),
        None => solution.pruned(),
    };
    let style = args.style.style(args.output.ascii);
    let values = match &every {
        Some(every) => Listed::Sets(every),
        None => Listed::Table(solution.values().unwrap_or_default()),
    };
    // The primes with their witnesses are held until they are written
    // (under any prime with functions, hundreds of thousands of lines):
    // room for them is made first, or the request refused. The witnesses
    // are rendered once to measure them, one at a time. The text itself,
    // and the list of values (87 million of them for six cards under T),
    // go out as they are written.
    let prime_values = solution.primes();
    let render = |p: Value| {
        solution
            .witness(p)
            .expect("a reached prime")
            .render_with(style)
    };
    let witness_bytes: u64 = prime_values.iter().map(|&p| render(p).len() as u64).sum();
    let held = prime_values.len() as u64 * std::mem::size_of::<PrimeJson>() as u64
        + witness_bytes
        + match args.output.format {
            Format::Text => 0,
            Format::Json => prime_values.len() as u64 * JSON_PER_PRIME + witness_bytes,
        };
    let _room = solver.budget().room_for_output(held)?;
    let mut primes: Vec<PrimeJson> = Vec::new();
    primes
        .try_reserve_exact(prime_values.len())
        .map_err(|_| out_of_memory(prime_values.len()))?;
    primes.extend(prime_values.iter().map(|&p| PrimeJson {
        value: p,
        witness: render(p),
    }));
    let found = !primes.is_empty();
    match args.output.format {
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
            let object = WithValues {
                head: &j,
                values: args.values.then_some(&values),
            };
            print_with(|out| {
                serde_json::to_writer_pretty(&mut *out, &object).map_err(io::Error::from)?;
                writeln!(out)
            })?;
        }
        Format::Text => print_with(|out| {
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
                values.for_each(|v| write!(out, " {v}"))?;
                writeln!(out)?;
            }
            Ok(())
        })?,
    }
    Ok(if found { Verdict::Yes } else { Verdict::No })
}

/// Every value of the hand, from the value-only path or the full table.
enum Listed<'a> {
    Sets(&'a HandValues),
    Table(&'a [Value]),
}

impl Listed<'_> {
    fn len(&self) -> usize {
        match self {
            Listed::Sets(s) => s.len(),
            Listed::Table(t) => t.len(),
        }
    }

    /// Calls `f` on each value, ascending, up to its first error.
    fn for_each<E>(&self, mut f: impl FnMut(Value) -> Result<(), E>) -> Result<(), E> {
        match self {
            Listed::Sets(s) => s.iter().try_for_each(f),
            Listed::Table(t) => t.iter().try_for_each(|&v| f(v)),
        }
    }
}

impl serde::Serialize for Listed<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len()))?;
        self.for_each(|v| seq.serialize_element(&json::integer(v)))?;
        seq.end()
    }
}

/// The JSON object: `head`'s entries, then the values, written as they
/// are serialized instead of held as a tree.
struct WithValues<'a> {
    head: &'a serde_json::Map<String, serde_json::Value>,
    values: Option<&'a Listed<'a>>,
}

impl serde::Serialize for WithValues<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map =
            s.serialize_map(Some(self.head.len() + usize::from(self.values.is_some())))?;
        for (k, v) in self.head {
            map.serialize_entry(k, v)?;
        }
        if let Some(values) = self.values {
            map.serialize_entry("values", values)?;
        }
        map.end()
    }
}

/// The refusal when the allocator cannot give the room already charged.
fn out_of_memory(lines: usize) -> anyhow::Error {
    anyhow::anyhow!("not enough memory to write {lines} lines of output")
}
