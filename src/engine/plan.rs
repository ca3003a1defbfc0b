//! Sweep planning: the sub-hands a sweep shares, built layer by layer
//! within the budget, and the projections that refuse a sweep too large
//! before it starts.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::budget::Charge;
use super::table::Table;
use super::{PRIME_SAMPLE, PrimesRefusal, SolveError, Solver};
use crate::arith::Value;
use crate::hand::Hand;
use crate::prime::is_prime;

impl Solver {
    /// Refuses at once a plan of tables still to build (`(cards, count,
    /// bytes a value)`, ascending, the hand itself last) that a projection says cannot fit
    /// the budget, instead of filling memory for minutes first. A table of
    /// k cards is projected to grow from the mean table of k − 1 cards by
    /// the factor that one grew from k − 2, the last factor measured;
    /// on the hands measured the factor grows or stays level with k, and
    /// the projection counts only what finished tables hold, not the
    /// scratch of building them, so it seldom overestimates.
    pub(super) fn foresee(
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
            let pairs: u128 = super::table::splits(hand)
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
    pub(super) fn primes_at_least(&self, hand: Hand) -> Result<Option<AtLeast>, SolveError> {
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
        let splits: Vec<super::table::Split> = super::table::splits(hand)
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
        let primes_of =
            |s: &super::table::Split| -> Result<(FxHashMap<Value, ()>, Charge), SolveError> {
                let mut found: FxHashMap<Value, ()> = FxHashMap::default();
                let mut charge = Charge::default();
                // No even value but 2 is prime.
                let odd = |v: Value| v & 1 == 1 || v == 2;
                super::pairs::pairs(get(s.x), get(s.y), s.same, &self.ops, bound, odd, |m| {
                    if rules.allows_prime(m.value) && is_prime(m.value) {
                        super::budget::map_room(&mut found, &mut charge, &self.budget, 1)?;
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
                    super::budget::map_room(&mut found, &mut charge, &self.budget, 1)?;
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
}

/// The sizes of `hands` (sorted by size) with how many have each.
pub(super) fn layers(hands: &[Hand], per_value: u64) -> Vec<(usize, usize, u64)> {
    hands
        .chunk_by(|a, b| a.len() == b.len())
        .map(|c| (c[0].len(), c.len(), per_value))
        .collect()
}

/// The mean number of values in the tables of `hands` that `get` has.
pub(super) fn mean_len<'t, 'h>(
    hands: impl Iterator<Item = &'h Hand>,
    get: impl Fn(&Hand) -> Option<&'t Table>,
) -> Option<f64> {
    let (sum, n) = hands.filter_map(get).fold((0.0, 0u32), |(sum, n), t| {
        (sum + t.merged.values.len() as f64, n + 1)
    });
    (n > 0).then(|| sum / f64::from(n))
}

/// What [`Solver::primes_at_least`] found: some of a hand's primes, from
/// `pairs` pairs of values.
pub(super) struct AtLeast {
    pub(super) found: FxHashMap<Value, ()>,
    pub(super) pairs: u128,
    /// The set's memory, charged while it lives.
    pub(super) _charge: super::budget::Charge,
}
