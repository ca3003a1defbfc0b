//! `prime-solve query`: every prime one hand makes, with witnesses.

use std::io::{self, Write};
use std::sync::Arc;

use anyhow::Result;

use prime_solve::report::json;
use prime_solve::text::plural;
use prime_solve::ways::{Shown, Ways};
use prime_solve::{Answer, Card, Expr, Hand, Rules, Solver, Style, Value, Want, Written};

use super::args::{Format, QueryArgs, parse_hand};
use super::{Spinner, Verdict, print_with};

pub(crate) fn run(args: &QueryArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let (cards, hand) = parse_hand(&args.cards, rules.faces, &args.hand)?;
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
        Format::Json => json::BYTES_PER_PRIME,
    };
    let (primes, _room) = if args.steps.steps {
        answer.written_with_steps(style, extra)?
    } else {
        answer.written(style, extra)?
    };
    let found = !primes.is_empty();
    // A hand that fails under a ceiling: the prime it would call above it.
    let nearest = if found {
        None
    } else {
        solver.nearest_above(hand)?
    };
    let ways = match args.ways.ways {
        Some(_) => Some(count_ways(&answer)?),
        None => None,
    };
    let query = Found {
        hand,
        cards,
        rules,
        style,
        answer,
        pruned,
        primes,
        nearest,
        ways,
        all: args.ways.ways == Some(Shown::All),
    };
    match args.output.format {
        Format::Json => print_with(|out| write_json(out, &query))?,
        Format::Text => print_with(|out| write_text(out, &args.cards, &query))?,
    }
    Ok(if found { Verdict::Yes } else { Verdict::No })
}

/// What a query found, as it is written.
struct Found<'s> {
    hand: Hand,
    /// The cards as given.
    cards: Vec<Card>,
    rules: Rules,
    style: Style,
    answer: Answer<'s>,
    /// The operations beyond the bound, where they were counted.
    pruned: Option<u64>,
    primes: Vec<Written>,
    /// Where the hand makes no prime under a ceiling: the nearest above it.
    nearest: Option<(Value, Expr)>,
    /// The ways to each prime, under `--ways`; `all`: every way shown.
    ways: Option<Ways>,
    all: bool,
}

/// The ways to each prime of `answer`, with a spinner.
fn count_ways(answer: &Answer<'_>) -> Result<Ways> {
    let _spinner = Spinner::start("counting the ways", false);
    Ok(Ways::of_answer(
        answer,
        Arc::clone(super::memory::budget()),
    )?)
}

fn write_json(out: &mut impl Write, q: &Found<'_>) -> io::Result<()> {
    let nearest = q.nearest.as_ref();
    match &q.ways {
        Some(ways) => serde_json::to_writer_pretty(
            &mut *out,
            &json::query_with_ways(&q.answer, &q.cards, &q.primes, ways, q.all, q.style)
                .with_nearest(nearest, q.style),
        ),
        None => serde_json::to_writer_pretty(
            &mut *out,
            &json::query(&q.answer, &q.cards, &q.primes, q.style).with_nearest(nearest, q.style),
        ),
    }
    .map_err(io::Error::from)?;
    writeln!(out)
}

/// The text of a query of the hand written as `cards`.
fn write_text(out: &mut impl Write, cards: &[String], q: &Found<'_>) -> io::Result<()> {
    let (hand, rules) = (q.hand, &q.rules);
    // The cards as given, and what they count where that differs.
    let given: Vec<&str> = cards.iter().flat_map(|t| Card::tokens(t)).collect();
    let plain = given.iter().all(|t| t.bytes().all(|b| b.is_ascii_digit()));
    let given = prime_solve::text::echo(&given.join(" ")).to_string();
    if plain {
        writeln!(out, "hand: {hand}")?;
    } else {
        writeln!(out, "hand: {given} (counting {hand})")?;
    }
    writeln!(
        out,
        "rules: {} ({})",
        rules.name(),
        rules.describe_in(q.style.ascii)
    )?;
    match q.primes.last() {
        None => match (&q.nearest, rules.max_prime) {
            (Some((p, how)), Some(max)) => writeln!(
                out,
                "no prime up to {max}: this hand fails under these rules; the nearest \
                 prime above is {p} = {} (allowed with --high-primes)",
                how.render(q.style)
            )?,
            _ => writeln!(out, "no prime: this hand fails under these rules")?,
        },
        Some(top) => {
            write_primes(out, q)?;
            writeln!(out, "highest prime: {} = {}", top.value, top.witness)?;
        }
    }
    if let Some(ways) = &q.ways {
        let d = ways.difficulty();
        let weights = if q.style.ascii {
            "+ - 1, * / 2, ^ 3"
        } else {
            "+ − 1, × ÷ 2, ^ 3"
        };
        writeln!(
            out,
            "difficulty: {}{} (lower is easier: all the ways together are as easy to find as one way of that weight, {weights}, ...)",
            d.score()
                .map_or("no prime".to_string(), |s| format!("{s:.1}")),
            if d.is_hard() { ", hard" } else { "" }
        )?;
    }
    if let Some(n) = q.pruned.filter(|&n| n > 0) {
        writeln!(
            out,
            "pruned: {} beyond {}{} and {} not followed",
            plural(n, "operation went", "operations went"),
            if q.style.ascii { "+-" } else { "±" },
            rules.max_value,
            if n == 1 { "was" } else { "were" }
        )?;
    }
    if let Some(values) = q.answer.values() {
        write!(out, "{}:", plural(values.len(), "value", "values"))?;
        for v in values.iter() {
            write!(out, " {v}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The primes (there is one at least), each with its witness, its working
/// where asked for, and its ways where counted.
fn write_primes(out: &mut impl Write, q: &Found<'_>) -> io::Result<()> {
    let primes = &q.primes;
    let top = primes.last().expect("a prime");
    let width = top.value.to_string().len();
    writeln!(out, "{}:", plural(primes.len(), "prime", "primes"))?;
    let witness_width = primes.iter().map(|p| p.witness.chars().count()).max();
    // Each witness's working, where asked for, right under it.
    let worked = |out: &mut dyn std::io::Write, steps: &[String]| -> io::Result<()> {
        for step in steps {
            writeln!(out, "  {:>width$}   {step}", "")?;
        }
        Ok(())
    };
    for p in primes {
        let Some(ways) = &q.ways else {
            writeln!(out, "  {:>width$} = {}", p.value, p.witness)?;
            worked(out, p.steps.as_deref().unwrap_or_default())?;
            continue;
        };
        let of = ways.of(p.value).unwrap_or_default();
        writeln!(
            out,
            "  {:>width$} = {:<ww$}   {}",
            p.value,
            p.witness,
            plural(of.len(), "way", "ways"),
            ww = witness_width.unwrap_or(0)
        )?;
        worked(out, p.steps.as_deref().unwrap_or_default())?;
        for w in of.iter().skip(1).filter(|_| q.all) {
            let w = w.expr.shown(q.rules.max_value);
            writeln!(out, "  {:>width$} = {}", "", w.render(q.style))?;
            if p.steps.is_some() {
                worked(out, &w.steps(q.style))?;
            }
        }
    }
    Ok(())
}
