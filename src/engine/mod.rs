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
mod flat;
mod pairs;
mod primes;
mod query;
mod seen;
mod table;
mod targets;
mod values;

use std::fmt;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::arith::{BinOp, Func, Value};
use thiserror::Error;

use crate::expr::{Cost, Expr};
use crate::hand::Hand;
use crate::prime::is_prime;
use crate::rules::Rules;
use crate::rules::RulesError;
pub use budget::{Budget, Charge};
use primes::Tally;
pub use query::{Answer, COUNTED_UP_TO, EveryValue, Want, Written};
pub(crate) use table::Table;
use table::{Build, How, Layer};
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
    /// tables for those two cards short even from six cards on: the search
    /// as it was before, for comparisons.
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

    /// Refuses at once a plan of tables still to build (`(cards, count,
    /// bytes a value)`, ascending, the hand itself last) that a projection says cannot fit
    /// the budget, instead of filling memory for minutes first. A table of
    /// k cards is projected to grow from the mean table of k − 1 cards by
    /// the factor that one grew from k − 2, the last factor measured;
    /// on the hands measured the factor grows or stays level with k, and
    /// the projection counts only what finished tables hold, not the
    /// scratch of building them, so it seldom overestimates.
    fn foresee(
        &self,
        plan: &[(usize, usize, u64)],
        mean: impl Fn(usize) -> Option<f64>,
    ) -> Result<(), SolveError> {
        let Some(&(first, ..)) = plan.first() else {
            return Ok(());
        };
        if first < 3 {
            return Ok(());
        }
        let (Some(a), Some(b)) = (mean(first - 2), mean(first - 1)) else {
            return Ok(());
        };
        if a < 1.0 {
            return Ok(());
        }
        let bytes: f64 = plan
            .iter()
            .map(|&(size, count, per_value)| {
                let steps = i32::try_from(size + 1 - first).unwrap_or(i32::MAX);
                b * (b / a).powi(steps) * count as f64 * per_value as f64
            })
            .sum();
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a non-negative estimate, saturating at u64::MAX"
        )]
        let bytes = bytes.min(u64::MAX as f64) as u64;
        self.budget.foresee(bytes)
    }

    /// Computes, once and in parallel, the tables of every proper sub-hand
    /// of these hands, so that solving each of them builds only its own.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the tables would pass the budget.
    pub fn prepare(&mut self, hands: &[Hand]) -> Result<(), SolveError> {
        // With the restricted search, the sub-hands one card short of a
        // hand (and from six cards on two) get restricted tables, the
        // smaller ones full tables.
        let Some(top) = hands.iter().map(|h| h.len()).max() else {
            return Ok(());
        };
        if hands.iter().any(|h| h.len() != top) {
            // One size at a time: restricted tables depend on the top's.
            let mut sizes: Vec<usize> = hands.iter().map(|h| h.len()).collect();
            sizes.sort_unstable();
            sizes.dedup();
            for size in sizes {
                let some: Vec<Hand> = hands.iter().copied().filter(|h| h.len() == size).collect();
                self.prepare(&some)?;
            }
            return Ok(());
        }
        let depth = self.depth(top, self.tally)?;
        let short = |s: &Hand| top - s.len() <= depth;
        let subs = |n: usize| {
            let mut subs: Vec<Hand> = hands
                .iter()
                .flat_map(|h| h.proper_sub_hands())
                .filter(|s| top - s.len() == n)
                .collect();
            // By raw key: only the set matters, and comparing keys is far
            // quicker than comparing value lists.
            subs.sort_unstable_by_key(|h| h.key());
            subs.dedup();
            subs
        };
        let mut pending: Vec<Hand> = hands
            .iter()
            .flat_map(|h| h.proper_sub_hands().into_iter().filter(|s| !short(s)))
            .filter(|s| !self.shared.contains_key(s))
            .collect();
        pending.sort_unstable_by_key(|h| (h.len(), h.key()));
        pending.dedup();
        let mut restricted2 = if depth >= 2 { subs(2) } else { Vec::new() };
        restricted2.retain(|s| !self.shared.contains_key(s) && !self.restricted2.contains_key(s));
        let mut restricted = if depth >= 1 { subs(1) } else { Vec::new() };
        restricted.retain(|s| !self.shared.contains_key(s) && !self.restricted.contains_key(s));
        // The plan: each layer of sub-hands, then the hands themselves, as
        // many at once as there are threads to solve them.
        // The hands themselves at what their tops hold
        // (`top_bytes_per_value`): nothing for a scan that charges its
        // primes as they come.
        let mut plan = layers(&pending, self.bytes_per_value());
        let built = plan.len();
        let at_top = self.top_bytes_per_value(true, top, self.tally);
        if at_top > 0 {
            plan.push((top, hands.len().min(rayon::current_num_threads()), at_top));
        }
        for step in 0..built {
            let size = plan[step].0;
            let shared = &self.shared;
            self.foresee(&plan[step..], |k| {
                mean_len(shared.keys().filter(|h| h.len() == k), |h| shared.get(h))
            })?;
            let layer: Vec<Hand> = pending
                .iter()
                .copied()
                .filter(|h| h.len() == size)
                .collect();
            let build = self.build();
            let tables = layer
                .par_iter()
                .map(|&h| Ok((h, build.table(h, |s| &shared[&s])?)))
                .collect::<Result<Vec<(Hand, Table)>, SolveError>>()?;
            self.shared.extend(tables);
        }
        let none = FxHashMap::default();
        if let Some(search) = self.search.clone()
            && !restricted2.is_empty()
        {
            let two = self.two_short(&search)?;
            let this = &*self;
            let build = this.build();
            let get = |s| this.sub_table(top, depth, &none, s);
            let tables = restricted2
                .par_iter()
                .map(|&h| Ok((h, build.two_short(h, get, &two)?)))
                .collect::<Result<Vec<(Hand, Table)>, SolveError>>()?;
            self.restricted2.extend(tables);
        }
        if let Some(search) = self.search.clone().filter(|_| !restricted.is_empty()) {
            let this = &*self;
            let build = this.build();
            let get = |s| this.sub_table(top, depth, &none, s);
            let tables = restricted
                .par_iter()
                .map(|&h| Ok((h, build.restricted(h, get, &search.sub, &search.sub_below)?)))
                .collect::<Result<Vec<(Hand, Table)>, SolveError>>()?;
            self.restricted.extend(tables);
        }
        Ok(())
    }

    /// Plans a sweep over `hands` of one size k within the budget: prepares
    /// every shared sub-hand table of fewer than k − 1 cards, and gives how
    /// many hands (in order) to solve at a time. When the tables of k − 1
    /// cards are projected to fit a third of what the budget has left,
    /// that is every hand at once; otherwise chunks whose own sub-hand
    /// tables fit, so that a sweep keeps only the tables of the hands it is
    /// solving: call [`Solver::prepare`] on each chunk before solving it and
    /// [`Solver::release`] after. Hands given in order (as dealt) share
    /// most of their sub-hands with their neighbours.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when even the smaller tables would pass the
    /// budget.
    pub fn plan_sweep(&mut self, hands: &[Hand]) -> Result<usize, SolveError> {
        // The sample: the hand with the most distinct values, the highest
        // of those; distinct and high cards make the largest tables.
        let distinct = |h: &Hand| h.values().windows(2).filter(|w| w[0] != w[1]).count();
        let (Some(top), Some(&last)) = (
            hands.iter().map(|h| h.len()).max(),
            hands.iter().max_by_key(|h| (h.len(), distinct(h), h.key())),
        ) else {
            return Ok(0);
        };
        if top < 4 || self.restricts(top, self.tally) {
            return Ok(hands.len());
        }
        // The tables of k − 1 cards, whose own sub-hands are prepared now.
        let mut next: Vec<Hand> = hands
            .iter()
            .flat_map(|h| h.proper_sub_hands())
            .filter(|s| s.len() + 1 == top)
            .collect();
        next.sort_unstable();
        next.dedup();
        self.prepare(&next)?;
        // A sample: the tables of k − 1 cards of that hand. The growth from k − 2 to k − 1 cards, measured, projects the rest
        // better than the growth measured below it (it rises with k).
        self.prepare(&[last])?;
        let shared = &self.shared;
        let mean = |k: usize| mean_len(shared.keys().filter(|h| h.len() == k), |h| shared.get(h));
        let sampled = |k: usize| {
            let subs = last.proper_sub_hands();
            mean_len(subs.iter().filter(|h| h.len() == k), |h| shared.get(h))
        };
        let (Some(b), Some(c)) = (mean(top - 2), sampled(top - 1)) else {
            return Ok(hands.len());
        };
        // The least a sweep in chunks needs: the tables of k − 1 cards of
        // one hand (the sample's, built above), and what the tops of the
        // hands the threads solve at once hold (as full tables, or a
        // scan's set of pruned values; a scan's primes are charged as they
        // come). Refused now if that is projected past the budget, not
        // after solving a part.
        let each = c * self.bytes_per_value() as f64;
        let at_top = self.top_bytes_per_value(true, top, self.tally);
        if at_top > 0 {
            self.foresee(&[(top, rayon::current_num_threads(), at_top)], |k| {
                if k + 1 == top { Some(c) } else { mean(k) }
            })?;
        }
        let room = self.budget.limit().saturating_sub(self.budget.used()) as f64 / 3.0;
        if each * next.len() as f64 <= room || b < 1.0 {
            return Ok(hands.len());
        }
        self.release(top - 1);
        // A hand has at most `top` sub-hands of k − 1 cards.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a positive count of hands, at most hands.len()"
        )]
        let chunk = (room / (each * top as f64)).floor().max(1.0) as usize;
        Ok(chunk.min(hands.len()))
    }

    /// Refuses a sweep over `hands` (of one size) that keeps the primes of
    /// every hand at `per_prime` bytes each, when those lists are
    /// projected past two thirds of what the budget has left (the rest is
    /// for the tables the sweep builds beside them). Under any prime a six-card
    /// hand makes hundreds of thousands of primes, so that the lists, not
    /// the tables, are what cannot fit: the projection solves a fixed
    /// sample of the hands ([`PRIME_SAMPLE`], spread evenly over them in
    /// their order) one after another, each with its own tables, and
    /// scales the mean of those it solved. It stops as soon as the primes
    /// found would pass that share even if the hands left made none, so
    /// that a sweep far too large is refused after a few hands. From five
    /// cards on, lower bounds come first: the primes each sampled hand
    /// makes without its tables of k − 1 cards (`Solver::primes_at_least`,
    /// seconds where solving a six-card hand under T ! √ takes tens of
    /// seconds), which refuse, with `at_least` set, exactly where the
    /// hands they bound would (their primes can only be more); where they
    /// do not suffice, the hands are solved. Called before
    /// [`Solver::plan_sweep`], it refuses such a sweep before any table of
    /// it is prepared. A ceiling that bounds the lists
    /// within the budget spares the sample. The hands sampled and the
    /// figures do not depend on the number of threads; what the budget has
    /// left does (each worker thread's reservation is charged to it).
    /// Gives the bytes projected (0 where no sample was needed), for the
    /// caller to hold while the sweep runs. The mean of a few hands is an
    /// estimate: the prime counts of the hands of a sweep vary several
    /// times over, so a sweep the sample lets through is still bounded by
    /// the charges of its lists as they grow.
    ///
    /// # Errors
    /// [`SolveError::Primes`] with the projection and the work it stands
    /// for; any error of solving the sample.
    pub fn foresee_primes(&self, hands: &[Hand], per_prime: u64) -> Result<u64, SolveError> {
        // The lists may take two thirds of what the budget has left: the
        // rest is for the tables the sweep builds beside them.
        let room = self.budget.limit().saturating_sub(self.budget.used()) / 3 * 2;
        let count = hands.len() as u64;
        // Above this many hands the sample is a small part of the sweep.
        if per_prime == 0 || hands.len() < 4 * PRIME_SAMPLE {
            return Ok(0);
        }
        // At most every other number up to the ceiling is a prime.
        if let Some(max) = self.rules.max_prime
            && (max / 2 + 1)
                .saturating_mul(count)
                .saturating_mul(per_prime)
                <= room
        {
            return Ok(0);
        }
        let lists = |primes: u64| primes.saturating_mul(count).saturating_mul(per_prime);
        // The sample's hands, spread evenly over the sweep in its order.
        let sampled = |i: usize| hands[(2 * i + 1) * hands.len() / (2 * PRIME_SAMPLE)];
        // The sample refuses once the primes of the hands it solved pass
        // the room even if the rest made none. So lower bounds on those
        // hands' primes that pass it decide the same refusal, without the
        // hands' costliest tables. Each hand's bound is counted in full,
        // so that the figures do not depend on the room (which the
        // threads' reservations change).
        let settles = |primes: u64| lists(primes.div_ceil(PRIME_SAMPLE as u64)) > room;
        let (mut least, mut pairs) = (0u64, 0u128);
        for i in 0..PRIME_SAMPLE {
            let Some(found) = self.primes_at_least(sampled(i))? else {
                break;
            };
            least += found.found.len() as u64;
            pairs += found.pairs;
            if settles(least) {
                let solved = i as u64 + 1;
                // Rounded down: the mean of the bounds is at least this.
                let per_hand = least / solved;
                return Err(SolveError::Primes(PrimesRefusal {
                    hands: hands.len(),
                    cards: hands[0].len(),
                    per_hand,
                    sampled: solved,
                    needed: lists(per_hand),
                    limit: self.budget.limit(),
                    operations: (pairs / u128::from(solved))
                        .saturating_mul(self.ops.len() as u128)
                        .saturating_mul(u128::from(count)),
                    at_least: true,
                }));
            }
        }
        let (mut primes, mut operations, mut solved) = (0u64, 0u128, 0u64);
        for i in 0..PRIME_SAMPLE {
            let hand = sampled(i);
            let solution = self.solve_primes(hand)?;
            // The pairs of values the top tries, once per operation.
            let pairs: u128 = table::splits(hand)
                .iter()
                .map(|s| {
                    let len = |h: Hand| solution.table(h).merged.values.len() as u128;
                    len(s.x) * len(s.y)
                })
                .sum();
            primes += solution.primes().len() as u64;
            operations += pairs * self.ops.len() as u128;
            solved += 1;
            if lists(primes.div_ceil(PRIME_SAMPLE as u64)) > room {
                break;
            }
        }
        let per_hand = primes.div_ceil(solved);
        let needed = lists(per_hand);
        if needed > room {
            return Err(SolveError::Primes(PrimesRefusal {
                hands: hands.len(),
                cards: hands[0].len(),
                per_hand,
                sampled: solved,
                needed,
                limit: self.budget.limit(),
                operations: (operations / u128::from(solved)).saturating_mul(u128::from(count)),
                at_least: false,
            }));
        }
        Ok(needed)
    }

    /// A lower bound on the primes `hand` makes, from its splits whose
    /// two parts both have at most k − 2 of its k cards (from five cards
    /// on: the tables of k − 1 cards are what takes a hand's time under
    /// powers and functions, seconds each for five cards). `None` where the
    /// hand has fewer than five cards. Every pair of values of such a
    /// split, both ways round, through every operation, is a value the
    /// hand makes; the primes among them are some of its primes (no
    /// function at the top, no juxtaposition of the whole hand). `None`
    /// too where the restricted search solves the hand.
    fn primes_at_least(&self, hand: Hand) -> Result<Option<AtLeast>, SolveError> {
        let k = hand.len();
        // Under the restricted search (a ceiling up to 1000) a hand's
        // tables are cut, and quick: the full ones built here could pass a
        // budget the sample fits in.
        if k < 5 || self.restricts(k, self.tally) {
            return Ok(None);
        }
        let small = |h: Hand| h.len() <= k - 2;
        let mut local: FxHashMap<Hand, Table> = FxHashMap::default();
        let mut missing: Vec<Hand> = hand
            .proper_sub_hands()
            .into_iter()
            .filter(|&s| small(s) && !self.shared.contains_key(&s))
            .collect();
        missing.sort_unstable_by_key(|h| h.len());
        let build = self.build();
        for h in missing {
            let table = build.table(h, |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]))?;
            local.insert(h, table);
        }
        let get = |s: Hand| {
            &self
                .shared
                .get(&s)
                .unwrap_or_else(|| &local[&s])
                .merged
                .values
        };
        let splits: Vec<table::Split> = table::splits(hand)
            .into_iter()
            .filter(|s| small(s.x) && small(s.y))
            .collect();
        // The pairs those splits try, for the refusal's account of the work.
        let pairs = splits
            .iter()
            .map(|s| get(s.x).len() as u128 * get(s.y).len() as u128)
            .sum();
        let (rules, bound) = (self.rules, self.rules.max_value);
        // The primes of one split, each once.
        let primes_of = |s: &table::Split| -> Result<(FxHashMap<Value, ()>, Charge), SolveError> {
            let mut found: FxHashMap<Value, ()> = FxHashMap::default();
            let mut charge = Charge::default();
            // No even value but 2 is prime.
            let odd = |v: Value| v & 1 == 1 || v == 2;
            pairs::pairs(get(s.x), get(s.y), s.same, &self.ops, bound, odd, |m| {
                if rules.allows_prime(m.value) && is_prime(m.value) {
                    budget::map_room(&mut found, &mut charge, &self.budget, 1)?;
                    found.insert(m.value, ());
                }
                Ok(())
            })?;
            Ok((found, charge))
        };
        // The splits a few at a time in parallel, their primes gathered in
        // one set: a union, the same whatever the threads.
        let mut found: FxHashMap<Value, ()> = FxHashMap::default();
        let mut charge = Charge::default();
        for some in splits.chunks(rayon::current_num_threads().max(1)) {
            let parts: Vec<_> = some.par_iter().map(primes_of).collect();
            for part in parts {
                let (part, _held) = part?;
                for v in part.into_keys() {
                    budget::map_room(&mut found, &mut charge, &self.budget, 1)?;
                    found.insert(v, ());
                }
            }
        }
        Ok(Some(AtLeast {
            found,
            pairs,
            _charge: charge,
        }))
    }

    /// Drops the shared tables of `size` cards (after a chunk of a sweep).
    pub fn release(&mut self, size: usize) {
        self.shared.retain(|h, _| h.len() != size);
        self.restricted.retain(|h, _| h.len() != size);
        self.restricted2.retain(|h, _| h.len() != size);
    }

    /// Every value `hand` reaches. Sub-hands not prepared are built here
    /// and kept with the solution.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the tables would pass the budget, and
    /// [`SolveError::TooLarge`] past the value limit.
    pub fn solve(&self, hand: Hand) -> Result<Solution<'_>, SolveError> {
        self.solve_with(hand, Goal::All, self.tally)
    }

    /// The primes `hand` reaches, with the same witnesses as [`Solver::solve`],
    /// but without listing every other value when a faster targeted search
    /// applies (see [`Solution::values`]).
    ///
    /// ```
    /// use prime_solve::{Faces, Hand, Rules, Solver};
    ///
    /// let rank = Rules { faces: Faces::Rank, ..Rules::default() };
    /// let solver = Solver::new(rank)?;
    /// // 5 8 Q makes no prime up to 97 when Q counts 12.
    /// assert!(solver.solve_primes(Hand::from_values(&[5, 8, 12]))?.primes().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_primes(&self, hand: Hand) -> Result<Solution<'_>, SolveError> {
        self.solve_with(hand, Goal::Primes, self.tally)
    }

    /// What a sweep reports of `hand` under each ceiling of `ceilings`
    /// (each at most the rules' own): every prime it reaches, as
    /// [`Solver::solve_primes`] gives them, but witnesses only for the
    /// highest prime within each ceiling and for the quickest
    /// ([`Solution::quickest`] of the primes within it), which takes far
    /// less work than every prime's witness. Where the targeted search
    /// does not apply (functions, powers, no ceiling) it is
    /// [`Solver::solve_primes`].
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver};
    ///
    /// let solver = Solver::new(Rules::default())?;
    /// let hand = Hand::from_values(&[3, 5, 7, 9]);
    /// let (census, all) = (solver.census(hand, &[97])?, solver.solve_primes(hand)?);
    /// let primes = all.primes();
    /// assert_eq!(census.primes(), primes);
    /// let (high, quick) = (*primes.last().unwrap(), all.quickest(&primes).unwrap());
    /// assert_eq!(census.quickest(&primes), Some(quick));
    /// for p in [high, quick] {
    ///     assert_eq!(census.witness(p), all.witness(p));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn census(&self, hand: Hand, ceilings: &[u64]) -> Result<Solution<'_>, SolveError> {
        debug_assert!(
            ceilings
                .iter()
                .all(|&c| self.rules.max_prime.is_some_and(|m| c <= m))
        );
        self.solve_with(hand, Goal::Census(ceilings), self.tally)
    }

    /// Solves `hand` for what `want` asks, counting the operations beyond
    /// the bound as `tally` says (the solver's own, or less for a query).
    fn solve_with(
        &self,
        hand: Hand,
        want: Goal<'_>,
        tally: Tally,
    ) -> Result<Solution<'_>, SolveError> {
        let primes_only = want != Goal::All;
        if primes_only
            && self.restricts(hand.len(), tally)
            && let Some(search) = &self.search
        {
            return self.solve_restricted(hand, search, self.depth(hand.len(), tally)?, want);
        }
        let mut local: FxHashMap<Hand, Table> = FxHashMap::default();
        let mut missing: Vec<Hand> = hand
            .proper_sub_hands()
            .into_iter()
            .filter(|s| !self.shared.contains_key(s))
            .collect();
        missing.sort_unstable_by_key(|h| h.len());
        let build = self.build();
        let subs = hand.proper_sub_hands();
        let mut plan = layers(&missing, self.bytes_per_value());
        let at_top = self.top_bytes_per_value(primes_only, hand.len(), tally);
        if at_top > 0 {
            plan.push((hand.len(), 1, at_top));
        }
        let step = self.build_missing(&build, &subs, &missing, &plan, &mut local)?;
        let get = |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]);
        self.foresee(&plan[step..], |k| {
            mean_len(subs.iter().filter(|s| s.len() == k), |&s| Some(get(s)))
        })?;
        let rules = self.rules;
        // Only primes wanted: the targeted search (+ − × ÷ and a small
        // ceiling), else the scan that keeps only primes; either may decline.
        let mut reached = None;
        let fast = if primes_only {
            let targeted = match rules.max_prime {
                Some(max) if max <= TARGETED_MAX_PRIME => {
                    Self::targeted_top(&build, hand, get, max, want)?
                }
                _ => None,
            };
            match targeted {
                Some((table, r)) => {
                    reached = r;
                    Some(table)
                }
                None => {
                    build.scan_primes(hand, get, |v| rules.allows_prime(v) && is_prime(v), tally)?
                }
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
            depth: 0,
            complete,
            // A full table counts them whatever was asked.
            counted: if complete { Tally::Every } else { tally },
            reached,
        })
    }

    /// The targeted search at the top of `hand` for what `want` asks
    /// (primes up to `max`, or a census), with the primes a census
    /// reached; `None` where it does not apply.
    fn targeted_top<'t>(
        build: &Build<'_>,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        max: u64,
        want: Goal<'_>,
    ) -> Result<Option<FoundTop>, SolveError> {
        Ok(match want {
            Goal::Census(ceilings) => build
                .targeted_census(hand, get, max, ceilings)?
                .map(|(reached, table)| (table, Some(reached))),
            Goal::Primes | Goal::All => build.targeted_primes(hand, get, max)?.map(|t| (t, None)),
        })
    }

    /// Builds the full tables of `missing` (sub-hands of a hand whose
    /// proper sub-hands are `subs`, sorted by size) into `local`, and
    /// before each size projects what the sizes of `plan` (`layers` of
    /// `missing` and what follows) still need ([`Solver::foresee`]).
    /// Returns how many steps of `plan` were projected.
    fn build_missing(
        &self,
        build: &Build<'_>,
        subs: &[Hand],
        missing: &[Hand],
        plan: &[(usize, usize, u64)],
        local: &mut FxHashMap<Hand, Table>,
    ) -> Result<usize, SolveError> {
        let mut step = 0;
        for (i, &h) in missing.iter().enumerate() {
            if i == 0 || missing[i - 1].len() < h.len() {
                self.foresee(&plan[step..], |k| {
                    mean_len(subs.iter().filter(|s| s.len() == k), |s| {
                        self.shared.get(s).or_else(|| local.get(s))
                    })
                })?;
                step += 1;
            }
            let table = build.table(h, |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]))?;
            local.insert(h, table);
        }
        Ok(step)
    }

    /// The restricted search ([`targets`]): full tables for the sub-hands
    /// of at most k − 1 − `depth` cards, restricted ones for the `depth`
    /// sizes above ([`Solver::depth`]), and the top searched for the
    /// primes alone.
    fn solve_restricted(
        &self,
        hand: Hand,
        search: &targets::Search,
        depth: usize,
        want: Goal<'_>,
    ) -> Result<Solution<'_>, SolveError> {
        let k = hand.len();
        let subs = hand.proper_sub_hands();
        let mut local: FxHashMap<Hand, Table> = FxHashMap::default();
        let mut missing: Vec<Hand> = subs
            .iter()
            .copied()
            .filter(|s| s.len() + depth < k && !self.shared.contains_key(s))
            .collect();
        missing.sort_unstable_by_key(|h| h.len());
        let build = self.build();
        // Projected as in `solve_with`, over the full tables alone: the
        // restricted ones and the top are a small part of the whole.
        self.build_missing(
            &build,
            &subs,
            &missing,
            &layers(&missing, self.bytes_per_value()),
            &mut local,
        )?;
        // The restricted sub-hands, the smaller first.
        let two = if depth >= 2 {
            Some(self.two_short(search)?)
        } else {
            None
        };
        for short in (1..=depth).rev() {
            for &x in subs.iter().filter(|s| s.len() + short == k) {
                let held = match short {
                    2 => self.restricted2.contains_key(&x),
                    _ => self.restricted.contains_key(&x),
                };
                if held || self.shared.contains_key(&x) || local.contains_key(&x) {
                    continue;
                }
                let get = |s| self.sub_table(k, depth, &local, s);
                let table = if short == 2 {
                    let two = two.as_ref().expect("worked out for depth 2");
                    build.two_short(x, get, two)?
                } else {
                    build.restricted(x, get, &search.sub, &search.sub_below)?
                };
                local.insert(x, table);
            }
        }
        let get = |s| self.sub_table(k, depth, &local, s);
        // Under + − × ÷ alone the targeted search over primes is quicker.
        let targeted = match self.rules.max_prime {
            Some(max) if self.functions.is_empty() => {
                Self::targeted_top(&build, hand, get, max, want)?
            }
            _ => None,
        };
        let (top, reached) = match targeted {
            Some(found) => found,
            None => (
                build.restricted(hand, get, &search.top, &search.top_below)?,
                None,
            ),
        };
        local.insert(hand, top);
        Ok(Solution {
            hand,
            solver: self,
            local,
            depth,
            complete: false,
            counted: if self.never_prunes() {
                Tally::Every
            } else {
                Tally::Not
            },
            reached,
        })
    }
}

/// The sizes of `hands` (sorted by size) with how many have each.
fn layers(hands: &[Hand], per_value: u64) -> Vec<(usize, usize, u64)> {
    hands
        .chunk_by(|a, b| a.len() == b.len())
        .map(|c| (c[0].len(), c.len(), per_value))
        .collect()
}

/// The mean number of values in the tables of `hands` that `get` has.
fn mean_len<'t, 'h>(
    hands: impl Iterator<Item = &'h Hand>,
    get: impl Fn(&Hand) -> Option<&'t Table>,
) -> Option<f64> {
    let (sum, n) = hands.filter_map(get).fold((0.0, 0u32), |(sum, n), t| {
        (sum + t.merged.values.len() as f64, n + 1)
    });
    (n > 0).then(|| sum / f64::from(n))
}

/// A hand's top table from a targeted search, with the primes a census
/// reached (`None`: the table's own values).
type FoundTop = (Table, Option<Vec<Value>>);

/// What a solve is asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal<'c> {
    /// Every value ([`Solver::solve`]).
    All,
    /// The primes, each with its witness ([`Solver::solve_primes`]).
    Primes,
    /// The primes, with witnesses for the highest and the quickest within
    /// each of these ceilings ([`Solver::census`]).
    Census(&'c [u64]),
}

/// Everything a hand reaches, with witnesses on demand.
pub struct Solution<'a> {
    hand: Hand,
    solver: &'a Solver,
    local: FxHashMap<Hand, Table>,
    /// How many sizes of sub-hands have restricted tables ([`Solver::depth`]).
    depth: usize,
    /// Whether the top table lists every value, not only the primes.
    complete: bool,
    /// How the operations beyond the bound were counted: in full, only
    /// whether there were any at the top, or not at all.
    counted: Tally,
    /// Every prime reached, where a census ([`Solver::census`]) kept
    /// witnesses for only some of them in the top table.
    reached: Option<Vec<Value>>,
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

impl Solution<'_> {
    pub fn hand(&self) -> Hand {
        self.hand
    }

    pub fn rules(&self) -> &Rules {
        &self.solver.rules
    }

    fn table(&self, h: Hand) -> &Table {
        self.solver
            .sub_table(self.hand.len(), self.depth, &self.local, h)
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
            table::splits(self.hand)
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

/// Why a hand could not be solved.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SolveError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(
        "the search is too large: the cards {hand} reach more than {limit} values under these \
         rules"
    )]
    TooLarge { hand: String, limit: usize },
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
    /// left ([`Solver::foresee_primes`]).
    #[error("{0}")]
    Primes(PrimesRefusal),
}

/// What [`Solver::primes_at_least`] found: some of a hand's primes, from
/// `pairs` pairs of values.
struct AtLeast {
    found: FxHashMap<Value, ()>,
    pairs: u128,
    /// The set's memory, charged while it lives.
    _charge: budget::Charge,
}

/// What [`Solver::foresee_primes`] projected for a sweep it refused.
#[derive(Debug, Clone, PartialEq, Eq)]
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

#[cfg(test)]
mod tests {
    use super::*;
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
