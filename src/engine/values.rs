//! Every value a hand makes, without witnesses: the value-only path.
//!
//! A full table ([`super::table`]) keeps, for each value, the cost and last
//! step of its simplest witness, and ranks every candidate against the way
//! it already holds. When only the values are wanted (`query --values`),
//! [`ValueSets`] works out each distinct sub-hand's sorted set of values
//! once instead: its juxtapositions, every split's `a op b` and its
//! function levels, exactly the values of the table's merged layer, with
//! the same count of operations beyond the bound. Duplicates go through a
//! bitmap for values within ±2^23 (most of them; one bit set each) and a
//! hash set for the others (of 8-byte keys where they fit). Sets are kept
//! in 64 bits where every value fits, and + − × ÷ on values within 2^31
//! run in 64-bit arithmetic, straight into the bitmap where every result
//! of a split lies within its range.
//!
//! It holds [`ValueSets`] and [`HandValues`], the sets in 64 bits or at
//! full width, the pair loops of each operator with their 64- and 32-bit
//! fast paths, the pairs by magnitude, and `Distinct`, the bitmap and
//! hash sets that drop duplicates; its tests hold every set against the
//! full tables.

use std::borrow::Cow;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::SolveError;
use super::Solver;
use super::budget::{Budget, Charge, map_room};
use super::flat::FlatSet;
use super::table::{Build, directions, splits};
use crate::arith::{BinOp, Eval, Value};
use crate::hand::Hand;

/// Values within −SMALL..SMALL go through the bitmap (2 MiB), each at
/// [`bit_of`].
const SMALL: i64 = 1 << 23;

/// A value's bit in the bitmap. For values within −SMALL..SMALL.
#[inline(always)]
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    reason = "v + SMALL lies in 0..2 SMALL"
)]
fn bit_of(v: i64) -> usize {
    (v + SMALL) as usize
}

/// Values outside ±SMALL offered before any is added to the table.
const PENDING: usize = 32;

/// Slots the table of values outside ±SMALL keeps between sets (8 MiB).
const LARGE_KEPT: usize = 1 << 20;

/// The bitmap's words.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "2^18"
)]
const WORDS: usize = (2 * SMALL / 64) as usize;

/// The sub-hands' sets of values, each worked out once; see the module.
pub struct ValueSets<'s> {
    solver: &'s Solver,
    build: Build<'s>,
    sets: FxHashMap<Hand, Set>,
    sets_charge: Charge,
    /// The values held by the sets of each size, and how many sets.
    sizes: [(usize, usize); 7],
    distinct: Distinct,
}

/// What [`ValueSets::values`] gives for one hand.
pub struct HandValues {
    values: Values,
    pruned: u64,
    _charge: Charge,
}

impl HandValues {
    /// Every value the hand makes, ascending. They are kept in 64 bits
    /// where they fit: [`HandValues::iter`] reads them without a copy.
    pub fn values(&self) -> Cow<'_, [Value]> {
        match &self.values {
            Values::Narrow(v) => Cow::Owned(v.iter().map(|&v| Value::from(v)).collect()),
            Values::Wide(v) => Cow::Borrowed(v),
        }
    }

    /// Every value the hand makes, ascending, without a copy.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Value> + '_ {
        self.within(Value::MIN, Value::MAX)
    }

    /// The values the hand makes within `lo..=hi`, ascending, found by
    /// bisection.
    pub fn within(&self, lo: Value, hi: Value) -> impl ExactSizeIterator<Item = Value> + '_ {
        let (narrow, wide): (&[i64], &[Value]) = match &self.values {
            Values::Narrow(v) => {
                let from = v.partition_point(|&v| Value::from(v) < lo);
                let to = v.partition_point(|&v| Value::from(v) <= hi).max(from);
                (&v[from..to], &[])
            }
            Values::Wide(v) => {
                let from = v.partition_point(|&v| v < lo);
                let to = v.partition_point(|&v| v <= hi).max(from);
                (&[], &v[from..to])
            }
        };
        Either {
            narrow: narrow.iter(),
            wide: wide.iter(),
        }
    }

    /// How many values the hand makes.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the hand makes no value (never: a card is a value).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Operations beyond the bound, over the hand's distinct sub-hands and
    /// itself.
    pub fn pruned(&self) -> u64 {
        self.pruned
    }
}

/// [`HandValues::iter`]: one of the two lists is empty.
struct Either<'v> {
    narrow: std::slice::Iter<'v, i64>,
    wide: std::slice::Iter<'v, Value>,
}

impl Iterator for Either<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        match self.narrow.next() {
            Some(&v) => Some(v.into()),
            None => self.wide.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.narrow.len() + self.wide.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Either<'_> {}

/// A set of values, ascending: in 64 bits when every one fits (always
/// without functions within the default bound), else in full.
#[derive(Clone)]
enum Values {
    Narrow(Vec<i64>),
    Wide(Vec<Value>),
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    /// Bytes its list takes.
    fn bytes(&self) -> u64 {
        match self {
            Values::Narrow(v) => (v.len() * size_of::<i64>()) as u64,
            Values::Wide(v) => bytes(v.len()),
        }
    }

    /// A copy (the caller charges [`Values::bytes`] first).
    fn copy(&self, budget: &Budget) -> Result<Values, SolveError> {
        Ok(match self {
            Values::Narrow(v) => {
                let mut copy = room(v.len(), budget)?;
                copy.extend_from_slice(v);
                Values::Narrow(copy)
            }
            Values::Wide(v) => {
                let mut copy = room(v.len(), budget)?;
                copy.extend_from_slice(v);
                Values::Wide(copy)
            }
        })
    }

    /// The values in full: a narrow list copied (the caller charges
    /// [`Values::widening`] first).
    fn wide(&self, budget: &Budget) -> Result<Cow<'_, [Value]>, SolveError> {
        Ok(match self {
            Values::Narrow(v) => {
                let mut wide = room(v.len(), budget)?;
                wide.extend(v.iter().map(|&v| Value::from(v)));
                Cow::Owned(wide)
            }
            Values::Wide(v) => Cow::Borrowed(v),
        })
    }

    /// Bytes [`Values::wide`] takes.
    fn widening(&self) -> u64 {
        match self {
            Values::Narrow(v) => bytes(v.len()),
            Values::Wide(_) => 0,
        }
    }

    /// `wide` in 64 bits if every value fits, with its charge (the full
    /// list's is dropped once they are copied).
    fn narrowed(
        wide: Vec<Value>,
        charge: Charge,
        budget: &Arc<Budget>,
    ) -> Result<(Values, Charge), SolveError> {
        if !wide.iter().all(|&v| i64::try_from(v).is_ok()) {
            return Ok((Values::Wide(wide), charge));
        }
        let narrow_charge = budget.charge((wide.len() * size_of::<i64>()) as u64)?;
        let mut narrow = room(wide.len(), budget)?;
        narrow.extend(wide.iter().filter_map(|&v| i64::try_from(v).ok()));
        Ok((Values::Narrow(narrow), narrow_charge))
    }
}

struct Set {
    values: Values,
    /// The values by magnitude ([`magnitudes`]), for a kept set whose
    /// pairs can go to the bitmap by magnitude; with its charge.
    magnitudes: Option<(Vec<Magnitude>, Charge)>,
    /// Operations at this sub-hand whose result was beyond the bound.
    pruned: u64,
    #[allow(dead_code, reason = "held for its Drop, which gives the bytes back")]
    charge: Charge,
}

impl Solver {
    /// Every value a hand makes under this solver's rules, without
    /// witnesses: see [`ValueSets`].
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver};
    ///
    /// let solver = Solver::new(Rules::default())?;
    /// let mut sets = solver.value_sets()?;
    /// let hand = Hand::from_values(&[4, 6, 8]);
    /// assert_eq!(sets.values(hand)?.values(), solver.solve(hand)?.values().unwrap());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`SolveError::Memory`] when its scratch bitmap does not fit the
    /// budget.
    pub fn value_sets(&self) -> Result<ValueSets<'_>, SolveError> {
        Ok(ValueSets {
            solver: self,
            build: self.build(),
            sets: FxHashMap::default(),
            sets_charge: Charge::default(),
            sizes: [(0, 0); 7],
            distinct: Distinct::new(&self.budget)?,
        })
    }
}

impl ValueSets<'_> {
    /// Every value `hand` makes, ascending (the values of
    /// [`crate::Solution::values`]), and the operations beyond the bound
    /// over its distinct sub-hands and itself ([`crate::Solution::pruned`]
    /// of a solution that counts them). The sub-hands' sets are kept for
    /// later hands; the hand's own is not (unless it was one of those).
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the sets do not fit the budget, and
    /// [`SolveError::TooLarge`] for a set past the limit a table has.
    pub fn values(&mut self, hand: Hand) -> Result<HandValues, SolveError> {
        self.prepare(hand)?;
        let subs = hand.proper_sub_hands();
        let below: u64 = subs.iter().map(|s| self.sets[s].pruned).sum();
        let top = match self.sets.get(&hand) {
            Some(set) => Set {
                charge: self.build.budget.charge(set.values.bytes())?,
                values: set.values.copy(self.build.budget)?,
                magnitudes: None,
                pruned: set.pruned,
            },
            None => self.work_out(hand)?,
        };
        Ok(HandValues {
            values: top.values,
            pruned: below + top.pruned,
            _charge: top.charge,
        })
    }

    /// Works out and keeps the sets of every proper sub-hand of `hand`,
    /// and projects the hand's own from them, as [`ValueSets::values`]
    /// does first: so that a request whose values cannot fit is refused
    /// before other work on the hand (`query --values` searches for the
    /// primes too), not after it.
    ///
    /// # Errors
    /// As [`ValueSets::values`].
    pub fn prepare(&mut self, hand: Hand) -> Result<(), SolveError> {
        let subs = hand.proper_sub_hands();
        let mut missing: Vec<Hand> = subs
            .iter()
            .copied()
            .filter(|h| !self.sets.contains_key(h))
            .collect();
        missing.sort_by_key(|h| (h.len(), h.key()));
        // Size by size, each projected first from the growth measured on
        // the sizes below, as the full search projects its tables: a
        // request too large is refused before it is worked out.
        let mut plan = super::plan::layers(&missing, bytes(1));
        if !self.sets.contains_key(&hand) {
            plan.push((hand.len(), 1, bytes(1)));
        }
        let mut at = 0;
        for (step, &(size, count, _)) in plan.iter().enumerate() {
            let sizes = self.sizes;
            let mean = |k: usize| {
                let (values, sets) = sizes.get(k).copied().unwrap_or_default();
                (sets > 0).then(|| values as f64 / sets as f64)
            };
            self.solver.foresee(&plan[step..], mean)?;
            if size == hand.len() {
                break;
            }
            for &h in &missing[at..at + count] {
                let mut set = self.work_out(h)?;
                set.magnitudes = by_magnitude(&set.values, self.build.budget);
                self.sizes[h.len()].0 += set.values.len();
                self.sizes[h.len()].1 += 1;
                map_room(&mut self.sets, &mut self.sets_charge, self.build.budget, 1)?;
                self.sets.insert(h, set);
            }
            at += count;
        }
        Ok(())
    }

    /// The set of `hand`, whose sub-hands' sets are known: as
    /// `Build::table` builds the table, level by level.
    fn work_out(&mut self, hand: Hand) -> Result<Set, SolveError> {
        let set = self.work_out_from_scratch(hand);
        if set.is_err() {
            self.distinct.reset();
        }
        set
    }

    /// [`ValueSets::work_out`], which leaves the scratch empty on success
    /// only.
    fn work_out_from_scratch(&mut self, hand: Hand) -> Result<Set, SolveError> {
        let build = &self.build;
        let mut pruned = 0;
        let values = hand.values();
        if let [card] = values[..] {
            self.distinct.add(card.into());
        } else {
            if build.juxtapose {
                let (joins, p) = build.joins(&values);
                pruned += p;
                for (v, _) in joins {
                    self.distinct.add(v);
                }
            }
            for split in splits(hand) {
                let (x, y) = (&self.sets[&split.x], &self.sets[&split.y]);
                let magnitudes = [x, y].map(|s| s.magnitudes.as_ref().map(|(m, _)| &m[..]));
                let (x, y) = (&x.values, &y.values);
                pruned += match (x, y) {
                    (Values::Narrow(x), Values::Narrow(y)) => {
                        pairs(build, x, y, split.same, magnitudes, &mut self.distinct)?
                    }
                    _ => {
                        // A side past 64 bits: both in full, a narrow one
                        // copied so (charged).
                        let _held = build.budget.charge(x.widening() + y.widening())?;
                        let (x, y) = (x.wide(build.budget)?, y.wide(build.budget)?);
                        pairs(build, &x, &y, split.same, [None; 2], &mut self.distinct)?
                    }
                };
                build.check(hand, self.distinct.len())?;
            }
        }
        if build.functions.is_empty() {
            let (values, charge) = self.distinct.take_sorted(build.budget)?;
            return Ok(Set {
                values,
                magnitudes: None,
                pruned,
                charge,
            });
        }
        // Functions work on the values in full: the list is made so at once.
        let (mut merged, mut charge) = self.distinct.take_sorted_wide(build.budget)?;
        // The level the functions apply to next: the merged list itself at
        // first (no copy), then the level last made.
        let mut below: Option<(Vec<Value>, Charge)> = None;
        for _ in 0..build.depth {
            let level = below.as_ref().map_or(&merged, |(level, _)| level);
            if level.is_empty() {
                break;
            }
            for &v in level {
                for &f in build.functions {
                    match f.apply(v, build.bound) {
                        Eval::Exact(w) => self.distinct.add(w),
                        Eval::Pruned => pruned += 1,
                        Eval::Undefined => {}
                    }
                }
            }
            build.check(hand, self.distinct.len())?;
            let (next, next_charge) = self.distinct.take_sorted_wide(build.budget)?;
            let union_charge = build.budget.charge(bytes(merged.len() + next.len()))?;
            merged = union(&merged, &next, build.budget)?;
            charge = union_charge;
            below = Some((next, next_charge));
        }
        drop(below);
        // Kept in 64 bits where every value fits, as without functions:
        // half the memory, and the quicker pairs above.
        let (values, charge) = Values::narrowed(merged, charge, build.budget)?;
        Ok(Set {
            values,
            magnitudes: None,
            pruned,
            charge,
        })
    }
}

/// A kept set's values by magnitude ([`magnitudes`]), charged, where
/// pairs with it can go to the bitmap (every value within ±SMALL) and it
/// allows them: a sub-hand is met again and again.
/// Only a speed-up: where the budget cannot spare it, the pairs are taken
/// by sign.
fn by_magnitude(values: &Values, budget: &Arc<Budget>) -> Option<(Vec<Magnitude>, Charge)> {
    let Values::Narrow(values) = values else {
        return None;
    };
    let within = |v: Option<&i64>| v.is_none_or(|v| (-SMALL..SMALL).contains(v));
    if !within(values.first()) || !within(values.last()) {
        return None;
    }
    let charge = budget
        .charge((values.len() * size_of::<Magnitude>()) as u64)
        .ok()?;
    let mut out = room(values.len(), budget).ok()?;
    magnitudes(values, &mut out).then_some((out, charge))
}

/// Every `a op b` of one split, as the full table's `split_all` tries
/// them (`directions`), into `out`; gives how many went beyond the bound.
/// `magnitudes`: the sides by magnitude, where known.
fn pairs<T: Element>(
    build: &Build,
    x: &[T],
    y: &[T],
    same: bool,
    magnitudes: [Option<&[Magnitude]>; 2],
    out: &mut Distinct,
) -> Result<u64, SolveError> {
    let max_abs = |s: &[T]| {
        let end = |v: Option<&T>| v.map_or(0, |&v| v.into().unsigned_abs());
        end(s.first()).max(end(s.last()))
    };
    let (mx, my) = (max_abs(x), max_abs(y));
    // + − × ÷ of values within 2^31 stay within 2^62: 64-bit arithmetic,
    // with the bound checked on the result only where a result can pass it.
    let narrow = mx <= 1 << 31 && my <= 1 << 31;
    let mut pruned = 0;
    if narrow {
        // + − × ÷ are always in force (`Solver::new`), so each pair gives
        // at most six results.
        debug_assert_eq!(
            build.ops[..4],
            [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]
        );
        out.reserve(x.len() * y.len() * 6)?;
        let most = (mx * my).max(mx + my);
        if most > u128::from(build.bound) {
            pruned += narrow_pairs::<true, T>(build.bound, x, y, same, out);
        } else if out.dense(most).is_some() {
            // By magnitude where both sides allow it (every negative value
            // the negation of a value the side also holds, as + − × ÷
            // always leave them): up to four times fewer pairs.
            if !out.by_magnitude(same, magnitudes) {
                let (bits, small) = out.dense(most).expect("checked above");
                if same {
                    dense_pairs::<true, T>(x, y, bits, small);
                } else {
                    dense_pairs::<false, T>(x, y, bits, small);
                }
            }
        } else {
            narrow_pairs::<false, T>(build.bound, x, y, same, out);
        }
        out.failed()?;
    }
    for &op in build.ops {
        if narrow && op <= BinOp::Div {
            continue;
        }
        for (i, &a) in x.iter().enumerate() {
            for (j, &b) in y.iter().enumerate() {
                let [forward, back] = directions(op, same, i, j);
                for (go, l, r) in [(forward, a.into(), b.into()), (back, b.into(), a.into())] {
                    if go {
                        match op.apply(l, r, build.bound) {
                            Eval::Exact(v) => out.add(v),
                            Eval::Pruned => pruned += 1,
                            Eval::Undefined => {}
                        }
                    }
                }
            }
            out.failed()?;
        }
    }
    Ok(pruned)
}

/// A value as a set holds it: in 64 bits or in full.
trait Element: Copy + Into<Value> {
    /// The value, which the caller knows to fit 64 bits.
    fn narrow(self) -> i64;
}

impl Element for i64 {
    #[inline(always)]
    fn narrow(self) -> i64 {
        self
    }
}

impl Element for Value {
    #[inline(always)]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "called on values within 2^31 (`pairs`)"
    )]
    fn narrow(self) -> i64 {
        self as i64
    }
}

/// Every result of + − × ÷ on the pairs of `x` and `y` (values within
/// 2^31, so in `i64`), every operation of a pair at once, as `directions`
/// allows them: with equal sides (`SAME`), + and × once per unordered pair
/// and no y op x. `DIV32`: every value lies within ±2^23, and a 32-bit
/// division, quicker than a 64-bit one, does.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "with DIV32, values within ±2^23 (`Distinct::dense`)"
)]
fn each_result<const SAME: bool, const DIV32: bool, T: Element>(
    x: &[T],
    y: &[T],
    mut put: impl FnMut(i64),
) {
    let quotient = |a: i64, b: i64| {
        if DIV32 {
            exact_quotient_32(a as i32, b as i32).map(i64::from)
        } else {
            exact_quotient(a, b)
        }
    };
    for (i, &a) in x.iter().enumerate() {
        let a = a.narrow();
        for (j, &b) in y.iter().enumerate() {
            let b = b.narrow();
            let both = !SAME || j >= i;
            if both {
                put(a + b);
            }
            put(a - b);
            if !SAME {
                put(b - a);
            }
            if both {
                put(a * b);
            }
            if let Some(q) = quotient(a, b) {
                put(q);
            }
            if !SAME && let Some(q) = quotient(b, a) {
                put(q);
            }
        }
    }
}

/// [`pairs`] for + − × ÷ on values within 2^31 ([`each_result`]);
/// `CHECK`: whether a result may pass the bound. Gives how many did.
fn narrow_pairs<const CHECK: bool, T: Element>(
    bound: u64,
    x: &[T],
    y: &[T],
    same: bool,
    out: &mut Distinct,
) -> u64 {
    let mut pruned = 0;
    let put = |v: i64| {
        if CHECK && v.unsigned_abs() > bound {
            pruned += 1;
        } else {
            out.add_narrow(v);
        }
    };
    if same {
        each_result::<true, false, T>(x, y, put);
    } else {
        each_result::<false, false, T>(x, y, put);
    }
    pruned
}

/// [`narrow_pairs`] where every result lies within ±SMALL and the bound:
/// each goes straight to the bitmap, with no range to check, and the list
/// has room for every new one (`Distinct::reserve`).
fn dense_pairs<const SAME: bool, T: Element>(
    x: &[T],
    y: &[T],
    bits: &mut [u64; WORDS],
    small: &mut Vec<i64>,
) {
    each_result::<SAME, true, T>(x, y, |v: i64| mark(bits, small, v));
}

/// Sets `v`'s bit, listing `v` in `small` if it is new; `v` lies within
/// ±SMALL and `small` has room (`Distinct::reserve`).
#[inline(always)]
fn mark(bits: &mut [u64; WORDS], small: &mut Vec<i64>, v: i64) {
    let at = bit_of(v);
    // Masked, though `at` is in range: no bounds check in the loop.
    let (word, bit) = ((at / 64) & (WORDS - 1), 1u64 << (at % 64));
    let w = bits[word];
    if w & bit == 0 {
        bits[word] = w | bit;
        small.push(v);
    }
}

/// One value of a side by magnitude: its size `m` (below 2^23) and
/// whether the side holds `-m` too, in 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Magnitude(u32);

impl Magnitude {
    /// `m`, below 2^23; `negative`: whether `-m` is held too.
    fn new(m: u32, negative: bool) -> Magnitude {
        debug_assert!(i64::from(m) < SMALL);
        Magnitude(m << 1 | u32::from(negative))
    }

    #[inline(always)]
    fn size(self) -> u32 {
        self.0 >> 1
    }

    /// 1 when `-m` is held too, else 0.
    #[inline(always)]
    fn negative(self) -> u32 {
        self.0 & 1
    }
}

/// A side's values by magnitude, ascending, into `out`: each `m >= 0` it
/// holds, marked where it holds `-m` too (0 counts as its own negation).
/// `false` (and `out` unspecified) when some negative value's magnitude is
/// not itself held: then the pairs must be taken by sign. The values must
/// lie within ±SMALL.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "values within ±SMALL"
)]
fn magnitudes<T: Element>(side: &[T], out: &mut Vec<Magnitude>) -> bool {
    out.clear();
    let zero = side.partition_point(|&v| v.narrow() < 0);
    // The negatives by magnitude, ascending: from the zero point down.
    let mut negatives = side[..zero].iter().rev().map(|&v| -v.narrow()).peekable();
    for &v in &side[zero..] {
        let m = v.narrow();
        if negatives.next_if(|&n| n < m).is_some() {
            return false;
        }
        let negative = m == 0 || negatives.next_if_eq(&m).is_some();
        out.push(Magnitude::new(m as u32, negative));
    }
    negatives.next().is_none()
}

/// [`dense_pairs`] by magnitude: for magnitudes `p` of `x` and `q` of `y`
/// (from [`magnitudes`]), the signed pairs `(±p, ±q)` make, by + − × ÷,
/// exactly `p + q`, `|p − q|`, `p q` and the exact one of `p / q`, `q / p`,
/// each positive, with `p − q` and `q − p` both ways, and every other one
/// negative too when either side holds its negative (`-p` or `-q`). With
/// equal sides (`SAME`), each unordered pair once.
fn magnitude_pairs<const SAME: bool>(
    x: &[Magnitude],
    y: &[Magnitude],
    bits: &mut [u64; WORDS],
    small: &mut Vec<i64>,
) {
    let mut put = |v: i64| mark(bits, small, v);
    for (i, &mx) in x.iter().enumerate() {
        let p = mx.size();
        let from = if SAME { i } else { 0 };
        for &my in &y[from..] {
            let q = my.size();
            // Where neither side holds a negative, the negative offer is
            // the positive one again (already in the bitmap): no branch.
            let either = mx.negative() | my.negative() == 1;
            let both = |v: i64| if either { -v } else { v };
            // The larger over the smaller (0 divides nothing), in 32 bits.
            let (hi, lo) = (p.max(q), p.min(q));
            let quotient = (lo != 0 && hi % lo == 0).then(|| i64::from(hi / lo));
            let (p, q) = (i64::from(p), i64::from(q));
            let sum = p + q;
            put(sum);
            put(both(sum));
            let difference = p - q;
            put(difference);
            put(-difference);
            let product = p * q;
            put(product);
            put(both(product));
            if let Some(quotient) = quotient {
                put(quotient);
                put(both(quotient));
            }
        }
    }
}

/// `a ÷ b` when exact.
#[inline(always)]
fn exact_quotient(a: i64, b: i64) -> Option<i64> {
    // A nonzero quotient needs |a| >= |b|: most pairs need no division.
    if b == 0 || (a != 0 && a.unsigned_abs() < b.unsigned_abs()) {
        return None;
    }
    (a % b == 0).then(|| a / b)
}

/// [`exact_quotient`] of values within ±2^30.
#[inline(always)]
fn exact_quotient_32(a: i32, b: i32) -> Option<i32> {
    if b == 0 || (a != 0 && a.unsigned_abs() < b.unsigned_abs()) {
        return None;
    }
    (a % b == 0).then(|| a / b)
}

/// The union of two ascending lists, ascending.
fn union(a: &[Value], b: &[Value], budget: &Budget) -> Result<Vec<Value>, SolveError> {
    let mut out = room(a.len() + b.len(), budget)?;
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    Ok(out)
}

/// An empty list with room for `n` items, or the machine's refusal (the
/// bytes are charged by the caller first).
fn room<T>(n: usize, budget: &Budget) -> Result<Vec<T>, SolveError> {
    let mut list = Vec::new();
    list.try_reserve_exact(n)
        .map_err(|_| budget.refusal((n * size_of::<T>()) as u64))?;
    Ok(list)
}

/// Bytes of a set of `n` values.
fn bytes(n: usize) -> u64 {
    (n * size_of::<Value>()) as u64
}

/// The distinct values offered since the last [`Distinct::take_sorted`].
/// Offering a value cannot fail: an offer that would pass the budget is
/// recorded, and [`Distinct::failed`] gives it after the loop.
struct Distinct {
    /// Bit [`bit_of`]`(v)` for each value v within −SMALL..SMALL offered; none
    /// when the budget cannot spare its 2 MiB (every value then goes
    /// through the hash set).
    bits: Option<Box<[u64; WORDS]>>,
    /// The radix sort's second buffer.
    spare: Vec<i64>,
    /// Those values, in the order first offered.
    small: Vec<i64>,
    /// The others that fit 64 bits (8-byte keys: half the memory of
    /// full-width ones), in a flat table (charged as it grows).
    large: FlatSet,
    /// Values for `large` not yet added (the first `pending_len`), added
    /// together ([`FlatSet::insert_all`]).
    pending: [i64; PENDING],
    pending_len: usize,
    /// The rest (bounds past 2^63).
    huge: FxHashMap<Value, ()>,
    /// The scratch's memory: the bitmap and the list's capacity.
    charge: Charge,
    huge_charge: Charge,
    /// The first refusal since the last [`Distinct::failed`].
    error: Option<SolveError>,
    budget: Arc<Budget>,
}

impl Distinct {
    fn new(budget: &Arc<Budget>) -> Result<Distinct, SolveError> {
        let bitmap = || -> Result<(Box<[u64; WORDS]>, Charge), SolveError> {
            let charge = budget.charge((WORDS * size_of::<u64>()) as u64)?;
            let mut bits: Vec<u64> = room(WORDS, budget)?;
            bits.resize(WORDS, 0);
            let bits = bits.into_boxed_slice().try_into().expect("WORDS long");
            Ok((bits, charge))
        };
        let (bits, charge) = match bitmap() {
            Ok((bits, charge)) => (Some(bits), charge),
            Err(_) => (None, Charge::default()),
        };
        Ok(Distinct {
            bits,
            spare: Vec::new(),
            small: Vec::new(),
            large: FlatSet::new(budget),
            pending: [0; PENDING],
            pending_len: 0,
            huge: FxHashMap::default(),
            charge,
            huge_charge: Charge::default(),
            error: None,
            budget: Arc::clone(budget),
        })
    }

    fn len(&mut self) -> usize {
        self.flush();
        self.small.len() + self.large.len() + self.huge.len()
    }

    /// Adds the pending values to `large` (drops them once an offer has
    /// been refused: the set is lost anyway, and a machine that refused a
    /// table would be asked for it again with every batch).
    fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending_len);
        if self.error.is_none()
            && let Err(e) = self.large.insert_all(&self.pending[..n])
        {
            self.error = Some(e);
        }
    }

    /// Clears the bits of the values in `small`.
    fn clear_bits(&mut self) {
        if let Some(bits) = self.bits.as_deref_mut() {
            for &v in &self.small {
                bits[bit_of(v) / 64] = 0;
            }
        }
    }

    /// Forgets everything offered since the last set: after a refusal,
    /// so that the next set starts clean.
    fn reset(&mut self) {
        self.clear_bits();
        self.small.clear();
        self.pending_len = 0;
        self.large.clear(LARGE_KEPT);
        self.huge.clear();
        self.error = None;
    }

    /// The refusal of an offer since the last call, if any.
    fn failed(&mut self) -> Result<(), SolveError> {
        self.flush();
        self.error.take().map_or(Ok(()), Err)
    }

    /// Room for `more` values within ±SMALL (at most as many as the
    /// bitmap holds), charged first.
    fn reserve(&mut self, more: usize) -> Result<(), SolveError> {
        let most = usize::try_from(2 * SMALL).expect("a small constant");
        let more = more.min(most - self.small.len());
        if self.small.capacity() - self.small.len() >= more {
            return Ok(());
        }
        let grown = (self.small.len() + more).max(2 * self.small.capacity());
        let bytes = ((grown - self.small.capacity()) * size_of::<i64>()) as u64;
        let charge = self.budget.charge(bytes)?;
        self.small
            .try_reserve_exact(grown - self.small.len())
            .map_err(|_| self.budget.refusal(bytes))?;
        self.charge.absorb(charge);
        Ok(())
    }

    /// The bitmap and the list of new values, when every result of a
    /// split lies within `most` in size, inside the bitmap's range. The
    /// caller has reserved room for every result (`Distinct::reserve`), so
    /// the list never grows uncharged.
    fn dense(&mut self, most: u128) -> Option<(&mut [u64; WORDS], &mut Vec<i64>)> {
        let bits = self.bits.as_deref_mut()?;
        (most < SMALL.unsigned_abs().into()).then_some((bits, &mut self.small))
    }

    /// The pairs of a split whose results all go to the bitmap
    /// ([`Distinct::dense`]), by magnitude ([`magnitude_pairs`]), where
    /// both sides are known so (every side of a split is a kept sub-hand's
    /// set, whose magnitudes are worked out once, when it is kept);
    /// `false`, with nothing offered, when one is not.
    fn by_magnitude(&mut self, same: bool, known: [Option<&[Magnitude]>; 2]) -> bool {
        let [Some(mx), Some(my)] = known else {
            return false;
        };
        let bits = self.bits.as_deref_mut().expect("dense");
        if same {
            magnitude_pairs::<true>(mx, my, bits, &mut self.small);
        } else {
            magnitude_pairs::<false>(mx, my, bits, &mut self.small);
        }
        true
    }

    #[inline(always)]
    fn add(&mut self, v: Value) {
        match i64::try_from(v) {
            Ok(v) => self.add_narrow(v),
            Err(_) => self.add_huge(v),
        }
    }

    #[inline(always)]
    fn add_narrow(&mut self, v: i64) {
        if !(-SMALL..SMALL).contains(&v) {
            return self.add_large(v);
        }
        let Some(bits) = self.bits.as_deref_mut() else {
            return self.add_large(v);
        };
        let at = bit_of(v);
        // Masked, though `at` is in range: no bounds check in the loop.
        let (word, bit) = ((at / 64) & (WORDS - 1), 1u64 << (at % 64));
        if bits[word] & bit == 0 {
            bits[word] |= bit;
            if self.small.len() == self.small.capacity()
                && let Err(e) = self.reserve(1)
            {
                self.error.get_or_insert(e);
                return;
            }
            self.small.push(v);
        }
    }

    #[inline(never)]
    fn add_large(&mut self, v: i64) {
        self.pending[self.pending_len] = v;
        self.pending_len += 1;
        if self.pending_len == PENDING {
            self.flush();
        }
    }

    /// Adds `v` to `huge`, its growth charged first; a refusal is kept
    /// for [`Distinct::failed`] instead.
    #[cold]
    fn add_huge(&mut self, v: Value) {
        match map_room(&mut self.huge, &mut self.huge_charge, &self.budget, 1) {
            Ok(()) => {
                self.huge.insert(v, ());
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
    }

    /// The distinct values offered, ascending, charged to `budget`: in 64
    /// bits when every one fits, else in full. The scratch is left empty
    /// for the next set.
    fn take_sorted(&mut self, budget: &Arc<Budget>) -> Result<(Values, Charge), SolveError> {
        if !self.huge.is_empty() {
            let (values, charge) = self.take_sorted_wide(budget)?;
            return Ok((Values::Wide(values), charge));
        }
        let n = self.len();
        let (large, negative, _sorting) = self.sort_parts(budget)?;
        let charge = budget.charge((n * size_of::<i64>()) as u64)?;
        let mut out = room(n, budget)?;
        out.extend_from_slice(&large[..negative]);
        out.append(&mut self.small);
        out.extend_from_slice(&large[negative..]);
        Ok((Values::Narrow(out), charge))
    }

    /// [`Distinct::take_sorted`] in full width, as functions take their
    /// arguments.
    fn take_sorted_wide(
        &mut self,
        budget: &Arc<Budget>,
    ) -> Result<(Vec<Value>, Charge), SolveError> {
        let n = self.len();
        let _huge_charge = budget.charge(bytes(self.huge.len()))?;
        let mut huge: Vec<Value> = room(self.huge.len(), budget)?;
        huge.extend(self.huge.drain().map(|(v, ())| v));
        huge.sort_unstable();
        let very = huge.partition_point(|&v| v < 0);
        let (large, negative, _sorting) = self.sort_parts(budget)?;
        let charge = budget.charge(bytes(n))?;
        let mut out = room(n, budget)?;
        out.extend_from_slice(&huge[..very]);
        out.extend(large[..negative].iter().map(|&v| Value::from(v)));
        out.extend(self.small.drain(..).map(Value::from));
        out.extend(large[negative..].iter().map(|&v| Value::from(v)));
        out.extend_from_slice(&huge[very..]);
        Ok((out, charge))
    }

    /// Sorts `small` in place and gives the values outside ±SMALL that fit
    /// 64 bits, sorted, with how many are negative (they come before the
    /// small ones, the others after) and the charge for the list; clears
    /// the bitmap.
    fn sort_parts(
        &mut self,
        budget: &Arc<Budget>,
    ) -> Result<(Vec<i64>, usize, Charge), SolveError> {
        self.failed()?;
        let short = self.small.len().saturating_sub(self.spare.capacity());
        if short > 0 {
            let bytes = (short * size_of::<i64>()) as u64;
            let grown = self.budget.charge(bytes)?;
            self.spare.clear();
            self.spare
                .try_reserve_exact(self.small.len())
                .map_err(|_| self.budget.refusal(bytes))?;
            self.charge.absorb(grown);
        }
        let sorting = budget.charge((self.large.len() * size_of::<i64>()) as u64)?;
        let mut large: Vec<i64> = room(self.large.len(), budget)?;
        // A set of millions of values: its table is given back, not held
        // empty through the rest of the hand (the next set regrows one).
        self.large.drain_into(&mut large, LARGE_KEPT);
        large.sort_unstable();
        self.clear_bits();
        radix_sort(&mut self.small, &mut self.spare);
        let negative = large.partition_point(|&v| v < 0);
        Ok((large, negative, sorting))
    }
}

/// Sorts values within −SMALL..SMALL: two passes of 12 bits on v + SMALL
/// (a comparison sort for short lists).
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    reason = "v + SMALL lies in 0..2^24"
)]
fn radix_sort(values: &mut Vec<i64>, spare: &mut Vec<i64>) {
    if values.len() < 256 {
        values.sort_unstable();
        return;
    }
    let digit = |v: i64, pass: usize| ((v + SMALL) as usize >> (12 * pass)) & 0xFFF;
    let mut from = std::mem::take(values);
    let mut to = std::mem::take(spare);
    to.clear();
    to.resize(from.len(), 0);
    // Both passes' counts in one read.
    let mut start = [[0usize; 4096]; 2];
    for &v in &from {
        start[0][digit(v, 0)] += 1;
        start[1][digit(v, 1)] += 1;
    }
    for (pass, start) in start.iter_mut().enumerate() {
        let mut sum = 0;
        for s in start.iter_mut() {
            (*s, sum) = (sum, sum + *s);
        }
        for &v in &from {
            let d = digit(v, pass);
            to[start[d]] = v;
            start[d] += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    (*values, *spare) = (from, to);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_by_magnitude_mark_the_values_held_both_ways() {
        let mut out = Vec::new();
        assert!(magnitudes(&[-7i64, -2, 0, 2, 3, 7, 9], &mut out));
        let marked: Vec<(u32, u32)> = out.iter().map(|m| (m.size(), m.negative())).collect();
        // 0 is its own negation.
        assert_eq!(marked, [(0, 1), (2, 1), (3, 0), (7, 1), (9, 0)]);
        // A negative value whose magnitude is not held: by sign instead,
        // wherever it falls.
        for side in [&[-5i64, 1, 2][..], &[-1, 2], &[-9, -1, 1, 3], &[-3]] {
            assert!(!magnitudes(side, &mut out), "{side:?}");
        }
        assert!(magnitudes::<i64>(&[], &mut out) && out.is_empty());
    }

    /// A side as + − × ÷ leave one: positive values, some also negative.
    fn side(seed: &mut u64, len: usize, most: i64) -> Vec<i64> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut values = Vec::new();
        for _ in 0..len {
            let v = i64::try_from(next() % most.unsigned_abs()).unwrap();
            values.push(v);
            if next() % 3 != 0 {
                values.push(-v);
            }
        }
        values.sort_unstable();
        values.dedup();
        values
    }

    /// What a split's pairs put in the bitmap, sorted.
    fn offered(pairs: impl FnOnce(&mut [u64; WORDS], &mut Vec<i64>)) -> Vec<i64> {
        let mut bits: Box<[u64; WORDS]> = vec![0u64; WORDS].into_boxed_slice().try_into().unwrap();
        let mut small = Vec::new();
        pairs(&mut bits, &mut small);
        let mut sorted = small.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), small.len(), "each value once");
        sorted
    }

    #[test]
    fn kept_sets_carry_their_magnitudes() {
        // Else every split would be taken by sign: the same values, slower.
        let solver = Solver::new(crate::Rules::default()).unwrap();
        let mut sets = solver.value_sets().unwrap();
        sets.values(Hand::from_values(&[1, 2, 3, 4, 5, 6])).unwrap();
        assert_eq!(sets.sets.len(), 62);
        assert!(sets.sets.values().all(|s| s.magnitudes.is_some()));
    }

    #[test]
    fn pairs_by_magnitude_make_what_pairs_by_sign_make() {
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        for round in 0..200usize {
            let (lx, ly) = (1 + round % 40, 1 + (round * 7) % 60);
            let x = side(&mut seed, lx, [1, 51, 101, 151, 201][round % 5]);
            let y = side(&mut seed, ly, 2000);
            let (mut mx, mut my) = (Vec::new(), Vec::new());
            assert!(magnitudes(&x, &mut mx) && magnitudes(&y, &mut my));
            let by_sign = offered(|b, s| dense_pairs::<false, i64>(&x, &y, b, s));
            let by_size = offered(|b, s| magnitude_pairs::<false>(&mx, &my, b, s));
            assert_eq!(by_sign, by_size, "{x:?} {y:?}");
            // Equal sides.
            let by_sign = offered(|b, s| dense_pairs::<true, i64>(&x, &x, b, s));
            let by_size = offered(|b, s| magnitude_pairs::<true>(&mx, &mx, b, s));
            assert_eq!(by_sign, by_size, "{x:?}");
        }
    }
}
