//! `hands.csv`: one row per hand, sorted by hand.

use crate::analysis::{Analysis, Call};
use crate::expr::Style;
use crate::report::list;

/// The columns, in order.
pub const COLUMNS: [&str; 10] = [
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
];

pub fn hands(a: &Analysis, style: Style) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(COLUMNS).expect("writing to memory");
    for h in &a.hands {
        let weight = a.weight(h);
        let [hp, hw] = Call::fields(h.highest.as_ref(), style);
        let [sp, sw] = Call::fields(h.simplest.as_ref(), style);
        out.write_record([
            h.hand.to_string(),
            weight.to_string(),
            weight.decimal(8),
            h.primes.len().to_string(),
            list(&h.primes),
            hp,
            hw,
            sp,
            sw,
            h.pruned.to_string(),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(out.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}
