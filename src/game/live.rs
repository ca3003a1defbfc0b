//! A game with a person at the table: the same games, models, referee and
//! turn resolution as the simulator, with one seat's calls coming from
//! outside (the keyboard, or a script with times) instead of a model.

use crate::arith::Value;
use crate::game::play::{Game, Record, Setup, Shown, play};
use crate::game::turn::Call;
use crate::game::turn::{Outcome, resolve};
use crate::hand::Hand;
use crate::referee::Fault;
use crate::referee::check;
use crate::rng::Rng;
use crate::rules::Rules;

/// What the person has done on the combination shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Person {
    /// Not in this combination (out of cards).
    Out,
    Waiting,
    Called {
        ms: u32,
        claim: String,
        ruling: Result<Value, Fault>,
    },
    Passed(u32),
}

/// A call made at the table, by a model or the person, as ruled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    pub seat: usize,
    pub ms: u32,
    /// The prime called (for the person, the claim's value when it has one).
    pub prime: Option<Value>,
    /// The person's words; `None` for a model.
    pub claim: Option<String>,
    /// The referee's fault for the person; a model's wrong call has none
    /// (a miscalculation it cannot show).
    pub valid: bool,
    pub fault: Option<Fault>,
}

/// One combination being played.
#[derive(Clone, Debug)]
pub struct Round {
    pub turn: u32,
    pub shown: Shown,
    pub hand: Option<Hand>,
    /// The models' calls, drawn when the cards are shown, by time.
    pub bots: Vec<(usize, Call)>,
    pub person: Person,
}

/// How a combination ended.
#[derive(Clone, Debug)]
pub struct Finished {
    /// When the calls stopped counting, in ms after the cards were shown.
    pub closed_ms: u32,
    /// Every call made until then, by time.
    pub calls: Vec<Made>,
    pub outcome: Outcome,
    /// The hand makes no prime at all.
    pub impossible: bool,
    /// The cards on the table, for a win.
    pub cards: Vec<u8>,
}

/// The person's record over a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub calls: u32,
    pub valid: u32,
    pub wrong: u32,
    pub passes: u32,
    /// Combinations won.
    pub won: u32,
    pub ties: u32,
    /// Times of the valid calls, in ms.
    pub times: Vec<u32>,
}

/// A game with the person in seat `person`.
pub struct Live<'a> {
    pub setup: Setup<'a>,
    pub game: Box<dyn Game>,
    pub rng: Rng,
    pub person: usize,
    pub rules: Rules,
    /// With no valid call by then, nobody has called: the hand is buried.
    pub limit_ms: u32,
    pub tally: Tally,
}

impl Round {
    /// Whether the person can still call.
    pub fn waiting(&self) -> bool {
        self.person == Person::Waiting
    }

    fn person_call(&self, seat: usize) -> Option<Made> {
        match &self.person {
            Person::Called { ms, claim, ruling } => Some(Made {
                seat,
                ms: *ms,
                prime: ruling.as_ref().ok().copied(),
                claim: Some(claim.clone()),
                valid: ruling.is_ok(),
                fault: ruling.as_ref().err().cloned(),
            }),
            _ => None,
        }
    }

    /// Every call made by `ms`, by time (then seat).
    pub fn calls_until(&self, person_seat: usize, ms: u32) -> Vec<Made> {
        let mut calls: Vec<Made> = self
            .bots
            .iter()
            .filter(|(_, c)| c.time_ms <= ms)
            .map(|&(seat, c)| Made {
                seat,
                ms: c.time_ms,
                prime: Some(c.prime),
                claim: None,
                valid: c.valid,
                fault: None,
            })
            .collect();
        calls.extend(self.person_call(person_seat).filter(|c| c.ms <= ms));
        calls.sort_by_key(|c| (c.ms, c.seat));
        calls
    }
}

impl<'a> Live<'a> {
    pub fn new(
        setup: Setup<'a>,
        game: Box<dyn Game>,
        rng: Rng,
        rules: Rules,
        limit_ms: u32,
    ) -> Live<'a> {
        Live {
            setup,
            game,
            rng,
            person: 0,
            rules,
            limit_ms,
            tally: Tally::default(),
        }
    }

    /// Turns up the next combination and draws the models' calls on it;
    /// `None` when the game is over.
    pub fn deal(&mut self) -> Option<Round> {
        let shown = self.game.show(&mut self.rng)?;
        let bots: Vec<usize> = shown
            .seats
            .iter()
            .copied()
            .filter(|&s| s != self.person)
            .collect();
        let mut calls = self.setup.draw_calls(&shown.cards, &bots, &mut self.rng);
        calls.sort_by_key(|&(seat, c)| (c.time_ms, seat));
        let person = if shown.seats.contains(&self.person) {
            Person::Waiting
        } else {
            Person::Out
        };
        Some(Round {
            turn: self.game.record().turns,
            hand: self.setup.hand(&shown.cards),
            shown,
            bots: calls,
            person,
        })
    }

    /// When the calls on `round` stop counting: the override window after
    /// the first valid call (within the time limit); with none, the time
    /// limit, or at once when the person can no longer call.
    pub fn closes_at(&self, round: &Round) -> u32 {
        let timing = self.setup.timing;
        let all = round.calls_until(self.person, self.limit_ms);
        if let Some(first) = all.iter().find(|c| c.valid) {
            return first.ms.saturating_add(timing.override_window_ms);
        }
        if round.waiting() {
            self.limit_ms
        } else {
            all.iter().map(|c| c.ms).max().unwrap_or(0)
        }
    }

    /// The person calls `claim` at `ms`: the referee rules on it now.
    pub fn call(&self, round: &mut Round, ms: u32, claim: &str) {
        let ruling = match round.hand {
            Some(hand) => check(hand, claim, &self.rules),
            None => Err(Fault::Cards("Jokers only make no hand".into())),
        };
        round.person = Person::Called {
            ms,
            claim: claim.to_string(),
            ruling,
        };
    }

    pub fn pass(&self, round: &mut Round, ms: u32) {
        round.person = Person::Passed(ms);
    }

    /// Ends the combination: the calls made before it closed are resolved
    /// as the simulator resolves them, and the game moves on.
    pub fn finish(&mut self, round: &Round) -> Finished {
        let closed_ms = self.closes_at(round);
        let calls = round.calls_until(self.person, closed_ms);
        let as_calls: Vec<(usize, Call)> = calls
            .iter()
            .map(|c| {
                (
                    c.seat,
                    Call {
                        time_ms: c.ms,
                        prime: c.prime.unwrap_or(0),
                        valid: c.valid,
                    },
                )
            })
            .collect();
        let outcome = resolve(&as_calls, self.setup.timing);
        let impossible = self.setup.options(&round.shown.cards).is_empty();
        let cards = round.hand.map(Hand::values).unwrap_or_default();
        self.count(round, &calls, &outcome);
        self.game.settle(&outcome, impossible, &mut self.rng);
        Finished {
            closed_ms,
            calls,
            outcome,
            impossible,
            cards,
        }
    }

    fn count(&mut self, round: &Round, calls: &[Made], outcome: &Outcome) {
        let t = &mut self.tally;
        match &round.person {
            Person::Passed(_) => t.passes += 1,
            Person::Called { .. } => {
                if let Some(c) = calls.iter().find(|c| c.claim.is_some()) {
                    t.calls += 1;
                    if c.valid {
                        t.valid += 1;
                        t.times.push(c.ms);
                    } else {
                        t.wrong += 1;
                    }
                }
            }
            _ => {}
        }
        match outcome {
            Outcome::Win(w) if *w == self.person => t.won += 1,
            Outcome::Tie(who) if who.contains(&self.person) => t.ties += 1,
            _ => {}
        }
    }

    /// Cards each player holds: their pile and their card on the table.
    pub fn held(&self) -> Vec<usize> {
        let mut held: Vec<usize> = self.game.piles().iter().map(|p| p.len()).collect();
        for &(p, _) in self.game.table() {
            held[p] += 1;
        }
        held
    }

    /// Whether the person has no card left (in a game of three or more).
    pub fn person_out(&self) -> bool {
        self.held()[self.person] == 0
    }

    /// The models play the rest of the game among themselves, as in the
    /// simulator, for at most `max_turns` more combinations.
    pub fn play_on(&mut self, max_turns: u32) -> Record {
        let cap = self.game.record().turns.saturating_add(max_turns);
        play(self.game.as_mut(), &self.setup, cap, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::calls::CallBook;
    use crate::game::play::{CardId, Multi};
    use crate::game::player::Model;
    use crate::game::turn::Timing;
    use crate::rules::Faces;
    use std::collections::VecDeque;

    fn spades(values: &[u8]) -> VecDeque<CardId> {
        values.iter().map(|&v| v - 1).collect()
    }

    /// A game where the person holds 4, the bots 6 and 8 (spades).
    fn live(book: &CallBook, bots: Model) -> Live<'_> {
        seated(book, [bots.clone(), bots.clone(), bots])
    }

    fn seated(book: &CallBook, models: [Model; 3]) -> Live<'_> {
        let setup = Setup::new(book, models.to_vec(), Faces::Five, Timing::default());
        let game = Multi::from_piles(vec![spades(&[4, 1]), spades(&[6, 2]), spades(&[8, 3])]);
        Live::new(setup, Box::new(game), Rng::new(1), Rules::default(), 30_000)
    }

    #[test]
    fn the_person_beats_slow_bots_and_is_barred_when_wrong() {
        let book = CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap();
        let mut l = live(&book, Model::NOVICE);
        let mut round = l.deal().unwrap();
        assert_eq!(round.hand.unwrap().values(), [4, 6, 8]);
        let first_bot = round.bots.first().map_or(u32::MAX, |b| b.1.time_ms);
        assert!(first_bot > 1000);
        l.call(&mut round, 1000, "(6*4)/8");
        assert_eq!(l.closes_at(&round), 2500);
        let done = l.finish(&round);
        assert_eq!(done.outcome, Outcome::Win(0));
        assert_eq!(l.held()[0], 4);
        assert_eq!(l.tally.won, 1);
        // Next: 1 2 3 on the table; a wrong call bars the person.
        let mut round = l.deal().unwrap();
        l.call(&mut round, 500, "1+2+3");
        let done = l.finish(&round);
        assert!(matches!(&done.calls[0].fault, Some(Fault::NotPrime(_))));
        assert_ne!(done.outcome, Outcome::Win(0));
        assert_eq!((l.tally.calls, l.tally.valid, l.tally.wrong), (2, 1, 1));
    }

    /// A bot that calls the easiest prime at exactly one second, never wrong.
    const STEADY: Model = Model {
        name: std::borrow::Cow::Borrowed("steady"),
        reach: 1_000.0,
        base_ms: 1000.0,
        per_weight_ms: 0.0,
        per_digit_ms: 0.0,
        sigma: 0.0,
        search_ms: 0.0,
        mistakes: 0.0,
        mistakes_per_weight: 0.0,
        mistakes_per_digit: 0.0,
        ..Model::CLUB
    };

    #[test]
    fn a_higher_prime_within_the_window_overrides_a_bot() {
        let book = CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap();
        // Seat 1 calls 2 at 1000 ms; the person's 3 within the override
        // window takes the cards.
        let models = [STEADY, STEADY, Model::NOVICE];
        let mut l = seated(&book, models.clone());
        let mut round = l.deal().unwrap();
        assert_eq!(round.bots[0].1.time_ms, 1000);
        l.call(&mut round, 2400, "(6*4)/8");
        assert_eq!(l.finish(&round).outcome, Outcome::Win(0));
        // Too late: the combination closed at 2500 ms, the call is not made.
        let mut l = seated(&book, models);
        let mut round = l.deal().unwrap();
        l.call(&mut round, 2600, "(6*4)/8");
        let done = l.finish(&round);
        assert_eq!(done.closed_ms, 2500);
        assert_eq!(done.outcome, Outcome::Win(1));
        assert!(done.calls.iter().all(|c| c.claim.is_none()));
        // Both bots calling 2 at once bury their cards.
        let mut l = live(&book, STEADY);
        let mut round = l.deal().unwrap();
        l.pass(&mut round, 100);
        assert_eq!(l.finish(&round).outcome, Outcome::Tie(vec![1, 2]));
        assert_eq!(l.tally.passes, 1);
    }

    #[test]
    fn nobody_calling_buries_at_the_limit() {
        let book = CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap();
        let mut l = live(&book, Model::NOVICE);
        l.limit_ms = 500;
        let round = l.deal().unwrap();
        assert_eq!(l.closes_at(&round), 500);
        let done = l.finish(&round);
        assert_eq!(done.outcome, Outcome::NoCall);
        assert!(done.calls.is_empty());
    }
}
