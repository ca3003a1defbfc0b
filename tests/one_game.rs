//! One live game: the game's rules live in the library's driver
//! (`game::Live`), and the front ends that play it — `play` at a terminal
//! or from a script, and the server's rooms — only render its events. They
//! name none of the types and functions that resolve a combination, settle
//! it, end a game or choose its winner.

use std::fs;
use std::path::{Path, PathBuf};

/// The words that resolve or end a game: the turn's resolution, the
/// game's own halves of a combination, the record being written, the
/// winner's rule, and the calls as the driver counts them.
const RULES_OF_THE_GAME: [&str; 10] = [
    "resolve",
    "Outcome",
    "settle",
    "record_mut",
    "leader",
    "calls_until",
    "Record",
    "winner =",
    ".step(",
    "play(",
];

fn front_end_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![
        root.join("src/cli/play.rs"),
        root.join("src/cli/play/screen.rs"),
    ];
    for entry in fs::read_dir(root.join("src/serve/rooms")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The file's code, comments left out: a comment may speak of a rule.
fn code(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where `word` stands in `text` as a word of its own (not inside a
/// longer identifier such as `resolved`).
fn uses(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let starts = word.starts_with(is_ident);
        let ends = word.ends_with(is_ident);
        !(starts && before.is_some_and(is_ident) || ends && after.is_some_and(is_ident))
    })
}

#[test]
fn the_front_ends_hold_no_rule_of_the_game() {
    let files = front_end_files();
    assert!(files.len() >= 4, "{files:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = code(path);
        for word in RULES_OF_THE_GAME {
            if uses(&text, word) {
                found.push(format!("{}: {word}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a front end holds a rule of the game: {found:#?}"
    );
}

#[test]
fn the_check_finds_a_rule_written_into_a_front_end() {
    // The same check on a front end that decides its own winner.
    let bad = "let winner = held.iter().position(|&h| h == most);\nlet o = resolve(&calls, t);";
    assert!(uses(bad, "resolve"));
    assert!(uses(bad, "winner ="));
    assert!(!uses("resolved_at", "resolve"));
    assert!(!uses("the Outcomes", "Outcome"));
    assert!(uses("Outcome::Win(w)", "Outcome"));
}
