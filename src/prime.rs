//! Exact primality for every value the solver can reach (|v| < 2^64).

use crate::arith::Value;

/// Whether `v` is prime. Negative numbers, 0 and 1 are not.
pub fn is_prime(v: Value) -> bool {
    match u64::try_from(v) {
        Ok(n) if n < 128 => SMALL_PRIMES & (1u128 << n) != 0,
        // Most composites have a small factor: 64-bit remainders are far
        // cheaper than a Miller-Rabin round on 128-bit products.
        Ok(n) => SMALL_FACTORS.iter().all(|&p| n % p != 0) && primal::is_prime(n),
        Err(_) => false,
    }
}

/// The primes below 128, as trial divisors for larger values.
const SMALL_FACTORS: [u64; 30] = [
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    101, 103, 107, 109, 113,
];

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

    #[test]
    fn explanations() {
        assert_eq!(why_not_prime(91).unwrap(), "91 = 7 × 13 is not prime");
        assert_eq!(why_not_prime(1).unwrap(), "1 is not prime");
        assert!(why_not_prime(-7).unwrap().contains("negative"));
        assert_eq!(why_not_prime(97), None);
    }
}
