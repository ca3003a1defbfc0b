//! Benchmarks of the solver core: one query as a player makes it.
//! Run with `cargo bench --bench solve`.

use divan::black_box;
use prime_solve::{Faces, Functions, Hand, Rules, Solver};

fn main() {
    divan::main();
}

/// Every house rule on: powers, juxtaposition, tri + fact + sqrt, any prime.
fn every_rule() -> Rules {
    Rules {
        powers: true,
        juxtapose: true,
        functions: Functions::ALL,
        max_prime: None,
        ..Rules::default()
    }
}

/// `query 5 6 8` under every rule: all values, all primes, all witnesses.
#[divan::bench]
fn three_cards_every_rule() -> usize {
    let solver = Solver::new(every_rule()).unwrap();
    let solution = solver
        .solve(black_box(Hand::from_values(&[5, 6, 8])))
        .unwrap();
    solution
        .primes()
        .into_iter()
        .map(|p| solution.witness(p).unwrap().render(false).len())
        .sum()
}

/// `query 4 6 8` under the rules as written.
#[divan::bench]
fn three_cards_base_rules() -> usize {
    let solver = Solver::new(Rules::default()).unwrap();
    solver
        .solve(black_box(Hand::from_values(&[4, 6, 8])))
        .unwrap()
        .primes()
        .len()
}

const SIX: [u8; 6] = [3, 5, 7, 9, 11, 13];

/// A six-card hand under base rules (J Q K = 11 12 13), every value listed.
#[divan::bench]
fn six_cards_base_rules_all_values() -> usize {
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        ..Rules::default()
    })
    .unwrap();
    solver
        .solve(black_box(Hand::from_values(&SIX)))
        .unwrap()
        .values()
        .unwrap()
        .len()
}

/// The same hand when only its primes are wanted (the targeted search).
#[divan::bench]
fn six_cards_base_rules_primes_only() -> usize {
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        ..Rules::default()
    })
    .unwrap();
    solver
        .solve_primes(black_box(Hand::from_values(&SIX)))
        .unwrap()
        .primes()
        .len()
}

/// A four-card hand under every rule when only its primes are wanted: the
/// prime scan, which keeps a witness only for values that can become a
/// prime and counts the others in a flat set (engine/seen.rs).
#[divan::bench]
fn four_cards_every_rule_primes_only() -> usize {
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        ..every_rule()
    })
    .unwrap();
    solver
        .solve_primes(black_box(Hand::from_values(&[3, 5, 7, 9])))
        .unwrap()
        .primes()
        .len()
}

/// The same hand with every value listed (the full table), for comparison.
#[divan::bench]
fn four_cards_every_rule_all_values() -> usize {
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        ..every_rule()
    })
    .unwrap();
    solver
        .solve(black_box(Hand::from_values(&[3, 5, 7, 9])))
        .unwrap()
        .values()
        .unwrap()
        .len()
}

/// Every six-card hand `faces` deals.
fn six_card_hands(faces: Faces) -> Vec<Hand> {
    prime_solve::deck::deal(6, faces)
        .0
        .iter()
        .map(|d| d.hand)
        .collect()
}

/// Full value tables (`Solver::solve(..).values()`) of every six-card hand
/// dealt under `five` (4,965 hands of values 1-10), sub-hand tables shared:
/// the work a plain subset DP in C does (README, Performance).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn full_value_tables_six_cards() -> usize {
    let hands = six_card_hands(Faces::Five);
    let mut solver = Solver::new(Rules::default()).unwrap();
    solver.prepare(&hands).unwrap();
    hands
        .iter()
        .map(|&h| solver.solve(h).unwrap().values().unwrap().len())
        .sum()
}

/// The same values by the value-only path (`Solver::value_sets`): every
/// distinct sub-multiset's values once, no witnesses, as the C baseline
/// (`benches/c`) works them out.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn value_sets_six_cards() -> usize {
    let hands = six_card_hands(Faces::Five);
    let solver = Solver::new(Rules::default()).unwrap();
    let mut sets = solver.value_sets().unwrap();
    hands.iter().map(|&h| sets.values(h).unwrap().len()).sum()
}

/// The value-only path on the 18,486 six-card hands `rank` deals: the C
/// baseline's work (`benches/c/README.md`), counting each hand's primes up
/// to 97 as it does.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn value_sets_six_cards_rank() -> usize {
    let hands = six_card_hands(Faces::Rank);
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        ..Rules::default()
    })
    .unwrap();
    let mut sets = solver.value_sets().unwrap();
    hands
        .iter()
        .map(|&h| {
            let set = sets.values(h).unwrap();
            set.within(2, 97)
                .filter(|&v| prime_solve::prime::is_prime(v))
                .count()
        })
        .sum()
}

/// The value-only path on one six-card hand with 87 million values:
/// `query 3 5 7 9 11 13 --faces rank --functions tri --values` without the
/// primes' witnesses and the output. Most of its values lie beyond the
/// bitmap, in the flat table of large values (`engine/flat.rs`).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn value_sets_six_cards_triangles() -> usize {
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        functions: Functions::TRI,
        ..Rules::default()
    })
    .unwrap();
    let mut sets = solver.value_sets().unwrap();
    sets.values(black_box(Hand::from_values(&[3, 5, 7, 9, 11, 13])))
        .unwrap()
        .len()
}
