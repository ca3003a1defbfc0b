//! The room's message decoder on arbitrary bytes: it answers a message or
//! a `BadMessage`, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = prime_solve::room::decode(text);
    }
});
