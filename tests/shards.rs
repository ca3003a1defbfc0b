//! A sweep split into shards (`analyze --shard I/N`) and merged (`merge`):
//! the same reports, byte for byte, as one run; parts missing, doubled, of
//! another sweep, cut short, at odds with their own count or carrying a
//! witness the referee refuses, refused; shards run side by side the same
//! as one after another.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{fails_with, prime_solve};

/// Every file under `dir`, by its path below `dir`, with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Asserts that two folders hold the same files with the same bytes.
fn same_tree(a: &Path, b: &Path) {
    let (ta, tb) = (tree(a), tree(b));
    assert!(!ta.is_empty(), "{} is empty", a.display());
    assert_eq!(
        ta.keys().collect::<Vec<_>>(),
        tb.keys().collect::<Vec<_>>(),
        "the files differ"
    );
    for (path, bytes) in &ta {
        assert!(
            bytes == &tb[path],
            "{} differs between {} and {}",
            path.display(),
            a.display(),
            b.display()
        );
    }
}

/// Runs `args` in `cwd`, which must succeed; its stdout.
fn run(cwd: &Path, args: &[&str]) -> Vec<u8> {
    let out = prime_solve().current_dir(cwd).args(args).assert().success();
    out.get_output().stdout.clone()
}

/// Part `part` of the three-card all-rules sweep into `out`, in `cwd`:
/// what it prints.
fn all_rules_part(cwd: &Path, part: &str, out: &str) -> Vec<u8> {
    run(
        cwd,
        &[
            "analyze",
            "--all-rules",
            "-q",
            "--shard",
            part,
            "--out",
            out,
        ],
    )
}

/// `sweep` run once into `one/out`, and as `n` shards into `parts/i`
/// merged into `merged/out`: both folders and both runs' answers must be
/// the same, byte for byte.
fn shards_merge_to_the_single_run(sweep: &[&str], n: u32) {
    let tmp = tempfile::tempdir().unwrap();
    let (one, merged, parts) = (
        tmp.path().join("one"),
        tmp.path().join("merged"),
        tmp.path().join("parts"),
    );
    for d in [&one, &merged, &parts] {
        std::fs::create_dir(d).unwrap();
    }
    let single = run(&one, &[&["analyze", "-q", "--out", "out"], sweep].concat());
    let mut names = Vec::new();
    for i in 1..=n {
        let shard = format!("{i}/{n}");
        let dir = parts.join(i.to_string());
        let dir = dir.to_str().unwrap();
        let said = run(
            &one,
            &[&["analyze", "-q", "--shard", &shard, "--out", dir], sweep].concat(),
        );
        assert!(
            String::from_utf8(said)
                .unwrap()
                .starts_with(&format!("part {shard}: "))
        );
        names.push(dir.to_string());
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let answer = run(
        &merged,
        &[&["merge", "-q", "--out", "out"], &names[..]].concat(),
    );
    assert_eq!(
        String::from_utf8(answer).unwrap(),
        String::from_utf8(single).unwrap()
    );
    same_tree(&one.join("out"), &merged.join("out"));
}

#[test]
fn three_shards_of_every_rule_set_merge_to_the_single_run() {
    shards_merge_to_the_single_run(&["--all-rules"], 3);
}

#[test]
fn three_shards_of_four_cards_merge_to_the_single_run() {
    shards_merge_to_the_single_run(&["--cards", "4", "--faces", "rank"], 3);
    shards_merge_to_the_single_run(&["--cards", "4", "--powers", "--high-primes"], 3);
    shards_merge_to_the_single_run(
        &[
            "--cards",
            "4",
            "--faces",
            "suit",
            "--juxtapose",
            "--functions",
            "tri",
            "--ascii",
        ],
        3,
    );
}

#[test]
fn shards_merge_under_summaries_only_and_more_parts_than_some_rule_sets_deal() {
    shards_merge_to_the_single_run(&["--all-rules", "--summaries-only", "--cards", "2"], 7);
    // Parts for the summaries keep only the primes up to 97.
    shards_merge_to_the_single_run(
        &[
            "--cards",
            "4",
            "--summaries-only",
            "--high-primes",
            "--powers",
            "--functions",
            "tri",
        ],
        3,
    );
}

/// Three parts of the three-card sweep of every rule set in `dir/1..3`.
fn three_parts(dir: &Path) -> Vec<String> {
    (1..=3)
        .map(|i| {
            let part = dir.join(i.to_string());
            let part = part.to_str().unwrap().to_string();
            run(
                dir,
                &[
                    "analyze",
                    "--all-rules",
                    "-q",
                    "--shard",
                    &format!("{i}/3"),
                    "--out",
                    &part,
                ],
            );
            part
        })
        .collect()
}

#[test]
fn merge_refuses_parts_missing_doubled_or_of_another_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let p = three_parts(tmp.path());
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[2]]),
        "1 of 3 parts is missing: 2/3",
    );
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0]]),
        "2 of 3 parts are missing: 2/3, 3/3",
    );
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[1], &p[1], &p[2]]),
        "part 2/3 is given twice",
    );
    // The same part of a sweep of fewer rule sets, of other cards, of
    // another split.
    for (other, why) in [
        (
            vec!["--all-rules", "--ceiling-only", "--shard", "2/3"],
            "its rule sets",
        ),
        (
            vec!["--all-rules", "--cards", "2", "--shard", "2/3"],
            "its cards: 2, not 3",
        ),
        (vec!["--all-rules", "--shard", "2/4"], "its parts: 4, not 3"),
        (
            vec!["--all-rules", "--ascii", "--shard", "2/3"],
            "its style",
        ),
    ] {
        let dir = tmp.path().join("other");
        let _ = std::fs::remove_dir_all(&dir);
        run(
            tmp.path(),
            &[
                &["analyze", "-q", "--out", dir.to_str().unwrap()],
                &other[..],
            ]
            .concat(),
        );
        fails_with(
            prime_solve().args(["merge", "--out", out, &p[0], dir.to_str().unwrap(), &p[2]]),
            &format!("is a part of another sweep than {}: {why}", p[0]),
        );
    }
    fails_with(
        prime_solve().args([
            "merge",
            "--out",
            out,
            &p[0],
            &tmp.path().join("none").to_string_lossy(),
            &p[2],
        ]),
        "holds no finished part",
    );
    assert!(!Path::new(out).exists(), "nothing is written on a refusal");
}

#[test]
fn merge_refuses_a_part_cut_short_or_damaged() {
    let tmp = tempfile::tempdir().unwrap();
    let p = three_parts(tmp.path());
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    let payload = Path::new(&p[1]).join("part.json");
    let bytes = std::fs::read(&payload).unwrap();
    std::fs::write(&payload, &bytes[..bytes.len() / 2]).unwrap();
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[1], &p[2]]),
        "part.json does not match its manifest",
    );
    // One changed byte, the length the same.
    let mut changed = bytes.clone();
    let i = changed.iter().position(|&b| b == b'7').unwrap();
    changed[i] = b'9';
    std::fs::write(&payload, &changed).unwrap();
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[1], &p[2]]),
        "part.json does not match its manifest",
    );
    // Run again, the shard replaces the damaged part.
    all_rules_part(tmp.path(), "2/3", &p[1]);
    assert_eq!(std::fs::read(&payload).unwrap(), bytes);
    run(
        tmp.path(),
        &["merge", "-q", "--out", out, &p[0], &p[1], &p[2]],
    );
}

/// The four-card sweep under the rules as written, in two parts in
/// `dir/1` and `dir/2`.
fn two_four_card_parts(dir: &Path) -> Vec<String> {
    (1..=2)
        .map(|i| {
            let part = dir.join(i.to_string()).to_string_lossy().into_owned();
            let shard = format!("{i}/2");
            run(
                dir,
                &[
                    "analyze", "--cards", "4", "-q", "--shard", &shard, "--out", &part,
                ],
            );
            part
        })
        .collect()
}

/// Writes `payload` as `part`'s `part.json` and gives its manifest the
/// new length and checksum, as a hand that means to pass would.
fn rewrite_part(part: &Path, payload: &str) {
    std::fs::write(part.join("part.json"), payload).unwrap();
    let path = part.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    manifest["payload_bytes"] = payload.len().into();
    manifest["payload_fnv1a64"] =
        format!("{:016x}", prime_solve::fnv1a64(payload.as_bytes())).into();
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
}

#[test]
fn merge_refuses_a_witness_the_referee_refuses_though_the_manifest_matches() {
    let tmp = tempfile::tempdir().unwrap();
    let p = two_four_card_parts(tmp.path());
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    // 1 1 1 4 makes 7 as 4 + 1 + 1 + 1; its part says 9 + 1 + 1 + 1.
    let (part, payload, at) = p
        .iter()
        .find_map(|dir| {
            let payload = std::fs::read_to_string(Path::new(dir).join("part.json")).unwrap();
            let hand = payload.find(r#"{"hand":[1,1,1,4],"#)?;
            Some((dir, payload, hand))
        })
        .unwrap();
    let highest = at
        + payload[at..]
            .find(r#""highest":{"prime":7,"witness":"#)
            .unwrap();
    let four = highest + payload[highest..].find(r#"{"Card":4}"#).unwrap();
    let tampered = format!(
        "{}{{\"Card\":9}}{}",
        &payload[..four],
        &payload[four + r#"{"Card":4}"#.len()..]
    );
    rewrite_part(Path::new(part), &tampered);
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[1]]),
        &format!(
            "{part}/part.json: the witness of 7 for the hand 1 1 1 4 (five-4cards), \
             9 + 1 + 1 + 1, is refused by the referee: 9 is not a card in the hand (1 1 1 4)"
        ),
    );
    assert!(!Path::new(out).exists(), "nothing is written on a refusal");
    // The same bytes the shard wrote pass.
    rewrite_part(Path::new(part), &payload);
    run(tmp.path(), &["merge", "-q", "--out", out, &p[0], &p[1]]);
}

#[test]
fn merge_refuses_a_part_whose_count_disagrees_naming_both_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let p = two_four_card_parts(tmp.path());
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    // Part 2 of a sweep of 2 that says it is part 2 of 5.
    let path = Path::new(&p[1]).join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    manifest["part"]["count"] = 5.into();
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[1]]),
        "manifest.json disagrees with itself: it names part 2 of 5 parts, of a sweep of 2 parts",
    );
    // Part 5 of 5 of a sweep of 2: no part 5 of it exists.
    manifest["part"]["index"] = 5.into();
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0], &p[1]]),
        "it names part 5 of 5 parts, of a sweep of 2 parts",
    );
    std::fs::write(&path, &text).unwrap();
    // One part of two given: both counts named.
    fails_with(
        prime_solve().args(["merge", "--out", out, &p[0]]),
        "1 of 2 parts is missing: 2/2 (1 given)",
    );
    assert!(!Path::new(out).exists(), "nothing is written on a refusal");
}

#[test]
fn a_shard_killed_before_its_manifest_leaves_no_part_and_runs_again() {
    let tmp = tempfile::tempdir().unwrap();
    let p = three_parts(tmp.path());
    let part = tmp.path().join("killed");
    // Each step of the write waits 3 s: the shard is killed once part.json
    // is in place, before the manifest is.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_prime-solve"))
        .args(["analyze", "--all-rules", "-q", "--shard", "2/3", "--out"])
        .arg(&part)
        .env("PRIME_SOLVE_TEST_PAUSE_MS", "3000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !part.join("part.json").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "part.json never came"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!part.join("manifest.json").exists());
    let out = tmp.path().join("out");
    let killed = part.to_str().unwrap();
    fails_with(
        prime_solve().args([
            "merge",
            "--out",
            out.to_str().unwrap(),
            &p[0],
            killed,
            &p[2],
        ]),
        "holds no finished part (no manifest.json)",
    );
    // Run again, it finishes; run once more, it is left as it is.
    all_rules_part(tmp.path(), "2/3", killed);
    let first = tree(&part);
    let again = all_rules_part(tmp.path(), "2/3", killed);
    assert!(
        String::from_utf8(again)
            .unwrap()
            .contains("already finished")
    );
    assert_eq!(tree(&part), first);
    same_tree(&part, Path::new(&p[1]));
    // Another part, or another sweep's, into a finished part's folder is refused.
    fails_with(
        prime_solve().args([
            "analyze",
            "--all-rules",
            "-q",
            "--shard",
            "3/3",
            "--out",
            killed,
        ]),
        "already holds part 2/3 of this sweep",
    );
    fails_with(
        prime_solve().args(["analyze", "-q", "--shard", "2/3", "--out", killed]),
        "already holds part 2/3 of another sweep",
    );
}

#[test]
fn shards_run_side_by_side_give_what_they_give_one_after_another() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = [
        "analyze", "--cards", "4", "--faces", "rank", "--powers", "-q", "-j", "1",
    ];
    let (side, after) = (tmp.path().join("side"), tmp.path().join("after"));
    std::fs::create_dir(&side).unwrap();
    std::fs::create_dir(&after).unwrap();
    let children: Vec<_> = (1..=3)
        .map(|i| {
            std::process::Command::new(env!("CARGO_BIN_EXE_prime-solve"))
                .args(sweep)
                .args(["--shard", &format!("{i}/3"), "--out"])
                .arg(side.join(i.to_string()))
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    for i in 1..=3 {
        let dir = after.join(i.to_string());
        run(
            tmp.path(),
            &[
                &sweep[..],
                &["--shard", &format!("{i}/3"), "--out", dir.to_str().unwrap()],
            ]
            .concat(),
        );
        same_tree(&side.join(i.to_string()), &dir);
    }
    let merge = |from: &Path, to: &str| {
        let parts: Vec<String> = (1..=3)
            .map(|i| from.join(i.to_string()).to_string_lossy().into_owned())
            .collect();
        let out = tmp.path().join(to);
        run(
            tmp.path(),
            &[
                &["merge", "-q", "--out", out.to_str().unwrap()],
                &parts.iter().map(String::as_str).collect::<Vec<_>>()[..],
            ]
            .concat(),
        );
        out
    };
    same_tree(&merge(&side, "m-side"), &merge(&after, "m-after"));
}

#[test]
fn merge_prints_the_json_analyze_prints() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, merged) = (tmp.path().join("one"), tmp.path().join("merged"));
    std::fs::create_dir(&one).unwrap();
    std::fs::create_dir(&merged).unwrap();
    let sweep = ["--cards", "4", "--faces", "rank", "-q"];
    let single = run(
        &one,
        &[&["analyze", "-f", "json", "--out", "out"], &sweep[..]].concat(),
    );
    for i in ["1", "2"] {
        let part = format!("../p{i}");
        run(
            &merged,
            &[
                &["analyze", "--shard", &format!("{i}/2"), "--out", &part],
                &sweep[..],
            ]
            .concat(),
        );
    }
    let answer = run(
        &merged,
        &["merge", "-f", "json", "--out", "out", "../p2", "../p1"],
    );
    assert_eq!(
        String::from_utf8(answer).unwrap(),
        String::from_utf8(single).unwrap()
    );
    same_tree(&one.join("out"), &merged.join("out"));
}
