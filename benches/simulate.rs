//! Benchmark of the simulator. Run with `cargo bench --bench simulate`.

use prime_solve::Rules;
use prime_solve::game::{Model, Simulation, Timing, simulate};

fn main() {
    divan::main();
}

/// 10,000 three-player games between experts under the rules as written
/// (solving the call book included).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn ten_thousand_three_player_games() -> usize {
    let sim = Simulation {
        rules: Rules::default(),
        players: vec![Model::EXPERT; 3],
        two_player: false,
        games: 10_000,
        seed: 1,
        max_turns: 5_000,
        timing: Timing::default(),
        endgame: Default::default(),
    };
    simulate(&sim, &prime_solve::Budget::unlimited(), &|| {})
        .unwrap()
        .len()
}

/// One paired run of `advise`: 2,000 games between three experts under
/// powers, every combination also resolved under the rules as written
/// (both call books included).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn paired_two_thousand_games_with_powers() -> u64 {
    let sim = |powers| Simulation {
        rules: Rules {
            powers,
            ..Rules::default()
        },
        players: vec![Model::EXPERT; 3],
        two_player: false,
        games: 2_000,
        seed: 1,
        max_turns: 5_000,
        timing: Timing::default(),
        endgame: Default::default(),
    };
    prime_solve::game::paired(
        &sim(true),
        &sim(false),
        &prime_solve::Budget::unlimited(),
        &|| {},
    )
    .unwrap()
    .changed
}
