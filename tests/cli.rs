//! The binary as a user meets it: output, exit codes, one-line errors.

mod common;

use common::{fails_with, prime_solve};
use predicates::prelude::*;

#[test]
fn query_prints_primes_with_witnesses() {
    prime_solve()
        .args(["query", "4", "6", "8"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 = (6 × 4) ÷ 8"))
        .stdout(predicate::str::contains("highest prime: 3"));
    prime_solve()
        .args(["query", "4", "6", "8", "--ascii"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 = (6 * 4) / 8"));
}

#[test]
fn query_json_has_the_contracted_keys() {
    let out = prime_solve()
        .args([
            "query", "2", "3", "6", "--powers", "--format", "json", "--values",
        ])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["hand"], serde_json::json!([2, 3, 6]));
    assert_eq!(json["rules"]["powers"], true);
    assert_eq!(json["highest_prime"], 67);
    let primes = json["primes"].as_array().unwrap();
    assert!(
        primes
            .iter()
            .any(|p| p["value"] == 67 && p["witness"] == "2^6 + 3")
    );
    assert!(json["pruned"].as_u64().unwrap() > 0);
    let values: Vec<i64> = json["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_failing_hand_exits_one() {
    prime_solve()
        .args(["query", "4", "5"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no prime"));
    let out = prime_solve()
        .args(["query", "4", "5", "--format", "json"])
        .assert()
        .code(1);
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(json["highest_prime"].is_null());
}

#[test]
fn check_rules_on_claims() {
    prime_solve()
        .args(["check", "4", "6", "8", "(6 x 4) / 8"])
        .assert()
        .success()
        .stdout("valid: (6 x 4) / 8 = 3, a prime\n");
    prime_solve()
        .args(["check", "2", "7", "9", "7*9/2"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("31½ is not an integer"));
    prime_solve()
        .args(["check", "2", "7", "9", "7 + 7 + 2"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("uses 7 twice"));
    prime_solve()
        .args(["check", "2", "3", "6", "2^6 + 3"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("powers and roots are not allowed"));
    prime_solve()
        .args(["check", "7", "13", "1", "7*13*1", "--faces", "rank"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("91 = 7 × 13 is not prime"));
    prime_solve()
        .args(["check", "4", "6", "8", "6 * (4 / 8"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("column 11"));
    prime_solve()
        .args(["check", "QH", "KS", "JK", "(Q+K)/J", "--format", "json"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"valid\": false"));
}

#[test]
fn bad_input_is_one_line_and_exit_two() {
    let fails_with = |args: &[&str], needle: &str| fails_with(prime_solve().args(args), needle);
    fails_with(&["query", "4", "X", "8"], "bad card `X`");
    fails_with(&["query", "4"], "2 to 6 cards, got 1");
    fails_with(&["query", "1", "2", "3", "4", "5", "6", "7"], "got 7");
    fails_with(&["query", "JK", "*"], "Jokers only");
    fails_with(
        &["query", "QH", "2", "Q", "--faces", "suit"],
        "needs its suit",
    );
    fails_with(&["query", "12", "2", "3"], "--faces rank");
    fails_with(
        &["query", "2", "3", "4", "--faces", "royal"],
        "invalid value 'royal'",
    );
    fails_with(
        &[
            "query",
            "2",
            "3",
            "4",
            "--functions",
            "tri",
            "--function-depth",
            "9",
        ],
        "function depth 9",
    );
    fails_with(&["query", "2", "3", "4", "--max-value", "5"], "max value 5");
    fails_with(&["query", "2", "3", "4", "--max-prime", "1"], "max prime 1");
    fails_with(
        &["query", "2", "3", "4", "--high-primes", "--max-prime", "50"],
        "cannot be used with",
    );
    fails_with(
        &["query", "2", "3", "4", "--functions", "cube"],
        "invalid value 'cube'",
    );
    fails_with(&["check", "2", "3"], "3 values required");
    fails_with(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    // Reading one line and closing: the tool must not panic or complain.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("prime-solve"))
        .args([
            "query",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "--values",
            "--max-prime",
            "900",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.code().is_some_and(|c| c == 0));
}

/// The binary with stdout or stderr on `/dev/full`, where every write fails.
fn run_into_full(args: &[&str], stderr_full: bool) -> std::process::Output {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("prime-solve"));
    cmd.args(args);
    if stderr_full {
        cmd.stderr(full()).stdout(std::process::Stdio::null());
    } else {
        cmd.stdout(full()).stderr(std::process::Stdio::piped());
    }
    cmd.output().unwrap()
}

#[test]
fn an_error_that_cannot_be_written_is_still_exit_two() {
    for args in [&["query", "4", "X", "8"][..], &["query", "--bogus"][..]] {
        let out = run_into_full(args, true);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {:?}", out.status);
    }
}

#[test]
fn output_that_cannot_be_written_is_exit_two() {
    for (args, needle) in [
        (&["--help"][..], "cannot write the help"),
        (&["query", "--help"][..], "cannot write the help"),
        (
            &["query", "4", "6", "8"][..],
            "cannot write to standard output",
        ),
    ] {
        let out = run_into_full(args, false);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("prime-solve: "), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
        assert!(stderr.contains("No space left on device"), "{stderr}");
    }
}
