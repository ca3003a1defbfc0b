//! Requests too large for the memory they may use end in a refusal (exit 2,
//! one line), never in an abort or a kill: run for real under a small
//! address space (`ulimit -v`), where an allocation the budget let through
//! would abort with `memory allocation of N bytes failed`.

mod common;

use std::process::{Command, Output};

use common::{fails_with, prime_solve};
use prime_solve::SolveError;
use prime_solve::{Budget, PrimesRefusal};
use prime_solve::{Faces, Functions, Hand, Rules, Solver};

/// Runs the binary with `args` under an address space of `kib` KiB.
fn under_ulimit(kib: u64, args: &str) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("prime-solve");
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec {} {args}", bin.display()))
        .output()
        .unwrap()
}

/// `analyze -q` with `flags` under an address space of `kib` KiB, its
/// reports into a fresh temporary folder.
fn analyze_under_ulimit(kib: u64, flags: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    under_ulimit(kib, &format!("analyze -q {flags} -o {}", out.display()))
}

/// The output of a clean refusal: exit 2 (no signal), one line on stderr
/// that names the memory limit, nothing from the allocator.
fn refused(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{:?}: {stderr}", out.status);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(needle), "wanted `{needle}` in: {stderr}");
    assert!(!stderr.contains("memory allocation"), "{stderr}");
}

const EVERY_RULE: &str =
    "--faces rank --powers --juxtapose --functions tri,fact,sqrt --high-primes";

#[test]
fn six_cards_under_every_rule_are_refused_at_once() {
    // Before the budget this ran for 231 s, reached 7.9 GB and aborted.
    let out = under_ulimit(2_000_000, &format!("query 3 5 7 9 11 13 {EVERY_RULE}"));
    refused(&out, "not enough memory: the search would need about");
}

#[test]
fn five_cards_under_every_rule_fit_two_gigabytes() {
    // Every value of them by the full tables needs about 3.8 GB. The
    // value-only path lists them in 0.7 GB, and its primes come from the
    // scan, which is not projected as if it built the hand's full table:
    // the query is answered within 2 GB of address space.
    let out = under_ulimit(
        2_000_000,
        &format!("query 3 5 7 9 11 {EVERY_RULE} --values"),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("highest prime: ") && text.contains(" values: "));
}

#[test]
fn the_hard_limit_stops_a_search_the_projection_let_through() {
    // Two cards project nothing (too few sizes to measure growth): the
    // charges made while building must stop it.
    let out = under_ulimit(
        2_000_000,
        "query 11 12 --faces rank --functions tri,fact,sqrt --function-depth 3 --memory-limit 16K",
    );
    refused(&out, "not enough memory: the search asked for");
}

#[test]
fn a_limit_above_what_the_machine_gives_is_refused_as_such() {
    // The budget asked for is 100 GiB, the address space 2 GB: refused at
    // once, with what the address space leaves: a search run with the
    // budget the user gave could abort on a small allocation past the
    // address space (`analyze --all-rules -j4 --memory-limit 2G` under
    // `ulimit -v 60000`).
    let out = under_ulimit(
        2_000_000,
        &format!("query 3 5 7 9 11 13 {EVERY_RULE} --memory-limit 100G"),
    );
    refused(
        &out,
        "--memory-limit 100 GiB is more than the address space limit (ulimit -v 2000000) \
         leaves for the search, 1.4 GiB",
    );
    for threads in ["-j1", "-j4"] {
        let out = analyze_under_ulimit(60_000, &format!("{threads} --all-rules --memory-limit 2G"));
        refused(&out, "(ulimit -v 60000) leaves for the search, 29 MiB");
    }
}

#[test]
fn a_small_address_space_still_answers_small_requests() {
    // Under 300 MB, setting aside the whole 512 MiB for the program would
    // leave a budget of 0 bytes and refuse even `query 3 5 7`.
    let out = under_ulimit(300_000, "query 3 5 7");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("highest prime: "));
    let out = under_ulimit(300_000, &format!("query 3 5 7 9 11 {EVERY_RULE} --values"));
    refused(&out, "raise --memory-limit");
}

/// Threads under `ulimit -v` share one allocator arena: with one each,
/// glibc reserved 64-128 MiB of address space a thread behind the
/// budget's back, and two worker threads under 200 MB aborted on a
/// 32-byte allocation about one run in two.
#[test]
fn worker_threads_under_a_small_address_space_do_not_abort() {
    for _ in 0..6 {
        let out = analyze_under_ulimit(200_000, "-j2 --cards 5 --powers --summaries-only");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
}

/// Below the least address space the program runs in, every command is
/// refused in one line before it starts a thread; just above it, every
/// command runs, the commands without `--threads` on as many threads as
/// the budget has room for (64 asked for here, one fits).
#[test]
fn the_least_address_space_is_refused_in_one_line_and_above_it_all_run() {
    for command in [
        "query 4 6 8",
        "check 4 6 8 6*4/8",
        "table",
        "analyze -q -j1",
    ] {
        // Below about 13 MiB the loader cannot map the binary itself (12.7
        // MB with its fonts), before the program runs: 16 MiB is the
        // smallest round figure it starts in.
        let out = under_ulimit(16_000, command);
        refused(
            &out,
            "(ulimit -v 16000) is too small to start; prime-solve needs at least ulimit -v 47104 (46 MiB)",
        );
    }
    // Just below, said in the KiB `ulimit -v` takes (in MiB both read 48).
    for command in ["query 4 6 8", "table"] {
        let out = under_ulimit(47_103, command);
        refused(&out, "(ulimit -v 47103) is too small to start");
    }
    let bin = assert_cmd::cargo::cargo_bin("prime-solve");
    for command in ["query 4 6 8", "table", "crib -f svg -o /dev/null"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 47104 && exec {} {command}",
                bin.display()
            ))
            .env("RAYON_NUM_THREADS", "64")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}: {out:?}");
    }
}

#[test]
fn every_value_of_six_cards_under_every_rule_is_refused_before_the_primes_are_sought() {
    // The value-only path projects the hand's set before the search for its
    // primes, which takes minutes of CPU and gigabytes here (about 270 s).
    // `timeout` ends the run (status 124) if the refusal does not come
    // first.
    let bin = assert_cmd::cargo::cargo_bin("prime-solve");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 10000000 && exec timeout 60 {} query 3 5 7 9 11 13 {EVERY_RULE} \
             --values --memory-limit 8G",
            bin.display()
        ))
        .output()
        .unwrap();
    refused(&out, "not enough memory: the search would need about");
}

#[test]
fn the_value_only_path_under_a_small_address_space_is_refused_not_aborted() {
    // `--values` goes through the value-only path, whose every allocation
    // may be refused: under 650 MB, with the most budget that address
    // space allows (317 MiB), it is, cleanly (it completes within 800 MB of
    // address space).
    let out = under_ulimit(
        650_000,
        &format!("query 3 5 7 9 11 {EVERY_RULE} --values --memory-limit 317M"),
    );
    refused(&out, "not enough memory: the search would need about");
}

#[test]
fn sweeps_and_games_too_large_are_refused() {
    // (Six cards under T and five under T ! √, refused here before the
    // restricted search, now fit, as five under any prime with T ! √ does
    // now that its census stops at 97: these do not.)
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let out = out.display();
    for args in [
        format!("analyze --cards 6 --faces rank --functions tri,fact,sqrt --quiet --out {out}"),
        "simulate --players expert,expert,expert,expert,expert,expert --functions tri --high-primes \
         --games 2 --quiet"
            .to_string(),
        format!(
            "analyze --cards 5 --functions tri,fact,sqrt --high-primes --count-every-prime --quiet \
             --out {out}"
        ),
    ] {
        let out = under_ulimit(2_000_000, &args);
        refused(&out, "not enough memory");
    }
    // Refused before anything is written.
    assert!(!dir.path().join("x").exists());
}

#[test]
fn many_threads_are_capped_and_counted() {
    // Into a folder of its own: were the refusal lost, analyze would write
    // into the checkout's reports/.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    fails_with(
        prime_solve()
            .args(["analyze", "--threads", "1024", "-o"])
            .arg(&out),
        "1024",
    );
    fails_with(
        prime_solve()
            .args(["analyze", "--threads", "200", "--memory-limit", "1G"])
            .args(["--quiet", "-o"])
            .arg(&out),
        "200 worker threads",
    );
    assert!(!out.exists());
}

/// Near the limit, whether tables built side by side pass it depends on
/// how the threads meet: this table's search fits from 34M on one thread,
/// and with two threads at 38M may or may not. A refusal with several
/// threads is decided again on one, so every run gives what one thread
/// gives.
#[test]
fn a_refusal_near_the_limit_does_not_depend_on_the_threads() {
    near_the_limit(1);
}

/// `table` at 38M with one thread, then `repeats` times with two, each the
/// same answer; at 30M refused with one thread and with two.
fn near_the_limit(repeats: usize) {
    let table = |threads: &str, limit: &str| {
        prime_solve()
            .env("RAYON_NUM_THREADS", threads)
            .args(["table", "--function-depth", "3", "--memory-limit", limit])
            .args(EVERY_RULE.split(' '))
            .output()
            .unwrap()
    };
    let one = table("1", "38M");
    assert!(one.status.success(), "{one:?}");
    for _ in 0..repeats {
        let two = table("2", "38M");
        assert!(two.status.success(), "{two:?}");
        assert_eq!(two.stdout, one.stdout);
    }
    // Too little for one thread too: refused every time.
    for threads in ["1", "2"] {
        let out = table(threads, "30M");
        refused(&out, "not enough memory");
    }
}

mod full {
    /// Near its limit, `table` with two threads three times over.
    #[test]
    fn a_refusal_near_the_limit_does_not_depend_on_the_threads_run_after_run() {
        super::near_the_limit(3);
    }
}

#[test]
fn the_memory_limit_reads_sizes() {
    fails_with(
        prime_solve().args(["query", "4", "6", "8", "--memory-limit", "lots"]),
        "is not a size",
    );
    prime_solve()
        .args(["query", "4", "6", "8", "--memory-limit", "64M"])
        .assert()
        .success();
    // Every value within 1 MiB: the value-only path does without its
    // 2 MiB bitmap.
    prime_solve()
        .args(["query", "4", "6", "8", "--values", "--memory-limit", "1M"])
        .assert()
        .success()
        .stdout(predicates::str::contains("28 values: -44 -26"));
    fails_with(
        prime_solve().args([
            "query",
            "3",
            "5",
            "7",
            "9",
            "11",
            "--faces",
            "rank",
            "--functions",
            "tri",
            "--values",
            "--memory-limit",
            "1M",
        ]),
        "more than the limit of 1.0 MiB; use fewer cards or house rules, or raise --memory-limit",
    );
}

fn every_rule() -> Rules {
    Rules {
        faces: Faces::Rank,
        powers: true,
        juxtapose: true,
        functions: Functions {
            tri: true,
            fact: true,
            sqrt: true,
        },
        max_prime: None,
        ..Rules::default()
    }
}

#[test]
fn a_budget_is_given_back_and_does_not_change_answers() {
    let budget = Budget::new(1 << 30);
    let hand = Hand::from_values(&[3, 7, 8, 12]);
    let plain = Solver::new(every_rule()).unwrap();
    let counted = Solver::new(every_rule())
        .unwrap()
        .with_budget(budget.clone());
    {
        let (a, b) = (plain.solve(hand).unwrap(), counted.solve(hand).unwrap());
        assert_eq!(a.values(), b.values());
        assert!(budget.used() > 0, "the tables are charged while held");
    }
    assert_eq!(budget.used(), 0, "every byte is given back");
    assert!(budget.peak() > 0);
    let mut prepared = Solver::new(every_rule())
        .unwrap()
        .with_budget(budget.clone());
    let built = budget.tables_built();
    prepared.prepare(&[hand]).unwrap();
    assert!(budget.used() > 0);
    // The spinner's count: the sub-hands' tables (of the 14 proper
    // sub-hands of four distinct cards, at least the pairs').
    assert!(
        budget.tables_built() >= built + 6,
        "{}",
        budget.tables_built()
    );
    drop(prepared);
    assert_eq!(budget.used(), 0);
}

#[test]
fn a_small_budget_is_an_error_not_an_abort() {
    let hand = Hand::from_values(&[3, 7, 8, 12]);
    for limit in [0, 1 << 10, 1 << 16, 1 << 20] {
        let solver = Solver::new(every_rule())
            .unwrap()
            .with_budget(Budget::new(limit));
        match solver.solve(hand) {
            Err(SolveError::Memory { limit: l, .. }) => assert_eq!(l, limit),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("{limit} bytes cannot hold four cards under every rule"),
        }
        assert_eq!(solver.budget().used(), 0);
    }
}

#[test]
fn a_query_searched_for_its_primes_alone_is_refused_in_advance() {
    // Six cards under T ! √: the values their four-card sub-hands keep
    // (about 55 MiB with their set) are counted and charged before the set
    // is built, so a query refused for memory is refused before any table.
    fails_with(
        prime_solve().args(
            "query 3 5 7 9 11 13 --faces rank --functions tri,fact,sqrt --memory-limit 32M"
                .split(' '),
        ),
        "not enough memory: the search asked for 55 MiB, more than the limit of 32 MiB",
    );
}

/// Hands of `cards` cards under T with any prime, in the order a sweep
/// takes them.
fn tri_sweep(cards: usize) -> (Rules, Vec<Hand>) {
    let rules = Rules {
        functions: Functions {
            tri: true,
            ..Functions::default()
        },
        max_prime: None,
        ..Rules::default()
    };
    let hands = prime_solve::deal(cards, rules.faces)
        .0
        .iter()
        .map(|d| d.hand)
        .collect();
    (rules, hands)
}

#[test]
fn a_sweep_whose_lists_of_primes_cannot_fit_is_refused_from_a_sample() {
    let (rules, hands) = tri_sweep(4);
    // What the sample makes, worked out here: hands spread evenly, in
    // their order.
    let plain = Solver::new(rules).unwrap();
    let n = prime_solve::PRIME_SAMPLE;
    let made: Vec<u64> = (0..n)
        .map(|i| hands[(2 * i + 1) * hands.len() / (2 * n)])
        .map(|h| plain.solve_primes(h).unwrap().primes().len() as u64)
        .collect();
    assert!(made.iter().all(|&p| p > 10), "{made:?}");
    let per_hand = made.iter().sum::<u64>().div_ceil(n as u64);
    let count = hands.len() as u64;
    // The lists may take two thirds of the budget: exactly room for them
    // at 16 bytes a prime, and a byte less.
    let lists = per_hand * count * 16;
    let exact = lists / 2 * 3;
    let fits = Solver::new(rules).unwrap().with_budget(Budget::new(exact));
    assert_eq!(
        fits.foresee_primes(&hands, 16).unwrap(),
        lists,
        "the bytes projected"
    );
    assert_eq!(
        fits.budget().used(),
        0,
        "nothing the sample solved stays charged"
    );
    let refused = |limit: u64, per_prime: u64| {
        let solver = Solver::new(rules).unwrap().with_budget(Budget::new(limit));
        let e = solver.foresee_primes(&hands, per_prime).unwrap_err();
        assert!(e.is_memory());
        assert_eq!(solver.budget().used(), 0);
        e
    };
    match refused(exact - 1, 16) {
        SolveError::Primes(PrimesRefusal {
            hands: h,
            cards,
            per_hand: p,
            sampled,
            needed,
            limit,
            operations,
            at_least,
        }) => {
            assert!(!at_least, "four cards are sampled in full");
            assert_eq!((h, cards, p, sampled), (hands.len(), 4, per_hand, n as u64));
            assert_eq!((needed, limit), (lists, exact - 1));
            assert!(operations > u128::from(per_hand) * u128::from(count));
        }
        other => panic!("{other}"),
    }
    // So far past the budget that the first hand sampled settles it.
    let e = refused(lists, 1 << 30);
    assert!(
        matches!(&e, SolveError::Primes(r) if r.per_hand == made[0] && r.sampled == 1),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(text.contains(", more than the limit of "), "{text}");
    assert!(text.ends_with(" operations on pairs of values)"), "{text}");
    assert!(
        text.starts_with(&format!(
            "not enough memory: the primes of all {} four-card hands would take about",
            prime_solve::text::grouped(hands.len() as u128)
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "(about {} in the first hand of a sample of 8; finding them means about ",
            prime_solve::text::grouped(u128::from(made[0]))
        )),
        "{text}"
    );
    // A ceiling that bounds the lists within the budget spares the sample.
    let ceiling = Solver::new(Rules {
        max_prime: Some(97),
        ..rules
    })
    .unwrap()
    .with_budget(Budget::new(1 << 30));
    assert_eq!(ceiling.foresee_primes(&hands, 1 << 10).unwrap(), 0);
}

#[test]
fn lower_bounds_on_five_card_hands_refuse_only_what_the_sample_refuses() {
    // From five cards on, the projection first counts the primes the
    // sample's hands make without their tables of k − 1 cards, and
    // refuses on those where they already pass the room: exactly when
    // solving the same hands would. Checked here over a range of limits
    // against the primes of the sample's hands, worked out in full.
    let (rules, hands) = tri_sweep(5);
    let n = prime_solve::PRIME_SAMPLE;
    let plain = Solver::new(rules).unwrap();
    let made: Vec<u64> = (0..n)
        .map(|i| hands[(2 * i + 1) * hands.len() / (2 * n)])
        .map(|h| plain.solve_primes(h).unwrap().primes().len() as u64)
        .collect();
    let count = hands.len() as u64;
    let lists = |primes: u64| primes * count * 16;
    let mean = made.iter().sum::<u64>().div_ceil(n as u64);
    let (mut bounded, mut sampled, mut fitted) = (0, 0, 0);
    // Limits from far too small to ample, the lists taking two thirds.
    for eighths in [1, 2, 4, 6, 8, 10, 12, 14, 16, 24] {
        let limit = lists(mean) * eighths / 8 / 2 * 3;
        let room = limit / 3 * 2;
        let solver = Solver::new(rules).unwrap().with_budget(Budget::new(limit));
        match solver.foresee_primes(&hands, 16) {
            Ok(bytes) => {
                assert!(lists(mean) <= room, "{eighths}: let through");
                assert_eq!(bytes, lists(mean));
                fitted += 1;
            }
            Err(SolveError::Primes(r)) if r.at_least => {
                let m = r.sampled as usize;
                let solved: u64 = made[..m].iter().sum();
                // A lower bound on those hands' primes ...
                assert!(r.per_hand <= solved / m as u64, "{eighths}: {r:?}");
                // ... that passes the room as the hands themselves would.
                assert!(lists(solved.div_ceil(n as u64)) > room, "{eighths}: {r:?}");
                assert_eq!(r.needed, lists(r.per_hand));
                let text = SolveError::Primes(r).to_string();
                assert!(text.contains(" or more, more than "), "{text}");
                assert!(
                    text.contains(
                        " splits into parts of at most three cards, whose work alone is about "
                    ),
                    "{text}"
                );
                bounded += 1;
            }
            Err(SolveError::Primes(r)) => {
                assert!(lists(r.per_hand) > room, "{eighths}: {r:?}");
                sampled += 1;
            }
            Err(e) => panic!("{e}"),
        }
        assert_eq!(solver.budget().used(), 0, "nothing stays charged");
    }
    // Each way of deciding was met.
    assert!(
        bounded > 0 && sampled > 0 && fitted > 0,
        "{bounded} {sampled} {fitted}"
    );
}

#[test]
fn a_refusal_from_lower_bounds_reads_the_same_for_any_number_of_threads() {
    // Each thread's reservation takes from the room the lists may have;
    // bounds that stopped counting where that room was passed would give
    // figures that change with the threads.
    let refusal = |threads: &str| {
        let out = prime_solve()
            .args([
                "simulate",
                "--players",
                "expert,expert,expert,expert,expert",
                "--functions",
                "tri,fact,sqrt",
                "--high-primes",
                "--games",
                "2",
                "--quiet",
                "--memory-limit",
                "200M",
                "--threads",
                threads,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    let one = refusal("1");
    assert!(
        one.contains(" five-card hands would take about ") && one.contains(" or more, more than "),
        "{one}"
    );
    assert!(one.contains("(at least "), "{one}");
    assert_eq!(one, refusal("2"));
    assert_eq!(one, refusal("3"));
}

#[test]
fn a_call_book_too_large_is_refused_in_seconds() {
    // Six experts under T with any prime: the book would hold every prime
    // of the 4,965 six-card hands, some 11 GiB; building it would run for
    // hours before the book passed the budget. It is refused from a sample
    // of its hands, in seconds: about 10 alone on 2 cores, under the
    // bound below beside the other tests on a loaded machine.
    let start = std::time::Instant::now();
    fails_with(
        prime_solve().args([
            "simulate",
            "--players",
            "expert,expert,expert,expert,expert,expert",
            "--functions",
            "tri",
            "--high-primes",
            "--games",
            "2",
            "--quiet",
            "--memory-limit",
            "8G",
        ]),
        // The lists' refusal, with its hint.
        "operations on pairs of values); use fewer players or cards, a --max-prime ceiling \
         instead of --high-primes, or raise --memory-limit",
    );
    let took = start.elapsed();
    assert!(
        took < std::time::Duration::from_secs(REFUSED_WITHIN),
        "refused after {took:?}, not within {REFUSED_WITHIN} s"
    );
}

/// The seconds within which a refusal from a sample must come: minutes
/// at most, where building what it refuses would take hours.
const REFUSED_WITHIN: u64 = 150;

#[test]
fn games_whose_records_cannot_fit_are_refused_before_they_are_played() {
    // Aborted with `memory allocation of 560000000 bytes failed` before the
    // records were charged.
    // One thread: on a machine of many cores their 16 MiB each alone
    // would pass this limit first.
    let out = under_ulimit(300_000, "simulate -q -j1 --games 10000000");
    refused(&out, "records of 10,000,000 games");
    assert!(String::from_utf8_lossy(&out.stderr).contains("play fewer --games"));
    let out = under_ulimit(300_000, "advise -q -j1 --games 10000000");
    refused(&out, "records of 10,000,000 games");
    fails_with(
        prime_solve().args([
            "simulate",
            "-q",
            "--games",
            "10000000",
            "--memory-limit",
            "100M",
        ]),
        "more than the limit of",
    );
}

#[test]
fn a_history_too_large_to_sum_up_is_refused() {
    // Every row a rule set of its own: the summary's maps grow with the
    // rows, past what the address space allows (an abort before they were
    // charged).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.csv");
    let mut text = String::from("time,cards,hand,rules,claim,verdict,seconds,best_prime\n");
    for i in 0..400_000 {
        text.push_str(&format!(
            "2026-12-01T05:20:22Z,x,1 6 9,r{i:x}{},6*4/8,invalid,1,53\n",
            "z".repeat(40)
        ));
    }
    std::fs::write(&path, text).unwrap();
    let out = under_ulimit(
        100_000,
        &format!("practice --stats --history {}", path.display()),
    );
    refused(&out, "too large to sum up within the memory limit");
}

#[test]
fn files_that_never_end_are_not_read_whole() {
    // /dev/zero was read until memory ran out (here, under a ulimit, so
    // that a regression fails the test rather than fill the machine).
    let out = under_ulimit(1_000_000, "simulate -q -j1 --games 5 --models /dev/zero");
    refused(
        &out,
        "cannot read the models file /dev/zero: it is longer than 1.0 MiB",
    );
    for command in ["play", "practice"] {
        let out = under_ulimit(1_000_000, &format!("{command} --script /dev/zero"));
        refused(
            &out,
            "cannot read the script /dev/zero: it is longer than 16 MiB",
        );
    }
}

#[test]
fn worker_threads_past_the_limit_are_refused_before_any_starts() {
    // RAYON_NUM_THREADS=100000 started threads for minutes first.
    for command in [
        &["simulate", "-q", "--games", "20"][..],
        &["table"],
        &["analyze", "-q", "-o", "/nonexistent/x"],
    ] {
        fails_with(
            prime_solve()
                .env("RAYON_NUM_THREADS", "100000")
                .args(command),
            "RAYON_NUM_THREADS=100000 asks for more worker threads than the 256 allowed",
        );
    }
    // --threads, where given, is obeyed instead.
    prime_solve()
        .env("RAYON_NUM_THREADS", "100000")
        .args(["simulate", "-q", "--games", "5", "-j1"])
        .assert()
        .success();
    fails_with(
        prime_solve().env("RAYON_NUM_THREADS", "200").args([
            "simulate",
            "-q",
            "--games",
            "20",
            "--memory-limit",
            "1G",
        ]),
        "not enough memory for 200 worker threads (16 MiB each) within the limit of 1.0 GiB; lower RAYON_NUM_THREADS",
    );
    fails_with(
        prime_solve().args([
            "simulate",
            "-q",
            "--games",
            "20",
            "-j1",
            "--memory-limit",
            "1M",
        ]),
        "not enough memory for 1 worker thread (16 MiB each) within the limit of 1.0 MiB; raise --memory-limit",
    );
}

#[test]
fn reports_that_cannot_fit_are_named_as_reports() {
    // Every search fits 30 MiB; the reports with the results do not. This
    // was "the search asked for", after --skip-refused had skipped nothing.
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        prime_solve()
            .args([
                "analyze",
                "-q",
                "--all-rules",
                "--skip-refused",
                "-j1",
                "--memory-limit",
                "30M",
                "-o",
            ])
            .arg(dir.path().join("out")),
        "not enough memory to write the reports",
    );
}

/// The narrow copies the targeted search keeps with the tables it meets
/// are kept only while the budget has room to spare: near its limit, a
/// sweep makes them hand by hand instead, so that it runs within a limit
/// it would pass if it kept them regardless (refused at 120M, needing
/// 160M).
#[test]
fn a_sweep_near_its_limit_keeps_no_copies_it_cannot_afford() {
    let dir = tempfile::tempdir().unwrap();
    let out = prime_solve()
        .args([
            "analyze",
            "--cards",
            "6",
            "--faces",
            "rank",
            "--threads",
            "1",
        ])
        .args(["--memory-limit", "110M", "--summaries-only", "-q", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(dir.path().join("rank-6cards/summary.md").is_file());
}

/// `ulimit -d` (the data segment, which counts every private writable
/// mapping) limits the default budget as `ulimit -v` does: a four-card
/// sweep under 60 MB of it aborted on a 62 KB allocation, where it is now
/// refused in one line; the messages name the limit that binds.
#[test]
fn the_data_segment_limit_binds_the_budget_as_the_address_space_does() {
    let bin = assert_cmd::cargo::cargo_bin("prime-solve");
    let run = |kib: u64, args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -d {kib} && exec {} {args}", bin.display()))
            .output()
            .unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        60_000,
        &format!(
            "analyze --cards 4 --all-rules --summaries-only -q -o {}",
            dir.path().join("r").display()
        ),
    );
    refused(&out, "not enough memory");
    refused(
        &run(12_000, "query 4 6 8"),
        "(ulimit -d 12000) is too small to start",
    );
    refused(
        &run(60_000, "query 4 6 8 --memory-limit 1G"),
        "more than the address space limit (ulimit -d 60000) leaves",
    );
    let out = run(300_000, "query 4 6 8");
    assert_eq!(out.status.code(), Some(0));
}

/// Where the system gives no more threads (`ulimit -u`, which binds only
/// a user other than root: run as `nobody` through `setpriv`), every
/// command is refused in one line: starting the signal handler's thread
/// or the spinner's panicked (exit 101), and under `ulimit -d` then hung.
#[test]
fn no_thread_to_start_is_a_refusal_not_a_panic() {
    if !common::require(common::Tool::Root) {
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("prime-solve");
    // A copy `nobody` can run, outside folders only root may enter.
    let copy = std::env::temp_dir().join(format!("prime-solve-nproc-{}", std::process::id()));
    std::fs::copy(&bin, &copy).unwrap();
    let run = |limit: u32| {
        Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "bash",
                "-c",
            ])
            .arg(format!(
                "ulimit -u {limit} && exec {} query 4 6 8",
                copy.display()
            ))
            .output()
    };
    let outputs: Vec<_> = (1..=5).map(run).collect();
    let _ = std::fs::remove_file(&copy);
    let outputs: Vec<Output> = outputs
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("setpriv cannot run ({e}): apt-get install util-linux"));
    for out in &outputs {
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("highest prime")),
            Some(2) => {
                assert_eq!(stderr.lines().count(), 1, "{stderr}");
                assert!(stderr.contains("cannot start worker threads"), "{stderr}");
                // Said once, not once more from the error's source.
                assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");
            }
            _ => panic!("{:?}: {stderr}", out.status),
        }
    }
    // The tightest limit leaves no thread at all.
    assert_eq!(outputs[0].status.code(), Some(2));
}
