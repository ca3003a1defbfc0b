//! prime-solve: an exact solver, referee and analyst for David Parlett's
//! card game *Prime Time*.
//!
//! The data flows cards → rules → expressions → enumeration → analysis →
//! reports. Every item is reachable by one path: the core (cards, hands,
//! rules, expressions, claims, the referee and the engine) at the top
//! level, and the areas built on it as namespaces of their own —
//! [`analysis`] (sweeps of every hand a rule set deals), [`shard`] (a
//! sweep split into parts for many machines), [`game`] (the
//! simulator), [`practice`] (the drill), [`advise`] (the house-rule
//! advisor), [`request`] (a hand and its house rules as a program asks
//! for them), [`text`] (the words of messages) and, with the `report`
//! feature, [`report`] (the renderers).
//!
//! ```
//! use prime_solve::{Hand, Rules, Solver, Style, Want, check};
//!
//! let hand = Hand::parse(&["4", "6", "8"], Rules::default().faces)?;
//! let solver = Solver::new(Rules::default())?;
//! let answer = solver.query(hand, Want::Primes)?;
//! assert_eq!(answer.primes(), vec![2, 3]);
//! assert_eq!(answer.witness(3).unwrap().render(Style::UNICODE), "(6 × 4) ÷ 8");
//! assert_eq!(check(hand, "6 * 4 / 8", &Rules::default()), Ok(3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Errors are `thiserror` enums whose fields carry the facts and whose
//! messages speak of the game, never of command-line flags.

pub mod advise;
pub mod analysis;
mod arith;
mod card;
mod claim;
mod deck;
mod engine;
mod expr;
pub mod game;
mod hand;
mod hash;
mod hint;
mod pack;
pub mod practice;
mod prime;
mod ratio;
mod referee;
#[cfg(feature = "report")]
pub mod report;
pub mod request;
mod rng;
pub mod room;
mod rules;
pub mod shard;
mod stats;
mod style;
pub mod text;
pub mod ways;

pub use arith::{BinOp, Eval, Func, Value};
pub use card::{CARD_FORMS, Card, CardError, Rank, Suit};
pub use claim::{Claim, MAX_CLAIM_DEPTH, ParseError};
pub use deck::{Dealt, deal};
pub use engine::{
    Answer, Budget, COUNTED_UP_TO, Charge, EveryValue, HandValues, MAX_TABLE_VALUES, PRIME_SAMPLE,
    PrimesRefusal, Solution, SolveError, Solver, ValueSets, Want, Written,
};
pub use expr::{Cost, Expr};
pub use hand::{Hand, HandError, MAX_CARDS, MIN_CARDS};
pub use hash::fnv1a64;
pub use hint::Hint;
pub use pack::{JOKERS, MAX_CARD_VALUE};
pub use prime::{is_prime, why_not_prime};
pub use ratio::Ratio;
pub use referee::{Fault, MAX_CLAIM, check};
pub use rng::Rng;
pub use rules::{
    DEFAULT_MAX_PRIME, Faces, Functions, HouseRule, HouseRules, MAX_FUNCTION_DEPTH, Rules,
    RulesError, UnknownRule,
};
pub use stats::{median, percentile};
pub use style::{Brackets, Style};

#[cfg(test)]
mod tests {
    use crate::game::SimError;
    use crate::*;

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
                rank: Rank::Num(2),
                suit: Suit::Spades,
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
                hand: Hand::from_values(&[1, 2]),
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
