//! `prime-solve advise`: the house-rule advisor's figures agree with the
//! sweep, do not depend on the thread count, and bad input is refused.

mod common;

use common::{fails_with, prime_solve};
use serde_json::Value;

fn advise(extra: &[&str]) -> Vec<u8> {
    prime_solve()
        .args(["advise", "--games", "40", "-q"])
        .args(extra)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn exact_figures_agree_with_the_sweep() {
    let j = json(&advise(&["-f", "json"]));
    assert_eq!(j["schema"], 1);
    let rules = j["house_rules"].as_array().unwrap();
    assert_eq!(rules.len(), 11);
    for r in rules {
        let set = r["rule_set"].as_str().unwrap();
        let exact = &r["exact"];
        assert_eq!(exact["deals"], 24_804, "{set}");
        // The deals that fail with the rule, against `analyze`'s own
        // probability of a failing deal for the rule set.
        let scratch = tempfile::tempdir().unwrap();
        let mut cmd = prime_solve();
        cmd.args(["analyze", "-q", "-f", "json", "-o"])
            .arg(scratch.path());
        cmd.args(flags(set));
        let a = json(&cmd.assert().success().get_output().stdout);
        let failing = exact["failing"][1].as_u64().unwrap();
        let p = a["rule_sets"][0]["failing_probability"]["value"]
            .as_f64()
            .unwrap();
        assert!(
            (failing as f64 / 24_804.0 - p).abs() < 1e-12,
            "{set}: {failing} against {p}"
        );
        assert_eq!(exact["failing"][0], 0, "the rules as written never fail");
        let lineups = r["lineups"].as_array().unwrap();
        assert!(lineups.len() >= 2, "{set}");
        for l in lineups {
            let (turns, changed) = (l["turns"].as_u64().unwrap(), l["changed"].as_u64().unwrap());
            assert!(changed <= turns && turns > 0, "{set}");
            assert_eq!(l["with"]["games"], 40);
        }
        // A player can ignore every rule but the values of face cards.
        let ignorable =
            !set.starts_with("rank") && !set.starts_with("suit") || set.contains("powers");
        assert_eq!(lineups.len() == 3, ignorable, "{set}");
        assert!(r["verdict"].as_str().unwrap().len() > 40);
    }
}

/// The flags of a rule set named like `five-powers-high`.
fn flags(set: &str) -> Vec<String> {
    let mut parts = set.split('-');
    let mut out = vec!["--faces".to_string(), parts.next().unwrap().to_string()];
    let mut functions = Vec::new();
    for p in parts {
        match p {
            "powers" => out.push("--powers".into()),
            "juxtapose" => out.push("--juxtapose".into()),
            "high" => out.push("--high-primes".into()),
            f => functions.push(f.to_string()),
        }
    }
    if !functions.is_empty() {
        out.push("--functions".into());
        out.push(functions.join(","));
    }
    out
}

#[test]
fn the_report_is_the_same_for_any_thread_count() {
    let one = advise(&["-j", "1"]);
    let two = advise(&["-j", "2"]);
    assert_eq!(one, two);
    let text = String::from_utf8(one).unwrap();
    assert!(text.starts_with("# House rules: what each does to Prime Time\n"));
    assert!(text.contains("## Parlett's advice against the numbers"));
    assert!(text.contains("> (Recommended.)"));
    assert_ne!(advise(&["--seed", "2"]), advise(&[]));
}

/// With `--out` the report goes to the file, and where it went is a note on
/// stderr (as for `table`, `crib` and `simulate --study`): stdout is empty.
#[test]
fn the_report_goes_to_the_file_and_the_note_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("house-rules.md");
    let out = prime_solve()
        .args(["advise", "--games", "40", "-q", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let note = String::from_utf8(out.stderr).unwrap();
    assert_eq!(note, format!("report written to {}\n", path.display()));
    let text = std::fs::read(&path).unwrap();
    assert_eq!(text, advise(&[]));
}

/// The report opens with what to take: J Q K as 11 12 13 is left out for
/// the hands it makes fail, named; powers only where everyone knows them;
/// and the face-card verdict looks at three face cards.
#[test]
fn the_report_opens_with_a_recommendation() {
    let text = String::from_utf8(advise(&[])).unwrap();
    let start = text.find("## Recommendation").expect("a recommendation");
    assert!(start < text.find("## At a glance").unwrap());
    assert!(
        text.contains(
            "| Face cards 11, 12, 13 | **leave it**: deals with no prime 0 → 120 (5 8 12, 9 12 12) |"
        ),
        "{text}"
    );
    assert!(text.contains("- Face cards 11, 12, 13 loses 5 8 12, 9 12 12."));
    let powers = text
        .lines()
        .find(|l| l.starts_with("| Powers and roots | **"))
        .unwrap();
    assert!(
        powers.contains("| **take it**: mean primes per deal 3.80 → 4.40"),
        "{powers}"
    );
    assert!(text.contains(
        "over the 220 deals of three face cards the mean number of primes goes 2.00 → 3.56"
    ));
    assert!(text.contains("the winner of a combination takes its cards"));
}

#[test]
fn bad_input_gets_one_line() {
    fails_with(prime_solve().args(["advise", "--games", "0"]), "--games");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("models.toml");
    std::fs::write(&bad, "[[model]]\nname = \"x\"\n").unwrap();
    fails_with(
        prime_solve().args(["advise", "--models"]).arg(&bad),
        "models file",
    );
    fails_with(
        prime_solve().args(["advise", "--models", "/nonexistent/m.toml"]),
        "cannot read the models file",
    );
    let printed = prime_solve()
        .args(["advise", "--print-models"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(
        String::from_utf8(printed)
            .unwrap()
            .contains("name = \"expert\"")
    );
}

#[test]
fn no_finished_game_gives_no_share_and_no_verdict() {
    // With every game stopped at the first turn, the shares read
    // 0.0% (0.0-100.0%) and the verdict on high primes followed from them.
    let out = prime_solve()
        .args(["advise", "--games", "3", "--max-turns", "1", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("expert (no game finished)"), "{text}");
    assert!(!text.contains("0.0-100.0%"), "{text}");
    assert!(!text.contains("Not borne out at this precision"), "{text}");
}
