//! Many games in parallel, each with its own seeded generator so that the
//! results do not depend on the number of threads, and their statistics.

use rayon::prelude::*;

use thiserror::Error;

use crate::engine::SolveError;
use crate::game::calls::CallBook;
use crate::game::play::{Duel, Game, Multi, Record, Setup, play};
use crate::game::player::Model;
use crate::game::rng::Rng;
use crate::game::turn::Timing;
use crate::hand::MAX_CARDS;
use crate::ratio::Ratio;
use crate::rules::Rules;
use crate::rules::RulesError;
use crate::words::plural;

/// What to simulate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    pub rules: Rules,
    /// One model per seat.
    pub players: Vec<Model>,
    /// The two-player game with a stockpile (exactly two players).
    pub two_player: bool,
    pub games: u64,
    pub seed: u64,
    /// Combinations after which a game is stopped as unfinished.
    pub max_turns: u32,
    pub timing: Timing,
}

impl Simulation {
    /// Checks the number of players for the kind of game.
    pub fn validate(&self) -> Result<(), SimError> {
        let n = self.players.len();
        let ok = if self.two_player {
            n == 2
        } else {
            (3..=MAX_CARDS).contains(&n)
        };
        if !ok {
            return Err(SimError::Players {
                got: n,
                two_player: self.two_player,
            });
        }
        if self.games == 0 || self.max_turns == 0 {
            return Err(SimError::Empty);
        }
        self.rules.validate()?;
        Ok(())
    }

    /// The hand sizes a game can show: two to the number of players (a
    /// player with no cards is out), or three with the stockpile.
    fn hand_sizes(&self) -> Vec<usize> {
        if self.two_player {
            vec![3]
        } else {
            (2..=self.players.len()).collect()
        }
    }
}

/// Plays every game; `tick` is called after each (from any thread).
pub fn simulate(sim: &Simulation, tick: &(dyn Fn() + Sync)) -> Result<Vec<Record>, SimError> {
    sim.validate()?;
    let book = CallBook::new(sim.rules, &sim.hand_sizes())?;
    let setup = Setup::new(&book, sim.players.clone(), sim.rules.faces, sim.timing);
    let records = (0..sim.games)
        .into_par_iter()
        .map(|index| {
            let mut rng = Rng::for_game(sim.seed, index);
            let mut game: Box<dyn Game> = if sim.two_player {
                Box::new(Duel::deal(&mut rng))
            } else {
                Box::new(Multi::deal(sim.players.len(), &mut rng))
            };
            let record = play(game.as_mut(), &setup, sim.max_turns, &mut rng);
            tick();
            record
        })
        .collect();
    Ok(records)
}

/// A distribution of whole numbers: mean, median and percentiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spread {
    pub count: usize,
    pub mean: Ratio,
    pub median: u32,
    pub p10: u32,
    pub p90: u32,
    pub max: u32,
}

impl Spread {
    pub fn of(mut xs: Vec<u32>) -> Option<Spread> {
        if xs.is_empty() {
            return None;
        }
        xs.sort_unstable();
        let at = |pct: usize| xs[(xs.len() - 1) * pct / 100];
        let sum: u128 = xs.iter().map(|&x| u128::from(x)).sum();
        Some(Spread {
            count: xs.len(),
            mean: Ratio::new(sum, xs.len() as u128),
            median: at(50),
            p10: at(10),
            p90: at(90),
            max: *xs.last().expect("non-empty"),
        })
    }
}

/// What a run of games shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub finished: usize,
    /// Turns of the finished games.
    pub turns: Option<Spread>,
    pub tie_rate: Ratio,
    pub no_call_rate: Ratio,
    pub no_prime_rate: Ratio,
    /// Turns played with two players left (games of three or more).
    pub endgame_rate: Ratio,
    /// Wins per seat, in seat order.
    pub wins: Vec<usize>,
    /// Stockpile rebuilds of finished two-player games.
    pub rebuilds: Option<Spread>,
}

impl Summary {
    pub fn of(sim: &Simulation, records: &[Record]) -> Summary {
        let finished: Vec<&Record> = records.iter().filter(|r| r.finished).collect();
        let total_turns: u128 = records
            .iter()
            .map(|r| u128::from(r.turns))
            .sum::<u128>()
            .max(1);
        let rate = |f: fn(&Record) -> u32| {
            Ratio::new(records.iter().map(|r| u128::from(f(r))).sum(), total_turns)
        };
        let mut wins = vec![0; sim.players.len()];
        for r in &finished {
            if let Some(w) = r.winner {
                wins[w] += 1;
            }
        }
        Summary {
            games: records.len(),
            finished: finished.len(),
            turns: Spread::of(finished.iter().map(|r| r.turns).collect()),
            tie_rate: rate(|r| r.ties),
            no_call_rate: rate(|r| r.no_calls),
            no_prime_rate: rate(|r| r.no_prime),
            endgame_rate: rate(|r| r.endgame_turns),
            wins,
            rebuilds: if sim.two_player {
                Spread::of(finished.iter().map(|r| r.rebuilds).collect())
            } else {
                None
            },
        }
    }
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SimError {
    #[error(
        "{} given: the {} game needs {}",
        plural(*got, "player", "players"),
        if *two_player { "two-player" } else { "multi-player" },
        if *two_player { "exactly 2" } else { "3 to 6" }
    )]
    Players { got: usize, two_player: bool },
    #[error("nothing to play: the games and the turns a game may last must be at least 1")]
    Empty,
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Solve(#[from] SolveError),
}
