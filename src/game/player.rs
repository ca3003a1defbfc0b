//! Player models: which primes a player finds, how fast, what they go for,
//! and how often they call wrongly.
//!
//! Each turn a player draws a fixed set of random numbers ([`Draws`]); what
//! they call is then a function of those draws and the hand's primes alone.
//! A prime is found with a chance that falls with the weight of its
//! simplest witness and with its size above the primes the player knows by
//! heart, each prime by its own draw (so two equal players find different
//! primes, and a house rule that adds a prime leaves the others' fates
//! alone); the time to call is log-normal, its median growing with the
//! witness's weight and the prime's digits (the problem-size effect); a
//! call is wrong with a chance that grows the same way. Because the draws
//! do not depend on the primes, the same draws can be replayed under other
//! rules: a paired comparison (see `game::paired`).

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::arith::Value;
use crate::game::calls::Callable;
use crate::game::turn::{Call, Timing, TimingError};
use crate::rng::Rng;
use crate::rules::{Functions, HouseRules};

/// What a player goes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Calls the first prime found: the quickest to see.
    First,
    /// Looks on for the highest prime they can find, and calls that.
    Highest,
}

/// A player model. Times are in milliseconds, chances of mistakes in
/// thousandths.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub name: Cow<'static, str>,
    /// The house rules the player uses: `powers`, `juxtapose`,
    /// `functions` (all three), or `tri`, `fact`, `sqrt` one by one.
    pub knows: HouseRules,
    /// What a player goes for: `first` or `highest`.
    pub strategy: Strategy,
    /// The weight of witness (+ − 1, × ÷ 2, ^ 3, root 4, join 3, T 3, √ ! 4,
    /// summed) found half the time.
    pub reach: f64,
    /// How sharply the chance of finding falls about `reach`: the chance is
    /// `1 / (1 + exp((weight − reach) / slope))`.
    pub slope: f64,
    /// Primes up to this are known by heart; a larger prime p is found with
    /// the chance above times `(known_primes / p)^beyond`.
    pub known_primes: Value,
    pub beyond: f64,
    /// The median time to call: `base_ms + per_weight_ms × weight +
    /// per_digit_ms × (digits − 1)`.
    pub base_ms: f64,
    pub per_weight_ms: f64,
    pub per_digit_ms: f64,
    /// The spread of the time: the median times `exp(sigma × z)`, z a
    /// standard normal draw of the player's turn (log-normal).
    pub sigma: f64,
    /// Extra time spent looking for a higher prime (`highest`).
    pub search_ms: f64,
    /// The chance, in thousandths, that a call is wrong:
    /// `mistakes + mistakes_per_weight × weight + mistakes_per_digit ×
    /// (digits − 1)`, at most 1000.
    pub mistakes: f64,
    pub mistakes_per_weight: f64,
    pub mistakes_per_digit: f64,
}

impl Model {
    /// Knows every rule and the primes below 1000, calls fast, goes for the
    /// highest prime.
    pub const EXPERT: Model = Model {
        name: Cow::Borrowed("expert"),
        knows: HouseRules::ALL,
        strategy: Strategy::Highest,
        reach: 9.0,
        slope: 1.5,
        known_primes: 1_000,
        beyond: 1.0,
        base_ms: 1_400.0,
        per_weight_ms: 250.0,
        per_digit_ms: 400.0,
        sigma: 0.35,
        search_ms: 600.0,
        mistakes: 3.0,
        mistakes_per_weight: 1.0,
        mistakes_per_digit: 2.0,
    };

    /// A club player: powers and juxtaposition but no functions, primes up
    /// to 100 by heart, calls the first prime found.
    pub const CLUB: Model = Model {
        name: Cow::Borrowed("club"),
        knows: HouseRules {
            powers: true,
            juxtapose: true,
            functions: Functions::NONE,
        },
        strategy: Strategy::First,
        reach: 7.0,
        slope: 1.3,
        known_primes: 100,
        beyond: 1.0,
        base_ms: 2_000.0,
        per_weight_ms: 400.0,
        per_digit_ms: 600.0,
        sigma: 0.4,
        search_ms: 0.0,
        mistakes: 10.0,
        mistakes_per_weight: 3.0,
        mistakes_per_digit: 5.0,
    };

    /// Plain arithmetic with small numbers, slow, error-prone.
    pub const NOVICE: Model = Model {
        name: Cow::Borrowed("novice"),
        knows: HouseRules::NONE,
        strategy: Strategy::First,
        reach: 5.0,
        slope: 1.0,
        known_primes: 50,
        beyond: 1.5,
        base_ms: 2_800.0,
        per_weight_ms: 600.0,
        per_digit_ms: 900.0,
        sigma: 0.45,
        search_ms: 0.0,
        mistakes: 30.0,
        mistakes_per_weight: 8.0,
        mistakes_per_digit: 10.0,
    };

    // Levels for a person at the keyboard (`play`'s bots): slower than the
    // simulator's models, so that someone who needs about 4 to 6 s to read
    // three cards, find a prime and type it can win (an assumption, not a
    // measurement of people; the bots' times are measured in docs/guide.md).

    /// Powers and juxtaposition, primes up to 100 by heart; about as quick
    /// as a person who types a claim in 5 s.
    pub const STEADY: Model = Model {
        name: Cow::Borrowed("steady"),
        knows: HouseRules {
            powers: true,
            juxtapose: true,
            functions: Functions::NONE,
        },
        strategy: Strategy::First,
        reach: 7.0,
        slope: 1.3,
        known_primes: 100,
        beyond: 1.0,
        base_ms: 4_400.0,
        per_weight_ms: 650.0,
        per_digit_ms: 900.0,
        sigma: 0.3,
        search_ms: 0.0,
        mistakes: 15.0,
        mistakes_per_weight: 4.0,
        mistakes_per_digit: 6.0,
    };

    /// Plain arithmetic, primes up to 100 by heart, slower than a person who
    /// types a claim in 5 s: `play`'s default.
    pub const CASUAL: Model = Model {
        name: Cow::Borrowed("casual"),
        knows: HouseRules::NONE,
        strategy: Strategy::First,
        reach: 6.0,
        slope: 1.2,
        known_primes: 100,
        beyond: 1.2,
        base_ms: 6_300.0,
        per_weight_ms: 900.0,
        per_digit_ms: 1_100.0,
        sigma: 0.3,
        search_ms: 0.0,
        mistakes: 25.0,
        mistakes_per_weight: 6.0,
        mistakes_per_digit: 8.0,
    };

    /// Plain arithmetic with small numbers, clearly slower than a person
    /// typing: the easiest.
    pub const BEGINNER: Model = Model {
        name: Cow::Borrowed("beginner"),
        knows: HouseRules::NONE,
        strategy: Strategy::First,
        reach: 5.0,
        slope: 1.0,
        known_primes: 50,
        beyond: 1.5,
        base_ms: 9_500.0,
        per_weight_ms: 1_200.0,
        per_digit_ms: 1_500.0,
        sigma: 0.3,
        search_ms: 0.0,
        mistakes: 40.0,
        mistakes_per_weight: 10.0,
        mistakes_per_digit: 10.0,
    };

    /// Every built-in model: the simulator's three, then the levels for a
    /// person, quickest first.
    pub const ALL: [Model; 6] = [
        Model::EXPERT,
        Model::CLUB,
        Model::NOVICE,
        Model::STEADY,
        Model::CASUAL,
        Model::BEGINNER,
    ];

    /// The same player without `rules` (for a line-up with someone who
    /// does not know a house rule), named `name`.
    #[must_use]
    pub fn without(&self, rules: HouseRules, name: &str) -> Model {
        Model {
            name: Cow::Owned(name.to_string()),
            knows: self.knows.without(rules),
            ..self.clone()
        }
    }

    /// The chance that this player finds `c` on a turn.
    pub fn find_chance(&self, c: &Callable) -> f64 {
        if !c.needs.within(self.knows) {
            return 0.0;
        }
        let weight = f64::from(c.effort);
        let mut chance = 1.0 / (1.0 + ((weight - self.reach) / self.slope.max(1e-9)).exp());
        if Value::from(c.prime) > self.known_primes {
            chance *= (self.known_primes.max(1) as f64 / c.prime as f64).powf(self.beyond);
        }
        chance
    }

    /// The median time to call `c`, in ms.
    pub fn median_ms(&self, c: &Callable) -> f64 {
        self.base_ms
            + self.per_weight_ms * f64::from(c.effort)
            + self.per_digit_ms * f64::from(digits(c.value()) - 1)
    }

    /// The chance, in [0, 1], that a call of `c` is wrong.
    pub fn mistake_chance(&self, c: &Callable) -> f64 {
        let per_mille = self.mistakes
            + self.mistakes_per_weight * f64::from(c.effort)
            + self.mistakes_per_digit * f64::from(digits(c.value()) - 1);
        (per_mille / 1000.0).clamp(0.0, 1.0)
    }

    /// The player's call on a hand with these options, if any, from this
    /// turn's draws.
    pub fn decide(&self, options: &[Callable], draws: &Draws) -> Option<Call> {
        let speed = (self.sigma * draws.z).exp();
        let mut chosen: Option<(&Callable, f64)> = None;
        for c in options {
            if draws.find(c.value()) >= self.find_chance(c) {
                continue;
            }
            let time = self.median_ms(c) * speed;
            let better = match (chosen, self.strategy) {
                (None, _) => true,
                (Some((_, t)), Strategy::First) => time < t,
                (Some((b, _)), Strategy::Highest) => c.prime > b.prime,
            };
            if better {
                chosen = Some((c, time));
            }
        }
        let (c, time) = chosen?;
        let time = match self.strategy {
            Strategy::First => time,
            Strategy::Highest => time + self.search_ms,
        };
        Some(Call {
            time_ms: time.round().clamp(0.0, f64::from(u32::MAX)) as u32,
            prime: c.value(),
            valid: draws.mistake >= self.mistake_chance(c),
        })
    }

    /// The player's call on a hand with these options, drawing this turn's
    /// numbers from `rng`.
    pub fn call(&self, options: &[Callable], rng: &mut Rng) -> Option<Call> {
        self.decide(options, &Draws::draw(rng))
    }

    /// Checks that the numbers make sense.
    ///
    /// # Errors
    /// [`ModelError`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), ModelError> {
        let name = &self.name;
        let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
        if name.is_empty() || name.chars().count() > MAX_NAME || !name.chars().all(word) {
            return Err(ModelError::Name(name.to_string()));
        }
        let fields = [
            ("reach", self.reach),
            ("slope", self.slope),
            ("beyond", self.beyond),
            ("base_ms", self.base_ms),
            ("per_weight_ms", self.per_weight_ms),
            ("per_digit_ms", self.per_digit_ms),
            ("sigma", self.sigma),
            ("search_ms", self.search_ms),
            ("mistakes", self.mistakes),
            ("mistakes_per_weight", self.mistakes_per_weight),
            ("mistakes_per_digit", self.mistakes_per_digit),
        ];
        for (field, v) in fields {
            if !(0.0..=1e7).contains(&v) {
                return Err(ModelError::OutOfRange {
                    model: name.to_string(),
                    field,
                    value: v,
                });
            }
        }
        if self.slope <= 0.0 {
            return Err(ModelError::Slope(name.to_string()));
        }
        if self.known_primes < 2 {
            return Err(ModelError::KnownPrimes(name.to_string()));
        }
        Ok(())
    }
}

/// The longest model name.
const MAX_NAME: usize = 40;

/// The most models a file may define, and its largest size.
pub const MAX_MODELS: usize = 1000;
pub const MAX_MODELS_FILE: usize = 1 << 20;

/// The number of decimal digits of `p` (1 for 0 to 9).
fn digits(p: Value) -> u32 {
    p.unsigned_abs().checked_ilog10().map_or(1, |d| d + 1)
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// The random numbers one player draws on one turn, always the same
/// number of them, whatever the hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draws {
    /// The seed of the per-prime draws deciding which primes are found.
    seed: u64,
    /// A standard normal draw: how quick the player is this turn.
    z: f64,
    /// Uniform in [0, 1): whether the call is wrong.
    mistake: f64,
}

impl Draws {
    /// Four numbers from `rng`.
    pub fn draw(rng: &mut Rng) -> Draws {
        let seed = rng.next_u64();
        // Box-Muller: u1 in (0, 1], u2 in [0, 1).
        let u1 = 1.0 - rng.unit();
        let u2 = rng.unit();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        Draws {
            seed,
            z,
            mistake: rng.unit(),
        }
    }

    /// Uniform in [0, 1): the draw for finding prime `p` this turn.
    fn find(&self, p: Value) -> f64 {
        let p = p.unsigned_abs();
        let key = (p as u64) ^ ((p >> 64) as u64).rotate_left(29);
        let mut mixer = Rng::new(self.seed ^ key.wrapping_mul(0xD1B5_4A32_D192_ED03));
        mixer.unit()
    }
}

/// The player models a run can seat, by name, and the table's timing: the
/// built-in ones, or those of a `--models` file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Models {
    #[serde(default)]
    pub timing: Timing,
    #[serde(rename = "model")]
    pub models: Vec<Model>,
}

impl Default for Models {
    fn default() -> Models {
        Models {
            timing: Timing::default(),
            models: Model::ALL.to_vec(),
        }
    }
}

/// What is wrong with a model, a models file, or a model's name.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ModelError {
    #[error("the file is longer than 1 MiB")]
    FileTooLong,
    #[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Toml {
        line: Option<usize>,
        message: String,
    },
    #[error("at most {MAX_MODELS} models, not {0}")]
    TooMany(usize),
    #[error("model `{0}` is defined twice")]
    Twice(String),
    #[error(
        "a model's name must be a word of letters, digits, - and _ (at most {MAX_NAME}), not `{}`",
        crate::text::excerpt(.0)
    )]
    Name(String),
    #[error("model `{model}`: {field} must be a number from 0 to 10000000, not {value}")]
    OutOfRange {
        model: String,
        field: &'static str,
        value: f64,
    },
    #[error("model `{0}`: slope must be above 0")]
    Slope(String),
    #[error("model `{0}`: known_primes must be at least 2")]
    KnownPrimes(String),
    #[error(
        "unknown player model `{}`: use {}",
        crate::text::excerpt(name),
        crate::text::or_list(known)
    )]
    Unknown { name: String, known: Vec<String> },
    #[error(transparent)]
    Timing(#[from] TimingError),
}

impl Models {
    /// The models of a TOML file (see [`Models::to_toml`]), added to the
    /// built-in ones: a model of the same name replaces the built-in.
    ///
    /// # Errors
    /// [`ModelError`] saying what is wrong with the text.
    pub fn from_toml(text: &str) -> Result<Models, ModelError> {
        if text.len() > MAX_MODELS_FILE {
            return Err(ModelError::FileTooLong);
        }
        let file: Models = toml::from_str(text).map_err(|e| ModelError::Toml {
            line: e
                .span()
                .map(|span| text[..span.start.min(text.len())].lines().count().max(1)),
            message: e.message().trim().to_string(),
        })?;
        let mut models = Models {
            timing: file.timing,
            models: Model::ALL.to_vec(),
        };
        if file.models.len() > MAX_MODELS {
            return Err(ModelError::TooMany(file.models.len()));
        }
        let mut seen = std::collections::HashSet::new();
        for m in &file.models {
            m.validate()?;
            if !seen.insert(m.name.to_lowercase()) {
                return Err(ModelError::Twice(m.name.to_string()));
            }
        }
        for m in file.models {
            match models
                .models
                .iter_mut()
                .find(|o| o.name.eq_ignore_ascii_case(&m.name))
            {
                Some(old) => *old = m,
                None => models.models.push(m),
            }
        }
        models.timing.validate()?;
        Ok(models)
    }

    /// The models and timing as a TOML file that [`Models::from_toml`]
    /// reads back, with comments saying what each field means.
    ///
    /// # Panics
    /// Never: models are plain numbers and names.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("models serialise");
        format!("{TOML_HEADER}{body}")
    }

    /// The model called `name` (any case).
    ///
    /// # Errors
    /// [`ModelError::Unknown`], with the names of the models there are.
    pub fn get(&self, name: &str) -> Result<Model, ModelError> {
        self.models
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(name.trim()))
            .cloned()
            .ok_or_else(|| ModelError::Unknown {
                name: name.to_string(),
                known: self.models.iter().map(|m| m.name.to_string()).collect(),
            })
    }

    /// The models named in `names`.
    ///
    /// # Errors
    /// As [`Models::get`].
    pub fn lineup<S: AsRef<str>>(&self, names: &[S]) -> Result<Vec<Model>, ModelError> {
        names.iter().map(|n| self.get(n.as_ref())).collect()
    }
}

const TOML_HEADER: &str = "\
# Player models for `prime-solve simulate --models FILE` (and `play`,
# `advise`). Each [[model]] is a player; a model named like a built-in one
# (expert, club, novice, steady, casual, beginner) replaces it. Every field
# is required.
#
# A prime whose simplest witness weighs w (+ - 1, * / 2, ^ 3, root 4,
# join 3, T 3, sqrt and ! 4, summed) is found on a turn with chance
#   1 / (1 + exp((w - reach) / slope)),
# times (known_primes / p)^beyond for a prime p above known_primes.
# The time to call it is log-normal: its median is
#   base_ms + per_weight_ms * w + per_digit_ms * (digits of p - 1),
# times exp(sigma * z) for the player's normal draw z of the turn; a
# `highest` player calls the highest prime found, search_ms later; a
# `first` player the first found. A call is wrong with chance, in
# thousandths, mistakes + mistakes_per_weight * w + mistakes_per_digit *
# (digits - 1). knows lists the house rules the player uses.
#
# [timing]: calls of the same prime within tie_window_ms tie; a higher
# prime called within override_window_ms of the first valid call wins.

";

#[cfg(test)]
mod tests {
    use super::*;

    fn option(prime: u64, effort: u16, powers: bool) -> Callable {
        Callable {
            prime,
            effort,
            needs: HouseRules {
                powers,
                ..HouseRules::NONE
            },
        }
    }

    #[test]
    fn finding_falls_with_weight_and_size_and_needs_the_rule() {
        let e = Model::EXPERT;
        assert!(e.find_chance(&option(5, 2, false)) > 0.98);
        assert!(e.find_chance(&option(5, 2, false)) > e.find_chance(&option(5, 8, false)));
        assert!((e.find_chance(&option(5, 9, false)) - 0.5).abs() < 1e-12);
        // Ten times past the primes known by heart: a tenth of the chance.
        let near = e.find_chance(&option(997, 4, false));
        let far = e.find_chance(&option(9_973, 4, false));
        assert!((far / near - 1_000.0 / 9_973.0).abs() < 1e-9);
        assert!(e.find_chance(&option(1_000_000_007, 4, false)) < 1e-5);
        assert_eq!(Model::NOVICE.find_chance(&option(67, 5, true)), 0.0);
        assert!(Model::CLUB.find_chance(&option(67, 5, true)) > 0.0);
    }

    #[test]
    fn times_are_log_normal_about_the_median() {
        let c = option(7, 4, false);
        let m = Model {
            reach: 100.0,
            mistakes: 0.0,
            mistakes_per_weight: 0.0,
            mistakes_per_digit: 0.0,
            ..Model::CLUB
        };
        let mut rng = Rng::new(9);
        let mut times: Vec<u32> = (0..20_000)
            .map(|_| m.call(&[c], &mut rng).unwrap().time_ms)
            .collect();
        times.sort_unstable();
        let at = |pct| f64::from(crate::stats::percentile(&times, pct).unwrap());
        let median = f64::from(crate::stats::median(&times).unwrap());
        assert!((median / m.median_ms(&c) - 1.0).abs() < 0.02, "{median}");
        // Right-skewed: the 90th percentile is further above the median
        // than the 10th is below it, by the log-normal's factors.
        let (p10, p90) = (at(10), at(90));
        assert!(p90 - median > median - p10);
        let expected = (1.2816 * m.sigma).exp();
        assert!((p90 / median - expected).abs() < 0.03, "{}", p90 / median);
    }

    #[test]
    fn mistakes_grow_with_weight_and_digits() {
        let e = Model::EXPERT;
        assert!(e.mistake_chance(&option(5, 2, false)) < e.mistake_chance(&option(5, 8, false)));
        assert!(e.mistake_chance(&option(5, 2, false)) < e.mistake_chance(&option(503, 2, false)));
        let sure = Model {
            mistakes: 5_000.0,
            ..Model::EXPERT
        };
        assert_eq!(sure.mistake_chance(&option(5, 2, false)), 1.0);
    }

    #[test]
    fn strategies_choose_differently() {
        let options = [option(5, 2, false), option(67, 5, true)];
        let sure = |m: Model| Model { reach: 100.0, ..m };
        let mut rng = Rng::new(1);
        assert_eq!(
            sure(Model::EXPERT).call(&options, &mut rng).unwrap().prime,
            67
        );
        assert_eq!(sure(Model::CLUB).call(&options, &mut rng).unwrap().prime, 5);
        assert_eq!(Model::NOVICE.call(&[option(67, 5, true)], &mut rng), None);
    }

    #[test]
    fn draws_do_not_depend_on_the_hand() {
        // A prime added to the options leaves the fate of the others alone.
        let d = Draws::draw(&mut Rng::new(4));
        let m = Model {
            strategy: Strategy::First,
            ..Model::EXPERT
        };
        let few = [option(5, 6, false), option(7, 7, false)];
        let found: Vec<bool> = few
            .iter()
            .map(|c| d.find(c.value()) < m.find_chance(c))
            .collect();
        let mut more = few.to_vec();
        more.push(option(11, 3, true));
        let again: Vec<bool> = few
            .iter()
            .map(|c| d.find(c.value()) < m.find_chance(c))
            .collect();
        assert_eq!(found, again);
        // Four numbers a turn, whatever the options.
        let (mut a, mut b) = (Rng::new(5), Rng::new(5));
        m.call(&few, &mut a);
        m.call(&more, &mut b);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut c = Rng::new(5);
        m.call(&[], &mut c);
        let mut d = Rng::new(5);
        for _ in 0..4 {
            d.next_u64();
        }
        assert_eq!(c.next_u64(), d.next_u64());
    }

    #[test]
    fn the_built_in_models_round_trip_through_toml() {
        let text = Models::default().to_toml();
        assert_eq!(Models::from_toml(&text).unwrap(), Models::default());
        assert!(text.contains("[[model]]\nname = \"expert\""), "{text}");
    }

    #[test]
    fn a_models_file_adds_and_replaces() {
        let mut fast = Model::EXPERT;
        fast.name = Cow::Borrowed("fast");
        fast.base_ms = 500.0;
        let mut slow = Model::NOVICE;
        slow.base_ms = 9_000.0;
        let text = toml::to_string(&Models {
            timing: Timing {
                tie_window_ms: 50,
                override_window_ms: 1_000,
            },
            models: vec![fast.clone(), slow.clone()],
        })
        .unwrap();
        let models = Models::from_toml(&text).unwrap();
        assert_eq!(models.get("FAST").unwrap(), fast);
        assert_eq!(models.get("novice").unwrap().base_ms, 9_000.0);
        assert_eq!(models.get("expert").unwrap(), Model::EXPERT);
        assert_eq!(models.timing.tie_window_ms, 50);
        assert_eq!(models.models.len(), Model::ALL.len() + 1);
        let err = models.get("grandmaster").unwrap_err().to_string();
        assert!(
            err.contains("expert, club, novice, steady, casual, beginner or fast"),
            "{err}"
        );
    }

    #[test]
    fn bad_models_files_are_named() {
        let base = Models::default().to_toml();
        for (from, to, says) in [
            ("sigma = 0.35", "sigma = -1.0", "sigma must be"),
            ("slope = 1.5", "slope = 0.0", "slope must be above 0"),
            ("name = \"club\"", "name = \"a,b\"", "must be a word"),
            ("name = \"club\"", "name = \" club \"", "must be a word"),
            ("name = \"club\"", "name = \"c\\u001b[31m\"", "\\u{1b}"),
            ("\"powers\",", "\"algebra\",", "unknown rule `algebra`"),
            (
                "reach = 9.0",
                "reach = 9.0\ncolour = 1",
                "unknown field `colour`",
            ),
            ("reach = 9.0", "reach = \"far\"", "line "),
            ("tie_window_ms = 150", "tie_window_ms = 5000", "tie window"),
        ] {
            assert!(base.contains(from), "{from}");
            let text = base.replacen(from, to, 1);
            let err = Models::from_toml(&text).unwrap_err().to_string();
            assert!(err.contains(says), "{from} -> {to}: {err}");
        }
        let twice = format!("{base}{}", &base[base.find("\n[[model]]").unwrap()..]);
        let err = Models::from_toml(&twice).unwrap_err().to_string();
        assert!(err.contains("defined twice"), "{err}");
    }
}
