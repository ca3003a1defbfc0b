//! The engine against the naive oracle: the same primes for every hand of
//! three values 1-13 under every rule combination, the same values for a
//! sample of four-card hands, and every witness judged by the oracle: it
//! uses each card once, makes its value by the oracle's arithmetic, prints
//! as the oracle prints it, and is as simple as the simplest of all the
//! oracle's trees for that value, by the oracle's own cost function.
//! One known engine fault (a pair of parentheses too many under the
//! function rules, see `Faults::check`) is counted and pinned.

mod common;

use std::rc::Rc;
use std::sync::Mutex;

use rayon::prelude::*;

use common::oracle::{Cost, Oracle, Tree, is_prime_miller_rabin, is_prime_naive, is_prime_oracle};
use prime_solve::{
    BinOp, Expr, Faces, Func, Functions, Hand, Rules, Solution, Solver, Style, check,
};

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
    // Bounded values, where a chain shown in the order people say it may
    // pass the bound and keeps its order.
    for (powers, max_value) in [(false, 20), (true, 150)] {
        out.push(Rules {
            faces: Faces::Rank,
            powers,
            max_value,
            ..Rules::default()
        });
    }
    out
}

/// The engine's expression as one of the oracle's trees, node for node.
fn tree_of(e: &Expr) -> Tree {
    match e {
        Expr::Card(v) => Tree::Card(*v),
        Expr::Join(cards) => Tree::Join(cards.clone()),
        Expr::Binary(op, l, r) => {
            let op = match op {
                BinOp::Add => '+',
                BinOp::Sub => '-',
                BinOp::Mul => '*',
                BinOp::Div => '/',
                BinOp::Pow => '^',
                BinOp::Root => 'r',
            };
            Tree::Bin(op, Rc::new(tree_of(l)), Rc::new(tree_of(r)))
        }
        Expr::Unary(f, a) => {
            let f = match f {
                Func::Tri => "tri",
                Func::Sqrt => "sqrt",
                Func::Fact => "fact",
            };
            Tree::Fun(f, Rc::new(tree_of(a)))
        }
    }
}

/// What the oracle holds against one witness.
enum Fault {
    /// One pair of parentheses more than the simplest tree for the value,
    /// all else equal, under a rule set with functions: the engine's known
    /// fault (see `Faults::check`).
    ExtraParens(String),
    /// Anything else.
    Wrong(String),
}

/// The oracle's verdict on the engine's witness of `v`: it must use each
/// of `cards` once, make `v` by the oracle's arithmetic within the bound,
/// print (in both notations) as the oracle prints it, and cost, by the
/// oracle's cost function, exactly the least cost of any tree the oracle
/// builds for `v` (`least`, with the oracle's first such tree). The
/// engine's own account of the cost must agree.
fn judge(
    oracle: &Oracle,
    cards: &[u8],
    solution: &Solution,
    v: i128,
    least: &(Cost, Rc<Tree>),
    rules: &Rules,
) -> Result<(), Fault> {
    let Some(witness) = solution.witness(v) else {
        return Err(Fault::Wrong(format!("{cards:?}: no witness of {v}")));
    };
    let text = witness.render(Style::UNICODE);
    let wrong = |why: String| {
        let at = format!("{cards:?} under {}: {v} = {text}", rules.name());
        Err(Fault::Wrong(format!("{at}: {why}")))
    };
    let tree = tree_of(&witness);
    let mut want = cards.to_vec();
    want.sort_unstable();
    if tree.cards() != want {
        return wrong("not each card once".into());
    }
    let Some((value, cost)) = tree.measure(oracle.bound()) else {
        return wrong("undefined for the oracle".into());
    };
    if value != v {
        return wrong(format!("the oracle makes it {value}"));
    }
    let (unicode, ascii) = (tree.print(false), tree.print(true));
    if unicode != text || ascii != witness.render(Style::ASCII) {
        return wrong(format!("the oracle prints it {unicode}, {ascii}"));
    }
    // As it is shown: the oracle's own order, a tree that makes `v` within
    // the bound, the same cards.
    let said = tree.said(oracle.bound());
    let shown = witness.shown(rules.max_value);
    let (said_unicode, said_ascii) = (said.print(false), said.print(true));
    if said_unicode != shown.render(Style::UNICODE) || said_ascii != shown.render(Style::ASCII) {
        return wrong(format!("the oracle shows it {said_unicode}, {said_ascii}"));
    }
    if said.measure(oracle.bound()).map(|(x, _)| x) != Some(v) || said.cards() != want {
        return wrong(format!("shown as {said_unicode}, which does not make it"));
    }
    if ascii.matches('(').count() as u32 != cost.parens + tree.calls() {
        return wrong(format!("parentheses miscounted in {cost:?}"));
    }
    let theirs = solution.cost(v).unwrap();
    let theirs = Cost {
        ops: theirs.ops.into(),
        weight: theirs.weight.into(),
        negatives: theirs.negatives.into(),
        parens: theirs.parens.into(),
    };
    if theirs != cost {
        return wrong(format!(
            "the engine says it costs {theirs:?}, the oracle {cost:?}"
        ));
    }
    let (best, simplest) = least;
    if cost != *best {
        let why = format!(
            "costs {cost:?}, but {} costs {best:?}",
            simplest.print(false)
        );
        let one_pair_more = Cost {
            parens: best.parens + 1,
            ..*best
        };
        return if cost == one_pair_more && !rules.functions.is_empty() {
            let at = format!("{cards:?} under {}: {v} = {text}", rules.name());
            Err(Fault::ExtraParens(format!("{at}: {why}")))
        } else {
            wrong(why)
        };
    }
    Ok(())
}

/// How many distinct witnesses carry a pair of parentheses too many (see
/// `Faults::check`) in the bounded three-card sweep, the whole one, and the
/// four-card sample. There were 375, 2,497 and 11 while the engine kept,
/// between equally simple ways to a value, the first rather than the one
/// of the lowest bracket class (`Top::bracket_class`); none since.
const KNOWN_CI: usize = 0;
const KNOWN_ALL: usize = 0;
const KNOWN_FOUR: usize = 0;

/// The faults found by one test, gathered across threads.
#[derive(Default)]
struct Faults {
    extra_parens: Mutex<Vec<String>>,
    wrong: Mutex<Vec<String>>,
}

impl Faults {
    fn add(&self, verdict: Result<(), Fault>) {
        match verdict {
            Ok(()) => {}
            Err(Fault::ExtraParens(f)) => self.extra_parens.lock().unwrap().push(f),
            Err(Fault::Wrong(f)) => self.wrong.lock().unwrap().push(f),
        }
    }

    /// Fails on any fault but the known one, listing them; and unless the
    /// known one occurs exactly `known` times.
    ///
    /// The known fault: the engine keeps one witness per value of each
    /// sub-hand and, between equally simple ones, prefers the one without
    /// a function on top; but `T(10) × 1` and `T(10 × 1)` are equally
    /// simple and only the first needs brackets under ÷, so the engine
    /// says `(T(10) × 1) ÷ 11` where `T(10 × 1) ÷ 11` has a pair of
    /// parentheses fewer. When the engine is fixed, set `known` to 0.
    /// `ORACLE_FAULTS=file` writes every fault to `file`.
    fn check(self, known: usize) {
        let mut wrong = self.wrong.into_inner().unwrap();
        let mut extra = self.extra_parens.into_inner().unwrap();
        wrong.sort();
        extra.sort();
        extra.dedup();
        if let Ok(path) = std::env::var("ORACLE_FAULTS") {
            std::fs::write(path, [&wrong[..], &extra[..]].concat().join("\n")).unwrap();
        }
        let shown: Vec<&String> = wrong.iter().take(40).collect();
        assert!(
            wrong.is_empty(),
            "{} wrong witnesses, among them:\n{shown:#?}",
            wrong.len()
        );
        let shown: Vec<&String> = extra.iter().take(10).collect();
        assert_eq!(
            extra.len(),
            known,
            "witnesses with a pair of parentheses too many, among them:\n{shown:#?}"
        );
    }
}

/// Every hand of three values 1-13 under every rule combination: the
/// engine's values and primes (from the full table and from the targeted
/// search, with and without the ceiling) are the oracle's, and the oracle
/// judges the witness of every prime, and of every value where
/// `every_value(rules, hand index)`. The referee upholds every prime's
/// witness. The known fault must occur `known` times (distinct witnesses).
fn three_card_sweep(every_value: impl Fn(&Rules, usize) -> bool + Sync, known: usize) {
    let faults = Faults::default();
    for rules in rule_sets() {
        let high = Rules {
            max_prime: None,
            ..rules
        };
        let oracle = Oracle::new(&rules);
        let (solver, high_solver) = (Solver::new(rules).unwrap(), Solver::new(high).unwrap());
        let hands = three_card_hands();
        assert_eq!(hands.len(), 455);
        hands.par_iter().enumerate().for_each(|(i, cards)| {
            let hand = Hand::from_values(cards);
            let least = oracle.simplest(cards);
            // Every value the hand reaches, and their witnesses.
            let solution = solver.solve(hand).unwrap();
            let values: Vec<i128> = least.keys().copied().collect();
            assert_eq!(
                solution.values().unwrap(),
                &values[..],
                "{hand} under {}",
                rules.name()
            );
            if every_value(&rules, i) {
                for (&v, least) in &least {
                    faults.add(judge(&oracle, cards, &solution, v, least, &rules));
                }
            }
            // The primes, from the full table and from the targeted search,
            // with and without the ceiling.
            for (solver, rules, ceiling) in
                [(&solver, &rules, Some(97)), (&high_solver, &high, None)]
            {
                let want: Vec<i128> = values
                    .iter()
                    .copied()
                    .filter(|&p| ceiling.is_none_or(|c| p <= c) && is_prime_oracle(p))
                    .collect();
                for solution in [
                    solver.solve(hand).unwrap(),
                    solver.solve_primes(hand).unwrap(),
                ] {
                    assert_eq!(solution.primes(), want, "{hand} under {}", rules.name());
                    for &p in &want {
                        faults.add(judge(&oracle, cards, &solution, p, &least[&p], rules));
                        let witness = solution.witness(p).unwrap().render(Style {
                            ascii: cards[0] % 2 == 0,
                            ..Style::default()
                        });
                        assert_eq!(
                            check(hand, &witness, rules),
                            Ok(p),
                            "{hand} under {}: witness {witness}",
                            rules.name()
                        );
                    }
                }
            }
        });
    }
    faults.check(known);
}

/// The sweep, bounded for CI (about 20 s on 2 cores): every value's
/// witness is judged except under factorials and square roots, where the
/// values are many and one hand in eight has every value judged (every
/// hand has its primes judged).
#[test]
fn every_three_card_hand_matches_the_oracle_with_the_simplest_witnesses() {
    three_card_sweep(
        |rules, i| !rules.functions.contains(Func::Fact) || i % 8 == 0,
        KNOWN_CI,
    );
}

/// The whole sweep, every value of every hand judged (about 45 s on 2
/// cores): `cargo test --release --test oracle -- --ignored`.
#[test]
#[ignore]
fn every_witness_of_every_three_card_hand_is_the_simplest() {
    three_card_sweep(|_, _| true, KNOWN_ALL);
}

#[test]
fn every_value_of_sampled_four_card_hands_matches_the_oracle_with_the_simplest_witness() {
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
    let faults = Faults::default();
    for (rules, n) in variants {
        let oracle = Oracle::new(&rules);
        let solver = Solver::new(rules).unwrap();
        hands[..n].par_iter().for_each(|cards| {
            let least = oracle.simplest(cards);
            let want: Vec<i128> = least.keys().copied().collect();
            let solution = solver.solve(Hand::from_values(cards)).unwrap();
            assert_eq!(
                solution.values().unwrap(),
                &want[..],
                "{cards:?} under {}",
                rules.name()
            );
            for (&v, least) in &least {
                faults.add(judge(&oracle, cards, &solution, v, least, &rules));
            }
        });
    }
    faults.check(KNOWN_FOUR);
}

/// Four and five cards under bounds, where a chain of four or more terms
/// may keep the order it is written in: every witness shown as the oracle says it,
/// and what it shows makes the prime within the bound from the same cards.
#[test]
fn bounded_witnesses_of_four_and_five_cards_are_shown_as_the_oracle_says_them() {
    let mut hands: Vec<Vec<u8>> = Vec::new();
    for a in 1..=13u8 {
        for b in a..=13 {
            for c in b..=13 {
                for d in c..=13 {
                    hands.push(vec![a, b, c, d]);
                    hands.extend((d..=13).step_by(5).map(|e| vec![a, b, c, d, e]));
                }
            }
        }
    }
    let hands: Vec<&Vec<u8>> = hands.iter().step_by(3).collect();
    let mut kept_in_place = 0usize;
    for (faces, max_value) in [(Faces::Rank, 13), (Faces::Five, 20), (Faces::Rank, 30)] {
        let rules = Rules {
            faces,
            max_value,
            ..Rules::default()
        };
        let solver = Solver::new(rules).unwrap();
        let bound = i128::from(max_value);
        kept_in_place += hands
            .par_iter()
            .map(|cards| {
                let solution = solver.solve_primes(Hand::from_values(cards)).unwrap();
                let mut kept_here = 0;
                for v in solution.primes() {
                    let witness = solution.witness(v).unwrap();
                    let shown = witness.shown(max_value);
                    let said = tree_of(&witness).said(bound);
                    let text = shown.render(Style::UNICODE);
                    assert_eq!(
                        said.print(false),
                        text,
                        "{cards:?}: {v} = {}",
                        witness.render(Style::UNICODE)
                    );
                    assert_eq!(said.measure(bound).map(|(x, _)| x), Some(v), "{text}");
                    let mut want = cards.to_vec();
                    want.sort_unstable();
                    assert_eq!(said.cards(), want, "{text}");
                    // A chain the bound kept in place: not as it is said
                    // without a bound.
                    let sorted = tree_of(&witness).said(i128::MAX).print(false);
                    kept_here += usize::from(sorted != text);
                }
                kept_here
            })
            .sum::<usize>();
    }
    // The bounds are small enough that some chains keep their order.
    assert!(
        kept_in_place > 0,
        "no chain passed a bound: the test does not reach it"
    );
}

/// The oracle's Miller-Rabin against trial division, and at the numbers
/// that fool weaker tests.
#[test]
fn the_oracles_miller_rabin_is_right() {
    for n in -5..200_000 {
        assert_eq!(is_prime_miller_rabin(n), is_prime_naive(n), "{n}");
    }
    for n in (1_000_000_000_000i128..).take(3_000) {
        assert_eq!(is_prime_miller_rabin(n), is_prime_naive(n), "{n}");
    }
    let primes = [
        1_000_000_000_039i128,
        (1 << 61) - 1,
        4_294_967_291,
        18_446_744_073_709_551_557, // 2^64 - 59, the largest below 2^64
    ];
    let composites = [
        561i128, // Carmichael numbers
        41_041,
        825_265,
        3_215_031_751,              // a strong pseudoprime to 2, 3, 5, 7
        3_825_123_056_546_413_051,  // ... to every base up to 23
        18_446_744_073_709_551_615, // 2^64 - 1
        4_294_967_297,              // 2^32 + 1 = 641 × 6700417
        1_000_000_000_039 * 3,
        (1 << 31) * ((1 << 31) - 1),
        4_294_967_291 * 4_294_967_279,
    ];
    for p in primes {
        assert!(is_prime_miller_rabin(p), "{p}");
    }
    for c in composites {
        assert!(!is_prime_miller_rabin(c), "{c}");
    }
}
