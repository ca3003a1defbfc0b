//! One hand asked about, as every front end asks: [`Solver::query`]
//! decides how the engine searches (the primes alone or every value, which
//! path, whether to count what the bound cuts off) and returns what the
//! answer shows.

use super::budget::Charge;
use super::primes::Tally;
use super::values::HandValues;
use super::{Goal, Solution, SolveError, Solver};
use crate::arith::Value;
use crate::expr::Expr;
use crate::hand::Hand;
use crate::rules::Rules;
use crate::style::Style;

/// The largest hands whose operations beyond the bound a query (and a
/// sweep) counts: from five cards on, counting them means building every
/// value's table, minutes and gigabytes where the primes alone take
/// seconds.
pub const COUNTED_UP_TO: usize = 4;

/// What a query asks of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Its primes, each with its simplest witness.
    Primes,
    /// Its primes with their witnesses, and every value it makes.
    Values,
}

/// What [`Solver::query`] found: the hand's primes with their witnesses,
/// the operations cut off at the bound where they were counted, and every
/// value where [`Want::Values`] asked for them.
pub struct Answer<'s> {
    solution: Solution<'s>,
    /// Every value, from the value-only path, where the search for the
    /// primes did not build the full table.
    every: Option<HandValues>,
    want: Want,
}

/// Every value of a hand, from whichever path found them.
#[derive(Clone, Copy)]
pub enum EveryValue<'a> {
    /// The value-only path's sorted set.
    Sets(&'a HandValues),
    /// The full table's sorted values.
    Table(&'a [Value]),
}

impl EveryValue<'_> {
    /// How many values there are.
    pub fn len(&self) -> usize {
        match self {
            EveryValue::Sets(s) => s.len(),
            EveryValue::Table(t) => t.len(),
        }
    }

    /// Whether there are none (never for a hand: a card is a value).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values, ascending, without a copy.
    pub fn iter(&self) -> Box<dyn Iterator<Item = Value> + '_> {
        match self {
            EveryValue::Sets(s) => Box::new(s.iter()),
            EveryValue::Table(t) => Box::new(t.iter().copied()),
        }
    }
}

/// A prime with its witness written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub value: Value,
    pub witness: String,
    /// The witness worked one operation a line ([`Expr::steps`]), where
    /// they were asked for ([`Answer::written_with_steps`]).
    pub steps: Option<Vec<String>>,
}

impl Solver {
    /// What `hand` makes under the solver's rules, searched the way a
    /// query should be: up to [`COUNTED_UP_TO`] cards the full table, with
    /// the operations cut off at the bound counted; from five cards on only
    /// the primes are searched for, and they are not counted. With
    /// [`Want::Values`], every value comes from the value-only path, its
    /// sub-hands worked out and the hand's set projected before the search
    /// for the primes, so that values that cannot fit are refused at once;
    /// the primes and witnesses come from the search for primes (unless it
    /// had to build the full table anyway, which then gives the values).
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver, Style, Want};
    ///
    /// let solver = Solver::new(Rules::default())?;
    /// let answer = solver.query(Hand::from_values(&[4, 6, 8]), Want::Primes)?;
    /// assert_eq!(answer.primes(), vec![2, 3]);
    /// let witness = answer.witness(3).expect("3 is made");
    /// assert_eq!(witness.render(Style::ASCII), "(6 * 4) / 8");
    /// assert!(answer.values().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`SolveError::Memory`] (or another refusal for memory) when the
    /// search does not fit the budget, [`SolveError::TooLarge`] past the
    /// value limit.
    pub fn query(&self, hand: Hand, want: Want) -> Result<Answer<'_>, SolveError> {
        let values = want == Want::Values;
        let primes_only = hand.len() > COUNTED_UP_TO || values;
        let mut sets = if values && !self.primes_need_every_value() {
            let mut sets = self.value_sets()?;
            sets.prepare(hand)?;
            Some(sets)
        } else {
            None
        };
        let solution = if primes_only {
            self.solve_with(hand, Goal::Primes, Tally::Not)?
        } else {
            self.solve_with(hand, Goal::All, self.tally)?
        };
        let every = match (solution.values(), &mut sets) {
            (Some(_), _) => None,
            (None, Some(sets)) => Some(sets.values(hand)?),
            (None, None) if values => Some(self.value_sets()?.values(hand)?),
            (None, None) => None,
        };
        Ok(Answer {
            solution,
            every,
            want,
        })
    }
}

impl Solver {
    /// The smallest prime above the ceiling that `hand` makes, with its
    /// simplest witness: what a hand that makes no prime under the ceiling
    /// would call if any prime counted. `None` without a ceiling, or where
    /// the hand makes no prime at all. Searched only for hands of up to
    /// [`COUNTED_UP_TO`] cards, where every prime is cheap to find.
    ///
    /// ```
    /// use prime_solve::{Faces, Hand, Rules, Solver, Style};
    /// let rules = Rules { faces: Faces::Rank, ..Rules::default() };
    /// let solver = Solver::new(rules)?;
    /// let (p, how) = solver.nearest_above(Hand::from_values(&[5, 8, 12]))?.unwrap();
    /// assert_eq!((p, how.render(Style::ASCII).as_str()), (101, "12 * 8 + 5"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Solver::query`].
    pub fn nearest_above(&self, hand: Hand) -> Result<Option<(Value, Expr)>, SolveError> {
        let Some(ceiling) = self.rules().max_prime else {
            return Ok(None);
        };
        if hand.len() > COUNTED_UP_TO {
            return Ok(None);
        }
        let any = Solver::new(Rules {
            max_prime: None,
            ..*self.rules()
        })?
        .with_budget(std::sync::Arc::clone(self.budget()));
        let solution = any.solve_primes(hand)?;
        Ok(solution
            .primes()
            .into_iter()
            .find(|&p| p > Value::from(ceiling))
            .and_then(|p| Some((p, solution.witness(p)?.shown(any.rules().max_value)))))
    }
}

impl<'s> Answer<'s> {
    /// The hand asked about.
    pub fn hand(&self) -> Hand {
        self.solution.hand()
    }

    /// The rules it was solved under.
    pub fn rules(&self) -> &Rules {
        self.solution.rules()
    }

    /// Its primes, ascending.
    pub fn primes(&self) -> Vec<Value> {
        self.solution.primes()
    }

    /// The simplest witness of `v`, if the hand makes it.
    pub fn witness(&self, v: Value) -> Option<Expr> {
        self.solution.witness(v)
    }

    /// The operations cut off at the bound, where they were counted.
    pub fn pruned(&self) -> Option<u64> {
        match &self.every {
            Some(every) => Some(every.pruned()),
            None => self.solution.pruned(),
        }
    }

    /// Every value, where [`Want::Values`] asked for them.
    pub fn values(&self) -> Option<EveryValue<'_>> {
        if self.want != Want::Values {
            return None;
        }
        match &self.every {
            Some(every) => Some(EveryValue::Sets(every)),
            None => self.solution.values().map(EveryValue::Table),
        }
    }

    /// The prime of the quickest call: the one whose witness is simplest
    /// ([`Solution::quickest`]), `None` for a hand that makes no prime.
    pub fn simplest_prime(&self) -> Option<Value> {
        self.solution.quickest(&self.primes())
    }

    /// The solution the primes came from.
    pub fn solution(&self) -> &Solution<'s> {
        &self.solution
    }

    /// Each prime with its witness written in `style`, ascending, room for
    /// them made first: `extra` more bytes for each (what the caller's
    /// output holds beside a copy of the witness), the charge held while
    /// the caller keeps it. Under any prime with functions a hand makes
    /// hundreds of thousands of primes, so the room is charged, and tried
    /// on the allocator, before the list is built.
    ///
    /// # Errors
    /// [`SolveError::Memory`] past the limit, [`SolveError::Refused`]
    /// when the machine cannot give that much.
    ///
    /// # Panics
    /// Never: every prime found has a witness.
    pub fn written(&self, style: Style, extra: u64) -> Result<(Vec<Written>, Charge), SolveError> {
        self.write(style, extra, false)
    }

    /// As [`Answer::written`], each witness with its working
    /// ([`Expr::steps`]), room made for that too.
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver, Style, Want};
    ///
    /// let solver = Solver::new(Rules::default())?;
    /// let answer = solver.query(Hand::from_values(&[4, 6, 8]), Want::Primes)?;
    /// let (primes, _room) = answer.written_with_steps(Style::UNICODE, 0)?;
    /// assert_eq!(primes[1].witness, "(6 × 4) ÷ 8");
    /// assert_eq!(primes[1].steps.as_deref(), Some(&["6 × 4 = 24".to_string(), "24 ÷ 8 = 3".into()][..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Answer::written`].
    pub fn written_with_steps(
        &self,
        style: Style,
        extra: u64,
    ) -> Result<(Vec<Written>, Charge), SolveError> {
        self.write(style, extra, true)
    }

    /// The primes written, with their steps if `steps`: each measured
    /// first, one at a time, and room made for all before the list is
    /// built.
    fn write(
        &self,
        style: Style,
        extra: u64,
        steps: bool,
    ) -> Result<(Vec<Written>, Charge), SolveError> {
        let budget = &self.solution.solver.budget;
        let primes = self.primes();
        // Each witness in the order it is shown (`Expr::shown`).
        let bound = self.rules().max_value;
        let witness = |p: Value| {
            self.witness(p)
                .expect("a reached prime has a witness")
                .shown(bound)
        };
        let size = |p: Value| {
            let w = witness(p);
            let worked: u64 = if steps {
                w.steps(style)
                    .iter()
                    .map(|s| (s.len() + size_of::<String>()) as u64)
                    .sum()
            } else {
                0
            };
            w.render(style).len() as u64 + worked
        };
        let text_bytes: u64 = primes.iter().map(|&p| size(p)).sum();
        let per_prime = size_of::<Written>() as u64 + extra;
        let held = (primes.len() as u64)
            .saturating_mul(per_prime)
            .saturating_add(text_bytes.saturating_mul(1 + u64::from(extra > 0)));
        let charge = budget.room_for_output(held)?;
        let mut written: Vec<Written> = Vec::new();
        written
            .try_reserve_exact(primes.len())
            .map_err(|_| budget.refusal(held))?;
        written.extend(primes.iter().map(|&p| {
            let w = witness(p);
            Written {
                value: p,
                witness: w.render(style),
                steps: steps.then(|| w.steps(style)),
            }
        }));
        Ok((written, charge))
    }
}
