//! Player models: which primes a player finds, how fast, what they go for,
//! and how often they call wrongly.

use std::fmt;
use std::str::FromStr;

use crate::arith::Value;
use crate::game::calls::{Callable, Needs};
use crate::game::rng::Rng;

/// What a player goes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Calls the first prime found: the one with the easiest witness.
    First,
    /// Looks on for the highest prime they can find, and calls that.
    Highest,
}

/// A player model. Times are in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    pub name: &'static str,
    /// The hardest witness found: the highest operator weight (+ − 1,
    /// × ÷ 2, ^ 3, root 4, join 3, T 3, √ ! 4, summed over the witness).
    pub reach: u16,
    /// The house rules the player uses.
    pub knows: Needs,
    /// The highest prime the player recognises.
    pub largest_prime: Value,
    /// Reaction time: `base + per_effort × effort + uniform(0..spread)`.
    pub base_ms: u32,
    pub per_effort_ms: u32,
    pub spread_ms: u32,
    /// Extra time spent looking for a higher prime (Strategy::Highest).
    pub search_ms: u32,
    pub strategy: Strategy,
    /// Chance in a thousand that a call is wrong (a miscalculation).
    pub mistakes_per_mille: u32,
}

const ALL_RULES: Needs = Needs {
    powers: true,
    juxtapose: true,
    functions: true,
};

impl Model {
    /// Knows every rule and every prime, calls fast, goes for the highest.
    pub const EXPERT: Model = Model {
        name: "expert",
        reach: 14,
        knows: ALL_RULES,
        largest_prime: Value::MAX,
        base_ms: 1_200,
        per_effort_ms: 250,
        spread_ms: 800,
        search_ms: 600,
        strategy: Strategy::Highest,
        mistakes_per_mille: 10,
    };

    /// A club player: powers and juxtaposition but no functions, primes up
    /// to 100, calls the first prime found.
    pub const CLUB: Model = Model {
        name: "club",
        reach: 9,
        knows: Needs {
            powers: true,
            juxtapose: true,
            functions: false,
        },
        largest_prime: 100,
        base_ms: 1_800,
        per_effort_ms: 400,
        spread_ms: 1_200,
        search_ms: 0,
        strategy: Strategy::First,
        mistakes_per_mille: 30,
    };

    /// Plain arithmetic with small numbers, slow, error-prone.
    pub const NOVICE: Model = Model {
        name: "novice",
        reach: 6,
        knows: Needs {
            powers: false,
            juxtapose: false,
            functions: false,
        },
        largest_prime: 50,
        base_ms: 2_500,
        per_effort_ms: 600,
        spread_ms: 2_000,
        search_ms: 0,
        strategy: Strategy::First,
        mistakes_per_mille: 80,
    };

    pub const ALL: [Model; 3] = [Model::EXPERT, Model::CLUB, Model::NOVICE];

    /// Whether this player can find `c`.
    pub fn finds(&self, c: &Callable) -> bool {
        c.effort <= self.reach && c.needs.within(self.knows) && c.prime <= self.largest_prime
    }

    /// The player's call on a hand with these options, if any.
    pub fn call(&self, options: &[Callable], rng: &mut Rng) -> Option<Call> {
        let found = options.iter().filter(|c| self.finds(c));
        let (chosen, extra) = match self.strategy {
            Strategy::First => (found.min_by_key(|c| (c.effort, c.prime))?, 0),
            Strategy::Highest => (found.max_by_key(|c| c.prime)?, self.search_ms),
        };
        let time_ms = self.base_ms
            + self.per_effort_ms * u32::from(chosen.effort)
            + extra
            + rng.below(u64::from(self.spread_ms.max(1))) as u32;
        Some(Call {
            time_ms,
            prime: chosen.prime,
            valid: !rng.chance(self.mistakes_per_mille),
        })
    }
}

impl FromStr for Model {
    type Err = String;
    fn from_str(s: &str) -> Result<Model, String> {
        Model::ALL
            .into_iter()
            .find(|m| m.name.eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown player model `{s}`: use expert, club or novice"))
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A call made at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub time_ms: u32,
    pub prime: Value,
    /// False for a wrong call: the player is barred for this combination.
    pub valid: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(prime: Value, effort: u16, powers: bool) -> Callable {
        Callable {
            prime,
            effort,
            needs: Needs {
                powers,
                ..Needs::default()
            },
        }
    }

    #[test]
    fn models_find_what_they_know() {
        let hard = option(67, 5, true);
        let easy = option(5, 2, false);
        assert!(Model::EXPERT.finds(&hard));
        assert!(Model::CLUB.finds(&hard));
        assert!(!Model::NOVICE.finds(&hard));
        assert!(Model::NOVICE.finds(&easy));
        assert!(!Model::NOVICE.finds(&option(53, 2, false)));
        assert!(!Model::CLUB.finds(&option(7, 10, false)));
    }

    #[test]
    fn strategies_choose_differently() {
        let options = [option(5, 2, false), option(67, 5, true)];
        let mut rng = Rng::new(1);
        assert_eq!(Model::EXPERT.call(&options, &mut rng).unwrap().prime, 67);
        assert_eq!(Model::CLUB.call(&options, &mut rng).unwrap().prime, 5);
        assert_eq!(Model::NOVICE.call(&[option(67, 5, true)], &mut rng), None);
    }

    #[test]
    fn names_parse() {
        assert_eq!("Expert".parse::<Model>().unwrap(), Model::EXPERT);
        assert!("grandmaster".parse::<Model>().is_err());
    }
}
