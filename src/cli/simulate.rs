//! `prime-solve simulate`: many seeded games, a summary, and optionally the
//! files of a run or the README's study.

use std::path::Path;

use anyhow::{Context, Result};

use prime_solve::Rules;
use prime_solve::game::{Endgame, Model, Models, Simulation, Summary, simulate};
use prime_solve::report::{File, json, simulation};
use prime_solve::text::plural;

use super::args::{Format, SimulateArgs};
use super::write::{check_file, check_folder, write_file, write_files};
use super::{Pool, Verdict, print, progress_bar, say, thread_pool, tick};

pub(crate) fn run(args: &SimulateArgs) -> Result<Verdict> {
    let models = args.models.load()?;
    if args.models.print_models {
        print(&models.to_toml())?;
        return Ok(Verdict::Yes);
    }
    let rules = args.rules.rules()?;
    if let Some(path) = &args.study {
        check_file(path).context("cannot write the study")?;
    }
    if let Some(dir) = &args.out {
        check_folder(dir).context("cannot write the simulation's files")?;
    }
    let pool = thread_pool(args.work.threads)?;
    if let Some(path) = &args.study {
        return study(args, rules, &pool, path);
    }
    let players = if args.players.is_empty() {
        vec![models.get("expert").map_err(anyhow::Error::msg)?; if args.two_player { 2 } else { 3 }]
    } else {
        models.lineup(&args.players).map_err(anyhow::Error::msg)?
    };
    let sim = Simulation {
        rules,
        players,
        two_player: args.two_player,
        games: args.games,
        seed: args.run.seed,
        max_turns: args.run.max_turns,
        timing: models.timing,
        endgame: args.endgame,
    };
    sim.validate()?;
    let bar = progress_bar(sim.games, "games", args.work.quiet);
    let records = pool.install(|| simulate(&sim, super::memory::budget(), &|| tick(&bar)))?;
    bar.finish_and_clear();
    let summary = Summary::of(&sim, &records);
    if let Some(dir) = &args.out {
        let files = [
            File::new("summary.md", simulation::markdown(&sim, &summary)),
            File::new("games.csv", simulation::games_csv(&sim, &records)),
            File::new(
                simulation::LENGTH_SVG,
                simulation::length_svg(&sim, &records),
            ),
        ];
        write_files(dir, &files).context("cannot write the simulation's files")?;
    }
    match args.format {
        Format::Json => {
            print(&(serde_json::to_string_pretty(&json::simulation(&sim, &summary))? + "\n"))?
        }
        Format::Text => print(&simulation::text(&sim, &summary))?,
    }
    Ok(Verdict::Yes)
}

/// One scenario of the study: its name, rules, players, whether it is
/// the two-player game, and its endgame.
type Scenario = (String, Rules, Vec<Model>, bool, Endgame);

/// The scenarios of `reports/simulation.md`, under `rules` and the
/// `models` of the run, the run's endgame first.
fn scenarios(models: &Models, rules: Rules, endgame: Endgame) -> Result<Vec<Scenario>> {
    let model = |name: &str| models.get(name).map_err(anyhow::Error::msg);
    let (expert, club, novice) = (model("expert")?, model("club")?, model("novice")?);
    let high_powers = Rules {
        powers: true,
        max_prime: None,
        ..rules
    };
    let mixed = vec![expert.clone(), club.clone(), novice.clone()];
    let experts = vec![expert.clone(); 3];
    let mut scenarios: Vec<Scenario> = vec![
        (
            "Three experts".into(),
            rules,
            experts.clone(),
            false,
            endgame,
        ),
        ("Mixed skills".into(), rules, mixed.clone(), false, endgame),
        (
            "Three club players".into(),
            rules,
            vec![club.clone(); 3],
            false,
            endgame,
        ),
        (
            "Two experts, two-player game".into(),
            rules,
            vec![expert.clone(); 2],
            true,
            endgame,
        ),
        (
            "Club against novice, two-player game".into(),
            rules,
            vec![club, novice],
            true,
            endgame,
        ),
        (
            "Three experts, high primes and powers".into(),
            high_powers,
            experts.clone(),
            false,
            endgame,
        ),
        (
            "Mixed skills, high primes and powers".into(),
            high_powers,
            mixed,
            false,
            endgame,
        ),
    ];
    for other in Endgame::ALL {
        if other != endgame {
            scenarios.push((
                format!("Three experts, endgame {}", other.name()),
                rules,
                experts.clone(),
                false,
                other,
            ));
        }
    }
    Ok(scenarios)
}

/// The scenarios of `reports/simulation.md`.
fn study(args: &SimulateArgs, rules: Rules, pool: &Pool, path: &Path) -> Result<Verdict> {
    let models = args.models.load()?;
    let scenarios = scenarios(&models, rules, args.endgame)?;
    let bar = progress_bar(
        args.games * scenarios.len() as u64,
        "games",
        args.work.quiet,
    );
    let mut runs = Vec::new();
    for (name, rules, players, two_player, endgame) in scenarios {
        let sim = Simulation {
            rules,
            players,
            two_player,
            games: args.games,
            seed: args.run.seed,
            max_turns: args.run.max_turns,
            timing: models.timing,
            endgame,
        };
        let records = pool.install(|| simulate(&sim, super::memory::budget(), &|| tick(&bar)))?;
        let summary = Summary::of(&sim, &records);
        runs.push((name, sim, summary));
    }
    bar.finish_and_clear();
    write_file(path, simulation::study(&runs, &models).as_bytes())
        .context("cannot write the study")?;
    let mut out = String::new();
    for (name, sim, s) in &runs {
        out.push_str(&format!("{name}: {} of {} finished", s.finished, s.games));
        if let Some(t) = &s.turns {
            out.push_str(&format!(", median {}", plural(t.median, "turn", "turns")));
        }
        out.push_str(&format!(" ({})\n", simulation::players(sim)));
    }
    print(&out)?;
    say(&format!(
        "study written to {}",
        prime_solve::text::echo(&path.display().to_string())
    ));
    Ok(Verdict::Yes)
}
