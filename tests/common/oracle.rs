//! The naive oracle: builds every expression tree over a hand explicitly,
//! evaluates each with its own arithmetic, and collects the values. It
//! shares no code with the engine but the rule types.

use std::collections::BTreeSet;
use std::rc::Rc;

use prime_solve::Rules;

/// An expression tree, built explicitly.
#[derive(Debug)]
pub enum Tree {
    Card(u8),
    Join(Vec<u8>),
    Bin(char, Rc<Tree>, Rc<Tree>),
    Fun(&'static str, Rc<Tree>),
}

const LIMIT: i128 = u64::MAX as i128;

fn ok(v: i128, bound: i128) -> Option<i128> {
    (v.abs() <= bound).then_some(v)
}

fn apply(op: char, a: i128, b: i128, bound: i128) -> Option<i128> {
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

/// Every tree over some of the cards, each with its value.
type Trees = Rc<Vec<(Rc<Tree>, i128)>>;

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

    /// Every tree over the cards at the positions in `mask`, with its value.
    fn trees(&self, cards: &[u8], mask: usize, memo: &mut Vec<Option<Trees>>) -> Trees {
        if let Some(done) = &memo[mask] {
            return done.clone();
        }
        let chosen: Vec<u8> = (0..cards.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| cards[i])
            .collect();
        let mut plain: Vec<(Rc<Tree>, i128)> = Vec::new();
        if chosen.len() == 1 {
            plain.push((Rc::new(Tree::Card(chosen[0])), chosen[0].into()));
        } else {
            if self.juxtapose {
                for p in permutations(&chosen) {
                    if let Some(v) = join(&p, self.bound) {
                        plain.push((Rc::new(Tree::Join(p)), v));
                    }
                }
            }
            let mut sub = (mask - 1) & mask;
            while sub > 0 {
                let rest = mask ^ sub;
                let left = self.trees(cards, sub, memo);
                let right = self.trees(cards, rest, memo);
                for (lt, lv) in left.iter() {
                    for (rt, rv) in right.iter() {
                        for &op in &self.ops {
                            if let Some(v) = apply(op, *lv, *rv, self.bound) {
                                plain.push((Rc::new(Tree::Bin(op, lt.clone(), rt.clone())), v));
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
            for (t, v) in &layer {
                for &f in &self.functions {
                    if let Some(w) = function(f, *v, self.bound) {
                        next.push((Rc::new(Tree::Fun(f, t.clone())), w));
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

    /// Every value some tree over all the cards reaches.
    pub fn values(&self, cards: &[u8]) -> BTreeSet<i128> {
        let mut memo = vec![None; 1 << cards.len()];
        let full = (1 << cards.len()) - 1;
        self.trees(cards, full, &mut memo)
            .iter()
            .map(|(_, v)| *v)
            .collect()
    }
}

pub fn is_prime_naive(v: i128) -> bool {
    v >= 2 && (2..).take_while(|d| d * d <= v).all(|d| v % d != 0)
}
