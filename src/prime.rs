//! Exact primality for every value the solver can reach (|v| < 2^64).

use crate::arith::Value;

/// Whether `v` is prime. Negative numbers, 0 and 1 are not.
pub fn is_prime(v: Value) -> bool {
    match u64::try_from(v) {
        Ok(n) if n < 128 => SMALL_PRIMES & (1u128 << n) != 0,
        Ok(n) if n % 2 == 0 => false,
        Ok(n) if n < SIEVED => sieved(n),
        // Most composites have a small factor: 64-bit remainders are far
        // cheaper than a Miller-Rabin round.
        Ok(n) => {
            ODD_FACTORS
                .iter()
                .all(|&(inv, max)| n.wrapping_mul(inv) > max)
                && remembered(n)
        }
        Err(_) => false,
    }
}

/// Odd values below this are looked up in a bitmap (64 KiB).
const SIEVED: u64 = 1 << 20;

/// Whether odd `n` < [`SIEVED`] is prime: bit n / 2 of a sieve of
/// Eratosthenes, built once.
fn sieved(n: u64) -> bool {
    static BITS: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    let bits = BITS.get_or_init(|| {
        // Bit i stands for 2i + 1; set while not yet struck out.
        let odd = usize::try_from(SIEVED / 2).expect("a small constant");
        let mut bits = vec![u64::MAX; odd / 64];
        bits[0] &= !1; // 1 is not prime
        let mut i = 1;
        while (2 * i + 1) * (2 * i + 1) < 2 * odd {
            if bits[i / 64] >> (i % 64) & 1 == 1 {
                let p = 2 * i + 1;
                // Odd multiples of p from p²: indexes p²/2, then every p.
                let mut j = p * p / 2;
                while j < odd {
                    bits[j / 64] &= !(1 << (j % 64));
                    j += p;
                }
            }
            i += 1;
        }
        bits
    });
    let i = usize::try_from(n / 2).expect("below SIEVED");
    bits[i / 64] >> (i % 64) & 1 == 1
}

/// Slots of the per-thread memo of Miller-Rabin verdicts.
const REMEMBERED: usize = 1 << 15;

/// Miller-Rabin for odd `n` >= [`SIEVED`], through a small direct-mapped
/// memo per thread (256 KiB): a sweep meets the same large values hand
/// after hand (under powers and functions, about seven in eight of the
/// values tested are repeats), and a prime costs up to seven rounds.
fn remembered(n: u64) -> bool {
    use std::cell::RefCell;
    thread_local! {
        // `n − 1 + verdict` for an odd n, so the slot keeps both; 0 is
        // empty, as n − 1 >= SIEVED − 1 > 1.
        static MEMO: RefCell<Vec<u64>> = RefCell::new(vec![0; REMEMBERED]);
    }
    #[allow(clippy::cast_possible_truncation, reason = "the top bits of a hash")]
    let slot =
        (n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - REMEMBERED.trailing_zeros())) as usize;
    MEMO.with_borrow_mut(|memo| {
        let held = memo[slot];
        if held & !1 == n - 1 {
            return held & 1 == 1;
        }
        let prime = miller_rabin(n);
        memo[slot] = n - 1 + u64::from(prime);
        prime
    })
}

/// Deterministic Miller-Rabin for an odd `n` >= 128: bases 2, 7, 61 below
/// 4,759,123,141, else the seven bases of Jim Sinclair's set, which no
/// composite below 2^64 passes. Both in Montgomery form, so that no step
/// divides (a 64-bit division costs several multiplications, a 128-bit one
/// many more).
fn miller_rabin(n: u64) -> bool {
    let m = Montgomery::new(n);
    if n < 4_759_123_141 {
        return [2, 7, 61].iter().all(|&a| m.strong_probable_prime(a));
    }
    [2, 325, 9375, 28178, 450_775, 9_780_504, 1_795_265_022]
        .iter()
        .all(|&a| m.strong_probable_prime(a))
}

/// Arithmetic modulo an odd `n` in Montgomery form (R = 2^64).
struct Montgomery {
    n: u64,
    /// n^-1 mod 2^64.
    inv: u64,
    /// R mod n: 1 in Montgomery form.
    one: u64,
    /// R^2 mod n: converts into Montgomery form.
    r2: u64,
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "the halves of 128-bit products, and remainders modulo n"
)]
impl Montgomery {
    fn new(n: u64) -> Montgomery {
        debug_assert!(n % 2 == 1);
        // Newton's iteration doubles the correct low bits: 3, 6, 12, 24, 48, 96.
        let mut inv = n;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(n.wrapping_mul(inv)));
        }
        // Below 2^32, R mod n squared fits 64 bits: no 128-bit division.
        let one = (u64::MAX % n + 1) % n;
        let r2 = if n < 1 << 32 {
            one * one % n
        } else {
            (u128::from(one) * u128::from(one) % u128::from(n)) as u64
        };
        Montgomery { n, inv, one, r2 }
    }

    /// x·y·R^-1 mod n, for x, y < n.
    fn mul(&self, x: u64, y: u64) -> u64 {
        let t = u128::from(x) * u128::from(y);
        let (hi, lo) = ((t >> 64) as u64, t as u64);
        let m = lo.wrapping_mul(self.inv);
        let mn = ((u128::from(m) * u128::from(self.n)) >> 64) as u64;
        // t − m·n is a multiple of 2^64 whose low halves cancel exactly.
        if hi < mn {
            hi.wrapping_sub(mn).wrapping_add(self.n)
        } else {
            hi - mn
        }
    }

    fn strong_probable_prime(&self, a: u64) -> bool {
        let n = self.n;
        let a = a % n;
        if a == 0 {
            return true;
        }
        let minus_one = n - self.one;
        let s = (n - 1).trailing_zeros();
        let mut e = (n - 1) >> s;
        let (mut x, mut base) = (self.one, self.mul(a, self.r2));
        while e > 0 {
            if e & 1 == 1 {
                x = self.mul(x, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        if x == self.one || x == minus_one {
            return true;
        }
        for _ in 1..s {
            x = self.mul(x, x);
            if x == minus_one {
                return true;
            }
        }
        false
    }
}

/// The primes below 128, as trial divisors for larger values.
const SMALL_FACTORS: [u64; 30] = [
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    101, 103, 107, 109, 113,
];

/// For each odd prime p below 128, p^-1 mod 2^64 and (2^64 − 1) / p: p
/// divides n exactly when n·p^-1 mod 2^64 is at most the second, one
/// multiplication instead of a division.
const ODD_FACTORS: [(u64, u64); 29] = {
    let mut out = [(0, 0); 29];
    let mut i = 0;
    while i < 29 {
        let p = SMALL_FACTORS[i + 1];
        let mut inv = p;
        let mut k = 0;
        while k < 5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
            k += 1;
        }
        out[i] = (inv, u64::MAX / p);
        i += 1;
    }
    out
};

/// Bit n is set when n < 128 is prime: a fast path for the common case.
const SMALL_PRIMES: u128 = {
    let mut bits = 0u128;
    let mut n = 2;
    while n < 128 {
        let mut d = 2;
        let mut prime = true;
        while d * d <= n {
            if n % d == 0 {
                prime = false;
            }
            d += 1;
        }
        if prime {
            bits |= 1 << n;
        }
        n += 1;
    }
    bits
};

/// Why `v` is not prime, in a player's words: "91 = 7 × 13 is not prime".
/// `None` when it is prime.
pub fn why_not_prime(v: Value) -> Option<String> {
    if is_prime(v) {
        return None;
    }
    Some(match v {
        _ if v < 0 => format!("{v} is negative, and primes are positive"),
        0 | 1 => format!("{v} is not prime"),
        _ => match smallest_factor(v) {
            Some(p) => format!("{v} = {p} × {} is not prime", v / p),
            None => format!("{v} is not prime"),
        },
    })
}

/// The smallest factor of a composite `v`, if trial division finds it cheaply.
fn smallest_factor(v: Value) -> Option<Value> {
    (2..=1_000_000)
        .take_while(|d| d * d <= v)
        .find(|d| v % d == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_primes_agree_with_trial_division() {
        for n in -5..2000 {
            let naive = n >= 2 && (2..n).all(|d| n % d != 0);
            assert_eq!(is_prime(n), naive, "{n}");
        }
    }

    #[test]
    fn large_values() {
        assert!(is_prime(22_801_763_489));
        assert!(!is_prime(22_801_763_487));
        assert!(is_prime(18_446_744_073_709_551_557)); // largest prime < 2^64
        assert!(!is_prime(Value::from(u64::MAX)));
        assert!(!is_prime(Value::from(u64::MAX) + 2));
    }

    /// The fast test against the `primal` crate's on values of every size,
    /// strong pseudoprimes to several bases and semiprimes near 2^64.
    #[test]
    fn miller_rabin_agrees_with_primal() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut checked = 0;
        for bits in 8..=64 {
            for _ in 0..4_000 {
                let n = (next() >> (64 - bits)) | 1 | 1 << (bits - 1);
                assert_eq!(is_prime(n.into()), primal::is_prime(n), "{n}");
                checked += 1;
            }
        }
        assert!(checked > 200_000);
        for n in [
            2_047u64,
            1_373_653,
            25_326_001,
            3_215_031_751,
            4_759_123_141,
            1_122_004_669_633,
            2_152_302_898_747,
            3_474_749_660_383,
            341_550_071_728_321,
            3_825_123_056_546_413_051,
            4_294_967_291 * 4_294_967_279,
            18_446_744_073_709_551_557,
            u64::MAX,
            u64::MAX - 58,
        ] {
            assert_eq!(is_prime(n.into()), primal::is_prime(n), "{n}");
        }
    }

    /// Every value near the edges where the test changes its arithmetic
    /// (2^32, where R^2 mod n stops fitting 64 bits) or its bases
    /// (4,759,123,141), and every value below 2^20 (the sieve's), against
    /// `primal`, each twice (the memo's answer).
    #[test]
    fn miller_rabin_agrees_with_primal_at_its_edges() {
        let edges = [1u64 << 32, 4_759_123_141];
        let around = edges
            .iter()
            .flat_map(|&e| e - 50_000..e + 50_000)
            .chain(0..1 << 20);
        for n in around {
            // The second time from the memo, where n is large enough.
            for _ in 0..2 {
                assert_eq!(is_prime(n.into()), primal::is_prime(n), "{n}");
            }
        }
    }

    #[test]
    fn explanations() {
        assert_eq!(why_not_prime(91).unwrap(), "91 = 7 × 13 is not prime");
        assert_eq!(why_not_prime(1).unwrap(), "1 is not prime");
        assert!(why_not_prime(-7).unwrap().contains("negative"));
        assert_eq!(why_not_prime(97), None);
    }
}
