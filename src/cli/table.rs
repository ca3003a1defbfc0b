//! `prime-solve table`: strategy tables for three cards, to stdout or to
//! what `--out` names (a file, a symlink's target, a device or FIFO).

use anyhow::{Context, Result};

use prime_solve::analysis::analyze;
use prime_solve::report::{strategy, write_file};

use super::args::{TableArgs, TableFormat};
use super::{Verdict, print};

pub fn run(args: &TableArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let analysis = analyze(rules, 3, &|| {})?;
    let text = match args.format {
        TableFormat::Md => strategy::markdown(&analysis),
        TableFormat::Csv => strategy::csv(&analysis),
    };
    match &args.out {
        None => print(&text)?,
        Some(path) => write_file(path, text.as_bytes()).context("cannot write the table")?,
    }
    Ok(Verdict::Yes)
}
