//! The documentation's terminal transcripts, run: every `$ prime-solve ...`
//! line in a `text` block of README.md and of each page under docs/ is run
//! through `sh` in a fresh folder (one per page), and what it prints
//! (standard output and error together) must be the lines that follow it
//! on the page, to the byte. `$ cat FILE` lines write FILE with the lines
//! shown, for the commands after them on the same page. A transcript that
//! cannot be replayed (a live terminal, a picture for a person) is listed
//! in `SKIPPED` with its reason, and the list must match the pages, so that
//! it cannot grow stale either.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Transcripts not replayed, by the start of their command line, and why.
const SKIPPED: [(&str, &str); 4] = [
    (
        "prime-solve serve --lan",
        "a server that runs until it is stopped, on this machine's network (tests/serve.rs starts it)",
    ),
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
    /// Where it stands on its page (1-based).
    line: usize,
    command: String,
    shown: String,
}

/// Every `$` line of a page's `text` blocks, in order.
fn transcripts(page: &str) -> Vec<Transcript> {
    let mut found: Vec<Transcript> = Vec::new();
    let mut in_text = false;
    // Whether the block has had a `$` line: the lines before the first
    // one (and a block without any, such as a listing of files) belong
    // to no transcript.
    let mut in_transcript = false;
    for (n, line) in page.lines().enumerate() {
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

/// Which entry of `SKIPPED` a command line is, if any.
fn skipped(command: &str) -> Option<usize> {
    let line = format!("{command}\n");
    SKIPPED
        .iter()
        .position(|(start, _)| line.starts_with(start))
}

/// README.md, then every Markdown page under docs/, by name.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut all = vec![root.join("README.md")];
    all.extend(docs);
    all
}

#[test]
fn the_documented_transcripts_are_what_the_tool_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = Path::new(env!("CARGO_BIN_EXE_prime-solve"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut skips = Vec::new();
    let mut wrong = Vec::new();
    for page in pages() {
        let name = page.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&page).expect("a page");
        let dir = tempfile::tempdir().unwrap();
        // `crib` and `analyze` write into reports/ by default.
        std::fs::create_dir(dir.path().join("reports")).unwrap();
        for t in &transcripts(&text) {
            if let Some(file) = t.command.strip_prefix("cat ") {
                std::fs::write(dir.path().join(file), &t.shown).unwrap();
                continue;
            }
            if let Some(entry) = skipped(&t.command) {
                skips.push(entry);
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
                    "{name}:{}: `{}` printed\n{printed}instead of\n{}",
                    t.line, t.command, t.shown
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {ran} transcripts differ (update the page from the tool's output):\n\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // Every skip stands for a transcript still on a page, once.
    for (entry, (start, why)) in SKIPPED.iter().enumerate() {
        let matched = skips.iter().filter(|&&e| e == entry).count();
        assert_eq!(
            matched,
            1,
            "the SKIPPED entry `{}` ({why}) matches {matched} transcripts, not one",
            start.trim_end()
        );
    }
    // The README's tour and the guide's examples of every command.
    assert!(ran >= 30, "only {ran} transcripts found");
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
