//! The command-line layer: parses arguments, runs a command, prints, and
//! turns every failure into one line on stderr and exit code 2.

mod analyze;
mod args;
mod check;
mod query;
mod simulate;
mod table;

use std::io::{self, IsTerminal, Write};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use args::{Cli, Command};
use prime_solve::echo::echo;

/// What a command concluded: the SPEC's exit codes 0 and 1.
pub enum Verdict {
    Yes,
    No,
}

pub fn run() -> ExitCode {
    let argv = match args::positionals_last(std::env::args_os().collect()) {
        Ok(argv) => argv,
        Err(err) => return usage_error(&err),
    };
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    let result = match cli.command {
        Command::Query(a) => query::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Analyze(a) => analyze::run(&a),
        Command::Table(a) => table::run(&a),
        Command::Simulate(a) => simulate::run(&a),
    };
    match result {
        Ok(Verdict::Yes) => ExitCode::SUCCESS,
        Ok(Verdict::No) => ExitCode::from(1),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("prime-solve: {}", echo(&format!("{err:#}")));
            ExitCode::from(2)
        }
    }
}

/// Clap's message folded into one line; help and version print as usual.
fn usage_error(err: &clap::Error) -> ExitCode {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let text = err.render().to_string();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .map(|l| l.trim_start_matches("error: "))
        .collect();
    eprintln!("prime-solve: {} (see --help)", echo(&lines.join(" ")));
    ExitCode::from(2)
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes the whole of a command's output to stdout at once.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// A bar on stderr counting `unit`, hidden when stderr is not a terminal
/// or with --quiet.
pub fn progress_bar(total: u64, unit: &str, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left"))
            .expect("a valid template"),
    );
    bar
}

/// A pool of `threads` workers (one per core when `None`).
pub fn thread_pool(threads: Option<u16>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        .build()
        .context("cannot start worker threads")
}
