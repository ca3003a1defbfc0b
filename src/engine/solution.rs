//! What a solved hand offers: its values and primes, the operations cut
//! off at the bound, and each value's simplest witness rebuilt on demand.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use rustc_hash::FxHashMap;

use super::Solver;
use super::primes::Tally;
use super::table::{How, Layer, Table};
use crate::arith::{Func, Value};
use crate::expr::{Cost, Expr};
use crate::hand::Hand;
use crate::prime::is_prime;
use crate::rules::Rules;

/// Everything a hand reaches, with witnesses on demand.
pub struct Solution<'a> {
    pub(super) hand: Hand,
    pub(super) solver: &'a Solver,
    pub(super) local: FxHashMap<Hand, Table>,
    /// How many sizes of sub-hands have restricted tables ([`Solver::depth`]).
    pub(super) depth: usize,
    /// Whether the top table lists every value, not only the primes.
    pub(super) complete: bool,
    /// How the operations beyond the bound were counted: in full, only
    /// whether there were any at the top, or not at all.
    pub(super) counted: Tally,
    /// Every prime reached, where a census ([`Solver::census`]) kept
    /// witnesses for only some of them in the top table.
    pub(super) reached: Option<Vec<Value>>,
}

impl Solution<'_> {
    pub fn hand(&self) -> Hand {
        self.hand
    }

    pub fn rules(&self) -> &Rules {
        &self.solver.rules
    }

    pub(super) fn table(&self, h: Hand) -> &Table {
        self.solver
            .sub_table(self.hand.len(), self.depth, &self.local, h)
    }

    pub(super) fn top(&self) -> &Layer {
        &self.table(self.hand).merged
    }

    /// Every reachable value, ascending; `None` when only the primes were
    /// searched ([`Solver::solve_primes`]).
    pub fn values(&self) -> Option<&[Value]> {
        self.complete.then(|| &self.top().values[..])
    }

    /// Every prime the rules allow, ascending.
    pub fn primes(&self) -> Vec<Value> {
        let rules = &self.solver.rules;
        self.reached
            .as_deref()
            .unwrap_or(&self.top().values)
            .iter()
            .copied()
            .filter(|&v| rules.allows_prime(v) && is_prime(v))
            .collect()
    }

    /// Operations whose result was beyond the bound, summed over the
    /// hand's distinct sub-hands; `None` when they were not counted (see
    /// [`Solver::without_pruned_counts`]).
    pub fn pruned(&self) -> Option<u64> {
        let mut subs = self.hand.proper_sub_hands();
        subs.push(self.hand);
        (self.counted == Tally::Every).then(|| subs.iter().map(|&s| self.table(s).pruned).sum())
    }

    /// Whether a prime the search did not find may lie beyond the value
    /// bound: whether anything it cut off at the bound could, with a larger
    /// bound, have led to a prime it does not list. `None` when the
    /// operations beyond the bound were not counted.
    ///
    /// Where nothing was cut off below the top (no sub-hand's table pruned
    /// anything), only the top's own results were cut off, and of those
    /// only a sum or difference can be prime: a product of two values
    /// beyond the bound has two factors above 1, a power `x^y` beyond it
    /// has `|x| ≥ 2` and `y ≥ 2`, T(n) is prime only at 2 and n! only at 2.
    /// So the answer is no unless a split's two largest magnitudes add up
    /// past the bound, a square root could bring a value cut off back
    /// within it (√ of a prime's square), or the cards juxtaposed pass it.
    pub fn bound_may_hide_primes(&self) -> Option<bool> {
        // Only whether anything was cut off matters here: each table's
        // count is positive exactly when the full count would be.
        if self.counted == Tally::Not {
            return None;
        }
        let below = self
            .hand
            .proper_sub_hands()
            .iter()
            .any(|&s| self.table(s).pruned > 0);
        if below {
            return Some(true);
        }
        if self.table(self.hand).pruned == 0 {
            return Some(false);
        }
        let rules = &self.solver.rules;
        let bound = u128::from(rules.max_value);
        // T(2) = 3 and 2! = 2 are the prime results of T and !, cut off
        // only by a bound below 3.
        if rules.functions.contains(Func::Sqrt) || bound < 3 {
            return Some(true);
        }
        // The longest juxtaposition: every card's digits side by side.
        let digits: u32 = self
            .hand
            .values()
            .iter()
            .map(|&v| if v >= 10 { 2 } else { 1 })
            .sum();
        if rules.juxtapose && 10u128.pow(digits) - 1 > bound {
            return Some(true);
        }
        // Every value of a full table lies within the bound, sorted.
        let largest = |h: Hand| -> u128 {
            let v = &self.table(h).merged.values;
            let ends = [v.first(), v.last()];
            ends.iter()
                .flatten()
                .map(|v| v.unsigned_abs())
                .max()
                .unwrap_or(0)
        };
        Some(
            super::table::splits(self.hand)
                .iter()
                .any(|s| largest(s.x) + largest(s.y) > bound),
        )
    }

    /// The quickest call among `primes`: the one whose witness is simplest,
    /// the smaller prime on a tie. What the reports, tables and the drill
    /// all call the quickest call. Primes without a witness here (not
    /// reached, or passed over by a census) are skipped.
    pub fn quickest(&self, primes: &[Value]) -> Option<Value> {
        primes
            .iter()
            .filter_map(|&p| Some((self.cost(p)?, p)))
            .min()
            .map(|(_, p)| p)
    }

    /// How simple the simplest witness of `v` is.
    pub fn cost(&self, v: Value) -> Option<Cost> {
        let top = self.top();
        top.find(v).map(|i| top.steps[i].cost)
    }

    /// The simplest expression that makes `v`, if the hand reaches it
    /// (from a census, only for the primes it keeps witnesses for).
    pub fn witness(&self, v: Value) -> Option<Expr> {
        let i = self.top().find(v)?;
        Some(self.rebuild(self.hand, None, i))
    }

    /// Rebuilds the expression at index `i` of `hand`'s merged layer
    /// (`level` None) or of one function level.
    pub(super) fn rebuild(&self, hand: Hand, level: Option<u8>, i: usize) -> Expr {
        let table = self.table(hand);
        let layer = match level {
            None => &table.merged,
            Some(l) => &table.levels[usize::from(l)],
        };
        match layer.steps[i].how {
            How::Card => Expr::Card(hand.values()[0]),
            How::Join { order } => Expr::Join(
                (0..hand.len())
                    .map(|k| ((order >> (4 * k)) & 0xF) as u8)
                    .collect(),
            ),
            How::Binary {
                op,
                left,
                right,
                li,
                ri,
            } => {
                let subs = hand.proper_sub_hands();
                let (left, right) = (subs[usize::from(left)], subs[usize::from(right)]);
                Expr::Binary(
                    op,
                    Box::new(self.rebuild(left, None, li as usize)),
                    Box::new(self.rebuild(right, None, ri as usize)),
                )
            }
            How::Unary { f, level, arg } => Expr::Unary(
                f,
                Box::new(self.rebuild(hand, Some(level - 1), arg as usize)),
            ),
        }
    }
}
