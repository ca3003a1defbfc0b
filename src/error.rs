//! The library's error types: bad cards, bad hands, bad rules, bad claims.

use thiserror::Error;

use crate::echo::echo;
use crate::rules::Faces;
use crate::words::{number, plural};

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
    #[error("the pack has only two Jokers, and {} are named{ANY_VALUES}", number(*named))]
    TooManyJokers { named: usize },
    #[error("{card} is named {}, but the pack has one{ANY_VALUES}", times(*named))]
    CardRepeated { card: String, named: usize },
    #[error("the pack has only four {rank}, and {} are named{ANY_VALUES}", number(*named))]
    TooManyOfRank { rank: &'static str, named: usize },
    #[error(
        "the pack cannot deal {} cards of value {value}: it has {}, and a Joker copies only the \
         highest card{ANY_VALUES}",
        number(*named),
        number(*in_pack)
    )]
    TooManyOfValue {
        value: u8,
        named: usize,
        in_pack: usize,
    },
}

/// How to lift the pack's limits, for the errors that enforce them.
const ANY_VALUES: &str = " (--any-values accepts any hand)";

/// `twice`, `3 times`.
fn times(n: usize) -> String {
    match n {
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
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
        "{} given: the {} game needs {}",
        plural(*got, "player", "players"),
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
    /// The search needs more memory than its budget allows: `needed` bytes
    /// in all (an estimate when `estimated`), against `limit`.
    #[error(
        "not enough memory: {} {}, more than the limit of {}",
        if *estimated { "the search would need about" } else { "the search asked for" },
        crate::engine::Bytes(*needed),
        crate::engine::Bytes(*limit)
    )]
    Memory {
        needed: u64,
        limit: u64,
        estimated: bool,
    },
}
