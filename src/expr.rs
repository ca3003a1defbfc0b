//! Expression trees over card values: evaluation, the cost that makes one
//! witness simpler than another, and printing with minimal parentheses.

// Numbers in the engine are exact: every narrowing cast is checked.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use crate::arith::{BinOp, Eval, Func, Value, juxtapose};
use crate::rules::{HouseRule, HouseRules};
use crate::style::{Brackets, Style};

/// An expression that uses each card of a hand once.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Expr {
    /// One card's value.
    Card(u8),
    /// Two or more cards written side by side, in this order.
    Join(Vec<u8>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Unary(Func, Box<Expr>),
}

/// What stands at the top of an expression: it decides where a parent
/// needs parentheses around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Top {
    /// A numeral: a card or juxtaposed cards.
    Number,
    /// Function-call notation that brackets itself: `T(x)`, `√x`, `root(x, n)`.
    Call,
    /// A postfix factorial, `x!`.
    Fact,
    /// An infix operator.
    Op(BinOp),
}

impl Top {
    /// Where a parent brackets an expression with this top, as a rank:
    /// each class is bracketed everywhere the classes below it are, and
    /// somewhere more (see [`needs_parens`], [`fact_needs_parens`]). A
    /// numeral or a call, never; a factorial, under `!`; a power, also
    /// under `^`; a product, also under ÷ and on the right of ×; a
    /// quotient, also under ×; a sum or difference, also to the right of a
    /// plus or minus. So of two equally simple witnesses, the one of the
    /// lower class never costs a parent more parentheses.
    pub fn bracket_class(self) -> u8 {
        match self {
            Top::Number | Top::Call => 0,
            Top::Fact => 1,
            Top::Op(BinOp::Pow) => 2,
            Top::Op(BinOp::Mul) => 3,
            Top::Op(BinOp::Div) => 4,
            Top::Op(BinOp::Add | BinOp::Sub) => 5,
            Top::Op(BinOp::Root) => 0,
        }
    }

    pub fn of_binary(op: BinOp) -> Top {
        if op == BinOp::Root {
            Top::Call
        } else {
            Top::Op(op)
        }
    }

    pub fn of_unary(f: Func) -> Top {
        if f == Func::Fact {
            Top::Fact
        } else {
            Top::Call
        }
    }
}

/// Whether `child` needs parentheses as the left or right operand of
/// `parent`. Beyond the usual precedence rules, a product or quotient under
/// ÷ and a quotient under × are always bracketed, so that a player never
/// has to know that × and ÷ go left to right: `(6 × 4) ÷ 8`.
pub fn needs_parens(parent: BinOp, right: bool, child: Top) -> bool {
    use BinOp::*;
    let Top::Op(child) = child else {
        return false;
    };
    match parent {
        Root => false,
        Pow => true,
        Add | Sub => right && matches!(child, Add | Sub),
        Mul => match child {
            Add | Sub | Div => true,
            Mul => right,
            Pow | Root => false,
        },
        Div => !matches!(child, Pow | Root),
    }
}

/// Whether `child` needs parentheses before a factorial sign: `(5 + 3)!`, `(3!)!`.
pub fn fact_needs_parens(child: Top) -> bool {
    matches!(child, Top::Op(_) | Top::Fact)
}

/// How simple an expression is: fewest operations first, then the lightest
/// operations (a weight per operator), then fewest negative intermediate
/// results (players avoid them: `8 + 1 − 7`, not `1 − 7 + 8`), then fewest
/// parentheses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cost {
    pub ops: u8,
    pub weight: u16,
    pub negatives: u8,
    pub parens: u8,
}

impl Ord for Cost {
    fn cmp(&self, other: &Cost) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Cost) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Cost {
    /// The fields in one integer, most significant first: one comparison
    /// orders two costs.
    pub fn key(self) -> u64 {
        u64::from(self.ops) << 40
            | u64::from(self.weight) << 16
            | u64::from(self.negatives) << 8
            | u64::from(self.parens)
    }

    /// A lower bound on the cost of `left op right`: no negatives, no
    /// parentheses of its own. Cheap enough to reject a candidate early.
    pub fn at_least(op: BinOp, left: Cost, right: Cost) -> u64 {
        Self::at_least_keys(op, left.key(), right.key())
    }

    /// [`Cost::at_least`] from the operands' keys.
    pub fn at_least_keys(op: BinOp, left: u64, right: u64) -> u64 {
        left + right + (1u64 << 40) + (u64::from(Self::binary_weight(op)) << 16)
    }

    /// The weight of each operator: + and − are the easiest calls.
    pub fn binary_weight(op: BinOp) -> u16 {
        match op {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
            BinOp::Pow => 3,
            BinOp::Root => 4,
        }
    }

    pub fn unary_weight(f: Func) -> u16 {
        match f {
            Func::Tri => 3,
            Func::Sqrt | Func::Fact => 4,
        }
    }

    /// Juxtaposing `n` cards costs `n - 1` operations of weight 3.
    ///
    /// # Panics
    /// On more than 256 cards (a hand has at most six).
    pub fn join(n: usize) -> Cost {
        let joins = u8::try_from(n.saturating_sub(1)).expect("at most 6 cards");
        Cost {
            ops: joins,
            weight: 3 * u16::from(joins),
            ..Cost::default()
        }
    }

    /// The cost of `left op right`, whose result is negative or not.
    pub fn binary(op: BinOp, left: (Cost, Top), right: (Cost, Top), negative: bool) -> Cost {
        let parens =
            u8::from(needs_parens(op, false, left.1)) + u8::from(needs_parens(op, true, right.1));
        Cost {
            ops: left.0.ops + right.0.ops + 1,
            weight: left.0.weight + right.0.weight + Self::binary_weight(op),
            negatives: left.0.negatives + right.0.negatives + u8::from(negative),
            parens: left.0.parens + right.0.parens + parens,
        }
    }

    pub fn unary(f: Func, arg: (Cost, Top)) -> Cost {
        let parens = u8::from(f == Func::Fact && fact_needs_parens(arg.1));
        Cost {
            ops: arg.0.ops + 1,
            weight: arg.0.weight + Self::unary_weight(f),
            parens: arg.0.parens + parens,
            ..arg.0
        }
    }
}

impl Expr {
    /// The house rules this expression needs beyond + − × ÷.
    pub fn house_rules(&self) -> HouseRules {
        match self {
            Expr::Card(_) => HouseRules::NONE,
            Expr::Join(_) => HouseRules::one(HouseRule::Juxtapose),
            Expr::Binary(op, a, b) => {
                let both = a.house_rules().union(b.house_rules());
                if matches!(op, BinOp::Pow | BinOp::Root) {
                    both.with(HouseRule::Powers)
                } else {
                    both
                }
            }
            Expr::Unary(f, a) => a.house_rules().with(HouseRule::Function(*f)),
        }
    }

    pub fn top(&self) -> Top {
        match self {
            Expr::Card(_) | Expr::Join(_) => Top::Number,
            Expr::Binary(op, ..) => Top::of_binary(*op),
            Expr::Unary(f, _) => Top::of_unary(*f),
        }
    }

    /// The exact value, or why there is none.
    pub fn eval(&self, bound: u64) -> Eval {
        match self {
            Expr::Card(v) => Eval::Exact((*v).into()),
            Expr::Join(cards) => juxtapose(cards, bound),
            Expr::Binary(op, a, b) => match (a.eval(bound), b.eval(bound)) {
                (Eval::Exact(a), Eval::Exact(b)) => op.apply(a, b, bound),
                (Eval::Pruned, _) | (_, Eval::Pruned) => Eval::Pruned,
                _ => Eval::Undefined,
            },
            Expr::Unary(f, a) => match a.eval(bound) {
                Eval::Exact(a) => f.apply(a, bound),
                other => other,
            },
        }
    }

    /// The card values the expression uses, ascending.
    pub fn cards(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.collect_cards(&mut out);
        out.sort_unstable();
        out
    }

    fn collect_cards(&self, out: &mut Vec<u8>) {
        match self {
            Expr::Card(v) => out.push(*v),
            Expr::Join(cards) => out.extend(cards),
            Expr::Binary(_, a, b) => {
                a.collect_cards(out);
                b.collect_cards(out);
            }
            Expr::Unary(_, a) => a.collect_cards(out),
        }
    }

    pub fn cost(&self) -> Cost {
        match self {
            Expr::Card(_) => Cost::default(),
            Expr::Join(cards) => Cost::join(cards.len()),
            Expr::Binary(op, a, b) => {
                let negative = matches!(self.eval(u64::MAX), Eval::Exact(v) if v < 0);
                Cost::binary(*op, (a.cost(), a.top()), (b.cost(), b.top()), negative)
            }
            Expr::Unary(f, a) => Cost::unary(*f, (a.cost(), a.top())),
        }
    }

    /// The expression in `style`: symbols and how many brackets.
    ///
    /// ```
    /// use prime_solve::{BinOp, Expr};
    /// use prime_solve::{Brackets, Style};
    /// let card = |v| Box::new(Expr::Card(v));
    /// let e = Expr::Binary(BinOp::Add, card(10), Box::new(Expr::Binary(BinOp::Div, card(8), card(8))));
    /// assert_eq!(e.render(Style::default()), "10 + 8 ÷ 8");
    /// let full = Style { brackets: Brackets::Full, ..Style::default() };
    /// assert_eq!(e.render(full), "10 + (8 ÷ 8)");
    /// ```
    pub fn render(&self, style: Style) -> String {
        let mut out = String::with_capacity(32);
        self.write(&mut out, style);
        out
    }

    /// The expression in the order people say it (docs/rules.md §5.2), for
    /// rules whose values are bounded by `bound` (`Rules::max_value`): in
    /// a chain of + and −, the added terms first, larger before smaller,
    /// then the subtracted ones, larger first; likewise in a chain of × and
    /// ÷, the factors multiplied before those divided by. Terms of equal
    /// value keep their order. A term under the right of − or ÷ changes
    /// side: `9 − (8 − 5)` is shown `9 + 5 − 8`. Within each term the same
    /// holds, all the way down.
    ///
    /// The value is the same and every division stays exact. A chain whose
    /// order would take some step beyond `bound` is left in the order it
    /// is written (what stands in brackets within it is shown the same way
    /// on its own), so the expression shown is valid wherever `self` is.
    /// Only the display changes: which witness is the simplest, and its
    /// cost, are decided on `self`.
    ///
    /// ```
    /// use prime_solve::{BinOp, Expr, Style};
    /// let card = |v| Box::new(Expr::Card(v));
    /// let bin = |op, a, b| Box::new(Expr::Binary(op, a, b));
    /// let e = bin(BinOp::Add, bin(BinOp::Sub, card(3), card(2)), card(6));
    /// assert_eq!(e.shown(u64::MAX).render(Style::ASCII), "6 + 3 - 2");
    /// // 6 + 3 passes 9: under a bound of 8 the order stays.
    /// assert_eq!(e.shown(8).render(Style::ASCII), "3 - 2 + 6");
    /// let e = bin(BinOp::Add, bin(BinOp::Add, card(2), card(1)), card(2));
    /// assert_eq!(e.shown(u64::MAX).render(Style::ASCII), "2 + 2 + 1");
    /// // 2 − 2 + 9 + 10 said 10 + 9 + 2 − 2 passes 20 at 10 + 9 + 2:
    /// // the whole chain keeps its order, not only its last step.
    /// let e = bin(
    ///     BinOp::Add,
    ///     bin(BinOp::Add, bin(BinOp::Sub, card(2), card(2)), card(9)),
    ///     card(10),
    /// );
    /// assert_eq!(e.shown(20).render(Style::ASCII), "2 - 2 + 9 + 10");
    /// ```
    #[must_use]
    pub fn shown(&self, bound: u64) -> Expr {
        let (up, down) = match self {
            Expr::Card(_) | Expr::Join(_) => return self.clone(),
            Expr::Unary(f, a) => return Expr::Unary(*f, Box::new(a.shown(bound))),
            Expr::Binary(op @ (BinOp::Pow | BinOp::Root), a, b) => {
                return Expr::Binary(*op, Box::new(a.shown(bound)), Box::new(b.shown(bound)));
            }
            Expr::Binary(BinOp::Add | BinOp::Sub, ..) => (BinOp::Add, BinOp::Sub),
            Expr::Binary(BinOp::Mul | BinOp::Div, ..) => (BinOp::Mul, BinOp::Div),
        };
        let as_it_is = || self.kept(bound, up, down);
        let Eval::Exact(value) = self.eval(bound) else {
            return as_it_is();
        };
        let mut terms = Vec::new();
        self.chain_terms(up, down, true, &mut terms);
        let mut shown = Vec::with_capacity(terms.len());
        for (forward, term) in terms {
            let term = term.shown(bound);
            let Eval::Exact(v) = term.eval(bound) else {
                return as_it_is();
            };
            shown.push((forward, v, term));
        }
        // Stable: terms of equal value keep their order.
        shown.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)));
        let mut terms = shown.into_iter();
        let Some((true, _, first)) = terms.next() else {
            return as_it_is();
        };
        let chain = terms.fold(first, |acc, (forward, _, term)| {
            let op = if forward { up } else { down };
            Expr::Binary(op, Box::new(acc), Box::new(term))
        });
        // `eval` under `bound` checks every step of the chain.
        if chain.eval(bound) == Eval::Exact(value) {
            chain
        } else {
            as_it_is()
        }
    }

    fn write(&self, out: &mut String, style: Style) {
        let ascii = style.ascii;
        match self {
            Expr::Card(v) => push_card(out, *v),
            Expr::Join(cards) => {
                for &v in cards {
                    push_card(out, v);
                }
            }
            Expr::Binary(BinOp::Root, x, n) => {
                out.push_str("root(");
                x.write(out, style);
                out.push_str(", ");
                n.write(out, style);
                out.push(')');
            }
            Expr::Binary(op, a, b) => {
                let full =
                    |e: &Expr| style.brackets == Brackets::Full && matches!(e.top(), Top::Op(_));
                a.write_operand(out, style, needs_parens(*op, false, a.top()) || full(a));
                if *op == BinOp::Pow {
                    out.push('^');
                } else {
                    out.push(' ');
                    out.push_str(op.symbol(style));
                    out.push(' ');
                }
                b.write_operand(out, style, needs_parens(*op, true, b.top()) || full(b));
            }
            Expr::Unary(Func::Tri, a) => {
                out.push_str("T(");
                a.write(out, style);
                out.push(')');
            }
            Expr::Unary(Func::Sqrt, a) => {
                let bare = !ascii && a.top() == Top::Number;
                out.push_str(if ascii { "sqrt" } else { "√" });
                a.write_operand(out, style, !bare);
            }
            Expr::Unary(Func::Fact, a) => {
                // `√(8 + 8)!` and `√9!` would read as the root of a factorial:
                // a factorial of a √ is bracketed, `(√(8 + 8))!`. `sqrt(9)!`
                // needs nothing more.
                let radical = !ascii && matches!(**a, Expr::Unary(Func::Sqrt, _));
                a.write_operand(out, style, fact_needs_parens(a.top()) || radical);
                out.push('!');
            }
        }
    }

    /// `self`, a chain of `up` and `down`, in the order it is written:
    /// its left spine as it stands, each right operand (a term, or a
    /// bracketed part of the chain, worked out on its own) shown
    /// ([`Expr::shown`]).
    fn kept(&self, bound: u64, up: BinOp, down: BinOp) -> Expr {
        match self {
            Expr::Binary(op, a, b) if *op == up || *op == down => Expr::Binary(
                *op,
                Box::new(a.kept(bound, up, down)),
                Box::new(b.shown(bound)),
            ),
            _ => self.shown(bound),
        }
    }

    /// The terms of the chain of `up` and `down` (+ and −, or × and ÷) at
    /// the top of `self`, each with whether it is added (multiplied) or
    /// subtracted (divided by), left to right.
    fn chain_terms<'a>(
        &'a self,
        up: BinOp,
        down: BinOp,
        forward: bool,
        out: &mut Vec<(bool, &'a Expr)>,
    ) {
        match self {
            Expr::Binary(op, a, b) if *op == up || *op == down => {
                a.chain_terms(up, down, forward, out);
                b.chain_terms(up, down, forward == (*op == up), out);
            }
            _ => out.push((forward, self)),
        }
    }

    /// The working of the expression, one operation a line, innermost
    /// first, each on the numbers it is done to: `(6 × 4) ÷ 8` is
    /// `6 × 4 = 24`, `24 ÷ 8 = 3`. A lone card has no working. Values are
    /// those of [`Expr::eval`] without a bound; a step that has no value
    /// (an inexact division, say) ends the working with the operation as
    /// written, `= ?`.
    ///
    /// ```
    /// use prime_solve::{BinOp, Expr, Func, Style};
    /// let card = |v| Box::new(Expr::Card(v));
    /// let e = Expr::Binary(BinOp::Div, Box::new(Expr::Binary(BinOp::Mul, card(6), card(4))), card(8));
    /// assert_eq!(e.steps(Style::UNICODE), ["6 × 4 = 24", "24 ÷ 8 = 3"]);
    /// let e = Expr::Binary(BinOp::Sub, card(2), Box::new(Expr::Unary(Func::Tri, card(3))));
    /// assert_eq!(e.steps(Style::ASCII), ["T(3) = 6", "2 - 6 = -4"]);
    /// ```
    pub fn steps(&self, style: Style) -> Vec<String> {
        let mut out = Vec::new();
        self.work(style, &mut out);
        out
    }

    /// Writes the working of `self` into `out` and returns its value.
    fn work(&self, style: Style, out: &mut Vec<String>) -> Option<Value> {
        let minus = if style.ascii { "-" } else { "−" };
        let number = |v: Value| {
            if v < 0 {
                format!("{minus}{}", v.unsigned_abs())
            } else {
                v.to_string()
            }
        };
        // A negative number written as an operand: `5 − (−3)`.
        let operand = |v: Value| {
            if v < 0 {
                format!("({})", number(v))
            } else {
                number(v)
            }
        };
        let (written, value) = match self {
            Expr::Card(v) => return Some((*v).into()),
            Expr::Join(cards) => {
                let shown: Vec<String> = cards.iter().map(u8::to_string).collect();
                (
                    format!("{} side by side", shown.join(" and ")),
                    self.eval(u64::MAX),
                )
            }
            Expr::Binary(op, a, b) => {
                let (x, y) = (a.work(style, out)?, b.work(style, out)?);
                let written = match op {
                    BinOp::Root => format!("root({}, {})", number(x), number(y)),
                    BinOp::Pow => format!("{}^{}", operand(x), operand(y)),
                    _ => format!("{} {} {}", number(x), op.symbol(style), operand(y)),
                };
                (written, op.apply(x, y, u64::MAX))
            }
            Expr::Unary(f, a) => {
                let x = a.work(style, out)?;
                let written = match f {
                    Func::Tri => format!("T({})", number(x)),
                    Func::Fact => format!("{}!", operand(x)),
                    Func::Sqrt if style.ascii => format!("sqrt({})", number(x)),
                    Func::Sqrt => format!("√{}", operand(x)),
                };
                (written, f.apply(x, u64::MAX))
            }
        };
        match value {
            Eval::Exact(v) => {
                out.push(format!("{written} = {}", number(v)));
                Some(v)
            }
            Eval::Undefined | Eval::Pruned => {
                out.push(format!("{written} = ?"));
                None
            }
        }
    }

    fn write_operand(&self, out: &mut String, style: Style, parens: bool) {
        if parens {
            out.push('(');
        }
        self.write(out, style);
        if parens {
            out.push(')');
        }
    }
}

/// A card's value in decimal: a report writes hundreds of thousands of
/// witnesses, and pushing the digits is several times quicker than
/// formatting them.
fn push_card(out: &mut String, v: u8) {
    if v >= 100 {
        out.push(char::from(b'0' + v / 100));
    }
    if v >= 10 {
        out.push(char::from(b'0' + v / 10 % 10));
    }
    out.push(char::from(b'0' + v % 10));
}

#[cfg(test)]
mod tests {
    use super::*;
    use BinOp::*;

    fn card(v: u8) -> Box<Expr> {
        Box::new(Expr::Card(v))
    }
    fn bin(op: BinOp, a: Box<Expr>, b: Box<Expr>) -> Box<Expr> {
        Box::new(Expr::Binary(op, a, b))
    }

    #[test]
    fn cards_are_written_in_decimal() {
        for v in [0, 7, 10, 13, 99, 100, 255] {
            assert_eq!(Expr::Card(v).render(Style::ASCII), v.to_string());
        }
        assert_eq!(Expr::Join(vec![1, 13, 0]).render(Style::ASCII), "1130");
    }

    #[test]
    fn renders_like_a_player() {
        let e = bin(Div, bin(Mul, card(6), card(4)), card(8));
        assert_eq!(e.render(Style::UNICODE), "(6 × 4) ÷ 8");
        assert_eq!(e.render(Style::ASCII), "(6 * 4) / 8");
        let e = bin(Add, bin(Pow, card(2), card(6)), card(3));
        assert_eq!(e.render(Style::UNICODE), "2^6 + 3");
        let e = bin(
            Add,
            card(6),
            Box::new(Expr::Unary(Func::Tri, bin(Add, card(5), card(8)))),
        );
        assert_eq!(e.render(Style::UNICODE), "6 + T(5 + 8)");
        let e = bin(Add, Box::new(Expr::Join(vec![7, 8])), card(5));
        assert_eq!(e.render(Style::UNICODE), "78 + 5");
        let e = bin(Sub, card(5), bin(Sub, card(5), card(5)));
        assert_eq!(e.render(Style::UNICODE), "5 − (5 − 5)");
        let e = bin(Sub, bin(Sub, card(9), card(5)), card(2));
        assert_eq!(e.render(Style::UNICODE), "9 − 5 − 2");
        let e = Expr::Unary(Func::Fact, bin(Add, card(1), card(2)));
        assert_eq!(e.render(Style::UNICODE), "(1 + 2)!");
        let e = Expr::Unary(Func::Sqrt, card(9));
        assert_eq!(
            (e.render(Style::UNICODE), e.render(Style::ASCII)),
            ("√9".into(), "sqrt(9)".into())
        );
        let e = bin(Root, card(8), card(3));
        assert_eq!(e.render(Style::UNICODE), "root(8, 3)");
        let e = bin(Pow, bin(Pow, card(2), card(3)), card(2));
        assert_eq!(e.render(Style::UNICODE), "(2^3)^2");
    }

    #[test]
    fn a_factorial_of_a_root_is_bracketed() {
        let sqrt = |e: Box<Expr>| Box::new(Expr::Unary(Func::Sqrt, e));
        let fact = |e: Box<Expr>| Box::new(Expr::Unary(Func::Fact, e));
        let e = bin(Add, fact(sqrt(bin(Add, card(8), card(8)))), card(7));
        assert_eq!(e.render(Style::UNICODE), "(√(8 + 8))! + 7");
        assert_eq!(e.render(Style::ASCII), "sqrt(8 + 8)! + 7");
        assert_eq!(fact(sqrt(card(9))).render(Style::UNICODE), "(√9)!");
        assert_eq!(sqrt(fact(card(3))).render(Style::UNICODE), "√(3!)");
        assert_eq!(fact(fact(card(3))).render(Style::UNICODE), "(3!)!");
        // The cost, and so the choice of witness, is that of the ASCII form.
        let bracketed = fact(sqrt(card(9))).cost();
        assert_eq!(bracketed.parens, 0);
    }

    #[test]
    fn full_brackets_leave_no_precedence_to_know() {
        let full = Style {
            brackets: Brackets::Full,
            ..Style::default()
        };
        let cases = [
            (
                bin(Add, card(10), bin(Div, card(8), card(8))),
                "10 + 8 ÷ 8",
                "10 + (8 ÷ 8)",
            ),
            (
                bin(Sub, card(8), bin(Mul, card(1), card(1))),
                "8 − 1 × 1",
                "8 − (1 × 1)",
            ),
            (
                bin(Sub, bin(Sub, card(9), card(5)), card(2)),
                "9 − 5 − 2",
                "(9 − 5) − 2",
            ),
            (
                bin(Div, bin(Mul, card(6), card(4)), card(8)),
                "(6 × 4) ÷ 8",
                "(6 × 4) ÷ 8",
            ),
            (
                bin(Add, bin(Pow, card(2), card(6)), card(3)),
                "2^6 + 3",
                "(2^6) + 3",
            ),
            (
                bin(
                    Add,
                    card(6),
                    Box::new(Expr::Unary(Func::Tri, bin(Add, card(5), card(8)))),
                ),
                "6 + T(5 + 8)",
                "6 + T(5 + 8)",
            ),
        ];
        for (e, minimal, bracketed) in cases {
            assert_eq!(e.render(Style::UNICODE), minimal);
            assert_eq!(e.render(full), bracketed);
        }
        let ascii = Style {
            ascii: true,
            ..full
        };
        assert_eq!(
            bin(Add, card(10), bin(Div, card(8), card(8))).render(ascii),
            "10 + (8 / 8)"
        );
    }

    #[test]
    fn cost_counts_operations_then_weight_then_parens() {
        let plain = bin(Sub, bin(Add, card(5), card(5)), card(5));
        let nested = bin(Add, card(5), bin(Sub, card(5), card(5)));
        let times = bin(Div, bin(Mul, card(5), card(5)), card(5));
        assert!(plain.cost() < nested.cost());
        assert!(nested.cost() < times.cost());
        assert_eq!(
            times.cost(),
            Cost {
                ops: 2,
                weight: 4,
                negatives: 0,
                parens: 1
            }
        );
        let below_zero = bin(Add, bin(Sub, card(1), card(7)), card(8));
        let above = bin(Sub, bin(Add, card(8), card(1)), card(7));
        assert!(above.cost() < below_zero.cost());
    }

    #[test]
    fn steps_work_innermost_first() {
        let e = bin(Div, bin(Mul, card(6), card(4)), card(8));
        assert_eq!(e.steps(Style::UNICODE), ["6 × 4 = 24", "24 ÷ 8 = 3"]);
        assert_eq!(e.steps(Style::ASCII), ["6 * 4 = 24", "24 / 8 = 3"]);
        assert!(Expr::Card(7).steps(Style::UNICODE).is_empty());
        let e = bin(Add, Box::new(Expr::Join(vec![7, 8])), card(5));
        assert_eq!(
            e.steps(Style::UNICODE),
            ["7 and 8 side by side = 78", "78 + 5 = 83"]
        );
        let e = bin(Sub, card(5), bin(Sub, card(1), card(9)));
        assert_eq!(e.steps(Style::UNICODE), ["1 − 9 = −8", "5 − (−8) = 13"]);
        let e = bin(Add, bin(Pow, card(2), card(6)), card(3));
        assert_eq!(e.steps(Style::UNICODE), ["2^6 = 64", "64 + 3 = 67"]);
        let e = bin(Add, bin(Root, card(8), card(3)), card(1));
        assert_eq!(e.steps(Style::UNICODE), ["root(8, 3) = 2", "2 + 1 = 3"]);
        let e = Expr::Unary(
            Func::Fact,
            Box::new(Expr::Unary(Func::Sqrt, bin(Add, card(8), card(1)))),
        );
        assert_eq!(e.steps(Style::UNICODE), ["8 + 1 = 9", "√9 = 3", "3! = 6"]);
        assert_eq!(
            e.steps(Style::ASCII),
            ["8 + 1 = 9", "sqrt(9) = 3", "3! = 6"]
        );
        // An expression with no value stops where it breaks.
        let e = bin(Add, bin(Div, card(7), card(2)), card(1));
        assert_eq!(e.steps(Style::UNICODE), ["7 ÷ 2 = ?"]);
        // The last step's value is the expression's.
        let e = bin(
            Sub,
            bin(Mul, card(13), card(12)),
            Box::new(Expr::Unary(Func::Tri, card(11))),
        );
        let last = e.steps(Style::ASCII).pop().unwrap();
        let Eval::Exact(v) = e.eval(u64::MAX) else {
            panic!()
        };
        assert!(last.ends_with(&format!("= {v}")), "{last}");
    }

    #[test]
    fn eval_is_exact() {
        let e = bin(Div, bin(Mul, card(7), card(9)), card(2));
        assert_eq!(e.eval(u64::MAX), Eval::Undefined);
        let e = bin(Div, bin(Mul, card(6), card(4)), card(8));
        assert_eq!(e.eval(u64::MAX), Eval::Exact(3));
        assert_eq!(e.cards(), vec![4, 6, 8]);
    }
}
