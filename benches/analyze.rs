//! Benchmarks of the sweeps: every dealt hand under every rule set, and the
//! six-card sweep. Run with `cargo bench --bench analyze`.

use prime_solve::Style;
use prime_solve::analysis::{
    Pruned, all_rule_sets, analyze, analyze_all, analyze_screened, screen,
};
use prime_solve::report;
use prime_solve::{Faces, Functions, Rules};

fn main() {
    divan::main();
}

/// `analyze --all-rules`: 72 rule sets × 220-455 hands, reports rendered
/// (not written: disk speed is not ours to measure).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn all_rule_sets_three_cards() -> usize {
    let analyses = analyze_all(
        &all_rule_sets(),
        3,
        &prime_solve::Budget::unlimited(),
        &|_| {},
    )
    .unwrap();
    report::render(&analyses, &[], Style::default(), report::Detail::Full, &[]).len()
}

/// `analyze --cards 6 --faces rank`: 18,486 dealt hands under base rules.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn six_cards_rank_faces() -> usize {
    let rules = Rules {
        faces: Faces::Rank,
        ..Rules::default()
    };
    analyze(rules, 6, &prime_solve::Budget::unlimited(), &|_| {})
        .unwrap()
        .hands
        .len()
}

/// `analyze --cards 4 --all-rules`: 72 rule sets of four-card hands, the
/// searches shared between faces and ceilings (12 searches).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn all_rule_sets_four_cards() -> usize {
    analyze_all(
        &all_rule_sets(),
        4,
        &prime_solve::Budget::unlimited(),
        &|_| {},
    )
    .unwrap()
    .len()
}

/// `analyze --cards 4 --all-rules --summaries-only`: the same sweep, telling
/// only whether the bound may hide a prime instead of counting what it cut
/// off (`Pruned::Flagged`).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn all_rule_sets_four_cards_summaries() -> usize {
    let cards = 4;
    let screen = |r: &Rules| screen(r, cards);
    analyze_screened(
        &all_rule_sets(),
        cards,
        &screen,
        Pruned::Flagged,
        &prime_solve::Budget::unlimited(),
        &|_| {},
    )
    .unwrap()
    .len()
}

/// `analyze --cards 5 --functions tri`: 2,002 five-card hands, by the
/// restricted search (the four-card sub-hands searched only for what one
/// more card can turn into a prime).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn five_cards_triangles() -> usize {
    let rules = Rules {
        functions: Functions::TRI,
        ..Rules::default()
    };
    analyze(rules, 5, &prime_solve::Budget::unlimited(), &|_| {})
        .unwrap()
        .hands
        .len()
}

/// `analyze --cards 5 --functions tri,fact,sqrt` (437 s before the
/// restricted search).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn five_cards_every_function() -> usize {
    let rules = Rules {
        functions: Functions::ALL,
        ..Rules::default()
    };
    analyze(rules, 5, &prime_solve::Budget::unlimited(), &|_| {})
        .unwrap()
        .hands
        .len()
}

/// `analyze --cards 6 --functions tri`: 4,965 six-card hands (refused for
/// memory before the restricted search).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn six_cards_triangles() -> usize {
    let rules = Rules {
        functions: Functions::TRI,
        ..Rules::default()
    };
    analyze(rules, 6, &prime_solve::Budget::unlimited(), &|_| {})
        .unwrap()
        .hands
        .len()
}

/// `analyze --cards 6 --faces rank --functions tri,fact,sqrt`: 18,486
/// six-card hands under T ! √, about 17 minutes of CPU (refused for memory,
/// 17 GiB projected, before the four-card tables were cut to what a card or
/// a pair can use; 2.8 GB at peak since).
#[divan::bench(sample_count = 1, sample_size = 1)]
fn six_cards_every_function_rank_faces() -> usize {
    let rules = Rules {
        faces: Faces::Rank,
        functions: Functions::ALL,
        ..Rules::default()
    };
    analyze(rules, 6, &prime_solve::Budget::unlimited(), &|_| {})
        .unwrap()
        .hands
        .len()
}
