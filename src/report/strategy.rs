//! Strategy tables a player can print (`prime-solve table`): the best and
//! the quickest call for every hand, a grid to find a hand in seconds, and
//! an index of which hands make each prime.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::analysis::{Analysis, Difficulty, HandResult, Witnessed};
use crate::arith::Value;
use crate::hand::Hand;
use crate::report::csv::difficulty;
use crate::style::Style;

/// The three tables in Markdown, witnesses printed in `style`.
pub fn markdown(a: &Analysis, style: Style) -> String {
    let mut out = String::new();
    let _ = write_markdown(a, style, &mut out);
    out
}

fn write_markdown(a: &Analysis, style: Style, out: &mut String) -> std::fmt::Result {
    let call = |c: Option<&Witnessed>| {
        c.map_or("none".to_string(), |c| {
            format!("{} = {}", c.prime, c.say(style))
        })
    };
    writeln!(
        out,
        "# Prime Time strategy tables: rule set `{}`",
        a.folder()
    )?;
    writeln!(out)?;
    writeln!(out, "Rules: {}.", a.rules.describe_in(style.ascii))?;
    writeln!(out)?;
    writeln!(out, "## Every hand: the best call and the quickest call")?;
    writeln!(out)?;
    writeln!(
        out,
        "The best call is the highest prime; the quickest is the prime with the simplest witness. \
         {}",
        Difficulty::explain(a.cards, style.ascii)
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| hand | chance per deal | best call | quickest call | difficulty |"
    )?;
    writeln!(out, "|---|---|---|---|---|")?;
    for h in &a.hands {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            h.hand,
            a.weight(h).probability(),
            call(h.highest.as_ref()),
            call(h.simplest.as_ref()),
            difficulty(h.difficulty)
        )?;
    }
    writeln!(out)?;
    if a.cards == 3 {
        write_grid(a, out)?;
    }
    writeln!(out, "## Which hands make each prime")?;
    writeln!(out)?;
    writeln!(out, "| prime | chance per deal | hands |")?;
    writeln!(out, "|---|---|---|")?;
    let mut by_prime: BTreeMap<Value, Vec<&HandResult>> = BTreeMap::new();
    for h in &a.hands {
        for &p in &h.primes {
            by_prime.entry(p).or_default().push(h);
        }
    }
    let chance = a.prime_probabilities(Value::MAX);
    for (p, hands) in by_prime {
        let names: Vec<String> = hands.iter().map(|h| h.hand.to_string()).collect();
        writeln!(
            out,
            "| {p} | {} | {} |",
            chance[&p].probability(),
            names.join(", ")
        )?;
    }
    Ok(())
}

/// Rows: the two lower cards; columns: the third card; cells: the highest prime.
fn write_grid(a: &Analysis, out: &mut String) -> std::fmt::Result {
    let max = a.rules.faces.max_value();
    writeln!(out, "## Find a hand: its highest prime")?;
    writeln!(out)?;
    writeln!(
        out,
        "Rows are the two lower cards, columns the third card; `-` marks a hand with no prime."
    )?;
    writeln!(out)?;
    let head: Vec<String> = (1..=max).map(|c| c.to_string()).collect();
    writeln!(out, "| low two | {} |", head.join(" | "))?;
    writeln!(out, "|---|{}", "---|".repeat(usize::from(max)))?;
    for x in 1..=max {
        for y in x..=max {
            let cells: Vec<String> = (1..=max)
                .map(|c| {
                    if c < y {
                        return String::new();
                    }
                    match a.get(Hand::from_values(&[x, y, c])) {
                        Some(h) => h
                            .highest
                            .as_ref()
                            .map_or("-".to_string(), |c| c.prime.to_string()),
                        None => String::new(),
                    }
                })
                .collect();
            writeln!(out, "| **{x} {y}** | {} |", cells.join(" | "))?;
        }
    }
    writeln!(out)
}

/// The per-hand table as CSV.
///
/// # Panics
/// Never: the table is written to memory.
pub fn csv(a: &Analysis, style: Style) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "hand",
        "weight",
        "highest_prime",
        "highest_witness",
        "simplest_prime",
        "simplest_witness",
        "difficulty",
    ])
    .expect("writing to memory");
    for h in &a.hands {
        let [bp, bc] = Witnessed::fields(h.highest.as_ref(), style);
        let [qp, qc] = Witnessed::fields(h.simplest.as_ref(), style);
        let hard = difficulty(h.difficulty);
        out.write_record([
            h.hand.to_string(),
            a.weight(h).to_string(),
            bp,
            bc,
            qp,
            qc,
            hard,
        ])
        .expect("writing to memory");
    }
    String::from_utf8(out.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}
