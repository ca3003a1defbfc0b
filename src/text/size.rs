//! Sizes in bytes as a person reads them: `512 MiB`, `3.8 GiB`.

use std::fmt;

/// A size in bytes, as a person reads it: `512 MiB`, `3.8 GiB`.
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        let mut unit = 0;
        let mut whole = self.0;
        while whole >= 1024 && unit < UNITS.len() - 1 {
            whole /= 1024;
            unit += 1;
        }
        if unit == 0 {
            return write!(f, "{} byte{}", self.0, if self.0 == 1 { "" } else { "s" });
        }
        let scaled = self.0 as f64 / (1u64 << (10 * unit)) as f64;
        if let Some(decimals) = f.precision() {
            write!(f, "{scaled:.decimals$} {}", UNITS[unit])
        } else if scaled < 10.0 {
            write!(f, "{scaled:.1} {}", UNITS[unit])
        } else {
            write!(f, "{scaled:.0} {}", UNITS[unit])
        }
    }
}

/// Two sizes in one unit (the larger's) written with as few decimals as
/// tell them apart (at most three; in bytes where three do not), so that a
/// refusal never reads "about 12 GiB, more than the limit of 12 GiB" nor
/// "10 GiB, more than 10.0 GiB".
pub fn apart(a: u64, b: u64) -> (String, String) {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let larger = a.max(b);
    if larger < 1024 {
        return (Bytes(a).to_string(), Bytes(b).to_string());
    }
    let unit = (1..UNITS.len())
        .take_while(|&u| larger >= 1u64 << (10 * u))
        .last()
        .unwrap_or(1);
    let scale = (1u64 << (10 * unit)) as f64;
    let (x, y) = (a as f64 / scale, b as f64 / scale);
    let first = usize::from(x.max(y) < 10.0);
    let write = |v: f64, d: usize| format!("{v:.d$} {}", UNITS[unit]);
    let mut decimals = first;
    while decimals < 3 && write(x, decimals) == write(y, decimals) {
        decimals += 1;
    }
    if a != b && write(x, decimals) == write(y, decimals) {
        return (format!("{a} bytes"), format!("{b} bytes"));
    }
    (write(x, decimals), write(y, decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print() {
        assert_eq!(Bytes(512).to_string(), "512 bytes");
        assert_eq!(Bytes(1).to_string(), "1 byte");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Bytes(12 << 30).to_string(), "12 GiB");
        assert_eq!(format!("{:.2}", Bytes(12 << 30)), "12.00 GiB");
    }

    #[test]
    fn sizes_apart_are_written_apart() {
        let gib = 1u64 << 30;
        // A need just past the limit reads past it.
        let (need, limit) = apart(12 * gib + gib / 5, 12 * gib);
        assert_eq!((need.as_str(), limit.as_str()), ("12.2 GiB", "12.0 GiB"));
        let (need, limit) = apart(12 * gib + gib / 500, 12 * gib);
        assert_eq!(
            (need.as_str(), limit.as_str()),
            ("12.002 GiB", "12.000 GiB")
        );
        // Sizes far apart keep the usual rounding.
        let (need, limit) = apart(17 * gib, 12 * gib);
        assert_eq!((need.as_str(), limit.as_str()), ("17 GiB", "12 GiB"));
        // Across a unit's edge: both in the larger's unit.
        let (need, limit) = apart(10 * gib + gib / 5, 10 * gib - gib / 30);
        assert_eq!((need.as_str(), limit.as_str()), ("10.2 GiB", "10.0 GiB"));
        let (need, limit) = apart(gib, gib - (1 << 20));
        assert_eq!((need.as_str(), limit.as_str()), ("1.000 GiB", "0.999 GiB"));
        assert_eq!(
            apart(100, 2 << 10),
            ("0.1 KiB".to_string(), "2.0 KiB".to_string())
        );
        // Closer than three decimals tell: in bytes, never "16.000 MiB,
        // more than the limit of 16.000 MiB".
        let mib = 1u64 << 20;
        assert_eq!(
            apart(16 * mib + 300, 16 * mib),
            ("16777516 bytes".to_string(), "16777216 bytes".to_string())
        );
        assert_eq!(apart(16 * mib, 16 * mib).0, "16.000 MiB");
    }

    /// Past the largest unit, sizes print in it (the loop stops at TiB).
    #[test]
    fn sizes_past_the_largest_unit_print_in_it() {
        assert_eq!(Bytes(3 << 50).to_string(), "3072 TiB");
        assert_eq!(Bytes(u64::MAX).to_string(), "16777216 TiB");
        assert_eq!(apart(3 << 50, 1 << 40).0, "3072 TiB");
    }

    /// Under a KiB both sizes read in bytes; from a KiB on, in KiB; ten
    /// of a unit and more without decimals.
    #[test]
    fn sizes_at_the_edges_of_their_units() {
        assert_eq!(
            apart(100, 200),
            ("100 bytes".to_string(), "200 bytes".to_string())
        );
        assert_eq!(
            apart(1023, 1),
            ("1023 bytes".to_string(), "1 byte".to_string())
        );
        assert_eq!(
            apart(1024, 512),
            ("1.0 KiB".to_string(), "0.5 KiB".to_string())
        );
        assert_eq!(
            apart(10 << 30, 5 << 30),
            ("10 GiB".to_string(), "5 GiB".to_string())
        );
        assert_eq!(Bytes(10 << 30).to_string(), "10 GiB");
        assert_eq!(Bytes(10 << 10).to_string(), "10 KiB");
    }
}
