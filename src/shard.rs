//! A sweep split into shards: which hands each of N parts solves, balanced
//! by what each hand is expected to cost, and the parts' analyses put back
//! together into the analyses of one sweep of every hand.
//!
//! A part is solved by the sweep itself ([`crate::analysis::Sweep::keep`]),
//! so each hand's result is the one a sweep of every hand gives; putting
//! the parts together only concatenates and orders them, after the referee
//! has checked every witness a part carries ([`check_witnesses`]).

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;
use thiserror::Error;

use crate::analysis::{Analysis, NotDone, Witnessed, searches};
use crate::arith::Value;
use crate::deck::deal;
use crate::hand::Hand;
use crate::hash::fnv1a64;
use crate::referee::{Fault, check};
use crate::rules::Rules;
use crate::style::Style;

/// The most parts a sweep splits into.
pub const MAX_SHARDS: u32 = 100_000;

/// The `index`-th of `count` parts of a sweep, counted from 1 (`3/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `I/N`, with 1 ≤ I ≤ N ≤ [`MAX_SHARDS`].
///
/// ```
/// use prime_solve::shard::Shard;
/// assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
/// assert!("0/8".parse::<Shard>().is_err());
/// assert!("9/8".parse::<Shard>().is_err());
/// ```
impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a part: write I/N, e.g. 3/8 (the 3rd of 8 parts)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || count > MAX_SHARDS {
            return Err(format!("{count} parts: split into 1 to {MAX_SHARDS}"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "part {index} of {count}: parts are numbered 1 to {count}"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// The relative cost of solving one hand under `rules`: each house rule
/// multiplies the values a hand reaches (measured on five-card hands:
/// powers ×3, juxtaposition ×1.5, T ×80, T ! √ ×500), more so with more
/// cards.
pub fn search_cost(rules: &Rules, cards: usize) -> u64 {
    let grow = |factor: u64| factor.pow(u32::try_from(cards.saturating_sub(2)).unwrap_or(1));
    let mut c = 1;
    if rules.powers {
        c *= grow(2);
    }
    if rules.juxtapose {
        c = c * 3 / 2;
    }
    if rules.function_list().len() == 1 {
        c *= grow(4);
    } else if !rules.functions.is_empty() {
        c *= grow(8);
    }
    c.max(1)
}

/// The relative cost of one hand within a search: its distinct sub-hands,
/// the hand itself among them. A hand's top combines each split into two
/// sub-hands, and a sub-hand is made once however many ways the cards
/// repeat: four different cards have 15, a pair and two others 11, four
/// of a kind 4.
///
/// ```
/// use prime_solve::Hand;
/// use prime_solve::shard::hand_weight;
/// assert_eq!(hand_weight(Hand::from_values(&[1, 2, 3, 4])), 15);
/// assert_eq!(hand_weight(Hand::from_values(&[7, 7, 7, 7])), 4);
/// ```
pub fn hand_weight(hand: Hand) -> u64 {
    let values = hand.values();
    let mut product: u64 = 1;
    let mut i = 0;
    while i < values.len() {
        let run = values[i..].iter().take_while(|&&v| v == values[i]).count();
        product *= run as u64 + 1;
        i += run;
    }
    product - 1
}

/// The hands of each of `count` parts of the sweep of `cards`-card hands
/// under `rule_sets` (screened as `screen` says), each part sorted: every
/// hand any rule set deals in exactly one part, the parts' expected costs
/// as even as can be. The expected cost of a hand is, over the searches
/// the sweep makes ([`searches`]), [`search_cost`] × [`hand_weight`] for
/// each search that solves it; the hands, costliest first (ties in hand
/// order), each go to the part with the least cost so far (ties to the
/// lowest part). The same arguments give the same parts on every machine.
///
/// ```
/// use prime_solve::Rules;
/// use prime_solve::shard::split;
/// let parts = split(&[Rules::default()], 3, &|_| None, 3);
/// assert_eq!(parts.len(), 3);
/// assert_eq!(parts.iter().map(Vec::len).sum::<usize>(), 220);
/// ```
///
/// # Panics
/// Never: there is at least one part (a `count` of 0 is taken as 1).
pub fn split(
    rule_sets: &[Rules],
    cards: usize,
    screen: &(dyn Fn(&Rules) -> Option<u64> + Sync),
    count: u32,
) -> Vec<Vec<Hand>> {
    let dealt: Vec<_> = crate::rules::Faces::ALL
        .iter()
        .map(|&f| (f, deal(cards, f).0))
        .collect();
    let deals = |f, h: Hand| {
        dealt
            .iter()
            .any(|(g, d)| *g == f && d.binary_search_by(|x| x.hand.cmp(&h)).is_ok())
    };
    let searches = searches(rule_sets, screen);
    let mut hands: Vec<Hand> = dealt
        .iter()
        .filter(|(f, _)| rule_sets.iter().any(|r| r.faces == *f))
        .flat_map(|(_, d)| d.iter().map(|d| d.hand))
        .collect();
    hands.sort_unstable();
    hands.dedup();
    let mut costed: Vec<(u64, Hand)> = hands
        .into_iter()
        .map(|h| {
            let per_search: u64 = searches
                .iter()
                .filter(|(_, members)| members.iter().any(|m| deals(m.faces, h)))
                .map(|(search, _)| search_cost(search, cards))
                .sum();
            (per_search.saturating_mul(hand_weight(h)), h)
        })
        .collect();
    costed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let count = count.max(1) as usize;
    let mut load = vec![0u64; count];
    let mut parts: Vec<Vec<Hand>> = vec![Vec::new(); count];
    for (cost, hand) in costed {
        let least = (0..count).min_by_key(|&i| (load[i], i)).expect("a part");
        load[least] = load[least].saturating_add(cost);
        parts[least].push(hand);
    }
    for part in &mut parts {
        part.sort_unstable();
    }
    parts
}

/// A checksum of a list of hands, [`fnv1a64`] of each hand's values,
/// then a 0: it tells a part's list of hands from another's.
pub fn digest(hands: &[Hand]) -> u64 {
    let mut bytes = Vec::with_capacity(hands.len() * 7);
    for h in hands {
        bytes.extend(h.values());
        bytes.push(0);
    }
    fnv1a64(&bytes)
}

/// `a` with each hand's list of primes cut to those its summary reads,
/// the others counted in [`HandResult::beyond`](crate::analysis::HandResult::beyond):
/// the primes up to the screen or the ceiling, else up to the rules' own
/// 97. The summaries and the index read the same from it (the counts of
/// primes, the chance of each prime up to there, the highest prime and
/// its witness, the failing hands' values); `hands.csv` and the plots,
/// which list or count every prime, do not. Hands whose ways were counted keep
/// every prime. Where any prime counts, a
/// six-card hand makes over a hundred thousand primes: a part of a sweep
/// written for its summaries keeps a few dozen.
pub fn for_summaries(a: &mut Analysis) {
    let upto = crate::arith::Value::from(
        a.screen
            .or(a.rules.max_prime)
            .unwrap_or(crate::rules::DEFAULT_MAX_PRIME),
    );
    // A hand whose ways were counted keeps every prime: its summary lists
    // them with their ways among the hardest hands (few: three or four
    // cards).
    for h in a.hands.iter_mut().filter(|h| h.difficulty.is_none()) {
        let keep = h.primes.partition_point(|&p| p <= upto);
        if let Some(beyond) = h.beyond.as_mut() {
            *beyond += h.primes.len() - keep;
            h.primes.truncate(keep);
            h.primes.shrink_to_fit();
        }
    }
}

/// A witness the referee refuses for its hand and rules: a part that
/// does not hold what its shard solved.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error(
    "the witness of {prime} for the hand {hand} ({folder}), {witness}, is refused by the \
     referee: {fault}"
)]
pub struct BadWitness {
    /// The rule set's folder name ([`Analysis::folder`]).
    pub folder: String,
    pub hand: Hand,
    pub prime: Value,
    /// The witness as written in the style checked.
    pub witness: String,
    pub fault: Fault,
}

/// Every witness `a` carries (each hand's highest prime's and its
/// simplest's), written in `style` as a report writes it, checked by the
/// referee ([`check`]) against its hand and `a`'s rules: each must use
/// the hand's cards, be allowed, and make its prime. Nothing is solved again: a check is a parse and an
/// evaluation. The first refused, in hand order.
///
/// ```
/// use prime_solve::analysis::analyze_all;
/// use prime_solve::shard::check_witnesses;
/// use prime_solve::{BinOp, Budget, Expr, Rules, Style};
/// let mut a = analyze_all(&[Rules::default()], 3, &Budget::unlimited(), &|_| {})?.remove(0);
/// assert_eq!(check_witnesses(&a, Style::default()), Ok(()));
/// // 1 1 1 makes 3 as 1 + 1 + 1; say 1 + 1 + 9 instead.
/// let call = a.hands[0].highest.as_mut().unwrap();
/// call.witness = Expr::Binary(BinOp::Add, Box::new(call.witness.clone()), Box::new(Expr::Card(9)));
/// let bad = check_witnesses(&a, Style::default()).unwrap_err();
/// assert_eq!((bad.hand.to_string(), bad.prime), ("1 1 1".to_string(), 3));
/// # Ok::<(), prime_solve::SolveError>(())
/// ```
///
/// # Errors
/// A [`BadWitness`] naming the hand, the prime, the witness and the
/// referee's fault.
pub fn check_witnesses(a: &Analysis, style: Style) -> Result<(), Box<BadWitness>> {
    let refused = |hand: Hand, call: &Witnessed| {
        let witness = call.say(style);
        let fault = match check(hand, &witness, &a.rules) {
            Ok(made) if made == call.prime => return None,
            Ok(made) => Fault::WrongResult {
                said: call.prime.to_string(),
                made,
            },
            Err(fault) => fault,
        };
        Some(Box::new(BadWitness {
            folder: a.folder(),
            hand,
            prime: call.prime,
            witness,
            fault,
        }))
    };
    a.hands
        .par_iter()
        .find_map_first(|h| {
            let highest = h.highest.as_ref();
            // The simplest is often the highest: one check then.
            let simplest = h.simplest.as_ref().filter(|s| Some(*s) != highest);
            highest
                .into_iter()
                .chain(simplest)
                .find_map(|call| refused(h.hand, call))
        })
        .map_or(Ok(()), Err)
}

/// Why parts do not make up one sweep.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CombineError {
    #[error("a part holds {got} rule sets where the sweep has {want}")]
    RuleSets { got: usize, want: usize },
    #[error("a part's rule set {got} stands where the sweep has {want}")]
    Other { got: String, want: String },
    #[error("{folder}: the hand {hand} is in more than one part")]
    Twice { folder: String, hand: Hand },
    #[error("{folder}: the hand {hand} is in no part")]
    Missing { folder: String, hand: Hand },
    #[error("{folder}: the hand {hand} is not one these rules deal, or not with these deals")]
    NotDealt { folder: String, hand: Hand },
}

/// The analyses of one sweep of `cards`-card hands under `rule_sets`, in
/// their order, from its parts' (each part's, a rule set's analysis or
/// why it was not done): each rule set's hands from every part, in hand
/// order, checked to be each hand it deals exactly once with its deals. A
/// rule set not done in some part is not done, for the reason of the first
/// such part.
///
/// # Errors
/// A [`CombineError`] naming the first rule set or hand that does not fit.
pub fn combine(
    rule_sets: &[Rules],
    cards: usize,
    parts: Vec<Vec<Result<Analysis, NotDone>>>,
) -> Result<(Vec<Analysis>, Vec<NotDone>), CombineError> {
    let mut each: Vec<Vec<Result<Analysis, NotDone>>> =
        rule_sets.iter().map(|_| Vec::new()).collect();
    for part in parts {
        if part.len() != rule_sets.len() {
            return Err(CombineError::RuleSets {
                got: part.len(),
                want: rule_sets.len(),
            });
        }
        for (i, outcome) in part.into_iter().enumerate() {
            let got = match &outcome {
                Ok(a) => (a.rules, a.cards),
                Err(n) => (n.rules, n.cards),
            };
            if got != (rule_sets[i], cards) {
                return Err(CombineError::Other {
                    got: crate::analysis::folder(&got.0, got.1),
                    want: crate::analysis::folder(&rule_sets[i], cards),
                });
            }
            each[i].push(outcome);
        }
    }
    let mut analyses = Vec::new();
    let mut not_done = Vec::new();
    for (rules, outcomes) in rule_sets.iter().zip(each) {
        if let Some(n) = outcomes.iter().find_map(|o| o.as_ref().err()) {
            not_done.push(n.clone());
            continue;
        }
        let (dealt, total_deals) = deal(cards, rules.faces);
        let mut whole: Option<Analysis> = None;
        for a in outcomes.into_iter().flatten() {
            match &mut whole {
                None => whole = Some(a),
                Some(w) => w.hands.extend(a.hands),
            }
        }
        let Some(mut whole) = whole else { continue };
        whole.hands.sort_by_key(|h| h.hand);
        let folder = whole.folder();
        if let Some(w) = whole.hands.windows(2).find(|w| w[0].hand == w[1].hand) {
            return Err(CombineError::Twice {
                folder,
                hand: w[0].hand,
            });
        }
        for (i, d) in dealt.iter().enumerate() {
            match whole.hands.get(i) {
                Some(h) if h.hand == d.hand && h.deals == d.deals => {}
                Some(h) if h.hand <= d.hand => {
                    return Err(CombineError::NotDealt {
                        folder,
                        hand: h.hand,
                    });
                }
                _ => {
                    return Err(CombineError::Missing {
                        folder,
                        hand: d.hand,
                    });
                }
            }
        }
        if let Some(h) = whole.hands.get(dealt.len()) {
            return Err(CombineError::NotDealt {
                folder,
                hand: h.hand,
            });
        }
        whole.total_deals = total_deals;
        analyses.push(whole);
    }
    Ok((analyses, not_done))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Pruned, Sweep, analyze_all, analyze_screened_among};
    use crate::engine::{Budget, SolveError};
    use crate::rules::Faces;

    /// Each part of the two-card sweep of `rules`, as a shard solves it.
    fn parts(rules: &[Rules], n: u32) -> Vec<Vec<Result<Analysis, NotDone>>> {
        split(rules, 2, &|_| None, n)
            .iter()
            .map(|hands| {
                let keep = |h: Hand| hands.binary_search(&h).is_ok();
                let sweep = Sweep {
                    cards: 2,
                    screen: &|_| None,
                    pruned: Pruned::Counted,
                    keep: &keep,
                };
                analyze_screened_among(rules, &sweep, &Budget::unlimited(), &|_| {})
                    .unwrap()
                    .into_iter()
                    .map(Ok)
                    .collect()
            })
            .collect()
    }

    /// Two rule sets that share one search, dealing different hands.
    fn rules() -> [Rules; 2] {
        [
            Rules {
                faces: Faces::Rank,
                max_prime: None,
                ..Rules::default()
            },
            Rules::default(),
        ]
    }

    #[test]
    fn the_parts_put_together_are_the_whole_sweep() {
        let rules = rules();
        let whole = analyze_all(&rules, 2, &Budget::unlimited(), &|_| {}).unwrap();
        let split = split(&rules, 2, &|_| None, 4);
        assert_eq!(
            split.iter().map(Vec::len).sum::<usize>(),
            whole[0].hands.len()
        );
        let (analyses, not_done) = combine(&rules, 2, parts(&rules, 4)).unwrap();
        assert!(not_done.is_empty());
        for (a, w) in analyses.iter().zip(&whole) {
            assert_eq!(a.hands, w.hands);
            assert_eq!(
                (a.rules, a.total_deals, a.screen),
                (w.rules, w.total_deals, w.screen)
            );
        }
    }

    #[test]
    fn a_rule_set_refused_in_one_part_is_not_done() {
        let rules = rules();
        let mut parts = parts(&rules, 3);
        let why = SolveError::Memory {
            needed: 3 << 30,
            limit: 1 << 30,
            estimated: true,
        };
        parts[1][0] = Err(NotDone {
            rules: rules[0],
            cards: 2,
            why: why.clone(),
        });
        let (analyses, not_done) = combine(&rules, 2, parts).unwrap();
        assert_eq!(analyses.len(), 1);
        assert_eq!(analyses[0].rules, rules[1]);
        assert_eq!(not_done[0].why, why);
    }

    #[test]
    fn a_hand_missing_or_twice_is_named() {
        let rules = rules();
        let mut two = parts(&rules, 2);
        let moved = two[0][1].as_mut().unwrap().hands.pop().unwrap();
        let hand = moved.hand;
        assert!(matches!(
            combine(&rules, 2, two.clone()),
            Err(CombineError::Missing { hand: h, .. }) if h == hand
        ));
        two[1][1].as_mut().unwrap().hands.push(moved.clone());
        assert!(combine(&rules, 2, two.clone()).is_ok());
        two[0][1].as_mut().unwrap().hands.push(moved);
        assert!(matches!(
            combine(&rules, 2, two),
            Err(CombineError::Twice { hand: h, .. }) if h == hand
        ));
    }

    #[test]
    fn the_split_is_balanced_and_the_same_every_time() {
        let rules = rules();
        let four = split(&rules, 4, &|_| None, 8);
        assert_eq!(four, split(&rules, 4, &|_| None, 8));
        let cost = |hands: &Vec<Hand>| hands.iter().map(|&h| hand_weight(h)).sum::<u64>();
        let costs: Vec<u64> = four.iter().map(cost).collect();
        let (min, max) = (costs.iter().min().unwrap(), costs.iter().max().unwrap());
        assert!(max - min <= 15, "{costs:?}");
    }
}
