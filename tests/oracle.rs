//! The engine against the naive oracle: the same primes for every hand of
//! three values 1-13 under every rule combination, the same values for a
//! sample of four-card hands, and every witness upheld by the referee.

mod common;

use std::collections::BTreeSet;

use rayon::prelude::*;

use common::oracle::{Oracle, is_prime_naive};
use prime_solve::{Faces, Functions, Hand, Rules, Solver, check};

fn three_card_hands() -> Vec<[u8; 3]> {
    let mut hands = Vec::new();
    for a in 1..=13 {
        for b in a..=13 {
            for c in b..=13 {
                hands.push([a, b, c]);
            }
        }
    }
    hands
}

/// Every combination of powers × juxtapose × functions {none, tri, all},
/// with the default ceiling (high primes are checked from the same trees).
fn rule_sets() -> Vec<Rules> {
    let mut out = Vec::new();
    for powers in [false, true] {
        for juxtapose in [false, true] {
            for functions in [Functions::NONE, Functions::TRI, Functions::ALL] {
                out.push(Rules {
                    faces: Faces::Rank,
                    powers,
                    juxtapose,
                    functions,
                    ..Rules::default()
                });
            }
        }
    }
    out
}

#[test]
fn primes_of_every_three_card_hand_match_the_oracle() {
    for rules in rule_sets() {
        let high = Rules {
            max_prime: None,
            ..rules
        };
        let oracle = Oracle::new(&rules);
        let (solver, high_solver) = (Solver::new(rules).unwrap(), Solver::new(high).unwrap());
        let hands = three_card_hands();
        assert_eq!(hands.len(), 455);
        hands.par_iter().for_each(|cards| {
            let hand = Hand::from_values(cards);
            let reached = oracle.values(cards);
            let expected: BTreeSet<i128> = reached
                .iter()
                .copied()
                .filter(|&v| is_prime_naive_fast(v))
                .collect();
            for (solver, rules, ceiling) in
                [(&solver, &rules, Some(97)), (&high_solver, &high, None)]
            {
                let solution = solver.solve(hand).unwrap();
                let want: Vec<i128> = expected
                    .iter()
                    .copied()
                    .filter(|&p| ceiling.is_none_or(|c| p <= c))
                    .collect();
                assert_eq!(solution.primes(), want, "{} under {}", hand, rules.name());
                for p in want {
                    let witness = solution.witness(p).unwrap().render(cards[0] % 2 == 0);
                    assert_eq!(
                        check(hand, &witness, rules),
                        Ok(p),
                        "{hand} under {}: witness {witness}",
                        rules.name()
                    );
                }
            }
        });
    }
}

/// Trial division where it is cheap; above 10^12, primal's deterministic
/// Miller-Rabin (the engine answers small values from its own table).
fn is_prime_naive_fast(v: i128) -> bool {
    if v < 1_000_000_000_000 {
        is_prime_naive(v)
    } else {
        primal::is_prime(v as u64)
    }
}

#[test]
fn every_value_of_sampled_four_card_hands_matches_the_oracle() {
    // A fixed, spread-out sample of four-card hands.
    let mut hands = Vec::new();
    let mut x: u32 = 12345;
    while hands.len() < 24 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let mut cards = [
            (x >> 8) % 13 + 1,
            (x >> 12) % 13 + 1,
            (x >> 16) % 13 + 1,
            (x >> 20) % 13 + 1,
        ]
        .map(|v| v as u8);
        cards.sort();
        hands.push(cards);
    }
    hands.push([5, 5, 5, 5]);
    hands.push([1, 1, 1, 1]);
    let variants = [
        (
            Rules {
                faces: Faces::Rank,
                ..Rules::default()
            },
            hands.len(),
        ),
        (
            Rules {
                faces: Faces::Rank,
                powers: true,
                ..Rules::default()
            },
            8,
        ),
        (
            Rules {
                faces: Faces::Rank,
                juxtapose: true,
                ..Rules::default()
            },
            8,
        ),
        (
            Rules {
                faces: Faces::Rank,
                functions: Functions::TRI,
                ..Rules::default()
            },
            4,
        ),
    ];
    for (rules, n) in variants {
        let oracle = Oracle::new(&rules);
        let solver = Solver::new(rules).unwrap();
        hands[..n].par_iter().for_each(|cards| {
            let want: Vec<i128> = oracle.values(cards).into_iter().collect();
            let solution = solver.solve(Hand::from_values(cards)).unwrap();
            assert_eq!(
                solution.values().unwrap(),
                &want[..],
                "{cards:?} under {}",
                rules.name()
            );
        });
    }
}
