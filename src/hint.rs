//! What would change an answer, as data: the house rule that allows a
//! claim, the face rule under which a card counts, fewer cards. Each front
//! end words a hint for its own users; [`Hint`]'s `Display` is the plain
//! words, and the command line says its flags instead (`--juxtapose`).

use std::fmt;

use crate::arith::Func;
use crate::card::CardError;
use crate::engine::SolveError;
use crate::hand::HandError;
use crate::referee::Fault;
use crate::rules::{Faces, HouseRule, MAX_FUNCTION_DEPTH};

/// What would change an answer, appended to the error or fault it
/// follows (its `Display` starts with its separator, ` (` or `; `).
///
/// ```
/// use prime_solve::{Hand, Hint, HouseRule, Rules, check};
///
/// let fault = check(Hand::from_values(&[5, 7, 8]), "78 + 5", &Rules::default()).unwrap_err();
/// let hint = Hint::for_fault(&fault).unwrap();
/// assert_eq!(hint, Hint::Allow(HouseRule::Juxtapose));
/// assert_eq!(
///     format!("{fault}{hint}"),
///     "78 is not a card in the hand (5 7 8): juxtaposing cards is not allowed \
///      (allowed with the house rule cards side by side)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hint {
    /// The house rule that allows what a claim needed.
    Allow(HouseRule),
    /// Functions nested this deep are allowed by the function depth of
    /// that number.
    FunctionDepth(u8),
    /// Deeper than any function depth allows ([`MAX_FUNCTION_DEPTH`]).
    BeyondFunctionDepth,
    /// A prime above the ceiling, allowed where any prime may be called.
    HighPrimes,
    /// A card value 11-13, dealt where face cards count their rank.
    FacesRank,
    /// A face card without its suit, which it needs where face cards count
    /// their suit.
    FacesSuit,
    /// A hand the pack cannot deal, accepted where any values are.
    AnyValues,
    /// A search past its memory: fewer cards or house rules.
    Memory,
    /// A sweep's lists of primes past its memory: fewer cards, or a
    /// ceiling on primes.
    Primes,
    /// The machine refused memory the budget allowed.
    Refused,
    /// A hand reaching more values than a search keeps: fewer cards or
    /// house rules, or a lower bound on values.
    TooLarge,
}

impl Hint {
    /// The hint for a referee's fault, if a house rule would allow the
    /// claim.
    pub fn for_fault(fault: &Fault) -> Option<Hint> {
        match fault {
            Fault::NotAllowed { rule, .. } => Some(Hint::Allow(*rule)),
            Fault::TooDeep { depth, .. } if *depth <= MAX_FUNCTION_DEPTH => {
                Some(Hint::FunctionDepth(*depth))
            }
            Fault::TooDeep { .. } => Some(Hint::BeyondFunctionDepth),
            Fault::AboveCeiling { .. } => Some(Hint::HighPrimes),
            _ => None,
        }
    }

    /// The hint for the first error of `err`'s chain (it and its sources)
    /// that the library knows one for.
    pub fn for_error(err: &(dyn std::error::Error + 'static)) -> Option<Hint> {
        let mut cause = Some(err);
        while let Some(e) = cause {
            if let Some(hint) = Hint::of(e) {
                return Some(hint);
            }
            cause = e.source();
        }
        None
    }

    /// The hint for this one error, not its sources: for a front end that
    /// walks a chain of its own and knows hints of its own besides.
    pub fn of(cause: &(dyn std::error::Error + 'static)) -> Option<Hint> {
        if let Some(e) = cause.downcast_ref::<CardError>() {
            return match e {
                CardError::ValueOutOfRange { faces, .. } if *faces != Faces::Rank => {
                    Some(Hint::FacesRank)
                }
                CardError::NeedsSuit { .. } => Some(Hint::FacesSuit),
                _ => None,
            };
        }
        if let Some(e) = cause.downcast_ref::<HandError>() {
            return match e {
                HandError::TooManyJokers { .. }
                | HandError::CardRepeated { .. }
                | HandError::TooManyOfRank { .. }
                | HandError::TooManyOfValue { .. } => Some(Hint::AnyValues),
                HandError::Card(card) => Hint::of(card),
                _ => None,
            };
        }
        if let Some(e) = cause.downcast_ref::<SolveError>() {
            return match e {
                SolveError::Memory { .. } => Some(Hint::Memory),
                SolveError::Primes { .. } => Some(Hint::Primes),
                SolveError::Refused { .. } => Some(Hint::Refused),
                SolveError::TooLarge { .. } => Some(Hint::TooLarge),
                SolveError::Rules(_) => None,
            };
        }
        None
    }

    /// The house rule in the words a player reads (the page's own labels):
    /// `powers and roots`, `cards side by side`, `triangular numbers`.
    pub fn rule_words(rule: HouseRule) -> &'static str {
        match rule {
            HouseRule::Powers => "powers and roots",
            HouseRule::Juxtapose => "cards side by side",
            HouseRule::Function(Func::Tri) => "triangular numbers",
            HouseRule::Function(Func::Fact) => "factorials",
            HouseRule::Function(Func::Sqrt) => "square roots",
        }
    }
}

/// The hint in plain words, as the page and the HTTP API give it: the
/// house rules by name, never a command-line flag.
impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Hint::Allow(rule) => write!(
                f,
                " (allowed with the house rule {})",
                Hint::rule_words(rule)
            ),
            Hint::FunctionDepth(depth) => write!(
                f,
                " (allowed when up to {depth} functions may be applied one to another)"
            ),
            Hint::BeyondFunctionDepth => write!(
                f,
                " (no house rule allows it: at most {MAX_FUNCTION_DEPTH} functions may be \
                 applied one to another)"
            ),
            Hint::HighPrimes => f.write_str(" (allowed with the house rule primes above 97)"),
            Hint::FacesRank => {
                f.write_str(" (dealt when face cards count their rank: J = 11, Q = 12, K = 13)")
            }
            Hint::FacesSuit => f.write_str(" (when face cards count their suit)"),
            Hint::AnyValues => f.write_str(" (any-values accepts any hand)"),
            Hint::Memory | Hint::Refused => f.write_str("; use fewer cards or house rules"),
            Hint::Primes => {
                f.write_str("; use fewer cards, or a ceiling on primes instead of any prime")
            }
            Hint::TooLarge => {
                f.write_str("; use fewer cards, fewer house rules, or a lower bound on values")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain words: no hint names a command-line flag.
    #[test]
    fn no_hint_names_a_flag() {
        let mut hints = vec![
            Hint::BeyondFunctionDepth,
            Hint::HighPrimes,
            Hint::FacesRank,
            Hint::FacesSuit,
            Hint::AnyValues,
            Hint::Memory,
            Hint::Primes,
            Hint::Refused,
            Hint::TooLarge,
        ];
        hints.extend((1..=MAX_FUNCTION_DEPTH).map(Hint::FunctionDepth));
        hints.extend(
            [HouseRule::Powers, HouseRule::Juxtapose]
                .into_iter()
                .chain(Func::ALL.into_iter().map(HouseRule::Function))
                .map(Hint::Allow),
        );
        for hint in hints {
            let words = hint.to_string();
            assert!(!words.contains("--"), "{words}");
            assert!(
                words.starts_with(" (") || words.starts_with("; "),
                "{words}"
            );
        }
    }

    #[test]
    fn a_cards_hint_is_found_inside_a_hands_error() {
        let err = HandError::Card(CardError::ValueOutOfRange {
            value: 12,
            faces: Faces::Five,
        });
        assert_eq!(Hint::for_error(&err), Some(Hint::FacesRank));
        let err = HandError::TooManyJokers { named: 3 };
        assert_eq!(Hint::for_error(&err), Some(Hint::AnyValues));
    }
}
