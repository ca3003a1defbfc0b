//! The claim's parser: operator precedence over the tokens with a stack of
//! its own, so that it never recurses, and a tree no taller than
//! [`MAX_CLAIM_DEPTH`].

use super::token::{Token, precedence};
use super::{Claim, MAX_CLAIM_DEPTH, ParseError};
use crate::arith::{BinOp, Func};

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

/// Parses the tokens of a whole claim.
pub(super) fn parse(tokens: Vec<(Token, usize)>) -> Result<Claim, ParseError> {
    Parser {
        // Room for a claim of six cards without growing.
        frames: Vec::with_capacity(8),
        operands: Vec::with_capacity(8),
        tokens: tokens.into_iter().peekable(),
    }
    .run()
}

impl Parser {
    fn run(mut self) -> Result<Claim, ParseError> {
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
                // A player may write a ten as the card's name, T.
                let what = if func == Func::Tri && symbol.eq_ignore_ascii_case("t") {
                    "after T, the triangular number T(n) (in a claim a ten is written 10)"
                } else {
                    "after the function name"
                };
                let (open, at) = self.open(what)?;
                let kind = Group::Func {
                    func,
                    symbol,
                    column,
                };
                self.push_group(open, at, kind)
            }
            Token::Root => {
                let (open, at) = self.open("after root")?;
                self.push_group(open, at, Group::Root { column, x: None })
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
    /// Opens a bracket of `kind` at `column`, written `open`; what the
    /// token reader goes on with.
    fn push_group(&mut self, open: char, column: usize, kind: Group) -> Result<bool, ParseError> {
        self.push(Frame::Group { open, column, kind }, column)?;
        Ok(true)
    }

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
            "the claim is more than {MAX_CLAIM_DEPTH} deep: each operation, function or bracket \
             around another counts one, `1+2+3` is two deep"
        ),
    }
}
