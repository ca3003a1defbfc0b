//! The count of ways against its definition: the forms classify the
//! expressions over n distinct unknowns into OEIS A140606's numbers.

use prime_solve::BinOp;
use prime_solve::ways::Form;
use std::collections::HashSet;

/// Every form of an expression with + − × ÷ over the unknowns at `mask`,
/// each used once, built from the forms of the parts.
fn formal(n: usize) -> usize {
    let full = (1usize << n) - 1;
    let mut sets: Vec<HashSet<Form>> = vec![HashSet::new(); full + 1];
    let mut masks: Vec<usize> = (1..=full).collect();
    masks.sort_by_key(|m| m.count_ones());
    for mask in masks {
        let mut set = HashSet::new();
        if mask.is_power_of_two() {
            set.insert(Form::unknown(mask.trailing_zeros() as usize));
        } else {
            let mut sub = (mask - 1) & mask;
            while sub > 0 {
                for &a in &sets[sub] {
                    for &b in &sets[mask ^ sub] {
                        for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                            set.insert(Form::binary(op, a, b));
                        }
                    }
                }
                sub = (sub - 1) & mask;
            }
        }
        sets[mask] = set;
    }
    sets[full].len()
}

#[test]
fn distinct_unknowns_give_a140606() {
    let counts: Vec<usize> = (1..=5).map(formal).collect();
    assert_eq!(counts, [1, 6, 68, 1170, 27142]);
}

mod common;

use std::collections::BTreeMap;
use std::rc::Rc;

use common::oracle::{Oracle, apply, is_prime_oracle};
use prime_solve::ways::Ways;
use prime_solve::{Budget, Faces, Functions, Hand, Rules, Style, check};

/// Counts of a dozen hands under the rules as written, worked by hand.
/// Each way is one expression of its class; the others of the class are
/// the same function of the cards:
///
/// - 4 6 8: 2 = 6 + 4 − 8, (8 + 4) ÷ 6, 4 ÷ (8 − 6); 3 = 6 × 4 ÷ 8 (also
///   6 ÷ (8 ÷ 4) and 4 ÷ (8 ÷ 6), the same a·b/c).
/// - 1 1 1: 2 = 1 × 1 + 1, 1 ÷ 1 + 1, (1 + 1) × 1, (1 + 1) ÷ 1; 3 = 1 + 1 + 1.
/// - 5 5 5: 2 = (5 + 5) ÷ 5; 5 = 5 + 5 − 5, 5 × 5 ÷ 5.
/// - 2 3 6: 5 = 6 − 3 + 2; 7 = 6 + 3 − 2; 11 = 6 + 3 + 2.
/// - 1 2 3: 2 = 3 − 2 + 1, (3 + 1) ÷ 2; 3 = 3 × (2 − 1), 3 ÷ (2 − 1);
///   5 = 3 × 2 − 1, 3 × 1 + 2, 3 ÷ 1 + 2, 3 + 2 × 1, 3 + 2 ÷ 1,
///   (3 + 2) × 1, (3 + 2) ÷ 1; 7 = 3 × 2 + 1.
/// - 9 9 9: 2 = (9 + 9) ÷ 9.
/// - 8 8 10: 11 = 10 + 8 ÷ 8.
/// - 1 7 8: 2 = 8 + 1 − 7.
/// - 5 5 9: 19 = 5 + 5 + 9.
/// - 4 6 10: 5 = 10 ÷ (6 − 4).
/// - 13 13 13 (J Q K as 11 12 13): 2 = (13 + 13) ÷ 13; 13 = 13 + 13 − 13,
///   13 × 13 ÷ 13.
/// - 5 8 12 (the same faces): no prime, no way.
#[test]
fn a_dozen_hands_counted_by_hand() {
    let five = Rules::default();
    let rank = Rules {
        faces: Faces::Rank,
        ..five
    };
    type Case<'a> = (&'a [u8], Rules, &'a [(i128, usize)]);
    let cases: [Case; 12] = [
        (&[4, 6, 8], five, &[(2, 3), (3, 1)]),
        (&[1, 1, 1], five, &[(2, 4), (3, 1)]),
        (&[5, 5, 5], five, &[(2, 1), (5, 2)]),
        (&[2, 3, 6], five, &[(5, 1), (7, 1), (11, 1)]),
        (&[1, 2, 3], five, &[(2, 2), (3, 2), (5, 7), (7, 1)]),
        (&[9, 9, 9], five, &[(2, 1)]),
        (&[8, 8, 10], five, &[(11, 1)]),
        (&[1, 7, 8], five, &[(2, 1)]),
        (&[5, 5, 9], five, &[(19, 1)]),
        (&[4, 6, 10], five, &[(5, 1)]),
        (&[13, 13, 13], rank, &[(2, 1), (13, 2)]),
        (&[5, 8, 12], rank, &[]),
    ];
    for (cards, rules, want) in cases {
        let ways = Ways::count(Hand::from_values(cards), &rules, Budget::unlimited()).unwrap();
        let got: Vec<(i128, usize)> = ways.primes.iter().map(|(p, w)| (*p, w.len())).collect();
        assert_eq!(got, want, "{cards:?}");
    }
}

fn three_card_hands() -> Vec<[u8; 3]> {
    let mut out = Vec::new();
    for a in 1..=13 {
        for b in a..=13 {
            for c in b..=13 {
                out.push([a, b, c]);
            }
        }
    }
    out
}

/// The count against the engine on every three-card hand under several
/// rule sets: the same primes, the simplest way as simple as the engine's
/// witness, and every example of every way upheld by the referee.
#[test]
fn every_way_is_a_witness_the_referee_upholds() {
    let base = Rules {
        faces: Faces::Rank,
        ..Rules::default()
    };
    let rule_sets = [
        base,
        Rules {
            powers: true,
            ..base
        },
        Rules {
            juxtapose: true,
            functions: Functions::TRI,
            ..base
        },
        Rules {
            max_prime: None,
            powers: true,
            ..base
        },
    ];
    for rules in rule_sets {
        let solver = prime_solve::Solver::new(rules).unwrap();
        for cards in three_card_hands() {
            let hand = Hand::from_values(&cards);
            let ways = Ways::count(hand, &rules, Budget::unlimited()).unwrap();
            let solution = solver.solve_primes(hand).unwrap();
            let primes: Vec<i128> = ways.primes.iter().map(|(p, _)| *p).collect();
            assert_eq!(primes, solution.primes(), "{cards:?} {}", rules.name());
            for (p, list) in &ways.primes {
                assert_eq!(
                    list[0].cost,
                    solution.cost(*p).unwrap(),
                    "{cards:?} {p} {}",
                    rules.name()
                );
                for w in list {
                    let claim = w.expr.render(Style::ASCII);
                    assert_eq!(check(hand, &claim, &rules), Ok(*p), "{cards:?}: {claim}");
                }
            }
        }
    }
}

// --- The definition's own route: exact rational functions, compared ---

/// A monomial: variables with exponents, sorted by variable. Variables
/// 0-2 are the cards; from 3 on, opaque symbols (powers and roots).
type Mono = Vec<(u16, u16)>;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Poly(BTreeMap<Mono, i128>);

impl Poly {
    fn constant(c: i128) -> Poly {
        let mut m = BTreeMap::new();
        if c != 0 {
            m.insert(Vec::new(), c);
        }
        Poly(m)
    }
    fn var(v: u16) -> Poly {
        Poly(BTreeMap::from([(vec![(v, 1)], 1)]))
    }
    fn add(&self, o: &Poly, sign: i128) -> Poly {
        let mut m = self.0.clone();
        for (k, c) in &o.0 {
            let e = m.entry(k.clone()).or_insert(0);
            *e += sign * c;
            if *e == 0 {
                m.remove(k);
            }
        }
        Poly(m)
    }
    fn mul(&self, o: &Poly) -> Poly {
        let mut out = Poly::constant(0);
        for (ka, ca) in &self.0 {
            for (kb, cb) in &o.0 {
                let mut exps: BTreeMap<u16, u16> = ka.iter().copied().collect();
                for &(v, e) in kb {
                    *exps.entry(v).or_insert(0) += e;
                }
                let term = Poly(BTreeMap::from([(exps.into_iter().collect(), ca * cb)]));
                out = out.add(&term, 1);
            }
        }
        out
    }
}

/// A rational function: numerator over denominator.
#[derive(Clone, Debug)]
struct Rf(Poly, Poly);

impl Rf {
    fn same(&self, o: &Rf) -> bool {
        self.0.mul(&o.1) == o.0.mul(&self.1)
    }
}

/// An expression over card positions, with its value.
enum Tree {
    Leaf(usize),
    Bin(char, Rc<Tree>, Rc<Tree>),
}

/// Opaque symbols met so far: each is an operator and its operands'
/// functions; two are one symbol when their operands are the same
/// functions.
#[derive(Default)]
struct Symbols(Vec<(char, Rf, Rf)>);

impl Symbols {
    fn of(&mut self, op: char, a: Rf, b: Rf) -> Poly {
        let at = self
            .0
            .iter()
            .position(|(o, x, y)| *o == op && x.same(&a) && y.same(&b));
        let i = at.unwrap_or_else(|| {
            self.0.push((op, a, b));
            self.0.len() - 1
        });
        Poly::var(3 + i as u16)
    }
}

fn rf(t: &Tree, perm: &[usize], symbols: &mut Symbols) -> Rf {
    match t {
        Tree::Leaf(i) => Rf(Poly::var(perm[*i] as u16), Poly::constant(1)),
        Tree::Bin(op, a, b) => {
            let (a, b) = (rf(a, perm, symbols), rf(b, perm, symbols));
            match op {
                '+' => Rf(a.0.mul(&b.1).add(&b.0.mul(&a.1), 1), a.1.mul(&b.1)),
                '-' => Rf(a.0.mul(&b.1).add(&b.0.mul(&a.1), -1), a.1.mul(&b.1)),
                '*' => Rf(a.0.mul(&b.0), a.1.mul(&b.1)),
                '/' => Rf(a.0.mul(&b.1), a.1.mul(&b.0)),
                _ => Rf(symbols.of(*op, a, b), Poly::constant(1)),
            }
        }
    }
}

/// Every tree over the positions in `mask`, with its value.
fn trees(cards: &[u8], mask: usize, ops: &[char], bound: i128) -> Vec<(Rc<Tree>, i128)> {
    if mask.is_power_of_two() {
        let i = mask.trailing_zeros() as usize;
        return vec![(Rc::new(Tree::Leaf(i)), cards[i].into())];
    }
    let mut out = Vec::new();
    let mut sub = (mask - 1) & mask;
    while sub > 0 {
        for (l, lv) in trees(cards, sub, ops, bound) {
            for (r, rv) in trees(cards, mask ^ sub, ops, bound) {
                for &op in ops {
                    if let Some(v) = apply(op, lv, rv, bound) {
                        out.push((Rc::new(Tree::Bin(op, l.clone(), r.clone())), v));
                    }
                }
            }
        }
        sub = (sub - 1) & mask;
    }
    out
}

/// The renamings of positions that keep each card's value.
fn exchanges(cards: &[u8; 3]) -> Vec<Vec<usize>> {
    let all = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    all.iter()
        .filter(|p| (0..3).all(|i| cards[p[i]] == cards[i]))
        .map(|p| p.to_vec())
        .collect()
}

/// The ways to each prime by the definition itself: every tree, its exact
/// rational function, classes up to exchanging equal cards.
fn ways_by_definition(cards: &[u8; 3], rules: &Rules) -> Vec<(i128, usize)> {
    let oracle = Oracle::new(rules);
    let ops: &[char] = if rules.powers {
        &['+', '-', '*', '/', '^', 'r']
    } else {
        &['+', '-', '*', '/']
    };
    let mut by_value: BTreeMap<i128, Vec<Rc<Tree>>> = BTreeMap::new();
    for (t, v) in trees(cards, 0b111, ops, oracle.bound()) {
        if is_prime_oracle(v) && rules.allows_prime(v) {
            by_value.entry(v).or_default().push(t);
        }
    }
    let perms = exchanges(cards);
    let mut symbols = Symbols::default();
    by_value
        .into_iter()
        .map(|(v, ts)| {
            let mut classes: Vec<Rf> = Vec::new();
            for t in ts {
                let images: Vec<Rf> = perms.iter().map(|p| rf(&t, p, &mut symbols)).collect();
                if !classes.iter().any(|c| images.iter().any(|i| i.same(c))) {
                    classes.push(images[0].clone());
                }
            }
            (v, classes.len())
        })
        .collect()
}

#[test]
fn the_count_is_the_definitions_on_every_three_card_hand() {
    let base = Rules {
        faces: Faces::Rank,
        ..Rules::default()
    };
    for rules in [
        base,
        Rules {
            powers: true,
            ..base
        },
    ] {
        for cards in three_card_hands() {
            let ways = Ways::count(Hand::from_values(&cards), &rules, Budget::unlimited()).unwrap();
            let got: Vec<(i128, usize)> = ways.primes.iter().map(|(p, w)| (*p, w.len())).collect();
            assert_eq!(
                got,
                ways_by_definition(&cards, &rules),
                "{cards:?} {}",
                rules.name()
            );
        }
    }
}

// --- The command line ---

use common::{fails_with, prime_solve};

#[test]
fn query_counts_and_lists_the_ways() {
    let out = prime_solve()
        .args(["query", "4", "6", "8", "--ways", "all"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let want = "  2 = 6 + 4 − 8     3 ways\n    = (8 + 4) ÷ 6\n    = 4 ÷ (8 − 6)\n  3 = (6 × 4) ÷ 8   1 way\n";
    assert!(text.contains(want), "{text}");
    assert!(text.contains("difficulty: 0.8 ("), "{text}");
    // With --steps each way is worked right under it.
    let out = prime_solve()
        .args(["query", "4", "6", "8", "--ways", "all", "--steps"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let want = "  2 = 6 + 4 − 8     3 ways
      6 + 4 = 10
      10 − 8 = 2
    = (8 + 4) ÷ 6
      8 + 4 = 12
      12 ÷ 6 = 2
    = 4 ÷ (8 − 6)
      8 − 6 = 2
      4 ÷ 2 = 2
  3 = (6 × 4) ÷ 8   1 way
      6 × 4 = 24
      24 ÷ 8 = 3
";
    assert!(text.contains(want), "{text}");
    // JSON: a count per prime, and every example upheld by the referee.
    let out = prime_solve()
        .args([
            "query", "1", "2", "3", "--ways", "all", "--ascii", "-f", "json",
        ])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let counts: Vec<(i64, u64)> = v["primes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["value"].as_i64().unwrap(), p["ways"].as_u64().unwrap()))
        .collect();
    assert_eq!(counts, [(2, 2), (3, 2), (5, 7), (7, 1)]);
    let hand = Hand::from_values(&[1, 2, 3]);
    for p in v["primes"].as_array().unwrap() {
        let list = p["way_witnesses"].as_array().unwrap();
        assert_eq!(list.len() as u64, p["ways"].as_u64().unwrap());
        assert_eq!(list[0], p["witness"], "the witness leads its way");
        for w in list {
            let value = check(hand, w.as_str().unwrap(), &Rules::default());
            assert_eq!(value, Ok(i128::from(p["value"].as_i64().unwrap())), "{w}");
        }
    }
    assert_eq!(v["hard"], false);
    assert!(v["difficulty"].as_f64().unwrap() < 0.0);
    // Without --ways the object is as it was: no ways, no difficulty.
    let out = prime_solve()
        .args(["query", "1", "2", "3", "-f", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(v.get("difficulty").is_none() && v["primes"][0].get("ways").is_none());
}

#[test]
fn a_count_past_its_limit_is_refused_in_one_line() {
    fails_with(
        prime_solve()
            .args(["query", "1", "2", "3", "4", "5", "--ways"])
            .args(["--powers", "--juxtapose", "--functions", "tri,fact,sqrt"]),
        "counting the ways of 1 2 3 4 5 would try more than 10000000 combinations of \
         sub-expressions under these rules; list the primes alone, without their ways \
         (drop --ways)",
    );
}

/// Six cards of one value: every prime's way renamed by 720 exchanges is
/// counted against the limit too, and refused before it is done.
#[test]
fn renaming_equal_cards_counts_against_the_limit() {
    let six = Hand::from_values(&[5; 6]);
    let got = Ways::count(six, &Rules::default(), Budget::unlimited());
    assert!(
        matches!(got, Err(prime_solve::ways::WaysError::TooMuch { .. })),
        "{got:?}"
    );
    // Five of them pass (120 renamings each).
    let five = Hand::from_values(&[5; 5]);
    assert!(Ways::count(five, &Rules::default(), Budget::unlimited()).is_ok());
}

#[test]
fn analyze_writes_the_ways_and_the_hardest_hands() {
    let dir = tempfile::tempdir().unwrap();
    prime_solve()
        .args(["analyze", "-q", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("five/hands.csv")).unwrap();
    let row = csv.lines().find(|l| l.starts_with("4 6 8,")).unwrap();
    assert!(row.contains(",2,2 3,3 1,"), "{row}");
    assert!(row.ends_with(",0.8"), "{row}");
    let row = csv.lines().find(|l| l.starts_with("4 6 10,")).unwrap();
    assert!(row.ends_with(",3.0 hard"), "{row}");
    let summary = std::fs::read_to_string(dir.path().join("five/summary.md")).unwrap();
    assert!(summary.contains("## The hardest hands"), "{summary}");
    assert!(
        summary.contains("| 4 6 10 | 16/6201 (0.258%) | 3.0 hard | 5: 1 way;"),
        "{summary}"
    );
    // --no-ways leaves the columns empty and the section out.
    let bare = tempfile::tempdir().unwrap();
    prime_solve()
        .args(["analyze", "-q", "--no-ways", "-o"])
        .arg(bare.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(bare.path().join("five/hands.csv")).unwrap();
    let row = csv.lines().find(|l| l.starts_with("4 6 8,")).unwrap();
    assert!(row.contains(",2,2 3,,3,") && row.ends_with(','), "{row}");
    let summary = std::fs::read_to_string(bare.path().join("five/summary.md")).unwrap();
    assert!(!summary.contains("hardest hands"));
}
