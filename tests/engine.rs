//! The engine's own guarantees: the known results of docs/rules.md §9, the targeted
//! prime search agreeing with the full one, and shared tables changing nothing.

use prime_solve::{Brackets, Style};

mod common;

use common::oracle::{Oracle, is_prime_naive};
use prime_solve::{Card, Faces, Functions, Hand, Rules, Solver, check};

fn hand(tokens: &[&str], faces: Faces) -> Hand {
    let cards: Vec<Card> = tokens.iter().map(|t| Card::parse(t).unwrap()).collect();
    Hand::from_cards(&cards, faces).unwrap()
}

fn primes(tokens: &[&str], rules: Rules) -> Vec<(i128, String)> {
    let solver = Solver::new(rules).unwrap();
    let solution = solver.solve(hand(tokens, rules.faces)).unwrap();
    solution
        .primes()
        .into_iter()
        .map(|p| (p, solution.witness(p).unwrap().render(Style::UNICODE)))
        .collect()
}

#[test]
fn four_six_eight_makes_three_as_the_rules_say() {
    let found = primes(&["4", "6", "8"], Rules::default());
    assert!(found.contains(&(3, "(6 × 4) ÷ 8".to_string())), "{found:?}");
}

#[test]
fn seven_times_nine_over_two_is_rejected() {
    let verdict = check(Hand::from_values(&[2, 7, 9]), "7*9/2", &Rules::default());
    assert!(verdict.unwrap_err().to_string().contains("31½"));
}

#[test]
fn three_face_cards_make_exactly_two_and_five() {
    let found = primes(&["J", "Q", "K"], Rules::default());
    let values: Vec<i128> = found.iter().map(|(p, _)| *p).collect();
    assert_eq!(values, vec![2, 5]);
}

#[test]
fn two_three_six_with_powers_makes_sixty_seven() {
    let rules = Rules {
        powers: true,
        ..Rules::default()
    };
    let found = primes(&["2", "3", "6"], rules);
    assert!(found.contains(&(67, "2^6 + 3".to_string())), "{found:?}");
}

#[test]
fn five_six_eight_with_triangles_makes_ninety_seven() {
    let rules = Rules {
        functions: Functions::TRI,
        ..Rules::default()
    };
    let found = primes(&["5", "6", "8"], rules);
    let (p, witness) = found.last().unwrap();
    assert_eq!(*p, 97);
    assert_eq!(
        check(Hand::from_values(&[5, 6, 8]), witness, &rules),
        Ok(97)
    );
    assert!(
        witness.contains("T(8 + 5)") || witness.contains("T(5 + 8)"),
        "{witness}"
    );
}

/// docs/rules.md §5.2: a factorial of a root is printed `(√(8 + 8))! + 7`,
/// and the referee rules the old spelling `√(8 + 8)! + 7` the same way.
#[test]
fn a_factorial_of_a_root_reads_one_way() {
    let rules = Rules {
        functions: Functions::ALL,
        function_depth: 2,
        ..Rules::default()
    };
    let eights = Hand::from_values(&[7, 8, 8]);
    for claim in [
        "(√(8 + 8))! + 7",
        "√(8 + 8)! + 7",
        "sqrt(8 + 8)! + 7",
        "fact(sqrt(8 + 8)) + 7",
    ] {
        assert_eq!(check(eights, claim, &rules), Ok(31), "{claim}");
    }
    let found = primes(&["7", "8", "8"], rules);
    assert!(
        found.contains(&(31, "(√(8 + 8))! + 7".to_string())),
        "{found:?}"
    );
    let nines = Hand::from_values(&[1, 1, 9]);
    assert_eq!(
        check(nines, "(√9)! + 1 + 1", &rules)
            .unwrap_err()
            .to_string(),
        check(nines, "√9! + 1 + 1", &rules).unwrap_err().to_string()
    );
}

/// docs/rules.md §5.2 by example: chains of + and − and of × and ÷ shown
/// added (multiplied) terms first, larger first, then the subtracted
/// (divided by) ones, larger first; ties in their order; terms under the
/// right of − or ÷ change side; each term shown the same way; a chain
/// that would pass the bound keeps its order.
#[test]
fn witnesses_are_shown_in_the_order_people_say_them() {
    use prime_solve::{BinOp, Expr};
    fn read(text: &str) -> Expr {
        // A small reader for fully bracketed trees: `(a op b)` or a card.
        fn go(t: &[char], i: &mut usize) -> Expr {
            if t[*i] == '(' {
                *i += 1;
                let a = go(t, i);
                let op = match t[*i] {
                    '+' => BinOp::Add,
                    '-' => BinOp::Sub,
                    '*' => BinOp::Mul,
                    '/' => BinOp::Div,
                    '^' => BinOp::Pow,
                    c => panic!("operator {c}"),
                };
                *i += 1;
                let b = go(t, i);
                assert_eq!(t[*i], ')');
                *i += 1;
                Expr::Binary(op, Box::new(a), Box::new(b))
            } else {
                let start = *i;
                while *i < t.len() && t[*i].is_ascii_digit() {
                    *i += 1;
                }
                let v: String = t[start..*i].iter().collect();
                Expr::Card(v.parse().unwrap())
            }
        }
        let t: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        go(&t, &mut 0)
    }
    let unbounded = u64::MAX;
    let cases = [
        ("((3 - 2) + 6)", unbounded, "6 + 3 - 2"),
        ("((2 + 1) + 2)", unbounded, "2 + 2 + 1"),
        ("(9 - (8 - 5))", unbounded, "9 + 5 - 8"),
        ("(8 - (4 + 1))", unbounded, "8 - 4 - 1"),
        ("((1 - 7) + 8)", unbounded, "8 + 1 - 7"),
        ("((6 * 4) / 8)", unbounded, "(6 * 4) / 8"),
        ("((6 / 2) * 4)", unbounded, "(6 * 4) / 2"),
        ("(8 / (4 / 2))", unbounded, "(8 * 2) / 4"),
        (
            "(((4 * (1 + (1 + 1))) * 8) + 1)",
            unbounded,
            "8 * 4 * (1 + 1 + 1) + 1",
        ),
        (
            "((2 * (3 - 1)) + (5 - 9))",
            unbounded,
            "5 + 2 * (3 - 1) - 9",
        ),
        ("(2 ^ (1 + 3))", unbounded, "2^(3 + 1)"),
        // 6 + 3 would pass 8: the chain keeps its order.
        ("((3 - 2) + 6)", 8, "3 - 2 + 6"),
        // 90 + 50 would pass 100; the inner chain is ordered all the same.
        ("((90 - 80) + (1 + 50))", 100, "90 - 80 + (50 + 1)"),
    ];
    for (tree, bound, want) in cases {
        let e = read(tree);
        let shown = e.shown(bound);
        assert_eq!(shown.render(Style::ASCII), want, "{tree} under {bound}");
        assert_eq!(shown.eval(bound), e.eval(bound), "{tree}");
    }
}

/// Every witness, as chosen and as shown, in every style, is upheld by the
/// referee with its prime, functions nested two deep included.
#[test]
fn witnesses_in_every_style_are_upheld() {
    let rules = Rules {
        powers: true,
        functions: Functions::ALL,
        function_depth: 2,
        max_prime: None,
        ..Rules::default()
    };
    let solver = Solver::new(rules).unwrap();
    let styles = [false, true].into_iter().flat_map(|ascii| {
        [Brackets::Minimal, Brackets::Full].map(|brackets| Style { ascii, brackets })
    });
    let styles: Vec<Style> = styles.collect();
    for values in [[7, 8, 8], [1, 1, 9], [4, 4, 9], [2, 8, 8], [3, 5, 10]] {
        let hand = Hand::from_values(&values);
        let solution = solver.solve(hand).unwrap();
        for p in solution.primes() {
            let witness = solution.witness(p).unwrap();
            for &style in &styles {
                for text in [
                    witness.render(style),
                    witness.shown(rules.max_value).render(style),
                ] {
                    assert_eq!(check(hand, &text, &rules), Ok(p), "{text} for {hand}");
                }
            }
        }
    }
}

fn all_hands(faces: Faces, k: usize) -> Vec<Hand> {
    fn go(from: u8, max: u8, left: usize, acc: &mut Vec<u8>, out: &mut Vec<Hand>) {
        if left == 0 {
            out.push(Hand::from_values(acc));
            return;
        }
        for v in from..=max {
            acc.push(v);
            go(v, max, left - 1, acc, out);
            acc.pop();
        }
    }
    let mut out = Vec::new();
    go(1, faces.max_value(), k, &mut Vec::new(), &mut out);
    out
}

#[test]
fn no_hand_fails_under_the_default_rules_but_some_do_under_rank() {
    let solver = Solver::new(Rules::default()).unwrap();
    let failing = all_hands(Faces::Five, 3)
        .into_iter()
        .filter(|&h| solver.solve(h).unwrap().primes().is_empty())
        .count();
    assert_eq!(failing, 0);
    let solver = Solver::new(Rules {
        faces: Faces::Rank,
        ..Rules::default()
    })
    .unwrap();
    let failing: Vec<String> = all_hands(Faces::Rank, 3)
        .into_iter()
        .filter(|&h| solver.solve(h).unwrap().primes().is_empty())
        .map(|h| h.to_string())
        .collect();
    assert!(!failing.is_empty());
    // Each failing hand really has no prime: the naive oracle's values (its
    // own trees and arithmetic) are the engine's, and trial division finds
    // no prime up to 97 among them.
    let oracle = Oracle::new(solver.rules());
    for text in &failing {
        let values: Vec<u8> = text.split(' ').map(|v| v.parse().unwrap()).collect();
        let reached: Vec<i128> = oracle.values(&values).into_iter().collect();
        let solution = solver.solve(Hand::from_values(&values)).unwrap();
        assert_eq!(solution.values().unwrap(), &reached[..], "{text}");
        let primes: Vec<i128> = reached
            .into_iter()
            .filter(|&v| v <= 97 && is_prime_naive(v))
            .collect();
        assert_eq!(primes, [], "{text}");
    }
}

/// `solve_primes` (the targeted search, or the top-level scan that keeps
/// only primes) against `solve` (the full table): same primes, witnesses
/// and pruned counts; the same primes and witnesses from a solver that
/// does not count (`without_pruned_counts`: the restricted search, or the
/// scan that sends no value through its set), with no count unless it
/// built the full table; and from one that only notes whether anything
/// was cut off (`without_pruned_totals`), the same answer to whether the
/// bound may hide a prime.
fn assert_prime_search_agrees(rules: Rules, hands: &[Hand]) {
    let solver = Solver::new(rules).unwrap();
    let uncounted = Solver::new(rules).unwrap().without_pruned_counts();
    let flagged = Solver::new(rules).unwrap().without_pruned_totals();
    for &h in hands {
        let (full, fast) = (solver.solve(h).unwrap(), solver.solve_primes(h).unwrap());
        let bare = uncounted.solve_primes(h).unwrap();
        let flag = flagged.solve_primes(h).unwrap();
        assert_eq!(full.primes(), fast.primes(), "{h} under {}", rules.name());
        assert_eq!(full.primes(), bare.primes(), "{h} under {}", rules.name());
        assert_eq!(full.primes(), flag.primes(), "{h} under {}", rules.name());
        for p in full.primes() {
            let want = full.witness(p);
            assert_eq!(want, fast.witness(p), "{h}: {p} under {}", rules.name());
            assert_eq!(want, bare.witness(p), "{h}: {p} under {}", rules.name());
            assert_eq!(want, flag.witness(p), "{h}: {p} under {}", rules.name());
        }
        assert_eq!(full.pruned(), fast.pruned(), "{h} under {}", rules.name());
        assert!(
            bare.pruned().is_none() || bare.pruned() == full.pruned(),
            "{h} under {}",
            rules.name()
        );
        assert!(
            flag.pruned().is_none() || flag.pruned() == full.pruned(),
            "{h} under {}",
            rules.name()
        );
        assert_eq!(
            full.bound_may_hide_primes(),
            flag.bound_may_hide_primes(),
            "{h} under {}",
            rules.name()
        );
    }
}

#[test]
fn targeted_prime_search_agrees_with_the_full_search() {
    let mut hands = all_hands(Faces::Rank, 3);
    hands.extend(all_hands(Faces::Rank, 4).into_iter().step_by(7));
    hands.extend(all_hands(Faces::Rank, 5).into_iter().step_by(97));
    hands.extend(all_hands(Faces::Rank, 6).into_iter().step_by(997));
    for rules in [
        Rules {
            faces: Faces::Rank,
            ..Rules::default()
        },
        Rules {
            faces: Faces::Rank,
            juxtapose: true,
            ..Rules::default()
        },
        Rules {
            faces: Faces::Rank,
            max_prime: Some(500),
            ..Rules::default()
        },
    ] {
        assert_prime_search_agrees(rules, &hands);
    }
}

/// The prime scan against the full table: every three-card hand and
/// every 61st four-card one (a third of them in a debug build), under
/// every house rule, at small bounds and large; the quick run takes every
/// [`common::QUICK`]th of those hands.
#[test]
fn prime_scan_agrees_with_the_full_search_under_every_house_rule() {
    prime_scan_agrees(common::QUICK);
}

fn prime_scan_agrees(spread: usize) {
    let mut hands = all_hands(Faces::Rank, 3);
    hands.extend(all_hands(Faces::Rank, 4).into_iter().step_by(61));
    let hands: Vec<Hand> = common::all_or_every(&hands, 3)
        .into_iter()
        .step_by(spread)
        .collect();
    for functions in [Functions::NONE, Functions::TRI, Functions::ALL] {
        // Small bounds cut products, powers and functions off at the top,
        // where the scan counts them by ranges of values.
        for (powers, juxtapose, max_prime, max_value) in [
            (true, false, Some(97), u64::MAX),
            (false, true, None, u64::MAX),
            (true, true, None, u64::MAX),
            (false, false, None, u64::MAX),
            (true, true, None, 5000),
            (true, false, None, 300),
        ] {
            let rules = Rules {
                faces: Faces::Rank,
                powers,
                juxtapose,
                functions,
                max_prime,
                max_value,
                ..Rules::default()
            };
            assert_prime_search_agrees(rules, &hands);
        }
    }
    // Deeper nesting falls back to the full table, and still agrees.
    let deep = Rules {
        functions: Functions::ALL,
        function_depth: 2,
        ..Rules::default()
    };
    assert_prime_search_agrees(deep, &all_hands(Faces::Five, 3));
}

#[test]
fn prepared_tables_give_the_same_answers() {
    let rules = Rules {
        powers: true,
        functions: Functions::TRI,
        ..Rules::default()
    };
    let hands = all_hands(Faces::Five, 3);
    let fresh = Solver::new(rules).unwrap();
    let mut prepared = Solver::new(rules).unwrap();
    prepared.prepare(&hands).unwrap();
    for &h in &hands {
        let (a, b) = (fresh.solve(h).unwrap(), prepared.solve(h).unwrap());
        assert_eq!(a.values(), b.values());
        assert_eq!(a.pruned(), b.pruned());
        for p in a.primes() {
            assert_eq!(a.witness(p), b.witness(p));
        }
    }
}

#[test]
fn values_beyond_the_bound_are_pruned_and_counted() {
    let rules = Rules {
        powers: true,
        max_value: 1000,
        max_prime: None,
        ..Rules::default()
    };
    let solver = Solver::new(rules).unwrap();
    let solution = solver.solve(Hand::from_values(&[9, 9, 9])).unwrap();
    assert!(solution.pruned() > Some(0));
    assert!(solution.values().unwrap().iter().all(|v| v.abs() <= 1000));
    let unbounded = Solver::new(Rules {
        max_value: u64::MAX,
        ..rules
    })
    .unwrap();
    assert!(
        unbounded
            .solve(Hand::from_values(&[9, 9, 9]))
            .unwrap()
            .values()
            .unwrap()
            .contains(&(9i128.pow(9) * 9))
    );
}

/// `Solution::bound_may_hide_primes` against the search itself: where it
/// says nothing cut off at a bound could have become a prime, the same
/// search under the widest bound (2^64 − 1) finds exactly the same primes.
/// Every three-card hand and every 23rd four-card one, under every
/// combination of powers, juxtaposition and functions with any prime, at
/// bounds of 50, 2,000 and 10^6.
#[test]
fn the_bound_hides_a_prime_only_where_it_says_it_may() {
    let hands = sample_of_three_and_four(1, 23);
    // (said no and held, with something cut off at the top; said yes; differed)
    let (mut cleared, mut warned, mut differed) = (0, 0, 0);
    for wide in every_combination()
        .into_iter()
        .filter(|r| r.max_prime.is_none())
    {
        let wide_solver = Solver::new(wide).unwrap();
        let every: Vec<Vec<i128>> = hands
            .iter()
            .map(|&h| wide_solver.solve_primes(h).unwrap().primes())
            .collect();
        for max_value in [50, 2_000, 1_000_000] {
            let solver = Solver::new(Rules { max_value, ..wide }).unwrap();
            for (&h, every) in hands.iter().zip(&every) {
                let s = solver.solve_primes(h).unwrap();
                let may = s.bound_may_hide_primes().expect("counted");
                if s.primes() != *every {
                    differed += 1;
                    assert!(
                        may,
                        "{h} under {wide:?} at {max_value}: a prime hidden, not said"
                    );
                }
                if may {
                    warned += 1;
                } else if s.pruned() > Some(0) {
                    cleared += 1;
                }
            }
        }
    }
    // Each way out is taken, and the rule clears hands where something was
    // cut off (not only those where nothing was).
    assert!(
        cleared > 100 && warned > 100 && differed > 100,
        "{cleared} {warned} {differed}"
    );
    // √ brings back what the bound cut off: 11 = √(11^2) is the only way
    // to 11 from 2 and J (11), and 11^2 passes a bound of 100, while no sum
    // of the two cards does.
    let sqrt = Rules {
        faces: Faces::Rank,
        powers: true,
        functions: Functions {
            sqrt: true,
            ..Functions::NONE
        },
        max_prime: None,
        ..Rules::default()
    };
    let h = Hand::from_values(&[2, 11]);
    let wide = Solver::new(sqrt).unwrap();
    let wide = wide.solve_primes(h).unwrap();
    let cut = Solver::new(Rules {
        max_value: 100,
        ..sqrt
    })
    .unwrap();
    let cut = cut.solve_primes(h).unwrap();
    assert!(wide.primes().contains(&11) && !cut.primes().contains(&11));
    assert_eq!(wide.bound_may_hide_primes(), Some(false));
    assert_eq!(cut.bound_may_hide_primes(), Some(true));
}

/// A search that does not count what goes beyond the bound cannot say
/// whether the bound hid a prime.
#[test]
fn an_uncounted_search_does_not_say_whether_the_bound_hid_a_prime() {
    let rules = Rules {
        powers: true,
        max_prime: None,
        ..Rules::default()
    };
    let h = Hand::from_values(&[2, 3, 6, 7, 9]);
    let counted = Solver::new(rules).unwrap();
    assert_eq!(
        counted.solve_primes(h).unwrap().bound_may_hide_primes(),
        Some(true)
    );
    let uncounted = Solver::new(rules).unwrap().without_pruned_counts();
    assert_eq!(
        uncounted.solve_primes(h).unwrap().bound_may_hide_primes(),
        None
    );
}

#[test]
fn a_search_too_large_is_refused_not_run_out_of_memory() {
    let rules = Rules {
        powers: true,
        functions: Functions::ALL,
        max_prime: None,
        ..Rules::default()
    };
    let solver = Solver::new(rules).unwrap().with_value_limit(5_000);
    let err = solver
        .solve(Hand::from_values(&[2, 3, 5, 7]))
        .err()
        .expect("too large");
    assert!(err.to_string().contains("too large"), "{err}");
    // The same limit lets a smaller hand through.
    assert!(solver.solve(Hand::from_values(&[2, 3])).is_ok());
}

/// A sweep too large to keep every sub-hand's table is solved in chunks
/// (`Solver::plan_sweep`), each keeping only its own tables: the answers
/// are those of one solver that keeps everything.
#[test]
fn a_sweep_in_chunks_gives_the_same_answers() {
    use prime_solve::Budget;
    let rules = Rules {
        powers: true,
        functions: Functions::TRI,
        max_prime: None,
        ..Rules::default()
    };
    let hands: Vec<Hand> = all_hands(Faces::Five, 4).into_iter().step_by(5).collect();
    let whole = Solver::new(rules).unwrap();
    let mut chunked = Solver::new(rules)
        .unwrap()
        .with_budget(Budget::new(7 << 20));
    let chunk = chunked.plan_sweep(&hands).unwrap();
    assert!(
        chunk > 0 && chunk < hands.len() / 4,
        "{chunk} of {}",
        hands.len()
    );
    for part in hands.chunks(chunk) {
        chunked.prepare(part).unwrap();
        for &h in part {
            let (a, b) = (
                whole.solve_primes(h).unwrap(),
                chunked.solve_primes(h).unwrap(),
            );
            assert_eq!(a.primes(), b.primes(), "{h}");
            assert_eq!(a.pruned(), b.pruned(), "{h}");
            for p in a.primes() {
                assert_eq!(a.witness(p), b.witness(p), "{h}: {p}");
            }
        }
        chunked.release(3);
    }
    // Only the smaller tables stay, within the budget.
    assert!(chunked.budget().used() < 7 << 20);
}

/// Every combination of the house rules the engine sees (faces only pick
/// the hands): powers × juxtaposition × functions × ceiling.
fn every_combination() -> Vec<Rules> {
    let mut out = Vec::new();
    for powers in [false, true] {
        for juxtapose in [false, true] {
            for functions in [Functions::NONE, Functions::TRI, Functions::ALL] {
                for max_prime in [Some(97), None] {
                    out.push(Rules {
                        faces: Faces::Rank,
                        powers,
                        juxtapose,
                        functions,
                        max_prime,
                        ..Rules::default()
                    });
                }
            }
        }
    }
    out
}

/// The prime searches at the top (the targeted search, the scan with its
/// set of distinct values) against the full table on a sample of the
/// four-card hands under every rule combination (a third of the sample in
/// a debug build); the quick run takes every [`common::QUICK`]th.
#[test]
fn prime_searches_agree_on_four_cards_under_every_combination() {
    prime_searches_agree_on_four_cards(common::QUICK);
}

fn prime_searches_agree_on_four_cards(spread: usize) {
    let hands: Vec<Hand> = all_hands(Faces::Rank, 4)
        .into_iter()
        .step_by(61 * spread)
        .collect();
    let hands = common::all_or_every(&hands, 3);
    for rules in every_combination() {
        assert_prime_search_agrees(rules, &hands);
    }
}

/// The same on every four-card hand (1,820 under `rank`): minutes, so run
/// on demand with `cargo test --release --test engine -- --ignored`.
#[test]
#[ignore = "minutes: every four-card hand under every rule combination"]
fn prime_searches_agree_on_every_four_card_hand() {
    let hands = all_hands(Faces::Rank, 4);
    for rules in every_combination() {
        assert_prime_search_agrees(rules, &hands);
    }
}

/// A census (`Solver::census`) against `solve_primes`, under `rules` and
/// each of `ceilings`: the same primes and pruned count, the same highest
/// prime within each ceiling and the same quickest, each with the same
/// witness and cost. With and without pruned counts (the restricted
/// search from five cards on), half the hands prepared.
fn assert_census_agrees(rules: Rules, ceilings: &[u64], hands: &[Hand]) {
    for counted in [true, false] {
        let plain = Solver::new(rules).unwrap();
        let mut solver = if counted {
            plain
        } else {
            plain.without_pruned_counts()
        };
        let (prepared, fresh) = hands.split_at(hands.len() / 2);
        solver.prepare(prepared).unwrap();
        let name = rules.name();
        for &h in prepared.iter().chain(fresh) {
            let all = solver.solve_primes(h).unwrap();
            let census = solver.census(h, ceilings).unwrap();
            let primes = all.primes();
            assert_eq!(census.primes(), primes, "{h} under {name}");
            assert_eq!(census.pruned(), all.pruned(), "{h} under {name}");
            for &c in ceilings {
                let within: Vec<i128> = primes
                    .iter()
                    .copied()
                    .filter(|&p| p <= i128::from(c))
                    .collect();
                let quick = all.quickest(&within);
                assert_eq!(census.quickest(&within), quick, "{h} within {c}, {name}");
                for p in within.last().copied().into_iter().chain(quick) {
                    assert_eq!(census.witness(p), all.witness(p), "{h}: {p}, {name}");
                    assert_eq!(census.cost(p), all.cost(p), "{h}: {p}, {name}");
                }
            }
        }
    }
}

#[test]
fn a_census_agrees_with_every_witness() {
    let step = |k: usize, n: usize| -> Vec<Hand> {
        let every = if cfg!(debug_assertions) { n * 5 } else { n };
        all_hands(Faces::Rank, k)
            .into_iter()
            .step_by(every)
            .collect()
    };
    let mut hands = step(3, 1);
    hands.extend(step(4, 3));
    hands.extend(step(5, 31));
    hands.extend(step(6, 211));
    let rank = Rules {
        faces: Faces::Rank,
        ..Rules::default()
    };
    for (rules, ceilings) in [
        (rank, vec![97]),
        (rank, vec![13, 50, 97]),
        // Ceilings below the rules' own: every prime up to the rules'.
        (rank, vec![13]),
        (
            Rules {
                juxtapose: true,
                ..rank
            },
            vec![97, 31],
        ),
        (
            Rules {
                max_prime: Some(1000),
                ..rank
            },
            vec![1000, 97],
        ),
    ] {
        assert_census_agrees(rules, &ceilings, &hands);
    }
    // Where the targeted search does not apply, a census is the search
    // for every prime.
    let hands = step(4, 37);
    for rules in [
        Rules {
            powers: true,
            ..rank
        },
        Rules {
            functions: Functions::TRI,
            ..rank
        },
    ] {
        assert_census_agrees(rules, &[13, 97], &hands);
    }
}

/// The restricted search (`without_pruned_counts`: the top and the
/// sub-hands one card short searched for the few values that can become a
/// prime) against the full tables: the same primes, witnesses and costs,
/// for every hand of `hands` under every combination of the house rules
/// that the restricted search takes (a ceiling; functions nested once).
fn assert_restricted_search_agrees(hands: &[Hand], max_prime: u64) {
    assert_restricted_search_agrees_under(
        hands,
        max_prime,
        &[Functions::NONE, Functions::TRI, Functions::ALL],
    );
}

/// The four combinations of powers and juxtaposition under `functions`,
/// with `rank` faces and the ceiling `max_prime`.
fn with_and_without_powers_and_joins(functions: Functions, max_prime: u64) -> Vec<Rules> {
    let mut all = Vec::new();
    for powers in [false, true] {
        for juxtapose in [false, true] {
            all.push(Rules {
                faces: Faces::Rank,
                powers,
                juxtapose,
                functions,
                max_prime: Some(max_prime),
                ..Rules::default()
            });
        }
    }
    all
}

fn assert_restricted_search_agrees_under(hands: &[Hand], max_prime: u64, all: &[Functions]) {
    for &functions in all {
        for rules in with_and_without_powers_and_joins(functions, max_prime) {
            assert_restricted_agrees_on(rules, hands);
        }
    }
}

/// The restricted search against the full one under `rules`: the same
/// primes, witnesses and costs, half the hands with prepared tables.
fn assert_restricted_agrees_on(rules: Rules, hands: &[Hand]) {
    let full = Solver::new(rules).unwrap();
    let mut fast = Solver::new(rules).unwrap().without_pruned_counts();
    let (prepared, fresh) = hands.split_at(hands.len() / 2);
    fast.prepare(prepared).unwrap();
    for &h in prepared.iter().chain(fresh) {
        let (a, b) = (full.solve(h).unwrap(), fast.solve_primes(h).unwrap());
        let name = rules.name();
        assert_eq!(a.primes(), b.primes(), "{h} under {name}");
        for p in a.primes() {
            assert_eq!(a.witness(p), b.witness(p), "{h}: {p} under {name}");
            assert_eq!(a.cost(p), b.cost(p), "{h}: {p} under {name}");
        }
        assert_eq!(b.values(), None);
    }
}

/// Every `three`th three-card hand and every `four`th four-card hand.
fn sample_of_three_and_four(three: usize, four: usize) -> Vec<Hand> {
    let mut hands: Vec<Hand> = all_hands(Faces::Rank, 3)
        .into_iter()
        .step_by(three)
        .collect();
    hands.extend(all_hands(Faces::Rank, 4).into_iter().step_by(four));
    hands
}

/// A sample of the four-card hands (the full tables of all of them take
/// minutes: the ignored test below); fewer in debug builds, which are
/// slow, and every [`common::QUICK`]th in the quick run.
#[test]
fn restricted_search_agrees_with_the_full_search() {
    restricted_search_agrees(common::QUICK);
}

fn restricted_search_agrees(spread: usize) {
    let (three, four) = if cfg!(debug_assertions) {
        (11, 301)
    } else {
        (1, 7)
    };
    assert_restricted_search_agrees(&sample_of_three_and_four(three, four * spread), 97);
}

/// Samples of five and six cards, under the combinations whose full
/// tables are quick enough for the suite (the restricted search is what
/// makes the others possible at all); the quick run takes every
/// [`common::QUICK`]th of the hands.
#[test]
fn restricted_search_agrees_with_the_full_search_on_five_and_six_cards() {
    restricted_search_agrees_on_five_and_six(common::QUICK);
}

fn restricted_search_agrees_on_five_and_six(spread: usize) {
    // Debug builds (CI's overflow pass) take one five-card hand.
    let (five, six) = if cfg!(debug_assertions) {
        (6001, 0)
    } else {
        (797 * spread, 4001 * spread)
    };
    let hands: Vec<Hand> = all_hands(Faces::Rank, 5)
        .into_iter()
        .step_by(five)
        .collect();
    assert_restricted_search_agrees_under(&hands, 97, &[Functions::NONE, Functions::TRI]);
    if six > 0 {
        let hands: Vec<Hand> = all_hands(Faces::Rank, 6).into_iter().step_by(six).collect();
        assert_restricted_search_agrees_under(&hands, 97, &[Functions::NONE]);
    }
}

/// From six cards on, the sub-hands two cards short keep only part of
/// their tables (`TwoShort`): against the search that keeps their full
/// tables (one restricted level, itself checked against the full search
/// above), the same primes, witnesses and costs on samples of six-card
/// hands under every combination, half of them prepared, powers included
/// (1 ^ o = 1 takes any partner). T ! √ takes about 20 s for its full
/// four-card tables; debug builds (CI's overflow pass) and the quick run
/// leave it out, and the quick run takes every [`common::QUICK`]th hand.
#[test]
fn two_restricted_levels_agree_with_one_on_six_cards() {
    two_restricted_levels_agree(common::QUICK);
}

fn two_restricted_levels_agree(spread: usize) {
    let all = all_hands(Faces::Rank, 6);
    let sample = |step: usize| -> Vec<Hand> { all.iter().copied().step_by(step).collect() };
    let mut sets = if cfg!(debug_assertions) {
        vec![
            (Functions::NONE, sample(6_001)),
            (Functions::TRI, sample(9_001)),
        ]
    } else {
        vec![
            (Functions::NONE, sample(2_999 * spread)),
            (Functions::TRI, sample(2_999 * spread)),
        ]
    };
    if !cfg!(debug_assertions) && spread == 1 {
        sets.push((Functions::ALL, sample(6_001)));
    }
    for (functions, hands) in sets {
        for rules in with_and_without_powers_and_joins(functions, 97) {
            let solver = || Solver::new(rules).unwrap().without_pruned_counts();
            let (mut one, mut two) = (solver().with_one_restricted_level(), solver());
            let (prepared, fresh) = hands.split_at(hands.len() / 2);
            one.prepare(prepared).unwrap();
            two.prepare(prepared).unwrap();
            // Without functions (quick): prepared with two levels, then
            // told to keep one, a solver drops what it prepared instead of
            // looking up indexes of cut tables in full ones.
            let switched = (functions == Functions::NONE).then(|| {
                let mut s = solver();
                s.prepare(prepared).unwrap();
                s.with_one_restricted_level()
            });
            let name = rules.name();
            for &h in prepared.iter().chain(fresh) {
                let (a, b) = (one.solve_primes(h).unwrap(), two.solve_primes(h).unwrap());
                let c = switched.as_ref().map(|s| s.solve_primes(h).unwrap());
                assert_eq!(a.primes(), b.primes(), "{h} under {name}");
                for p in a.primes() {
                    assert_eq!(a.witness(p), b.witness(p), "{h}: {p} under {name}");
                    assert_eq!(a.cost(p), b.cost(p), "{h}: {p} under {name}");
                    if let Some(c) = &c {
                        assert_eq!(a.witness(p), c.witness(p), "{h}: {p} switched, {name}");
                    }
                }
            }
        }
    }
}

/// Every four-card hand under every combination (about 3 minutes).
#[test]
#[ignore = "minutes: cargo test --release --test engine -- --ignored"]
fn restricted_search_agrees_with_the_full_search_on_every_four_card_hand() {
    let mut hands = all_hands(Faces::Rank, 3);
    hands.extend(all_hands(Faces::Rank, 4));
    assert_restricted_search_agrees(&hands, 97);
}

/// The restricted search under other ceilings and a value bound: the
/// ceiling sets what it looks for, the bound what a value may be.
#[test]
fn restricted_search_agrees_under_other_ceilings_and_bounds() {
    let (three, four) = if cfg!(debug_assertions) {
        (7, 601)
    } else {
        (1, 61)
    };
    let hands = sample_of_three_and_four(three, four);
    for (max_prime, max_value) in [(13, u64::MAX), (500, 1000), (1000, u64::MAX), (97, 200)] {
        for (powers, functions) in [(false, Functions::NONE), (true, Functions::ALL)] {
            let rules = Rules {
                faces: Faces::Rank,
                powers,
                juxtapose: true,
                functions,
                max_prime: Some(max_prime),
                max_value,
                ..Rules::default()
            };
            assert_restricted_agrees_on(rules, &hands);
        }
    }
}

/// Five cards under every combination, six without functions (whose full
/// tables take minutes and gigabytes a hand): about 2 minutes.
#[test]
#[ignore = "minutes: cargo test --release --test engine -- --ignored"]
fn restricted_search_agrees_on_five_and_six_cards_under_every_combination() {
    let hands: Vec<Hand> = all_hands(Faces::Rank, 5)
        .into_iter()
        .step_by(1009)
        .collect();
    assert_restricted_search_agrees(&hands, 97);
    let hands: Vec<Hand> = all_hands(Faces::Rank, 6)
        .into_iter()
        .step_by(1999)
        .collect();
    assert_restricted_search_agrees_under(&hands, 97, &[Functions::NONE]);
}

/// The value-only path against the full tables: the same values and the
/// same count of operations beyond the bound, under every combination of
/// powers, juxtaposition and functions, under small bounds (where values
/// are pruned, and where + − × ÷ leave the narrow arithmetic's range),
/// and with functions nested twice; each set of sets shared across its
/// hands, as a sweep shares them (a third of the hands in a debug build).
#[test]
fn value_sets_agree_with_the_full_tables() {
    let mut all: Vec<(Rules, Vec<Hand>)> = Vec::new();
    let sample = sample_of_three_and_four(5, 29);
    for rules in every_combination()
        .into_iter()
        .filter(|r| r.max_prime.is_some())
    {
        all.push((rules, sample.clone()));
    }
    let base = Rules {
        faces: Faces::Rank,
        ..Rules::default()
    };
    for max_value in [13, 200, 1000] {
        for powers in [false, true] {
            let rules = Rules {
                powers,
                max_value,
                functions: Functions::ALL,
                ..base
            };
            all.push((rules, sample_of_three_and_four(3, 41)));
        }
    }
    // Bounds at the edges the path switches on: the bitmap's range
    // (±2^23), 32-bit division, 64-bit arithmetic (2^31) and 64-bit
    // storage (2^63); without functions, so that + − × ÷ reach them.
    for max_value in [
        (1 << 23) - 1,
        1 << 23,
        (1 << 23) + 1,
        (1 << 31) - 1,
        (1 << 31) + 1,
        (1 << 63) - 1,
        (1 << 63) + 1,
    ] {
        for powers in [false, true] {
            let rules = Rules {
                powers,
                juxtapose: true,
                max_value,
                ..base
            };
            let mut hands = sample_of_three_and_four(7, 43);
            hands.extend(all_hands(Faces::Rank, 5).into_iter().step_by(331));
            all.push((rules, hands));
        }
    }
    let deeper = Rules {
        functions: Functions::ALL,
        function_depth: 2,
        ..base
    };
    all.push((
        deeper,
        all_hands(Faces::Rank, 3).into_iter().step_by(7).collect(),
    ));
    let mut five = all_hands(Faces::Rank, 5)
        .into_iter()
        .step_by(97)
        .collect::<Vec<_>>();
    five.extend(all_hands(Faces::Rank, 6).into_iter().step_by(1499));
    all.push((base, five));
    for (rules, hands) in all {
        let solver = Solver::new(rules).unwrap();
        let mut sets = solver.value_sets().unwrap();
        for &h in &common::all_or_every(&hands, 3) {
            let solution = solver.solve(h).unwrap();
            let full = solution.values().unwrap();
            let mine = sets.values(h).unwrap();
            assert_eq!(mine.values(), full, "{h} under {}", rules.name());
            // Read without a copy, and by range, the same.
            assert_eq!(mine.len(), full.len());
            assert!(mine.iter().eq(full.iter().copied()), "{h}");
            for (lo, hi) in [(2, 97), (-1000, 13), (98, 1 << 40), (5, 4)] {
                let range: Vec<_> = full
                    .iter()
                    .copied()
                    .filter(|v| (lo..=hi).contains(v))
                    .collect();
                assert_eq!(
                    mine.within(lo, hi).collect::<Vec<_>>(),
                    range,
                    "{h} {lo}..={hi}"
                );
            }
            assert_eq!(
                Some(mine.pruned()),
                solution.pruned(),
                "{h} under {}",
                rules.name()
            );
        }
    }
}

/// A budget too small for the value-only path's sets is a refusal.
#[test]
fn value_sets_past_the_budget_are_refused() {
    let rules = Rules {
        faces: Faces::Rank,
        powers: true,
        functions: Functions::ALL,
        ..Rules::default()
    };
    let solver = Solver::new(rules)
        .unwrap()
        .with_budget(prime_solve::Budget::new(4 << 20));
    let refused = solver.value_sets().and_then(|mut sets| {
        sets.values(Hand::from_values(&[3, 5, 7, 9, 11]))
            .map(|v| v.values().len())
    });
    assert!(
        matches!(refused, Err(prime_solve::SolveError::Memory { .. })),
        "{refused:?}"
    );
}

/// A request far too large for the value-only path is refused by its
/// projection, before the sets are worked out.
#[test]
fn value_sets_too_large_are_refused_by_the_projection() {
    let rules = Rules {
        faces: Faces::Rank,
        powers: true,
        juxtapose: true,
        functions: Functions::ALL,
        max_prime: None,
        ..Rules::default()
    };
    let solver = Solver::new(rules)
        .unwrap()
        .with_budget(prime_solve::Budget::new(1 << 30));
    let refused = solver.value_sets().and_then(|mut sets| {
        sets.values(Hand::from_values(&[3, 5, 7, 9, 11, 13]))
            .map(|v| v.values().len())
    });
    assert!(
        matches!(
            refused,
            Err(prime_solve::SolveError::Memory {
                estimated: true,
                ..
            })
        ),
        "{refused:?}"
    );
}

/// A refusal leaves nothing behind: the next hand's values are its own.
#[test]
fn value_sets_after_a_refusal_start_clean() {
    for functions in [Functions::NONE, Functions::ALL] {
        let rules = Rules {
            powers: true,
            juxtapose: true,
            functions,
            ..Rules::default()
        };
        let solver = Solver::new(rules).unwrap().with_value_limit(2000);
        let mut sets = solver.value_sets().unwrap();
        assert!(sets.values(Hand::from_values(&[2, 3, 7, 9, 10])).is_err());
        for hand in [&[5][..], &[4, 6]] {
            let hand = Hand::from_values(hand);
            let full = solver.solve(hand).unwrap();
            assert_eq!(
                sets.values(hand).unwrap().values(),
                full.values().unwrap(),
                "{hand}"
            );
        }
    }
}

/// A solver made `like` another, as a server makes one per request on a
/// rule set's kept set-up, answers every hand as a new one does: the same
/// primes, witnesses and counts, several hands in a row on one set-up, and
/// its own budget refuses what does not fit.
#[test]
fn a_solver_like_another_answers_as_a_new_one() {
    use prime_solve::{Budget, Want};
    let rich = Rules {
        faces: Faces::Rank,
        powers: true,
        juxtapose: true,
        functions: Functions::TRI,
        ..Rules::default()
    };
    for rules in [Rules::default(), rich] {
        let set_up = Solver::new(rules).unwrap();
        for k in [3, 4] {
            for h in all_hands(rules.faces, k).into_iter().step_by(23) {
                let fresh = Solver::new(rules).unwrap();
                let want = fresh.query(h, Want::Primes).unwrap();
                let like = set_up.like(Budget::unlimited());
                let got = like.query(h, Want::Primes).unwrap();
                assert_eq!(got.primes(), want.primes(), "{h}");
                assert_eq!(got.pruned(), want.pruned(), "{h}");
                assert_eq!(got.simplest_prime(), want.simplest_prime(), "{h}");
                for p in want.primes() {
                    assert_eq!(got.witness(p), want.witness(p), "{h} {p}");
                }
            }
        }
    }
    let tight = Solver::new(rich).unwrap().like(Budget::new(1 << 10));
    let six = Hand::from_values(&[3, 5, 7, 9, 11, 13]);
    assert!(tight.query(six, Want::Primes).is_err());
}

/// The sweeps above on every hand of their samples, where the quick run
/// takes every [`common::QUICK`]th (`./test.sh --full`, and CI).
mod full {
    #[test]
    fn prime_scan_agrees_with_the_full_search_under_every_house_rule() {
        super::prime_scan_agrees(1);
    }

    #[test]
    fn prime_searches_agree_on_four_cards_under_every_combination() {
        super::prime_searches_agree_on_four_cards(1);
    }

    #[test]
    fn restricted_search_agrees_with_the_full_search() {
        super::restricted_search_agrees(1);
    }

    #[test]
    fn restricted_search_agrees_with_the_full_search_on_five_and_six_cards() {
        super::restricted_search_agrees_on_five_and_six(1);
    }

    #[test]
    fn two_restricted_levels_agree_with_one_on_six_cards() {
        super::two_restricted_levels_agree(1);
    }
}
