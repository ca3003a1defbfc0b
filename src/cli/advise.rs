//! `prime-solve advise`: the house-rule advisor.

use anyhow::{Context, Result};

use prime_solve::advise::{Plan, advise, games_played};
use prime_solve::report::advice;

use super::write::{check_file, write_file};

use super::args::{AdviseArgs, Format};
use super::{Verdict, print, progress_bar, say, thread_pool, tick};

pub(crate) fn run(args: &AdviseArgs) -> Result<Verdict> {
    let models = args.models.load()?;
    if args.models.print_models {
        print(&models.to_toml())?;
        return Ok(Verdict::Yes);
    }
    if let Some(path) = &args.out {
        check_file(path).context("cannot write the report")?;
    }
    let pool = thread_pool(args.work.threads)?;
    let plan = Plan {
        models,
        games: args.games,
        seed: args.run.seed,
        max_turns: args.run.max_turns,
    };
    let bar = progress_bar(games_played(&plan), "games", args.work.quiet);
    let found = pool.install(|| advise(&plan, super::memory::budget(), &|| tick(&bar)))?;
    bar.finish_and_clear();
    let style = args.style.style();
    let markdown = advice::markdown(&plan, &found, style);
    if let Some(path) = &args.out {
        write_file(path, markdown.as_bytes()).context("cannot write the report")?;
    }
    match args.format {
        Format::Json => {
            print(&(serde_json::to_string_pretty(&advice::json(&plan, &found, style))? + "\n"))?
        }
        Format::Text => match &args.out {
            // Where the report went is a note, on stderr, as for `table`
            // and `crib`.
            Some(path) => say(&format!(
                "report written to {}",
                prime_solve::text::echo(&path.display().to_string())
            )),
            None => print(&markdown)?,
        },
    }
    Ok(Verdict::Yes)
}
