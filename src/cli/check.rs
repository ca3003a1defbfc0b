//! `prime-solve check`: the referee's verdict on one claim.

use anyhow::{Result, bail};

use prime_solve::report::json;
use prime_solve::text::echo;
use prime_solve::{Card, check};

use super::args::{CheckArgs, Format, parse_hand};
use super::{Verdict, hints, print};

pub(crate) fn run(args: &CheckArgs) -> Result<Verdict> {
    let rules = args.rules.rules()?;
    let claim = &args.claim;
    let hand = match parse_hand(&args.cards, rules.faces, &args.hand) {
        Ok((_, hand)) => hand,
        // `check 2 3`: the last card taken for the claim leaves one.
        Err(e) if Card::parse(claim).is_ok() => bail!(
            "the claim is missing: `{}` was taken for the claim, and then {e}; give the claim \
             last, in quotes (check 4 6 8 \"(6 x 4) / 8\")",
            echo(claim)
        ),
        Err(e) => return Err(e),
    };
    // A lone card of the hand can never be a claim (a hand has at least
    // two cards to use): `check 4 6 8 4` has likely forgotten its claim. A
    // number that is no card of the hand is a claim, and ruled as one.
    if let Ok(card) = Card::parse(claim)
        && let Ok(Some(v)) = card.value(rules.faces)
        && hand.count(v) > 0
    {
        bail!(
            "the claim is missing: `{}` is a card of the hand, and a claim uses every card; \
             give the claim last, in quotes (check 4 6 8 \"(6 x 4) / 8\")",
            echo(claim)
        );
    }
    let verdict = check(hand, claim, &rules);
    let text = match args.output.format {
        Format::Json => {
            let object = json::check(hand, &rules, claim, &verdict, |f| {
                format!("{f}{}", hints::for_fault(f))
            });
            json::escaped(&serde_json::to_string_pretty(&object)?) + "\n"
        }
        // A card alone that the hand does not hold: the claim may have
        // been forgotten.
        Format::Text if let (Err(fault), Ok(_)) = (&verdict, Card::parse(claim)) => format!(
            "invalid: {}; if `{}` is a card, the claim is missing: give it last, in quotes\n",
            echo(&fault.to_string()),
            echo(claim)
        ),
        Format::Text => match &verdict {
            // A claim that states its result already says what it makes.
            Ok(p) if claim.contains('=') => format!("valid: {}, a prime ({p})\n", echo(claim)),
            Ok(p) => format!("valid: {} = {p}, a prime\n", echo(claim)),
            Err(fault) => format!(
                "invalid: {}{}\n",
                echo(&fault.to_string()),
                hints::for_fault(fault)
            ),
        },
    };
    print(&text)?;
    Ok(if verdict.is_ok() {
        Verdict::Yes
    } else {
        Verdict::No
    })
}
