//! The layers, as `docs/architecture.md` draws them: the core builds
//! without the command line's and the renderers' crates, and no file or
//! folder under `src/`, the library's or the binary's, depends on another
//! in a circle.

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

/// The modules of one crate under `src/`, each with its file:
/// `src/engine/plan.rs` is `engine::plan`, `src/engine/mod.rs` is
/// `engine`, the crate's root file is the empty path.
type Modules = BTreeMap<Vec<String>, PathBuf>;

/// The library's modules (`src/lib.rs` and every file but the binary's)
/// and the binary's (`src/main.rs`, `src/cli/` and `src/serve/`).
fn crates() -> (Modules, Modules) {
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
    let (mut library, mut binary) = (Modules::new(), Modules::new());
    for path in files {
        let rel = path.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let crate_root = rel == Path::new("lib") || rel == Path::new("main");
        if crate_root || parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        let of_binary =
            rel == Path::new("main") || parts.first().is_some_and(|p| p == "cli" || p == "serve");
        if of_binary {
            binary.insert(parts, path);
        } else {
            library.insert(parts, path);
        }
    }
    (library, binary)
}

/// A path a file names: where it starts (`crate`, `super` or
/// `prime_solve`) and the names after it.
type Named = Vec<String>;

/// The paths a file names from each of `heads` (`crate::a::b`,
/// `super::c`, `prime_solve::d`), with every item of a `use` tree
/// (`use crate::{a::{b, c}, d}`), its tests aside.
fn named_paths(text: &str, heads: &[&str]) -> Vec<Named> {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut found = Vec::new();
    for &head in heads {
        let start = format!("{head}::");
        for (at, _) in text.match_indices(&start) {
            // `super::super::x` is read once, from its first `super`.
            if text[..at].ends_with(word) || text[..at].ends_with("::") {
                continue;
            }
            let tree = use_tree(&text[at + start.len()..]);
            expand(vec![head.to_string()], tree, &mut found);
        }
    }
    found
}

fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The path or `use` tree at the start of `text`: names joined by `::`,
/// ending at most in one `{…}` group, its braces balanced.
fn use_tree(text: &str) -> &str {
    let mut end = 0;
    loop {
        let rest = &text[end..];
        if rest.starts_with('{') {
            let mut depth = 0;
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    return &text[..end + i + 1];
                }
            }
            return text;
        }
        let name = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        if name == 0 {
            break;
        }
        end += name;
        match text[end..].strip_prefix("::") {
            Some(more) if more.starts_with(word) || more.starts_with('{') => end += 2,
            _ => break,
        }
    }
    &text[..end]
}

/// Each path of the `use` tree `tree` under `prefix`: `a::{b, c::d}`
/// is `a::b` and `a::c::d`; `self` is the prefix itself, `x as y` is `x`.
fn expand(prefix: Named, tree: &str, out: &mut Vec<Named>) {
    let tree = tree.trim();
    if let Some(group) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut from) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix.clone(), &group[from..i], out);
                    from = i + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &group[from..], out);
        return;
    }
    let mut path = prefix;
    match tree.split_once("::") {
        Some((name, rest)) => {
            path.push(name.trim().to_string());
            expand(path, rest, out);
        }
        None => {
            let name = tree.split(|c: char| !word(c)).next().unwrap_or("");
            if !name.is_empty() && name != "self" {
                path.push(name.to_string());
            }
            out.push(path);
        }
    }
}

/// The module `path` leads to from the module `from` of the crate
/// `modules` (`prime_solve` paths lead into `library`): the longest module
/// that the path names. `None` for the crate's root, which re-exports (the
/// library) or only declares (the binary): a path to it names no layer.
fn resolve<'m>(
    modules: &'m Modules,
    library: &'m Modules,
    from: &[String],
    path: &[String],
) -> Option<(&'m Modules, Vec<String>)> {
    let (within, mut base, mut rest): (&Modules, Vec<String>, &[String]) = match path[0].as_str() {
        "crate" => (modules, Vec::new(), &path[1..]),
        "prime_solve" => (library, Vec::new(), &path[1..]),
        _ => (modules, from.to_vec(), path),
    };
    while rest.first().is_some_and(|p| p == "super") {
        base.pop();
        rest = &rest[1..];
    }
    let mut best = None;
    for i in 0..=rest.len() {
        let mut candidate = base.clone();
        candidate.extend(rest[..i].iter().cloned());
        if within.contains_key(&candidate) {
            best = Some(candidate);
        }
    }
    best.filter(|m| !m.is_empty()).map(|m| (within, m))
}

/// A graph of files or folders, each edge with the first path that makes
/// it (to name it when it closes a circle).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// Adds the edge `from → to`, named by `path`, unless it is there already.
fn add(graph: &mut Graph, from: &str, to: &str, path: &[String]) {
    graph
        .entry(from.to_string())
        .or_default()
        .entry(to.to_string())
        .or_insert_with(|| path.join("::"));
}

/// How a file is named in a graph: its path under the package
/// (`src/cli/analyze.rs`).
fn file_name(modules: &Modules, module: &[String]) -> String {
    let path = &modules[module];
    path.strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// How a top-level module is named in the folders' graph: its folder
/// (`src/engine/`) or, where it is one file, the file (`src/card.rs`).
fn folder_name(modules: &Modules, module: &[String]) -> String {
    let top = &module[..1];
    let file = file_name(modules, top);
    match file.strip_suffix("mod.rs") {
        Some(folder) => folder.to_string(),
        None => file,
    }
}

/// The graphs of what names what under `src/`: file by file, and folder
/// by folder (each top-level module, its files together).
fn graphs() -> (Graph, Graph) {
    let (library, binary) = crates();
    assert!(library.contains_key(&vec!["engine".to_string(), "plan".to_string()]));
    assert!(binary.contains_key(&vec!["cli".to_string(), "shard".to_string()]));
    let mut files = Graph::new();
    let mut folders = Graph::new();
    for (modules, heads) in [
        (&library, &["crate", "super"][..]),
        (&binary, &["crate", "super", "prime_solve"][..]),
    ] {
        for (module, path) in modules {
            let text = fs::read_to_string(path).unwrap();
            let from = file_name(modules, module);
            for named in named_paths(&text, heads) {
                let Some((within, to)) = resolve(modules, &library, module, &named) else {
                    continue;
                };
                let to_file = file_name(within, &to);
                if to_file != from {
                    add(&mut files, &from, &to_file, &named);
                }
                if !module.is_empty() {
                    let (a, b) = (folder_name(modules, module), folder_name(within, &to));
                    if a != b {
                        add(&mut folders, &a, &b, &named);
                    }
                }
            }
        }
    }
    (files, folders)
}

/// The circles of `graph`, one for each group of nodes that reach one
/// another, as a readable path: the group's first node, a shortest way
/// round back to it, each step with the path that makes it, and the rest
/// of the group if the way round leaves some out.
fn circles(graph: &Graph) -> Vec<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            for next in graph.get(&n).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|n| (n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for (node, reached) in &reaches {
        if done.contains(*node) || !reached.contains(*node) {
            continue;
        }
        let group: BTreeSet<String> = reached
            .iter()
            .filter(|m| reaches.get(m).is_some_and(|r| r.contains(*node)))
            .cloned()
            .collect();
        done.extend(group.iter().cloned());
        found.push(way_round(graph, node, &group));
    }
    found
}

/// A shortest way from `start` round to itself within `group`, written
/// one step a line, and the members of `group` it does not pass.
fn way_round(graph: &Graph, start: &str, group: &BTreeSet<String>) -> String {
    // Breadth first from `start`: each node's predecessor.
    let mut before: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut last = start;
    'search: while let Some(n) = queue.pop_front() {
        for next in graph[n].keys().filter(|m| group.contains(*m)) {
            if next == start {
                last = n;
                break 'search;
            }
            if !before.contains_key(next.as_str()) {
                before.insert(next, n);
                queue.push_back(next);
            }
        }
    }
    assert!(graph[last].contains_key(start), "{start} is in a circle");
    // Back from `last` along the predecessors, which end at `start`.
    let mut way = vec![start, last];
    while let Some(&prev) = before.get(way.last().unwrap()) {
        way.push(prev);
    }
    way.reverse();
    let mut text = start.to_string();
    for step in way.windows(2) {
        text.push_str(&format!("\n  → {} ({})", step[1], graph[step[0]][step[1]]));
    }
    let others: Vec<&str> = group
        .iter()
        .map(String::as_str)
        .filter(|n| !way.contains(n))
        .collect();
    if !others.is_empty() {
        text.push_str(&format!("\n  (in the same circle: {})", others.join(", ")));
    }
    text
}

#[test]
fn no_file_or_folder_depends_on_another_in_a_circle() {
    let (files, folders) = graphs();
    for (from, to, path) in [
        (
            "src/engine/plan.rs",
            "src/engine/budget.rs",
            "a library file",
        ),
        (
            "src/cli/shard.rs",
            "src/cli/analyze/sweep.rs",
            "a binary file",
        ),
        (
            "src/cli/shard.rs",
            "src/shard.rs",
            "the binary's use of the library",
        ),
    ] {
        assert!(
            files.get(from).is_some_and(|t| t.contains_key(to)),
            "the scan finds what {path} uses: {from} → {to} in {:?}",
            files.get(from)
        );
    }
    let circles: Vec<String> = circles(&files)
        .into_iter()
        .map(|c| format!("files: {c}"))
        .chain(
            circles(&folders)
                .into_iter()
                .map(|c| format!("folders: {c}")),
        )
        .collect();
    assert!(
        circles.is_empty(),
        "{} circles:\n{}",
        circles.len(),
        circles.join("\n")
    );
}

/// A graph of `edges`, each named by its ends.
fn graph_of(edges: &[(&str, &str)]) -> Graph {
    let mut graph = Graph::new();
    for (a, b) in edges {
        add(&mut graph, a, b, &[format!("{a}>{b}")]);
    }
    graph
}

/// The detector sees a circle, names it as a path, and sees none in a
/// graph without one.
#[test]
fn a_circle_is_found_and_named_as_a_path() {
    let graph = graph_of(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")]);
    assert_eq!(
        circles(&graph),
        ["a\n  → b (a>b)\n  → c (b>c)\n  → a (c>a)"],
        "one circle, the way round"
    );
    let mut line = graph.clone();
    line.get_mut("c").unwrap().remove("a");
    assert_eq!(circles(&line), Vec::<String>::new());
    // Two circles apart, and a group larger than its shortest way round.
    let graph = graph_of(&[
        ("a", "b"),
        ("b", "a"),
        ("b", "c"),
        ("c", "b"),
        ("x", "y"),
        ("y", "x"),
    ]);
    assert_eq!(
        circles(&graph),
        [
            "a\n  → b (a>b)\n  → a (b>a)\n  (in the same circle: c)",
            "x\n  → y (x>y)\n  → x (y>x)",
        ]
    );
    let self_loop = graph_of(&[("a", "a")]);
    assert_eq!(circles(&self_loop), ["a\n  → a (a>a)"]);
}

/// The real graph, with one edge added that closes a circle, has that
/// circle and names the files it passes.
#[test]
fn an_edge_made_on_purpose_closes_a_circle() {
    let (mut files, _) = graphs();
    add(
        &mut files,
        "src/engine/budget.rs",
        "src/engine/plan.rs",
        &["crate".into(), "engine".into(), "plan".into()],
    );
    let circles = circles(&files);
    assert!(
        circles.iter().any(|c| c.contains("src/engine/budget.rs")
            && c.contains("src/engine/plan.rs")
            && c.contains("(crate::engine::plan)")),
        "{circles:?}"
    );
}

/// The scan reads `use` trees, nested groups, renames and `self`, and
/// `super::super` once.
#[test]
fn the_scan_reads_use_trees() {
    let paths = named_paths(
        "use crate::{deck::deal, hand::{self, Hand as H}};\n\
         use super::table::Build;\nlet x = super::super::term::Line;\n\
         use prime_solve::analysis::{Analysis, NotDone};",
        &["crate", "super", "prime_solve"],
    );
    let paths: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        [
            "crate::deck::deal",
            "crate::hand",
            "crate::hand::Hand",
            "super::table::Build",
            "super::super::term::Line",
            "prime_solve::analysis::Analysis",
            "prime_solve::analysis::NotDone",
        ]
    );
}
