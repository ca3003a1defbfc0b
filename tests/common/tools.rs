//! What some tests need from the machine beyond the build (tmux, poppler,
//! Chromium with node, root), and the one rule for when it is missing:
//! the test fails and names what to install, unless `PRIME_SOLVE_SKIP`
//! names it; then the test passes and its skip is written to
//! `target/tmp/skipped.txt`, which `./test.sh` sums up in one line at the
//! end. Under `CI=true` nothing may be skipped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A need of some tests, by the word `PRIME_SOLVE_SKIP` names it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `tmux`, which the terminal tests run `play` and `practice` in.
    Tmux,
    /// poppler's `pdftoppm`, `pdftotext` and `pdffonts`, which read the
    /// crib sheets.
    Pdf,
    /// Debian's Chromium, node and `tests/browser/node_modules`
    /// (playwright-core), which drive the page.
    Browser,
    /// Root, which makes device nodes, mounts a folder read-only and
    /// runs a command as another user.
    Root,
}

/// Every need, in the order the summary lists them.
pub const TOOLS: [Tool; 4] = [Tool::Browser, Tool::Tmux, Tool::Pdf, Tool::Root];

impl Tool {
    /// The word for it in `PRIME_SOLVE_SKIP`.
    pub fn word(self) -> &'static str {
        match self {
            Tool::Tmux => "tmux",
            Tool::Pdf => "pdf",
            Tool::Browser => "browser",
            Tool::Root => "root",
        }
    }

    /// What is missing here, with how to get it; `None` if nothing is.
    pub fn missing(self) -> Option<String> {
        match self {
            Tool::Tmux => {
                (!runs("tmux", &["-V"])).then(|| "tmux is missing: apt-get install tmux".into())
            }
            Tool::Pdf => {
                let gone: Vec<&str> = ["pdftoppm", "pdftotext", "pdffonts"]
                    .into_iter()
                    .filter(|p| !runs(p, &["-v"]))
                    .collect();
                (!gone.is_empty())
                    .then(|| format!("{} missing: apt-get install poppler-utils", said(&gone)))
            }
            Tool::Browser => browser_missing(),
            Tool::Root => (!super::is_root())
                .then(|| "root is needed (mknod, mount, setpriv): run the tests as root".into()),
        }
    }
}

/// `a`, `a and b`, `a, b and c`, with "is" or "are".
fn said(names: &[&str]) -> String {
    match names {
        [one] => format!("{one} is"),
        [rest @ .., last] => format!("{} and {last} are", rest.join(", ")),
        [] => String::new(),
    }
}

/// Whether `program args` starts and exits 0.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn browser_missing() -> Option<String> {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/node_modules");
    let mut gone = Vec::new();
    let mut install = Vec::new();
    if !Path::new("/usr/bin/chromium").exists() {
        gone.push("/usr/bin/chromium");
        install.push("chromium");
    }
    if !runs("node", &["--version"]) {
        gone.push("node");
        install.push("npm");
    }
    let npm_ci = !modules.join("playwright-core").exists();
    if npm_ci {
        gone.push("tests/browser/node_modules");
    }
    if gone.is_empty() {
        return None;
    }
    let mut how = Vec::new();
    if !install.is_empty() {
        how.push(format!("apt-get install {}", install.join(" ")));
    }
    if npm_ci {
        how.push("npm ci in tests/browser (./test.sh runs it)".to_string());
    }
    Some(format!("{} missing: {}", said(&gone), how.join(", then ")))
}

/// The words of `PRIME_SOLVE_SKIP`, each checked; under `CI=true` the
/// variable is refused, for CI runs every test.
fn skips() -> Vec<Tool> {
    let words = std::env::var("PRIME_SOLVE_SKIP").unwrap_or_default();
    let words: Vec<&str> = words
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    assert!(
        words.is_empty() || std::env::var("CI").as_deref() != Ok("true"),
        "PRIME_SOLVE_SKIP={} is refused under CI=true: CI runs every test",
        words.join(",")
    );
    words
        .into_iter()
        .map(|w| {
            TOOLS
                .into_iter()
                .find(|t| t.word() == w)
                .unwrap_or_else(|| {
                    let known: Vec<&str> = TOOLS.iter().map(|t| t.word()).collect();
                    panic!(
                        "PRIME_SOLVE_SKIP names `{w}`: its words are {}",
                        known.join(", ")
                    )
                })
        })
        .collect()
}

/// The file each skip is written to, one line each: the need's word, what
/// is missing and the test, by tabs.
pub fn skip_log() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("skipped.txt")
}

/// Whether the test may use `tool`: true where it is here. Where it is
/// missing the test fails, naming what to install, unless
/// `PRIME_SOLVE_SKIP` names it: then the skip is written to [`skip_log`]
/// and said on stderr, and the answer is false (the test, or its part
/// that needs the tool, returns).
pub fn require(tool: Tool) -> bool {
    let skips = skips();
    let Some(missing) = tool.missing() else {
        return true;
    };
    assert!(
        skips.contains(&tool),
        "{missing}, or set PRIME_SOLVE_SKIP={}",
        tool.word()
    );
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    let line = format!("{}\t{missing}\t{test}\n", tool.word());
    let log = skip_log();
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    // One short write in append mode: tests side by side do not mix lines.
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", log.display()));
    eprintln!("skipped (PRIME_SOLVE_SKIP={}): {missing}", tool.word());
    false
}
