//! Simulation reports: a text summary, `summary.md`, `games.csv`, and a
//! histogram of game length.

use std::fmt::Write as _;

use crate::game::Record;
use crate::game::{Phase, Simulation, Spread, Summary, wilson};
use crate::report::plot::{Lengths, length_chart};
use crate::text::plural;

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
        "endgame_ties",
        "endgame_no_calls",
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
            r.endgame_ties.to_string(),
            r.endgame_no_calls.to_string(),
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

/// `t` turns, or `at least t` at the turn cap (a censored figure).
fn at_least(sim: &Simulation, t: u32) -> String {
    if t >= sim.max_turns {
        format!("at least {t}")
    } else {
        t.to_string()
    }
}

/// The players as `expert, club, novice`.
pub fn players(sim: &Simulation) -> String {
    sim.players
        .iter()
        .map(|m| &*m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The summary in lines of text (stdout), also the body of `summary.md`.
pub fn text(sim: &Simulation, s: &Summary) -> String {
    let mut out = String::new();
    games(&mut out, sim, s);
    turns(&mut out, sim, s);
    calls(&mut out, sim, s);
    wins(&mut out, sim, s);
    if sim.two_player {
        let _ = writeln!(
            out,
            "stockpile rebuilds per finished game: {}",
            spread(&s.rebuilds)
        );
    }
    out
}

/// The rules, the players and how many games were played and finished.
fn games(out: &mut String, sim: &Simulation, s: &Summary) {
    let kind = if sim.two_player {
        "two-player game with a stockpile".to_string()
    } else {
        format!("game of turned cards; {}", sim.endgame.describe())
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
}

/// How long games last: finished ones, with bootstrap intervals, and all
/// of them with the unfinished counted at the cap.
fn turns(out: &mut String, sim: &Simulation, s: &Summary) {
    let _ = writeln!(out, "turns per finished game: {}", spread(&s.turns));
    if let (Some([lo, hi]), Some([lo90, hi90])) = (s.turns_median_interval, s.turns_p90_interval) {
        let _ = writeln!(
            out,
            "turns per finished game, 95% bootstrap intervals: median {lo}-{hi}, 90th percentile {lo90}-{hi90}"
        );
    }
    if let (Some(all), true) = (&s.all_turns, s.finished < s.games) {
        let at_least = |t: u32| at_least(sim, t);
        // No interval for a figure at the cap: it is only a bound.
        let interval = |v: u32, i: Option<[u32; 2]>| match i {
            Some([lo, hi]) if v < sim.max_turns => {
                format!(" (95% interval {}-{})", lo, at_least(hi))
            }
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "turns per game, the {} unfinished counted at the cap: median {}{}, 90th percentile {}{}",
            s.games - s.finished,
            at_least(all.median),
            interval(all.median, s.all_turns_median_interval),
            at_least(all.p90),
            interval(all.p90, s.all_turns_p90_interval)
        );
    }
}

/// How often a turn is tied or nobody calls, overall and by phase.
fn calls(out: &mut String, sim: &Simulation, s: &Summary) {
    let _ = writeln!(
        out,
        "ties: {} of turns; nobody called: {} (no prime at all: {})",
        s.tie_rate.percent(2),
        s.no_call_rate.percent(2),
        s.no_prime_rate.percent(2)
    );
    if let Some([opening, endgame]) = &s.phases {
        let _ = writeln!(
            out,
            "turns after the first player is out (the endgame): {}",
            s.endgame_rate.percent(2)
        );
        let median = |p: &Phase, of: &str| {
            p.turns
                .as_ref()
                .map_or("no game reached it".to_string(), |t| {
                    // Most games with no turn of the phase: no figure for
                    // nothing.
                    if t.median == 0 {
                        "none reached in most games".to_string()
                    } else {
                        format!("median {} turns{of}", at_least(sim, t.median))
                    }
                })
        };
        let _ = writeln!(
            out,
            "by phase{}: every player in: {}, ties {}, nobody called {}; endgame: {}, ties {}, nobody called {}",
            if s.finished < s.games {
                ", unfinished games counted as far as they went"
            } else {
                ""
            },
            median(opening, ""),
            opening.tie_rate.percent(2),
            opening.no_call_rate.percent(2),
            median(endgame, " (of games that reached it)"),
            endgame.tie_rate.percent(2),
            endgame.no_call_rate.percent(2)
        );
    }
}

/// Who wins: by seat with intervals, the draws, and by model.
fn wins(out: &mut String, sim: &Simulation, s: &Summary) {
    let wins: Vec<String> = (0..s.wins.len())
        .map(|seat| {
            format!(
                "seat {} {} {}",
                seat + 1,
                sim.players[seat].name,
                win_share(s, seat)
            )
        })
        .collect();
    if s.finished == 0 {
        let _ = writeln!(out, "wins: none, no game finished");
    } else {
        let _ = writeln!(
            out,
            "wins (of finished games, 95% intervals): {}",
            wins.join(", ")
        );
    }
    if s.finished < s.games {
        let mut won: Vec<String> = s
            .capped_wins
            .iter()
            .enumerate()
            .map(|(seat, &w)| format!("seat {} {} {w}", seat + 1, sim.players[seat].name))
            .collect();
        if s.capped_draws > 0 {
            won.push(format!("nobody {}", s.capped_draws));
        }
        let _ = writeln!(
            out,
            "won at the cap on cards (the most cards; tied, the latest combination's winner): {}",
            won.join(", ")
        );
    }
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
        let name = &*sim.players[seat].name;
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
    if s.finished > 0 {
        let _ = writeln!(out, "wins by model: {}", models.join(", "));
    }
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
pub fn study(runs: &[(String, Simulation, Summary)], models: &crate::game::Models) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Prime Time in play: simulated games\n");
    let _ = writeln!(
        out,
        "Each run plays {} from seed {} with the full rules and {} (see docs/guide.md: \
         who finds which prime, how fast, how often wrongly); a game is stopped as unfinished after {}. Intervals are 95%: bootstrap for turn \
         counts, Wilson for win shares. Turn counts are over all games, an unfinished \
         game counted at the cap (a figure at the cap reads \"at least\").\n",
        plural(runs.first().map_or(0, |r| r.1.games), "game", "games"),
        runs.first().map_or(0, |r| r.1.seed),
        models_used(models),
        plural(runs.first().map_or(0, |r| r.1.max_turns), "turn", "turns")
    );
    let _ = writeln!(
        out,
        "| scenario | rules | players | endgame | finished | median turns | 90th pct turns | ties | nobody called | endgame turns | wins by seat |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|");
    let with_interval = |sim: &Simulation, v: Option<u32>, i: Option<[u32; 2]>| match (v, i) {
        (Some(v), _) if v >= sim.max_turns => at_least(sim, v),
        (Some(v), Some([lo, hi])) => format!("{v} ({lo}-{})", at_least(sim, hi)),
        _ => "-".to_string(),
    };
    for (name, sim, s) in runs {
        let wins: Vec<String> = s.wins.iter().map(|w| w.to_string()).collect();
        let _ = writeln!(
            out,
            "| {name} | `{}` | {} | {} | {} of {} | {} | {} | {} | {} | {} | {} |",
            sim.rules.name(),
            players(sim),
            if sim.two_player {
                "-"
            } else {
                sim.endgame.name()
            },
            s.finished,
            s.games,
            with_interval(
                sim,
                s.all_turns.as_ref().map(|t| t.median),
                s.all_turns_median_interval
            ),
            with_interval(
                sim,
                s.all_turns.as_ref().map(|t| t.p90),
                s.all_turns_p90_interval
            ),
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

/// The median length of all games (unfinished ones at the cap) with its
/// interval in words: `243 turns (95% interval 234-250)`.
fn median_words(sim: &Simulation, s: &Summary) -> String {
    match (&s.all_turns, s.all_turns_median_interval) {
        (Some(t), _) if t.median >= sim.max_turns => format!("{} turns", at_least(sim, t.median)),
        (Some(t), Some([lo, hi])) => format!(
            "{} turns (95% interval {lo}-{})",
            at_least(sim, t.median),
            at_least(sim, hi)
        ),
        _ => "- turns".to_string(),
    }
}

/// Whether two runs' median lengths differ beyond their intervals.
fn medians_differ(a: &Summary, b: &Summary) -> bool {
    match (a.all_turns_median_interval, b.all_turns_median_interval) {
        (Some(x), Some(y)) => x[1] < y[0] || y[1] < x[0],
        _ => false,
    }
}

/// A seat's share of the finished games' wins with its 95% Wilson
/// interval, `21.4% (19.6-23.3%)`; `no game finished` where none did
/// (once `0.0% (0.0-100.0%)`).
pub fn win_share(s: &Summary, seat: usize) -> String {
    if s.finished == 0 {
        return "(no game finished)".into();
    }
    let [lo, hi] = wilson(s.wins[seat], s.finished);
    format!(
        "{} ({:.1}-{:.1}%)",
        crate::ratio::Ratio::new(s.wins[seat] as u128, s.finished as u128).percent(1),
        lo * 100.0,
        hi * 100.0
    )
}

/// The study's questions, answered from its runs (found by scenario name).
fn answers(runs: &[(String, Simulation, Summary)], out: &mut String) {
    let find = |name: &str| {
        runs.iter()
            .find(|(n, ..)| n == name)
            .map(|(_, sim, s)| (sim, s))
    };
    let _ = writeln!(out, "## Answers\n");
    let endgames: Vec<(&Simulation, &Summary)> = runs
        .iter()
        .filter(|(n, sim, _)| {
            (n == "Three experts" || n.starts_with("Three experts, endgame ")) && !sim.two_player
        })
        .map(|(_, sim, s)| (sim, s))
        .collect();
    if let Some((sim, s)) = find("Three experts") {
        does_the_game_end(out, sim, s, endgames.len() > 1);
    }
    if endgames.len() > 1 {
        which_endgame(out, &endgames);
    }
    if let Some((sim, s)) = find("Mixed skills") {
        let _ = writeln!(
            out,
            "- **Mixed skills** (expert, club, novice): the expert wins {} of finished \
             games, the club player {}, the novice {}, in a median of {}.",
            win_share(s, 0),
            win_share(s, 1),
            win_share(s, 2),
            median_words(sim, s)
        );
    }
    if let Some((sim, s)) = find("Two experts, two-player game") {
        two_player_game(out, sim, s);
    }
    if let (Some(plain), Some(rich)) = (
        find("Three experts"),
        find("Three experts, high primes and powers"),
    ) {
        let mixed = find("Mixed skills, high primes and powers").map(|(_, s)| s);
        high_primes_and_powers(out, plain, rich, mixed);
    }
    let _ = writeln!(out);
}

/// The answer for three equal experts under the rules as written: whether
/// games end, how long they last, and whether the seats win alike.
fn does_the_game_end(out: &mut String, sim: &Simulation, s: &Summary, more_endgames: bool) {
    let _ = writeln!(
        out,
        "- **Three equal experts, rules as written, endgame `{}`: does the game end?** \
         {} of {} games end within {}, in a median of {}; {} of all turns come after \
         the first player is out. {} ({} / {} / {}). The rules do not say what happens \
         once a player is out: the endgame is this tool's reading of them{}.",
        sim.endgame.name(),
        s.finished,
        s.games,
        plural(sim.max_turns, "turn", "turns"),
        median_words(sim, s),
        s.endgame_rate.percent(1),
        if seats_overlap(s) {
            "The seats win alike, within their 95% intervals"
        } else {
            "The seats do not win alike: their 95% intervals do not all overlap"
        },
        win_share(s, 0),
        win_share(s, 1),
        win_share(s, 2),
        if more_endgames {
            ", and the next answer shows how much the choice matters"
        } else {
            ""
        }
    );
}

/// The answer comparing the endgames between three experts.
fn which_endgame(out: &mut String, endgames: &[(&Simulation, &Summary)]) {
    let each: Vec<String> = endgames
        .iter()
        .map(|(sim, s)| {
            let unfinished = s.games - s.finished;
            format!(
                "`{}` {}{}, no prime on {} of turns",
                sim.endgame.name(),
                median_words(sim, s),
                if unfinished > 0 {
                    format!(", {unfinished} of {} unfinished", s.games)
                } else {
                    String::new()
                },
                s.no_prime_rate.percent(1)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "- **Which endgame?** Between three experts, median length (unfinished games \
         counted at the cap): {}. \
         An endgame with two cards on the table shows combinations that make no prime \
         (two-card hands such as 4 5 often do; no three-card one does).",
        each.join("; ")
    );
}

/// The answer for the two-player game with a stockpile.
fn two_player_game(out: &mut String, sim: &Simulation, s: &Summary) {
    let rebuilds = s
        .rebuilds
        .as_ref()
        .map_or("- stockpile rebuilds".to_string(), |r| {
            plural(r.median, "stockpile rebuild", "stockpile rebuilds")
        });
    let _ = writeln!(
        out,
        "- **Two-player game** (two experts): {} of {} games end, in a median of {} \
         and {}; a player loses who cannot give nine cards to a new stockpile, has \
         none left after giving them, or cannot turn a card. {} of turns are ties.",
        s.finished,
        s.games,
        median_words(sim, s),
        rebuilds,
        s.tie_rate.percent(1)
    );
}

/// The answer comparing three experts with high primes and powers against
/// the rules as written, and (`mixed`) who wins between mixed players.
fn high_primes_and_powers(
    out: &mut String,
    (plain_sim, plain): (&Simulation, &Summary),
    (rich_sim, rich): (&Simulation, &Summary),
    mixed: Option<&Summary>,
) {
    let _ = writeln!(
        out,
        "- **With --high-primes --powers**, between three equal experts: median {} \
         against {} under the rules as written ({}); ties on {} of turns against {}. \
         The players' models find each prime with a chance that falls with the \
         weight of its witness and its size, so equal players call different primes \
         and a house rule can change who wins (see `reports/house-rules.md`).{}",
        median_words(rich_sim, rich),
        median_words(plain_sim, plain),
        if medians_differ(plain, rich) {
            "the intervals do not overlap"
        } else {
            "within each other's intervals"
        },
        rich.tie_rate.percent(1),
        plain.tie_rate.percent(1),
        mixed.map_or(String::new(), |s| {
            format!(
                " Between mixed players the expert wins {}.",
                win_share(s, 0)
            )
        })
    );
}

/// Whether every two seats' win shares have overlapping 95% Wilson
/// intervals: only then may the study say the seats win alike.
fn seats_overlap(s: &Summary) -> bool {
    let intervals: Vec<[f64; 2]> = s.wins.iter().map(|&w| wilson(w, s.finished)).collect();
    intervals
        .iter()
        .all(|a| intervals.iter().all(|b| a[0] <= b[1] && b[0] <= a[1]))
}

/// Which player models a report used, in words.
pub fn models_used(models: &crate::game::Models) -> &'static str {
    if *models == crate::game::Models::default() {
        "the built-in player models"
    } else {
        "the player models and timing of a `--models` file"
    }
}
