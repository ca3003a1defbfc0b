//! The crib's typeface, DejaVu Sans regular and bold, shipped in the crate
//! (`fonts/`, with its licence): advance widths for the layout and glyphs
//! for the PDF, so what is measured is what is drawn.

use std::sync::OnceLock;

use ttf_parser::Face;

/// The two weights the crib uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

impl Weight {
    pub(crate) fn of(bold: bool) -> Weight {
        if bold { Weight::Bold } else { Weight::Regular }
    }

    /// The font program, as shipped.
    pub(crate) fn data(self) -> &'static [u8] {
        match self {
            Weight::Regular => include_bytes!("fonts/DejaVuSans.ttf"),
            Weight::Bold => include_bytes!("fonts/DejaVuSans-Bold.ttf"),
        }
    }

    /// The PostScript name, for the PDF's `BaseFont`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Weight::Regular => "DejaVuSans",
            Weight::Bold => "DejaVuSans-Bold",
        }
    }

    /// The parsed font, parsed once.
    pub(crate) fn face(self) -> &'static Face<'static> {
        static REGULAR: OnceLock<Face<'static>> = OnceLock::new();
        static BOLD: OnceLock<Face<'static>> = OnceLock::new();
        let cell = match self {
            Weight::Regular => &REGULAR,
            Weight::Bold => &BOLD,
        };
        cell.get_or_init(|| Face::parse(self.data(), 0).expect("the shipped font parses"))
    }

    /// The glyph drawn for `c`: its own, or `?` where the font has none.
    pub(crate) fn glyph(self, c: char) -> u16 {
        let face = self.face();
        face.glyph_index(c)
            .or_else(|| face.glyph_index('?'))
            .map_or(0, |g| g.0)
    }

    /// A glyph's advance in thousandths of the font size (PDF's unit for
    /// widths).
    pub(crate) fn advance(self, glyph: u16) -> f32 {
        let face = self.face();
        let units = face
            .glyph_hor_advance(ttf_parser::GlyphId(glyph))
            .unwrap_or(0);
        f32::from(units) * 1000.0 / f32::from(face.units_per_em())
    }

    /// The width of `text` at size 1 (an em), from the font's own advances
    /// (no kerning is applied when drawing, so none is measured).
    pub(crate) fn width(self, text: &str) -> f32 {
        text.chars()
            .map(|c| self.advance(self.glyph(c)))
            .sum::<f32>()
            / 1000.0
    }

    /// A number from the font's header, in thousandths of the font size.
    pub(crate) fn scale(self, units: i16) -> f32 {
        f32::from(units) * 1000.0 / f32::from(self.face().units_per_em())
    }
}

#[cfg(test)]
mod tests {
    use super::Weight;

    #[test]
    fn widths_are_the_fonts_own() {
        // DejaVu Sans: digits 1303 units of 2048, the multiplication sign
        // 1716; bold is wider.
        let digit = Weight::Regular.width("0");
        assert!((digit - 1303.0 / 2048.0).abs() < 1e-4, "{digit}");
        assert!((Weight::Regular.width("×") - 1716.0 / 2048.0).abs() < 1e-4);
        assert!(Weight::Bold.width("97") > Weight::Regular.width("97"));
        assert_eq!(Weight::Regular.width(""), 0.0);
        // Every character the crib writes has a glyph of its own.
        for c in "0123456789+−×÷√^!()=AJQKS ".chars() {
            assert_ne!(Weight::Regular.glyph(c), Weight::Regular.glyph('?'), "{c}");
        }
    }
}
