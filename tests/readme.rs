//! The README's terminal transcripts, run: every `$ prime-solve ...` line
//! in a `text` block is run through `sh` in a fresh folder, and what it
//! prints (standard output and error together) must be the lines that
//! follow it in the README, to the byte. `$ cat FILE` lines write FILE with
//! the lines shown, for the commands after them. A transcript that cannot
//! be replayed (a live terminal, a machine's memory) is listed in `SKIPPED`
//! with its reason, and the list must match the README, so that it cannot
//! grow stale either.

use std::path::Path;
use std::process::Command;

/// Transcripts not replayed, by the start of their command line, and why.
const SKIPPED: [(&str, &str); 3] = [
    (
        "prime-solve practice --seed 4 --rounds 3 --time-limit 30",
        "a live terminal session (tests/tmux.rs drives it)",
    ),
    (
        "prime-solve play --seed 3\n",
        "a live terminal session (tests/tmux.rs drives it)",
    ),
    (
        "pdftoppm ",
        "renders a PDF for a person to look at (tests/crib.rs renders it)",
    ),
];

/// One `$` line of a transcript and the lines shown after it.
struct Transcript {
    /// Where it stands in the README (1-based).
    line: usize,
    command: String,
    shown: String,
}

/// Every `$` line of the README's `text` blocks, in order.
fn transcripts(readme: &str) -> Vec<Transcript> {
    let mut found: Vec<Transcript> = Vec::new();
    let mut in_text = false;
    // Whether the block has had a `$` line: the lines before the first
    // one (and a block without any, such as a listing of files) belong
    // to no transcript.
    let mut in_transcript = false;
    for (n, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_text = !in_text && line == "```text";
            in_transcript = false;
            continue;
        }
        if !in_text {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.push(Transcript {
                line: n + 1,
                command: command.to_string(),
                shown: String::new(),
            });
            in_transcript = true;
        } else if in_transcript && let Some(t) = found.last_mut() {
            t.shown.push_str(line);
            t.shown.push('\n');
        }
    }
    // A blank line between two transcripts of one block belongs to neither.
    for t in &mut found {
        while t.shown.ends_with("\n\n") {
            t.shown.pop();
        }
        if t.shown == "\n" {
            t.shown.clear();
        }
    }
    found
}

fn skipped(command: &str) -> Option<&'static str> {
    let line = format!("{command}\n");
    SKIPPED
        .iter()
        .find(|(start, _)| line.starts_with(start))
        .map(|&(_, why)| why)
}

#[test]
fn the_readme_transcripts_are_what_the_tool_prints() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let all = transcripts(&readme);
    let bin = Path::new(env!("CARGO_BIN_EXE_prime-solve"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = tempfile::tempdir().unwrap();
    // `crib` and `analyze` write into reports/ by default.
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    let mut ran = 0;
    let mut skips = Vec::new();
    let mut wrong = Vec::new();
    for t in &all {
        if let Some(file) = t.command.strip_prefix("cat ") {
            std::fs::write(dir.path().join(file), &t.shown).unwrap();
            continue;
        }
        if let Some(why) = skipped(&t.command) {
            skips.push(why);
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{{ {}; }} 2>&1", t.command))
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env_remove("RAYON_NUM_THREADS")
            .output()
            .expect("sh runs");
        ran += 1;
        let printed = String::from_utf8_lossy(&out.stdout);
        if printed != t.shown {
            wrong.push(format!(
                "README.md:{}: `{}` printed\n{printed}instead of\n{}",
                t.line, t.command, t.shown
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {ran} transcripts differ (update the README from the tool's output):\n\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // Every skip stands for a transcript still in the README, once.
    assert_eq!(
        skips.len(),
        SKIPPED.len(),
        "a SKIPPED entry matches no transcript"
    );
    // The transcripts of query, check, analyze, simulate, practice, play
    // and crib.
    assert!(ran >= 15, "only {ran} transcripts found");
}

#[test]
fn transcripts_are_read_from_text_blocks_only() {
    let readme = "intro\n```sh\n$ not this\n```\n```text\n$ prime-solve a\none\n\n$ prime-solve b\n```\n$ nor this\n";
    let t = transcripts(readme);
    assert_eq!(t.len(), 2);
    assert_eq!((t[0].line, t[0].command.as_str()), (6, "prime-solve a"));
    assert_eq!(t[0].shown, "one\n");
    assert_eq!(
        (t[1].command.as_str(), t[1].shown.as_str()),
        ("prime-solve b", "")
    );
}
