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
        assert!(one.starts_with("game,finished,winner_seat,winner_model,turns,ties,no_calls,no_prime,rebuilds,endgame_turns,endgame_ties,endgame_no_calls\n"));
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
            "wins (of finished games, 95% intervals): seat 1 expert",
        ))
        .stdout(predicate::str::contains(
            "stockpile rebuilds per finished game",
        ));
}

/// `num / den` as a percentage rounded half up to `places` decimals, as
/// the summary prints it: `22.92%`.
fn percent(num: u64, den: u64, places: u32) -> String {
    let scale = 10u128.pow(places);
    let (num, den) = (u128::from(num) * 100, u128::from(den.max(1)));
    let scaled = (num * scale * 2 + den) / (den * 2);
    let (whole, frac) = (scaled / scale, scaled % scale);
    if places == 0 {
        format!("{whole}%")
    } else {
        format!("{whole}.{frac:0w$}%", w = places as usize)
    }
}

/// Mean (one decimal, half up), median, 10th and 90th percentiles (the
/// element at rank (n-1)·p/100 of the sorted list) and the largest.
fn spread(mut xs: Vec<u64>) -> String {
    xs.sort_unstable();
    let n = xs.len() as u64;
    let at = |pct: u64| xs[((n - 1) * pct / 100) as usize];
    let sum: u64 = xs.iter().sum();
    let tenths = (sum * 10 * 2 + n) / (n * 2);
    format!(
        "mean {}.{}, median {}, 10th percentile {}, 90th percentile {}, longest {}",
        tenths / 10,
        tenths % 10,
        at(50),
        at(10),
        at(90),
        xs[xs.len() - 1]
    )
}

/// Runs a seeded simulation of 120 games capped at 800 turns: its stdout,
/// its `summary.md` and its `games.csv`.
fn simulation(players: &[&str], two_player: bool, extra: &[&str]) -> [String; 3] {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut cmd = prime_solve();
    cmd.args([
        "simulate",
        "--games",
        "120",
        "--seed",
        "7",
        "--max-turns",
        "800",
    ])
    .args(["--players", &players.join(",")])
    .args(extra);
    if two_player {
        cmd.arg("--two-player");
    }
    let stdout = cmd
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(stdout).unwrap();
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    let csv = fs::read_to_string(out.join("games.csv")).unwrap();
    [stdout, summary, csv]
}

/// What `games.csv` adds up to, worked out here.
#[derive(Default)]
struct Games {
    finished: u64,
    /// Whether some game did not finish.
    any_unfinished: bool,
    /// The turns and stockpile rebuilds of each finished game.
    turns: Vec<u64>,
    rebuilds: Vec<u64>,
    /// The turns of every game, unfinished ones at the cap.
    every_game: Vec<u64>,
    /// Each seat's wins.
    wins: Vec<u64>,
    /// Turns of all games, and those tied, with no call, with no prime,
    /// in the endgame, and tied or with no call in the endgame.
    all_turns: u64,
    ties: u64,
    no_calls: u64,
    no_prime: u64,
    endgame: u64,
    end_ties: u64,
    end_no_calls: u64,
    /// Each game's opening turns, and the endgame turns of each game that
    /// reached the endgame.
    opening_turns: Vec<u64>,
    endgame_turns: Vec<u64>,
}

/// The games of `csv`, each row checked: consistent counts, a winner for
/// each finished game and none for the others.
fn games(csv: &str, players: &[&str], two_player: bool) -> Games {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (finished_at, seat_at, model_at, turns_at) = (
        col("finished"),
        col("winner_seat"),
        col("winner_model"),
        col("turns"),
    );
    let (ties_at, no_calls_at, no_prime_at) = (col("ties"), col("no_calls"), col("no_prime"));
    let (rebuilds_at, endgame_at) = (col("rebuilds"), col("endgame_turns"));
    let (end_ties_at, end_no_calls_at) = (col("endgame_ties"), col("endgame_no_calls"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 120);
    let num = |row: &Vec<&str>, i: usize| -> u64 { row[i].parse().unwrap() };

    let mut g = Games {
        wins: vec![0u64; players.len()],
        any_unfinished: rows.iter().any(|r| r[finished_at] == "false"),
        ..Games::default()
    };
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[col("game")], i.to_string());
        let t = num(row, turns_at);
        assert!((1..=800).contains(&t), "{row:?}");
        // Ties, turns nobody called and turns with no prime at all are
        // turns; a turn without a prime is one nobody called.
        assert!(num(row, ties_at) <= t, "{row:?}");
        assert!(num(row, no_prime_at) <= num(row, no_calls_at), "{row:?}");
        assert!(num(row, no_calls_at) <= t, "{row:?}");
        assert!(num(row, endgame_at) <= t, "{row:?}");
        g.all_turns += t;
        g.every_game.push(t);
        g.ties += num(row, ties_at);
        g.no_calls += num(row, no_calls_at);
        g.no_prime += num(row, no_prime_at);
        g.endgame += num(row, endgame_at);
        assert!(num(row, end_ties_at) <= num(row, ties_at), "{row:?}");
        assert!(
            num(row, end_no_calls_at) <= num(row, no_calls_at),
            "{row:?}"
        );
        g.end_ties += num(row, end_ties_at);
        g.end_no_calls += num(row, end_no_calls_at);
        // Every game plays the opening; a game reached the endgame when it
        // finished or played endgame turns before the cap.
        g.opening_turns.push(t - num(row, endgame_at));
        if row[finished_at] == "true" || num(row, endgame_at) > 0 {
            g.endgame_turns.push(num(row, endgame_at));
        }
        match row[finished_at] {
            "true" => {
                g.finished += 1;
                g.turns.push(t);
                g.rebuilds.push(num(row, rebuilds_at));
                let seat: usize = row[seat_at].parse().unwrap();
                assert!((1..=players.len()).contains(&seat), "{row:?}");
                assert_eq!(row[model_at], players[seat - 1], "{row:?}");
                g.wins[seat - 1] += 1;
            }
            "false" => {
                // Unfinished games ran to the limit, and the most cards
                // (then the latest combination's winner) win them, if
                // anyone does.
                assert_eq!(t, 800, "{row:?}");
                if let Ok(seat) = row[seat_at].parse::<usize>() {
                    assert_eq!(row[model_at], players[seat - 1], "{row:?}");
                } else {
                    assert_eq!((row[seat_at], row[model_at]), ("", ""), "{row:?}");
                }
            }
            other => panic!("finished = {other}"),
        }
        if !two_player && num(row, endgame_at) == 0 {
            // The stockpile is built only in the endgame.
            assert_eq!(num(row, rebuilds_at), 0, "{row:?}");
        }
    }
    assert_eq!(g.wins.iter().sum::<u64>(), g.finished);
    assert!(g.finished > 0);
    g
}

/// The lines the summary should begin with, from the games: their count,
/// lengths, rates, wins, and the stockpile's rebuilds or the phases.
fn wanted_lines(g: &Games, players: &[&str], two_player: bool) -> Vec<String> {
    let finished = g.finished;
    let mut want = vec![
        format!(
            "games: 120 (seed 7), finished {finished}, unfinished {}",
            120 - finished
        ),
        format!("turns per finished game: {}", spread(g.turns.clone())),
        format!(
            "ties: {} of turns; nobody called: {} (no prime at all: {})",
            percent(g.ties, g.all_turns, 2),
            percent(g.no_calls, g.all_turns, 2),
            percent(g.no_prime, g.all_turns, 2)
        ),
    ];
    let seats: Vec<String> = g
        .wins
        .iter()
        .enumerate()
        .map(|(s, &w)| {
            // The 95% Wilson score interval, written out here.
            let (k, n, z) = (w as f64, finished as f64, 1.959_963_984_540_054_f64);
            let p = k / n;
            let d = 1.0 + z * z / n;
            let c = (p + z * z / (2.0 * n)) / d;
            let h = z / d * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
            format!(
                "seat {} {} {} ({:.1}-{:.1}%)",
                s + 1,
                players[s],
                percent(w, finished, 1),
                (c - h).max(0.0) * 100.0,
                (c + h).min(1.0) * 100.0
            )
        })
        .collect();
    want.push(format!(
        "wins (of finished games, 95% intervals): {}",
        seats.join(", ")
    ));
    if two_player {
        want.push(format!(
            "stockpile rebuilds per finished game: {}",
            spread(g.rebuilds.clone())
        ));
    } else {
        want.push(format!(
            "turns after the first player is out (the endgame): {}",
            percent(g.endgame, g.all_turns, 2)
        ));
        want.push(phases_line(g));
    }
    want
}

/// The summary's line on the opening and the endgame.
fn phases_line(g: &Games) -> String {
    let median = |mut xs: Vec<u64>| {
        xs.sort_unstable();
        xs[(xs.len() - 1) / 2]
    };
    let opening = g.all_turns - g.endgame;
    let bound = |t: u64| {
        if t >= 800 {
            format!("at least {t}")
        } else {
            t.to_string()
        }
    };
    format!(
        "by phase{}: every player in: median {} turns, ties {}, nobody called {}; \
         endgame: median {} turns (of games that reached it), ties {}, nobody called {}",
        if g.any_unfinished {
            ", unfinished games counted as far as they went"
        } else {
            ""
        },
        bound(median(g.opening_turns.clone())),
        percent(g.ties - g.end_ties, opening, 2),
        percent(g.no_calls - g.end_no_calls, opening, 2),
        bound(median(g.endgame_turns.clone())),
        percent(g.end_ties, g.endgame, 2),
        percent(g.end_no_calls, g.endgame, 2),
    )
}

/// The bootstrap intervals on stdout hold the median and the 90th
/// percentile of the finished games; where games are unfinished, the line
/// of every game's length is in `stdout` too, and joins `want`.
fn check_lengths(stdout: &str, g: &Games, want: &mut Vec<String>) {
    // The bootstrap interval holds the median of the finished games.
    let mut finished_turns = g.turns.clone();
    finished_turns.sort_unstable();
    let median = finished_turns[(finished_turns.len() - 1) / 2];
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("turns per finished game, 95% bootstrap intervals: median "))
        .expect("the bootstrap line");
    let (median_part, p90_part) = line.split_once(", 90th percentile ").unwrap();
    let (lo, hi) = median_part.split_once('-').unwrap();
    let (lo, hi): (u64, u64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo <= median && median <= hi, "{lo}-{hi} against {median}");
    let p90 = finished_turns[(finished_turns.len() - 1) * 90 / 100];
    let (lo, hi) = p90_part.split_once('-').unwrap();
    let (lo, hi): (u64, u64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo <= p90 && p90 <= hi, "{lo}-{hi} against {p90}");
    if g.finished < 120 {
        // Unfinished games counted at the cap of 800 turns, a bound.
        let mut every_game = g.every_game.clone();
        every_game.sort_unstable();
        let at = |pct: usize| every_game[(every_game.len() - 1) * pct / 100];
        let bound = |t: u64| {
            if t >= 800 {
                format!("at least {t}")
            } else {
                t.to_string()
            }
        };
        // The median, then its interval (unless at the cap), then the
        // 90th percentile.
        let line = format!(
            "turns per game, the {} unfinished counted at the cap: median {}",
            120 - g.finished,
            bound(at(50)),
        );
        let found = stdout
            .lines()
            .find(|l| l.starts_with(&line))
            .unwrap_or_else(|| panic!("stdout lacks `{line}`:\n{stdout}"));
        assert!(
            found.contains(&format!(", 90th percentile {}", bound(at(90)))),
            "{found}"
        );
        want.push(line);
    }
}

/// Runs a seeded simulation and checks its summary, on stdout and in
/// `summary.md`, against numbers computed here from its `games.csv`:
/// every game accounted for, each row consistent, wins adding up to the
/// finished games, every rate and spread as the rows give it.
fn summary_agrees_with_the_games(players: &[&str], two_player: bool, extra: &[&str]) {
    let [stdout, summary, csv] = simulation(players, two_player, extra);
    let g = games(&csv, players, two_player);
    let mut want = wanted_lines(&g, players, two_player);
    check_lengths(&stdout, &g, &mut want);
    for line in &want {
        assert!(
            stdout.lines().any(|l| l.starts_with(line.as_str())),
            "stdout lacks `{line}`:\n{stdout}"
        );
        assert!(
            summary.lines().any(|l| l.starts_with(&format!("- {line}"))),
            "summary.md lacks `{line}`:\n{summary}"
        );
    }
}

#[test]
fn the_summary_adds_up_from_the_games() {
    summary_agrees_with_the_games(&["expert", "club", "expert"], false, &[]);
    summary_agrees_with_the_games(&["expert", "expert"], true, &[]);
    // Most games cut off at the cap: censored figures read "at least".
    summary_agrees_with_the_games(
        &["expert", "expert", "expert"],
        false,
        &["--endgame", "leading-two"],
    );
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
        .stdout(predicate::str::contains("Three experts:"))
        // Where the file went is a note on stderr, as for `table` and `crib`.
        .stdout(predicate::str::contains("written").not())
        .stderr(predicate::str::contains("study written to"));
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

/// Where no game reached the endgame, the line says so without adding
/// "(of games that reached it)".
#[test]
fn an_endgame_no_game_reached_is_said_plainly() {
    let out = prime_solve()
        .args(["simulate", "--games", "5", "--max-turns", "1", "--quiet"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("endgame: no game reached it, ties"), "{text}");
    assert!(!text.contains("reached it (of games"), "{text}");
}

/// Where no game finished there is no share of wins: the text says so
/// and JSON gives null, where both once gave 0% (0.0-100.0%).
#[test]
fn wins_when_no_game_finished_are_no_share() {
    let run = |format: &str| {
        let out = prime_solve()
            .args([
                "simulate",
                "--games",
                "5",
                "--max-turns",
                "1",
                "--quiet",
                "-f",
                format,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("text");
    assert!(text.contains("\nwins: none, no game finished\n"), "{text}");
    assert!(!text.contains("wins by model"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(json["finished"], 0);
    let wins = json["wins"].as_array().unwrap();
    assert_eq!(wins.len(), 3);
    for w in wins {
        assert_eq!(
            (&w["wins"], &w["share"], &w["interval95"]),
            (
                &0.into(),
                &serde_json::Value::Null,
                &serde_json::Value::Null
            )
        );
    }
    // With a finished game the share is there.
    let out = prime_solve()
        .args(["simulate", "--games", "2", "--quiet", "-f", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["wins"][0]["share"].is_object(), "{json}");
    assert!(json["wins"][0]["interval95"].is_array(), "{json}");
}
