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

/// What a command concluded: the SPEC's exit codes 0 and 1.
pub enum Verdict {
    Yes,
    No,
}

pub fn run() -> ExitCode {
    clean_up_on_signals();
    let cli = match Cli::try_parse() {
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
            say(&format!("prime-solve: {err:#}"));
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
        // Help that cannot be written (a full disk, `>/dev/full`) is a
        // failure; a reader that stopped early (`| head`) is not.
        match err.print().and_then(|()| io::stdout().flush()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                say(&format!("prime-solve: cannot write the help: {e}"));
                return ExitCode::from(2);
            }
            _ => {}
        }
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
    say(&format!("prime-solve: {} (see --help)", lines.join(" ")));
    ExitCode::from(2)
}

/// One line on stderr. Unlike `eprintln!`, it does not panic when stderr
/// cannot be written (`2>/dev/full`): the exit code still tells.
fn say(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}").and_then(|()| err.flush());
}

/// On SIGINT, SIGTERM or SIGHUP, puts back what a write in progress has
/// replaced and removes its temporary files, then dies of the signal as
/// it would have.
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // Held to the end: no write goes on after the clean-up.
            let _held = prime_solve::report::abandon();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
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
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
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
