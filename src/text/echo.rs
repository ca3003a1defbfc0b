//! Input echoed back to a terminal: control characters are written as
//! escapes, so a claim or a card token can never move the cursor, recolour
//! the screen or break a one-line message.

use std::borrow::Cow;
use std::fmt::Write;

/// `input` with every control character (C0, DEL, C1), line or paragraph
/// separator and bidirectional-text control written as an escape: `\t`,
/// `\n`, `\r`, else `\u{1b}`. Everything else is kept as typed.
///
/// ```
/// use prime_solve::text::echo;
/// assert_eq!(echo("6 x 4"), "6 x 4");
/// assert_eq!(echo("6\tx\u{1b}[31m4\n"), "6\\tx\\u{1b}[31m4\\n");
/// ```
pub fn echo(input: &str) -> Cow<'_, str> {
    if !input.chars().any(needs_escape) {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len() + 8);
    for c in input.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// At most the first 20 characters of `text`, escaped as [`echo`] does,
/// then `…` where more were cut: a long word, number or card token in a
/// one-line message.
///
/// ```
/// use prime_solve::text::excerpt;
/// assert_eq!(excerpt("QH"), "QH");
/// assert_eq!(excerpt(&"x".repeat(100_000)), format!("{}…", "x".repeat(20)));
/// ```
pub fn excerpt(text: &str) -> String {
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

/// Whether a terminal might act on `c` rather than show it.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' // line and paragraph separators
                | '\u{200e}' | '\u{200f}' // left-to-right and right-to-left marks
                | '\u{202a}'..='\u{202e}' // bidirectional embeddings and overrides
                | '\u{2066}'..='\u{2069}' // bidirectional isolates
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(echo("(6 × 4) ÷ 8 √9 T(3)"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_control_character_is_escaped() {
        assert_eq!(echo("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(echo("a\u{7f}b\u{9b}c"), "a\\u{7f}b\\u{9b}c");
        assert_eq!(echo("\u{202e}8"), "\\u{202e}8");
        assert_eq!(echo("1\r\n2"), "1\\r\\n2");
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let shown = echo(c.encode_utf8(&mut [0; 4])).into_owned();
            assert!(!shown.chars().any(needs_escape), "{c:?}");
        }
    }
}
