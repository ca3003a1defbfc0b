//! `prime-solve practice`: a drill. Deals hands, times the player's claim,
//! rules on it with the referee, shows every answer, keeps a history.

use std::io::{self, BufRead, IsTerminal};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result, bail};
use prime_solve::Card;
use prime_solve::Rng;
use prime_solve::Solver;
use prime_solve::Style;
use prime_solve::analysis::Difficulty;
use prime_solve::practice::{Answer, Answers, Reply, Round, Summary, counted, deal, face};
use prime_solve::report::json;
use prime_solve::text::echo;
use prime_solve::text::plural;
use prime_solve::{Hand, Rules, Value};

use super::args::{Format, PracticeArgs};
use super::term::{self, Line, Scripted};
use super::{Spinner, Verdict, print};

mod history;

/// Where the replies come from.
enum Source {
    Keyboard,
    Lines(io::StdinLock<'static>),
    Script(std::vec::IntoIter<Scripted>),
}

/// The longest line read from standard input: far beyond any claim.
const MAX_LINE: u64 = 1 << 20;

/// One thing the player typed, and when.
enum Typed {
    Text(u64, String),
    TimeUp(u64),
    Quit,
}

impl Source {
    /// Where `args` take the replies from: a script, the keyboard, or
    /// lines on standard input.
    fn of(args: &PracticeArgs) -> Result<Source> {
        Ok(match &args.script {
            Some(path) => Source::Script(term::read_script(path)?.into_iter()),
            None if io::stdin().is_terminal() => {
                // The hands, the prompt and the answers are text for a person;
                // JSON Lines are for a program that feeds the replies.
                if args.output.format == Format::Json {
                    bail!(
                        "practice --format json reads its replies from a pipe or --script FILE, not the keyboard: drop --format json to practise at the keyboard"
                    );
                }
                Source::Keyboard
            }
            None => Source::Lines(io::stdin().lock()),
        })
    }

    fn next(&mut self, start: Instant, limit: Option<Duration>, prompt: &str) -> Result<Typed> {
        Ok(match self {
            Source::Keyboard => {
                // Tenths cut, not rounded, as the verdict's time is.
                let prompt = |t: Duration| format!("{:>5} s  {prompt}", seconds_digits(ms(t)));
                match term::read_line(start, limit, &prompt)? {
                    Line::Text(t) => Typed::Text(ms(start.elapsed()), t),
                    Line::TimeUp => Typed::TimeUp(limit.map_or(0, ms)),
                    Line::Quit => Typed::Quit,
                }
            }
            Source::Lines(stdin) => {
                let mut bytes = Vec::new();
                // A bounded line: standard input may never end one.
                let read = io::Read::take(&mut *stdin, MAX_LINE).read_until(b'\n', &mut bytes)?;
                if read == 0 {
                    return Ok(Typed::Quit);
                }
                if bytes.last() != Some(&b'\n') && read as u64 == MAX_LINE {
                    anyhow::bail!(
                        "a line of standard input is longer than {} MiB: give one claim per line",
                        MAX_LINE >> 20
                    );
                }
                // Bytes that are not UTF-8 are a claim the referee refuses,
                // not a reason to stop.
                let line = String::from_utf8_lossy(&bytes);
                let took = ms(start.elapsed());
                match limit {
                    Some(l) if took > ms(l) => Typed::TimeUp(ms(l)),
                    _ => Typed::Text(took, line.trim().to_string()),
                }
            }
            Source::Script(lines) => match lines.next() {
                None => Typed::Quit,
                Some(s) => match limit {
                    Some(l) if s.ms > ms(l) => Typed::TimeUp(ms(l)),
                    _ => Typed::Text(s.ms, s.claim.unwrap_or_default()),
                },
            },
        })
    }

    /// Whether the terminal already shows what was typed.
    fn echoes(&self) -> bool {
        matches!(self, Source::Keyboard) && term::line_kept()
    }
}

fn ms(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

pub(crate) fn run(args: &PracticeArgs) -> Result<Verdict> {
    if args.stats {
        let path = args
            .history
            .as_ref()
            .context("--stats needs --history FILE: the history to sum up")?;
        print(&history::stats(path)?)?;
        return Ok(Verdict::Yes);
    }
    let rules = args.rules.rules()?;
    let solver = Solver::new(rules)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut rng = Rng::new(seed);
    let mut source = Source::of(args)?;
    let mut log = match &args.history {
        Some(path) => Some(history::open(path)?),
        None => None,
    };
    let json = args.output.format == Format::Json;
    let colour = !json && term::colour();
    let limit = args.time_limit.map(Duration::from_secs_f64);
    let k = usize::from(args.cards);
    // The first hand is dealt before anything is printed, so that a
    // `--hard` no hand can meet is refused in one line.
    let judged = if args.hard {
        Some(Judged::new(&rules, k)?)
    } else {
        None
    };
    // A hand under heavy rules can take a while to solve: a spinner then.
    let next_hand = |judged: Option<&Judged>, rng: &mut Rng| {
        let _spinner = Spinner::start("dealing", json);
        deal_round(&solver, k, judged, rng)
    };
    let mut first = Some(next_hand(judged.as_ref(), &mut rng)?);
    if !json {
        let mut intro = format!(
            "Practice: {} under {rules}{}, seed {seed}.\n",
            plural(args.rounds, "hand", "hands"),
            if args.hard { ", hard hands only" } else { "" }
        );
        intro.push_str("Type a calculation that makes a prime from every card and press Enter; an empty line passes, ? gives a hint, q stops.\n");
        print(&intro)?;
    }
    let mut rounds: Vec<Round> = Vec::new();
    for n in 1..=args.rounds {
        let (cards, answers) = match first.take() {
            Some(dealt) => dealt,
            None => next_hand(judged.as_ref(), &mut rng)?,
        };
        if !json {
            print(&format!(
                "\nHand {n} of {}:  {}\n",
                args.rounds,
                show_hand(&cards, &rules, args.style.style())
            ))?;
        }
        if matches!(source, Source::Keyboard) {
            term::discard_typed_ahead()?;
        }
        let Some(Replied {
            reply,
            took,
            hinted,
            quit,
        }) = read_reply(&mut source, limit, json, args.style.style(), &answers)?
        else {
            break;
        };
        let round = Round::rule(cards, answers, reply, took, hinted, &rules);
        if json {
            print(
                &(serde_json::to_string(&json::practice_line(
                    n,
                    &round,
                    rules.faces,
                    args.style.style(),
                ))? + "\n"),
            )?;
        } else {
            print(&show_round(&round, args.style.style(), colour))?;
        }
        if let Some(log) = &mut log {
            history::append(log, &round, &rules, args.style.style())?;
        }
        rounds.push(round);
        if quit {
            break;
        }
    }
    if !json {
        print(&show_summary(&rounds, &rules, seed, args.style.style()))?;
    }
    Ok(Verdict::Yes)
}

/// What the player replied to a hand, and how.
struct Replied {
    reply: Reply,
    /// The time taken, in ms.
    took: u64,
    /// How many hints the player asked for.
    hinted: u32,
    /// A quit key pressed as the time ran out: the hand is judged, then
    /// the drill stops.
    quit: bool,
}

/// The player's reply to the hand `answers` answer, hints given on the
/// way; `None` where the player leaves (the hand's answer is shown then).
fn read_reply(
    source: &mut Source,
    limit: Option<Duration>,
    json: bool,
    style: Style,
    answers: &Answers,
) -> Result<Option<Replied>> {
    let start = Instant::now();
    let hints = answers.hints();
    let mut hinted = 0u32;
    // A quit key pressed as the time ran out: this hand is judged,
    // then the drill stops.
    let mut quit = false;
    // Leaving: the hand on the screen is not scored, but its answer is
    // shown.
    let leave = || -> Result<()> {
        if !json {
            print(&format!("{}\n", left_hand(answers, style)))?;
        }
        Ok(())
    };
    let (reply, took) = loop {
        match source.next(start, limit, "> ")? {
            Typed::Quit => {
                leave()?;
                return Ok(None);
            }
            Typed::TimeUp(t) => {
                if !json {
                    print("time is up\n")?;
                }
                if matches!(source, Source::Keyboard) && term::discard_for(TYPING_ON)? {
                    quit = true;
                }
                break (Reply::Pass, t);
            }
            Typed::Text(t, text) => {
                let text = text.trim().to_string();
                if text.eq_ignore_ascii_case("q") || text.eq_ignore_ascii_case("quit") {
                    leave()?;
                    return Ok(None);
                }
                if !source.echoes() && !json {
                    print(&format!("> {}\n", echo(&text)))?;
                }
                if text == "?" {
                    let hint = match hints.get(hinted as usize) {
                        Some(p) => format!("hint: this hand makes {p}\n"),
                        None if hints.is_empty() => {
                            "hint: this hand makes no prime; an empty line passes\n".into()
                        }
                        None => "hint: no more primes to hint at\n".into(),
                    };
                    hinted += 1;
                    if !json {
                        print(&hint)?;
                    }
                    continue;
                }
                if text.is_empty() || text.eq_ignore_ascii_case("pass") {
                    break (Reply::Pass, t);
                }
                break (Reply::Claim(text), t);
            }
        }
    };
    Ok(Some(Replied {
        reply,
        took,
        hinted,
        quit,
    }))
}

/// The answer to a hand left unplayed: its quickest and its best call.
fn left_hand(answers: &Answers, style: Style) -> String {
    let say =
        |a: &prime_solve::practice::Answer| format!("{} = {}", a.prime, a.witness.render(style));
    match (answers.simplest(), answers.best()) {
        (Some(q), Some(b)) if q.prime == b.prime => {
            format!("not scored; this hand makes {}", say(b))
        }
        (Some(q), Some(b)) => format!(
            "not scored; this hand's quickest call was {}, its best {}",
            say(q),
            say(b)
        ),
        _ => "not scored; this hand makes no prime".to_string(),
    }
}

/// How long keys typed after the time runs out are thrown away: a claim
/// still being typed then is not read as the reply to the next hand.
const TYPING_ON: Duration = Duration::from_millis(600);

/// A seed from the clock, for a new drill each time.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        % 1_000_000
}

/// The hands `--hard` deals, judged once before the first deal.
struct Judged {
    hard: rustc_hash::FxHashSet<Hand>,
}

impl Judged {
    /// Refused, before anything is dealt, where the ways are not counted
    /// or no hand is hard.
    fn new(rules: &prime_solve::Rules, k: usize) -> Result<Judged> {
        let budget = super::memory::budget();
        let Some(hard) = prime_solve::practice::hard_hands(rules, k, budget)? else {
            anyhow::bail!(
                "--hard judges a hand by its ways to every prime, counted for three cards \
                 (functions one deep) and for four without functions; drop --hard"
            );
        };
        if hard.is_empty() {
            anyhow::bail!(
                "no hand is hard under these rules: {}; drop --hard",
                Difficulty::explain(k, false)
            );
        }
        Ok(Judged {
            hard: hard.into_iter().collect(),
        })
    }
}

/// Deals a hand; with `hard`, the first hard one the pack deals, so that
/// hard hands come as often, relative to each other, as the pack deals
/// them (at least one hand is hard: [`Judged::new`]).
fn deal_round(
    solver: &Solver,
    k: usize,
    hard: Option<&Judged>,
    rng: &mut Rng,
) -> Result<(Vec<Card>, Answers)> {
    let faces = solver.rules().faces;
    loop {
        let (cards, hand) = deal(k, faces, rng);
        if hard.is_none_or(|h| h.hard.contains(&hand)) {
            return Ok((cards, Answers::of(solver, hand)?));
        }
    }
}

fn show_cards(cards: &[Card], style: Style) -> String {
    cards
        .iter()
        .map(|&c| face(c, style))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `Q♥ 7♣ JK   (counts 5 7 7)`.
fn show_hand(cards: &[Card], rules: &Rules, style: Style) -> String {
    let values = counted(cards, rules.faces).unwrap_or_default();
    let values: Vec<String> = values.iter().map(u8::to_string).collect();
    format!(
        "{}    (counting {})",
        show_cards(cards, style),
        values.join(" ")
    )
}

fn show_call(a: Option<&Answer>, style: Style) -> String {
    a.map_or("none: this hand makes no prime".into(), |a| {
        format!("{} = {}", a.prime, a.witness.render(style))
    })
}

fn seconds(ms: u64) -> String {
    format!("{} s", seconds_digits(ms))
}

/// `ms` in seconds with the tenths cut (999 ms is 0.9), on the clock and
/// in the verdict alike.
fn seconds_digits(ms: u64) -> String {
    format!("{}.{}", ms / 1000, ms % 1000 / 100)
}

fn show_round(r: &Round, style: Style, colour: bool) -> String {
    let mut out = match (&r.reply, &r.ruling) {
        (Reply::Claim(claim), Some(Ok(p))) => format!(
            "{} {} = {p}, a prime, in {} ({})\n",
            term::paint("valid:", true, colour),
            echo(claim),
            seconds(r.ms),
            plural(r.score(), "point", "points")
        ),
        (_, Some(Err(fault))) => format!(
            "{} {}{} ({})\n",
            term::paint("invalid:", false, colour),
            echo(&fault.to_string()),
            super::hints::for_fault(fault),
            seconds(r.ms)
        ),
        _ => format!(
            "{} after {}\n",
            term::paint("passed", false, colour),
            seconds(r.ms)
        ),
    };
    let a = &r.answers;
    out.push_str(&format!(
        "  quickest call: {}\n",
        show_call(a.simplest(), style)
    ));
    out.push_str(&format!(
        "  best call:     {}\n",
        show_call(a.best(), style)
    ));
    let missed = r.missed();
    let count = plural(a.primes.len(), "prime", "primes");
    out.push_str(&match (a.primes.len(), missed.len()) {
        (0, _) => "  the hand makes no prime\n".into(),
        (_, 0) => format!("  the hand makes {count}: you found it\n"),
        _ => format!(
            "  the hand makes {count}; {}: {}\n",
            if r.prime().is_some() {
                "the others"
            } else {
                "you missed"
            },
            list(&missed, 24)
        ),
    });
    out
}

/// Values separated by spaces, the first `max` and a count of the rest.
fn list(values: &[Value], max: usize) -> String {
    let mut s: Vec<String> = values.iter().take(max).map(Value::to_string).collect();
    if values.len() > max {
        s.push(format!("and {} more", values.len() - max));
    }
    s.join(" ")
}

fn show_summary(rounds: &[Round], rules: &Rules, seed: u64, style: Style) -> String {
    let s = Summary::of(rounds);
    let mut out = format!(
        "\nSummary: {} of {} correct",
        s.correct,
        plural(s.rounds, "hand", "hands")
    );
    if let (Some(median), Some(worst)) = (s.median_ms, s.worst_ms) {
        out.push_str(&format!(
            "; median time of a correct call {}, slowest {}",
            seconds(median),
            seconds(worst)
        ));
    }
    out.push_str(&format!("; score {}\n", s.score));
    let hand = |i: usize| {
        let r = &rounds[i];
        format!("{} ({})", show_cards(&r.cards, style), seconds(r.ms))
    };
    if !s.slowest.is_empty() {
        let slow: Vec<String> = s.slowest.iter().map(|&i| hand(i)).collect();
        out.push_str(&format!("  slowest: {}\n", slow.join(", ")));
    }
    for &i in &s.missed {
        let a = &rounds[i].answers;
        out.push_str(&format!(
            "  missed: {}: quickest {}; best {}\n",
            show_cards(&rounds[i].cards, style),
            show_call(a.simplest(), style),
            show_call(a.best(), style)
        ));
    }
    out.push_str(&format!(
        "rules: {}; --seed {seed} deals these hands again\n",
        rules.name()
    ));
    out
}
