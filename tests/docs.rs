//! The documentation kept honest: README.md, docs/ and reports/ speak only
//! of the tool (no word of how it was made), every relative link in
//! README.md and docs/ reaches a file or a heading, the README stays a
//! front page of at most 300 lines, docs/architecture.md lists every
//! file under src/, and the guide's CSV columns are those the commands
//! write. CHANGELOG.md is where history goes, and is not scanned.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` whose name ends with `ext`, sorted.
fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.to_string_lossy().ends_with(ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

// ---- (a) the words of how the project was made ----

/// Phrases that tell of the tool's making or of its earlier versions.
const PHRASES: [&str; 10] = [
    "used to be",
    "it used to",
    "until now",
    "until this",
    "it was once",
    "latest machine",
    "slower machine",
    "earlier machine",
    "previous machine",
    "earlier version",
];

/// Uses of the words that are about something else: a cited title.
const ALLOWED: [&str; 1] = ["a review of data and theory"];

/// Whether the `seed` word at `start..end` of `line` (lowercase) is a
/// random seed: `--seed`, `seed 4`, `seed S`, `a seed`, `seeded`.
fn is_random_seed(line: &str, start: usize, end: usize) -> bool {
    let word = &line[start..end];
    let before = &line[..start];
    let after = &line[end..];
    if word == "seeded"
        || before.ends_with("--")
        || [b'`', b'&', b'?', b'"']
            .iter()
            .any(|&c| before.ends_with(c as char))
    {
        // `seeded`, `--seed`, a field or a parameter named `seed`
        // (`"seed":`, `?seed=5`, `&seed=S`).
        return true;
    }
    let mut next = after.chars();
    if next.next() == Some(' ')
        && next.next().is_some_and(|c| {
            c.is_ascii_digit()
                || c == 's'
                    && after[2..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric())
        })
    {
        // `seed 4`, `seed S` (a placeholder, lowercased here).
        return true;
    }
    if word == "seeds" && (after.starts_with('/') || after.starts_with(" a ")) {
        // A fuzzing corpus's folder, or the verb.
        return true;
    }
    ["same ", "a ", "random ", "run's ", "its ", "their "]
        .iter()
        .any(|p| before.ends_with(p))
}

/// The words of the project's making in one page: (line, word) pairs.
fn process_words(text: &str) -> Vec<(usize, String)> {
    let mut hits = Vec::new();
    for (n, original) in text.lines().enumerate() {
        let mut line = original.to_lowercase();
        for allowed in ALLOWED {
            line = line.replace(allowed, "");
        }
        for phrase in PHRASES {
            if line.contains(phrase) {
                hits.push((n + 1, phrase.to_string()));
            }
        }
        // Words: runs of letters and apostrophes.
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !bytes[i].is_ascii_alphabetic() {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'\'') {
                i += 1;
            }
            let word = &line[start..i];
            let stem = word.trim_end_matches("'s");
            let flagged = match stem {
                "session" | "sessions" => {
                    let before = &line[..start];
                    !(before.ends_with("tmux ") || before.ends_with('-'))
                }
                "issue" | "issues" | "issued" | "review" | "reviews" | "reviewed" | "reviewer" => {
                    true
                }
                "seed" | "seeds" | "seeded" => {
                    word.ends_with("'s") || !is_random_seed(&line, start, start + stem.len())
                }
                _ => false,
            };
            if flagged {
                hits.push((n + 1, original.trim().to_string()));
            }
        }
    }
    hits
}

#[test]
fn the_pages_speak_only_of_the_tool() {
    let mut pages = vec![root().join("README.md")];
    pages.extend(files_under(&root().join("docs"), ".md"));
    pages.extend(files_under(&root().join("reports"), ".md"));
    let mut found = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        for (line, what) in process_words(&text) {
            found.push(format!("{}:{line}: {what}", relative(page)));
        }
    }
    assert!(
        found.is_empty(),
        "words of how the project was made (history goes in CHANGELOG.md):\n{}",
        found.join("\n")
    );
    assert!(pages.len() > 50, "only {} pages scanned", pages.len());
}

#[test]
fn the_word_scan_finds_what_it_should_and_only_that() {
    let page = "fine: --seed 4, seed 1, seed S, a seed, seeded, the same seed, seeds/claim, `seed`\n\
                a tmux session, tmux new-session -d, a review of data and theory\n\
                measured in the latest session\n\
                see issue 8\n\
                as a review found\n\
                the seed's house rules\n\
                drawn from the seed\n\
                it used to be refused\n";
    let lines: Vec<usize> = process_words(page).iter().map(|h| h.0).collect();
    assert_eq!(lines, [3, 4, 5, 6, 7, 8, 8]);
}

// ---- (b) links ----

/// A heading's anchor as GitHub makes it: lowercase, punctuation dropped
/// (letters, digits, `-` and `_` kept), spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The page without its fenced blocks and code spans, where brackets are
/// not links.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if !fenced {
            let mut in_code = false;
            for c in line.chars() {
                if c == '`' {
                    in_code = !in_code;
                    out.push(' ');
                } else if in_code && c != '[' && c != ']' && c != '(' && c != ')' {
                    // Code spans keep their text (a link's label may be
                    // code), but not their brackets.
                    out.push(c);
                } else if !in_code {
                    out.push(c);
                } else {
                    out.push(' ');
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Every heading's anchor of a page, with `-1`, `-2` for repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut name = base.clone();
        let mut n = 0;
        while seen.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        seen.insert(name);
    }
    seen
}

/// Every `[label](target)` link of a page: (line, target).
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in prose(text).lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((n + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// What is wrong with each relative link of `page`, if anything.
fn broken_links(page: &Path) -> Vec<String> {
    let text = fs::read_to_string(page).unwrap();
    let mut broken = Vec::new();
    for (line, target) in links(&text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((f, a)) => (f, Some(a)),
            None => (target.as_str(), None),
        };
        let path = if file.is_empty() {
            page.to_path_buf()
        } else {
            page.parent().unwrap().join(file)
        };
        let at = format!("{}:{line}: ({target})", relative(page));
        if !path.exists() {
            broken.push(format!("{at}: no such file"));
            continue;
        }
        if let Some(anchor) = anchor {
            let headings = fs::read_to_string(&path)
                .map(|t| anchors(&t))
                .unwrap_or_default();
            if !headings.contains(anchor) {
                broken.push(format!("{at}: no heading #{anchor} there"));
            }
        }
    }
    broken
}

#[test]
fn every_link_reaches_a_file_or_a_heading() {
    let mut pages = vec![root().join("README.md")];
    pages.extend(files_under(&root().join("docs"), ".md"));
    let mut broken = Vec::new();
    let mut count = 0;
    for page in &pages {
        count += links(&fs::read_to_string(page).unwrap()).len();
        broken.extend(broken_links(page));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(count > 50, "only {count} links found");
}

#[test]
fn links_and_anchors_are_read_as_github_reads_them() {
    assert_eq!(slug(" 4.4 Ceiling and bound"), "44-ceiling-and-bound");
    assert_eq!(
        slug(" `query CARDS...` — every prime"),
        "query-cards--every-prime"
    );
    let page = "# A\n## A\n```text\n# not a heading\n```\nsee [x](b.md#c) and `[y](z)`\n";
    assert_eq!(
        anchors(page),
        BTreeSet::from(["a".to_string(), "a-1".to_string()])
    );
    assert_eq!(links(page), [(6, "b.md#c".to_string())]);

    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("b.md"), "## C\n").unwrap();
    let page = dir.path().join("a.md");
    fs::write(
        &page,
        "[fine](b.md#c) [no file](nope.md) [no heading](b.md#d) [here](#e)\n",
    )
    .unwrap();
    let broken = broken_links(&page);
    assert_eq!(broken.len(), 3, "{broken:?}");
    assert!(broken[0].contains("(nope.md): no such file"));
    assert!(broken[1].contains("no heading #d"));
    assert!(broken[2].contains("no heading #e"));
}

// ---- (c) the README is a front page ----

#[test]
fn the_readme_is_at_most_300_lines() {
    let lines = fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the manual goes in docs/"
    );
}

// ---- (d) the architecture page is true to the tree ----

#[test]
fn the_architecture_page_lists_every_source_file() {
    let page = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let listed: BTreeSet<String> = page
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|code| code.starts_with("src/") && code.ends_with(".rs"))
        .map(str::to_string)
        .collect();
    let tree: BTreeSet<String> = files_under(&root().join("src"), ".rs")
        .iter()
        .map(|p| relative(p))
        .collect();
    let missing: Vec<_> = tree.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&tree).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "docs/architecture.md: files under src/ not listed: {missing:?}; listed but not in src/: {gone:?}"
    );
}

// ---- (e) the guide's CSV columns are the files' ----

/// The columns the guide's bullet that opens with `opening` names, in
/// order: each `name` in backticks shaped like a column (lowercase,
/// digits, `_`), the first time it stands there, less `words` (code in
/// the bullet that is no column).
fn guide_columns(opening: &str, words: &[&str]) -> Vec<String> {
    let guide = fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let start = guide
        .find(&format!("\n{opening}"))
        .unwrap_or_else(|| panic!("docs/guide.md has no bullet `{opening}`"));
    let rest = &guide[start + 1..];
    let end = rest[1..]
        .find("\n- ")
        .into_iter()
        .chain(rest.find("\n\n"))
        .min()
        .unwrap_or(rest.len());
    let mut columns: Vec<String> = Vec::new();
    for code in rest[..=end].split('`').skip(1).step_by(2) {
        let shaped = code.starts_with(|c: char| c.is_ascii_lowercase())
            && code
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if shaped && !words.contains(&code) && !columns.iter().any(|c| c == code) {
            columns.push(code.to_string());
        }
    }
    columns
}

/// The header row of `file` once `args` have written it to a fresh folder
/// (`DIR` in `args` stands for the folder).
fn header_written(args: &[&str], file: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|&a| if a == "DIR" { folder } else { a })
        .collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prime-solve"))
        .args(&args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    let text = if file.is_empty() {
        String::from_utf8(out.stdout).unwrap()
    } else {
        fs::read_to_string(dir.path().join(file)).unwrap()
    };
    let header = text.lines().next().unwrap_or_default();
    header.split(',').map(str::to_string).collect()
}

#[test]
fn the_guides_csv_columns_are_those_the_files_have() {
    assert_eq!(
        guide_columns("- `hands.csv` (`analyze`):", &["analyze", "hard"]),
        header_written(&["analyze", "-q", "--out", "DIR"], "five/hands.csv"),
        "docs/guide.md's columns of hands.csv"
    );
    assert_eq!(
        guide_columns("- `table -f csv`:", &[]),
        header_written(&["table", "-f", "csv"], ""),
        "docs/guide.md's columns of table -f csv"
    );
    assert_eq!(
        guide_columns("- `games.csv` (`simulate --out`):", &[]),
        header_written(
            &["simulate", "--games", "2", "-q", "--out", "DIR"],
            "games.csv"
        ),
        "docs/guide.md's columns of games.csv"
    );
}
