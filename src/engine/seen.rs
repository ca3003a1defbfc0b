//! The distinct values a hand reaches at its top, without their witnesses:
//! a flat open-addressing set of 8-byte keys, each with one flag bit (and
//! a bitmap in front of it for the values below 2^20, whose flag is worked
//! out again when they repeat), so that the prime scan can count what it
//! must about every value (the function applications pruned above the
//! bound) while keeping a witness only for the few values that can still
//! become a prime.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::budget::{Budget, Charge, map_room};
// An empty slot is `flat::EMPTY` (`i64::MIN`): no value shifts to it, as
// values here are below 2^61 in size.
use super::SolveError;
use super::flat::{EMPTY, lay_out, slot_of};
use crate::arith::Value;

/// Values of at most this size go in the flat table; the rare larger ones
/// (the bound allows up to 2^64 − 1) in a side map.
const FLAT: i128 = 1 << 61;

/// Values in `0..FRONT` are marked in a bitmap instead (128 KiB, held in
/// the cache where the table is not): under functions a third of the
/// values a four-card hand sends through the set lie there.
const FRONT: i64 = 1 << 20;

/// The bitmap's words.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "2^14"
)]
const FRONT_WORDS: usize = (FRONT / 64) as usize;

/// A set of values, each with a flag set when it is first inserted.
pub(super) struct Seen {
    /// `value << 1 | flag`, or [`EMPTY`]; a power of two long.
    slots: Vec<i64>,
    len: usize,
    /// Values too large for a slot, with their flag.
    big: FxHashMap<Value, bool>,
    /// Bit v for each value v in `0..FRONT` inserted, or empty when the
    /// budget cannot spare it; these values keep no flag.
    front: Vec<u64>,
    front_len: usize,
    charge: Charge,
    big_charge: Charge,
    front_charge: Charge,
    budget: Arc<Budget>,
}

/// Slots a thread keeps for its next set once a set is dropped (4 MiB);
/// held between sets, uncharged.
const SPARE_MAX: usize = 1 << 19;

/// What the set holds a value at most between growths, to project it: an
/// eight-byte slot at most half full, up to a quarter full just after
/// the table doubles.
pub(super) const BYTES_A_VALUE: u64 = 32;

thread_local! {
    static SPARE: std::cell::Cell<Vec<i64>> = const { std::cell::Cell::new(Vec::new()) };
    /// A cleared bitmap for the next set's `front`.
    static SPARE_FRONT: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Seen {
    fn drop(&mut self) {
        if self.slots.len() <= SPARE_MAX {
            SPARE.set(std::mem::take(&mut self.slots));
        }
        if !self.front.is_empty() {
            if self.front_len > 0 {
                self.front.fill(0);
            }
            SPARE_FRONT.set(std::mem::take(&mut self.front));
        }
    }
}

impl Seen {
    /// An empty set with room for about `expect` values, charged first.
    pub fn new(expect: usize, budget: &Arc<Budget>) -> Result<Seen, SolveError> {
        let mut seen = Seen {
            slots: Vec::new(),
            len: 0,
            big: FxHashMap::default(),
            front: Vec::new(),
            front_len: 0,
            charge: Charge::default(),
            big_charge: Charge::default(),
            front_charge: Charge::default(),
            budget: Arc::clone(budget),
        };
        // The bitmap where the budget can spare it (every value goes
        // through the table otherwise).
        if let Ok(charge) = budget.charge((FRONT_WORDS * size_of::<u64>()) as u64) {
            let mut front = SPARE_FRONT.take();
            if front.len() != FRONT_WORDS && front.try_reserve_exact(FRONT_WORDS).is_ok() {
                front.resize(FRONT_WORDS, 0);
            }
            if front.len() == FRONT_WORDS {
                seen.front = front;
                seen.front_charge = charge;
            }
        }
        // The last set's slots, when about as many are wanted: a sweep's
        // hands reach similar numbers of values, so this set then starts
        // at the size the last one grew to, in memory already touched.
        let wanted = (expect * 2).next_power_of_two().max(1024);
        let spare = SPARE.take();
        let slots = if (wanted..=wanted * 8).contains(&spare.len()) {
            spare.len()
        } else {
            wanted
        };
        seen.grow_into(slots, spare)?;
        Ok(seen)
    }

    /// How many distinct values have been inserted.
    pub fn len(&self) -> usize {
        self.len + self.big.len() + self.front_len
    }

    /// Re-lays the set out in `slots` slots, charging them before they are
    /// allocated (old and new storage coexist while it moves).
    fn grow(&mut self, slots: usize) -> Result<(), SolveError> {
        self.grow_into(slots, Vec::new())
    }

    /// [`Seen::grow`] into `fresh`'s allocation where it is large enough.
    fn grow_into(&mut self, slots: usize, fresh: Vec<i64>) -> Result<(), SolveError> {
        let (table, charge) = lay_out(&self.slots, slots, fresh, |k| k >> 1, &self.budget)?;
        self.slots = table;
        self.charge = charge;
        Ok(())
    }

    /// Inserts `v` if it is new, with the flag `flag(v)` works out then;
    /// gives the value's flag either way: kept, or for a value in the
    /// bitmap worked out again by `again(v)`, which must give what `flag`
    /// gave.
    #[inline]
    pub fn insert(
        &mut self,
        v: Value,
        flag: impl FnOnce(Value) -> bool,
        again: impl FnOnce(Value) -> bool,
    ) -> Result<bool, SolveError> {
        if (0..FRONT.into()).contains(&v) && !self.front.is_empty() {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "checked above to lie in 0..FRONT"
            )]
            let at = v as usize;
            // Masked, though `at` is in range: no bounds check.
            let (word, bit) = ((at / 64) & (FRONT_WORDS - 1), 1u64 << (at % 64));
            let w = self.front[word];
            if w & bit != 0 {
                return Ok(again(v));
            }
            self.front[word] = w | bit;
            self.front_len += 1;
            return Ok(flag(v));
        }
        if !(-FLAT..FLAT).contains(&v) {
            return self.insert_big(v, flag);
        }
        #[allow(
            clippy::cast_possible_truncation,
            reason = "checked above to lie within ±2^61"
        )]
        let v = v as i64;
        let mask = self.slots.len() - 1;
        let mut i = slot_of(v, self.slots.len());
        loop {
            let k = self.slots[i];
            if k == EMPTY {
                break;
            }
            if k >> 1 == v {
                return Ok(k & 1 == 1);
            }
            i = (i + 1) & mask;
        }
        let f = flag(v.into());
        self.slots[i] = v << 1 | i64::from(f);
        self.len += 1;
        // At most half full.
        if self.len * 2 > self.slots.len() {
            self.grow(self.slots.len() * 2)?;
        }
        Ok(f)
    }

    #[cold]
    fn insert_big(
        &mut self,
        v: Value,
        flag: impl FnOnce(Value) -> bool,
    ) -> Result<bool, SolveError> {
        if let Some(&f) = self.big.get(&v) {
            return Ok(f);
        }
        map_room(&mut self.big, &mut self.big_charge, &self.budget, 1)?;
        let f = flag(v);
        self.big.insert(v, f);
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_once_with_their_first_flag() {
        let budget = Budget::new(1 << 30);
        let mut seen = Seen::new(4, &budget).unwrap();
        let values: Vec<Value> = (-5000..5000)
            .map(|v: Value| v * 7919)
            .chain([
                (1 << 61) - 1,
                -(1 << 61),
                1 << 61,
                -(1 << 62),
                u64::MAX.into(),
            ])
            .collect();
        for &v in &values {
            let first = seen.insert(v, |v| v % 3 == 0, |_| unreachable!());
            assert_eq!(first.unwrap(), v % 3 == 0);
        }
        assert_eq!(seen.len(), values.len());
        for &v in &values {
            // Already there: the flag is the first one, kept, or for the
            // bitmap's values worked out again.
            let again = seen.insert(
                v,
                |_| unreachable!(),
                |v| (0..FRONT.into()).contains(&v) && v % 3 == 0,
            );
            assert_eq!(again.unwrap(), v % 3 == 0);
        }
        assert_eq!(seen.len(), values.len());
        assert!(budget.used() > 0);
        drop(seen);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn growth_past_the_budget_is_refused() {
        let budget = Budget::new(64 << 10);
        let mut seen = Seen::new(16, &budget).unwrap();
        let err = (0..1_000_000)
            .map(|v| seen.insert(v, |_| false, |_| false))
            .find_map(Result::err)
            .expect("refused");
        assert!(matches!(err, SolveError::Memory { .. }));
    }
}
