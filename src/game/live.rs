//! The live game: one state machine for a table with people in some seats
//! and models in the rest. It deals as the simulator deals (the stockpile
//! game for two, [`Multi`](crate::game::Multi) for more), turns the cards,
//! takes the people's timed calls and passes by seat and turn, draws the
//! models' calls, resolves each combination as the simulator does, hands a
//! seat to a model and back, and ends the game by the rules, a turn limit,
//! a target or being called off, the winner named by one rule
//! ([`leader`]). Everything that happens is an [`Event`] for a front end to
//! render: `play` at a terminal or from a script, a room of phones, and
//! the simulator itself (which renders nothing) all play through it.
//!
//! Time is the front end's: every call, pass and tick says how many
//! milliseconds after the cards were shown it comes.

use crate::arith::Value;
use crate::engine::Solver;
use crate::expr::Expr;
use crate::game::play::{CardId, End, Game, Record, Setup, Shown, leader};
use crate::game::turn::{Call, Outcome, resolve};
use crate::hand::Hand;
use crate::referee::{Fault, check};
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
    pub valid: bool,
    /// The referee's fault for a person; a model's wrong call has none
    /// (a miscalculation it cannot show).
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

/// A player's record over a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub calls: u32,
    pub valid: u32,
    pub wrong: u32,
    /// Claims that could not be read (not calls: [`Fault::is_slip`]).
    pub slips: u32,
    pub passes: u32,
    /// Combinations won.
    pub won: u32,
    pub ties: u32,
    /// Times of the valid calls, in ms.
    pub times: Vec<u32>,
    /// The highest prime called validly.
    pub best: Option<Value>,
}

impl Tally {
    /// The median time of the valid calls.
    pub fn median_ms(&self) -> Option<u32> {
        let mut times = self.times.clone();
        times.sort_unstable();
        crate::stats::median(&times)
    }
}

/// When a game stops short of the rules' end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    /// The most combinations a game shows.
    pub max_turns: u32,
    /// A short game: over once a player holds this many cards.
    pub target: Option<usize>,
    /// Once no person has a card left (or every seat is a model's), the
    /// models play the rest among themselves for at most this many more
    /// combinations.
    pub play_out: u32,
}

impl Default for Ends {
    fn default() -> Ends {
        Ends {
            max_turns: u32::MAX,
            target: None,
            play_out: u32::MAX,
        }
    }
}

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules' own end.
    Rules(End),
    /// The turn limit.
    Turns,
    /// A player reached the target.
    Target,
    /// Called off: by the host, the person leaving, a script ending.
    CalledOff,
}

/// The end of a game: why, who won, and every seat's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    pub ending: Ending,
    /// The winner: the rules' at their end, else the [`leader`]; `None`
    /// for a draw.
    pub winner: Option<usize>,
    /// Combinations shown.
    pub turns: u32,
    /// Whether the models played the last combinations among themselves,
    /// no person having a card left.
    pub played_out: bool,
    /// Cards each seat holds.
    pub held: Vec<usize>,
    pub stock: Option<usize>,
    /// Each seat's record, by seat.
    pub records: Vec<Tally>,
}

/// Why a combination's cards are buried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Burial {
    /// The same prime called at the same moment.
    Tie,
    /// Nobody called validly in time.
    NoCall,
    /// The cards make no prime at all.
    NoPrime,
}

/// What happens at the table, in order, for a front end to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Cards turned up: the clock starts.
    Dealt {
        turn: u32,
        shown: Shown,
        hand: Option<Hand>,
        /// Each player's pile, the cards on the table left out.
        piles: Vec<usize>,
        /// Cards each player holds, their cards on the table included.
        held: Vec<usize>,
        /// The stockpile, its face-up card included.
        stock: Option<usize>,
        /// A new stockpile was made for these cards.
        restocked: bool,
    },
    /// A call, by a person (`claim`) or a model.
    Called {
        turn: u32,
        seat: usize,
        ms: u32,
        claim: Option<String>,
        prime: Option<Value>,
    },
    /// The referee's ruling on the call just made; a valid model's call
    /// with its simplest witness, in the order people say it.
    Ruled {
        turn: u32,
        seat: usize,
        valid: bool,
        value: Option<Value>,
        fault: Option<Fault>,
        witness: Option<Expr>,
    },
    /// A claim that could not be read: no call, for the caller alone; the
    /// seat may call again on these cards.
    NotACall {
        turn: u32,
        seat: usize,
        ms: u32,
        claim: String,
        why: Fault,
    },
    Passed {
        turn: u32,
        seat: usize,
        ms: u32,
    },
    /// `seat` takes the cards with `prime`.
    Won {
        turn: u32,
        seat: usize,
        prime: Value,
        cards: Vec<CardId>,
        held: Vec<usize>,
        stock: Option<usize>,
    },
    /// The cards of `seats` are buried and their next cards turned.
    Buried {
        turn: u32,
        why: Burial,
        seats: Vec<usize>,
        held: Vec<usize>,
        stock: Option<usize>,
    },
    /// Seats ready for the next cards.
    Ready {
        ready: Vec<usize>,
    },
    Over(GameOver),
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Between combinations: the next cards wait for [`Live::deal`].
    Between,
    /// Cards on the table, calls counting.
    Calling,
    Over,
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
    #[error("too late for turn {turn}: its cards have been decided")]
    TooLate { turn: u32 },
    #[error("turn {turn} has not been dealt")]
    NotDealt { turn: u32 },
    #[error("the game is over")]
    Over,
}

/// The cards where the last combination left them, before the next were
/// turned up (which can make a new stockpile).
#[derive(Clone, Debug)]
struct Settled {
    piles: Vec<usize>,
    held: Vec<usize>,
    stock: Option<usize>,
}

/// A game with people in some seats, models in the rest.
pub struct Live<'a> {
    setup: Setup<'a>,
    game: Box<dyn Game>,
    rng: Rng,
    rules: Rules,
    /// For the models' witnesses; `None` where witnesses are not shown.
    solver: Option<Solver>,
    /// The seats people play, ascending.
    people: Vec<usize>,
    /// With no valid call by then, nobody has called: the hand is buried.
    limit_ms: u32,
    ends: Ends,
    tallies: Vec<Tally>,
    stage: Stage,
    /// Whether the first cards have been turned up.
    started: bool,
    /// Whether the models are playing the rest among themselves.
    playing_out: bool,
    /// The next combination, turned up but not yet shown, and whether a
    /// new stockpile was made for it.
    staged: Option<(Shown, bool)>,
    /// The combination on the table, or the last one once decided.
    round: Option<Round>,
    /// The models' calls of `round` already told.
    told: usize,
    /// Each pile and the stockpile as the last combination left them,
    /// before the next cards were turned up.
    settled: Option<Settled>,
    ready: Vec<usize>,
    over: Option<GameOver>,
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
            rules,
            solver: Solver::new(rules).ok(),
            people: vec![0],
            limit_ms,
            ends: Ends::default(),
            tallies: vec![Tally::default(); seats],
            stage: Stage::Between,
            started: false,
            playing_out: false,
            staged: None,
            round: None,
            told: 0,
            settled: None,
            ready: Vec::new(),
            over: None,
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

    /// The same game, stopped short of the rules' end as `ends` says.
    pub fn with_ends(mut self, ends: Ends) -> Live<'a> {
        self.ends = ends;
        self
    }

    /// The same game with no witnesses worked out for the models' calls
    /// (for games nobody watches: the simulator's).
    pub fn without_witnesses(mut self) -> Live<'a> {
        self.solver = None;
        self
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn setup(&self) -> &Setup<'a> {
        &self.setup
    }

    /// The seats people play, ascending.
    pub fn people(&self) -> &[usize] {
        &self.people
    }

    pub fn limit_ms(&self) -> u32 {
        self.limit_ms
    }

    /// The combination on the table, or the last one once decided.
    pub fn round(&self) -> Option<&Round> {
        self.round.as_ref()
    }

    /// The game's end, once it is over.
    pub fn over(&self) -> Option<&GameOver> {
        self.over.as_ref()
    }

    /// The game's record so far.
    pub fn record(&self) -> &Record {
        self.game.record()
    }

    /// How many cards each player's pile holds, the cards on the table
    /// left out; between combinations, as the last one left them (before
    /// the next cards are turned up).
    pub fn piles(&self) -> Vec<usize> {
        match (&self.settled, self.stage) {
            (Some(s), Stage::Between | Stage::Over) => s.piles.clone(),
            _ => self.game.piles().iter().map(|p| p.len()).collect(),
        }
    }

    /// The stockpile's cards, its face-up card included, if the game has
    /// one; between combinations, as the last one left it.
    pub fn stock(&self) -> Option<usize> {
        match (&self.settled, self.stage) {
            (Some(s), Stage::Between | Stage::Over) => s.stock,
            _ => self.game.stock().map(<[CardId]>::len),
        }
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

    /// Cards each player holds: their pile and their cards on the table;
    /// between combinations, as the last one left them.
    pub fn held(&self) -> Vec<usize> {
        match (&self.settled, self.stage) {
            (Some(s), Stage::Between | Stage::Over) => s.held.clone(),
            _ => self.game.held(),
        }
    }

    /// Whether no person has a card left, or every seat is a model's.
    fn models_alone(&self) -> bool {
        let held = self.game.held();
        self.people.iter().all(|&s| held[s] == 0)
            && (self.people.is_empty() || self.game.stock().is_none())
    }

    /// The number of the combination on the table (or the last shown).
    pub fn turn(&self) -> u32 {
        self.round.as_ref().map_or(0, |r| r.turn)
    }

    /// Turns up the next combination without showing it, or ends the game
    /// where it stops here.
    fn turn_up_next(&mut self) {
        let record = self.game.record();
        if record.turns >= self.ends.max_turns {
            return self.end(Ending::Turns);
        }
        if let Some(target) = self.ends.target
            && self.game.held().iter().any(|&h| h >= target)
        {
            return self.end(Ending::Target);
        }
        let stock_before = self.game.stock().map_or(0, <[CardId]>::len);
        match self.game.show(&mut self.rng) {
            Some(shown) => {
                let restocked = self.game.stock().map_or(0, <[CardId]>::len) > stock_before;
                self.staged = Some((shown, restocked));
            }
            None => {
                self.game.record_mut().finished = true;
                let end = self.game.record().end.unwrap_or(End::AllCards);
                self.end(Ending::Rules(end));
            }
        }
    }

    /// Stages the next cards; where only models are left to play, they
    /// play the rest of the game at once.
    fn stage_or_play_out(&mut self) {
        self.turn_up_next();
        self.play_out_if_alone();
    }

    /// Where only models are left to play (no person holds a card, or
    /// every seat has been handed to a model), they play the rest of the
    /// game at once, for at most [`Ends::play_out`] more combinations.
    fn play_out_if_alone(&mut self) {
        if self.stage == Stage::Over || self.playing_out || !self.models_alone() {
            return;
        }
        self.playing_out = true;
        let played = self.game.record().turns.saturating_sub(1);
        self.ends.max_turns = self
            .ends
            .max_turns
            .min(played.saturating_add(self.ends.play_out));
        let solver = self.solver.take();
        let people = std::mem::take(&mut self.people);
        while self.stage != Stage::Over {
            self.deal();
            self.tick(u32::MAX);
        }
        self.solver = solver;
        self.people = people;
        self.playing_out = false;
    }

    fn end(&mut self, ending: Ending) {
        // As the players saw the cards (before any staged).
        let held = self.held();
        if !matches!(ending, Ending::Rules(_)) {
            self.game.record_mut().winner = leader(&held, self.game.last_winner());
        }
        let record = self.game.record();
        // Cards staged were never shown.
        let turns = record.turns - u32::from(self.staged.is_some());
        let people_out = !self.people.is_empty()
            && self.people.iter().all(|&s| held[s] == 0)
            && self.stock().is_none();
        self.over = Some(GameOver {
            ending,
            winner: record.winner,
            turns,
            played_out: self.playing_out || people_out,
            held,
            stock: self.stock(),
            records: self.tallies.clone(),
        });
        self.stage = Stage::Over;
    }

    /// Shows the next combination and draws the models' calls on it:
    /// [`Event::Dealt`]; [`Event::Over`] if the game ends instead (the
    /// rules' end, a limit, or the models playing the rest); nothing once
    /// the game is over or while cards are on the table.
    pub fn deal(&mut self) -> Vec<Event> {
        if self.over.is_some() {
            return Vec::new();
        }
        if !self.started {
            self.started = true;
            self.turn_up_next();
        }
        if self.stage == Stage::Between {
            // Seats handed to models since the last cards.
            self.play_out_if_alone();
        }
        if let Some(over) = &self.over {
            return if self.playing_out {
                Vec::new()
            } else {
                vec![Event::Over(over.clone())]
            };
        }
        if self.stage != Stage::Between {
            return Vec::new();
        }
        let Some((shown, restocked)) = self.staged.take() else {
            return Vec::new();
        };
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
        let round = Round {
            turn: self.game.record().turns,
            hand: self.setup.hand(&shown.cards),
            shown,
            bots: calls,
            people,
        };
        let dealt = Event::Dealt {
            turn: round.turn,
            shown: round.shown.clone(),
            hand: round.hand,
            piles: self.game.piles().iter().map(|p| p.len()).collect(),
            held: self.game.held(),
            stock: self.game.stock().map(<[CardId]>::len),
            restocked,
        };
        self.round = Some(round);
        self.told = 0;
        self.settled = None;
        self.ready.clear();
        self.stage = Stage::Calling;
        vec![dealt]
    }

    /// When the calls on the cards stop counting: the override window
    /// after the first valid call (within the time limit); with none, the
    /// time limit while a person can still call, else the last call.
    pub fn closes_at(&self) -> u32 {
        let Some(round) = &self.round else { return 0 };
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

    /// When [`Live::tick`] next has something to tell: a model's call or
    /// the close; `None` unless cards are on the table.
    pub fn wakes_at(&self) -> Option<u32> {
        if self.stage != Stage::Calling {
            return None;
        }
        let closes = self.closes_at();
        let round = self.round.as_ref()?;
        let next_bot = round.bots.get(self.told).map_or(u32::MAX, |b| b.1.time_ms);
        Some(next_bot.min(closes))
    }

    /// Whether a person in the combination may still call: `false` once
    /// every person has called or passed.
    pub fn waiting(&self) -> bool {
        self.stage == Stage::Calling && self.round.as_ref().is_some_and(Round::waiting)
    }

    /// Checks that a call or pass for `turn` at `ms` from `seat` can be
    /// taken now.
    fn open_for(&self, seat: usize, turn: u32, ms: u32) -> Result<(), Refused> {
        if self.stage == Stage::Over && self.turn() < turn {
            return Err(Refused::Over);
        }
        let current = self.turn();
        if turn > current || (turn == current && self.round.is_none()) {
            return Err(Refused::NotDealt { turn });
        }
        if turn < current || self.stage != Stage::Calling || ms > self.closes_at() {
            return Err(Refused::TooLate { turn });
        }
        let round = self.round.as_ref().ok_or(Refused::NotDealt { turn })?;
        match round.person(seat) {
            None => Err(Refused::NotAPerson),
            Some(Person::Waiting) => Ok(()),
            Some(Person::Out) => Err(Refused::Out),
            Some(_) => Err(Refused::Done),
        }
    }

    fn person_mut(&mut self, seat: usize) -> Option<&mut Person> {
        self.round
            .as_mut()?
            .people
            .iter_mut()
            .find(|(s, _)| *s == seat)
            .map(|(_, p)| p)
    }

    /// The person in `seat` calls `claim` on `turn` at `ms`: the referee
    /// rules on it now. A claim that cannot be read is no call
    /// ([`Event::NotACall`]): the seat may call again. A call that fails
    /// bars the seat for the combination.
    ///
    /// # Errors
    /// [`Refused`] when `turn` is over or not dealt, `seat` is no
    /// person's, has no card on the table, or has already called or
    /// passed.
    pub fn call(
        &mut self,
        seat: usize,
        turn: u32,
        ms: u32,
        claim: &str,
    ) -> Result<Vec<Event>, Refused> {
        self.open_for(seat, turn, ms)?;
        let mut events = self.tick(ms.saturating_sub(1));
        if self.stage != Stage::Calling {
            return Err(Refused::TooLate { turn });
        }
        let hand = self.round.as_ref().and_then(|r| r.hand);
        let ruling = match hand {
            Some(hand) => check(hand, claim, &self.rules),
            None => Err(Fault::Cards("Jokers only make no hand".into())),
        };
        if let Err(why) = &ruling
            && why.is_slip()
        {
            self.tallies[seat].slips += 1;
            events.push(Event::NotACall {
                turn,
                seat,
                ms,
                claim: claim.to_string(),
                why: why.clone(),
            });
            return Ok(events);
        }
        let made = Made {
            seat,
            ms,
            prime: ruling.as_ref().ok().copied(),
            claim: Some(claim.to_string()),
            valid: ruling.is_ok(),
            fault: ruling.as_ref().err().cloned(),
        };
        if let Some(person) = self.person_mut(seat) {
            *person = Person::Called {
                ms,
                claim: claim.to_string(),
                ruling,
            };
        }
        events.extend(self.call_events(turn, &made));
        Ok(events)
    }

    /// The person in `seat` passes on `turn` at `ms`.
    ///
    /// # Errors
    /// As [`Live::call`].
    pub fn pass(&mut self, seat: usize, turn: u32, ms: u32) -> Result<Vec<Event>, Refused> {
        self.open_for(seat, turn, ms)?;
        let mut events = self.tick(ms.saturating_sub(1));
        if self.stage != Stage::Calling {
            return Err(Refused::TooLate { turn });
        }
        if let Some(person) = self.person_mut(seat) {
            *person = Person::Passed(ms);
        }
        events.push(Event::Passed { turn, seat, ms });
        Ok(events)
    }

    /// A call and the ruling on it.
    fn call_events(&self, turn: u32, c: &Made) -> [Event; 2] {
        let witness = match (&c.claim, c.valid, c.prime, &self.round, &self.solver) {
            (None, true, Some(p), Some(round), Some(solver)) => round.hand.and_then(|hand| {
                let solution = solver.solve_primes(hand).ok()?;
                solution
                    .witness(p)
                    .map(|e| e.shown(solution.rules().max_value))
            }),
            _ => None,
        };
        [
            Event::Called {
                turn,
                seat: c.seat,
                ms: c.ms,
                claim: c.claim.clone(),
                prime: c.prime,
            },
            Event::Ruled {
                turn,
                seat: c.seat,
                valid: c.valid,
                value: if c.valid { c.prime } else { None },
                fault: c.fault.clone(),
                witness,
            },
        ]
    }

    /// The clock at `ms` after the cards were shown: the models' calls
    /// made by then, and, once the calls stop counting, how the
    /// combination ended (and the game, if it is over).
    pub fn tick(&mut self, ms: u32) -> Vec<Event> {
        let mut events = Vec::new();
        if self.stage != Stage::Calling {
            return events;
        }
        let closes = self.closes_at();
        let turn = self.turn();
        let until = ms.min(closes);
        while let Some(&(seat, call)) = self.round.as_ref().and_then(|r| r.bots.get(self.told)) {
            if call.time_ms > until {
                break;
            }
            let made = Made {
                seat,
                ms: call.time_ms,
                prime: Some(call.prime),
                claim: None,
                valid: call.valid,
                fault: None,
            };
            events.extend(self.call_events(turn, &made));
            self.told += 1;
        }
        if ms >= closes {
            events.extend(self.decide(closes));
        }
        events
    }

    /// Ends the combination at `closed_ms`: the calls made by then are
    /// resolved as the simulator resolves them, and the game moves on.
    fn decide(&mut self, closed_ms: u32) -> Vec<Event> {
        let Some(round) = self.round.take() else {
            return Vec::new();
        };
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
        self.count(&round, &calls, &outcome);
        self.game.settle(&outcome, impossible, &mut self.rng);
        let stock = self.game.stock().map(<[CardId]>::len);
        let held = self.game.held();
        self.settled = Some(Settled {
            piles: self.game.piles().iter().map(|p| p.len()).collect(),
            held: held.clone(),
            stock,
        });
        let turn = round.turn;
        let result = match &outcome {
            Outcome::Win(w) => Event::Won {
                turn,
                seat: *w,
                prime: calls
                    .iter()
                    .filter(|c| c.seat == *w && c.valid)
                    .find_map(|c| c.prime)
                    .unwrap_or(0),
                cards: round.shown.cards.clone(),
                held,
                stock,
            },
            Outcome::Tie(who) => Event::Buried {
                turn,
                why: Burial::Tie,
                seats: who.clone(),
                held,
                stock,
            },
            Outcome::NoCall => Event::Buried {
                turn,
                why: if impossible {
                    Burial::NoPrime
                } else {
                    Burial::NoCall
                },
                seats: round.shown.seats.clone(),
                held,
                stock,
            },
        };
        self.round = Some(round);
        self.stage = Stage::Between;
        let mut events = vec![result];
        self.stage_or_play_out();
        if let Some(over) = &self.over {
            events.push(Event::Over(over.clone()));
        }
        events
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

    /// `seat` is ready for the next cards: [`Event::Ready`] with every
    /// seat ready so far, or nothing unless the game is between
    /// combinations (or `seat` was ready already).
    pub fn ready(&mut self, seat: usize) -> Option<Event> {
        if self.stage != Stage::Between || self.ready.contains(&seat) {
            return None;
        }
        self.ready.push(seat);
        Some(Event::Ready {
            ready: self.ready.clone(),
        })
    }

    /// The seats ready for the next cards.
    pub fn ready_seats(&self) -> &[usize] {
        &self.ready
    }

    /// Calls the game off now (the host ends it, the person leaves, a
    /// script is over): the winner is the [`leader`]. The game's end, the
    /// same again if it was already over.
    pub fn call_off(&mut self) -> GameOver {
        match &self.over {
            Some(over) => over.clone(),
            None => {
                self.end(Ending::CalledOff);
                self.over
                    .clone()
                    .unwrap_or_else(|| unreachable!("ended just now"))
            }
        }
    }

    /// The models play the game to its end among themselves, every seat
    /// handed to a model (as the simulator plays): its record.
    pub fn play_out(&mut self) -> Record {
        self.people.clear();
        if !self.started {
            self.deal();
        }
        while self.stage != Stage::Over {
            self.deal();
            self.tick(u32::MAX);
        }
        self.game.record().clone()
    }

    /// The leader now: who would win were the game called off.
    pub fn leader(&self) -> Option<usize> {
        leader(&self.game.held(), self.game.last_winner())
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

    fn book() -> CallBook {
        CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap()
    }

    /// A game where the person holds 4, 1; the bots 6, 2 and 8, 3
    /// (spades).
    fn live(book: &CallBook, bots: Model) -> Live<'_> {
        seated(book, [bots.clone(), bots.clone(), bots])
    }

    fn seated(book: &CallBook, models: [Model; 3]) -> Live<'_> {
        let setup = Setup::new(book, models.to_vec(), Faces::Five, Timing::default());
        let game = Multi::from_piles(vec![spades(&[4, 1]), spades(&[6, 2]), spades(&[8, 3])]);
        Live::new(setup, Box::new(game), Rng::new(1), Rules::default(), 30_000)
    }

    /// The events of a combination decided: won or buried.
    fn result(events: &[Event]) -> &Event {
        events
            .iter()
            .find(|e| matches!(e, Event::Won { .. } | Event::Buried { .. }))
            .expect("the combination is decided")
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
    fn the_person_beats_slow_bots_and_is_barred_when_wrong() {
        let book = book();
        let mut l = live(&book, Model::NOVICE);
        let dealt = l.deal();
        let [Event::Dealt { turn: 1, hand, .. }] = &dealt[..] else {
            panic!("{dealt:?}")
        };
        assert_eq!(hand.unwrap().values(), [4, 6, 8]);
        let first_bot = l
            .round()
            .unwrap()
            .bots
            .first()
            .map_or(u32::MAX, |b| b.1.time_ms);
        assert!(first_bot > 1000);
        let said = l.call(0, 1, 1000, "(6*4)/8").unwrap();
        assert!(matches!(
            said[..],
            [
                Event::Called { seat: 0, .. },
                Event::Ruled {
                    valid: true,
                    value: Some(3),
                    ..
                }
            ]
        ));
        assert_eq!(l.closes_at(), 2500);
        assert_eq!(l.tick(2499), []);
        let done = l.tick(2500);
        assert!(matches!(
            result(&done),
            Event::Won {
                seat: 0,
                prime: 3,
                ..
            }
        ));
        assert_eq!(l.held()[0], 4);
        assert_eq!(l.tally(0).won, 1);
        // Next: 1 2 3 on the table; a wrong call bars the person.
        l.deal();
        let said = l.call(0, 2, 500, "1+2+3").unwrap();
        assert!(matches!(
            &said[..],
            [
                Event::Called { .. },
                Event::Ruled {
                    valid: false,
                    fault: Some(Fault::NotPrime(_)),
                    ..
                }
            ]
        ));
        assert_eq!(l.call(0, 2, 600, "3*2-1"), Err(Refused::Done));
        let done = l.tick(u32::MAX);
        assert!(!matches!(result(&done), Event::Won { seat: 0, .. }));
        assert_eq!(
            (l.tally(0).calls, l.tally(0).valid, l.tally(0).wrong),
            (2, 1, 1)
        );
    }

    #[test]
    fn a_slip_is_no_call_and_the_seat_calls_again() {
        let book = book();
        let mut l = live(&book, Model::NOVICE);
        l.deal();
        for slip in ["1*3*4+0", "4+6+", "9", "", "6 * 4 / 9"] {
            let said = l.call(0, 1, 400, slip).unwrap();
            let [
                Event::NotACall {
                    seat: 0,
                    turn: 1,
                    why,
                    ..
                },
            ] = &said[..]
            else {
                panic!("{slip}: {said:?}")
            };
            assert!(why.is_slip(), "{slip}: {why:?}");
        }
        assert!(l.waiting(), "a slip bars nobody");
        assert_eq!(l.tally(0).slips, 5);
        // A readable claim that fails is a call, and bars the seat: a card
        // used twice, a card left out, not prime.
        for (claim, kind) in [("4+4+6", "cards"), ("6+8", "cards"), ("6*8/4", "not-prime")] {
            let mut l = live(&book, Model::NOVICE);
            l.deal();
            let said = l.call(0, 1, 400, claim).unwrap();
            let Event::Ruled {
                valid: false,
                fault: Some(f),
                ..
            } = &said[1]
            else {
                panic!("{claim}: {said:?}")
            };
            assert_eq!(f.kind(), kind, "{claim}");
            assert!(!l.waiting(), "{claim} bars the seat");
            assert_eq!(l.tally(0).wrong, 0, "counted once decided");
            l.tick(u32::MAX);
            assert_eq!(l.tally(0).wrong, 1, "{claim}");
        }
    }

    #[test]
    fn a_call_names_its_turn_and_a_late_one_is_refused() {
        let book = book();
        let models = [STEADY, STEADY, Model::NOVICE];
        // Seat 1 calls 2 at 1000 ms; the person's 3 within the override
        // window takes the cards.
        let mut l = seated(&book, models.clone());
        l.deal();
        assert_eq!(l.round().unwrap().bots[0].1.time_ms, 1000);
        let said = l.call(0, 1, 2400, "(6*4)/8").unwrap();
        // The bots' calls made before it are told first.
        assert!(matches!(
            said[0],
            Event::Called {
                seat: 1,
                ms: 1000,
                ..
            }
        ));
        assert!(matches!(
            result(&l.tick(u32::MAX)),
            Event::Won { seat: 0, .. }
        ));
        // Too late: the combination closed at 2500 ms.
        let mut l = seated(&book, models.clone());
        l.deal();
        assert_eq!(
            l.call(0, 1, 2600, "(6*4)/8"),
            Err(Refused::TooLate { turn: 1 })
        );
        let done = l.tick(2600);
        assert!(matches!(result(&done), Event::Won { seat: 1, .. }));
        // A call for the turn just decided, or the one before, is too late
        // and judged against no other cards; one for a turn not dealt is
        // refused.
        assert_eq!(l.call(0, 1, 10, "1+2"), Err(Refused::TooLate { turn: 1 }));
        assert_eq!(l.call(0, 2, 10, "1+2"), Err(Refused::NotDealt { turn: 2 }));
        l.deal();
        assert_eq!(l.call(0, 1, 10, "2*3-1"), Err(Refused::TooLate { turn: 1 }));
        assert_eq!(
            l.call(0, 3, 10, "2*3-1"),
            Err(Refused::NotDealt { turn: 3 })
        );
        assert!(l.call(0, 2, 10, "2*3-1").is_ok());
        // Both bots calling 2 at once bury their cards.
        let mut l = live(&book, STEADY);
        l.deal();
        l.pass(0, 1, 100).unwrap();
        let done = l.tick(u32::MAX);
        assert!(
            matches!(result(&done), Event::Buried { why: Burial::Tie, seats, .. } if seats == &[1, 2])
        );
        assert_eq!(l.tally(0).passes, 1);
    }

    #[test]
    fn nobody_calling_buries_at_the_limit() {
        let book = book();
        let mut l = live(&book, Model::NOVICE);
        l.limit_ms = 500;
        l.deal();
        assert_eq!(l.closes_at(), 500);
        assert_eq!(l.wakes_at(), Some(500));
        let done = l.tick(500);
        assert!(matches!(
            done[..],
            [Event::Buried {
                why: Burial::NoCall,
                ..
            }]
        ));
    }

    #[test]
    fn people_in_several_seats_race_and_each_calls_once() {
        let book = book();
        // Seats 0 and 1 are people (4 and 6), seat 2 a slow bot (8).
        let mut l = live(&book, Model::NOVICE).with_people(&[1, 0, 7]);
        assert_eq!(l.people(), [0, 1]);
        l.deal();
        assert!(l.waiting());
        assert_eq!(l.call(2, 1, 10, "2"), Err(Refused::NotAPerson));
        l.call(1, 1, 800, "6+4-8").unwrap();
        assert_eq!(l.call(1, 1, 900, "6*4/8"), Err(Refused::Done));
        assert_eq!(l.pass(1, 1, 900), Err(Refused::Done));
        assert!(l.waiting(), "seat 0 still may call");
        // A higher prime within the override window takes the cards.
        l.call(0, 1, 2000, "(6*4)/8").unwrap();
        assert!(!l.waiting());
        assert_eq!(l.closes_at(), 800 + 1500);
        let done = l.tick(u32::MAX);
        assert!(matches!(
            result(&done),
            Event::Won {
                seat: 0,
                prime: 3,
                ..
            }
        ));
        assert_eq!((l.tally(0).won, l.tally(0).best), (1, Some(3)));
        assert_eq!((l.tally(1).valid, l.tally(1).won), (1, 0));
        // The same prime at once: a tie.
        l.deal();
        l.call(0, 2, 1000, "3*2-1").unwrap();
        l.call(1, 2, 1100, "2*3-1").unwrap();
        let done = l.tick(u32::MAX);
        assert!(matches!(
            result(&done),
            Event::Buried {
                why: Burial::Tie,
                ..
            }
        ));
        // A seat handed to a model draws its calls from the next deal.
        l.set_person(1, false);
        assert_eq!(l.people(), [0]);
        l.deal();
        assert!(l.round().unwrap().person(1).is_none());
    }

    #[test]
    fn every_end_names_its_winner_by_one_rule() {
        let book = book();
        // Called off at once: 2 cards each, nobody has won a combination:
        // a draw.
        let mut l = live(&book, Model::NOVICE);
        let over = l.call_off();
        assert_eq!(
            (over.ending, over.winner, over.turns),
            (Ending::CalledOff, None, 0)
        );
        assert_eq!(over.held, [2, 2, 2]);
        // The person wins the first combination: 4 cards against 1 and 1.
        let mut l = live(&book, Model::NOVICE);
        l.deal();
        l.call(0, 1, 500, "6*4/8").unwrap();
        l.tick(u32::MAX);
        assert_eq!(l.leader(), Some(0));
        let over = l.call_off();
        assert_eq!(
            (over.winner, over.turns),
            (Some(0), 1),
            "the staged cards were not shown"
        );
        assert_eq!(over.held.iter().sum::<usize>(), 6);
        assert_eq!(l.call_off(), over, "called off once");
        assert_eq!(l.deal(), [], "nothing is dealt once it is over");
        // A turn limit and a target end it the same way.
        let mut l = live(&book, Model::NOVICE).with_ends(Ends {
            max_turns: 1,
            ..Ends::default()
        });
        l.deal();
        l.call(0, 1, 500, "6*4/8").unwrap();
        let done = l.tick(u32::MAX);
        let Some(Event::Over(over)) = done.last() else {
            panic!("{done:?}")
        };
        assert_eq!((over.ending, over.winner), (Ending::Turns, Some(0)));
        let mut l = live(&book, Model::NOVICE).with_ends(Ends {
            target: Some(4),
            ..Ends::default()
        });
        l.deal();
        l.call(0, 1, 500, "6*4/8").unwrap();
        let done = l.tick(u32::MAX);
        let Some(Event::Over(over)) = done.last() else {
            panic!("{done:?}")
        };
        assert_eq!(
            (over.ending, over.winner, over.turns),
            (Ending::Target, Some(0), 1)
        );
        assert_eq!(over.records[0].won, 1);
        // Tied on the most: the latest combination's winner among the
        // tied; none of them: a draw.
        assert_eq!(leader(&[3, 3, 0], Some(1)), Some(1));
        assert_eq!(leader(&[3, 3, 0], Some(2)), None);
        assert_eq!(leader(&[3, 4, 0], Some(0)), Some(1));
    }

    #[test]
    fn a_person_out_of_cards_leaves_the_models_to_play_on() {
        let book = book();
        // The person holds one card and loses it: the bots play the rest.
        let models = vec![STEADY, STEADY, Model::NOVICE];
        let setup = Setup::new(&book, models, Faces::Five, Timing::default());
        let game = Multi::from_piles(vec![spades(&[4]), spades(&[6, 2]), spades(&[8, 3])]);
        let mut l = Live::new(setup, Box::new(game), Rng::new(1), Rules::default(), 30_000);
        l.deal();
        l.pass(0, 1, 10).unwrap();
        let done = l.tick(u32::MAX);
        let Some(Event::Over(over)) = done.last() else {
            panic!("{done:?}")
        };
        assert!(over.played_out);
        assert_eq!(over.held[0], 0);
        assert!(matches!(over.ending, Ending::Rules(_) | Ending::Turns));
    }
}
