//! The library's layers, as `docs/architecture.md` draws them: the core
//! builds without the command line's and the renderers' crates, and no
//! file or folder of the library depends on another in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The crates only the command line, the renderers or a server may bring.
const FRONT_END_CRATES: [&str; 11] = [
    "clap",
    "clap_complete",
    "clap_mangen",
    "crossterm",
    "indicatif",
    "signal-hook",
    "plotters",
    "pdf-writer",
    "axum",
    "tokio",
    "hyper",
];

#[test]
fn the_core_builds_without_the_front_ends_crates() {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--locked",
            "--offline",
            "-e",
            "normal",
            "--no-default-features",
            "--prefix",
            "none",
            "--format",
            "{p}",
            "--manifest-path",
        ])
        .arg(root().join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let names: BTreeSet<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(names.contains("rayon"), "{tree}");
    for name in FRONT_END_CRATES {
        assert!(!names.contains(name), "the core depends on {name}:\n{tree}");
    }
}

/// Every library file under `src/` (the binary's `cli/` and `main.rs`
/// aside) with its module path: `src/engine/plan.rs` is `engine::plan`,
/// `src/engine/mod.rs` is `engine`.
fn library_files() -> BTreeMap<Vec<String>, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = root().join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(&src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts[0] == "cli" || parts[0] == "main" {
                return None;
            }
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            Some((parts, path))
        })
        .collect()
}

/// The paths a file names: `crate::a::b`, `super::c`, and the items of
/// `use crate::{a::b, c}` and `use super::{d, e}`, its tests aside.
fn named_paths(text: &str) -> Vec<Vec<String>> {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut found = Vec::new();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for start in ["crate::", "super::"] {
        let head = start.trim_end_matches(':');
        for (at, _) in text.match_indices(start) {
            if text[..at].ends_with(word) {
                continue;
            }
            let rest = &text[at + start.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let mut path = vec![head.to_string()];
                    path.extend(item.trim().split("::").map(|s| s.trim().to_string()));
                    found.push(path);
                }
                continue;
            }
            let mut path = vec![head.to_string()];
            let mut rest = rest;
            loop {
                let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
                path.push(rest[..end].to_string());
                match rest[end..].strip_prefix("::") {
                    Some(more) if more.starts_with(word) => rest = more,
                    _ => break,
                }
            }
            found.push(path);
        }
    }
    found
}

/// The file `path` leads to from the module `from`: the longest module
/// that the path names.
fn resolve(
    modules: &BTreeMap<Vec<String>, PathBuf>,
    from: &[String],
    path: &[String],
) -> Option<Vec<String>> {
    let (mut base, mut rest): (Vec<String>, &[String]) = match path[0].as_str() {
        "crate" => (Vec::new(), &path[1..]),
        _ => (from.to_vec(), path),
    };
    while rest.first().is_some_and(|p| p == "super") {
        base.pop();
        rest = &rest[1..];
    }
    let mut best = None;
    for i in 0..=rest.len() {
        let mut candidate = base.clone();
        candidate.extend(rest[..i].iter().cloned());
        if modules.contains_key(&candidate) {
            best = Some(candidate);
        }
    }
    // The crate root re-exports everything: a path to it names no layer.
    best.filter(|m| !m.is_empty())
}

/// The groups of `graph` that depend on one another in a circle.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(graph.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    let mut found: Vec<BTreeSet<String>> = Vec::new();
    for (a, targets) in graph {
        for b in targets {
            if reaches(b, a) && !found.iter().any(|c| c.contains(a) && c.contains(b)) {
                found.push([a.clone(), b.clone()].into());
            }
        }
    }
    found
}

#[test]
fn no_file_or_folder_of_the_library_depends_on_another_in_a_circle() {
    let modules = library_files();
    assert!(modules.contains_key(&vec!["engine".to_string(), "plan".to_string()]));
    let mut files: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, path) in &modules {
        let text = fs::read_to_string(path).unwrap();
        let from = module.join("::");
        for named in named_paths(&text) {
            let Some(to) = resolve(&modules, module, &named) else {
                continue;
            };
            if &to != module {
                files.entry(from.clone()).or_default().insert(to.join("::"));
            }
            if !module.is_empty() && to[0] != module[0] {
                folders
                    .entry(module[0].clone())
                    .or_default()
                    .insert(to[0].clone());
            }
        }
    }
    assert!(
        files["engine::plan"].contains("engine::budget"),
        "the scan finds what a file uses: {:?}",
        files["engine::plan"]
    );
    assert_eq!(circles(&files), Vec::<BTreeSet<String>>::new(), "files");
    assert_eq!(circles(&folders), Vec::<BTreeSet<String>>::new(), "folders");
}

/// The scan would see a circle: it is not blind to one.
#[test]
fn a_circle_is_found() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), ["b".to_string()].into()),
        ("b".to_string(), ["c".to_string()].into()),
        ("c".to_string(), ["a".to_string()].into()),
    ]
    .into();
    assert_eq!(circles(&graph).len(), 3, "each edge of the circle");
    let mut line = graph.clone();
    line.remove("c");
    assert!(circles(&line).is_empty());
    let paths = named_paths("use crate::{deck::deal, hand::Hand};\nuse super::table::Build;");
    assert_eq!(paths.len(), 3, "{paths:?}");
}
