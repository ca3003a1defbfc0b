//! The 54-card pack: A-K in four suits and two Jokers, the values its
//! cards count, and how many of them count each value.

use std::sync::OnceLock;

use crate::card::{Card, Rank, Suit};
use crate::rules::Faces;

/// The highest value any card can count.
pub const MAX_CARD_VALUE: u8 = 13;

/// The pack: A-K in four suits and two Jokers.
pub fn cards() -> Vec<Card> {
    let mut cards: Vec<Card> = Suit::ALL
        .into_iter()
        .flat_map(|suit| {
            Rank::all().map(move |rank| Card::Ranked {
                rank,
                suit: Some(suit),
            })
        })
        .collect();
    cards.extend([Card::Joker, Card::Joker]);
    cards
}

/// How many cards of the pack count each value 1-13 under `faces`
/// (index 0 unused), Jokers apart.
///
/// # Panics
/// Never: every card of the pack has a value under every faces.
pub fn cards_per_value(faces: Faces) -> [u64; MAX_CARD_VALUE as usize + 1] {
    // Worked out once per way of counting: every hand the game shows is
    // checked against it.
    static COUNTS: [OnceLock<[u64; MAX_CARD_VALUE as usize + 1]>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = Faces::ALL
        .iter()
        .position(|&f| f == faces)
        .expect("one of the faces");
    *COUNTS[slot].get_or_init(|| count_per_value(faces))
}

fn count_per_value(faces: Faces) -> [u64; MAX_CARD_VALUE as usize + 1] {
    let mut per_value = [0u64; MAX_CARD_VALUE as usize + 1];
    for suit in Suit::ALL {
        for rank in Rank::all() {
            let card = Card::Ranked {
                rank,
                suit: Some(suit),
            };
            let v = card.value(faces).expect("every pack card has a value");
            per_value[usize::from(v.expect("not a Joker"))] += 1;
        }
    }
    per_value
}

/// The pack's two Jokers.
pub const JOKERS: u64 = 2;
