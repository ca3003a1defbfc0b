//! Cards as written on the command line and as dealt from the 54-card pack,
//! and the value each counts under the face-card rule.

use std::fmt;

use thiserror::Error;

use crate::rules::Faces;
use crate::text::excerpt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Spades,
    Hearts,
    Clubs,
    Diamonds,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    /// The value a face card of this suit counts under `--faces suit`.
    pub fn value(self) -> u8 {
        self as u8 + 1
    }

    fn parse(s: &str) -> Option<Suit> {
        match s {
            "S" | "♠" | "♤" => Some(Suit::Spades),
            "H" | "♥" | "♡" => Some(Suit::Hearts),
            "C" | "♣" | "♧" => Some(Suit::Clubs),
            "D" | "♦" | "♢" => Some(Suit::Diamonds),
            _ => None,
        }
    }

    fn letter(self) -> char {
        ['S', 'H', 'C', 'D'][self as usize]
    }

    /// The suit in words: `spades`.
    pub fn name(self) -> &'static str {
        ["spades", "hearts", "clubs", "diamonds"][self as usize]
    }
}

/// A rank: ace, 2-10 (as `Num`), or a face card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Ace,
    Num(u8),
    Jack,
    Queen,
    King,
}

impl Rank {
    /// The thirteen ranks, ace to king.
    pub fn all() -> impl Iterator<Item = Rank> {
        std::iter::once(Rank::Ace)
            .chain((2..=10).map(Rank::Num))
            .chain([Rank::Jack, Rank::Queen, Rank::King])
    }

    /// The rank in words, singular or plural: `two`, `sixes`.
    pub fn name(self, plural: bool) -> &'static str {
        const ONE: [&str; 13] = [
            "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
            "queen", "king",
        ];
        const MANY: [&str; 13] = [
            "aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
            "tens", "jacks", "queens", "kings",
        ];
        let i = match self {
            Rank::Ace => 0,
            Rank::Num(n) => usize::from(n) - 1,
            Rank::Jack => 10,
            Rank::Queen => 11,
            Rank::King => 12,
        };
        if plural { MANY[i] } else { ONE[i] }
    }

    fn parse(s: &str) -> Option<Rank> {
        match s {
            "A" => Some(Rank::Ace),
            "T" => Some(Rank::Num(10)),
            "J" => Some(Rank::Jack),
            "Q" => Some(Rank::Queen),
            "K" => Some(Rank::King),
            _ => match digits(s) {
                Some(n @ 2..=10) => Some(Rank::Num(n)),
                _ => None,
            },
        }
    }
}

/// A number written in plain decimal digits, without a sign or a leading
/// zero (`7`, `10`; not `+7`, `07`, `-7`); `None` for anything else or above
/// 255.
fn digits(s: &str) -> Option<u8> {
    let plain = !s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit());
    if plain { s.parse().ok() } else { None }
}

/// One card: a bare value, a rank with an optional suit, or a Joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    /// A bare number 1-13 typed on the command line: a card *value*.
    Value(u8),
    Ranked {
        rank: Rank,
        suit: Option<Suit>,
    },
    Joker,
}

impl Card {
    /// Parses a command-line token (case-insensitive): `7`, `13`, `QH`,
    /// `10s`, `7♦`, `T`, `JK`, `joker`, `*`.
    ///
    /// ```
    /// use prime_solve::{Card, Faces, Hand};
    ///
    /// let cards: Vec<Card> = ["QH", "7", "JK"].iter().map(|t| Card::parse(t)).collect::<Result<_, _>>()?;
    /// let hand = Hand::from_cards(&cards, Faces::Rank)?;
    /// assert_eq!(hand.values(), vec![7, 12, 12]); // the Joker copies the queen
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`CardError::BadToken`] for anything that is not a card.
    pub fn parse(token: &str) -> Result<Card, CardError> {
        let bad = || CardError::BadToken {
            token: token.to_string(),
        };
        let upper = token.trim().to_uppercase();
        if matches!(upper.as_str(), "JK" | "JOKER" | "*") {
            return Ok(Card::Joker);
        }
        if let Some(n) = digits(&upper) {
            return match n {
                1..=13 => Ok(Card::Value(n)),
                _ => Err(bad()),
            };
        }
        // A rank, then at most one suit symbol.
        if let Some((i, _)) = upper.char_indices().last().filter(|&(i, _)| i > 0) {
            let (head, tail) = upper.split_at(i);
            if let (Some(rank), Some(suit)) = (Rank::parse(head), Suit::parse(tail)) {
                return Ok(Card::Ranked {
                    rank,
                    suit: Some(suit),
                });
            }
        }
        Rank::parse(&upper)
            .map(|rank| Card::Ranked { rank, suit: None })
            .ok_or_else(bad)
    }

    /// The card tokens of a hand as a player writes it, separated by
    /// commas or white space (`4,6,8`, `QH 7C JK`, `4, 6, 8`): the one
    /// reading of a hand's text, on the command line and over HTTP alike.
    /// A `+` separates nothing: `QH+7C` is one token, and no card.
    ///
    /// ```
    /// use prime_solve::Card;
    /// let tokens: Vec<&str> = Card::tokens(" QH,7C\tJK ,, 4").collect();
    /// assert_eq!(tokens, ["QH", "7C", "JK", "4"]);
    /// assert_eq!(Card::tokens("QH+7C").collect::<Vec<_>>(), ["QH+7C"]);
    /// ```
    pub fn tokens(text: &str) -> impl Iterator<Item = &str> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
    }

    /// The value this card counts, or `None` for a Joker (it copies another).
    ///
    /// # Errors
    /// [`CardError`] for a card `faces` cannot count (a face card without its suit under `suit`, or a value the faces do not deal).
    pub fn value(self, faces: Faces) -> Result<Option<u8>, CardError> {
        let value = match self {
            Card::Joker => return Ok(None),
            Card::Value(v) => {
                if v > faces.max_value() {
                    return Err(CardError::ValueOutOfRange { value: v, faces });
                }
                v
            }
            Card::Ranked { rank, suit } => match (rank, faces) {
                (Rank::Ace, _) => 1,
                (Rank::Num(n), _) => n,
                (_, Faces::Five) => 5,
                (Rank::Jack, Faces::Rank) => 11,
                (Rank::Queen, Faces::Rank) => 12,
                (Rank::King, Faces::Rank) => 13,
                (_, Faces::Suit) => match suit {
                    Some(s) => s.value(),
                    None => {
                        return Err(CardError::NeedsSuit {
                            token: self.to_string(),
                        });
                    }
                },
            },
        };
        Ok(Some(value))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Card::Value(v) => write!(f, "{v}"),
            Card::Joker => f.write_str("JK"),
            Card::Ranked { rank, suit } => {
                match rank {
                    Rank::Ace => f.write_str("A")?,
                    Rank::Num(n) => write!(f, "{n}")?,
                    Rank::Jack => f.write_str("J")?,
                    Rank::Queen => f.write_str("Q")?,
                    Rank::King => f.write_str("K")?,
                }
                match suit {
                    Some(s) => write!(f, "{}", s.letter()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The forms a card token may take, for error messages.
pub const CARD_FORMS: &str = "a value 1-13, a card A 2-10 T J Q K with an optional suit S H C D \
     (QH, 10s, 7♦), or a Joker (JK, JOKER, *)";

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CardError {
    #[error("bad card `{}`: expected {CARD_FORMS}", excerpt(token))]
    BadToken { token: String },
    #[error(
        "card `{0}` needs its suit when face cards count their suit (e.g. {0}H)",
        excerpt(token)
    )]
    NeedsSuit { token: String },
    #[error(
        "card value {value} cannot be dealt when face cards count {}: cards count 1-{}",
        faces.name(),
        faces.max_value()
    )]
    ValueOutOfRange { value: u8, faces: Faces },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(token: &str, faces: Faces) -> Result<Option<u8>, CardError> {
        Card::parse(token)?.value(faces)
    }

    #[test]
    fn tokens() {
        assert_eq!(value("7", Faces::Five), Ok(Some(7)));
        assert_eq!(value("a", Faces::Five), Ok(Some(1)));
        assert_eq!(value("10s", Faces::Five), Ok(Some(10)));
        assert_eq!(value("t", Faces::Five), Ok(Some(10)));
        assert_eq!(value("7♦", Faces::Five), Ok(Some(7)));
        assert_eq!(value("QH", Faces::Five), Ok(Some(5)));
        assert_eq!(value("q", Faces::Rank), Ok(Some(12)));
        assert_eq!(value("KD", Faces::Suit), Ok(Some(4)));
        assert_eq!(value("js", Faces::Suit), Ok(Some(1)));
        assert_eq!(value("13", Faces::Rank), Ok(Some(13)));
        for joker in ["JK", "joker", "*", "Jk"] {
            assert_eq!(Card::parse(joker), Ok(Card::Joker));
        }
    }

    #[test]
    fn bad_tokens_name_themselves() {
        for bad in [
            "", "0", "14", "07", "1H", "11H", "X", "QX", "10ss", "-3", "♦", "+3", "+10", "+5H",
            "-5H", "05H", "256", "+0",
        ] {
            let err = Card::parse(bad).unwrap_err();
            assert!(err.to_string().contains(&format!("`{}`", bad)), "{err}");
        }
    }

    #[test]
    fn face_rules() {
        assert!(matches!(
            value("Q", Faces::Suit),
            Err(CardError::NeedsSuit { .. })
        ));
        assert!(matches!(
            value("12", Faces::Five),
            Err(CardError::ValueOutOfRange { value: 12, .. })
        ));
        assert!(value("11", Faces::Suit).is_err());
        assert_eq!(Card::parse("K").unwrap().value(Faces::Five), Ok(Some(5)));
    }
}
