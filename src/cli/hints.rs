//! The flags that would change an answer. The library's errors and faults
//! speak of the game ("juxtaposing cards is not allowed") and its hints
//! are data ([`Hint`]); the command line words a hint as the flag that
//! changes it ("(use --juxtapose)").

use prime_solve::game::SimError;
use prime_solve::{Fault, Hint, HouseRule};

/// What to append to an error's message: a separator and the hint.
pub(crate) fn for_error(err: &anyhow::Error) -> String {
    err.chain().find_map(hint).unwrap_or_default()
}

fn hint(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
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
    if let Some(prime_solve::ways::WaysError::QueryTooMuch { .. }) = cause.downcast_ref() {
        return Some(" (drop --ways)".into());
    }
    Hint::of(cause).map(flags)
}

/// What to append to a referee's fault: the flag that allows what the
/// claim needed.
pub(crate) fn for_fault(fault: &Fault) -> String {
    Hint::for_fault(fault).map(flags).unwrap_or_default()
}

/// A hint in the command line's words: the flag that changes the answer.
fn flags(hint: Hint) -> String {
    match hint {
        Hint::Allow(rule) => match rule {
            HouseRule::Powers => " (use --powers)".into(),
            HouseRule::Juxtapose => " (use --juxtapose)".into(),
            HouseRule::Function(f) => format!(" (use --functions {})", f.name()),
        },
        Hint::FunctionDepth(depth) => format!(" (use --function-depth {depth})"),
        Hint::BeyondFunctionDepth => format!(
            " (no --function-depth allows it: at most {} functions may be applied one \
             to another)",
            prime_solve::MAX_FUNCTION_DEPTH
        ),
        Hint::HighPrimes => " (use --high-primes to allow it)".into(),
        Hint::FacesRank => " (use --faces rank for J = 11, Q = 12, K = 13)".into(),
        Hint::FacesSuit => " (under --faces suit)".into(),
        Hint::AnyValues => " (--any-values accepts any hand)".into(),
        Hint::Memory => "; use fewer cards or house rules, or raise --memory-limit".into(),
        Hint::Primes => "; use fewer players or cards, a --max-prime ceiling instead of \
                         --high-primes, or raise --memory-limit"
            .into(),
        Hint::Refused => {
            "; use fewer cards or house rules, or a --memory-limit the machine can give".into()
        }
        Hint::TooLarge => "; use fewer cards, fewer house rules, or a lower --max-value".into(),
    }
}
