//! How the tool fits a shell and a pipeline: completions, the manual page,
//! short flags, suggestions, and the JSON every command prints.

mod common;

use common::{fails_with, prime_solve};
use serde_json::Value as Json;

fn stdout(args: &[&str]) -> String {
    let out = prime_solve().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn json(args: &[&str]) -> Json {
    serde_json::from_str(&stdout(args)).unwrap()
}

#[test]
fn completions_know_every_command_and_flag() {
    for shell in ["bash", "zsh", "fish", "tcsh", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        for word in [
            "query",
            "check",
            "analyze",
            "simulate",
            "memory-limit",
            "powers",
        ] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let tcsh = stdout(&["completions", "tcsh"]);
    assert!(
        tcsh.contains("complete prime-solve 'p/1/(query check "),
        "{tcsh}"
    );
    assert!(tcsh.contains("'n/--faces/(five rank suit)/'"), "{tcsh}");
    fails_with(prime_solve().args(["completions", "ksh"]), "ksh");
}

#[test]
fn the_manual_page_is_roff() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH prime-solve 6"), "{}", &page[..200]);
    assert!(page.contains("analyze"));
    // The pages it refers to exist.
    assert!(page.contains("prime\\-solve\\-query(6)"));
    let query = stdout(&["man", "query"]);
    assert!(
        query.contains(".TH prime-solve-query 6"),
        "{}",
        &query[..200]
    );
    assert!(query.contains("memory\\-limit"));
    // Its examples under EXAMPLES, each line as written.
    assert!(
        query.contains(".SH EXAMPLES\n.nf\n  prime\\-solve query 4 6 8\n"),
        "{query}"
    );
    assert!(!query.contains("EXTRA") && !page.contains("EXTRA"));
    fails_with(prime_solve().args(["man", "qeury"]), "no command `qeury`");
    // clap's `help` command has no page: none is referred to or printed.
    assert!(!page.contains("prime\\-solve\\-help"));
    fails_with(prime_solve().args(["man", "help"]), "no command `help`");
}

#[test]
fn short_flags_and_suggestions() {
    let j = json(&["query", "4", "6", "8", "-f", "json"]);
    assert_eq!(j["highest_prime"], 3);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    prime_solve()
        .args(["analyze", "-q", "-j", "1", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("five/hands.csv").is_file());
    fails_with(
        prime_solve().args(["qeury", "4", "6", "8"]),
        "tip: a similar subcommand exists: 'query'",
    );
    fails_with(
        prime_solve().args(["query", "4", "6", "8", "--power"]),
        "'--powers'",
    );
    let help = stdout(&["--help"]);
    assert!(help.contains("Examples:") && help.contains("prime-solve completions bash"));
}

#[test]
fn query_json_carries_schema_and_big_numbers_as_text() {
    let j = json(&[
        "query",
        "2",
        "3",
        "6",
        "--powers",
        "--high-primes",
        "-f",
        "json",
    ]);
    assert_eq!(j["schema"], 1);
    assert_eq!(j["rule_set"], "five-powers-high");
    assert_eq!(j["rules"]["max_value_text"], "18446744073709551615");
    assert_eq!(
        j["rules"]["described"],
        "face cards count 5; + − × ÷; powers and roots; any prime"
    );
    // Present under any prime too (it was left out), null like max_prime.
    let rules = j["rules"].as_object().unwrap();
    assert_eq!(rules.get("max_prime_text"), Some(&serde_json::Value::Null));
    assert_eq!(rules.get("max_prime"), Some(&serde_json::Value::Null));
    let primes = j["primes"].as_array().unwrap();
    for p in primes {
        assert_eq!(p["value_text"], p["value"].to_string());
    }
    assert_eq!(j["highest_prime_text"], j["highest_prime"].to_string());
}

#[test]
fn analyze_json_answers_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let j = json(&[
        "analyze",
        "--faces",
        "rank",
        "-q",
        "-f",
        "json",
        "-o",
        dir.path().join("r").to_str().unwrap(),
    ]);
    assert_eq!(j["schema"], 1);
    let set = &j["rule_sets"][0];
    assert_eq!(set["rule_set"], "rank");
    let failing: Vec<&Json> = set["failing"].as_array().unwrap().iter().collect();
    assert_eq!(failing.len(), 2);
    assert_eq!(failing[0]["hand"], serde_json::json!([5, 8, 12]));
    assert_eq!(failing[0]["probability"]["fraction"], "16/6201");
    assert_eq!(set["failing_probability"]["fraction"], "10/2067");
    assert_eq!(set["highest"]["prime"], 97);
    assert_eq!(j["reports"]["files"], 5);
}

#[test]
fn simulate_json_gives_wins_with_intervals() {
    let j = json(&[
        "simulate",
        "--players",
        "expert,club,novice",
        "--games",
        "40",
        "-q",
        "-f",
        "json",
    ]);
    assert_eq!(j["schema"], 1);
    assert_eq!(j["games"], 40);
    let wins = j["wins"].as_array().unwrap();
    assert_eq!(wins.len(), 3);
    let total: u64 = wins.iter().map(|w| w["wins"].as_u64().unwrap()).sum();
    assert_eq!(total, j["finished"].as_u64().unwrap());
    for w in wins {
        let [lo, hi] = [
            w["interval95"][0].as_f64().unwrap(),
            w["interval95"][1].as_f64().unwrap(),
        ];
        let share = w["share"]["value"].as_f64().unwrap();
        assert!(lo <= share && share <= hi && lo >= 0.0 && hi <= 1.0, "{w}");
    }
}

#[test]
fn table_out_says_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.md");
    let out = prime_solve()
        .args(["table", "--faces", "rank", "-o"])
        .arg(&path)
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        format!(
            "table: 455 hands under rank written to {}\n",
            path.display()
        )
    );
    assert!(out.get_output().stdout.is_empty());
    assert!(std::fs::read_to_string(&path).unwrap().starts_with('#'));
}

#[test]
fn check_and_query_speak_one_vocabulary() {
    let q = json(&["query", "4", "6", "8", "-f", "json"]);
    let valid = json(&["check", "4", "6", "8", "(6 x 4) / 8", "-f", "json"]);
    for key in ["schema", "hand", "rule_set", "rules"] {
        assert_eq!(q[key], valid[key], "{key}");
    }
    assert_eq!(valid["valid"], true);
    assert_eq!(valid["value"], 3);
    assert_eq!(valid["value_text"], "3");
    assert_eq!(valid["fault"], serde_json::Value::Null);
    let out = prime_solve()
        .args(["check", "2", "7", "9", "7*9/2", "-f", "json"])
        .assert()
        .code(1);
    let invalid: Json = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(invalid["valid"], false);
    assert_eq!(invalid["value"], serde_json::Value::Null);
    assert_eq!(invalid["fault_kind"], "inexact");
    assert!(invalid["fault"].as_str().unwrap().contains("not exact"));
}

#[test]
fn ascii_reaches_every_witness_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    prime_solve()
        .args(["analyze", "--faces", "rank", "--ascii", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("rank/hands.csv")).unwrap();
    let summary = std::fs::read_to_string(out.join("rank/summary.md")).unwrap();
    let table = stdout(&["table", "--faces", "rank", "--ascii"]);
    let csv_table = stdout(&["table", "--faces", "rank", "--ascii", "-f", "csv"]);
    // The table's rules line too is ASCII.
    assert!(
        table.contains("Rules: J = 11, Q = 12, K = 13; + - * /;"),
        "{table}"
    );
    for text in [&csv, &summary, &table, &csv_table] {
        // The summary's rules in words keep their symbols; every witness
        // is ASCII.
        let text: String = text
            .lines()
            .filter(|l| !l.starts_with("Rules:"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(text.contains(" * "), "an ASCII product is written");
        for symbol in ['×', '÷', '−', '√'] {
            assert!(!text.contains(symbol), "{symbol} in ASCII output");
        }
    }
    let plain = stdout(&["table", "--faces", "rank"]);
    assert!(plain.contains('×'), "the default stays typographic");
}

#[test]
fn summaries_list_primes_up_to_the_rule_sets_own_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    prime_solve()
        .args(["analyze", "--max-prime", "50", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    let summary = std::fs::read_to_string(out.join("five-max50/summary.md")).unwrap();
    assert!(summary.contains("each prime up to 50."), "{summary}");
    assert!(summary.contains("| 47 |") && !summary.contains("| 53 |"));
}

#[test]
fn values_beyond_64_bits_are_written_as_strings() {
    // 10 1 9 2 with powers and juxtaposition reaches values below −2^63,
    // which no JSON reader takes as a number (this panicked before).
    let j = json(&[
        "query",
        "10",
        "1",
        "9",
        "2",
        "--powers",
        "--juxtapose",
        "--values",
        "-f",
        "json",
    ]);
    let values = j["values"].as_array().unwrap();
    let first = values[0].as_str().expect("below −2^63: a string");
    assert!(first.parse::<i128>().unwrap() < i128::from(i64::MIN));
    let numbers = values.iter().filter(|v| v.is_i64() || v.is_u64()).count();
    assert!(numbers > 0 && numbers < values.len());
}

#[test]
fn memory_limits_are_whole_and_in_range() {
    fails_with(
        prime_solve().args(["query", "4", "6", "8", "--memory-limit", "1.5"]),
        "not a whole number of bytes",
    );
    fails_with(
        prime_solve().args(["query", "4", "6", "8", "--memory-limit", "17179869184G"]),
        "too large",
    );
}

#[test]
fn practice_refuses_endless_or_foreign_input_and_escapes_what_it_echoes() {
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        prime_solve().args(["practice", "--stats", "--history", "/dev/zero"]),
        "is not a regular file",
    );
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "shopping list\n").unwrap();
    fails_with(
        prime_solve()
            .args(["practice", "--rounds", "1", "--history"])
            .arg(&foreign),
        "is not a practice history",
    );
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "shopping list\n"
    );
    // A line that never ends: refused once it passes 1 MiB (the drill has
    // shown the hand by then).
    let endless = vec![b'('; 3 << 20];
    let out = prime_solve()
        .args(["practice", "--rounds", "1"])
        .write_stdin(endless)
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.contains("longer than 1 MiB"), "{stderr}");
    let out = prime_solve()
        .args(["practice", "--seed", "1", "--rounds", "1"])
        .write_stdin("\u{1b}[2J+1\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("\\u{1b}[2J+1"));
}

#[test]
fn the_first_out_endgame_ends_every_game_early() {
    let j = json(&[
        "simulate",
        "--endgame",
        "first-out",
        "--games",
        "60",
        "-q",
        "-f",
        "json",
    ]);
    assert_eq!(j["endgame"], "first-out");
    assert_eq!(j["finished"], 60);
    // Nobody plays on with two cards.
    assert_eq!(j["endgame_rate"]["fraction"], "0");
    let wins: u64 = j["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins + j["draws"].as_u64().unwrap(), 60);
    let plain = json(&["simulate", "--games", "60", "-q", "-f", "json"]);
    assert_eq!(plain["endgame"], "stockpile");
    assert!(
        plain["turns_of_finished"]["median"].as_u64() > j["turns_of_finished"]["median"].as_u64()
    );
    fails_with(
        prime_solve().args(["simulate", "--two-player", "--endgame", "first-out"]),
        "--endgame",
    );
}
