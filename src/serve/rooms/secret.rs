//! The room's secrets and names: seat tokens of 128 bits from the
//! operating system's random source, compared in constant time, and room
//! codes of six characters from an alphabet without look-alikes.

use std::fmt;

/// The characters of a room code: no 0/O, 1/I/L, 5/S, 2/Z, 8/B.
const ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";
/// How long a room code is.
pub(crate) const CODE_LEN: usize = 6;

/// A seat's secret: whoever holds it plays the seat.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token([u8; 16]);

impl Token {
    /// A fresh token, or `None` when the random source fails.
    pub(crate) fn fresh() -> Option<Token> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).ok()?;
        Some(Token(bytes))
    }

    /// The token written as 32 hex digits, or `None`.
    pub(crate) fn parse(text: &str) -> Option<Token> {
        let text = text.as_bytes();
        if text.len() != 32 {
            return None;
        }
        let mut bytes = [0u8; 16];
        for (i, pair) in text.chunks(2).enumerate() {
            let hex = |c: u8| char::from(c).to_digit(16);
            bytes[i] = u8::try_from(hex(pair[0])? * 16 + hex(pair[1])?).ok()?;
        }
        Some(Token(bytes))
    }

    /// Whether two tokens are the same, in time that does not depend on
    /// where they differ.
    pub(crate) fn same(&self, other: &Token) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A fresh room code, or `None` when the random source fails.
pub(crate) fn code() -> Option<String> {
    let mut code = String::with_capacity(CODE_LEN);
    while code.len() < CODE_LEN {
        let mut byte = [0u8; 1];
        getrandom::fill(&mut byte).ok()?;
        // Rejection sampling: every character equally likely.
        let limit = 256 - 256 % ALPHABET.len();
        if usize::from(byte[0]) < limit {
            code.push(char::from(ALPHABET[usize::from(byte[0]) % ALPHABET.len()]));
        }
    }
    Some(code)
}

/// A code as typed (any case, spaces and dashes ignored), if it could be
/// one.
pub(crate) fn read_code(text: &str) -> Option<String> {
    let code: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_read_back_and_compared() {
        let a = Token::fresh().unwrap();
        let b = Token::fresh().unwrap();
        assert!(!a.same(&b), "two fresh tokens differ");
        let text = a.to_string();
        assert_eq!(text.len(), 32);
        assert!(Token::parse(&text).unwrap().same(&a));
        for bad in ["", "xyz", &text[..31], &format!("{text}0"), &"g".repeat(32)] {
            assert!(Token::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn codes_use_the_alphabet_and_are_read_as_typed() {
        let codes: Vec<String> = (0..200).map(|_| code().unwrap()).collect();
        for c in &codes {
            assert_eq!(c.len(), CODE_LEN);
            assert_eq!(read_code(c).as_deref(), Some(c.as_str()));
            assert_eq!(read_code(&c.to_lowercase()).as_deref(), Some(c.as_str()));
        }
        let distinct: std::collections::BTreeSet<&String> = codes.iter().collect();
        assert!(distinct.len() > 190, "{}", distinct.len());
        assert_eq!(read_code("acd-efg").as_deref(), Some("ACDEFG"));
        for bad in ["ACDEF", "ACDEFGH", "ACDEF0", "ACDEFO", "ACDEF1", "ACDÉFG"] {
            assert!(read_code(bad).is_none(), "{bad}");
        }
    }
}
