//! Machine-readable summaries (`--format json`): one vocabulary for every
//! command. Every object carries `schema` (the version of this layout).
//! A probability or mean is an object `{"fraction": "10/2067", "value":
//! 0.004838…}`: the exact fraction as a string and the nearest float.
//! Integers are exact JSON numbers; those that can pass 2^53 (primes,
//! values) are also given as decimal strings in a field named `…_text`,
//! since JavaScript's and jq's readers round larger numbers.

use serde_json::{Value as Json, json};

use crate::analysis::{Analysis, NotDone, Witnessed};
use crate::arith::Value;
use crate::game::{Simulation, Spread, Summary, wilson};
use crate::ratio::Ratio;
use crate::style::Style;

/// The version of the JSON layout; it changes when a field changes meaning
/// or goes away (new fields may appear without it).
pub const SCHEMA: u32 = 1;

/// The rules as an object, with `max_value_text` and `max_prime_text`
/// (null for any prime, like `max_prime`) beside the exact numbers.
///
/// # Panics
/// Never: the rules always serialize.
pub fn rules(r: &crate::rules::Rules) -> Json {
    let mut j = serde_json::to_value(r).expect("rules serialize");
    j["max_value_text"] = json!(r.max_value.to_string());
    j["max_prime_text"] = json!(r.max_prime.map(|p| p.to_string()));
    j
}

/// What every per-hand object (`query`, `check`) starts with: `schema`,
/// `hand` (the counted values), `rule_set` and `rules`.
pub fn hand_header(
    hand: crate::hand::Hand,
    r: &crate::rules::Rules,
) -> serde_json::Map<String, Json> {
    let mut m = serde_json::Map::new();
    m.insert("schema".into(), json!(SCHEMA));
    m.insert("hand".into(), json!(hand.values()));
    m.insert("rule_set".into(), json!(r.name()));
    m.insert("rules".into(), rules(r));
    m
}

/// An exact fraction and its nearest float.
pub fn ratio(r: Ratio) -> Json {
    json!({ "fraction": r.to_string(), "value": r.to_f64() })
}

/// A call: `prime`, `prime_text`, `witness`.
pub fn call(c: &Witnessed, style: Style) -> Json {
    json!({
        "prime": integer(c.prime),
        "prime_text": c.prime.to_string(),
        "witness": c.witness.render(style),
    })
}

/// An exact integer as a JSON number when it fits 64 bits (signed or not,
/// as JSON readers parse them), else as its decimal string: values reach
/// down to −(2^64 − 1), below what any reader takes as a number.
pub fn integer(v: Value) -> Json {
    if let Ok(n) = i64::try_from(v) {
        Json::from(n)
    } else if let Ok(n) = u64::try_from(v) {
        Json::from(n)
    } else {
        Json::String(v.to_string())
    }
}

/// A prime and its decimal string, or nulls.
pub fn big(v: Option<Value>) -> (Json, Json) {
    match v {
        Some(v) => (integer(v), json!(v.to_string())),
        None => (Json::Null, Json::Null),
    }
}

/// One rule set's answers, as `analyze --format json` lists them.
pub fn analysis(a: &Analysis, style: Style) -> Json {
    let failing: Vec<Json> = a
        .failing()
        .map(|h| {
            json!({
                "hand": h.hand.values(),
                "deals": h.deals,
                "probability": ratio(a.weight(h)),
            })
        })
        .collect();
    let highest = a.highest();
    json!({
        "rule_set": a.folder(),
        "rules": rules(&a.rules),
        "cards": a.cards,
        "hands": a.hands.len(),
        "deals": a.total_deals,
        "failing": failing,
        "failing_probability": ratio(a.failing_probability()),
        "counted": a.counted(),
        "mean_primes": a.mean_primes().map_or(Json::Null, ratio),
        "screen": a.screen,
        "highest": highest.map(|(h, c)| {
            let mut j = call(c, style);
            j["hand"] = json!(h.hand.values());
            j
        }),
    })
}

/// `analyze --format json`: every rule set of the run, those not done and
/// why, and where the reports went.
pub fn analyses(
    analyses: &[Analysis],
    not_done: &[NotDone],
    style: Style,
    files: usize,
    folder: &str,
) -> Json {
    json!({
        "schema": SCHEMA,
        "rule_sets": analyses.iter().map(|a| analysis(a, style)).collect::<Vec<_>>(),
        "not_done": not_done
            .iter()
            .map(|n| json!({
                "rule_set": n.folder(),
                "rules": rules(&n.rules),
                "reason": n.reason(),
            }))
            .collect::<Vec<_>>(),
        "reports": { "files": files, "folder": folder },
    })
}

fn spread(s: &Option<Spread>) -> Json {
    match s {
        None => Json::Null,
        Some(s) => json!({
            "count": s.count,
            "mean": ratio(s.mean),
            "median": s.median,
            "p10": s.p10,
            "p90": s.p90,
            "max": s.max,
        }),
    }
}

/// `simulate --format json`: the run and what it shows; wins are shares of
/// the finished games, with 95% Wilson intervals.
pub fn simulation(sim: &Simulation, s: &Summary) -> Json {
    let wins: Vec<Json> = s
        .wins
        .iter()
        .enumerate()
        .map(|(seat, &w)| {
            json!({
                "seat": seat + 1,
                "model": sim.players[seat].name,
                "wins": w,
                // No share of no finished game.
                "share": (s.finished > 0).then(|| ratio(Ratio::new(w as u128, s.finished as u128))),
                "interval95": (s.finished > 0).then(|| wilson(w, s.finished)),
            })
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "rule_set": sim.rules.name(),
        "rules": rules(&sim.rules),
        "players": sim.players.iter().map(|m| &*m.name).collect::<Vec<_>>(),
        "two_player": sim.two_player,
        "games": s.games,
        "seed": sim.seed,
        "max_turns": sim.max_turns,
        "finished": s.finished,
        "unfinished": s.games - s.finished,
        "turns_of_finished": spread(&s.turns),
        "median_turns_interval95": s.turns_median_interval,
        "p90_turns_interval95": s.turns_p90_interval,
        "turns_of_all": spread(&s.all_turns),
        "median_turns_of_all_interval95": s.all_turns_median_interval,
        "p90_turns_of_all_interval95": s.all_turns_p90_interval,
        "phases": s.phases.as_ref().map(|[opening, endgame]| {
            let phase = |p: &crate::game::Phase| serde_json::json!({
                "turns": spread(&p.turns),
                "tie_rate": ratio(p.tie_rate),
                "no_call_rate": ratio(p.no_call_rate),
            });
            serde_json::json!({ "opening": phase(opening), "endgame": phase(endgame) })
        }),
        "tie_rate": ratio(s.tie_rate),
        "no_call_rate": ratio(s.no_call_rate),
        "no_prime_rate": ratio(s.no_prime_rate),
        "endgame_rate": ratio(s.endgame_rate),
        "endgame": sim.endgame.name(),
        "draws": s.draws,
        "wins": wins,
        "rebuilds_of_finished": spread(&s.rebuilds),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_carry_the_exact_fraction() {
        let j = ratio(Ratio::new(10, 2067));
        assert_eq!(j["fraction"], "10/2067");
        assert!((j["value"].as_f64().unwrap() - 0.004_838).abs() < 1e-6);
    }
}
