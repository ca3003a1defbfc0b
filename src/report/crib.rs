//! The crib sheet: every three-card hand of a rule set on a printable page
//! (or two), the best prime and the quickest call in a triangular grid,
//! with the rules and a legend. Laid out once as marks on pages; `svg` and
//! `pdf::render` draw the same marks.

use crate::analysis::{Analysis, HandResult};
use crate::hand::Hand;
use crate::rules::DEFAULT_MAX_PRIME;
use crate::rules::Faces;

/// Paper sizes in points (1/72 inch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.0, 842.0),
            Paper::Letter => (612.0, 792.0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "US Letter",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// One thing drawn, in points from the page's top left corner.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// `y` is the baseline.
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        anchor: Anchor,
        text: String,
    },
    /// Filled with a grey level (0 black, 1 white).
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        grey: f32,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        grey: f32,
    },
}

/// The sheet: pages of marks.
#[derive(Clone, Debug, PartialEq)]
pub struct Crib {
    pub width: f32,
    pub height: f32,
    pub pages: Vec<Vec<Mark>>,
    pub title: String,
}

const MARGIN: f32 = 28.0;
/// The smallest row that holds the two lines of a cell legibly.
const MIN_ROW: f32 = 11.5;
const MAX_ROW: f32 = 16.0;
/// Sizes of the cell's two lines: the best prime, the quickest call.
const BEST_SIZE: f32 = 6.2;
const CALL_SIZE: f32 = 4.9;
/// The smallest the quickest call is shrunk to, to fit its cell.
const MIN_CALL_SIZE: f32 = 4.2;

/// How a value is labelled: the card(s) that count it.
fn label(v: u8, faces: Faces) -> (String, &'static str) {
    let main = match (v, faces) {
        (1, _) => "A".to_string(),
        (11, Faces::Rank) => "J".into(),
        (12, Faces::Rank) => "Q".into(),
        (13, Faces::Rank) => "K".into(),
        _ => v.to_string(),
    };
    let also = match (v, faces) {
        (5, Faces::Five) => "J Q K",
        (1, Faces::Suit) => "JQK S",
        (2, Faces::Suit) => "JQK H",
        (3, Faces::Suit) => "JQK C",
        (4, Faces::Suit) => "JQK D",
        _ => "",
    };
    (main, also)
}

/// A witness written tightly for a small cell: `6+4−8`.
fn tight(witness: &str) -> String {
    witness.replace(' ', "")
}

/// Width of `text` at size 1 in the crib's font (DejaVu Sans), from its
/// advance widths: what the PDF draws.
pub fn text_width(text: &str, bold: bool) -> f32 {
    super::font::Weight::of(bold).width(text)
}

/// The rules in words, for the page.
/// How to read a cell, under the title on every page. Its Joker example
/// holds number cards only, so that it reads the same under every faces.
const LEGEND: [&str; 2] = [
    "How to read it: the row is your two lower cards, the column the highest card. In each cell, on top in bold: the best (highest) prime;",
    "below it: the quickest call, the prime with the simplest calculation. A Joker is the higher of the other two: 9 7 JK is read as 9 9 7.",
];

fn rules_text(a: &Analysis) -> Vec<String> {
    let r = &a.rules;
    let faces = match r.faces {
        Faces::Five => "Face cards (J, Q, K) count 5.",
        Faces::Rank => "J counts 11, Q 12, K 13.",
        Faces::Suit => "Face cards count their suit: spades 1, hearts 2, clubs 3, diamonds 4.",
    };
    let mut lines = vec![
        "Everyone turns a card; call a prime made from all three cards with + - × ÷ (every card used once). Division must be exact.".to_string(),
        format!("Ace counts 1, 2-10 their value. {faces} A Joker counts the same as the higher of the other two cards."),
    ];
    let mut extra = Vec::new();
    if r.powers {
        extra.push("powers x^y and exact roots");
    }
    if r.juxtapose {
        extra.push("cards side by side (7, 8 make 78 or 87)");
    }
    if r.functions.tri {
        extra.push("T(n) = n(n+1)/2");
    }
    if r.functions.fact {
        extra.push("n!");
    }
    if r.functions.sqrt {
        extra.push("exact square roots");
    }
    let ceiling = match r.max_prime {
        Some(p) => format!("Primes up to {p} count."),
        None => "Any prime counts.".into(),
    };
    lines.push(if extra.is_empty() {
        format!("House rules: none beyond the above. {ceiling} First valid call wins the cards; a higher prime called at once beats it.")
    } else {
        format!("House rules: {}. {ceiling} First valid call wins the cards; a higher prime called at once beats it.", extra.join(", "))
    });
    lines
}

/// Lays out the crib for a three-card analysis on `paper`.
///
/// ```
/// use prime_solve::analysis::analyze;
/// use prime_solve::report::{crib, pdf};
/// use prime_solve::{Budget, Rules};
///
/// let a = analyze(Rules::default(), 3, &Budget::unlimited(), &|_| {})?;
/// let sheet = crib::layout(&a, crib::Paper::A4, "prime-solve crib");
/// assert_eq!(sheet.pages.len(), 1);
/// assert!(pdf::render(&sheet).starts_with(b"%PDF-"));
/// assert!(crib::svg(&sheet).contains("<svg"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn layout(a: &Analysis, paper: Paper, command: &str) -> Crib {
    let (width, height) = paper.size();
    let faces = a.rules.faces;
    let max = faces.max_value();
    let pairs: Vec<(u8, u8)> = (1..=max)
        .flat_map(|x| (x..=max).map(move |y| (x, y)))
        .collect();
    let title = format!(
        "Prime Time crib: {} ({})",
        a.rules.name(),
        a.rules.describe()
    );
    let avail = height - 2.0 * MARGIN - HEADER - FOOTER - COL_HEAD;
    let per_page = ((avail / MIN_ROW).floor() as usize).max(1);
    let page_count = pairs.len().div_ceil(per_page);
    let rows_each = pairs.len().div_ceil(page_count);
    let frame = Frame {
        width,
        height,
        faces,
        max,
        row_h: (avail / rows_each as f32).min(MAX_ROW),
        cell_w: (width - 2.0 * MARGIN - LABEL_W) / f32::from(max),
        grid_top: MARGIN + HEADER + COL_HEAD,
    };
    let failing: Vec<String> = a.failing().map(|h| h.hand.to_string()).collect();
    let mut pages = Vec::new();
    for (p, chunk) in pairs.chunks(rows_each).enumerate() {
        let mut m = Vec::new();
        page_head(&mut m, a, &title, &failing, page_count);
        column_heads(&mut m, &frame);
        for (i, &(x, y)) in chunk.iter().enumerate() {
            row(&mut m, &frame, a, i, x, y);
        }
        grid_lines(&mut m, &frame, chunk.len());
        page_foot(&mut m, &frame, a, paper, command, (p, page_count));
        pages.push(m);
    }
    Crib {
        width,
        height,
        pages,
        title,
    }
}

/// The height of a page's title, rules and legend.
const HEADER: f32 = 84.0;
/// The height of a page's list of primes and its credits.
const FOOTER: f32 = 30.0;
/// The height of the column heads.
const COL_HEAD: f32 = 20.0;
/// The width of the column of row labels.
const LABEL_W: f32 = 34.0;
/// The left edge of everything on a page.
const LEFT: f32 = MARGIN;

/// Where the grid of a page goes.
struct Frame {
    width: f32,
    height: f32,
    faces: Faces,
    /// The highest card value, the number of columns.
    max: u8,
    row_h: f32,
    cell_w: f32,
    grid_top: f32,
}

/// A line of text at (`x`, `y`).
fn text(m: &mut Vec<Mark>, x: f32, y: f32, size: f32, bold: bool, anchor: Anchor, s: String) {
    m.push(Mark::Text {
        x,
        y,
        size,
        bold,
        anchor,
        text: s,
    });
}

/// The title, the rules, the legend, and which hands fail.
fn page_head(m: &mut Vec<Mark>, a: &Analysis, title: &str, failing: &[String], page_count: usize) {
    let mut y = MARGIN + 12.0;
    text(m, LEFT, y, 13.0, true, Anchor::Start, title.to_string());
    y += 13.0;
    for line in rules_text(a) {
        text(m, LEFT, y, 6.8, false, Anchor::Start, line);
        y += 8.6;
    }
    y += 3.0;
    for line in LEGEND {
        text(m, LEFT, y, 6.8, false, Anchor::Start, line.to_string());
        y += 8.6;
    }
    let fails = if failing.is_empty() {
        "Every hand makes a prime under these rules.".to_string()
    } else {
        format!(
            "Shaded dark, \"none\": the hand makes no prime ({}); every card is buried.",
            failing.join(", ")
        )
    };
    let split = if page_count > 1 {
        format!(
            " The {} hands are split over {page_count} pages, to keep every call legible.",
            a.hands.len()
        )
    } else {
        String::new()
    };
    text(m, LEFT, y, 6.8, true, Anchor::Start, fails + &split);
}

/// The column heads: the highest card.
fn column_heads(m: &mut Vec<Mark>, f: &Frame) {
    text(
        m,
        LEFT + LABEL_W / 2.0,
        f.grid_top - 11.0,
        6.0,
        false,
        Anchor::Middle,
        "cards".into(),
    );
    for c in 1..=f.max {
        let cx = LEFT + LABEL_W + f.cell_w * (f32::from(c) - 0.5);
        let (main, also) = label(c, f.faces);
        text(m, cx, f.grid_top - 9.0, 8.0, true, Anchor::Middle, main);
        if !also.is_empty() {
            text(
                m,
                cx,
                f.grid_top - 2.5,
                5.0,
                false,
                Anchor::Middle,
                also.into(),
            );
        }
    }
}

/// Row `i` of a page: the two lower cards `x` and `yv`, and a cell for
/// each third card.
fn row(m: &mut Vec<Mark>, f: &Frame, a: &Analysis, i: usize, x: u8, yv: u8) {
    let ry = f.grid_top + f.row_h * i as f32;
    if x.is_multiple_of(2) {
        m.push(Mark::Rect {
            x: LEFT,
            y: ry,
            w: f.width - 2.0 * MARGIN,
            h: f.row_h,
            grey: 0.93,
        });
    }
    let row_label = format!("{} {}", label(x, f.faces).0, label(yv, f.faces).0);
    text(
        m,
        LEFT + LABEL_W / 2.0,
        ry + f.row_h / 2.0 + 2.8,
        7.5,
        true,
        Anchor::Middle,
        row_label,
    );
    for c in yv..=f.max {
        let cx = LEFT + LABEL_W + f.cell_w * f32::from(c - 1);
        if let Some(h) = a.get(Hand::from_values(&[x, yv, c])) {
            cell(m, f, h, cx, ry);
        }
    }
}

/// One hand's cell at (`cx`, `ry`): its best prime over its quickest
/// call, or shaded "none".
fn cell(m: &mut Vec<Mark>, f: &Frame, h: &HandResult, cx: f32, ry: f32) {
    let mid = cx + f.cell_w / 2.0;
    match (&h.highest, &h.simplest) {
        (Some(best), Some(quick)) => {
            let top = ry + (f.row_h - MIN_ROW) / 2.0 + 5.5;
            // High primes can be long: shrink them to the cell.
            let best = best.prime.to_string();
            let fit = (f.cell_w - 3.0) / text_width(&best, true);
            text(m, mid, top, BEST_SIZE.min(fit), true, Anchor::Middle, best);
            let call = format!(
                "{}={}",
                quick.prime,
                tight(&quick.witness.render(crate::style::Style::UNICODE))
            );
            let fit = (f.cell_w - 3.0) / text_width(&call, false);
            let size = CALL_SIZE.min(fit).max(MIN_CALL_SIZE);
            text(m, mid, top + 5.0, size, false, Anchor::Middle, call);
        }
        _ => {
            m.push(Mark::Rect {
                x: cx + 0.5,
                y: ry + 0.5,
                w: f.cell_w - 1.0,
                h: f.row_h - 1.0,
                grey: 0.55,
            });
            text(
                m,
                mid,
                ry + f.row_h / 2.0 + 2.2,
                6.5,
                true,
                Anchor::Middle,
                "none".into(),
            );
        }
    }
}

/// The grid lines of `rows` rows: under each row, between columns.
fn grid_lines(m: &mut Vec<Mark>, f: &Frame, rows: usize) {
    let bottom = f.grid_top + f.row_h * rows as f32;
    for i in 0..=rows {
        let ly = f.grid_top + f.row_h * i as f32;
        m.push(Mark::Line {
            x1: LEFT,
            y1: ly,
            x2: f.width - MARGIN,
            y2: ly,
            width: 0.3,
            grey: 0.6,
        });
    }
    for c in 0..=f.max {
        let lx = LEFT + LABEL_W + f.cell_w * f32::from(c);
        m.push(Mark::Line {
            x1: lx,
            y1: f.grid_top,
            x2: lx,
            y2: bottom,
            width: 0.3,
            grey: 0.6,
        });
    }
}

/// The primes to know by heart, how the crib was made, and the page
/// number `(p, page_count)`.
fn page_foot(
    m: &mut Vec<Mark>,
    f: &Frame,
    a: &Analysis,
    paper: Paper,
    command: &str,
    (p, page_count): (usize, usize),
) {
    // The primes a player should know by heart: up to the ceiling, and
    // never past the rules' own 97.
    let upto = a
        .rules
        .max_prime
        .map_or(DEFAULT_MAX_PRIME, |m| m.min(DEFAULT_MAX_PRIME));
    let primes: Vec<String> = (2..=upto)
        .filter(|&n| (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0))
        .map(|n| n.to_string())
        .collect();
    let fy = f.height - MARGIN - 14.0;
    text(
        m,
        LEFT,
        fy,
        6.8,
        false,
        Anchor::Start,
        format!("Primes to {upto}: {}. 1 is not a prime.", primes.join(" ")),
    );
    text(
        m,
        LEFT,
        fy + 9.0,
        5.5,
        false,
        Anchor::Start,
        format!(
            "Made by `{command}` ({} page{}).",
            paper.name(),
            if page_count > 1 { "s" } else { "" }
        ),
    );
    text(
        m,
        f.width - MARGIN,
        fy + 9.0,
        6.5,
        false,
        Anchor::End,
        format!("page {} of {page_count}", p + 1),
    );
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The crib as SVG: its pages one under the other, a gap between them.
pub fn svg(c: &Crib) -> String {
    let gap = 24.0;
    let total = c.height * c.pages.len() as f32 + gap * (c.pages.len() as f32 - 1.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}pt\" height=\"{total}pt\" viewBox=\"0 0 {w} {total}\" font-family=\"Helvetica, Arial, sans-serif\">\n<title>{}</title>\n",
        escape(&c.title),
        w = c.width,
    );
    for (i, page) in c.pages.iter().enumerate() {
        let dy = (c.height + gap) * i as f32;
        out.push_str(&format!(
            "<g transform=\"translate(0 {dy})\">\n<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"white\" stroke=\"#bbb\" stroke-width=\"0.5\"/>\n",
            c.width, c.height
        ));
        for mark in page {
            out.push_str(&match mark {
                Mark::Text {
                    x,
                    y,
                    size,
                    bold,
                    anchor,
                    text,
                } => format!(
                    "<text x=\"{x:.2}\" y=\"{y:.2}\" font-size=\"{size:.2}\"{}{}>{}</text>\n",
                    if *bold { " font-weight=\"bold\"" } else { "" },
                    match anchor {
                        Anchor::Start => "",
                        Anchor::Middle => " text-anchor=\"middle\"",
                        Anchor::End => " text-anchor=\"end\"",
                    },
                    escape(text)
                ),
                Mark::Rect { x, y, w, h, grey } => format!(
                    "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{}\"/>\n",
                    grey_hex(*grey)
                ),
                Mark::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    width,
                    grey,
                } => format!(
                    "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"{}\" stroke-width=\"{width}\"/>\n",
                    grey_hex(*grey)
                ),
            });
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

fn grey_hex(grey: f32) -> String {
    let v = (grey.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{v:02x}{v:02x}{v:02x}")
}

#[cfg(test)]
mod tests {

    /// The legend's Joker example is how the engine reads the hand, under
    /// every faces (it once named a queen, which counts 5 under `five`).
    #[test]
    fn the_legend_reads_a_joker_as_the_engine_does() {
        let sentence = super::LEGEND[1]
            .split("A Joker is the higher of the other two: ")
            .nth(1)
            .expect("the Joker sentence");
        let (hand, read) = sentence
            .trim_end_matches('.')
            .split_once(" is read as ")
            .expect("an example");
        let cards =
            |s: &str| -> Vec<Card> { s.split(' ').map(|t| Card::parse(t).unwrap()).collect() };
        for faces in Faces::ALL {
            assert_eq!(
                Hand::from_cards(&cards(hand), faces).unwrap(),
                Hand::from_cards(&cards(read), faces).unwrap(),
                "{hand} under {faces:?}"
            );
        }
    }

    use super::*;
    use crate::analysis::analyze;
    use crate::card::Card;
    use crate::rules::Rules;

    /// Every text in the grid fits its cell, and rows never go below the
    /// legible minimum.
    fn check(rules: Rules, paper: Paper, pages: usize) {
        let a = analyze(rules, 3, &crate::engine::Budget::unlimited(), &|_| {}).unwrap();
        let c = layout(&a, paper, "test");
        assert_eq!(c.pages.len(), pages);
        let max = f32::from(rules.faces.max_value());
        let cell_w = (c.width - 2.0 * MARGIN - 34.0) / max;
        let mut cells = 0;
        for page in &c.pages {
            for m in page {
                if let Mark::Text {
                    size,
                    bold,
                    anchor: Anchor::Middle,
                    text,
                    y,
                    ..
                } = m
                    && *y > MARGIN + 84.0 + 20.0
                {
                    cells += 1;
                    assert!(*size >= MIN_CALL_SIZE, "{text} at {size}");
                    assert!(
                        text_width(text, *bold) * size <= cell_w - 2.0,
                        "{text} does not fit"
                    );
                }
            }
        }
        // Two lines per hand (one for a failing hand), and a label per row.
        let rows = a
            .hands
            .iter()
            .map(|h| h.hand.values()[..2].to_vec())
            .collect::<std::collections::BTreeSet<_>>();
        let failing = a.failing().count();
        assert_eq!(cells, 2 * a.hands.len() - failing + rows.len());
    }

    #[test]
    fn five_fits_one_page_and_rank_two() {
        check(Rules::default(), Paper::A4, 1);
        let rank = Rules {
            faces: Faces::Rank,
            ..Rules::default()
        };
        check(rank, Paper::A4, 2);
        check(Rules::default(), Paper::Letter, 2);
    }
}
