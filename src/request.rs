//! A request for a hand and its house rules as a program sends one: named
//! parameters in a query string (`cards=4,6,8&faces=rank&powers=1`) or a
//! JSON object (`{"cards": "4 6 8", "powers": true}`), read by serde,
//! checked by [`Rules`], and refused in plain words.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use thiserror::Error;

use crate::arith::Func;
use crate::card::Card;
use crate::hand::{Hand, HandError};
use crate::rules::{DEFAULT_MAX_PRIME, Faces, Functions, Rules, RulesError};
use crate::style::{Brackets, Style};
use crate::text::excerpt;
use crate::ways::Shown;

/// A hand, its house rules and how its answer is written, as a request
/// names them. Every parameter is named at most once; an on/off rule is
/// `1`, `true` or empty for on and `0` or `false` for off (or JSON's
/// `true`/`false`); a list is comma-separated or a JSON list.
///
/// | parameter | what |
/// |---|---|
/// | `cards` | the cards, separated by commas or white space ([`Card::tokens`]) |
/// | `faces` | `five`, `rank` or `suit` |
/// | `powers`, `juxtapose` | on/off |
/// | `functions` | `tri`, `fact`, `sqrt`, each at most once |
/// | `function-depth` | 1 to 3, with `functions` |
/// | `high-primes` | on/off: any prime; not with `max-prime` |
/// | `max-prime` | the highest prime called, at least 2 (default 97) |
/// | `max-value` | the bound on every value, at least 13 |
/// | `any-values` | on/off: any hand, not only those the pack deals |
/// | `ascii`, `steps` | on/off: `* /` for `× ÷`; witnesses worked |
/// | `brackets` | `minimal` or `full` |
/// | `ways` | `count` or `all` |
///
/// Any other parameter is kept for the endpoint that takes it
/// ([`Request::take`]) and refused once it has taken its own
/// ([`Request::done`]).
///
/// ```
/// use prime_solve::request::{Read, Request};
/// use prime_solve::{Faces, Style};
///
/// let Read(read) = serde_json::from_str(r#"{"cards": "QH 7C JK", "faces": "rank", "powers": true, "claim": "12*7/12"}"#)?;
/// let mut request: Request = read?;
/// assert_eq!(request.rules.faces, Faces::Rank);
/// assert!(request.rules.powers);
/// let claim = request.take("claim");
/// request.done()?;
/// let (cards, hand) = request.hand()?;
/// assert_eq!(hand.values(), vec![7, 12, 12]);
/// assert_eq!(request.shown(&cards), ["Q♥", "7♣", "JK"]);
/// assert_eq!(claim.as_deref(), Some("12*7/12"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The cards as written (`4,6,8`, `QH 7C JK`), read by [`Request::hand`].
    pub cards: Option<String>,
    pub rules: Rules,
    /// Any hand, not only those the 54-card pack deals.
    pub any_values: bool,
    pub style: Style,
    /// Witnesses worked one operation a line.
    pub steps: bool,
    /// The ways to each prime counted, and what is shown of them.
    pub ways: Option<Shown>,
    /// The parameters this type does not know, for the endpoint.
    others: BTreeMap<String, String>,
}

/// Why a request cannot be read, in plain words (the parameters are named
/// as the request names them).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RequestError {
    /// A parameter given twice: refused, never read as the last.
    #[error("`{}` is given twice: give it once", excerpt(.0))]
    Twice(String),
    /// A JSON value that is no parameter's: an object, or null.
    #[error("`{}` must be a string, a number, true/false or a list of them", excerpt(.0))]
    NotText(String),
    /// A parameter no one takes.
    #[error("unknown parameter `{}`", excerpt(.0))]
    Unknown(String),
    /// An on/off rule given something else.
    #[error("`{0}` is on or off: give {0}=1 or {0}=0")]
    OnOff(&'static str),
    /// A value the parameter does not take: what it is, and what to give.
    #[error("{param}: `{}` is not {what}: give {give}", excerpt(value))]
    Value {
        param: &'static str,
        value: String,
        what: &'static str,
        give: String,
    },
    #[error("functions names {} twice: list each of tri, fact, sqrt at most once", .0.name())]
    FunctionTwice(Func),
    #[error("functions has an empty item: give a comma-separated list of tri, fact, sqrt")]
    EmptyFunction,
    #[error("function-depth is the depth of functions: give functions=tri (or more) with it")]
    DepthWithoutFunctions,
    #[error("high-primes and max-prime cannot both be given: any prime, or a ceiling")]
    TwoCeilings,
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("no cards: give cards=4,6,8")]
    NoCards,
    /// Cards that are no hand (its source, for the hint it may have).
    #[error("{0}")]
    Hand(#[source] HandError),
}

/// What serde reads from a query string or a JSON object: the request, or
/// the first thing wrong with its parameters. Reading fails (a serde
/// error) only for what is not a map of parameters at all, so that a
/// parameter's fault is told in the request's words, not the format's
/// (no `at line 1 column 30`).
pub struct Read(pub Result<Request, RequestError>);

impl<'de> Deserialize<'de> for Read {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Read, D::Error> {
        let Params(params) = Params::deserialize(d)?;
        Ok(Read(params.and_then(Request::from_params)))
    }
}

/// A request's parameters by name, each named once, each value as text
/// (a query string's as they are, a JSON object's as [`Request`] says), or
/// the first one given twice or as no text: for a front end that takes
/// parameters of its own besides a [`Request`]'s.
pub struct Params(pub Result<BTreeMap<String, String>, RequestError>);

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
        struct Named;
        impl<'de> Visitor<'de> for Named {
            type Value = Params;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object of parameters")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
                let mut params = BTreeMap::new();
                while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                    let wrong = match (params.entry(key), text(value)) {
                        (Entry::Occupied(given), _) => {
                            Some(RequestError::Twice(given.key().clone()))
                        }
                        (Entry::Vacant(new), None) => Some(RequestError::NotText(new.into_key())),
                        (Entry::Vacant(new), Some(text)) => {
                            new.insert(text);
                            None
                        }
                    };
                    if let Some(wrong) = wrong {
                        // The rest is read (and must be JSON) all the same.
                        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                        return Ok(Params(Err(wrong)));
                    }
                }
                Ok(Params(Ok(params)))
            }
        }
        d.deserialize_map(Named)
    }
}

/// A parameter's value as text, as a query string gives it: a string as
/// it is, `true` as `true`, a number as written, a list joined by commas
/// (`["tri", "sqrt"]` is `tri,sqrt`); `None` for an object or null.
fn text(value: serde_json::Value) -> Option<String> {
    use serde_json::Value;
    Some(match value {
        Value::String(s) => s,
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(","),
        Value::Null | Value::Object(_) => return None,
    })
}

impl Request {
    /// The request these parameters name, each value as text.
    ///
    /// # Errors
    /// The first [`RequestError`] of a value a parameter does not take,
    /// or of rules that do not go together.
    pub fn from_params(mut params: BTreeMap<String, String>) -> Result<Request, RequestError> {
        let mut take = |key: &str| params.remove(key);
        let faces = match take("faces") {
            None => Faces::default(),
            Some(v) => choice(
                "faces",
                v,
                "a face rule",
                &Faces::ALL.map(|f| (f.name(), f)),
            )?,
        };
        let powers = on_off("powers", take("powers"))?;
        let juxtapose = on_off("juxtapose", take("juxtapose"))?;
        let functions = match take("functions") {
            None => None,
            Some(list) => Some(functions(&list)?),
        };
        let function_depth = match take("function-depth") {
            None => 1,
            Some(_) if functions.is_none() => return Err(RequestError::DepthWithoutFunctions),
            Some(d) => {
                let max = u64::from(crate::rules::MAX_FUNCTION_DEPTH);
                let depth = whole("function-depth", d, 1, max, || format!("1 to {max}"))?;
                u8::try_from(depth).unwrap_or(crate::rules::MAX_FUNCTION_DEPTH)
            }
        };
        let high_primes = on_off("high-primes", take("high-primes"))?;
        let max_prime = take("max-prime")
            .map(|p| {
                whole("max-prime", p, 2, u64::MAX, || {
                    "a whole number of at least 2 (the lowest prime is 2; high-primes=1 allows \
                     any prime)"
                        .into()
                })
            })
            .transpose()?;
        if high_primes && max_prime.is_some() {
            return Err(RequestError::TwoCeilings);
        }
        let max_value = take("max-value")
            .map(|v| {
                whole("max-value", v, 13, u64::MAX, || {
                    "a whole number of at least 13 (every card must fit)".into()
                })
            })
            .transpose()?;
        let any_values = on_off("any-values", take("any-values"))?;
        let ascii = on_off("ascii", take("ascii"))?;
        let brackets = match take("brackets") {
            None => Brackets::default(),
            Some(v) => choice(
                "brackets",
                v,
                "a way of bracketing",
                &[("minimal", Brackets::Minimal), ("full", Brackets::Full)],
            )?,
        };
        let steps = on_off("steps", take("steps"))?;
        let ways = take("ways")
            .map(|v| {
                choice(
                    "ways",
                    v,
                    "what the ways show",
                    &[("count", Shown::Count), ("all", Shown::All)],
                )
            })
            .transpose()?;
        let cards = take("cards");
        let rules = Rules {
            faces,
            powers,
            juxtapose,
            functions: functions.unwrap_or_default(),
            function_depth,
            max_prime: if high_primes {
                None
            } else {
                Some(max_prime.unwrap_or(DEFAULT_MAX_PRIME))
            },
            max_value: max_value.unwrap_or(Rules::default().max_value),
        };
        rules.validate()?;
        Ok(Request {
            cards,
            rules,
            any_values,
            style: Style { ascii, brackets },
            steps,
            ways,
            others: params,
        })
    }

    /// One of the endpoint's own parameters (`claim`, `seed`), taken out
    /// of those the request type does not know.
    pub fn take(&mut self, key: &str) -> Option<String> {
        self.others.remove(key)
    }

    /// Refuses a parameter nobody has taken, once the endpoint has taken
    /// its own.
    ///
    /// # Errors
    /// [`RequestError::Unknown`] naming the first.
    pub fn done(&self) -> Result<(), RequestError> {
        match self.others.keys().next() {
            Some(key) => Err(RequestError::Unknown(key.clone())),
            None => Ok(()),
        }
    }

    /// The cards, in the order written, and the hand they make under the
    /// request's faces: one the pack deals, or any with `any-values`.
    ///
    /// # Errors
    /// [`RequestError::NoCards`] without `cards`, [`RequestError::Hand`]
    /// for cards that are no hand.
    pub fn hand(&self) -> Result<(Vec<Card>, Hand), RequestError> {
        let text = self.cards.as_deref().ok_or(RequestError::NoCards)?;
        let cards = Card::tokens(text)
            .map(Card::parse)
            .collect::<Result<Vec<Card>, _>>()
            .map_err(|e| RequestError::Hand(e.into()))?;
        let faces = self.rules.faces;
        let hand = if self.any_values {
            Hand::from_any_cards(&cards, faces)
        } else {
            Hand::from_cards(&cards, faces)
        };
        Ok((cards, hand.map_err(RequestError::Hand)?))
    }

    /// `cards` as the request's style writes them: `Q♥`, `10♣`, `JK`
    /// (`QH` in ASCII), a bare value as its number.
    pub fn shown(&self, cards: &[Card]) -> Vec<String> {
        cards
            .iter()
            .map(|&c| crate::practice::face(c, self.style))
            .collect()
    }
}

/// An on/off rule: `1`, `true` or empty for on, `0` or `false` for off.
fn on_off(param: &'static str, value: Option<String>) -> Result<bool, RequestError> {
    match value.as_deref() {
        None | Some("0" | "false") => Ok(false),
        Some("" | "1" | "true") => Ok(true),
        Some(_) => Err(RequestError::OnOff(param)),
    }
}

/// One of `choices`, by its name.
fn choice<T: Copy>(
    param: &'static str,
    value: String,
    what: &'static str,
    choices: &[(&str, T)],
) -> Result<T, RequestError> {
    if let Some(&(_, chosen)) = choices.iter().find(|(name, _)| *name == value) {
        return Ok(chosen);
    }
    let names: Vec<&str> = choices.iter().map(|&(name, _)| name).collect();
    Err(RequestError::Value {
        param,
        value,
        what,
        give: crate::text::or_list(&names),
    })
}

/// A whole number in `min..=max`; `what` says what the parameter takes.
fn whole(
    param: &'static str,
    value: String,
    min: u64,
    max: u64,
    what: impl Fn() -> String,
) -> Result<u64, RequestError> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(RequestError::Value {
            param,
            value,
            what: "a number this large",
            give: format!("at most {max}"),
        }),
        _ => Err(RequestError::Value {
            param,
            value,
            what: "a number it takes",
            give: what(),
        }),
    }
}

/// `tri,sqrt`: each function at most once, no empty item.
fn functions(list: &str) -> Result<Functions, RequestError> {
    let mut named: Vec<Func> = Vec::new();
    for item in list.split(',') {
        if item.is_empty() {
            return Err(RequestError::EmptyFunction);
        }
        let Some(f) = Func::ALL.into_iter().find(|f| f.name() == item) else {
            return Err(RequestError::Value {
                param: "functions",
                value: item.to_string(),
                what: "a function",
                give: "a comma-separated list of tri, fact, sqrt".into(),
            });
        };
        if named.contains(&f) {
            return Err(RequestError::FunctionTwice(f));
        }
        named.push(f);
    }
    Ok(Functions::from(named))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Request, RequestError> {
        serde_json::from_str::<Read>(json).unwrap().0
    }

    #[test]
    fn parameters_are_the_rules_and_the_styles() {
        let r = read(
            r#"{"cards": ["4", 6, "8"], "faces": "suit", "functions": ["tri", "sqrt"], "function-depth": 2,
                "max-prime": "1000", "ascii": 1, "brackets": "full", "ways": "all", "steps": ""}"#,
        )
        .unwrap();
        assert_eq!(r.cards.as_deref(), Some("4,6,8"));
        assert_eq!(r.rules.name(), "suit-tri-sqrt-depth2-max1000");
        assert_eq!(
            r.style,
            Style {
                ascii: true,
                brackets: Brackets::Full
            }
        );
        assert!(r.steps);
        assert_eq!(r.ways, Some(Shown::All));
        assert_eq!(read("{}").unwrap().rules, Rules::default());
    }

    /// Each refusal names the parameter in the request's words, never a
    /// command-line flag.
    #[test]
    fn refusals_speak_plainly() {
        for (json, says) in [
            (
                r#"{"faces": "royal"}"#,
                "faces: `royal` is not a face rule: give five, rank or suit",
            ),
            (
                r#"{"powers": "maybe"}"#,
                "`powers` is on or off: give powers=1 or powers=0",
            ),
            (r#"{"functions": "tri,tri"}"#, "functions names tri twice"),
            (
                r#"{"functions": "tri,,fact"}"#,
                "functions has an empty item",
            ),
            (
                r#"{"function-depth": 2}"#,
                "function-depth is the depth of functions",
            ),
            (
                r#"{"functions": "tri", "function-depth": 4}"#,
                "give 1 to 3",
            ),
            (
                r#"{"high-primes": true, "max-prime": 50}"#,
                "cannot both be given",
            ),
            (r#"{"max-prime": 1}"#, "at least 2"),
            (
                r#"{"max-value": "99999999999999999999999"}"#,
                "at most 18446744073709551615",
            ),
            (r#"{"brackets": "round"}"#, "give minimal or full"),
            (r#"{"ways": "some"}"#, "give count or all"),
            (r#"{"claim": {"a": 1}}"#, "`claim` must be a string"),
            (
                r#"{"powers": 1, "powers": 0}"#,
                "`powers` is given twice: give it once",
            ),
        ] {
            let said = read(json).unwrap_err().to_string();
            assert!(said.contains(says), "{json}: {said}");
            assert!(!said.contains("--"), "{json}: {said}");
        }
        let mut r = read(r#"{"cards": "4 6 8", "claim": "3", "bogus": 1}"#).unwrap();
        assert_eq!(r.take("claim").as_deref(), Some("3"));
        assert_eq!(
            r.done().unwrap_err().to_string(),
            "unknown parameter `bogus`"
        );
    }

    #[test]
    fn cards_are_read_as_the_command_line_reads_them() {
        let hand = |cards: &str| {
            read(&format!(r#"{{"cards": "{cards}", "faces": "rank"}}"#))
                .unwrap()
                .hand()
                .map(|(_, h)| h.values())
        };
        assert_eq!(hand("QH, 7C\\tJK").unwrap(), [7, 12, 12]);
        assert!(hand("QH+7C+JK").is_err());
        assert_eq!(
            read("{}").unwrap().hand().unwrap_err(),
            RequestError::NoCards
        );
    }
}
