//! The simulator from the command line: reproducible for any thread count,
//! files written, bad input refused.

use std::fs;

use predicates::prelude::*;

mod common;

use common::{fails_with, prime_solve};

fn games_csv(threads: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    prime_solve()
        .args([
            "simulate",
            "--games",
            "300",
            "--seed",
            "42",
            "--quiet",
            "--threads",
            threads,
            "--out",
        ])
        .arg(&out)
        .args(extra)
        .assert()
        .success()
        .stderr("");
    assert!(out.join("summary.md").is_file());
    assert!(
        fs::read_to_string(out.join("game-length.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    fs::read_to_string(out.join("games.csv")).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_games_for_any_thread_count() {
    for extra in [&[][..], &["--two-player", "--players", "expert,club"][..]] {
        let one = games_csv("1", extra);
        let four = games_csv("4", extra);
        assert_eq!(one, four);
        assert_eq!(one.lines().count(), 301);
        assert!(one.starts_with("game,finished,winner_seat,winner_model,turns,ties,no_calls,no_prime,rebuilds,endgame_turns\n"));
    }
    assert_ne!(
        games_csv("2", &[]),
        games_csv("2", &["--players", "expert,club,novice"])
    );
}

#[test]
fn the_summary_reports_what_the_issue_asks() {
    prime_solve()
        .args([
            "simulate",
            "--games",
            "200",
            "--two-player",
            "--players",
            "expert,expert",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("games: 200 (seed 1), finished"))
        .stdout(predicate::str::contains("turns per finished game: mean"))
        .stdout(predicate::str::contains("ties:"))
        .stdout(predicate::str::contains("nobody called:"))
        .stdout(predicate::str::contains(
            "wins (of finished games): seat 1 expert",
        ))
        .stdout(predicate::str::contains(
            "stockpile rebuilds per finished game",
        ));
}

#[test]
fn bad_player_lists_are_refused() {
    for (args, needle) in [
        (
            &["simulate", "--players", "expert,club"][..],
            "needs 3 to 6",
        ),
        (
            &["simulate", "--two-player", "--players", "expert"][..],
            "exactly 2",
        ),
        (
            &["simulate", "--players", "expert,wizard,club"][..],
            "unknown player model `wizard`",
        ),
        (&["simulate", "--games", "0"][..], "--games"),
    ] {
        fails_with(prime_solve().args(args), needle);
    }
}

#[test]
fn the_study_writes_one_markdown_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("simulation.md");
    prime_solve()
        .args(["simulate", "--study"])
        .arg(&path)
        .args(["--games", "40", "--quiet"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Three experts:"));
    let text = fs::read_to_string(&path).unwrap();
    for scenario in [
        "Three experts",
        "Mixed skills",
        "Two experts, two-player game",
        "high primes and powers",
    ] {
        assert!(text.contains(scenario), "{scenario}");
    }
}
