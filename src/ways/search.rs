//! The enumeration behind the count: every expression over a hand's cards
//! (each card a position of its own), built sub-hand by sub-hand and kept
//! once per form; at the top only the primes are kept, then grouped by
//! form up to exchanging cards of equal value.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::form::Form;
use super::{Way, WaysError};
use crate::arith::{BinOp, Eval, Func, Value, juxtapose};
use crate::engine::{Budget, Charge};
use crate::expr::{Cost, Expr, Top};
use crate::hand::Hand;
use crate::prime::is_prime;
use crate::rules::Rules;

/// A node of the expressions found, by position of card.
#[derive(Clone, Debug)]
enum Node {
    Card(u8),
    Join(Vec<u8>),
    Bin(BinOp, u32, u32),
    Fun(Func, u32),
}

/// One way to a value over some of the cards, the simplest expression of
/// its form found so far.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: Value,
    form: Form,
    node: u32,
    cost: Cost,
    top: Top,
    /// Functions stacked directly on top.
    stacked: u8,
}

/// Bytes held per entry kept: the entry, its node and its place in a map.
const ENTRY_BYTES: u64 = 128;

/// A candidate at the top of the hand: its value is known, its form, cost
/// and node are worked out only if it is kept.
#[derive(Clone, Copy)]
enum Pending {
    Bin(BinOp, Entry, Entry),
    Join(usize),
    /// A way kept over the whole hand already (a one-card hand).
    Kept(Entry),
}

pub(super) struct Search<'r> {
    rules: &'r Rules,
    hand: Hand,
    /// The card values by position, ascending.
    values: Vec<u8>,
    ops: Vec<BinOp>,
    funcs: Vec<Func>,
    nodes: Vec<Node>,
    /// The ways over each sub-hand, by mask of positions.
    sets: Vec<Vec<Entry>>,
    /// Combinations tried and projected, against the limit.
    work: u64,
    work_limit: u64,
    budget: Arc<Budget>,
    charge: Charge,
    kept: u64,
    /// The primes' raw ways at the top, in the order found.
    top: Vec<Entry>,
    top_index: FxHashMap<Form, usize>,
    joins: Vec<Vec<u8>>,
}

impl<'r> Search<'r> {
    pub(super) fn new(
        rules: &'r Rules,
        hand: Hand,
        budget: Arc<Budget>,
        work_limit: u64,
    ) -> Search<'r> {
        let values = hand.values();
        let mut ops = vec![BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div];
        if rules.powers {
            ops.extend([BinOp::Pow, BinOp::Root]);
        }
        Search {
            rules,
            hand,
            sets: vec![Vec::new(); 1 << values.len()],
            values,
            ops,
            funcs: rules.function_list(),
            nodes: Vec::new(),
            work: 0,
            work_limit,
            budget,
            charge: Charge::default(),
            kept: 0,
            top: Vec::new(),
            top_index: FxHashMap::default(),
            joins: Vec::new(),
        }
    }

    fn bound(&self) -> u64 {
        self.rules.max_value
    }

    /// Every way to each prime the rules allow, simplest first.
    pub(super) fn run(mut self) -> Result<Vec<(Value, Vec<Way>)>, WaysError> {
        let n = self.values.len();
        let full = (1usize << n) - 1;
        let mut masks: Vec<usize> = (1..full).collect();
        masks.sort_by_key(|m| m.count_ones());
        for mask in masks {
            self.build(mask)?;
        }
        self.build_top(full)?;
        // Each prime's way is renamed by every exchange of equal cards:
        // 720 of them for six cards of one value.
        let renamings = exchanges(&self.values).len() as u64;
        self.spend((self.top.len() as u64).saturating_mul(renamings))?;
        Ok(self.group())
    }

    fn spend(&mut self, work: u64) -> Result<(), WaysError> {
        self.work = self.work.saturating_add(work);
        if self.work > self.work_limit {
            return Err(WaysError::TooMuch {
                hand: self.hand,
                limit: self.work_limit,
            });
        }
        Ok(())
    }

    fn keep(&mut self, more: u64) -> Result<(), WaysError> {
        self.kept += more;
        // Charged a chunk ahead, so that the budget is asked before the
        // memory is taken.
        let chunk = 4096 * ENTRY_BYTES;
        let want = (self.kept * ENTRY_BYTES).div_ceil(chunk) * chunk + chunk;
        self.charge.raise_to(&self.budget, want)?;
        Ok(())
    }

    /// The projected combinations of one mask's splits.
    fn projected(&self, mask: usize) -> u64 {
        let mut total = 0u64;
        let mut sub = (mask - 1) & mask;
        while sub > 0 {
            let pairs = self.sets[sub].len() as u64 * self.sets[mask ^ sub].len() as u64;
            total = total.saturating_add(pairs.saturating_mul(self.ops.len() as u64));
            sub = (sub - 1) & mask;
        }
        total
    }

    fn positions(mask: usize) -> Vec<u8> {
        (0..8u8).filter(|i| mask & (1 << i) != 0).collect()
    }

    /// Every juxtaposition of the cards at `mask`, in every order of the
    /// positions (equal cards in both orders: they are told apart as
    /// unknowns and merged at the top).
    fn joins_of(&self, mask: usize) -> Vec<(Vec<u8>, Value)> {
        let mut out = Vec::new();
        let positions = Self::positions(mask);
        if !self.rules.juxtapose || positions.len() < 2 {
            return out;
        }
        permute(&positions, &mut |order| {
            let values: Vec<u8> = order.iter().map(|&p| self.values[usize::from(p)]).collect();
            if let Eval::Exact(v) = juxtapose(&values, self.bound()) {
                out.push((order.to_vec(), v));
            }
        });
        out
    }

    fn leaf_form(&self, order: &[u8]) -> Form {
        let parts: Vec<Form> = order
            .iter()
            .map(|&p| Form::unknown(usize::from(p)))
            .collect();
        Form::join(&parts)
    }

    fn push_node(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        u32::try_from(self.nodes.len() - 1).expect("nodes are bounded by the work limit")
    }

    /// The ways over the cards at `mask` (not the whole hand).
    fn build(&mut self, mask: usize) -> Result<(), WaysError> {
        let mut set: Vec<Entry> = Vec::new();
        let mut index: FxHashMap<(Form, u8), usize> = FxHashMap::default();
        let mut offer = |set: &mut Vec<Entry>, e: Entry, node: Node, nodes: &mut Vec<Node>| {
            let at = *index.entry((e.form, e.stacked)).or_insert(set.len());
            if at == set.len() || e.cost < set[at].cost {
                nodes.push(node);
                let node = u32::try_from(nodes.len() - 1).expect("bounded by the work limit");
                let e = Entry { node, ..e };
                if at == set.len() {
                    set.push(e);
                } else {
                    set[at] = e;
                }
            }
        };
        let mut nodes = std::mem::take(&mut self.nodes);
        if mask.is_power_of_two() {
            let p = u8::try_from(mask.trailing_zeros()).expect("at most six cards");
            let e = Entry {
                value: self.values[usize::from(p)].into(),
                form: Form::unknown(usize::from(p)),
                node: 0,
                cost: Cost::default(),
                top: Top::Number,
                stacked: 0,
            };
            offer(&mut set, e, Node::Card(p), &mut nodes);
        } else {
            let projected = self.projected(mask);
            self.spend(projected)?;
            for (order, value) in self.joins_of(mask) {
                let e = Entry {
                    value,
                    form: self.leaf_form(&order),
                    node: 0,
                    cost: Cost::join(order.len()),
                    top: Top::Number,
                    stacked: 0,
                };
                offer(&mut set, e, Node::Join(order), &mut nodes);
            }
            let mut sub = (mask - 1) & mask;
            while sub > 0 {
                let (left, right) = (&self.sets[sub], &self.sets[mask ^ sub]);
                for l in left {
                    for r in right {
                        for &op in &self.ops {
                            if let Eval::Exact(value) = op.apply(l.value, r.value, self.bound()) {
                                let e = Entry {
                                    value,
                                    form: Form::binary(op, l.form, r.form),
                                    node: 0,
                                    cost: Cost::binary(
                                        op,
                                        (l.cost, l.top),
                                        (r.cost, r.top),
                                        value < 0,
                                    ),
                                    top: Top::of_binary(op),
                                    stacked: 0,
                                };
                                offer(&mut set, e, Node::Bin(op, l.node, r.node), &mut nodes);
                            }
                        }
                    }
                }
                sub = (sub - 1) & mask;
            }
        }
        // Functions on top, up to the depth, layer by layer.
        let mut layer = 0..set.len();
        for _ in 0..self.rules.function_depth {
            if self.funcs.is_empty() {
                break;
            }
            let start = set.len();
            self.spend((layer.len() * self.funcs.len()) as u64)?;
            for i in layer.clone() {
                let a = set[i];
                for &f in &self.funcs {
                    if let Eval::Exact(value) = f.apply(a.value, self.bound()) {
                        let e = Entry {
                            value,
                            form: Form::unary(f, a.form),
                            node: 0,
                            cost: Cost::unary(f, (a.cost, a.top)),
                            top: Top::of_unary(f),
                            stacked: a.stacked + 1,
                        };
                        offer(&mut set, e, Node::Fun(f, a.node), &mut nodes);
                    }
                }
            }
            layer = start..set.len();
        }
        self.nodes = nodes;
        self.keep(set.len() as u64)?;
        self.sets[mask] = set;
        Ok(())
    }

    /// The whole hand: every candidate is made and dropped at once unless
    /// it is a prime the rules allow (or functions could make it one).
    fn build_top(&mut self, full: usize) -> Result<(), WaysError> {
        let chains: u64 = (0..=u32::from(self.rules.function_depth))
            .map(|d| (self.funcs.len() as u64).pow(d))
            .sum();
        let projected = self.projected(full).saturating_mul(chains);
        self.spend(projected)?;
        let mut chain = Vec::new();
        if self.values.len() == 1 {
            self.build(full)?;
            for e in self.sets[full].clone() {
                self.consider(e.value, e.stacked, Pending::Kept(e), &mut chain)?;
            }
            return Ok(());
        }
        for (order, value) in self.joins_of(full) {
            self.joins.push(order);
            self.consider(value, 0, Pending::Join(self.joins.len() - 1), &mut chain)?;
        }
        let bound = self.bound();
        let mut sub = (full - 1) & full;
        while sub > 0 {
            let (ls, rs) = (sub, full ^ sub);
            for li in 0..self.sets[ls].len() {
                for ri in 0..self.sets[rs].len() {
                    let (l, r) = (self.sets[ls][li], self.sets[rs][ri]);
                    for oi in 0..self.ops.len() {
                        let op = self.ops[oi];
                        if let Eval::Exact(value) = op.apply(l.value, r.value, bound) {
                            self.consider(value, 0, Pending::Bin(op, l, r), &mut chain)?;
                        }
                    }
                }
            }
            sub = (sub - 1) & full;
        }
        Ok(())
    }

    /// Keeps a candidate at the top if it is a prime the rules allow, and
    /// goes on with the functions that may be stacked on it.
    fn consider(
        &mut self,
        value: Value,
        stacked: u8,
        pending: Pending,
        chain: &mut Vec<Func>,
    ) -> Result<(), WaysError> {
        if value >= 2 && self.rules.allows_prime(value) && is_prime(value) {
            self.record(value, pending, chain)?;
        }
        if stacked < self.rules.function_depth {
            for fi in 0..self.funcs.len() {
                let f = self.funcs[fi];
                if let Eval::Exact(next) = f.apply(value, self.bound()) {
                    chain.push(f);
                    let done = self.consider(next, stacked + 1, pending, chain);
                    chain.pop();
                    done?;
                }
            }
        }
        Ok(())
    }

    /// The candidate's form and cost, and its node once it is kept.
    fn record(&mut self, value: Value, pending: Pending, chain: &[Func]) -> Result<(), WaysError> {
        let mut e = match pending {
            Pending::Bin(op, l, r) => Entry {
                value,
                form: Form::binary(op, l.form, r.form),
                node: 0,
                cost: Cost::binary(op, (l.cost, l.top), (r.cost, r.top), value < 0),
                top: Top::of_binary(op),
                stacked: 0,
            },
            Pending::Join(j) => Entry {
                value,
                form: self.leaf_form(&self.joins[j]),
                node: 0,
                cost: Cost::join(self.joins[j].len()),
                top: Top::Number,
                stacked: 0,
            },
            Pending::Kept(e) => e,
        };
        for &f in chain {
            e = Entry {
                form: Form::unary(f, e.form),
                cost: Cost::unary(f, (e.cost, e.top)),
                top: Top::of_unary(f),
                ..e
            };
        }
        e.value = value;
        let at = self.top_index.get(&e.form).copied();
        if at.is_some_and(|i| self.top[i].cost <= e.cost) {
            return Ok(());
        }
        let mut node = match pending {
            Pending::Bin(op, l, r) => self.push_node(Node::Bin(op, l.node, r.node)),
            Pending::Kept(e) => e.node,
            Pending::Join(j) => {
                let order = self.joins[j].clone();
                self.push_node(Node::Join(order))
            }
        };
        // The chain was pushed innermost first.
        for &f in chain {
            node = self.push_node(Node::Fun(f, node));
        }
        let e = Entry { node, ..e };
        match at {
            Some(i) => self.top[i] = e,
            None => {
                self.keep(1)?;
                self.top_index.insert(e.form, self.top.len());
                self.top.push(e);
            }
        }
        Ok(())
    }

    /// The top's raw ways grouped by form up to exchanging equal cards,
    /// each group's simplest expression first found as its example.
    fn group(&self) -> Vec<(Value, Vec<Way>)> {
        let exchanges = exchanges(&self.values);
        let mut by_prime: std::collections::BTreeMap<Value, Vec<(usize, Way)>> =
            std::collections::BTreeMap::new();
        let mut seen: FxHashMap<Form, (Value, usize)> = FxHashMap::default();
        for (i, e) in self.top.iter().enumerate() {
            let form = exchanges
                .iter()
                .map(|perm| self.form_under(e.node, perm))
                .min()
                .unwrap_or(e.form);
            let ways = by_prime.entry(e.value).or_default();
            match seen.get(&form) {
                Some(&(_, at)) => {
                    if e.cost < ways[at].1.cost {
                        ways[at] = (i, self.way(e, form));
                    }
                }
                None => {
                    seen.insert(form, (e.value, ways.len()));
                    ways.push((i, self.way(e, form)));
                }
            }
        }
        by_prime
            .into_iter()
            .map(|(p, mut ways)| {
                ways.sort_by_key(|(i, w)| (w.cost, *i));
                (p, ways.into_iter().map(|(_, w)| w).collect())
            })
            .collect()
    }

    fn way(&self, e: &Entry, form: Form) -> Way {
        Way {
            expr: self.expr(e.node),
            cost: e.cost,
            form,
        }
    }

    fn expr(&self, node: u32) -> Expr {
        let value = |p: u8| self.values[usize::from(p)];
        match &self.nodes[node as usize] {
            Node::Card(p) => Expr::Card(value(*p)),
            Node::Join(order) => Expr::Join(order.iter().map(|&p| value(p)).collect()),
            Node::Bin(op, l, r) => {
                Expr::Binary(*op, Box::new(self.expr(*l)), Box::new(self.expr(*r)))
            }
            Node::Fun(f, a) => Expr::Unary(*f, Box::new(self.expr(*a))),
        }
    }

    /// The form of a node with the unknowns renamed by `perm`.
    fn form_under(&self, node: u32, perm: &[u8]) -> Form {
        let unknown = |p: u8| Form::unknown(usize::from(perm[usize::from(p)]));
        match &self.nodes[node as usize] {
            Node::Card(p) => unknown(*p),
            Node::Join(order) => Form::join(&order.iter().map(|&p| unknown(p)).collect::<Vec<_>>()),
            Node::Bin(op, l, r) => {
                Form::binary(*op, self.form_under(*l, perm), self.form_under(*r, perm))
            }
            Node::Fun(f, a) => Form::unary(*f, self.form_under(*a, perm)),
        }
    }
}

/// Every renaming of positions that sends each card to one of equal value
/// (the identity among them); `values` ascending.
pub(super) fn exchanges(values: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    let mut start = 0;
    while start < values.len() {
        let end = (start..values.len())
            .find(|&i| values[i] != values[start])
            .unwrap_or(values.len());
        let run: Vec<u8> = (start..end)
            .map(|i| u8::try_from(i).expect("at most six"))
            .collect();
        let mut orders = Vec::new();
        permute(&run, &mut |o| orders.push(o.to_vec()));
        out = out
            .into_iter()
            .flat_map(|prefix| {
                orders.iter().map(move |o| {
                    let mut p = prefix.clone();
                    p.extend(o);
                    p
                })
            })
            .collect();
        start = end;
    }
    out
}

/// Calls `f` with every order of `items` (Heap's algorithm would do; this
/// is plain recursion over at most six items).
fn permute(items: &[u8], f: &mut impl FnMut(&[u8])) {
    fn go(items: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
        if k == items.len() {
            f(items);
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            go(items, k + 1, f);
            items.swap(k, i);
        }
    }
    go(&mut items.to_vec(), 0, f);
}
