//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::io::{self, Write as _};

use anyhow::Result;

use std::sync::Arc;

use prime_solve::EveryValue;
use prime_solve::report::json;
use prime_solve::text::plural;
use prime_solve::{Solver, Want};

use super::args::{Format, QueryArgs, parse_hand};
use super::{Spinner, Verdict, print_with};

/// Bytes a listed prime takes in the JSON tree beyond a copy of its
/// witness: its object of three entries (about 600 measured with a
/// counting allocator, allocator overhead aside).
const JSON_PER_PRIME: u64 = 768;

pub fn run(args: &QueryArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let hand = parse_hand(&args.cards, rules.faces, &args.hand)?;
    let solver = Solver::new(rules)?.with_budget(Arc::clone(super::memory::budget()));
    let want = if args.values {
        Want::Values
    } else {
        Want::Primes
    };
    let spinner = Spinner::start("solving", false);
    let answer = solver.query(hand, want)?;
    drop(spinner);
    let pruned = answer.pruned();
    let style = args.style.style();
    // The primes with their witnesses are held until they are written;
    // the text itself, and the list of values (87 million of them for six
    // cards under T), go out as they are written.
    let extra = match args.output.format {
        Format::Text => 0,
        Format::Json => JSON_PER_PRIME,
    };
    let (primes, _room) = answer.written(style, extra)?;
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
            let values = answer.values();
            let object = WithValues {
                head: &j,
                values: values.as_ref().map(Listed),
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
            if let Some(values) = answer.values() {
                write!(out, "{}:", plural(values.len(), "value", "values"))?;
                for v in values.iter() {
                    write!(out, " {v}")?;
                }
                writeln!(out)?;
            }
            Ok(())
        })?,
    }
    Ok(if found { Verdict::Yes } else { Verdict::No })
}

/// Every value of the hand, serialized as JSON integers as they are
/// written.
struct Listed<'a>(&'a EveryValue<'a>);

impl serde::Serialize for Listed<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0.iter() {
            seq.serialize_element(&json::integer(v))?;
        }
        seq.end()
    }
}

/// The JSON object: `head`'s entries, then the values, written as they
/// are serialized instead of held as a tree.
struct WithValues<'a> {
    head: &'a serde_json::Map<String, serde_json::Value>,
    values: Option<Listed<'a>>,
}

impl serde::Serialize for WithValues<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map =
            s.serialize_map(Some(self.head.len() + usize::from(self.values.is_some())))?;
        for (k, v) in self.head {
            map.serialize_entry(k, v)?;
        }
        if let Some(values) = &self.values {
            map.serialize_entry("values", values)?;
        }
        map.end()
    }
}
