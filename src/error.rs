//! The library's error types, each defined beside what it is about and
//! gathered here: bad cards, bad hands, bad rules, searches too large,
//! simulations that cannot run. Their messages speak of the game, never of
//! command-line flags; the command line adds those hints.

pub use crate::card::{CARD_FORMS, CardError};
pub use crate::engine::SolveError;
pub use crate::game::sim::SimError;
pub use crate::hand::HandError;
pub use crate::rules::RulesError;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Faces;
    use crate::{Hand, Rules, check};

    /// The library speaks of the game; flags are the command line's words.
    #[test]
    fn no_message_names_a_flag() {
        let messages = [
            CardError::NeedsSuit { token: "Q".into() }.to_string(),
            CardError::ValueOutOfRange {
                value: 12,
                faces: Faces::Five,
            }
            .to_string(),
            HandError::TooManyJokers { named: 3 }.to_string(),
            HandError::CardRepeated {
                card: "the two of spades".into(),
                named: 2,
            }
            .to_string(),
            SimError::Players {
                got: 1,
                two_player: false,
            }
            .to_string(),
            SimError::Empty.to_string(),
            SolveError::TooLarge {
                hand: "1 2".into(),
                limit: 9,
            }
            .to_string(),
            SolveError::Memory {
                needed: 9,
                limit: 1,
                estimated: true,
            }
            .to_string(),
        ];
        let rules = Rules::default();
        let hand = |v: &[u8]| Hand::from_values(v);
        let faults = [
            check(hand(&[7, 8, 5]), "78 + 5", &rules),
            check(hand(&[2, 3, 6]), "2^6 + 3", &rules),
            check(hand(&[5, 6, 8]), "6 + T(5 + 8)", &rules),
            check(hand(&[10, 10, 1]), "10 * 10 + 1", &rules),
        ];
        let faults = faults.map(|f| f.unwrap_err().to_string());
        for m in messages.iter().chain(&faults) {
            assert!(!m.contains("--"), "{m}");
        }
    }
}
