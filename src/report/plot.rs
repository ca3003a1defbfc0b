//! SVG charts drawn with plotters: the distribution of primes per deal (a
//! bar per count, the failing deals at 0 picked out), and a histogram of
//! game length with the turn cap marked. The heatmap of highest primes is
//! in `grid.rs`.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use crate::analysis::Analysis;

pub const PRIME_COUNTS: &str = "prime-counts.svg";

/// The bars' blue, and the red that marks failing deals and unfinished games.
const BAR: RGBColor = RGBColor(46, 109, 164);
const ALERT: RGBColor = RGBColor(192, 57, 43);

/// A bar per number of primes, from 0 to the most any hand makes: how many
/// deals make that many. The bar at 0, the deals that fail, is red and
/// annotated, even when it is empty.
pub fn prime_counts(a: &Analysis) -> String {
    let most = a.hands.iter().map(|h| h.primes.len()).max().unwrap_or(0);
    let mut deals = vec![0u64; most + 1];
    for h in &a.hands {
        deals[h.primes.len()] += h.deals;
    }
    let note = if deals[0] == 0 {
        format!(
            "No deal fails: all {} deals make a prime (the bar at 0 is empty).",
            a.total_deals
        )
    } else {
        format!(
            "Red, at 0: {} of {} deals make no prime, probability {}.",
            deals[0],
            a.total_deals,
            a.failing_probability().probability()
        )
    };
    count_chart(&Counts {
        title: format!("Primes per deal, rule set {}", a.folder()),
        note,
        x_desc: "primes the hand can make".into(),
        y_desc: format!("deals (of {})", a.total_deals),
        counts: deals,
    })
}

/// A bar chart over the categories 0, 1, 2, ...: a bar per category, with
/// gaps between bars and the tick in the middle of each.
struct Counts {
    title: String,
    /// A line under the title about the bar at 0.
    note: String,
    x_desc: String,
    y_desc: String,
    /// The height of the bar at each category, from 0.
    counts: Vec<u64>,
}

fn count_chart(c: &Counts) -> String {
    let last = c.counts.len().saturating_sub(1) as u32;
    let top = c.counts.iter().copied().max().unwrap_or(1).max(1);
    let (width, plot_width) = (720u32, 620u32);
    // A gap of about a fifth of a bar, at least a pixel while bars are wide
    // enough to show one.
    let slot = plot_width / (last + 1);
    let gap = (slot / 10).max(u32::from(slot >= 3));
    svg((width, 440), |root| {
        let area = root.titled(&c.title, ("sans-serif", 20))?;
        let area = area.titled(&c.note, ("sans-serif", 16).into_font().color(&ALERT))?;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .build_cartesian_2d((0u32..last).into_segmented(), 0u64..top + top / 8 + 1)?;
        let label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(v) | SegmentValue::Exact(v) => v.to_string(),
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(((last + 1) as usize).min(24))
            .x_label_formatter(&label)
            .x_desc(&c.x_desc)
            .y_desc(&c.y_desc)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        chart.draw_series(c.counts.iter().enumerate().map(|(x, &h)| {
            let x = x as u32;
            let colour = if x == 0 { ALERT } else { BAR };
            let mut bar = Rectangle::new(
                [(SegmentValue::Exact(x), h), (SegmentValue::Exact(x + 1), 0)],
                colour.filled(),
            );
            bar.set_margin(0, 0, gap, gap);
            bar
        }))?;
        // The number of failing deals over the bar at 0, so that an empty or
        // tiny bar still reads.
        // Centred on a bar wide enough to hold it; on a narrow one, read
        // from the bar rightward, clear of the y axis.
        let anchor = if slot >= 24 { HPos::Center } else { HPos::Left };
        let above = ("sans-serif", 15)
            .into_font()
            .color(&ALERT)
            .pos(Pos::new(anchor, VPos::Bottom));
        chart.plotting_area().draw(&Text::new(
            c.counts.first().copied().unwrap_or(0).to_string(),
            (SegmentValue::CenterOf(0), c.counts[0] + top / 40 + 1),
            above,
        ))?;
        Ok(())
    })
}

/// A histogram of game lengths: `lengths` of the finished games, and the
/// games stopped at `cap` turns.
pub struct Lengths {
    pub title: String,
    pub lengths: Vec<u32>,
    pub unfinished: u64,
    pub cap: u32,
}

/// Bins of a round width over the range the games cover (not from 0); when
/// games were stopped, the axis runs to the cap, which is marked, and the
/// stopped games are a red bar just past it.
pub fn length_chart(l: &Lengths) -> String {
    let shortest = l.lengths.iter().copied().min().unwrap_or(l.cap);
    let longest = l.lengths.iter().copied().max().unwrap_or(l.cap);
    // One past the last length a bar must hold (finished games may end on
    // the cap itself).
    let end = if l.unfinished > 0 {
        longest.max(l.cap) + 1
    } else {
        longest + 1
    };
    let bin = round_width(end.saturating_sub(shortest).div_ceil(40).max(1));
    let start = shortest / bin * bin;
    let bins = (end - start).div_ceil(bin);
    let mut counts = vec![0u64; bins as usize];
    for &t in &l.lengths {
        counts[((t - start) / bin) as usize] += 1;
    }
    let right = start + bins * bin + if l.unfinished > 0 { 2 * bin } else { 0 };
    let top = counts
        .iter()
        .copied()
        .chain([l.unfinished])
        .max()
        .unwrap_or(1)
        .max(1);
    let finished = l.lengths.len();
    let note = if finished == 0 && l.unfinished == 0 {
        "No games were played".to_string()
    } else if l.unfinished > 0 {
        format!(
            "{finished} games finished; {} stopped at the turn cap of {} turns (red)",
            l.unfinished, l.cap
        )
    } else {
        format!(
            "All {finished} games finished, the longest in {longest} turns (the turn cap of {} was never reached)",
            l.cap
        )
    };
    svg((720, 440), |root| {
        let area = root.titled(&l.title, ("sans-serif", 20))?;
        let area = area.titled(&note, ("sans-serif", 16))?;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(start..right, 0u64..top + top / 8 + 1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(format!("turns per game (bins of {bin})"))
            .y_desc("games")
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        chart.draw_series(counts.iter().enumerate().map(|(i, &n)| {
            let x = start + i as u32 * bin;
            let mut bar = Rectangle::new([(x, n), (x + bin, 0)], BAR.filled());
            bar.set_margin(0, 0, 0, 1);
            bar
        }))?;
        if l.unfinished > 0 {
            let x = start + (bins + 1) * bin;
            let mut bar = Rectangle::new([(x, l.unfinished), (x + bin, 0)], ALERT.filled());
            bar.set_margin(0, 0, 0, 1);
            chart.plotting_area().draw(&bar)?;
            let above = ("sans-serif", 15)
                .into_font()
                .color(&ALERT)
                .pos(Pos::new(HPos::Right, VPos::Bottom));
            chart.plotting_area().draw(&Text::new(
                format!("{} unfinished", l.unfinished),
                (x + bin, l.unfinished + top / 40 + 1),
                above,
            ))?;
            let cap = l.cap;
            chart.plotting_area().draw(&PathElement::new(
                vec![(cap, 0), (cap, top + top / 8)],
                ALERT.stroke_width(2),
            ))?;
            let style = ("sans-serif", 15)
                .into_font()
                .color(&ALERT)
                .pos(Pos::new(HPos::Right, VPos::Top));
            chart.plotting_area().draw(&Text::new(
                format!("turn cap {} ", l.cap),
                (cap, top + top / 8),
                style,
            ))?;
        }
        Ok(())
    })
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... at least `w`.
fn round_width(w: u32) -> u32 {
    let mut unit = 1u32;
    loop {
        for step in [1, 2, 5] {
            if step * unit >= w {
                return step * unit;
            }
        }
        unit *= 10;
    }
}

pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
pub(crate) type Drawn<'a> = Result<(), Box<dyn std::error::Error + 'a>>;
pub(crate) use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Runs `draw` on a white canvas of `size` and returns the SVG text;
/// drawing into memory does not fail.
pub(crate) fn svg(size: (u32, u32), draw: impl for<'a> FnOnce(&Area<'a>) -> Drawn<'a>) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The labels under the x axis: centred text.
    fn x_labels(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .filter(|t| t.contains("text-anchor=\"middle\"") && t.contains("dy=\"0.76em\""))
            .filter_map(|t| t.split('>').nth(1)?.split('<').next())
            .map(str::trim)
            .collect()
    }

    fn lengths(lengths: Vec<u32>, unfinished: u64) -> String {
        length_chart(&Lengths {
            title: "t".into(),
            lengths,
            unfinished,
            cap: 5000,
        })
    }

    #[test]
    fn the_turn_cap_is_marked_only_when_games_reach_it() {
        let stopped = lengths(vec![120, 900, 4999, 5000], 82);
        assert!(stopped.contains("turn cap 5000"));
        assert!(stopped.contains("82 unfinished"));
        assert!(stopped.contains("4 games finished; 82 stopped at the turn cap of 5000 turns"));
        let short = lengths(vec![16, 19, 135], 0);
        assert!(!short.contains("turn cap 5000 "));
        assert!(
            short.contains("the longest in 135 turns (the turn cap of 5000 was never reached)")
        );
        // The axis fits the games: it starts near the shortest, not at 0.
        assert!(short.contains("bins of 5"));
        assert!(x_labels(&stopped).contains(&"0") && !x_labels(&short).contains(&"0"));
        assert!(lengths(Vec::new(), 0).contains("No games were played"));
    }

    #[test]
    fn widths_are_round() {
        assert_eq!(
            [1, 2, 3, 6, 11, 125, 130].map(round_width),
            [1, 2, 5, 10, 20, 200, 200]
        );
    }
}
