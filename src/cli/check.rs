//! `prime-solve check`: the referee's verdict on one claim.

use anyhow::Result;
use serde::Serialize;

use prime_solve::{Value, check};

use super::args::{CheckArgs, Format, parse_hand};
use super::{Verdict, print};

#[derive(Serialize)]
struct CheckJson<'a> {
    hand: Vec<u8>,
    claim: &'a str,
    valid: bool,
    value: Option<Value>,
    fault: Option<String>,
}

pub fn run(args: &CheckArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let (claim, cards) = args.args.split_last().expect("clap requires 3 arguments");
    let hand = parse_hand(cards, rules.faces, &args.hand)?;
    let verdict = check(hand, claim, &rules);
    let text = match args.output.format {
        Format::Json => {
            let json = CheckJson {
                hand: hand.values(),
                claim,
                valid: verdict.is_ok(),
                value: verdict.as_ref().ok().copied(),
                fault: verdict.as_ref().err().map(ToString::to_string),
            };
            serde_json::to_string_pretty(&json)? + "\n"
        }
        Format::Text => match &verdict {
            Ok(p) => format!("valid: {claim} = {p}, a prime\n"),
            Err(fault) => format!("invalid: {fault}\n"),
        },
    };
    print(&text)?;
    Ok(if verdict.is_ok() {
        Verdict::Yes
    } else {
        Verdict::No
    })
}
