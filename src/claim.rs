//! A player's claim as typed: `6*4/8`, `2^6 + 3`, `6 + T(5+8)`, `sqrt(9)!`,
//! parsed into a tree that remembers where each part was written.

use std::fmt;

use thiserror::Error;

use crate::arith::{BinOp, Func};

/// A parsed claim. Numbers are literals as written: a card, or with
/// juxtaposition several cards side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    Number {
        value: u64,
        text: String,
        column: usize,
    },
    Binary(BinOp, Box<Claim>, Box<Claim>),
    Unary(Func, Box<Claim>),
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
    Op(BinOp),
    Bang,
    Open,
    Close,
    Comma,
    Func(Func),
    Root,
    End,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(_, text) => write!(f, "`{text}`"),
            Token::Op(op) => write!(f, "`{}`", op.symbol(false)),
            Token::Bang => f.write_str("`!`"),
            Token::Open => f.write_str("`(`"),
            Token::Close => f.write_str("`)`"),
            Token::Comma => f.write_str("`,`"),
            Token::Func(func) => write!(f, "`{}`", func.name()),
            Token::Root => f.write_str("`root`"),
            Token::End => f.write_str("the end"),
        }
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
        let single = match c {
            ' ' | '\t' => {
                i += 1;
                continue;
            }
            '+' => Some(Token::Op(BinOp::Add)),
            '-' | '−' | '–' => Some(Token::Op(BinOp::Sub)),
            '×' | '·' => Some(Token::Op(BinOp::Mul)),
            '/' | '÷' => Some(Token::Op(BinOp::Div)),
            '^' => Some(Token::Op(BinOp::Pow)),
            '!' => Some(Token::Bang),
            '(' | '[' => Some(Token::Open),
            ')' | ']' => Some(Token::Close),
            ',' => Some(Token::Comma),
            '√' => Some(Token::Func(Func::Sqrt)),
            '*' if chars.get(i + 1) == Some(&'*') => {
                out.push((Token::Op(BinOp::Pow), column));
                i += 2;
                continue;
            }
            '*' => Some(Token::Op(BinOp::Mul)),
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
                .map_err(|_| err(column, format!("the number {text} is too long")))?;
            out.push((Token::Number(value, text), column));
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
            let token = match word.as_str() {
                "x" => Token::Op(BinOp::Mul),
                "t" | "tri" => Token::Func(Func::Tri),
                "fact" => Token::Func(Func::Fact),
                "sqrt" => Token::Func(Func::Sqrt),
                "root" => Token::Root,
                _ => {
                    return Err(err(
                        column,
                        format!(
                            "unknown word `{word}`: use numbers, + - * / x × ÷ ^ **, \
                             parentheses, sqrt(n) or √n, root(x, n), T(n) or tri(n), n! or fact(n)"
                        ),
                    ));
                }
            };
            out.push((token, column));
        } else {
            return Err(err(column, format!("unexpected character `{c}`")));
        }
    }
    out.push((Token::End, chars.len() + 1));
    Ok(out)
}

struct Parser {
    tokens: Vec<(Token, usize)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.tokens[self.at].0
    }

    fn column(&self) -> usize {
        self.tokens[self.at].1
    }

    fn next(&mut self) -> (Token, usize) {
        let t = self.tokens[self.at].clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        t
    }

    fn fail<T>(&self, message: String) -> Result<T, ParseError> {
        Err(ParseError {
            column: self.column(),
            message,
        })
    }

    fn expect(&mut self, want: Token, what: &str) -> Result<(), ParseError> {
        if *self.peek() == want {
            self.next();
            Ok(())
        } else {
            self.fail(format!("expected {what}, found {}", self.peek()))
        }
    }

    // expr := term (('+' | '-') term)*
    fn expr(&mut self) -> Result<Claim, ParseError> {
        let mut left = self.term()?;
        while let Token::Op(op @ (BinOp::Add | BinOp::Sub)) = *self.peek() {
            self.next();
            let right = self.term()?;
            left = Claim::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    // term := power (('*' | '/') power)*
    fn term(&mut self) -> Result<Claim, ParseError> {
        let mut left = self.power()?;
        while let Token::Op(op @ (BinOp::Mul | BinOp::Div)) = *self.peek() {
            self.next();
            let right = self.power()?;
            left = Claim::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    // power := postfix ('^' power)?   (right-associative)
    fn power(&mut self) -> Result<Claim, ParseError> {
        let base = self.postfix()?;
        if *self.peek() == Token::Op(BinOp::Pow) {
            self.next();
            let exp = self.power()?;
            return Ok(Claim::Binary(BinOp::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    // postfix := primary '!'*
    fn postfix(&mut self) -> Result<Claim, ParseError> {
        let mut inner = self.primary()?;
        while *self.peek() == Token::Bang {
            self.next();
            inner = Claim::Unary(Func::Fact, Box::new(inner));
        }
        Ok(inner)
    }

    fn primary(&mut self) -> Result<Claim, ParseError> {
        let column = self.column();
        match self.next().0 {
            Token::Number(value, text) => Ok(Claim::Number {
                value,
                text,
                column,
            }),
            Token::Open => {
                let inner = self.expr()?;
                self.expect(Token::Close, "`)`")?;
                Ok(inner)
            }
            Token::Func(f) => {
                // √ binds to what follows (√9, √(x)); names need parentheses.
                let bare_root = f == Func::Sqrt && *self.peek() != Token::Open;
                if bare_root {
                    let arg = self.primary()?;
                    return Ok(Claim::Unary(f, Box::new(arg)));
                }
                self.expect(Token::Open, "`(` after the function name")?;
                let arg = self.expr()?;
                self.expect(Token::Close, "`)`")?;
                Ok(Claim::Unary(f, Box::new(arg)))
            }
            Token::Root => {
                self.expect(Token::Open, "`(` after root")?;
                let x = self.expr()?;
                self.expect(Token::Comma, "`,` between root's number and degree")?;
                let n = self.expr()?;
                self.expect(Token::Close, "`)`")?;
                Ok(Claim::Binary(BinOp::Root, Box::new(x), Box::new(n)))
            }
            Token::Op(BinOp::Sub) => Err(ParseError {
                column,
                message: "a minus sign needs a number on both sides: negative cards do not exist"
                    .into(),
            }),
            other => Err(ParseError {
                column,
                message: format!("expected a number, `(` or a function, found {other}"),
            }),
        }
    }
}

impl Claim {
    /// Parses a claim; the whole input must be one expression.
    pub fn parse(input: &str) -> Result<Claim, ParseError> {
        let mut parser = Parser {
            tokens: tokenize(input)?,
            at: 0,
        };
        if *parser.peek() == Token::End {
            return parser.fail("the claim is empty".into());
        }
        let claim = parser.expr()?;
        match parser.peek() {
            Token::End => Ok(claim),
            Token::Close => parser.fail("this `)` has no matching `(`".into()),
            other => parser.fail(format!("expected an operator or the end, found {other}")),
        }
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
            Claim::Binary(_, a, b) => {
                a.collect_numbers(out);
                b.collect_numbers(out);
            }
            Claim::Unary(_, a) => a.collect_numbers(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(c: &Claim) -> String {
        match c {
            Claim::Number { value, .. } => value.to_string(),
            Claim::Binary(op, a, b) => format!("({} {:?} {})", shape(a), op, shape(b)),
            Claim::Unary(f, a) => format!("{}({})", f.name(), shape(a)),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        let p = |s| shape(&Claim::parse(s).unwrap());
        assert_eq!(p("6*4/8"), "((6 Mul 4) Div 8)");
        assert_eq!(p("6 x 4 ÷ 8"), "((6 Mul 4) Div 8)");
        assert_eq!(p("2^6 + 3"), "((2 Pow 6) Add 3)");
        assert_eq!(p("2**3**2"), "(2 Pow (3 Pow 2))");
        assert_eq!(p("9 - 5 - 2"), "((9 Sub 5) Sub 2)");
        assert_eq!(p("6 + T(5 + 8)"), "(6 Add tri((5 Add 8)))");
        assert_eq!(p("√9 + 3!"), "(sqrt(9) Add fact(3))");
        assert_eq!(p("(1+2)!!"), "fact(fact((1 Add 2)))");
        assert_eq!(
            p("root(8, 3) + fact(3)"),
            "(root(8) Add fact(3))".replace("root(8)", "(8 Root 3)")
        );
        assert_eq!(p("[6 x 4] ÷ 8"), "((6 Mul 4) Div 8)");
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
        assert!(e("-3 + 5").message.contains("minus"));
        assert!(e("foo(3)").message.contains("unknown word"));
    }
}
