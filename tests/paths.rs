//! Output paths: every command that writes files writes what the path
//! points at (a symlink's target, a device, a FIFO) and never replaces it;
//! `analyze` leaves a folder holding either the old run or the new one,
//! whether it fails, is interrupted, or races another run.

#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, symlink};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{fails_with, prime_solve};

/// How a command is told where to write: the folder it works in, and the
/// path of the one file checked (a file of its own, or one file of a
/// folder it writes).
struct Writer {
    name: &'static str,
    /// The file checked, relative to the folder the command is given.
    file: &'static str,
    /// The command, given that folder (or, for a one-file command, the
    /// file's path).
    command: fn(&Path) -> assert_cmd::Command,
    /// Whether `command` takes the file itself rather than its folder.
    takes_file: bool,
}

const WRITERS: [Writer; 4] = [
    Writer {
        name: "table --out",
        file: "table.md",
        command: |path| {
            let mut c = prime_solve();
            c.args(["table", "--faces", "rank", "--out"]).arg(path);
            c
        },
        takes_file: true,
    },
    Writer {
        name: "simulate --study",
        file: "study.md",
        command: |path| {
            let mut c = prime_solve();
            c.args([
                "simulate",
                "--quiet",
                "--games",
                "3",
                "--max-turns",
                "40",
                "--study",
            ])
            .arg(path);
            c
        },
        takes_file: true,
    },
    Writer {
        name: "simulate --out",
        file: "summary.md",
        command: |dir| {
            let mut c = prime_solve();
            c.args(["simulate", "--quiet", "--games", "5", "--out"])
                .arg(dir);
            c
        },
        takes_file: false,
    },
    Writer {
        name: "analyze --out",
        file: "README.md",
        command: |dir| {
            let mut c = prime_solve();
            c.args(["analyze", "--quiet", "--cards", "2", "--out"])
                .arg(dir);
            c
        },
        takes_file: false,
    },
];

impl Writer {
    /// Runs the command so that it writes `dir/file`.
    fn run(&self, dir: &Path) -> assert_cmd::assert::Assert {
        let target = if self.takes_file {
            dir.join(self.file)
        } else {
            dir.to_path_buf()
        };
        (self.command)(&target).assert()
    }

    /// What the command writes to its file, from a run into a fresh folder.
    fn reference(&self) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        self.run(dir.path()).success();
        fs::read(dir.path().join(self.file)).unwrap()
    }
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_symlink()
}

/// Names below `dir` that a write leaves behind only when it fails to
/// clean up.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains(".tmp") || name.contains(".old") {
            found.push(entry.path());
        }
        if entry.file_type().unwrap().is_dir() {
            found.extend(leftovers(&entry.path()));
        }
    }
    found
}

/// Each writer's output path is a symlink to `elsewhere/NAME` (made with
/// `old` in it, or dangling): the output must land in the target, the link
/// stay a link, and nothing be left beside it.
fn writes_through_a_link(name: &str, old: Option<&str>) {
    for w in &WRITERS {
        let want = w.reference();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir(d.join("elsewhere")).unwrap();
        let target = d.join("elsewhere").join(name);
        // A live link relative to its folder, a dangling one absolute.
        match old {
            Some(old) => {
                fs::write(&target, old).unwrap();
                symlink(Path::new("elsewhere").join(name), d.join(w.file)).unwrap();
            }
            None => symlink(&target, d.join(w.file)).unwrap(),
        }
        w.run(d).success();
        assert!(
            is_symlink(&d.join(w.file)),
            "{}: the link was replaced",
            w.name
        );
        assert!(
            fs::read(&target).unwrap() == want,
            "{}: the target does not hold the output",
            w.name
        );
        assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{}", w.name);
    }
}

#[test]
fn a_symlink_is_followed_and_stays_a_symlink() {
    writes_through_a_link("real.md", Some("old"));
}

#[test]
fn a_dangling_symlink_gets_its_target_created() {
    writes_through_a_link("new.md", None);
}

#[test]
fn a_fifo_is_written_to_its_reader() {
    for w in &WRITERS {
        let want = w.reference();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let fifo = d.join(w.file);
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        // A writer of our own lets the reader open the FIFO at once, before
        // the command could replace it, and keeps the reader from seeing
        // end of file until the command has ended.
        let keeper = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&fifo)
            .unwrap();
        let mut reading = fs::File::open(&fifo).unwrap();
        let reader = thread::spawn(move || {
            let mut got = Vec::new();
            reading.read_to_end(&mut got).unwrap();
            got
        });
        let out = w.run(d);
        drop(keeper);
        let got = reader.join().unwrap();
        out.success();
        let kind = fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{}: the FIFO was replaced", w.name);
        assert!(got == want, "{}: the reader got other bytes", w.name);
        assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{}", w.name);
    }
}

/// `mknod NAME c 1 3`, a null device in a temporary folder; false where it
/// cannot be made (no device nodes on this file system).
fn make_null_device(path: &Path) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status();
    made.is_ok_and(|s| s.success())
        && fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
        && fs::OpenOptions::new().write(true).open(path).is_ok()
}

#[test]
fn a_device_is_written_and_not_replaced() {
    if !common::require(common::Tool::Root) {
        return;
    }
    for w in &WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let device = d.join(w.file);
        assert!(
            make_null_device(&device),
            "mknod {} c 1 3 made no device node to write to",
            device.display()
        );
        w.run(d).success();
        let kind = fs::symlink_metadata(&device).unwrap().file_type();
        assert!(kind.is_char_device(), "{}: the device was replaced", w.name);
        assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{}", w.name);
    }
}

#[test]
fn a_full_device_is_exit_two_and_changes_nothing() {
    for w in &WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        symlink("/dev/full", d.join(w.file)).unwrap();
        fails_with(
            &mut (w.command)(&if w.takes_file {
                d.join(w.file)
            } else {
                d.to_path_buf()
            }),
            "No space left on device",
        );
        // The folder holds the link and nothing else: no report folder
        // from the failed run, no temporary file.
        let names: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [w.file], "{}", w.name);
    }
    fails_with(
        prime_solve().args(["table", "--out", "/dev/full"]),
        "No space left on device",
    );
}

#[test]
fn a_socket_or_a_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let _socket = std::os::unix::net::UnixListener::bind(d.join("sock")).unwrap();
    fails_with(
        prime_solve().arg("table").arg("--out").arg(d.join("sock")),
        "is a socket",
    );
    fails_with(
        prime_solve().arg("table").arg("--out").arg(d),
        "is a folder",
    );
    fs::write(d.join("file"), "a file").unwrap();
    fails_with(
        prime_solve()
            .args(["simulate", "--games", "2", "--out"])
            .arg(d.join("file")),
        "is in the way",
    );
    assert_eq!(fs::read_to_string(d.join("file")).unwrap(), "a file");
}

/// Every file below `dir`, by relative path.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            if path.is_dir() {
                out.insert(rel.join(""), Vec::new());
                walk(root, &path, out);
            } else {
                out.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn analyze_all_cmd(out: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("prime-solve"));
    cmd.args(["analyze", "--all-rules", "--cards", "2", "--quiet", "--out"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

#[test]
fn a_file_in_the_way_is_named_and_nothing_is_left_behind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    // The last rule set of the sweep: every other one would be written
    // before it by a writer that goes file by file.
    fs::write(
        out.join("suit-powers-juxtapose-tri-fact-sqrt-high-2cards"),
        "x",
    )
    .unwrap();
    fails_with(
        prime_solve()
            .args(["analyze", "--all-rules", "--cards", "2", "--quiet", "--out"])
            .arg(&out),
        &format!(
            "{} is in the way",
            out.join("suit-powers-juxtapose-tri-fact-sqrt-high-2cards")
                .display()
        ),
    );
    assert_eq!(fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn concurrent_runs_into_a_new_folder_both_succeed() {
    let want = {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r");
        assert!(analyze_all_cmd(&out).status().unwrap().success());
        tree(&out)
    };
    for round in 0..6 {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r");
        let children: Vec<_> = (0..2)
            .map(|_| analyze_all_cmd(&out).spawn().unwrap())
            .collect();
        for child in children {
            let done = child.wait_with_output().unwrap();
            assert!(
                done.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&done.stderr)
            );
        }
        assert!(tree(&out) == want, "round {round}: not one whole run");
    }
}

/// The reports of one `analyze --all-rules --cards 2`, then the same with
/// every file marked as older, as a starting point.
fn old_and_new() -> (BTreeMap<PathBuf, Vec<u8>>, BTreeMap<PathBuf, Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    assert!(analyze_all_cmd(&out).status().unwrap().success());
    let new = tree(&out);
    let old = new
        .iter()
        .map(|(path, bytes)| {
            let mut bytes = bytes.clone();
            if !bytes.is_empty() {
                bytes.extend_from_slice(b"\nfrom an earlier run\n");
            }
            (path.clone(), bytes)
        })
        .collect();
    (old, new)
}

fn write_tree(dir: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) {
    for (path, bytes) in files {
        let path = dir.join(path);
        if bytes.is_empty() && path.to_string_lossy().ends_with('/') {
            fs::create_dir_all(&path).unwrap();
        } else {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, bytes).unwrap();
        }
    }
}

/// The pause between renames of an interrupted run.
const PAUSE_MS: u64 = 8;

#[test]
fn an_interrupted_run_leaves_the_old_reports_or_the_new_ones() {
    let (old, new) = old_and_new();
    let steps = new.keys().filter(|p| p.components().count() == 1).count() as u64;
    let signals = ["TERM", "INT", "HUP"];
    let dir = tempfile::tempdir().unwrap();
    // Kill points spread over the whole run: while solving and staging
    // (from the start), and between every few of its renames (from the
    // moment everything is staged).
    let kills: Vec<(bool, u64)> = (0..3)
        .map(|i| (false, i * 15))
        .chain((0..24).map(|i| (true, i * steps * PAUSE_MS / 16)))
        .collect();
    // Each run in a thread of its own, so that each is killed on time.
    let outcomes: Vec<&str> = thread::scope(|scope| {
        let runs: Vec<_> = kills
            .iter()
            .enumerate()
            .map(|(i, &(after_staging, delay))| {
                let out = dir.path().join(format!("run{i}"));
                let (old, new) = (&old, &new);
                scope.spawn(move || {
                    let signal = signals[i % signals.len()];
                    interrupt(&out, old, after_staging, delay, signal);
                    let got = tree(&out);
                    if got == *old {
                        "old"
                    } else if got == *new {
                        "new"
                    } else {
                        let changed: Vec<_> = got
                            .keys()
                            .filter(|p| old.get(*p) != got.get(*p))
                            .take(5)
                            .collect();
                        panic!("run {i} ({signal}, {delay} ms) left a mix: {changed:?} changed");
                    }
                })
            })
            .collect();
        runs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let count = |what| outcomes.iter().filter(|&&o| o == what).count();
    eprintln!("outcomes: {} old, {} new", count("old"), count("new"));
}

/// Fills `out` with `old`, starts `analyze` into it, and sends it `signal`
/// after `delay` ms (counted from the start, or from the moment every file
/// is staged); then checks that it died of the signal, or finished, and
/// left no temporary behind.
fn interrupt(
    out: &Path,
    old: &BTreeMap<PathBuf, Vec<u8>>,
    after_staging: bool,
    delay: u64,
    signal: &str,
) {
    fs::create_dir(out).unwrap();
    write_tree(out, old);
    let mut child = analyze_all_cmd(out)
        .env("PRIME_SOLVE_TEST_PAUSE_MS", PAUSE_MS.to_string())
        .spawn()
        .unwrap();
    let mut ended = None;
    if after_staging {
        // The index's temporary file is the last one made before the
        // renames begin.
        let start = Instant::now();
        while ended.is_none() && start.elapsed() < Duration::from_secs(30) {
            let staged = fs::read_dir(out).unwrap().any(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".README")
            });
            if staged {
                break;
            }
            ended = child.try_wait().unwrap();
            thread::sleep(Duration::from_millis(1));
        }
    }
    let status = match ended {
        Some(status) => status,
        None => {
            thread::sleep(Duration::from_millis(delay));
            // Not reaped yet, so the id is still this child's (a zombie if
            // it has ended).
            let _ = Command::new("kill")
                .args(["-s", signal, &child.id().to_string()])
                .status();
            child.wait().unwrap()
        }
    };
    assert!(
        status.success() || status.signal().is_some(),
        "{signal}: {status:?}"
    );
    assert_eq!(leftovers(out), Vec::<PathBuf>::new(), "{signal}");
}

#[test]
fn dev_stdout_is_standard_output() {
    let plain = prime_solve().arg("table").assert().success();
    let want = plain.get_output().stdout.clone();
    let via = prime_solve()
        .args(["table", "--out", "/dev/stdout"])
        .assert()
        .success();
    assert!(via.get_output().stdout == want);
    // Redirected with `>>`, it appends.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.md");
    fs::write(&path, "first\n").unwrap();
    let file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    let status = Command::new(assert_cmd::cargo::cargo_bin("prime-solve"))
        .args(["table", "--out", "/dev/stdout"])
        .stdout(file)
        .status()
        .unwrap();
    assert!(status.success());
    let got = fs::read(&path).unwrap();
    assert!(got.starts_with(b"first\n") && got[6..] == want[..]);
}

#[test]
fn output_paths_are_checked_before_the_work() {
    // Under a memory limit too small for any search or worker thread: the
    // path is named first, so it is checked before anything is worked out
    // (a sweep of hours must not end in "the folder does not exist").
    let small = ["--memory-limit", "1K"];
    let cases: [(&[&str], &str); 6] = [
        (
            &["crib", "--out", "/nonexistent/c.pdf"],
            "cannot write the crib: the folder /nonexistent does not exist",
        ),
        (
            &["analyze", "-q", "--cards", "4", "-o", "/nonexistent/x/y"],
            "cannot write reports: the folder /nonexistent/x does not exist",
        ),
        (
            &["simulate", "-q", "--study", "/nonexistent/x.md"],
            "cannot write the study: the folder /nonexistent does not exist",
        ),
        (
            &["simulate", "-q", "--out", "/nonexistent/a/b"],
            "cannot write the simulation's files: the folder /nonexistent/a does not exist",
        ),
        (
            &["advise", "-q", "--out", "/nonexistent/a.md"],
            "cannot write the report: the folder /nonexistent does not exist",
        ),
        (
            &["table", "-o", "/nonexistent/t.md"],
            "cannot write the table: the folder /nonexistent does not exist",
        ),
    ];
    for (args, needle) in cases {
        let mut cmd = prime_solve();
        cmd.args(args);
        if args[0] != "table" {
            cmd.args(small);
        }
        fails_with(&mut cmd, needle);
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "mine").unwrap();
    fails_with(
        prime_solve()
            .args(["analyze", "-q", "--memory-limit", "1K", "-o"])
            .arg(&file),
        "is in the way: it is not a folder",
    );
    fails_with(
        prime_solve().args(["table", "-o"]).arg(dir.path()),
        "is a folder",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

#[test]
fn a_file_that_cannot_be_made_is_named_as_given() {
    // Root may write anywhere but /proc: no file can be made there, which
    // is found before the work (a file created and removed at once). The
    // message named the hidden temporary (`/proc/.t.md.tmp-…`), after it.
    let out = prime_solve()
        .args(["table", "-o", "/proc/prime-solve-table.md"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("cannot write the table: cannot create files in the folder /proc: "),
        "{stderr}"
    );
    assert!(!stderr.contains(".tmp-"), "{stderr}");
}

/// A folder no file can be made in is named before the work, not after
/// it (a five-card sweep into a read-only folder failed after 12 s), and
/// nothing is left there; a name of 250 bytes, whose temporary name
/// passed a file name's 255, is written.
#[test]
fn an_unwritable_folder_is_named_at_once_and_long_names_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    // A read-only file system where one can be mounted (root), else a
    // folder without write permission (which binds a user, not root).
    let mounted = std::process::Command::new("mount")
        .args(["--bind", "-o", "ro"])
        .arg(&locked)
        .arg(&locked)
        .status()
        .is_ok_and(|s| s.success())
        && std::process::Command::new("mount")
            .args(["-o", "remount,ro,bind"])
            .arg(&locked)
            .status()
            .is_ok_and(|s| s.success());
    if !mounted {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let runs = [
        vec![
            "analyze",
            "--cards",
            "5",
            "--faces",
            "rank",
            "--functions",
            "tri",
            "-q",
            "-o",
        ],
        vec!["table", "-o"],
    ];
    let mut results = Vec::new();
    for args in runs {
        let target = locked.join(if args[0] == "table" { "t.md" } else { "x" });
        results.push(prime_solve().args(&args).arg(&target).output().unwrap());
    }
    let left = std::fs::read_dir(&locked).unwrap().count();
    if mounted {
        let _ = std::process::Command::new("umount").arg(&locked).status();
    }
    // Root writes through permissions: only a read-only mount binds it.
    assert!(
        mounted || !common::is_root(),
        "as root, `mount --bind -o ro` failed: run the tests where root may mount, or as another user"
    );
    for out in &results {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("cannot create files in the folder"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert_eq!(left, 0);
    let long = dir.path().join("a".repeat(250));
    prime_solve()
        .args(["table", "-o"])
        .arg(&long)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&long)
            .unwrap()
            .starts_with("# Prime Time strategy tables")
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// A path naming an open descriptor (`/dev/fd/N`, `/proc/self/fd/N`) is
/// written through: a file the shell opened with `>>` is appended to, not
/// replaced (it was renamed over, its inode and first line lost); a pipe
/// of `>(…)` is written (it was refused as `pipe:[…]`, no such file); and
/// `/dev/stdout` writes through this process's own descriptor, in order
/// with what the shell writes before and after.
#[test]
fn paths_naming_descriptors_are_written_through() {
    let bin = assert_cmd::cargo::cargo_bin("prime-solve");
    let dir = tempfile::tempdir().unwrap();
    let sh = |script: &str| {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(script)
            .env("BIN", &bin)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let inode = |name: &str| {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(dir.path().join(name)).unwrap().ino()
    };
    for path in ["/dev/fd/1", "/proc/self/fd/1", "/dev/fd/3"] {
        std::fs::write(dir.path().join("log"), "previous\n").unwrap();
        let before = inode("log");
        sh(&format!("\"$BIN\" table -o {path} >> log 3>> log"));
        let text = std::fs::read_to_string(dir.path().join("log")).unwrap();
        assert_eq!(inode("log"), before, "{path}");
        assert!(
            text.starts_with("previous\n# Prime Time strategy tables"),
            "{path}: {text}"
        );
    }
    let counted = sh("\"$BIN\" table -o >(wc -c > count); wait; sleep 1; cat count");
    let table = sh("\"$BIN\" table");
    assert_eq!(counted.trim(), table.len().to_string());
    let text = sh("(echo before; \"$BIN\" table -o /dev/stdout -f csv; echo after) > f; cat f");
    assert!(text.starts_with("before\nhand,"), "{text}");
    assert!(text.ends_with("\nafter\n"), "{text}");
}

/// `simulate --out` replaces all of its files or none: a signal after the
/// first is swapped in and before the last puts every old one back.
#[test]
fn an_interrupted_simulation_leaves_all_its_old_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sim");
    let run = |seed: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_prime-solve"));
        cmd.args(["simulate", "--games", "30", "-q", "--seed", seed, "--out"])
            .arg(&out)
            .stdout(Stdio::null());
        cmd
    };
    assert!(run("1").status().unwrap().success());
    let names = ["summary.md", "games.csv", "game-length.svg"];
    let read = || names.map(|n| fs::read(out.join(n)).unwrap_or_default());
    let old = read();
    assert!(old.iter().all(|f| !f.is_empty()), "every file written");
    let mut child = run("2")
        .env("PRIME_SOLVE_TEST_PAUSE_MS", "1500")
        .spawn()
        .unwrap();
    // The first file is swapped in; the run then pauses before the next.
    let start = Instant::now();
    while fs::read(out.join(names[0])).unwrap_or_default() == old[0] {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the first file never changed"
        );
        assert!(child.try_wait().unwrap().is_none(), "ended before the kill");
        thread::sleep(Duration::from_millis(5));
    }
    let _ = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    assert_eq!(read(), old, "every old file is back");
    assert_eq!(leftovers(&out), Vec::<PathBuf>::new());
}
