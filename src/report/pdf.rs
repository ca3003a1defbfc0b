//! The crib's pages as PDF through `pdf-writer`: real text in the standard
//! Helvetica fonts (nothing embedded, so copy and search work and the
//! bytes are the same on every machine), no dates or IDs.

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::crib::{Anchor, Crib, Mark, text_width};

/// Text in the fonts' WinAnsi encoding: × ÷ as themselves, − as a hyphen
/// (so that searching for `6+4-8` finds it), √ as `sqrt`.
fn win_ansi(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ' '..='~' => out.push(c as u8),
            '−' | '–' => out.push(b'-'),
            '×' => out.push(0xD7),
            '÷' => out.push(0xF7),
            '·' => out.push(0xB7),
            '√' => out.extend(b"sqrt"),
            _ => out.push(b'?'),
        }
    }
    out
}

/// The whole document. Every byte is ASCII (strings beyond it are written
/// in hex), so it can be handled as text.
pub fn render(c: &Crib) -> String {
    let mut pdf = Pdf::new();
    pdf.set_binary_marker(b"crib");
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let regular = Ref::new(3);
    let bold = Ref::new(4);
    let info = Ref::new(5);
    let first_page = 6;
    let page_ids: Vec<Ref> = (0..c.pages.len())
        .map(|i| Ref::new(first_page + 2 * i as i32))
        .collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_ids.iter().copied())
        .count(page_ids.len() as i32);
    pdf.type1_font(regular)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    pdf.type1_font(bold)
        .base_font(Name(b"Helvetica-Bold"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
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
            .pair(Name(b"F1"), regular)
            .pair(Name(b"F2"), bold);
        p.finish();
        let stream = draw(page, c.height);
        pdf.stream(contents, &stream);
    }
    let bytes = pdf.finish();
    // The binary marker and hex strings keep it ASCII.
    bytes.into_iter().map(char::from).collect()
}

/// One page's content stream; `height` flips y (PDF counts from the bottom).
fn draw(marks: &[Mark], height: f32) -> Vec<u8> {
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
                let w = text_width(text, *bold) * size;
                let left = match anchor {
                    Anchor::Start => *x,
                    Anchor::Middle => x - w / 2.0,
                    Anchor::End => x - w,
                };
                content.set_fill_gray(0.0);
                content.begin_text();
                content.set_font(Name(if *bold { b"F2" } else { b"F1" }), *size);
                content.next_line(left, height - y);
                content.show(Str(&win_ansi(text)));
                content.end_text();
            }
        }
    }
    content.finish().into_vec()
}
