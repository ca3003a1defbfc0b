//! A player's claim as typed: `6*4/8`, `2^6 + 3`, `6 + T(5+8)`, `sqrt(9)!`,
//! parsed into a tree that remembers where each part was written and how
//! each operator was spelled, so that the referee can quote it back.
//!
//! The parser does not recurse; the tree it builds is at most
//! [`MAX_CLAIM_DEPTH`] tall, so that everything that walks it afterwards (the
//! referee's evaluation, `Drop`) recurses a bounded number of times: a claim
//! of any length ends in a verdict or a parse error, never in a stack
//! overflow.

use std::fmt;

use thiserror::Error;

use crate::arith::{BinOp, Func};
use crate::echo::echo;

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

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(u64, String),
    /// A binary operator and how it was typed.
    Op(BinOp, String),
    Bang,
    /// `(` or `[`: each must be closed by its own kind.
    Open(char),
    Close(char),
    Comma,
    /// A function name as typed (`T`, `tri`, `sqrt`, `fact`) or `√`.
    Func(Func, String),
    Root,
    End,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(_, text) => write!(f, "`{}`", excerpt(text)),
            Token::Op(_, symbol) | Token::Func(_, symbol) => write!(f, "`{symbol}`"),
            Token::Bang => f.write_str("`!`"),
            Token::Open(c) | Token::Close(c) => write!(f, "`{c}`"),
            Token::Comma => f.write_str("`,`"),
            Token::Root => f.write_str("`root`"),
            Token::End => f.write_str("the end"),
        }
    }
}

/// At most 20 characters of a long word or number, for messages.
fn excerpt(text: &str) -> String {
    const SHOWN: usize = 20;
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    let head = echo(&head).into_owned();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// The binary operators' binding strength: + − below × ÷ below ^.
fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Add | BinOp::Sub => 1,
        BinOp::Mul | BinOp::Div => 2,
        BinOp::Pow | BinOp::Root => 3,
    }
}

fn tokenize(input: &str) -> Result<Vec<(Token, usize)>, ParseError> {
    let chars: Vec<char> = input.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |column: usize, message: String| ParseError { column, message };
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        let op = |op: BinOp| Some(Token::Op(op, c.to_string()));
        let single = match c {
            // Spaces, tabs, newlines, carriage returns, no-break spaces.
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '+' => op(BinOp::Add),
            '-' | '−' | '–' => op(BinOp::Sub),
            '×' | '·' => op(BinOp::Mul),
            '/' | '÷' => op(BinOp::Div),
            '^' => op(BinOp::Pow),
            '!' => Some(Token::Bang),
            '(' | '[' => Some(Token::Open(c)),
            ')' | ']' => Some(Token::Close(c)),
            ',' => Some(Token::Comma),
            '√' => Some(Token::Func(Func::Sqrt, c.to_string())),
            '*' if chars.get(i + 1) == Some(&'*') => {
                out.push((Token::Op(BinOp::Pow, "**".into()), column));
                i += 2;
                continue;
            }
            '*' => op(BinOp::Mul),
            _ => None,
        };
        if let Some(token) = single {
            out.push((token, column));
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let value = text
                .parse::<u64>()
                .map_err(|_| err(column, format!("the number {} is too long", excerpt(&text))))?;
            out.push((Token::Number(value, text), column));
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() {
                i += 1;
            }
            let typed: String = chars[start..i].iter().collect();
            let token = match typed.to_lowercase().as_str() {
                "x" => Token::Op(BinOp::Mul, typed),
                "t" | "tri" => Token::Func(Func::Tri, typed),
                "fact" => Token::Func(Func::Fact, typed),
                "sqrt" => Token::Func(Func::Sqrt, typed),
                "root" => Token::Root,
                word => {
                    return Err(err(
                        column,
                        format!(
                            "unknown word `{}`: use numbers, + - * / x × ÷ ^ **, \
                             parentheses, sqrt(n) or √n, root(x, n), T(n) or tri(n), n! or fact(n)",
                            excerpt(word)
                        ),
                    ));
                }
            };
            out.push((token, column));
        } else {
            return Err(err(
                column,
                format!("unexpected character `{}`", echo(&c.to_string())),
            ));
        }
    }
    out.push((Token::End, chars.len() + 1));
    Ok(out)
}

/// A subtree and its height (a number is 1), so that depth is checked as
/// the tree is built, never by walking it.
struct Parsed {
    claim: Claim,
    height: usize,
}

/// What the parser has opened and not yet closed.
enum Frame {
    /// A binary operator waiting for its right operand.
    Op {
        op: BinOp,
        symbol: String,
        column: usize,
    },
    /// A bracket at `column`: plain, a function's, or root's.
    Group {
        open: char,
        column: usize,
        kind: Group,
    },
    /// `√` without brackets: it applies to the next operand, `√9!` = (√9)!.
    Sqrt { column: usize },
}

enum Group {
    Plain,
    Func {
        func: Func,
        symbol: String,
        column: usize,
    },
    /// `root(x, n)`: `x` once its comma has been read.
    Root {
        column: usize,
        x: Option<Parsed>,
    },
}

/// An operator-precedence parser that keeps what it has opened on a stack
/// of its own (shunting-yard), so that it never recurses: its nesting is a
/// length, bounded by `MAX_CLAIM_DEPTH`, and so is the height of the tree
/// it builds, which the tree's recursive walks rely on.
struct Parser {
    tokens: std::iter::Peekable<std::vec::IntoIter<(Token, usize)>>,
    frames: Vec<Frame>,
    operands: Vec<Parsed>,
}

impl Parser {
    fn parse(mut self) -> Result<Claim, ParseError> {
        let mut want_operand = true;
        loop {
            let (token, column) = self.tokens.next().unwrap_or((Token::End, 0));
            if want_operand {
                want_operand = self.operand(token, column)?;
                continue;
            }
            match token {
                Token::Bang => {
                    let arg = self.pop_operand()?;
                    let fact = unary(Func::Fact, "!".into(), column, arg)?;
                    self.operands.push(fact);
                }
                Token::Op(op, symbol) => {
                    let prec = precedence(op);
                    // ^ is right-associative: 2^3^2 = 2^(3^2).
                    self.reduce(|top| top > prec || (top == prec && op != BinOp::Pow))?;
                    self.push(Frame::Op { op, symbol, column }, column)?;
                    want_operand = true;
                }
                Token::Close(c) => {
                    self.reduce(|_| true)?;
                    self.close(c, column)?;
                }
                Token::Comma => {
                    self.reduce(|_| true)?;
                    match self.frames.last() {
                        Some(Frame::Group {
                            kind: Group::Root { x: None, .. },
                            ..
                        }) => {
                            let arg = self.pop_operand()?;
                            if let Some(Frame::Group {
                                kind: Group::Root { x, .. },
                                ..
                            }) = self.frames.last_mut()
                            {
                                *x = Some(arg);
                            }
                            want_operand = true;
                        }
                        _ => return Err(self.unexpected(&Token::Comma, column)),
                    }
                }
                Token::End => {
                    self.reduce(|_| true)?;
                    if !self.frames.is_empty() {
                        return Err(self.unexpected(&Token::End, column));
                    }
                    let claim = self.pop_operand()?;
                    return Ok(claim.claim);
                }
                other => return Err(self.unexpected(&other, column)),
            }
        }
    }

    /// Reads `token` where an operand must start; whether an operand is
    /// still wanted after it.
    fn operand(&mut self, token: Token, column: usize) -> Result<bool, ParseError> {
        match token {
            Token::Number(value, text) => {
                let claim = Claim::Number {
                    value,
                    text,
                    column,
                };
                self.operands.push(Parsed { claim, height: 1 });
                self.operand_done()?;
                Ok(false)
            }
            Token::Open(open) => {
                let kind = Group::Plain;
                self.push(Frame::Group { open, column, kind }, column)?;
                Ok(true)
            }
            // √ binds to what follows (√9, √√9); names need brackets.
            Token::Func(Func::Sqrt, symbol)
                if symbol == "√" && !matches!(self.tokens.peek(), Some((Token::Open(_), _))) =>
            {
                self.push(Frame::Sqrt { column }, column)?;
                Ok(true)
            }
            Token::Func(func, symbol) => {
                let (open, at) = self.open("after the function name")?;
                let kind = Group::Func {
                    func,
                    symbol,
                    column,
                };
                self.push(
                    Frame::Group {
                        open,
                        column: at,
                        kind,
                    },
                    at,
                )?;
                Ok(true)
            }
            Token::Root => {
                let (open, at) = self.open("after root")?;
                let kind = Group::Root { column, x: None };
                self.push(
                    Frame::Group {
                        open,
                        column: at,
                        kind,
                    },
                    at,
                )?;
                Ok(true)
            }
            Token::Op(BinOp::Sub, _) => Err(ParseError {
                column,
                message: "a minus sign needs a number on both sides: negative cards do not exist"
                    .into(),
            }),
            Token::End if self.frames.is_empty() => Err(ParseError {
                column,
                message: "the claim is empty".into(),
            }),
            other => Err(ParseError {
                column,
                message: format!("expected a number, `(` or a function, found {other}"),
            }),
        }
    }

    /// One more open frame, unless that nests too deeply.
    fn push(&mut self, frame: Frame, column: usize) -> Result<(), ParseError> {
        if self.frames.len() >= MAX_CLAIM_DEPTH {
            return Err(too_deep(column));
        }
        self.frames.push(frame);
        Ok(())
    }

    /// The opening bracket a function name or `root` needs.
    fn open(&mut self, what: &str) -> Result<(char, usize), ParseError> {
        match self.tokens.next() {
            Some((Token::Open(c), column)) => Ok((c, column)),
            Some((other, column)) => Err(ParseError {
                column,
                message: format!("expected `(` {what}, found {other}"),
            }),
            None => Err(ParseError {
                column: 0,
                message: format!("expected `(` {what}"),
            }),
        }
    }

    fn pop_operand(&mut self) -> Result<Parsed, ParseError> {
        // The grammar puts an operand before every operator and bracket
        // that takes one; an error, not a panic, should that ever fail.
        self.operands.pop().ok_or_else(|| ParseError {
            column: 1,
            message: "internal error: an operator without an operand".into(),
        })
    }

    /// An operand is complete: bare `√`s before it apply to it.
    fn operand_done(&mut self) -> Result<(), ParseError> {
        while let Some(Frame::Sqrt { column }) = self.frames.last() {
            let column = *column;
            self.frames.pop();
            let arg = self.pop_operand()?;
            let root = unary(Func::Sqrt, "√".into(), column, arg)?;
            self.operands.push(root);
        }
        Ok(())
    }

    /// Applies the open operators whose precedence `binds` holds, innermost
    /// first, down to the innermost bracket.
    fn reduce(&mut self, binds: impl Fn(u8) -> bool) -> Result<(), ParseError> {
        while let Some(Frame::Op { op, .. }) = self.frames.last() {
            if !binds(precedence(*op)) {
                break;
            }
            let Some(Frame::Op { op, symbol, column }) = self.frames.pop() else {
                break;
            };
            let right = self.pop_operand()?;
            let left = self.pop_operand()?;
            let node = binary(op, symbol, column, left, right)?;
            self.operands.push(node);
        }
        Ok(())
    }

    /// The bracket `c` at `column` closes the innermost group, which must
    /// have been opened by its kind: `)` for `(`, `]` for `[`.
    fn close(&mut self, c: char, column: usize) -> Result<(), ParseError> {
        let matches_group = match self.frames.last() {
            Some(Frame::Group {
                open,
                kind: Group::Root { x: Some(_), .. } | Group::Plain | Group::Func { .. },
                ..
            }) => closer(*open) == c,
            _ => false,
        };
        if !matches_group {
            return Err(self.unexpected(&Token::Close(c), column));
        }
        let Some(Frame::Group { kind, .. }) = self.frames.pop() else {
            return Err(self.unexpected(&Token::Close(c), column));
        };
        let inner = self.pop_operand()?;
        let closed = match kind {
            Group::Plain => inner,
            Group::Func {
                func,
                symbol,
                column,
            } => unary(func, symbol, column, inner)?,
            Group::Root { column, x } => {
                let Some(x) = x else {
                    return Err(self.unexpected(&Token::Close(c), column));
                };
                binary(BinOp::Root, "root".into(), column, x, inner)?
            }
        };
        self.operands.push(closed);
        self.operand_done()
    }

    /// What was expected where `token` came, after a whole operand: the
    /// innermost open bracket decides.
    fn unexpected(&self, token: &Token, column: usize) -> ParseError {
        let group = self.frames.iter().rev().find_map(|f| match f {
            Frame::Group { open, column, kind } => Some((*open, *column, kind)),
            _ => None,
        });
        let message = match (group, token) {
            (None, Token::Close(c)) => format!("this `{c}` has no matching `{}`", opener(*c)),
            (None, _) => format!("expected an operator or the end, found {token}"),
            (Some((_, _, Group::Root { x: None, .. })), _) => {
                format!("expected `,` between root's number and degree, found {token}")
            }
            (Some((open, at, _)), _) => format!(
                "expected `{}` to close the `{open}` at column {at}, found {token}",
                closer(open)
            ),
        };
        ParseError { column, message }
    }
}

/// The bracket that closes `open`.
fn closer(open: char) -> char {
    if open == '[' { ']' } else { ')' }
}

/// The bracket that `close` closes.
fn opener(close: char) -> char {
    if close == ']' { '[' } else { '(' }
}

/// `claim` as a subtree of `height`, unless that is too tall.
fn node(claim: Claim, height: usize, column: usize) -> Result<Parsed, ParseError> {
    if height > MAX_CLAIM_DEPTH {
        return Err(too_deep(column));
    }
    Ok(Parsed { claim, height })
}

fn unary(func: Func, symbol: String, column: usize, arg: Parsed) -> Result<Parsed, ParseError> {
    let claim = Claim::Unary {
        func,
        symbol,
        column,
        arg: Box::new(arg.claim),
    };
    node(claim, arg.height + 1, column)
}

fn binary(
    op: BinOp,
    symbol: String,
    column: usize,
    left: Parsed,
    right: Parsed,
) -> Result<Parsed, ParseError> {
    let height = left.height.max(right.height) + 1;
    let claim = Claim::Binary {
        op,
        symbol,
        column,
        left: Box::new(left.claim),
        right: Box::new(right.claim),
    };
    node(claim, height, column)
}

fn too_deep(column: usize) -> ParseError {
    ParseError {
        column,
        message: format!(
            "the claim nests brackets, functions and operators more than {MAX_CLAIM_DEPTH} deep"
        ),
    }
}

impl Claim {
    /// Parses a claim; the whole input must be one expression.
    ///
    /// ```
    /// use prime_solve::claim::Claim;
    /// assert!(Claim::parse("(6 * 4) / 8").is_ok());
    /// let err = Claim::parse("[6 * 4) / 8").unwrap_err();
    /// assert_eq!(err.column, 7);
    /// ```
    pub fn parse(input: &str) -> Result<Claim, ParseError> {
        Parser {
            tokens: tokenize(input)?.into_iter().peekable(),
            frames: Vec::new(),
            operands: Vec::new(),
        }
        .parse()
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
        assert!(Claim::parse(&word).unwrap_err().message.len() < 300);
        let number = "9".repeat(10_000);
        assert!(Claim::parse(&number).unwrap_err().message.len() < 100);
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
