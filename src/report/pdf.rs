//! The crib's pages as PDF through `pdf-writer`: real text in DejaVu Sans,
//! embedded as a subset of the glyphs drawn (a CID font with a ToUnicode
//! map, so copy, search and `pdftotext` read it), its streams compressed,
//! with no dates or IDs, so the same crib gives the same bytes.

use std::collections::{BTreeMap, BTreeSet};

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use subsetter::GlyphRemapper;

use super::crib::{Anchor, Crib, Mark};
use super::font::Weight;
use crate::hash::fnv1a64;

/// One weight's subset: the glyphs drawn, renumbered from 1 (0 is
/// `.notdef`), and the characters they stand for.
struct Subset {
    weight: Weight,
    remapper: GlyphRemapper,
    /// New glyph id → the character it draws, for the ToUnicode map.
    chars: BTreeMap<u16, char>,
}

impl Subset {
    /// The subset of `weight` that draws every character in `used`.
    fn new(weight: Weight, used: &BTreeSet<char>) -> Subset {
        let mut remapper = GlyphRemapper::new();
        let mut chars = BTreeMap::new();
        for &c in used {
            let new = remapper.remap(weight.glyph(c));
            chars.entry(new).or_insert(c);
        }
        Subset {
            weight,
            remapper,
            chars,
        }
    }

    /// `text` as two-byte glyph ids (Identity-H).
    fn encode(&self, text: &str) -> Vec<u8> {
        text.chars()
            .flat_map(|c| {
                let glyph = self.weight.glyph(c);
                self.remapper.get(glyph).unwrap_or(0).to_be_bytes()
            })
            .collect()
    }

    /// The subset's PostScript name: a tag of six capitals drawn from the
    /// glyphs it holds (the PDF convention for a subset), then the font's.
    fn base_font(&self) -> String {
        // FNV-1a over the glyph ids: the same subset, the same tag.
        let gids: Vec<u8> = self
            .remapper
            .remapped_gids()
            .flat_map(u16::to_be_bytes)
            .collect();
        let hash = fnv1a64(&gids);
        let tag: String = (0..6)
            .map(|i| char::from(b'A' + ((hash >> (5 * i)) % 26) as u8))
            .collect();
        format!("{tag}+{}", self.weight.name())
    }

    /// Writes the Type 0 font at `ids[0]` and its parts at the next four.
    fn write(&self, pdf: &mut Pdf, ids: [Ref; 5]) {
        let [type0, cid, descriptor, file, cmap] = ids;
        let name = self.base_font();
        let weight = self.weight;
        let face = weight.face();
        let system = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        pdf.type0_font(type0)
            .base_font(Name(name.as_bytes()))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap);
        let widths: Vec<f32> = self
            .remapper
            .remapped_gids()
            .map(|g| weight.advance(g).round())
            .collect();
        let mut font = pdf.cid_font(cid);
        font.subtype(CidFontType::Type2)
            .base_font(Name(name.as_bytes()))
            .system_info(system)
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        font.widths().consecutive(0, widths);
        font.finish();
        let bbox = face.global_bounding_box();
        pdf.font_descriptor(descriptor)
            .name(Name(name.as_bytes()))
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(
                weight.scale(bbox.x_min),
                weight.scale(bbox.y_min),
                weight.scale(bbox.x_max),
                weight.scale(bbox.y_max),
            ))
            .italic_angle(0.0)
            .ascent(weight.scale(face.ascender()))
            .descent(weight.scale(face.descender()))
            .cap_height(weight.scale(face.capital_height().unwrap_or(face.ascender())))
            .stem_v(match weight {
                Weight::Regular => 80.0,
                Weight::Bold => 150.0,
            })
            .font_file2(file);
        let program =
            subsetter::subset(weight.data(), 0, &self.remapper).expect("the shipped font subsets");
        pdf.stream(file, &program)
            .pair(Name(b"Length1"), program.len() as i32);
        let mut unicode = UnicodeCmap::new(Name(b"Custom"), system);
        for (&glyph, &c) in &self.chars {
            unicode.pair(glyph, c);
        }
        pdf.cmap(cmap, &unicode.finish());
    }
}

/// The whole document.
///
/// # Panics
///
/// Only if the font shipped in the crate could not be subset.
pub fn render(c: &Crib) -> Vec<u8> {
    let mut used: BTreeMap<Weight, BTreeSet<char>> = BTreeMap::new();
    for mark in c.pages.iter().flatten() {
        if let Mark::Text { bold, text, .. } = mark {
            used.entry(Weight::of(*bold))
                .or_default()
                .extend(text.chars());
        }
    }
    let subsets: Vec<Subset> = [Weight::Regular, Weight::Bold]
        .into_iter()
        .map(|w| Subset::new(w, used.get(&w).unwrap_or(&BTreeSet::new())))
        .collect();

    let mut pdf = Pdf::new();
    pdf.set_binary_marker(b"crib");
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let info = Ref::new(3);
    // Five objects per font: the Type 0 font, its CID font, descriptor,
    // program and ToUnicode map.
    let font_ids = |i: usize| -> [Ref; 5] {
        let first = 4 + 5 * i as i32;
        [0, 1, 2, 3, 4].map(|k| Ref::new(first + k))
    };
    let first_page = 4 + 5 * subsets.len() as i32;
    let page_ids: Vec<Ref> = (0..c.pages.len())
        .map(|i| Ref::new(first_page + 2 * i as i32))
        .collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_ids.iter().copied())
        .count(page_ids.len() as i32);
    for (i, subset) in subsets.iter().enumerate() {
        subset.write(&mut pdf, font_ids(i));
    }
    pdf.document_info(info)
        .title(TextStr(&c.title))
        .producer(TextStr("prime-solve crib"));
    for (page, &id) in c.pages.iter().zip(&page_ids) {
        let contents = Ref::new(id.get() + 1);
        let mut p = pdf.page(id);
        p.media_box(Rect::new(0.0, 0.0, c.width, c.height));
        p.parent(tree);
        p.contents(contents);
        p.resources()
            .fonts()
            .pair(Name(b"F1"), font_ids(0)[0])
            .pair(Name(b"F2"), font_ids(1)[0]);
        p.finish();
        let stream = deflate(&draw(page, c.height, &subsets));
        pdf.stream(contents, &stream).filter(Filter::FlateDecode);
    }
    pdf.finish()
}

/// `data` compressed for a `FlateDecode` stream (zlib; the same bytes
/// every time).
fn deflate(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 9)
}

/// One page's content stream; `height` flips y (PDF counts from the bottom).
fn draw(marks: &[Mark], height: f32, subsets: &[Subset]) -> Vec<u8> {
    let mut content = Content::new();
    for mark in marks {
        match mark {
            Mark::Rect { x, y, w, h, grey } => {
                content.set_fill_gray(*grey);
                content.rect(*x, height - y - h, *w, *h);
                content.fill_nonzero();
            }
            Mark::Line {
                x1,
                y1,
                x2,
                y2,
                width,
                grey,
            } => {
                content.set_stroke_gray(*grey);
                content.set_line_width(*width);
                content.move_to(*x1, height - y1);
                content.line_to(*x2, height - y2);
                content.stroke();
            }
            Mark::Text {
                x,
                y,
                size,
                bold,
                anchor,
                text,
            } => {
                let weight = Weight::of(*bold);
                let w = weight.width(text) * size;
                let left = match anchor {
                    Anchor::Start => *x,
                    Anchor::Middle => x - w / 2.0,
                    Anchor::End => x - w,
                };
                let subset = &subsets[usize::from(*bold)];
                content.set_fill_gray(0.0);
                content.begin_text();
                content.set_font(Name(if *bold { b"F2" } else { b"F1" }), *size);
                content.next_line(left, height - y);
                content.show(Str(&subset.encode(text)));
                content.end_text();
            }
        }
    }
    content.finish().into_vec()
}
