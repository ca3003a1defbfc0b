//! The practice drill over HTTP: hands dealt as the pack deals them (one
//! at a time, or the day's ten, the same for everyone on a date), each
//! with its hints, and a round ruled and scored by the drill's own code
//! (`practice::Round`): the verdict, the points, every prime with its
//! witness and what the player missed.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Result;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use prime_solve::practice::{Answers, Reply, Round, counted, face};
use prime_solve::report::json;
use prime_solve::{Card, Hand, Rng, Rules, Solver, Style};

use super::Shared;
use super::api::{
    Options, Params, Refusal, Weight, flat, hand_and_rules, read, respond, solve, weigh,
};
use crate::cli::hints;

/// Hands in a day's deal.
const DAILY: usize = 10;
/// The longest a round may say it took: a day (a phone left on the table
/// overnight still sends a number).
const MAX_MS: u64 = 86_400_000;

/// A hand dealt: its cards as shown and as typed, what each counts, the
/// hand, and the primes it makes easiest first (the drill's `?`).
#[derive(Serialize)]
struct DealJson {
    cards: Vec<String>,
    tokens: Vec<String>,
    values: Vec<u8>,
    hand: Vec<u8>,
    hints: Vec<json::Integer>,
}

/// `GET /api/v1/deal`'s answer.
#[derive(Serialize)]
struct OneJson {
    schema: u32,
    seed: u64,
    rule_set: String,
    #[serde(flatten)]
    deal: DealJson,
}

/// `GET /api/v1/daily`'s answer.
#[derive(Serialize)]
struct DailyJson {
    schema: u32,
    date: String,
    rule_set: String,
    deals: Vec<DealJson>,
}

/// A prime the hand makes, with its witness worked.
#[derive(Serialize)]
struct PrimeJson {
    value: json::Integer,
    value_text: String,
    witness: String,
    steps: Vec<String>,
}

/// `POST /api/v1/practice`'s answer: the round as the drill scores it.
#[derive(Serialize)]
struct RoundJson {
    schema: u32,
    verdict: Option<serde_json::Value>,
    prime: Option<json::Integer>,
    score: u64,
    primes: Vec<PrimeJson>,
    simplest_prime: Option<json::Integer>,
    best_prime: Option<json::Integer>,
    missed: Vec<json::Integer>,
}

/// `cards` dealt from `rng` under `rules`, with the hints for them.
fn dealt(
    solver: &Solver,
    k: usize,
    rng: &mut Rng,
    style: Style,
) -> Result<DealJson, prime_solve::SolveError> {
    let faces = solver.rules().faces;
    let (cards, hand) = prime_solve::practice::deal(k, faces, rng);
    let answers = Answers::of(solver, hand)?;
    Ok(DealJson {
        cards: cards.iter().map(|&c| face(c, style)).collect(),
        tokens: cards.iter().map(|&c| face(c, Style::ASCII)).collect(),
        values: counted(&cards, faces).unwrap_or_default(),
        hand: hand.values(),
        hints: answers.hints().into_iter().map(json::Integer).collect(),
    })
}

/// The house rules and style of a request with no cards, and the
/// parameters it takes besides.
fn rules_of(params: &BTreeMap<String, String>, own: &[&str]) -> Result<(Rules, Options), Refusal> {
    if params.contains_key("cards") {
        return Err(Refusal::bad(
            "this path deals the cards: give n=3 for how many",
        ));
    }
    let options = read(params, own)?;
    let rules = options.rules.rules().map_err(|e| Refusal::of(&e))?;
    Ok((rules, options))
}

/// `GET /api/v1/deal?n=3&seed=S&<rules>`: a hand as the pack deals it
/// (the same seed deals the same hand; none, a fresh one).
pub(super) async fn deal(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Params(params): Params,
) -> Response {
    let answer = async {
        let (rules, options) = rules_of(&params, &["n", "seed"])?;
        let k = match params.get("n").map(|n| n.parse::<usize>()) {
            None => 3,
            Some(Ok(k @ 2..=6)) => k,
            Some(_) => return Err(Refusal::bad("n is how many cards, 2 to 6")),
        };
        let seed = match params.get("seed").map(|s| s.parse::<u64>()) {
            None => fresh_seed()?,
            Some(Ok(s)) => s,
            Some(Err(_)) => return Err(Refusal::bad("seed is a whole number, 0 or more")),
        };
        let style = options.style.style();
        solve(&shared, weigh(k, &rules, peer.ip()), move |job| {
            let run = || -> Result<String> {
                let solver = job.solver(rules)?;
                let deal = dealt(&solver, k, &mut Rng::new(seed), style)?;
                Ok(serde_json::to_string(&OneJson {
                    schema: json::SCHEMA,
                    seed,
                    rule_set: rules.name(),
                    deal,
                })? + "\n")
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    respond(answer.await)
}

/// A seed from the operating system's random source.
fn fresh_seed() -> Result<u64, Refusal> {
    getrandom::u64().map_err(|e| Refusal {
        status: axum::http::StatusCode::SERVICE_UNAVAILABLE,
        message: format!("no random seed to be had: {e}"),
    })
}

/// `GET /api/v1/daily?date=YYYY-MM-DD&<rules>`: the day's ten hands of
/// three cards, the same cards for everyone on that date under any rules.
pub(super) async fn daily(State(shared): State<Arc<Shared>>, Params(params): Params) -> Response {
    let answer = async {
        let (rules, options) = rules_of(&params, &["date"])?;
        let date = params
            .get("date")
            .ok_or_else(|| Refusal::bad("no date: give date=2026-12-06"))?;
        let seed = daily_seed(date).ok_or_else(|| {
            Refusal::bad(format!(
                "`{}` is not a date: give it as 2026-12-06",
                prime_solve::text::excerpt(date)
            ))
        })?;
        let date = date.clone();
        let style = options.style.style();
        solve(&shared, Weight::Light, move |job| {
            let run = || -> Result<String> {
                let solver = job.solver(rules)?;
                let mut rng = Rng::new(seed);
                let deals = (0..DAILY)
                    .map(|_| dealt(&solver, 3, &mut rng, style))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(serde_json::to_string(&DailyJson {
                    schema: json::SCHEMA,
                    date,
                    rule_set: rules.name(),
                    deals,
                })? + "\n")
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    respond(answer.await)
}

/// The seed of a date's deal, for a date written `YYYY-MM-DD` that is on
/// the calendar (years 1-9999): the 64-bit FNV-1a hash of
/// `prime-solve daily YYYY-MM-DD`, so every server deals the same hands.
fn daily_seed(date: &str) -> Option<u64> {
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        b.get(r)?.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if year == 0 || !(1..=days).contains(&day) {
        return None;
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("prime-solve daily {date}").bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    Some(hash)
}

/// `POST /api/v1/practice` with `{"cards": "QH 7C JK", "claim": "12 * 7 / 12",
/// "ms": 4200, "hints": 0, ...rules}`: the round ruled and scored as the
/// drill scores it. No claim, or an empty one, is a pass.
pub(super) async fn round(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    let answer = async {
        let params = flat(&body)?;
        let number = |key: &str, max: u64| -> Result<u64, Refusal> {
            match params.get(key).map(|v| v.parse::<u64>()) {
                None => Ok(0),
                Some(Ok(n)) if n <= max => Ok(n),
                Some(_) => Err(Refusal::bad(format!(
                    "{key} is a whole number from 0 to {max}"
                ))),
            }
        };
        let ms = number("ms", MAX_MS)?;
        let hints_taken = u32::try_from(number("hints", 1000)?).unwrap_or(1000);
        let claim = params.get("claim").cloned().unwrap_or_default();
        let (hand, rules, options) = hand_and_rules(&params, &["claim", "ms", "hints"])?;
        let cards = shown_cards(&params, hand);
        let style = options.style.style();
        solve(&shared, weigh(hand.len(), &rules, peer.ip()), move |job| {
            let run = || -> Result<String> {
                let solver = job.solver(rules)?;
                let answers = Answers::of(&solver, hand)?;
                let reply = if claim.trim().is_empty() {
                    Reply::Pass
                } else {
                    Reply::Claim(claim.clone())
                };
                let round = Round::rule(cards, answers, reply, ms, hints_taken, &rules);
                let verdict = match &round.ruling {
                    None => None,
                    Some(ruling) => Some(serde_json::to_value(json::check(
                        hand,
                        &rules,
                        &claim,
                        ruling,
                        |f| format!("{f}{}", hints::for_fault(f)),
                    ))?),
                };
                let a = &round.answers;
                let object = RoundJson {
                    schema: json::SCHEMA,
                    verdict,
                    prime: round.prime().map(json::Integer),
                    score: round.score(),
                    primes: a
                        .primes
                        .iter()
                        .map(|p| PrimeJson {
                            value: json::Integer(p.prime),
                            value_text: p.prime.to_string(),
                            witness: p.witness.render(style),
                            steps: p.witness.steps(style),
                        })
                        .collect(),
                    simplest_prime: a.simplest().map(|p| json::Integer(p.prime)),
                    best_prime: a.best().map(|p| json::Integer(p.prime)),
                    missed: round.missed().into_iter().map(json::Integer).collect(),
                };
                Ok(serde_json::to_string(&object)? + "\n")
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    match answer.await {
        Ok(body) => super::api::json_response(axum::http::StatusCode::OK, body),
        Err(refusal) => refusal.into_response(),
    }
}

/// The cards of a round as the player saw them: the tokens sent, read as
/// cards (they make `hand`, already read), or the hand's values.
fn shown_cards(params: &BTreeMap<String, String>, hand: Hand) -> Vec<Card> {
    params
        .get("cards")
        .and_then(|c| {
            c.split([',', ' ', '+'])
                .filter(|t| !t.is_empty())
                .map(|t| Card::parse(t).ok())
                .collect::<Option<Vec<Card>>>()
        })
        .unwrap_or_else(|| hand.values().into_iter().map(Card::Value).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_on_the_calendar_and_seeds_the_same_deal() {
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-04-31",
            "0000-01-01",
            "2026-1-01",
            "2026/01/01",
            "２０２６-01-01",
            "",
        ] {
            assert_eq!(daily_seed(bad), None, "{bad}");
        }
        for good in ["2024-02-29", "2000-02-29", "2026-12-31", "9999-01-01"] {
            assert!(daily_seed(good).is_some(), "{good}");
        }
        assert_eq!(daily_seed("2026-12-06"), daily_seed("2026-12-06"));
        assert_ne!(daily_seed("2026-12-06"), daily_seed("2026-12-07"));
    }
}
