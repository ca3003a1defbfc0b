//! A player's claim as typed: `6*4/8`, `2^6 + 3`, `6 + T(5+8)`, `sqrt(9)!`,
//! parsed into a tree that remembers where each part was written and how
//! each operator was spelled, so that the referee can quote it back.
//!
//! The parser does not recurse; the tree it builds is at most
//! [`MAX_CLAIM_DEPTH`] tall, so that everything that walks it afterwards (the
//! referee's evaluation, `Drop`) recurses a bounded number of times: a claim
//! of any length ends in a verdict or a parse error, never in a stack
//! overflow.

mod parser;
mod token;

use thiserror::Error;

use crate::arith::{BinOp, Func};

/// How deeply a claim may nest brackets, functions and operators: both what
/// the parser holds open at once (brackets, function calls, operators
/// waiting for their right side) and the height of the tree it builds
/// (`1+1+…+1` is a tree as tall as it has operators). A real claim over at
/// most six cards needs a few dozen levels; 200 keeps every recursion over
/// the tree to 200 small frames, well within even a 256 KiB thread stack.
pub const MAX_CLAIM_DEPTH: usize = 200;

/// A parsed claim. Numbers are literals as written: a card, or with
/// juxtaposition several cards side by side. Operators and functions keep
/// the `symbol` the player typed (`*`, `x`, `÷`, `**`, `T`, `tri`, `√`, `!`)
/// and its 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    Number {
        value: u64,
        text: String,
        column: usize,
    },
    /// `left op right`, or `root(left, right)` with the symbol `root`.
    Binary {
        op: BinOp,
        symbol: String,
        column: usize,
        left: Box<Claim>,
        right: Box<Claim>,
    },
    /// A function: `T(x)`, `tri(x)`, `sqrt(x)`, `√x`, `fact(x)`, or `x!`
    /// with the symbol `!`.
    Unary {
        func: Func,
        symbol: String,
        column: usize,
        arg: Box<Claim>,
    },
}

/// Why a claim does not parse, with the 1-based column (in characters).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot read the claim at column {column}: {message}")]
pub struct ParseError {
    pub column: usize,
    pub message: String,
}

impl Claim {
    /// Parses a claim; the whole input must be one expression.
    ///
    /// ```
    /// use prime_solve::Claim;
    /// assert!(Claim::parse("(6 * 4) / 8").is_ok());
    /// let err = Claim::parse("[6 * 4) / 8").unwrap_err();
    /// assert_eq!(err.column, 7);
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] with the column of the first problem, including a claim nested deeper than [`MAX_CLAIM_DEPTH`].
    ///
    /// # Panics
    /// Never: the parser's own stack holds what it reads.
    pub fn parse(input: &str) -> Result<Claim, ParseError> {
        parser::parse(token::tokenize(input, None)?)
    }

    /// As [`Claim::parse`], with the cards a player may name by letter
    /// (`K + Q - J`, `A`, `QH`) read as the values they count under
    /// `faces`.
    ///
    /// ```
    /// use prime_solve::{Claim, Faces};
    /// let c = Claim::parse_with("K + Q - J", Faces::Rank).unwrap();
    /// assert_eq!(c.numbers(), [(13, "K"), (12, "Q"), (11, "J")]);
    /// assert!(Claim::parse("K + Q - J").is_err());
    /// ```
    ///
    /// # Errors
    /// As [`Claim::parse`], and for a card the faces cannot count alone (a
    /// face card without its suit under `suit`, a Joker).
    pub fn parse_with(input: &str, faces: crate::rules::Faces) -> Result<Claim, ParseError> {
        parser::parse(token::tokenize(input, Some(faces))?)
    }

    /// The literals, left to right.
    pub fn numbers(&self) -> Vec<(u64, &str)> {
        let mut out = Vec::new();
        self.collect_numbers(&mut out);
        out
    }

    fn collect_numbers<'a>(&'a self, out: &mut Vec<(u64, &'a str)>) {
        match self {
            Claim::Number { value, text, .. } => out.push((*value, text)),
            Claim::Binary { left, right, .. } => {
                left.collect_numbers(out);
                right.collect_numbers(out);
            }
            Claim::Unary { arg, .. } => arg.collect_numbers(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(c: &Claim) -> String {
        match c {
            Claim::Number { value, .. } => value.to_string(),
            Claim::Binary {
                op, left, right, ..
            } => format!("({} {:?} {})", shape(left), op, shape(right)),
            Claim::Unary { func, arg, .. } => format!("{}({})", func.name(), shape(arg)),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        let p = |s| shape(&Claim::parse(s).unwrap());
        assert_eq!(p("6*4/8"), "((6 Mul 4) Div 8)");
        assert_eq!(p("6 x 4 ÷ 8"), "((6 Mul 4) Div 8)");
        assert_eq!(p("2^6 + 3"), "((2 Pow 6) Add 3)");
        assert_eq!(p("2**3**2"), "(2 Pow (3 Pow 2))");
        assert_eq!(p("2^3*2^2"), "((2 Pow 3) Mul (2 Pow 2))");
        assert_eq!(p("9 - 5 - 2"), "((9 Sub 5) Sub 2)");
        assert_eq!(p("9 - 5 * 2 + 1"), "((9 Sub (5 Mul 2)) Add 1)");
        assert_eq!(p("6 + T(5 + 8)"), "(6 Add tri((5 Add 8)))");
        assert_eq!(p("√9 + 3!"), "(sqrt(9) Add fact(3))");
        assert_eq!(p("√√9!"), "fact(sqrt(sqrt(9)))");
        assert_eq!(p("2^3!"), "(2 Pow fact(3))");
        assert_eq!(p("(1+2)!!"), "fact(fact((1 Add 2)))");
        assert_eq!(p("root(8, 3) + fact(3)"), "((8 Root 3) Add fact(3))");
        assert_eq!(p("[6 x 4] ÷ 8"), "((6 Mul 4) Div 8)");
        assert_eq!(p("T[3] + [2]"), "(tri(3) Add 2)");
    }

    #[test]
    fn operators_keep_how_they_were_typed() {
        let Claim::Binary { symbol, column, .. } = Claim::parse("7*9 / 2").unwrap() else {
            panic!("not a binary operation");
        };
        assert_eq!((symbol.as_str(), column), ("/", 5));
        let Claim::Binary { left, symbol, .. } = Claim::parse("7 X 9 ** 2").unwrap() else {
            panic!("not a binary operation");
        };
        assert_eq!(symbol, "X");
        assert!(matches!(*left, Claim::Number { value: 7, .. }));
        let Claim::Unary { symbol, .. } = Claim::parse("TRI(3)").unwrap() else {
            panic!("not a function");
        };
        assert_eq!(symbol, "TRI");
    }

    #[test]
    fn errors_point_at_the_column() {
        let e = |s| Claim::parse(s).unwrap_err();
        assert_eq!(e("6 + ").column, 5);
        assert_eq!(e("6 + * 4").column, 5);
        assert_eq!(e("(6 + 4").column, 7);
        assert_eq!(e("6 + 4)").column, 6);
        assert_eq!(e("6 $ 4").column, 3);
        assert_eq!(e("").column, 1);
        assert_eq!(e(" \t\n").column, 4);
        assert!(e("-3 + 5").message.contains("minus"));
        assert!(e("foo(3)").message.contains("unknown word"));
        assert!(e("6 + * 4").message.contains("found `*`"));
        // A ten written as its card's name reads as the function T.
        let ten = e("T+5+6");
        assert_eq!(ten.column, 2);
        assert!(
            ten.message.contains("a ten is written 10"),
            "{}",
            ten.message
        );
        assert!(!e("tri+5").message.contains("ten"));
    }

    #[test]
    fn tabs_newlines_and_returns_are_whitespace() {
        let spaced = Claim::parse("(6 * 4) / 8").unwrap();
        let p = |s| shape(&Claim::parse(s).unwrap());
        for claim in ["(6\t*\t4)\t/\t8", "(6 *\n4) /\r\n8", "(6\u{a0}* 4) / 8"] {
            assert_eq!(p(claim), shape(&spaced), "{claim:?}");
        }
    }

    #[test]
    fn brackets_must_match_their_kind() {
        let e = |s| Claim::parse(s).unwrap_err();
        let err = e("[2+3+4)");
        assert_eq!(err.column, 7);
        assert!(
            err.message
                .contains("expected `]` to close the `[` at column 1, found `)`"),
            "{}",
            err.message
        );
        assert_eq!(e("((2+3+4]]").column, 8);
        assert_eq!(e("T[3)").column, 4);
        assert_eq!(e("root(8, 3]").column, 10);
        assert!(e("2 + 3]").message.contains("this `]` has no matching `[`"));
        assert!(Claim::parse("[(2+3)+4]").is_ok());
    }

    #[test]
    fn control_characters_are_escaped_in_errors() {
        let err = Claim::parse("2+3+\u{1b}[31m4").unwrap_err();
        assert_eq!(err.column, 5);
        assert!(err.message.contains("`\\u{1b}`"), "{}", err.message);
        assert!(!err.to_string().contains('\u{1b}'));
    }

    #[test]
    fn long_words_and_numbers_are_cut_short_in_errors() {
        let word = "z".repeat(10_000);
        let message = Claim::parse(&word).unwrap_err().message;
        assert!(message.len() < 300);
        // Its first 20 letters, then `…`.
        assert!(
            message.contains(&format!("`{}…`", "z".repeat(20))),
            "{message}"
        );
        let number = "9".repeat(10_000);
        assert!(Claim::parse(&number).unwrap_err().message.len() < 100);
    }

    /// An empty claim is called empty; one that ends where an operand is
    /// due says what it expected, also inside brackets.
    #[test]
    fn an_empty_claim_and_a_missing_operand_are_told_apart() {
        let e = |s| Claim::parse(s).unwrap_err().message;
        assert_eq!(e(""), "the claim is empty");
        for claim in ["6 + ", "(", "(6 +"] {
            let message = e(claim);
            assert!(message.contains("found the end"), "{claim}: {message}");
        }
    }

    /// √ alone binds to what follows; a function's name needs brackets.
    #[test]
    fn only_the_root_sign_goes_without_brackets() {
        assert!(Claim::parse("√9 + 4").is_ok());
        assert!(Claim::parse("sqrt(9) + 4").is_ok());
        assert!(Claim::parse("sqrt 9 + 4").is_err());
    }

    /// Each hostile shape, `count` times over.
    fn hostile(count: usize) -> Vec<(&'static str, String)> {
        vec![
            ("(", format!("{}1{}", "(".repeat(count), ")".repeat(count))),
            ("unclosed (", "(".repeat(count)),
            ("[", format!("{}1{}", "[".repeat(count), "]".repeat(count))),
            (
                "T(",
                format!("{}1{}", "T(".repeat(count), ")".repeat(count)),
            ),
            (
                "root(",
                format!("{}1{}", "root(".repeat(count), ",2)".repeat(count)),
            ),
            ("√", format!("{}9", "√".repeat(count))),
            ("!", format!("3{}", "!".repeat(count))),
            ("^", vec!["2"; count + 1].join("^")),
            ("**", vec!["2"; count + 1].join("**")),
            ("+", vec!["1"; count + 1].join("+")),
            (
                "-(",
                format!("{}1{}", "1-(".repeat(count), ")".repeat(count)),
            ),
        ]
    }

    #[test]
    fn nesting_up_to_the_bound_parses() {
        for (name, claim) in hostile(MAX_CLAIM_DEPTH / 2) {
            if name != "unclosed (" {
                assert!(Claim::parse(&claim).is_ok(), "{name}");
            }
        }
    }

    #[test]
    fn nesting_beyond_the_bound_is_a_parse_error_at_its_column() {
        for (name, claim) in hostile(MAX_CLAIM_DEPTH + 1) {
            let err = Claim::parse(&claim).unwrap_err();
            assert!(err.message.contains("more than 200 deep"), "{name}: {err}");
            assert!(
                err.column > 1 && err.column <= claim.chars().count(),
                "{name}: {err}"
            );
        }
        let err = Claim::parse(&"(".repeat(1000)).unwrap_err();
        assert_eq!(err.column, MAX_CLAIM_DEPTH + 1);
        let err = Claim::parse(&format!("3{}", "!".repeat(1000))).unwrap_err();
        assert_eq!(err.column, MAX_CLAIM_DEPTH + 1);
    }
}
