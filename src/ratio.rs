//! Exact fractions for deal weights and probabilities, printed as `68/2067`
//! or as a rounded decimal, without floating point.

use std::fmt;
use std::ops::Add;

/// A non-negative fraction in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

/// The greatest common divisor (0 for gcd(0, 0)).
pub(crate) fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// The fraction `num/den` in lowest terms.
    ///
    /// # Panics
    /// When `den` is 0.
    pub fn new(num: u128, den: u128) -> Ratio {
        assert!(den > 0, "zero denominator");
        let g = gcd(num, den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// Rounded to `places` decimals, half up: `0.002742`.
    pub fn decimal(self, places: u32) -> String {
        let scale = 10u128.pow(places);
        let scaled = (self.num * scale * 2 + self.den) / (self.den * 2);
        let (whole, frac) = (scaled / scale, scaled % scale);
        if places == 0 {
            whole.to_string()
        } else {
            format!("{whole}.{frac:0width$}", width = places as usize)
        }
    }

    /// The nearest `f64`, for machine-readable output beside the exact form.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// A probability as every report writes it: the exact fraction and a
    /// percentage with three decimals, `16/6201 (0.258%)`; `0` when it is
    /// zero, and `(<0.001%)` for a chance too small to show.
    pub fn probability(self) -> String {
        if self.num == 0 {
            return "0".to_string();
        }
        let percent = self.percent(3);
        if percent == "0.000%" {
            format!("{self} (<0.001%)")
        } else {
            format!("{self} ({percent})")
        }
    }

    /// As a percentage rounded to `places` decimals: `0.27%`.
    pub fn percent(self, places: u32) -> String {
        format!("{}%", Ratio::new(self.num * 100, self.den).decimal(places))
    }
}

impl Ord for Ratio {
    /// By value: cross-multiplied exactly, or (beyond 128 bits) compared as
    /// floating point.
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        match (
            self.num.checked_mul(other.den),
            other.num.checked_mul(self.den),
        ) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self.to_f64().total_cmp(&other.to_f64()),
        }
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, other: Ratio) -> Ratio {
        let den = self.den / gcd(self.den, other.den) * other.den;
        Ratio::new(
            self.num * (den / self.den) + other.num * (den / other.den),
            den,
        )
    }
}

impl std::ops::Mul for Ratio {
    type Output = Ratio;
    fn mul(self, other: Ratio) -> Ratio {
        // Cross-reduced first, so that the products stay small.
        let (a, b) = (
            gcd(self.num, other.den).max(1),
            gcd(other.num, self.den).max(1),
        );
        Ratio::new(
            (self.num / a) * (other.num / b),
            (self.den / b) * (other.den / a),
        )
    }
}

impl fmt::Display for Ratio {
    /// `68/2067`, or `0` and `1` when whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ratios closer than a float tells apart are still ordered
    /// exactly (the cross-multiplication, not the float fallback).
    #[test]
    fn close_ratios_order_exactly() {
        let third = Ratio::new(1, 3);
        let near = Ratio::new(100_000_000_000_000_000, 300_000_000_000_000_001);
        assert_eq!(third.to_f64(), near.to_f64());
        assert!(near < third);
        assert_ne!(near.cmp(&third), std::cmp::Ordering::Equal);
    }

    /// A sum takes the least common denominator: denominators whose
    /// product passes 128 bits still add.
    #[test]
    fn sums_of_large_denominators_do_not_overflow() {
        let tiny = Ratio::new(1, 1 << 64);
        assert_eq!(tiny + tiny, Ratio::new(1, 1 << 63));
        let other = Ratio::new(1, 3 << 62);
        assert_eq!(tiny + other, Ratio::new(3 + 4, 3 << 64));
    }

    #[test]
    fn ratios_order_by_value() {
        assert!(Ratio::new(1, 3) < Ratio::new(1, 2));
        assert!(Ratio::new(2, 4) == Ratio::new(1, 2));
        assert!(Ratio::new(7, 3) > Ratio::new(2, 1));
        assert!(Ratio::new(u128::MAX, 3) > Ratio::new(u128::MAX / 2, 3));
    }

    #[test]
    fn arithmetic_and_printing() {
        let r = Ratio::new(816, 24_804);
        assert_eq!(r.to_string(), "68/2067");
        assert_eq!(r.decimal(6), "0.032898");
        assert_eq!(Ratio::new(1, 3) + Ratio::new(1, 6), Ratio::new(1, 2));
        assert_eq!(Ratio::new(1, 2).decimal(0), "1");
        assert_eq!(Ratio::new(2, 3).decimal(3), "0.667");
        assert_eq!(Ratio::new(1, 400).percent(2), "0.25%");
        assert_eq!(Ratio::ONE.to_string(), "1");
        assert_eq!(Ratio::new(16, 6201).probability(), "16/6201 (0.258%)");
        assert_eq!(Ratio::new(1, 2).probability(), "1/2 (50.000%)");
        assert_eq!(Ratio::ZERO.probability(), "0");
        assert_eq!(
            Ratio::new(1, 25_827_165).probability(),
            "1/25827165 (<0.001%)"
        );
    }
}
