//! The drill's objects: a line of `practice --format json`, a hand dealt,
//! the day's ten, a round ruled and scored, and a drill's summary.

use serde::Serialize;

use super::{CheckJson, Integer, PrimeJson, SCHEMA, check, primes_json};
use crate::arith::Value;
use crate::card::Card;
use crate::engine::{SolveError, Solver, Written};
use crate::practice::{Answer, Answers, Reply, Round, Summary, counted, face};
use crate::referee::Fault;
use crate::rng::Rng;
use crate::rules::{Faces, Rules};
use crate::style::Style;

/// A call of the drill: the prime and its witness.
#[derive(Serialize)]
pub struct PracticeCallJson {
    prime: Value,
    witness: String,
}

/// One line of `practice --format json`: a round as played.
#[derive(Serialize)]
pub struct PracticeLineJson {
    round: u32,
    hand: Vec<String>,
    values: Vec<u8>,
    claim: Option<String>,
    valid: bool,
    value: Option<Value>,
    fault: Option<String>,
    seconds: f64,
    hints: u32,
    score: u64,
    simplest: Option<PracticeCallJson>,
    best: Option<PracticeCallJson>,
    prime_count: usize,
    missed: Vec<Value>,
}

/// [`PracticeLineJson`] of round `n`, its cards and witnesses in `style`.
pub fn practice_line(n: u32, r: &Round, faces: Faces, style: Style) -> PracticeLineJson {
    let call = |a: Option<&Answer>| {
        a.map(|a| PracticeCallJson {
            prime: a.prime,
            witness: a.witness.render(style),
        })
    };
    PracticeLineJson {
        round: n,
        hand: r.cards.iter().map(|&c| face(c, style)).collect(),
        values: counted(&r.cards, faces).unwrap_or_default(),
        claim: match &r.reply {
            Reply::Claim(c) => Some(c.clone()),
            Reply::Pass => None,
        },
        valid: r.prime().is_some(),
        value: r.prime(),
        fault: r
            .ruling
            .as_ref()
            .and_then(|v| v.as_ref().err())
            .map(ToString::to_string),
        seconds: r.ms as f64 / 1000.0,
        hints: r.hints,
        score: r.score(),
        simplest: call(r.answers.simplest()),
        best: call(r.answers.best()),
        prime_count: r.answers.primes.len(),
        missed: r.missed(),
    }
}

/// A hand dealt: its cards as shown and as typed, what each counts, the
/// hand, and the primes it makes easiest first (the drill's `?`).
#[derive(Serialize)]
pub struct DealJson {
    cards: Vec<String>,
    tokens: Vec<String>,
    values: Vec<u8>,
    hand: Vec<u8>,
    hints: Vec<Integer>,
}

/// `k` cards dealt from `rng` under the solver's rules, with the hints
/// for them, the cards shown in `style`.
///
/// # Errors
/// [`SolveError`] where the hand's primes do not fit the budget.
pub fn deal(
    solver: &Solver,
    k: usize,
    rng: &mut Rng,
    style: Style,
) -> Result<DealJson, SolveError> {
    let faces = solver.rules().faces;
    let (cards, hand) = crate::practice::deal(k, faces, rng);
    let answers = Answers::of(solver, hand)?;
    Ok(DealJson {
        cards: shown(&cards, style),
        tokens: shown(&cards, Style::ASCII),
        values: counted(&cards, faces).unwrap_or_default(),
        hand: hand.values(),
        hints: answers.hints().into_iter().map(Integer).collect(),
    })
}

fn shown(cards: &[Card], style: Style) -> Vec<String> {
    cards.iter().map(|&c| face(c, style)).collect()
}

/// A hand dealt from a seed, as `GET /api/v1/deal` answers.
#[derive(Serialize)]
pub struct DealtJson {
    schema: u32,
    seed: u64,
    rule_set: String,
    /// The rules, as every answer writes them (in words too).
    rules: serde_json::Value,
    #[serde(flatten)]
    deal: DealJson,
}

/// [`DealtJson`] of `deal`, dealt from `seed` under `rules`.
pub fn dealt(seed: u64, rules: &Rules, deal: DealJson) -> DealtJson {
    DealtJson {
        schema: SCHEMA,
        seed,
        rule_set: rules.name(),
        rules: rules_value(rules),
        deal,
    }
}

/// The day's hands, as `GET /api/v1/daily` answers.
#[derive(Serialize)]
pub struct DailyJson {
    schema: u32,
    date: String,
    rule_set: String,
    /// The rules, as every answer writes them (in words too).
    rules: serde_json::Value,
    deals: Vec<DealJson>,
}

/// [`DailyJson`] of the `deals` of `date` under `rules`.
pub fn daily(date: String, rules: &Rules, deals: Vec<DealJson>) -> DailyJson {
    DailyJson {
        schema: SCHEMA,
        date,
        rule_set: rules.name(),
        rules: rules_value(rules),
        deals,
    }
}

/// The rules as [`super::rules`] writes them, as a JSON value.
fn rules_value(rules: &Rules) -> serde_json::Value {
    serde_json::to_value(super::rules(rules)).unwrap_or_default()
}

/// Each prime of `answers` with its witness worked in `style`, for
/// [`practice_round`].
pub fn worked(answers: &Answers, style: Style) -> Vec<Written> {
    answers
        .primes
        .iter()
        .map(|p| Written {
            value: p.prime,
            witness: p.witness.render(style),
            steps: Some(p.witness.steps(style)),
        })
        .collect()
}

/// A round ruled and scored as the drill scores it, as `POST
/// /api/v1/practice` answers: the referee's verdict (the object of
/// `check`, null for a pass), the prime called, the points, every prime
/// with its witness worked, the quickest and the best, the primes missed.
#[derive(Serialize)]
pub struct PracticeRoundJson<'a> {
    schema: u32,
    verdict: Option<CheckJson<'a>>,
    prime: Option<Integer>,
    score: u64,
    primes: Vec<PrimeJson<'a>>,
    simplest_prime: Option<Integer>,
    best_prime: Option<Integer>,
    missed: Vec<Integer>,
}

/// [`PracticeRoundJson`] of `round` (its claim `claim`, under `rules`),
/// its primes written as `worked` ([`worked`]) and its fault as `words`
/// says.
pub fn practice_round<'a>(
    round: &Round,
    claim: &'a str,
    rules: &'a Rules,
    worked: &'a [Written],
    words: impl Fn(&Fault) -> String,
) -> PracticeRoundJson<'a> {
    let a = &round.answers;
    PracticeRoundJson {
        schema: SCHEMA,
        verdict: round
            .ruling
            .as_ref()
            .map(|ruling| check(a.hand, rules, claim, ruling, words)),
        prime: round.prime().map(Integer),
        score: round.score(),
        primes: primes_json(worked),
        simplest_prime: a.simplest().map(|p| Integer(p.prime)),
        best_prime: a.best().map(|p| Integer(p.prime)),
        missed: round.missed().into_iter().map(Integer).collect(),
    }
}

/// A drill summed up: its rounds, the correct calls, the points, and the
/// median and slowest time of a correct call (null for none).
#[derive(Serialize)]
pub struct SummaryJson {
    schema: u32,
    rounds: usize,
    correct: usize,
    score: u64,
    median_ms: Option<u64>,
    worst_ms: Option<u64>,
}

/// [`SummaryJson`] of `s`.
pub fn summary(s: &Summary) -> SummaryJson {
    SummaryJson {
        schema: SCHEMA,
        rounds: s.rounds,
        correct: s.correct,
        score: s.score,
        median_ms: s.median_ms,
        worst_ms: s.worst_ms,
    }
}
