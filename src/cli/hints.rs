//! The flags that would change an answer. The library's errors and faults
//! speak of the game ("juxtaposing cards is not allowed"); the command line
//! adds which of its flags changes that ("(use --juxtapose)").

use prime_solve::game::SimError;
use prime_solve::{CardError, Faces, Fault, HandError, HouseRule, SolveError};

/// What to append to an error's message: a separator and the hint.
pub(crate) fn for_error(err: &anyhow::Error) -> String {
    err.chain().find_map(hint).unwrap_or_default()
}

fn hint(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    if let Some(e) = cause.downcast_ref::<CardError>() {
        return match e {
            CardError::ValueOutOfRange { faces, .. } if *faces != Faces::Rank => {
                Some(" (use --faces rank for J = 11, Q = 12, K = 13)".into())
            }
            CardError::NeedsSuit { .. } => Some(" (under --faces suit)".into()),
            _ => None,
        };
    }
    if let Some(e) = cause.downcast_ref::<HandError>() {
        return match e {
            HandError::TooManyJokers { .. }
            | HandError::CardRepeated { .. }
            | HandError::TooManyOfRank { .. }
            | HandError::TooManyOfValue { .. } => Some(" (--any-values accepts any hand)".into()),
            HandError::Card(card) => hint(card),
            _ => None,
        };
    }
    if let Some(e) = cause.downcast_ref::<SimError>() {
        return match e {
            SimError::Players { two_player, .. } => Some(if *two_player {
                " (--players expert,club)".into()
            } else {
                " (--players expert,club,novice)".into()
            }),
            SimError::Empty => Some(" (--games and --max-turns take 1 or more)".into()),
            SimError::Solve(e) => hint(e),
            SimError::Records { machine, .. } => Some(if *machine {
                "; play fewer --games, or give a --memory-limit the machine can give".into()
            } else {
                "; play fewer --games, or raise --memory-limit".into()
            }),
            _ => None,
        };
    }
    if let Some(e) = cause.downcast_ref::<SolveError>() {
        return match e {
            SolveError::Memory { .. } => {
                Some("; use fewer cards or house rules, or raise --memory-limit".into())
            }
            SolveError::Primes { .. } => Some(
                "; use fewer players or cards, a --max-prime ceiling instead of --high-primes, or \
                 raise --memory-limit"
                    .into(),
            ),
            SolveError::Refused { .. } => Some(
                "; use fewer cards or house rules, or a --memory-limit the machine can give".into(),
            ),
            SolveError::TooLarge { .. } => {
                Some("; use fewer cards, fewer house rules, or a lower --max-value".into())
            }
            SolveError::Rules(_) => None,
        };
    }
    None
}

/// What to append to a referee's fault: the flag that allows what the
/// claim needed.
pub(crate) fn for_fault(fault: &Fault) -> String {
    match fault {
        Fault::NotAllowed { rule, .. } => match rule {
            HouseRule::Powers => " (use --powers)".into(),
            HouseRule::Juxtapose => " (use --juxtapose)".into(),
            HouseRule::Function(f) => format!(" (use --functions {})", f.name()),
        },
        Fault::TooDeep { depth, .. } if *depth <= prime_solve::MAX_FUNCTION_DEPTH => {
            format!(" (use --function-depth {depth})")
        }
        Fault::TooDeep { .. } => format!(
            " (no --function-depth allows it: at most {} functions may be applied one \
             to another)",
            prime_solve::MAX_FUNCTION_DEPTH
        ),
        Fault::AboveCeiling { .. } => " (use --high-primes to allow it)".into(),
        _ => String::new(),
    }
}
