//! The command-line layer: parses arguments, runs a command, prints, and
//! turns every failure into one line on stderr and exit code 2. `serve`
//! is parsed here and run by the binary's `main`, which hands its
//! arguments to the server as the server's own configuration.

mod advise;
mod analyze;
pub(crate) mod args;
mod check;
mod crib;
mod hints;
mod memory;
mod play;
mod practice;
mod query;
mod shard;
mod simulate;
mod table;
mod term;
mod write;

use std::io::{self, IsTerminal, Write};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use args::{Cli, Command, MemoryArgs};
use prime_solve::Charge;
use prime_solve::text::Bytes;
use prime_solve::text::echo;

pub(crate) use memory::address_space_limit;
use memory::{MIN_ADDRESS_SPACE, PER_THREAD, address_space_flag, most_within};
use prime_solve::text::plural;

impl Command {
    /// The memory options of a command that solves hands.
    fn memory(&self) -> Option<&MemoryArgs> {
        match self {
            Command::Query(a) => Some(&a.memory),
            Command::Analyze(a) => Some(&a.memory),
            Command::Merge(a) => Some(&a.memory),
            Command::Table(a) => Some(&a.memory),
            Command::Simulate(a) => Some(&a.memory),
            Command::Advise(a) => Some(&a.memory),
            Command::Crib(a) => Some(&a.memory),
            Command::Play(a) => Some(&a.memory),
            Command::Practice(a) => Some(&a.memory),
            Command::Check(_) | Command::Completions(_) | Command::Man(_) => None,
            #[cfg(feature = "serve")]
            Command::Serve(_) => None,
        }
    }

    /// `--threads`, for the commands that take it, if given: the pool is
    /// then built with that many, whatever `RAYON_NUM_THREADS` says.
    fn threads(&self) -> Option<u16> {
        match self {
            Command::Analyze(a) => a.work.threads,
            Command::Merge(a) => a.work.threads,
            Command::Simulate(a) => a.work.threads,
            Command::Advise(a) => a.work.threads,
            _ => None,
        }
    }
}

/// What a command concluded: the exit codes 0 and 1 of docs/rules.md §8.
pub(crate) enum Verdict {
    Yes,
    No,
}

/// Parses the command line and readies the process for the command (the
/// memory budget, the signals, the worker threads), or the exit code of a
/// refusal already said.
pub(crate) fn start() -> Result<Command, ExitCode> {
    // Refused before anything else starts (a thread, the signal handler):
    // below this the program itself does not fit.
    let flag = address_space_flag();
    if let Some(limit) = address_space_limit().filter(|&l| l < MIN_ADDRESS_SPACE) {
        // In KiB, as `ulimit -v` takes it: in MiB, 47103 KiB reads as 46.
        say(&format!(
            "prime-solve: the address space limit ({flag} {}) is too small to start; \
             prime-solve needs at least {flag} {} ({})",
            limit >> 10,
            MIN_ADDRESS_SPACE >> 10,
            Bytes(MIN_ADDRESS_SPACE)
        ));
        return Err(ExitCode::from(2));
    }
    let argv = match args::positionals_last(std::env::args_os().collect()) {
        Ok(argv) => argv,
        Err(err) => return Err(usage_error(&err)),
    };
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(err) => return Err(usage_error(&err)),
    };
    // The server shuts down gracefully on its own signals.
    #[cfg(feature = "serve")]
    let serving = matches!(cli.command, Command::Serve(_));
    #[cfg(not(feature = "serve"))]
    let serving = false;
    if !serving {
        clean_up_on_signals();
    }
    if let Some(limit) = cli.command.memory().and_then(|m| m.memory_limit) {
        // Past what the address space leaves, a small allocation could
        // fail before the budget says no: an abort, not a refusal.
        if let Some(space) = address_space_limit()
            && limit > most_within(space)
        {
            say(&format!(
                "prime-solve: --memory-limit {} is more than the address space limit \
                 ({flag} {}) leaves for the search, {}; give at most that, or raise {flag}",
                Bytes(limit),
                space >> 10,
                Bytes(most_within(space))
            ));
            return Err(ExitCode::from(2));
        }
        memory::budget().set_limit(limit);
    }
    if cli.command.threads().is_none()
        && let Err(err) = env_threads()
    {
        say(&format!("prime-solve: {err}"));
        return Err(ExitCode::from(2));
    }
    // The commands without a pool of their own work on rayon's global
    // one, started here with as many threads as the budget has room for
    // (at least one), so that it never fails to start halfway.
    let own_pool = matches!(
        cli.command,
        Command::Analyze(_)
            | Command::Merge(_)
            | Command::Simulate(_)
            | Command::Advise(_)
            | Command::Completions(_)
            | Command::Man(_)
    );
    if !own_pool && let Err(err) = global_pool() {
        say(&format!("prime-solve: {err:#}"));
        return Err(ExitCode::from(2));
    }
    Ok(cli.command)
}

/// Runs a command (any but `serve`, which `main` runs) and says how it
/// ended.
pub(crate) fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Query(a) => query::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Analyze(a) => analyze::run(&a),
        Command::Merge(a) => shard::merge(&a),
        Command::Table(a) => table::run(&a),
        Command::Simulate(a) => simulate::run(&a),
        Command::Advise(a) => advise::run(&a),
        Command::Practice(a) => practice::run(&a),
        Command::Crib(a) => crib::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Completions(a) => completions(a.shell),
        Command::Man(a) => man(a.command.as_deref()),
        #[cfg(feature = "serve")]
        Command::Serve(_) => unreachable!("`main` runs the server"),
    };
    conclude(result)
}

/// The exit code of a command's result, its error said in one line on
/// stderr with the flag that would help.
pub(crate) fn conclude(result: anyhow::Result<Verdict>) -> ExitCode {
    match result {
        Ok(Verdict::Yes) => ExitCode::SUCCESS,
        Ok(Verdict::No) => ExitCode::from(1),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let hint = hints::for_error(&err);
            say(&format!("prime-solve: {}{hint}", echo(&format!("{err:#}"))));
            ExitCode::from(2)
        }
    }
}

/// A completion script for `shell`, from the clap definition.
fn completions(shell: args::ShellName) -> anyhow::Result<Verdict> {
    use args::ShellName;
    use clap_complete::Shell;
    let shell = match shell {
        ShellName::Bash => Shell::Bash,
        ShellName::Zsh => Shell::Zsh,
        ShellName::Fish => Shell::Fish,
        ShellName::Powershell => Shell::PowerShell,
        ShellName::Elvish => Shell::Elvish,
        ShellName::Tcsh => {
            print(&tcsh_completions())?;
            return Ok(Verdict::Yes);
        }
    };
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "prime-solve", &mut out);
    print(&String::from_utf8(out)?)?;
    Ok(Verdict::Yes)
}

/// tcsh's `complete` line: the commands first, the values of the flags
/// that take a few, and every long flag of every command.
fn tcsh_completions() -> String {
    let cli = Cli::command();
    let commands: Vec<&str> = cli
        .get_subcommands()
        .map(clap::Command::get_name)
        .filter(|&n| n != "help")
        .collect();
    let mut flags: Vec<String> = Vec::new();
    let mut values: Vec<(String, Vec<String>)> = Vec::new();
    for command in std::iter::once(&cli).chain(cli.get_subcommands()) {
        for arg in command.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            flags.push(long.to_string());
            let possible: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            let takes = arg.get_action().takes_values();
            if takes && !possible.is_empty() && !values.iter().any(|(f, _)| f == long) {
                values.push((long.to_string(), possible));
            }
        }
    }
    flags.sort();
    flags.dedup();
    let mut line = format!(
        "# prime-solve completions for tcsh: `source` this file from ~/.tcshrc\n\
         complete prime-solve 'p/1/({})/'",
        commands.join(" ")
    );
    line.push_str(" 'n/completions/(bash zsh fish tcsh powershell elvish)/'");
    line.push_str(&format!(" 'n/man/({})/'", commands.join(" ")));
    for (flag, possible) in &values {
        line.push_str(&format!(" 'n/--{flag}/({})/'", possible.join(" ")));
    }
    line.push_str(&format!(" 'c/--/({})/'\n", flags.join(" ")));
    line
}

/// The manual page, from the clap definition.
fn man(command: Option<&str>) -> anyhow::Result<Verdict> {
    // Without clap's `help` command, which has no page of its own (the top
    // page referred to one).
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let page = match command {
        None => cli,
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                anyhow::bail!(
                    "no command `{}`: give one of {}",
                    echo(name),
                    cli.get_subcommands()
                        .map(clap::Command::get_name)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            };
            // Named as the top page refers to it: prime-solve-query(6).
            sub.clone().name(format!("prime-solve-{name}"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .source(concat!("prime-solve ", env!("CARGO_PKG_VERSION")))
        .section("6")
        .manual("Games")
        .render(&mut out)?;
    print(&examples_section(&String::from_utf8(out)?))?;
    Ok(Verdict::Yes)
}

/// Clap's text after the help, which the page calls EXTRA, as the
/// EXAMPLES section manual pages have (NOTES for other text), its lines
/// kept as they are written.
fn examples_section(page: &str) -> String {
    let Some(start) = page.find(".SH EXTRA\n") else {
        return page.to_string();
    };
    let body_start = start + ".SH EXTRA\n".len();
    let end = page[body_start..]
        .find("\n.SH ")
        .map_or(page.len(), |i| body_start + i + 1);
    let body = &page[body_start..end];
    let (heading, body) = match body.strip_prefix("Examples:\n") {
        Some(rest) => ("EXAMPLES", rest),
        None => ("NOTES", body),
    };
    format!(
        "{}.SH {heading}\n.nf\n{}\n.fi\n{}",
        &page[..start],
        body.trim_end_matches('\n'),
        &page[end..]
    )
}

/// Clap's message folded into one line; help and version print as usual.
fn usage_error(err: &clap::Error) -> ExitCode {
    // No command at all (`prime-solve`, `prime-solve --`): one line naming
    // them, as for any other usage error, not the whole help.
    if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let names: Vec<String> = Cli::command()
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .map(|c| c.get_name().to_string())
            .collect();
        say(&format!(
            "prime-solve: a command is needed: {} (see --help)",
            names.join(", ")
        ));
        return ExitCode::from(2);
    }
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        // Help that cannot be written (a full disk, `>/dev/full`) is a
        // failure; a reader that stopped early (`| head`) is not.
        match err.print().and_then(|()| io::stdout().flush()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                let what = if err.kind() == ErrorKind::DisplayVersion {
                    "version"
                } else {
                    "help"
                };
                say(&format!("prime-solve: cannot write the {what}: {e}"));
                return ExitCode::from(2);
            }
            _ => {}
        }
        return ExitCode::SUCCESS;
    }
    say(&format!(
        "prime-solve: {} (see --help)",
        echo(&fold(&err.render().to_string()))
    ));
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

/// One line on stderr. Unlike `eprintln!`, it does not panic when stderr
/// cannot be written (`2>/dev/full`): the exit code still tells.
pub(crate) fn say(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}").and_then(|()| err.flush());
}

/// On SIGINT, SIGTERM or SIGHUP, puts back what a write in progress has
/// replaced and removes its temporary files, and the terminal as it was
/// (`practice` and `play` put it in raw mode), then dies of the signal as
/// it would have.
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // The handlers are installed by the thread that waits for them, and
    // this one goes on once they are: where the system gives no thread
    // (`ulimit -u`), none is installed and the signals keep their default
    // action (the command runs on without the clean-up: a write in
    // progress still replaces its file whole or not at all, only its
    // temporary files may stay behind).
    let (ready, installed) = std::sync::mpsc::channel::<()>();
    let started = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            else {
                return;
            };
            let _ = ready.send(());
            if let Some(signal) = signals.forever().next() {
                // Held to the end: no write goes on after the clean-up.
                let _held = write::abandon();
                term::restore();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    if started.is_ok() {
        // An error: the thread could not install them, and has ended.
        let _ = installed.recv();
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes the whole of a command's output to stdout at once.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    print_with(|out| out.write_all(text.as_bytes()))
}

/// Writes a command's output to stdout as `write` makes it, buffered.
pub(crate) fn print_with(
    write: impl FnOnce(&mut io::BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// A bar on stderr counting `unit`, hidden when stderr is not a terminal
/// or with --quiet.
pub(crate) fn progress_bar(total: u64, unit: &str, quiet: bool) -> ProgressBar {
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

/// The bar of a sweep: its length is the expected work (hands weighted by
/// cost), and it shows hands done, elapsed time, rate and time left.
pub(crate) fn sweep_bar(work: u64, hands: u64, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(work);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {percent:>3}% {msg}; {elapsed} elapsed, about {eta} left",
        )
        .expect("a valid template"),
    );
    bar.set_message(format!("0/{hands} hands, memory {}", memory_in_use()));
    bar
}

/// One step of a progress bar; the memory in use is refreshed now and then.
pub(crate) fn tick(bar: &ProgressBar) {
    bar.inc(1);
    if bar.position().is_multiple_of(64) && !bar.is_hidden() {
        bar.set_message(memory_in_use());
    }
}

/// A pool of worker threads, with the memory each may use beside the
/// tables set aside in the budget.
pub(crate) struct Pool {
    pub(crate) pool: rayon::ThreadPool,
    _reserved: Charge,
}

impl Pool {
    pub(crate) fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.pool.install(op)
    }
}

/// A pool of `threads` workers (else as many as `RAYON_NUM_THREADS` asks
/// for, else one per core); each worker's stack and scratch memory
/// ([`PER_THREAD`]) is charged to the budget before any is started.
pub(crate) fn thread_pool(threads: Option<u16>) -> anyhow::Result<Pool> {
    let from_env = if threads.is_some() {
        None
    } else {
        env_threads()?
    };
    let (count, asked) = match (threads, from_env) {
        (Some(n), _) => (u64::from(n), "use fewer --threads or raise --memory-limit"),
        (None, Some(n)) => (
            n,
            "lower RAYON_NUM_THREADS, give --threads N or raise --memory-limit",
        ),
        (None, None) => (
            std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
            "give --threads N (fewer) or raise --memory-limit",
        ),
    };
    let budget = memory::budget();
    let reserved = budget.charge(count * PER_THREAD).map_err(|_| {
        anyhow::anyhow!(
            "not enough memory for {} ({} each) within the limit of {}; {}",
            plural(count, "worker thread", "worker threads"),
            Bytes(PER_THREAD),
            Bytes(budget.limit()),
            if count == 1 {
                "raise --memory-limit"
            } else {
                asked
            }
        )
    })?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(usize::try_from(count).unwrap_or(1))
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start worker threads: {e}"))?;
    Ok(Pool {
        pool,
        _reserved: reserved,
    })
}

/// Starts rayon's global pool for a command that takes no `--threads`:
/// as many workers as `RAYON_NUM_THREADS` or the cores ask for, but no
/// more than the budget would have room for at [`PER_THREAD`] each (these
/// commands are not charged for them), and at least one; started here,
/// so that a pool that cannot start is an error, not a panic halfway.
fn global_pool() -> anyhow::Result<()> {
    let wanted = env_threads()?
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    let budget = memory::budget();
    let room = budget.limit().saturating_sub(budget.used()) / PER_THREAD;
    // Where the system gives no thread (`ulimit -u`), a refusal in one
    // line (rayon takes no second try at its global pool). The error's
    // source repeats its message: it is given once.
    rayon::ThreadPoolBuilder::new()
        .num_threads(usize::try_from(wanted.min(room).max(1)).unwrap_or(1))
        .build_global()
        .map_err(|e| anyhow::anyhow!("cannot start worker threads: {e}"))
}

/// The worker threads `RAYON_NUM_THREADS` asks for, as rayon reads it
/// (a positive whole number; anything else is ignored).
///
/// # Errors
/// More than `--threads` takes: rayon would start them all before any
/// check, for every command that works in parallel.
fn env_threads() -> anyhow::Result<Option<u64>> {
    let asked = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&n| n > 0);
    if let Some(n) = asked
        && n > u64::from(args::MAX_THREADS)
    {
        anyhow::bail!(
            "RAYON_NUM_THREADS={n} asks for more worker threads than the {} allowed; lower it \
             (or give --threads, where a command takes it)",
            args::MAX_THREADS
        );
    }
    Ok(asked)
}

/// The memory in use, for progress lines: `1.2 GiB of 12 GiB`.
pub(crate) fn memory_in_use() -> String {
    let budget = memory::budget();
    format!("{} of {}", Bytes(budget.used()), Bytes(budget.limit()))
}

/// A spinner on stderr for a search that may run long: it appears after
/// a second (never when stderr is not a terminal or with `quiet`) and
/// shows the sub-hand tables built and the memory in use; it goes when
/// dropped.
pub(crate) struct Spinner {
    done: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Spinner {
    pub(crate) fn start(what: &'static str, quiet: bool) -> Spinner {
        let (done, stop) = std::sync::mpsc::channel::<()>();
        let show = !quiet && io::stderr().is_terminal();
        // No spinner where the system gives no thread (`ulimit -u`).
        let thread = std::thread::Builder::new().spawn(move || {
            use std::sync::mpsc::RecvTimeoutError::Timeout;
            if !show || stop.recv_timeout(std::time::Duration::from_secs(1)) != Err(Timeout) {
                return;
            }
            let spinner = ProgressBar::new_spinner();
            let budget = memory::budget();
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
            thread: thread.ok(),
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
