//! The search for chosen values only: which of a given set of values a hand
//! reaches, each with the witness its full table would give, without
//! building that table.
//!
//! With a prime ceiling the top of a hand is asked for a few values (the
//! primes, and what a function turns into one). Its sub-hands of one card
//! fewer are asked only for the values that one more card can turn into
//! those ([`Search::new`]): a small, fixed set, so their restricted tables
//! ([`Build::restricted`]) are small and shared by every hand of a sweep,
//! and the largest tables of a hand are never built. From six cards on,
//! the sub-hands of two cards fewer keep only the part of their full tables
//! that a card or a pair can turn into what is asked one level up
//! ([`TwoShort`], [`Build::two_short`]). Smaller sub-hands keep their full
//! tables. The price: operations beyond the bound are not counted (a
//! `Solution` says so, see `Solution::pruned`).
//!
//! It holds the values asked ([`Targets`], with a filter), the [`Search`]
//! of a rule set and its [`TwoShort`] cuts, the partners that invert each
//! operation, the best way found to each value asked, and the restricted
//! tables ([`Build::preimages`], [`Build::restricted`]); its tests hold the
//! levels below against what the top asks of them.

use std::sync::OnceLock;

use rustc_hash::{FxHashMap, FxHashSet};

use super::SolveError;
use super::budget::{Charge, map_bytes, map_room};
use super::table::{
    Build, How, Layer, Operand, Order, Place, Step, Table, binary_step, directions, splits,
};
use crate::arith::{BinOp, Eval, Func, Value};
use crate::expr::{Cost, Top};
use crate::hand::Hand;
use crate::pack::MAX_CARD_VALUE;
use crate::prime::is_prime;
use crate::rules::Rules;

/// A set of values a search looks for, ascending.
#[derive(Debug, Default)]
pub(crate) struct Targets {
    pub values: Vec<Value>,
    /// The least and the greatest (1 and 0 when empty).
    lo: Value,
    hi: Value,
    /// Membership: one bit per value from `lo` when the span is short,
    /// else a hash set, behind a filter of one bit per hash of a value
    /// (a value whose bit is clear is not a target, without a probe).
    bits: Vec<u64>,
    set: FxHashSet<Value>,
    filter: Vec<u64>,
}

/// The bits of a sparse set's filter: 64 KiB, in a core's fast cache.
const FILTER_BITS: u32 = 19;

/// A value's bit in a filter.
#[inline]
fn filter_bit(v: Value) -> usize {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the low 64 bits, hashed: any bits will do"
    )]
    let low = (v as u64) ^ ((v >> 64) as u64);
    usize::try_from(low.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FILTER_BITS))
        .expect("FILTER_BITS < 32")
}

/// The longest span of targets kept as bits (128 KiB).
const BITS_SPAN: u128 = 1 << 20;

impl Targets {
    fn new(mut values: Vec<Value>) -> Targets {
        values.sort_unstable();
        values.dedup();
        let (lo, hi) = match (values.first(), values.last()) {
            (Some(&lo), Some(&hi)) => (lo, hi),
            _ => (1, 0),
        };
        let (mut bits, mut set, mut filter) = (Vec::new(), FxHashSet::default(), Vec::new());
        if lo <= hi && hi.abs_diff(lo) < BITS_SPAN {
            bits = vec![0u64; (hi.abs_diff(lo) / 64 + 1) as usize];
            for &v in &values {
                let i = v.abs_diff(lo);
                bits[(i / 64) as usize] |= 1 << (i % 64);
            }
        } else {
            set = values.iter().copied().collect();
            filter = vec![0u64; 1 << (FILTER_BITS - 6)];
            for &v in &values {
                let i = filter_bit(v);
                filter[i / 64] |= 1 << (i % 64);
            }
        }
        Targets {
            values,
            lo,
            hi,
            bits,
            set,
            filter,
        }
    }

    #[inline]
    pub fn contains(&self, v: Value) -> bool {
        if v < self.lo || v > self.hi {
            return false;
        }
        if self.bits.is_empty() {
            let i = filter_bit(v);
            self.filter[i / 64] >> (i % 64) & 1 == 1 && self.set.contains(&v)
        } else {
            let i = v.abs_diff(self.lo);
            self.bits[(i / 64) as usize] >> (i % 64) & 1 == 1
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }
}

/// What a hand's top and its sub-hands of one card fewer are searched for.
#[derive(Debug)]
pub(crate) struct Search {
    /// The primes the rules allow, up to the ceiling.
    pub top: Targets,
    /// Those and every value a function turns into one: the values the
    /// top's level 0 is searched for.
    pub top_below: Targets,
    /// Every value that one card's value (with a function on it or not)
    /// turns into one of `top_below` by one operation.
    pub sub: Targets,
    /// Those and their preimages under the functions.
    pub sub_below: Targets,
    /// Every value a single card reaches, over every card.
    cards: Vec<Value>,
}

impl Search {
    /// The search for `rules` with the operations and functions of `build`,
    /// or `None` without a ceiling or with functions nested deeper than
    /// one (a witness may then stack functions the restricted tables do
    /// not follow).
    pub fn new(rules: &Rules, build: &Build<'_>, ceiling: u64) -> Option<Search> {
        let max = rules.max_prime.filter(|&m| m <= ceiling)?;
        if !build.functions.is_empty() && build.depth != 1 {
            return None;
        }
        let top = Targets::new(
            (2..=Value::from(max))
                .filter(|&p| rules.allows_prime(p) && is_prime(p))
                .collect(),
        );
        let top_below = build.preimages(&top);
        // Every value a single card reaches, over every card.
        let mut cards: Vec<Value> = Vec::new();
        for c in 1..=MAX_CARD_VALUE {
            let table = build
                .table(Hand::from_values(&[c]), |_| unreachable!("one card"))
                .ok()?;
            cards.extend(table.merged.values.iter().copied());
        }
        cards.sort_unstable();
        cards.dedup();
        let (mut sub, mut any) = (Vec::new(), false);
        // The card's value is never the whole of a target every partner
        // reaches: targets are at least 2.
        for_each_partner(build, &cards, &top_below, |_, found| match found {
            Some(found) => sub.extend_from_slice(found),
            None => any = true,
        });
        if any {
            return None;
        }
        let sub = Targets::new(sub);
        let sub_below = build.preimages(&sub);
        Some(Search {
            top,
            top_below,
            sub,
            sub_below,
            cards,
        })
    }

    /// What the sub-hands two cards short of a hand keep of their tables
    /// (from six cards on, [`TwoShort`]).
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the set would pass the budget.
    pub fn two_short(&self, build: &Build<'_>) -> Result<TwoShort, SolveError> {
        // Every value a pair of cards reaches, over every pair.
        let mut singles: FxHashMap<Hand, Table> = FxHashMap::default();
        for c in 1..=MAX_CARD_VALUE {
            let hand = Hand::from_values(&[c]);
            singles.insert(hand, build.table(hand, |_| unreachable!("one card"))?);
        }
        let mut pairs: Vec<Value> = Vec::new();
        for a in 1..=MAX_CARD_VALUE {
            for b in a..=MAX_CARD_VALUE {
                let table = build.table(Hand::from_values(&[a, b]), |s| &singles[&s])?;
                pairs.extend(table.merged.values.iter().copied());
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        // Two passes over the partners: one to count them, so that the
        // list and the set are charged before they are allocated, one to
        // list them.
        let each = |every: &mut Vec<Every>, emit: &mut dyn FnMut(&[Value])| {
            for (values, targets) in [(&self.cards, &self.sub_below), (&pairs, &self.top_below)] {
                for_each_partner(build, values, targets, |e, found| match found {
                    Some(found) => emit(found),
                    None => every.push(e),
                });
            }
        };
        let (mut count, mut every) = (0, Vec::new());
        each(&mut every, &mut |found| count += found.len());
        let bytes = map_bytes(count, size_of::<Value>())
            .saturating_add(u64::try_from(count * size_of::<Value>()).unwrap_or(u64::MAX));
        let charge = build.budget.charge(bytes)?;
        let mut sub: Vec<Value> = Vec::new();
        sub.try_reserve_exact(count)
            .map_err(|_| build.budget.refusal(bytes))?;
        every.clear();
        each(&mut every, &mut |found| sub.extend_from_slice(found));
        every.sort_unstable();
        every.dedup();
        Ok(TwoShort {
            sub: Targets::new(sub),
            every,
            _charge: charge,
        })
    }
}

/// What the sub-hands two cards short of a hand of six keep of their full
/// tables: the values that one card's value turns into one of
/// [`Search::sub_below`], or a pair's value into one of
/// [`Search::top_below`], by one operation (the splits such a sub-hand
/// meets: with a card it makes a sub-hand one card short, with a pair the
/// hand), and for an operation that makes its target with any partner
/// (1 ^ o = 1) the partners it makes it cheapest with ([`Build::two_short`]).
#[derive(Debug)]
pub(crate) struct TwoShort {
    sub: Targets,
    every: Vec<Every>,
    _charge: Charge,
}

/// `value op o = target` for every partner `o` (`o op value` when not
/// `partner_right`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Every {
    op: BinOp,
    partner_right: bool,
    value: Value,
    target: Value,
}

impl Every {
    /// Whether the partner `o` makes the target (within `bound`).
    fn makes(&self, o: Value, bound: u64) -> bool {
        let (l, r) = if self.partner_right {
            (self.value, o)
        } else {
            (o, self.value)
        };
        matches!(self.op.apply(l, r, bound), Eval::Exact(t) if t == self.target)
    }

    /// The cost of the operation with a partner made by `step`, but for
    /// what the other operand and the sign add, the same for every partner.
    fn cost(&self, step: &Step) -> Cost {
        let (o, fixed) = ((step.cost, step.top()), (Cost::default(), Top::Number));
        let (l, r) = if self.partner_right {
            (fixed, o)
        } else {
            (o, fixed)
        };
        Cost::binary(self.op, l, r, false)
    }
}

impl Build<'_> {
    /// The table of `hand` (two cards short of a hand of six) that the
    /// restricted search keeps: its full table cut down to what `two`
    /// wants ([`TwoShort`]). Each kept value keeps its step, and the kept
    /// values their order, so that a parent ranks its candidates (by cost,
    /// then by place in the full enumeration) as over the full table.
    ///
    /// # Errors
    /// As [`Build::table`]: the full table is built first.
    pub(crate) fn two_short<'t>(
        &self,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        two: &TwoShort,
    ) -> Result<Table, SolveError> {
        let full = self.table(hand, get)?;
        let layer = &full.merged;
        // The scratch of the cut: a mark per value here and in
        // `Table::keep`, and a new index per value of the lower levels.
        let values = layer.values.len() + full.levels.iter().map(|l| l.values.len()).sum::<usize>();
        let _scratch = self
            .budget
            .charge(u64::try_from(values * 6).unwrap_or(u64::MAX))?;
        let mut keep: Vec<bool> = layer.values.iter().map(|&v| two.sub.contains(v)).collect();
        // An operation that takes any partner: the partners that make its
        // target cheapest, all of them (the first in the table's order wins
        // among them). The rest of the cost is the same for every partner.
        for e in &two.every {
            let made = |i: usize| e.makes(layer.values[i], self.bound);
            let cost = |i: usize| e.cost(&layer.steps[i]);
            let least = (0..layer.values.len()).filter(|&i| made(i)).map(cost).min();
            for (i, keep) in keep.iter_mut().enumerate() {
                if Some(cost(i)) == least && made(i) {
                    *keep = true;
                }
            }
        }
        full.keep(&keep, self.budget)
    }
}

/// Gives `each` the partners of every target of `targets` for every value
/// of `values` and operation in force, `value op o` and `o op value` (+ and
/// × one way): `None` where every partner may do ([`partners`]).
fn for_each_partner(
    build: &Build<'_>,
    values: &[Value],
    targets: &Targets,
    mut each: impl FnMut(Every, Option<&[Value]>),
) {
    let mut found = Vec::new();
    for &t in &targets.values {
        for &b in values {
            for &op in build.ops {
                for swap in [false, true] {
                    if swap && op.is_commutative() {
                        continue;
                    }
                    found.clear();
                    let every = Every {
                        op,
                        partner_right: !swap,
                        value: b,
                        target: t,
                    };
                    if partners(op, swap, b, t, build.bound, &mut found) {
                        each(every, None);
                    } else {
                        each(every, Some(&found));
                    }
                }
            }
        }
    }
}

/// The partners `o` with `s op o = t` (`s_right`: `o op s = t`), pushed to
/// `out`; true when every partner may do (`out` is then not filled), as
/// for `0 × o = 0`.
fn partners(
    op: BinOp,
    s_right: bool,
    s: Value,
    t: Value,
    bound: u64,
    out: &mut Vec<Value>,
) -> bool {
    // The least e >= from with base^e = t, if any, for |base| >= 2.
    let log = |base: Value, t: Value, from: u32| -> Option<u32> {
        let mut e = from;
        loop {
            let p = base.checked_pow(e)?;
            if p == t {
                return Some(e);
            }
            if p.unsigned_abs() > t.unsigned_abs() {
                return None;
            }
            e += 1;
        }
    };
    match (op, s_right) {
        (BinOp::Add, _) => out.push(t - s),
        (BinOp::Sub, false) => out.push(s - t),
        (BinOp::Sub, true) => out.push(t + s),
        (BinOp::Mul, _) => {
            if s == 0 {
                return t == 0;
            }
            if t % s == 0 {
                out.push(t / s);
            }
        }
        // s ÷ o = t
        (BinOp::Div, false) => {
            if t == 0 {
                return s == 0;
            }
            if s % t == 0 {
                out.push(s / t);
            }
        }
        // o ÷ s = t
        (BinOp::Div, true) => {
            if s != 0
                && let Some(o) = t.checked_mul(s)
            {
                out.push(o);
            }
        }
        // s ^ o = t
        (BinOp::Pow, false) => {
            if (-1..=1).contains(&s) {
                // Powers of −1, 0 and 1 are −1, 0 and 1.
                return (-1..=1).contains(&t);
            }
            out.extend(log(s, t, 0).map(Value::from));
        }
        // o ^ s = t
        (BinOp::Pow, true) => match s {
            0 => return t == 1,
            1 => out.push(t),
            _ if s >= 2 => match u32::try_from(s) {
                Ok(n) => {
                    let r = integer_root(t.unsigned_abs(), n);
                    out.extend([r, -r]);
                }
                // Only −1, 0 and 1 have a power this high within any bound.
                Err(_) => return (-1..=1).contains(&t),
            },
            _ => {}
        },
        // root(s, o) = t: t^o = s
        (BinOp::Root, false) => {
            if (0..=1).contains(&t) {
                return s == t;
            }
            if t >= 2 {
                out.extend(log(t, s, 2).map(Value::from));
            }
        }
        // root(o, s) = t: o = t^s
        (BinOp::Root, true) => {
            // Only 0 and 1 are roots of so high an index.
            if u32::try_from(s).is_err() {
                return s >= 2 && (0..=1).contains(&t);
            }
            if t >= 0
                && let Ok(n) = u32::try_from(s)
                && n >= 2
                && let Some(o) = t.checked_pow(n)
                && o.unsigned_abs() <= u128::from(bound)
            {
                out.push(o);
            }
        }
    }
    false
}

/// The integer part of the `n`th root of `x` (n >= 2), as a value.
fn integer_root(x: u128, n: u32) -> Value {
    let (mut lo, mut hi): (u128, u128) = (0, 1 << (128 / n).clamp(1, 64));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match mid.checked_pow(n) {
            Some(p) if p <= x => lo = mid,
            _ => hi = mid,
        }
    }
    Value::try_from(lo).unwrap_or(Value::MAX)
}

/// The best way found so far to each value a search looks for, ranked by
/// the one witness order ([`Order`]).
struct Found<'b> {
    /// Where the targets span few values: for the value `lo + i`, one more
    /// than its place in `entries` (0 for none yet); else empty.
    index: Vec<u32>,
    lo: Value,
    entries: Vec<(Value, (Order, Step))>,
    /// Where they span many: a map.
    map: FxHashMap<Value, (Order, Step)>,
    charge: Charge,
    build: &'b Build<'b>,
}

/// The widest span of targets a search indexes directly ([`Found`]).
const DENSE_SPAN: u128 = 1 << 14;

impl<'b> Found<'b> {
    /// An empty search for `targets`: indexed directly where they span at
    /// most [`DENSE_SPAN`] values, its room charged to the budget first.
    fn new(build: &'b Build<'b>, targets: &Targets) -> Result<Found<'b>, SolveError> {
        let mut found = Found {
            index: Vec::new(),
            lo: targets.lo,
            entries: Vec::new(),
            map: FxHashMap::default(),
            charge: Charge::default(),
            build,
        };
        let span = targets.hi.abs_diff(targets.lo) + 1;
        if targets.lo <= targets.hi && span <= DENSE_SPAN {
            let span = usize::try_from(span).expect("at most DENSE_SPAN");
            let n = targets.len();
            let bytes = (span * size_of::<u32>() + n * size_of::<(Value, (Order, Step))>()) as u64;
            found.charge = build.budget.charge(bytes)?;
            found
                .index
                .try_reserve_exact(span)
                .and_then(|()| found.entries.try_reserve_exact(n))
                .map_err(|_| build.budget.refusal(bytes))?;
            found.index.resize(span, 0);
        }
        Ok(found)
    }

    /// The way held for `v`, a target.
    #[inline]
    fn get(&self, v: Value) -> Option<&(Order, Step)> {
        if self.index.is_empty() {
            self.map.get(&v)
        } else {
            let e = self.index[self.at(v)].checked_sub(1)?;
            Some(&self.entries[e as usize].1)
        }
    }

    /// `v`'s slot in `index`.
    #[inline]
    fn at(&self, v: Value) -> usize {
        usize::try_from(v - self.lo).expect("a target lies in lo..=hi")
    }

    fn offer(&mut self, v: Value, order: Order, step: Step) -> Result<(), SolveError> {
        if self.index.is_empty() {
            map_room(&mut self.map, &mut self.charge, self.build.budget, 1)?;
            let slot = self.map.entry(v).or_insert((order, step));
            if order < slot.0 {
                *slot = (order, step);
            }
            return Ok(());
        }
        let at = self.at(v);
        match self.index[at].checked_sub(1) {
            Some(e) => {
                let slot = &mut self.entries[e as usize].1;
                if order < slot.0 {
                    *slot = (order, step);
                }
            }
            None => {
                // Room for every target was reserved: no reallocation.
                self.entries.push((v, (order, step)));
                self.index[at] =
                    u32::try_from(self.entries.len()).expect("at most DENSE_SPAN targets");
            }
        }
        Ok(())
    }

    /// Every value found with its step, ascending.
    fn sorted(&self) -> Vec<(Value, Step)> {
        if self.index.is_empty() {
            let mut all: Vec<(Value, Step)> =
                self.map.iter().map(|(&v, &(_, step))| (v, step)).collect();
            all.sort_unstable_by_key(|&(v, _)| v);
            all
        } else {
            self.index
                .iter()
                .filter_map(|&e| e.checked_sub(1))
                .map(|e| {
                    let (v, (_, step)) = self.entries[e as usize];
                    (v, step)
                })
                .collect()
        }
    }
}

impl Build<'_> {
    /// `wanted` and every value a function in force turns into one of them.
    pub(crate) fn preimages(&self, wanted: &Targets) -> Targets {
        let mut out = wanted.values.clone();
        // n! for every n whose factorial is not pruned (n <= 20).
        let factorials: Vec<(Value, Value)> = (0..=20)
            .filter_map(|n| match Func::Fact.apply(n, self.bound) {
                Eval::Exact(v) => Some((n, v)),
                _ => None,
            })
            .collect();
        for &t in &wanted.values {
            if t < 0 {
                continue;
            }
            for &f in self.functions {
                match f {
                    Func::Tri => {
                        // T(u) = t: u = (√(8t + 1) − 1) / 2.
                        if let Some(d) = t.checked_mul(8).map(|e| e + 1) {
                            let u = (integer_root(d.unsigned_abs(), 2) - 1) / 2;
                            out.push(u);
                        }
                    }
                    Func::Fact => {
                        out.extend(factorials.iter().filter(|&&(_, v)| v == t).map(|&(n, _)| n))
                    }
                    Func::Sqrt => out.extend(t.checked_mul(t)),
                }
            }
        }
        // Only true preimages, within the bound.
        out.retain(|&u| {
            wanted.contains(u)
                || (u.unsigned_abs() <= u128::from(self.bound)
                    && self.functions.iter().any(
                        |&f| matches!(f.apply(u, self.bound), Eval::Exact(w) if wanted.contains(w)),
                    ))
        });
        Targets::new(out)
    }

    /// The values of `wanted` that `hand` reaches, each with the step its
    /// full table holds, in a table of those values alone; `below` is
    /// `wanted` with its preimages ([`Build::preimages`]), and the table's
    /// one level holds the values of `below` the hand reaches before a
    /// function is applied (what a witness's function is applied to).
    /// `get` gives the table of every sub-hand; the sub-hands' tables need
    /// only hold the values that can make one of `below` (all of them,
    /// when they are full tables). Nothing beyond the bound is counted.
    pub(crate) fn restricted<'t>(
        &self,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        wanted: &Targets,
        below: &Targets,
    ) -> Result<Table, SolveError> {
        let mut found = Found::new(self, below)?;
        let values = hand.values();
        if let [card] = values[..] {
            let step = Step {
                cost: Cost::default(),
                how: How::Card,
            };
            if below.contains(card.into()) {
                found.offer(card.into(), Order::new(&step, Place::LEVEL0), step)?;
            }
        } else {
            if self.juxtapose {
                let (joins, _) = self.joins(&values);
                for (n, (v, step)) in joins.into_iter().enumerate() {
                    if below.contains(v) {
                        found.offer(v, Order::new(&step, Place::join(n)), step)?;
                    }
                }
            }
            for (k, split) in splits(hand).into_iter().enumerate() {
                let (tx, ty) = (&get(split.x).merged, &get(split.y).merged);
                let side = |sub: u8, layer| Side { sub, layer };
                let at = At {
                    k: k + 1,
                    x: side(split.xs, tx),
                    y: side(split.ys, ty),
                    targets: below,
                };
                self.search_split(&at, split.same, &mut found)?;
            }
        }
        // Level 0, ascending: what level 1 applies functions to.
        let level0 = found.sorted();
        drop(found);
        // The best way to each wanted value, over both levels.
        let mut best = Found::new(self, wanted)?;
        for (i, &(v, step)) in level0.iter().enumerate() {
            // Level 0 wins ties with level 1, as in the full table's merge.
            if wanted.contains(v) {
                best.offer(v, Order::new(&step, Place::LEVEL0), step)?;
            }
            for (fi, &f) in self.functions.iter().enumerate() {
                if let Eval::Exact(w) = f.apply(v, self.bound)
                    && wanted.contains(w)
                {
                    let made = Step {
                        cost: Cost::unary(f, (step.cost, step.top())),
                        how: How::Unary {
                            f,
                            level: 1,
                            arg: u32::try_from(i).expect("a table holds at most MAX_TABLE_VALUES"),
                        },
                    };
                    best.offer(w, Order::new(&made, Place::unary(1, v, fi)), made)?;
                }
            }
        }
        let merged = best.sorted();
        drop(best);
        let (mut layer, mut charge) = Layer::with_capacity(merged.len(), self.budget)?;
        layer.values.extend(merged.iter().map(|&(v, _)| v));
        layer.steps.extend(merged.iter().map(|&(_, s)| s));
        let merged = layer;
        let mut levels = Vec::new();
        if !self.functions.is_empty() {
            let (mut layer, c) = Layer::with_capacity(level0.len(), self.budget)?;
            layer.values.extend(level0.iter().map(|&(v, _)| v));
            layer.steps.extend(level0.iter().map(|&(_, s)| s));
            charge.absorb(c);
            levels.push(layer);
        }
        Ok(Table {
            merged,
            levels,
            pruned: 0,
            charge,
            narrow: OnceLock::new(),
        })
    }

    /// Finds, on one split (`k` from 1), every pair of values of the two
    /// sides and operation that makes a value of `targets`, offering each
    /// at its place in the full table's enumeration: by trying every pair
    /// or, when it costs less, by walking the shorter side and looking up
    /// in the longer one the partners each target needs.
    fn search_split(
        &self,
        at: &At<'_>,
        same: bool,
        found: &mut Found<'_>,
    ) -> Result<(), SolveError> {
        let (nx, ny) = (at.x.layer.values.len(), at.y.layer.values.len());
        let (short, long) = (nx.min(ny), nx.max(ny));
        let steps = (usize::BITS - long.leading_zeros()) as usize + 1;
        // A walk looks up, for each value of the shorter side and each
        // operation, a range of partners (or each target's partner when
        // the range holds more): a few binary searches per value.
        let walk_cost = short.saturating_mul(steps).saturating_mul(4);
        if same || nx.saturating_mul(ny) <= walk_cost {
            self.search_pairs(at, same, found)
        } else {
            self.search_walk(at, found)
        }
    }

    fn search_pairs(
        &self,
        at: &At<'_>,
        same: bool,
        found: &mut Found<'_>,
    ) -> Result<(), SolveError> {
        let (x, y, targets) = (&at.x, &at.y, at.targets);
        let (lo, hi) = (targets.lo, targets.hi);
        if lo > hi {
            return Ok(());
        }
        // The sizes a quotient in lo..=hi can have: from `least` (0 when
        // the span holds 0) to `most`.
        let most = lo.unsigned_abs().max(hi.unsigned_abs());
        let least = if lo <= 0 && hi >= 0 {
            0
        } else {
            lo.unsigned_abs().min(hi.unsigned_abs())
        };
        let mut offer =
            |i: usize, j: usize, op: BinOp, swap: bool| self.try_pair(at, (i, j), op, swap, found);
        // Whether `l ÷ r` can be exact and in range, by sizes alone.
        let may_divide = |l: Value, r: Value| {
            let (l, r) = (l.unsigned_abs(), r.unsigned_abs());
            r != 0 && l >= r.saturating_mul(least) && l <= r.saturating_mul(most)
        };
        let has = |op| self.ops.contains(&op);
        let (add, sub, mul, div) = (
            has(BinOp::Add),
            has(BinOp::Sub),
            has(BinOp::Mul),
            has(BinOp::Div),
        );
        let others: Vec<BinOp> = self
            .ops
            .iter()
            .copied()
            .filter(|op| matches!(op, BinOp::Pow | BinOp::Root))
            .collect();
        let near = |v: Value| lo <= v && v <= hi && targets.contains(v);
        for (i, &a) in x.layer.values.iter().enumerate() {
            for (j, &b) in y.layer.values.iter().enumerate() {
                // + and × once per pair of equal sides; y op x never then.
                let once = !same || j >= i;
                if add && once && near(a + b) {
                    offer(i, j, BinOp::Add, false)?;
                }
                if sub && near(a - b) {
                    offer(i, j, BinOp::Sub, false)?;
                }
                if sub && !same && near(b - a) {
                    offer(i, j, BinOp::Sub, true)?;
                }
                if mul && once && a.checked_mul(b).is_some_and(near) {
                    offer(i, j, BinOp::Mul, false)?;
                }
                if div && may_divide(a, b) && a % b == 0 && near(a / b) {
                    offer(i, j, BinOp::Div, false)?;
                }
                if div && !same && may_divide(b, a) && b % a == 0 && near(b / a) {
                    offer(i, j, BinOp::Div, true)?;
                }
                for &op in &others {
                    let [forward, back] = directions(op, same, i, j);
                    for (swap, go) in [(false, forward), (true, back)] {
                        let (l, r) = if swap { (b, a) } else { (a, b) };
                        if go && matches!(op.apply(l, r, self.bound), Eval::Exact(v) if near(v)) {
                            offer(i, j, op, swap)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// For splits of two different sub-hands.
    fn search_walk(&self, at: &At<'_>, found: &mut Found<'_>) -> Result<(), SolveError> {
        let (x, y, targets) = (&at.x, &at.y, at.targets);
        let walk_x = x.layer.values.len() <= y.layer.values.len();
        let (walked, other) = if walk_x { (x, y) } else { (y, x) };
        let mut partner_values: Vec<Value> = Vec::new();
        let mut indexes: Vec<usize> = Vec::new();
        for (w, &s) in walked.layer.values.iter().enumerate() {
            for &op in self.ops {
                // swap: y op x; + and × are tried one way only.
                for swap in [false, true] {
                    if swap && op.is_commutative() {
                        continue;
                    }
                    // Whether the walked value stands right of `op`.
                    let s_right = walk_x == swap;
                    indexes.clear();
                    // For + − ×, the partners of every target lie in one
                    // range of the other side: scanned when it holds fewer
                    // values than there are targets to look up.
                    if let Some((plo, phi)) = partner_range(op, s_right, s, targets.lo, targets.hi)
                    {
                        let values = &other.layer.values;
                        let from = values.partition_point(|&v| v < plo);
                        let to = values.partition_point(|&v| v <= phi);
                        if to.saturating_sub(from) <= targets.len() {
                            indexes.extend(from..to.max(from));
                            self.offer_walked(at, (op, swap), walk_x, w, &indexes, found)?;
                            continue;
                        }
                    }
                    // More targets than partners: every partner is tried.
                    if targets.len() >= other.layer.values.len() {
                        indexes.extend(0..other.layer.values.len());
                        self.offer_walked(at, (op, swap), walk_x, w, &indexes, found)?;
                        continue;
                    }
                    for &t in &targets.values {
                        partner_values.clear();
                        if partners(op, s_right, s, t, self.bound, &mut partner_values) {
                            indexes.clear();
                            indexes.extend(0..other.layer.values.len());
                            break;
                        }
                        indexes.extend(
                            partner_values
                                .iter()
                                .filter_map(|&p| other.layer.values.binary_search(&p).ok()),
                        );
                    }
                    indexes.sort_unstable();
                    indexes.dedup();
                    self.offer_walked(at, (op, swap), walk_x, w, &indexes, found)?;
                }
            }
        }
        Ok(())
    }

    /// Offers `x op y` (`swap`: `y op x`) for the walked value at `w` and
    /// each partner at `partners` that makes a target.
    fn offer_walked(
        &self,
        at: &At<'_>,
        (op, swap): (BinOp, bool),
        walk_x: bool,
        w: usize,
        partners: &[usize],
        found: &mut Found<'_>,
    ) -> Result<(), SolveError> {
        for &o in partners {
            let ij = if walk_x { (w, o) } else { (o, w) };
            self.try_pair(at, ij, op, swap, found)?;
        }
        Ok(())
    }

    /// Offers `x op y` (`swap`: `y op x`) for the values at `(i, j)` of
    /// split `k` if it makes a target: the one place every candidate of
    /// the restricted search is checked and ranked.
    fn try_pair(
        &self,
        at: &At<'_>,
        (i, j): (usize, usize),
        op: BinOp,
        swap: bool,
        found: &mut Found<'_>,
    ) -> Result<(), SolveError> {
        let (k, x, y, targets) = (at.k, &at.x, &at.y, at.targets);
        let (a, b) = (x.layer.values[i], y.layer.values[j]);
        let (l, r) = if swap { (b, a) } else { (a, b) };
        let made = match small(op, l, r) {
            Some(made) => made.filter(|v| v.unsigned_abs() <= u128::from(self.bound)),
            None => match op.apply(l, r, self.bound) {
                Eval::Exact(v) => Some(v),
                Eval::Pruned | Eval::Undefined => None,
            },
        };
        if let Some(v) = made
            && targets.contains(v)
        {
            let place = Place::pair(k, i, j, op, swap);
            // Most candidates lose to the way held on a lower bound of
            // their cost, before the operands are read.
            if let Some((held, _)) = found.get(v) {
                let (kx, ky) = (x.layer.steps[i].cost.key(), y.layer.steps[j].cost.key());
                let floor = Cost::at_least_keys(op, kx, ky);
                let class = Top::of_binary(op).bracket_class();
                if (held.rank.0.key(), held.rank.1, held.place) < (floor, class, place) {
                    return Ok(());
                }
            }
            let (xo, yo) = (x.at(i), y.at(j));
            let (l, r) = if swap { (&yo, &xo) } else { (&xo, &yo) };
            let step = binary_step(op, l, r, v);
            found.offer(v, Order::new(&step, place), step)?;
        }
        Ok(())
    }
}

/// `l op r` for + − × ÷ on operands below 2^31 in size, in 64-bit
/// arithmetic (no overflow is possible): `Some(None)` where a quotient is
/// not whole or divides by 0, `None` for other operations or operands,
/// which [`BinOp::apply`] takes. The bound is the caller's to check.
#[inline]
fn small(op: BinOp, l: Value, r: Value) -> Option<Option<Value>> {
    const LIMIT: u128 = 1 << 31;
    if l.unsigned_abs() >= LIMIT || r.unsigned_abs() >= LIMIT {
        return None;
    }
    #[allow(
        clippy::cast_possible_truncation,
        reason = "both checked to lie below 2^31 in size"
    )]
    let (l, r) = (l as i64, r as i64);
    let v = match op {
        BinOp::Add => l + r,
        BinOp::Sub => l - r,
        BinOp::Mul => l * r,
        BinOp::Div => {
            if r == 0 || l % r != 0 {
                return Some(None);
            }
            l / r
        }
        BinOp::Pow | BinOp::Root => return None,
    };
    Some(Some(v.into()))
}

/// The range of partners `o` with `s op o` (`s_right`: `o op s`) in
/// `lo..=hi`, for + − × (× with `s` not 0); `None` for the others.
fn partner_range(
    op: BinOp,
    s_right: bool,
    s: Value,
    lo: Value,
    hi: Value,
) -> Option<(Value, Value)> {
    match (op, s_right) {
        (BinOp::Add, _) => Some((lo - s, hi - s)),
        // s − o = t: o = s − t
        (BinOp::Sub, false) => Some((s - hi, s - lo)),
        // o − s = t: o = t + s
        (BinOp::Sub, true) => Some((lo + s, hi + s)),
        // o = t / s over t in lo..=hi: the whole quotients in that span.
        (BinOp::Mul, _) if s > 0 => Some((ceil_div(lo, s), hi.div_euclid(s))),
        (BinOp::Mul, _) if s < 0 => Some((ceil_div(hi, s), floor_div(lo, s))),
        // s ÷ o = t >= 1: o has the sign of s and |s| / hi <= |o| <= |s| / lo.
        (BinOp::Div, false) if lo >= 1 => {
            let (near, far) = (ceil_div(s.abs(), hi), s.abs() / lo);
            Some(if s >= 0 { (near, far) } else { (-far, -near) })
        }
        // s ÷ o = t with t not 0 (s is not): |o| <= |s|. A wider range
        // than the partners, which each pair's own test narrows.
        (BinOp::Div, false) if s != 0 => Some((-s.abs(), s.abs())),
        // o ÷ s = t: o = t s.
        (BinOp::Div, true) if s > 0 => Some((lo.checked_mul(s)?, hi.checked_mul(s)?)),
        (BinOp::Div, true) if s < 0 => Some((hi.checked_mul(s)?, lo.checked_mul(s)?)),
        _ => None,
    }
}

/// ⌊a / b⌋ for b != 0.
fn floor_div(a: Value, b: Value) -> Value {
    let (q, r) = (a / b, a % b);
    if r != 0 && ((r < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// ⌈a / b⌉ for b != 0.
fn ceil_div(a: Value, b: Value) -> Value {
    -floor_div(-a, b)
}

/// One split searched for `targets`: its number `k` (from 1) and its sides.
struct At<'a> {
    k: usize,
    x: Side<'a>,
    y: Side<'a>,
    targets: &'a Targets,
}

/// One side of a split: which sub-hand, and its merged layer.
struct Side<'a> {
    sub: u8,
    layer: &'a Layer,
}

impl Side<'_> {
    fn at(&self, i: usize) -> Operand {
        Operand::at(self.sub, self.layer, i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_invert_every_operation() {
        let bound = u64::MAX;
        let values: Vec<Value> = (-30..=30).chain([64, 81, 100, 125, 243, 1024]).collect();
        let mut out = Vec::new();
        for op in BinOp::ALL {
            for &s in &values {
                for &o in &values {
                    for s_right in [false, true] {
                        let (l, r) = if s_right { (o, s) } else { (s, o) };
                        let Eval::Exact(t) = op.apply(l, r, bound) else {
                            continue;
                        };
                        out.clear();
                        let all = partners(op, s_right, s, t, bound, &mut out);
                        assert!(
                            all || out.contains(&o),
                            "{op:?} s={s} o={o} right={s_right} t={t}: {out:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every partner that puts `s op o` in `lo..=hi` lies in the range.
    /// The 64-bit path of `try_pair` against `BinOp::apply` (its bound
    /// aside, which the caller checks), on both sides of its limit.
    #[test]
    fn small_operations_are_the_general_ones() {
        let edge = (1i128 << 31) - 1;
        let values: Vec<Value> = (-40..=40)
            .chain([edge, -edge, edge + 1, -edge - 1, 1 << 40, 97 * 13])
            .collect();
        for op in BinOp::ALL {
            for &l in &values {
                for &r in &values {
                    let general = match op.apply(l, r, u64::MAX) {
                        Eval::Exact(v) => Some(v),
                        _ => None,
                    };
                    match small(op, l, r) {
                        Some(made) => {
                            assert!(l.abs() <= edge && r.abs() <= edge);
                            assert_eq!(made, general, "{l} {op:?} {r}");
                        }
                        None => assert!(
                            matches!(op, BinOp::Pow | BinOp::Root)
                                || l.abs() > edge
                                || r.abs() > edge,
                            "{l} {op:?} {r}"
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn partner_ranges_hold_every_partner() {
        let values: Vec<Value> = (-60..=60).chain([97, 200, 1000, -1000]).collect();
        for (lo, hi) in [(2, 97), (-5, 5), (1, 1), (3, 3), (-40, -7)] {
            for op in BinOp::ALL {
                for &s in &values {
                    for s_right in [false, true] {
                        let Some((plo, phi)) = partner_range(op, s_right, s, lo, hi) else {
                            continue;
                        };
                        for &o in &values {
                            let (l, r) = if s_right { (o, s) } else { (s, o) };
                            if let Eval::Exact(t) = op.apply(l, r, u64::MAX)
                                && (lo..=hi).contains(&t)
                            {
                                assert!(
                                    (plo..=phi).contains(&o),
                                    "{op:?} s={s} o={o} right={s_right}: {t} in {lo}..={hi}, \
                                     range {plo}..={phi}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Exponents and root indexes beyond 32 bits: only −1, 0 and 1 are
    /// reached, by every partner that may be one of them.
    #[test]
    fn huge_exponents_leave_every_small_partner() {
        let huge: Value = 1 << 40;
        let mut out = Vec::new();
        assert!(partners(BinOp::Pow, true, huge, 1, u64::MAX, &mut out));
        assert!(partners(BinOp::Pow, true, huge, 0, u64::MAX, &mut out));
        assert!(!partners(BinOp::Pow, true, huge, 5, u64::MAX, &mut out));
        assert!(partners(BinOp::Root, true, huge, 1, u64::MAX, &mut out));
        assert!(!partners(BinOp::Root, true, huge, 7, u64::MAX, &mut out));
        assert!(out.is_empty());
    }

    /// The full tables of `hand` and its sub-hands under `build`.
    fn full_tables(build: &Build<'_>, hand: Hand) -> FxHashMap<Hand, Table> {
        let mut subs = hand.proper_sub_hands();
        subs.push(hand);
        subs.sort_by_key(|h| h.len());
        let mut tables: FxHashMap<Hand, Table> = FxHashMap::default();
        for h in subs {
            let table = build.table(h, |s| &tables[&s]).unwrap();
            tables.insert(h, table);
        }
        tables
    }

    /// A four-card table cut for six-card hands ([`Build::two_short`]) keeps
    /// every value of its full table that is wanted, with its step, and
    /// for each operation that takes any partner (1 ^ o = 1, root(1, o) =
    /// 1 under powers) the partner a parent would choose over the full
    /// table: the cheapest, the first in the table's order on a tie.
    #[test]
    fn cut_tables_keep_what_a_parent_can_choose() {
        use crate::rules::{Faces, Functions};
        let rules = Rules {
            faces: Faces::Rank,
            powers: true,
            juxtapose: true,
            functions: Functions::ALL,
            ..Rules::default()
        };
        let solver = crate::engine::Solver::new(rules).unwrap();
        let build = solver.build();
        let search = Search::new(&rules, &build, 97).unwrap();
        let two = search.two_short(&build).unwrap();
        assert!(!two.every.is_empty());
        let mut chosen_some = 0;
        for values in [[1, 1, 1, 1], [1, 2, 3, 4], [2, 6, 9, 13], [7, 7, 12, 13]] {
            let hand = Hand::from_values(&values);
            let tables = full_tables(&build, hand);
            let full = &tables[&hand];
            let cut = build.two_short(hand, |s| &tables[&s], &two).unwrap();
            assert!(cut.merged.values.len() < full.merged.values.len());
            for (i, &v) in full.merged.values.iter().enumerate() {
                match cut.merged.find(v) {
                    Some(j) => assert_eq!(cut.merged.steps[j].cost, full.merged.steps[i].cost),
                    None => assert!(!two.sub.contains(v), "{hand}: {v} is wanted"),
                }
            }
            // What a parent chooses for each operation that takes any
            // partner: the same value over either table.
            let choice = |layer: &Layer, e: &Every| {
                (0..layer.values.len())
                    .filter(|&i| e.makes(layer.values[i], build.bound))
                    .min_by_key(|&i| (e.cost(&layer.steps[i]), i))
                    .map(|i| layer.values[i])
            };
            // The same when nothing else is wanted, so that what a parent
            // chooses is not kept for being wanted anyway.
            let alone = TwoShort {
                sub: Targets::new(Vec::new()),
                every: two.every.clone(),
                _charge: Charge::default(),
            };
            let bare = build.two_short(hand, |s| &tables[&s], &alone).unwrap();
            for e in &two.every {
                let chosen = choice(&full.merged, e);
                chosen_some += usize::from(chosen.is_some());
                assert_eq!(choice(&cut.merged, e), chosen, "{hand}: {e:?}");
                assert_eq!(choice(&bare.merged, e), chosen, "{hand}: {e:?} alone");
            }
        }
        assert!(chosen_some > 0);
    }

    /// Membership as a plain set has it, for targets within a short span
    /// (bits) and spread out (a filter, then a set).
    #[test]
    fn targets_hold_exactly_their_values() {
        let spread: Vec<Value> = (0..5_000i128).map(|k| k * k * k * 7_919 - 3).collect();
        for values in [(-300..300).step_by(7).collect::<Vec<Value>>(), spread] {
            let targets = Targets::new(values.clone());
            let plain: FxHashSet<Value> = values.iter().copied().collect();
            let probes = values
                .iter()
                .flat_map(|&v| [v - 1, v, v + 1, -v, v * 2])
                .chain([Value::MIN, Value::MAX, 0]);
            for v in probes {
                assert_eq!(targets.contains(v), plain.contains(&v), "{v}");
            }
        }
    }

    #[test]
    fn integer_roots() {
        assert_eq!(integer_root(80, 2), 8);
        assert_eq!(integer_root(81, 2), 9);
        assert_eq!(integer_root(1 << 60, 3), 1 << 20);
        assert_eq!(integer_root(0, 5), 0);
        assert_eq!(integer_root(u128::MAX, 2), Value::from(u64::MAX));
    }
}
