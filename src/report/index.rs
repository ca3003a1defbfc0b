//! The index `README.md` of a report folder: the answer to the rules'
//! question, one row per rule set, and links to the other reports.

use std::fmt::Write as _;

use crate::analysis::{Analysis, NotDone};
use crate::rules::{Faces, Rules};
use crate::text::{number, plural};

/// A report an index of three-card hands may link to, beside it in the
/// same folder: the line that describes it, and the files it links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Companion {
    /// A Markdown list item, its links relative to the index.
    pub line: &'static str,
    /// The files (or folders' `README.md`) its links lead to.
    pub files: &'static [&'static str],
}

/// The reports the tool writes beside an index of three-card hands, in
/// the order an index lists them. A caller passes [`render`] those whose
/// files are there, so that every link of an index leads to a file.
pub const COMPANIONS: [Companion; 6] = [
    Companion {
        line: "- Strategy tables to print, the best and the quickest call for every hand: \
               [face cards count 5](table-five.md) (`prime-solve table`) and \
               [J Q K count 11 12 13](table-rank.md) (`prime-solve table --faces rank`).",
        files: &["table-five.md", "table-rank.md"],
    },
    Companion {
        line: "- Crib sheets to print, every hand's best prime with its calculation and its quickest call: \
               [face cards count 5](crib-five.pdf) (two A4 pages, `prime-solve crib`) and \
               [J Q K count 11 12 13](crib-rank.pdf) (four pages, `prime-solve crib --faces rank`).",
        files: &["crib-five.pdf", "crib-rank.pdf"],
    },
    Companion {
        line: "- [Simulated games](simulation.md): how long the game lasts and who wins, \
               between player models of different skill (`prime-solve simulate --study`).",
        files: &["simulation.md"],
    },
    Companion {
        line: "- [House rules](house-rules.md): what each house rule does to the game, exact and \
               simulated, against Parlett's own advice (`prime-solve advise`).",
        files: &["house-rules.md"],
    },
    Companion {
        line: "- [Four cards](cards-4/README.md): can every hand make a prime with four players? \
               Every four-card hand under all 72 rule sets, summaries only \
               (`prime-solve analyze --cards 4 --all-rules --summaries-only --out reports/cards-4`).",
        files: &["cards-4/README.md"],
    },
    Companion {
        line: "- [Five cards](cards-5/README.md) and [six cards](cards-6/README.md): the same for five \
               and six players (`--cards 5`; `--cards 6 --skip-refused`, which lists any rule set \
               that does not fit the memory limit instead of stopping; on a 24 GiB machine all \
               72 fit).",
        files: &["cards-5/README.md", "cards-6/README.md"],
    },
];

/// The index of `analyses`, with the rule sets `not_done` and why, and,
/// for three-card hands, links to the `companions` beside it.
pub fn render(analyses: &[Analysis], not_done: &[NotDone], companions: &[Companion]) -> String {
    let mut out = String::new();
    let _ = write_index(analyses, not_done, companions, &mut out);
    out
}

fn write_index(
    analyses: &[Analysis],
    not_done: &[NotDone],
    companions: &[Companion],
    out: &mut String,
) -> std::fmt::Result {
    let cards = analyses
        .first()
        .map(|a| a.cards)
        .or_else(|| not_done.first().map(|n| n.cards))
        .unwrap_or(3);
    write_answer(analyses, not_done, cards, out)?;
    write_table(analyses, cards, out)?;
    write_not_done(not_done, out)?;
    write_others(analyses, companions, out)
}

/// The title and the answer to the rules' question, per face rule.
fn write_answer(
    analyses: &[Analysis],
    not_done: &[NotDone],
    cards: usize,
    out: &mut String,
) -> std::fmt::Result {
    writeln!(out, "# Prime Time: can every hand make a prime?")?;
    writeln!(out)?;
    if cards == 3 {
        writeln!(
            out,
            "David Parlett asks whether any three-card combination fails to make a prime. \
             prime-solve answers exhaustively, for every hand the 54-card pack deals."
        )?;
    } else {
        writeln!(
            out,
            "David Parlett asks whether any combination of the cards on the table fails to \
             make a prime. prime-solve answers exhaustively, for every hand of {} cards \
             the 54-card pack deals.",
            number(cards)
        )?;
    }
    writeln!(out)?;
    for faces in Faces::ALL {
        let plain = Rules {
            faces,
            ..Rules::default()
        };
        if let Some(a) = analyses.iter().find(|a| a.rules == plain) {
            writeln!(out, "- {}", answer(a))?;
        }
    }
    writeln!(out, "- {}", failing_sets(analyses))?;
    if !not_done.is_empty() {
        writeln!(
            out,
            "- {} not done: {} not fit in memory (listed at the end).",
            plural(not_done.len(), "rule set was", "rule sets were"),
            if not_done.len() == 1 {
                "it does"
            } else {
                "they do"
            }
        )?;
    }
    writeln!(out)?;
    Ok(())
}

/// One row per rule set, with the notes its marks call for.
fn write_table(analyses: &[Analysis], cards: usize, out: &mut String) -> std::fmt::Result {
    writeln!(
        out,
        "| rule set | hands | failing hands | chance a deal fails | mean primes per deal | highest prime |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|")?;
    let mut bounded = None;
    let mut screened = None;
    for a in analyses {
        let failing = a.failing().count();
        let (mean, highest) = match (a.mean_primes(), a.highest()) {
            (Some(mean), Some((_, c))) => (mean.decimal(3), c.prime.to_string()),
            (Some(mean), None) => (mean.decimal(3), "none".to_string()),
            (None, _) => {
                screened = a.screen;
                ("not counted ‡".to_string(), "not counted ‡".to_string())
            }
        };
        let mark = if a.highest_set_by_bound() && a.counted() {
            bounded = Some(a.bound());
            " †"
        } else {
            ""
        };
        writeln!(
            out,
            "| [{0}]({0}/summary.md) | {1} | {2} | {3} | {mean} | {highest}{mark} |",
            a.folder(),
            a.hands.len(),
            failing,
            a.failing_probability().probability(),
        )?;
    }
    if let Some(bound) = bounded {
        writeln!(out)?;
        writeln!(
            out,
            "† The highest prime *below the value bound* ({}): with any prime allowed, \
             some values pass the bound and are not followed, and some of those could have \
             led to a larger prime, so here the bound, not the game, may set the highest \
             prime. Without †, a rule set with any prime shows the highest prime its rules \
             make: nothing cut off at the bound could have led further.",
            bound
        )?;
    }
    if let Some(screen) = screened {
        writeln!(out)?;
        writeln!(
            out,
            "‡ {} The failing hands are exact all the same.",
            screen_note(screen, cards)
        )?;
    }
    Ok(())
}

/// The rule sets that did not fit the memory, and why.
fn write_not_done(not_done: &[NotDone], out: &mut String) -> std::fmt::Result {
    if !not_done.is_empty() {
        writeln!(out)?;
        writeln!(out, "## Not done")?;
        writeln!(out)?;
        writeln!(
            out,
            "{} did not fit the memory the run could use (`--memory-limit`, by default \
             half the machine's memory):",
            if not_done.len() == 1 {
                "This rule set".to_string()
            } else {
                format!("These {} rule sets", number(not_done.len()))
            }
        )?;
        writeln!(out)?;
        writeln!(out, "| rule set | why |")?;
        writeln!(out, "|---|---|")?;
        for n in not_done {
            writeln!(out, "| {} | {} |", n.folder(), n.reason())?;
        }
    }
    Ok(())
}

/// Links to the other reports beside the index, and to the rules.
fn write_others(
    analyses: &[Analysis],
    companions: &[Companion],
    out: &mut String,
) -> std::fmt::Result {
    writeln!(out)?;
    writeln!(out, "## Other reports")?;
    writeln!(out)?;
    if analyses.iter().any(|a| a.cards != 3) {
        // The tables, crib sheets and simulations are of three-card hands,
        // and are not written beside a sweep of other hand sizes.
        writeln!(
            out,
            "The reports of hands of three cards, the strategy tables, the crib sheets, the simulated \
             games and the house-rule advice are in the repository's `reports/` folder; the rules and every decision \
             the tool makes in `docs/rules.md`."
        )?;
        return Ok(());
    }
    if !companions.is_empty() {
        writeln!(
            out,
            "Written by the commands in the repository's README beside these folders:"
        )?;
        writeln!(out)?;
        for c in companions {
            writeln!(out, "{}", c.line)?;
        }
    }
    writeln!(
        out,
        "- The rules and every decision the tool makes: `docs/rules.md` in the repository."
    )?;
    Ok(())
}

/// How many of the rule sets have a failing hand, in words that agree.
fn failing_sets(analyses: &[Analysis]) -> String {
    let failing = analyses
        .iter()
        .filter(|a| a.failing().next().is_some())
        .count();
    match (analyses.len(), failing) {
        (1, 0) => "The rule set below has no hand that fails.".to_string(),
        (1, _) => "The rule set below has a hand that fails.".to_string(),
        (n, 0) => format!("None of the {n} rule sets below has a hand that fails."),
        (n, 1) => format!("Of the {n} rule sets below, one has a hand that fails."),
        (n, m) => format!("Of the {n} rule sets below, {m} have a hand that fails."),
    }
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
        .map(|h| format!("{} with probability {}", h.hand, a.weight(h).probability()))
        .collect();
    if failing.is_empty() {
        format!(
            "{faces} (`{}`), no hand fails: every deal makes a prime.",
            a.folder()
        )
    } else {
        format!(
            "{faces} (`{}`), {}: {}; a deal fails with probability {}.",
            a.folder(),
            plural(failing.len(), "hand fails", "hands fail"),
            failing.join(", "),
            a.failing_probability().probability()
        )
    }
}

/// Why a screened census of `cards`-card hands does not count every prime,
/// in words.
pub(crate) fn screen_note(screen: u64, cards: usize) -> String {
    format!(
        "With any prime and functions, a hand of {} cards makes thousands of primes (tens \
         of thousands with n! and √n), most of them in the millions and beyond, far past \
         anything called at the table; counting them all takes up to hours per rule set \
         (`analyze --count-every-prime` does). This census lists each hand's primes up to \
         {screen}, and searches in full the hands that make at most one of them.",
        number(cards)
    )
}
