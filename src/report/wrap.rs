//! Breaking the crib's text into lines that fit a width, measured in its
//! font: prose at spaces, a calculation before its operators, and a number
//! too long for any line between its digits.

use super::font::Weight;

/// A run of text in one weight.
pub(crate) type Run = (String, bool);
/// A line: runs drawn one after the other.
pub(crate) type Line = Vec<Run>;

/// The width of a line at `size`.
pub(crate) fn line_width(line: &Line, size: f32) -> f32 {
    line.iter()
        .map(|(t, bold)| Weight::of(*bold).width(t) * size)
        .sum()
}

/// `tokens` laid into lines of at most `width` at `size`, breaking only
/// between tokens, or inside a token wider than a line on its own.
pub(crate) fn runs(tokens: &[Run], width: f32, size: f32) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut line: Line = Vec::new();
    let mut used = 0.0;
    let push = |line: &mut Line, text: String, bold: bool| match line.last_mut() {
        Some((last, b)) if *b == bold => last.push_str(&text),
        _ => line.push((text, bold)),
    };
    for (text, bold) in tokens {
        let w = Weight::of(*bold).width(text) * size;
        if !line.is_empty() && used + w > width {
            lines.push(std::mem::take(&mut line));
            used = 0.0;
        }
        if w <= width {
            push(&mut line, text.clone(), *bold);
            used += w;
            continue;
        }
        // Wider than a line: as many characters as fit, line by line.
        for c in text.chars() {
            let cw = Weight::of(*bold).width(c.encode_utf8(&mut [0; 4])) * size;
            if !line.is_empty() && used + cw > width {
                lines.push(std::mem::take(&mut line));
                used = 0.0;
            }
            push(&mut line, c.to_string(), *bold);
            used += cw;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A calculation written tightly (`(6×4)÷8`) cut before each binary
/// operator: the places a line may break.
pub(crate) fn operator_pieces(calc: &str) -> Vec<String> {
    let mut pieces = vec![String::new()];
    for c in calc.chars() {
        let last = pieces.last_mut().expect("never empty");
        if matches!(c, '+' | '−' | '×' | '÷' | '^') && !last.is_empty() {
            pieces.push(c.to_string());
        } else {
            last.push(c);
        }
    }
    pieces
}

/// Prose broken at spaces into lines of at most `width` at `size`.
pub(crate) fn words(text: &str, bold: bool, size: f32, width: f32) -> Vec<String> {
    let tokens: Vec<Run> = text
        .split(' ')
        .enumerate()
        .map(|(i, w)| {
            let sep = if i == 0 { "" } else { " " };
            (format!("{sep}{w}"), bold)
        })
        .collect();
    runs(&tokens, width, size)
        .into_iter()
        .map(|line| {
            let s: String = line.into_iter().map(|(t, _)| t).collect();
            s.trim_start().to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calculations_break_before_operators() {
        assert_eq!(operator_pieces("(6×4)÷8"), ["(6", "×4)", "÷8"]);
        assert_eq!(operator_pieces("13×7+6"), ["13", "×7", "+6"]);
        assert_eq!(operator_pieces("97"), ["97"]);
    }

    #[test]
    fn lines_fit_and_keep_every_character() {
        let tokens: Vec<Run> = vec![
            ("97".into(), true),
            ("=13".into(), false),
            ("×7".into(), false),
            ("+6".into(), false),
        ];
        // Wide enough: one line, the bold prime then the calculation.
        let one = runs(&tokens, 100.0, 7.0);
        assert_eq!(
            one,
            vec![vec![("97".into(), true), ("=13×7+6".into(), false)]]
        );
        // Narrow: every line fits, nothing is lost.
        let narrow = runs(&tokens, 20.0, 7.0);
        assert!(narrow.len() > 1);
        for line in &narrow {
            assert!(line_width(line, 7.0) <= 20.0, "{line:?}");
        }
        let all: String = narrow.iter().flatten().map(|(t, _)| t.as_str()).collect();
        assert_eq!(all, "97=13×7+6");
        // A number longer than a line breaks between digits.
        let long = runs(&[("123456789012345678".into(), true)], 30.0, 7.0);
        assert!(long.len() >= 3);
        assert!(long.iter().all(|l| line_width(l, 7.0) <= 30.0));
    }

    #[test]
    fn prose_breaks_at_spaces() {
        let lines = words("one two three four five six", false, 10.0, 60.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), "one two three four five six");
    }
}
