//! The exact enumerator: dynamic programming over the sub-hands of a hand,
//! every value each reaches with its simplest witness, tables shared
//! between hands so that a sweep computes each sub-hand once.

mod primes;
mod table;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::arith::{BinOp, Func, Value};
use crate::error::{RulesError, SolveError};
use crate::expr::{Cost, Expr};
use crate::hand::Hand;
use crate::prime::is_prime;
use crate::rules::Rules;
pub use table::Table;
use table::{Build, How, Layer};

/// Enumerates hands under one set of rules, keeping the tables of the
/// sub-hands it has prepared.
pub struct Solver {
    rules: Rules,
    /// The most values one table may hold.
    limit: usize,
    ops: Vec<BinOp>,
    functions: Vec<Func>,
    shared: FxHashMap<Hand, Table>,
}

impl Solver {
    pub fn new(rules: Rules) -> Result<Solver, RulesError> {
        rules.validate()?;
        let ops = BinOp::ALL
            .into_iter()
            .filter(|op| rules.powers || !matches!(op, BinOp::Pow | BinOp::Root))
            .collect();
        Ok(Solver {
            rules,
            limit: MAX_TABLE_VALUES,
            ops,
            functions: rules.function_list(),
            shared: FxHashMap::default(),
        })
    }

    /// Refuses hands whose tables would hold more than `limit` values
    /// (default [`MAX_TABLE_VALUES`]).
    pub fn with_value_limit(self, limit: usize) -> Solver {
        Solver { limit, ..self }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    fn build(&self) -> Build<'_> {
        Build {
            ops: &self.ops,
            functions: &self.functions,
            depth: self.rules.function_depth,
            juxtapose: self.rules.juxtapose,
            bound: self.rules.max_value,
            limit: self.limit,
        }
    }

    /// Computes, once and in parallel, the tables of every proper sub-hand
    /// of these hands, so that solving each of them builds only its own.
    pub fn prepare(&mut self, hands: &[Hand]) -> Result<(), SolveError> {
        let mut pending: Vec<Hand> = hands
            .iter()
            .flat_map(|h| h.proper_sub_hands())
            .filter(|s| !self.shared.contains_key(s))
            .collect();
        pending.sort_unstable_by_key(|h| (h.len(), h.key()));
        pending.dedup();
        let max = pending.last().map_or(0, |h| h.len());
        for size in 1..=max {
            let layer: Vec<Hand> = pending
                .iter()
                .copied()
                .filter(|h| h.len() == size)
                .collect();
            let shared = &self.shared;
            let build = self.build();
            let tables = layer
                .par_iter()
                .map(|&h| Ok((h, build.table(h, |s| &shared[&s])?)))
                .collect::<Result<Vec<(Hand, Table)>, SolveError>>()?;
            self.shared.extend(tables);
        }
        Ok(())
    }

    /// Every value `hand` reaches. Sub-hands not prepared are built here
    /// and kept with the solution.
    pub fn solve(&self, hand: Hand) -> Result<Solution<'_>, SolveError> {
        self.solve_with(hand, false)
    }

    /// The primes `hand` reaches, with the same witnesses as [`Solver::solve`],
    /// but without listing every other value when a faster targeted search
    /// applies (see [`Solution::values`]).
    pub fn solve_primes(&self, hand: Hand) -> Result<Solution<'_>, SolveError> {
        self.solve_with(hand, true)
    }

    fn solve_with(&self, hand: Hand, primes_only: bool) -> Result<Solution<'_>, SolveError> {
        let mut local: FxHashMap<Hand, Table> = FxHashMap::default();
        let mut missing: Vec<Hand> = hand
            .proper_sub_hands()
            .into_iter()
            .filter(|s| !self.shared.contains_key(s))
            .collect();
        missing.sort_unstable_by_key(|h| h.len());
        let build = self.build();
        for h in missing {
            let table = build.table(h, |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]))?;
            local.insert(h, table);
        }
        let get = |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]);
        let rules = self.rules;
        // Only primes wanted: the targeted search (+ − × ÷ and a small
        // ceiling), else the scan that keeps only primes; either may decline.
        let fast = if primes_only {
            let targeted = match rules.max_prime {
                Some(max) if max <= TARGETED_MAX_PRIME => build.primes(hand, get, max),
                _ => None,
            };
            match targeted {
                Some(table) => Some(table),
                None => build.top_primes(hand, get, |v| rules.allows_prime(v) && is_prime(v))?,
            }
        } else {
            None
        };
        let complete = fast.is_none();
        let top = match fast {
            Some(table) => table,
            None => build.table(hand, get)?,
        };
        local.insert(hand, top);
        Ok(Solution {
            hand,
            solver: self,
            local,
            complete,
        })
    }
}

/// Everything a hand reaches, with witnesses on demand.
pub struct Solution<'a> {
    hand: Hand,
    solver: &'a Solver,
    local: FxHashMap<Hand, Table>,
    /// Whether the top table lists every value, not only the primes.
    complete: bool,
}

/// The most values one sub-hand's table may hold. Five cards under every
/// house rule reach about 9.4 million values (2 GB); six would exhaust the
/// machine's memory long before finishing, and are refused instead.
pub const MAX_TABLE_VALUES: usize = 20_000_000;

/// The targeted prime search looks up partners for each prime up to the
/// ceiling; above this ceiling trying every pair is as fast.
const TARGETED_MAX_PRIME: u64 = 1000;

impl Solution<'_> {
    pub fn hand(&self) -> Hand {
        self.hand
    }

    pub fn rules(&self) -> &Rules {
        &self.solver.rules
    }

    fn table(&self, h: Hand) -> &Table {
        self.local
            .get(&h)
            .unwrap_or_else(|| &self.solver.shared[&h])
    }

    fn top(&self) -> &Layer {
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
        self.top()
            .values
            .iter()
            .copied()
            .filter(|&v| rules.allows_prime(v) && is_prime(v))
            .collect()
    }

    /// Operations whose result was beyond the bound, summed over the
    /// hand's distinct sub-hands.
    pub fn pruned(&self) -> u64 {
        let mut subs = self.hand.proper_sub_hands();
        subs.push(self.hand);
        subs.iter().map(|&s| self.table(s).pruned).sum()
    }

    /// How simple the simplest witness of `v` is.
    pub fn cost(&self, v: Value) -> Option<Cost> {
        let top = self.top();
        top.find(v).map(|i| top.steps[i].cost)
    }

    /// The simplest expression that makes `v`, if the hand reaches it.
    pub fn witness(&self, v: Value) -> Option<Expr> {
        let i = self.top().find(v)?;
        Some(self.rebuild(self.hand, None, i))
    }

    /// Rebuilds the expression at index `i` of `hand`'s merged layer
    /// (`level` None) or of one function level.
    fn rebuild(&self, hand: Hand, level: Option<u8>, i: usize) -> Expr {
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
