//! Solving one hand: the full tables, the restricted search, the targeted
//! search and the scan that keeps only primes, each where it applies.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use rustc_hash::FxHashMap;

use super::plan::{layers, mean_len};
use super::primes::Tally;
use super::table::{Build, Table};
use super::{Solution, SolveError, Solver, TARGETED_MAX_PRIME, targets};
use crate::arith::Value;
use crate::hand::Hand;
use crate::prime::is_prime;

/// A hand's top table from a targeted search, with the primes a census
/// reached (`None`: the table's own values).
pub(super) type FoundTop = (Table, Option<Vec<Value>>);

/// What a solve is asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Goal<'c> {
    /// Every value ([`Solver::solve`]).
    All,
    /// The primes, each with its witness ([`Solver::solve_primes`]).
    Primes,
    /// The primes, with witnesses for the highest and the quickest within
    /// each of these ceilings ([`Solver::census`]).
    Census(&'c [u64]),
}

impl Solver {
    /// Every value `hand` reaches. Sub-hands not prepared are built here
    /// and kept with the solution.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the tables would pass the budget, and
    /// [`SolveError::TooLarge`] past the value limit.
    pub fn solve(&self, hand: Hand) -> Result<Solution<'_>, SolveError> {
        self.solve_with(hand, Goal::All, self.tally)
    }

    /// The primes `hand` reaches, with the same witnesses as [`Solver::solve`],
    /// but without listing every other value when a faster targeted search
    /// applies (see [`Solution::values`]).
    ///
    /// ```
    /// use prime_solve::{Faces, Hand, Rules, Solver};
    ///
    /// let rank = Rules { faces: Faces::Rank, ..Rules::default() };
    /// let solver = Solver::new(rank)?;
    /// // 5 8 Q makes no prime up to 97 when Q counts 12.
    /// assert!(solver.solve_primes(Hand::from_values(&[5, 8, 12]))?.primes().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_primes(&self, hand: Hand) -> Result<Solution<'_>, SolveError> {
        self.solve_with(hand, Goal::Primes, self.tally)
    }

    /// What a sweep reports of `hand` under each ceiling of `ceilings`
    /// (each at most the rules' own): every prime it reaches, as
    /// [`Solver::solve_primes`] gives them, but witnesses only for the
    /// highest prime within each ceiling and for the quickest
    /// ([`Solution::quickest`] of the primes within it), which takes far
    /// less work than every prime's witness. Where the targeted search
    /// does not apply (functions, powers, no ceiling) it is
    /// [`Solver::solve_primes`].
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver};
    ///
    /// let solver = Solver::new(Rules::default())?;
    /// let hand = Hand::from_values(&[3, 5, 7, 9]);
    /// let (census, all) = (solver.census(hand, &[97])?, solver.solve_primes(hand)?);
    /// let primes = all.primes();
    /// assert_eq!(census.primes(), primes);
    /// let (high, quick) = (*primes.last().unwrap(), all.quickest(&primes).unwrap());
    /// assert_eq!(census.quickest(&primes), Some(quick));
    /// for p in [high, quick] {
    ///     assert_eq!(census.witness(p), all.witness(p));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn census(&self, hand: Hand, ceilings: &[u64]) -> Result<Solution<'_>, SolveError> {
        debug_assert!(
            ceilings
                .iter()
                .all(|&c| self.rules.max_prime.is_some_and(|m| c <= m))
        );
        self.solve_with(hand, Goal::Census(ceilings), self.tally)
    }

    /// Solves `hand` for what `want` asks, counting the operations beyond
    /// the bound as `tally` says (the solver's own, or less for a query).
    pub(super) fn solve_with(
        &self,
        hand: Hand,
        want: Goal<'_>,
        tally: Tally,
    ) -> Result<Solution<'_>, SolveError> {
        let primes_only = want != Goal::All;
        if primes_only
            && self.restricts(hand.len(), tally)
            && let Some(search) = &self.search
        {
            return self.solve_restricted(hand, search, self.depth(hand.len(), tally)?, want);
        }
        let mut local: FxHashMap<Hand, Table> = FxHashMap::default();
        let mut missing: Vec<Hand> = hand
            .proper_sub_hands()
            .into_iter()
            .filter(|s| !self.shared.contains_key(s))
            .collect();
        missing.sort_unstable_by_key(|h| h.len());
        let build = self.build();
        let subs = hand.proper_sub_hands();
        let mut plan = layers(&missing, self.bytes_per_value());
        let at_top = self.top_bytes_per_value(primes_only, hand.len(), tally);
        if at_top > 0 {
            plan.push((hand.len(), 1, at_top));
        }
        let step = self.build_missing(&build, &subs, &missing, &plan, &mut local)?;
        let get = |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]);
        self.foresee(&plan[step..], |k| {
            mean_len(subs.iter().filter(|s| s.len() == k), |&s| Some(get(s)))
        })?;
        let rules = self.rules;
        // Only primes wanted: the targeted search (+ − × ÷ and a small
        // ceiling), else the scan that keeps only primes; either may decline.
        let mut reached = None;
        let fast = if primes_only {
            let targeted = match rules.max_prime {
                Some(max) if max <= TARGETED_MAX_PRIME => {
                    Self::targeted_top(&build, hand, get, max, want)?
                }
                _ => None,
            };
            match targeted {
                Some((table, r)) => {
                    reached = r;
                    Some(table)
                }
                None => {
                    build.scan_primes(hand, get, |v| rules.allows_prime(v) && is_prime(v), tally)?
                }
            }
        } else {
            None
        };
        let complete = fast.is_none();
        let top = match fast {
            Some(table) => table,
            None => build.table(hand, get)?,
        };
        local.insert(hand, top);
        Ok(Solution {
            hand,
            solver: self,
            local,
            depth: 0,
            complete,
            // A full table counts them whatever was asked.
            counted: if complete { Tally::Every } else { tally },
            reached,
        })
    }

    /// The targeted search at the top of `hand` for what `want` asks
    /// (primes up to `max`, or a census), with the primes a census
    /// reached; `None` where it does not apply.
    pub(super) fn targeted_top<'t>(
        build: &Build<'_>,
        hand: Hand,
        get: impl Fn(Hand) -> &'t Table,
        max: u64,
        want: Goal<'_>,
    ) -> Result<Option<FoundTop>, SolveError> {
        Ok(match want {
            Goal::Census(ceilings) => build
                .targeted_census(hand, get, max, ceilings)?
                .map(|(reached, table)| (table, Some(reached))),
            Goal::Primes | Goal::All => build.targeted_primes(hand, get, max)?.map(|t| (t, None)),
        })
    }

    /// Builds the full tables of `missing` (sub-hands of a hand whose
    /// proper sub-hands are `subs`, sorted by size) into `local`, and
    /// before each size projects what the sizes of `plan` (`layers` of
    /// `missing` and what follows) still need ([`Solver::foresee`]).
    /// Returns how many steps of `plan` were projected.
    pub(super) fn build_missing(
        &self,
        build: &Build<'_>,
        subs: &[Hand],
        missing: &[Hand],
        plan: &[(usize, usize, u64)],
        local: &mut FxHashMap<Hand, Table>,
    ) -> Result<usize, SolveError> {
        let mut step = 0;
        for (i, &h) in missing.iter().enumerate() {
            if i == 0 || missing[i - 1].len() < h.len() {
                self.foresee(&plan[step..], |k| {
                    mean_len(subs.iter().filter(|s| s.len() == k), |s| {
                        self.shared.get(s).or_else(|| local.get(s))
                    })
                })?;
                step += 1;
            }
            let table = build.table(h, |s| self.shared.get(&s).unwrap_or_else(|| &local[&s]))?;
            local.insert(h, table);
        }
        Ok(step)
    }

    /// The restricted search ([`targets`]): full tables for the sub-hands
    /// of at most k − 1 − `depth` cards, restricted ones for the `depth`
    /// sizes above ([`Solver::depth`]), and the top searched for the
    /// primes alone.
    pub(super) fn solve_restricted(
        &self,
        hand: Hand,
        search: &targets::Search,
        depth: usize,
        want: Goal<'_>,
    ) -> Result<Solution<'_>, SolveError> {
        let k = hand.len();
        let subs = hand.proper_sub_hands();
        let mut local: FxHashMap<Hand, Table> = FxHashMap::default();
        let mut missing: Vec<Hand> = subs
            .iter()
            .copied()
            .filter(|s| s.len() + depth < k && !self.shared.contains_key(s))
            .collect();
        missing.sort_unstable_by_key(|h| h.len());
        let build = self.build();
        // Projected as in `solve_with`, over the full tables alone: the
        // restricted ones and the top are a small part of the whole.
        self.build_missing(
            &build,
            &subs,
            &missing,
            &layers(&missing, self.bytes_per_value()),
            &mut local,
        )?;
        // The restricted sub-hands, the smaller first.
        let two = if depth >= 2 {
            Some(self.two_short(search)?)
        } else {
            None
        };
        for short in (1..=depth).rev() {
            for &x in subs.iter().filter(|s| s.len() + short == k) {
                let held = match short {
                    2 => self.restricted2.contains_key(&x),
                    _ => self.restricted.contains_key(&x),
                };
                if held || self.shared.contains_key(&x) || local.contains_key(&x) {
                    continue;
                }
                let get = |s| self.sub_table(k, depth, &local, s);
                let table = if short == 2 {
                    let two = two.as_ref().expect("worked out for depth 2");
                    build.two_short(x, get, two)?
                } else {
                    build.restricted(x, get, &search.sub, &search.sub_below)?
                };
                local.insert(x, table);
            }
        }
        let get = |s| self.sub_table(k, depth, &local, s);
        // Under + − × ÷ alone the targeted search over primes is quicker.
        let targeted = match self.rules.max_prime {
            Some(max) if self.functions.is_empty() => {
                Self::targeted_top(&build, hand, get, max, want)?
            }
            _ => None,
        };
        let (top, reached) = match targeted {
            Some(found) => found,
            None => (
                build.restricted(hand, get, &search.top, &search.top_below)?,
                None,
            ),
        };
        local.insert(hand, top);
        Ok(Solution {
            hand,
            solver: self,
            local,
            depth,
            complete: false,
            counted: if self.never_prunes() {
                Tally::Every
            } else {
                Tally::Not
            },
            reached,
        })
    }
}
