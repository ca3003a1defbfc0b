//! Exact integer arithmetic on card values: every operation the rules allow,
//! checked, with "does not exist" and "beyond the bound" kept apart.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use crate::style::Style;
use serde::{Deserialize, Serialize};

/// Every value the solver handles. Values are bounded by `|v| <= u64::MAX`,
/// so an `i128` holds any value and the sum or difference of two of them.
pub type Value = i128;

/// What an operation gives: an exact value, nothing (the operation is not
/// defined there: an inexact division, `0^0`, a negative factorial), or a
/// value beyond the bound, which is pruned and counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    Exact(Value),
    Undefined,
    Pruned,
}

impl Eval {
    fn bounded(v: Option<Value>, bound: u64) -> Eval {
        match v {
            Some(v) if v.unsigned_abs() <= u128::from(bound) => Eval::Exact(v),
            _ => Eval::Pruned,
        }
    }
}

/// A binary operation. The order of the variants is the tie-break order
/// between equally simple witnesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `x ^ y`
    Pow,
    /// `root(x, y)`: the y-th root of x.
    Root,
}

impl BinOp {
    pub const ALL: [BinOp; 6] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Pow,
        BinOp::Root,
    ];

    /// `a op b`, exact, or why not.
    #[inline(always)]
    pub fn apply(self, a: Value, b: Value, bound: u64) -> Eval {
        match self {
            BinOp::Add => Eval::bounded(a.checked_add(b), bound),
            BinOp::Sub => Eval::bounded(a.checked_sub(b), bound),
            BinOp::Mul => mul(a, b, bound),
            BinOp::Div => div(a, b, bound),
            BinOp::Pow => pow(a, b, bound),
            BinOp::Root => match root(a, b) {
                Some(r) => Eval::bounded(Some(r), bound),
                None => Eval::Undefined,
            },
        }
    }

    /// Whether `a op b == b op a` for every a, b.
    pub fn is_commutative(self) -> bool {
        matches!(self, BinOp::Add | BinOp::Mul)
    }

    /// The symbol a player writes (an ASCII `style` picks `* / ^`).
    pub fn symbol(self, style: Style) -> &'static str {
        match (self, style.ascii) {
            (BinOp::Add, _) => "+",
            (BinOp::Sub, false) => "−",
            (BinOp::Sub, true) => "-",
            (BinOp::Mul, false) => "×",
            (BinOp::Mul, true) => "*",
            (BinOp::Div, false) => "÷",
            (BinOp::Div, true) => "/",
            (BinOp::Pow, _) => "^",
            (BinOp::Root, _) => "root",
        }
    }
}

/// `a × b`. Operands within the bound are below 2^64 in size, so the
/// product of their sizes fits a u128 and needs no overflow check.
fn mul(a: Value, b: Value, bound: u64) -> Eval {
    match (
        u64::try_from(a.unsigned_abs()),
        u64::try_from(b.unsigned_abs()),
    ) {
        (Ok(x), Ok(y)) => {
            let size = u128::from(x) * u128::from(y);
            if size > u128::from(bound) {
                Eval::Pruned
            } else {
                // Within the bound, a u64: it fits an i128.
                let size = Value::try_from(size).expect("within a u64 bound");
                Eval::Exact(if (a < 0) == (b < 0) { size } else { -size })
            }
        }
        _ => Eval::bounded(a.checked_mul(b), bound),
    }
}

/// `a ÷ b`, only when exact; 64-bit division whenever the operands allow,
/// as 128-bit division is many times slower.
fn div(a: Value, b: Value, bound: u64) -> Eval {
    if b == 0 {
        return Eval::Undefined;
    }
    // A nonzero quotient needs |a| >= |b|: this rejects half of all pairs
    // without dividing.
    if a.unsigned_abs() < b.unsigned_abs() {
        return if a == 0 {
            Eval::Exact(0)
        } else {
            Eval::Undefined
        };
    }
    let quotient = match (i64::try_from(a), i64::try_from(b)) {
        (Ok(x), Ok(y)) if x != i64::MIN => (x % y == 0).then(|| Value::from(x / y)),
        _ => (a % b == 0).then(|| a / b),
    };
    match quotient {
        Some(q) => Eval::bounded(Some(q), bound),
        None => Eval::Undefined,
    }
}

/// `base ^ exp` with `exp >= 0` and not `0^0`.
#[inline(never)]
fn pow(base: Value, exp: Value, bound: u64) -> Eval {
    if exp < 0 || (base == 0 && exp == 0) {
        return Eval::Undefined;
    }
    match base {
        _ if exp == 0 => Eval::Exact(1),
        0 | 1 => Eval::Exact(base),
        -1 => Eval::Exact(if exp % 2 == 0 { 1 } else { -1 }),
        // |base| >= 2: 2^64 already exceeds every bound.
        _ => match u32::try_from(exp) {
            Ok(e) if e < 64 => Eval::bounded(base.checked_pow(e), bound),
            _ => Eval::Pruned,
        },
    }
}

/// Bit r is set when r is the residue of some k^power modulo `m`.
const fn power_residues(power: u32, m: u64) -> u64 {
    let mut bits = 0u64;
    let mut k = 0;
    while k < m {
        bits |= 1 << (k.pow(power) % m);
        k += 1;
    }
    bits
}

const SQUARES_MOD_64: u64 = power_residues(2, 64);
const SQUARES_MOD_63: u64 = power_residues(2, 63);
const SQUARES_MOD_11: u64 = power_residues(2, 11);

/// Squares modulo 65, which a u64 mask cannot hold.
const SQUARES_MOD_65: u128 = {
    let mut bits = 0u128;
    let mut k = 0;
    while k < 65 {
        bits |= 1 << (k * k % 65);
        k += 1;
    }
    bits
};

/// Whether `x` can be a square: the residues modulo 64, 63, 65 and 11 of
/// squares are 12, 16, 21 and 6 of the moduli, so fewer than one value in
/// a hundred passes; every square does.
pub(crate) fn may_be_square(x: u64) -> bool {
    SQUARES_MOD_64 >> (x % 64) & 1 == 1
        && SQUARES_MOD_63 >> (x % 63) & 1 == 1
        && SQUARES_MOD_65 >> (x % 65) & 1 == 1
        && SQUARES_MOD_11 >> (x % 11) & 1 == 1
}
const CUBES_MOD_63: u64 = power_residues(3, 63);
const FIFTHS_MOD_11: u64 = power_residues(5, 11);

/// The exact `n`-th root of `x` (`n >= 2`, `x >= 0`), if there is one.
#[inline(never)]
pub(crate) fn root(x: Value, n: Value) -> Option<Value> {
    if n < 2 || x < 0 {
        return None;
    }
    if x <= 1 {
        return Some(x);
    }
    // Values within any bound fit a u64.
    let x = u64::try_from(x).ok()?;
    let bits = Value::from(x.ilog2()); // 2^bits <= x < 2^(bits+1)
    if n > bits {
        return None; // 1 < root < 2
    }
    let exponent = u32::try_from(n).expect("n <= bits < 64");
    // Cheap necessary conditions first: an n-th power is a square when n is
    // even, a cube when 3 divides n, a fifth power when 5 does, and those
    // leave only a few residues (squares: `may_be_square`, cubes mod 63,
    // fifth powers mod 11).
    if (n % 2 == 0 && !may_be_square(x))
        || (n % 3 == 0 && CUBES_MOD_63 >> (x % 63) & 1 == 0)
        || (n % 5 == 0 && FIFTHS_MOD_11 >> (x % 11) & 1 == 0)
    {
        return None;
    }
    let r = floor_root(x, exponent);
    (r.checked_pow(exponent) == Some(x)).then_some(Value::from(r))
}

/// The integer `n`-th root of `x` (`n >= 2`). A square root from the
/// floating-point one, never below the integer root: for x >= k², x
/// rounds to at least k² (1 − 2^-53), whose root lies less than half a
/// unit in the last place below k, and so rounds to k or more. It can be one
/// above (x = 2^64 − 1 rounds to 2^64), and is then stepped down;
/// `u64::isqrt` is a software loop several times slower. Higher roots by
/// bisection on the powers, within the power of two the root lies in (at
/// most 21 steps, for cubes).
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "an estimate, corrected exactly below"
)]
pub(crate) fn floor_root(x: u64, n: u32) -> u64 {
    if x < 2 {
        return x;
    }
    if n == 2 {
        let r = (x as f64).sqrt() as u64;
        return if r.checked_mul(r).is_none_or(|p| p > x) {
            r - 1
        } else {
            r
        };
    }
    // The root lies in [2^(bits/n), 2^(bits/n + 1)).
    let shift = x.ilog2() / n;
    let (mut lo, mut hi) = (1u64 << shift, 1u64 << (shift + 1));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match mid.checked_pow(n) {
            Some(p) if p <= x => lo = mid,
            _ => hi = mid,
        }
    }
    lo
}

/// A unary function from the "other functions" house rule. The order of
/// the variants ([`Func::ALL`]) is the order the engine tries them in, and
/// so the tie-break between equally simple witnesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Func {
    /// Triangular number T(n) = n(n+1)/2.
    Tri,
    /// Factorial n!.
    Fact,
    /// Exact square root.
    Sqrt,
}

impl Func {
    /// Every function, in the engine's order.
    pub const ALL: [Func; 3] = [Func::Tri, Func::Fact, Func::Sqrt];

    pub fn apply(self, n: Value, bound: u64) -> Eval {
        if n < 0 {
            return Eval::Undefined;
        }
        match self {
            Func::Tri => Eval::bounded(n.checked_mul(n + 1).map(|p| p / 2), bound),
            Func::Sqrt => match root(n, 2) {
                Some(r) => Eval::Exact(r),
                None => Eval::Undefined,
            },
            // 21! > 2^64 > every bound.
            Func::Fact if n > 20 => Eval::Pruned,
            Func::Fact => Eval::bounded(Some((1..=n).product()), bound),
        }
    }

    /// How the function is written in words about the rules: `T(n)`,
    /// `n!`, `√n`.
    pub fn notation(self) -> &'static str {
        match self {
            Func::Tri => "T(n)",
            Func::Fact => "n!",
            Func::Sqrt => "√n",
        }
    }

    /// The name used on the command line and in rule-set names.
    pub fn name(self) -> &'static str {
        match self {
            Func::Tri => "tri",
            Func::Sqrt => "sqrt",
            Func::Fact => "fact",
        }
    }
}

/// Juxtaposition: the card values written side by side, in this order.
pub fn juxtapose(values: &[u8], bound: u64) -> Eval {
    let mut acc: Value = 0;
    for &v in values {
        let scale = if v >= 10 { 100 } else { 10 };
        acc = match acc.checked_mul(scale).and_then(|a| a.checked_add(v.into())) {
            Some(a) => a,
            None => return Eval::Pruned,
        };
    }
    Eval::bounded(Some(acc), bound)
}

/// Divisors below this use a table of reciprocals instead of dividing.
const RECIPROCAL_LIMIT: u64 = 4096;

/// `ceil(2^64 / d)` for 2 <= d < RECIPROCAL_LIMIT (entries 0 and 1 unused).
fn reciprocals() -> &'static [u64] {
    static TABLE: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..RECIPROCAL_LIMIT)
            .map(|d| if d < 2 { 0 } else { u64::MAX / d + 1 })
            .collect()
    })
}

/// `n / d` when `d` divides `n` exactly (d > 0). Small operands multiply by
/// a reciprocal, which is exact for n < 2^32 and d < 2^12 (the error term
/// n·(m − 2^64/d)/2^64 stays below 1/d), instead of a slow division.
#[allow(
    clippy::cast_possible_truncation,
    reason = "d < RECIPROCAL_LIMIT indexes the table; the product's high half is below 2^32"
)]
pub(crate) fn exact_quotient(n: u64, d: u64) -> Option<u64> {
    let q = if d == 1 {
        n
    } else if d < RECIPROCAL_LIMIT && n < 1 << 32 {
        ((u128::from(n) * u128::from(reciprocals()[d as usize])) >> 64) as u64
    } else {
        n / d
    };
    (q * d == n).then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use BinOp::*;
    use Eval::*;
    const B: u64 = u64::MAX;

    #[test]
    fn division_must_be_exact_and_nonzero() {
        assert_eq!(Div.apply(24, 8, B), Exact(3));
        assert_eq!(Div.apply(63, 2, B), Undefined);
        assert_eq!(Div.apply(5, 0, B), Undefined);
        assert_eq!(Div.apply(0, 5, B), Exact(0));
        assert_eq!(Div.apply(-6, 3, B), Exact(-2));
    }

    #[test]
    fn results_beyond_the_bound_are_pruned() {
        let big = Value::from(u64::MAX);
        assert_eq!(Add.apply(big, 1, B), Pruned);
        assert_eq!(Sub.apply(-big, 1, B), Pruned);
        assert_eq!(Mul.apply(big, big, B), Pruned);
        assert_eq!(Add.apply(big, 0, B), Exact(big));
        assert_eq!(Mul.apply(10, 11, 100), Pruned);
        assert_eq!(Mul.apply(10, 10, 100), Exact(100));
    }

    #[test]
    fn powers() {
        assert_eq!(Pow.apply(2, 6, B), Exact(64));
        assert_eq!(Pow.apply(0, 0, B), Undefined);
        assert_eq!(Pow.apply(3, -1, B), Undefined);
        assert_eq!(Pow.apply(0, 5, B), Exact(0));
        assert_eq!(Pow.apply(7, 0, B), Exact(1));
        assert_eq!(Pow.apply(-1, 1_000_001, B), Exact(-1));
        assert_eq!(Pow.apply(-2, 3, B), Exact(-8));
        assert_eq!(Pow.apply(2, 63, B), Exact(1 << 63));
        assert_eq!(Pow.apply(2, 64, B), Pruned);
        assert_eq!(Pow.apply(13, 1 << 40, B), Pruned);
        assert_eq!(Pow.apply(1 << 40, 2, B), Pruned);
    }

    #[test]
    fn roots_only_when_exact() {
        assert_eq!(Root.apply(8, 3, B), Exact(2));
        assert_eq!(Root.apply(9, 2, B), Exact(3));
        assert_eq!(Root.apply(10, 2, B), Undefined);
        assert_eq!(Root.apply(-8, 3, B), Undefined);
        assert_eq!(Root.apply(8, 1, B), Undefined);
        assert_eq!(Root.apply(1, 99, B), Exact(1));
        assert_eq!(Root.apply(0, 2, B), Exact(0));
        assert_eq!(Root.apply(1 << 63, 63, B), Exact(2));
        assert_eq!(Root.apply((1 << 63) - 1, 63, B), Undefined);
        let big = Value::from(u64::MAX);
        assert_eq!(Root.apply(big, 2, B), Undefined);
        assert_eq!(
            Root.apply(4_294_967_295 * 4_294_967_295, 2, B),
            Exact(4_294_967_295)
        );
        assert_eq!(Root.apply(3_i128.pow(40), 40, B), Exact(3));
        assert_eq!(Root.apply(3_i128.pow(40), 20, B), Exact(9));
    }

    /// The integer root by bisection on the powers, as `root` worked it
    /// out before the floating-point estimate.
    fn root_by_bisection(x: u64, n: u32) -> u64 {
        let (mut lo, mut hi) = (0u64, 1u64 << 32);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            match mid.checked_pow(n) {
                Some(p) if p <= x => lo = mid,
                _ => hi = mid,
            }
        }
        lo
    }

    #[test]
    fn floor_roots_agree_with_bisection() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut random = || {
            // xorshift, shifted down a random amount: values of every size.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x >> (x % 64)
        };
        let mut values: Vec<u64> = vec![0, 1, 2, 3, u64::MAX, u64::MAX - 1, 1 << 63];
        values.extend((0..2000).map(|_| random()));
        for &v in &values {
            for n in 2..64u32 {
                assert_eq!(floor_root(v, n), root_by_bisection(v, n), "root({v}, {n})");
            }
        }
        // Perfect powers and their neighbours, where rounding could err:
        // small roots, the largest roots, and roots at random.
        let top = u64::MAX.isqrt();
        for n in 2..64u32 {
            let mut roots: Vec<u64> = (2..300).chain(top - 300..=top).collect();
            roots.extend((0..300).map(|_| random() % top));
            for r in roots {
                let Some(p) = r.checked_pow(n) else { continue };
                for v in [p.saturating_sub(1), p, p.saturating_add(1)] {
                    assert_eq!(floor_root(v, n), root_by_bisection(v, n), "root({v}, {n})");
                }
            }
        }
    }

    #[test]
    fn roots_agree_with_powers_everywhere_the_filters_act() {
        // Every perfect power below 10^6 is found, and nothing else.
        let mut powers = std::collections::HashMap::new();
        for n in 2u32..20 {
            for r in 0i128..1000 {
                let p = r.pow(n);
                if p >= 1_000_000 {
                    break;
                }
                powers.insert((p, i128::from(n)), r);
            }
        }
        for n in 2..20 {
            for x in 0..200_000 {
                let want = powers.get(&(x, n)).copied();
                let got = match Root.apply(x, n, B) {
                    Exact(r) => Some(r),
                    _ => None,
                };
                assert_eq!(got, want, "root({x}, {n})");
            }
        }
    }

    #[test]
    fn functions() {
        assert_eq!(Func::Tri.apply(13, B), Exact(91));
        assert_eq!(Func::Tri.apply(0, B), Exact(0));
        assert_eq!(Func::Tri.apply(-1, B), Undefined);
        assert_eq!(Func::Fact.apply(0, B), Exact(1));
        assert_eq!(Func::Fact.apply(5, B), Exact(120));
        assert_eq!(Func::Fact.apply(20, B), Exact(2_432_902_008_176_640_000));
        assert_eq!(Func::Fact.apply(21, B), Pruned);
        assert_eq!(Func::Fact.apply(-3, B), Undefined);
        assert_eq!(Func::Sqrt.apply(49, B), Exact(7));
        assert_eq!(Func::Sqrt.apply(50, B), Undefined);
        assert_eq!(Func::Tri.apply(Value::from(u64::MAX), B), Pruned);
    }

    #[test]
    fn juxtaposition_concatenates_card_values() {
        assert_eq!(juxtapose(&[7, 8], B), Exact(78));
        assert_eq!(juxtapose(&[10, 3], B), Exact(103));
        assert_eq!(juxtapose(&[3, 10], B), Exact(310));
        assert_eq!(
            juxtapose(&[13, 13, 13, 13, 13, 13], B),
            Exact(131_313_131_313)
        );
        assert_eq!(juxtapose(&[9, 9, 9], 100), Pruned);
    }
}
