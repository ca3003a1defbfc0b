//! SVG plots for the report folders, drawn with plotters: the distribution
//! of primes per deal, and the highest prime of each hand as a heatmap.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::analysis::Analysis;

pub const PRIME_COUNTS: &str = "prime-counts.svg";
pub const GRID: &str = "grid.svg";

/// A bar per number of primes: how many of the deals make that many.
pub fn prime_counts(a: &Analysis) -> String {
    let bars = a
        .prime_count_distribution()
        .keys()
        .map(|&count| {
            let deals = a
                .hands
                .iter()
                .filter(|h| h.primes.len() == count)
                .map(|h| h.deals)
                .sum();
            (count as u32, count as u32 + 1, deals)
        })
        .collect();
    bar_chart(&Bars {
        title: format!("Primes per deal, rule set {}", a.folder()),
        x_desc: "primes the hand can make".into(),
        y_desc: format!("deals of {}", a.total_deals),
        bars,
    })
}

/// A bar chart over whole numbers.
pub struct Bars {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    /// Each bar from x to x' with its height.
    pub bars: Vec<(u32, u32, u64)>,
}

/// Draws `b` as SVG, bars one by one in order (plotters' Histogram gathers
/// its data in a HashMap, whose order changes from run to run).
pub fn bar_chart(b: &Bars) -> String {
    let right = b.bars.iter().map(|&(_, x, _)| x).max().unwrap_or(1);
    let top = b.bars.iter().map(|&(.., h)| h).max().unwrap_or(1).max(1);
    svg((720, 420), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(&b.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0u32..right, 0u64..top + top / 10 + 1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(&b.x_desc)
            .y_desc(&b.y_desc)
            .draw()?;
        let fill = RGBColor(46, 109, 164).filled();
        chart.draw_series(
            b.bars
                .iter()
                .map(|&(x0, x1, h)| Rectangle::new([(x0, h), (x1, 0)], fill)),
        )?;
        Ok(())
    })
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Drawn<'a> = Result<(), Box<dyn std::error::Error + 'a>>;

/// Runs `draw` on a white canvas of `size` and returns the SVG text;
/// drawing into memory does not fail.
fn svg(size: (u32, u32), draw: impl for<'a> FnOnce(&Area<'a>) -> Drawn<'a>) -> String {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE)
            .expect("drawing into a string cannot fail");
        draw(&root).expect("drawing into a string cannot fail");
        root.present().expect("drawing into a string cannot fail");
    }
    text.push('\n');
    text
}

/// Rows: the two lower cards; columns: the third card; each cell coloured
/// by the hand's highest prime (by rank among the highest primes), grey
/// where the hand fails.
pub fn grid(a: &Analysis) -> String {
    let max_value = a.rules.faces.max_value();
    let pairs: Vec<(u8, u8)> = (1..=max_value)
        .flat_map(|x| (x..=max_value).map(move |y| (x, y)))
        .collect();
    let mut highest: Vec<i128> = a
        .hands
        .iter()
        .filter_map(|h| h.highest.as_ref().map(|c| c.prime))
        .collect();
    highest.sort_unstable();
    highest.dedup();
    let (cell_w, cell_h, left, top) = (44i32, 16i32, 64i32, 56i32);
    let width = left + cell_w * i32::from(max_value) + 16;
    let height = top + cell_h * pairs.len() as i32 + 16;
    svg((width as u32, height as u32), |root| {
        let centre = Pos::new(HPos::Center, VPos::Center);
        let title = ("sans-serif", 16).into_font().color(&BLACK);
        root.draw(&Text::new(
            format!("Highest prime per hand, rule set {}", a.folder()),
            (8, 8),
            title,
        ))?;
        let label = ("sans-serif", 11).into_font().color(&BLACK).pos(centre);
        for c in 1..=max_value {
            let x = left + cell_w * (i32::from(c) - 1) + cell_w / 2;
            root.draw(&Text::new(c.to_string(), (x, top - 10), label.clone()))?;
        }
        for (row, &(x, y)) in pairs.iter().enumerate() {
            let ry = top + cell_h * row as i32;
            root.draw(&Text::new(
                format!("{x} {y}"),
                (left / 2, ry + cell_h / 2),
                label.clone(),
            ))?;
            for c in y..=max_value {
                let cx = left + cell_w * (i32::from(c) - 1);
                let Some(h) = a.get(crate::hand::Hand::from_values(&[x, y, c])) else {
                    continue;
                };
                let (fill, text) = match &h.highest {
                    Some(call) => {
                        let rank = highest.binary_search(&call.prime).unwrap_or(0);
                        (shade(rank, highest.len()), short(call.prime))
                    }
                    None => (RGBColor(190, 190, 190), "none".to_string()),
                };
                root.draw(&Rectangle::new(
                    [(cx, ry), (cx + cell_w - 1, ry + cell_h - 1)],
                    fill.filled(),
                ))?;
                root.draw(&Text::new(
                    text,
                    (cx + cell_w / 2, ry + cell_h / 2),
                    label.clone(),
                ))?;
            }
        }
        Ok(())
    })
}

/// A colour from pale yellow (rank 0) to orange-red (the top rank),
/// interpolated in integers.
fn shade(rank: usize, ranks: usize) -> RGBColor {
    let span = ranks.saturating_sub(1).max(1) as i64;
    let t = rank as i64;
    let mix = |from: i64, to: i64| (from + (to - from) * t / span) as u8;
    RGBColor(mix(255, 230), mix(247, 85), mix(188, 13))
}

/// A prime short enough for a cell.
fn short(p: i128) -> String {
    if p < 100_000 {
        p.to_string()
    } else {
        format!("{}d", p.to_string().len())
    }
}
