//! The normal form that decides when two expressions are one way: the
//! rational function of the cards, taken as distinct unknowns, that an
//! expression computes, fingerprinted by evaluating it at fixed random
//! points modulo the prime 2^61 − 1, twice over.
//!
//! Two expressions that compute the same rational function always get the
//! same [`Form`]. Two that compute different ones get the same form only if
//! both evaluations collide. By the Schwartz–Zippel lemma a nonzero
//! difference of degree at most d vanishes at a random point with
//! probability at most d / (2^61 − 1); the degrees here stay below 64, so a
//! pair of different expressions collides with probability below
//! (64 / 2^61)^2 < 2^−110 (powers, roots, functions and juxtaposed cards
//! are opaque symbols, each a keyed hash of its operands' forms, which
//! adds a chance of 2^−61 per component). Over every pair the tool will
//! ever compare the chance of one wrong merge stays below 2^−60.

use crate::arith::{BinOp, Func};

/// The prime modulus, 2^61 − 1 (a Mersenne prime: reduction is a shift
/// and an add).
const P: u64 = (1 << 61) - 1;

/// How many independent evaluations a form carries.
const LANES: usize = 2;

/// The most unknowns (cards) a form has points for.
pub const MAX_UNKNOWNS: usize = 6;

/// The rational function an expression computes, as a fingerprint: equal
/// for equal functions, different (but for the chance above) otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Form([u64; LANES]);

/// What each opaque symbol is called inside the hash.
#[derive(Clone, Copy)]
enum Symbol {
    Pow = 1,
    Root = 2,
    Tri = 3,
    Fact = 4,
    Sqrt = 5,
    Join = 6,
}

/// The fixed points: one per unknown and lane, each in `1..P`.
const POINTS: [[u64; MAX_UNKNOWNS]; LANES] = points();

/// The keys of the opaque symbols' hash, one per lane.
const KEYS: [u64; LANES] = [0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B];

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn points() -> [[u64; MAX_UNKNOWNS]; LANES] {
    let mut out = [[0; MAX_UNKNOWNS]; LANES];
    let mut state = 0x5052_494D_4554_494D; // "PRIMETIM"
    let mut lane = 0;
    while lane < LANES {
        let mut i = 0;
        while i < MAX_UNKNOWNS {
            state = splitmix(state);
            let p = (state >> 3) % (P - 1) + 1;
            out[lane][i] = p;
            i += 1;
        }
        lane += 1;
    }
    out
}

fn reduce(x: u128) -> u64 {
    // x < 2^122: fold the high bits onto the low ones, twice.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "both halves are masked or shifted below 2^64"
    )]
    let s = ((x as u64) & P) + ((x >> 61) as u64);
    let s = (s & P) + (s >> 61);
    if s >= P { s - P } else { s }
}

fn add(a: u64, b: u64) -> u64 {
    let s = a + b;
    if s >= P { s - P } else { s }
}

fn sub(a: u64, b: u64) -> u64 {
    if a >= b { a - b } else { a + P - b }
}

fn mul(a: u64, b: u64) -> u64 {
    reduce(u128::from(a) * u128::from(b))
}

/// The inverse by Fermat's little theorem; 0 for 0 (a denominator that
/// vanishes at the point, one of the chances counted above).
fn inv(a: u64) -> u64 {
    let mut base = a;
    let mut e = P - 2;
    let mut acc = 1;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    acc
}

impl Form {
    /// The unknown standing for the card at `position` (below
    /// [`MAX_UNKNOWNS`]).
    pub fn unknown(position: usize) -> Form {
        Form(std::array::from_fn(|lane| POINTS[lane][position]))
    }

    fn lanes(a: Form, b: Form, f: impl Fn(u64, u64) -> u64) -> Form {
        Form(std::array::from_fn(|lane| f(a.0[lane], b.0[lane])))
    }

    fn opaque(symbol: Symbol, args: &[Form]) -> Form {
        Form(std::array::from_fn(|lane| {
            let mut h = KEYS[lane] ^ symbol as u64;
            for a in args {
                h = splitmix(h ^ a.0[lane]);
            }
            h % P
        }))
    }

    /// `a op b`: + − × ÷ as rational functions, `^` and `root` as symbols.
    pub fn binary(op: BinOp, a: Form, b: Form) -> Form {
        match op {
            BinOp::Add => Form::lanes(a, b, add),
            BinOp::Sub => Form::lanes(a, b, sub),
            BinOp::Mul => Form::lanes(a, b, mul),
            BinOp::Div => Form::lanes(a, b, |x, y| mul(x, inv(y))),
            BinOp::Pow => Form::opaque(Symbol::Pow, &[a, b]),
            BinOp::Root => Form::opaque(Symbol::Root, &[a, b]),
        }
    }

    /// A function applied to `a`: a symbol, never expanded.
    pub fn unary(f: Func, a: Form) -> Form {
        let symbol = match f {
            Func::Tri => Symbol::Tri,
            Func::Fact => Symbol::Fact,
            Func::Sqrt => Symbol::Sqrt,
        };
        Form::opaque(symbol, &[a])
    }

    /// Cards juxtaposed in this order: a symbol of the unknowns.
    pub fn join(parts: &[Form]) -> Form {
        Form::opaque(Symbol::Join, parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(i: usize) -> Form {
        Form::unknown(i)
    }
    fn op(o: BinOp, a: Form, b: Form) -> Form {
        Form::binary(o, a, b)
    }
    use BinOp::{Add, Div, Mul, Pow, Sub};

    #[test]
    fn field_arithmetic_is_exact() {
        for a in [1, 2, P - 1, 12_345_678_901, P / 2] {
            assert_eq!(mul(a, inv(a)), 1, "{a}");
            assert_eq!(add(sub(a, 7), 7), a);
        }
        assert_eq!(mul(P - 1, P - 1), 1);
        assert_eq!(inv(0), 0);
    }

    #[test]
    fn the_same_function_is_the_same_form() {
        let (a, b, c, d) = (x(0), x(1), x(2), x(3));
        // a + (b + c) = (a + c) + b
        assert_eq!(op(Add, a, op(Add, b, c)), op(Add, op(Add, a, c), b));
        // a − (b − c) = a + c − b
        assert_eq!(op(Sub, a, op(Sub, b, c)), op(Sub, op(Add, a, c), b));
        // a ÷ (b ÷ c) = a × c ÷ b
        assert_eq!(op(Div, a, op(Div, b, c)), op(Div, op(Mul, a, c), b));
        // (a − b) ÷ (c − d) = (b − a) ÷ (d − c)
        assert_eq!(
            op(Div, op(Sub, a, b), op(Sub, c, d)),
            op(Div, op(Sub, b, a), op(Sub, d, c))
        );
        // T(a + b) = T(b + a), a symbol of a normal form
        assert_eq!(
            Form::unary(Func::Tri, op(Add, a, b)),
            Form::unary(Func::Tri, op(Add, b, a))
        );
    }

    #[test]
    fn different_functions_are_different_forms() {
        let (a, b, c) = (x(0), x(1), x(2));
        assert_ne!(op(Add, a, b), op(Mul, a, b));
        assert_ne!(op(Sub, a, b), op(Sub, b, a));
        assert_ne!(op(Pow, a, b), op(Pow, b, a));
        // a^b × a^c is not expanded to a^(b + c)
        assert_ne!(
            op(Mul, op(Pow, a, b), op(Pow, a, c)),
            op(Pow, a, op(Add, b, c))
        );
        assert_ne!(Form::join(&[a, b]), Form::join(&[b, a]));
        assert_ne!(Form::unary(Func::Tri, a), Form::unary(Func::Fact, a));
    }
}
