//! The committed reports are reproducible, identical for any thread count,
//! consistent with the oracle, and written all or nothing.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::oracle::{Oracle, is_prime_naive};
use common::{fails_with, prime_solve};
use prime_solve::Ratio;
use prime_solve::analysis::{all_rule_sets, analyze};
use prime_solve::deal;
use prime_solve::{Faces, Rules};

/// Every file below `dir`, by relative path.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                out.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn analyze_all(out: &Path, threads: &str) {
    prime_solve()
        .args([
            "analyze",
            "--all-rules",
            "--quiet",
            "--threads",
            threads,
            "--out",
        ])
        .arg(out)
        .assert()
        .success()
        .stderr("");
}

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reports")
}

/// Puts beside `out`'s index the committed reports it links to (the
/// tables, crib sheets, simulations, advice and larger sweeps), as the
/// README's commands leave them in `reports/`.
fn companions_beside(out: &Path) {
    for c in prime_solve::report::index::COMPANIONS {
        for f in c.files {
            let to = out.join(f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(committed().join(f), &to).unwrap();
        }
    }
}

/// `analyze --all-rules` with 2 threads, written once for every test that
/// reads it, beside the committed companions its index links to: a folder
/// of `target/tmp` named for this process (those of processes gone are
/// removed).
fn sweep() -> &'static Path {
    static SWEEP: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SWEEP.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        fs::create_dir_all(tmp).unwrap();
        for entry in fs::read_dir(tmp).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("reports-sweep-")
                && !Path::new("/proc").join(pid).exists()
            {
                let _ = fs::remove_dir_all(&path);
            }
        }
        let out = tmp.join(format!("reports-sweep-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        companions_beside(&out);
        analyze_all(&out, "2");
        out
    })
}

#[test]
fn committed_reports_are_what_the_commands_write() {
    let dir = tempfile::tempdir().unwrap();
    let mut fresh = tree(sweep());
    for (faces, name) in [("five", "table-five.md"), ("rank", "table-rank.md")] {
        let path = dir.path().join(name);
        prime_solve()
            .args(["table", "--faces", faces, "--out"])
            .arg(&path)
            .assert()
            .success();
        fresh.insert(PathBuf::from(name), fs::read(&path).unwrap());
    }
    let saved = tree(&committed());
    for (path, bytes) in &fresh {
        let old = saved
            .get(path)
            .unwrap_or_else(|| panic!("{} is not committed", path.display()));
        assert!(
            old == bytes,
            "{} differs: regenerate reports/ (README)",
            path.display()
        );
    }
    for path in saved.keys() {
        let ours = path.components().count() == 1 || fresh.contains_key(path);
        assert!(
            ours || path.starts_with("simulation")
                || path.starts_with("cards-4")
                || path.starts_with("cards-5")
                || path.starts_with("cards-6"),
            "{} is not generated",
            path.display()
        );
    }
}

/// `analyze --cards K --summaries-only` under each of `rule_sets`, against
/// the committed summaries of `reports/cards-K`.
fn summaries_are_committed(cards: &str, rule_sets: &[&[&str]]) {
    let saved = committed().join(format!("cards-{cards}"));
    for rules in rule_sets {
        let dir = tempfile::tempdir().unwrap();
        prime_solve()
            .args(["analyze", "--cards", cards, "--summaries-only", "-q", "-o"])
            .arg(dir.path())
            .args(*rules)
            .assert()
            .success();
        let fresh = tree(dir.path());
        // Summaries only: no hands.csv, no plot.
        assert!(
            fresh
                .keys()
                .all(|p| p.ends_with("summary.md") || p == Path::new("README.md"))
        );
        for (path, bytes) in fresh.iter().filter(|(p, _)| p.ends_with("summary.md")) {
            let old = fs::read(saved.join(path))
                .unwrap_or_else(|_| panic!("cards-{cards}/{} is not committed", path.display()));
            assert!(
                old == *bytes,
                "cards-{cards}/{} differs: regenerate it (README)",
                path.display()
            );
        }
    }
}

/// Four cards under a few rule sets, against the committed summaries of
/// `reports/cards-4` (the whole sweep, index included, is the ignored test
/// below: about a minute of CPU).
#[test]
fn the_committed_four_card_summaries_are_what_the_command_writes() {
    summaries_are_committed(
        "4",
        &[
            &["--faces", "five"],
            &["--faces", "rank"],
            &["--faces", "suit", "--powers"],
        ],
    );
    let index = fs::read_to_string(committed().join("cards-4/README.md")).unwrap();
    assert!(index.contains("every hand of four cards"));
    assert!(index.contains("None of the 72 rule sets below has a hand that fails."));
}

/// Five cards under two rule sets (two more with T ! √ in `full::`, one
/// of them with any prime, where the census stops at 97), against
/// `reports/cards-5` (the whole sweep is ignored: minutes).
#[test]
fn the_committed_five_card_summaries_are_what_the_command_writes() {
    summaries_are_committed(
        "5",
        &[
            &["--faces", "five"],
            &["--faces", "suit", "--juxtapose", "--high-primes"],
        ],
    );
    let index = fs::read_to_string(committed().join("cards-5/README.md")).unwrap();
    assert!(index.contains("every hand of five cards"));
    assert!(index.contains("None of the 72 rule sets below has a hand that fails."));
    // Counted where it is cheap, screened under any prime with functions.
    assert!(index.contains("| [rank-powers-juxtapose-high-5cards](rank-powers-juxtapose-high-5cards/summary.md) | 6188 | 0 | 0 | "));
    assert_eq!(
        index.matches("| not counted ‡ | not counted ‡ |").count(),
        24
    );
}

/// Six cards under two quick rule sets, against `reports/cards-6`, and the
/// index's answer: all 72 rule sets done, none with a failing hand (the
/// sweep is ignored: about 10,158 s of CPU and 7.8 GB).
#[test]
fn the_committed_six_card_summaries_are_what_the_command_writes() {
    summaries_are_committed("6", &[&["--faces", "rank"], &["--juxtapose"]]);
    let index = fs::read_to_string(committed().join("cards-6/README.md")).unwrap();
    assert!(index.contains("every hand of six cards"));
    assert!(index.contains("None of the 72 rule sets below has a hand that fails."));
    assert!(!index.contains("not done"));
    // Six cards under T ! √ with J Q K = 11 12 13, refused for memory
    // before the four-card tables were cut.
    assert!(
        index.contains("| [rank-tri-fact-sqrt-6cards](rank-tri-fact-sqrt-6cards/summary.md) |")
    );
}

/// `analyze --cards K --all-rules --summaries-only ARGS` writes exactly the
/// committed `reports/cards-K`.
fn sweep_is_committed(cards: &str, args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    prime_solve()
        .args([
            "analyze",
            "--cards",
            cards,
            "--all-rules",
            "--summaries-only",
            "-q",
            "-o",
        ])
        .arg(dir.path())
        .args(args)
        .assert()
        .success();
    assert_eq!(
        tree(dir.path()),
        tree(&committed().join(format!("cards-{cards}")))
    );
}

#[test]
#[ignore = "the whole four-card sweep: about a minute of CPU"]
fn the_committed_four_card_reports_are_what_the_command_writes() {
    sweep_is_committed("4", &[]);
}

#[test]
#[ignore = "the five-card sweep: about 9 minutes of CPU"]
fn the_committed_five_card_reports_are_what_the_command_writes() {
    sweep_is_committed("5", &[]);
}

#[test]
#[ignore = "the six-card sweep: about 10,158 s of CPU and 7.8 GB"]
fn the_committed_six_card_reports_are_what_the_command_writes() {
    sweep_is_committed("6", &["--skip-refused"]);
}

/// The rule sets of [`sweep`] that the quick run writes again with 1 and 8
/// threads: the lightest and the heaviest search.
const BY_THREADS: [&[&str]; 2] = [
    &["--faces", "five"],
    &[
        "--faces",
        "rank",
        "--powers",
        "--juxtapose",
        "--functions",
        "tri,fact,sqrt",
        "--high-primes",
    ],
];

/// Two rule sets written with 1 and 8 threads are the bytes [`sweep`]
/// wrote with 2 (the whole sweep is `full::`).
#[test]
fn reports_are_the_same_bytes_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let shared = tree(sweep());
    for (i, rules) in BY_THREADS.iter().enumerate() {
        for threads in ["1", "8"] {
            let out = dir.path().join(format!("{i}-{threads}"));
            prime_solve()
                .args(["analyze", "--quiet", "--threads", threads, "--out"])
                .arg(&out)
                .args(*rules)
                .assert()
                .success()
                .stderr("");
            let mut written = 0;
            for (path, bytes) in tree(&out) {
                if path.components().count() > 1 {
                    assert!(shared[&path] == bytes, "{} with {threads}", path.display());
                    written += 1;
                }
            }
            assert!(written >= 3, "{rules:?}: {written} files");
        }
    }
}

mod full {
    use super::*;

    /// The simulation study, half a minute of CPU.
    #[test]
    fn the_committed_simulation_study_is_reproducible() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("simulation.md");
        prime_solve()
            .args(["simulate", "--quiet", "--games", "2000", "--study"])
            .arg(&path)
            .assert()
            .success();
        let fresh = fs::read_to_string(&path).unwrap();
        let saved = fs::read_to_string(committed().join("simulation.md")).unwrap();
        assert!(
            fresh == saved,
            "reports/simulation.md differs: regenerate it (README)"
        );
    }

    /// Five cards under T ! √, with a ceiling and without.
    #[test]
    fn the_committed_five_card_summaries_with_every_function_are_what_the_command_writes() {
        summaries_are_committed(
            "5",
            &[
                &["--faces", "five", "--functions", "tri,fact,sqrt"],
                &[
                    "--faces",
                    "five",
                    "--functions",
                    "tri,fact,sqrt",
                    "--high-primes",
                ],
            ],
        );
    }

    /// The advisor's report, a minute of CPU.
    #[test]
    fn the_committed_house_rule_report_is_reproducible() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("house-rules.md");
        prime_solve()
            .args(["advise", "--quiet", "--out"])
            .arg(&path)
            .assert()
            .success();
        let fresh = fs::read_to_string(&path).unwrap();
        let saved = fs::read_to_string(committed().join("house-rules.md")).unwrap();
        assert!(
            fresh == saved,
            "reports/house-rules.md differs: regenerate it (README)"
        );
    }

    /// The whole sweep written with 1 and 8 threads is the bytes
    /// [`sweep`] wrote with 2.
    #[test]
    fn every_report_is_the_same_bytes_for_any_thread_count() {
        let dir = tempfile::tempdir().unwrap();
        let shared = tree(sweep());
        assert!(shared.len() > 200);
        for threads in ["1", "8"] {
            let out = dir.path().join(format!("threads-{threads}"));
            companions_beside(&out);
            analyze_all(&out, threads);
            assert!(tree(&out) == shared, "{threads} threads");
        }
    }

    /// Five-card hands screened under T ! √, as under T in the quick run.
    #[test]
    fn a_screened_census_of_five_cards_under_every_function_answers_as_the_complete_one() {
        screened_five_cards_agree(prime_solve::Functions::ALL);
    }

    /// The sweep that leaves out what does not fit writes the same bytes
    /// every time.
    #[test]
    fn a_sweep_skipping_the_rule_sets_that_do_not_fit_is_the_same_every_time() {
        assert!(skipping_sweep().1 == skipping_sweep().1);
    }
}

#[test]
fn weights_sum_to_one_and_hand_counts_match() {
    for rules in all_rule_sets().into_iter().filter(|r| r.name().len() <= 5) {
        let a = analyze(rules, 3, &prime_solve::Budget::unlimited(), &|_| {}).unwrap();
        let sum = a.hands.iter().fold(Ratio::ZERO, |acc, h| acc + a.weight(h));
        assert_eq!(sum, Ratio::ONE, "{}", rules.name());
        let expected = if rules.faces == Faces::Rank { 455 } else { 220 };
        assert_eq!(a.hands.len(), expected);
    }
}

/// The primes column of committed `hands.csv` files against the oracle.
#[test]
fn committed_hands_csv_agrees_with_the_oracle() {
    for rules in [
        Rules::default(),
        Rules {
            faces: Faces::Rank,
            ..Rules::default()
        },
        Rules {
            faces: Faces::Suit,
            powers: true,
            ..Rules::default()
        },
        Rules {
            faces: Faces::Rank,
            juxtapose: true,
            max_prime: None,
            ..Rules::default()
        },
    ] {
        let oracle = Oracle::new(&rules);
        let csv = fs::read_to_string(committed().join(rules.name()).join("hands.csv")).unwrap();
        let mut rows = csv::Reader::from_reader(csv.as_bytes());
        let (dealt, _) = deal(3, rules.faces);
        let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), dealt.len());
        for (record, d) in records.iter().zip(&dealt) {
            assert_eq!(&record[0], d.hand.to_string());
            let want: Vec<String> = oracle
                .values(&d.hand.values())
                .into_iter()
                .filter(|&v| is_prime_naive(v) && rules.allows_prime(v))
                .map(|p| p.to_string())
                .collect();
            assert_eq!(
                &record[4],
                want.join(" "),
                "{} under {}",
                d.hand,
                rules.name()
            );
            assert_eq!(record[3].parse::<usize>().unwrap(), want.len());
            // The ways: one count per prime, each at least 1 (the counts
            // themselves are checked against the definition in
            // tests/ways.rs), and the difficulty they give, as the library
            // counts them.
            let ways =
                prime_solve::ways::Ways::count(d.hand, &rules, prime_solve::Budget::unlimited())
                    .unwrap();
            let counts: Vec<String> = ways
                .primes
                .iter()
                .map(|(_, w)| w.len().to_string())
                .collect();
            assert_eq!(
                &record[5],
                counts.join(" "),
                "{} under {}",
                d.hand,
                rules.name()
            );
            assert!(counts.iter().all(|c| c != "0"));
            let difficulty = ways.difficulty();
            let expected = match (difficulty.score(), difficulty.is_hard()) {
                (Some(s), true) => format!("{s:.1} hard"),
                (Some(s), false) => format!("{s:.1}"),
                (None, _) => "hard".to_string(),
            };
            assert_eq!(&record[11], expected, "{} under {}", d.hand, rules.name());
        }
    }
}

#[test]
fn a_failed_write_leaves_earlier_reports_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("README.md"), "earlier").unwrap();
    // A file where the rule set's folder must go makes the write fail even
    // for root, who ignores read-only permissions.
    fs::write(out.join("five"), "in the way").unwrap();
    fails_with(
        prime_solve()
            .args(["analyze", "--quiet", "--out"])
            .arg(&out),
        "cannot write reports",
    );
    assert_eq!(
        fs::read_to_string(out.join("README.md")).unwrap(),
        "earlier"
    );
    assert_eq!(fs::read_dir(&out).unwrap().count(), 2);
}

#[test]
fn a_missing_parent_folder_is_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("missing/reports");
    fails_with(
        prime_solve()
            .args(["analyze", "--quiet", "--out"])
            .arg(&out),
        "does not exist",
    );
    assert!(!out.exists());
}

#[test]
fn analyze_prints_one_answer_per_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    prime_solve()
        .args(["analyze", "--faces", "rank", "--quiet", "--out"])
        .arg(dir.path().join("r"))
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "rank: 2 hands fail (probability 10/2067 (0.484%) per deal): 5 8 12, 9 12 12",
        ));
}

/// Five cards under any prime with T: the census stops at 97, but not
/// under a bound of 1000 (at most 168 primes) or with `--count-every-prime`
/// (whose search at the full bound is too large for a test: see
/// tests/memory.rs). The screened `hands.csv` lists no prime above 97 and
/// leaves the count empty for the hands not counted.
#[test]
fn the_census_stops_at_97_under_any_prime_with_functions() {
    let run = |extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let out = prime_solve()
            .args([
                "analyze",
                "--cards",
                "5",
                "--functions",
                "tri",
                "--high-primes",
            ])
            .args(["-q", "--format", "json", "-o"])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let a = json["rule_sets"][0].clone();
        let csv = fs::read_to_string(
            dir.path()
                .join(a["rule_set"].as_str().unwrap())
                .join("hands.csv"),
        )
        .unwrap();
        (a, csv)
    };
    let (screened, csv) = run(&[]);
    assert_eq!(screened["screen"], 97);
    assert_eq!(screened["counted"], false);
    assert!(screened["mean_primes"].is_null() && screened["highest"].is_null());
    assert!(screened["failing"].as_array().unwrap().is_empty());
    let mut uncounted = 0;
    for row in csv.lines().skip(1) {
        let fields: Vec<&str> = row.split(',').collect();
        assert!(
            fields[4]
                .split(' ')
                .all(|p| p.parse::<u64>().unwrap() <= 97),
            "{row}"
        );
        if fields[3].is_empty() {
            uncounted += 1;
            assert!(fields[5..].iter().all(|f| f.is_empty()), "{row}");
        }
    }
    assert!(uncounted > 0);
    let (bounded, _) = run(&["--max-value", "1000"]);
    assert!(bounded["screen"].is_null() && bounded["counted"] == true);
    assert!(!bounded["mean_primes"].is_null());
}

/// The three-card sweep with T ! √ nested three deep under a limit of 40M
/// and one thread, the options before the output folder.
const SKIPPING_ARGS: [&str; 13] = [
    "analyze",
    "--cards",
    "3",
    "--all-rules",
    "--function-depth",
    "3",
    "--summaries-only",
    "--threads",
    "1",
    "--memory-limit",
    "40M",
    "-q",
    "-o",
];

/// [`SKIPPING_ARGS`] with `--skip-refused`: its answers and its files.
fn skipping_sweep() -> (serde_json::Value, BTreeMap<PathBuf, Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let out = prime_solve()
        .args(SKIPPING_ARGS)
        .arg(dir.path())
        .args(["--skip-refused", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (json, tree(dir.path()))
}

/// Under a limit that the 24 rule sets with T ! √ nested three deep do not
/// fit, `--skip-refused` writes the other 48 and lists those 24 (the same
/// bytes every time: `full::`); without it the run is refused.
#[test]
fn a_sweep_can_skip_the_rule_sets_that_do_not_fit() {
    let refused = tempfile::tempdir().unwrap();
    fails_with(
        prime_solve()
            .args(SKIPPING_ARGS)
            .arg(refused.path().join("x")),
        "not enough memory",
    );
    assert!(!refused.path().join("x").exists());
    let (json, files) = skipping_sweep();
    let names = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["rule_set"].as_str().unwrap().to_string())
            .collect()
    };
    let (done, not_done) = (names("rule_sets"), names("not_done"));
    assert_eq!((done.len(), not_done.len()), (48, 24));
    assert!(not_done.iter().all(|n| n.contains("-tri-fact-sqrt-depth3")));
    assert!(
        json["not_done"][0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("not enough memory")
    );
    for name in &done {
        assert!(
            files.contains_key(&PathBuf::from(name).join("summary.md")),
            "{name}"
        );
    }
    assert!(!files.keys().any(|p| p.starts_with(&not_done[0])));
    let index = String::from_utf8(files[Path::new("README.md")].clone()).unwrap();
    assert!(index.contains("- 24 rule sets were not done: they do not fit in memory"));
    assert!(index.contains(&format!("| {} | not enough memory", not_done[0])));
}

#[test]
fn table_prints_markdown_and_csv() {
    let md = prime_solve().args(["table"]).assert().success();
    let text = String::from_utf8(md.get_output().stdout.clone()).unwrap();
    assert!(text.contains("| 4 6 8 |"));
    assert!(text.contains("## Find a hand"));
    assert!(text.contains("## Which hands make each prime"));
    let csv = prime_solve()
        .args(["table", "--format", "csv", "--faces", "rank"])
        .assert()
        .success();
    let text = String::from_utf8(csv.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with(
        "hand,weight,highest_prime,highest_witness,simplest_prime,simplest_witness,difficulty\n"
    ));
    assert!(text.contains("\n9 12 12,14/6201,,,,,hard\n"));
    // 4 6 8: 2 three ways (weights 2, 3, 3) and 3 one way (weight 4):
    // −log2(1/4 + 1/8 + 1/8 + 1/16) = 0.8, not hard.
    assert!(text.contains("\n4 6 8,"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("4 6 8,") && l.ends_with(",0.8"))
    );
    // 4 6 10: 5 = 10 ÷ (6 − 4), one way weighing 3: hard.
    assert!(
        text.lines()
            .any(|l| l.starts_with("4 6 10,") && l.ends_with(",3.0 hard"))
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("2 3 6,") && !l.ends_with("hard"))
    );
    assert_eq!(text.lines().count(), 456);
}

#[test]
fn tables_for_classrooms_bracket_every_compound_operand() {
    let minimal = prime_solve().args(["table"]).assert().success();
    let minimal = String::from_utf8(minimal.get_output().stdout.clone()).unwrap();
    assert!(minimal.contains("| 8 8 10 | 2/2067 (0.097%) | 11 = 10 + 8 ÷ 8 |"));
    let full = prime_solve()
        .args(["table", "--brackets", "full"])
        .assert()
        .success();
    let full = String::from_utf8(full.get_output().stdout.clone()).unwrap();
    assert!(full.contains("| 8 8 10 | 2/2067 (0.097%) | 11 = 10 + (8 ÷ 8) |"));
    assert!(full.contains("7 = 8 − (1 × 1)"));
    assert!(!full.contains("10 + 8 ÷ 8"));
}

#[test]
fn rule_sets_sharing_a_search_match_their_own_analyses() {
    let rank = Rules {
        faces: Faces::Rank,
        ..Rules::default()
    };
    let sets = [
        Rules {
            max_prime: None,
            ..rank
        },
        rank,
        Rules {
            max_prime: Some(13),
            ..rank
        },
        Rules {
            powers: true,
            ..rank
        },
        Rules {
            powers: true,
            max_prime: None,
            ..rank
        },
    ];
    let shared =
        prime_solve::analysis::analyze_all(&sets, 3, &prime_solve::Budget::unlimited(), &|_| {})
            .unwrap();
    for (rules, together) in sets.iter().zip(&shared) {
        let alone = analyze(*rules, 3, &prime_solve::Budget::unlimited(), &|_| {}).unwrap();
        assert_eq!(together.rules, *rules);
        assert!(together.hands == alone.hands, "{}", rules.name());
    }
}

/// A census of `cards`-card hands under `sets`, screened at `at` where a
/// rule set has any prime, against the complete one: the same failing
/// hands, single-prime hands and chances of each prime up to the screen,
/// each hand's primes up to the screen, and the full answers wherever it
/// counted. Returns how many hands were counted in full, how many not, and
/// how many of the counted made primes beyond the screen.
fn assert_screen_agrees(sets: &[Rules], cards: usize, at: u64) -> (usize, usize, usize) {
    assert_screen_agrees_with(&complete_census(sets, cards), at)
}

/// The complete census of `cards`-card hands under `sets`.
fn complete_census(sets: &[Rules], cards: usize) -> Vec<prime_solve::analysis::Analysis> {
    use prime_solve::analysis::{Pruned, analyze_screened};
    analyze_screened(
        sets,
        cards,
        &|_| None,
        Pruned::Counted,
        &prime_solve::Budget::unlimited(),
        &|_| {},
    )
    .unwrap()
}

/// [`assert_screen_agrees`] against a complete census already made.
fn assert_screen_agrees_with(
    complete: &[prime_solve::analysis::Analysis],
    at: u64,
) -> (usize, usize, usize) {
    use prime_solve::analysis::{HandResult, Pruned, analyze_screened};
    let sets: Vec<Rules> = complete.iter().map(|a| a.rules).collect();
    let cards = complete[0].hands[0].hand.len();
    let screen = |r: &Rules| r.max_prime.is_none().then_some(at);
    let screened = analyze_screened(
        &sets,
        cards,
        &screen,
        Pruned::Counted,
        &prime_solve::Budget::unlimited(),
        &|_| {},
    )
    .unwrap();
    let (mut counted, mut skipped, mut beyond) = (0, 0, 0);
    for (full, part) in complete.iter().zip(&screened) {
        let name = full.folder();
        assert_eq!(full.rules, part.rules);
        assert_eq!(part.screen, screen(&full.rules));
        assert_eq!(full.hands.len(), part.hands.len(), "{name}");
        for (f, p) in full.hands.iter().zip(&part.hands) {
            assert_eq!(f.hand, p.hand);
            let upto: Vec<_> = match part.screen {
                Some(s) => f
                    .primes
                    .iter()
                    .copied()
                    .filter(|&q| q <= i128::from(s))
                    .collect(),
                None => f.primes.clone(),
            };
            assert_eq!(p.primes, upto, "{name} {}", f.hand);
            match p.prime_count() {
                Some(n) => {
                    counted += 1;
                    beyond += usize::from(p.beyond > Some(0));
                    assert_eq!(Some(n), f.prime_count(), "{name} {}", f.hand);
                    assert_eq!(p.highest, f.highest, "{name} {}", f.hand);
                    assert_eq!(p.simplest, f.simplest, "{name} {}", f.hand);
                    assert_eq!(p.values, f.values, "{name} {}", f.hand);
                }
                None => {
                    skipped += 1;
                    assert!(p.primes.len() > 1, "{name} {}", f.hand);
                    assert!(p.highest.is_none() && p.simplest.is_none());
                }
            }
        }
        let hands =
            |i: &mut dyn Iterator<Item = &HandResult>| i.map(|h| h.hand).collect::<Vec<_>>();
        assert_eq!(
            hands(&mut full.failing()),
            hands(&mut part.failing()),
            "{name}"
        );
        assert_eq!(
            hands(&mut full.single()),
            hands(&mut part.single()),
            "{name}"
        );
        let upto = i128::from(part.screen.or(part.rules.max_prime).unwrap_or(97));
        assert_eq!(
            full.prime_probabilities(upto),
            part.prime_probabilities(upto),
            "{name}"
        );
        if part.screen.is_none() {
            assert_eq!(part.hands, full.hands, "{name}");
        } else if part.counted() {
            assert_eq!(part.mean_primes(), full.mean_primes(), "{name}");
            let top =
                |a: &prime_solve::analysis::Analysis| a.highest().map(|(h, c)| (h.hand, c.clone()));
            assert_eq!(top(part), top(full), "{name}");
        } else {
            assert!(part.mean_primes().is_none() && part.highest().is_none());
        }
    }
    (counted, skipped, beyond)
}

/// Three-card hands, screened at 13 so that they take both paths.
#[test]
fn a_screened_census_answers_as_the_complete_one() {
    use prime_solve::Functions;
    let any = Rules {
        max_prime: None,
        ..Rules::default()
    };
    let sets = [
        Rules {
            functions: Functions::TRI,
            ..any
        },
        Rules {
            faces: Faces::Rank,
            powers: true,
            ..any
        },
        Rules {
            faces: Faces::Rank,
            ..Rules::default()
        },
    ];
    let (counted, skipped, beyond) = assert_screen_agrees(&sets, 3, 13);
    // Both paths were taken, and the full searches found primes beyond 13.
    assert!(
        counted > 0 && skipped > 0 && beyond > 0,
        "{counted} {skipped} {beyond}"
    );
}

/// Five-card hands (searched for their primes alone) under T (T ! √ in
/// the full run) with a bound of 1000, where counting every prime is
/// quick: a rule set with any prime shares its search with one of another
/// face and a ceiling. Screened at 97, as the reports are, and at 2, where
/// every hand is searched in full.
#[test]
fn a_screened_census_of_five_cards_answers_as_the_complete_one() {
    screened_five_cards_agree(prime_solve::Functions::TRI);
}

fn screened_five_cards_agree(functions: prime_solve::Functions) {
    let small = Rules {
        max_value: 1000,
        functions,
        ..Rules::default()
    };
    let sets: Vec<Rules> = [
        (Faces::Five, None),
        (Faces::Suit, Some(97)),
        (Faces::Suit, None),
    ]
    .into_iter()
    .map(|(faces, max_prime)| Rules {
        faces,
        max_prime,
        ..small
    })
    .collect();
    let complete = complete_census(&sets, 5);
    let (_, skipped, _) = assert_screen_agrees_with(&complete, 97);
    assert!(skipped > 0);
    let (counted, skipped, beyond) = assert_screen_agrees_with(&complete, 2);
    assert!(
        counted > 0 && skipped == 0 && beyond > 0,
        "{counted} {skipped} {beyond}"
    );
}

/// What a person sees in the committed reports: the index's wording, the
/// plots' legends and notes, grouped tables, one way of writing chances.
#[test]
fn committed_reports_read_well() {
    let read = |path: &str| fs::read_to_string(committed().join(path)).unwrap();
    let index = read("README.md");
    assert!(index.contains("Of the 72 rule sets below, 8 have a hand that fails."));
    assert!(index.contains("a deal fails with probability 10/2067 (0.484%)"));
    assert!(index.contains("](table-five.md)") && index.contains("](table-rank.md)"));
    assert!(index.contains("](crib-five.pdf)") && index.contains("](crib-rank.pdf)"));
    for linked in [
        "table-five.md",
        "table-rank.md",
        "crib-five.pdf",
        "crib-rank.pdf",
        "simulation.md",
        "house-rules.md",
        "cards-4/README.md",
    ] {
        assert!(
            std::path::Path::new("reports").join(linked).is_file(),
            "{linked} is linked but missing"
        );
    }
    assert!(index.contains("](simulation.md)"));
    assert!(index.contains("](house-rules.md)"));
    // The highest prime with functions and no ceiling is set by the bound.
    assert!(index.contains("| 19916886627792001 † |"));
    assert!(index.contains("| 109 |"));
    assert!(index.contains("*below the value bound* (2^64 − 1)"));

    let rank = read("rank/summary.md");
    assert!(rank.contains("| 5 8 12 | 16/6201 (0.258%) |"));
    assert!(rank.contains("| 0 | 2 | 10/2067 (0.484%) |"));
    assert!(!rank.contains("below the value bound"));

    // ~150 prime counts under every rule: 0-9 one by one, then by ten.
    let rich = read("rank-powers-juxtapose-tri-fact-sqrt-high/summary.md");
    let section = rich
        .split("## Primes per deal")
        .nth(1)
        .unwrap()
        .split("Mean primes")
        .next()
        .unwrap();
    let rows = section.lines().filter(|l| l.starts_with("| ")).count();
    assert!(rows <= 25, "{rows} rows");
    assert!(section.contains("| 10-19 | 39 | 356/6201 (5.741%) |"));
    assert!(section.contains("| 140-149 |"));
    assert!(rich.contains("the highest prime *below the value bound*"));

    let grid = read("rank-powers-juxtapose-tri-fact-sqrt-high/grid.svg");
    for text in [
        "Colour: the hand&apos;s highest prime",
        "10 to 20 digits",
        "A cell like 8d: a prime of 8 digits,",
        "two lower cards",
        "third card",
        "J, Q and K count 11, 12 and 13.",
        "\nQ K\n",
    ] {
        assert!(grid.contains(text), "grid.svg lacks {text}");
    }
    let plain = read("five/grid.svg");
    assert!(plain.contains("67 to 97") && !plain.contains("101 to 997"));
    assert!(!plain.contains("digits") && !plain.contains("value bound"));
    assert!(plain.contains("J, Q and K count 5 (column 5)."));

    let counts = read("rank/prime-counts.svg");
    assert!(counts.contains("120 of 24804 deals make no prime, probability 10/2067 (0.484%)."));
    assert!(read("five/prime-counts.svg").contains("No deal fails"));
}

#[test]
fn a_single_rule_set_and_other_hand_sizes_are_worded_for_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    prime_solve()
        .args(["analyze", "--faces", "rank", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let index = fs::read_to_string(out.join("README.md")).unwrap();
    assert!(index.contains("- The rule set below has a hand that fails."));
    assert!(!index.contains("1 rule set") && !index.contains("1 have"));
    assert!(index.contains("three-card combination"));

    let out = dir.path().join("two");
    prime_solve()
        .args(["analyze", "--cards", "2", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let index = fs::read_to_string(out.join("README.md")).unwrap();
    assert!(!index.contains("three-card"), "{index}");
    assert!(index.contains("every hand of two cards"));
    assert!(index.contains("- With face cards counting 5"));
    // The tables and crib sheets beside the three-card reports are not
    // beside these: no link to them.
    assert!(!index.contains("table-five.md"), "{index}");
    assert!(index.contains("`reports/` folder"), "{index}");
}

/// An index written where no other report is links only to its own
/// folders; with the reports beside it, to each of them.
#[test]
fn an_index_links_only_to_files_that_are_there() {
    let links = |index: &str| -> Vec<String> {
        index
            .split("](")
            .skip(1)
            .map(|rest| rest[..rest.find(')').unwrap()].to_string())
            .collect()
    };
    let index_written_in = |out: &Path| {
        prime_solve()
            .args(["analyze", "--faces", "rank", "--quiet", "--out"])
            .arg(out)
            .assert()
            .success();
        fs::read_to_string(out.join("README.md")).unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("alone");
    let index = index_written_in(&alone);
    let found = links(&index);
    assert!(found.iter().any(|l| l.ends_with("summary.md")), "{index}");
    for link in &found {
        assert!(
            alone.join(link).is_file(),
            "{link} leads nowhere in\n{index}"
        );
    }
    assert!(!index.contains("table-five.md"), "{index}");
    let beside = dir.path().join("beside");
    companions_beside(&beside);
    let index = index_written_in(&beside);
    for link in links(&index) {
        assert!(beside.join(&link).is_file(), "{link} leads nowhere");
    }
    assert!(index.contains("(table-five.md)") && index.contains("(cards-6/README.md)"));
}
