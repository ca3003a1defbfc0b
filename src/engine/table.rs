//! One sub-hand's table: every value it reaches, each with the simplest way
//! to make it, built from the tables of its smaller sub-hands.

use std::collections::hash_map::Entry;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::SolveError;
use super::budget::{Budget, Charge, map_room};
use crate::arith::{BinOp, Eval, Func, Value, juxtapose};
use crate::expr::{Cost, Top};
use crate::hand::Hand;

/// How a value was made, pointing into the tables it was made from, so a
/// witness is rebuilt on demand instead of carried around as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum How {
    /// The hand's single card.
    Card,
    /// All the hand's cards side by side; card i is in bits 4i..4i+4.
    Join { order: u32 },
    /// `left op right`: `left` and `right` index `hand.proper_sub_hands()`,
    /// `li` and `ri` their merged layers.
    Binary {
        op: BinOp,
        left: u8,
        right: u8,
        li: u32,
        ri: u32,
    },
    /// `f(arg)`, `arg` indexing this table's layer `level - 1`.
    Unary { f: Func, level: u8, arg: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub cost: Cost,
    pub how: How,
}

impl Step {
    pub fn top(&self) -> Top {
        match self.how {
            How::Card | How::Join { .. } => Top::Number,
            How::Binary { op, .. } => Top::of_binary(op),
            How::Unary { f, .. } => Top::of_unary(f),
        }
    }

    /// How good this way to a value is, the one definition every table and
    /// search uses: the cheaper cost first; at equal cost the lower
    /// [`Top::bracket_class`], which no parent brackets where it would not
    /// bracket the other, so that no witness above carries a pair of
    /// parentheses it could do without. Still equal, the first way in the
    /// enumeration order (lower function levels first) stays.
    pub fn rank(&self) -> (Cost, u8) {
        (self.cost, self.top().bracket_class())
    }
}

/// The witness order, the one definition every table and search shares:
/// of two ways to a value the better has the lower rank ([`Step::rank`]:
/// cost, then bracket class), and on equal rank the earlier [`Place`] in
/// the full table's enumeration.
///
/// The full table is offered its candidates in place order (juxtapositions,
/// then each split's pairs as [`directions`] lists them, then function
/// level by level), so there the first of equal rank stays ([`Best`],
/// [`merge`]); the searches at the top find candidates out of order and
/// compare whole `Order`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Order {
    pub rank: (Cost, u8),
    pub place: Place,
}

impl Order {
    pub fn new(step: &Step, place: Place) -> Order {
        Order {
            rank: step.rank(),
            place,
        }
    }
}

/// Where a way to a value comes in the full table's enumeration, packed so
/// that places compare as the enumeration meets them: the function level
/// first (a value made without a function on top before one made with);
/// at level 0 the juxtapositions (split 0, by permutation), then the
/// splits in [`splits`] order (numbered from 1), in each the pairs by the
/// index of the larger side's value, then the smaller side's (both
/// ascending by value), then the operator (+ − × ÷ ^ root), `x op y` before
/// `y op x`; at a function level the argument ascending, then the
/// function's place in the rules' order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Place(u128);

impl Place {
    /// A place at level 0, for the one way to a value a search keeps from
    /// level 0 against ways from function levels.
    pub const LEVEL0: Place = Place(0);

    /// The `n`th juxtaposition.
    pub fn join(n: usize) -> Place {
        Place(n as u128)
    }

    /// `x op y` (`swap`: `y op x`) at indexes `i`, `j` of split `k` (from 1).
    pub fn pair(k: usize, i: usize, j: usize, op: BinOp, swap: bool) -> Place {
        debug_assert!(k < 1 << 16 && i < 1 << 32 && j < 1 << 32);
        Place(
            (k as u128) << 80
                | (i as u128) << 48
                | (j as u128) << 16
                | (op as u128) << 1
                | u128::from(swap),
        )
    }

    /// `f(arg)` at function level `level` (from 1), `f` the `fi`th
    /// function in force; `arg` is not negative (no function takes one).
    pub fn unary(level: u8, arg: Value, fi: usize) -> Place {
        let arg = u128::try_from(arg).expect("functions take no negative argument");
        debug_assert!(arg < 1 << 64 && fi < 1 << 8);
        Place(u128::from(level) << 120 | arg << 8 | fi as u128)
    }
}

/// Which of `x op y` and `y op x` a split tries for the values at `i` and
/// `j` of its two sides, in that order: both for − ÷ ^ root, `x op y` only
/// for + and ×; with equal sides, + and × only once per unordered pair
/// (j ≥ i) and `y op x` never. With the loop order (i, then j, then the
/// operators in order, then these two) it is the enumeration of a split.
#[inline]
pub(crate) fn directions(op: BinOp, same: bool, i: usize, j: usize) -> [bool; 2] {
    if op.is_commutative() {
        [!same || j >= i, false]
    } else {
        [true, !same]
    }
}

/// Values ascending, each with its step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layer {
    pub values: Vec<Value>,
    pub steps: Vec<Step>,
}

impl Layer {
    pub fn find(&self, v: Value) -> Option<usize> {
        self.values.binary_search(&v).ok()
    }

    /// Bytes of a layer of `n` values.
    pub(super) fn bytes(n: usize) -> u64 {
        (n * (size_of::<Value>() + size_of::<Step>())) as u64
    }

    /// An empty layer with room for `n` values, charged to `budget` first.
    pub(super) fn with_capacity(
        n: usize,
        budget: &Arc<Budget>,
    ) -> Result<(Layer, Charge), SolveError> {
        let bytes = Layer::bytes(n);
        let charge = budget.charge(bytes)?;
        let mut layer = Layer::default();
        layer
            .values
            .try_reserve_exact(n)
            .and_then(|()| layer.steps.try_reserve_exact(n))
            .map_err(|_| budget.refusal(bytes))?;
        Ok((layer, charge))
    }

    /// The map's values sorted, each with its step; the new layer is
    /// charged to `budget` before it is allocated.
    pub(super) fn from_map<T: Copy>(
        map: &FxHashMap<Value, T>,
        step: impl Fn(T) -> Step,
        budget: &Arc<Budget>,
    ) -> Result<(Layer, Charge), SolveError> {
        let (mut layer, charge) = Layer::with_capacity(map.len(), budget)?;
        layer.values.extend(map.keys().copied());
        layer.values.sort_unstable();
        layer
            .steps
            .extend(layer.values.iter().map(|v| step(map[v])));
        Ok((layer, charge))
    }
}

/// A sub-hand's table.
#[derive(Debug, Default)]
pub struct Table {
    /// The best step for each value over all function levels: what parents use.
    pub(crate) merged: Layer,
    /// With functions on, layer j holds the values whose step ends in exactly
    /// j nested functions, for j below the deepest level reached (which no
    /// witness takes an argument from); empty otherwise (merged is layer 0).
    pub(crate) levels: Vec<Layer>,
    /// Operations at this sub-hand whose result was beyond the bound.
    pub(crate) pruned: u64,
    /// The memory the layers hold, given back to the budget on drop.
    #[allow(dead_code, reason = "held for its Drop, which gives the bytes back")]
    pub(crate) charge: Charge,
    /// The merged layer as the targeted search reads it, worked out the
    /// first time one meets this table and kept while the budget has room
    /// ([`Narrow`]).
    pub(crate) narrow: OnceLock<Arc<Narrow>>,
}

impl Table {
    /// This table with only the values of its merged layer at the indexes
    /// `keep` marks, each with its step, and of the lower levels only what
    /// their steps take an argument from; charged to `budget`.
    pub(crate) fn keep(&self, keep: &[bool], budget: &Arc<Budget>) -> Result<Table, SolveError> {
        let kept = |layer: &Layer, marks: &[bool]| -> Result<(Layer, Charge), SolveError> {
            let n = marks.iter().filter(|&&k| k).count();
            let (mut out, charge) = Layer::with_capacity(n, budget)?;
            for (i, _) in marks.iter().enumerate().filter(|&(_, &k)| k) {
                out.values.push(layer.values[i]);
                out.steps.push(layer.steps[i]);
            }
            Ok((out, charge))
        };
        let (mut merged, mut charge) = kept(&self.merged, keep)?;
        // Level by level down: the arguments the kept steps take, at
        // their new indexes.
        let mut levels: Vec<Layer> = Vec::with_capacity(self.levels.len());
        let mut marks_of: Vec<Vec<bool>> = self
            .levels
            .iter()
            .map(|l| vec![false; l.values.len()])
            .collect();
        let mark = |steps: &[Step], marks_of: &mut Vec<Vec<bool>>| {
            for step in steps {
                if let How::Unary { level, arg, .. } = step.how {
                    marks_of[usize::from(level) - 1][arg as usize] = true;
                }
            }
        };
        mark(&merged.steps, &mut marks_of);
        for j in (0..self.levels.len()).rev() {
            let steps: Vec<Step> = self.levels[j]
                .steps
                .iter()
                .zip(&marks_of[j])
                .filter(|&(_, &k)| k)
                .map(|(s, _)| *s)
                .collect();
            mark(&steps, &mut marks_of);
        }
        for (layer, marks) in self.levels.iter().zip(&marks_of) {
            let (l, c) = kept(layer, marks)?;
            charge.absorb(c);
            levels.push(l);
        }
        // Each argument's new index: how many kept entries come before it.
        let renumber: Vec<Vec<u32>> = marks_of
            .iter()
            .map(|marks| {
                marks
                    .iter()
                    .scan(0u32, |n, &k| {
                        let at = *n;
                        *n += u32::from(k);
                        Some(at)
                    })
                    .collect()
            })
            .collect();
        for step in merged
            .steps
            .iter_mut()
            .chain(levels.iter_mut().flat_map(|l| l.steps.iter_mut()))
        {
            if let How::Unary { level, arg, .. } = &mut step.how {
                *arg = renumber[usize::from(*level) - 1][*arg as usize];
            }
        }
        Ok(Table {
            merged,
            levels,
            pruned: 0,
            charge,
            narrow: OnceLock::new(),
        })
    }
}

/// A split of a hand into two sub-hands, `x` the part with more cards.
#[derive(Clone, Copy)]
pub(super) struct Split {
    pub x: Hand,
    pub y: Hand,
    pub xs: u8,
    pub ys: u8,
    pub same: bool,
}

/// Every unordered split of `hand` in the fixed enumeration order: the
/// larger part first, then by the parts' keys.
pub(super) fn splits(hand: Hand) -> Vec<Split> {
    let subs = hand.proper_sub_hands();
    let index = |h: Hand| {
        let i = subs.iter().position(|&s| s == h).expect("sub-hand");
        u8::try_from(i).expect("a hand of at most 6 cards has fewer than 64 sub-hands")
    };
    let mut out: Vec<Split> = subs
        .iter()
        .map(|&a| (a, hand.minus(a)))
        .filter(|&(a, b)| (a.len(), b.key()) > (b.len(), a.key()) || a == b)
        .map(|(x, y)| Split {
            x,
            y,
            xs: index(x),
            ys: index(y),
            same: x == y,
        })
        .collect();
    out.sort_by_key(|s| (std::cmp::Reverse(s.x.len()), s.x.key()));
    out
}

/// What a table is built with: the operations in force and the bound.
pub(crate) struct Build<'a> {
    pub ops: &'a [BinOp],
    pub functions: &'a [Func],
    pub depth: u8,
    pub juxtapose: bool,
    pub bound: u64,
    /// The most values one table may hold before the search is refused.
    pub limit: usize,
    /// What every table and map is charged to before it is allocated.
    pub budget: &'a Arc<Budget>,
}

/// One operand: which sub-hand, which entry of its merged layer.
#[derive(Clone, Copy)]
pub(super) struct Operand {
    sub: u8,
    index: u32,
    value: Value,
    step: Step,
}

impl Operand {
    pub(super) fn at(sub: u8, layer: &Layer, index: usize) -> Operand {
        Operand {
            sub,
            index: u32::try_from(index).expect("a table holds at most MAX_TABLE_VALUES"),
            value: layer.values[index],
            step: layer.steps[index],
        }
    }

    /// How simple the operand's way is.
    pub(super) fn cost(&self) -> Cost {
        self.step.cost
    }
}

/// The step for `x op y`, which makes `value`. For + and × the operands are
/// ordered so that the printed witness is simplest, then with the larger
/// value first.
pub(super) fn binary_step(op: BinOp, x: &Operand, y: &Operand, value: Value) -> Step {
    let cost = |l: &Operand, r: &Operand| {
        Cost::binary(
            op,
            (l.step.cost, l.step.top()),
            (r.step.cost, r.step.top()),
            value < 0,
        )
    };
    let (mut l, mut r, mut best) = (x, y, cost(x, y));
    if op.is_commutative() {
        let swapped = cost(y, x);
        if (swapped, std::cmp::Reverse(y.value)) < (best, std::cmp::Reverse(x.value)) {
            (l, r, best) = (y, x, swapped);
        }
    }
    Step {
        cost: best,
        how: How::Binary {
            op,
            left: l.sub,
            right: r.sub,
            li: l.index,
            ri: r.index,
        },
    }
}

/// The best step seen for each value, offered in [`Place`] order: on
/// equal rank the first one offered stays, so that comparing ranks is
/// comparing [`Order`]s.
pub(super) struct Best {
    pub map: FxHashMap<Value, Step>,
    pub pruned: u64,
    /// The map's memory; every growth is charged before it happens (see
    /// [`Best::room`]), so that the map never grows on its own.
    charge: Charge,
    budget: Arc<Budget>,
}

impl Best {
    pub fn new(budget: &Arc<Budget>) -> Best {
        Best {
            map: FxHashMap::default(),
            pruned: 0,
            charge: Charge::default(),
            budget: Arc::clone(budget),
        }
    }

    /// Makes room for `additional` more values, charging the grown map to
    /// the budget before allocating it: callers make room for every value
    /// they may offer before offering it.
    pub fn room(&mut self, additional: usize) -> Result<(), SolveError> {
        map_room(&mut self.map, &mut self.charge, &self.budget, additional)
    }

    pub fn offer(&mut self, value: Value, step: Step) {
        self.offer_with(value, step.cost.key(), step.top().bracket_class(), || step);
    }

    /// Offers the step `make` builds, whose top has bracket class `class`,
    /// unless the value already has a step that ranks at least as well
    /// whatever the new one costs at or above `floor`, a lower bound on its
    /// cost key: most candidates lose, and are rejected before their cost
    /// is worked out.
    pub(super) fn offer_with(
        &mut self,
        value: Value,
        floor: u64,
        class: u8,
        make: impl FnOnce() -> Step,
    ) {
        match self.map.entry(value) {
            Entry::Occupied(mut e) => {
                let held = e.get().cost.key();
                if held < floor || (held == floor && class >= e.get().top().bracket_class()) {
                    return;
                }
                let step = make();
                if step.rank() < e.get().rank() {
                    e.insert(step);
                }
            }
            Entry::Vacant(e) => {
                e.insert(make());
            }
        }
    }

    pub(super) fn binary(&mut self, op: BinOp, x: &Operand, y: &Operand, bound: u64) {
        match op.apply(x.value, y.value, bound) {
            Eval::Exact(v) => {
                let floor = Cost::at_least(op, x.step.cost, y.step.cost);
                let class = Top::of_binary(op).bracket_class();
                self.offer_with(v, floor, class, || binary_step(op, x, y, v));
            }
            Eval::Pruned => self.pruned += 1,
            Eval::Undefined => {}
        }
    }
}

impl Build<'_> {
    /// Builds the full table of `hand`; `get` gives the table of any proper
    /// sub-hand.
    pub fn table<'t>(
        &self,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
    ) -> Result<Table, SolveError> {
        let level0 = self.level0(hand, &get)?;
        let mut pruned = level0.pruned;
        let (layer0, mut charge) = Layer::from_map(&level0.map, |s| s, self.budget)?;
        drop(level0);
        self.budget.table_built();
        if self.functions.is_empty() {
            return Ok(Table {
                merged: layer0,
                levels: Vec::new(),
                pruned,
                charge,
                narrow: OnceLock::new(),
            });
        }
        let mut levels = vec![layer0];
        for level in 1..=self.depth {
            let below = &levels[usize::from(level) - 1];
            if below.values.is_empty() {
                break;
            }
            let mut next = Best::new(self.budget);
            next.room(below.values.len() * self.functions.len())?;
            for (i, (&v, step)) in below.values.iter().zip(&below.steps).enumerate() {
                for &f in self.functions {
                    match f.apply(v, self.bound) {
                        Eval::Exact(w) => next.offer(
                            w,
                            Step {
                                cost: Cost::unary(f, (step.cost, step.top())),
                                how: How::Unary {
                                    f,
                                    level,
                                    arg: u32::try_from(i)
                                        .expect("a table holds at most MAX_TABLE_VALUES"),
                                },
                            },
                        ),
                        Eval::Pruned => next.pruned += 1,
                        Eval::Undefined => {}
                    }
                }
            }
            pruned += next.pruned;
            self.check(hand, next.map.len())?;
            let (layer, c) = Layer::from_map(&next.map, |s| s, self.budget)?;
            drop(next);
            charge.absorb(c);
            levels.push(layer);
        }
        // The merged layer: lower levels win ties.
        let empty = Layer::default();
        let (mut merged, c) = merge(&levels[0], levels.get(1).unwrap_or(&empty), self.budget)?;
        charge.absorb(c);
        for next in levels.iter().skip(2) {
            let (m, c) = merge(&merged, next, self.budget)?;
            merged = m;
            charge.absorb(c);
        }
        // No witness applies a function to the deepest level (a step at
        // level j takes its argument from level j − 1), and its values are
        // in the merged layer: it goes, with the intermediate merges.
        if levels.len() > 1 {
            levels.pop();
        }
        let kept = std::iter::once(&merged)
            .chain(&levels)
            .map(|l| Layer::bytes(l.values.capacity()))
            .sum();
        charge.shrink_to(kept);
        Ok(Table {
            merged,
            levels,
            pruned,
            charge,
            narrow: OnceLock::new(),
        })
    }

    /// Refuses a table that has grown past the limit, before it exhausts
    /// the machine's memory.
    pub(super) fn check(&self, hand: Hand, values: usize) -> Result<(), SolveError> {
        if values > self.limit {
            return Err(SolveError::TooLarge {
                hand,
                limit: self.limit,
            });
        }
        Ok(())
    }

    /// The values `hand` reaches before any function is applied to the
    /// whole hand: its card, its juxtapositions and every split.
    pub(super) fn level0<'t>(
        &self,
        hand: Hand,
        get: &impl Fn(Hand) -> &'t Table,
    ) -> Result<Best, SolveError> {
        let mut level0 = Best::new(self.budget);
        let values = hand.values();
        if let [card] = values[..] {
            let step = Step {
                cost: Cost::default(),
                how: How::Card,
            };
            level0.room(1)?;
            level0.offer(card.into(), step);
        } else {
            if self.juxtapose {
                let (joins, pruned) = self.joins(&values);
                level0.pruned += pruned;
                level0.room(joins.len())?;
                for (v, step) in joins {
                    level0.offer(v, step);
                }
            }
            let splits = splits(hand);
            let pairs: usize = splits
                .iter()
                .map(|s| get(s.x).merged.values.len() * get(s.y).merged.values.len())
                .sum();
            level0.room(pairs.min(1 << 20))?;
            for split in splits {
                self.split_all(hand, split, get, &mut level0)?;
            }
        }
        Ok(level0)
    }

    /// Every distinct order of the cards, written side by side.
    pub(super) fn joins(&self, values: &[u8]) -> (Vec<(Value, Step)>, u64) {
        let (mut out, mut pruned) = (Vec::new(), 0);
        let mut order = values.to_vec(); // ascending: the first permutation
        loop {
            match juxtapose(&order, self.bound) {
                Eval::Exact(v) => {
                    let code = order
                        .iter()
                        .enumerate()
                        .fold(0u32, |acc, (i, &c)| acc | u32::from(c) << (4 * i));
                    let step = Step {
                        cost: Cost::join(order.len()),
                        how: How::Join { order: code },
                    };
                    out.push((v, step));
                }
                _ => pruned += 1,
            }
            if !next_permutation(&mut order) {
                return (out, pruned);
            }
        }
    }

    /// Every pair of values of one split, every operation.
    fn split_all<'t>(
        &self,
        hand: Hand,
        split: Split,
        get: &impl Fn(Hand) -> &'t Table,
        out: &mut Best,
    ) -> Result<(), SolveError> {
        let (tx, ty) = (&get(split.x).merged, &get(split.y).merged);
        // The most values one row of pairs can add.
        let row = ty.values.len() * self.ops.len() * 2;
        for i in 0..tx.values.len() {
            self.check(hand, out.map.len())?;
            out.room(row)?;
            let x = Operand::at(split.xs, tx, i);
            for j in 0..ty.values.len() {
                let y = Operand::at(split.ys, ty, j);
                for &op in self.ops {
                    let [forward, back] = directions(op, split.same, i, j);
                    if forward {
                        out.binary(op, &x, &y, self.bound);
                    }
                    if back {
                        out.binary(op, &y, &x, self.bound);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The union of two sorted layers, the best step for each value; on equal
/// rank ([`Step::rank`]) `a`'s step wins: `a` holds the lower function
/// levels, whose [`Place`]s come first.
fn merge(a: &Layer, b: &Layer, budget: &Arc<Budget>) -> Result<(Layer, Charge), SolveError> {
    let (mut out, charge) = Layer::with_capacity(a.values.len() + b.values.len(), budget)?;
    let (mut i, mut j) = (0, 0);
    while i < a.values.len() || j < b.values.len() {
        let take_a = j == b.values.len() || (i < a.values.len() && a.values[i] <= b.values[j]);
        let take_b = i == a.values.len() || (j < b.values.len() && b.values[j] <= a.values[i]);
        let (v, step) = match (take_a, take_b) {
            (true, true) => {
                let best = if b.steps[j].rank() < a.steps[i].rank() {
                    b.steps[j]
                } else {
                    a.steps[i]
                };
                (a.values[i], best)
            }
            (true, false) => (a.values[i], a.steps[i]),
            _ => (b.values[j], b.steps[j]),
        };
        i += usize::from(take_a);
        j += usize::from(take_b);
        out.values.push(v);
        out.steps.push(step);
    }
    Ok((out, charge))
}

/// Rearranges into the next lexicographic permutation; false after the last.
fn next_permutation(xs: &mut [u8]) -> bool {
    let Some(i) = xs.windows(2).rposition(|w| w[0] < w[1]) else {
        return false;
    };
    let j = xs
        .iter()
        .rposition(|&x| x > xs[i])
        .expect("a larger element");
    xs.swap(i, j);
    xs[i + 1..].reverse();
    true
}

/// A table's merged layer as the targeted search reads it, worked out once
/// a table and kept with it (`Table::narrow`): a table of a sub-hand
/// serves every hand of a sweep that contains it.
#[derive(Debug)]
pub(crate) struct Narrow {
    /// The values in 64 bits.
    pub(super) values: Vec<i64>,
    /// Their cost keys ([`Cost::key`]).
    pub(super) keys: Vec<u64>,
    /// The indexes by cost key, then index.
    pub(super) by_cost: Vec<u32>,
    /// The indexes of the cheapest tier (the least operations and weight),
    /// ascending, and their values: where a search can afford nothing
    /// costlier, it looks up partners among these alone.
    pub(super) cheap: Vec<u32>,
    pub(super) cheap_values: Vec<i64>,
    /// The least key beyond the cheapest tier (`u64::MAX` for none).
    pub(super) beyond: u64,
    pub(super) _charge: Charge,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_distinct_and_complete() {
        let mut xs = vec![1, 1, 2];
        let mut seen = vec![xs.clone()];
        while next_permutation(&mut xs) {
            seen.push(xs.clone());
        }
        assert_eq!(seen, vec![vec![1, 1, 2], vec![1, 2, 1], vec![2, 1, 1]]);
    }

    /// The packed places follow the loop every split is enumerated in.
    #[test]
    fn places_follow_the_enumeration() {
        for same in [false, true] {
            let mut last = Place::join(719);
            for k in 1..3 {
                for i in 0..5 {
                    for j in 0..5 {
                        for op in BinOp::ALL {
                            let [forward, back] = directions(op, same, i, j);
                            for (swap, go) in [(false, forward), (true, back)] {
                                if go {
                                    let place = Place::pair(k, i, j, op, swap);
                                    assert!(place > last, "{k} {i} {j} {op:?} {swap}");
                                    last = place;
                                }
                            }
                        }
                    }
                }
            }
            assert!(Place::unary(1, 0, 0) > last);
            assert!(Place::unary(1, 0, 1) > Place::unary(1, 0, 0));
            assert!(Place::unary(1, 1, 0) > Place::unary(1, 0, 2));
            assert!(Place::unary(1, u64::MAX.into(), 2) < Place::unary(2, 0, 0));
        }
    }

    #[test]
    fn splits_cover_each_unordered_pair_once() {
        let h = Hand::from_values(&[4, 6, 8]);
        let s = splits(h);
        assert_eq!(s.len(), 3);
        assert!(s.iter().all(|s| s.x.len() == 2 && s.y.len() == 1));
        let h = Hand::from_values(&[5, 5, 5, 5]);
        let s = splits(h);
        // {5,5,5}|{5} and {5,5}|{5,5}
        assert_eq!(s.len(), 2);
        assert!(s[1].same);
    }
}
