//! Helpers shared by the integration tests: the naive oracle, running
//! the binary, and what a test needs from the machine.

#![allow(dead_code)]

pub mod oracle;
pub mod tools;

#[allow(unused_imports)]
pub use tools::{Tool, require};

use assert_cmd::Command;

/// The `prime-solve` binary of this build.
pub fn prime_solve() -> Command {
    Command::cargo_bin("prime-solve").unwrap()
}

/// Runs `cmd`, which must fail as docs/rules.md §8 asks: exit code 2, nothing on
/// stdout, and one line on stderr, `prime-solve: ...`, that holds `needle`.
pub fn fails_with(cmd: &mut Command, needle: &str) {
    let out = cmd.assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("prime-solve: "), "{stderr}");
    assert!(stderr.contains(needle), "wanted `{needle}` in: {stderr}");
    assert!(out.get_output().stdout.is_empty());
}

/// Whether the tests run as root (`id -u` is 0): some limits (`ulimit -u`,
/// file permissions) bind only other users.
pub fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `prime-solve serve` on a free loopback port with `extra` options, and
/// the address it printed (`127.0.0.1:PORT`).
pub fn serve(extra: &[&str]) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_prime-solve"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("serving on http://")
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    (child, addr)
}

/// The hands (or rule sets) a sweeping check runs on: all of them in an
/// optimized build; in a debug build, where every operation is checked for
/// overflow and runs about ten times slower, every `k`-th of them, a
/// spread over the same list. CI runs the suite both ways.
pub fn all_or_every<T: Clone>(items: &[T], k: usize) -> Vec<T> {
    let k = if cfg!(debug_assertions) { k.max(1) } else { 1 };
    items.iter().step_by(k).cloned().collect()
}

/// The quick run (`./test.sh`, which leaves out the tests of modules named
/// `full`) checks every `QUICK`th hand of what a long sweep's `full::`
/// twin checks.
pub const QUICK: usize = 4;
