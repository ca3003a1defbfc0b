//! What can be called on each hand, computed once per rule set with the
//! solver, so a simulated turn costs a lookup.

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::arith::Value;
use crate::deck::deal;
use crate::engine::{Budget, Charge, SolveError, Solver};
use crate::hand::Hand;
use crate::rules::{HouseRules, Rules};

/// One prime a hand makes, with how hard its simplest witness is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Callable {
    /// The prime: every prime the solver reaches is below 2^64, and a book
    /// of hundreds of thousands of primes a hand keeps them in half the
    /// bytes of a [`Value`].
    pub prime: u64,
    /// The witness's operator weight (see `expr::Cost`): the effort to find it.
    pub effort: u16,
    /// The house rules its witness needs.
    pub needs: HouseRules,
}

impl Callable {
    /// The prime as a [`Value`].
    pub fn value(&self) -> Value {
        Value::from(self.prime)
    }
}

/// Every hand of the sizes a game can show, with its primes.
pub struct CallBook {
    hands: FxHashMap<Hand, Vec<Callable>>,
    /// The book's memory, charged to the solver's budget while it lives
    /// (held for its drop).
    _held: Charge,
}

impl CallBook {
    /// Solves every hand of each size in `sizes` that the pack deals.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the hands' tables do not fit the budget.
    ///
    /// # Panics
    /// Never: every prime found has a witness.
    pub fn new(
        rules: Rules,
        sizes: &[usize],
        budget: &Arc<Budget>,
    ) -> Result<CallBook, SolveError> {
        // Only the primes and their witnesses are wanted.
        let mut solver = Solver::new(rules)?
            .without_pruned_counts()
            .with_budget(Arc::clone(budget));
        let mut all: Vec<Hand> = Vec::new();
        for &k in sizes {
            all.extend(deal(k, rules.faces).0.iter().map(|d| d.hand));
        }
        let mut hands: FxHashMap<Hand, Vec<Callable>> = FxHashMap::default();
        let mut held = Charge::default();
        // Each size in its own sweep, within the budget (`Solver::plan_sweep`),
        // the largest first: a book that cannot fit is refused before the
        // smaller sizes are solved.
        let mut sizes = sizes.to_vec();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        for k in sizes {
            let sized: Vec<Hand> = all.iter().copied().filter(|h| h.len() == k).collect();
            // The lists projected are held from the start, so that the
            // sweep's chunks are sized with them in the budget; the charge
            // rises with the book where the projection fell short, so that
            // such a book is refused rather than aborted.
            let projected = solver.foresee_primes(&sized, Self::PER_PRIME)?;
            let mut lists = solver.budget().charge(projected)?;
            let mut book = 0;
            let chunk = solver.plan_sweep(&sized)?.max(1);
            for part in sized.chunks(chunk) {
                solver.prepare(part)?;
                let solved = Self::solve(&solver, part)?;
                book += solved
                    .iter()
                    .map(|(_, options)| Self::PER_HAND + Self::PER_PRIME * options.len() as u64)
                    .sum::<u64>();
                lists.raise_to(solver.budget(), book)?;
                hands.extend(solved);
                if chunk < sized.len() {
                    solver.release(k - 1);
                }
            }
            lists.shrink_to(book);
            held.absorb(lists);
        }
        Ok(CallBook { hands, _held: held })
    }

    /// What the book holds per hand and per prime (a map entry with its
    /// list, and a [`Callable`]).
    const PER_HAND: u64 = 64;
    const PER_PRIME: u64 = std::mem::size_of::<Callable>() as u64;

    fn solve(solver: &Solver, part: &[Hand]) -> Result<Vec<(Hand, Vec<Callable>)>, SolveError> {
        part.par_iter()
            .map(|&hand| {
                let solution = solver.solve_primes(hand)?;
                let options = solution
                    .primes()
                    .into_iter()
                    .map(|p| Callable {
                        prime: u64::try_from(p).expect("every prime is below 2^64"),
                        effort: solution.cost(p).map_or(0, |c| c.weight),
                        needs: solution.witness(p).expect("reached").house_rules(),
                    })
                    .collect();
                Ok((hand, options))
            })
            .collect()
    }

    /// The primes `hand` makes, ascending (none for a hand never dealt).
    pub fn options(&self, hand: Hand) -> &[Callable] {
        self.hands.get(&hand).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callable_takes_sixteen_bytes() {
        // Six cards under any prime make hundreds of thousands of primes a
        // hand: the book's size, and its projection, rest on this.
        assert_eq!(std::mem::size_of::<Callable>(), 16);
        assert_eq!(CallBook::PER_PRIME, 16);
    }
}
