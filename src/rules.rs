//! The house rules: one plain value that the whole library shares, with a
//! stable short name (`rank-powers-high`) and a description in words.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::arith::Func;
use thiserror::Error;

/// How face cards (J, Q, K) count.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Faces {
    /// Every face card counts 5 (the rules as written).
    #[default]
    Five,
    /// J = 11, Q = 12, K = 13.
    Rank,
    /// A face card counts its suit: S = 1, H = 2, C = 3, D = 4.
    Suit,
}

impl Faces {
    pub const ALL: [Faces; 3] = [Faces::Five, Faces::Rank, Faces::Suit];

    pub fn name(self) -> &'static str {
        match self {
            Faces::Five => "five",
            Faces::Rank => "rank",
            Faces::Suit => "suit",
        }
    }

    /// The highest value a card can count under these faces.
    pub fn max_value(self) -> u8 {
        match self {
            Faces::Rank => 13,
            Faces::Five | Faces::Suit => 10,
        }
    }
}

/// A set of unary functions, listed in the fixed order tri, fact, sqrt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Func>", from = "Vec<Func>")]
pub struct Functions {
    pub tri: bool,
    pub fact: bool,
    pub sqrt: bool,
}

impl Functions {
    pub const NONE: Functions = Functions {
        tri: false,
        fact: false,
        sqrt: false,
    };
    pub const TRI: Functions = Functions {
        tri: true,
        ..Functions::NONE
    };
    pub const ALL: Functions = Functions {
        tri: true,
        fact: true,
        sqrt: true,
    };

    /// The functions in the set, in the engine's order ([`Func::ALL`]).
    pub fn iter(self) -> impl Iterator<Item = Func> {
        Func::ALL.into_iter().filter(move |&f| self.contains(f))
    }

    pub fn contains(self, f: Func) -> bool {
        match f {
            Func::Tri => self.tri,
            Func::Fact => self.fact,
            Func::Sqrt => self.sqrt,
        }
    }

    pub fn is_empty(self) -> bool {
        self == Functions::NONE
    }
}

impl From<Vec<Func>> for Functions {
    fn from(list: Vec<Func>) -> Functions {
        Functions {
            tri: list.contains(&Func::Tri),
            fact: list.contains(&Func::Fact),
            sqrt: list.contains(&Func::Sqrt),
        }
    }
}

impl From<Functions> for Vec<Func> {
    fn from(set: Functions) -> Vec<Func> {
        set.iter().collect()
    }
}

impl Functions {
    /// The functions of both sets.
    #[must_use]
    pub fn union(self, other: Functions) -> Functions {
        Functions {
            tri: self.tri || other.tri,
            fact: self.fact || other.fact,
            sqrt: self.sqrt || other.sqrt,
        }
    }

    /// The functions of this set that are not in `other`.
    #[must_use]
    pub fn without(self, other: Functions) -> Functions {
        Functions {
            tri: self.tri && !other.tri,
            fact: self.fact && !other.fact,
            sqrt: self.sqrt && !other.sqrt,
        }
    }
}

/// One house rule beyond + − × ÷ that an expression may need: powers and
/// roots, cards side by side, or one of the functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseRule {
    Powers,
    Juxtapose,
    Function(Func),
}

impl HouseRule {
    /// The name a model file's `knows` and the command line use:
    /// `powers`, `juxtapose`, or the function's (`tri`, `fact`, `sqrt`).
    pub fn name(self) -> &'static str {
        match self {
            HouseRule::Powers => "powers",
            HouseRule::Juxtapose => "juxtapose",
            HouseRule::Function(f) => f.name(),
        }
    }
}

/// A set of house rules: those a rule set allows, an expression needs, or
/// a player uses. `Rules` holds the same three fields among its others;
/// [`Rules::house_rules`] gives them as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HouseRules {
    pub powers: bool,
    pub juxtapose: bool,
    pub functions: Functions,
}

impl HouseRules {
    /// None: + − × ÷ alone.
    pub const NONE: HouseRules = HouseRules {
        powers: false,
        juxtapose: false,
        functions: Functions::NONE,
    };
    /// Every house rule.
    pub const ALL: HouseRules = HouseRules {
        powers: true,
        juxtapose: true,
        functions: Functions::ALL,
    };

    /// The set of the one rule `rule`.
    pub fn one(rule: HouseRule) -> HouseRules {
        HouseRules::NONE.with(rule)
    }

    /// This set and `rule`.
    #[must_use]
    pub fn with(self, rule: HouseRule) -> HouseRules {
        let mut set = self;
        match rule {
            HouseRule::Powers => set.powers = true,
            HouseRule::Juxtapose => set.juxtapose = true,
            HouseRule::Function(f) => {
                set.functions = set.functions.union(Functions::from(vec![f]));
            }
        }
        set
    }

    pub fn contains(self, rule: HouseRule) -> bool {
        match rule {
            HouseRule::Powers => self.powers,
            HouseRule::Juxtapose => self.juxtapose,
            HouseRule::Function(f) => self.functions.contains(f),
        }
    }

    /// Whether every rule of this set is in `other`: whether a player who
    /// uses `other` can find an expression that needs this set.
    pub fn within(self, other: HouseRules) -> bool {
        self.without(other).is_empty()
    }

    /// The rules of both sets.
    #[must_use]
    pub fn union(self, other: HouseRules) -> HouseRules {
        HouseRules {
            powers: self.powers || other.powers,
            juxtapose: self.juxtapose || other.juxtapose,
            functions: self.functions.union(other.functions),
        }
    }

    /// The rules of this set that are not in `other`.
    #[must_use]
    pub fn without(self, other: HouseRules) -> HouseRules {
        HouseRules {
            powers: self.powers && !other.powers,
            juxtapose: self.juxtapose && !other.juxtapose,
            functions: self.functions.without(other.functions),
        }
    }

    pub fn is_empty(self) -> bool {
        self == HouseRules::NONE
    }

    /// The rules in the set: powers, juxtaposition, then the functions in
    /// the engine's order.
    pub fn iter(self) -> impl Iterator<Item = HouseRule> {
        [HouseRule::Powers, HouseRule::Juxtapose]
            .into_iter()
            .filter(move |&r| self.contains(r))
            .chain(self.functions.iter().map(HouseRule::Function))
    }

    /// The names a model file's `knows` lists: `powers`, `juxtapose`, and
    /// `functions` for all three functions, else each function's name.
    pub fn names(self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = [HouseRule::Powers, HouseRule::Juxtapose]
            .into_iter()
            .filter(|&r| self.contains(r))
            .map(HouseRule::name)
            .collect();
        if self.functions == Functions::ALL {
            names.push("functions");
        } else {
            names.extend(self.functions.iter().map(Func::name));
        }
        names
    }

    /// The set `names` lists ([`HouseRules::names`]).
    ///
    /// # Errors
    /// The first name that is not a house rule's.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<HouseRules, UnknownRule> {
        let mut set = HouseRules::NONE;
        for name in names {
            let name = name.as_ref();
            set = match name {
                "powers" => set.with(HouseRule::Powers),
                "juxtapose" => set.with(HouseRule::Juxtapose),
                "functions" => set.union(HouseRules {
                    functions: Functions::ALL,
                    ..HouseRules::NONE
                }),
                _ => match Func::ALL.into_iter().find(|f| f.name() == name) {
                    Some(f) => set.with(HouseRule::Function(f)),
                    None => return Err(UnknownRule(name.to_string())),
                },
            };
        }
        Ok(set)
    }
}

/// A name that is no house rule's ([`HouseRules::from_names`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown rule `{0}`: use powers, juxtapose, functions, tri, fact or sqrt")]
pub struct UnknownRule(pub String);

impl Serialize for HouseRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.names().serialize(s)
    }
}

impl<'de> Deserialize<'de> for HouseRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<HouseRules, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        HouseRules::from_names(&names).map_err(serde::de::Error::custom)
    }
}

/// The default ceiling on primes: the rules' list stops at 97.
pub const DEFAULT_MAX_PRIME: u64 = 97;

/// Every house rule, fixed. `Rules::default()` is the game as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    pub faces: Faces,
    pub powers: bool,
    pub juxtapose: bool,
    pub functions: Functions,
    /// How many functions may be nested directly on one node.
    pub function_depth: u8,
    /// The highest prime a player may call; `None` under `--high-primes`.
    pub max_prime: Option<u64>,
    /// Every value at every node must satisfy `|v| <= max_value`.
    pub max_value: u64,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            faces: Faces::Five,
            powers: false,
            juxtapose: false,
            functions: Functions::NONE,
            function_depth: 1,
            max_prime: Some(DEFAULT_MAX_PRIME),
            max_value: u64::MAX,
        }
    }
}

/// The most functions one node may carry: beyond this the search explodes
/// and no player would follow the call.
pub const MAX_FUNCTION_DEPTH: u8 = 3;

impl Rules {
    /// Checks that the rules make sense together.
    ///
    /// # Errors
    /// [`RulesError`] for a function depth outside 1 to
    /// [`MAX_FUNCTION_DEPTH`], a value bound below 13 or a ceiling below 2.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=MAX_FUNCTION_DEPTH).contains(&self.function_depth) {
            return Err(RulesError::FunctionDepth(self.function_depth));
        }
        if self.max_value < 13 {
            return Err(RulesError::MaxValue(self.max_value));
        }
        if self.max_prime.is_some_and(|p| p < 2) {
            return Err(RulesError::MaxPrime(self.max_prime.unwrap_or(0)));
        }
        Ok(())
    }

    /// Whether a prime `p` may be called under these rules.
    pub fn allows_prime(&self, p: i128) -> bool {
        self.max_prime.is_none_or(|max| p <= i128::from(max))
    }

    /// The house rules in force beyond + − × ÷.
    pub fn house_rules(&self) -> HouseRules {
        HouseRules {
            powers: self.powers,
            juxtapose: self.juxtapose,
            functions: self.functions,
        }
    }

    /// The functions in force, in the engine's order.
    pub fn function_list(&self) -> Vec<Func> {
        self.functions.iter().collect()
    }

    /// The stable short name: the faces, then each rule that is on, in the
    /// order powers, juxtapose, functions, high; e.g. `rank-powers-high`.
    /// Settings off their defaults (depth, ceiling, bound) are appended.
    pub fn name(&self) -> String {
        let mut parts = vec![self.faces.name().to_string()];
        if self.powers {
            parts.push("powers".into());
        }
        if self.juxtapose {
            parts.push("juxtapose".into());
        }
        parts.extend(self.functions.iter().map(|f| f.name().to_string()));
        if !self.functions.is_empty() && self.function_depth != 1 {
            parts.push(format!("depth{}", self.function_depth));
        }
        match self.max_prime {
            None => parts.push("high".into()),
            Some(DEFAULT_MAX_PRIME) => {}
            Some(p) => parts.push(format!("max{p}")),
        }
        if self.max_value != u64::MAX {
            parts.push(format!("bound{}", self.max_value));
        }
        parts.join("-")
    }

    /// The rules in words, for reports and `query`.
    pub fn describe(&self) -> String {
        let faces = match self.faces {
            Faces::Five => "face cards count 5",
            Faces::Rank => "J = 11, Q = 12, K = 13",
            Faces::Suit => "face cards count their suit (S 1, H 2, C 3, D 4)",
        };
        let mut parts = vec![faces.to_string(), "+ − × ÷".to_string()];
        if self.powers {
            parts.push("powers and roots".into());
        }
        if self.juxtapose {
            parts.push("juxtaposed cards".into());
        }
        if !self.functions.is_empty() {
            let names: Vec<&str> = self.functions.iter().map(Func::notation).collect();
            // Depth 1 allows T(3) but not T(3!).
            let depth = match self.function_depth {
                1 => "none applied to another".to_string(),
                d => format!("up to {d} applied one to another"),
            };
            parts.push(format!("functions {} ({depth})", names.join(", ")));
        }
        parts.push(match self.max_prime {
            None => "any prime".into(),
            Some(p) => format!("primes up to {p}"),
        });
        if self.max_value != u64::MAX {
            parts.push(format!("values within ±{}", self.max_value));
        }
        parts.join("; ")
    }

    /// [`Rules::describe`] in plain ASCII where `ascii` asks for it: `+ -
    /// * /`, `sqrt n`, `+-`.
    ///
    /// ```
    /// use prime_solve::Rules;
    /// assert!(Rules::default().describe_in(true).contains("; + - * /;"));
    /// ```
    pub fn describe_in(&self, ascii: bool) -> String {
        let text = self.describe();
        if !ascii {
            return text;
        }
        text.replace('−', "-")
            .replace('×', "*")
            .replace('÷', "/")
            .replace('√', "sqrt ")
            .replace('±', "+-")
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[derive(Debug, Error, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesError {
    #[error("function depth {0} is out of range: use 1 to {max}", max = crate::rules::MAX_FUNCTION_DEPTH)]
    FunctionDepth(u8),
    #[error("max value {0} is too small: every card must fit, so use at least 13")]
    MaxValue(u64),
    #[error("max prime {0} is too small: the lowest prime is 2")]
    MaxPrime(u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_fixed_order() {
        assert_eq!(Rules::default().name(), "five");
        let r = Rules {
            faces: Faces::Rank,
            powers: true,
            max_prime: None,
            ..Rules::default()
        };
        assert_eq!(r.name(), "rank-powers-high");
        let r = Rules {
            faces: Faces::Suit,
            juxtapose: true,
            functions: Functions::ALL,
            ..Rules::default()
        };
        assert_eq!(r.name(), "suit-juxtapose-tri-fact-sqrt");
        let r = Rules {
            functions: Functions::TRI,
            function_depth: 2,
            max_prime: Some(1000),
            max_value: 5000,
            ..Rules::default()
        };
        assert_eq!(r.name(), "five-tri-depth2-max1000-bound5000");
    }

    #[test]
    fn validation_rejects_absurd_settings() {
        let ok = Rules::default();
        assert!(ok.validate().is_ok());
        for bad in [
            Rules {
                function_depth: 0,
                ..ok
            },
            Rules {
                function_depth: 9,
                ..ok
            },
            Rules { max_value: 5, ..ok },
            Rules {
                max_prime: Some(1),
                ..ok
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn rules_round_trip_through_json() {
        let r = Rules {
            functions: Functions {
                tri: true,
                fact: false,
                sqrt: true,
            },
            ..Rules::default()
        };
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains(r#""functions":["tri","sqrt"]"#), "{json}");
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
    }
}
