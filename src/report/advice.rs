//! `reports/house-rules.md` and `advise --format json`: the house-rule
//! advisor's figures, and Parlett's recommendations set against them.

use std::fmt::Write as _;

use serde::Serialize;

use crate::advise::{Advice, Exact, Lineup, Plan, Remark, as_written};
use crate::game::{Summary, wilson};
use crate::hand::Hand;
use crate::ratio::Ratio;
use crate::report::json::{
    CallJson, RatioJson, RulesJson, SCHEMA, SimulationJson, call, ratio, rules, rules_in,
    simulation,
};
use crate::report::simulation::{models_used, players, win_share};
use crate::rules::Rules;
use crate::style::Style;
use crate::text::{number, plural};

/// `count` of the deals as a percentage.
fn share(count: u64, e: &Exact) -> String {
    Ratio::new(u128::from(count), u128::from(e.deals)).percent(1)
}

/// `a → b` for two figures.
fn pair(a: &str, b: &str) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a} → {b}")
    }
}

/// The median length of finished games with its interval.
/// The median length of all games (an unfinished one counted at the cap
/// `max_turns`) with its interval; a median at the cap is a bound.
fn median(s: &Summary, max_turns: u32) -> String {
    match (&s.all_turns, s.all_turns_median_interval) {
        (Some(t), _) if t.median >= max_turns => format!("at least {}", t.median),
        (Some(t), Some([lo, hi])) => format!("{} ({lo}-{hi})", t.median),
        _ => "-".to_string(),
    }
}

fn changed(l: &Lineup) -> Ratio {
    Ratio::new(u128::from(l.changed), u128::from(l.turns.max(1)))
}

fn lineup<'a>(a: &'a Advice, name: &str) -> Option<&'a Lineup> {
    a.lineups.iter().find(|l| l.name == name)
}

/// Where a win share's 95% interval lies against the third an equal
/// player wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Third {
    Below,
    Within,
    Above,
}

/// The ignorer's share with its interval, and where it lies against a
/// third.
fn ignorer(a: &Advice) -> Option<(String, Third)> {
    let l = a.lineups.iter().find(|l| l.unaware.is_some())?;
    let seat = l.unaware?;
    // No verdict from no finished game.
    if l.with_summary.finished == 0 {
        return None;
    }
    let [lo, hi] = wilson(l.with_summary.wins[seat], l.with_summary.finished);
    let third = if hi < 1.0 / 3.0 {
        Third::Below
    } else if lo > 1.0 / 3.0 {
        Third::Above
    } else {
        Third::Within
    };
    Some((win_share(&l.with_summary, seat), third))
}

/// `lighter`, `heavier` or `no lighter` for the quickest call's mean weight.
fn lighter(e: &Exact) -> &'static str {
    match e.mean_weight[1].cmp(&e.mean_weight[0]) {
        std::cmp::Ordering::Less => "lighter",
        std::cmp::Ordering::Equal => "no lighter",
        std::cmp::Ordering::Greater => "heavier",
    }
}

/// A sentence, from the numbers, on whether they bear out Parlett's remark.
pub fn verdict(a: &Advice) -> String {
    let e = &a.exact;
    let p = Phrases::of(a);
    let Phrases {
        equals,
        ignoring,
        primes,
        weights,
        ..
    } = &p;
    match a.rule.remark {
        Remark::HighPrimes => high_primes(a, &p),
        Remark::Juxtapose => juxtapose(e, &p),
        Remark::Faces => faces(e, &p),
        Remark::Powers => powers(a, &p),
        Remark::Functions => format!(
            "**Parlett leaves it open.** The numbers: mean primes per deal {primes}, the \
             quickest call changes on {} of deals and is {} ({weights}), deals with no prime \
             {} → {}. {equals}{ignoring}",
            share(e.quickest_changed, e),
            lighter(e),
            e.failing[0],
            e.failing[1]
        ),
        Remark::Combination => format!(
            "Mean primes per deal {primes}, deals with no prime {} → {}, the quickest call \
             changes on {} of deals. {equals}{ignoring}",
            e.failing[0],
            e.failing[1],
            share(e.quickest_changed, e)
        ),
    }
}

/// The phrases a verdict is made of, from the figures.
struct Phrases {
    /// How often the rule changes a combination between equal experts.
    equals: String,
    /// How a player who ignores the rule fares against two who use it.
    ignoring: String,
    /// The mean primes per deal, as written → with the rule.
    primes: String,
    /// The mean weight of the quickest call, as written → with the rule.
    weights: String,
    /// How often a prime above 97 is within reach.
    reach: String,
}

impl Phrases {
    fn of(a: &Advice) -> Phrases {
        let e = &a.exact;
        let equals = lineup(a, "three experts").map_or(String::new(), |l| {
            format!(
                "Between equal experts it changes the outcome of {} of combinations.",
                changed(l).percent(1)
            )
        });
        let ignoring = ignorer(a).map_or(String::new(), |(w, third)| {
            format!(
                " A player who ignores it wins {w} of games against two experts who use it, {}.",
                match third {
                    Third::Below => "below the third an equal player wins",
                    Third::Within => "a third within the interval",
                    Third::Above => "above a third",
                }
            )
        });
        let primes = format!(
            "{} → {}",
            e.mean_primes[0].decimal(2),
            e.mean_primes[1].decimal(2)
        );
        let weights = format!(
            "{} → {}",
            e.mean_weight[0].decimal(2),
            e.mean_weight[1].decimal(2)
        );
        // How much the rule can matter under the faces it was played with: a
        // prime above 97 is within reach only where the highest prime changes.
        let reach = format!(
            " Under the rules as written a prime above 97 is within reach (the highest prime \
             changes) on {} of deals{}.",
            share(e.highest_changed, e),
            if e.highest_changed * 20 < e.deals {
                ", under one in twenty: the rule is seldom in play at all"
            } else {
                ""
            }
        );
        Phrases {
            equals,
            ignoring,
            primes,
            weights,
            reach,
        }
    }
}

/// The verdict on high primes: whether a player who does not know them
/// loses for it.
fn high_primes(a: &Advice, p: &Phrases) -> String {
    let Phrases { equals, reach, .. } = p;
    match ignorer(a) {
        Some((w, Third::Below)) => format!(
            "**Supported.** A player who does not know three-figure primes wins {w} of \
             games against two who do, below the third an equal player wins: the rule \
             rewards knowing primes by heart, as Parlett warns. {equals}"
        ),
        Some((w, Third::Within)) => format!(
            "**Not borne out at this precision.** A player who does not know three-figure \
             primes wins {w} of games against two who do: a third lies within the 95% \
             interval. {equals}{reach}"
        ),
        Some((w, Third::Above)) => format!(
            "**Contradicted by the models.** A player who does not know three-figure \
             primes wins {w} of games against two who do, above a third. {equals}"
        ),
        None => equals.clone(),
    }
}

/// The verdict on juxtaposition: whether it gives more primes to call.
fn juxtapose(e: &Exact, p: &Phrases) -> String {
    let Phrases {
        equals,
        ignoring,
        primes,
        weights,
        ..
    } = p;
    let easier = e.mean_primes[1] > e.mean_primes[0] && e.single_prime[1] < e.single_prime[0];
    format!(
        "{} Mean primes per deal {primes}, deals with a single prime {} → {}, hard \
         deals {} → {}; the quickest call is {} ({weights}). {equals}{ignoring}",
        if easier {
            "**Supported in its reason.** Juxtaposition gives more primes to call on \
             each deal, which makes the game easier, as for children."
        } else {
            "**Not supported.** Juxtaposition does not give more primes to call."
        },
        share(e.single_prime[0], e),
        share(e.single_prime[1], e),
        share(e.hard[0], e),
        share(e.hard[1], e),
        lighter(e),
    )
}

/// The verdict on the face rules: whether they answer the problem with 5.
fn faces(e: &Exact, p: &Phrases) -> String {
    let Phrases { equals, primes, .. } = p;
    let better = e.single_prime[1] < e.single_prime[0] && e.failing[1] <= e.failing[0];
    let per = |n: u64| Ratio::new(u128::from(n), u128::from(e.face_deals.max(1))).decimal(2);
    let three = format!(
        " Parlett's complaint is about three face cards: as written they are 5 5 5, \
         which makes only 2 and 5; over the {} deals of three face cards the mean number \
         of primes goes {} → {} with this rule.",
        e.face_deals,
        per(e.face_primes[0]),
        per(e.face_primes[1])
    );
    format!(
        "{} With face cards at 5, {} of deals make a single prime; with this rule {}. \
         Deals with no prime: {} as written, {} with it. Mean primes per deal {primes}.{three} \
         {equals}",
        if better {
            "**An answer to the problem with 5.**"
        } else {
            "**No answer to the problem with 5.**"
        },
        share(e.single_prime[0], e),
        share(e.single_prime[1], e),
        e.failing[0],
        e.failing[1],
    )
}

/// The verdict on powers: whether they lose a deal, add primes, and pay.
fn powers(a: &Advice, p: &Phrases) -> String {
    let e = &a.exact;
    let Phrases {
        equals,
        ignoring,
        primes,
        ..
    } = p;
    let richer = e.lost == 0 && e.mean_primes[1] > e.mean_primes[0];
    let head = match (richer, ignorer(a).map(|(_, t)| t)) {
        (false, _) => "**Not supported.** Powers make some deals worse.",
        (true, Some(Third::Below)) => {
            "**Supported.** Powers lose no deal, add primes, and knowing them pays."
        }
        (true, Some(_)) => {
            "**Partly supported.** Powers lose no deal and add primes, but in these \
             models knowing them does not decide games."
        }
        (true, None) => "**Supported on the exact figures.** Powers lose no deal and add primes.",
    };
    format!(
        "{head} They rescue {} and lose {} of the deals; mean primes per deal {primes}; \
         the quickest call changes on {} of deals. {equals}{ignoring}",
        e.rescued,
        e.lost,
        share(e.quickest_changed, e)
    )
}

/// Whether to take a house rule at a table of equals and at a table of
/// mixed skills, decided from the figures: a rule that makes deals fail
/// is left out; one that a player who ignores it loses by (below a third
/// of wins) is for tables where everyone knows it; one that adds primes or
/// makes deals less hard is taken; otherwise it changes too little to be
/// worth a rule.
fn advice_for(a: &Advice) -> [(&'static str, String); 2] {
    let e = &a.exact;
    let fails_more = e.failing[1] > e.failing[0];
    // Enough to feel at the table: hard deals down by a tenth or more, or
    // a twentieth more primes a deal.
    let more = e.mean_primes[0] + e.mean_primes[0] * Ratio::new(1, 20) <= e.mean_primes[1];
    let easier = e.hard[1] * 10 <= e.hard[0] * 9 || more;
    let pays = ignorer(a).is_some_and(|(_, t)| t == Third::Below);
    let lost = if e.lost_hands.is_empty() {
        String::new()
    } else {
        format!(
            " ({})",
            e.lost_hands
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let fails = format!(
        "deals with no prime {} → {}{lost}",
        e.failing[0], e.failing[1]
    );
    let gain = format!(
        "mean primes per deal {} → {}, hard deals {} → {}",
        e.mean_primes[0].decimal(2),
        e.mean_primes[1].decimal(2),
        share(e.hard[0], e),
        share(e.hard[1], e)
    );
    let equals = if fails_more {
        ("leave it", fails.clone())
    } else if easier {
        ("take it", gain.clone())
    } else {
        ("either way", format!("it changes little: {gain}"))
    };
    let mixed = if fails_more {
        ("leave it", fails)
    } else if pays {
        let w = ignorer(a).map(|(w, _)| w).unwrap_or_default();
        (
            "only if everyone knows it",
            format!("a player who ignores it wins {w} of games against two who use it"),
        )
    } else if easier {
        ("take it", gain)
    } else {
        ("either way", format!("it changes little: {gain}"))
    };
    [equals, mixed]
}

/// The opening: one line per house rule, whether to take it for a table
/// of equals and for a mixed table, with the reason and its figures.
fn recommend(advice: &[Advice], out: &mut String) {
    let _ = writeln!(out, "## Recommendation\n");
    let _ = writeln!(
        out,
        "Decided from the figures below: a rule that makes deals fail is left out; one \
         that a player who ignores it loses by (below a third of wins against two who use \
         it) is for tables where everyone knows it; one that adds primes or makes hard deals \
         rarer (by a tenth or more, or a twentieth more primes a deal) is taken; otherwise it \
         changes too little to matter.\n"
    );
    let _ = writeln!(out, "| house rule | a table of equals | a mixed table |");
    let _ = writeln!(out, "|---|---|---|");
    for a in advice {
        let [(eq, eq_why), (mx, mx_why)] = advice_for(a);
        let _ = writeln!(
            out,
            "| {} | **{eq}**: {eq_why} | **{mx}**: {mx_why} |",
            a.rule.name
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Why some figures are so lopsided (a player who ignores a rule winning 0% of \
         games, an expert winning every game against a club player and a novice): the \
         winner of a combination takes its cards, so an edge on a few combinations in a \
         hundred compounds over the hundreds a game lasts, and cards lost are cards that \
         cannot be won back by calling. The models make the edge steady: each player \
         finds the primes their model knows, at their model's pace, every time; one who \
         ignores a rule never calls a prime only it makes, and loses each combination \
         where an opponent's best or quickest call needs it.\n"
    );
    // The hands each rule rescues or loses, by name.
    let named: Vec<String> = advice
        .iter()
        .filter(|a| !a.exact.rescued_hands.is_empty() || !a.exact.lost_hands.is_empty())
        .map(|a| {
            let list = |h: &[Hand]| {
                h.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let e = &a.exact;
            match (e.rescued_hands.is_empty(), e.lost_hands.is_empty()) {
                (false, true) => format!("- {} rescues {}.", a.rule.name, list(&e.rescued_hands)),
                (true, false) => format!("- {} loses {}.", a.rule.name, list(&e.lost_hands)),
                _ => format!(
                    "- {} rescues {} and loses {}.",
                    a.rule.name,
                    list(&e.rescued_hands),
                    list(&e.lost_hands)
                ),
            }
        })
        .collect();
    if !named.is_empty() {
        let _ = writeln!(out, "Hands that fail, as each rule counts them:\n");
        for line in named {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out);
    }
}

/// `reports/house-rules.md`.
pub fn markdown(plan: &Plan, advice: &[Advice], style: Style) -> String {
    let mut out = String::from("# House rules: what each does to Prime Time\n\n");
    let base = as_written();
    let deals = advice.first().map_or(0, |a| a.exact.deals);
    let _ = writeln!(
        out,
        "Each of the house rules Parlett lists, alone and in combinations a table might choose, \
         against the rules as written (`{}`: {}). Exact figures are over all {} three-card \
         deals, equally likely. Simulated figures: {} per line-up from seed {}, three players, \
         the stockpile endgame, {} (see docs/guide.md); every \
         combination is played with the rule and resolved again without it on the same \
         draws, so \"combinations changed\" counts turns whose outcome the rule alone \
         decides. Intervals are 95% (bootstrap for turns, Wilson for wins). A deal is *hard* \
         as in the reports of each rule set: {}\n",
        base.name(),
        base.describe_in(style.ascii),
        crate::text::number(usize::try_from(deals).unwrap_or(usize::MAX)),
        plural(plan.games, "game", "games"),
        plan.seed,
        models_used(&plan.models),
        crate::analysis::Difficulty::explain(3, style.ascii)
    );
    recommend(advice, &mut out);
    let _ = writeln!(out, "## At a glance\n");
    let _ = writeln!(
        out,
        "| house rule | rule set | deals with no prime | mean primes per deal | quickest call changes | mean weight of quickest call | hard deals | combinations changed, equal experts | combinations changed, mixed skills | ignorer's wins | median turns, equal experts |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|");
    for a in advice {
        let e = &a.exact;
        let equals = lineup(a, "three experts");
        let mixed = lineup(a, "expert, club, novice");
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            a.rule.name,
            a.rule.rules.name(),
            pair(&e.failing[0].to_string(), &e.failing[1].to_string()),
            pair(&e.mean_primes[0].decimal(2), &e.mean_primes[1].decimal(2)),
            share(e.quickest_changed, e),
            pair(&e.mean_weight[0].decimal(2), &e.mean_weight[1].decimal(2)),
            pair(&share(e.hard[0], e), &share(e.hard[1], e)),
            equals.map_or("-".into(), |l| changed(l).percent(1)),
            mixed.map_or("-".into(), |l| changed(l).percent(1)),
            ignorer(a).map_or("-".into(), |(w, _)| w),
            equals.map_or("-".into(), |l| pair(
                &median(&l.without_summary, l.with.max_turns),
                &median(&l.with_summary, l.with.max_turns)
            )),
        );
    }
    let _ = writeln!(
        out,
        "\n`a → b`: as written → with the rule. The ignorer is an expert who does not use the \
         rule (for high primes: knows primes only up to 97), seated against two experts who do; \
         an equal player wins a third.\n"
    );
    let _ = writeln!(out, "## Parlett's advice against the numbers\n");
    for a in advice {
        if a.rule.remark == Remark::Combination {
            continue;
        }
        let _ = writeln!(out, "### {}\n", a.rule.name);
        let _ = writeln!(out, "> {}\n", a.rule.remark.quote());
        let _ = writeln!(out, "{}\n", verdict(a));
    }
    let _ = writeln!(out, "### Combinations\n");
    for a in advice {
        if a.rule.remark == Remark::Combination {
            let _ = writeln!(
                out,
                "- **{}** (`{}`): {}",
                a.rule.name,
                a.rule.rules.name(),
                verdict(a)
            );
        }
    }
    let _ = writeln!(out, "\n## Each rule in detail\n");
    for a in advice {
        details(a, style, &mut out);
    }
    out
}

fn details(a: &Advice, style: Style, out: &mut String) {
    let e = &a.exact;
    let _ = writeln!(out, "### {} (`{}`)\n", a.rule.name, a.rule.rules.name());
    let _ = writeln!(
        out,
        "- Deals with no prime: {} as written, {} with the rule ({} rescued, {} lost).",
        e.failing[0], e.failing[1], e.rescued, e.lost
    );
    let _ = writeln!(
        out,
        "- Deals with a single prime: {} → {}; the highest prime changes on {} of deals, the quickest call on {}.",
        share(e.single_prime[0], e),
        share(e.single_prime[1], e),
        share(e.highest_changed, e),
        share(e.quickest_changed, e)
    );
    let weights: Vec<String> = e
        .weights
        .iter()
        .map(|(w, n)| format!("{w}: {}", share(*n, e)))
        .collect();
    let _ = writeln!(
        out,
        "- Weight of the quickest call, share of deals: {}.",
        weights.join(", ")
    );
    let hardest: Vec<String> = e
        .hardest
        .iter()
        .filter_map(|h| {
            let s = h.simplest.as_ref()?;
            let ways: u64 = h.ways.iter().sum();
            Some(format!(
                "{} ({}, {}, quickest {} = {}, difficulty {})",
                h.hand,
                plural(h.primes.len(), "prime", "primes"),
                plural(usize::try_from(ways).unwrap_or(usize::MAX), "way", "ways"),
                s.prime,
                s.say(style),
                crate::report::csv::difficulty(h.difficulty)
            ))
        })
        .collect();
    let _ = writeln!(
        out,
        "- Hardest hands (by difficulty): {}.\n",
        hardest.join("; ")
    );
    let _ = writeln!(
        out,
        "| line-up | combinations changed | median turns, as written → with | ties | nobody called | wins by seat, with the rule |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for l in &a.lineups {
        let seats: Vec<String> = (0..l.with.players.len())
            .map(|s| format!("{} {}", l.with.players[s], win_share(&l.with_summary, s)))
            .collect();
        let _ = writeln!(
            out,
            "| {} ({}) | {} of {} | {} | {} | {} | {} |",
            l.name,
            players(&l.with),
            changed(l).percent(1),
            number(usize::try_from(l.turns).unwrap_or(usize::MAX)),
            pair(
                &median(&l.without_summary, l.with.max_turns),
                &median(&l.with_summary, l.with.max_turns)
            ),
            pair(
                &l.without_summary.tie_rate.percent(1),
                &l.with_summary.tie_rate.percent(1)
            ),
            pair(
                &l.without_summary.no_call_rate.percent(1),
                &l.with_summary.no_call_rate.percent(1)
            ),
            seats.join(", ")
        );
    }
    let _ = writeln!(out);
}

/// `advise --format json`.
pub fn json<'a>(plan: &'a Plan, advice: &'a [Advice], style: Style) -> AdviceJson<'a> {
    AdviceJson {
        schema: SCHEMA,
        as_written: as_written(),
        games_per_lineup: plan.games,
        seed: plan.seed,
        max_turns: plan.max_turns,
        house_rules: advice.iter().map(|a| proposal(a, style)).collect(),
    }
}

/// `advise --format json`: the rules as written, the run, and each
/// proposal.
#[derive(Serialize)]
pub struct AdviceJson<'a> {
    schema: u32,
    #[serde(serialize_with = "rules_object")]
    as_written: Rules,
    games_per_lineup: u64,
    seed: u64,
    max_turns: u32,
    house_rules: Vec<ProposalJson<'a>>,
}

fn rules_object<S: serde::Serializer>(r: &Rules, s: S) -> Result<S::Ok, S::Error> {
    rules(r).serialize(s)
}

/// One proposal: its name, rules, Parlett's word, the verdict, the exact
/// figures and the paired line-ups.
#[derive(Serialize)]
pub struct ProposalJson<'a> {
    name: &'static str,
    rule_set: String,
    rules: RulesJson<'a>,
    parlett: &'static str,
    verdict: String,
    exact: ExactJson,
    lineups: Vec<LineupJson<'a>>,
}

/// What a proposal does to every deal, as written → with it.
#[derive(Serialize)]
pub struct ExactJson {
    deals: u64,
    failing: [u64; 2],
    rescued: u64,
    lost: u64,
    mean_primes: [RatioJson; 2],
    single_prime: [u64; 2],
    highest_changed: RatioJson,
    quickest_changed: RatioJson,
    mean_weight: [RatioJson; 2],
    hard: [u64; 2],
    weights: Vec<WeightJson>,
    hardest: Vec<HardestJson>,
}

/// How many deals' quickest call weighs `weight`.
#[derive(Serialize)]
pub struct WeightJson {
    weight: u16,
    deals: u64,
}

/// One of the hardest hands, its primes and its quickest call.
#[derive(Serialize)]
pub struct HardestJson {
    hand: Vec<u8>,
    primes: usize,
    quickest: Option<CallJson>,
}

/// One paired line-up.
#[derive(Serialize)]
pub struct LineupJson<'a> {
    name: &'static str,
    players: Vec<&'a str>,
    turns: u64,
    changed: u64,
    changed_share: RatioJson,
    unaware_seat: Option<usize>,
    with: SimulationJson<'a>,
    median_turns_as_written: Option<u32>,
    median_turns_as_written_interval95: Option<[u32; 2]>,
    tie_rate_as_written: RatioJson,
    no_call_rate_as_written: RatioJson,
}

fn proposal(a: &Advice, style: Style) -> ProposalJson<'_> {
    let e = &a.exact;
    let ratio_of = |k: u64| ratio(Ratio::new(u128::from(k), u128::from(e.deals)));
    ProposalJson {
        name: a.rule.name,
        rule_set: a.rule.rules.name(),
        rules: rules_in(&a.rule.rules, style),
        parlett: a.rule.remark.quote(),
        verdict: verdict(a),
        exact: ExactJson {
            deals: e.deals,
            failing: e.failing,
            rescued: e.rescued,
            lost: e.lost,
            mean_primes: e.mean_primes.map(ratio),
            single_prime: e.single_prime,
            highest_changed: ratio_of(e.highest_changed),
            quickest_changed: ratio_of(e.quickest_changed),
            mean_weight: e.mean_weight.map(ratio),
            hard: e.hard,
            weights: e
                .weights
                .iter()
                .map(|(&weight, &deals)| WeightJson { weight, deals })
                .collect(),
            hardest: e
                .hardest
                .iter()
                .map(|h| HardestJson {
                    hand: h.hand.values(),
                    primes: h.primes.len(),
                    quickest: h.simplest.as_ref().map(|s| call(s, style)),
                })
                .collect(),
        },
        lineups: a
            .lineups
            .iter()
            .map(|l| LineupJson {
                name: l.name,
                players: l.with.players.iter().map(|m| &*m.name).collect(),
                turns: l.turns,
                changed: l.changed,
                changed_share: ratio(changed(l)),
                unaware_seat: l.unaware.map(|s| s + 1),
                with: simulation(&l.with, &l.with_summary),
                median_turns_as_written: l.without_summary.all_turns.as_ref().map(|t| t.median),
                median_turns_as_written_interval95: l.without_summary.all_turns_median_interval,
                tie_rate_as_written: ratio(l.without_summary.tie_rate),
                no_call_rate_as_written: ratio(l.without_summary.no_call_rate),
            })
            .collect(),
    }
}
