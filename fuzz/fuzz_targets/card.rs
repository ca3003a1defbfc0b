//! Fuzzes card tokens and hands: any text, split at whitespace, read as
//! cards and then as a hand under every face rule. Never a panic; an error
//! names the token without control characters.

#![no_main]

use libfuzzer_sys::fuzz_target;

use prime_solve::text::needs_escape;
use prime_solve::{Card, Faces, Hand};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut cards = Vec::new();
    for token in text.split(' ') {
        match Card::parse(token) {
            Ok(card) => {
                for faces in Faces::ALL {
                    if let Err(err) = card.value(faces) {
                        assert!(!err.to_string().chars().any(needs_escape));
                    }
                }
                cards.push(card);
            }
            Err(err) => assert!(!err.to_string().chars().any(needs_escape), "{err}"),
        }
    }
    for faces in Faces::ALL {
        match Hand::from_cards(&cards, faces) {
            Ok(hand) => assert_eq!(hand.len(), cards.len()),
            Err(err) => assert!(!err.to_string().chars().any(needs_escape), "{err}"),
        }
    }
});
