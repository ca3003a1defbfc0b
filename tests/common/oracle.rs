//! The naive oracle: builds every expression tree over a hand explicitly,
//! evaluates each with its own arithmetic, prices each with its own cost
//! function (the "simplest witness" order of docs/rules.md §5.1), and
//! prints each with its own reading of the parenthesis rules of
//! docs/rules.md §5.2. It shares no code with the engine but the rule
//! types.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use prime_solve::Rules;

/// An expression tree, built explicitly. Operators are `+ - * / ^` and `r`
/// for `root(x, n)`; functions are `tri`, `sqrt` and `fact`.
#[derive(Debug)]
pub enum Tree {
    Card(u8),
    Join(Vec<u8>),
    Bin(char, Rc<Tree>, Rc<Tree>),
    Fun(&'static str, Rc<Tree>),
}

/// How simple a tree is, by the order of docs/rules.md §5.1: the fields
/// compare in this order (the derived `Ord` is lexicographic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cost {
    /// Binary operators, joins of juxtaposed cards, functions.
    pub ops: u32,
    /// + − 1, × ÷ 2, ^ 3, root 4, each join 3, T 3, √ and ! 4.
    pub weight: u32,
    /// Intermediate (and final) results below zero.
    pub negatives: u32,
    /// Pairs of parentheses as printed, not counting the brackets of
    /// `root(x, n)`, `T(x)` and `√x`, which bracket themselves.
    pub parens: u32,
}

const LIMIT: i128 = u64::MAX as i128;

fn ok(v: i128, bound: i128) -> Option<i128> {
    (v.abs() <= bound).then_some(v)
}

pub fn apply(op: char, a: i128, b: i128, bound: i128) -> Option<i128> {
    match op {
        '+' => ok(a + b, bound),
        '-' => ok(a - b, bound),
        '*' => ok(a.checked_mul(b)?, bound),
        '/' => (b != 0 && a % b == 0).then(|| a / b),
        '^' => {
            if b < 0 || (a == 0 && b == 0) {
                return None;
            }
            match a {
                _ if b == 0 => Some(1),
                0 | 1 => Some(a),
                -1 => Some(if b % 2 == 1 { -1 } else { 1 }),
                _ => {
                    let mut acc: i128 = 1;
                    for _ in 0..b {
                        acc = acc.checked_mul(a)?;
                        if acc.abs() > bound {
                            return None;
                        }
                    }
                    Some(acc)
                }
            }
        }
        'r' => (b >= 2 && a >= 0).then(|| exact_root(a, b)).flatten(),
        _ => unreachable!(),
    }
}

fn function(f: &str, n: i128, bound: i128) -> Option<i128> {
    if n < 0 {
        return None;
    }
    match f {
        "tri" => ok(n.checked_mul(n + 1)? / 2, bound),
        "fact" => {
            let mut acc: i128 = 1;
            for k in 2..=n {
                acc = acc.checked_mul(k)?;
                if acc > bound {
                    return None;
                }
            }
            Some(acc)
        }
        "sqrt" => exact_root(n, 2),
        _ => unreachable!(),
    }
}

/// r^b compared with a, for r >= 0, b >= 2, a >= 0, stopping once past a.
fn pow_cmp(r: i128, b: i128, a: i128) -> std::cmp::Ordering {
    if r <= 1 {
        return r.cmp(&a);
    }
    let mut acc: i128 = 1;
    for _ in 0..b {
        acc *= r;
        if acc > a {
            return std::cmp::Ordering::Greater;
        }
    }
    acc.cmp(&a)
}

/// The exact b-th root of a, by bisection.
fn exact_root(a: i128, b: i128) -> Option<i128> {
    let (mut lo, mut hi) = (0i128, 1i128 << 33);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if pow_cmp(mid, b, a).is_le() {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    pow_cmp(lo, b, a).is_eq().then_some(lo)
}

fn join(cards: &[u8], bound: i128) -> Option<i128> {
    let text: String = cards.iter().map(u8::to_string).collect();
    ok(text.parse::<i128>().ok()?, bound)
}

/// The infix operator at the top of `t`, if any: `root(x, n)`, functions
/// and numerals are not infix.
fn infix(t: &Tree) -> Option<char> {
    match t {
        Tree::Bin(op, ..) if *op != 'r' => Some(*op),
        _ => None,
    }
}

fn precedence(op: char) -> u8 {
    match op {
        '+' | '-' => 1,
        '*' | '/' => 2,
        '^' => 3,
        _ => unreachable!(),
    }
}

/// Whether `child` is bracketed as the left or right operand of `parent`:
/// the fewest parentheses that keep the tree when read with the usual
/// precedence and + − × ÷ grouping left to right, except that a product or
/// quotient inside a division and a quotient inside a product are always
/// bracketed, and any compound operand of `^` is.
fn bracketed(parent: char, right: bool, child: &Tree) -> bool {
    let Some(c) = infix(child) else {
        return false;
    };
    match parent {
        'r' => false,
        '^' => true,
        '/' if matches!(c, '*' | '/') => true,
        '*' if c == '/' => true,
        _ => {
            let (pc, pp) = (precedence(c), precedence(parent));
            pc < pp || (pc == pp && right)
        }
    }
}

/// Whether the argument of a factorial is bracketed: `(5 + 3)!`, and
/// `(3!)!` (`3!!` would read as a double factorial).
fn bracketed_before_bang(child: &Tree) -> bool {
    infix(child).is_some() || matches!(child, Tree::Fun("fact", _))
}

fn binary_weight(op: char) -> u32 {
    match op {
        '+' | '-' => 1,
        '*' | '/' => 2,
        '^' => 3,
        'r' => 4,
        _ => unreachable!(),
    }
}

fn function_weight(f: &str) -> u32 {
    match f {
        "tri" => 3,
        "sqrt" | "fact" => 4,
        _ => unreachable!(),
    }
}

fn join_cost(n: usize) -> Cost {
    let joins = n as u32 - 1;
    Cost {
        ops: joins,
        weight: 3 * joins,
        ..Cost::default()
    }
}

/// The cost of `l op r`, whose value is `v`.
fn binary_cost(op: char, (lt, lc): (&Tree, Cost), (rt, rc): (&Tree, Cost), v: i128) -> Cost {
    Cost {
        ops: lc.ops + rc.ops + 1,
        weight: lc.weight + rc.weight + binary_weight(op),
        negatives: lc.negatives + rc.negatives + u32::from(v < 0),
        parens: lc.parens
            + rc.parens
            + u32::from(bracketed(op, false, lt))
            + u32::from(bracketed(op, true, rt)),
    }
}

fn function_cost(f: &'static str, (t, c): (&Tree, Cost)) -> Cost {
    Cost {
        ops: c.ops + 1,
        weight: c.weight + function_weight(f),
        negatives: c.negatives,
        parens: c.parens + u32::from(f == "fact" && bracketed_before_bang(t)),
    }
}

impl Tree {
    /// The value and the cost, or `None` if some step is undefined or
    /// beyond `bound`.
    pub fn measure(&self, bound: i128) -> Option<(i128, Cost)> {
        match self {
            Tree::Card(v) => Some((i128::from(*v), Cost::default())),
            Tree::Join(cards) => Some((join(cards, bound)?, join_cost(cards.len()))),
            Tree::Bin(op, l, r) => {
                let ((lv, lc), (rv, rc)) = (l.measure(bound)?, r.measure(bound)?);
                let v = apply(*op, lv, rv, bound)?;
                Some((v, binary_cost(*op, (l, lc), (r, rc), v)))
            }
            Tree::Fun(f, a) => {
                let (av, ac) = a.measure(bound)?;
                Some((function(f, av, bound)?, function_cost(f, (a, ac))))
            }
        }
    }

    /// The tree in the order docs/rules.md §5.2 shows it under `bound`:
    /// each run of `+ -` (or of `* /`) read as signed terms, the added
    /// (multiplied) ones first by value downwards, then the subtracted
    /// (divided by) ones by value downwards, ties in their order, each
    /// term shown the same way; a run whose new order takes a step beyond
    /// `bound` keeps the order it is written in, each right operand (a
    /// term, or a bracketed part of the run) said on its own.
    pub fn said(&self, bound: i128) -> Tree {
        let (op, l, r) = match self {
            Tree::Card(v) => return Tree::Card(*v),
            Tree::Join(cards) => return Tree::Join(cards.clone()),
            Tree::Fun(f, a) => return Tree::Fun(f, Rc::new(a.said(bound))),
            Tree::Bin(op, l, r) => (*op, l, r),
        };
        let (up, down) = match op {
            '+' | '-' => ('+', '-'),
            '*' | '/' => ('*', '/'),
            _ => return Tree::Bin(op, Rc::new(l.said(bound)), Rc::new(r.said(bound))),
        };
        // The run as it is written: its left spine as it stands, what
        // hangs on the right of each step said on its own.
        fn keep(t: &Tree, up: char, down: char, bound: i128) -> Tree {
            match t {
                Tree::Bin(o, a, b) if *o == up || *o == down => Tree::Bin(
                    *o,
                    Rc::new(keep(a, up, down, bound)),
                    Rc::new(b.said(bound)),
                ),
                _ => t.said(bound),
            }
        }
        let kept = || keep(self, up, down, bound);
        // Walk the run left to right with a stack, sign by sign.
        let (mut ups, mut downs): (Vec<&Tree>, Vec<&Tree>) = (Vec::new(), Vec::new());
        let mut stack: Vec<(bool, &Tree)> = vec![(true, self)];
        while let Some((plus, t)) = stack.pop() {
            match t {
                Tree::Bin(o, a, b) if *o == up || *o == down => {
                    stack.push((if *o == up { plus } else { !plus }, b));
                    stack.push((plus, a));
                }
                _ if plus => ups.push(t),
                _ => downs.push(t),
            }
        }
        let valued = |terms: Vec<&Tree>| -> Option<Vec<(i128, Tree)>> {
            let mut out = Vec::new();
            for t in terms {
                let t = t.said(bound);
                out.push((t.measure(bound)?.0, t));
            }
            // `sort_by_key` is stable: equal values keep their order.
            out.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
            Some(out)
        };
        let (Some(ups), Some(downs)) = (valued(ups), valued(downs)) else {
            return kept();
        };
        let mut run: Option<Tree> = None;
        for (o, (_, t)) in ups
            .into_iter()
            .map(|x| (up, x))
            .chain(downs.into_iter().map(|x| (down, x)))
        {
            run = Some(match run {
                None => t,
                Some(acc) => Tree::Bin(o, Rc::new(acc), Rc::new(t)),
            });
        }
        let run = run.expect("a run has a first term");
        let want = self.measure(bound).map(|(v, _)| v);
        if want.is_some() && run.measure(bound).map(|(v, _)| v) == want {
            run
        } else {
            kept()
        }
    }

    /// The card values used, ascending.
    pub fn cards(&self) -> Vec<u8> {
        fn go(t: &Tree, out: &mut Vec<u8>) {
            match t {
                Tree::Card(v) => out.push(*v),
                Tree::Join(cards) => out.extend(cards),
                Tree::Bin(_, l, r) => {
                    go(l, out);
                    go(r, out);
                }
                Tree::Fun(_, a) => go(a, out),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out.sort_unstable();
        out
    }

    /// The tree as docs/rules.md §5.2 prints it; `ascii` writes `- * / sqrt(x)`
    /// for `− × ÷ √x`.
    pub fn print(&self, ascii: bool) -> String {
        fn operand(t: &Tree, ascii: bool, brackets: bool) -> String {
            if brackets {
                format!("({})", t.print(ascii))
            } else {
                t.print(ascii)
            }
        }
        match self {
            Tree::Card(v) => v.to_string(),
            Tree::Join(cards) => cards.iter().map(u8::to_string).collect(),
            Tree::Bin('r', x, n) => format!("root({}, {})", x.print(ascii), n.print(ascii)),
            Tree::Bin(op, l, r) => {
                let sign = match (op, ascii) {
                    ('^', _) => "^",
                    ('+', _) => " + ",
                    ('-', true) => " - ",
                    ('-', false) => " − ",
                    ('*', true) => " * ",
                    ('*', false) => " × ",
                    ('/', true) => " / ",
                    ('/', false) => " ÷ ",
                    _ => unreachable!(),
                };
                format!(
                    "{}{sign}{}",
                    operand(l, ascii, bracketed(*op, false, l)),
                    operand(r, ascii, bracketed(*op, true, r))
                )
            }
            Tree::Fun("tri", a) => format!("T({})", a.print(ascii)),
            Tree::Fun("sqrt", a) if ascii => format!("sqrt({})", a.print(ascii)),
            Tree::Fun("sqrt", a) => {
                let bare = matches!(**a, Tree::Card(_) | Tree::Join(_));
                format!("√{}", operand(a, ascii, !bare))
            }
            Tree::Fun(_, a) => format!("{}!", operand(a, ascii, bracketed_before_bang(a))),
        }
    }

    /// Calls that bracket themselves: `root(x, n)`, `T(x)`, `sqrt(x)`
    /// (each opens one parenthesis in ASCII printing).
    pub fn calls(&self) -> u32 {
        match self {
            Tree::Card(_) | Tree::Join(_) => 0,
            Tree::Bin(op, l, r) => u32::from(*op == 'r') + l.calls() + r.calls(),
            Tree::Fun(f, a) => u32::from(*f != "fact") + a.calls(),
        }
    }
}

/// Every permutation of `items` (with repeats when items repeat).
fn permutations(items: &[u8]) -> Vec<Vec<u8>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Every tree over some of the cards, each with its value and cost.
type Trees = Rc<Vec<(Rc<Tree>, i128, Cost)>>;

pub struct Oracle {
    ops: Vec<char>,
    functions: Vec<&'static str>,
    depth: u8,
    juxtapose: bool,
    bound: i128,
}

impl Oracle {
    pub fn new(rules: &Rules) -> Oracle {
        let mut ops = vec!['+', '-', '*', '/'];
        if rules.powers {
            ops.extend(['^', 'r']);
        }
        Oracle {
            ops,
            functions: rules.functions.iter().map(|f| f.name()).collect(),
            depth: rules.function_depth,
            juxtapose: rules.juxtapose,
            bound: (rules.max_value as i128).min(LIMIT),
        }
    }

    /// The bound on every intermediate value.
    pub fn bound(&self) -> i128 {
        self.bound
    }

    /// Every tree over the cards at the positions in `mask`, with its value
    /// and cost.
    fn trees(&self, cards: &[u8], mask: usize, memo: &mut Vec<Option<Trees>>) -> Trees {
        if let Some(done) = &memo[mask] {
            return done.clone();
        }
        let chosen: Vec<u8> = (0..cards.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| cards[i])
            .collect();
        let mut plain: Vec<(Rc<Tree>, i128, Cost)> = Vec::new();
        if chosen.len() == 1 {
            plain.push((
                Rc::new(Tree::Card(chosen[0])),
                chosen[0].into(),
                Cost::default(),
            ));
        } else {
            if self.juxtapose {
                for p in permutations(&chosen) {
                    if let Some(v) = join(&p, self.bound) {
                        let cost = join_cost(p.len());
                        plain.push((Rc::new(Tree::Join(p)), v, cost));
                    }
                }
            }
            let mut sub = (mask - 1) & mask;
            while sub > 0 {
                let rest = mask ^ sub;
                let left = self.trees(cards, sub, memo);
                let right = self.trees(cards, rest, memo);
                for (lt, lv, lc) in left.iter() {
                    for (rt, rv, rc) in right.iter() {
                        for &op in &self.ops {
                            if let Some(v) = apply(op, *lv, *rv, self.bound) {
                                let cost = binary_cost(op, (lt, *lc), (rt, *rc), v);
                                plain.push((
                                    Rc::new(Tree::Bin(op, lt.clone(), rt.clone())),
                                    v,
                                    cost,
                                ));
                            }
                        }
                    }
                }
                sub = (sub - 1) & mask;
            }
        }
        // Wrap each tree in up to `depth` nested functions.
        let mut all = plain.clone();
        let mut layer = plain;
        for _ in 0..self.depth {
            if self.functions.is_empty() {
                break;
            }
            let mut next = Vec::new();
            for (t, v, c) in &layer {
                for &f in &self.functions {
                    if let Some(w) = function(f, *v, self.bound) {
                        let cost = function_cost(f, (t, *c));
                        next.push((Rc::new(Tree::Fun(f, t.clone())), w, cost));
                    }
                }
            }
            all.extend(next.iter().cloned());
            layer = next;
        }
        let all = Rc::new(all);
        memo[mask] = Some(all.clone());
        all
    }

    /// Every value some tree over all the cards reaches, with the least
    /// cost of a tree that makes it and the first such tree.
    pub fn simplest(&self, cards: &[u8]) -> BTreeMap<i128, (Cost, Rc<Tree>)> {
        let mut memo = vec![None; 1 << cards.len()];
        let full = (1 << cards.len()) - 1;
        let mut out: BTreeMap<i128, (Cost, Rc<Tree>)> = BTreeMap::new();
        for (t, v, c) in self.trees(cards, full, &mut memo).iter() {
            let best = out.entry(*v).or_insert((*c, t.clone()));
            if *c < best.0 {
                *best = (*c, t.clone());
            }
        }
        out
    }

    /// Every value some tree over all the cards reaches.
    pub fn values(&self, cards: &[u8]) -> BTreeSet<i128> {
        self.simplest(cards).into_keys().collect()
    }
}

pub fn is_prime_naive(v: i128) -> bool {
    v >= 2 && (2..).take_while(|d| d * d <= v).all(|d| v % d != 0)
}

/// Deterministic Miller-Rabin for every `n < 2^64`: the first twelve primes
/// as bases suffice (Jaeschke; Sorenson and Webster). Written here so that
/// the oracle does not share `primal` with the engine.
pub fn is_prime_miller_rabin(n: i128) -> bool {
    if n < 2 {
        return false;
    }
    let n = u64::try_from(n).expect("below 2^64");
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in BASES {
        if n % p == 0 {
            return n == p;
        }
    }
    let mul = |a: u64, b: u64| (u128::from(a) * u128::from(b) % u128::from(n)) as u64;
    let pow = |mut b: u64, mut e: u64| {
        let mut acc = 1u64;
        while e > 0 {
            if e & 1 == 1 {
                acc = mul(acc, b);
            }
            b = mul(b, b);
            e >>= 1;
        }
        acc
    };
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    BASES.iter().all(|&a| {
        let mut x = pow(a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = mul(x, x);
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}

/// Trial division where it is cheap, the Miller-Rabin above (tested
/// against trial division in `tests/oracle.rs`).
pub fn is_prime_oracle(v: i128) -> bool {
    if v < 1_000_000 {
        is_prime_naive(v)
    } else {
        is_prime_miller_rabin(v)
    }
}
