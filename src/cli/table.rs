//! `prime-solve table`: strategy tables for three cards, to stdout or a file.

use anyhow::{Context, Result};

use prime_solve::analysis::analyze;
use prime_solve::expr::Style;
use prime_solve::report::{File, strategy, write_files};

use super::args::{TableArgs, TableFormat};
use super::{Spinner, Verdict, print};

pub fn run(args: &TableArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let spinner = Spinner::start("solving", false);
    let analysis = analyze(rules, 3, &|| {})?;
    drop(spinner);
    let style = Style {
        brackets: args.brackets.brackets(),
        ..Style::default()
    };
    let text = match args.format {
        TableFormat::Md => strategy::markdown(&analysis, style),
        TableFormat::Csv => strategy::csv(&analysis, style),
    };
    match &args.out {
        None => print(&text)?,
        Some(path) => {
            let name = path
                .file_name()
                .with_context(|| format!("{} is not a file name", path.display()))?;
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => std::path::Path::new("."),
            };
            write_files(dir, &[File::new(name, text)])
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(Verdict::Yes)
}
