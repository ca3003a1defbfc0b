//! A set of 64-bit values in one flat open-addressing table: a probe
//! reads one cache line, where a general hash map reads a control byte
//! and a key in two places. The value-only path keeps the distinct values
//! outside its bitmap here (tens of millions of them for six cards under
//! functions). The prime scan's set with flags (`Seen`) lays its table
//! out the same way ([`lay_out`]).

use std::sync::Arc;

use super::SolveError;
use super::budget::{Budget, Charge};

/// An empty slot. `i64::MIN` itself is held in a flag instead.
pub(super) const EMPTY: i64 = i64::MIN;

/// The smallest table allocated.
const MIN_SLOTS: usize = 1024;

/// Multiplicative hashing: the top bits of the product.
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// Distinct `i64` values, their table charged to a budget before it is
/// allocated; at most three quarters full.
pub(super) struct FlatSet {
    /// The values, or [`EMPTY`]; a power of two long, or empty.
    slots: Vec<i64>,
    /// Values in `slots`.
    len: usize,
    /// Whether `i64::MIN` is in the set.
    has_min: bool,
    charge: Charge,
    budget: Arc<Budget>,
}

impl FlatSet {
    /// An empty set, which allocates nothing until a value comes.
    pub fn new(budget: &Arc<Budget>) -> FlatSet {
        FlatSet {
            slots: Vec::new(),
            len: 0,
            has_min: false,
            charge: Charge::default(),
            budget: Arc::clone(budget),
        }
    }

    pub fn len(&self) -> usize {
        self.len + usize::from(self.has_min)
    }

    /// Slots allocated (the table's memory is eight bytes each).
    #[cfg(test)]
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Adds `v`; whether it was new.
    ///
    /// # Errors
    /// [`SolveError::Memory`] or [`SolveError::Refused`] when the table
    /// must grow past the budget or what the machine gives; the set is
    /// then unchanged.
    #[inline]
    pub fn insert(&mut self, v: i64) -> Result<bool, SolveError> {
        if v == EMPTY {
            let new = !self.has_min;
            self.has_min = true;
            return Ok(new);
        }
        if self.slots.is_empty() {
            self.grow()?;
        }
        let mut i = self.find(v);
        if self.slots[i] == v {
            return Ok(false);
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow()?;
            i = self.find(v);
        }
        self.slots[i] = v;
        self.len += 1;
        Ok(true)
    }

    /// The slot holding `v`, or the empty one where it would go.
    #[inline]
    fn find(&self, v: i64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = slot_of(v, self.slots.len());
        loop {
            let k = self.slots[i];
            if k == v || k == EMPTY {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds each of `values`, reading all their slots first: a table of
    /// hundreds of megabytes misses the cache on nearly every probe, and
    /// loads that do not wait on a branch wait for memory together
    /// instead of one after another.
    ///
    /// # Errors
    /// As [`FlatSet::insert`]; the values before the refused one are in.
    pub fn insert_all(&mut self, values: &[i64]) -> Result<(), SolveError> {
        if !self.slots.is_empty() {
            let mut touched = 0;
            for &v in values {
                touched ^= self.slots[slot_of(v, self.slots.len())];
            }
            std::hint::black_box(touched);
        }
        for &v in values {
            self.insert(v)?;
        }
        Ok(())
    }

    /// Doubles the table (at least [`MIN_SLOTS`]), charging the new one
    /// before allocating it: old and new coexist while values move.
    #[cold]
    fn grow(&mut self) -> Result<(), SolveError> {
        let slots = (self.slots.len() * 2).max(MIN_SLOTS);
        let (table, charge) = lay_out(&self.slots, slots, Vec::new(), |k| k, &self.budget)?;
        self.slots = table;
        self.charge = charge;
        Ok(())
    }

    /// Moves every value to the end of `out` (in no order), leaving the
    /// set empty; its table is kept for the next values if it has at most
    /// `keep` slots, else given back.
    pub fn drain_into(&mut self, out: &mut Vec<i64>, keep: usize) {
        if self.has_min {
            out.push(EMPTY);
        }
        out.extend(self.slots.iter().copied().filter(|&k| k != EMPTY));
        self.release_or_clear(keep);
    }

    /// Empties the set; as [`FlatSet::drain_into`] for the table.
    pub fn clear(&mut self, keep: usize) {
        self.release_or_clear(keep);
    }

    fn release_or_clear(&mut self, keep: usize) {
        if self.slots.len() > keep {
            self.slots = Vec::new();
            self.charge = Charge::default();
        } else if self.len > 0 {
            self.slots.fill(EMPTY);
        }
        self.len = 0;
        self.has_min = false;
    }
}

/// The slot a search for `v` starts at in a table of `slots` slots (a
/// power of two, at least 2).
#[inline]
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    reason = "bits of a hash, and a shift that leaves fewer than 64 bits"
)]
pub(super) fn slot_of(v: i64, slots: usize) -> usize {
    ((v as u64).wrapping_mul(MIX) >> (64 - slots.trailing_zeros())) as usize
}

/// A table of `slots` slots (a power of two) holding the words of `old`
/// ([`EMPTY`] aside), each placed by linear probing from the slot its key
/// (`key(word)`) hashes to; made in `fresh`'s allocation where it is large
/// enough, and charged to `budget` before anything is allocated. Gives
/// the table and its charge.
///
/// # Errors
/// [`SolveError::Memory`] past the budget, [`SolveError::Refused`] when
/// the machine does not give the memory.
pub(super) fn lay_out(
    old: &[i64],
    slots: usize,
    mut fresh: Vec<i64>,
    key: impl Fn(i64) -> i64,
    budget: &Arc<Budget>,
) -> Result<(Vec<i64>, Charge), SolveError> {
    let bytes = (slots * size_of::<i64>()) as u64;
    let charge = budget.charge(bytes)?;
    fresh.clear();
    fresh
        .try_reserve_exact(slots)
        .map_err(|_| budget.refusal(bytes))?;
    fresh.resize(slots, EMPTY);
    let mask = slots - 1;
    for &k in old {
        if k != EMPTY {
            let mut i = slot_of(key(k), slots);
            while fresh[i] != EMPTY {
                i = (i + 1) & mask;
            }
            fresh[i] = k;
        }
    }
    Ok((fresh, charge))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_once_and_drained_whole() {
        let budget = Budget::new(1 << 30);
        let mut set = FlatSet::new(&budget);
        let values: Vec<i64> = (-50_000..50_000)
            .map(|v: i64| v * 7919)
            .chain([i64::MIN, i64::MAX, i64::MIN + 1, 0])
            .collect();
        let mut oracle = std::collections::HashSet::new();
        for _ in 0..2 {
            for &v in &values {
                assert_eq!(set.insert(v).unwrap(), oracle.insert(v), "{v}");
            }
        }
        assert_eq!(set.len(), values.len() - 1);
        assert!(
            set.slots() * 3 >= set.len() * 4,
            "at most three quarters full"
        );
        assert_eq!(budget.used(), (set.slots() * 8) as u64);
        let mut out = Vec::new();
        set.drain_into(&mut out, 0);
        out.sort_unstable();
        let mut want = values.clone();
        want.sort_unstable();
        want.dedup();
        assert_eq!(out, want);
        assert_eq!(set.len(), 0);
        assert_eq!(budget.used(), 0, "a table above `keep` is given back");
        // Empty again, and usable.
        assert!(set.insert(5).unwrap());
        assert!(!set.insert(5).unwrap());
        set.clear(usize::MAX);
        assert_eq!(set.len(), 0);
        assert!(budget.used() > 0, "a table within `keep` is kept");
        assert!(set.insert(5).unwrap());
    }

    #[test]
    fn growth_past_the_budget_is_refused_and_leaves_the_set_whole() {
        let budget = Budget::new(64 << 10);
        let mut set = FlatSet::new(&budget);
        let mut added = 0;
        let err = loop {
            match set.insert(added * 3) {
                Ok(_) => added += 1,
                Err(e) => break e,
            }
        };
        assert!(matches!(err, SolveError::Memory { .. }), "{err:?}");
        assert_eq!(set.len(), usize::try_from(added).unwrap());
        for v in 0..added {
            assert!(!set.insert(v * 3).unwrap(), "still there: {v}");
        }
    }
}
