//! The pairs of one split that can matter to a search for primes, operator
//! by operator: of every `x op y` the full table tries, only those whose
//! result is at least 2 (no prime, and no function's argument that makes
//! one, is smaller), found by ranges of the two sorted sides instead of
//! trying every pair, with the results beyond the bound counted by the
//! same ranges.
//!
//! Each side is a merged layer, ascending, within the bound. For a value
//! `a` of one side, the values of the other that give `a op y` in
//! `2..=bound` (or beyond the bound) form at most two runs of it:
//!
//! - `a + y`: `y` in `2 − a ..= bound − a`;
//! - `a − y`: `y` in `a − bound ..= a − 2`, and `y − a` in `a + 2 ..= a + bound`;
//! - `a × y`: `y` of `a`'s sign up to `bound / |a|` in size;
//! - `a ÷ y` (never beyond the bound): `y` of `a`'s sign up to `|a| / 2`
//!   in size, and `y ÷ a`: `y` of `a`'s sign at least `2|a|` in size;
//! - `a ^ y` (`|a| ≥ 2`): `y` from 1 to the largest exponent that keeps
//!   the power within the bound, the larger ones beyond it; `y ^ a`: `|y|`
//!   from 2 to the `a`-th root of the bound, the larger ones beyond it;
//! - root (never beyond the bound): the `y`-th root of `a` for `y` in
//!   `2 ..= log2 a`, and the `a`-th root of `y` for `y ≥ 2^a`.
//!
//! Every other pair gives a value below 2 or none at all (a division that
//! is not exact, a negative exponent, a root that is no integer).

use super::SolveError;
use crate::arith::{BinOp, Value, floor_root, root};

/// One result worth a look: `value` is `x op y` for `x = xs[i]`, `y =
/// ys[j]`, or `y op x` when `swap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Made {
    pub value: Value,
    pub i: usize,
    pub j: usize,
    pub op: BinOp,
    pub swap: bool,
}

/// Every pair of `xs` and `ys` (both ascending, within `bound`) through
/// each of `ops`, in the directions [`super::table::directions`] gives,
/// with `same` when the two sides are one sub-hand: `visit` is called for
/// each result in `2..=bound` that `may_matter` lets through (a cheap test,
/// made inline before the call), in no particular order, and the number of
/// results beyond the bound is returned. What the full table would do with
/// the same pairs, less the results below 2 and those that are undefined.
///
/// # Errors
/// Whatever `visit` returns.
pub(super) fn pairs(
    xs: &[Value],
    ys: &[Value],
    same: bool,
    ops: &[BinOp],
    bound: u64,
    may_matter: impl Fn(Value) -> bool,
    mut visit: impl FnMut(Made) -> Result<(), SolveError>,
) -> Result<u64, SolveError> {
    let big = Value::from(bound);
    let fits = |side: &[Value]| {
        side.is_sorted()
            && side.first().is_none_or(|&v| v >= -big)
            && side.last().is_none_or(|&v| v <= big)
    };
    debug_assert!(fits(xs) && fits(ys), "sides ascending, within the bound");
    debug_assert!(!same || xs == ys, "one sub-hand on both sides");
    if same || xs.len() <= ys.len() {
        return rows(xs, ys, same, ops, bound, &may_matter, visit);
    }
    // The shorter side in the rows, the longer in the runs: `y op x` as
    // seen from the other side, and + and × only ever as `x op y`.
    rows(ys, xs, false, ops, bound, &may_matter, |m| {
        visit(Made {
            i: m.j,
            j: m.i,
            swap: !m.swap && !m.op.is_commutative(),
            ..m
        })
    })
}

/// [`pairs`], a row for each value of `xs` and runs of `ys` in it.
fn rows(
    xs: &[Value],
    ys: &[Value],
    same: bool,
    ops: &[BinOp],
    bound: u64,
    may_matter: &impl Fn(Value) -> bool,
    mut visit: impl FnMut(Made) -> Result<(), SolveError>,
) -> Result<u64, SolveError> {
    let big = Value::from(bound);
    // Where a run of `ys` starts and ends: the first index with y >= v,
    // and the first with y > v.
    let from = |v: Value| ys.partition_point(|&y| y < v);
    let past = |v: Value| ys.partition_point(|&y| y <= v);
    let count = |lo: usize, hi: usize| hi.saturating_sub(lo) as u64;
    let mut pruned = 0u64;
    for &op in ops {
        for (i, &a) in xs.iter().enumerate() {
            // + and × are tried once per unordered pair of one sub-hand,
            // − ÷ ^ and root both ways round only across two.
            let start = if same && op.is_commutative() { i } else { 0 };
            let back = !same;
            let mut row = Row {
                ys,
                i,
                op,
                start,
                may_matter,
                visit: &mut visit,
            };
            match op {
                BinOp::Add => {
                    pruned +=
                        count(start, from(-big - a)) + count(past(big - a).max(start), ys.len());
                    row.run(from(2 - a), past(big - a), false, |y| Some(a + y))?;
                }
                BinOp::Sub => {
                    let beyond = count(0, from(a - big)) + count(past(a + big), ys.len());
                    pruned += beyond * (1 + u64::from(back));
                    row.run(from(a - big), past(a - 2), false, |y| Some(a - y))?;
                    if back {
                        row.run(from(a + 2), past(a + big), true, |y| Some(y - a))?;
                    }
                }
                BinOp::Mul => {
                    if a != 0 {
                        let m = big / a.abs();
                        pruned += count(start, from(-m)) + count(past(m).max(start), ys.len());
                        let least = if a.abs() == 1 { 2 } else { 1 };
                        let (lo, hi) = if a > 0 { (least, m) } else { (-m, -least) };
                        row.run(from(lo), past(hi), false, |y| Some(a * y))?;
                    }
                }
                BinOp::Div => {
                    // Never beyond the bound: |a ÷ y| <= |a|.
                    if a > 0 {
                        row.run(from(1), past(a / 2), false, |y| exact_quotient(a, y))?;
                    } else if a < 0 {
                        row.run(from(a / 2), past(-1), false, |y| exact_quotient(a, y))?;
                    }
                    let over = |y: Value| exact_quotient(y, a);
                    if back && a > 0 {
                        row.run(from(2 * a), ys.len(), true, over)?;
                    } else if back && a < 0 {
                        row.run(0, past(2 * a), true, over)?;
                    }
                }
                BinOp::Pow => {
                    if a.abs() >= 2 {
                        let most = most_power(a.unsigned_abs(), bound);
                        pruned += count(past(most), ys.len());
                        row.run(from(1), past(most), false, |y| {
                            let v = a.pow(u32::try_from(y).expect("at most 63"));
                            (v >= 2).then_some(v)
                        })?;
                    }
                    if back && a >= 1 {
                        // Bases of size 2 to r stay within the bound.
                        let r = match u32::try_from(a) {
                            Ok(1) => big,
                            Ok(e) if e < 64 => Value::from(floor_root(bound, e)),
                            _ => 1,
                        };
                        pruned += count(0, from(-r)) + count(past(r), ys.len());
                        let power = |y: Value| {
                            let v = y.pow(u32::try_from(a).expect("at most 63"));
                            (v >= 2).then_some(v)
                        };
                        if r >= 2 {
                            row.run(from(2), past(r), true, power)?;
                            row.run(from(-r), past(-2), true, power)?;
                        }
                    }
                }
                BinOp::Root => {
                    // Never beyond the bound: a root is at most its radicand.
                    if a >= 4 {
                        row.run(from(2), past(Value::from(a.ilog2())), false, |y| {
                            rooted(a, y)
                        })?;
                    }
                    if back && (2..64).contains(&a) {
                        row.run(from(1 << a), ys.len(), true, |y| rooted(y, a))?;
                    }
                }
            }
        }
    }
    Ok(pruned)
}

/// One row of pairs: `xs[i]` with runs of `ys`, through `op`.
struct Row<'r, M, V> {
    ys: &'r [Value],
    i: usize,
    op: BinOp,
    /// The least index of `ys` the row pairs with.
    start: usize,
    may_matter: &'r M,
    visit: &'r mut V,
}

impl<M: Fn(Value) -> bool, V: FnMut(Made) -> Result<(), SolveError>> Row<'_, M, V> {
    /// Visits `value(ys[j])` for `j` in `lo..hi` (from `start`) where it
    /// gives one that may matter; `swap` as in [`Made`].
    #[inline]
    fn run(
        &mut self,
        lo: usize,
        hi: usize,
        swap: bool,
        value: impl Fn(Value) -> Option<Value>,
    ) -> Result<(), SolveError> {
        let lo = lo.max(self.start);
        if lo >= hi {
            return Ok(());
        }
        for (j, &y) in self.ys[lo..hi].iter().enumerate() {
            if let Some(value) = value(y).filter(|&v| (self.may_matter)(v)) {
                (self.visit)(Made {
                    value,
                    i: self.i,
                    j: lo + j,
                    op: self.op,
                    swap,
                })?;
            }
        }
        Ok(())
    }
}

/// The exact `n`th root of `x` when it is at least 2.
fn rooted(x: Value, n: Value) -> Option<Value> {
    root(x, n).filter(|&r| r >= 2)
}

/// The largest `e` with `base^e <= bound` (`2 <= base <= bound`).
fn most_power(base: u128, bound: u64) -> Value {
    let (mut e, mut power) = (0, 1u128);
    while power * base <= u128::from(bound) {
        power *= base;
        e += 1;
    }
    e
}

/// `n ÷ d` (same sign, `|n| >= 2|d|`) when it is exact.
fn exact_quotient(n: Value, d: Value) -> Option<Value> {
    let quotient = match (
        u64::try_from(n.unsigned_abs()),
        u64::try_from(d.unsigned_abs()),
    ) {
        (Ok(n), Ok(d)) => crate::arith::exact_quotient(n, d).map(Value::from),
        _ => (n % d == 0).then(|| (n / d).abs()),
    };
    debug_assert!(quotient.is_none_or(|q| q >= 2));
    quotient
}

/// Every pair as the full table tries it, one at a time, with
/// [`BinOp::apply`]: what [`pairs`] must agree with.
#[cfg(test)]
fn naive(xs: &[Value], ys: &[Value], same: bool, ops: &[BinOp], bound: u64) -> (Vec<Made>, u64) {
    let (mut made, mut pruned) = (Vec::new(), 0);
    for (i, &x) in xs.iter().enumerate() {
        for (j, &y) in ys.iter().enumerate() {
            for &op in ops {
                let ways = super::table::directions(op, same, i, j);
                for (swap, go) in [(false, ways[0]), (true, ways[1])] {
                    if !go {
                        continue;
                    }
                    let (l, r) = if swap { (y, x) } else { (x, y) };
                    match op.apply(l, r, bound) {
                        crate::arith::Eval::Exact(value) if value >= 2 => made.push(Made {
                            value,
                            i,
                            j,
                            op,
                            swap,
                        }),
                        crate::arith::Eval::Pruned => pruned += 1,
                        _ => {}
                    }
                }
            }
        }
    }
    (made, pruned)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPS: [BinOp; 6] = BinOp::ALL;

    fn agree(xs: &[Value], ys: &[Value], same: bool, bound: u64) {
        let (mut want, want_pruned) = naive(xs, ys, same, &OPS, bound);
        let mut got = Vec::new();
        let pruned = pairs(
            xs,
            ys,
            same,
            &OPS,
            bound,
            |_| true,
            |m| {
                got.push(m);
                Ok(())
            },
        )
        .unwrap();
        want.sort_unstable();
        got.sort_unstable();
        let only = |a: &[Made], b: &[Made]| -> Vec<Made> {
            a.iter()
                .filter(|m| b.binary_search(m).is_err())
                .copied()
                .collect()
        };
        assert!(
            got == want,
            "{xs:?} {ys:?} same {same} bound {bound}: extra {:?}, missing {:?}",
            only(&got, &want),
            only(&want, &got)
        );
        assert_eq!(
            pruned, want_pruned,
            "{xs:?} {ys:?} same {same} bound {bound}"
        );
    }

    /// Sides of every sign and size, up to the bound and down to minus it,
    /// against the naive enumeration, at small bounds (where most products
    /// and powers pass them) and the widest.
    #[test]
    fn the_runs_give_what_every_pair_gives() {
        let mut x = 0x2545_F491_4F6C_DD1D_u64;
        let mut random = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for bound in [13, 100, 1000, 1 << 20, 1 << 40, u64::MAX] {
            let big = Value::from(bound);
            for round in 0..60 {
                let mut side = |n: usize| {
                    let mut v: Vec<Value> = (0..n)
                        .map(|k| {
                            let r = random();
                            let size = match (k + round) % 4 {
                                0 => Value::from(r % 70),
                                1 => Value::from(r % 5000),
                                2 => Value::from(r) % (big + 1),
                                _ => big - Value::from(r % 3),
                            };
                            let size = size.min(big);
                            if r >> 63 == 1 { -size } else { size }
                        })
                        // Powers of two and three near the top, whose high roots are exact.
                        .chain(
                            [
                                -1,
                                0,
                                1,
                                2,
                                3,
                                4,
                                8,
                                64,
                                63,
                                -2,
                                -64,
                                1 << 62,
                                1 << 63,
                                3i128.pow(40),
                            ]
                            .map(|v: Value| v.clamp(-big, big)),
                        )
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                };
                let (xs, ys) = (side(1 + round % 9), side(round % 40));
                agree(&xs, &ys, false, bound);
                agree(&xs, &xs, true, bound);
                agree(&ys, &ys, true, bound);
            }
        }
    }
}
