//! The memory budget: one byte count shared by every table a search holds
//! (shared tables, a query's own tables, function levels, hash-map growth),
//! charged *before* anything large is allocated, so that a search too big
//! for the machine ends in [`SolveError::Memory`] instead of an abort.
//!
//! Every large allocation of the engine goes through a [`Charge`]: the
//! bytes are added to the budget first (refused if they would pass the
//! limit), then allocated with `try_reserve`, and given back when the
//! charge is dropped with the memory it stands for.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::SolveError;

/// A byte budget shared by every solver that holds it, and a count of the
/// sub-hand tables built under it (for progress lines).
#[derive(Debug)]
pub struct Budget {
    limit: AtomicU64,
    used: AtomicU64,
    peak: AtomicU64,
    tables: AtomicU64,
}

impl Budget {
    /// A budget of `limit` bytes.
    pub fn new(limit: u64) -> Arc<Budget> {
        Arc::new(Budget {
            limit: AtomicU64::new(limit),
            used: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            tables: AtomicU64::new(0),
        })
    }

    /// A budget without a limit: what [`crate::Solver::new`] starts
    /// with. A program that may meet searches larger than its machine
    /// gives a limit instead ([`crate::Solver::with_budget`]), since
    /// without one a search too large ends when the allocator fails.
    pub fn unlimited() -> Arc<Budget> {
        Budget::new(u64::MAX)
    }

    pub fn set_limit(&self, limit: u64) {
        self.limit.store(limit, Ordering::Relaxed);
    }

    pub fn limit(&self) -> u64 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Bytes charged now.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// The most bytes charged at once so far.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Sub-hand tables built so far under this budget.
    pub fn tables_built(&self) -> u64 {
        self.tables.load(Ordering::Relaxed)
    }

    pub(crate) fn table_built(&self) {
        self.tables.fetch_add(1, Ordering::Relaxed);
    }

    /// Charges `bytes`, or refuses if they would take the budget past its
    /// limit (nothing is charged then).
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the charge would pass the limit.
    pub fn charge(self: &Arc<Self>, bytes: u64) -> Result<Charge, SolveError> {
        let limit = self.limit();
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            // Past 2^64 − 1 is past any limit too (a limit of 2^64 − 1
            // must not let a sum that wraps through).
            let Some(after) = used.checked_add(bytes).filter(|&a| a <= limit) else {
                return Err(SolveError::Memory {
                    needed: used.saturating_add(bytes),
                    limit,
                    estimated: false,
                });
            };
            match self
                .used
                .compare_exchange_weak(used, after, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => {
                    self.peak.fetch_max(after, Ordering::Relaxed);
                    return Ok(Charge {
                        budget: Some(Arc::clone(self)),
                        bytes,
                    });
                }
                Err(now) => used = now,
            }
        }
    }

    /// The error for an allocation of `bytes` the allocator refused even
    /// though the budget allowed it (the machine has less than the limit).
    pub(crate) fn refusal(&self, bytes: u64) -> SolveError {
        SolveError::Refused {
            needed: self.used().saturating_add(bytes),
            limit: self.limit(),
        }
    }

    /// Room for `bytes` of output a command is about to build in memory
    /// (a list of millions of values): charged, and tried on the
    /// allocator, so that output too large for the machine is a refusal
    /// like any other, not an abort. The charge is held until dropped.
    ///
    /// # Errors
    /// [`SolveError::Memory`] past the limit, [`SolveError::Refused`] when
    /// the machine cannot give that much.
    pub fn room_for_output(self: &Arc<Self>, bytes: u64) -> Result<Charge, SolveError> {
        let charge = self.charge(bytes)?;
        let mut probe: Vec<u8> = Vec::new();
        probe
            .try_reserve_exact(usize::try_from(bytes).unwrap_or(usize::MAX))
            .map_err(|_| self.refusal(bytes))?;
        Ok(charge)
    }

    /// Refuses at once a request estimated to need `bytes` more than is in
    /// use: a search that cannot finish is refused in seconds, not after
    /// filling the budget.
    pub(crate) fn foresee(&self, bytes: u64) -> Result<(), SolveError> {
        let limit = self.limit();
        let needed = self.used().saturating_add(bytes);
        if needed > limit {
            return Err(SolveError::Memory {
                needed,
                limit,
                estimated: true,
            });
        }
        Ok(())
    }
}

/// Bytes charged to a budget, given back on drop. A default charge holds
/// nothing.
#[derive(Debug, Default)]
pub struct Charge {
    budget: Option<Arc<Budget>>,
    bytes: u64,
}

impl Charge {
    /// Takes over `other`'s bytes (both must be of one budget).
    pub fn absorb(&mut self, mut other: Charge) {
        if self.budget.is_none() {
            self.budget = other.budget.take();
        }
        self.bytes += std::mem::take(&mut other.bytes);
    }

    /// Raises the charge to `bytes` in all, charging the difference to
    /// `budget` (nothing where it holds that much already).
    ///
    /// # Errors
    /// As [`Budget::charge`].
    pub fn raise_to(&mut self, budget: &Arc<Budget>, bytes: u64) -> Result<(), SolveError> {
        if bytes > self.bytes {
            self.absorb(budget.charge(bytes - self.bytes)?);
        }
        Ok(())
    }

    /// Gives back all but `keep` bytes.
    pub(crate) fn shrink_to(&mut self, keep: u64) {
        if let Some(b) = &self.budget {
            let back = self.bytes.saturating_sub(keep);
            b.used.fetch_sub(back, Ordering::Relaxed);
            self.bytes -= back;
        }
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.shrink_to(0);
    }
}

/// Bytes of a hash map holding `capacity` entries of `entry` bytes, as the
/// standard library's SwissTable lays it out: buckets a power of two with
/// at most 7/8 of them full, one control byte each.
pub(crate) fn map_bytes(capacity: usize, entry: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        if capacity < 4 { 4 } else { 8 }
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    (buckets * (entry + 1) + 16) as u64
}

/// Makes room in `map` for `additional` more entries, charging the grown
/// map to `budget` (into `charge`, which holds the map's bytes) before the
/// allocation, which may then fail without aborting.
pub(crate) fn map_room<K: Hash + Eq, V, S: BuildHasher>(
    map: &mut HashMap<K, V, S>,
    charge: &mut Charge,
    budget: &Arc<Budget>,
    additional: usize,
) -> Result<(), SolveError> {
    let (len, capacity) = (map.len(), map.capacity());
    if capacity - len >= additional {
        return Ok(());
    }
    let want = (len + additional).max(capacity * 2);
    let bytes = map_bytes(want, size_of::<(K, V)>());
    // Old and new storage coexist while the map rehashes.
    let grown = budget.charge(bytes)?;
    map.try_reserve(want - len)
        .map_err(|_| budget.refusal(bytes))?;
    *charge = grown;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_rises_by_the_difference_and_gives_back_the_surplus() {
        let b = Budget::new(1000);
        let mut c = b.charge(300).unwrap();
        c.raise_to(&b, 200).unwrap();
        assert_eq!(b.used(), 300, "a lower total charges nothing");
        c.raise_to(&b, 700).unwrap();
        assert_eq!(b.used(), 700, "only the difference is charged");
        assert!(c.raise_to(&b, 1001).is_err());
        assert_eq!(b.used(), 700, "a refused rise leaves the charge as it was");
        c.shrink_to(400);
        assert_eq!(b.used(), 400);
        drop(c);
        assert_eq!(b.used(), 0);
    }

    #[test]
    fn charges_are_refused_past_the_limit_and_given_back() {
        let b = Budget::new(1000);
        let a = b.charge(600).unwrap();
        assert_eq!(b.used(), 600);
        let err = b.charge(500).unwrap_err();
        assert!(matches!(
            err,
            SolveError::Memory {
                needed: 1100,
                limit: 1000,
                ..
            }
        ));
        assert_eq!(b.used(), 600, "a refused charge takes nothing");
        let mut c = b.charge(400).unwrap();
        c.shrink_to(100);
        assert_eq!(b.used(), 700);
        drop(a);
        drop(c);
        assert_eq!(b.used(), 0);
        assert_eq!(b.peak(), 1000);
    }

    #[test]
    fn foresight_counts_what_is_in_use() {
        let b = Budget::new(1000);
        assert!(b.foresee(1000).is_ok());
        let _held = b.charge(200).unwrap();
        assert!(b.foresee(800).is_ok());
        assert!(matches!(
            b.foresee(801),
            Err(SolveError::Memory {
                needed: 1001,
                estimated: true,
                ..
            })
        ));
    }

    #[test]
    fn map_bytes_grow_with_capacity() {
        assert_eq!(map_bytes(0, 40), 0);
        assert!(map_bytes(14, 40) >= 16 * 41);
        assert!(map_bytes(1 << 20, 40) >= (1 << 20) * 41);
    }

    /// The bytes of a map, exactly as the SwissTable lays it out: 4
    /// buckets up to 3 entries, 8 up to 7, then the least power of two
    /// at most 7/8 full; one control byte per bucket and 16 more.
    #[test]
    fn map_bytes_are_the_swisstable_layout_exactly() {
        let at = |buckets: u64| buckets * 41 + 16;
        for (capacity, buckets) in [
            (1, 4),
            (3, 4),
            (4, 8),
            (7, 8),
            (8, 16),
            (14, 16),
            (15, 32),
            (28, 32),
            (29, 64),
            (1 << 20, 2 << 20),
        ] {
            assert_eq!(map_bytes(capacity, 40), at(buckets), "{capacity}");
        }
    }

    /// `map_room` makes the room before the insert and charges what the
    /// grown map holds: no insert after it grows the map behind the
    /// budget's back, and the charge always covers the map's storage.
    #[test]
    fn map_room_charges_every_growth_before_it_happens() {
        let b = Budget::new(1 << 30);
        let entry = size_of::<(u64, u64)>();
        let mut map: HashMap<u64, u64> = HashMap::new();
        let mut charge = Charge::default();
        for i in 0..2000u64 {
            map_room(&mut map, &mut charge, &b, 1).unwrap();
            let capacity = map.capacity();
            assert!(capacity > map.len(), "room for one more at {i}");
            map.insert(i, i);
            assert_eq!(map.capacity(), capacity, "an insert grew the map at {i}");
            assert!(
                b.used() >= map_bytes(map.capacity(), entry),
                "the charge covers the map at {i}: {} < {}",
                b.used(),
                map_bytes(map.capacity(), entry)
            );
            assert_eq!(b.used(), charge.bytes, "one charge, held by `charge`");
        }
        // Room for many at once, on a full map.
        while map.capacity() > map.len() {
            let n = map.len() as u64;
            map.insert(n, n);
        }
        map_room(&mut map, &mut charge, &b, 5000).unwrap();
        assert!(map.capacity() >= map.len() + 5000);
        assert!(b.used() >= map_bytes(map.capacity(), entry));
        drop(charge);
        assert_eq!(b.used(), 0);
    }
}
