//! How an expression is printed: ASCII or Unicode operators, and how many
//! brackets.

/// How an expression is printed. Neither field changes which witness is
/// the simplest: its cost counts the brackets of the minimal form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// `* / ^` and `sqrt(x)` instead of `× ÷ ^` and `√x`.
    pub ascii: bool,
    pub brackets: Brackets,
}

impl Style {
    /// `× ÷ ^` and `√x`, the brackets precedence needs.
    pub const UNICODE: Style = Style {
        ascii: false,
        brackets: Brackets::Minimal,
    };
    /// `* / ^` and `sqrt(x)`, the brackets precedence needs.
    pub const ASCII: Style = Style {
        ascii: true,
        brackets: Brackets::Minimal,
    };
}

/// How many brackets a printed expression carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Brackets {
    /// Only those precedence needs, and a few more for clarity: `10 + 8 ÷ 8`,
    /// `(6 × 4) ÷ 8` (docs/rules.md §5.2).
    #[default]
    Minimal,
    /// Every compound operand of a binary operator: `10 + (8 ÷ 8)`, for
    /// players who have not met precedence.
    Full,
}
