//! The crib sheet: every three-card hand of a rule set on printable pages,
//! the best prime with its calculation and the quickest call in a
//! triangular grid, with the rules and a legend, no text under 7 pt. Laid
//! out once as marks on pages; `svg` and `pdf::render` draw the same marks.

use crate::analysis::{Analysis, HandResult};
use crate::hand::Hand;
use crate::rules::DEFAULT_MAX_PRIME;
use crate::rules::Faces;

use super::wrap::{self, Line, Run};

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
/// The smallest text on the sheet, legible at arm's length; everything in
/// a cell is this size.
pub const MIN_TEXT: f32 = 7.0;
/// Baseline to baseline within a cell.
const LINE: f32 = 8.2;
/// Space above and below a cell's lines.
const PAD: f32 = 2.4;
/// Rows stretch by at most this much to fill a page.
const MAX_STRETCH: f32 = 1.3;
/// The rules, the legend and the list of primes.
const PROSE: f32 = 7.5;
const PROSE_LINE: f32 = 9.0;
const TITLE: f32 = 13.0;
const TITLE_LINE: f32 = 15.0;
/// What the rule set's name means, under it.
const SUBTITLE: f32 = 9.0;

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

/// How to read a cell, under the title on every page. Its Joker example
/// holds number cards only, so that it reads the same under every faces.
const LEGEND: [&str; 2] = [
    "How to read it: the row is your two lower cards, the column the highest card. In each cell, in bold: the best (highest) prime, with how to make it;",
    "below it: the quickest call, the prime with the simplest calculation (left out where it is the best prime). A Joker is the higher of the other two: 9 7 JK is read as 9 9 7.",
];

/// The rules in words, for the page.
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

/// Lays out the crib for a three-card analysis on `paper`: every text at
/// [`MIN_TEXT`] or more, as many pages as that takes, rows balanced over
/// them, and each page's grid only as wide as its hands need.
///
/// ```
/// use prime_solve::analysis::analyze;
/// use prime_solve::report::{crib, pdf};
/// use prime_solve::{Budget, Rules};
///
/// let a = analyze(Rules::default(), 3, &Budget::unlimited(), &|_| {})?;
/// let sheet = crib::layout(&a, crib::Paper::A4, "prime-solve crib");
/// assert_eq!(sheet.pages.len(), 2);
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
    let failing: Vec<String> = a.failing().map(|h| h.hand.to_string()).collect();
    let head = page_head(a, &failing, width);
    let head_bottom = head.iter().map(mark_bottom).fold(MARGIN, f32::max);
    let foot_lines = primes_line(a, width).len();
    let foot_h = foot_lines as f32 * PROSE_LINE + 10.0;
    let grid_top = head_bottom + 6.0 + COL_HEAD;
    let avail = height - MARGIN - foot_h - 4.0 - grid_top;
    let grid = Grid::new(a, &pairs, width);
    let pages_rows = grid.paginate(avail);
    let page_count = pages_rows.len();
    let mut pages = Vec::new();
    for (p, rows) in pages_rows.iter().enumerate() {
        let mut m = head.clone();
        let lo = grid.lowest(rows);
        let frame = Frame {
            width,
            faces,
            max,
            lo,
            cell_w: grid.cell_w(lo),
            grid_top,
        };
        column_heads(&mut m, &frame);
        let natural: f32 = rows.iter().map(|&r| grid.height(r, lo)).sum();
        let stretch = (avail / natural).clamp(1.0, MAX_STRETCH);
        let mut ry = grid_top;
        let mut edges = vec![ry];
        for &r in rows {
            let h = grid.height(r, lo) * stretch;
            row(&mut m, &frame, a, pairs[r], ry, h);
            ry += h;
            edges.push(ry);
        }
        grid_lines(&mut m, &frame, &edges);
        page_foot(&mut m, a, width, height, paper, command, (p, page_count));
        pages.push(m);
    }
    Crib {
        width,
        height,
        pages,
        title,
    }
}

/// The lowest point a mark reaches (text: its baseline plus descent).
fn mark_bottom(m: &Mark) -> f32 {
    match m {
        Mark::Text { y, size, .. } => y + 0.25 * size,
        Mark::Rect { y, h, .. } => y + h,
        Mark::Line { y1, y2, .. } => y1.max(*y2),
    }
}

/// The height of the column heads.
const COL_HEAD: f32 = 22.0;
/// The width of the column of row labels.
const LABEL_W: f32 = 34.0;
/// The left edge of everything on a page.
const LEFT: f32 = MARGIN;

/// The rows of the grid, what each needs at each width, and how they are
/// shared between pages.
struct Grid<'a> {
    pairs: &'a [(u8, u8)],
    max: u8,
    width: f32,
    /// `lines[r][lo - 1]`: the lines row `r` needs when its page's grid
    /// starts at column `lo`.
    lines: Vec<Vec<usize>>,
}

impl<'a> Grid<'a> {
    fn new(a: &'a Analysis, pairs: &'a [(u8, u8)], width: f32) -> Grid<'a> {
        let max = a.rules.faces.max_value();
        let mut g = Grid {
            pairs,
            max,
            width,
            lines: Vec::new(),
        };
        g.lines = pairs
            .iter()
            .map(|&(x, y)| {
                (1..=max)
                    .map(|lo| {
                        let w = g.cell_w(lo);
                        (y..=max)
                            .filter_map(|c| a.get(Hand::from_values(&[x, y, c])))
                            .map(|h| cell_lines(h, w - 2.0 * CELL_INSET).len())
                            .max()
                            .unwrap_or(1)
                    })
                    .collect()
            })
            .collect();
        g
    }

    /// A cell's width when the page's grid starts at column `lo`.
    fn cell_w(&self, lo: u8) -> f32 {
        (self.width - 2.0 * MARGIN - LABEL_W) / f32::from(self.max - lo + 1)
    }

    /// The first column a page of `rows` needs: the lowest middle card.
    fn lowest(&self, rows: &[usize]) -> u8 {
        rows.iter().map(|&r| self.pairs[r].1).min().unwrap_or(1)
    }

    /// Row `r`'s natural height on a page whose grid starts at `lo`.
    fn height(&self, r: usize, lo: u8) -> f32 {
        self.lines[r][usize::from(lo - 1)] as f32 * LINE + 2.0 * PAD
    }

    /// Rows in order onto pages of at most `cap` points each.
    fn fill(&self, cap: f32) -> Vec<Vec<usize>> {
        let mut pages: Vec<Vec<usize>> = vec![Vec::new()];
        for r in 0..self.pairs.len() {
            let page = pages.last_mut().expect("never empty");
            page.push(r);
            let lo = self.lowest(page);
            let total: f32 = page.iter().map(|&i| self.height(i, lo)).sum();
            if total > cap && page.len() > 1 {
                page.pop();
                pages.push(vec![r]);
            }
        }
        pages
    }

    /// As few pages as rows of `avail` points allow, filled evenly: the
    /// smallest cap that still gives that many pages.
    fn paginate(&self, avail: f32) -> Vec<Vec<usize>> {
        let count = self.fill(avail).len();
        let (mut lo, mut hi) = (0.0f32, avail);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if self.fill(mid).len() <= count {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        self.fill(hi)
    }
}

/// The space between a cell's edge and its text.
const CELL_INSET: f32 = 1.5;

/// What a cell says, line by line, in cells `width` wide: the best prime
/// in bold and its calculation, then the quickest call unless it is the
/// same prime; or `none`.
fn cell_lines(h: &HandResult, width: f32) -> Vec<Line> {
    let call = |w: &crate::analysis::Witnessed, bold: bool| -> Vec<Line> {
        let calc = tight(&w.witness.render(crate::style::Style::UNICODE));
        let prime: Run = (w.prime.to_string(), bold);
        let mut tokens: Vec<Run> = Vec::new();
        for (i, piece) in wrap::operator_pieces(&calc).into_iter().enumerate() {
            let piece = if i == 0 { format!("={piece}") } else { piece };
            tokens.push((piece, false));
        }
        // One line if it fits; else the prime on a line of its own (between
        // its digits if it is longer than a line), and its calculation
        // under it, broken before operators only where it must be.
        let mut whole = tokens.clone();
        whole.insert(0, prime.clone());
        let one = wrap::runs(&whole, width, MIN_TEXT);
        if one.len() == 1 {
            return one;
        }
        let mut lines = wrap::runs(&[prime], width, MIN_TEXT);
        lines.extend(wrap::runs(&tokens, width, MIN_TEXT));
        lines
    };
    match (&h.highest, &h.simplest) {
        (Some(best), Some(quick)) => {
            let mut lines = call(best, true);
            if quick.prime != best.prime {
                lines.extend(call(quick, false));
            }
            lines
        }
        _ => vec![vec![("none".into(), true)]],
    }
}

/// Where the grid of a page goes.
struct Frame {
    width: f32,
    faces: Faces,
    /// The highest card value, the last column.
    max: u8,
    /// The first column on this page.
    lo: u8,
    cell_w: f32,
    grid_top: f32,
}

impl Frame {
    /// The left edge of column `c`'s cells.
    fn column_x(&self, c: u8) -> f32 {
        LEFT + LABEL_W + self.cell_w * f32::from(c - self.lo)
    }
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

/// The title (the rule set's name, then what it means), the rules, the
/// legend, and which hands fail, each wrapped to the page.
fn page_head(a: &Analysis, failing: &[String], width: f32) -> Vec<Mark> {
    let mut m = Vec::new();
    let name = format!("Prime Time crib: {}", a.rules.name());
    let description = &a.rules.describe();
    let measure = width - 2.0 * MARGIN;
    let mut y = MARGIN + 10.0;
    for line in wrap::words(&name, true, TITLE, measure) {
        text(&mut m, LEFT, y, TITLE, true, Anchor::Start, line);
        y += TITLE_LINE;
    }
    y -= 2.0;
    for line in wrap::words(description, false, SUBTITLE, measure) {
        text(&mut m, LEFT, y, SUBTITLE, false, Anchor::Start, line);
        y += SUBTITLE + 2.0;
    }
    y += 3.0;
    let prose = |m: &mut Vec<Mark>, y: &mut f32, s: &str, bold: bool| {
        for line in wrap::words(s, bold, PROSE, measure) {
            text(m, LEFT, *y, PROSE, bold, Anchor::Start, line);
            *y += PROSE_LINE;
        }
    };
    for line in rules_text(a) {
        prose(&mut m, &mut y, &line, false);
    }
    y += 3.0;
    prose(&mut m, &mut y, &LEGEND.join(" "), false);
    let fails = if failing.is_empty() {
        "Every hand makes a prime under these rules.".to_string()
    } else {
        format!(
            "Shaded dark, \"none\": the hand makes no prime ({}); every card is buried.",
            failing.join(", ")
        )
    };
    prose(&mut m, &mut y, &fails, true);
    m
}

/// The column heads: the highest card.
fn column_heads(m: &mut Vec<Mark>, f: &Frame) {
    text(
        m,
        LEFT + LABEL_W / 2.0,
        f.grid_top - 12.0,
        MIN_TEXT,
        false,
        Anchor::Middle,
        "cards".into(),
    );
    for c in f.lo..=f.max {
        let cx = f.column_x(c) + f.cell_w / 2.0;
        let (main, also) = label(c, f.faces);
        text(m, cx, f.grid_top - 11.0, 8.5, true, Anchor::Middle, main);
        if !also.is_empty() {
            text(
                m,
                cx,
                f.grid_top - 3.0,
                MIN_TEXT,
                false,
                Anchor::Middle,
                also.into(),
            );
        }
    }
}

/// A row of a page, `h` high at `ry`: the two lower cards `x` and `yv`,
/// and a cell for each third card.
fn row(m: &mut Vec<Mark>, f: &Frame, a: &Analysis, (x, yv): (u8, u8), ry: f32, h: f32) {
    if x.is_multiple_of(2) {
        m.push(Mark::Rect {
            x: LEFT,
            y: ry,
            w: f.width - 2.0 * MARGIN,
            h,
            grey: 0.93,
        });
    }
    let row_label = format!("{} {}", label(x, f.faces).0, label(yv, f.faces).0);
    text(
        m,
        LEFT + LABEL_W / 2.0,
        ry + h / 2.0 + 3.0,
        8.5,
        true,
        Anchor::Middle,
        row_label,
    );
    for c in yv..=f.max {
        let cx = f.column_x(c);
        if let Some(hand) = a.get(Hand::from_values(&[x, yv, c])) {
            cell(m, f, hand, cx, ry, h);
        }
    }
}

/// One hand's cell at (`cx`, `ry`), `h` high: its lines centred, or
/// shaded "none".
fn cell(m: &mut Vec<Mark>, f: &Frame, hand: &HandResult, cx: f32, ry: f32, h: f32) {
    let mid = cx + f.cell_w / 2.0;
    let lines = cell_lines(hand, f.cell_w - 2.0 * CELL_INSET);
    if hand.highest.is_none() {
        m.push(Mark::Rect {
            x: cx + 0.5,
            y: ry + 0.5,
            w: f.cell_w - 1.0,
            h: h - 1.0,
            grey: 0.55,
        });
    }
    // The block of lines centred in the row; a baseline sits about 0.72 em
    // under the top of its line's capitals.
    let block = lines.len() as f32 * LINE;
    let mut baseline = ry + (h - block) / 2.0 + (LINE + 0.72 * MIN_TEXT) / 2.0;
    for line in lines {
        let mut x = mid - wrap::line_width(&line, MIN_TEXT) / 2.0;
        for (s, bold) in line {
            let w = text_width(&s, bold) * MIN_TEXT;
            text(m, x, baseline, MIN_TEXT, bold, Anchor::Start, s);
            x += w;
        }
        baseline += LINE;
    }
}

/// The grid lines of a page: at each row edge in `edges`, between columns.
fn grid_lines(m: &mut Vec<Mark>, f: &Frame, edges: &[f32]) {
    let top = edges.first().copied().unwrap_or(f.grid_top);
    let bottom = edges.last().copied().unwrap_or(f.grid_top);
    for &ly in edges {
        m.push(Mark::Line {
            x1: LEFT,
            y1: ly,
            x2: f.width - MARGIN,
            y2: ly,
            width: 0.3,
            grey: 0.6,
        });
    }
    for c in f.lo..=f.max + 1 {
        let lx = f.column_x(c);
        m.push(Mark::Line {
            x1: lx,
            y1: top,
            x2: lx,
            y2: bottom,
            width: 0.3,
            grey: 0.6,
        });
    }
}

/// The primes a player should know by heart, up to the ceiling and never
/// past the rules' own 97, wrapped to the page.
fn primes_line(a: &Analysis, width: f32) -> Vec<String> {
    let upto = a
        .rules
        .max_prime
        .map_or(DEFAULT_MAX_PRIME, |m| m.min(DEFAULT_MAX_PRIME));
    let primes: Vec<String> = (2..=upto)
        .filter(|&n| (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0))
        .map(|n| n.to_string())
        .collect();
    wrap::words(
        &format!("Primes to {upto}: {}. 1 is not a prime.", primes.join(" ")),
        false,
        PROSE,
        width - 2.0 * MARGIN,
    )
}

/// The primes to know by heart, how the crib was made, and the page
/// number `(p, page_count)`.
fn page_foot(
    m: &mut Vec<Mark>,
    a: &Analysis,
    width: f32,
    height: f32,
    paper: Paper,
    command: &str,
    (p, page_count): (usize, usize),
) {
    let lines = primes_line(a, width);
    let mut fy = height - MARGIN - 10.0 - (lines.len() as f32 - 1.0) * PROSE_LINE;
    for line in lines {
        text(m, LEFT, fy, PROSE, false, Anchor::Start, line);
        fy += PROSE_LINE;
    }
    let page = format!("page {} of {page_count}", p + 1);
    let made = format!(
        "Made by `{command}` ({}, {}).",
        paper.name(),
        crate::text::plural(page_count, "page", "pages")
    );
    text(m, LEFT, fy + 0.5, MIN_TEXT, false, Anchor::Start, made);
    text(
        m,
        width - MARGIN,
        fy + 0.5,
        MIN_TEXT,
        false,
        Anchor::End,
        page,
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
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}pt\" height=\"{total}pt\" viewBox=\"0 0 {w} {total}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<title>{}</title>\n",
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

    /// Every text is at least [`MIN_TEXT`] and inside the page; every line
    /// of a cell fits its cell; every hand's best prime is drawn with its
    /// calculation.
    fn check(rules: Rules, paper: Paper, pages: usize) {
        let a = analyze(rules, 3, &crate::engine::Budget::unlimited(), &|_| {}).unwrap();
        let c = layout(&a, paper, "test");
        assert_eq!(c.pages.len(), pages);
        for page in &c.pages {
            for m in page {
                if let Mark::Text {
                    x,
                    size,
                    bold,
                    anchor,
                    text,
                    ..
                } = m
                {
                    assert!(*size >= MIN_TEXT, "{text} at {size}");
                    let w = text_width(text, *bold) * size;
                    let left = match anchor {
                        Anchor::Start => *x,
                        Anchor::Middle => x - w / 2.0,
                        Anchor::End => x - w,
                    };
                    assert!(
                        left >= MARGIN - 0.01 && left + w <= c.width - MARGIN + 0.01,
                        "{text} runs off the page"
                    );
                }
            }
        }
        // Cells at the narrowest a page makes them (every column): each
        // line fits, and the best prime comes with its calculation.
        let narrowest = (c.width - 2.0 * MARGIN - LABEL_W) / f32::from(rules.faces.max_value());
        for h in &a.hands {
            let lines = cell_lines(h, narrowest - 2.0 * CELL_INSET);
            for line in &lines {
                assert!(wrap::line_width(line, MIN_TEXT) <= narrowest - 2.0 * CELL_INSET);
            }
            let all: String = lines.iter().flatten().map(|(t, _)| t.as_str()).collect();
            if let Some(best) = &h.highest {
                let calc = tight(&best.witness.render(crate::style::Style::UNICODE));
                assert!(all.starts_with(&format!("{}={calc}", best.prime)), "{all}");
            } else {
                assert_eq!(all, "none");
            }
        }
    }

    #[test]
    fn every_text_is_legible_and_on_its_page() {
        check(Rules::default(), Paper::A4, 2);
        let rank = Rules {
            faces: Faces::Rank,
            ..Rules::default()
        };
        check(rank, Paper::A4, 4);
        check(Rules::default(), Paper::Letter, 2);
        let long = Rules {
            faces: Faces::Suit,
            max_prime: None,
            ..Rules::default()
        };
        check(long, Paper::A4, 2);
    }

    /// Pages share the rows evenly, and no page draws a column none of its
    /// hands uses.
    #[test]
    fn pages_are_balanced_and_their_columns_used() {
        let rank = Rules {
            faces: Faces::Rank,
            ..Rules::default()
        };
        let a = analyze(rank, 3, &crate::engine::Budget::unlimited(), &|_| {}).unwrap();
        let pairs: Vec<(u8, u8)> = (1..=13u8)
            .flat_map(|x| (x..=13).map(move |y| (x, y)))
            .collect();
        let grid = Grid::new(&a, &pairs, 595.0);
        let pages = grid.paginate(600.0);
        let heights: Vec<f32> = pages
            .iter()
            .map(|rows| {
                let lo = grid.lowest(rows);
                rows.iter().map(|&r| grid.height(r, lo)).sum()
            })
            .collect();
        let most = heights.iter().copied().fold(0.0, f32::max);
        let least = heights.iter().copied().fold(f32::MAX, f32::min);
        assert!(most <= 600.0);
        assert!(least >= 0.8 * most, "{heights:?}");
        assert_eq!(pages.concat(), (0..pairs.len()).collect::<Vec<_>>());
        for rows in &pages {
            // The first column is some row's middle card, so it holds a hand.
            let lo = grid.lowest(rows);
            assert!(rows.iter().any(|&r| pairs[r].1 == lo));
        }
    }
}
