//! A game with people at the table: the same games, models, referee and
//! turn resolution as the simulator, with the calls of some seats (the
//! people's) coming from outside (a keyboard, a phone, a script with
//! times) instead of a model. One person at a terminal (`play`) and a room
//! of phones (`serve`) play the same game through it.

use crate::arith::Value;
use crate::game::play::{Game, Record, Setup, Shown, play};
use crate::game::turn::Call;
use crate::game::turn::{Outcome, resolve};
use crate::hand::Hand;
use crate::referee::Fault;
use crate::referee::check;
use crate::rng::Rng;
use crate::rules::Rules;

/// What a person has done on the combination shown.
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

/// A call made at the table, by a model or a person, as ruled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    pub seat: usize,
    pub ms: u32,
    /// The prime called (for a person, the claim's value when it has one).
    pub prime: Option<Value>,
    /// A person's words; `None` for a model.
    pub claim: Option<String>,
    /// The referee's fault for a person; a model's wrong call has none
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
    /// Each person's seat and what they have done, by seat.
    pub people: Vec<(usize, Person)>,
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

/// A player's record over a game.
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
    /// The highest prime called validly.
    pub best: Option<Value>,
}

/// A game with people in some seats, models in the rest.
pub struct Live<'a> {
    pub setup: Setup<'a>,
    pub game: Box<dyn Game>,
    pub rng: Rng,
    /// The seats people play, ascending.
    pub people: Vec<usize>,
    pub rules: Rules,
    /// With no valid call by then, nobody has called: the hand is buried.
    pub limit_ms: u32,
    /// Each seat's record, by seat.
    pub tallies: Vec<Tally>,
}

/// Why a person's call or pass is not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("this seat is not a person's")]
    NotAPerson,
    #[error("this seat has no card in this combination")]
    Out,
    #[error("this seat has already called or passed on this combination")]
    Done,
}

impl Round {
    /// Whether any person can still call.
    pub fn waiting(&self) -> bool {
        self.people.iter().any(|(_, p)| *p == Person::Waiting)
    }

    /// What the person in `seat` has done, if a person plays it.
    pub fn person(&self, seat: usize) -> Option<&Person> {
        self.people.iter().find(|(s, _)| *s == seat).map(|(_, p)| p)
    }

    fn made_by(seat: usize, person: &Person) -> Option<Made> {
        match person {
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
    pub fn calls_until(&self, ms: u32) -> Vec<Made> {
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
        calls.extend(
            self.people
                .iter()
                .filter_map(|(seat, p)| Round::made_by(*seat, p))
                .filter(|c| c.ms <= ms),
        );
        calls.sort_by_key(|c| (c.ms, c.seat));
        calls
    }
}

impl<'a> Live<'a> {
    /// A game with one person, in seat 0.
    pub fn new(
        setup: Setup<'a>,
        game: Box<dyn Game>,
        rng: Rng,
        rules: Rules,
        limit_ms: u32,
    ) -> Live<'a> {
        let seats = setup.players.len();
        Live {
            setup,
            game,
            rng,
            people: vec![0],
            rules,
            limit_ms,
            tallies: vec![Tally::default(); seats],
        }
    }

    /// The same game with people in `seats` (the others: the setup's
    /// models). Seats past the table's are ignored.
    pub fn with_people(mut self, seats: &[usize]) -> Live<'a> {
        let n = self.setup.players.len();
        self.people = seats.iter().copied().filter(|&s| s < n).collect();
        self.people.sort_unstable();
        self.people.dedup();
        self
    }

    /// Hands `seat` to a model from the next combination on (a person who
    /// has left), or back to a person.
    pub fn set_person(&mut self, seat: usize, person: bool) {
        self.people.retain(|&s| s != seat);
        if person && seat < self.setup.players.len() {
            self.people.push(seat);
            self.people.sort_unstable();
        }
    }

    /// The record of `seat`.
    pub fn tally(&self, seat: usize) -> &Tally {
        &self.tallies[seat]
    }

    /// Turns up the next combination and draws the models' calls on it;
    /// `None` when the game is over.
    pub fn deal(&mut self) -> Option<Round> {
        let shown = self.game.show(&mut self.rng)?;
        let bots: Vec<usize> = shown
            .seats
            .iter()
            .copied()
            .filter(|s| !self.people.contains(s))
            .collect();
        let mut calls = self.setup.draw_calls(&shown.cards, &bots, &mut self.rng);
        calls.sort_by_key(|&(seat, c)| (c.time_ms, seat));
        let people = self
            .people
            .iter()
            .map(|&seat| {
                let state = if shown.seats.contains(&seat) {
                    Person::Waiting
                } else {
                    Person::Out
                };
                (seat, state)
            })
            .collect();
        Some(Round {
            turn: self.game.record().turns,
            hand: self.setup.hand(&shown.cards),
            shown,
            bots: calls,
            people,
        })
    }

    /// When the calls on `round` stop counting: the override window after
    /// the first valid call (within the time limit); with none, the time
    /// limit while a person can still call, else the last call.
    pub fn closes_at(&self, round: &Round) -> u32 {
        let timing = self.setup.timing;
        let all = round.calls_until(self.limit_ms);
        if let Some(first) = all.iter().find(|c| c.valid) {
            return first.ms.saturating_add(timing.override_window_ms);
        }
        if round.waiting() {
            self.limit_ms
        } else {
            all.iter().map(|c| c.ms).max().unwrap_or(0)
        }
    }

    /// The person in `seat` calls `claim` at `ms`: the referee rules on it
    /// now. A person calls once a combination: a wrong call bars them.
    ///
    /// # Errors
    /// [`Refused`] when `seat` is no person's, has no card on the table,
    /// or has already called or passed.
    pub fn call(
        &self,
        round: &mut Round,
        seat: usize,
        ms: u32,
        claim: &str,
    ) -> Result<(), Refused> {
        let hand = round.hand;
        let person = Self::waiting_person(round, seat)?;
        let ruling = match hand {
            Some(hand) => check(hand, claim, &self.rules),
            None => Err(Fault::Cards("Jokers only make no hand".into())),
        };
        *person = Person::Called {
            ms,
            claim: claim.to_string(),
            ruling,
        };
        Ok(())
    }

    /// The person in `seat` passes at `ms`.
    ///
    /// # Errors
    /// As [`Live::call`].
    pub fn pass(&self, round: &mut Round, seat: usize, ms: u32) -> Result<(), Refused> {
        *Self::waiting_person(round, seat)? = Person::Passed(ms);
        Ok(())
    }

    fn waiting_person(round: &mut Round, seat: usize) -> Result<&mut Person, Refused> {
        let person = round
            .people
            .iter_mut()
            .find(|(s, _)| *s == seat)
            .map(|(_, p)| p)
            .ok_or(Refused::NotAPerson)?;
        match person {
            Person::Waiting => Ok(person),
            Person::Out => Err(Refused::Out),
            _ => Err(Refused::Done),
        }
    }

    /// Ends the combination: the calls made before it closed are resolved
    /// as the simulator resolves them, and the game moves on.
    pub fn finish(&mut self, round: &Round) -> Finished {
        let closed_ms = self.closes_at(round);
        let calls = round.calls_until(closed_ms);
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

    /// Every seat's record: its calls made in time, its passes, and what
    /// it won.
    fn count(&mut self, round: &Round, calls: &[Made], outcome: &Outcome) {
        for (seat, person) in &round.people {
            if matches!(person, Person::Passed(_)) {
                self.tallies[*seat].passes += 1;
            }
        }
        for c in calls {
            let t = &mut self.tallies[c.seat];
            t.calls += 1;
            if c.valid {
                t.valid += 1;
                t.times.push(c.ms);
                t.best = t.best.max(c.prime);
            } else {
                t.wrong += 1;
            }
        }
        match outcome {
            Outcome::Win(w) => self.tallies[*w].won += 1,
            Outcome::Tie(who) => {
                for &seat in who {
                    self.tallies[seat].ties += 1;
                }
            }
            Outcome::NoCall => {}
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

    /// Whether every person has no card left (in a game of three or
    /// more).
    pub fn people_out(&self) -> bool {
        let held = self.held();
        self.people.iter().all(|&s| held[s] == 0)
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
        l.call(&mut round, 0, 1000, "(6*4)/8").unwrap();
        assert_eq!(l.closes_at(&round), 2500);
        let done = l.finish(&round);
        assert_eq!(done.outcome, Outcome::Win(0));
        assert_eq!(l.held()[0], 4);
        assert_eq!(l.tally(0).won, 1);
        // Next: 1 2 3 on the table; a wrong call bars the person.
        let mut round = l.deal().unwrap();
        l.call(&mut round, 0, 500, "1+2+3").unwrap();
        let done = l.finish(&round);
        assert!(matches!(&done.calls[0].fault, Some(Fault::NotPrime(_))));
        assert_ne!(done.outcome, Outcome::Win(0));
        assert_eq!(
            (l.tally(0).calls, l.tally(0).valid, l.tally(0).wrong),
            (2, 1, 1)
        );
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
        l.call(&mut round, 0, 2400, "(6*4)/8").unwrap();
        assert_eq!(l.finish(&round).outcome, Outcome::Win(0));
        // Too late: the combination closed at 2500 ms, the call is not made.
        let mut l = seated(&book, models);
        let mut round = l.deal().unwrap();
        l.call(&mut round, 0, 2600, "(6*4)/8").unwrap();
        let done = l.finish(&round);
        assert_eq!(done.closed_ms, 2500);
        assert_eq!(done.outcome, Outcome::Win(1));
        assert!(done.calls.iter().all(|c| c.claim.is_none()));
        // Both bots calling 2 at once bury their cards.
        let mut l = live(&book, STEADY);
        let mut round = l.deal().unwrap();
        l.pass(&mut round, 0, 100).unwrap();
        assert_eq!(l.finish(&round).outcome, Outcome::Tie(vec![1, 2]));
        assert_eq!(l.tally(0).passes, 1);
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

    #[test]
    fn people_in_several_seats_race_and_each_calls_once() {
        let book = CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap();
        // Seats 0 and 1 are people (4 and 6), seat 2 a slow bot (8).
        let mut l = live(&book, Model::NOVICE).with_people(&[1, 0, 7]);
        assert_eq!(l.people, [0, 1]);
        let mut round = l.deal().unwrap();
        assert!(round.waiting());
        assert_eq!(l.call(&mut round, 2, 10, "2"), Err(Refused::NotAPerson));
        l.call(&mut round, 1, 800, "6+4-8").unwrap();
        assert_eq!(l.call(&mut round, 1, 900, "6*4/8"), Err(Refused::Done));
        assert_eq!(l.pass(&mut round, 1, 900), Err(Refused::Done));
        assert!(round.waiting(), "seat 0 still may call");
        // A higher prime within the override window takes the cards.
        l.call(&mut round, 0, 2000, "(6*4)/8").unwrap();
        assert!(!round.waiting());
        assert_eq!(l.closes_at(&round), 800 + 1500);
        let done = l.finish(&round);
        assert_eq!(done.outcome, Outcome::Win(0));
        assert_eq!(done.calls.len(), 2);
        assert_eq!((l.tally(0).won, l.tally(0).best), (1, Some(3)));
        assert_eq!((l.tally(1).valid, l.tally(1).won), (1, 0));
        // The same prime at once: a tie.
        let mut round = l.deal().unwrap();
        l.call(&mut round, 0, 1000, "3*2-1").unwrap();
        l.call(&mut round, 1, 1100, "2*3-1").unwrap();
        assert_eq!(l.finish(&round).outcome, Outcome::Tie(vec![0, 1]));
        // A seat handed to a model draws its calls from the next deal.
        l.set_person(1, false);
        assert_eq!(l.people, [0]);
        let round = l.deal().unwrap();
        assert!(round.person(1).is_none());
    }
}
