//! The referee: rules on a player's claim like a strict opponent and names
//! the first thing wrong with it.

use thiserror::Error;

use crate::arith::{BinOp, Eval, Func, Value};
use crate::claim::{Claim, ParseError};
use crate::hand::Hand;
use crate::pack::MAX_CARD_VALUE;
use crate::prime::why_not_prime;
use crate::rules::{HouseRule, Rules};

/// What is wrong with a claim, in the order the referee checks.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Fault {
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A card is left out or used more often than the hand holds it.
    #[error("{0}")]
    Cards(String),
    /// A number that is no card of the hand (nor cards side by side that
    /// the rules allow): the claim cannot be read as these cards.
    #[error("{0}")]
    NotACard(String),
    /// A number alone, with no calculation: a result said without how
    /// the cards make it, or a card for a claim forgotten.
    #[error("{0}")]
    Alone(String),
    /// A division or root is not exact, or an operation has no value.
    #[error("{0}")]
    Inexact(String),
    /// A value leaves the bound.
    #[error("{0}")]
    TooLarge(String),
    /// Something the house rules in force do not allow; `rule` is the one
    /// that would allow it.
    #[error("{what}")]
    NotAllowed { what: String, rule: HouseRule },
    /// Functions nested `depth` deep on one value, deeper than the rules'
    /// `allowed`.
    #[error("functions are nested {depth} deep on one value, but the rules allow {allowed}")]
    TooDeep { depth: u8, allowed: u8 },
    #[error("{0}")]
    NotPrime(String),
    /// A claim longer than [`MAX_CLAIM`] characters.
    #[error("the claim is longer than {MAX_CLAIM} characters")]
    TooLong,
    /// A prime above the ceiling on primes.
    #[error("{value} is above the highest prime allowed, {max}")]
    AboveCeiling { value: Value, max: u64 },
    /// The claim states its result (`... = 3`), and the calculation makes
    /// another value.
    #[error("the calculation makes {made}, not {said}")]
    WrongResult { said: String, made: Value },
}

impl Fault {
    /// A stable name for the kind of fault, for machine-readable output:
    /// `parse`, `cards`, `not-a-card`, `alone`, `inexact`, `too-large`,
    /// `not-allowed`, `not-prime`, `above-ceiling`, `wrong-result`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Parse(_) => "parse",
            Fault::Cards(_) => "cards",
            Fault::NotACard(_) => "not-a-card",
            Fault::Alone(_) => "alone",
            Fault::Inexact(_) => "inexact",
            Fault::TooLarge(_) | Fault::TooLong => "too-large",
            Fault::NotAllowed { .. } | Fault::TooDeep { .. } => "not-allowed",
            Fault::NotPrime(_) => "not-prime",
            Fault::AboveCeiling { .. } => "above-ceiling",
            Fault::WrongResult { .. } => "wrong-result",
        }
    }
}

impl Fault {
    /// Whether the claim could not be read as a calculation of the hand's
    /// cards at all: it does not parse, is too long, names a number that
    /// is no card, or is a number alone. At the table such a slip is not
    /// a call (the player may call again); every other fault is a claim
    /// that fails when demonstrated, a wrong call.
    pub fn is_slip(&self) -> bool {
        matches!(
            self,
            Fault::Parse(_) | Fault::TooLong | Fault::NotACard(_) | Fault::Alone(_)
        )
    }
}

/// Slots for the cards left to use, indexed by value (0 unused).
const CARD_SLOTS: usize = MAX_CARD_VALUE as usize + 1;

/// The longest claim the referee reads: far beyond any real one, and
/// short enough that no claim can nest deeply enough to hurt the parser.
pub const MAX_CLAIM: usize = 300;

/// Rules on `claim` for `hand`: the prime it makes, or the first fault.
///
/// ```
/// use prime_solve::{Fault, Hand, Rules, check};
///
/// let hand = Hand::from_values(&[4, 6, 8]);
/// assert_eq!(check(hand, "(6 x 4) / 8", &Rules::default()), Ok(3));
/// let fault = check(hand, "6 * 8 / 4", &Rules::default()).unwrap_err();
/// assert_eq!(fault.kind(), "not-prime");
/// # let _: Fault = fault;
/// assert_eq!(check(hand, &"(".repeat(400), &Rules::default()), Err(Fault::TooLong));
/// ```
///
/// # Errors
/// The first [`Fault`] in the order the referee checks: the claim is at
/// most [`MAX_CLAIM`] characters, parses,
/// uses each card once, is exact and within the bound, uses only allowed
/// operations, is prime, and is within the ceiling.
pub fn check(hand: Hand, claim: &str, rules: &Rules) -> Result<Value, Fault> {
    if claim.chars().count() > MAX_CLAIM {
        return Err(Fault::TooLong);
    }
    let (expression, offset, stated) = split_result(claim)?;
    let claim = Claim::parse_with(expression, rules.faces).map_err(|mut e| {
        e.column += offset;
        e
    })?;
    check_cards(hand, &claim, rules)?;
    let value = eval(&claim, rules.max_value)?;
    if let Some((said, text)) = stated
        && said != value
    {
        return Err(Fault::WrongResult {
            said: text.to_string(),
            made: value,
        });
    }
    check_allowed(&claim, rules, 0)?;
    if let Some(why) = why_not_prime(value) {
        return Err(Fault::NotPrime(why));
    }
    if !rules.allows_prime(value) {
        let max = rules.max_prime.unwrap_or(u64::MAX);
        return Err(Fault::AboveCeiling { value, max });
    }
    Ok(value)
}

/// A claim's calculation, the characters before it, and the result it
/// states (as a value and as typed), if any.
type Split<'a> = (&'a str, usize, Option<(Value, &'a str)>);

/// A claim that states its result, `6 * 4 / 8 = 3` or `3 = 6 * 4 / 8`:
/// the calculation, how many characters stand before it, and the result
/// as a value and as typed. One side of the `=` is a number alone (the
/// result), the other the calculation; without `=` the whole claim is the
/// calculation.
fn split_result(claim: &str) -> Result<Split<'_>, Fault> {
    let parse = |column: usize, message: &str| {
        Fault::Parse(ParseError {
            column,
            message: message.to_string(),
        })
    };
    let mut sides = claim.split('=');
    let (Some(left), Some(right)) = (sides.next(), sides.next()) else {
        return Ok((claim, 0, None));
    };
    let equals = left.chars().count() + 1;
    if sides.next().is_some() {
        let second = equals + right.chars().count() + 1;
        return Err(parse(
            second,
            "a claim has one `=` at most: (6 x 4) / 8 = 3",
        ));
    }
    if let Some(result) = plain_number(right) {
        return Ok((left, 0, Some((result?, right.trim()))));
    }
    if let Some(result) = plain_number(left) {
        return Ok((right, equals, Some((result?, left.trim()))));
    }
    Err(parse(
        equals,
        "one side of `=` is the result, a number alone: (6 x 4) / 8 = 3",
    ))
}

/// The side of an `=` that is a number alone (`3`, `-4`, `−4`): its value,
/// or a fault if it is too long to be one; `None` if it is not a number.
fn plain_number(side: &str) -> Option<Result<Value, Fault>> {
    let side = side.trim();
    let (negative, digits) = match side.strip_prefix(['-', '−', '–']) {
        Some(rest) => (true, rest.trim_start()),
        None => (false, side),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<Value>() {
        Ok(v) => Ok(if negative { -v } else { v }),
        Err(_) => Err(Fault::Parse(ParseError {
            column: 1,
            message: format!("the result {} is too long", crate::text::excerpt(side)),
        })),
    })
}

/// Each card exactly once; a literal is one card or, with juxtaposition,
/// several cards written side by side.
fn check_cards(hand: Hand, claim: &Claim, rules: &Rules) -> Result<(), Fault> {
    let numbers = claim.numbers();
    // A number alone: a result said without its calculation, or a card
    // for a claim forgotten.
    if let (Claim::Number { text, .. }, true) = (claim, hand.len() > 1)
        && !(rules.juxtapose && assign(&numbers, &mut counts(hand), true))
    {
        return Err(Fault::Alone(format!(
            "{text} alone is not made from the cards: a claim uses every card of the hand \
             ({hand}) once"
        )));
    }
    if assign(&numbers, &mut counts(hand), rules.juxtapose) {
        return Ok(());
    }
    // No assignment: explain with the plainest reading.
    let in_hand = |v: u8| hand.count(v) > 0;
    for &(value, text) in &numbers {
        // `04` and `010` are not how a card is written.
        let single = u8::try_from(value).is_ok_and(in_hand) && !text.starts_with('0');
        let joined = split_cards(text, hand.len())
            .iter()
            .any(|cards| cards.len() > 1 && cards.iter().all(|&c| in_hand(c)));
        let readable = single || (joined && rules.juxtapose);
        if !readable {
            return Err(if joined {
                Fault::NotAllowed {
                    what: format!(
                        "{text} is not a card in the hand ({hand}): juxtaposing cards is not allowed"
                    ),
                    rule: HouseRule::Juxtapose,
                }
            } else {
                Fault::NotACard(format!("{text} is not a card in the hand ({hand})"))
            });
        }
    }
    if rules.juxtapose {
        let texts: Vec<&str> = numbers.iter().map(|&(_, t)| t).collect();
        return Err(Fault::Cards(if let [one] = texts[..] {
            format!("the number {one} does not use each card of the hand ({hand}) exactly once")
        } else {
            format!(
                "the numbers {} do not use each card of the hand ({hand}) exactly once",
                texts.join(", ")
            )
        }));
    }
    for v in 1..=MAX_CARD_VALUE {
        let used = numbers.iter().filter(|&&(n, _)| n == u64::from(v)).count();
        let have = hand.count(v);
        if used > have {
            let times = match used {
                2 => "twice".to_string(),
                n => format!("{n} times"),
            };
            return Err(Fault::Cards(format!(
                "uses {v} {times}, but the hand ({hand}) has {}",
                match have {
                    1 => "one".to_string(),
                    n => n.to_string(),
                }
            )));
        }
    }
    let missing: Vec<String> = (1..=13u8)
        .filter(|&v| numbers.iter().filter(|&&(n, _)| n == u64::from(v)).count() < hand.count(v))
        .map(|v| v.to_string())
        .collect();
    Err(Fault::Cards(format!(
        "does not use {}: every card of the hand ({hand}) must be used once",
        missing.join(", ")
    )))
}

/// Tries to give every literal its cards from `left` (counts by value).
/// Each literal takes at least one card, so the recursion is no deeper than
/// the hand has cards.
/// How many cards of each value the hand holds.
fn counts(hand: Hand) -> [usize; CARD_SLOTS] {
    let mut left = [0usize; CARD_SLOTS];
    for v in hand.values() {
        left[usize::from(v)] += 1;
    }
    left
}

fn assign(numbers: &[(u64, &str)], left: &mut [usize; CARD_SLOTS], juxtapose: bool) -> bool {
    let Some(((value, text), rest)) = numbers.split_first() else {
        return left.iter().all(|&n| n == 0);
    };
    // One card, the reading of every literal without juxtaposition: taken
    // without building a list of readings (the referee checks every
    // witness of a merged sweep).
    let mut one = |card: Option<u8>| {
        let Some(slot) = card.map(usize::from).filter(|&c| c < CARD_SLOTS) else {
            return false;
        };
        if left[slot] == 0 {
            return false;
        }
        left[slot] -= 1;
        let done = assign(rest, left, juxtapose);
        left[slot] += 1;
        done
    };
    if !text.starts_with(|c: char| c.is_ascii_digit()) {
        // A card named by letter (`K`, `QH`): that card alone.
        return one(u8::try_from(*value).ok());
    }
    let single = text
        .parse::<u8>()
        .ok()
        .filter(|v| (1..=MAX_CARD_VALUE).contains(v) && !text.starts_with('0'));
    // With juxtaposition the literal as one card is tried first: it is
    // among the readings below, and most often the one that fits.
    if one(single) {
        return true;
    }
    if !juxtapose {
        return false;
    }
    for cards in split_cards(text, left.iter().sum()) {
        if cards.iter().all(|&c| left[usize::from(c)] > 0) {
            // Cards within one literal may repeat (55): take them one by one.
            let mut taken = Vec::new();
            let mut ok = true;
            for &c in &cards {
                if left[usize::from(c)] == 0 {
                    ok = false;
                    break;
                }
                left[usize::from(c)] -= 1;
                taken.push(c);
            }
            if ok && assign(rest, left, juxtapose) {
                return true;
            }
            for c in taken {
                left[usize::from(c)] += 1;
            }
        }
    }
    false
}

/// Every way to read a literal as one card or several side by side, at
/// most `cards` of them: each part a card value (1 to [`MAX_CARD_VALUE`])
/// without a leading zero.
/// The limit keeps a long literal (`1111…`) from having thousands of
/// readings.
fn split_cards(text: &str, cards: usize) -> Vec<Vec<u8>> {
    if text.is_empty() {
        return vec![Vec::new()];
    }
    if cards == 0 || text.len() > 2 * cards {
        return Vec::new();
    }
    let mut out = Vec::new();
    for len in 1..=2.min(text.len()) {
        let (head, tail) = text.split_at(len);
        match head.parse::<u8>() {
            Ok(v) if (1..=MAX_CARD_VALUE).contains(&v) && !head.starts_with('0') => {
                for mut rest in split_cards(tail, cards - 1) {
                    rest.insert(0, v);
                    out.push(rest);
                }
            }
            _ => {}
        }
    }
    out
}

/// The claim's exact value, or the first operation that has none. Faults
/// quote each operator as the player typed it (`63 / 2`, `2**64`, `fact(−2)`).
///
/// The recursion is as deep as the tree, which the parser bounds; the
/// faults are worded elsewhere to keep each frame small.
fn eval(claim: &Claim, bound: u64) -> Result<Value, Fault> {
    match claim {
        // A number of cards written side by side is a value like any
        // other: past the bound it is cut off, as the solver cuts it.
        Claim::Number { value, text, .. } if *value > bound => Err(too_large(text, bound)),
        Claim::Number { value, .. } => Ok(Value::from(*value)),
        Claim::Binary {
            op,
            symbol,
            left,
            right,
            ..
        } => {
            let a = eval(left, bound)?;
            let b = eval(right, bound)?;
            apply_binary(*op, symbol, a, b, bound)
        }
        Claim::Unary {
            func, symbol, arg, ..
        } => {
            let a = eval(arg, bound)?;
            apply_unary(*func, symbol, a, bound)
        }
    }
}

#[inline(never)]
fn apply_binary(op: BinOp, symbol: &str, a: Value, b: Value, bound: u64) -> Result<Value, Fault> {
    match op.apply(a, b, bound) {
        Eval::Exact(value) => Ok(value),
        outcome => Err(binary_fault(outcome, op, symbol, a, b, bound)),
    }
}

#[inline(never)]
fn apply_unary(func: Func, symbol: &str, a: Value, bound: u64) -> Result<Value, Fault> {
    match func.apply(a, bound) {
        Eval::Exact(value) => Ok(value),
        outcome => Err(unary_fault(outcome, func, symbol, a, bound)),
    }
}

fn too_large(what: &str, bound: u64) -> Fault {
    Fault::TooLarge(format!(
        "{what} goes beyond ±{bound}, the largest value the rules allow"
    ))
}

/// Why `a op b` has no value within the bound.
#[cold]
#[inline(never)]
fn binary_fault(outcome: Eval, op: BinOp, symbol: &str, a: Value, b: Value, bound: u64) -> Fault {
    match outcome {
        Eval::Pruned => too_large(&show_binary(op, symbol, a, b), bound),
        Eval::Undefined | Eval::Exact(_) => Fault::Inexact(undefined_binary(op, symbol, a, b)),
    }
}

/// Why a function of `a` has no value within the bound.
#[cold]
#[inline(never)]
fn unary_fault(outcome: Eval, func: Func, symbol: &str, a: Value, bound: u64) -> Fault {
    let shown = show_unary(symbol, &operand(a), &signed(a));
    match outcome {
        Eval::Pruned => too_large(&shown, bound),
        Eval::Undefined | Eval::Exact(_) => Fault::Inexact(match func {
            Func::Sqrt if a >= 0 => format!("{shown} is not exact: {a} is not a square"),
            _ => format!(
                "{shown} is undefined: {} needs n ≥ 0",
                show_unary(symbol, "n", "n")
            ),
        }),
    }
}

/// A value in a fault: `−2` with a minus sign, like the witnesses print.
fn signed(v: Value) -> String {
    if v < 0 {
        format!("−{}", v.unsigned_abs())
    } else {
        v.to_string()
    }
}

/// An operand in a fault: a negative one in brackets, `(−2)`, so that
/// `(−2)!` does not read as `−(2!)`.
fn operand(v: Value) -> String {
    if v < 0 {
        format!("({})", signed(v))
    } else {
        v.to_string()
    }
}

/// `a op b` as typed: `63 / 2`, `7 x 9`, `2^64`, `2**64`, `root(9, 3)`.
fn show_binary(op: BinOp, symbol: &str, a: Value, b: Value) -> String {
    match op {
        BinOp::Root => format!("{symbol}({}, {})", signed(a), signed(b)),
        BinOp::Pow => format!("{}{symbol}{}", operand(a), operand(b)),
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
            format!("{} {symbol} {}", operand(a), operand(b))
        }
    }
}

/// A function applied as typed: `3!`, `√9`, `T(3)`, `fact(−2)`; `operand`
/// is the argument for `!` and `√`, `plain` inside a call's brackets.
fn show_unary(symbol: &str, operand: &str, plain: &str) -> String {
    match symbol {
        "!" => format!("{operand}!"),
        "√" => format!("√{operand}"),
        name => format!("{name}({plain})"),
    }
}

/// Why `a op b` has no value, in a player's words.
fn undefined_binary(op: BinOp, symbol: &str, a: Value, b: Value) -> String {
    let shown = show_binary(op, symbol, a, b);
    match op {
        BinOp::Div if b == 0 => format!("{shown}: division by zero"),
        BinOp::Div => format!("{shown} is not exact: {} is not an integer", fraction(a, b)),
        BinOp::Pow if a == 0 && b == 0 => format!("{shown} is undefined"),
        // 1^(−1) = 1 and (−1)^(−1) = −1 are whole, and 0^(−1) has no value:
        // what they break is the rule itself (exponents of 0 or more).
        BinOp::Pow if a.abs() <= 1 => format!("{shown}: powers take exponents of 0 or more"),
        BinOp::Pow => format!("{shown}: a negative power is a fraction"),
        BinOp::Root if b < 2 => format!("{shown}: a root's degree must be at least 2"),
        BinOp::Root if a < 0 => format!("{shown}: no root of a negative number"),
        BinOp::Root => format!("{shown} is not exact"),
        // Always defined within the bound; said plainly all the same.
        BinOp::Add | BinOp::Sub | BinOp::Mul => format!("{shown} has no value"),
    }
}

/// `a / b` as a mixed number: `31½`, `3 1/3`, `-2½`.
fn fraction(a: Value, b: Value) -> String {
    let (a, b) = if b < 0 { (-a, -b) } else { (a, b) };
    let sign = if a < 0 { "−" } else { "" };
    let (whole, rest) = (a.abs() / b, a.abs() % b);
    let g = Value::try_from(crate::ratio::gcd(rest.unsigned_abs(), b.unsigned_abs()))
        .expect("a divisor of b");
    let (n, d) = (rest / g, b / g);
    let part = match (n, d) {
        (1, 2) => "½".to_string(),
        (1, 3) => "⅓".to_string(),
        (2, 3) => "⅔".to_string(),
        (1, 4) => "¼".to_string(),
        (3, 4) => "¾".to_string(),
        _ if whole == 0 => format!("{n}/{d}"),
        _ => format!(" {n}/{d}"),
    };
    if whole == 0 {
        format!("{sign}{part}")
    } else {
        format!("{sign}{whole}{part}")
    }
}

/// Only operations the rules allow, functions nested no deeper than allowed.
///
/// The recursion is as deep as the tree, which the parser bounds; the
/// messages are built elsewhere to keep each frame small.
fn check_allowed(claim: &Claim, rules: &Rules, nested: u8) -> Result<(), Fault> {
    match claim {
        Claim::Number { .. } => Ok(()),
        Claim::Binary {
            op, left, right, ..
        } => {
            if matches!(op, BinOp::Pow | BinOp::Root) && !rules.powers {
                return Err(not_allowed(None, nested, rules));
            }
            check_allowed(left, rules, 0)?;
            check_allowed(right, rules, 0)
        }
        Claim::Unary { func, arg, .. } => {
            if !rules.functions.contains(*func) || nested >= rules.function_depth {
                return Err(not_allowed(Some(*func), nested, rules));
            }
            check_allowed(arg, rules, nested + 1)
        }
    }
}

/// Why a power or root (`None`) or the function `func`, inside `nested`
/// others, is not allowed.
#[cold]
#[inline(never)]
fn not_allowed(func: Option<Func>, nested: u8, rules: &Rules) -> Fault {
    let Some(f) = func else {
        return Fault::NotAllowed {
            what: "powers and roots are not allowed".into(),
            rule: HouseRule::Powers,
        };
    };
    if !rules.functions.contains(f) {
        return Fault::NotAllowed {
            what: format!("{} is not allowed", f.notation()),
            rule: HouseRule::Function(f),
        };
    }
    Fault::TooDeep {
        depth: nested.saturating_add(1),
        allowed: rules.function_depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Functions;

    fn hand(v: &[u8]) -> Hand {
        Hand::from_values(v)
    }

    fn fault(h: &[u8], claim: &str, rules: &Rules) -> String {
        check(hand(h), claim, rules).unwrap_err().to_string()
    }

    #[test]
    fn valid_claims() {
        let r = Rules::default();
        assert_eq!(check(hand(&[4, 6, 8]), "(6 × 4) ÷ 8", &r), Ok(3));
        assert_eq!(check(hand(&[4, 6, 8]), "6/(8/4)", &r), Ok(3));
        assert_eq!(check(hand(&[5, 5, 5]), "(5+5)/5", &r), Ok(2));
        let p = Rules { powers: true, ..r };
        assert_eq!(check(hand(&[2, 3, 6]), "2^6 + 3", &p), Ok(67));
        let t = Rules {
            functions: Functions::TRI,
            ..r
        };
        assert_eq!(check(hand(&[5, 6, 8]), "6 + T(5 + 8)", &t), Ok(97));
        let j = Rules {
            juxtapose: true,
            ..r
        };
        assert_eq!(check(hand(&[5, 7, 8]), "78 + 5", &j), Ok(83));
        let high = Rules {
            max_prime: None,
            ..j
        };
        assert_eq!(check(hand(&[1, 3, 11]), "1 × 113", &high), Ok(113));
    }

    #[test]
    fn faults_name_the_first_thing_wrong() {
        let r = Rules::default();
        let msg = fault(&[2, 7, 9], "7*9/2", &r);
        assert!(
            msg.contains("63 / 2 is not exact") && msg.contains("31½"),
            "{msg}"
        );
        assert_eq!(
            fault(&[2, 7, 9], "7 + 7 + 2", &r),
            "uses 7 twice, but the hand (2 7 9) has one"
        );
        assert!(fault(&[2, 7, 9], "7 + 2", &r).starts_with("does not use 9"));
        assert!(fault(&[2, 7, 9], "7 + 2 + 10", &r).contains("10 is not a card"));
        assert!(fault(&[7, 8, 5], "78 + 5", &r).contains("juxtaposing cards is not allowed"));
        assert_eq!(
            fault(
                &[7, 13, 1],
                "7 × 13 × 1",
                &Rules {
                    faces: crate::Faces::Rank,
                    ..r
                }
            ),
            "91 = 7 × 13 is not prime"
        );
        assert!(fault(&[2, 3, 6], "2^6 + 3", &r).contains("powers and roots are not allowed"));
        assert!(fault(&[5, 6, 8], "6 + T(5 + 8)", &r).contains("T(n) is not allowed"));
        let t = Rules {
            functions: Functions::TRI,
            ..r
        };
        assert!(fault(&[1, 2, 3], "T(T(1+2)) + 3", &t).contains("nested 2 deep"));
        let msg = fault(&[2, 4, 9], "9 / 2 + 4", &r);
        assert!(
            msg.contains("9 / 2 is not exact") && msg.contains("4½"),
            "{msg}"
        );
        assert!(fault(&[1, 2, 3], "3 / (2 - 2)", &r).contains("uses 2 twice"));
        assert!(fault(&[1, 2, 2], "1 / (2 - 2)", &r).contains("division by zero"));
        assert!(
            fault(&[10, 10, 1], "10 × 10 + 1", &r).contains("above the highest prime allowed, 97")
        );
        assert!(fault(&[4, 6, 8], "6 * 4 / ", &r).contains("column 9"));
    }

    /// Each kind of fault by its stable name (`check -f json`'s
    /// `fault_kind`).
    #[test]
    fn every_fault_has_its_kind() {
        let r = Rules::default();
        let kind =
            |h: &[u8], claim: &str, rules: &Rules| check(hand(h), claim, rules).unwrap_err().kind();
        assert_eq!(kind(&[4, 6, 8], "6 * 4 /", &r), "parse");
        assert_eq!(kind(&[2, 7, 9], "7 + 7 + 2", &r), "cards");
        assert_eq!(kind(&[2, 7, 9], "7*9/2", &r), "inexact");
        assert_eq!(kind(&[2, 3, 6], "2^6 + 3", &r), "not-allowed");
        assert_eq!(kind(&[4, 6, 8], "4 + 6 + 8", &r), "not-prime");
        assert_eq!(kind(&[10, 10, 1], "10 × 10 + 1", &r), "above-ceiling");
        let small = Rules {
            powers: true,
            max_value: 100,
            ..r
        };
        assert_eq!(kind(&[2, 9, 3], "9^3 + 2", &small), "too-large");
        // Cards side by side past the bound are cut off, as the solver cuts
        // them: 110 is beyond ±100.
        let joined = Rules {
            faces: crate::rules::Faces::Rank,
            juxtapose: true,
            max_value: 100,
            ..r
        };
        assert_eq!(kind(&[1, 10, 13], "110 - 13", &joined), "too-large");
        assert_eq!(
            check(hand(&[1, 10, 13]), "110 - 13", &joined)
                .unwrap_err()
                .to_string(),
            "110 goes beyond ±100, the largest value the rules allow"
        );
        let solver = crate::engine::Solver::new(joined).unwrap();
        let primes = solver.solve_primes(hand(&[1, 10, 13])).unwrap().primes();
        assert!(!primes.contains(&97), "{primes:?}");
        assert_eq!(check(hand(&[1, 10, 13]), "10 * 1 + 13", &joined), Ok(23));
    }

    /// A claim may state its result on either side of `=`; it must be what
    /// the calculation makes. `:` divides.
    #[test]
    fn a_stated_result_is_checked_and_a_colon_divides() {
        let r = Rules::default();
        let h = hand(&[4, 6, 8]);
        assert_eq!(check(h, "6 * 4 / 8 = 3", &r), Ok(3));
        assert_eq!(check(h, "3 = (6 × 4) ÷ 8", &r), Ok(3));
        assert_eq!(check(h, " 6*4:8=3 ", &r), Ok(3));
        assert_eq!(check(h, "6 * 4 : 8", &r), Ok(3));
        let wrong = check(h, "6 * 4 / 8 = 5", &r).unwrap_err();
        assert_eq!(wrong.kind(), "wrong-result");
        assert_eq!(wrong.to_string(), "the calculation makes 3, not 5");
        // A calculation that breaks says so before its result is compared.
        assert_eq!(
            check(h, "4 + 6 + 8 = 18", &r).unwrap_err().kind(),
            "not-prime"
        );
        assert_eq!(
            check(h, "6 - 4 - 8 = -6", &r).unwrap_err().kind(),
            "not-prime"
        );
        assert_eq!(check(h, "4 + 6 = 10", &r).unwrap_err().kind(), "cards");
        for (claim, column, words) in [
            ("6 * 4 / 8 = 3 = 3", 15, "one `=` at most"),
            ("6 * 4 = 8 / 3", 7, "a number alone"),
            ("= 3", 1, "the claim"),
            ("6 * 4 / 8 =", 11, "a number alone"),
        ] {
            match check(h, claim, &r) {
                Err(Fault::Parse(e)) => {
                    assert_eq!(e.column, column, "{claim}: {e}");
                    assert!(e.to_string().contains(words) || column == 1, "{claim}: {e}");
                }
                other => panic!("{claim}: {other:?}"),
            }
        }
        // The calculation's columns count from the start of the claim.
        match check(h, "3 = 6 * 4 /", &r) {
            Err(Fault::Parse(e)) => assert!(e.column > 4, "{e}"),
            other => panic!("{other:?}"),
        }
    }

    /// The wording of the faults of roots, 0^0 and fractions (found
    /// untested by mutation testing), each as a player reads it.
    #[test]
    fn roots_zero_powers_and_fractions_are_worded_exactly() {
        let r = Rules::default();
        let p = Rules { powers: true, ..r };
        let cases: [(&[u8], &str, &Rules, &str); 13] = [
            (
                &[2, 2, 9],
                "root(9, 2 - 2)",
                &p,
                "root(9, 0): a root's degree must be at least 2",
            ),
            (&[2, 2, 3, 3], "(2-2)^(3-3)", &p, "0^0 is undefined"),
            (
                &[2, 3, 10],
                "root(10, 3 - 2)",
                &p,
                "root(10, 1): a root's degree must be at least 2",
            ),
            (
                &[2, 4, 9],
                "root(2 - 9, 4)",
                &p,
                "root(−7, 4): no root of a negative number",
            ),
            (
                &[2, 4, 10],
                "root(10, 4 - 2)",
                &p,
                "root(10, 2) is not exact",
            ),
            (
                &[2, 4, 9],
                "9 / (2 - 4)",
                &r,
                "9 / (−2) is not exact: −4½ is not an integer",
            ),
            (
                &[3, 4, 6],
                "6 / 4 + 3",
                &r,
                "6 / 4 is not exact: 1½ is not an integer",
            ),
            (
                &[3, 7, 9],
                "7 / 3 + 9",
                &r,
                "7 / 3 is not exact: 2⅓ is not an integer",
            ),
            (
                &[3, 8, 9],
                "8 / 3 + 9",
                &r,
                "8 / 3 is not exact: 2⅔ is not an integer",
            ),
            (
                &[4, 7, 9],
                "7 / 4 + 9",
                &r,
                "7 / 4 is not exact: 1¾ is not an integer",
            ),
            (
                &[2, 5, 7],
                "2 / 5 + 7",
                &r,
                "2 / 5 is not exact: 2/5 is not an integer",
            ),
            (
                &[2, 5, 7],
                "7 / 5 + 2",
                &r,
                "7 / 5 is not exact: 1 2/5 is not an integer",
            ),
            (
                &[2, 7, 9],
                "7 + 2 + 13",
                &r,
                "13 is not a card in the hand (2 7 9)",
            ),
        ];
        for (h, claim, rules, said) in cases {
            assert_eq!(fault(h, claim, rules), said, "{claim}");
        }
    }

    #[test]
    fn faults_quote_operators_as_typed() {
        let r = Rules::default();
        let p = Rules { powers: true, ..r };
        let f = Rules {
            functions: Functions::ALL,
            ..r
        };
        assert_eq!(
            fault(&[2, 7, 9], "7 x 9 ÷ 2", &r),
            "63 ÷ 2 is not exact: 31½ is not an integer"
        );
        assert_eq!(
            fault(&[1, 2, 2], "1 / (2 - 2)", &r),
            "1 / 0: division by zero"
        );
        assert_eq!(
            fault(&[3, 4, 8], "(3 − 8) / 4", &r),
            "(−5) / 4 is not exact: −1¼ is not an integer"
        );
        assert_eq!(
            fault(&[1, 2, 3], "2 ** (1 - 3)", &p),
            "2**(−2): a negative power is a fraction"
        );
        assert_eq!(
            fault(&[1, 2, 3], "1 ** (2 - 3)", &p),
            "1**(−1): powers take exponents of 0 or more"
        );
        assert_eq!(
            fault(&[2, 2, 3, 3], "(2 - 3) ** (2 - 3)", &p),
            "(−1)**(−1): powers take exponents of 0 or more"
        );
        assert_eq!(
            fault(&[2, 2, 2, 3], "(2 - 2) ** (2 - 3)", &p),
            "0**(−1): powers take exponents of 0 or more"
        );
        assert!(fault(&[2, 3, 13], "3 ** (13 ** 2)", &p).starts_with("3**169 goes beyond"));
        assert_eq!(
            fault(&[1, 3, 4], "(1 - 3)! + 4", &f),
            "(−2)! is undefined: n! needs n ≥ 0"
        );
        assert_eq!(
            fault(&[1, 3, 4], "fact(1 - 3) + 4", &f),
            "fact(−2) is undefined: fact(n) needs n ≥ 0"
        );
        assert_eq!(
            fault(&[1, 3, 4], "√(1 - 4) + 3", &f),
            "√(−3) is undefined: √n needs n ≥ 0"
        );
        assert_eq!(
            fault(&[2, 3, 4], "SQRT(2 + 4) + 3", &f),
            "SQRT(6) is not exact: 6 is not a square"
        );
    }

    #[test]
    fn a_number_with_a_leading_zero_is_not_a_card() {
        let r = Rules::default();
        assert_eq!(
            fault(&[2, 3, 4], "2+3+04", &r),
            "04 is not a card in the hand (2 3 4)"
        );
        assert_eq!(
            fault(&[2, 3, 10], "2+3+010", &r),
            "010 is not a card in the hand (2 3 10)"
        );
        let j = Rules {
            juxtapose: true,
            ..r
        };
        assert_eq!(
            fault(&[2, 3, 4], "2+3+04", &j),
            "04 is not a card in the hand (2 3 4)"
        );
    }

    #[test]
    fn long_literals_have_few_readings() {
        assert_eq!(split_cards("1111111", 3), Vec::<Vec<u8>>::new());
        assert_eq!(split_cards("111111", 3), vec![vec![11; 3]]);
        assert_eq!(split_cards(&"1".repeat(19), 6), Vec::<Vec<u8>>::new());
        let j = Rules {
            juxtapose: true,
            ..Rules::default()
        };
        // Past the referee's length cap, straight to the cards' check.
        let claim = vec!["1111111111111111111"; 150].join("+");
        let claim = Claim::parse(&claim).unwrap();
        let fault = check_cards(Hand::from_values(&[1, 1, 1]), &claim, &j).unwrap_err();
        assert_eq!(
            fault.to_string(),
            "1111111111111111111 is not a card in the hand (1 1 1)"
        );
    }

    #[test]
    fn the_tallest_claims_are_walked_on_a_small_stack() {
        // Every recursion over a claim at the parser's bound, on a 256 KiB
        // stack: evaluation, the rules check, the numbers, the drop.
        let tall = [
            vec!["1"; crate::claim::MAX_CLAIM_DEPTH].join("+"),
            vec!["1"; crate::claim::MAX_CLAIM_DEPTH / 2].join("+(") + &")".repeat(99),
            format!("1{}", "!".repeat(crate::claim::MAX_CLAIM_DEPTH - 1)),
        ];
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let rules = Rules {
                    functions: Functions::ALL,
                    ..Rules::default()
                };
                for text in tall {
                    let claim = Claim::parse(&text).unwrap();
                    assert!(eval(&claim, u64::MAX).is_ok(), "{text}");
                    let ones = claim.numbers().len();
                    assert!(ones == 1 || ones >= 100, "{text}");
                    let allowed = check_allowed(&claim, &rules, 0);
                    assert_eq!(allowed.is_ok(), ones > 1, "{text}");
                    drop(claim);
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn juxtaposed_literals_take_their_cards() {
        let j = Rules {
            juxtapose: true,
            max_prime: None,
            ..Rules::default()
        };
        assert_eq!(check(hand(&[3, 10, 4]), "103 + 4", &j), Ok(107));
        // 111 reads as 1|11 or 11|1, leaving the other 1: the cards are right.
        assert!(matches!(
            check(hand(&[1, 1, 11]), "1 + 111", &j),
            Err(Fault::NotPrime(_))
        ));
        assert!(fault(&[3, 10, 4], "130 + 4", &j).contains("130 is not a card"));
        assert!(fault(&[3, 10, 4], "103 + 103", &j).contains("exactly once"));
        let mut readings = split_cards("1013", 3);
        readings.sort();
        assert_eq!(readings, vec![vec![10, 1, 3], vec![10, 13]]);
    }
}
