//! Reports: each format renders text from an analysis; the caller writes
//! the files.

pub mod advice;
pub mod crib;
pub mod csv;
mod font;
pub mod grid;
pub mod index;
pub mod json;
pub mod pdf;
pub mod plot;
pub mod simulation;
pub mod strategy;
pub mod summary;
mod wrap;

use std::path::PathBuf;

use crate::analysis::{Analysis, NotDone};
use crate::style::Style;

/// A file to write, with its path relative to the output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub path: PathBuf,
    pub contents: String,
}

impl File {
    pub fn new(path: impl Into<PathBuf>, contents: String) -> File {
        File {
            path: path.into(),
            contents,
        }
    }
}

/// Which files of a rule set's folder to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// `hands.csv`, `summary.md` and the plots (the plot of primes per
    /// deal only where they were counted).
    #[default]
    Full,
    /// `summary.md` alone (without its plot): for sweeps whose lists of
    /// every hand's primes run to hundreds of megabytes.
    Summaries,
}

/// Every report for these analyses: a folder each (`hands.csv`,
/// `summary.md`, plots, or as `detail` says) and the index `README.md`
/// (which also lists the rule sets `not_done`, and links to the
/// `companions` beside it: [`index::COMPANIONS`] whose files are there),
/// witnesses printed in `style`.
///
/// ```
/// use prime_solve::analysis::analyze;
/// use prime_solve::report::{Detail, render};
/// use prime_solve::{Budget, Rules, Style};
///
/// let a = analyze(Rules::default(), 3, &Budget::unlimited(), &|_| {})?;
/// let files = render(&[a], &[], Style::UNICODE, Detail::Full, &[]);
/// let names: Vec<String> = files.iter().map(|f| f.path.display().to_string()).collect();
/// assert!(names.contains(&"five/summary.md".to_string()));
/// assert!(names.contains(&"five/hands.csv".to_string()));
/// assert_eq!(names.last().map(String::as_str), Some("README.md"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(
    analyses: &[Analysis],
    not_done: &[NotDone],
    style: Style,
    detail: Detail,
    companions: &[index::Companion],
) -> Vec<File> {
    let mut files = Vec::new();
    for a in analyses {
        let folder = PathBuf::from(a.folder());
        let full = detail == Detail::Full;
        if full {
            files.push(File::new(folder.join("hands.csv"), csv::hands(a, style)));
        }
        files.push(File::new(
            folder.join("summary.md"),
            summary::render(a, style, full),
        ));
        if full && a.counted() {
            files.push(File::new(
                folder.join(plot::PRIME_COUNTS),
                plot::prime_counts(a),
            ));
            if a.cards == 3 {
                files.push(File::new(folder.join(grid::GRID), grid::grid(a)));
            }
        }
    }
    files.push(File::new(
        "README.md",
        index::render(analyses, not_done, companions),
    ));
    files
}

/// Values as a space-separated list.
pub(crate) fn list<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
