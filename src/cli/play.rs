//! `prime-solve play`: the game against bots, in real time at the keyboard
//! or from a script of timed claims. The rules are the simulator's
//! (`game::live` over `game::play` and `game::turn`); this file tells what
//! happens, as text or JSON events.

use std::time::SystemTime;

use anyhow::{Result, bail};
use serde::Serialize;

use prime_solve::Rng;
use prime_solve::Solver;
use prime_solve::Style;
use prime_solve::game::Outcome;
use prime_solve::game::{CallBook, Live, Model, Setup, Tally};
use prime_solve::game::{Duel, Game, Multi};
use prime_solve::game::{Finished, Made, Round};
use prime_solve::practice::{counted, face};
use prime_solve::text::plural;
use prime_solve::{Rules, Value};

use super::args::{Format, PlayArgs};
use super::term::{self, Scripted};
use super::{Verdict, print};

mod screen;

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
        you: Record,
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
pub(crate) struct Record {
    calls: u32,
    valid: u32,
    wrong: u32,
    passes: u32,
    won: u32,
    ties: u32,
    median_ms: Option<u32>,
}

impl Record {
    fn of(t: &Tally) -> Record {
        let mut times = t.times.clone();
        times.sort_unstable();
        Record {
            calls: t.calls,
            valid: t.valid,
            wrong: t.wrong,
            passes: t.passes,
            won: t.won,
            ties: t.ties,
            median_ms: prime_solve::median(&times),
        }
    }
}

/// The table: the game, the players' names, and how things are said.
pub(crate) struct Table<'a> {
    pub(crate) live: Live<'a>,
    pub(crate) names: Vec<String>,
    solver: Solver,
    pub(crate) style: Style,
    pub(crate) max_turns: Option<u32>,
}

impl Table<'_> {
    fn name(&self, seat: usize) -> String {
        self.names[seat].clone()
    }

    fn card(&self, id: u8) -> String {
        face(self.live.setup.card(id), self.style)
    }

    pub(crate) fn held(&self) -> Vec<Held> {
        let mut held: Vec<Held> = self
            .live
            .held()
            .iter()
            .enumerate()
            .map(|(seat, &cards)| Held {
                player: self.name(seat),
                cards,
            })
            .collect();
        if let Some(stock) = self.live.game.stock() {
            held.push(Held {
                player: "stockpile".into(),
                cards: stock.len(),
            });
        }
        held
    }

    pub(crate) fn deal_event(&self, round: &Round) -> Event {
        let cards: Vec<Shown> = round
            .shown
            .owners
            .iter()
            .zip(&round.shown.cards)
            .map(|(&owner, &id)| Shown {
                player: owner.map_or_else(|| "stockpile".into(), |seat| self.name(seat)),
                card: self.card(id),
            })
            .collect();
        let shown: Vec<_> = round
            .shown
            .cards
            .iter()
            .map(|&id| self.live.setup.card(id))
            .collect();
        let piles = self
            .live
            .game
            .piles()
            .iter()
            .enumerate()
            .map(|(seat, p)| Held {
                player: self.name(seat),
                cards: p.len(),
            })
            .chain(self.live.game.stock().map(|s| Held {
                player: "stockpile".into(),
                cards: s.len(),
            }))
            .collect();
        Event::Deal {
            turn: round.turn,
            cards,
            values: counted(&shown, self.live.rules.faces).unwrap_or_default(),
            piles,
        }
    }

    /// A call and the ruling on it.
    pub(crate) fn call_events(&self, round: &Round, c: &Made) -> [Event; 2] {
        let witness = match (c.claim.is_none() && c.valid, c.prime, round.hand) {
            (true, Some(p), Some(hand)) => self
                .solver
                .solve_primes(hand)
                .ok()
                .and_then(|s| s.witness(p).map(|e| e.shown(s.rules().max_value)))
                .map(|e| e.render(self.style)),
            _ => None,
        };
        let fault = match (&c.fault, c.valid, c.claim.is_some()) {
            (Some(f), _, _) => Some(format!("{f}{}", super::hints::for_fault(f))),
            (None, false, false) => Some("a miscalculation: cannot show it".into()),
            _ => None,
        };
        [
            Event::Call {
                turn: round.turn,
                ms: c.ms,
                player: self.name(c.seat),
                claim: c.claim.clone(),
                prime: c.prime,
            },
            Event::Verdict {
                turn: round.turn,
                player: self.name(c.seat),
                valid: c.valid,
                value: if c.valid { c.prime } else { None },
                fault,
                witness,
            },
        ]
    }

    pub(crate) fn outcome_event(&self, round: &Round, done: &Finished) -> Event {
        let turn = round.turn;
        match &done.outcome {
            Outcome::Win(w) => {
                let prime = done
                    .calls
                    .iter()
                    .filter(|c| c.seat == *w && c.valid)
                    .find_map(|c| c.prime)
                    .unwrap_or(0);
                Event::Win {
                    turn,
                    player: self.name(*w),
                    prime,
                    cards: round.shown.cards.iter().map(|&id| self.card(id)).collect(),
                }
            }
            Outcome::Tie(who) => Event::Bury {
                turn,
                reason: "tie",
                players: who.iter().map(|&s| self.name(s)).collect(),
            },
            Outcome::NoCall => Event::Bury {
                turn,
                reason: if done.impossible {
                    "no prime"
                } else {
                    "no call"
                },
                players: round.shown.seats.iter().map(|&s| self.name(s)).collect(),
            },
        }
    }

    /// Ends the game: who won, or who holds the most cards.
    pub(crate) fn end_event(&mut self, reason: &'static str) -> Event {
        let turns = self.live.game.record().turns;
        let winner = self.live.game.record().winner;
        let held = self.live.held();
        let winner = winner.or_else(|| {
            let most = *held.iter().max()?;
            let leaders: Vec<usize> = (0..held.len()).filter(|&s| held[s] == most).collect();
            (leaders.len() == 1).then(|| leaders[0])
        });
        Event::End {
            reason,
            turns,
            winner: winner.map(|w| self.name(w)),
            held: self.held(),
            you: Record::of(self.live.tally(0)),
        }
    }

    /// Whether the game stops here (`--turns`, or the person is out, when
    /// the models play on to the end).
    pub(crate) fn stop(&mut self) -> Option<&'static str> {
        let turns = self.live.game.record().turns;
        if self.max_turns.is_some_and(|m| turns >= m) {
            return Some("turns");
        }
        if self.live.people_out() && self.live.game.stock().is_none() {
            self.live.play_on(5_000);
            return Some("out");
        }
        None
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
        } => {
            let how = match *reason {
                "won" => "the game is over",
                "turns" => "the turns are up",
                // The bots play on to the end, where there is one to
                // play to (not under first-out).
                "out" => "you are out of cards",
                "quit" => "you left the table",
                _ => "the script is over",
            };
            let who = match (winner, *reason) {
                (Some(w), "won" | "out") => format!("{w} won"),
                (Some(w), _) if w == "you" => "you hold the most cards".into(),
                (Some(w), _) => format!("{w} holds the most cards"),
                (None, _) => "nobody leads".into(),
            };
            let held: Vec<String> = held
                .iter()
                .map(|h| format!("{} {}", h.player, h.cards))
                .collect();
            let mut s = format!(
                "{how}: {who} after {}. Cards held: {}.\n",
                plural(*turns, "turn", "turns"),
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
    }
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
    let live = Live::new(setup, game, rng, rules, limit_ms);
    let mut table = Table {
        live,
        names: names(&bots),
        solver: Solver::new(rules)?,
        style: args.style.style(),
        max_turns: args.turns,
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
/// combination, at its time; the game ends with the script.
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
            rules.describe()
        ))?;
    }
    let mut lines = lines.into_iter();
    let reason = loop {
        if let Some(reason) = table.stop() {
            break reason;
        }
        let Some(mut round) = table.live.deal() else {
            break "won";
        };
        emit(&table.deal_event(&round))?;
        if round.waiting() {
            let Some(line) = lines.next() else {
                break "script";
            };
            let ms = line.ms.min(u64::from(u32::MAX)) as u32;
            // A reply after the combination closed is not made.
            if ms <= table.live.closes_at(&round) {
                // The person waits (checked above): the reply is taken.
                let _ = match &line.claim {
                    Some(claim) => table.live.call(&mut round, 0, ms, claim),
                    None => table.live.pass(&mut round, 0, ms),
                };
            }
        }
        let done = table.live.finish(&round);
        for c in &done.calls {
            for e in table.call_events(&round, c) {
                emit(&e)?;
            }
        }
        emit(&table.outcome_event(&round, &done))?;
    };
    let end = table.end_event(reason);
    emit(&end)?;
    Ok(())
}
