//! The library's error types: bad cards, bad hands, bad rules, bad claims.

use thiserror::Error;

use crate::echo::echo;
use crate::rules::Faces;

/// The forms a card token may take, for error messages.
pub const CARD_FORMS: &str = "a value 1-13, a card A 2-10 T J Q K with an optional suit S H C D \
     (QH, 10s, 7♦), or a Joker (JK, JOKER, *)";

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CardError {
    #[error("bad card `{}`: expected {CARD_FORMS}", echo(token))]
    BadToken { token: String },
    #[error(
        "card `{0}` needs its suit under --faces suit (e.g. {0}H)",
        echo(token)
    )]
    NeedsSuit { token: String },
    #[error(
        "card value {value} cannot be dealt under --faces {}: cards count 1-{}{}",
        faces.name(),
        faces.max_value(),
        if *faces == Faces::Rank { "" } else { " (use --faces rank for J = 11, Q = 12, K = 13)" }
    )]
    ValueOutOfRange { value: u8, faces: Faces },
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum HandError {
    #[error(transparent)]
    Card(#[from] CardError),
    #[error("a hand needs {min} to {max} cards, got {got}")]
    Size { got: usize, min: usize, max: usize },
    #[error("a hand of Jokers only has no value: a Joker copies the highest other card")]
    AllJokers,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RulesError {
    #[error("function depth {0} is out of range: use 1 to {max}", max = crate::rules::MAX_FUNCTION_DEPTH)]
    FunctionDepth(u8),
    #[error("max value {0} is too small: every card must fit, so use at least 13")]
    MaxValue(u64),
    #[error("max prime {0} is too small: the lowest prime is 2")]
    MaxPrime(u64),
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SimError {
    #[error(
        "{got} players given: the {} game needs {}",
        if *two_player { "two-player" } else { "multi-player" },
        if *two_player { "exactly 2 (--players expert,club)" } else { "3 to 6 (--players expert,club,novice)" }
    )]
    Players { got: usize, two_player: bool },
    #[error("nothing to play: --games and --max-turns must be at least 1")]
    Empty,
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Why a hand could not be solved.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SolveError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(
        "the search is too large: the cards {hand} reach more than {limit} values under these \
         rules; use fewer cards, fewer house rules, or a lower --max-value"
    )]
    TooLarge { hand: String, limit: usize },
}
