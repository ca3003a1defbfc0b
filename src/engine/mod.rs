//! The exact enumerator: dynamic programming over the sub-hands of a hand,
//! every value each reaches with its simplest witness, tables shared
//! between hands so that a sweep computes each sub-hand once.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

mod budget;
mod error;
mod flat;
mod pairs;
mod plan;
mod primes;
mod query;
mod seen;
mod solution;
mod solve;
mod table;
mod targets;
mod values;

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::arith::{BinOp, Func};
use crate::hand::Hand;
use crate::rules::{Rules, RulesError};
pub use budget::{Budget, Charge};
pub use error::{PrimesRefusal, SolveError};
use primes::Tally;
pub use query::{Answer, COUNTED_UP_TO, EveryValue, Want, Written};
pub use solution::Solution;
use solve::Goal;
use table::Build;
pub(crate) use table::Table;
pub use values::{HandValues, ValueSets};

/// Enumerates hands under one set of rules, keeping the tables of the
/// sub-hands it has prepared.
pub struct Solver {
    rules: Rules,
    /// The most values one table may hold.
    limit: usize,
    ops: Vec<BinOp>,
    functions: Vec<Func>,
    shared: FxHashMap<Hand, Table>,
    /// Restricted tables ([`targets`]) of sub-hands one card short of the
    /// hands being solved, shared like `shared`.
    restricted: FxHashMap<Hand, Table>,
    /// Restricted tables of sub-hands two cards short of hands of six
    /// ([`targets::TwoShort`]).
    restricted2: FxHashMap<Hand, Table>,
    /// What the restricted search looks for, when the rules allow it.
    search: Option<Arc<targets::Search>>,
    /// What sub-hands two cards short keep of their tables, once worked
    /// out.
    /// Worked out under the lock, once, by the first hand that needs it.
    two_short: std::sync::Mutex<Option<Arc<targets::TwoShort>>>,
    /// Whether sub-hands two cards short may get restricted tables
    /// ([`Solver::with_one_restricted_level`]).
    two_levels: bool,
    /// How solutions count the operations beyond the bound: in full
    /// ([`Solution::pruned`]), only whether the top cut any off
    /// ([`Solver::without_pruned_totals`]), or not at all
    /// ([`Solver::without_pruned_counts`]), when, as when the rules can
    /// prune none, [`Solver::solve_primes`] may use the restricted search.
    tally: Tally,
    /// What every table is charged to: the process's budget unless
    /// [`Solver::with_budget`] gives another.
    budget: Arc<Budget>,
}

impl Solver {
    /// A solver for `rules`, with no limit on the memory its tables take
    /// until [`Solver::with_budget`] gives it one.
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver, Style};
    ///
    /// let solver = Solver::new(Rules::default())?;
    /// let solution = solver.solve(Hand::from_values(&[4, 6, 8]))?;
    /// assert_eq!(solution.primes(), vec![2, 3]);
    /// let witness = solution.witness(3).expect("3 is reached");
    /// assert_eq!(witness.render(Style::ASCII), "(6 * 4) / 8");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the rules are inconsistent ([`Rules::validate`]).
    pub fn new(rules: Rules) -> Result<Solver, RulesError> {
        rules.validate()?;
        let ops = BinOp::ALL
            .into_iter()
            .filter(|op| rules.powers || !matches!(op, BinOp::Pow | BinOp::Root))
            .collect();
        let mut solver = Solver {
            rules,
            limit: MAX_TABLE_VALUES,
            ops,
            functions: rules.function_list(),
            shared: FxHashMap::default(),
            restricted: FxHashMap::default(),
            restricted2: FxHashMap::default(),
            search: None,
            two_short: std::sync::Mutex::new(None),
            two_levels: true,
            tally: Tally::Every,
            budget: Budget::unlimited(),
        };
        solver.search =
            targets::Search::new(&rules, &solver.build(), TARGETED_MAX_PRIME).map(Arc::new);
        Ok(solver)
    }

    /// A solver whose solutions need not count the operations beyond the
    /// bound, so that [`Solver::solve_primes`] may search a hand's top and
    /// the sub-hands one card short of it for the few values that can
    /// still become a prime instead of building their full tables, and
    /// from six cards on keep only part of the tables of the sub-hands two
    /// cards short (with a prime ceiling of at most 1000 and functions
    /// nested at most once); where that search does not apply (any
    /// prime, a ceiling above 1000), the scan at the top keeps no set of
    /// the values it meets.
    /// Its solutions' [`Solution::pruned`] is then `None`, unless the full
    /// table was built.
    pub fn without_pruned_counts(self) -> Solver {
        Solver {
            tally: Tally::Not,
            ..self
        }
    }

    /// A solver whose solutions tell whether the bound may hide a prime
    /// ([`Solution::bound_may_hide_primes`]) but not how many operations
    /// were cut off at it: [`Solution::pruned`] is `None`, unless the
    /// full table was built. The search stays the same, but where the
    /// scan at the top of a hand applies (any prime, functions nested at
    /// most once) it notes only whether a value reached a function's
    /// limit, instead of gathering every distinct value the hand makes
    /// to count them: about half the time of a four-card sweep under
    /// functions, most of which went to that set's lookups.
    pub fn without_pruned_totals(self) -> Solver {
        Solver {
            // Not counting at all stays so.
            tally: if self.tally == Tally::Not {
                Tally::Not
            } else {
                Tally::Whether
            },
            ..self
        }
    }

    /// A solver whose restricted search ([`Solver::without_pruned_counts`])
    /// restricts only the sub-hands one card short of a hand, keeping full
    /// tables for those two cards short even from six cards on: the plainer
    /// search, to compare the two-level one against.
    pub fn with_one_restricted_level(self) -> Solver {
        // Tables restricted for two levels point into cut tables that this
        // solver would no longer look up: they go.
        Solver {
            two_levels: false,
            restricted: FxHashMap::default(),
            restricted2: FxHashMap::default(),
            ..self
        }
    }

    /// Whether a hand of `cards` cards is solved by the restricted search
    /// when only its primes are wanted.
    fn restricts(&self, cards: usize, tally: Tally) -> bool {
        self.search.is_some() && cards >= 3 && (tally == Tally::Not || self.never_prunes())
    }

    /// Whether [`Solver::solve_primes`] builds a hand's full table, every
    /// value with its witness, as [`Solver::solve`] does: only under
    /// functions nested twice or more, where neither the restricted search
    /// nor the scan that keeps only primes applies.
    pub fn primes_need_every_value(&self) -> bool {
        !self.functions.is_empty() && self.rules.function_depth > 1
    }

    /// What the top of a hand of `cards` cards holds a value, to project
    /// it: a full table's [`Solver::bytes_per_value`], unless only its
    /// primes are wanted ([`Solver::solve_primes`]) under any prime or a
    /// ceiling above 1000, where the scan that keeps only primes applies
    /// (it declines only under functions nested twice). The scan keeps
    /// the primes alone, which are charged as they come (0 here), and,
    /// where it counts the function applications it prunes and a function
    /// prunes from small values (n! from 21), a set of the distinct values
    /// pruned: nearly every value of the hand, at [`seen::BYTES_A_VALUE`].
    /// The restricted and targeted searches (ceilings up to 1000) do not
    /// build the full table either, but are still projected as if they
    /// did: that stands in for the restricted tables below them, which are
    /// not projected.
    fn top_bytes_per_value(&self, primes_only: bool, cards: usize, tally: Tally) -> u64 {
        let searched = self.restricts(cards, tally)
            || self
                .rules
                .max_prime
                .is_some_and(|max| max <= TARGETED_MAX_PRIME);
        if !primes_only || searched || self.primes_need_every_value() {
            return self.bytes_per_value();
        }
        let build = self.build();
        let early = |f: &Func| build.pruned_from(*f).is_some_and(|n| n < 1 << 20);
        if tally == Tally::Every && self.functions.iter().any(early) {
            seen::BYTES_A_VALUE
        } else {
            0
        }
    }

    /// How many sizes of sub-hands below a hand of `cards` cards get
    /// restricted tables when only its primes are wanted: none without the
    /// restricted search; from six cards on two (those one and two cards
    /// short, [`targets::TwoShort`]); else one.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when what sub-hands two cards short keep
    /// would pass the budget.
    fn depth(&self, cards: usize, tally: Tally) -> Result<usize, SolveError> {
        let Some(search) = self
            .search
            .as_ref()
            .filter(|_| self.restricts(cards, tally))
        else {
            return Ok(0);
        };
        if cards < TWO_SHORT_FROM || !self.two_levels {
            return Ok(1);
        }
        self.two_short(search)?;
        Ok(2)
    }

    /// What sub-hands two cards short keep ([`targets::TwoShort`]), worked
    /// out under the lock by the first hand that needs it (so that two
    /// threads never both hold one).
    ///
    /// # Errors
    /// [`SolveError::Memory`] when it would pass the budget.
    fn two_short(&self, search: &targets::Search) -> Result<Arc<targets::TwoShort>, SolveError> {
        let mut held = self
            .two_short
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(two) = held.as_ref() {
            return Ok(Arc::clone(two));
        }
        let two = Arc::new(search.two_short(&self.build())?);
        *held = Some(Arc::clone(&two));
        Ok(two)
    }

    /// The table of `h` that hands of `top` cards solved at restricted
    /// `depth` use ([`Solver::depth`]), `local` first: built and looked up
    /// by this one function, so that a step's indexes always point into
    /// the table they were taken from.
    fn sub_table<'a>(
        &'a self,
        top: usize,
        depth: usize,
        local: &'a FxHashMap<Hand, Table>,
        h: Hand,
    ) -> &'a Table {
        let restricted = match top - h.len() {
            1 if depth >= 1 => self.restricted.get(&h),
            2 if depth >= 2 => self.restricted2.get(&h),
            _ => None,
        };
        local
            .get(&h)
            .or(restricted)
            .unwrap_or_else(|| &self.shared[&h])
    }

    /// Whether no operation on at most six cards can leave the bound: no
    /// powers or functions, and no bound below 2^64 (products and
    /// juxtapositions of six cards stay below 10^13).
    fn never_prunes(&self) -> bool {
        self.functions.is_empty() && !self.rules.powers && self.rules.max_value == u64::MAX
    }

    /// A solver for the same rules and settings, charged to `budget`, with
    /// tables of its own (none yet): what [`Solver::new`] works out once
    /// for a rule set (the targeted search) is shared, not worked out
    /// again, so a server answering many hands of one rule set, each
    /// with its own budget, sets the rule set up once.
    ///
    /// ```
    /// use prime_solve::{Budget, Hand, Rules, Solver, Want};
    ///
    /// let set_up = Solver::new(Rules::default())?;
    /// let one = set_up.like(Budget::new(64 << 20));
    /// let answer = one.query(Hand::from_values(&[4, 6, 8]), Want::Primes)?;
    /// assert_eq!(answer.primes(), vec![2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn like(&self, budget: Arc<Budget>) -> Solver {
        Solver {
            rules: self.rules,
            limit: self.limit,
            ops: self.ops.clone(),
            functions: self.functions.clone(),
            shared: FxHashMap::default(),
            restricted: FxHashMap::default(),
            restricted2: FxHashMap::default(),
            search: self.search.clone(),
            two_short: std::sync::Mutex::new(None),
            two_levels: self.two_levels,
            tally: self.tally,
            budget,
        }
    }

    /// Charges this solver's tables to `budget` instead of the process's.
    pub fn with_budget(self, budget: Arc<Budget>) -> Solver {
        Solver { budget, ..self }
    }

    pub fn budget(&self) -> &Arc<Budget> {
        &self.budget
    }

    /// Refuses hands whose tables would hold more than `limit` values
    /// (at most, and by default, [`MAX_TABLE_VALUES`]: a table's entries
    /// are indexed by `u32`).
    pub fn with_value_limit(self, limit: usize) -> Solver {
        Solver {
            limit: limit.min(MAX_TABLE_VALUES),
            ..self
        }
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
            budget: &self.budget,
        }
    }

    /// Bytes a built table holds per value: its merged layer and, with
    /// functions, one layer per level below the deepest.
    fn bytes_per_value(&self) -> u64 {
        let layers = if self.functions.is_empty() {
            1
        } else {
            1 + u64::from(self.rules.function_depth)
        };
        table::Layer::bytes(1) * layers
    }
}

/// The most values one sub-hand's table may hold: its entries are indexed
/// by `u32`. Memory is bounded by the [`Budget`], long before this.
pub const MAX_TABLE_VALUES: usize = u32::MAX as usize;

/// The targeted prime search looks up partners for each prime up to the
/// ceiling; above this ceiling trying every pair is as fast.
const TARGETED_MAX_PRIME: u64 = 1000;

/// How many hands [`Solver::foresee_primes`] solves to project a sweep's
/// lists of primes.
pub const PRIME_SAMPLE: usize = 8;

/// Hands of this many cards and more get restricted tables two cards short
/// of them when the rules allow ([`Solver::depth`]); below, the full tables
/// of sub-hands two cards short are small.
const TWO_SHORT_FROM: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Value;
    use crate::rules::{Faces, Functions};

    #[test]
    fn a_lower_bound_on_primes_finds_only_primes_the_hand_makes() {
        let tri = Functions {
            tri: true,
            ..Functions::default()
        };
        let every = Functions {
            tri: true,
            fact: true,
            sqrt: true,
        };
        let rule_sets = [
            Rules {
                max_prime: None,
                ..Rules::default()
            },
            Rules {
                functions: tri,
                max_prime: None,
                ..Rules::default()
            },
            Rules {
                faces: Faces::Rank,
                powers: true,
                juxtapose: true,
                functions: every,
                ..Rules::default()
            },
            Rules {
                powers: true,
                max_prime: Some(50),
                ..Rules::default()
            },
        ];
        for rules in rule_sets {
            let solver = Solver::new(rules).unwrap();
            let (dealt, _) = crate::deck::deal(5, rules.faces);
            let mut fewer = 0;
            for d in dealt.iter().step_by(dealt.len() / 5 + 1) {
                let made = solver.solve_primes(d.hand).unwrap().primes();
                let at_least = solver.primes_at_least(d.hand).unwrap().unwrap();
                let mut found: Vec<Value> = at_least.found.keys().copied().collect();
                found.sort_unstable();
                assert!(at_least.pairs > 0);
                // Some primes, each one the hand makes.
                assert!(!found.is_empty(), "{rules:?} {}", d.hand);
                assert!(
                    found.iter().all(|p| made.binary_search(p).is_ok()),
                    "{rules:?} {}: {found:?} against {made:?}",
                    d.hand
                );
                fewer += usize::from(found.len() < made.len());
            }
            assert!(fewer > 0, "the splits of one card against four make more");
        }
        // Below five cards the tables are quick: no bound.
        let solver = Solver::new(Rules::default()).unwrap();
        let hand = Hand::from_values(&[1, 2, 3, 4]);
        assert!(solver.primes_at_least(hand).unwrap().is_none());
        // Nor under the restricted search (a ceiling), whose tables are cut.
        let hand = Hand::from_values(&[1, 2, 3, 4, 5]);
        assert!(solver.restricts(5, solver.tally));
        assert!(solver.primes_at_least(hand).unwrap().is_none());
        let any = Solver::new(Rules {
            max_prime: None,
            ..Rules::default()
        })
        .unwrap();
        assert!(!any.restricts(5, any.tally));
        assert!(any.primes_at_least(hand).unwrap().is_some());
    }
}
