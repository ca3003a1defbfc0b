//! The command-line layer: parses arguments, runs a command, prints, and
//! turns every failure into one line on stderr and exit code 2.

mod analyze;
mod args;
mod check;
mod crib;
mod play;
mod practice;
mod query;
mod simulate;
mod table;
mod term;

use std::io::{self, IsTerminal, Write};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use args::{Cli, Command, MemoryArgs};
use prime_solve::engine::{Budget, Bytes, Charge, PER_THREAD};
use prime_solve::error::SolveError;

impl Command {
    /// The memory options of a command that solves hands.
    fn memory(&self) -> Option<&MemoryArgs> {
        match self {
            Command::Query(a) => Some(&a.memory),
            Command::Analyze(a) => Some(&a.memory),
            Command::Table(a) => Some(&a.memory),
            Command::Simulate(a) => Some(&a.memory),
            Command::Crib(a) => Some(&a.memory),
            Command::Play(a) => Some(&a.memory),
            Command::Check(_) | Command::Practice(_) => None,
        }
    }
}

/// What a command concluded: the SPEC's exit codes 0 and 1.
pub enum Verdict {
    Yes,
    No,
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    if let Some(limit) = cli.command.memory().and_then(|m| m.memory_limit) {
        Budget::process().set_limit(limit);
    }
    let result = match cli.command {
        Command::Query(a) => query::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Analyze(a) => analyze::run(&a),
        Command::Table(a) => table::run(&a),
        Command::Simulate(a) => simulate::run(&a),
        Command::Practice(a) => practice::run(&a),
        Command::Crib(a) => crib::run(&a),
        Command::Play(a) => play::run(&a),
    };
    match result {
        Ok(Verdict::Yes) => ExitCode::SUCCESS,
        Ok(Verdict::No) => ExitCode::from(1),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let hint = match err.downcast_ref::<SolveError>() {
                Some(SolveError::Memory { .. }) => {
                    "; use fewer cards or house rules, or raise --memory-limit"
                }
                _ => "",
            };
            eprintln!("prime-solve: {err:#}{hint}");
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
    eprintln!(
        "prime-solve: {} (see --help)",
        fold(&err.render().to_string())
    );
    ExitCode::from(2)
}

/// Clap's message on one line: the error and its tips, without the usage
/// and the pointer to --help. Lines of a paragraph are joined with spaces,
/// paragraphs with semicolons.
fn fold(text: &str) -> String {
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| {
            let lines: Vec<&str> = p.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            lines.join(" ")
        })
        .filter(|p| {
            !p.is_empty() && !p.starts_with("Usage:") && !p.starts_with("For more information")
        })
        .collect();
    paragraphs
        .join("; ")
        .trim_start_matches("error: ")
        .to_string()
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
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left, memory {{msg}}"
        ))
        .expect("a valid template"),
    );
    bar.set_message(memory_in_use());
    bar
}

/// One step of a progress bar; the memory in use is refreshed now and then.
pub fn tick(bar: &ProgressBar) {
    bar.inc(1);
    if bar.position().is_multiple_of(64) && !bar.is_hidden() {
        bar.set_message(memory_in_use());
    }
}

/// A pool of worker threads, with the memory each may use beside the
/// tables set aside in the budget.
pub struct Pool {
    pub pool: rayon::ThreadPool,
    _reserved: Charge,
}

impl Pool {
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.pool.install(op)
    }
}

/// A pool of `threads` workers (one per core when `None`); each worker's
/// stack and scratch memory ([`PER_THREAD`]) is charged to the budget.
pub fn thread_pool(threads: Option<u16>) -> anyhow::Result<Pool> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        .build()
        .context("cannot start worker threads")?;
    let threads = pool.current_num_threads() as u64;
    let budget = Budget::process();
    let reserved = budget.charge(threads * PER_THREAD).map_err(|_| {
        anyhow::anyhow!(
            "not enough memory for {threads} worker threads ({} each) within the limit of {}; \
             use fewer --threads or raise --memory-limit",
            Bytes(PER_THREAD),
            Bytes(budget.limit())
        )
    })?;
    Ok(Pool {
        pool,
        _reserved: reserved,
    })
}

/// The memory in use, for progress lines: `1.2 GiB of 12 GiB`.
pub fn memory_in_use() -> String {
    let budget = Budget::process();
    format!("{} of {}", Bytes(budget.used()), Bytes(budget.limit()))
}

/// A spinner on stderr for a search that may run long: it appears after
/// a second (never when stderr is not a terminal or with `quiet`) and
/// shows the sub-hand tables built and the memory in use; it goes when
/// dropped.
pub struct Spinner {
    done: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Spinner {
    pub fn start(what: &'static str, quiet: bool) -> Spinner {
        let (done, stop) = std::sync::mpsc::channel::<()>();
        let show = !quiet && io::stderr().is_terminal();
        let thread = std::thread::spawn(move || {
            use std::sync::mpsc::RecvTimeoutError::Timeout;
            if !show || stop.recv_timeout(std::time::Duration::from_secs(1)) != Err(Timeout) {
                return;
            }
            let spinner = ProgressBar::new_spinner();
            let budget = Budget::process();
            while stop.recv_timeout(std::time::Duration::from_millis(120)) == Err(Timeout) {
                spinner.set_message(format!(
                    "{what}: {} sub-hand tables built, memory {}",
                    budget.tables_built(),
                    memory_in_use()
                ));
                spinner.tick();
            }
            spinner.finish_and_clear();
        });
        Spinner {
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        let _ = self.done.send(());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
