//! Helpers shared by the integration tests: the naive oracle, and running
//! the binary.

#![allow(dead_code)]

pub mod oracle;

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
