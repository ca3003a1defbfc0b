//! The practice drill: hands dealt from the pack, every answer for each,
//! the referee's ruling on a player's claim, and the score and summary of
//! a drill. Pure: the CLI reads the claims and keeps the clock.

use crate::arith::Value;
use crate::card::{Card, Rank, Suit};
use crate::engine::SolveError;
use crate::engine::Solver;
use crate::expr::Expr;
use crate::hand::Hand;
use crate::pack;
use crate::referee::{Fault, check};
use crate::rng::Rng;
use crate::rules::{Faces, Rules};
use crate::style::Style;

/// A card as a player sees it: `Q♥`, `10♣`, `JK` (`QH`, `10C` in ASCII).
///
/// ```
/// use prime_solve::{Card, Style};
/// use prime_solve::practice::face;
/// let queen = Card::parse("QH").unwrap();
/// assert_eq!(face(queen, Style::UNICODE), "Q♥");
/// assert_eq!(face(queen, Style::ASCII), "QH");
/// assert_eq!(face(Card::Joker, Style::UNICODE), "JK");
/// ```
pub fn face(card: Card, style: Style) -> String {
    match card {
        Card::Ranked {
            rank,
            suit: Some(suit),
        } => {
            let rank = match rank {
                Rank::Ace => "A".to_string(),
                Rank::Num(n) => n.to_string(),
                Rank::Jack => "J".into(),
                Rank::Queen => "Q".into(),
                Rank::King => "K".into(),
            };
            let suit = match (suit, style.ascii) {
                (Suit::Spades, false) => "♠",
                (Suit::Hearts, false) => "♥",
                (Suit::Clubs, false) => "♣",
                (Suit::Diamonds, false) => "♦",
                (Suit::Spades, true) => "S",
                (Suit::Hearts, true) => "H",
                (Suit::Clubs, true) => "C",
                (Suit::Diamonds, true) => "D",
            };
            format!("{rank}{suit}")
        }
        other => other.to_string(),
    }
}

/// What each visible card counts, in the order shown: Jokers copy the
/// highest other card (`None` for Jokers only).
///
/// ```
/// use prime_solve::{Card, Faces};
/// use prime_solve::practice::counted;
/// let cards: Vec<Card> = ["QH", "7C", "JK"].iter().map(|t| Card::parse(t).unwrap()).collect();
/// assert_eq!(counted(&cards, Faces::Five), Some(vec![5, 7, 7]));
/// assert_eq!(counted(&cards, Faces::Rank), Some(vec![12, 7, 12]));
/// ```
pub fn counted(cards: &[Card], faces: Faces) -> Option<Vec<u8>> {
    let own: Vec<Option<u8>> = cards
        .iter()
        .map(|c| c.value(faces).ok().flatten())
        .collect();
    let high = own.iter().flatten().copied().max()?;
    Some(own.into_iter().map(|v| v.unwrap_or(high)).collect())
}

/// Deals `k` cards from a shuffled pack: each hand comes as often as the
/// 54-card pack deals it. A deal of Jokers only is dealt again.
pub fn deal(k: usize, faces: Faces, rng: &mut Rng) -> (Vec<Card>, Hand) {
    let cards = pack::cards();
    loop {
        let mut order: Vec<usize> = (0..cards.len()).collect();
        rng.shuffle(&mut order);
        let shown: Vec<Card> = order[..k].iter().map(|&i| cards[i]).collect();
        if let Ok(hand) = Hand::from_cards(&shown, faces) {
            return (shown, hand);
        }
    }
}

/// A prime the hand makes and the simplest way to make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub prime: Value,
    /// In the order it is shown ([`Expr::shown`]).
    pub witness: Expr,
    /// The witness's operator weight (+ − 1, × ÷ 2, ...): how hard it is.
    pub weight: u16,
}

/// Everything a hand makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answers {
    pub hand: Hand,
    /// Ascending by prime.
    pub primes: Vec<Answer>,
    /// Index into `primes` of the prime with the simplest witness.
    pub simplest: Option<usize>,
}

impl Answers {
    /// Every prime `hand` makes, with its simplest witness.
    ///
    /// ```
    /// use prime_solve::{Hand, Rules, Solver, Style};
    /// use prime_solve::practice::Answers;
    /// let solver = Solver::new(Rules::default()).unwrap();
    /// let a = Answers::of(&solver, Hand::from_values(&[4, 6, 8])).unwrap();
    /// assert_eq!(a.best().unwrap().witness.render(Style::UNICODE), "(6 × 4) ÷ 8");
    /// assert_eq!(a.simplest().unwrap().prime, 2);
    /// ```
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the hand's tables do not fit the budget.
    ///
    /// # Panics
    /// Never: every prime found has a witness.
    pub fn of(solver: &Solver, hand: Hand) -> Result<Answers, SolveError> {
        let solution = solver.solve_primes(hand)?;
        let primes: Vec<Answer> = solution
            .primes()
            .into_iter()
            .map(|p| Answer {
                prime: p,
                witness: solution
                    .witness(p)
                    .expect("a prime the hand reaches")
                    .shown(solver.rules().max_value),
                weight: solution.cost(p).map_or(0, |c| c.weight),
            })
            .collect();
        let values: Vec<Value> = primes.iter().map(|a| a.prime).collect();
        let simplest = solution
            .quickest(&values)
            .and_then(|q| values.binary_search(&q).ok());
        Ok(Answers {
            hand,
            primes,
            simplest,
        })
    }

    pub fn simplest(&self) -> Option<&Answer> {
        self.simplest.map(|i| &self.primes[i])
    }

    pub fn best(&self) -> Option<&Answer> {
        self.primes.last()
    }

    /// The primes for hints, easiest first: by witness weight, then value.
    pub fn hints(&self) -> Vec<Value> {
        let mut order: Vec<&Answer> = self.primes.iter().collect();
        order.sort_by_key(|a| (a.weight, a.prime));
        order.iter().map(|a| a.prime).collect()
    }
}

/// What the player did in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Claim(String),
    /// An empty line, or the time limit ran out.
    Pass,
}

/// One round as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub cards: Vec<Card>,
    pub answers: Answers,
    pub reply: Reply,
    /// The referee's ruling on a claim (`None` for a pass).
    pub ruling: Option<Result<Value, Fault>>,
    pub ms: u64,
    pub hints: u32,
}

impl Round {
    /// Rules on `reply` with the referee.
    pub fn rule(
        cards: Vec<Card>,
        answers: Answers,
        reply: Reply,
        ms: u64,
        hints: u32,
        rules: &Rules,
    ) -> Round {
        let ruling = match &reply {
            Reply::Claim(claim) => Some(check(answers.hand, claim, rules)),
            Reply::Pass => None,
        };
        Round {
            cards,
            answers,
            reply,
            ruling,
            ms,
            hints,
        }
    }

    /// The prime the player called validly.
    pub fn prime(&self) -> Option<Value> {
        self.ruling.as_ref().and_then(|r| r.as_ref().ok().copied())
    }

    /// The hand's primes the player did not call.
    pub fn missed(&self) -> Vec<Value> {
        let called = self.prime();
        self.answers
            .primes
            .iter()
            .map(|a| a.prime)
            .filter(|&p| Some(p) != called)
            .collect()
    }

    /// Points: a valid call scores 10, up to 10 more for speed (one less per
    /// second taken; none after a hint) and up to 10 for height (10 × the
    /// share of the hand's primes at or below the call, rounded down).
    pub fn score(&self) -> u64 {
        let Some(prime) = self.prime() else {
            return 0;
        };
        let speed = if self.hints > 0 {
            0
        } else {
            10u64.saturating_sub(self.ms / 1000)
        };
        let n = self.answers.primes.len() as u64;
        let at_or_below = self
            .answers
            .primes
            .iter()
            .filter(|a| a.prime <= prime)
            .count() as u64;
        10 + speed + (10 * at_or_below).checked_div(n).unwrap_or(0)
    }
}

/// The end of a drill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub rounds: usize,
    pub correct: usize,
    /// Over the correct calls (a quick wrong guess is no quicker player).
    pub median_ms: Option<u64>,
    pub worst_ms: Option<u64>,
    pub score: u64,
    /// Rounds missed (a pass or a wrong call), in order.
    pub missed: Vec<usize>,
    /// The slowest correct rounds, slowest first (at most three).
    pub slowest: Vec<usize>,
}

impl Summary {
    pub fn of(rounds: &[Round]) -> Summary {
        let played: Vec<Played> = rounds.iter().map(Round::played).collect();
        Summary::of_played(&played)
    }

    /// The summary of rounds kept as [`Played`]: by a front end that rules
    /// each round apart (the page over HTTP) and sums the drill up at the
    /// end.
    ///
    /// ```
    /// use prime_solve::practice::{Played, Summary};
    /// let s = Summary::of_played(&[
    ///     Played { valid: true, ms: 1500, score: 29 },
    ///     Played { valid: false, ms: 800, score: 0 },
    ///     Played { valid: true, ms: 4100, score: 24 },
    /// ]);
    /// // The median is the lower middle, as everywhere (`prime_solve::median`).
    /// assert_eq!((s.correct, s.score, s.median_ms), (2, 53, Some(1500)));
    /// assert_eq!(s.missed, [1]);
    /// ```
    pub fn of_played(rounds: &[Played]) -> Summary {
        let mut times: Vec<u64> = rounds.iter().filter(|r| r.valid).map(|r| r.ms).collect();
        times.sort_unstable();
        let mut slowest: Vec<usize> = (0..rounds.len()).filter(|&i| rounds[i].valid).collect();
        slowest.sort_by_key(|&i| (std::cmp::Reverse(rounds[i].ms), i));
        slowest.truncate(3);
        Summary {
            rounds: rounds.len(),
            correct: rounds.iter().filter(|r| r.valid).count(),
            median_ms: crate::stats::median(&times),
            worst_ms: times.last().copied(),
            score: rounds.iter().map(|r| r.score).sum(),
            missed: (0..rounds.len()).filter(|&i| !rounds[i].valid).collect(),
            slowest,
        }
    }
}

/// A round as a drill's summary counts it: whether the call was valid,
/// how long it took, and its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Played {
    pub valid: bool,
    pub ms: u64,
    pub score: u64,
}

impl Round {
    /// What the summary counts of this round.
    pub fn played(&self) -> Played {
        Played {
            valid: self.prime().is_some(),
            ms: self.ms,
            score: self.score(),
        }
    }
}

/// The hands `--hard` deals: every hand of `cards` cards the pack deals
/// that is hard by its ways ([`crate::ways::Difficulty::is_hard`]),
/// ascending; `None` where the ways are not counted for these rules and
/// cards ([`crate::ways::counted`]).
///
/// # Errors
/// [`crate::ways::WaysError`] where a hand's count passes its limits.
pub fn hard_hands(
    rules: &Rules,
    cards: usize,
    budget: &std::sync::Arc<crate::engine::Budget>,
) -> Result<Option<Vec<Hand>>, crate::ways::WaysError> {
    use rayon::prelude::*;
    if !crate::ways::counted(rules, cards) {
        return Ok(None);
    }
    let (dealt, _) = crate::deck::deal(cards, rules.faces);
    let judged: Vec<Option<Hand>> = dealt
        .par_iter()
        .map(|d| {
            let ways = crate::ways::Ways::count(d.hand, rules, std::sync::Arc::clone(budget))?;
            Ok(ways.difficulty().is_hard().then_some(d.hand))
        })
        .collect::<Result<_, crate::ways::WaysError>>()?;
    Ok(Some(judged.into_iter().flatten().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(values: &[u8]) -> Answers {
        let solver = Solver::new(Rules::default()).unwrap();
        Answers::of(&solver, Hand::from_values(values)).unwrap()
    }

    #[test]
    fn faces_and_counts() {
        let cards: Vec<Card> = ["QH", "7C", "JK"]
            .iter()
            .map(|t| Card::parse(t).unwrap())
            .collect();
        let shown: Vec<String> = cards.iter().map(|&c| face(c, Style::UNICODE)).collect();
        assert_eq!(shown.join(" "), "Q♥ 7♣ JK");
        assert_eq!(face(cards[0], Style::ASCII), "QH");
        assert_eq!(counted(&cards, Faces::Five), Some(vec![5, 7, 7]));
        assert_eq!(counted(&cards, Faces::Rank), Some(vec![12, 7, 12]));
        assert_eq!(counted(&[Card::Joker, Card::Joker], Faces::Five), None);
    }

    #[test]
    fn answers_and_rulings() {
        let a = answers(&[4, 6, 8]);
        assert_eq!(a.primes.iter().map(|p| p.prime).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(a.best().unwrap().prime, 3);
        assert_eq!(a.simplest().unwrap().prime, 2);
        let rules = Rules::default();
        let cards = vec![Card::Value(4), Card::Value(6), Card::Value(8)];
        let good = Round::rule(
            cards.clone(),
            a.clone(),
            Reply::Claim("6*4/8".into()),
            1500,
            0,
            &rules,
        );
        assert_eq!(good.prime(), Some(3));
        assert_eq!(good.missed(), [2]);
        // 10 + 9 for 1.5 s + 10 for the best of two primes.
        assert_eq!(good.score(), 29);
        let bad = Round::rule(
            cards.clone(),
            a.clone(),
            Reply::Claim("4+6+8".into()),
            900,
            0,
            &rules,
        );
        assert!(bad.ruling.as_ref().unwrap().is_err());
        assert_eq!(bad.score(), 0);
        assert_eq!(bad.missed(), [2, 3]);
        let pass = Round::rule(cards, a, Reply::Pass, 30_000, 0, &rules);
        let s = Summary::of(&[good, bad, pass]);
        assert_eq!((s.correct, s.score), (1, 29));
        // The correct call's time only: the wrong one at 0.9 s is not a
        // quicker call.
        assert_eq!((s.median_ms, s.worst_ms), (Some(1500), Some(1500)));
        assert_eq!(s.missed, [1, 2]);
        assert_eq!(s.slowest, [0]);
    }

    #[test]
    fn deals_follow_the_pack() {
        let mut rng = Rng::new(3);
        let mut jokers = 0;
        for _ in 0..2000 {
            let (cards, hand) = deal(3, Faces::Five, &mut rng);
            assert_eq!(cards.len(), 3);
            assert_eq!(hand.len(), 3);
            jokers += cards.iter().filter(|&&c| c == Card::Joker).count();
        }
        // 2 of 54 cards are Jokers: about 222 in 6000 cards.
        assert!((150..300).contains(&jokers), "{jokers}");
    }

    #[test]
    fn hard_hands_are_the_hard_ones_the_pack_deals() {
        let budget = crate::engine::Budget::unlimited();
        let hard = super::hard_hands(&Rules::default(), 3, &budget)
            .unwrap()
            .unwrap();
        let (dealt, _) = crate::deck::deal(3, Faces::Five);
        assert!(!hard.is_empty() && hard.len() < dealt.len());
        for d in &dealt {
            let ways = crate::ways::Ways::count(d.hand, &Rules::default(), budget.clone()).unwrap();
            assert_eq!(
                hard.contains(&d.hand),
                ways.difficulty().is_hard(),
                "{}",
                d.hand
            );
        }
        // Five cards: the ways are not counted, so nothing is judged.
        assert_eq!(
            super::hard_hands(&Rules::default(), 5, &budget).unwrap(),
            None
        );
    }
}
