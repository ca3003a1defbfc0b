//! The search for primes at the top of a hand when nothing else is wanted:
//! the same answers as the full table (primes, witnesses, pruned counts),
//! without building it.
//!
//! It holds the scan that keeps only primes (`Build::scan_primes`), the
//! targeted searches for the primes up to a ceiling (`targeted_primes`,
//! `targeted_census`), the narrowed copies of tables both of them walk,
//! the pair scan and the walk of the shorter side, the filters of values
//! that cannot be prime or square, and the places that break ties as the
//! full table does.

use std::collections::hash_map::Entry;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::SolveError;
use super::budget::{Budget, Charge, map_room};
use super::pairs::pairs;
use super::seen::Seen;
use super::table::{
    Best, Build, How, Layer, Narrow, Operand, Order, Place, Split, Step, Table, binary_step, splits,
};
use crate::arith::{BinOp, Eval, Func, Value, exact_quotient};
use crate::expr::{Cost, Top};
use crate::hand::Hand;
use crate::prime::is_prime;

impl Build<'_> {
    /// The primes `hand` reaches (those `wanted` says, which must be
    /// primes), with the witnesses of the full table, and its pruned count
    /// as `tally` asks (see [`Tally`]), without sorting or keeping its
    /// other values: a
    /// function's result is tried only where it can be prime (T(n) and n!
    /// only at n = 2, √n at the square of a prime). `None` with functions
    /// nested deeper than one.
    pub fn scan_primes<'t>(
        &self,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        wanted: impl Fn(Value) -> bool,
        tally: Tally,
    ) -> Result<Option<Table>, SolveError> {
        if !self.functions.is_empty() && self.depth > 1 {
            return Ok(None);
        }
        let (level0, pruned) = self.scan_level0(hand, &get, &wanted, tally)?;
        self.scan_top(level0, &wanted, pruned).map(Some)
    }

    /// Level 0 of [`Build::scan_primes`]: the values of `hand`'s
    /// juxtapositions and splits that keep a witness, and the operations
    /// beyond the bound as `tally` counts them.
    fn scan_level0<'t>(
        &self,
        hand: Hand,
        get: &impl Fn(Hand) -> &'t Table,
        wanted: &impl Fn(Value) -> bool,
        tally: Tally,
    ) -> Result<(Best, u64), SolveError> {
        // A value goes through the set of distinct values only where it
        // must be counted once: when a function prunes it and the count is
        // wanted. Whether any other value is kept is worked out again each
        // time it is made, which is quicker than a lookup in a set of every
        // value (primality has its own memo), and far less memory: a set
        // of every large odd value of a six-card hand under T with any
        // prime holds gigabytes.
        let limits: Vec<(Func, Option<Value>)> = self
            .functions
            .iter()
            .map(|&f| (f, self.pruned_from(f)))
            .collect();
        let prune_from = limits.iter().filter_map(|&(_, n)| n).min();
        let count = tally != Tally::Not;
        let dedup_from = prune_from
            .filter(|_| tally == Tally::Every)
            .unwrap_or(Value::MAX);
        // Only values that are wanted primes, or that a function can turn
        // into one, keep a witness; every other value is only counted,
        // once, for the function applications it prunes.
        let mut pruned = 0;
        let keeps = |v: Value| {
            let mut keep = wanted(v);
            debug_assert!(!keep || is_prime(v), "only primes are wanted");
            // No function applies to a negative value.
            if v < 0 {
                return keep;
            }
            for &(f, from) in &limits {
                if from.is_none_or(|n| v < n)
                    && may_be_prime(f, v)
                    && let Eval::Exact(w) = f.apply(v, self.bound)
                    && wanted(w)
                {
                    keep = true;
                }
            }
            keep
        };
        let note = |v: Value, pruned: &mut u64| {
            if count && v >= 0 {
                *pruned += limits
                    .iter()
                    .filter(|&&(_, from)| from.is_some_and(|n| v >= n))
                    .count() as u64;
            }
            keeps(v)
        };
        let level0 = if hand.len() < 2 {
            let level0 = self.level0(hand, get)?;
            for &v in level0.map.keys() {
                note(v, &mut pruned);
            }
            level0
        } else {
            let watch_from = prune_from
                .filter(|_| tally == Tally::Whether)
                .unwrap_or(Value::MAX);
            let (level0, cut) = self.level0_sparse(
                hand,
                get,
                dedup_from,
                watch_from,
                |v| note(v, &mut pruned),
                keeps,
            )?;
            // Not counted, but noted: a function was cut off.
            pruned += u64::from(cut);
            level0
        };
        pruned += level0.pruned;
        Ok((level0, pruned))
    }

    /// The table [`Build::scan_primes`] gives from `level0`: the best way
    /// to each wanted prime, made at level 0 or by one function (level 1),
    /// with the functions' arguments as its one level below.
    fn scan_top(
        &self,
        level0: Best,
        wanted: &impl Fn(Value) -> bool,
        pruned: u64,
    ) -> Result<Table, SolveError> {
        // The best way to each prime: level 0 beats level 1 on equal cost;
        // within level 1 the full table's order (argument ascending, then
        // function order) breaks ties.
        let mut best: FxHashMap<Value, (Order, Step, Value)> = FxHashMap::default();
        let mut best_charge = Charge::default();
        let budget = self.budget;
        // `arg`: the function's argument, for a step of level 1.
        let mut keep = |v: Value, key: Order, step: Step, arg: Value| -> Result<(), SolveError> {
            map_room(&mut best, &mut best_charge, budget, 1)?;
            match best.entry(v) {
                Entry::Occupied(mut e) => {
                    if key < e.get().0 {
                        e.insert((key, step, arg));
                    }
                }
                Entry::Vacant(e) => {
                    e.insert((key, step, arg));
                }
            }
            Ok(())
        };
        let mut args: Vec<(Value, Step)> = Vec::new();
        for (&v, &step) in &level0.map {
            if wanted(v) {
                keep(v, Order::new(&step, Place::LEVEL0), step, 0)?;
            }
            for (fi, &f) in self.functions.iter().enumerate() {
                match f.apply(v, self.bound) {
                    Eval::Exact(w) if may_be_prime(f, v) && wanted(w) => {
                        let cost = Cost::unary(f, (step.cost, step.top()));
                        // The argument's index is set once the arguments are sorted.
                        let how = How::Unary {
                            f,
                            level: 1,
                            arg: 0,
                        };
                        let made = Step { cost, how };
                        keep(w, Order::new(&made, Place::unary(1, v, fi)), made, v)?;
                        args.push((v, step));
                    }
                    _ => {}
                }
            }
        }
        args.sort_unstable_by_key(|&(v, _)| v);
        args.dedup_by_key(|&mut (v, _)| v);
        drop(level0);
        let (mut arg_layer, mut charge) = Layer::with_capacity(args.len(), budget)?;
        arg_layer.values.extend(args.iter().map(|&(v, _)| v));
        arg_layer.steps.extend(args.iter().map(|&(_, s)| s));
        let (merged, c) = Layer::from_map(
            &best,
            |(_, mut step, arg)| {
                if let How::Unary { arg: index, .. } = &mut step.how {
                    let i = arg_layer.find(arg).expect("a kept argument");
                    *index = u32::try_from(i).expect("a table holds at most MAX_TABLE_VALUES");
                }
                step
            },
            budget,
        )?;
        charge.absorb(c);
        Ok(Table {
            merged,
            levels: vec![arg_layer],
            pruned,
            charge,
            narrow: OnceLock::new(),
        })
    }

    /// The least value from which `f` is pruned, if any: T(n) and n!
    /// grow with n, so they are pruned from some n on; √n never is.
    pub(super) fn pruned_from(&self, f: Func) -> Option<Value> {
        let pruned = |n: Value| f.apply(n, self.bound) == Eval::Pruned;
        // n! is pruned from 21 at the latest, T(n) from 2^33.
        let (mut lo, mut hi): (Value, Value) = (0, 1 << 33);
        if !pruned(hi) {
            return None;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pruned(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// The values of `hand` before any function is applied to it, as
    /// [`Build::level0`] finds them, but keeping a step only for the values
    /// `note` keeps, and whether any value of at least `watch_from` was
    /// made. The pairs are met out of
    /// the table's order (see [`pairs`]) and their places break ties
    /// ([`Firsts`]), so the same step wins each value. Values of at least
    /// `dedup_from` go through a flat set holding the values alone: `note`
    /// is called once for each distinct one, and `again` (which gives
    /// what `note` gave, without counting) when the set meets one again
    /// and keeps no flag for it (`Seen::insert`); the value limit
    /// (`Build::check`) is checked on each value the set takes, so that a
    /// hand whose set passes it is refused wherever that happens. Below
    /// it, `again` is
    /// called each time a value is made, only where the value can be kept
    /// at all: values below 2 are never met, and of the even ones only 2
    /// and 4, since `note` may keep only a prime or what a function turns
    /// into one (T(2), 2!, √ of a prime's square).
    pub(super) fn level0_sparse<'t>(
        &self,
        hand: Hand,
        get: &impl Fn(Hand) -> &'t Table,
        dedup_from: Value,
        watch_from: Value,
        mut note: impl FnMut(Value) -> bool,
        again: impl Fn(Value) -> bool,
    ) -> Result<(Best, bool), SolveError> {
        // Values below 2 are never visited (`pairs`).
        debug_assert!(dedup_from >= 2);
        let splits = splits(hand);
        let pairs_met: usize = splits
            .iter()
            .map(|s| get(s.x).merged.values.len() * get(s.y).merged.values.len())
            .sum();
        // Sized for every value when a large odd one is sent through it
        // (most values are large); it grows if need be.
        let mut seen = Seen::new(
            if dedup_from <= (1 << 32) + 1 {
                (pairs_met.saturating_mul(self.ops.len()) / 4).min(1 << 20)
            } else {
                0
            },
            self.budget,
        )?;
        // Only a prime, 2 (T(2) = 3, 2! = 2) or the square of a prime (4,
        // or odd) is kept: the other values below `dedup_from` need not be
        // met at all, unless watched for.
        let may_keep = |v: Value| v & 1 == 1 || v == 2 || v == 4;
        // Watched until the first value that reaches it.
        let watch = std::cell::Cell::new(watch_from);
        let mut check = |v: Value, seen: &mut Seen| -> Result<bool, SolveError> {
            if v >= watch.get() {
                watch.set(Value::MAX);
            }
            if v >= dedup_from {
                let keep = seen.insert(v, &mut note, &again)?;
                self.check(hand, seen.len())?;
                Ok(keep)
            } else {
                Ok(may_keep(v) && again(v))
            }
        };
        let may_matter = |v: Value| v >= dedup_from.min(watch.get()) || may_keep(v);
        let mut kept = Firsts::new(self.budget);
        let mut pruned = 0;
        if self.juxtapose {
            let (joins, cut) = self.joins(&hand.values());
            pruned += cut;
            for (n, (v, step)) in joins.into_iter().enumerate() {
                if check(v, &mut seen)? {
                    let (floor, class) = (step.cost.key(), step.top().bracket_class());
                    kept.offer(v, Place::join(n), floor, class, || step)?;
                }
            }
        }
        for (k, split) in splits.iter().enumerate() {
            let (tx, ty) = (&get(split.x).merged, &get(split.y).merged);
            pruned += pairs(
                &tx.values,
                &ty.values,
                split.same,
                self.ops,
                self.bound,
                may_matter,
                |m| {
                    if check(m.value, &mut seen)? {
                        let x = Operand::at(split.xs, tx, m.i);
                        let y = Operand::at(split.ys, ty, m.j);
                        let (l, r) = if m.swap { (&y, &x) } else { (&x, &y) };
                        let floor = Cost::at_least(m.op, l.cost(), r.cost());
                        let class = Top::of_binary(m.op).bracket_class();
                        let place = Place::pair(k + 1, m.i, m.j, m.op, m.swap);
                        kept.offer(m.value, place, floor, class, || {
                            binary_step(m.op, l, r, m.value)
                        })?;
                    }
                    Ok(())
                },
            )?;
        }
        Ok((kept.into_best(pruned)?, watch.get() != watch_from))
    }

    /// The primes up to `max_prime` that `hand` reaches, with the same
    /// witnesses the full table gives, in 64-bit arithmetic and keeping only
    /// the wanted primes: splits with one short side are walked (see
    /// `Scan::walk`), the others scanned pair by pair. `None` when the
    /// rules or the tables need the full search (functions, powers, values
    /// that could leave the bound or 62 bits, or tables too long for the
    /// positions of `Scan`).
    #[allow(
        clippy::cast_possible_truncation,
        reason = "primes lie in 2..=max, at most 1000"
    )]
    pub fn targeted_primes<'t>(
        &self,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        max_prime: u64,
    ) -> Result<Option<Table>, SolveError> {
        let Some(t) = self.targeted(hand, &get, max_prime)? else {
            return Ok(None);
        };
        let primes = primes_up_to(t.max);
        let (best, _) = t.search(&primes, Mode::Every, None);
        let found = best
            .into_iter()
            .enumerate()
            .filter_map(|(p, b)| b.map(|(_, step)| (p as Value, step)));
        t.top(found, self.budget).map(Some)
    }

    /// A census of `hand` under each ceiling of `ceilings` (at most
    /// `max_prime`): every prime up to `max_prime` that it reaches, as
    /// [`Build::targeted_primes`] finds them, and a top table that holds,
    /// for each ceiling, only the highest prime within it and the quickest
    /// (the one whose witness is simplest, the smaller on a tie), each with
    /// the witness of the full table. What a sweep reports of a hand, for
    /// far less work than every prime's witness: which primes are reached
    /// is a search without costs that stops once all are found; the
    /// highest prime's witness a search for that prime alone; and the
    /// quickest a search whose bar is the cheapest way found so far, not
    /// the costliest. `None` where [`Build::targeted_primes`] declines.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap,
        reason = "primes lie in 2..=max, at most 1000"
    )]
    pub fn targeted_census<'t>(
        &self,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        max_prime: u64,
        ceilings: &[u64],
    ) -> Result<Option<(Vec<Value>, Table)>, SolveError> {
        let Some(t) = self.targeted(hand, &get, max_prime)? else {
            return Ok(None);
        };
        let every = primes_up_to(t.max);
        let (_, keys) = t.search(&every, Mode::Reach, None);
        let reached: Vec<i64> = every
            .into_iter()
            .filter(|&p| keys[p as usize] == REACHED)
            .collect();
        let mut ceilings: Vec<u64> = ceilings.iter().map(|&c| c.min(max_prime)).collect();
        ceilings.sort_unstable();
        ceilings.dedup();
        let mut witnessed: Vec<(Value, Step)> = Vec::new();
        for c in ceilings {
            let within: Vec<i64> = reached.iter().copied().filter(|&p| p as u64 <= c).collect();
            let Some(&high) = within.last() else {
                continue;
            };
            let (best, _) = t.search(&[high], Mode::Every, None);
            let seed = best[high as usize].expect("a reached prime has a way");
            witnessed.push((high.into(), seed.1));
            let (best, keys) = t.search(&within, Mode::Least, Some((high, seed)));
            let quickest = within
                .iter()
                .copied()
                .filter(|&p| best[p as usize].is_some())
                .min_by_key(|&p| (keys[p as usize], p))
                .expect("the highest prime at least");
            let (_, step) = best[quickest as usize].expect("found");
            witnessed.push((quickest.into(), step));
        }
        witnessed.sort_unstable_by_key(|&(p, _)| p);
        witnessed.dedup_by_key(|&mut (p, _)| p);
        let table = t.top(witnessed.into_iter(), self.budget)?;
        Ok(Some((
            reached.into_iter().map(Value::from).collect(),
            table,
        )))
    }

    /// What every targeted search of `hand` needs, worked out once: each
    /// split's sides in 64-bit values with their cost keys, and the
    /// juxtapositions. `None` where the targeted search does not apply.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "values are checked to fit 62 bits (`in_bound`)"
    )]
    fn targeted<'t>(
        &self,
        hand: Hand,
        get: &impl Fn(Hand) -> &'t Table,
        max_prime: u64,
    ) -> Result<Option<Targeted<'t>>, SolveError> {
        if !self.functions.is_empty() || self.ops.iter().any(|op| op > &BinOp::Div) {
            return Ok(None);
        }
        let splits = splits(hand);
        let fits = |s: &Split| {
            let (x, y) = (get(s.x), get(s.y));
            self.in_bound(x, y) && x.merged.values.len().max(y.merged.values.len()) < 1 << 24
        };
        if hand.len() < 2 || !splits.iter().all(fits) {
            return Ok(None);
        }
        let Ok(max) = i64::try_from(max_prime) else {
            return Ok(None);
        };
        debug_assert_eq!(self.ops, [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]);
        let (joins, pruned) = if self.juxtapose {
            self.joins(&hand.values())
        } else {
            (Vec::new(), 0)
        };
        let mut sides = Vec::with_capacity(splits.len());
        for (k, split) in splits.iter().enumerate() {
            let (tx, ty) = (get(split.x), get(split.y));
            let (x, y) = (self.narrow(tx)?, self.narrow(ty)?);
            // Walking costs a few range scans and two lookups per prime
            // for each value of the shorter side; scanning pairs, one test
            // per value of the longer side.
            let (nx, ny) = (x.values.len(), y.values.len());
            sides.push(Sides {
                split: *split,
                k: k + 1,
                tx: &tx.merged,
                ty: &ty.merged,
                x,
                y,
                walk: !split.same && nx.min(ny) * 4 <= nx.max(ny),
            });
        }
        Ok(Some(Targeted {
            sides,
            joins,
            pruned,
            max,
        }))
    }

    /// `table`'s merged layer as the targeted search reads it
    /// ([`Narrow`]), worked out and charged the first time, and kept with
    /// the table while the budget is at most a quarter used (so that the
    /// copies, which the projections of a sweep leave out, never take the
    /// room its tables were promised), else dropped with the hand's
    /// search; its values must fit 62 bits (`in_bound`).
    #[allow(
        clippy::cast_possible_truncation,
        reason = "values are checked to fit 62 bits (`in_bound`)"
    )]
    fn narrow(&self, table: &Table) -> Result<Arc<Narrow>, SolveError> {
        if let Some(narrow) = table.narrow.get() {
            return Ok(Arc::clone(narrow));
        }
        let layer = &table.merged;
        let n = layer.values.len();
        let bytes = n as u64 * NARROW_BYTES;
        let charge = match self.budget.charge(bytes) {
            Ok(charge) => charge,
            // Another thread may have kept one meanwhile.
            Err(e) => return table.narrow.get().map(Arc::clone).ok_or(e),
        };
        let values: Vec<i64> = layer.values.iter().map(|&v| v as i64).collect();
        let keys: Vec<u64> = layer.steps.iter().map(|s| s.cost.key()).collect();
        let by_cost = by_cost(&keys);
        // The cheapest tier: the least operations and weight (the high
        // bits of a key); what lies beyond it costs at least `beyond`.
        let tier = |key: u64| key >> 16;
        let least = by_cost.first().map_or(0, |&i| tier(keys[i as usize]));
        let tier_len = by_cost
            .iter()
            .take_while(|&&i| tier(keys[i as usize]) == least)
            .count();
        let mut cheap = by_cost[..tier_len].to_vec();
        cheap.sort_unstable();
        let beyond = by_cost
            .get(tier_len)
            .map_or(u64::MAX, |&i| keys[i as usize]);
        let cheap_values = cheap.iter().map(|&i| values[i as usize]).collect();
        let narrow = Arc::new(Narrow {
            values,
            keys,
            by_cost,
            cheap,
            cheap_values,
            beyond,
            _charge: charge,
        });
        if self.budget.used() <= self.budget.limit() / 4 {
            // Another thread may have kept one meanwhile: either will do.
            let _ = table.narrow.set(Arc::clone(&narrow));
        }
        Ok(narrow)
    }

    /// Whether no +, −, × or ÷ of a value from `a` and one from `b` can
    /// leave the bound or 62 bits.
    fn in_bound(&self, a: &Table, b: &Table) -> bool {
        let max_abs = |t: &Table| {
            let v = &t.merged.values;
            let first = v.first().map_or(0, |f| f.unsigned_abs());
            first.max(v.last().map_or(0, |l| l.unsigned_abs()))
        };
        let (a, b) = (max_abs(a), max_abs(b));
        let limit = u128::from(self.bound).min(1 << 62);
        a + b <= limit && a.checked_mul(b).is_some_and(|p| p <= limit)
    }
}

/// Whether `f(n)` can be prime: T(n) = n(n+1)/2 has two factors above 1
/// for n >= 3 and n! for n >= 3, so both are prime only at n = 2 (3 and 2);
/// √n is prime only if n is the square of a prime, which the caller tests.
fn may_be_prime(f: Func, n: Value) -> bool {
    match f {
        Func::Tri | Func::Fact => n == 2,
        Func::Sqrt => may_be_square(n),
    }
}

/// Whether `v` can be a square (`arith::may_be_square`).
fn may_be_square(v: Value) -> bool {
    u64::try_from(v).is_ok_and(crate::arith::may_be_square)
}

/// How the scan at the top of a hand tallies the function applications
/// it cuts off at the bound (the operations beyond it are always counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tally {
    /// Each distinct value a function is cut off at, counted once, as the
    /// full table does: every such value goes through a set.
    Every,
    /// Only whether there is one (the top's count is then positive exactly
    /// where the full count is): no set.
    Whether,
    /// None.
    Not,
}

/// The values a scan keeps at level 0, each with its best way so far and
/// that way's [`Place`]: `pairs` meets the ways out of the full table's
/// order, so of two of equal rank the one of the earlier place wins, as
/// the first met does in the table.
struct Firsts<'b> {
    map: FxHashMap<Value, (Step, Place)>,
    charge: Charge,
    budget: &'b Arc<Budget>,
}

impl<'b> Firsts<'b> {
    fn new(budget: &'b Arc<Budget>) -> Firsts<'b> {
        Firsts {
            map: FxHashMap::default(),
            charge: Charge::default(),
            budget,
        }
    }

    /// Offers the way `make` builds to `v`, found at `place`, unless the
    /// way held ranks better whatever the new one costs at or above
    /// `floor` (a lower bound on its cost key) with bracket class `class`.
    fn offer(
        &mut self,
        v: Value,
        place: Place,
        floor: u64,
        class: u8,
        make: impl FnOnce() -> Step,
    ) -> Result<(), SolveError> {
        map_room(&mut self.map, &mut self.charge, self.budget, 1)?;
        match self.map.entry(v) {
            Entry::Occupied(mut e) => {
                let (held, at) = *e.get();
                let (key, held_class) = (held.cost.key(), held.top().bracket_class());
                let worse = key < floor
                    || key == floor && (class > held_class || class == held_class && at < place);
                if !worse {
                    let step = make();
                    if (step.rank(), place) < (held.rank(), at) {
                        e.insert((step, place));
                    }
                }
            }
            Entry::Vacant(e) => {
                e.insert((make(), place));
            }
        }
        Ok(())
    }

    /// The ways kept, as the full table's level 0 would hold them, with
    /// `pruned` operations beyond the bound.
    fn into_best(self, pruned: u64) -> Result<Best, SolveError> {
        let mut best = Best::new(self.budget);
        best.room(self.map.len())?;
        best.map
            .extend(self.map.into_iter().map(|(v, (step, _))| (v, step)));
        best.pruned = pruned;
        Ok(best)
    }
}

/// What the targeted searches of one hand share ([`Build::targeted`]).
struct Targeted<'t> {
    sides: Vec<Sides<'t>>,
    /// The juxtapositions, in the full table's order.
    joins: Vec<(Value, Step)>,
    /// The operations beyond the bound among the juxtapositions.
    pruned: u64,
    /// The highest prime wanted.
    max: i64,
}

/// The most bytes a value of a table takes in its [`Narrow`] copy.
const NARROW_BYTES: u64 = (3 * size_of::<i64>() + 2 * size_of::<u32>()) as u64;

/// The primes up to `max`.
fn primes_up_to(max: i64) -> Vec<i64> {
    (2..=max).filter(|&p| is_prime(p.into())).collect()
}

/// The cost key [`Mode::Reach`] gives a prime once it is reached: below
/// the floor of any candidate, so that every later one is turned away.
const REACHED: u64 = 0;

/// What a targeted search is after.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every wanted prime's witness: a candidate is worth working out while
    /// it may beat the way its prime has.
    Every,
    /// The quickest wanted prime's witness (its cost least, the prime the
    /// smaller on a tie): a candidate is worth working out only while it
    /// may cost no more than the cheapest way found so far to any of them.
    /// Only the winner's slot is then the full table's witness: the
    /// others may hold a costlier way than their own best.
    Least,
    /// Which wanted primes are reached, at any cost: a prime's key becomes
    /// [`REACHED`] at its first way, and no step is kept.
    Reach,
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "primes lie in 2..=max, at most 1000"
)]
impl Targeted<'_> {
    /// One search of every split for `primes` (ascending, not empty, at
    /// most `self.max`), from `seed` (a prime's best way, known): the best
    /// way found to each prime with its place, and each one's cost key
    /// (`u64::MAX` for none, [`REACHED`] in [`Mode::Reach`]).
    fn search(
        &self,
        primes: &[i64],
        mode: Mode,
        seed: Option<(i64, (Place, Step))>,
    ) -> (Vec<Option<(Place, Step)>>, Vec<u64>) {
        let n = self.max as usize + 1;
        let mut wanted = vec![false; n];
        for &p in primes {
            wanted[p as usize] = true;
        }
        let mut best: Vec<Option<(Place, Step)>> = vec![None; n];
        let mut keys = vec![u64::MAX; n];
        if let Some((p, way)) = seed {
            best[p as usize] = Some(way);
            keys[p as usize] = way.1.cost.key();
        }
        for (j, &(v, step)) in self.joins.iter().enumerate() {
            let Some(v) = usize::try_from(v).ok().filter(|&v| v < n && wanted[v]) else {
                continue;
            };
            if mode == Mode::Reach {
                keys[v] = REACHED;
                continue;
            }
            let place = Place::join(j);
            if best[v].is_none_or(|(p, b)| Order::new(&step, place) < Order::new(&b, p)) {
                best[v] = Some((place, step));
                keys[v] = step.cost.key();
            }
        }
        let (Some(&lo), Some(&max)) = (primes.first(), primes.last()) else {
            return (best, keys);
        };
        for sides in &self.sides {
            if mode == Mode::Reach && primes.iter().all(|&p| keys[p as usize] == REACHED) {
                break;
            }
            let mut scan = Scan {
                s: sides,
                lo,
                max,
                wanted: &wanted,
                primes,
                best: &mut best,
                best_keys: &mut keys,
                mode,
            };
            if sides.walk {
                scan.walk();
            } else {
                scan.pairs();
            }
        }
        (best, keys)
    }

    /// The top table holding `found` (ascending), charged to `budget`.
    fn top(
        &self,
        found: impl Iterator<Item = (Value, Step)> + Clone,
        budget: &Arc<Budget>,
    ) -> Result<Table, SolveError> {
        let (mut merged, charge) = Layer::with_capacity(found.clone().count(), budget)?;
        for (p, step) in found {
            merged.values.push(p);
            merged.steps.push(step);
        }
        Ok(Table {
            merged,
            levels: Vec::new(),
            pruned: self.pruned,
            charge,
            narrow: OnceLock::new(),
        })
    }
}

/// One split of a hand as the targeted search reads it.
struct Sides<'a> {
    split: Split,
    /// The split's number, from 1 (0 is for juxtapositions).
    k: usize,
    tx: &'a Layer,
    ty: &'a Layer,
    x: Arc<Narrow>,
    y: Arc<Narrow>,
    /// Whether the shorter side is walked ([`Scan::walk`]), else every
    /// pair scanned ([`Scan::pairs`]).
    walk: bool,
}

impl Sides<'_> {
    /// Whether x is the side walked (the shorter), the walked side and the
    /// other.
    fn walked(&self) -> (bool, &Narrow, &Narrow) {
        if self.x.values.len() <= self.y.values.len() {
            (true, &self.x, &self.y)
        } else {
            (false, &self.y, &self.x)
        }
    }
}

/// The search for primes over one split of a hand (see `Build::targeted_primes`).
/// Every candidate carries its place in the full table's enumeration order
/// (split, x index, y index, operator, direction), so candidates found out
/// of order still break ties as the full table does.
struct Scan<'a> {
    s: &'a Sides<'a>,
    /// The least and the highest prime wanted.
    lo: i64,
    max: i64,
    wanted: &'a [bool],
    primes: &'a [i64],
    best: &'a mut [Option<(Place, Step)>],
    /// The cost key of each way in `best` (`u64::MAX` for none).
    best_keys: &'a mut [u64],
    mode: Mode,
}

/// The least any operation adds to the cost keys of its operands: one
/// operation of the lightest weight ([`Cost::at_least`]).
fn least_step() -> u64 {
    Cost::at_least(BinOp::Add, Cost::default(), Cost::default())
}

/// The indexes of `keys`, by key (then index).
fn by_cost(keys: &[u64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..keys.len())
        .map(|i| u32::try_from(i).expect("indexes below 2^24"))
        .collect();
    order.sort_unstable_by_key(|&i| (keys[i as usize], i));
    order
}

/// The operators of the targeted search, in the full table's order.
const FOUR: [BinOp; 4] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div];

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "values are checked to fit 62 bits (`in_bound`), primes to lie in 2..=max, indexes below 2^24"
)]
impl Scan<'_> {
    fn hit(&self, r: i64) -> bool {
        (self.lo..=self.max).contains(&r) && self.wanted[r as usize]
    }

    /// The highest cost key a candidate may have and still count: in
    /// [`Mode::Every`] (and [`Mode::Reach`]), once every wanted prime has
    /// a way, the costliest of those, since a candidate whose lower bound
    /// ([`Cost::at_least`]) lies above it loses to the way its prime has;
    /// in [`Mode::Least`] the cheapest, since a candidate above it cannot
    /// be the quickest; `u64::MAX` while there is no such way.
    fn bar(&self) -> u64 {
        let keys = self.primes.iter().map(|&p| self.best_keys[p as usize]);
        match self.mode {
            Mode::Least => keys.min(),
            Mode::Every | Mode::Reach => keys.max(),
        }
        .unwrap_or(u64::MAX)
    }

    /// Offers `x op y` (`swap`: `y op x`) with x = xs[i], y = ys[j], which
    /// makes the prime `r`, at a cost of at least `floor`
    /// ([`Cost::at_least_keys`]).
    fn offer(&mut self, (i, j): (usize, usize), op: BinOp, swap: bool, r: i64, floor: u64) {
        if floor > self.best_keys[r as usize] {
            return;
        }
        if self.mode == Mode::Reach {
            self.best_keys[r as usize] = REACHED;
            return;
        }
        let s = self.s;
        let place = Place::pair(s.k, i, j, op, swap);
        let class = Top::of_binary(op).bracket_class();
        let slot = &mut self.best[r as usize];
        // Most candidates lose to one found earlier: the lower bound on the
        // cost rules them out before it is worked out. Ranked as the full
        // table ranks (`Order`).
        if slot.is_some_and(|(p, b)| {
            (b.cost.key(), b.top().bracket_class(), p) < (floor, class, place)
        }) {
            return;
        }
        let x = Operand::at(s.split.xs, s.tx, i);
        let y = Operand::at(s.split.ys, s.ty, j);
        let (l, rr) = if swap { (y, x) } else { (x, y) };
        let step = binary_step(op, &l, &rr, r.into());
        if slot.is_none_or(|(p, b)| Order::new(&step, place) < Order::new(&b, p)) {
            *slot = Some((place, step));
            self.best_keys[r as usize] = step.cost.key();
        }
    }

    /// Every pair of values, every operation in the full table's order
    /// (+ − × ÷, each x op y then y op x); with equal sides y op x is not
    /// tried, and + and × only once per pair.
    fn pairs(&mut self) {
        let s = self.s;
        let (lo, span, umax) = (self.lo as u64, (self.max - self.lo) as u64, self.max as u64);
        // a ÷ b when exact (b != 0).
        let quotient = |a: i64, b: i64| -> Option<i64> {
            let q = exact_quotient(a.unsigned_abs(), b.unsigned_abs())? as i64;
            Some(if (a < 0) == (b < 0) { q } else { -q })
        };
        let same = s.split.same;
        let (x, y) = (&*s.x, &*s.y);
        let (xs, ys, kx, ky) = (&x.values, &y.values, &x.keys, &y.keys);
        // y by cost, so that the pairs too costly to win end each row.
        let by_cost = &s.y.by_cost;
        let least_y = by_cost.first().map_or(0, |&j| ky[j as usize]);
        let mut bar = self.bar();
        for i in 0..xs.len() {
            let a = xs[i];
            let Some(room) = bar.checked_sub(kx[i] + least_y + least_step()) else {
                continue;
            };
            for &j in by_cost {
                let j = j as usize;
                if ky[j] - least_y > room {
                    break;
                }
                let b = ys[j];
                let both = !same || j >= i;
                // A cheap filter first: can any operation land in range? A
                // quotient can only if one size is lo to max times the other.
                let near = |r: i64| (r as u64).wrapping_sub(lo) <= span;
                let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
                let div_xy =
                    ub != 0 && ua >= lo.saturating_mul(ub) && ua <= umax.saturating_mul(ub);
                let div_yx = !same
                    && ua != 0
                    && ub >= lo.saturating_mul(ua)
                    && ub <= umax.saturating_mul(ua);
                if !(near(a + b) || near(a - b) || near(b - a) || near(a * b) || div_xy || div_yx) {
                    continue;
                }
                let tries = [
                    (BinOp::Add, false, Some(a + b).filter(|_| both)),
                    (BinOp::Sub, false, Some(a - b)),
                    (BinOp::Sub, true, Some(b - a).filter(|_| !same)),
                    (BinOp::Mul, false, Some(a * b).filter(|_| both)),
                    (BinOp::Div, false, div_xy.then(|| quotient(a, b)).flatten()),
                    (BinOp::Div, true, div_yx.then(|| quotient(b, a)).flatten()),
                ];
                for (op, swap, r) in tries {
                    if let Some(r) = r.filter(|&r| self.hit(r)) {
                        let floor = Cost::at_least_keys(op, kx[i], ky[j]);
                        self.offer((i, j), op, swap, r, floor);
                    }
                }
            }
            bar = self.bar();
        }
    }

    /// Walks the shorter side and looks up, in the longer one, the partners
    /// that make a wanted prime: ranges for + − ×, multiples and divisors
    /// for ÷. For splits of unequal sides only.
    fn walk(&mut self) {
        let s = self.s;
        let (_, wn, on) = s.walked();
        let (kw, ko) = (&wn.keys, &on.keys);
        let least_other = on.by_cost.first().map_or(0, |&i| ko[i as usize]);
        let mut partners: Vec<usize> = Vec::new();
        // The walked values by cost: past the first too costly to win with
        // the cheapest partner, none can.
        for &w in &wn.by_cost {
            let w = w as usize;
            let bar = self.bar();
            let Some(room) = bar.checked_sub(kw[w] + least_step()) else {
                break;
            };
            if least_other > room {
                break;
            }
            for op in FOUR {
                // The room `op` leaves a partner: none if even the
                // cheapest does not fit.
                let Some(room) = bar.checked_sub(kw[w] + Cost::at_least_keys(op, 0, 0)) else {
                    continue;
                };
                if least_other > room {
                    continue;
                }
                self.walk_op(w, op, room, &mut partners);
            }
        }
    }

    /// Offers `v op t` and `t op v` (one of them for + and ×) for the walked
    /// value `v` at `w` and each partner `t` of the other side whose cost
    /// key is at most `room` and which makes a wanted prime.
    fn walk_op(&mut self, w: usize, op: BinOp, room: u64, partners: &mut Vec<usize>) {
        let s = self.s;
        let (walk_x, wn, on) = s.walked();
        let other = &on.values;
        let find = |t: i64| other.binary_search(&t).ok();
        let (lo, max) = (self.lo, self.max);
        let (kw, ko) = (&wn.keys, &on.keys);
        let v = wn.values[w];
        // The partners in a range of values: among the cheapest tier alone
        // where nothing costlier fits in the room.
        let cheap_only = room < on.beyond;
        let range = |lo: i64, hi: i64, partners: &mut Vec<usize>| {
            if cheap_only {
                let c = &on.cheap_values;
                let (a, b) = (
                    c.partition_point(|&t| t < lo),
                    c.partition_point(|&t| t <= hi),
                );
                partners.extend(on.cheap[a..b.max(a)].iter().map(|&i| i as usize));
            } else {
                let (a, b) = (
                    other.partition_point(|&t| t < lo),
                    other.partition_point(|&t| t <= hi),
                );
                partners.extend(a..b.max(a));
            }
        };
        // dir 0: x op y; dir 1: y op x (not for + and ×).
        for swap in [false, true] {
            if swap && op.is_commutative() {
                continue;
            }
            // Whether the walked value stands on the left of `op`.
            let v_left = walk_x != swap;
            partners.clear();
            match (op, v_left) {
                (BinOp::Add, _) => range(lo - v, max - v, partners),
                (BinOp::Sub, true) => range(v - max, v - lo, partners),
                (BinOp::Sub, false) => range(v + lo, v + max, partners),
                (BinOp::Mul, _) if v > 0 => {
                    range((lo + v - 1) / v, max / v, partners);
                }
                (BinOp::Mul, _) if v < 0 => {
                    range(-(max / -v), -((lo - v - 1) / -v), partners);
                }
                // v ÷ t = p: t = v / p for the primes dividing v.
                (BinOp::Div, true) => {
                    partners.extend(self.primes.iter().filter_map(|&p| {
                        exact_quotient(v.unsigned_abs(), p as u64)
                            .and_then(|q| find(if v < 0 { -(q as i64) } else { q as i64 }))
                    }));
                }
                // t ÷ v = p: t = p v.
                (BinOp::Div, false) if v != 0 => partners.extend(
                    self.primes
                        .iter()
                        .filter_map(|&p| p.checked_mul(v).and_then(find)),
                ),
                _ => {}
            }
            for &o in partners.iter() {
                if ko[o] > room {
                    continue;
                }
                let (i, j) = if walk_x { (w, o) } else { (o, w) };
                let (a, b) = (s.x.values[i], s.y.values[j]);
                let (l, r) = if swap { (b, a) } else { (a, b) };
                let result = match op {
                    BinOp::Add => Some(l + r),
                    BinOp::Sub => Some(l - r),
                    BinOp::Mul => Some(l * r),
                    _ => (r != 0 && l % r == 0).then(|| l / r),
                };
                if let Some(r) = result.filter(|&r| self.hit(r)) {
                    let floor = Cost::at_least_keys(op, kw[w], ko[o]);
                    self.offer((i, j), op, swap, r, floor);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trial division, independent of `crate::prime`.
    fn is_prime_slow(v: Value) -> bool {
        v >= 2 && (2..).take_while(|d| d * d <= v).all(|d| v % d != 0)
    }

    #[test]
    fn triangles_and_factorials_are_prime_only_at_two() {
        for n in 0..2_000 {
            for f in [Func::Tri, Func::Fact] {
                if let Eval::Exact(v) = f.apply(n, u64::MAX) {
                    // Quick: every composite here has a factor <= n + 1.
                    assert_eq!(is_prime_slow(v), n == 2, "{f:?}({n}) = {v}");
                }
                // The filter passes exactly the arguments that can give a
                // prime: T(2) = 3 and 2! = 2.
                assert_eq!(may_be_prime(f, n), n == 2, "{f:?}({n})");
            }
            // √n is prime only where n is a prime's square; the filter
            // must let every such n through.
            if let Eval::Exact(r) = Func::Sqrt.apply(n, u64::MAX)
                && is_prime_slow(r)
            {
                assert!(may_be_prime(Func::Sqrt, n), "√{n}");
            }
        }
    }

    /// What `pruned_from` relies on: from the first pruned argument on,
    /// T(n) and n! are pruned at every larger one, and √n never is.
    #[test]
    fn functions_are_pruned_from_one_argument_on() {
        for bound in [u64::MAX, 1000, 1 << 40, 3, 1] {
            for f in Func::ALL {
                let mut was = false;
                for n in (0..5_000).chain((0..40).map(|k| 1i128 << k).filter(|&n| n >= 5_000)) {
                    let now = f.apply(n, bound) == Eval::Pruned;
                    assert!(!was || now, "{f:?}({n}) within {bound}");
                    was = now;
                    if f == Func::Sqrt {
                        assert!(!now);
                    }
                }
            }
        }
    }

    #[test]
    fn the_square_filter_passes_every_square() {
        for r in 0..100_000i128 {
            assert!(may_be_square(r * r), "{r}");
        }
        // Fewer than one value in a hundred passes (the residues allow
        // 12/64 × 16/63 × 21/65 × 6/11 of them, under 0.9%).
        let passed = (0..1_000_000).filter(|&v| may_be_square(v)).count();
        assert!(passed < 10_000, "{passed}");
        assert!(!may_be_square(-4));
        assert!(may_be_square(Value::from(u64::MAX.isqrt().pow(2))));
    }

    #[test]
    fn reciprocal_division_is_exact() {
        for d in 1..600u64 {
            for n in (0..70_000u64).chain([(1 << 32) - 1, (1 << 32) - 2, 4_294_967_000]) {
                let want = (n % d == 0).then(|| n / d);
                assert_eq!(exact_quotient(n, d), want, "{n} / {d}");
            }
        }
        for d in [4093u64, 4095, 3000, 2048, 1 << 13, 1 << 40] {
            for n in [d * 97, d * 96 + 1, (1 << 32) - 1, d * 1_000_000] {
                assert_eq!(
                    exact_quotient(n, d),
                    (n % d == 0).then(|| n / d),
                    "{n} / {d}"
                );
            }
        }
    }
}
