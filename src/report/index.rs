//! The index `README.md` of a report folder: the answer to the rules'
//! question, then one row per rule set.

use std::fmt::Write as _;

use crate::analysis::Analysis;
use crate::rules::{Faces, Rules};
use crate::words::plural;

pub fn render(analyses: &[Analysis]) -> String {
    let mut out = String::new();
    let _ = write_index(analyses, &mut out);
    out
}

fn write_index(analyses: &[Analysis], out: &mut String) -> std::fmt::Result {
    writeln!(out, "# Prime Time: can every hand make a prime?")?;
    writeln!(out)?;
    writeln!(
        out,
        "David Parlett asks whether any three-card combination fails to make a prime. \
         prime-solve answers exhaustively, for every hand the 54-card pack deals."
    )?;
    writeln!(out)?;
    for faces in Faces::ALL {
        let plain = Rules {
            faces,
            ..Rules::default()
        };
        if let Some(a) = analyses.iter().find(|a| a.rules == plain && a.cards == 3) {
            writeln!(out, "- {}", answer(a))?;
        }
    }
    let failing_sets = analyses
        .iter()
        .filter(|a| a.failing().next().is_some())
        .count();
    writeln!(
        out,
        "- Of the {} below, {} {} a hand that fails.",
        plural(analyses.len(), "rule set", "rule sets"),
        failing_sets,
        if failing_sets == 1 { "has" } else { "have" }
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| rule set | hands | failing hands | P(failing deal) | mean primes per deal | highest prime |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|")?;
    for a in analyses {
        let failing = a.failing().count();
        writeln!(
            out,
            "| [{0}]({0}/summary.md) | {1} | {2} | {3} | {4} | {5} |",
            a.folder(),
            a.hands.len(),
            failing,
            a.failing_probability(),
            a.mean_primes().decimal(3),
            a.highest()
                .map_or("none".to_string(), |(_, c)| c.prime.to_string())
        )?;
    }
    Ok(())
}

/// One sentence on one rule set.
fn answer(a: &Analysis) -> String {
    let faces = match a.rules.faces {
        Faces::Five => "With face cards counting 5, as the rules are written",
        Faces::Rank => "With J, Q, K counting 11, 12, 13",
        Faces::Suit => "With face cards counting their suit",
    };
    let failing: Vec<String> = a
        .failing()
        .map(|h| format!("{} (probability {})", h.hand, a.weight(h)))
        .collect();
    if failing.is_empty() {
        format!(
            "{faces} (`{}`), no hand fails: every deal makes a prime.",
            a.folder()
        )
    } else {
        format!(
            "{faces} (`{}`), {}: {}; a deal fails with probability {} ({}).",
            a.folder(),
            plural(failing.len(), "hand fails", "hands fail"),
            failing.join(", "),
            a.failing_probability(),
            a.failing_probability().percent(3)
        )
    }
}
