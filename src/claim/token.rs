//! The claim's tokens: numbers, operators and function names as typed, each
//! with its 1-based column.

use std::fmt;

use super::ParseError;
use crate::arith::{BinOp, Func};
use crate::text::{echo, excerpt};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
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

/// The binary operators' binding strength: + − below × ÷ below ^.
pub(super) fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Add | BinOp::Sub => 1,
        BinOp::Mul | BinOp::Div => 2,
        BinOp::Pow | BinOp::Root => 3,
    }
}

/// The tokens of `input`; with `faces`, a word that is a card (`K`, `QH`,
/// `A`) stands for the value it counts under those faces.
pub(super) fn tokenize(
    input: &str,
    faces: Option<crate::rules::Faces>,
) -> Result<Vec<(Token, usize)>, ParseError> {
    let mut chars: Vec<char> = Vec::with_capacity(input.len());
    chars.extend(input.chars());
    let mut out = Vec::with_capacity(chars.len() / 2 + 2);
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
            // `:` is how much of Europe writes a division.
            '/' | '÷' | ':' => op(BinOp::Div),
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
                _ if faces.is_some() && crate::card::Card::parse(&typed).is_ok() => {
                    let card = crate::card::Card::parse(&typed).expect("a card");
                    let faces = faces.expect("faces");
                    match card.value(faces) {
                        Ok(Some(v)) => Token::Number(u64::from(v), typed),
                        Ok(None) => {
                            return Err(err(
                                column,
                                "a Joker copies the higher other card: write the value it counts"
                                    .into(),
                            ));
                        }
                        Err(e) => return Err(err(column, e.to_string())),
                    }
                }
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
