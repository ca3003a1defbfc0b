//! Many games in parallel, each with its own seeded generator so that the
//! results do not depend on the number of threads, and their statistics.

use rayon::prelude::*;

use thiserror::Error;

use std::sync::Arc;

use crate::engine::{Budget, Charge, SolveError};
use crate::game::calls::CallBook;
use crate::game::live::{Ends, Live};
use crate::game::play::{Duel, Endgame, Game, Multi, Record, Setup};
use crate::game::player::{Model, ModelError};
use crate::game::turn::Timing;
use crate::hand::MAX_CARDS;
use crate::ratio::Ratio;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::rules::RulesError;
use crate::text::{Bytes, apart, plural};

/// What to simulate.
#[derive(Clone, Debug, PartialEq)]
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
    /// Game `index` of the run, dealt, and the generator it goes on with.
    pub(crate) fn deal(&self, index: u64) -> (Box<dyn Game>, Rng) {
        let mut rng = Rng::for_game(self.seed, index);
        let game: Box<dyn Game> = if self.two_player {
            Box::new(Duel::deal(&mut rng))
        } else {
            Box::new(Multi::deal(self.players.len(), &mut rng).with_endgame(self.endgame))
        };
        (game, rng)
    }

    /// Game `index` of the run on the live game's driver, every seat a
    /// model's, stopped at the turn cap.
    pub(crate) fn live<'a>(&self, index: u64, setup: &Setup<'a>) -> Live<'a> {
        let (game, rng) = self.deal(index);
        let setup = Setup::new(
            setup.book,
            setup.players.clone(),
            self.rules.faces,
            self.timing,
        );
        Live::new(setup, game, rng, self.rules, u32::MAX)
            .with_people(&[])
            .without_witnesses()
            .with_ends(Ends {
                max_turns: self.max_turns,
                ..Ends::default()
            })
    }

    pub(crate) fn hand_sizes(&self) -> Vec<usize> {
        if self.two_player {
            vec![3]
        } else {
            (2..=self.players.len()).collect()
        }
    }
}

/// The median number of combinations a game lasts between `players`
/// (one model per seat; the two-player stockpile game for two) ended as
/// `ends` says, over `games` games from `seed`: what a table can expect of
/// the whole game or of a short one. `None` for no game.
pub fn median_turns(
    setup: &Setup<'_>,
    rules: Rules,
    endgame: Endgame,
    ends: Ends,
    games: u64,
    seed: u64,
) -> Option<u32> {
    let seats = setup.players.len();
    let mut turns: Vec<u32> = (0..games)
        .into_par_iter()
        .map(|index| {
            let mut rng = Rng::for_game(seed, index);
            let game: Box<dyn Game> = if seats == 2 {
                Box::new(Duel::deal(&mut rng))
            } else {
                Box::new(Multi::deal(seats, &mut rng).with_endgame(endgame))
            };
            let setup = Setup::new(setup.book, setup.players.clone(), rules.faces, setup.timing);
            Live::new(setup, game, rng, rules, u32::MAX)
                .with_people(&[])
                .without_witnesses()
                .with_ends(ends)
                .play_out()
                .turns
        })
        .collect();
    turns.sort_unstable();
    crate::stats::median(&turns)
}

/// Plays every game; `tick` is called after each (from any thread).
///
/// ```
/// use prime_solve::Budget;
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
/// let records = simulate(&sim, &Budget::unlimited(), &|| {})?;
/// assert_eq!(records.len(), 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SimError`] for a line-up the game cannot seat, or a call book that
/// does not fit the memory budget.
pub fn simulate(
    sim: &Simulation,
    budget: &Arc<Budget>,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Record>, SimError> {
    sim.validate()?;
    let _records = hold_records(sim.games, 1, budget)?;
    let book = CallBook::new(sim.rules, &sim.hand_sizes(), budget)?;
    let setup = Setup::new(&book, sim.players.clone(), sim.rules.faces, sim.timing);
    let records = (0..sim.games)
        .into_par_iter()
        .map(|index| {
            let record = sim.live(index, &setup).play_out();
            tick();
            record
        })
        .collect();
    Ok(records)
}

/// Bytes a game's record takes, and a margin the size of what a summary
/// later works out from it (its turns and rebuilds, sorted, and a
/// bootstrap's resample).
const RECORD_BYTES: u64 = size_of::<Record>() as u64 + 64;

/// Room for the records of `games` games, each played `runs` ways: charged
/// to the process's budget and tried on the allocator before any game is
/// played, so that `--games 10000000` under a small limit is a refusal,
/// not an abort. The charge is held while the games are played; the
/// summary that follows is not charged, which the margin stands for.
///
/// # Errors
/// [`SimError::Records`] when they would pass the limit or the machine.
pub(crate) fn hold_records(
    games: u64,
    runs: u64,
    budget: &Arc<Budget>,
) -> Result<Charge, SimError> {
    let bytes = games.saturating_mul(runs).saturating_mul(RECORD_BYTES);
    budget
        .room_for_output(bytes)
        .map_err(|e| SimError::Records {
            games,
            bytes,
            limit: budget.limit(),
            machine: matches!(e, SolveError::Refused { .. }),
        })
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

/// How many resamples [`bootstrap`] draws.
pub const BOOTSTRAP_RESAMPLES: usize = 1000;

/// The `pct`th percentile of sorted `xs` as [`Spread`] takes it
/// ([`crate::stats::percentile`]), of numbers known not to be empty.
fn percentile(sorted: &[u32], pct: usize) -> u32 {
    crate::stats::percentile(sorted, pct).unwrap_or(0)
}

/// 95% percentile-bootstrap intervals for the `pcts`th percentiles of `xs`
/// (as [`Spread`] takes them): the 2.5th and 97.5th percentiles of each
/// statistic over [`BOOTSTRAP_RESAMPLES`] resamples drawn with
/// replacement, from a generator seeded by `seed`, so the same run gives
/// the same intervals. `None` for no values.
///
/// # Panics
/// Never: every index drawn is below the number of values.
pub fn bootstrap(xs: &[u32], pcts: &[usize], seed: u64) -> Option<Vec<[u32; 2]>> {
    if xs.is_empty() {
        return None;
    }
    let mut rng = Rng::for_game(seed, u64::MAX);
    let n = xs.len();
    let mut sample = vec![0u32; n];
    let mut stats: Vec<Vec<u32>> = vec![Vec::with_capacity(BOOTSTRAP_RESAMPLES); pcts.len()];
    for _ in 0..BOOTSTRAP_RESAMPLES {
        for slot in &mut sample {
            *slot = xs[usize::try_from(rng.below(n as u64)).expect("below n")];
        }
        // Each percentile by selection, in linear time: the element a sort
        // would put at its rank.
        for (stat, &pct) in stats.iter_mut().zip(pcts) {
            let rank = (n - 1) * pct / 100;
            stat.push(*sample.select_nth_unstable(rank).1);
        }
    }
    Some(
        stats
            .into_iter()
            .map(|mut stat| {
                stat.sort_unstable();
                let at = |q: usize| stat[(BOOTSTRAP_RESAMPLES - 1) * q / 1000];
                [at(25), at(975)]
            })
            .collect(),
    )
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
        let at = |pct: usize| percentile(&xs, pct);
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
    /// 95% percentile-bootstrap intervals for the median and the 90th
    /// percentile of `turns`.
    pub turns_median_interval: Option<[u32; 2]>,
    pub turns_p90_interval: Option<[u32; 2]>,
    /// Turns of every game, an unfinished one counted at the cap (its true
    /// length is at least that): the median and percentiles that do not
    /// drop the longest games.
    pub all_turns: Option<Spread>,
    /// 95% bootstrap intervals for the median and the 90th percentile of
    /// `all_turns` (a bound at the cap reads "at least").
    pub all_turns_median_interval: Option<[u32; 2]>,
    pub all_turns_p90_interval: Option<[u32; 2]>,
    pub tie_rate: Ratio,
    pub no_call_rate: Ratio,
    pub no_prime_rate: Ratio,
    /// Turns played after the first player is out (games of three or
    /// more): the endgame.
    pub endgame_rate: Ratio,
    /// The game in its two phases (games of three or more): before the
    /// first player is out, and after.
    pub phases: Option<[Phase; 2]>,
    /// Wins per seat, in seat order.
    pub wins: Vec<usize>,
    /// Finished games without a winner (a first-out game tied on cards).
    pub draws: usize,
    /// Games stopped at the cap, won on cards ([`crate::game::leader`]),
    /// per seat; and those tied on the most cards with none of the tied
    /// having won the latest combination.
    pub capped_wins: Vec<usize>,
    pub capped_draws: usize,
    /// Stockpile rebuilds of finished two-player games.
    pub rebuilds: Option<Spread>,
}

/// One phase of the games of a run: its length in the games that reached
/// it, and how its turns went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// Turns of the phase in each game that reached it, an unfinished game
    /// counted as far as it went (a bound at the cap).
    pub turns: Option<Spread>,
    /// Shares of the phase's turns (over all games).
    pub tie_rate: Ratio,
    pub no_call_rate: Ratio,
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
        let intervals = bootstrap(
            &finished.iter().map(|r| r.turns).collect::<Vec<_>>(),
            &[50, 90],
            sim.seed,
        );
        let all_intervals = bootstrap(
            &records.iter().map(|r| r.turns).collect::<Vec<_>>(),
            &[50, 90],
            sim.seed,
        );
        let mut wins = vec![0; sim.players.len()];
        for r in &finished {
            if let Some(w) = r.winner {
                wins[w] += 1;
            }
        }
        let mut capped_wins = vec![0; sim.players.len()];
        let mut capped_draws = 0;
        for r in records.iter().filter(|r| !r.finished) {
            match r.winner {
                Some(w) => capped_wins[w] += 1,
                None => capped_draws += 1,
            }
        }
        Summary {
            games: records.len(),
            finished: finished.len(),
            turns: Spread::of(finished.iter().map(|r| r.turns).collect()),
            all_turns: Spread::of(records.iter().map(|r| r.turns).collect()),
            all_turns_median_interval: all_intervals.as_ref().map(|v| v[0]),
            all_turns_p90_interval: all_intervals.as_ref().map(|v| v[1]),
            turns_median_interval: intervals.as_ref().map(|v| v[0]),
            turns_p90_interval: intervals.as_ref().map(|v| v[1]),
            phases: (!sim.two_player).then(|| phases(records)),
            tie_rate: rate(|r| r.ties),
            no_call_rate: rate(|r| r.no_calls),
            no_prime_rate: rate(|r| r.no_prime),
            endgame_rate: rate(|r| r.endgame_turns),
            draws: finished.iter().filter(|r| r.winner.is_none()).count(),
            capped_wins,
            capped_draws,
            wins,
            rebuilds: if sim.two_player {
                Spread::of(finished.iter().map(|r| r.rebuilds).collect())
            } else {
                None
            },
        }
    }
}

/// The opening (every player in) and the endgame (after the first is out).
///
/// Every game plays the opening; a game reached the endgame when it
/// finished (a game of three or more ends only once a player is out) or
/// played endgame turns before the cap.
fn phases(records: &[Record]) -> [Phase; 2] {
    let share = |k: u128, n: u128| Ratio::new(k, n.max(1));
    let sum = |f: &dyn Fn(&Record) -> u32| records.iter().map(|r| u128::from(f(r))).sum::<u128>();
    let (turns, end) = (sum(&|r| r.turns), sum(&|r| r.endgame_turns));
    [
        Phase {
            turns: Spread::of(records.iter().map(|r| r.turns - r.endgame_turns).collect()),
            tie_rate: share(sum(&|r| r.ties - r.endgame_ties), turns - end),
            no_call_rate: share(sum(&|r| r.no_calls - r.endgame_no_calls), turns - end),
        },
        Phase {
            turns: Spread::of(
                records
                    .iter()
                    .filter(|r| r.finished || r.endgame_turns > 0)
                    .map(|r| r.endgame_turns)
                    .collect(),
            ),
            tie_rate: share(sum(&|r| r.endgame_ties), end),
            no_call_rate: share(sum(&|r| r.endgame_no_calls), end),
        },
    ]
}

#[derive(Debug, Error, Clone, PartialEq)]
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
    #[error("paired games need the same kind of game and the same number of players")]
    Unpaired,
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Ways(#[from] crate::ways::WaysError),
    /// The games' records would not fit: `bytes` against the budget's
    /// `limit`, or (`machine`) the machine refused them below it.
    #[error(
        "not enough memory for the records of {} games: about {}, {}",
        crate::text::grouped(u128::from(*games)),
        if *machine { Bytes(*bytes).to_string() } else { apart(*bytes, *limit).0 },
        if *machine {
            "more than the machine gives".to_string()
        } else {
            format!("more than the limit of {}", apart(*bytes, *limit).1)
        }
    )]
    Records {
        games: u64,
        bytes: u64,
        limit: u64,
        machine: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play::play;

    /// The driver plays the simulator's games: every record the same as
    /// the plain loop of `Game::step` gives, under every endgame, two
    /// players and more, games that finish and games stopped at the cap
    /// (their winner the leader, by the one rule, in both).
    #[test]
    fn the_driver_plays_the_plain_loops_games() {
        let budget = Budget::unlimited();
        let lineups = [
            (vec![Model::EXPERT, Model::CLUB, Model::NOVICE], false),
            (vec![Model::CLUB; 4], false),
            (vec![Model::EXPERT, Model::NOVICE], true),
        ];
        let mut capped = 0;
        for (players, two_player) in lineups {
            for endgame in Endgame::ALL {
                if two_player && endgame != Endgame::Stockpile {
                    continue;
                }
                let sim = Simulation {
                    rules: Rules::default(),
                    players: players.clone(),
                    two_player,
                    games: 12,
                    seed: 7,
                    max_turns: 150,
                    timing: Timing::default(),
                    endgame,
                };
                let book = CallBook::new(sim.rules, &sim.hand_sizes(), &budget).unwrap();
                let setup = Setup::new(&book, sim.players.clone(), sim.rules.faces, sim.timing);
                for index in 0..sim.games {
                    let driven = sim.live(index, &setup).play_out();
                    let (mut game, mut rng) = sim.deal(index);
                    let plain = play(game.as_mut(), &setup, sim.max_turns, &mut rng);
                    assert_eq!(driven, plain, "{endgame:?} {players:?} game {index}");
                    if !plain.finished {
                        capped += 1;
                        assert_eq!(
                            plain.winner,
                            crate::game::play::leader(&game.held(), game.last_winner())
                        );
                    }
                }
            }
        }
        assert!(
            capped > 10,
            "games stopped at the cap are checked too: {capped}"
        );
    }

    #[test]
    fn bootstrap_intervals_hold_percentiles_too() {
        let xs: Vec<u32> = (0..3000).map(|i| (i * 7919) % 1000).collect();
        let v = bootstrap(&xs, &[50, 90], 5).unwrap();
        let s = Spread::of(xs.clone()).unwrap();
        assert!(v[0][0] <= s.median && s.median <= v[0][1], "{v:?}");
        assert!(v[1][0] <= s.p90 && s.p90 <= v[1][1], "{v:?}");
        assert!(
            v[1][0] > v[0][1],
            "the 90th percentile lies above the median"
        );
    }

    #[test]
    fn bootstrap_intervals_hold_the_median_and_shrink_with_more_data() {
        let bootstrap_median = |xs: &[u32], seed| bootstrap(xs, &[50], seed).map(|v| v[0]);
        assert_eq!(bootstrap_median(&[], 1), None);
        assert_eq!(bootstrap_median(&[7; 50], 1), Some([7, 7]));
        let few: Vec<u32> = (0..40).map(|i| (i * 37) % 100).collect();
        let many: Vec<u32> = (0..4000).map(|i| (i * 37) % 100).collect();
        let [lo, hi] = bootstrap_median(&few, 3).unwrap();
        let [lo2, hi2] = bootstrap_median(&many, 3).unwrap();
        let median = |xs: &[u32]| Spread::of(xs.to_vec()).unwrap().median;
        assert!(lo <= median(&few) && median(&few) <= hi, "{lo} {hi}");
        assert!(lo2 <= median(&many) && median(&many) <= hi2);
        assert!(hi2 - lo2 < hi - lo, "more data, a narrower interval");
        assert_eq!(bootstrap_median(&few, 3), bootstrap_median(&few, 3));
    }

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
