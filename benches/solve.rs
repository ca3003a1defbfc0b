//! Benchmarks of the solver core: one query as a player makes it.
//! Run with `cargo bench --bench solve`.

use divan::black_box;
use prime_solve::{Faces, Functions, Hand, Rules, Solver, Style};

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
        .map(|p| solution.witness(p).unwrap().render(Style::UNICODE).len())
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
    dealt(6, faces)
}

/// The hands of `k` cards that `faces` deals.
fn dealt(k: usize, faces: Faces) -> Vec<Hand> {
    prime_solve::deal(k, faces)
        .0
        .iter()
        .map(|d| d.hand)
        .collect()
}

/// The four-card hands `rank` deals, and a solver under every house rule
/// with `rank` faces and any prime.
fn four_cards_every_rule() -> (Vec<Hand>, Solver) {
    let rules = Rules {
        faces: Faces::Rank,
        ..every_rule()
    };
    (dealt(4, Faces::Rank), Solver::new(rules).unwrap())
}

/// The 1,820 four-card hands `rank` deals under every house rule with any
/// prime: every prime of each, with its witness, by the prime scan (the
/// search that the four groups with T ! √ of `analyze --cards 4
/// --all-rules` spend most of their time in).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn four_cards_every_rule_primes() -> usize {
    let (hands, solver) = four_cards_every_rule();
    hands
        .iter()
        .map(|&h| solver.solve_primes(h).unwrap().primes().len())
        .sum()
}

/// The same hands' distinct values alone, by the value-only path: less
/// work than the scan above, which must also see every value once.
#[divan::bench(sample_count = 1, sample_size = 1)]
fn four_cards_every_rule_value_sets() -> usize {
    let (hands, solver) = four_cards_every_rule();
    let mut sets = solver.value_sets().unwrap();
    hands.iter().map(|&h| sets.values(h).unwrap().len()).sum()
}

/// Full value tables (`Solver::solve(..).values()`) of every six-card hand
/// dealt under `five` (4,965 hands of values 1-10), sub-hand tables shared:
/// the work a plain subset DP in C does (docs/performance.md).
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
    primes_up_to_97(Faces::Rank, &six_card_hands(Faces::Rank))
}

/// The C baseline (`benches/c/subset_dp.c`), built with the system's C
/// compiler (`cc -O2`, once a run) and run as a process on the hands that
/// `faces` deals, so that it is measured side by side with the benches
/// above in one `cargo bench` run. Each run's sum of the hands' prime
/// counts up to 97 is checked against prime-solve's. Built and the hands
/// written before the timing starts, so that the timed run is the process
/// alone; where no C compiler is found, said on stderr and nothing timed.
fn c_baseline(bencher: divan::Bencher, faces: Faces) {
    use std::path::PathBuf;
    use std::process::Command;
    use std::sync::OnceLock;
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    static HANDS: OnceLock<Vec<(Faces, PathBuf, usize)>> = OnceLock::new();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let exe = BUILT.get_or_init(|| {
        let exe = dir.join("subset_dp");
        let source = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/c/subset_dp.c");
        let built = ["cc", "gcc", "clang"].iter().any(|cc| {
            Command::new(cc)
                .args(["-O2", "-o"])
                .arg(&exe)
                .arg(source)
                .status()
                .is_ok_and(|s| s.success())
        });
        if !built {
            eprintln!("c_baseline: no C compiler (cc, gcc, clang) built {source}; skipped");
        }
        built.then_some(exe)
    });
    let Some(exe) = exe.as_ref() else {
        bencher.bench(|| None::<usize>);
        return;
    };
    // The hands as the C reads them, one a line, and their prime count
    // up to 97 by prime-solve's value-only path, written once a run.
    let hands = HANDS.get_or_init(|| {
        [Faces::Five, Faces::Rank]
            .into_iter()
            .map(|f| {
                let path = dir.join(format!("hands-{f:?}.txt"));
                let hands = six_card_hands(f);
                let text: String = hands
                    .iter()
                    .map(|h| {
                        let v: Vec<String> = h.values().iter().map(u8::to_string).collect();
                        v.join(" ") + "\n"
                    })
                    .collect();
                std::fs::write(&path, text).expect("the hands file");
                (f, path, primes_up_to_97(f, &hands))
            })
            .collect()
    });
    let (_, path, expected) = hands.iter().find(|(f, ..)| *f == faces).expect("dealt");
    let counts = dir.join(format!("counts-{faces:?}.txt"));
    bencher.bench(|| run_c(exe, path, &counts, *expected));
}

/// One run of the C baseline on the hands in `path`, its counts into
/// `counts`, their sum checked against `expected`.
fn run_c(
    exe: &std::path::Path,
    path: &std::path::Path,
    counts: &std::path::Path,
    expected: usize,
) -> usize {
    let out = std::process::Command::new(exe)
        .arg(path)
        .arg(counts)
        .output()
        .expect("the C baseline runs");
    assert!(out.status.success(), "the C baseline failed: {out:?}");
    // Each line: the six cards, then the hand's prime count.
    let total: usize = std::fs::read_to_string(counts)
        .expect("the C baseline's counts")
        .lines()
        .map(|l| {
            l.split(' ')
                .nth(6)
                .and_then(|n| n.parse::<usize>().ok())
                .expect("a count")
        })
        .sum();
    assert_eq!(total, expected, "the C baseline and prime-solve disagree");
    total
}

/// The sum over `hands` of each one's primes up to 97, by the value-only path.
fn primes_up_to_97(faces: Faces, hands: &[Hand]) -> usize {
    let solver = Solver::new(Rules {
        faces,
        ..Rules::default()
    })
    .unwrap();
    let mut sets = solver.value_sets().unwrap();
    hands
        .iter()
        .map(|&h| {
            let set = sets.values(h).unwrap();
            set.within(2, 97)
                .filter(|&v| prime_solve::is_prime(v))
                .count()
        })
        .sum()
}

/// The C baseline on the 4,965 `five` hands, beside `value_sets_six_cards`
/// and `full_value_tables_six_cards` (its time includes starting the
/// process and reading the hands, a few milliseconds).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn c_baseline_six_cards(bencher: divan::Bencher) {
    c_baseline(bencher, Faces::Five);
}

/// The C baseline on the 18,486 `rank` hands, beside
/// `value_sets_six_cards_rank` and `analyze`'s `six_cards_rank_faces`.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn c_baseline_six_cards_rank(bencher: divan::Bencher) {
    c_baseline(bencher, Faces::Rank);
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
