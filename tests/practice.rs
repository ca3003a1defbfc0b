//! `prime-solve practice` as a script or a pipe drives it: the referee's
//! rulings, every answer, the score, the history and its summary.

mod common;

use common::{fails_with, prime_solve};
use predicates::prelude::*;
use serde_json::Value;

fn rounds(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn script(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
}

/// Seed 1 deals 9♣ 6♣ A♠, then 10♦ K♠ Q♣, then 8♥ 3♦ 10♥.
#[test]
fn a_scripted_drill_is_ruled_and_scored() {
    let s = script("1500 9*6-1\n2500 ?\n4000 10+5/5\n31000 8*10+3\n");
    let out = prime_solve()
        .args([
            "practice",
            "--seed",
            "1",
            "--rounds",
            "3",
            "--time-limit",
            "30",
        ])
        .args(["--format", "json", "--script"])
        .arg(s.path())
        .assert()
        .success();
    let r = rounds(&out.get_output().stdout);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["hand"], serde_json::json!(["9♣", "6♣", "A♠"]));
    assert_eq!(r[0]["values"], serde_json::json!([9, 6, 1]));
    assert_eq!(r[0]["valid"], true);
    assert_eq!(r[0]["value"], 53);
    assert_eq!(r[0]["seconds"], 1.5);
    assert_eq!(r[0]["best"]["prime"], 53);
    assert_eq!(r[0]["simplest"]["witness"], "9 − 6 − 1");
    assert_eq!(r[0]["prime_count"], 3);
    assert_eq!(r[0]["missed"], serde_json::json!([2, 3]));
    // 10 + 9 for speed (1.5 s) + 10 for the best prime.
    assert_eq!(r[0]["score"], 29);
    // A hint costs the speed points.
    assert_eq!(r[1]["hints"], 1);
    assert_eq!(r[1]["value"], 11);
    assert_eq!(r[1]["score"], 20);
    // Too late: a pass at the time limit.
    assert_eq!(r[2]["claim"], Value::Null);
    assert_eq!(r[2]["valid"], false);
    assert_eq!(r[2]["seconds"], 30.0);
}

#[test]
fn wrong_claims_name_the_fault_and_the_summary_lists_misses() {
    let s = script("800 9*6/1\n1200 pass\n");
    prime_solve()
        .args(["practice", "--seed", "1", "--rounds", "2", "--script"])
        .arg(s.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Hand 1 of 2:  9♣ 6♣ A♠    (counting 9 6 1)",
        ))
        .stdout(predicate::str::contains(
            "invalid: 54 = 2 × 27 is not prime (0.8 s)",
        ))
        .stdout(predicate::str::contains("passed after 1.2 s"))
        .stdout(predicate::str::contains("best call:     53 = 9 × 6 − 1"))
        .stdout(predicate::str::contains(
            "Summary: 0 of 2 hands correct; score 0",
        ))
        .stdout(predicate::str::contains(
            "missed: 10♦ K♠ Q♣: quickest 3 = 5 − 10 ÷ 5; best 11 = 10 + 5 ÷ 5",
        ));
}

#[test]
fn lines_from_a_pipe_are_claims() {
    let out = prime_solve()
        .args([
            "practice", "--seed", "1", "--rounds", "5", "--format", "json", "--ascii",
        ])
        .write_stdin("9*6-1\n\nq\n")
        .assert()
        .success();
    let r = rounds(&out.get_output().stdout);
    // `q` stops the drill after two hands.
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["hand"], serde_json::json!(["9C", "6C", "AS"]));
    assert_eq!(r[0]["best"]["witness"], "9 * 6 - 1");
    assert_eq!(r[1]["claim"], Value::Null);
}

#[test]
fn hard_hands_are_hard() {
    let out = prime_solve()
        .args([
            "practice", "--seed", "7", "--rounds", "30", "--hard", "--format", "json",
        ])
        .write_stdin("")
        .assert()
        .success();
    // An empty pipe ends the drill at once.
    assert!(rounds(&out.get_output().stdout).is_empty());
    let passes = "\n".repeat(30);
    let out = prime_solve()
        .args([
            "practice", "--seed", "7", "--rounds", "30", "--hard", "--format", "json",
        ])
        .write_stdin(passes)
        .assert()
        .success();
    let r = rounds(&out.get_output().stdout);
    assert_eq!(r.len(), 30);
    for round in &r {
        let few = round["prime_count"].as_u64().unwrap() <= 2;
        let witness = round["simplest"]["witness"].as_str().unwrap_or("");
        let heavy = witness.matches(['×', '÷']).count() >= 2;
        assert!(few || heavy, "{round}");
    }
}

/// Where no hand is hard, `--hard` is refused in one line at once (it
/// dealt an easy hand after 10,000 solved deals, a minute under deep
/// functions, while saying "hard hands only").
#[test]
fn hard_hands_where_their_ways_are_not_counted_are_refused() {
    let s = script("1000 pass\n");
    fails_with(
        prime_solve()
            .args([
                "practice", "--seed", "1", "--rounds", "1", "--hard", "--cards", "4",
            ])
            .args(["--juxtapose", "--functions", "tri", "--script"])
            .arg(s.path()),
        "--hard judges a hand by its ways to every prime, counted for three cards (functions \
         one deep) and for four without functions; drop --hard",
    );
}

/// Four cards deal hard hands, each of them hard by its ways, and the
/// drill ends with its summary.
#[test]
fn four_cards_deal_hard_hands() {
    let s = script("1000 pass\n1000 pass\n1000 pass\n");
    let out = prime_solve()
        .args([
            "practice", "--seed", "2", "--rounds", "3", "--cards", "4", "--hard",
        ])
        .args(["--format", "json", "--script"])
        .arg(s.path())
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let rounds: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("round").is_some())
        .collect();
    assert_eq!(rounds.len(), 3);
    for r in rounds {
        let values: Vec<u8> = r["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as u8)
            .collect();
        let hand = prime_solve::Hand::from_values(&values);
        let ways = prime_solve::ways::Ways::count(
            hand,
            &prime_solve::Rules::default(),
            prime_solve::Budget::unlimited(),
        )
        .unwrap();
        assert!(ways.difficulty().is_hard(), "{values:?}");
    }
}

/// Five cards: their ways are not counted, so `--hard` is refused before
/// the first deal.
#[test]
fn five_cards_are_hard_only_as_three_are() {
    let s = script("1000 pass\n");
    fails_with(
        prime_solve()
            .args(["practice", "--seed", "9", "--rounds", "1", "--cards", "5"])
            .args(["--hard", "--script"])
            .arg(s.path()),
        "drop --hard",
    );
}

#[test]
fn the_history_is_appended_and_summed_up() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("drill.csv");
    for _ in 0..2 {
        let s = script("1500 9*6-1\n2000 5+5-10\n");
        prime_solve()
            .args(["practice", "--seed", "1", "--rounds", "2", "--history"])
            .arg(&history)
            .arg("--script")
            .arg(s.path())
            .assert()
            .success();
    }
    let text = std::fs::read_to_string(&history).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(
        lines[0],
        "time,cards,hand,rules,claim,verdict,seconds,best_prime"
    );
    assert!(
        lines[1].ends_with(",9♣ 6♣ A♠,1 6 9,five,9*6-1,valid,1.5,53"),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with(",5+5-10,invalid,2.0,11"), "{}", lines[2]);
    prime_solve()
        .args(["practice", "--stats", "--history"])
        .arg(&history)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "4 hands, 2 correct (50%); median time of a correct call 1.5 s, slowest 1.5 s",
        ))
        .stdout(predicate::str::contains("five: 2 of 4 correct"))
        .stdout(predicate::str::contains("missed most: 5 5 10 (five, 2×)"));
}

/// A history whose last line was cut off before its end of line (a drill
/// killed mid-write) gets the end of line before the next row, which ran
/// on from it and spoiled the file; an empty one (cut off before its
/// header) is a new history.
#[test]
fn a_history_cut_off_mid_line_or_empty_is_appended_to_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("drill.csv");
    let drill = |history: &std::path::Path| {
        let s = script("1500 9*6-1\n");
        prime_solve()
            .args(["practice", "--seed", "1", "--rounds", "1", "--history"])
            .arg(history)
            .arg("--script")
            .arg(s.path())
            .assert()
            .success();
    };
    std::fs::write(&history, "").unwrap();
    drill(&history);
    let text = std::fs::read_to_string(&history).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    std::fs::write(&history, text.trim_end_matches('\n')).unwrap();
    drill(&history);
    let text = std::fs::read_to_string(&history).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].ends_with(",valid,1.5,53") && lines[2].ends_with(",valid,1.5,53"));
    prime_solve()
        .args(["practice", "--stats", "--history"])
        .arg(&history)
        .assert()
        .success()
        .stdout(predicate::str::contains("2 hands, 2 correct"));
}

#[test]
fn bad_input_gets_one_line() {
    fails_with(prime_solve().args(["practice", "--stats"]), "--history");
    let s = script("soon 4+5\n");
    fails_with(
        prime_solve().args(["practice", "--script"]).arg(s.path()),
        "`soon` is not a time",
    );
    fails_with(
        prime_solve().args(["practice", "--script", "/no/such/script"]),
        "cannot read the script",
    );
    fails_with(
        prime_solve().args(["practice", "--time-limit", "-3"]),
        "seconds",
    );
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        prime_solve()
            .args(["practice", "--history"])
            .arg(dir.path()),
        "is a folder",
    );
    let not_history = script("a,b\n1,2\n");
    fails_with(
        prime_solve()
            .args(["practice", "--stats", "--history"])
            .arg(not_history.path()),
        "is not a practice history",
    );
    let odd_verdict = script(
        "time,cards,hand,rules,claim,verdict,seconds,best_prime\n\
         2026-12-01T05:20:22Z,3,1 6 9,five,6*4/8,weird,1,53\n",
    );
    fails_with(
        prime_solve()
            .args(["practice", "--stats", "--history"])
            .arg(odd_verdict.path()),
        "row 2: `weird` is not a verdict: valid, invalid or pass",
    );
    fails_with(
        prime_solve().args(["practice", "--rounds", "18446744073709551616"]),
        "use 1 to 100000",
    );
}

#[test]
fn hostile_lines_are_wrong_claims_not_crashes() {
    let deep = format!("{}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    let mut input = deep.into_bytes();
    input.extend(b"\xff\xfe\n");
    let out = prime_solve()
        .args([
            "practice", "--seed", "1", "--rounds", "2", "--format", "json",
        ])
        .write_stdin(input)
        .assert()
        .success();
    let r = rounds(&out.get_output().stdout);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["fault"], "the claim is longer than 300 characters");
    assert!(
        r[1]["fault"]
            .as_str()
            .unwrap()
            .starts_with("cannot read the claim")
    );
}
