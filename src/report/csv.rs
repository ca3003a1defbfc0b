//! `hands.csv`: one row per hand, sorted by hand.

use crate::analysis::{Analysis, Difficulty, Witnessed};
use crate::report::list;
use crate::style::Style;

/// The columns, in order.
pub const COLUMNS: [&str; 12] = [
    "hand",
    "weight",
    "probability",
    "prime_count",
    "primes",
    "ways",
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
            list(&h.ways),
            hp,
            hw,
            sp,
            sw,
            h.pruned.map(|n| n.to_string()).unwrap_or_default(),
            difficulty(h.difficulty),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(out.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}

/// The `difficulty` field: the hand's difficulty from its ways
/// ([`Difficulty`]) to one decimal, with `hard` for a hard hand (`4.0
/// hard`, `0.8`, `hard` for a hand with no prime; empty where the ways
/// were not counted).
pub fn difficulty(d: Option<Difficulty>) -> String {
    let Some(d) = d else {
        return String::new();
    };
    match (d.score(), d.is_hard()) {
        (Some(s), true) => format!("{s:.1} hard"),
        (Some(s), false) => format!("{s:.1}"),
        (None, _) => "hard".to_string(),
    }
}
