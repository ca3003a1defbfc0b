//! The house-rule advisor: what each of Parlett's house rules does to the
//! game, against the rules as written. Exact figures over every three-card
//! deal (from the sweep), and paired simulations: the same deals and the
//! same draws played with and without the rule.

use crate::engine::Budget;
use std::sync::Arc;

use std::collections::BTreeMap;

use crate::analysis::{Analysis, Difficulty, HandResult, analyze};
use crate::game::paired;
use crate::game::{Model, Models};
use crate::game::{SimError, Simulation, Summary, simulate};
use crate::hand::Hand;
use crate::pack;
use crate::ratio::Ratio;
use crate::rules::{Faces, Functions, Rules};

/// Which of Parlett's remarks a house rule is judged against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remark {
    /// "Not recommended, unless you all know your three-figure primes by
    /// heart, or are willing to use a crib."
    HighPrimes,
    /// "Not recommended, except for children."
    Juxtapose,
    /// "The problem with 5 is that you will often have to make a prime from
    /// three face cards ... Perhaps better is to count face cards at their
    /// suit value."
    Faces,
    /// "(Recommended.)"
    Powers,
    /// "Agree any other functions you may wish to recognise."
    Functions,
    /// A combination a table might choose: no remark of its own.
    Combination,
}

impl Remark {
    /// Parlett's words, as his rules give them.
    pub fn quote(self) -> &'static str {
        match self {
            Remark::HighPrimes => {
                "Not recommended, unless you all know your three-figure primes by heart, or are willing to use a crib."
            }
            Remark::Juxtapose => "Not recommended, except for children.",
            Remark::Faces => {
                "The problem with 5 is that you will often have to make a prime from three face cards, to which the only answer I can see is 5 ... Perhaps better is to count face cards at their suit value."
            }
            Remark::Powers => "(Recommended.)",
            Remark::Functions => {
                "Agree any other functions you may wish to recognise. For example, from 5-6-8 are you allowed 97 = 6 + [triangular (5 + 8)]?"
            }
            Remark::Combination => "",
        }
    }
}

/// A house rule, or a combination of them, proposed to a table: its name,
/// the rule set it makes of the rules as written, and what to say of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    pub name: &'static str,
    pub rules: Rules,
    pub remark: Remark,
}

/// The rules as written: face cards 5, + − × ÷, primes up to 97.
pub fn as_written() -> Rules {
    Rules::default()
}

/// Parlett's house rules alone, then the combinations a table would
/// likely choose.
pub fn proposals() -> Vec<Proposal> {
    let base = as_written();
    let rule = |name, remark, rules| Proposal {
        name,
        rules,
        remark,
    };
    let powers = Rules {
        powers: true,
        ..base
    };
    vec![
        rule(
            "High primes",
            Remark::HighPrimes,
            Rules {
                max_prime: None,
                ..base
            },
        ),
        rule(
            "Juxtaposition",
            Remark::Juxtapose,
            Rules {
                juxtapose: true,
                ..base
            },
        ),
        rule(
            "Face cards 11, 12, 13",
            Remark::Faces,
            Rules {
                faces: Faces::Rank,
                ..base
            },
        ),
        rule(
            "Face cards at suit value",
            Remark::Faces,
            Rules {
                faces: Faces::Suit,
                ..base
            },
        ),
        rule("Powers and roots", Remark::Powers, powers),
        rule(
            "Triangular numbers",
            Remark::Functions,
            Rules {
                functions: Functions::TRI,
                ..base
            },
        ),
        rule(
            "Triangular, factorial, square root",
            Remark::Functions,
            Rules {
                functions: Functions::ALL,
                ..base
            },
        ),
        rule(
            "Suit values and powers",
            Remark::Combination,
            Rules {
                faces: Faces::Suit,
                ..powers
            },
        ),
        rule(
            "11, 12, 13 and powers",
            Remark::Combination,
            Rules {
                faces: Faces::Rank,
                ..powers
            },
        ),
        rule(
            "Powers and high primes",
            Remark::Combination,
            Rules {
                max_prime: None,
                ..powers
            },
        ),
        rule(
            "Powers and triangular numbers",
            Remark::Combination,
            Rules {
                functions: Functions::TRI,
                ..powers
            },
        ),
    ]
}

/// Exact figures over every three-card deal of the pack (C(54, 3) =
/// 24,804 equally likely), with the rule and without.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    pub deals: u64,
    /// Deals that make no prime, without and with the rule.
    pub failing: [u64; 2],
    /// Deals that fail without the rule and not with it, and the reverse.
    pub rescued: u64,
    pub lost: u64,
    /// Mean primes per deal, without and with.
    pub mean_primes: [Ratio; 2],
    /// Deals making exactly one prime, without and with.
    pub single_prime: [u64; 2],
    /// Deals whose highest prime changes, and whose quickest call (the
    /// prime with the simplest witness) changes.
    pub highest_changed: u64,
    pub quickest_changed: u64,
    /// Mean weight of the quickest call over the deals that make a prime,
    /// without and with.
    pub mean_weight: [Ratio; 2],
    /// Hard deals ([`crate::analysis::Difficulty::is_hard`]), without and
    /// with.
    pub hard: [u64; 2],
    /// Deals by the weight of their quickest call, with the rule.
    pub weights: BTreeMap<u16, u64>,
    /// The hardest hands with the rule: heaviest quickest call, then fewest
    /// primes.
    pub hardest: Vec<HandResult>,
    /// The hands (as the rule counts them) of the deals the rule rescues,
    /// and of those it loses, ascending.
    pub rescued_hands: Vec<Hand>,
    pub lost_hands: Vec<Hand>,
    /// Deals of three face cards (Jokers not counted), and the primes they
    /// make in all, without and with the rule.
    pub face_deals: u64,
    pub face_primes: [u64; 2],
}

/// A line-up played with and without the rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Lineup {
    pub name: &'static str,
    /// With the rule (the line-up may include someone who ignores it).
    pub with: Simulation,
    pub with_summary: Summary,
    /// The same players under the rules as written.
    pub without_summary: Summary,
    /// Combinations shown with the rule, and those whose outcome the same
    /// draws would change under the rules as written.
    pub turns: u64,
    pub changed: u64,
    /// The seat of the player who does not use the rule, if any.
    pub unaware: Option<usize>,
}

/// Everything the advisor says about one house rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    pub rule: Proposal,
    pub exact: Exact,
    pub lineups: Vec<Lineup>,
}

/// Compares `with` against `without` over every three-card deal.
///
/// # Panics
/// Never: every deal of the pack makes a hand under every faces, and both
/// analyses hold every hand the pack deals.
pub fn exact(without: &Analysis, with: &Analysis) -> Exact {
    let cards = pack::cards();
    let mut e = Exact {
        deals: 0,
        failing: [0; 2],
        rescued: 0,
        lost: 0,
        mean_primes: [Ratio::ZERO; 2],
        single_prime: [0; 2],
        highest_changed: 0,
        quickest_changed: 0,
        mean_weight: [Ratio::ZERO; 2],
        hard: [0; 2],
        weights: BTreeMap::new(),
        hardest: Vec::new(),
        rescued_hands: Vec::new(),
        lost_hands: Vec::new(),
        face_deals: 0,
        face_primes: [0; 2],
    };
    let mut primes = [0u128; 2];
    let (mut weight, mut weighed) = ([0u128; 2], [0u128; 2]);
    let n = cards.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let deal = [cards[i], cards[j], cards[k]];
                let pair = [result(without, &deal), result(with, &deal)];
                e.deals += 1;
                for (side, h) in pair.iter().enumerate() {
                    let fails = h.primes.is_empty();
                    e.failing[side] += u64::from(fails);
                    e.single_prime[side] += u64::from(h.primes.len() == 1);
                    e.hard[side] += u64::from(h.difficulty.is_some_and(Difficulty::is_hard));
                    primes[side] += h.primes.len() as u128;
                    if let Some(s) = &h.simplest {
                        weight[side] += u128::from(s.weight);
                        weighed[side] += 1;
                    }
                }
                let [a, b] = pair;
                let faces = deal.iter().all(|c| {
                    matches!(
                        c,
                        crate::card::Card::Ranked {
                            rank: crate::card::Rank::Jack
                                | crate::card::Rank::Queen
                                | crate::card::Rank::King,
                            ..
                        }
                    )
                });
                if faces {
                    e.face_deals += 1;
                    e.face_primes[0] += a.primes.len() as u64;
                    e.face_primes[1] += b.primes.len() as u64;
                }
                let rescued = a.primes.is_empty() && !b.primes.is_empty();
                let lost = !a.primes.is_empty() && b.primes.is_empty();
                e.rescued += u64::from(rescued);
                e.lost += u64::from(lost);
                if rescued {
                    e.rescued_hands.push(b.hand);
                }
                if lost {
                    e.lost_hands.push(b.hand);
                }
                let prime = |c: &Option<crate::analysis::Witnessed>| c.as_ref().map(|c| c.prime);
                e.highest_changed += u64::from(prime(&a.highest) != prime(&b.highest));
                e.quickest_changed += u64::from(prime(&a.simplest) != prime(&b.simplest));
                if let Some(s) = &b.simplest {
                    *e.weights.entry(s.weight).or_default() += 1;
                }
            }
        }
    }
    for list in [&mut e.rescued_hands, &mut e.lost_hands] {
        list.sort_unstable();
        list.dedup();
    }
    let deals = u128::from(e.deals);
    e.mean_primes = [Ratio::new(primes[0], deals), Ratio::new(primes[1], deals)];
    e.mean_weight = [
        Ratio::new(weight[0], weighed[0].max(1)),
        Ratio::new(weight[1], weighed[1].max(1)),
    ];
    let mut hands: Vec<&HandResult> = with.hands.iter().filter(|h| h.simplest.is_some()).collect();
    hands.sort_by_key(|h| (h.difficulty.map_or(u128::MAX, |d| d.ease), h.hand));
    e.hardest = hands.into_iter().take(3).cloned().collect();
    e
}

/// The result for the hand a deal shows.
fn result<'a>(a: &'a Analysis, deal: &[crate::card::Card]) -> &'a HandResult {
    let hand = Hand::from_any_cards(deal, a.rules.faces).expect("a dealt hand");
    a.get(hand).expect("every dealt hand is analysed")
}

/// The player of `models`' expert who does not use `rules`' house rules:
/// no powers, juxtaposition or functions where the rule set has them, and
/// with high primes, no three-figure primes known by heart. `None` for a
/// rule nobody can ignore (the values of face cards), or one the expert
/// does not use either.
pub fn unaware(expert: &Model, rules: &Rules) -> Option<Model> {
    let needs = rules.house_rules();
    let high = rules.max_prime.is_none();
    if !high && needs.is_empty() {
        return None;
    }
    let mut m = expert.without(needs, "unaware");
    if high {
        m.known_primes = m.known_primes.min(97);
        m.beyond = m.beyond.max(3.0);
    }
    // An expert who does not use the rule either has nothing to ignore.
    let same = Model {
        name: expert.name.clone(),
        ..m.clone()
    };
    (same != *expert).then_some(m)
}

/// What to run: models, games per line-up, seed, turn cap.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub models: Models,
    pub games: u64,
    pub seed: u64,
    pub max_turns: u32,
}

/// Analyses and plays every house rule of [`proposals`]; `tick` is called
/// after each game (from any thread).
///
/// ```
/// use prime_solve::Budget;
/// use prime_solve::advise::{Plan, advise, proposals};
/// use prime_solve::game::Models;
///
/// let plan = Plan { models: Models::default(), games: 2, seed: 1, max_turns: 500 };
/// let advice = advise(&plan, &Budget::unlimited(), &|| {})?;
/// assert_eq!(advice.len(), proposals().len());
/// // Powers rescue no hand under the rules as written: none fails there.
/// assert!(advice.iter().all(|a| a.exact.failing[0] == 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SimError`] when a model is missing or a search does not fit the
/// memory budget.
pub fn advise(
    plan: &Plan,
    budget: &Arc<Budget>,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Advice>, SimError> {
    let model = |name: &str| plan.models.get(name).map_err(SimError::Model);
    let (expert, club, novice) = (model("expert")?, model("club")?, model("novice")?);
    let base = as_written();
    let mut without = analyze(base, 3, budget, &|_| {})?;
    without.count_ways(budget)?;
    let sim = |rules: Rules, players: Vec<Model>| Simulation {
        rules,
        players,
        two_player: false,
        games: plan.games,
        seed: plan.seed,
        max_turns: plan.max_turns,
        timing: plan.models.timing,
        endgame: Default::default(),
    };
    let equals = vec![expert.clone(); 3];
    let mixed = vec![expert.clone(), club, novice];
    let summary = |s: &Simulation| -> Result<Summary, SimError> {
        Ok(Summary::of(s, &simulate(s, budget, tick)?))
    };
    let base_equals = summary(&sim(base, equals.clone()))?;
    let base_mixed = summary(&sim(base, mixed.clone()))?;
    let mut out = Vec::new();
    for rule in proposals() {
        let mut with = analyze(rule.rules, 3, budget, &|_| {})?;
        with.count_ways(budget)?;
        let exact = exact(&without, &with);
        let mut lineups = Vec::new();
        let mut lineup = |name, players: Vec<Model>, base_summary: Summary, unaware_seat| {
            let played = sim(rule.rules, players.clone());
            let run = paired(&played, &sim(base, players), budget, tick)?;
            lineups.push(Lineup {
                name,
                with_summary: Summary::of(&played, &run.records),
                with: played,
                without_summary: base_summary,
                turns: run.turns,
                changed: run.changed,
                unaware: unaware_seat,
            });
            Ok::<(), SimError>(())
        };
        lineup("three experts", equals.clone(), base_equals.clone(), None)?;
        lineup(
            "expert, club, novice",
            mixed.clone(),
            base_mixed.clone(),
            None,
        )?;
        if let Some(u) = unaware(&expert, &rule.rules) {
            let players = vec![expert.clone(), expert.clone(), u];
            let base_summary = summary(&sim(base, players.clone()))?;
            lineup(
                "two experts and one who ignores the rule",
                players,
                base_summary,
                Some(2),
            )?;
        }
        out.push(Advice {
            rule,
            exact,
            lineups,
        });
    }
    Ok(out)
}

/// The games [`advise`] plays, for a progress bar.
pub fn games_played(plan: &Plan) -> u64 {
    let rules = proposals();
    let expert = plan.models.get("expert").unwrap_or(Model::EXPERT);
    let with_unaware = rules
        .iter()
        .filter(|r| unaware(&expert, &r.rules).is_some())
        .count() as u64;
    plan.games * (2 + 2 * rules.len() as u64 + 2 * with_unaware)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_as_written_against_themselves_change_nothing() {
        let a = analyze(
            as_written(),
            3,
            &crate::engine::Budget::unlimited(),
            &|_| {},
        )
        .unwrap();
        let e = exact(&a, &a);
        assert_eq!(e.deals, 24_804);
        assert_eq!(
            (e.rescued, e.lost, e.highest_changed, e.quickest_changed),
            (0, 0, 0, 0)
        );
        assert_eq!(e.failing, [0, 0]);
        assert_eq!(e.mean_primes[0], e.mean_primes[1]);
        assert_eq!(Some(e.mean_primes[0]), a.mean_primes());
        assert_eq!(e.weights.values().sum::<u64>(), 24_804);
    }

    #[test]
    fn powers_rescue_and_suit_values_lose_deals_exactly() {
        let base = analyze(
            as_written(),
            3,
            &crate::engine::Budget::unlimited(),
            &|_| {},
        )
        .unwrap();
        for rule in proposals() {
            let with =
                analyze(rule.rules, 3, &crate::engine::Budget::unlimited(), &|_| {}).unwrap();
            let e = exact(&base, &with);
            // The deal-level count agrees with the sweep's own probability.
            assert_eq!(
                Ratio::new(u128::from(e.failing[1]), u128::from(e.deals)),
                with.failing_probability(),
                "{}",
                rule.name
            );
            assert_eq!(e.failing[1], e.failing[0] + e.lost - e.rescued);
            assert_eq!(Some(e.mean_primes[1]), with.mean_primes(), "{}", rule.name);
        }
    }

    #[test]
    fn the_unaware_player_ignores_just_the_rule() {
        let powers = Rules {
            powers: true,
            ..as_written()
        };
        let u = unaware(&Model::EXPERT, &powers).unwrap();
        assert!(
            !u.knows.powers
                && u.knows.juxtapose
                && u.knows.functions == crate::rules::Functions::ALL
        );
        assert_eq!(u.known_primes, Model::EXPERT.known_primes);
        let high = Rules {
            max_prime: None,
            ..as_written()
        };
        assert_eq!(unaware(&Model::EXPERT, &high).unwrap().known_primes, 97);
        let rank = Rules {
            faces: Faces::Rank,
            ..as_written()
        };
        assert_eq!(unaware(&Model::EXPERT, &rank), None);
        // Nothing to ignore for a player who does not use powers anyway.
        assert_eq!(unaware(&Model::NOVICE, &powers), None);
    }
}
