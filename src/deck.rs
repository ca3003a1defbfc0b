//! The deal: every hand of k cards the pack can produce, with exact deal
//! counts (cards drawn without replacement).

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use std::collections::BTreeMap;

use crate::hand::Hand;
use crate::pack::{JOKERS, MAX_CARD_VALUE, cards_per_value};
use crate::rules::Faces;

/// A hand with how many of the pack's k-card deals produce it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt {
    pub hand: Hand,
    pub deals: u64,
}

/// Every hand of `k` cards the pack deals under `faces`, sorted, with its
/// deal count, and the number of deals they share. A deal of Jokers only
/// (possible for k = 2) makes no hand and is left out of both.
pub fn deal(k: usize, faces: Faces) -> (Vec<Dealt>, u64) {
    let per_value = cards_per_value(faces);
    let mut hands: BTreeMap<Hand, u64> = BTreeMap::new();
    let mut chosen = Vec::new();
    collect(1, k, &per_value, JOKERS, 1, &mut chosen, &mut hands);
    let total = hands.values().sum();
    let dealt = hands
        .into_iter()
        .map(|(hand, deals)| Dealt { hand, deals })
        .collect();
    (dealt, total)
}

/// Chooses how many cards of each value from `value` up, then Jokers.
fn collect(
    value: u8,
    left: usize,
    per_value: &[u64],
    jokers: u64,
    ways: u64,
    chosen: &mut Vec<u8>,
    out: &mut BTreeMap<Hand, u64>,
) {
    if value > MAX_CARD_VALUE {
        // The rest are Jokers, copying the highest value chosen.
        let Some(&highest) = chosen.last() else {
            return; // Jokers only: no hand.
        };
        if left as u64 > jokers {
            return;
        }
        let mut values = chosen.clone();
        values.extend(std::iter::repeat_n(highest, left));
        *out.entry(Hand::from_values(&values)).or_default() += ways * binomial(jokers, left as u64);
        return;
    }
    let available = per_value[usize::from(value)];
    for take in 0..=left.min(usize::try_from(available).expect("at most 54 cards")) {
        chosen.extend(std::iter::repeat_n(value, take));
        let ways = ways * binomial(available, take as u64);
        collect(value + 1, left - take, per_value, jokers, ways, chosen, out);
        chosen.truncate(chosen.len() - take);
    }
}

/// n choose k, exactly.
pub fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratio::Ratio;

    #[test]
    fn hand_counts_and_weights_are_exact() {
        for (faces, hands) in [(Faces::Five, 220), (Faces::Rank, 455), (Faces::Suit, 220)] {
            let (dealt, total) = deal(3, faces);
            assert_eq!(dealt.len(), hands, "{faces:?}");
            assert_eq!(total, binomial(54, 3));
            let sum = dealt.iter().fold(Ratio::ZERO, |acc, d| {
                acc + Ratio::new(d.deals.into(), total.into())
            });
            assert_eq!(sum, Ratio::ONE);
        }
    }

    #[test]
    fn the_pack_has_fifty_four_cards() {
        let pack = crate::pack::cards();
        assert_eq!(pack.len(), 54);
        let jokers = pack
            .iter()
            .filter(|&&c| c == crate::card::Card::Joker)
            .count() as u64;
        assert_eq!(jokers, JOKERS);
        for faces in Faces::ALL {
            assert_eq!(cards_per_value(faces).iter().sum::<u64>() + JOKERS, 54);
        }
        let (dealt, total) = deal(6, Faces::Rank);
        // Of the C(18, 6) = 18,564 multisets of six values, the C(13, 2) = 78
        // with five of one value and one higher card cannot be dealt: four
        // suits give four, and a Joker copies the higher card.
        assert_eq!(dealt.len(), 18_564 - 78);
        assert_eq!(total, binomial(54, 6));
    }

    #[test]
    fn jokers_copy_the_higher_card_in_the_deal() {
        let (dealt, total) = deal(3, Faces::Five);
        // 1 1 1: three aces (C(4,3) = 4), two aces and a Joker (6 × 2),
        // or an ace and both Jokers (4).
        let aces = dealt
            .iter()
            .find(|d| d.hand == Hand::from_values(&[1, 1, 1]))
            .unwrap();
        assert_eq!(aces.deals, 4 + 6 * 2 + 4);
        // 5 5 5 under five: 16 cards count 5 (C(16,3) = 560), with Jokers
        // 16·2·... two fives and a Joker: C(16,2)·2 = 240; one five, two
        // Jokers: 16.
        let fives = dealt
            .iter()
            .find(|d| d.hand == Hand::from_values(&[5, 5, 5]))
            .unwrap();
        assert_eq!(fives.deals, 560 + 240 + 16);
        assert_eq!(total, 24_804);
    }

    /// Every multiset of `k` values from `low` up to `max`.
    fn multisets(k: usize, low: u8, max: u8) -> Vec<Vec<u8>> {
        if k == 0 {
            return vec![vec![]];
        }
        (low..=max)
            .flat_map(|v| {
                multisets(k - 1, v, max).into_iter().map(move |mut rest| {
                    rest.insert(0, v);
                    rest
                })
            })
            .collect()
    }

    #[test]
    fn a_hand_is_dealable_exactly_when_some_deal_gives_it() {
        for faces in Faces::ALL {
            for k in 2..=6 {
                let (dealt, _) = deal(k, faces);
                let dealt: std::collections::HashSet<Hand> = dealt.iter().map(|d| d.hand).collect();
                let all = multisets(k, 1, faces.max_value());
                let mut refused = 0;
                for values in &all {
                    let hand = Hand::from_values(values);
                    let ok = hand.check_dealable(faces).is_ok();
                    assert_eq!(ok, dealt.contains(&hand), "{faces:?} {hand}");
                    refused += usize::from(!ok);
                }
                assert_eq!(all.len() - refused, dealt.len());
            }
        }
    }

    #[test]
    fn two_card_deals_leave_out_the_two_jokers() {
        let (_, total) = deal(2, Faces::Five);
        assert_eq!(total, binomial(54, 2) - 1);
    }
}
