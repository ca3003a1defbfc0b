//! A hand: the multiset of values on the visible cards (1 to 6 of them),
//! stored as one count per value so that sub-hands are cheap to enumerate.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use std::cmp::Ordering;
use std::fmt;

use crate::card::{Card, Rank, Suit};
use crate::pack::{JOKERS, MAX_CARD_VALUE, cards_per_value};
use thiserror::Error;

use crate::card::CardError;
use crate::rules::Faces;
use crate::text::number;

/// The most cards a hand may hold (`--cards` 2-6).
pub const MAX_CARDS: usize = 6;
/// The fewest cards a player's hand may hold.
pub const MIN_CARDS: usize = 2;

/// A multiset of card values 1-13, at most six of them: four bits of count
/// per value, value 1 in the lowest bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(into = "Vec<u8>", try_from = "Vec<u8>")]
pub struct Hand(u64);

/// A hand written as its values, ascending (`[4, 6, 8]`).
impl From<Hand> for Vec<u8> {
    fn from(hand: Hand) -> Vec<u8> {
        hand.values()
    }
}

/// The hand of these values, if it is one: one to six values, each 1-13.
impl TryFrom<Vec<u8>> for Hand {
    type Error = String;

    fn try_from(values: Vec<u8>) -> Result<Hand, String> {
        if values.is_empty() || values.len() > MAX_CARDS {
            return Err(format!(
                "a hand holds 1 to {MAX_CARDS} values, not {}",
                values.len()
            ));
        }
        if let Some(v) = values.iter().find(|v| !(1..=MAX_CARD_VALUE).contains(*v)) {
            return Err(format!("card value {v} is not 1-{MAX_CARD_VALUE}"));
        }
        Ok(Hand::from_values(&values))
    }
}

impl Hand {
    /// The hand holding exactly these values (each 1-13, at most six).
    ///
    /// # Panics
    /// On more than six values or a value outside 1-13: callers validate
    /// tokens first ([`Card::parse`], [`Hand::from_cards`]).
    pub fn from_values(values: &[u8]) -> Hand {
        assert!(values.len() <= MAX_CARDS, "too many cards");
        let mut hand = Hand(0);
        for &v in values {
            assert!((1..=MAX_CARD_VALUE).contains(&v), "card value {v}");
            hand.0 += 1 << Self::shift(v);
        }
        hand
    }

    /// The hand the visible `cards` make under `faces`, Jokers resolved,
    /// provided the 54-card pack can deal them: at most two Jokers, no card
    /// named twice, at most four of a rank, and no more cards of a value than
    /// the pack has (see [`Hand::check_dealable`]).
    ///
    /// # Errors
    /// A [`HandError`] saying why the pack cannot deal these cards, or
    /// that a card token is not a card under `faces`.
    pub fn from_cards(cards: &[Card], faces: Faces) -> Result<Hand, HandError> {
        let hand = Self::resolve(cards, faces, false)?;
        check_named_cards(cards)?;
        hand.check_dealable(faces)?;
        Ok(hand)
    }

    /// The hand that card tokens name under `faces`, as a player writes
    /// them (`4`, `QH`, `7c`, `JK`, `10`): one the pack can deal
    /// ([`Hand::from_cards`]).
    ///
    /// ```
    /// use prime_solve::{Faces, Hand, HandError};
    ///
    /// let hand = Hand::parse(&["QH", "7C", "JK"], Faces::Rank)?;
    /// assert_eq!(hand.values(), vec![7, 12, 12]);
    /// assert!(matches!(
    ///     Hand::parse(&["2", "2", "2", "2", "2", "3"], Faces::Five),
    ///     Err(HandError::TooManyOfValue { value: 2, .. })
    /// ));
    /// # Ok::<(), HandError>(())
    /// ```
    ///
    /// # Errors
    /// [`HandError::Card`] for a token that is no card under `faces`, or
    /// the [`HandError`] saying why the pack cannot deal these cards.
    pub fn parse<S: AsRef<str>>(tokens: &[S], faces: Faces) -> Result<Hand, HandError> {
        Hand::from_cards(&parse_cards(tokens)?, faces)
    }

    /// As [`Hand::parse`], but any hand, whether or not the pack can deal
    /// it ([`Hand::from_any_cards`]).
    ///
    /// # Errors
    /// [`HandError::Card`] for a token that is no card under `faces`, or
    /// for no cards, too many, or Jokers only.
    pub fn parse_any<S: AsRef<str>>(tokens: &[S], faces: Faces) -> Result<Hand, HandError> {
        Hand::from_any_cards(&parse_cards(tokens)?, faces)
    }

    /// The hand the visible `cards` make under `faces`, Jokers resolved,
    /// whether or not the pack can deal them: any number of each card, and
    /// bare values 1-13 under any faces (five 2s, three Jokers, 12 under
    /// `five`).
    ///
    /// # Errors
    /// [`HandError`] for no cards, too many, or Jokers only.
    pub fn from_any_cards(cards: &[Card], faces: Faces) -> Result<Hand, HandError> {
        Self::resolve(cards, faces, true)
    }

    /// Card values under `faces` (bare values `free` of the faces' range),
    /// Jokers copying the highest other card.
    fn resolve(cards: &[Card], faces: Faces, free: bool) -> Result<Hand, HandError> {
        if !(MIN_CARDS..=MAX_CARDS).contains(&cards.len()) {
            return Err(HandError::Size {
                got: cards.len(),
                min: MIN_CARDS,
                max: MAX_CARDS,
            });
        }
        // No allocation: the game reads a hand from every combination shown.
        let mut values = [0u8; MAX_CARDS];
        let (mut known, mut highest) = (0, None::<u8>);
        for &card in cards {
            let value = match card {
                Card::Value(v) if free => Some(v),
                c => c.value(faces)?,
            };
            if let Some(v) = value {
                values[known] = v;
                known += 1;
                highest = highest.max(Some(v));
            }
        }
        let joker = highest.ok_or(HandError::AllJokers)?;
        // Each Joker copies the highest other card.
        values[known..cards.len()].fill(joker);
        Ok(Hand::from_values(&values[..cards.len()]))
    }

    /// Whether the pack deals these values under `faces` (some deal gives
    /// this hand): no more cards of a value than the pack has, except that
    /// the highest value may add the two Jokers, which copy it.
    ///
    /// # Errors
    /// The [`HandError`] saying what the pack cannot deal.
    ///
    /// # Panics
    /// Never: the pack's counts are small.
    pub fn check_dealable(self, faces: Faces) -> Result<(), HandError> {
        let per_value = cards_per_value(faces);
        let Some(highest) = (1..=MAX_CARD_VALUE).rev().find(|&v| self.count(v) > 0) else {
            return Ok(());
        };
        for v in 1..=highest {
            let jokers = if v == highest { JOKERS } else { 0 };
            let in_pack = per_value[usize::from(v)] + jokers;
            let in_pack = usize::try_from(in_pack).expect("at most 54 cards");
            if self.count(v) > in_pack {
                return Err(HandError::TooManyOfValue {
                    value: v,
                    named: self.count(v),
                    in_pack,
                });
            }
        }
        Ok(())
    }

    fn shift(v: u8) -> u32 {
        4 * (u32::from(v) - 1)
    }

    /// How many cards of value `v` (none for a value no card has).
    pub fn count(self, v: u8) -> usize {
        if !(1..=MAX_CARD_VALUE).contains(&v) {
            return 0;
        }
        ((self.0 >> Self::shift(v)) & 0xF) as usize
    }

    pub fn len(self) -> usize {
        (1..=MAX_CARD_VALUE).map(|v| self.count(v)).sum()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The values, ascending.
    pub fn values(self) -> Vec<u8> {
        let (values, len) = self.sorted();
        values[..len].to_vec()
    }

    /// The values ascending in a fixed array, without allocating.
    fn sorted(self) -> ([u8; MAX_CARDS], usize) {
        let mut out = [0u8; MAX_CARDS];
        let mut len = 0;
        for v in 1..=MAX_CARD_VALUE {
            for _ in 0..self.count(v) {
                out[len] = v;
                len += 1;
            }
        }
        (out, len)
    }

    /// The cards of `self` not in `part` (`part` must be a sub-hand).
    pub fn minus(self, part: Hand) -> Hand {
        debug_assert!(part.is_within(self));
        Hand(self.0 - part.0)
    }

    /// Whether every card of `self` is in `other`.
    pub fn is_within(self, other: Hand) -> bool {
        (1..=MAX_CARD_VALUE).all(|v| self.count(v) <= other.count(v))
    }

    /// Every non-empty sub-hand except the whole hand, each once, in the
    /// order of choosing how many cards of each value to take, the lowest
    /// value outermost (`1 2`: `2`, `1`, `1 2`). Splits and witnesses
    /// point into this order, so it must not change.
    pub fn proper_sub_hands(self) -> Vec<Hand> {
        let total: usize = (1..=MAX_CARD_VALUE).map(|v| self.count(v) + 1).product();
        let mut subs = vec![Hand(0); total];
        // Each value multiplies the sub-hands so far: the one at `i` is
        // replaced by its n + 1 choices at `i (n + 1)..`, written from the
        // back so that none is overwritten before it is read.
        let mut len = 1;
        for v in 1..=MAX_CARD_VALUE {
            let n = self.count(v);
            if n == 0 {
                continue;
            }
            for i in (0..len).rev() {
                let s = subs[i].0;
                for k in (0..=n).rev() {
                    subs[i * (n + 1) + k] = Hand(s + ((k as u64) << Self::shift(v)));
                }
            }
            len *= n + 1;
        }
        subs.retain(|s| !s.is_empty() && *s != self);
        subs
    }

    /// A raw key that identifies the hand (for compact storage).
    pub fn key(self) -> u64 {
        self.0
    }
}

impl Ord for Hand {
    /// Hands sort as their ascending value lists do: `1 1 2` < `1 2` < `2`.
    ///
    /// Worked out on the counts, without listing the values: the lists
    /// agree up to the lowest value `v` whose counts differ; there the hand
    /// with more cards of `v` goes on with `v` where the other goes on with
    /// a higher value (and so sorts first) or ends (and so sorts last).
    fn cmp(&self, other: &Hand) -> Ordering {
        let differ = self.0 ^ other.0;
        if differ == 0 {
            return Ordering::Equal;
        }
        // The lowest value whose counts differ: its four bits and those above.
        let at = differ.trailing_zeros() / 4 * 4;
        let (mine, theirs) = ((self.0 >> at) & 0xF, (other.0 >> at) & 0xF);
        let (more, fewer) = if mine > theirs {
            (Ordering::Less, other.0)
        } else {
            (Ordering::Greater, self.0)
        };
        // Whether the hand with fewer cards of that value goes on above it.
        if fewer >> at >> 4 != 0 {
            more
        } else {
            more.reverse()
        }
    }
}

impl PartialOrd for Hand {
    fn partial_cmp(&self, other: &Hand) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Hand {
    /// Values ascending, space-separated: `4 6 8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self.values().iter().map(u8::to_string).collect();
        f.write_str(&text.join(" "))
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand[{self}]")
    }
}

/// The named cards the pack has: two Jokers, each card once, four of a rank.
fn check_named_cards(cards: &[Card]) -> Result<(), HandError> {
    let jokers = cards.iter().filter(|&&c| c == Card::Joker).count();
    if jokers as u64 > JOKERS {
        return Err(HandError::TooManyJokers { named: jokers });
    }
    for &card in cards {
        let Card::Ranked {
            rank,
            suit: Some(suit),
        } = card
        else {
            continue;
        };
        let named = cards.iter().filter(|&&c| c == card).count();
        if named > 1 {
            return Err(HandError::CardRepeated { rank, suit, named });
        }
    }
    for rank in Rank::all() {
        let named = cards
            .iter()
            .filter(|c| matches!(c, Card::Ranked { rank: r, .. } if *r == rank))
            .count();
        if named > Suit::ALL.len() {
            return Err(HandError::TooManyOfRank {
                rank: rank.name(true),
                named,
            });
        }
    }
    Ok(())
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum HandError {
    #[error(transparent)]
    Card(#[from] CardError),
    #[error("a hand needs {min} to {max} cards, got {got}")]
    Size { got: usize, min: usize, max: usize },
    #[error("a hand of Jokers only has no value: a Joker copies the highest other card")]
    AllJokers,
    #[error("the pack has only two Jokers, and {} are named", number(*named))]
    TooManyJokers { named: usize },
    #[error(
        "the {} of {} is named {}, but the pack has one",
        rank.name(false),
        suit.name(),
        times(*named)
    )]
    CardRepeated {
        rank: Rank,
        suit: Suit,
        named: usize,
    },
    #[error("the pack has only four {rank}, and {} are named", number(*named))]
    TooManyOfRank { rank: &'static str, named: usize },
    #[error(
        "the pack cannot deal {} cards of value {value}: it has {}, and a Joker copies only the \
         highest card",
        number(*named),
        number(*in_pack)
    )]
    TooManyOfValue {
        value: u8,
        named: usize,
        in_pack: usize,
    },
}

/// The cards `tokens` name.
fn parse_cards<S: AsRef<str>>(tokens: &[S]) -> Result<Vec<Card>, CardError> {
    tokens.iter().map(|t| Card::parse(t.as_ref())).collect()
}

/// `twice`, `3 times`.
fn times(n: usize) -> String {
    match n {
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(tokens: &[&str]) -> Vec<Card> {
        tokens.iter().map(|t| Card::parse(t).unwrap()).collect()
    }

    #[test]
    fn jokers_copy_the_highest_other_card() {
        let h = Hand::from_cards(&cards(&["3", "JK", "9"]), Faces::Five).unwrap();
        assert_eq!(h.values(), vec![3, 9, 9]);
        let h = Hand::from_cards(&cards(&["JK", "*", "Q"]), Faces::Rank).unwrap();
        assert_eq!(h.values(), vec![12, 12, 12]);
        assert_eq!(
            Hand::from_cards(&cards(&["JK", "JK"]), Faces::Five),
            Err(HandError::AllJokers)
        );
    }

    #[test]
    fn hands_the_pack_cannot_deal_are_refused_and_say_why() {
        let refused = |tokens: &[&str], faces: Faces| {
            let cards = cards(tokens);
            let err = Hand::from_cards(&cards, faces).unwrap_err();
            // Free values lift every one of these limits.
            assert!(Hand::from_any_cards(&cards, faces).is_ok(), "{tokens:?}");
            err
        };
        let err = refused(&["JK", "JK", "JK", "5"], Faces::Five);
        assert_eq!(err, HandError::TooManyJokers { named: 3 });
        assert!(
            err.to_string()
                .starts_with("the pack has only two Jokers, and three are named")
        );
        let err = refused(&["2S", "2s", "3"], Faces::Five);
        assert_eq!(
            err.to_string(),
            "the two of spades is named twice, but the pack has one"
        );
        let err = refused(&["Q", "Q", "QH", "Q", "q", "3"], Faces::Five);
        assert!(
            err.to_string()
                .starts_with("the pack has only four queens, and five are named")
        );
        let err = refused(&["2", "2", "2", "2", "2", "3"], Faces::Five);
        assert_eq!(
            err,
            HandError::TooManyOfValue {
                value: 2,
                named: 5,
                in_pack: 4
            }
        );
        assert!(err.to_string().starts_with(
            "the pack cannot deal five cards of value 2: it has four, and a Joker copies only the \
             highest card"
        ));
        // Under suit, value 1 has seven cards (four aces, J Q K of spades),
        // value 5 only four.
        refused(&["5", "5", "5", "5", "5", "6"], Faces::Suit);
        let err = refused(&["1", "1", "1", "1", "1", "2"], Faces::Five);
        assert!(
            matches!(err, HandError::TooManyOfValue { value: 1, .. }),
            "{err}"
        );
        // Twelve is no card under five, but a free value.
        assert!(Hand::from_cards(&cards(&["12", "2"]), Faces::Five).is_err());
        assert_eq!(
            Hand::from_any_cards(&cards(&["12", "2"]), Faces::Five).map(Hand::values),
            Ok(vec![2, 12])
        );
    }

    #[test]
    fn hands_the_pack_can_deal_are_accepted() {
        for (tokens, faces) in [
            (&["JK", "JK", "5"][..], Faces::Five),
            (&["5", "5", "5", "5", "5", "5"], Faces::Five),
            (&["QH", "QS", "QC", "QD", "5", "K"], Faces::Five),
            // Four twos and a Joker copying the 3; six twos with two Jokers.
            (&["2", "2", "2", "2", "3", "JK"], Faces::Five),
            (&["2", "2", "2", "2", "2", "JK"], Faces::Five),
            (&["1", "1", "1", "1", "1", "2"], Faces::Suit),
            (&["3", "3", "3", "3", "3", "3"], Faces::Rank),
            (&["1", "1", "1", "1", "JS", "KS"], Faces::Suit),
            (&["1", "1", "1", "1", "1", "1"], Faces::Suit),
            (&["2S", "2H", "2C", "2D", "JK", "JK"], Faces::Rank),
            (&["13", "K", "KH", "KD", "JK", "13"], Faces::Rank),
        ] {
            let cards = cards(tokens);
            assert_eq!(
                Hand::from_cards(&cards, faces),
                Hand::from_any_cards(&cards, faces),
                "{tokens:?}"
            );
            assert!(Hand::from_cards(&cards, faces).is_ok(), "{tokens:?}");
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert!(matches!(
            Hand::from_cards(&cards(&["3"]), Faces::Five),
            Err(HandError::Size { got: 1, .. })
        ));
        let seven = cards(&["1", "2", "3", "4", "5", "6", "7"]);
        assert!(matches!(
            Hand::from_cards(&seven, Faces::Five),
            Err(HandError::Size { got: 7, .. })
        ));
    }

    #[test]
    fn sub_hands_are_distinct_multisets() {
        let h = Hand::from_values(&[5, 5, 5]);
        let subs = h.proper_sub_hands();
        assert_eq!(subs.len(), 2); // {5}, {5,5}
        let h = Hand::from_values(&[1, 2, 3, 4]);
        assert_eq!(h.proper_sub_hands().len(), 14);
        let h = Hand::from_values(&[2, 2, 3, 3, 3, 13]);
        // (2+1)(3+1)(1+1) - 2 = 22
        assert_eq!(h.proper_sub_hands().len(), 22);
        for s in h.proper_sub_hands() {
            assert!(s.is_within(h));
            assert_eq!(s.len() + h.minus(s).len(), 6);
        }
    }

    /// The order the splits and witnesses point into: each value's choices
    /// nested within the lower values' (the definition this one replaced,
    /// a list built anew for each value).
    #[test]
    fn sub_hands_keep_their_order() {
        let nested = |h: Hand| {
            let mut subs = vec![Hand(0)];
            for v in 1..=MAX_CARD_VALUE {
                let n = h.count(v) as u64;
                subs = subs
                    .iter()
                    .flat_map(|s| (0..=n).map(move |k| Hand(s.0 + (k << Hand::shift(v)))))
                    .collect();
            }
            subs.retain(|s| !s.is_empty() && *s != h);
            subs
        };
        assert_eq!(
            Hand::from_values(&[1, 2]).proper_sub_hands(),
            [Hand::from_values(&[2]), Hand::from_values(&[1]),]
        );
        let mut x = 99u64;
        for size in 1..=MAX_CARDS {
            for _ in 0..200 {
                let values: Vec<u8> = (0..size)
                    .map(|_| {
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        1 + u8::try_from((x >> 33) % 13).unwrap()
                    })
                    .collect();
                let h = Hand::from_values(&values);
                assert_eq!(h.proper_sub_hands(), nested(h), "{h}");
            }
        }
        for h in [
            Hand::from_values(&[13; 6]),
            Hand::from_values(&[1, 1, 1, 13, 13, 13]),
        ] {
            assert_eq!(h.proper_sub_hands(), nested(h), "{h}");
        }
    }

    #[test]
    fn values_no_card_has_count_zero() {
        let h = Hand::from_values(&[1, 13, 13]);
        assert_eq!(
            (
                h.count(0),
                h.count(1),
                h.count(13),
                h.count(14),
                h.count(130)
            ),
            (0, 1, 2, 0, 0)
        );
    }

    #[test]
    fn order_and_display() {
        let mut hands = [
            Hand::from_values(&[2]),
            Hand::from_values(&[1, 2]),
            Hand::from_values(&[1, 1, 2]),
            Hand::from_values(&[10, 13, 1]),
        ];
        hands.sort();
        let text: Vec<String> = hands.iter().map(Hand::to_string).collect();
        assert_eq!(text, ["1 1 2", "1 2", "1 10 13", "2"]);
    }

    /// The order on counts is the order of the ascending value lists, on
    /// every pair of hands of one to three cards and of a spread of larger
    /// ones (equal prefixes, one hand a prefix of the other, 13s, sixes).
    #[test]
    fn hands_sort_as_their_value_lists() {
        let mut hands: Vec<Hand> = Vec::new();
        for a in 1..=13u8 {
            hands.push(Hand::from_values(&[a]));
            for b in a..=13 {
                hands.push(Hand::from_values(&[a, b]));
                for c in b..=13 {
                    hands.push(Hand::from_values(&[a, b, c]));
                }
            }
        }
        let mut x = 12_345u64;
        for _ in 0..300 {
            let mut values = Vec::new();
            for _ in 0..4 + x % 3 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                values.push(1 + u8::try_from((x >> 33) % 13).unwrap());
            }
            hands.push(Hand::from_values(&values));
        }
        hands.push(Hand::from_values(&[13; 6]));
        hands.push(Hand::from_values(&[1; 6]));
        for &h in &hands {
            for &g in &hands {
                let ((a, m), (b, n)) = (h.sorted(), g.sorted());
                assert_eq!(h.cmp(&g), a[..m].cmp(&b[..n]), "{h} against {g}");
            }
        }
    }
}
