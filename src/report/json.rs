//! Machine-readable summaries (`--format json`, and the HTTP API's
//! answers): one vocabulary for every command and endpoint, each object a
//! `Serialize` struct whose fields are written in the order declared.
//! Every top-level object carries `schema` (the version of this layout),
//! but for the JSON Lines of `practice` and a refusal's `{"error": ...}`.
//! A probability or mean is an object
//! `{"fraction": "10/2067", "value": 0.004838…}`: the exact fraction as a
//! string and the nearest float. Integers are exact JSON numbers; those
//! that can pass 2^53 (primes, values) are also given as decimal strings
//! in a field named `…_text`, since JavaScript's and jq's readers round
//! larger numbers.

mod practice;

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

pub use practice::{
    DailyJson, DealJson, DealtJson, PracticeCallJson, PracticeLineJson, PracticeRoundJson,
    SummaryJson, daily, deal, dealt, practice_line, practice_round, summary, worked,
};

use crate::analysis::{Analysis, NotDone, Witnessed};
use crate::arith::Value;
use crate::card::Card;
use crate::deck::Dealt;
use crate::engine::{Answer, EveryValue, Written};
use crate::game::{Phase, Simulation, Spread, Summary, wilson};
use crate::hand::Hand;
use crate::ratio::Ratio;
use crate::referee::Fault;
use crate::rules::Rules;
use crate::style::Style;

/// Bytes a listed prime's JSON object may take beyond a copy of its
/// witness (its entry, its value as text, the writer's buffer): a bound
/// well above what it holds, for [`Answer::written`]'s room.
pub const BYTES_PER_PRIME: u64 = 768;

/// The version of the JSON layout; it changes when a field changes meaning
/// or goes away (new fields may appear without it).
pub const SCHEMA: u32 = 1;

/// An exact integer: a JSON number when it fits 64 bits (signed or not,
/// as JSON readers parse them), else its decimal string, since values
/// reach down to −(2^64 − 1), below what any reader takes as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Integer(pub Value);

impl Serialize for Integer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Ok(n) = i64::try_from(self.0) {
            s.serialize_i64(n)
        } else if let Ok(n) = u64::try_from(self.0) {
            s.serialize_u64(n)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// The rules as an object, with `max_value_text` and `max_prime_text`
/// (null for any prime, like `max_prime`) beside the exact numbers, and
/// the rules in words.
#[derive(Serialize)]
pub struct RulesJson<'a> {
    #[serde(flatten)]
    rules: &'a Rules,
    max_value_text: String,
    max_prime_text: Option<String>,
    /// The rules in words ([`Rules::describe`]), for people.
    described: String,
}

/// [`RulesJson`] of `r`, its words in `× ÷ −`.
pub fn rules(r: &Rules) -> RulesJson<'_> {
    rules_in(r, Style::UNICODE)
}

/// [`RulesJson`] of `r`, its words written in `style` (`* / -` where it
/// is ASCII, as the witnesses beside it are).
pub fn rules_in(r: &Rules, style: Style) -> RulesJson<'_> {
    RulesJson {
        rules: r,
        max_value_text: r.max_value.to_string(),
        max_prime_text: r.max_prime.map(|p| p.to_string()),
        described: r.describe_in(style.ascii),
    }
}

/// An exact fraction and its nearest float.
#[derive(Serialize)]
pub struct RatioJson {
    fraction: String,
    value: f64,
}

/// [`RatioJson`] of `r`.
pub fn ratio(r: Ratio) -> RatioJson {
    RatioJson {
        fraction: r.to_string(),
        value: r.to_f64(),
    }
}

/// A call: `prime`, `prime_text`, `witness`, and the hand where a list of
/// calls needs it.
#[derive(Serialize)]
pub struct CallJson {
    prime: Integer,
    prime_text: String,
    witness: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    hand: Option<Vec<u8>>,
}

/// [`CallJson`] of `c`, its witness written in `style`.
pub fn call(c: &Witnessed, style: Style) -> CallJson {
    CallJson {
        prime: Integer(c.prime),
        prime_text: c.prime.to_string(),
        witness: c.witness.render(style),
        hand: None,
    }
}

/// What every per-hand object (`query`, `check`) starts with: `schema`,
/// `hand` (the counted values), `rule_set` and `rules`.
#[derive(Serialize)]
pub struct HandHeader<'a> {
    schema: u32,
    hand: Vec<u8>,
    rule_set: String,
    rules: RulesJson<'a>,
}

/// [`HandHeader`] of `hand` under `r`, the rules' words in `style`.
pub fn hand_header(hand: Hand, r: &Rules, style: Style) -> HandHeader<'_> {
    HandHeader {
        schema: SCHEMA,
        hand: hand.values(),
        rule_set: r.name(),
        rules: rules_in(r, style),
    }
}

/// `query --format json`: the hand's primes with their witnesses, the
/// highest, the operations cut off at the bound (null where not counted),
/// and every value where they were asked for.
#[derive(Serialize)]
pub struct QueryJson<'a> {
    #[serde(flatten)]
    header: HandHeader<'a>,
    /// The cards as given, in their order, written in the style (`Q♥`,
    /// `10♣`, `JK`, a bare value as its number).
    cards: Vec<String>,
    primes: Vec<PrimeJson<'a>>,
    highest_prime: Option<Integer>,
    highest_prime_text: Option<String>,
    simplest_prime: Option<Integer>,
    pruned: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<ValuesJson<'a>>,
    /// With `--ways`: the hand's difficulty ([`crate::ways::Difficulty`]),
    /// `null` for no prime, and whether it is hard.
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hard: Option<bool>,
    /// The difficulty in a word: `easy`, `tricky` or `hard`
    /// ([`crate::ways::Difficulty::word`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty_word: Option<&'static str>,
    /// For a hand that makes no prime under the ceiling: the smallest
    /// prime above it, with its witness ([`crate::Solver::nearest_above`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    nearest_above: Option<NearestJson>,
}

/// The smallest prime above the ceiling, and how.
#[derive(Serialize)]
pub struct NearestJson {
    value: Integer,
    value_text: String,
    witness: String,
}

impl QueryJson<'_> {
    /// With the smallest prime above the ceiling, for a hand that fails.
    #[must_use]
    pub fn with_nearest(
        mut self,
        nearest: Option<&(Value, crate::expr::Expr)>,
        style: Style,
    ) -> Self {
        self.nearest_above = nearest.map(|(p, how)| NearestJson {
            value: Integer(*p),
            value_text: p.to_string(),
            witness: how.render(style),
        });
        self
    }
}

/// A prime with its witness, in a query's list.
#[derive(Serialize)]
pub struct PrimeJson<'a> {
    value: Integer,
    value_text: String,
    witness: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<&'a [String]>,
    /// With `--ways`: how many essentially different ways make it.
    #[serde(skip_serializing_if = "Option::is_none")]
    ways: Option<usize>,
    /// With `--ways all`: one example of each way, simplest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    way_witnesses: Option<Vec<String>>,
}

/// Each prime with its witness, as a query lists them.
fn primes_json(primes: &[Written]) -> Vec<PrimeJson<'_>> {
    primes
        .iter()
        .map(|p| PrimeJson {
            value: Integer(p.value),
            value_text: p.value.to_string(),
            witness: &p.witness,
            steps: p.steps.as_deref(),
            ways: None,
            way_witnesses: None,
        })
        .collect()
}

/// Every value of a hand, written as it is serialized (87 million of them
/// for six cards under T), not held as a tree.
pub struct ValuesJson<'a>(EveryValue<'a>);

impl Serialize for ValuesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0.iter() {
            seq.serialize_element(&Integer(v))?;
        }
        seq.end()
    }
}

/// [`QueryJson`] of `answer` for the `cards` given, its primes written as
/// `primes` ([`Answer::written`]): the object `prime-solve query --format
/// json` prints.
///
/// ```
/// use prime_solve::report::json;
/// use prime_solve::{Hand, Rules, Solver, Style, Want};
///
/// let solver = Solver::new(Rules::default())?;
/// let answer = solver.query(Hand::from_values(&[4, 6, 8]), Want::Primes)?;
/// let (primes, _room) = answer.written(Style::ASCII, 0)?;
/// let cards = ["4", "6", "8"].map(|t| prime_solve::Card::parse(t).unwrap());
/// let j = serde_json::to_value(json::query(&answer, &cards, &primes, Style::ASCII))?;
/// assert_eq!(j["cards"], serde_json::json!(["4", "6", "8"]));
/// assert_eq!(j["highest_prime"], 3);
/// assert_eq!(j["primes"][1]["witness"], "(6 * 4) / 8");
/// assert_eq!(j["rules"]["described"], "face cards count 5; + - * /; primes up to 97");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn query<'a>(
    answer: &'a Answer<'_>,
    cards: &[Card],
    primes: &'a [Written],
    style: Style,
) -> QueryJson<'a> {
    let highest = primes.last().map(|p| p.value);
    QueryJson {
        header: hand_header(answer.hand(), answer.rules(), style),
        cards: cards
            .iter()
            .map(|&c| crate::practice::face(c, style))
            .collect(),
        primes: primes_json(primes),
        highest_prime: highest.map(Integer),
        highest_prime_text: highest.map(|v| v.to_string()),
        simplest_prime: answer.simplest_prime().map(Integer),
        pruned: answer.pruned(),
        values: answer.values().map(ValuesJson),
        difficulty: None,
        hard: None,
        difficulty_word: None,
        nearest_above: None,
    }
}

/// A query's object with the ways to each prime (`query --ways`): each
/// prime's count, and with `all` one example of each way in `style`.
pub fn query_with_ways<'a>(
    answer: &'a Answer<'_>,
    cards: &[Card],
    primes: &'a [Written],
    ways: &crate::ways::Ways,
    all: bool,
    style: Style,
) -> QueryJson<'a> {
    let mut q = query(answer, cards, primes, style);
    for p in &mut q.primes {
        let of = ways.of(p.value.0).unwrap_or_default();
        p.ways = Some(of.len());
        let bound = answer.rules().max_value;
        p.way_witnesses = all.then(|| {
            of.iter()
                .map(|w| w.expr.shown(bound).render(style))
                .collect()
        });
    }
    let d = ways.difficulty();
    q.difficulty = Some(d.score());
    q.hard = Some(d.is_hard());
    q.difficulty_word = Some(d.word());
    q
}

/// Every hand of three cards a rule set deals, with its deals and each
/// prime it makes with its simplest witness: what a page keeps to answer
/// any hand of that rule set without the server.
#[derive(Serialize)]
pub struct TableJson<'a> {
    schema: u32,
    rule_set: String,
    rules: RulesJson<'a>,
    hands: Vec<TableHandJson<'a>>,
    #[serde(flatten)]
    offline: OfflineKeys,
}

/// One hand of a [`TableJson`].
#[derive(Serialize)]
pub struct TableHandJson<'a> {
    hand: Vec<u8>,
    deals: u64,
    primes: Vec<PrimeJson<'a>>,
    simplest_prime: Option<Integer>,
}

/// A three-card hand of a table: how often the pack deals it, its primes
/// written, and the prime of its quickest call.
pub struct TableEntry {
    pub dealt: Dealt,
    pub primes: Vec<Written>,
    pub simplest_prime: Option<Value>,
}

/// [`TableJson`] of `hands` (each dealt hand with its primes written,
/// [`Answer::written`], in `style`), with the keys that find a hand from its cards
/// without a solver ([`OfflineKeys`]).
pub fn table<'a>(rules: &'a Rules, hands: &'a [TableEntry], style: Style) -> TableJson<'a> {
    TableJson {
        schema: SCHEMA,
        rule_set: rules.name(),
        rules: rules_in(rules, style),
        hands: hands
            .iter()
            .map(|e| TableHandJson {
                hand: e.dealt.hand.values(),
                deals: e.dealt.deals,
                primes: primes_json(&e.primes),
                simplest_prime: e.simplest_prime.map(Integer),
            })
            .collect(),
        offline: OfflineKeys::of(rules.faces, hands),
    }
}

/// How a reader finds a hand of the table from the cards it was shown,
/// with no rule of its own: `card_keys` maps each way of writing a card
/// (`QH`, `Q♥`, `Q`, `12`, `JK`, upper case) to a key, the value it counts
/// (`12`) or `JK` for a Joker, and `hand_keys` maps the keys of three
/// cards, sorted as strings and joined by spaces (`12 7 JK`), to the index
/// of their hand in `hands`. Three cards the pack cannot deal have no key.
#[derive(Serialize)]
pub struct OfflineKeys {
    card_keys: std::collections::BTreeMap<String, String>,
    hand_keys: std::collections::BTreeMap<String, usize>,
}

impl OfflineKeys {
    fn of(faces: crate::rules::Faces, hands: &[TableEntry]) -> OfflineKeys {
        use crate::card::{Card, Rank, Suit};
        use crate::style::Style;
        let key = |card: Card| match card.value(faces) {
            Ok(Some(v)) => Some(v.to_string()),
            Ok(None) => Some("JK".to_string()),
            Err(_) => None,
        };
        let mut card_keys = std::collections::BTreeMap::new();
        let mut pack = Vec::new();
        for suit in Suit::ALL {
            for rank in Rank::all() {
                let card = Card::Ranked {
                    rank,
                    suit: Some(suit),
                };
                pack.push(card);
                for style in [Style::ASCII, Style::UNICODE] {
                    if let Some(k) = key(card) {
                        card_keys.insert(crate::practice::face(card, style), k);
                    }
                }
            }
        }
        pack.extend([Card::Joker, Card::Joker]);
        // Cards written without a suit, as the command line reads them,
        // where they count the same in every suit.
        for token in (1..=13)
            .map(|v| v.to_string())
            .chain(["A", "J", "Q", "K", "T", "JK", "JOKER", "*"].map(String::from))
        {
            if let Ok(card) = Card::parse(&token)
                && let Some(k) = key(card)
            {
                card_keys.insert(token, k);
            }
        }
        let index: rustc_hash::FxHashMap<Hand, usize> = hands
            .iter()
            .enumerate()
            .map(|(i, e)| (e.dealt.hand, i))
            .collect();
        let mut hand_keys = std::collections::BTreeMap::new();
        for a in 0..pack.len() {
            for b in a + 1..pack.len() {
                for c in b + 1..pack.len() {
                    let cards = [pack[a], pack[b], pack[c]];
                    let Ok(hand) = Hand::from_cards(&cards, faces) else {
                        continue;
                    };
                    let (Some(&i), Some(mut keys)) = (
                        index.get(&hand),
                        cards.iter().map(|&c| key(c)).collect::<Option<Vec<_>>>(),
                    ) else {
                        continue;
                    };
                    keys.sort();
                    hand_keys.insert(keys.join(" "), i);
                }
            }
        }
        OfflineKeys {
            card_keys,
            hand_keys,
        }
    }
}

/// `check --format json`: the claim, whether it is valid, the prime it
/// makes or null, and the fault in words (with whatever the caller adds,
/// such as the flag that would allow it) and by kind.
#[derive(Serialize)]
pub struct CheckJson<'a> {
    #[serde(flatten)]
    header: HandHeader<'a>,
    claim: &'a str,
    valid: bool,
    value: Option<Integer>,
    value_text: Option<String>,
    fault: Option<String>,
    fault_kind: Option<&'static str>,
}

/// [`CheckJson`] of the referee's `verdict` on `claim`, the fault written
/// as `words` says.
pub fn check<'a>(
    hand: Hand,
    rules: &'a Rules,
    claim: &'a str,
    verdict: &Result<Value, Fault>,
    words: impl Fn(&Fault) -> String,
) -> CheckJson<'a> {
    let value = verdict.as_ref().ok().copied();
    let fault = verdict.as_ref().err();
    CheckJson {
        header: hand_header(hand, rules, Style::UNICODE),
        claim,
        valid: verdict.is_ok(),
        value: value.map(Integer),
        value_text: value.map(|v| v.to_string()),
        fault: fault.map(words),
        fault_kind: fault.map(Fault::kind),
    }
}

/// JSON text with the characters serde_json leaves raw but a terminal may
/// act on (DEL, C1 controls, bidirectional controls) written as
/// `\uXXXX`: the same JSON value, safe to print. They occur only inside
/// strings; serde already escapes the C0 controls there, so a raw one is
/// the layout's.
///
/// ```
/// use prime_solve::report::json::escaped;
/// assert_eq!(escaped("{\"claim\": \"6\u{202e}4\"}"), "{\"claim\": \"6\\u202e4\"}");
/// ```
pub fn escaped(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        let left_raw = c == '\u{7f}' || (crate::text::needs_escape(c) && !c.is_ascii_control());
        if left_raw {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A refusal, as the HTTP API answers one: `{"error": "..."}`.
#[derive(Serialize)]
pub struct ErrorJson<'a> {
    error: &'a str,
}

/// [`ErrorJson`] of `message`.
pub fn error(message: &str) -> ErrorJson<'_> {
    ErrorJson { error: message }
}

/// One rule set's answers, as `analyze --format json` lists them.
#[derive(Serialize)]
pub struct AnalysisJson<'a> {
    rule_set: String,
    rules: RulesJson<'a>,
    cards: usize,
    hands: usize,
    deals: u64,
    failing: Vec<FailingJson>,
    failing_probability: RatioJson,
    counted: bool,
    mean_primes: Option<RatioJson>,
    screen: Option<u64>,
    highest: Option<CallJson>,
}

/// A hand that makes no prime, how often it is dealt, and its chance.
#[derive(Serialize)]
pub struct FailingJson {
    hand: Vec<u8>,
    deals: u64,
    probability: RatioJson,
}

/// [`AnalysisJson`] of `a`, witnesses written in `style`.
pub fn analysis(a: &Analysis, style: Style) -> AnalysisJson<'_> {
    AnalysisJson {
        rule_set: a.folder(),
        rules: rules_in(&a.rules, style),
        cards: a.cards,
        hands: a.hands.len(),
        deals: a.total_deals,
        failing: a
            .failing()
            .map(|h| FailingJson {
                hand: h.hand.values(),
                deals: h.deals,
                probability: ratio(a.weight(h)),
            })
            .collect(),
        failing_probability: ratio(a.failing_probability()),
        counted: a.counted(),
        mean_primes: a.mean_primes().map(ratio),
        screen: a.screen,
        highest: a.highest().map(|(h, c)| CallJson {
            hand: Some(h.hand.values()),
            ..call(c, style)
        }),
    }
}

/// `analyze --format json`: every rule set of the run, those not done and
/// why, and where the reports went.
#[derive(Serialize)]
pub struct AnalysesJson<'a> {
    schema: u32,
    rule_sets: Vec<AnalysisJson<'a>>,
    not_done: Vec<NotDoneJson<'a>>,
    reports: ReportsJson<'a>,
}

/// A rule set a sweep could not do, and why.
#[derive(Serialize)]
pub struct NotDoneJson<'a> {
    rule_set: String,
    rules: RulesJson<'a>,
    reason: String,
}

/// How many files a sweep wrote, and where.
#[derive(Serialize)]
pub struct ReportsJson<'a> {
    files: usize,
    folder: &'a str,
}

/// [`AnalysesJson`] of a run.
pub fn analyses<'a>(
    analyses: &'a [Analysis],
    not_done: &'a [NotDone],
    style: Style,
    files: usize,
    folder: &'a str,
) -> AnalysesJson<'a> {
    AnalysesJson {
        schema: SCHEMA,
        rule_sets: analyses.iter().map(|a| analysis(a, style)).collect(),
        not_done: not_done
            .iter()
            .map(|n| NotDoneJson {
                rule_set: n.folder(),
                rules: rules_in(&n.rules, style),
                reason: n.reason(),
            })
            .collect(),
        reports: ReportsJson { files, folder },
    }
}

/// Count, mean, median, percentiles and maximum.
#[derive(Serialize)]
pub struct SpreadJson {
    count: usize,
    mean: RatioJson,
    median: u32,
    p10: u32,
    p90: u32,
    max: u32,
}

/// [`SpreadJson`] of `s`, null for none.
pub fn spread(s: Option<&Spread>) -> Option<SpreadJson> {
    s.map(|s| SpreadJson {
        count: s.count,
        mean: ratio(s.mean),
        median: s.median,
        p10: s.p10,
        p90: s.p90,
        max: s.max,
    })
}

/// `simulate --format json`: the run and what it shows; wins are shares
/// of the finished games, with 95% Wilson intervals.
#[derive(Serialize)]
pub struct SimulationJson<'a> {
    schema: u32,
    rule_set: String,
    rules: RulesJson<'a>,
    players: Vec<&'a str>,
    two_player: bool,
    games: usize,
    seed: u64,
    max_turns: u32,
    finished: usize,
    unfinished: usize,
    turns_of_finished: Option<SpreadJson>,
    median_turns_interval95: Option<[u32; 2]>,
    p90_turns_interval95: Option<[u32; 2]>,
    turns_of_all: Option<SpreadJson>,
    median_turns_of_all_interval95: Option<[u32; 2]>,
    p90_turns_of_all_interval95: Option<[u32; 2]>,
    phases: Option<PhasesJson>,
    tie_rate: RatioJson,
    no_call_rate: RatioJson,
    no_prime_rate: RatioJson,
    endgame_rate: RatioJson,
    endgame: &'static str,
    draws: usize,
    wins: Vec<WinsJson<'a>>,
    rebuilds_of_finished: Option<SpreadJson>,
}

/// The opening and the endgame of the games that reached it.
#[derive(Serialize)]
pub struct PhasesJson {
    opening: PhaseJson,
    endgame: PhaseJson,
}

/// One phase of the games.
#[derive(Serialize)]
pub struct PhaseJson {
    turns: Option<SpreadJson>,
    tie_rate: RatioJson,
    no_call_rate: RatioJson,
}

/// One seat's wins.
#[derive(Serialize)]
pub struct WinsJson<'a> {
    seat: usize,
    model: &'a str,
    wins: usize,
    share: Option<RatioJson>,
    interval95: Option<[f64; 2]>,
}

/// [`SimulationJson`] of `sim`'s summary `s`.
pub fn simulation<'a>(sim: &'a Simulation, s: &'a Summary) -> SimulationJson<'a> {
    let phase = |p: &Phase| PhaseJson {
        turns: spread(p.turns.as_ref()),
        tie_rate: ratio(p.tie_rate),
        no_call_rate: ratio(p.no_call_rate),
    };
    // No share of no finished game.
    let finished = s.finished > 0;
    SimulationJson {
        schema: SCHEMA,
        rule_set: sim.rules.name(),
        rules: rules(&sim.rules),
        players: sim.players.iter().map(|m| &*m.name).collect(),
        two_player: sim.two_player,
        games: s.games,
        seed: sim.seed,
        max_turns: sim.max_turns,
        finished: s.finished,
        unfinished: s.games - s.finished,
        turns_of_finished: spread(s.turns.as_ref()),
        median_turns_interval95: s.turns_median_interval,
        p90_turns_interval95: s.turns_p90_interval,
        turns_of_all: spread(s.all_turns.as_ref()),
        median_turns_of_all_interval95: s.all_turns_median_interval,
        p90_turns_of_all_interval95: s.all_turns_p90_interval,
        phases: s.phases.as_ref().map(|[opening, endgame]| PhasesJson {
            opening: phase(opening),
            endgame: phase(endgame),
        }),
        tie_rate: ratio(s.tie_rate),
        no_call_rate: ratio(s.no_call_rate),
        no_prime_rate: ratio(s.no_prime_rate),
        endgame_rate: ratio(s.endgame_rate),
        endgame: sim.endgame.name(),
        draws: s.draws,
        wins: s
            .wins
            .iter()
            .enumerate()
            .map(|(seat, &w)| WinsJson {
                seat: seat + 1,
                model: &sim.players[seat].name,
                wins: w,
                share: finished.then(|| ratio(Ratio::new(w as u128, s.finished as u128))),
                interval95: finished.then(|| wilson(w, s.finished)),
            })
            .collect(),
        rebuilds_of_finished: spread(s.rebuilds.as_ref()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_carry_the_exact_fraction() {
        let j = serde_json::to_value(ratio(Ratio::new(10, 2067))).unwrap();
        assert_eq!(j["fraction"], "10/2067");
        assert!((j["value"].as_f64().unwrap() - 0.004_838).abs() < 1e-6);
    }

    #[test]
    fn integers_past_64_bits_are_strings() {
        let text = |v: Value| serde_json::to_string(&Integer(v)).unwrap();
        assert_eq!(text(-5), "-5");
        assert_eq!(text(Value::from(u64::MAX)), u64::MAX.to_string());
        assert_eq!(text(-Value::from(u64::MAX)), format!("\"-{}\"", u64::MAX));
    }
}
