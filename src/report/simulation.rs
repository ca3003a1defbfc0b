//! Simulation reports: a text summary, `summary.md`, `games.csv`, and a
//! histogram of game length.

use std::fmt::Write as _;

use crate::game::sim::{Simulation, Spread, Summary, wilson};
use crate::game::{Endgame, Record};
use crate::report::plot::{Lengths, length_chart};
use crate::words::plural;

pub const LENGTH_SVG: &str = "game-length.svg";

/// One row per game, in game order.
///
/// # Panics
/// Never: the table is written to memory.
pub fn games_csv(sim: &Simulation, records: &[Record]) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "game",
        "finished",
        "winner_seat",
        "winner_model",
        "turns",
        "ties",
        "no_calls",
        "no_prime",
        "rebuilds",
        "endgame_turns",
    ])
    .expect("writing to memory");
    for (i, r) in records.iter().enumerate() {
        let (seat, model) = r.winner.map_or((String::new(), String::new()), |w| {
            ((w + 1).to_string(), sim.players[w].name.to_string())
        });
        out.write_record([
            i.to_string(),
            r.finished.to_string(),
            seat,
            model,
            r.turns.to_string(),
            r.ties.to_string(),
            r.no_calls.to_string(),
            r.no_prime.to_string(),
            r.rebuilds.to_string(),
            r.endgame_turns.to_string(),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(out.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}

fn spread(s: &Option<Spread>) -> String {
    match s {
        None => "none finished".to_string(),
        Some(s) => format!(
            "mean {}, median {}, 10th percentile {}, 90th percentile {}, longest {}",
            s.mean.decimal(1),
            s.median,
            s.p10,
            s.p90,
            s.max
        ),
    }
}

/// The players as `expert, club, novice`.
pub fn players(sim: &Simulation) -> String {
    sim.players
        .iter()
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The summary in lines of text (stdout), also the body of `summary.md`.
pub fn text(sim: &Simulation, s: &Summary) -> String {
    let mut out = String::new();
    let kind = if sim.two_player {
        "two-player game with a stockpile"
    } else if sim.endgame == Endgame::FirstOut {
        "game of turned cards, over when the first player is out"
    } else {
        "game of turned cards"
    };
    let _ = writeln!(
        out,
        "rules: {} ({})",
        sim.rules.name(),
        sim.rules.describe()
    );
    let _ = writeln!(out, "players: {} ({kind})", players(sim));
    let _ = writeln!(
        out,
        "games: {} (seed {}), finished {}, unfinished {} (stopped after {})",
        s.games,
        sim.seed,
        s.finished,
        s.games - s.finished,
        plural(sim.max_turns, "turn", "turns")
    );
    let _ = writeln!(out, "turns per finished game: {}", spread(&s.turns));
    if let Some([lo, hi]) = s.turns_median_interval {
        let _ = writeln!(
            out,
            "median turns per finished game, 95% bootstrap interval: {lo}-{hi}"
        );
    }
    if let (Some(all), true) = (&s.all_turns, s.finished < s.games) {
        // Censored at the cap: a statistic that lands on it is a bound.
        let at_least = |t: u32| {
            if t >= sim.max_turns {
                format!("at least {t}")
            } else {
                t.to_string()
            }
        };
        let _ = writeln!(
            out,
            "turns per game, the {} unfinished counted at the cap: median {}, 90th percentile {}",
            s.games - s.finished,
            at_least(all.median),
            at_least(all.p90)
        );
    }
    let _ = writeln!(
        out,
        "ties: {} of turns; nobody called: {} (no prime at all: {})",
        s.tie_rate.percent(2),
        s.no_call_rate.percent(2),
        s.no_prime_rate.percent(2)
    );
    if !sim.two_player {
        let _ = writeln!(
            out,
            "turns with two players left (two cards on the table): {}",
            s.endgame_rate.percent(2)
        );
    }
    let wins: Vec<String> = s
        .wins
        .iter()
        .enumerate()
        .map(|(seat, &w)| {
            let share = crate::ratio::Ratio::new(w as u128, s.finished.max(1) as u128);
            let [lo, hi] = wilson(w, s.finished);
            format!(
                "seat {} {} {} ({:.1}-{:.1}%)",
                seat + 1,
                sim.players[seat].name,
                share.percent(1),
                lo * 100.0,
                hi * 100.0
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "wins (of finished games, 95% intervals): {}",
        wins.join(", ")
    );
    if s.draws > 0 {
        let share = crate::ratio::Ratio::new(s.draws as u128, s.finished.max(1) as u128);
        let _ = writeln!(
            out,
            "draws (tied on the most cards, neither won the last combination): {} ({})",
            s.draws,
            share.percent(1)
        );
    }
    // The same by model, for seats that share one.
    let mut by_model: Vec<(&str, usize, usize)> = Vec::new();
    for (seat, &w) in s.wins.iter().enumerate() {
        let name = sim.players[seat].name;
        match by_model.iter_mut().find(|(n, ..)| *n == name) {
            Some((_, wins, seats)) => {
                *wins += w;
                *seats += 1;
            }
            None => by_model.push((name, w, 1)),
        }
    }
    let models: Vec<String> = by_model
        .iter()
        .map(|&(name, w, seats)| {
            let share = crate::ratio::Ratio::new(w as u128, s.finished.max(1) as u128);
            format!(
                "{name} ({}) {}",
                plural(seats, "seat", "seats"),
                share.percent(1)
            )
        })
        .collect();
    let _ = writeln!(out, "wins by model: {}", models.join(", "));
    if sim.two_player {
        let _ = writeln!(
            out,
            "stockpile rebuilds per finished game: {}",
            spread(&s.rebuilds)
        );
    }
    out
}

/// `summary.md`.
pub fn markdown(sim: &Simulation, s: &Summary) -> String {
    let mut out = String::from("# Prime Time simulation\n\n");
    for line in text(sim, s).lines() {
        let _ = writeln!(out, "- {line}");
    }
    let _ = writeln!(out, "\n![Game length]({LENGTH_SVG})");
    out
}

/// A histogram of the length of finished games, the turn cap marked.
pub fn length_svg(sim: &Simulation, records: &[Record]) -> String {
    length_chart(&Lengths {
        title: format!("Game length: {} ({})", players(sim), sim.rules.name()),
        lengths: records
            .iter()
            .filter(|r| r.finished)
            .map(|r| r.turns)
            .collect(),
        unfinished: records.iter().filter(|r| !r.finished).count() as u64,
        cap: sim.max_turns,
    })
}

/// `reports/simulation.md`: several runs side by side, with the answers.
pub fn study(runs: &[(String, Simulation, Summary)]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Prime Time in play: simulated games\n");
    let _ = writeln!(
        out,
        "Each run plays {} from seed {} with the full rules (see the README for the \
         player models); a game is stopped as unfinished after {}.\n",
        plural(runs.first().map_or(0, |r| r.1.games), "game", "games"),
        runs.first().map_or(0, |r| r.1.seed),
        plural(runs.first().map_or(0, |r| r.1.max_turns), "turn", "turns")
    );
    let _ = writeln!(
        out,
        "| scenario | rules | players | finished | median turns | 90th pct turns | ties | nobody called | two players left | wins by seat |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|");
    for (name, sim, s) in runs {
        let wins: Vec<String> = s.wins.iter().map(|w| w.to_string()).collect();
        let _ = writeln!(
            out,
            "| {name} | `{}` | {} | {} of {} | {} | {} | {} | {} | {} | {} |",
            sim.rules.name(),
            players(sim),
            s.finished,
            s.games,
            s.turns
                .as_ref()
                .map_or("-".into(), |t| t.median.to_string()),
            s.turns.as_ref().map_or("-".into(), |t| t.p90.to_string()),
            s.tie_rate.percent(2),
            s.no_call_rate.percent(2),
            if sim.two_player {
                "-".to_string()
            } else {
                s.endgame_rate.percent(1)
            },
            wins.join(" / ")
        );
    }
    let _ = writeln!(out);
    answers(runs, &mut out);
    for (name, sim, s) in runs {
        let _ = writeln!(out, "## {name}\n");
        for line in text(sim, s).lines() {
            let _ = writeln!(out, "- {line}");
        }
        let _ = writeln!(out);
    }
    out
}

/// The study's questions, answered from its runs (found by scenario name).
fn answers(runs: &[(String, Simulation, Summary)], out: &mut String) {
    let find = |name: &str| {
        runs.iter()
            .find(|(n, ..)| n == name)
            .map(|(_, sim, s)| (sim, s))
    };
    // The median length in words: `19 turns`.
    let median = |s: &Summary| {
        s.turns
            .as_ref()
            .map_or("- turns".to_string(), |t| plural(t.median, "turn", "turns"))
    };
    let share = |s: &Summary, seat: usize| {
        crate::ratio::Ratio::new(s.wins[seat] as u128, s.finished.max(1) as u128).percent(1)
    };
    let _ = writeln!(out, "## Answers\n");
    if let Some((sim, s)) = find("Three experts") {
        let _ = writeln!(
            out,
            "- **Three equal experts, rules as written: does the game end?** Usually, but \
             slowly: {} of {} games end within {} (median {}). {} of all turns \
             come after one player is out, with only two cards on the table, and {} of all \
             turns show a combination that makes no prime at all (two-card combinations such \
             as 4 5 often do; no three-card one does), so the cards are buried and turned \
             again. The two-card endgame is what makes the game long; {} \
             ({} / {} / {}).",
            s.finished,
            s.games,
            plural(sim.max_turns, "turn", "turns"),
            median(s),
            s.endgame_rate.percent(1),
            s.no_prime_rate.percent(1),
            if seats_overlap(s) {
                "the seats win alike, within their 95% intervals"
            } else {
                "the seats do not win alike: their 95% intervals do not all overlap"
            },
            share(s, 0),
            share(s, 1),
            share(s, 2)
        );
    }
    if let Some((_, s)) = find("Mixed skills") {
        let _ = writeln!(
            out,
            "- **Mixed skills** (expert, club, novice): the expert wins {} of finished games, \
             in a median of {}: going for the highest prime and calling within the \
             override window takes nearly every combination.",
            share(s, 0),
            median(s)
        );
    }
    if let Some((_, s)) = find("Two experts, two-player game") {
        let rebuilds = s
            .rebuilds
            .as_ref()
            .map_or("- stockpile rebuilds".to_string(), |r| {
                plural(r.median, "stockpile rebuild", "stockpile rebuilds")
            });
        let _ = writeln!(
            out,
            "- **Two-player game** (two experts): {} ({} of {}), in a median of \
             {} and {}; a loser is found when one player cannot \
             give nine cards. Ties are frequent ({} of turns) because equal players call the \
             same highest prime at the same moment.",
            if s.finished == s.games {
                "every game ends"
            } else {
                "not every game ends within the turn limit"
            },
            s.finished,
            s.games,
            median(s),
            rebuilds,
            s.tie_rate.percent(1)
        );
    }
    if let (Some((_, plain)), Some((_, rich))) = (
        find("Three experts"),
        find("Three experts, high primes and powers"),
    ) {
        let same = plain == rich;
        let _ = writeln!(
            out,
            "- **With --high-primes --powers**: between three equal experts the games are {}. \
             Between mixed players the expert still wins{}.",
            if same {
                "exactly the same: every race between identical players is decided by the \
                 same random draws whatever prime they call, and the same two-card \
                 combinations fail"
            } else {
                "different"
            },
            find("Mixed skills, high primes and powers").map_or(String::new(), |(_, s)| format!(
                " {} of games, in a median of {}",
                share(s, 0),
                median(s)
            ))
        );
    }
    let _ = writeln!(out);
}

/// Whether every two seats' win shares have overlapping 95% Wilson
/// intervals: only then may the study say the seats win alike.
fn seats_overlap(s: &Summary) -> bool {
    let intervals: Vec<[f64; 2]> = s.wins.iter().map(|&w| wilson(w, s.finished)).collect();
    intervals
        .iter()
        .all(|a| intervals.iter().all(|b| a[0] <= b[1] && b[0] <= a[1]))
}
