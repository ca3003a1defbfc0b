//! `prime-solve play` driven by a script of timed claims: deterministic
//! games whose every call is ruled by the referee and resolved by the
//! simulator's turn logic, as JSON events and as text.

mod common;

use common::{fails_with, prime_solve};
use predicates::prelude::*;
use serde_json::{Value, json};

fn script(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
}

fn events(args: &[&str], lines: &str) -> (Vec<Value>, Vec<u8>) {
    let s = script(lines);
    let out = prime_solve()
        .arg("play")
        .args(args)
        .args(["--format", "json", "--script"])
        .arg(s.path())
        .assert()
        .success();
    let stdout = out.get_output().stdout.clone();
    let events = String::from_utf8(stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (events, stdout)
}

fn of_kind<'a>(events: &'a [Value], kind: &str, turn: u64) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["event"] == kind && e["turn"] == turn)
        .collect()
}

/// Seed 3, two club bots (the simulator's model, quicker than `play`'s
/// default): 9♣ 2♠ 7♦, then 9♣ K♠ J♦, 2♦ 8♠ 2♥, A♠ 10♠ 5♥.
const GAME: &str = "2000 pass\n1000 9+5+5\n3000 8-2/2\n3000 (10+1)/5\n";

#[test]
fn a_scripted_game_follows_the_rules() {
    let (e, _) = events(&["--seed", "3", "--bots", "club,club"], GAME);
    let deal = &of_kind(&e, "deal", 1)[0];
    assert_eq!(deal["cards"][0], json!({"player": "you", "card": "9♣"}));
    assert_eq!(deal["values"], json!([9, 2, 7]));
    // Turn 1: the bots call 5 within 150 ms of each other and bury.
    let bury = of_kind(&e, "bury", 1);
    assert_eq!(bury[0]["reason"], "tie");
    assert_eq!(bury[0]["players"], json!(["club 1", "club 2"]));
    // Turn 2: the person calls first and takes the cards.
    let call = &of_kind(&e, "call", 2)[0];
    assert_eq!(
        (&call["player"], call["ms"].as_u64()),
        (&json!("you"), Some(1000))
    );
    assert_eq!(of_kind(&e, "verdict", 2)[0]["value"], 19);
    assert_eq!(
        of_kind(&e, "win", 2)[0],
        &json!({"event": "win", "turn": 2, "player": "you", "prime": 19, "cards": ["9♣", "K♠", "J♦"]})
    );
    // Turn 3: club 1 calls 2 at 1.95 s; the person's 7 at 3.0 s is higher
    // and within the 1.5 s window, so it wins.
    let calls = of_kind(&e, "call", 3);
    assert_eq!(calls[0]["player"], "club 1");
    assert_eq!(calls[0]["prime"], 2);
    assert_eq!(of_kind(&e, "win", 3)[0]["player"], "you");
    assert_eq!(of_kind(&e, "win", 3)[0]["prime"], 7);
    // Turn 4: the person's claim is not exact; club 1's 3 stands.
    let verdict = of_kind(&e, "verdict", 4)
        .into_iter()
        .find(|v| v["player"] == "you")
        .unwrap();
    assert_eq!(verdict["valid"], false);
    assert_eq!(of_kind(&e, "win", 4)[0]["player"], "club 1");
    // The script ends the game, by cards held.
    let end = e.last().unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(end["reason"], "script");
    assert_eq!(end["winner"], "you");
    let held: u64 = end["held"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["cards"].as_u64().unwrap())
        .sum();
    assert_eq!(held, 54);
    assert_eq!(end["you"]["valid"], 2);
    assert_eq!(end["you"]["wrong"], 1);
    assert_eq!(end["you"]["won"], 2);
    assert_eq!(end["you"]["passes"], 1);
}

#[test]
fn the_same_seed_and_script_give_the_same_game() {
    let (_, a) = events(&["--seed", "11", "--bots", "expert,novice,club"], GAME);
    let (_, b) = events(&["--seed", "11", "--bots", "expert,novice,club"], GAME);
    assert_eq!(a, b);
    let (_, c) = events(&["--seed", "12", "--bots", "expert,novice,club"], GAME);
    assert_ne!(a, c);
}

#[test]
fn a_wrong_call_is_ruled_and_barred() {
    let (e, _) = events(
        &["--seed", "3", "--bots", "club,club"],
        "2000 pass\n2000 pass\n2000 pass\n3000 10*1+5\n",
    );
    let verdict = of_kind(&e, "verdict", 4)
        .into_iter()
        .find(|v| v["player"] == "you")
        .unwrap();
    assert_eq!(verdict["valid"], false);
    assert_eq!(verdict["fault"], "15 = 3 × 5 is not prime");
    assert_eq!(of_kind(&e, "win", 4)[0]["player"], "club 1");
    assert_eq!(e.last().unwrap()["you"]["wrong"], 1);
}

#[test]
fn a_late_claim_is_not_made() {
    // Turn 2 closes 1.5 s after club 2's 19 at 2.8 s.
    let (e, _) = events(
        &["--seed", "3", "--bots", "club,club"],
        "2000 pass\n9000 9+5+5\n",
    );
    assert!(of_kind(&e, "call", 2).iter().all(|c| c["player"] != "you"));
    assert_eq!(of_kind(&e, "win", 2)[0]["player"], "club 2");
}

#[test]
fn turns_two_player_and_being_out() {
    let passes = "1000 pass\n".repeat(400);
    let (e, _) = events(
        &["--seed", "5", "--turns", "7", "--bots", "club,club"],
        &passes,
    );
    let end = e.last().unwrap();
    assert_eq!(
        (&end["reason"], &end["turns"]),
        (&json!("turns"), &json!(7))
    );
    // Two players: the stockpile is the third card, and a player who never
    // calls loses.
    let (e, _) = events(&["--seed", "5", "--two-player", "--bots", "club"], &passes);
    let deal = &of_kind(&e, "deal", 1)[0];
    assert_eq!(deal["cards"].as_array().unwrap().len(), 3);
    assert_eq!(deal["cards"][2]["player"], "stockpile");
    let end = e.last().unwrap();
    assert_eq!(
        (&end["reason"], &end["winner"]),
        (&json!("won"), &json!("club"))
    );
    // Out of cards: the bots play on to a winner, the last two in the
    // stockpile game (the novice, short of nine cards, loses).
    let (e, _) = events(&["--seed", "5", "--bots", "expert,novice"], &passes);
    let end = e.last().unwrap();
    assert_eq!(end["reason"], "out");
    assert_eq!(end["winner"], "expert");
    assert_eq!(end["held"][0]["cards"], 0);
    assert!(end["held"][2]["cards"].as_u64().unwrap() < 9);
    // --endgame first-out: the game stops as soon as the person is out, the
    // most cards winning.
    let (e, _) = events(
        &[
            "--seed",
            "5",
            "--endgame",
            "first-out",
            "--bots",
            "club,club",
        ],
        &passes,
    );
    let end = e.last().unwrap();
    assert_eq!(end["reason"], "out");
    assert_eq!(end["turns"], 18);
    assert_eq!(end["winner"], "club 1");
    assert_eq!(end["held"][1]["cards"], 36);
    fails_with(
        prime_solve().args(["play", "--two-player", "--endgame", "first-out"]),
        "--endgame",
    );
}

#[test]
fn text_tells_the_game() {
    let s = script(GAME);
    prime_solve()
        .args(["play", "--seed", "3", "--bots", "club,club", "--script"])
        .arg(s.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "turn 1: you 9♣, club 1 2♠, club 2 7♦  (counting 9 2 7)  piles: you 17, club 1 17, club 2 17",
        ))
        .stdout(predicate::str::contains("    1.0 s  you call 9+5+5"))
        .stdout(predicate::str::contains("           valid: 5 = 7 × 2 − 9"))
        .stdout(predicate::str::contains("  you win 9♣ K♠ J♦ with 19"))
        .stdout(predicate::str::contains(
            "the script is over: you hold the most cards after 5 turns",
        ));
}

#[test]
fn bad_input_gets_one_line() {
    fails_with(
        prime_solve().args(["play", "--bots", "club"]),
        "play against 2 to 5 bots",
    );
    fails_with(
        prime_solve().args(["play", "--two-player", "--bots", "club,club"]),
        "one bot",
    );
    fails_with(
        prime_solve().args(["play", "--bots", "grandmaster,club"]),
        "unknown player model",
    );
    // Without a terminal and without a script there is nobody to play.
    fails_with(prime_solve().args(["play", "--seed", "1"]), "--script FILE");
    let s = script("fast 9+5+5\n");
    fails_with(
        prime_solve().args(["play", "--script"]).arg(s.path()),
        "is not a time",
    );
}

/// Without a terminal (here neither input nor output is one) and without
/// a script, play says what it needs.
#[test]
fn play_without_a_terminal_says_what_it_needs() {
    fails_with(
        prime_solve().args(["play", "--seed", "3"]),
        "play needs a terminal on both its input and its output",
    );
}

/// Under the first-out endgame the game ends when you are out: nobody
/// plays on (it said "the bots played on" all the same).
#[test]
fn out_first_under_first_out_ends_the_game() {
    let s = script(&"100 pass\n".repeat(40));
    let run = |endgame: &str| {
        let out = prime_solve()
            .args(["play", "--seed", "1", "--bots", "club,club,novice"])
            .args(["--endgame", endgame, "--script"])
            .arg(s.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let first_out = run("first-out");
    assert!(
        first_out.contains("you are out of cards: club 1 won after 14 turns"),
        "{first_out}"
    );
    assert!(!first_out.contains("played on"), "{first_out}");
    let stockpile = run("stockpile");
    assert!(
        stockpile.contains("you are out of cards: club 1 won after 117 turns"),
        "{stockpile}"
    );
}

/// The default bots are the `casual` level, slower than a person who types
/// a claim in 5 s; `--pause` does not hold up a script, which goes on at
/// once.
#[test]
fn the_default_bots_leave_a_person_time() {
    let (e, _) = events(&["--seed", "3", "--pause", "5"], GAME);
    let deal = &of_kind(&e, "deal", 1)[0];
    assert_eq!(deal["cards"][1]["player"], "casual 1");
    assert_eq!(deal["cards"][2]["player"], "casual 2");
    // No bot calls within 5 s in these five turns (the club players of the
    // same game call from 1.9 s).
    let first_bot = e
        .iter()
        .filter(|c| c["event"] == "call" && c["player"] != "you")
        .map(|c| c["ms"].as_u64().unwrap())
        .min()
        .unwrap();
    assert!(first_bot > 5_000, "{first_bot}");
    let (e, _) = events(
        &["--seed", "3", "--bots", "beginner,casual,steady"],
        "4000 pass\n",
    );
    assert_eq!(of_kind(&e, "deal", 1)[0]["cards"][3]["player"], "steady");
    fails_with(
        prime_solve().args(["play", "--pause", "0", "--seed", "1"]),
        "seconds above 0",
    );
}
