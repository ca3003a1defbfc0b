//! `prime-solve crib`: a printable crib sheet for a rule set, as SVG or PDF.

use anyhow::{Context, Result, bail};

use prime_solve::analysis::analyze;
use prime_solve::report::{crib, pdf};

use super::write::{check_file, write_file};

use super::args::{CribArgs, CribFormat, PaperArg};
use super::{Spinner, Verdict, say};

pub(crate) fn run(args: &CribArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let path = &args.out;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let is_pdf = match (args.format, ext.as_deref()) {
        (Some(CribFormat::Pdf), Some("svg")) | (Some(CribFormat::Svg), Some("pdf")) => bail!(
            "--format and the file name {} disagree: give one or the other",
            prime_solve::text::echo(&path.display().to_string())
        ),
        (Some(format), _) => format == CribFormat::Pdf,
        (None, Some("pdf")) => true,
        (None, Some("svg")) => false,
        _ => bail!(
            "cannot tell the format of {}: end the file name in .pdf or .svg, or give --format",
            prime_solve::text::echo(&path.display().to_string())
        ),
    };
    let paper = match args.paper {
        PaperArg::A4 => crib::Paper::A4,
        PaperArg::Letter => crib::Paper::Letter,
    };
    check_file(path).context("cannot write the crib")?;
    let spinner = Spinner::start("solving", false);
    let analysis = analyze(rules, 3, crate::cli::memory::budget(), &|_| {})?;
    drop(spinner);
    let mut command = format!("prime-solve crib {}", rules_flags(args));
    if paper == crib::Paper::Letter {
        command.push_str(" --paper letter");
    }
    let sheet = crib::layout(&analysis, paper, command.trim_end());
    let bytes = if is_pdf {
        pdf::render(&sheet)
    } else {
        crib::svg(&sheet).into_bytes()
    };
    write_file(path, &bytes).context("cannot write the crib")?;
    say(&format!(
        "crib for {}: {} of {} written to {}",
        rules.name(),
        prime_solve::text::plural(sheet.pages.len(), "page", "pages"),
        paper.name(),
        prime_solve::text::echo(&path.display().to_string())
    ));
    Ok(Verdict::Yes)
}

/// The house-rule flags as typed, for the line on the page that says how
/// it was made.
fn rules_flags(args: &CribArgs) -> String {
    let r = args.rules.rules().unwrap_or_default();
    let mut flags = Vec::new();
    match r.faces {
        prime_solve::Faces::Five => {}
        prime_solve::Faces::Rank => flags.push("--faces rank".to_string()),
        prime_solve::Faces::Suit => flags.push("--faces suit".to_string()),
    }
    if r.powers {
        flags.push("--powers".into());
    }
    if r.juxtapose {
        flags.push("--juxtapose".into());
    }
    let funcs: Vec<&str> = [
        (r.functions.tri, "tri"),
        (r.functions.fact, "fact"),
        (r.functions.sqrt, "sqrt"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|&(_, n)| n)
    .collect();
    if !funcs.is_empty() {
        flags.push(format!("--functions {}", funcs.join(",")));
    }
    match r.max_prime {
        None => flags.push("--high-primes".into()),
        Some(p) if p != prime_solve::DEFAULT_MAX_PRIME => flags.push(format!("--max-prime {p}")),
        _ => {}
    }
    flags.join(" ")
}
