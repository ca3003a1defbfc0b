//! Fuzzes the referee: any bytes as a claim, on a hand and house rules taken
//! from the first bytes. A claim must end in a verdict: never a panic, a
//! stack overflow or an abort; a valid claim is a prime; a parse error
//! points inside the claim; a fault is one line without control characters.

#![no_main]

use libfuzzer_sys::fuzz_target;

use prime_solve::Claim;
use prime_solve::text::needs_escape;
use prime_solve::is_prime;
use prime_solve::{Faces, Fault, Functions, Hand, Rules, check};

fuzz_target!(|data: &[u8]| {
    let Some((&[flags, size, a, b, c, d, e, f], text)) = data.split_first_chunk::<8>() else {
        return;
    };
    let Ok(claim) = std::str::from_utf8(text) else {
        return;
    };
    let values: Vec<u8> = [a, b, c, d, e, f]
        .iter()
        .take(2 + usize::from(size % 5))
        .map(|v| v % 13 + 1)
        .collect();
    let rules = Rules {
        faces: Faces::ALL[usize::from(flags % 3)],
        powers: flags & 0x04 != 0,
        juxtapose: flags & 0x08 != 0,
        functions: if flags & 0x10 != 0 {
            Functions::ALL
        } else {
            Functions::NONE
        },
        function_depth: if flags & 0x10 != 0 {
            1 + (flags >> 6) % 3
        } else {
            1
        },
        max_prime: if flags & 0x20 != 0 { None } else { Some(97) },
        ..Rules::default()
    };
    let parsed = Claim::parse(claim);
    match check(Hand::from_values(&values), claim, &rules) {
        Ok(p) => {
            assert!(parsed.is_ok());
            assert!(is_prime(p), "{claim:?} = {p}");
        }
        Err(fault) => {
            if let Fault::Parse(err) = &fault {
                assert_eq!(parsed.as_ref().err(), Some(err));
                assert!(
                    (1..=claim.chars().count() + 1).contains(&err.column),
                    "{err}"
                );
            }
            let text = fault.to_string();
            assert!(!text.chars().any(needs_escape), "{text:?}");
        }
    }
});
