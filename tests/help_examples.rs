//! Every example in `--help` is run as it is written (in a scratch folder
//! standing in for the home folder and /tmp): it must end with exit 0 or 1,
//! never a usage error or a refusal. Only what needs a person or a network
//! port is judged by what it says: `play` at the keyboard says it needs a
//! terminal (tests/tmux.rs plays it in one), `serve` is still serving after
//! a second (or says its address is taken). A line that does not run
//! prime-solve (a `curl` to a server) is left to tests/serve.rs, which asks
//! the same paths. The scratch folder holds a `reports` folder, as a clone
//! does. The examples that take a quarter of a minute or more are run in
//! the full run (`full::`), the others in the quick run.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The examples of one command's `--help`, each cut before its comment
/// (three spaces or more).
fn examples(command: &[&str]) -> Vec<String> {
    let out = common::prime_solve()
        .args(command)
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let Some(start) = help.find("Examples:\n") else {
        return Vec::new();
    };
    help[start + "Examples:\n".len()..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.trim().split("   ").next().unwrap().to_string())
        .filter(|l| l.contains("prime-solve"))
        .collect()
}

fn commands() -> Vec<String> {
    let out = common::prime_solve().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let start = help.find("Commands:\n").unwrap();
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .map(String::from)
        .collect()
}

/// Runs one example with `sh` in `home`, at most two minutes; its exit
/// code (`None` if still running when `alive_after` has passed) and stderr.
fn run(example: &str, home: &Path, alive_after: Option<Duration>) -> (Option<i32>, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_prime-solve"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let scratch = home.join("tmp");
    let line = example.replace("/tmp/", &format!("{}/", scratch.display()));
    // A plain command replaces the shell, so that stopping it stops the
    // program (a server) itself.
    let line = if line.contains([';', '|', '>', '<', '&']) {
        line
    } else {
        format!("exec {line}")
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&line)
        .current_dir(home)
        .env("HOME", home)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let limit = alive_after.unwrap_or(Duration::from_secs(120));
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status.code().unwrap_or(-1));
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            assert!(alive_after.is_some(), "`{example}` ran past two minutes");
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (code, err)
}

/// The examples that run for a quarter of a minute or more on 2 cores
/// (a whole sweep, the advisor, the study), for the full run.
const LONG: [&str; 5] = [
    "prime-solve analyze --all-rules --out reports",
    "prime-solve analyze --cards 4 --all-rules --shard 3/8 --out part3",
    "prime-solve simulate --study reports/simulation.md",
    "prime-solve advise",
    "prime-solve advise --out reports/house-rules.md",
];

/// Every example of every command's `--help`, by command.
fn every_example() -> Vec<(String, Vec<String>)> {
    let mut all: Vec<(String, Vec<String>)> = vec![("prime-solve".into(), examples(&[]))];
    for c in commands() {
        let list = examples(&[c.as_str()]);
        all.push((c, list));
    }
    let count: usize = all.iter().map(|(_, l)| l.len()).sum();
    assert!(count >= 30, "only {count} examples found");
    all
}

#[test]
fn every_quick_example_in_help_runs() {
    let all = every_example();
    // Each long one is still an example, once.
    for long in LONG {
        let found = all.iter().flat_map(|(_, l)| l).filter(|e| *e == long);
        assert_eq!(found.count(), 1, "`{long}` is not an example of --help");
    }
    run_all(all, |e| !LONG.contains(&e));
}

mod full {
    #[test]
    fn every_long_example_in_help_runs() {
        super::run_all(super::every_example(), |e| super::LONG.contains(&e));
    }
}

/// Runs the examples of `all` that `chosen` picks, each command's in
/// order, and fails with every one that ended wrong.
fn run_all(all: Vec<(String, Vec<String>)>, chosen: impl Fn(&str) -> bool + Sync) {
    let all: Vec<(String, Vec<String>)> = all
        .into_iter()
        .map(|(c, l)| (c, l.into_iter().filter(|e| chosen(e)).collect()))
        .collect();
    // Each command's examples in order (one may use what another wrote),
    // two commands at a time.
    let failures = std::sync::Mutex::new(Vec::new());
    let queue = std::sync::Mutex::new(all);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let Some((command, list)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let home = tempfile::tempdir().unwrap();
                    for dir in [
                        ".local/share/bash-completion/completions",
                        ".local/share/man/man6",
                        ".zfunc",
                        ".config/fish/completions",
                        "tmp",
                        "reports",
                    ] {
                        std::fs::create_dir_all(home.path().join(dir)).unwrap();
                    }
                    std::fs::write(home.path().join("moves.txt"), "1500 pass\n".repeat(400))
                        .unwrap();
                    for example in list {
                        let serving = command == "serve";
                        let alive = serving.then(|| Duration::from_secs(1));
                        let (code, err) = run(&example, home.path(), alive);
                        let fine = match (command.as_str(), code) {
                            (_, Some(0 | 1)) => true,
                            ("serve", None) => true,
                            ("serve", Some(_)) => err.contains("address"),
                            ("play", Some(2)) => err.contains("play needs a terminal"),
                            _ => false,
                        };
                        if !fine {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("`{example}` ended {code:?}: {err}"));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
