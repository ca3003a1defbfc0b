//! The command line: clap's view of it, turned into the library's plain
//! types (`Rules`, `Hand`) before anything else sees it.
//!
//! The file holds every command's flags, each declared once and shared
//! where commands take the same (`RuleArgs`, `StyleArgs`, `MemoryArgs`).

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::builder::{EnumValueParser, PossibleValue, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use prime_solve::game::{Endgame, Models};
use prime_solve::ways::Shown;
use prime_solve::{Brackets, Card, Style};
use prime_solve::{Faces, Func, Functions, Hand, Rules};

#[derive(Parser)]
#[command(
    name = "prime-solve",
    version,
    about = "Exact solver and analyst for David Parlett's card game Prime Time",
    long_about = "Exact solver and analyst for David Parlett's card game Prime Time: \
                  make a prime from every card on the table with + − × ÷ \
                  (and, by house rule, powers, juxtaposition and functions).\n\n\
                  Exit codes: 0 yes (primes found, claim valid), 1 a clean no \
                  (query: the hand fails; check: the claim is wrong), 2 bad input \
                  or a refusal. The other commands exit 0 when they have done what \
                  was asked, whatever they found (analyze with failing hands too).",
    after_help = "Examples:\n  \
                  prime-solve query 4 6 8                     every prime 4, 6, 8 make\n  \
                  prime-solve check 4 6 8 \"(6 x 4) / 8\"       rule on a claim\n  \
                  prime-solve analyze --faces rank -o /tmp/r   every hand, with reports\n  \
                  prime-solve table -f csv                     strategy table as CSV\n  \
                  prime-solve simulate --players expert,club,novice\n  \
                  prime-solve completions bash > ~/.local/share/bash-completion/completions/prime-solve\n  \
                  prime-solve man > ~/.local/share/man/man6/prime-solve.6"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Every prime one hand can make, each with its simplest witness.
    #[command(
        after_help = "Examples:\n  prime-solve query 4 6 8\n  prime-solve query 2 3 6 --powers\n  prime-solve query QH KS JK --faces suit --format json"
    )]
    Query(QueryArgs),
    /// Rule on a player's claim like a strict opponent.
    #[command(
        after_help = "Examples:\n  prime-solve check 4 6 8 \"(6 x 4) / 8\"\n  prime-solve check 2 7 9 \"7*9/2\"\n  prime-solve check 2 3 6 \"2^6 + 3\" --powers\n  prime-solve check 2 3 6 \"-2 + 3 + 6\""
    )]
    Check(CheckArgs),
    /// Solve every hand the pack deals and write reports (CSV, Markdown, SVG).
    #[command(
        after_help = "Examples:\n  prime-solve analyze\n  prime-solve analyze --all-rules --out reports\n  prime-solve analyze --cards 6 --faces rank --out /tmp/six\n  prime-solve analyze --cards 4 --all-rules --shard 3/8 --out part3   (then prime-solve merge)"
    )]
    Analyze(AnalyzeArgs),
    /// Merge the parts of a sweep run as shards (`analyze --shard I/N`) into
    /// the reports one `analyze` run writes, byte for byte.
    #[command(
        after_help = "Examples:\n  mkdir -p parts; for i in 1 2 3; do prime-solve analyze --shard $i/3 --out parts/$i; done\n  prime-solve merge --out reports parts/1 parts/2 parts/3\n\nSee docs/distributed.md for GNU parallel, Slurm and Kubernetes."
    )]
    Merge(MergeArgs),
    /// Print strategy tables for the table: best and quickest call per hand.
    #[command(
        after_help = "Examples:\n  prime-solve table\n  prime-solve table --faces rank --out reports/table-rank.md\n  prime-solve table --format csv"
    )]
    Table(TableArgs),
    /// Play the full game many times with player models and report how it goes.
    #[command(
        after_help = "Examples:\n  prime-solve simulate\n  prime-solve simulate --players expert,club,novice --games 5000\n  prime-solve simulate --two-player --players expert,novice --out /tmp/duel\n  prime-solve simulate --study reports/simulation.md"
    )]
    Simulate(SimulateArgs),
    /// The house-rule advisor: what each house rule does to the game, exact
    /// and simulated, set against Parlett's own advice.
    #[command(
        after_help = "Examples:\n  prime-solve advise\n  prime-solve advise --out reports/house-rules.md\n  prime-solve advise --games 500 --format json"
    )]
    Advise(AdviseArgs),
    /// A drill: deal hands, time your calls, see every answer and a score.
    #[command(
        after_help = "Examples:\n  prime-solve practice\n  prime-solve practice --rounds 20 --faces rank --time-limit 30 --history drill.csv\n  prime-solve practice --history drill.csv --stats\n  printf '9*6-1\\n\\n' | prime-solve practice --seed 1 --rounds 2 --format json"
    )]
    Practice(PracticeArgs),
    /// Draw a printable crib sheet: every hand's best prime and quickest call.
    #[command(
        after_help = "Examples:\n  prime-solve crib --out crib.pdf\n  prime-solve crib --faces rank --out reports/crib-rank.pdf\n  prime-solve crib --powers --paper letter --out crib.svg"
    )]
    Crib(CribArgs),
    /// Play the game in real time against bots (the simulator's player models).
    #[command(
        after_help = "Examples:\n  prime-solve play\n  prime-solve play --bots expert,club,novice --powers\n  prime-solve play --bots beginner,beginner --pause 3\n  prime-solve play --two-player --bots novice\n  prime-solve play --seed 3 --script moves.txt --format json"
    )]
    Play(PlayArgs),
    /// Print a shell completion script to standard output.
    #[command(
        after_help = "Install (bash): prime-solve completions bash > ~/.local/share/bash-completion/completions/prime-solve\n\
                      Install (zsh):  prime-solve completions zsh > ~/.zfunc/_prime-solve   (with fpath+=~/.zfunc)\n\
                      Install (fish): prime-solve completions fish > ~/.config/fish/completions/prime-solve.fish\n\
                      Install (tcsh): prime-solve completions tcsh > ~/.prime-solve.tcsh   (and `source ~/.prime-solve.tcsh` in ~/.tcshrc)"
    )]
    Completions(CompletionsArgs),
    /// Print a manual page (roff) to standard output: the tool's, or one
    /// command's.
    #[command(
        after_help = "Install: prime-solve man > ~/.local/share/man/man6/prime-solve.6\n\
                      and each command's: prime-solve man query > ~/.local/share/man/man6/prime-solve-query.6"
    )]
    Man(ManArgs),
    /// Serve the JSON API over HTTP, for a page or a program at the table.
    #[cfg(feature = "serve")]
    #[command(
        after_help = "Examples:\n  prime-solve serve\n  prime-solve serve --port 9000\n  prime-solve serve --addr 127.0.0.1:9000\n  prime-solve serve --lan --port 9000\n  curl 'http://127.0.0.1:8080/api/v1/query?cards=4,6,8'"
    )]
    Serve(ServeArgs),
}

/// How the server listens, and the limits of each request.
#[cfg(feature = "serve")]
#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on (port 0: any free port).
    #[arg(
        long,
        value_name = "HOST:PORT",
        default_value = "127.0.0.1:8080",
        conflicts_with = "port"
    )]
    pub(crate) addr: std::net::SocketAddr,
    /// The port to listen on, on this machine (127.0.0.1:PORT; under
    /// --lan, on every interface): --addr with its port alone.
    #[arg(long, value_name = "PORT")]
    pub(crate) port: Option<u16>,
    /// The memory one request's search may use: past it the request is
    /// refused (503), never the server.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "1G")]
    pub(crate) request_memory: u64,
    /// Seconds a request may take before it is answered 503.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) time_limit: u64,
    /// How many heavy searches (five cards or more, or four under functions
    /// or any prime) may run at once; more are answered 429.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub(crate) heavy: u64,
    /// How many heavy searches one address may start a minute; past its
    /// share it is answered 429. Light requests (three cards, most four)
    /// are never counted.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(crate) heavy_per_minute: u32,
    /// Listen on every interface (at --port, or --addr's port) and print this
    /// machine's address on the local network with a QR code of it, for
    /// the phones at the table.
    #[arg(long)]
    pub(crate) lan: bool,
    /// Append each finished game of the rooms to FILE, one JSON line a
    /// game, written whole and synced.
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<std::path::PathBuf>,
    /// The most connections one address may hold open (pages, requests
    /// and rooms' WebSockets); more are closed at once.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(crate) connections_per_address: u64,
    /// How many game rooms one address may make a minute.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) rooms_per_minute: u32,
    /// The most game rooms open at once.
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub(crate) max_rooms: u64,
}

#[cfg(feature = "serve")]
impl ServeArgs {
    /// Where to listen: `--addr`, or this machine at `--port`.
    pub(crate) fn listen(&self) -> std::net::SocketAddr {
        self.port.map_or(self.addr, |port| {
            std::net::SocketAddr::from(([127, 0, 0, 1], port))
        })
    }
}

#[derive(Args)]
pub(crate) struct ManArgs {
    /// The command whose page to print (the pages `prime-solve(6)` refers to).
    #[arg(value_name = "COMMAND")]
    pub(crate) command: Option<String>,
}

#[derive(Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: ShellName,
}

/// A shell `completions` writes for: clap's, and tcsh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ShellName {
    Bash,
    Zsh,
    Fish,
    Tcsh,
    Powershell,
    Elvish,
}

/// The house rules, shared by every command.
#[derive(Args)]
pub(crate) struct RuleArgs {
    /// How face cards count.
    #[arg(long, value_enum, default_value = "five", help_heading = "House rules")]
    pub(crate) faces: Faces,
    /// Allow powers x^y and exact roots root(x, y).
    #[arg(long, help_heading = "House rules")]
    pub(crate) powers: bool,
    /// Allow cards written side by side: 7, 8 → 78 or 87.
    #[arg(long, help_heading = "House rules")]
    pub(crate) juxtapose: bool,
    /// Allow these functions on any card or sub-result (comma-separated).
    #[arg(
        long,
        value_parser = FunctionsParser,
        value_delimiter = ',',
        value_name = "LIST",
        help_heading = "House rules"
    )]
    pub(crate) functions: Vec<Func>,
    /// How many functions may be nested on one value (1-3).
    #[arg(
        long,
        value_name = "D",
        default_value_t = 1,
        value_parser = parse_function_depth,
        allow_negative_numbers = true,
        requires = "functions",
        help_heading = "House rules"
    )]
    pub(crate) function_depth: u8,
    /// Allow any prime, not only primes up to 97.
    #[arg(long, conflicts_with = "max_prime", help_heading = "House rules")]
    pub(crate) high_primes: bool,
    /// The highest prime a player may call [default: 97].
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_max_prime,
        allow_negative_numbers = true,
        help_heading = "House rules"
    )]
    pub(crate) max_prime: Option<u64>,
    /// Prune every value beyond ±N [default: 2^64 − 1].
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_max_value,
        allow_negative_numbers = true,
        help_heading = "House rules"
    )]
    pub(crate) max_value: Option<u64>,
}

/// `--functions` items: the names, and a clear word on an empty item
/// (`tri,,fact`), which clap would call a missing value.
#[derive(Clone)]
struct FunctionsParser;

impl TypedValueParser for FunctionsParser {
    type Value = Func;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Func, clap::Error> {
        if value.is_empty() {
            let empty = |_: &str| -> Result<Func, String> {
                Err(
                    "an empty item in the list: use a comma-separated list of tri, fact, sqrt"
                        .into(),
                )
            };
            return empty.parse_ref(cmd, arg, value);
        }
        EnumValueParser::<Func>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Func::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

/// A whole number in `min..=max`, or what to write instead; `why` explains
/// the lower bound.
fn whole_number(s: &str, min: u64, max: u64, why: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ if max < u64::MAX => Err(format!("use {min} to {max}")),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("too large: use at most {max}"))
        }
        _ if min == 0 => Err(format!("use a whole number from 0 to {max}")),
        _ => Err(format!("use a whole number of at least {min} ({why})")),
    }
}

/// [`whole_number`] within `u32`.
fn whole_u32(s: &str, max: u32, why: &str) -> Result<u32, String> {
    whole_number(s, 1, u64::from(max), why).map(|n| u32::try_from(n).expect("at most max"))
}

fn parse_max_turns(s: &str) -> Result<u32, String> {
    whole_u32(s, 1_000_000, "a game takes at least one turn")
}

fn parse_rounds(s: &str) -> Result<u32, String> {
    whole_u32(s, 100_000, "at least one hand")
}

fn parse_turns(s: &str) -> Result<u32, String> {
    whole_u32(s, u32::MAX, "at least one combination")
}

fn parse_function_depth(s: &str) -> Result<u8, String> {
    let max = prime_solve::MAX_FUNCTION_DEPTH;
    whole_number(s, 1, u64::from(max), "").map(|d| u8::try_from(d).expect("at most the maximum"))
}

fn parse_max_prime(s: &str) -> Result<u64, String> {
    whole_number(
        s,
        2,
        u64::MAX,
        "the lowest prime is 2; --high-primes allows any prime",
    )
}

fn parse_max_value(s: &str) -> Result<u64, String> {
    whole_number(s, 13, u64::MAX, "every card must fit")
}

impl RuleArgs {
    pub(crate) fn rules(&self) -> Result<Rules> {
        // `tri,tri` (or `--functions tri --functions tri`) is a slip, not
        // a second triangular number: said, not read as one.
        for (i, f) in self.functions.iter().enumerate() {
            if self.functions[..i].contains(f) {
                anyhow::bail!(
                    "--functions names {} twice: list each of tri, fact, sqrt at most once",
                    f.name()
                );
            }
        }
        let functions = Functions::from(self.functions.clone());
        let defaults = Rules::default();
        let rules = Rules {
            faces: self.faces,
            powers: self.powers,
            juxtapose: self.juxtapose,
            functions,
            function_depth: self.function_depth,
            max_prime: if self.high_primes {
                None
            } else {
                Some(self.max_prime.unwrap_or(prime_solve::DEFAULT_MAX_PRIME))
            },
            max_value: self.max_value.unwrap_or(defaults.max_value),
        };
        rules.validate()?;
        Ok(rules)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
}

/// How results are printed.
#[derive(Args)]
pub(crate) struct OutputArgs {
    /// Output format.
    #[arg(short, long, value_enum, default_value = "text")]
    pub(crate) format: Format,
}

/// How witnesses and cards are written: the one `--ascii` and
/// `--brackets` of every command that writes them.
#[derive(Args)]
pub(crate) struct StyleArgs {
    /// Write * / ^, sqrt() and suits as letters instead of × ÷ √ and ♥.
    #[arg(long)]
    pub(crate) ascii: bool,
    /// Brackets in witnesses: `minimal` (10 + 8 ÷ 8) or `full`, every
    /// compound operand bracketed (10 + (8 ÷ 8)), for classrooms.
    #[arg(long, value_enum, value_name = "HOW", default_value = "minimal")]
    pub(crate) brackets: Brackets,
}

impl StyleArgs {
    /// The style the flags ask for.
    pub(crate) fn style(&self) -> Style {
        Style {
            ascii: self.ascii,
            brackets: self.brackets,
        }
    }
}

/// Whether a query counts the ways to each prime.
#[derive(Args)]
pub(crate) struct WaysArgs {
    /// Count the essentially different ways to make each prime (`--ways`),
    /// or list one example of each, simplest first (`--ways all`); and the
    /// hand's difficulty from them. Two ways are one when they compute the
    /// same function of the cards: 6 × 4 ÷ 8 is 6 ÷ (8 ÷ 4).
    #[arg(long, value_name = "all", num_args = 0..=1, default_missing_value = "count", value_enum)]
    pub(crate) ways: Option<Shown>,
}

/// Whether a query's witnesses come worked, one operation a line.
#[derive(Args)]
pub(crate) struct StepsArgs {
    /// Work each witness one operation a line: (6 × 4) ÷ 8 is 6 × 4 = 24,
    /// 24 ÷ 8 = 3.
    #[arg(long)]
    pub(crate) steps: bool,
}

/// How a long job runs: its threads and its progress bar.
#[derive(Args)]
pub(crate) struct WorkArgs {
    /// Worker threads [default: one per core]. Output is the same for any number.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)), allow_negative_numbers = true)]
    pub(crate) threads: Option<u16>,
    /// Do not draw the progress bar.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// Where the player models come from.
#[derive(Args)]
pub(crate) struct ModelsArgs {
    /// Player models and the table's timing from a TOML file (see
    /// --print-models): its models join expert, club and novice, or replace
    /// one of the same name.
    #[arg(long, value_name = "FILE")]
    pub(crate) models: Option<PathBuf>,
    /// Print the player models (the built-in ones, with --models FILE's) as
    /// TOML, and exit.
    #[arg(long, conflicts_with = "format")]
    pub(crate) print_models: bool,
}

impl ModelsArgs {
    /// The built-in models, with the file's.
    pub(crate) fn load(&self) -> Result<Models> {
        let Some(path) = &self.models else {
            return Ok(Models::default());
        };
        let shown = path.display().to_string();
        let shown = prime_solve::text::echo(&shown);
        let text = read_capped(path, prime_solve::game::MAX_MODELS_FILE as u64)
            .with_context(|| format!("cannot read the models file {shown}"))?;
        Models::from_toml(&text).map_err(|e| anyhow::anyhow!("models file {shown}: {e}"))
    }
}

/// The text of the file at `path`, reading no more than `cap` bytes and one
/// more: a file longer than that (or a device that never ends, such as
/// /dev/zero) is refused without being read whole.
pub(crate) fn read_capped(path: &std::path::Path, cap: u64) -> Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        anyhow::bail!("it is longer than {}", prime_solve::text::Bytes(cap));
    }
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("it is not UTF-8 text"))
}

/// How much memory a search may use.
#[derive(Args)]
pub(crate) struct MemoryArgs {
    /// Refuse a search (exit 2) that would hold more than SIZE of tables,
    /// e.g. 4G, 512M [default: half the physical memory, less under ulimit -v].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) memory_limit: Option<u64>,
}

fn parse_size(s: &str) -> Result<u64, String> {
    super::memory::parse_size(s)
}

/// The most worker threads `--threads` takes.
pub(crate) const MAX_THREADS: u16 = 256;

/// How the cards on the command line are read, shared by the commands that
/// take cards.
#[derive(Args)]
pub(crate) struct HandArgs {
    /// Accept any hand, not only what the 54-card pack deals: more than four
    /// of a value, three Jokers, a card named twice, 11-13 under any faces.
    #[arg(long)]
    pub(crate) any_values: bool,
}

#[derive(Args)]
pub(crate) struct QueryArgs {
    /// The visible cards (2-6): values 1-13, cards like QH 10s 7♦ T, Jokers JK.
    #[arg(required = true, value_name = "CARDS", allow_negative_numbers = true)]
    pub(crate) cards: Vec<String>,
    /// Also list every reachable value, not only the primes.
    #[arg(long)]
    pub(crate) values: bool,
    #[command(flatten)]
    pub(crate) steps: StepsArgs,
    #[command(flatten)]
    pub(crate) ways: WaysArgs,
    #[command(flatten)]
    pub(crate) hand: HandArgs,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    #[command(flatten)]
    pub(crate) style: StyleArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

/// `check`'s cards and claim are read after a `--` that
/// [`positionals_last`] inserts, so both allow a leading `-`.
#[derive(Args)]
pub(crate) struct CheckArgs {
    /// The visible cards (2-6): values 1-13, cards like QH 10s 7♦ T, Jokers JK.
    #[arg(required = true, value_name = "CARDS", allow_hyphen_values = true)]
    pub(crate) cards: Vec<String>,
    /// The claim, in quotes: "(6 x 4) / 8". It may start with `-`; options
    /// may come before or after it.
    #[arg(value_name = "CLAIM", allow_hyphen_values = true)]
    pub(crate) claim: String,
    #[command(flatten)]
    pub(crate) hand: HandArgs,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

#[derive(Args)]
pub(crate) struct AnalyzeArgs {
    /// Sweep all 72 rule sets: faces {five, rank, suit} × powers × juxtapose ×
    /// functions {none, tri, tri+fact+sqrt} × high primes (--function-depth and
    /// --max-value apply to each).
    #[arg(long, conflicts_with_all = ["faces", "powers", "juxtapose", "functions", "high_primes", "max_prime"])]
    pub(crate) all_rules: bool,
    /// With --all-rules, only the 36 rule sets with the prime ceiling (up to
    /// 97): for six cards, where most of those with high primes do not fit.
    #[arg(long, requires = "all_rules")]
    pub(crate) ceiling_only: bool,
    /// Count every prime of every hand, also where the census stops at 97
    /// (five cards or more, any prime, functions): hours of work, and lists
    /// of tens of thousands of primes per hand.
    #[arg(long)]
    pub(crate) count_every_prime: bool,
    /// Go on past rule sets whose search does not fit the memory limit:
    /// they are listed as not done (in the index, and on stdout) and the
    /// others are written. The searches then run one after another, each
    /// with what the results before it leave of the limit; which fit is
    /// decided by each search's projection before it starts, the same on
    /// every run with the same limit and threads except near the limit.
    #[arg(long)]
    pub(crate) skip_refused: bool,
    /// Cards per hand (2-6).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=6), allow_negative_numbers = true)]
    pub(crate) cards: u8,
    /// The folder to write reports to (created if its parent exists); with
    /// --shard, the folder of the part.
    #[arg(short, long, value_name = "DIR", default_value = "reports")]
    pub(crate) out: PathBuf,
    /// Solve only the I-th of N parts of the hands (balanced by their
    /// expected cost) and write that part to --out, for `prime-solve
    /// merge`: e.g. --shard 3/8. A part already finished in --out is left
    /// as it is (docs/distributed.md).
    #[arg(long, value_name = "I/N", requires = "out", value_parser = |s: &str| s.parse::<prime_solve::shard::Shard>())]
    pub(crate) shard: Option<prime_solve::shard::Shard>,
    /// Write only the index and each rule set's summary.md, not hands.csv
    /// and the plots (for sweeps of four cards or more, whose hands.csv
    /// lists hundreds of megabytes of primes).
    #[arg(long)]
    pub(crate) summaries_only: bool,
    /// Do not count the essentially different ways to each prime (counted
    /// by default for three cards, and four without functions: the `ways`
    /// and `difficulty` columns of hands.csv and the hardest hands of the
    /// summaries).
    #[arg(long)]
    pub(crate) no_ways: bool,
    /// Print the answers as text, or as one JSON object (see docs/guide.md).
    #[arg(short, long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) style: StyleArgs,
    #[command(flatten)]
    pub(crate) work: WorkArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The folder to write the reports to (created if its parent exists),
    /// as `analyze --out` writes them.
    #[arg(short, long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// The parts' folders, each written by `analyze --shard I/N --out
    /// PART`: every part of one sweep, each once.
    #[arg(value_name = "PART", required = true)]
    pub(crate) parts: Vec<PathBuf>,
    /// Print the answers as text, or as one JSON object, as `analyze` does.
    #[arg(short, long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) work: WorkArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TableFormat {
    /// Markdown: every hand, the grid, and the index by prime.
    Md,
    /// CSV: the per-hand table.
    Csv,
}

#[derive(Args)]
pub(crate) struct TableArgs {
    /// Output format.
    #[arg(short, long, value_enum, default_value = "md")]
    pub(crate) format: TableFormat,
    /// Write to this file instead of standard output, through symlinks: a
    /// regular file is replaced whole or not at all, a device or FIFO is
    /// written as it is.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) style: StyleArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

#[derive(Args)]
pub(crate) struct SimulateArgs {
    /// One player model per seat, comma-separated: expert, club, novice, or
    /// a model of --models FILE [default: three experts, or two with
    /// --two-player].
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub(crate) players: Vec<String>,
    /// The two-player game with an 18-card stockpile.
    #[arg(long)]
    pub(crate) two_player: bool,
    /// What the last two players do once the others are out (three or more
    /// players): the two-player stockpile game, play on with two cards,
    /// stop at the first player out (the most cards wins), or the one
    /// behind (or ahead) turns two cards. See docs/rules.md for why the
    /// stockpile is the default.
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        default_value = "stockpile",
        conflicts_with = "two_player"
    )]
    pub(crate) endgame: Endgame,
    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = parse_games, allow_negative_numbers = true)]
    pub(crate) games: u64,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// Also write summary.md, games.csv and game-length.svg to this folder.
    #[arg(short, long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Print the summary as text, or as one JSON object (see docs/guide.md).
    #[arg(short, long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    /// Run the fixed study of reports/simulation.md (several scenarios) and write it as
    /// Markdown to FILE.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["players", "two_player", "out", "format", "faces", "powers", "juxtapose", "functions", "high_primes", "max_prime"])]
    pub(crate) study: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) work: WorkArgs,
    #[command(flatten)]
    pub(crate) models: ModelsArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

/// The seed and the turn cap of simulated games.
#[derive(Args)]
pub(crate) struct RunArgs {
    /// The seed: the same seed gives the same games for any thread count.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub(crate) seed: u64,
    /// Stop a game as unfinished after this many turns (at most 1,000,000).
    #[arg(long, value_name = "T", default_value_t = 5000, value_parser = parse_max_turns, allow_negative_numbers = true)]
    pub(crate) max_turns: u32,
}

#[derive(Args)]
pub(crate) struct AdviseArgs {
    /// Games per line-up and house rule.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = parse_games, allow_negative_numbers = true)]
    pub(crate) games: u64,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// Write the report as Markdown to FILE (reports/house-rules.md).
    #[arg(short, long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Print the report as Markdown text, or as one JSON object (see docs/guide.md).
    #[arg(short, long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) style: StyleArgs,
    #[command(flatten)]
    pub(crate) work: WorkArgs,
    #[command(flatten)]
    pub(crate) models: ModelsArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
}

fn parse_seed(s: &str) -> Result<u64, String> {
    whole_number(s, 0, u64::MAX, "")
}

fn parse_games(s: &str) -> Result<u64, String> {
    whole_number(s, 1, 10_000_000, "")
}

/// The command line with `check`'s options moved before its cards and
/// claim, and a `--` between them. Clap alone would take a claim such as
/// `-2 + 3 + 6` for an unknown option, and a card list that options
/// interrupt (`check 4 6 8 --powers "6+4-8"`) for two lists.
///
/// An argument is an option when it is `--` and a letter (`--powers`,
/// `--format=json`) or `-` and letters only (`-h`); an option that takes a
/// value takes the next argument too. Everything else is a card or the
/// claim, and so is everything after a `--` the user typed. An option
/// `check` does not have is an error here: after the `--` clap would read
/// it as a card.
pub(crate) fn positionals_last(args: Vec<OsString>) -> Result<Vec<OsString>, clap::Error> {
    if args.get(1).is_none_or(|a| a != "check") {
        return Ok(args);
    }
    let mut cli = Cli::command();
    cli.build();
    let Some(check) = cli.find_subcommand_mut("check") else {
        return Ok(args);
    };
    let mut rest = args.into_iter();
    let mut out: Vec<OsString> = rest.by_ref().take(2).collect();
    let mut positionals = Vec::new();
    while let Some(arg) = rest.next() {
        let Some(text) = arg.to_str() else {
            positionals.push(arg);
            continue;
        };
        if text == "--" {
            positionals.extend(rest.by_ref());
            break;
        }
        if let Some((short, value)) = attached_value(check, text) {
            // Apart: clap reads `-fjson` as a card where cards may start
            // with `-`.
            out.extend([format!("-{short}").into(), value.into()]);
            continue;
        }
        if !is_option(text) {
            positionals.push(arg);
            continue;
        }
        let known = check
            .get_arguments()
            .find(|a| match text.strip_prefix("--") {
                Some(long) => a.get_long() == long.split('=').next(),
                None => text.chars().skip(1).all(|c| a.get_short() == Some(c)),
            });
        let Some(known) = known else {
            let message = format!("unexpected argument '{text}' found");
            return Err(check.error(clap::error::ErrorKind::UnknownArgument, message));
        };
        let needs_value = known.get_action().takes_values() && !text.contains('=');
        out.push(arg);
        if needs_value && let Some(value) = rest.next() {
            out.push(value);
        }
    }
    if !positionals.is_empty() {
        out.push("--".into());
        out.extend(positionals);
    }
    Ok(out)
}

/// A short option with its value attached (`-fjson`, `-f=json`): only where
/// the value is one the option takes, as a claim may start the same way
/// (`-fact(3) + 4 + 6`).
fn attached_value<'a>(check: &clap::Command, arg: &'a str) -> Option<(char, &'a str)> {
    let mut chars = arg.chars();
    let (Some('-'), Some(short)) = (chars.next(), chars.next()) else {
        return None;
    };
    let rest = chars.as_str();
    let value = rest.strip_prefix('=').unwrap_or(rest);
    check
        .get_arguments()
        .any(|a| {
            a.get_short() == Some(short)
                && a.get_possible_values()
                    .iter()
                    .any(|v| v.matches(value, false))
        })
        .then_some((short, value))
}

fn is_option(arg: &str) -> bool {
    if let Some(long) = arg.strip_prefix("--") {
        long.starts_with(|c: char| c.is_ascii_alphabetic())
    } else if let Some(short) = arg.strip_prefix('-') {
        !short.is_empty() && short.chars().all(|c| c.is_ascii_alphabetic())
    } else {
        false
    }
}

/// The cards the arguments name, in their order, and the hand they make
/// under `faces`: one the pack can deal, or any hand with `--any-values`.
pub(crate) fn parse_hand(
    args: &[String],
    faces: Faces,
    how: &HandArgs,
) -> Result<(Vec<Card>, Hand)> {
    // `query "4 6 8"`, quoted as a claim is, or `4,6,8`: the cards inside,
    // read as the server reads them.
    let cards = args
        .iter()
        .flat_map(|t| Card::tokens(t))
        .map(Card::parse)
        .collect::<Result<Vec<Card>, _>>()
        .map_err(prime_solve::HandError::from)?;
    let hand = if how.any_values {
        Hand::from_any_cards(&cards, faces)?
    } else {
        Hand::from_cards(&cards, faces)?
    };
    Ok((cards, hand))
}

#[derive(Args)]
pub(crate) struct PracticeArgs {
    /// How many hands to deal.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = parse_rounds, allow_negative_numbers = true)]
    pub(crate) rounds: u32,
    /// Cards per hand (2-6).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=6), allow_negative_numbers = true)]
    pub(crate) cards: u8,
    /// The seed of the deal: the same seed deals the same hands [default: from the clock].
    #[arg(long, value_name = "S", value_parser = parse_seed, allow_negative_numbers = true)]
    pub(crate) seed: Option<u64>,
    /// Seconds to answer; when they run out the hand counts as a pass.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(crate) time_limit: Option<f64>,
    /// Deal only hard hands, as often as the pack deals each: hands whose
    /// essentially different ways to every prime are few and heavy (a
    /// difficulty of 2.0 or more for three cards, 1.0 for four; see
    /// `query --ways`), or that make no prime. Three cards (functions one
    /// deep), or four without functions.
    #[arg(long)]
    pub(crate) hard: bool,
    /// Append one CSV row per hand to FILE (time, cards, hand, rules, claim,
    /// verdict, seconds, best prime).
    #[arg(long, value_name = "FILE")]
    pub(crate) history: Option<PathBuf>,
    /// Print a summary of the --history FILE and stop.
    #[arg(long, requires = "history", conflicts_with = "format")]
    pub(crate) stats: bool,
    /// Read the replies from FILE instead of the keyboard: one `MS CLAIM` or
    /// `MS pass` a line, typed MS milliseconds after the hand is shown.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    #[command(flatten)]
    pub(crate) style: StyleArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
}

/// A time in seconds, more than 0 and at most a day.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err("use a number of seconds above 0 and at most 86400, e.g. 30 or 12.5".into()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PaperArg {
    /// 210 × 297 mm.
    A4,
    /// 8.5 × 11 in.
    Letter,
}

#[derive(Args)]
pub(crate) struct CribArgs {
    /// The file to write: FILE.pdf or FILE.svg (written atomically), or
    /// any path with --format (/dev/stdout, a pipe).
    #[arg(short, long, value_name = "FILE", required = true)]
    pub(crate) out: PathBuf,
    /// The format, where the file name does not end in .pdf or .svg.
    #[arg(short, long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<CribFormat>,
    /// The paper size.
    #[arg(long, value_enum, default_value = "a4")]
    pub(crate) paper: PaperArg,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

/// What `crib` draws.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CribFormat {
    Pdf,
    Svg,
}

#[derive(Args)]
pub(crate) struct PlayArgs {
    /// The bots' models, one per bot: beginner, casual, steady (levels for
    /// a person, slowest first), or the simulator's novice, club, expert
    /// (2-5 bots, or one with --two-player) [default: two casual players,
    /// or one].
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub(crate) bots: Vec<String>,
    /// The two-player game with an 18-card stockpile, against one bot.
    #[arg(long)]
    pub(crate) two_player: bool,
    /// What the last two players do once the others are out (see simulate
    /// --endgame).
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        default_value = "stockpile",
        conflicts_with = "two_player"
    )]
    pub(crate) endgame: Endgame,
    /// End after N combinations; the result is by cards held.
    #[arg(long, value_name = "N", value_parser = parse_turns, allow_negative_numbers = true)]
    pub(crate) turns: Option<u32>,
    /// The seed of the shuffle and the bots' timing [default: from the clock].
    #[arg(long, value_name = "S", value_parser = parse_seed, allow_negative_numbers = true)]
    pub(crate) seed: Option<u64>,
    /// Seconds after which a combination nobody has called is buried.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(crate) time_limit: f64,
    /// After a result, the next cards come when you press Enter, or after
    /// SECONDS if given (Enter still goes on at once). A script goes on at
    /// once.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) pause: Option<f64>,
    /// Take your replies from FILE instead of the keyboard: one line per
    /// combination, `MS CLAIM` or `MS pass` (typed MS milliseconds after
    /// the cards are shown); the game ends with the script.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    #[command(flatten)]
    pub(crate) style: StyleArgs,
    #[command(flatten)]
    pub(crate) models: ModelsArgs,
    #[command(flatten)]
    pub(crate) memory: MemoryArgs,
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(args: &[&str]) -> Vec<String> {
        let args = std::iter::once("prime-solve")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        positionals_last(args)
            .unwrap()
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    /// A short option's value may be attached (`-fjson`, `-f=json`) where
    /// it is one the option takes; a claim that starts the same way stays
    /// the claim.
    #[test]
    fn check_takes_attached_values_but_not_claims_alike() {
        for (f, value) in [("-fjson", "json"), ("-f=json", "json"), ("-ftext", "text")] {
            assert_eq!(
                moved(&["check", "4", "6", "8", "6*4/8", f]),
                [
                    "prime-solve",
                    "check",
                    "-f",
                    value,
                    "--",
                    "4",
                    "6",
                    "8",
                    "6*4/8"
                ]
            );
        }
        assert_eq!(
            moved(&["check", "1", "2", "3", "-fact(3)+2"]),
            ["prime-solve", "check", "--", "1", "2", "3", "-fact(3)+2"]
        );
    }
}
