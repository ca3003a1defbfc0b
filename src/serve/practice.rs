//! The practice drill over HTTP: hands dealt as the pack deals them (one
//! at a time, or the day's ten, the same for everyone on a date), each
//! with its hints, and a round ruled and scored by the drill's own code
//! (`practice::Round`): the verdict, the points, every prime with its
//! witness and what the player missed.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Result;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::response::Response;

use prime_solve::practice::{Answers, Played, Reply, Round, Summary};
use prime_solve::report::json;
use prime_solve::request::Request;
use prime_solve::{Rng, Rules};

use super::Shared;
use super::api::{Asked, Refusal, Weight, fault_words, from_body, respond, solve, weigh};

/// Hands in a day's deal.
const DAILY: usize = 10;
/// The longest a round may say it took: a day (a phone left on the table
/// overnight still sends a number).
const MAX_MS: u64 = 86_400_000;
/// The most points a round scores: 10 for the call, 10 for speed, 10 for
/// height.
const MAX_SCORE: u64 = 30;

/// The house rules of a request that deals its own cards, once its
/// endpoint has taken its own parameters.
fn rules_of(request: &Request) -> Result<Rules, Refusal> {
    if request.cards.is_some() {
        return Err(Refusal::bad(
            "this path deals the cards: give n=3 for how many",
        ));
    }
    request.done()?;
    Ok(request.rules)
}

/// `GET /api/v1/deal?n=3&seed=S&<rules>`: a hand as the pack deals it
/// (the same seed deals the same hand; none, a fresh one).
pub(super) async fn deal(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Asked(mut request): Asked,
) -> Response {
    let answer = async {
        let (n, seed) = (request.take("n"), request.take("seed"));
        let rules = rules_of(&request)?;
        let k = match n.map(|n| n.parse::<usize>()) {
            None => 3,
            Some(Ok(k @ 2..=6)) => k,
            Some(_) => return Err(Refusal::bad("n is how many cards, 2 to 6")),
        };
        let seed = match seed.map(|s| s.parse::<u64>()) {
            None => fresh_seed()?,
            Some(Ok(s)) => s,
            Some(Err(_)) => return Err(Refusal::bad("seed is a whole number, 0 or more")),
        };
        let style = request.style;
        solve(&shared, weigh(k, &rules, peer.ip()), move |job| {
            let run = || -> Result<String> {
                let solver = job.solver(rules)?;
                let deal = json::deal(&solver, k, &mut Rng::new(seed), style)?;
                Ok(serde_json::to_string(&json::dealt(seed, &rules, deal))? + "\n")
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
pub(super) async fn daily(
    State(shared): State<Arc<Shared>>,
    Asked(mut request): Asked,
) -> Response {
    let answer = async {
        let date = request.take("date");
        let rules = rules_of(&request)?;
        let date = date.ok_or_else(|| Refusal::bad("no date: give date=2026-12-06"))?;
        let seed = daily_seed(&date).ok_or_else(|| {
            Refusal::bad(format!(
                "`{}` is not a date: give it as 2026-12-06",
                prime_solve::text::excerpt(&date)
            ))
        })?;
        let style = request.style;
        solve(&shared, Weight::Light, move |job| {
            let run = || -> Result<String> {
                let solver = job.solver(rules)?;
                let mut rng = Rng::new(seed);
                let deals = (0..DAILY)
                    .map(|_| json::deal(&solver, 3, &mut rng, style))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(serde_json::to_string(&json::daily(date, &rules, deals))? + "\n")
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
    Some(prime_solve::fnv1a64(
        format!("prime-solve daily {date}").as_bytes(),
    ))
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
        let mut request = from_body(&body)?;
        let number = |value: Option<String>, key: &str, max: u64| -> Result<u64, Refusal> {
            match value.map(|v| v.parse::<u64>()) {
                None => Ok(0),
                Some(Ok(n)) if n <= max => Ok(n),
                Some(_) => Err(Refusal::bad(format!(
                    "{key} is a whole number from 0 to {max}"
                ))),
            }
        };
        let ms = number(request.take("ms"), "ms", MAX_MS)?;
        let hints_taken =
            u32::try_from(number(request.take("hints"), "hints", 1000)?).unwrap_or(1000);
        let claim = request.take("claim").unwrap_or_default();
        request.done()?;
        let (cards, hand) = request.hand()?;
        let (rules, style) = (request.rules, request.style);
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
                let worked = json::worked(&round.answers, style);
                let object = json::practice_round(&round, &claim, &rules, &worked, fault_words);
                Ok(serde_json::to_string(&object)? + "\n")
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    respond(answer.await)
}

/// A drill's rounds, as the page kept them.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Drill {
    rounds: Vec<Played>,
}

/// `POST /api/v1/practice/summary` with `{"rounds": [{"valid": true, "ms":
/// 1500, "score": 29}, ...]}`: the drill summed up as `prime-solve
/// practice` sums it up.
pub(super) async fn summary(body: Bytes) -> Response {
    let answer = || -> Result<String, Refusal> {
        let drill: Drill = serde_json::from_slice(&body)
            .map_err(|e| Refusal::bad(format!("the body is not a drill's rounds: {e}")))?;
        if let Some(r) = drill
            .rounds
            .iter()
            .find(|r| r.ms > MAX_MS || r.score > MAX_SCORE)
        {
            return Err(Refusal::bad(format!(
                "a round takes 0 to {MAX_MS} ms and scores 0 to {MAX_SCORE} points, not {} ms and {} points",
                r.ms, r.score
            )));
        }
        let summary = Summary::of_played(&drill.rounds);
        serde_json::to_string(&json::summary(&summary))
            .map(|text| text + "\n")
            .map_err(|e| Refusal::bad(e.to_string()))
    };
    respond(answer())
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
