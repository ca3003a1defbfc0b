//! `prime-solve play`: the game against bots, in real time at the keyboard
//! or from a script of timed claims. The rules are the simulator's
//! (`game::live` over `game::play` and `game::turn`); this file tells what
//! happens, as text or JSON events.

use std::time::SystemTime;

use anyhow::{Result, bail};
use serde::Serialize;

use prime_solve::Rng;
use prime_solve::Style;
use prime_solve::game::{self, Burial, Ending, Ends, GameOver, Live, Tally};
use prime_solve::game::{CallBook, Model, Setup};
use prime_solve::game::{Duel, Game, Multi};
use prime_solve::practice::{counted, face};
use prime_solve::text::plural;
use prime_solve::{Rules, Value};

use super::args::{Format, PlayArgs};
use super::term::{self, Scripted};
use super::{Verdict, print};

mod screen;

/// The most combinations the bots play among themselves once the person
/// is out of cards.
const PLAY_OUT: u32 = 5_000;

/// Everything said about a game, in order.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub(crate) enum Event {
    Deal {
        turn: u32,
        cards: Vec<Shown>,
        values: Vec<u8>,
        piles: Vec<Held>,
    },
    Call {
        turn: u32,
        ms: u32,
        player: String,
        claim: Option<String>,
        prime: Option<Value>,
    },
    /// A claim that could not be read: no call; the person may call again.
    #[serde(rename = "not_a_call")]
    NotACall {
        turn: u32,
        ms: u32,
        player: String,
        claim: String,
        why: String,
    },
    Verdict {
        turn: u32,
        player: String,
        valid: bool,
        value: Option<Value>,
        fault: Option<String>,
        witness: Option<String>,
    },
    Win {
        turn: u32,
        player: String,
        prime: Value,
        cards: Vec<String>,
    },
    Bury {
        turn: u32,
        reason: &'static str,
        players: Vec<String>,
    },
    End {
        reason: &'static str,
        turns: u32,
        winner: Option<String>,
        held: Vec<Held>,
        you: YourRecord,
    },
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Shown {
    player: String,
    card: String,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Held {
    player: String,
    cards: usize,
}

/// The person's record, as printed.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct YourRecord {
    calls: u32,
    valid: u32,
    wrong: u32,
    passes: u32,
    won: u32,
    ties: u32,
    median_ms: Option<u32>,
}

impl YourRecord {
    fn of(t: &Tally) -> YourRecord {
        YourRecord {
            calls: t.calls,
            valid: t.valid,
            wrong: t.wrong,
            passes: t.passes,
            won: t.won,
            ties: t.ties,
            median_ms: t.median_ms(),
        }
    }
}

/// The table: the game, the players' names, and how things are said.
pub(crate) struct Table<'a> {
    pub(crate) live: Live<'a>,
    pub(crate) names: Vec<String>,
    pub(crate) style: Style,
}

impl Table<'_> {
    fn name(&self, seat: usize) -> String {
        self.names[seat].clone()
    }

    fn card(&self, id: u8) -> String {
        face(self.live.setup().card(id), self.style)
    }

    /// Each seat's count, then the stockpile's if there is one.
    fn counts(&self, counts: &[usize], stock: Option<usize>) -> Vec<Held> {
        counts
            .iter()
            .enumerate()
            .map(|(seat, &cards)| Held {
                player: self.name(seat),
                cards,
            })
            .chain(stock.map(|cards| Held {
                player: "stockpile".into(),
                cards,
            }))
            .collect()
    }

    /// What the cards `ids` count under the table's rules.
    pub(crate) fn values(&self, ids: &[u8]) -> Vec<u8> {
        let cards: Vec<_> = ids.iter().map(|&id| self.live.setup().card(id)).collect();
        counted(&cards, self.live.rules().faces).unwrap_or_default()
    }

    /// What the driver's event says, in this command's words: nothing
    /// for what `play` does not tell (a pass, who is ready).
    pub(crate) fn render(&self, e: &game::Event, reason: &'static str) -> Option<Event> {
        Some(match e {
            game::Event::Dealt {
                turn,
                shown,
                piles,
                stock,
                ..
            } => Event::Deal {
                turn: *turn,
                cards: shown
                    .owners
                    .iter()
                    .zip(&shown.cards)
                    .map(|(&owner, &id)| Shown {
                        player: owner.map_or_else(|| "stockpile".into(), |seat| self.name(seat)),
                        card: self.card(id),
                    })
                    .collect(),
                values: self.values(&shown.cards),
                piles: self.counts(piles, *stock),
            },
            game::Event::Called {
                turn,
                seat,
                ms,
                claim,
                prime,
            } => Event::Call {
                turn: *turn,
                ms: *ms,
                player: self.name(*seat),
                claim: claim.clone(),
                prime: *prime,
            },
            game::Event::Ruled {
                turn,
                seat,
                valid,
                value,
                fault,
                witness,
            } => Event::Verdict {
                turn: *turn,
                player: self.name(*seat),
                valid: *valid,
                value: *value,
                fault: match (fault, valid) {
                    (Some(f), _) => Some(format!("{f}{}", super::hints::for_fault(f))),
                    (None, false) => Some("a miscalculation: cannot show it".into()),
                    (None, true) => None,
                },
                witness: witness.as_ref().map(|w| w.render(self.style)),
            },
            game::Event::NotACall {
                turn,
                seat,
                ms,
                claim,
                why,
            } => Event::NotACall {
                turn: *turn,
                ms: *ms,
                player: self.name(*seat),
                claim: claim.clone(),
                why: why.to_string(),
            },
            game::Event::Won {
                turn,
                seat,
                prime,
                cards,
                ..
            } => Event::Win {
                turn: *turn,
                player: self.name(*seat),
                prime: *prime,
                cards: cards.iter().map(|&id| self.card(id)).collect(),
            },
            game::Event::Buried {
                turn, why, seats, ..
            } => Event::Bury {
                turn: *turn,
                reason: match why {
                    Burial::Tie => "tie",
                    Burial::NoPrime => "no prime",
                    Burial::NoCall => "no call",
                },
                players: seats.iter().map(|&s| self.name(s)).collect(),
            },
            game::Event::Over(over) => self.end_event(over, reason),
            game::Event::Passed { .. } | game::Event::Ready { .. } => return None,
        })
    }

    /// The game's end: why, who won, the cards held and the person's
    /// record; `called_off` names why a game called off ended.
    pub(crate) fn end_event(&self, over: &GameOver, called_off: &'static str) -> Event {
        let reason = match over.ending {
            _ if over.played_out => "out",
            Ending::Rules(_) => "won",
            Ending::Turns => "turns",
            Ending::Target => "target",
            Ending::CalledOff => called_off,
        };
        Event::End {
            reason,
            turns: over.turns,
            winner: over.winner.map(|w| self.name(w)),
            held: self.counts(&over.held, over.stock),
            you: YourRecord::of(&over.records[0]),
        }
    }
}

/// One event in words (one or more lines).
pub(crate) fn say(e: &Event) -> String {
    match e {
        Event::Deal {
            turn,
            cards,
            values,
            piles,
        } => {
            let cards: Vec<String> = cards
                .iter()
                .map(|s| format!("{} {}", s.player, s.card))
                .collect();
            let values: Vec<String> = values.iter().map(u8::to_string).collect();
            let piles: Vec<String> = piles
                .iter()
                .map(|h| format!("{} {}", h.player, h.cards))
                .collect();
            format!(
                "turn {turn}: {}  (counting {})  piles: {}",
                cards.join(", "),
                values.join(" "),
                piles.join(", ")
            )
        }
        Event::Call {
            ms,
            player,
            claim,
            prime,
            ..
        } => {
            let what = match (claim, prime) {
                (Some(c), _) => prime_solve::text::echo(c).into_owned(),
                (None, Some(p)) => p.to_string(),
                _ => String::new(),
            };
            format!(
                "  {:>5.1} s  {player} {} {what}",
                f64::from(*ms) / 1000.0,
                if player == "you" { "call" } else { "calls" }
            )
        }
        Event::NotACall {
            ms, player, why, ..
        } => format!(
            "  {:>5.1} s  {player}: not a call: {}; {} may call again on these cards",
            f64::from(*ms) / 1000.0,
            prime_solve::text::echo(why),
            if player == "you" { "you" } else { "they" }
        ),
        Event::Verdict {
            player,
            valid,
            value,
            fault,
            witness,
            ..
        } => match (valid, value, witness, fault) {
            (true, Some(v), Some(w), _) => format!("           valid: {v} = {w}"),
            (true, Some(v), None, _) => format!("           valid: {v}, a prime"),
            (_, _, _, Some(f)) => {
                let f = prime_solve::text::echo(f);
                format!("           wrong: {f}; {player} may not call again on these cards")
            }
            _ => "           wrong".into(),
        },
        Event::Win {
            player,
            prime,
            cards,
            ..
        } => format!(
            "  {player} {} {} with {prime}",
            if player == "you" { "win" } else { "wins" },
            cards.join(" ")
        ),
        Event::Bury {
            reason, players, ..
        } => match *reason {
            "tie" => format!(
                "  {} called the same prime at once: each buries their card and turns the next",
                players.join(" and ")
            ),
            "no prime" => "  no prime can be made: every card on the table is buried".into(),
            _ => "  nobody called: every card on the table is buried".into(),
        },
        Event::End {
            reason,
            turns,
            winner,
            held,
            you,
        } => say_end(reason, *turns, winner.as_deref(), held, you),
    }
}

/// The end of the game in words: why, who won, the cards held and the
/// person's record.
fn say_end(
    reason: &str,
    turns: u32,
    winner: Option<&str>,
    held: &[Held],
    you: &YourRecord,
) -> String {
    let how = match reason {
        "won" => "the game is over",
        "turns" => "the turns are up",
        "target" => "the target is reached",
        // The bots play on to the end, where there is one to play to (not
        // under first-out).
        "out" => "you are out of cards",
        "quit" => "you left the table",
        _ => "the script is over",
    };
    let who = match (winner, reason) {
        (Some(w), "won" | "out" | "target") => format!("{w} won"),
        (Some("you"), _) => "you hold the most cards".into(),
        (Some(w), _) => format!("{w} holds the most cards"),
        (None, _) => "nobody leads".into(),
    };
    let held: Vec<String> = held
        .iter()
        .map(|h| format!("{} {}", h.player, h.cards))
        .collect();
    let mut s = format!(
        "{how}: {who} after {}. Cards held: {}.\n",
        plural(turns, "turn", "turns"),
        held.join(", ")
    );
    s.push_str(&format!(
        "Your record: {}, {} valid, {} wrong, {}; won {}, {}",
        plural(you.calls, "call", "calls"),
        you.valid,
        you.wrong,
        plural(you.passes, "pass", "passes"),
        plural(you.won, "combination", "combinations"),
        plural(you.ties, "tie", "ties"),
    ));
    if let Some(m) = you.median_ms {
        s.push_str(&format!(
            "; median time of a valid call {:.1} s",
            f64::from(m) / 1000.0
        ));
    }
    s
}

pub(crate) fn run(args: &PlayArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let table_models = args.models.load()?;
    if args.models.print_models {
        print(&table_models.to_toml())?;
        return Ok(Verdict::Yes);
    }
    let bots: Vec<Model> = if args.bots.is_empty() {
        let casual = table_models.get("casual").map_err(anyhow::Error::msg)?;
        vec![casual; if args.two_player { 1 } else { 2 }]
    } else {
        table_models
            .lineup(&args.bots)
            .map_err(anyhow::Error::msg)?
    };
    if args.two_player && bots.len() != 1 {
        bail!(
            "the two-player game has one bot, {} given: use --bots with one model",
            bots.len()
        );
    }
    if !args.two_player && !(2..=5).contains(&bots.len()) {
        bail!(
            "{} given: play against 2 to 5 bots (--bots casual,casual), or one with --two-player",
            plural(bots.len(), "bot", "bots")
        );
    }
    let script = match &args.script {
        Some(path) => Some(term::read_script(path)?),
        None => None,
    };
    let seats = bots.len() + 1;
    let sizes: Vec<usize> = if args.two_player {
        vec![3]
    } else {
        (2..=seats).collect()
    };
    let spinner = super::Spinner::start("solving every hand the table can show", false);
    let book = CallBook::new(rules, &sizes, crate::cli::memory::budget())?;
    drop(spinner);
    // The person's seat has a model only to fill the place: it never calls.
    let mut models = vec![Model::EXPERT];
    models.extend(bots.iter().cloned());
    let setup = Setup::new(&book, models, rules.faces, table_models.timing);
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            % 1_000_000
    });
    let mut rng = Rng::new(seed);
    let game: Box<dyn Game> = if args.two_player {
        Box::new(Duel::deal(&mut rng))
    } else {
        Box::new(Multi::deal(seats, &mut rng).with_endgame(args.endgame))
    };
    let limit_ms = (args.time_limit * 1000.0).round() as u32;
    let live = Live::new(setup, game, rng, rules, limit_ms).with_ends(Ends {
        max_turns: args.turns.unwrap_or(u32::MAX),
        target: None,
        play_out: PLAY_OUT,
    });
    let mut table = Table {
        live,
        names: names(&bots),
        style: args.style.style(),
    };
    let json = args.output.format == Format::Json;
    match script {
        Some(lines) => scripted(&mut table, lines, json, &rules, seed),
        None if !json && screen::possible() => {
            let pause = args.pause.map(std::time::Duration::from_secs_f64);
            screen::run(&mut table, &rules, seed, pause)
        }
        None if json => bail!(
            "play --format json takes its moves from --script FILE (one `MS CLAIM` or `MS pass` a line), not the keyboard"
        ),
        None => bail!(
            "play needs a terminal on both its input and its output (the keyboard and the table), or --script FILE (one `MS CLAIM` or `MS pass` a line)"
        ),
    }?;
    Ok(Verdict::Yes)
}

/// Seat names: `you`, then the models, numbered where a model sits twice.
fn names(bots: &[Model]) -> Vec<String> {
    let mut names = vec!["you".to_string()];
    for (i, m) in bots.iter().enumerate() {
        let same = bots.iter().filter(|b| b.name == m.name).count();
        if same > 1 {
            let n = bots[..=i].iter().filter(|b| b.name == m.name).count();
            names.push(format!("{} {n}", m.name));
        } else {
            names.push(m.name.to_string());
        }
    }
    names
}

/// The game from a script: each line is the person's reply to one
/// combination, at its time (a claim that cannot be read takes its line
/// and is no call); the game ends with the script.
fn scripted(
    table: &mut Table,
    lines: Vec<Scripted>,
    json: bool,
    rules: &Rules,
    seed: u64,
) -> Result<()> {
    let emit = |e: &Event| -> Result<()> {
        if json {
            print(&(serde_json::to_string(e)? + "\n"))
        } else {
            print(&(say(e) + "\n"))
        }
    };
    if !json {
        print(&format!(
            "Prime Time: you against {}; rules: {} ({}); seed {seed}\n",
            table.names[1..].join(", "),
            rules.name(),
            rules.describe_in(table.style.ascii)
        ))?;
    }
    let mut lines = lines.into_iter();
    loop {
        let mut said = table.live.deal();
        if table.live.stage() == game::Stage::Calling && table.live.waiting() {
            let Some(line) = lines.next() else {
                for e in &said {
                    table.render(e, "script").map(|e| emit(&e)).transpose()?;
                }
                let over = table.live.call_off();
                return emit(&table.end_event(&over, "script"));
            };
            let ms = line.ms.min(u64::from(u32::MAX)) as u32;
            let turn = table.live.turn();
            // A reply after the combination closed is not made.
            let reply = match &line.claim {
                Some(claim) => table.live.call(0, turn, ms, claim),
                None => table.live.pass(0, turn, ms),
            };
            said.extend(reply.unwrap_or_default());
        }
        said.extend(table.live.tick(u32::MAX));
        for e in &said {
            table.render(e, "script").map(|e| emit(&e)).transpose()?;
        }
        if table.live.stage() == game::Stage::Over {
            return Ok(());
        }
    }
}
