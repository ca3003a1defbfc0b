//! The sweep over every hand the pack deals under one rule set: each hand's
//! primes and calls, weighted by how often it is dealt, and the statistics
//! the reports print.
//!
//! It holds the sweep's entry points (`analyze`, `analyze_all`,
//! `analyze_screened`, `analyze_each`, and the `_among` forms over several
//! rule sets), the grouping of hands that share sub-hands, each hand's
//! [`HandResult`], why a rule set was not done ([`NotDone`]), and the
//! figures every report reads from an [`Analysis`]: failing hands,
//! probabilities, the highest prime, folder names.

use crate::engine::{Budget, COUNTED_UP_TO};
use std::sync::Arc;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::arith::Value;
use crate::deck::{Dealt, deal};
use crate::engine::SolveError;
use crate::engine::{Charge, Solution, Solver};
use crate::expr::Expr;
use crate::hand::Hand;
use crate::prime::is_prime;
use crate::ratio::Ratio;
use crate::rules::Rules;
use crate::style::Style;

/// A prime and the simplest way to call it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witnessed {
    pub prime: Value,
    /// Kept as an expression, in the order it is shown ([`Expr::shown`]),
    /// until a report prints it in its style.
    pub witness: Expr,
    /// The witness's operator weight (+ − 1, × ÷ 2, ^ 3, ...): the effort
    /// of finding it.
    pub weight: u16,
}

pub use crate::ways::Difficulty;

impl Witnessed {
    /// The witness as printed in `style`.
    pub fn say(&self, style: Style) -> String {
        self.witness.render(style)
    }

    /// The prime and the witness as two CSV fields, both empty for no call.
    pub fn fields(call: Option<&Witnessed>, style: Style) -> [String; 2] {
        call.map_or([String::new(), String::new()], |c| {
            [c.prime.to_string(), c.say(style)]
        })
    }
}

/// One hand's result. Serialized whole, as a part of a sweep split into
/// shards keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub hand: Hand,
    /// How many deals produce this hand.
    pub deals: u64,
    /// Every prime it makes, ascending; in a screened census
    /// ([`Analysis::screen`]) only those up to the screen.
    pub primes: Vec<Value>,
    /// How many primes it makes beyond `primes`: `Some(0)` when the list is
    /// complete, `None` where a screened census did not count them.
    pub beyond: Option<usize>,
    /// The highest prime, and how; `None` where it was not searched for
    /// (uncounted hands of a screened census) or there is none.
    pub highest: Option<Witnessed>,
    /// The prime with the simplest witness (the smaller prime on a tie);
    /// `None` as `highest`.
    pub simplest: Option<Witnessed>,
    /// Operations beyond the bound, summed over the hand's sub-hands;
    /// `None` where the sweep did not count them (see
    /// [`Solver::without_pruned_counts`] and [`Pruned::Flagged`]), and for
    /// every hand of five cards or more under a ceiling, so that a rule set
    /// reads the same whatever search it shared.
    pub pruned: Option<u64>,
    /// Whether something cut off at the bound could have led to a prime
    /// beyond those found ([`crate::engine::Solution::bound_may_hide_primes`]);
    /// `None` where `pruned` is, except where only a sweep's
    /// [`Pruned::Flagged`] made `pruned` `None`.
    pub bound_may_hide: Option<bool>,
    /// Every value a failing hand makes (empty for other hands).
    pub values: Vec<Value>,
    /// How many essentially different ways make each prime of `primes`
    /// ([`crate::ways`]); empty where they were not counted
    /// ([`Analysis::count_ways`]).
    pub ways: Vec<u64>,
    /// How hard the hand is to call, from its ways; `None` where they were
    /// not counted.
    pub difficulty: Option<Difficulty>,
}

impl HandResult {
    /// The memory this result holds, roughly: its lists and witnesses.
    pub fn held_bytes(&self) -> u64 {
        let value = std::mem::size_of::<Value>() as u64;
        std::mem::size_of::<HandResult>() as u64
            + (self.primes.len() + self.values.len()) as u64 * value
            + 256
    }

    /// How many primes the hand makes, if they were counted.
    pub fn prime_count(&self) -> Option<usize> {
        self.beyond.map(|b| self.primes.len() + b)
    }
}

/// Every hand under one rule set.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Analysis {
    pub rules: Rules,
    pub cards: usize,
    /// Deals of `cards` cards that make a hand (all of them for k >= 3).
    pub total_deals: u64,
    /// Where the census of primes stops, if it does not list them all
    /// ([`screen`]): each hand's primes up to here are listed, and only the
    /// hands that make at most one of them are searched for the rest.
    pub screen: Option<u64>,
    /// Sorted by hand.
    pub hands: Vec<HandResult>,
}

/// A rule set a sweep did not do, and why ([`analyze_each`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotDone {
    pub rules: Rules,
    pub cards: usize,
    pub why: SolveError,
}

impl NotDone {
    /// The folder its analysis would have had.
    pub fn folder(&self) -> String {
        folder(&self.rules, self.cards)
    }

    /// Why, in words that are the same on every run that refuses it: the
    /// projected need, or only the limit where the charges of a parallel
    /// build passed it (by how much depends on the threads' timing).
    ///
    /// ```
    /// use prime_solve::Rules;
    /// use prime_solve::analysis::NotDone;
    /// use prime_solve::SolveError;
    ///
    /// let why = SolveError::Memory { needed: 3 << 30, limit: 1 << 30, estimated: true };
    /// let n = NotDone { rules: Rules::default(), cards: 6, why };
    /// assert_eq!(n.reason(), "not enough memory: it would need about 3.0 GiB, more than the limit of 1.0 GiB");
    /// ```
    pub fn reason(&self) -> String {
        use crate::text::Bytes;
        match &self.why {
            SolveError::Memory {
                needed,
                limit,
                estimated: true,
            } => {
                let (needed, limit) = crate::text::apart(*needed, *limit);
                format!(
                    "not enough memory: it would need about {needed}, more than the limit of {limit}"
                )
            }
            SolveError::Memory { limit, .. } => format!(
                "not enough memory: its tables passed the limit of {} as they were built",
                Bytes(*limit)
            ),
            SolveError::Refused { limit, .. } => format!(
                "not enough memory: the machine refused it below the limit of {}",
                Bytes(*limit)
            ),
            other => other.to_string(),
        }
    }
}

/// Where a sweep of `cards`-card hands under `rules` stops listing primes:
/// from five cards on, under any prime with functions and a value bound
/// above [`SCREEN_ABOVE_BOUND`] (`None` otherwise).
///
/// There a hand makes thousands of primes (tens of thousands with n! and
/// √n), most of them in the millions and beyond: counting them takes up to
/// hours per rule set, and says little about the game. Screened at the
/// rules' own 97, the sweep still answers exactly which hands fail, which
/// make a single prime, and how likely each prime up to 97 is.
///
/// ```
/// use prime_solve::Rules;
/// use prime_solve::analysis::screen;
/// use prime_solve::Functions;
///
/// let any = Rules { max_prime: None, functions: Functions::TRI, ..Rules::default() };
/// assert_eq!(screen(&any, 5), Some(97));
/// assert_eq!(screen(&any, 4), None);
/// assert_eq!(screen(&Rules { max_prime: None, ..Rules::default() }, 6), None);
/// assert_eq!(screen(&Rules { max_value: 1000, ..any }, 5), None);
/// ```
pub fn screen(rules: &Rules, cards: usize) -> Option<u64> {
    (cards > COUNTED_UP_TO
        && rules.max_prime.is_none()
        && !rules.functions.is_empty()
        && rules.max_value > SCREEN_ABOVE_BOUND)
        .then_some(crate::rules::DEFAULT_MAX_PRIME)
}

/// Under a value bound up to this, every prime is counted: there are at
/// most 78,498 of them, and few values to test.
pub const SCREEN_ABOVE_BOUND: u64 = 1_000_000;

/// Solves every hand the pack deals; `tick` is called once per hand solved
/// (from any thread) with the rule set it was solved under, for progress.
///
/// A search refused for memory while several threads build tables at once
/// runs again on one thread (and `tick` is called again for its hands):
/// near the limit, whether tables built side by side pass it depends on
/// how the threads meet (`table --memory-limit 40M` under every rule was
/// refused on about half the runs with two threads), and one thread at a
/// time decides it the same way on every run.
///
/// ```
/// use prime_solve::Rules;
/// use prime_solve::analysis::analyze;
/// use prime_solve::Budget;
///
/// // The rules as written: every three-card deal makes a prime.
/// let a = analyze(Rules::default(), 3, &Budget::unlimited(), &|_| {})?;
/// assert_eq!(a.failing().count(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::Memory`] when the search does not fit the budget.
///
/// # Panics
/// Never: `analyze_all` gives one analysis per rule set.
pub fn analyze(
    rules: Rules,
    cards: usize,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Analysis, SolveError> {
    let once = || {
        let mut all = analyze_all(&[rules], cards, budget, tick)?;
        Ok::<_, SolveError>(all.pop().expect("one analysis per rule set"))
    };
    match once() {
        Err(e) if e.is_memory() && rayon::current_num_threads() > 1 => {
            match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                Ok(one) => one.install(once),
                Err(_) => Err(e),
            }
        }
        done => done,
    }
}

/// Every hand under each of `rule_sets`, in their order; `tick` is called
/// once per hand and rule set. Rule sets that differ only in the faces and
/// the ceiling on primes share one search, under the widest ceiling: a
/// hand's values and witnesses depend on its card values alone, not on how
/// the pack came to deal them, and a prime's simplest witness does not
/// depend on the ceiling, so each set keeps its own hands and primes.
///
/// # Errors
/// [`SolveError::Memory`] when a search does not fit the budget.
///
/// # Panics
/// Never: every prime found has a witness.
pub fn analyze_all(
    rule_sets: &[Rules],
    cards: usize,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Vec<Analysis>, SolveError> {
    analyze_screened(
        rule_sets,
        cards,
        &|r| screen(r, cards),
        Pruned::Counted,
        budget,
        tick,
    )
}

/// What a sweep tells of the operations each hand's search cut off at the
/// value bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruned {
    /// How many there were ([`HandResult::pruned`], in hands.csv), and
    /// whether they may hide a prime.
    Counted,
    /// Only whether they may hide a prime ([`HandResult::bound_may_hide`],
    /// what the summaries tell); `pruned` is `None`. Under functions with
    /// any prime, the search then does not gather every distinct value a
    /// hand makes to count them ([`Solver::without_pruned_totals`]): a
    /// four-card sweep of every rule set takes about half the time.
    Flagged,
}

/// As [`analyze_all`], with the census of each rule set screened where
/// `screen` says instead of where [`screen`] does, telling of what was cut
/// off at the bound as `pruned` says.
///
/// # Errors
/// As [`analyze_all`].
///
/// # Panics
/// Never: every prime found has a witness.
pub fn analyze_screened(
    rule_sets: &[Rules],
    cards: usize,
    screen: &(dyn Fn(&Rules) -> Option<u64> + Sync),
    pruned: Pruned,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Vec<Analysis>, SolveError> {
    let sweep = Sweep {
        cards,
        screen,
        pruned,
        keep: &|_| true,
    };
    analyze_screened_among(rule_sets, &sweep, budget, tick)
}

/// How a sweep is searched, and which of its hands: every hand, or a part
/// of them (a shard of a sweep split across machines).
/// The hands kept are solved exactly as in a sweep of every hand; each
/// analysis then holds only them, with the deals of the whole sweep.
pub struct Sweep<'a> {
    pub cards: usize,
    /// Where each rule set's census stops ([`screen`]).
    pub screen: &'a (dyn Fn(&Rules) -> Option<u64> + Sync),
    pub pruned: Pruned,
    /// Whether a hand is solved.
    pub keep: &'a (dyn Fn(Hand) -> bool + Sync),
}

/// As [`analyze_screened`], for the hands `sweep` keeps.
///
/// # Errors
/// As [`analyze_all`].
pub fn analyze_screened_among(
    rule_sets: &[Rules],
    sweep: &Sweep<'_>,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Vec<Analysis>, SolveError> {
    let groups = groups(rule_sets, sweep.screen);
    // Each group's results stay charged until every group is done.
    let solved = groups
        .par_iter()
        .map(|(search, members)| analyze_group(*search, members, sweep, budget, tick))
        .collect::<Result<Vec<(Vec<Analysis>, Charge)>, SolveError>>()?;
    let mut ordered: Vec<(usize, Analysis)> = groups
        .iter()
        .zip(solved)
        .flat_map(|((_, members), (analyses, _held))| members.iter().map(|m| m.index).zip(analyses))
        .collect();
    ordered.sort_by_key(|&(i, _)| i);
    Ok(ordered.into_iter().map(|(_, a)| a).collect())
}

/// As [`analyze_screened`], but a rule set whose search does not fit the
/// memory budget does not stop the others: each rule set's analysis or the
/// refusal, in their order.
///
/// The searches run one after another, each with what the results before
/// it leave of the budget (the hands of each in parallel), so whether one
/// fits does not depend on what runs beside it. A refused search shared by
/// rule sets of different ceilings or faces is tried again for each, so
/// that a rule set with the ceiling is not lost to its partner with any
/// prime, nor face cards counting 5 to J Q K counting 11 12 13.
///
/// # Errors
/// Any error but a refusal for memory ([`SolveError::is_memory`]).
///
/// # Panics
/// Never: every prime found has a witness.
pub fn analyze_each(
    rule_sets: &[Rules],
    cards: usize,
    screen: &(dyn Fn(&Rules) -> Option<u64> + Sync),
    pruned: Pruned,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Vec<Result<Analysis, SolveError>>, SolveError> {
    let sweep = Sweep {
        cards,
        screen,
        pruned,
        keep: &|_| true,
    };
    analyze_each_among(rule_sets, &sweep, budget, tick)
}

/// As [`analyze_each`], for the hands `sweep` keeps.
///
/// # Errors
/// As [`analyze_each`].
///
/// # Panics
/// Never: every rule set is in one group.
pub fn analyze_each_among(
    rule_sets: &[Rules],
    sweep: &Sweep<'_>,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Vec<Result<Analysis, SolveError>>, SolveError> {
    let mut out: Vec<Option<Result<Analysis, SolveError>>> = vec![None; rule_sets.len()];
    // The results, charged until the sweep ends.
    let mut held = Charge::default();
    let mut queue = groups(rule_sets, sweep.screen);
    queue.reverse();
    while let Some((search, members)) = queue.pop() {
        match analyze_group(search, &members, sweep, budget, tick) {
            Ok((analyses, charge)) => {
                held.absorb(charge);
                for (m, a) in members.iter().zip(analyses) {
                    out[m.index] = Some(Ok(a));
                }
            }
            Err(e) if e.is_memory() => {
                // Each ceiling and faces on its own: the lower ceilings and
                // the faces whose cards stop at 10 may fit where all did not.
                let alone = |m: &Member| Rules {
                    max_prime: m.screen.or(m.rules.max_prime),
                    faces: m.rules.faces,
                    ..search
                };
                let mut split: Vec<(Rules, Vec<Member>)> = Vec::new();
                for m in &members {
                    match split.iter_mut().find(|(r, _)| *r == alone(m)) {
                        Some((_, part)) => part.push(*m),
                        None => split.push((alone(m), vec![*m])),
                    }
                }
                if split.len() > 1 {
                    // Popped in order: the lowest ceiling first, then by faces.
                    let order = |r: &Rules| {
                        let faces = crate::rules::Faces::ALL.iter().position(|&f| f == r.faces);
                        (r.max_prime.unwrap_or(u64::MAX), faces)
                    };
                    split.sort_by_key(|(r, _)| std::cmp::Reverse(order(r)));
                    queue.extend(split);
                } else {
                    for m in &members {
                        out[m.index] = Some(Err(e.clone()));
                    }
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out
        .into_iter()
        .map(|r| r.expect("every rule set is in one group"))
        .collect())
}

/// The searches a sweep of `rule_sets` makes, each with the rule sets read
/// from it: rule sets that differ only in the faces and the ceiling share
/// one ([`analyze_all`]). A hand is solved once a search when any of its
/// rule sets' faces deal it.
pub fn searches(
    rule_sets: &[Rules],
    screen: &(dyn Fn(&Rules) -> Option<u64> + Sync),
) -> Vec<(Rules, Vec<Rules>)> {
    groups(rule_sets, screen)
        .into_iter()
        .map(|(search, members)| (search, members.iter().map(|m| m.rules).collect()))
        .collect()
}

/// The rule sets grouped by the search they share: those that differ only
/// in the faces and the ceiling (a screened one searched up to its screen)
/// are solved once, under the widest ceiling.
fn groups(
    rule_sets: &[Rules],
    screen: &(dyn Fn(&Rules) -> Option<u64> + Sync),
) -> Vec<(Rules, Vec<Member>)> {
    let search_key = |r: &Rules| Rules {
        max_prime: None,
        faces: crate::rules::Faces::Five,
        ..*r
    };
    let mut groups: Vec<(Rules, Vec<Member>)> = Vec::new();
    for (index, rules) in rule_sets.iter().enumerate() {
        let member = Member {
            index,
            rules: *rules,
            screen: screen(rules),
        };
        let r = Rules {
            max_prime: member.screen.or(rules.max_prime),
            ..*rules
        };
        match groups
            .iter_mut()
            .find(|(g, _)| search_key(g) == search_key(&r))
        {
            Some((search, members)) => {
                search.max_prime = search.max_prime.zip(r.max_prime).map(|(a, b)| a.max(b));
                members.push(member);
            }
            None => groups.push((r, vec![member])),
        }
    }
    groups
}

/// A rule set read from a group's search, and where its census stops.
#[derive(Clone, Copy, Debug)]
struct Member {
    /// Its place among the rule sets asked for.
    index: usize,
    rules: Rules,
    screen: Option<u64>,
}

/// One search under `search` rules, read for each of `members` (which
/// differ from it at most in the faces and a lower ceiling or screen):
/// every hand that any member's faces deal is solved once.
fn analyze_group(
    search: Rules,
    members: &[Member],
    sweep: &Sweep<'_>,
    budget: &Arc<Budget>,
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<(Vec<Analysis>, Charge), SolveError> {
    let (cards, pruned) = (sweep.cards, sweep.pruned);
    let mut faces: Vec<crate::rules::Faces> = members.iter().map(|m| m.rules.faces).collect();
    faces.sort_by_key(|f| crate::rules::Faces::ALL.iter().position(|g| g == f));
    faces.dedup();
    let dealt: Vec<(crate::rules::Faces, Vec<Dealt>, u64)> = faces
        .iter()
        .map(|&f| {
            let (d, total) = deal(cards, f);
            (f, d, total)
        })
        .collect();
    let of = |f: crate::rules::Faces| {
        let (_, d, total) = dealt.iter().find(|(g, ..)| *g == f).expect("dealt");
        (d, *total)
    };
    let mut hands: Vec<Hand> = dealt
        .iter()
        .flat_map(|(_, d, _)| d.iter().map(|d| d.hand))
        .collect();
    hands.sort_unstable();
    hands.dedup();
    hands.retain(|&h| (sweep.keep)(h));
    // From five cards on, operations beyond the bound are not counted, so
    // that hands are searched for their primes alone (`Solver::restricts`),
    // except where a member allows any prime: its reports tell whether the
    // bound set the highest prime (`Analysis::highest_set_by_bound`).
    let mut solver = Solver::new(search)?.with_budget(Arc::clone(budget));
    if cards > COUNTED_UP_TO && search.max_prime.is_some() {
        solver = solver.without_pruned_counts();
    }
    if pruned == Pruned::Flagged {
        solver = solver.without_pruned_totals();
    }
    // The members that list every prime of every hand, whose lists a
    // sweep of many cards may not fit (the others stop at a ceiling),
    // refused before any table is prepared.
    let listing = members
        .iter()
        .filter(|m| m.screen.is_none() && m.rules.max_prime.is_none())
        .count() as u64;
    let projected = solver.foresee_primes(&hands, listing * std::mem::size_of::<Value>() as u64)?;
    // Held from the start, so that the chunks are sized with the lists in
    // the budget, and raised as the results pile up where they pass it.
    let mut held = solver.budget().charge(projected)?;
    let mut results_bytes = 0;
    let chunk = solver.plan_sweep(&hands)?.max(1);
    // For each hand, each member's result if its faces deal the hand.
    let mut per_hand: Vec<Vec<Option<HandResult>>> = Vec::with_capacity(hands.len());
    // The results are charged as they pile up, so that a sweep whose lists
    // of primes outgrow the budget is refused rather than aborted.
    for part in hands.chunks(chunk) {
        solver.prepare(part)?;
        let results = solve_part(&solver, part, members, &of, tick)?;
        results_bytes += results
            .iter()
            .flatten()
            .flatten()
            .map(HandResult::held_bytes)
            .sum::<u64>();
        held.raise_to(solver.budget(), results_bytes)?;
        per_hand.extend(results);
        if chunk < hands.len() {
            solver.release(cards - 1);
        }
    }
    held.shrink_to(results_bytes);
    let analyses = members
        .iter()
        .enumerate()
        .map(|(i, m)| Analysis {
            rules: m.rules,
            cards,
            total_deals: of(m.rules.faces).1,
            screen: m.screen,
            hands: per_hand
                .iter()
                .filter_map(|r| r[i].clone())
                .map(|h| match pruned {
                    // Some hands' full tables count them anyway: none is
                    // told, so that every hand reads alike.
                    Pruned::Flagged => HandResult { pruned: None, ..h },
                    Pruned::Counted => h,
                })
                .collect(),
        })
        .collect();
    Ok((analyses, held))
}

/// Each hand's result for each member whose faces deal it.
fn solve_part<'d>(
    solver: &Solver,
    hands: &[Hand],
    members: &[Member],
    of: &(dyn Fn(crate::rules::Faces) -> (&'d Vec<Dealt>, u64) + Sync),
    tick: &(dyn Fn(&Rules) + Sync),
) -> Result<Vec<Vec<Option<HandResult>>>, SolveError> {
    hands
        .par_iter()
        .map(|&hand| {
            let deals = |m: &Member| {
                let (d, _) = of(m.rules.faces);
                let i = d.binary_search_by(|x| x.hand.cmp(&hand)).ok()?;
                Some(d[i].deals)
            };
            let dealing: Vec<(Member, u64)> = members
                .iter()
                .filter_map(|&m| Some((m, deals(&m)?)))
                .collect();
            let mut results = solve(solver, hand, &dealing)?.into_iter();
            let out: Vec<Option<HandResult>> = members
                .iter()
                .map(|m| deals(m).and_then(|_| results.next()))
                .collect();
            dealing.iter().for_each(|(m, _)| tick(&m.rules));
            Ok(out)
        })
        .collect()
}

/// The prime `p` of `solution`, with its simplest witness.
fn witnessed(solution: &Solution<'_>, p: Value) -> Witnessed {
    Witnessed {
        prime: p,
        witness: solution
            .witness(p)
            .expect("reached")
            .shown(solution.rules().max_value),
        weight: solution.cost(p).map_or(0, |c| c.weight),
    }
}

/// One hand's result under each of `members`, each with the number of
/// deals that give the hand under its faces.
fn solve(
    solver: &Solver,
    hand: Hand,
    members: &[(Member, u64)],
) -> Result<Vec<HandResult>, SolveError> {
    if members.is_empty() {
        return Ok(Vec::new());
    }
    // Under a ceiling the reports need two witnesses a rule set: its
    // highest prime's and its quickest's.
    let ceilings: Option<Vec<u64>> = members
        .iter()
        .map(|(m, _)| m.rules.max_prime.filter(|_| m.screen.is_none()))
        .collect();
    let solution = match &ceilings {
        Some(ceilings) => solver.census(hand, ceilings)?,
        None => solver.solve_primes(hand)?,
    };
    let found = solution.primes();
    // From five cards on, a rule set with a ceiling does not report them,
    // whichever search its group shares (`HandResult::pruned`).
    let counted = |m: &Member| hand.len() <= COUNTED_UP_TO || m.rules.max_prime.is_none();
    let pruned = |m: &Member| solution.pruned().filter(|_| counted(m));
    let bound_may_hide = |m: &Member| solution.bound_may_hide_primes().filter(|_| counted(m));
    // Every value the hand makes, searched at most once: for a hand that
    // fails, and for one that makes at most one prime below a screen.
    let mut full: Option<Solution<'_>> = None;
    let mut results = Vec::with_capacity(members.len());
    for &(m, deals) in members {
        let listed: Vec<Value> = found
            .iter()
            .copied()
            .filter(|&p| m.rules.allows_prime(p) && m.screen.is_none_or(|s| p <= Value::from(s)))
            .collect();
        let screened = m.screen.is_some();
        if screened && listed.len() > 1 {
            // Counted no further: the hand neither fails nor makes one prime.
            results.push(HandResult {
                hand,
                deals,
                primes: listed,
                beyond: None,
                highest: None,
                simplest: None,
                pruned: pruned(&m),
                bound_may_hide: bound_may_hide(&m),
                values: Vec::new(),
                ways: Vec::new(),
                difficulty: None,
            });
            continue;
        }
        if (screened || listed.is_empty()) && full.is_none() {
            full = Some(solver.solve(hand)?);
        }
        // The primes beyond the screen, from every value the hand makes.
        let every: Vec<Value> = match (&full, screened) {
            (Some(f), true) => f
                .values()
                .unwrap_or_default()
                .iter()
                .copied()
                .filter(|&v| m.rules.allows_prime(v) && is_prime(v))
                .collect(),
            _ => listed.clone(),
        };
        // The witnesses come from the search that found every prime listed.
        let from = match &full {
            Some(f) if screened => f,
            _ => &solution,
        };
        let values = match &full {
            Some(f) if every.is_empty() => f.values().unwrap_or_default().to_vec(),
            _ => Vec::new(),
        };
        results.push(HandResult {
            hand,
            deals,
            beyond: Some(every.len() - listed.len()),
            highest: every.last().map(|&p| witnessed(from, p)),
            simplest: from.quickest(&every).map(|p| witnessed(from, p)),
            pruned: pruned(&m),
            bound_may_hide: bound_may_hide(&m),
            primes: listed,
            values,
            ways: Vec::new(),
            difficulty: None,
        });
    }
    Ok(results)
}

impl Analysis {
    /// Counts the ways to each prime of every hand, and each hand's
    /// difficulty from them, where [`crate::ways::counted`] says they are
    /// counted for these rules and cards (the hands in parallel).
    ///
    /// ```
    /// use prime_solve::{Budget, Rules};
    /// use prime_solve::analysis::analyze;
    /// let mut a = analyze(Rules::default(), 3, &Budget::unlimited(), &|_| {})?;
    /// a.count_ways(&Budget::unlimited())?;
    /// let h = a.hands.iter().find(|h| h.hand.values() == [4, 6, 8]).unwrap();
    /// assert_eq!((h.primes.as_slice(), h.ways.as_slice()), (&[2, 3][..], &[3, 1][..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::ways::WaysError`] where a hand's count passes its limits.
    pub fn count_ways(&mut self, budget: &Arc<Budget>) -> Result<(), crate::ways::WaysError> {
        if !crate::ways::counted(&self.rules, self.cards) || self.screen.is_some() {
            return Ok(());
        }
        let rules = self.rules;
        self.hands.par_iter_mut().try_for_each(|h| {
            let ways = crate::ways::Ways::count(h.hand, &rules, Arc::clone(budget))?;
            h.ways = h.primes.iter().map(|&p| ways.count_of(p) as u64).collect();
            h.difficulty = Some(ways.difficulty());
            Ok(())
        })
    }

    /// Whether the hands' ways were counted.
    pub fn ways_counted(&self) -> bool {
        self.hands.iter().all(|h| h.difficulty.is_some()) && !self.hands.is_empty()
    }

    /// The memory the results hold, roughly ([`HandResult::held_bytes`]).
    pub fn held_bytes(&self) -> u64 {
        self.hands.iter().map(HandResult::held_bytes).sum()
    }

    /// A hand's share of the deals, exactly.
    pub fn weight(&self, h: &HandResult) -> Ratio {
        Ratio::new(u128::from(h.deals), u128::from(self.total_deals))
    }

    /// The result for one hand.
    pub fn get(&self, hand: Hand) -> Option<&HandResult> {
        self.hands
            .binary_search_by(|h| h.hand.cmp(&hand))
            .ok()
            .map(|i| &self.hands[i])
    }

    /// The hands that make no prime.
    pub fn failing(&self) -> impl Iterator<Item = &HandResult> {
        self.hands.iter().filter(|h| h.prime_count() == Some(0))
    }

    /// The hands that make exactly one prime.
    pub fn single(&self) -> impl Iterator<Item = &HandResult> {
        self.hands.iter().filter(|h| h.prime_count() == Some(1))
    }

    /// Whether every hand's primes were counted: not so in a screened
    /// census ([`Analysis::screen`]) unless every hand was searched in full.
    pub fn counted(&self) -> bool {
        self.hands.iter().all(|h| h.beyond.is_some())
    }

    /// The chance that a deal makes no prime.
    pub fn failing_probability(&self) -> Ratio {
        self.failing()
            .fold(Ratio::ZERO, |acc, h| acc + self.weight(h))
    }

    /// Prime count → (hands, probability of a deal with that count);
    /// `None` unless every hand's primes were [counted](Analysis::counted).
    pub fn prime_count_distribution(&self) -> Option<BTreeMap<usize, (usize, Ratio)>> {
        let mut out: BTreeMap<usize, (usize, Ratio)> = BTreeMap::new();
        for h in &self.hands {
            let entry = out.entry(h.prime_count()?).or_insert((0, Ratio::ZERO));
            entry.0 += 1;
            entry.1 = entry.1 + self.weight(h);
        }
        Some(out)
    }

    /// The expected number of primes a deal makes; `None` unless every
    /// hand's primes were [counted](Analysis::counted).
    pub fn mean_primes(&self) -> Option<Ratio> {
        let mut sum: u128 = 0;
        for h in &self.hands {
            sum += u128::from(h.deals) * h.prime_count()? as u128;
        }
        Some(Ratio::new(sum, u128::from(self.total_deals)))
    }

    /// For each prime up to `max`, the chance that a deal can make it
    /// (`max` no higher than the [screen](Analysis::screen), if any).
    pub fn prime_probabilities(&self, max: Value) -> BTreeMap<Value, Ratio> {
        debug_assert!(self.screen.is_none_or(|s| max <= Value::from(s)));
        // The deals that make each prime, summed exactly, then each over
        // the deals in all: one fraction a prime, not one a hand.
        let mut deals: BTreeMap<Value, u128> = BTreeMap::new();
        for h in &self.hands {
            for &p in h.primes.iter().take_while(|&&p| p <= max) {
                *deals.entry(p).or_default() += u128::from(h.deals);
            }
        }
        deals
            .into_iter()
            .map(|(p, n)| (p, Ratio::new(n, u128::from(self.total_deals))))
            .collect()
    }

    /// The highest prime any hand makes, with its hand and witness (the
    /// first such hand in order); `None` when no hand makes a prime, or
    /// some hand's primes were not [counted](Analysis::counted).
    pub fn highest(&self) -> Option<(&HandResult, &Witnessed)> {
        if !self.counted() {
            return None;
        }
        self.hands
            .iter()
            .filter_map(|h| h.highest.as_ref().map(|c| (h, c)))
            .fold(
                None,
                |best: Option<(&HandResult, &Witnessed)>, (h, c)| match best {
                    Some((_, b)) if b.prime >= c.prime => best,
                    _ => Some((h, c)),
                },
            )
    }

    /// Whether the value bound, not the game, may set the highest prime:
    /// any prime counts, and some value cut off at the bound could have
    /// led to a prime beyond those found.
    pub fn highest_set_by_bound(&self) -> bool {
        self.rules.max_prime.is_none() && self.hands.iter().any(|h| h.bound_may_hide == Some(true))
    }

    /// Whether the highest prime found is the highest these rules make:
    /// any prime counts, every hand was searched to the end, and nothing
    /// cut off at the bound could have led further.
    pub fn highest_is_the_games(&self) -> bool {
        self.rules.max_prime.is_none()
            && self.counted()
            && self.hands.iter().all(|h| h.bound_may_hide == Some(false))
    }

    /// The value bound in words: `2^64 − 1` by default.
    pub fn bound(&self) -> String {
        if self.rules.max_value == u64::MAX {
            "2^64 − 1".into()
        } else {
            self.rules.max_value.to_string()
        }
    }

    /// The folder name of this analysis: the rule set's name, with the
    /// number of cards when it is not three.
    pub fn folder(&self) -> String {
        folder(&self.rules, self.cards)
    }
}

/// The folder name of a sweep of `cards`-card hands under `rules`.
pub fn folder(rules: &Rules, cards: usize) -> String {
    if cards == 3 {
        rules.name()
    } else {
        format!("{}-{}cards", rules.name(), cards)
    }
}

/// Every combination of the house rules a sweep of all rule sets covers: faces × powers ×
/// juxtapose × functions {none, tri, tri+fact+sqrt} × high primes (72).
pub fn all_rule_sets() -> Vec<Rules> {
    use crate::rules::{Faces, Functions};
    let mut out = Vec::new();
    for faces in Faces::ALL {
        for powers in [false, true] {
            for juxtapose in [false, true] {
                for functions in [Functions::NONE, Functions::TRI, Functions::ALL] {
                    for high in [false, true] {
                        out.push(Rules {
                            faces,
                            powers,
                            juxtapose,
                            functions,
                            max_prime: if high {
                                None
                            } else {
                                Some(crate::rules::DEFAULT_MAX_PRIME)
                            },
                            ..Rules::default()
                        });
                    }
                }
            }
        }
    }
    out
}
