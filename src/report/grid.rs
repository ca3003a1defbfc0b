//! `grid.svg`: the highest prime of every three-card hand as a heatmap,
//! rows the two lower cards and columns the third, coloured by fixed bands
//! of the prime's size and explained by a legend.

use plotters::prelude::*;

use crate::analysis::Analysis;
use crate::arith::Value;
use crate::hand::Hand;
use crate::report::plot::{Area, Drawn, HPos, Pos, VPos, svg};
use crate::rules::Faces;

pub const GRID: &str = "grid.svg";

/// The colour bands of the highest prime, the same for every rule set so
/// that grids compare: (largest prime in the band, legend label).
const BANDS: [(Value, &str); 8] = [
    (7, "2 to 7"),
    (31, "11 to 31"),
    (61, "37 to 61"),
    (97, "67 to 97"),
    (999, "101 to 997"),
    (999_999, "4 to 6 digits"),
    (999_999_999, "7 to 9 digits"),
    (Value::MAX, "10 to 20 digits"),
];

/// From ColorBrewer's YlOrRd, one colour a band, steps wide enough that
/// the four bands up to 97 stay apart.
const COLOURS: [RGBColor; 8] = [
    RGBColor(255, 255, 204),
    RGBColor(254, 217, 118),
    RGBColor(254, 178, 76),
    RGBColor(253, 141, 60),
    RGBColor(252, 78, 42),
    RGBColor(227, 26, 28),
    RGBColor(189, 0, 38),
    RGBColor(128, 0, 38),
];

/// Bands this dark carry white text.
const DARK: usize = 5;
const NONE: RGBColor = RGBColor(190, 190, 190);

fn band(p: Value) -> usize {
    BANDS.iter().position(|&(top, _)| p <= top).unwrap_or(0)
}

/// A prime short enough for a cell: up to five digits as it is, longer as
/// its number of digits, `8d`.
fn short(p: Value) -> String {
    if p < 100_000 {
        p.to_string()
    } else {
        format!("{}d", p.to_string().len())
    }
}

/// A value as the card a player sees: J Q K under `rank`, else the number.
fn card(faces: Faces, v: u8) -> String {
    match (faces, v) {
        (Faces::Rank, 11) => "J".into(),
        (Faces::Rank, 12) => "Q".into(),
        (Faces::Rank, 13) => "K".into(),
        _ => v.to_string(),
    }
}

/// The second line of a column's heading: the other cards that count `v`.
fn also(faces: Faces, v: u8) -> String {
    match (faces, v) {
        (_, 1) if faces != Faces::Suit => "A".into(),
        (Faces::Five, 5) => "J Q K".into(),
        (Faces::Rank, 11..=13) => v.to_string(),
        (Faces::Suit, 1) => "A, ♠ JQK".into(),
        (Faces::Suit, 2) => "♥ JQK".into(),
        (Faces::Suit, 3) => "♣ JQK".into(),
        (Faces::Suit, 4) => "♦ JQK".into(),
        _ => String::new(),
    }
}

/// How the face cards and Jokers appear in the grid, for the legend.
fn card_notes(faces: Faces) -> [&'static str; 4] {
    let faces = match faces {
        Faces::Five => "J, Q and K count 5 (column 5).",
        Faces::Rank => "J, Q and K count 11, 12 and 13.",
        Faces::Suit => "J, Q, K count their suit: ♠ 1 ♥ 2 ♣ 3 ♦ 4.",
    };
    [
        faces,
        "A Joker counts the highest other card:",
        "find 5 8 Joker as 5 8 8 (row 5 8,",
        "column 8).",
    ]
}

/// Where the grid's parts lie, in pixels.
struct Layout {
    faces: Faces,
    /// The highest value a card counts: the last column.
    max: u8,
    cell_w: i32,
    cell_h: i32,
    /// The grid's left and top edges.
    left: i32,
    top: i32,
    grid_right: i32,
    legend_x: i32,
}

fn font(size: i32) -> FontDesc<'static> {
    ("sans-serif", size).into_font()
}

fn centre() -> Pos {
    Pos::new(HPos::Center, VPos::Center)
}

fn left_mid() -> Pos {
    Pos::new(HPos::Left, VPos::Center)
}

fn axis_font() -> TextStyle<'static> {
    font(16).style(FontStyle::Bold).color(&BLACK)
}

pub fn grid(a: &Analysis) -> String {
    let faces = a.rules.faces;
    let max = faces.max_value();
    let pairs: Vec<(u8, u8)> = (1..=max)
        .flat_map(|x| (x..=max).map(move |y| (x, y)))
        .collect();
    let (cell_w, cell_h, left, top) = (48i32, 20i32, 76i32, 100i32);
    let grid_right = left + cell_w * i32::from(max);
    let legend_x = grid_right + 28;
    let layout = Layout {
        faces,
        max,
        cell_w,
        cell_h,
        left,
        top,
        grid_right,
        legend_x,
    };
    let width = legend_x + 300;
    let height = (top + cell_h * pairs.len() as i32 + 20).max(top + 520);
    svg((width as u32, height as u32), |root| {
        headings(root, a, &layout)?;
        cells(root, a, &layout, &pairs)?;
        legend(root, a, &layout)
    })
}

/// The title, the axes' names and each column's card.
fn headings<'a>(root: &Area<'a>, a: &Analysis, l: &Layout) -> Drawn<'a> {
    root.draw(&Text::new(
        format!("Highest prime of each hand, rule set {}", a.folder()),
        (12, 12),
        font(22).color(&BLACK),
    ))?;
    let label = font(15).color(&BLACK).pos(centre());
    let faint = font(13).color(&RGBColor(90, 90, 90)).pos(centre());
    root.draw(&Text::new(
        "third card",
        ((l.left + l.grid_right) / 2, 50),
        axis_font().pos(centre()),
    ))?;
    root.draw(&Text::new(
        "two lower cards",
        (8, 50),
        axis_font().pos(left_mid()),
    ))?;
    for c in 1..=l.max {
        let x = l.left + l.cell_w * (i32::from(c) - 1) + l.cell_w / 2;
        root.draw(&Text::new(card(l.faces, c), (x, 70), label.clone()))?;
        root.draw(&Text::new(also(l.faces, c), (x, 86), faint.clone()))?;
    }
    Ok(())
}

/// A row for each pair of lower cards `pairs`: its label, and a cell for
/// each third card, coloured by the hand's highest prime.
fn cells<'a>(root: &Area<'a>, a: &Analysis, l: &Layout, pairs: &[(u8, u8)]) -> Drawn<'a> {
    let label = font(15).color(&BLACK).pos(centre());
    let cell_text = |band: Option<usize>| {
        let colour = match band {
            Some(b) if b >= DARK => WHITE,
            _ => BLACK,
        };
        font(15).color(&colour).pos(centre())
    };
    for (row, &(x, y)) in pairs.iter().enumerate() {
        let ry = l.top + l.cell_h * row as i32;
        root.draw(&Text::new(
            format!("{} {}", card(l.faces, x), card(l.faces, y)),
            (l.left / 2, ry + l.cell_h / 2),
            label.clone(),
        ))?;
        for c in y..=l.max {
            let cx = l.left + l.cell_w * (i32::from(c) - 1);
            let Some(h) = a.get(Hand::from_values(&[x, y, c])) else {
                continue;
            };
            let (fill, text, b) = match &h.highest {
                Some(call) => {
                    let b = band(call.prime);
                    (COLOURS[b], short(call.prime), Some(b))
                }
                None => (NONE, "none".to_string(), None),
            };
            root.draw(&Rectangle::new(
                [(cx, ry), (cx + l.cell_w - 1, ry + l.cell_h - 1)],
                fill.filled(),
            ))?;
            root.draw(&Text::new(
                text,
                (cx + l.cell_w / 2, ry + l.cell_h / 2),
                cell_text(b),
            ))?;
        }
    }
    Ok(())
}

/// The legend: what the colour means, then how to read the cells.
fn legend<'a>(root: &Area<'a>, a: &Analysis, l: &Layout) -> Drawn<'a> {
    let highest: Vec<Option<Value>> = a
        .hands
        .iter()
        .map(|h| h.highest.as_ref().map(|c| c.prime))
        .collect();
    let top_band = highest
        .iter()
        .flatten()
        .map(|&p| band(p))
        .max()
        .unwrap_or(0);
    let shown_bands = top_band.max(3) + 1;
    let any_failing = highest.iter().any(Option::is_none);
    let any_digits = highest.iter().flatten().any(|&p| p >= 100_000);
    let legend_x = l.legend_x;
    let text = font(15).color(&BLACK).pos(left_mid());
    let mut y = l.top + 8;
    root.draw(&Text::new(
        "Colour: the hand's highest prime",
        (legend_x, y),
        axis_font().pos(left_mid()),
    ))?;
    y += 24;
    let mut entries: Vec<(RGBColor, String)> = BANDS[..shown_bands]
        .iter()
        .zip(COLOURS)
        .map(|(&(_, name), colour)| (colour, name.to_string()))
        .collect();
    if any_failing {
        entries.push((NONE, "none: the hand makes no prime".into()));
    }
    for (colour, name) in entries {
        root.draw(&Rectangle::new(
            [(legend_x, y - 9), (legend_x + 26, y + 9)],
            colour.filled(),
        ))?;
        root.draw(&Rectangle::new(
            [(legend_x, y - 9), (legend_x + 26, y + 9)],
            RGBColor(150, 150, 150),
        ))?;
        root.draw(&Text::new(name, (legend_x + 36, y), text.clone()))?;
        y += 24;
    }
    y += 12;
    let mut notes: Vec<&str> = Vec::new();
    if any_digits {
        notes.extend([
            "A cell like 8d: a prime of 8 digits,",
            "too long to print; hands.csv gives",
            "every prime in full.",
            "",
        ]);
    }
    let bound = format!("({}), where the search stops.", a.bound());
    if a.highest_set_by_bound() {
        notes.extend([
            "Any prime counts, but values stop at",
            "the value bound: each prime shown is",
            "the highest below the bound",
            &bound,
            "Some values cut off there could have",
            "led to a larger prime.",
            "",
        ]);
    }
    notes.extend(card_notes(l.faces));
    for line in notes {
        root.draw(&Text::new(line, (legend_x, y), text.clone()))?;
        y += 20;
    }
    Ok(())
}
