//! How many ways: the essentially different expressions that make each
//! prime of a hand, counted exactly, and the difficulty they give a hand.
//!
//! Two expressions are the same way when they compute the same rational
//! function of the cards taken as distinct unknowns, up to exchanging
//! cards of equal value (docs/rules.md §5.3). So `a + (b + c)` and
//! `(a + c) + b` are one way, `a − (b − c)` is `a + c − b`, and
//! `(a − b) ÷ (c − d)` is `(b − a) ÷ (d − c)`. Powers, roots, functions and
//! juxtaposed cards are symbols applied to their operands' normal forms:
//! `T(a + b)` is `T(b + a)`, but `T(a)` is never expanded. Coincidences of
//! particular values (`× 1`, `2 + 2 = 2 × 2`) are not merged.

mod form;
mod search;

use std::sync::Arc;

use thiserror::Error;

pub use form::{Form, MAX_UNKNOWNS};

use crate::arith::Value;
use crate::engine::{Budget, SolveError};
use crate::expr::{Cost, Expr};
use crate::hand::Hand;
use crate::rules::Rules;

/// The most combinations one count tries before it is refused: about a
/// second of one core at most.
pub const WORK_LIMIT: u64 = 10_000_000;

/// Whether sweeps count the ways for `rules` and hands of `cards` cards:
/// for three cards unless functions are stacked two deep or more, for four
/// without functions (beyond these a hand can pass [`WORK_LIMIT`]: 1 2 3
/// under every house rule at depth 2, many four-card hands under the
/// functions), never for more.
///
/// ```
/// use prime_solve::{Functions, Rules};
/// use prime_solve::ways::counted;
/// let tri = Rules { functions: Functions::TRI, ..Rules::default() };
/// assert!(counted(&tri, 3) && counted(&Rules::default(), 4));
/// assert!(!counted(&Rules { function_depth: 2, ..tri }, 3));
/// assert!(!counted(&tri, 4));
/// assert!(!counted(&Rules::default(), 5));
/// ```
pub fn counted(rules: &Rules, cards: usize) -> bool {
    let stacked = !rules.functions.is_empty() && rules.function_depth > 1;
    (cards <= 3 && !stacked) || (cards == 4 && rules.functions.is_empty())
}

/// What a count of the ways shows besides each prime's count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Shown {
    /// How many ways make each prime.
    Count,
    /// One example of each way, simplest first.
    All,
}

/// One way to make a prime: the simplest expression of its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Way {
    pub expr: Expr,
    pub cost: Cost,
    /// The way's normal form (up to exchanging equal cards).
    form: Form,
}

/// Every way to make each prime of a hand that the rules allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ways {
    pub hand: Hand,
    /// Each prime, ascending, with its ways, simplest first.
    pub primes: Vec<(Value, Vec<Way>)>,
}

/// Why the ways of a hand were not counted.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum WaysError {
    #[error(
        "counting the ways of {hand} would try more than {limit} combinations of sub-expressions \
         under these rules"
    )]
    TooMuch { hand: Hand, limit: u64 },
    /// [`WaysError::TooMuch`] for a query that asked for its ways
    /// ([`Ways::of_answer`]), which can list its primes without them: the
    /// one sentence `query --ways` and the server's query say.
    #[error(
        "{}; list the primes alone, without their ways",
        WaysError::TooMuch { hand: *hand, limit: *limit }
    )]
    QueryTooMuch { hand: Hand, limit: u64 },
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl Ways {
    /// Every way to each prime `hand` makes under `rules`, within
    /// `budget`'s memory and [`WORK_LIMIT`] combinations.
    ///
    /// ```
    /// use prime_solve::{Budget, Hand, Rules, Style};
    /// use prime_solve::ways::Ways;
    /// let hand = Hand::from_values(&[4, 6, 8]);
    /// let ways = Ways::count(hand, &Rules::default(), Budget::unlimited())?;
    /// // 6 × 4 ÷ 8 and 6 ÷ (8 ÷ 4) are one way: the same rational function.
    /// let three: Vec<String> = ways.of(3).unwrap().iter().map(|w| w.expr.render(Style::ASCII)).collect();
    /// assert_eq!(three, ["(6 * 4) / 8"]);
    /// let two: Vec<String> = ways.of(2).unwrap().iter().map(|w| w.expr.render(Style::ASCII)).collect();
    /// assert_eq!(two, ["6 + 4 - 8", "(8 + 4) / 6", "4 / (8 - 6)"]);
    /// # Ok::<(), prime_solve::ways::WaysError>(())
    /// ```
    ///
    /// # Errors
    /// [`WaysError::TooMuch`] where the count would pass the work limit,
    /// [`WaysError::Solve`] for invalid rules or a budget it would pass.
    pub fn count(hand: Hand, rules: &Rules, budget: Arc<Budget>) -> Result<Ways, WaysError> {
        Ways::count_within(hand, rules, budget, WORK_LIMIT)
    }

    /// [`Ways::count`] with a limit of its own on the combinations tried.
    ///
    /// # Errors
    /// As [`Ways::count`].
    pub fn count_within(
        hand: Hand,
        rules: &Rules,
        budget: Arc<Budget>,
        work_limit: u64,
    ) -> Result<Ways, WaysError> {
        rules.validate().map_err(SolveError::from)?;
        if hand.is_empty() {
            return Ok(Ways {
                hand,
                primes: Vec::new(),
            });
        }
        if hand.len() > MAX_UNKNOWNS {
            return Err(WaysError::TooMuch {
                hand,
                limit: work_limit,
            });
        }
        let primes = search::Search::new(rules, hand, budget, work_limit).run()?;
        Ok(Ways { hand, primes })
    }

    /// The ways to each prime of a query's answer, each prime's witness
    /// leading its way ([`Ways::prefer`]): what `query --ways` and the
    /// server show.
    ///
    /// # Errors
    /// As [`Ways::count`], but [`WaysError::QueryTooMuch`] past the work
    /// limit.
    pub fn of_answer(
        answer: &crate::engine::Answer<'_>,
        budget: Arc<Budget>,
    ) -> Result<Ways, WaysError> {
        let mut ways = Ways::count(answer.hand(), answer.rules(), budget).map_err(|e| match e {
            WaysError::TooMuch { hand, limit } => WaysError::QueryTooMuch { hand, limit },
            other => other,
        })?;
        for p in answer.primes() {
            if let Some(w) = answer.witness(p) {
                ways.prefer(p, &w);
            }
        }
        Ok(ways)
    }

    /// The ways to make `p`, simplest first (`None` if it is not made).
    pub fn of(&self, p: Value) -> Option<&[Way]> {
        self.primes
            .binary_search_by_key(&p, |(q, _)| *q)
            .ok()
            .map(|i| self.primes[i].1.as_slice())
    }

    /// How many ways make `p`.
    pub fn count_of(&self, p: Value) -> usize {
        self.of(p).map_or(0, <[Way]>::len)
    }

    /// Shows `witness` (an expression for `p` over this hand) as the
    /// example of its way: the engine's witness leads the list wherever
    /// it is one of the simplest.
    pub fn prefer(&mut self, p: Value, witness: &Expr) {
        let Ok(i) = self.primes.binary_search_by_key(&p, |(q, _)| *q) else {
            return;
        };
        let form = canonical(self.hand, witness);
        let ways = &mut self.primes[i].1;
        if let Some(at) = ways.iter().position(|w| w.form == form) {
            let mut way = ways.remove(at);
            way.cost = witness.cost();
            way.expr = witness.clone();
            let to = ways
                .iter()
                .position(|w| w.cost >= way.cost)
                .unwrap_or(ways.len());
            ways.insert(to, way);
        }
    }

    /// How hard the hand is to call, from its ways.
    pub fn difficulty(&self) -> Difficulty {
        Difficulty::of(
            self.primes
                .iter()
                .flat_map(|(_, ways)| ways.iter().map(|w| w.cost.weight)),
            self.hand.len(),
        )
    }
}

/// The form of an expression over `hand`'s cards, up to exchanging equal
/// cards: its leaves are given the hand's positions in order of value.
fn canonical(hand: Hand, e: &Expr) -> Form {
    let values = hand.values();
    search::exchanges(&values)
        .iter()
        .map(|perm| rename(e, &values, perm, &mut vec![false; values.len()]))
        .min()
        .expect("the identity is an exchange")
}

/// The form of `e` with its leaves taken as the first unused positions of
/// their values, renamed by `perm`.
fn rename(e: &Expr, values: &[u8], perm: &[u8], used: &mut [bool]) -> Form {
    let leaf = |v: u8, used: &mut [bool]| {
        let p = (0..values.len())
            .find(|&i| values[i] == v && !used[i])
            .unwrap_or(0);
        used[p] = true;
        Form::unknown(usize::from(perm[p]))
    };
    match e {
        Expr::Card(v) => leaf(*v, used),
        Expr::Join(cards) => {
            let parts: Vec<Form> = cards.iter().map(|&v| leaf(v, used)).collect();
            Form::join(&parts)
        }
        Expr::Binary(op, a, b) => {
            let a = rename(a, values, perm, used);
            let b = rename(b, values, perm, used);
            Form::binary(*op, a, b)
        }
        Expr::Unary(f, a) => Form::unary(*f, rename(a, values, perm, used)),
    }
}

/// How hard a hand is to call, from its ways: its *difficulty* is the
/// weight of the one way that would be as easy to find as all of its ways
/// together, `−log2 Σ 2^−w` over the ways to every prime it may call (w a
/// way's operator weight: + − 1, × ÷ 2, ^ 3, ...). One way weighing 4
/// gives 4; two such ways, 3; a way weighing 2 and two weighing 3, 1. The
/// sum is kept exact, scaled by 2^64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Difficulty {
    /// Σ 2^(64 − w); 0 when the hand makes no prime.
    pub ease: u128,
    /// The ways counted, over every prime.
    pub ways: u64,
    /// The hand's cards.
    pub cards: usize,
}

impl Difficulty {
    fn of(weights: impl Iterator<Item = u16>, cards: usize) -> Difficulty {
        let mut ease: u128 = 0;
        let mut ways = 0;
        for w in weights {
            ways += 1;
            ease += 1u128 << 64u16.saturating_sub(w);
        }
        Difficulty { ease, ways, cards }
    }

    /// The difficulty as a number of weight units (`None` for no prime):
    /// for display only; comparisons use [`Difficulty::ease`].
    pub fn score(self) -> Option<f64> {
        #[allow(
            clippy::cast_precision_loss,
            reason = "a score to print, never a value"
        )]
        (self.ease > 0).then(|| 64.0 - (self.ease as f64).log2())
    }

    /// The least difficulty called hard for `cards` cards: 2 for three
    /// cards (no easier than a single way of two + or −, the lightest
    /// there is: about the hardest 4% of deals), 1 for four (a four-card
    /// hand has many more ways: about the hardest 2%).
    pub fn hard_score(cards: usize) -> u16 {
        u16::try_from(5usize.saturating_sub(cards)).unwrap_or(0)
    }

    /// What the difficulty means, in a sentence for reports and help.
    ///
    /// ```
    /// use prime_solve::ways::Difficulty;
    /// assert!(Difficulty::explain(3, true).contains("hard* from 2.0"));
    /// ```
    pub fn explain(cards: usize, ascii: bool) -> String {
        let weights = if ascii {
            "+ - 1, * / 2, ^ 3, root sqrt ! 4, T 3, each join 3"
        } else {
            "+ − 1, × ÷ 2, ^ 3, root √ ! 4, T 3, each join 3"
        };
        let minus = if ascii { "-" } else { "−" };
        format!(
            "Difficulty is the weight ({weights}) of a single way that would be as easy to find \
             as all of the hand's essentially different ways to every prime together \
             ({minus}log2 of the sum of 2^{minus}weight): one way weighing 4 is 4.0, two such \
             ways 3.0, more and lighter ways lower; *hard* from {}.0, or with no prime.",
            Self::hard_score(cards)
        )
    }

    /// The difficulty in a word, for people: `hard` ([`Difficulty::is_hard`]),
    /// `tricky` within one of it (a score from [`Difficulty::hard_score`]
    /// − 1: for three cards, no easier than a single way of two
    /// multiplications, or two ways of two + or −), else `easy`.
    ///
    /// ```
    /// use prime_solve::ways::Difficulty;
    /// let three = |ease| Difficulty { ease, ways: 1, cards: 3 };
    /// assert_eq!(three(1 << 62).word(), "hard");
    /// assert_eq!(three(1 << 63).word(), "tricky");
    /// assert_eq!(three(1 << 64).word(), "easy");
    /// assert_eq!(three(0).word(), "hard");
    /// ```
    pub fn word(self) -> &'static str {
        let tricky = Self::hard_score(self.cards).saturating_sub(1);
        if self.is_hard() {
            "hard"
        } else if self.ease <= 1u128 << 64u16.saturating_sub(tricky) {
            "tricky"
        } else {
            "easy"
        }
    }

    /// Hard: a difficulty of at least [`Difficulty::hard_score`], or no
    /// prime at all.
    pub fn is_hard(self) -> bool {
        let h = Self::hard_score(self.cards);
        self.ease <= 1u128 << 64u16.saturating_sub(h)
    }
}
