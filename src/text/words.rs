//! Small helpers for printing counts as English: `1 prime`, `2 primes`,
//! `four`.

use std::fmt;

/// `n` and the noun agreeing with it: `plural(1, "prime", "primes")` is
/// `1 prime`, `plural(2, "prime", "primes")` is `2 primes`.
pub fn plural<N: fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

/// Items as a list ending in `or`: `a, b or c`.
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", init.join(", "), last.as_ref())
        }
    }
}

/// `n` with its digits in groups of three: `grouped(4965)` is `4,965`.
pub fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `n` in words up to twenty (`four`), in digits above.
pub fn number(n: usize) -> String {
    const WORDS: [&str; 21] = [
        "no",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_in_threes() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(4965), "4,965");
        assert_eq!(grouped(190_000), "190,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(plural(1u8, "prime", "primes"), "1 prime");
        assert_eq!(plural(0u8, "prime", "primes"), "0 primes");
        assert_eq!(plural(5000u32, "turn", "turns"), "5000 turns");
        assert_eq!(number(4), "four");
        assert_eq!(number(16), "sixteen");
        assert_eq!(number(54), "54");
    }
}
