//! `summary.md`: one rule set in words and numbers.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::analysis::Analysis;
use crate::arith::Value;
use crate::prime::is_prime;
use crate::ratio::Ratio;
use crate::report::{grid, index, list, plot};
use crate::rules::DEFAULT_MAX_PRIME;
use crate::style::Style;

/// The summary, witnesses printed in `style`.
///
/// With `plots` false the summary does not show the plots, which are then
/// not written beside it.
///
/// ```
/// use prime_solve::analysis::analyze;
/// use prime_solve::report::summary;
/// use prime_solve::{Budget, Rules, Style};
///
/// let a = analyze(Rules::default(), 3, &Budget::unlimited(), &|_| {})?;
/// let text = summary::render(&a, Style::UNICODE, false);
/// assert!(text.starts_with("# Prime Time: rule set `five`"));
/// assert!(text.contains("No. Every one of the 220 hands makes at least one prime."));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(a: &Analysis, style: Style, plots: bool) -> String {
    let mut out = String::new();
    let _ = write_summary(a, style, plots, &mut out);
    out
}

fn write_summary(a: &Analysis, style: Style, plots: bool, out: &mut String) -> std::fmt::Result {
    header(a, style, out)?;
    failing(a, out)?;
    single(a, style, out)?;
    hardest(a, style, out)?;
    per_deal(a, plots, out)?;
    chances(a, out)?;
    highest(a, style, out)?;
    grid(a, out)
}

/// The title, the rules and how many hands and deals.
fn header(a: &Analysis, style: Style, out: &mut String) -> std::fmt::Result {
    writeln!(out, "# Prime Time: rule set `{}`", a.folder())?;
    writeln!(out)?;
    writeln!(out, "Rules: {}.", a.rules.describe_in(style.ascii))?;
    writeln!(
        out,
        "Every hand of {} cards the 54-card pack deals: {} different hands in {} deals.",
        a.cards,
        a.hands.len(),
        a.total_deals
    )?;
    writeln!(out)?;
    Ok(())
}

/// Whether any hand fails: the hands that make no prime, and primes above the ceiling they could make.
fn failing(a: &Analysis, out: &mut String) -> std::fmt::Result {
    writeln!(out, "## Does any hand fail?")?;
    writeln!(out)?;
    let failing: Vec<_> = a.failing().collect();
    if failing.is_empty() {
        writeln!(
            out,
            "No. Every one of the {} hands makes at least one prime.",
            a.hands.len()
        )?;
    } else {
        let p = a.failing_probability();
        writeln!(
            out,
            "Yes: {} of {} hands {} no prime. A deal fails with probability {}.",
            failing.len(),
            a.hands.len(),
            if failing.len() == 1 { "makes" } else { "make" },
            p.probability()
        )?;
        writeln!(out)?;
        writeln!(out, "| hand | probability | values it can make |")?;
        writeln!(out, "|---|---|---|")?;
        for h in &failing {
            writeln!(
                out,
                "| {} | {} | {} |",
                h.hand,
                a.weight(h).probability(),
                list(&h.values)
            )?;
        }
        // A failing hand can make a prime the ceiling leaves out.
        if let Some(ceiling) = a.rules.max_prime {
            let mut over: Vec<Value> = failing
                .iter()
                .flat_map(|h| h.values.iter().copied())
                .filter(|&v| v > Value::from(ceiling) && is_prime(v))
                .collect();
            over.sort_unstable();
            over.dedup();
            if !over.is_empty() {
                writeln!(out)?;
                writeln!(
                    out,
                    "{} {} prime but above the ceiling of {ceiling}, so {} not count.",
                    list(&over),
                    if over.len() == 1 { "is" } else { "are" },
                    if over.len() == 1 {
                        "it does"
                    } else {
                        "they do"
                    },
                )?;
            }
        }
    }
    writeln!(out)?;
    Ok(())
}

/// The hands that make exactly one prime, and how.
fn single(a: &Analysis, style: Style, out: &mut String) -> std::fmt::Result {
    writeln!(out, "## Hands with exactly one prime")?;
    writeln!(out)?;
    let single: Vec<_> = a.single().collect();
    if single.is_empty() {
        writeln!(out, "None.")?;
    } else {
        writeln!(out, "| hand | probability | the prime | how |")?;
        writeln!(out, "|---|---|---|---|")?;
        for h in single {
            let call = h.highest.as_ref().expect("one prime");
            writeln!(
                out,
                "| {} | {} | {} | `{}` |",
                h.hand,
                a.weight(h).probability(),
                call.prime,
                call.say(style)
            )?;
        }
    }
    writeln!(out)?;
    Ok(())
}

/// The hardest hands by their ways, and why each is hard: how many ways
/// make its primes and how heavy they are. Only where the ways were
/// counted.
fn hardest(a: &Analysis, style: Style, out: &mut String) -> std::fmt::Result {
    if !a.ways_counted() {
        return Ok(());
    }
    writeln!(out, "## The hardest hands")?;
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        crate::analysis::Difficulty::explain(a.cards, style.ascii)
    )?;
    writeln!(out)?;
    let mut hands: Vec<_> = a.hands.iter().filter(|h| !h.primes.is_empty()).collect();
    hands.sort_by_key(|h| {
        (
            h.difficulty.map_or(0, |d| d.ease),
            std::cmp::Reverse(h.deals),
            h.hand,
        )
    });
    let hard = a
        .hands
        .iter()
        .filter(|h| {
            h.difficulty
                .is_some_and(crate::analysis::Difficulty::is_hard)
        })
        .map(|h| a.weight(h))
        .fold(crate::ratio::Ratio::ZERO, |s, w| s + w);
    writeln!(out, "Hard deals: {}.", hard.probability())?;
    writeln!(out)?;
    writeln!(
        out,
        "| hand | probability | difficulty | why: the ways to each prime |"
    )?;
    writeln!(out, "|---|---|---|---|")?;
    for h in hands.into_iter().take(10) {
        let why: Vec<String> = h
            .primes
            .iter()
            .zip(&h.ways)
            .map(|(p, n)| {
                format!(
                    "{p}: {}",
                    crate::text::plural(usize::try_from(*n).unwrap_or(usize::MAX), "way", "ways")
                )
            })
            .collect();
        let quickest = h
            .simplest
            .as_ref()
            .map(|s| {
                format!(
                    "; quickest `{} = {}`, weight {}",
                    s.prime,
                    s.say(style),
                    s.weight
                )
            })
            .unwrap_or_default();
        writeln!(
            out,
            "| {} | {} | {} | {}{quickest} |",
            h.hand,
            a.weight(h).probability(),
            crate::report::csv::difficulty(h.difficulty),
            why.join(", ")
        )?;
    }
    writeln!(out)?;
    Ok(())
}

/// How many primes a deal makes: the distribution, the mean and its plot, or why they were not counted.
fn per_deal(a: &Analysis, plots: bool, out: &mut String) -> std::fmt::Result {
    writeln!(out, "## Primes per deal")?;
    writeln!(out)?;
    match (a.prime_count_distribution(), a.mean_primes()) {
        (Some(counts), Some(mean)) => {
            write_counts(&counts, out)?;
            writeln!(out)?;
            writeln!(out, "Mean primes per deal: {}.", mean.decimal(3))?;
            writeln!(out)?;
            if plots {
                writeln!(out, "![Primes per deal]({})", plot::PRIME_COUNTS)?;
                writeln!(out)?;
            }
        }
        _ => {
            writeln!(
                out,
                "Not counted. {}",
                index::screen_note(a.screen.unwrap_or(DEFAULT_MAX_PRIME), a.cards)
            )?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// The chance that a deal can make each prime up to the screen or the ceiling.
fn chances(a: &Analysis, out: &mut String) -> std::fmt::Result {
    writeln!(out, "## How likely each prime is")?;
    writeln!(out)?;
    // Up to the screen or the ceiling; without either, up to the rules' own 97.
    let upto = a.screen.or(a.rules.max_prime).unwrap_or(DEFAULT_MAX_PRIME);
    writeln!(
        out,
        "The chance that a deal can make each prime up to {upto}."
    )?;
    writeln!(out)?;
    writeln!(out, "| prime | probability |")?;
    writeln!(out, "|---|---|")?;
    for (p, prob) in a.prime_probabilities(Value::from(upto)) {
        writeln!(out, "| {p} | {} |", prob.probability())?;
    }
    writeln!(out)?;
    Ok(())
}

/// The highest prime, and whether the value bound or the game sets it.
fn highest(a: &Analysis, style: Style, out: &mut String) -> std::fmt::Result {
    writeln!(out, "## Highest prime")?;
    writeln!(out)?;
    match a.highest() {
        Some((h, call)) => {
            writeln!(
                out,
                "{} = `{}`, from the hand {}.",
                call.prime,
                call.say(style),
                h.hand
            )?;
            if a.highest_set_by_bound() {
                writeln!(out)?;
                writeln!(
                    out,
                    "This is the highest prime *below the value bound* ({}): any prime \
                     counts, but values beyond the bound are not followed, and some of \
                     those could have led to a larger prime, so the bound, not the game, \
                     may set it.",
                    a.bound()
                )?;
            } else if a.highest_is_the_games() {
                writeln!(out)?;
                writeln!(
                    out,
                    "Any prime counts, and nothing beyond the value bound ({}) could have \
                     led to a larger prime (a product, power, T(n) or n! past it is never \
                     prime, and no sum or difference could pass it), so this is the \
                     highest prime these rules make.",
                    a.bound()
                )?;
            }
        }
        None if !a.counted() => writeln!(
            out,
            "Not searched for: with any prime it lies just below the value bound ({}), \
             which sets it more than the game does.",
            a.bound()
        )?,
        None => writeln!(out, "No hand makes a prime.")?,
    }
    Ok(())
}

/// The heatmap of each three-card hand's highest prime.
fn grid(a: &Analysis, out: &mut String) -> std::fmt::Result {
    if a.cards == 3 {
        writeln!(out)?;
        writeln!(out, "## Highest prime of each hand")?;
        writeln!(out)?;
        writeln!(out, "Rows are the two lower cards, columns the third card.")?;
        writeln!(out)?;
        writeln!(out, "![Highest prime of each hand]({})", grid::GRID)?;
    }
    Ok(())
}

/// The distribution of prime counts: one row per count, or, when there are
/// more than twenty counts (rule sets with any prime and functions reach
/// 150), counts 0-9 one by one and then a row per ten.
fn write_counts(counts: &BTreeMap<usize, (usize, Ratio)>, out: &mut String) -> std::fmt::Result {
    let group = if counts.len() > 20 { 10 } else { 1 };
    let mut rows: BTreeMap<usize, (usize, Ratio)> = BTreeMap::new();
    for (&count, &(hands, p)) in counts {
        let row = rows
            .entry(if count < 10 {
                count
            } else {
                count / group * group
            })
            .or_insert((0, Ratio::ZERO));
        row.0 += hands;
        row.1 = row.1 + p;
    }
    writeln!(out, "| primes | hands | probability |")?;
    writeln!(out, "|---|---|---|")?;
    for (low, (hands, p)) in rows {
        let primes = if group == 1 || low < 10 {
            low.to_string()
        } else {
            format!("{low}-{}", low + group - 1)
        };
        writeln!(out, "| {primes} | {hands} | {} |", p.probability())?;
    }
    Ok(())
}
