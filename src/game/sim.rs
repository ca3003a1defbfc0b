//! Many games in parallel, each with its own seeded generator so that the
//! results do not depend on the number of threads, and their statistics.

use rayon::prelude::*;

use thiserror::Error;

use crate::engine::SolveError;
use crate::game::calls::CallBook;
use crate::game::play::{Duel, Endgame, Game, Multi, Record, Setup, play};
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
    /// What a game of three or more does once a player is out.
    pub endgame: Endgame,
}

impl Simulation {
    /// Checks the number of players for the kind of game.
    ///
    /// # Errors
    /// [`SimError`] for a line-up the game cannot seat or nothing to play.
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
///
/// ```
/// use prime_solve::game::{Model, Simulation, Timing, simulate};
/// use prime_solve::Rules;
///
/// let sim = Simulation {
///     rules: Rules::default(),
///     players: vec![Model::EXPERT, Model::CLUB, Model::NOVICE],
///     two_player: false,
///     games: 20,
///     seed: 1,
///     max_turns: 5000,
///     timing: Timing::default(),
///     endgame: Default::default(),
/// };
/// let records = simulate(&sim, &|| {})?;
/// assert_eq!(records.len(), 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SimError`] for a line-up the game cannot seat, or a call book that
/// does not fit the memory budget.
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
                Box::new(Multi::deal(sim.players.len(), &mut rng).with_endgame(sim.endgame))
            };
            let record = play(game.as_mut(), &setup, sim.max_turns, &mut rng);
            tick();
            record
        })
        .collect();
    Ok(records)
}

/// The 95% Wilson score interval of a share of `k` in `n`, as
/// `[low, high]` (`[0, 1]` when n = 0).
pub fn wilson(k: usize, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (k, n, z) = (k as f64, n as f64, 1.959_963_984_540_054_f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
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
    /// Mean, median, percentiles and maximum of `xs`; `None` for none.
    ///
    /// # Panics
    /// Never: `xs` is not empty past the check.
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
    /// Turns of every game, an unfinished one counted at the cap (its true
    /// length is at least that): the median and percentiles that do not
    /// drop the longest games.
    pub all_turns: Option<Spread>,
    pub tie_rate: Ratio,
    pub no_call_rate: Ratio,
    pub no_prime_rate: Ratio,
    /// Turns played with two players left (games of three or more).
    pub endgame_rate: Ratio,
    /// Wins per seat, in seat order.
    pub wins: Vec<usize>,
    /// Finished games without a winner (a first-out game tied on cards).
    pub draws: usize,
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
            all_turns: Spread::of(records.iter().map(|r| r.turns).collect()),
            tie_rate: rate(|r| r.ties),
            no_call_rate: rate(|r| r.no_calls),
            no_prime_rate: rate(|r| r.no_prime),
            endgame_rate: rate(|r| r.endgame_turns),
            draws: finished.iter().filter(|r| r.winner.is_none()).count(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // Wilson (1927) / Newcombe (1998), method 3: 81/263 gives
        // 0.2553-0.3662; 0/10 gives 0-0.2775; 10/10 gives 0.7225-1.
        let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
        let [lo, hi] = wilson(81, 263);
        assert!(close(lo, 0.2553) && close(hi, 0.3662), "{lo} {hi}");
        let [lo, hi] = wilson(0, 10);
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let [lo, hi] = wilson(10, 10);
        assert!(close(lo, 0.7225) && close(hi, 1.0), "{lo} {hi}");
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
    }
}
