//! `prime-solve table`: strategy tables for three cards, to stdout or to
//! what `--out` names (a file, a symlink's target, a device or FIFO).

use anyhow::{Context, Result};

use prime_solve::analysis::analyze;
use prime_solve::report::strategy;

use super::write::{check_file, write_file};

use super::args::{TableArgs, TableFormat};
use super::{Spinner, Verdict, print, say};

pub(crate) fn run(args: &TableArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    if let Some(path) = &args.out {
        check_file(path).context("cannot write the table")?;
    }
    let spinner = Spinner::start("solving", false);
    let mut analysis = analyze(rules, 3, crate::cli::memory::budget(), &|_| {})?;
    analysis.count_ways(crate::cli::memory::budget())?;
    drop(spinner);
    let style = args.style.style();
    let text = match args.format {
        TableFormat::Md => strategy::markdown(&analysis, style),
        TableFormat::Csv => strategy::csv(&analysis, style),
    };
    match &args.out {
        None => print(&text)?,
        Some(path) => {
            write_file(path, text.as_bytes()).context("cannot write the table")?;
            say(&format!(
                "table: {} hands under {} written to {}",
                analysis.hands.len(),
                rules.name(),
                prime_solve::text::echo(&path.display().to_string())
            ));
        }
    }
    Ok(Verdict::Yes)
}
