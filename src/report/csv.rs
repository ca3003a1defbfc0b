//! `hands.csv`: one row per hand, sorted by hand.

use crate::analysis::{Analysis, Difficulty, Witnessed};
use crate::report::list;
use crate::style::Style;

/// The columns, in order.
pub const COLUMNS: [&str; 11] = [
    "hand",
    "weight",
    "probability",
    "prime_count",
    "primes",
    "highest_prime",
    "highest_witness",
    "simplest_prime",
    "simplest_witness",
    "pruned",
    "difficulty",
];

/// `hands.csv`: one row per hand, sorted (columns in the README).
///
/// # Panics
/// Never: the table is written to memory.
pub fn hands(a: &Analysis, style: Style) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(COLUMNS).expect("writing to memory");
    for h in &a.hands {
        let weight = a.weight(h);
        let [hp, hw] = Witnessed::fields(h.highest.as_ref(), style);
        let [sp, sw] = Witnessed::fields(h.simplest.as_ref(), style);
        out.write_record([
            h.hand.to_string(),
            weight.to_string(),
            weight.decimal(8),
            h.prime_count().map(|n| n.to_string()).unwrap_or_default(),
            list(&h.primes),
            hp,
            hw,
            sp,
            sw,
            h.pruned.map(|n| n.to_string()).unwrap_or_default(),
            difficulty(h.difficulty()),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(out.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}

/// The `difficulty` field: the simplest witness's weight, with `hard` for a
/// hard hand (`4 hard`, `2`, `1 hard` for a hand with few primes, `hard`
/// for one with none; empty where the primes were not counted).
pub fn difficulty(d: Option<Difficulty>) -> String {
    let Some(d) = d else {
        return String::new();
    };
    match (d.weight, d.is_hard()) {
        (Some(w), true) => format!("{w} hard"),
        (Some(w), false) => w.to_string(),
        (None, _) => "hard".to_string(),
    }
}
