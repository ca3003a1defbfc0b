//! Paired games: every combination of a game played under one simulation
//! is also resolved under another with the same random draws, so the share
//! of combinations whose outcome a house rule changes is measured on the
//! same deals, the same reaction times and the same finds.

use crate::engine::Budget;
use std::sync::Arc;

use rayon::prelude::*;

use crate::game::calls::CallBook;
use crate::game::play::{Record, Setup};
use crate::game::player::Draws;
use crate::game::sim::{SimError, Simulation};
use crate::game::turn::resolve;

/// Games played under one simulation, each combination also resolved
/// under another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedRun {
    /// The games as played (the same as [`crate::game::simulate`] gives).
    pub records: Vec<Record>,
    /// Combinations shown.
    pub turns: u64,
    /// Combinations whose outcome (who wins, or a tie, or nobody calling)
    /// differs under the other simulation.
    pub changed: u64,
}

/// Plays `played`'s games; resolves every combination also under `other`
/// (its rules and its players, seat for seat) with the same draws.
///
/// ```
/// use prime_solve::game::{Model, Simulation, Timing, paired};
/// use prime_solve::Rules;
///
/// let sim = Simulation {
///     rules: Rules::default(),
///     players: vec![Model::EXPERT; 3],
///     two_player: false,
///     games: 20,
///     seed: 1,
///     max_turns: 5000,
///     timing: Timing::default(),
///     endgame: Default::default(),
/// };
/// // Nothing flipped: nothing changes.
/// let run = paired(&sim, &sim, &prime_solve::Budget::unlimited(), &|| {})?;
/// assert_eq!(run.changed, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SimError`] for a line-up either game cannot seat, line-ups of
/// different sizes, or call books that do not fit the memory budget.
pub fn paired(
    played: &Simulation,
    other: &Simulation,
    budget: &Arc<Budget>,
    tick: &(dyn Fn() + Sync),
) -> Result<PairedRun, SimError> {
    played.validate()?;
    other.validate()?;
    if played.players.len() != other.players.len() || played.two_player != other.two_player {
        return Err(SimError::Unpaired);
    }
    let _records = super::sim::hold_records(played.games, 2, budget)?;
    let sizes = played.hand_sizes();
    let book = CallBook::new(played.rules, &sizes, budget)?;
    let other_book = CallBook::new(other.rules, &sizes, budget)?;
    let setup = Setup::new(
        &book,
        played.players.clone(),
        played.rules.faces,
        played.timing,
    );
    let other_setup = Setup::new(
        &other_book,
        other.players.clone(),
        other.rules.faces,
        other.timing,
    );
    let games: Vec<(Record, u64, u64)> = (0..played.games)
        .into_par_iter()
        .map(|index| {
            let (mut game, mut rng) = played.deal(index);
            let (mut turns, mut changed) = (0, 0);
            while game.record().turns < played.max_turns {
                let Some(shown) = game.show(&mut rng) else {
                    game.record_mut().finished = true;
                    break;
                };
                let draws: Vec<Draws> = shown.seats.iter().map(|_| Draws::draw(&mut rng)).collect();
                let outcome = resolve(
                    &setup.calls_with(&shown.cards, &shown.seats, &draws),
                    setup.timing,
                );
                let other_outcome = resolve(
                    &other_setup.calls_with(&shown.cards, &shown.seats, &draws),
                    other_setup.timing,
                );
                turns += 1;
                changed += u64::from(outcome != other_outcome);
                let impossible = setup.options(&shown.cards).is_empty();
                game.settle(&outcome, impossible, &mut rng);
            }
            game.call_off();
            tick();
            (game.record().clone(), turns, changed)
        })
        .collect();
    Ok(PairedRun {
        turns: games.iter().map(|g| g.1).sum(),
        changed: games.iter().map(|g| g.2).sum(),
        records: games.into_iter().map(|g| g.0).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Model;
    use crate::game::sim::simulate;
    use crate::game::turn::Timing;
    use crate::rules::Rules;

    fn sim(rules: Rules, players: Vec<Model>) -> Simulation {
        Simulation {
            rules,
            players,
            two_player: false,
            games: 60,
            seed: 9,
            max_turns: 3_000,
            timing: Timing::default(),
            endgame: Default::default(),
        }
    }

    #[test]
    fn flipping_nothing_changes_nothing_and_plays_the_simulators_games() {
        let plain = sim(Rules::default(), vec![Model::EXPERT; 3]);
        let run = paired(&plain, &plain, &crate::engine::Budget::unlimited(), &|| {}).unwrap();
        assert_eq!(run.changed, 0);
        assert!(run.turns > 1_000);
        assert_eq!(
            run.records,
            simulate(&plain, &crate::engine::Budget::unlimited(), &|| {}).unwrap()
        );
        let duel = Simulation {
            two_player: true,
            players: vec![Model::EXPERT, Model::CLUB],
            ..plain.clone()
        };
        let run = paired(&duel, &duel, &crate::engine::Budget::unlimited(), &|| {}).unwrap();
        assert_eq!(run.changed, 0);
        assert_eq!(
            run.records,
            simulate(&duel, &crate::engine::Budget::unlimited(), &|| {}).unwrap()
        );
    }

    #[test]
    fn a_house_rule_changes_turns_between_equal_experts() {
        let powers = Rules {
            powers: true,
            ..Rules::default()
        };
        let run = paired(
            &sim(powers, vec![Model::EXPERT; 3]),
            &sim(Rules::default(), vec![Model::EXPERT; 3]),
            &crate::engine::Budget::unlimited(),
            &|| {},
        )
        .unwrap();
        assert!(run.changed > 0, "{run:?}");
        assert!(run.changed < run.turns);
        // Played under powers: the same games as the simulator's.
        assert_eq!(
            run.records,
            simulate(
                &sim(powers, vec![Model::EXPERT; 3]),
                &crate::engine::Budget::unlimited(),
                &|| {}
            )
            .unwrap()
        );
        let short = sim(powers, vec![Model::EXPERT; 2]);
        assert_eq!(
            paired(
                &sim(powers, vec![Model::EXPERT; 3]),
                &short,
                &crate::engine::Budget::unlimited(),
                &|| {}
            ),
            Err(SimError::Players {
                got: 2,
                two_player: false
            })
        );
    }
}
