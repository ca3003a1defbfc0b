//! Why a hand could not be solved, and what a refused sweep projected.

use std::fmt;

use thiserror::Error;

use super::PRIME_SAMPLE;
use crate::hand::Hand;
use crate::rules::RulesError;

/// Why a hand could not be solved.
#[derive(Debug, Error, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SolveError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(
        "the search is too large: the cards {hand} reach more than {limit} values under these \
         rules"
    )]
    TooLarge { hand: Hand, limit: usize },
    /// The search needs more memory than its budget allows: `needed` bytes
    /// in all (an estimate when `estimated`), against `limit`.
    #[error(
        "not enough memory: {} {}, more than the limit of {}",
        if *estimated { "the search would need about" } else { "the search asked for" },
        crate::text::apart(*needed, *limit).0,
        crate::text::apart(*needed, *limit).1
    )]
    Memory {
        needed: u64,
        limit: u64,
        estimated: bool,
    },
    /// The machine refused memory the budget allowed: `needed` bytes in
    /// all, below `limit` (the limit is more than the machine can give).
    #[error(
        "not enough memory: the machine refused the search at {}, below the limit of {}",
        crate::text::Bytes(*needed),
        crate::text::Bytes(*limit)
    )]
    Refused { needed: u64, limit: u64 },
    /// A sweep's lists of primes are projected past what the budget has
    /// left ([`Solver::foresee_primes`](super::Solver::foresee_primes)).
    #[error("{0}")]
    Primes(PrimesRefusal),
}

/// What [`Solver::foresee_primes`](super::Solver::foresee_primes) projected for a sweep it refused.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PrimesRefusal {
    /// The hands of the sweep, and their size.
    pub hands: usize,
    pub cards: usize,
    /// The mean number of primes of the `sampled` hands solved.
    pub per_hand: u64,
    pub sampled: u64,
    /// The bytes the lists would take, and the budget's limit.
    pub needed: u64,
    pub limit: u64,
    /// The pairs of values the hands' tops would try, times the operators.
    pub operations: u128,
    /// Whether `per_hand` is only a lower bound: the mean, rounded down,
    /// of the primes that the `sampled` hands' splits into parts of at
    /// most k − 2 cards make, `operations` those splits' work alone
    /// (`Solver::primes_at_least`).
    pub at_least: bool,
}

/// The words of [`SolveError::Primes`], the same on every run.
impl fmt::Display for PrimesRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let &PrimesRefusal {
            hands,
            cards,
            per_hand,
            sampled,
            needed,
            limit,
            operations,
            at_least,
        } = self;
        use crate::text::{grouped, number};
        let (lists, whole) = crate::text::apart(needed, limit);
        // Refused on the share of the limit the lists may take (what else is
        // held depends on what ran before, and on the threads).
        let limit = if needed > limit {
            format!("the limit of {whole}")
        } else {
            format!("the two thirds of what the limit of {whole} leaves that they may take")
        };
        // `1,234 in the first hand of a sample of 8`, `1,234 a hand in the
        // first 3 of a sample of 8 hands`, `... in a sample of 8 hands`.
        let per_hand = grouped(u128::from(per_hand));
        let (sample, their) = match sampled {
            1 => (
                format!("{per_hand} in the first hand of a sample of {PRIME_SAMPLE}"),
                "its",
            ),
            n if n < PRIME_SAMPLE as u64 => (
                format!("{per_hand} a hand in the first {n} of a sample of {PRIME_SAMPLE} hands"),
                "their",
            ),
            _ => (
                format!("{per_hand} a hand in a sample of {PRIME_SAMPLE} hands"),
                "their",
            ),
        };
        #[allow(clippy::cast_precision_loss, reason = "an estimate")]
        let operations = operations as f64;
        if at_least {
            return write!(
                f,
                "not enough memory: the primes of all {} {}-card hands would take about {lists} \
                 or more, more than {limit} (at least {sample}, counting only the primes of \
                 {their} splits into parts of at most {} cards, whose work alone is about \
                 {operations:.1e} operations on pairs of values)",
                grouped(hands as u128),
                number(cards),
                number(cards - 2),
            );
        }
        write!(
            f,
            "not enough memory: the primes of all {} {}-card hands would take about {lists}, more \
             than {limit} (about {sample}; finding them means about {operations:.1e} operations \
             on pairs of values)",
            grouped(hands as u128),
            number(cards),
        )
    }
}

impl SolveError {
    /// Whether this is a refusal for memory (by the budget or the machine).
    pub fn is_memory(&self) -> bool {
        matches!(
            self,
            SolveError::Memory { .. } | SolveError::Refused { .. } | SolveError::Primes { .. }
        )
    }
}
