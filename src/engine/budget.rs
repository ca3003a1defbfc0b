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
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use crate::error::SolveError;

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

    /// The process's budget, which [`crate::Solver::new`] uses: at first
    /// [`default_limit`], changed with [`Budget::set_limit`].
    pub fn process() -> &'static Arc<Budget> {
        static PROCESS: OnceLock<Arc<Budget>> = OnceLock::new();
        PROCESS.get_or_init(|| Budget::new(default_limit()))
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

/// The default budget: half the machine's physical memory, and never
/// more than about 70% of the address space the process may use
/// (`ulimit -v`), leaving room for the program, thread stacks and the
/// allocator's own reservations. 4 GiB where neither can be read.
pub fn default_limit() -> u64 {
    let physical = read_proc("/proc/meminfo", "MemTotal:").map(|kib| kib * 1024);
    // A container's memory (its cgroup's limit) counts as the machine's.
    let physical = match (physical, cgroup_memory_limit()) {
        (Some(p), Some(c)) => Some(p.min(c)),
        (p, c) => p.or(c),
    };
    let address_space = address_space_limit();
    let from_physical = physical.map_or(4 << 30, |p| p / 2);
    match address_space {
        Some(limit) => from_physical.min(limit_within(limit)),
        None => from_physical,
    }
}

/// The limit on this process's address space in bytes, `None` when there
/// is none: the lesser of `ulimit -v` and `ulimit -d` (the data segment,
/// which since Linux 4.7 counts every private writable mapping, so every
/// allocation the budget charges).
pub fn address_space_limit() -> Option<u64> {
    space_limits().into_iter().flatten().min()
}

/// The `ulimit` flag of the limit [`address_space_limit`] gives, for
/// messages: `ulimit -v`, or `ulimit -d` where that is the lesser.
pub fn address_space_flag() -> &'static str {
    match space_limits() {
        [Some(v), Some(d)] if d < v => "ulimit -d",
        [None, Some(_)] => "ulimit -d",
        _ => "ulimit -v",
    }
}

/// `ulimit -v` and `ulimit -d`, in bytes.
fn space_limits() -> [Option<u64>; 2] {
    [
        read_proc("/proc/self/limits", "Max address space"),
        read_proc("/proc/self/limits", "Max data size"),
    ]
}

/// The memory limit of this process's cgroup, if it sets one: cgroup v2's
/// `memory.max` or v1's `memory.limit_in_bytes`, of the process's own
/// group or, as a container sees it, of the root of its hierarchy; the
/// least of those that can be read.
fn cgroup_memory_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut files = vec![
        "/sys/fs/cgroup/memory.max".to_string(),
        "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_string(),
    ];
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            files.push(format!("/sys/fs/cgroup{path}/memory.max"));
        } else if controllers.split(',').any(|c| c == "memory") {
            files.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
        }
    }
    // "max" (v2) reads as no limit; v1 writes no limit as about 2^63.
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok()?.trim().parse::<u64>().ok())
        .filter(|&b| b < 1 << 62)
        .min()
}

/// The budget within an address space of `bytes`: 70% of what is left
/// once [`ADDRESS_SPACE_RESERVE`] is set aside, or once half of it is
/// where it is smaller than twice that (under `ulimit -v 300000` the
/// reserve alone would leave nothing, and every request would be refused).
fn limit_within(bytes: u64) -> u64 {
    most_within(bytes) / 10 * 7
}

/// The most a budget may be within an address space of `bytes`: what is
/// left once [`ADDRESS_SPACE_RESERVE`] (or half of it, where that is
/// smaller) is set aside for the program itself. A larger `--memory-limit`
/// would let the program run out of address space on an allocation too
/// small to be refused cleanly (an abort) before the budget says no.
pub fn most_within(bytes: u64) -> u64 {
    bytes.saturating_sub(ADDRESS_SPACE_RESERVE.min(bytes / 2))
}

/// The least address space (`ulimit -v`) the program starts in: the
/// least whose default budget ([`limit_within`]) has room for one worker
/// thread ([`PER_THREAD`]), which every command needs. (Below about 20
/// MiB the program could not even start its threads.)
pub const MIN_ADDRESS_SPACE: u64 = 46 << 20;

/// What the address space must keep beside the tables: the binary, the
/// allocator's per-thread arenas, stacks.
const ADDRESS_SPACE_RESERVE: u64 = 512 << 20;

/// The first number after `key` on the line that starts with it; `None`
/// for "unlimited" or an unreadable file.
fn read_proc(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// Bytes the engine sets aside for each worker thread: its stack and what
/// it allocates outside the tables.
pub const PER_THREAD: u64 = 16 << 20;

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

/// A size in bytes, as a person reads it: `512 MiB`, `3.8 GiB`.
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        let mut unit = 0;
        let mut whole = self.0;
        while whole >= 1024 && unit < UNITS.len() - 1 {
            whole /= 1024;
            unit += 1;
        }
        if unit == 0 {
            return write!(f, "{} byte{}", self.0, if self.0 == 1 { "" } else { "s" });
        }
        let scaled = self.0 as f64 / (1u64 << (10 * unit)) as f64;
        if let Some(decimals) = f.precision() {
            write!(f, "{scaled:.decimals$} {}", UNITS[unit])
        } else if scaled < 10.0 {
            write!(f, "{scaled:.1} {}", UNITS[unit])
        } else {
            write!(f, "{scaled:.0} {}", UNITS[unit])
        }
    }
}

/// Two sizes in one unit (the larger's) written with as few decimals as
/// tell them apart (at most three; in bytes where three do not), so that a
/// refusal never reads "about 12 GiB, more than the limit of 12 GiB" nor
/// "10 GiB, more than 10.0 GiB".
pub fn apart(a: u64, b: u64) -> (String, String) {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let larger = a.max(b);
    if larger < 1024 {
        return (Bytes(a).to_string(), Bytes(b).to_string());
    }
    let unit = (1..UNITS.len())
        .take_while(|&u| larger >= 1u64 << (10 * u))
        .last()
        .unwrap_or(1);
    let scale = (1u64 << (10 * unit)) as f64;
    let (x, y) = (a as f64 / scale, b as f64 / scale);
    let first = usize::from(x.max(y) < 10.0);
    let write = |v: f64, d: usize| format!("{v:.d$} {}", UNITS[unit]);
    let mut decimals = first;
    while decimals < 3 && write(x, decimals) == write(y, decimals) {
        decimals += 1;
    }
    if a != b && write(x, decimals) == write(y, decimals) {
        return (format!("{a} bytes"), format!("{b} bytes"));
    }
    (write(x, decimals), write(y, decimals))
}

/// Reads a size: a number of bytes with an optional unit K, M, G, T, P, E
/// (powers of 1024, an optional `B` or `iB` after it), e.g. `4G`, `512M`,
/// `1.5GiB`, `2000000`; a whole number of bytes is read exactly, up to
/// 2^64 − 1.
///
/// # Errors
/// A message saying what to write instead, for anything else.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        "P" | "PB" | "PIB" => 50,
        "E" | "EB" | "EIB" => 60,
        _ => {
            return Err(format!(
                "`{text}` is not a size: write e.g. 4G, 512M or 2000000"
            ));
        }
    };
    // A whole number of bytes exactly, up to 2^64 − 1 (a float would round
    // it).
    if shift == 0
        && let Ok(bytes) = number.parse::<u64>()
    {
        return if bytes == 0 {
            Err(format!("`{text}` is out of range: give at least one byte"))
        } else {
            Ok(bytes)
        };
    }
    let value: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| format!("`{text}` is not a size: write e.g. 4G, 512M or 2000000"))?;
    let bytes = value * (1u64 << shift) as f64;
    if bytes.fract() != 0.0 {
        return Err(format!("`{text}` is not a whole number of bytes"));
    }
    if bytes < 1.0 {
        return Err(format!("`{text}` is out of range: give at least one byte"));
    }
    if bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is too large: give less than 16 EiB"));
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "checked above to lie in 1..2^64"
    )]
    let bytes = bytes as u64;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor is the least address space (to the MiB) whose default
    /// budget holds one worker thread.
    #[test]
    fn the_least_address_space_holds_one_worker_thread() {
        assert!(limit_within(MIN_ADDRESS_SPACE) >= PER_THREAD);
        assert!(limit_within(MIN_ADDRESS_SPACE - (1 << 20)) < PER_THREAD);
        assert!(most_within(MIN_ADDRESS_SPACE) > limit_within(MIN_ADDRESS_SPACE));
    }

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
    fn a_small_address_space_leaves_a_budget() {
        // 2 GB: 70% of what the 512 MiB reserve leaves.
        assert_eq!(
            limit_within(2_000_000 << 10),
            ((2_000_000 << 10) - (512 << 20)) / 10 * 7
        );
        // 300 MB: half is set aside, not all of it.
        assert_eq!(limit_within(300_000 << 10), (150_000 << 10) / 10 * 7);
        assert!(limit_within(100 << 20) > 30 << 20);
        assert_eq!(limit_within(0), 0);
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
    fn sizes_parse() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("2000000"), Ok(2_000_000));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        // Every whole number of bytes exactly, and the units up to EiB.
        assert_eq!(parse_size("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_size("9007199254740993"), Ok((1 << 53) + 1));
        assert_eq!(parse_size("2P"), Ok(2 << 50));
        assert_eq!(parse_size("15EiB"), Ok(15 << 60));
        for bad in [
            "18446744073709551616",
            "16E",
            "",
            "G",
            "4X",
            "-1G",
            "0",
            "1e400",
            "99999999999T",
            "1.5",
            "17179869184G",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_print() {
        assert_eq!(Bytes(512).to_string(), "512 bytes");
        assert_eq!(Bytes(1).to_string(), "1 byte");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Bytes(12 << 30).to_string(), "12 GiB");
        assert_eq!(format!("{:.2}", Bytes(12 << 30)), "12.00 GiB");
    }

    #[test]
    fn sizes_apart_are_written_apart() {
        let gib = 1u64 << 30;
        // A need just past the limit reads past it.
        let (need, limit) = apart(12 * gib + gib / 5, 12 * gib);
        assert_eq!((need.as_str(), limit.as_str()), ("12.2 GiB", "12.0 GiB"));
        let (need, limit) = apart(12 * gib + gib / 500, 12 * gib);
        assert_eq!(
            (need.as_str(), limit.as_str()),
            ("12.002 GiB", "12.000 GiB")
        );
        // Sizes far apart keep the usual rounding.
        let (need, limit) = apart(17 * gib, 12 * gib);
        assert_eq!((need.as_str(), limit.as_str()), ("17 GiB", "12 GiB"));
        // Across a unit's edge: both in the larger's unit.
        let (need, limit) = apart(10 * gib + gib / 5, 10 * gib - gib / 30);
        assert_eq!((need.as_str(), limit.as_str()), ("10.2 GiB", "10.0 GiB"));
        let (need, limit) = apart(gib, gib - (1 << 20));
        assert_eq!((need.as_str(), limit.as_str()), ("1.000 GiB", "0.999 GiB"));
        assert_eq!(
            apart(100, 2 << 10),
            ("0.1 KiB".to_string(), "2.0 KiB".to_string())
        );
        // Closer than three decimals tell: in bytes (it read "16.000 MiB,
        // more than the limit of 16.000 MiB").
        let mib = 1u64 << 20;
        assert_eq!(
            apart(16 * mib + 300, 16 * mib),
            ("16777516 bytes".to_string(), "16777216 bytes".to_string())
        );
        assert_eq!(apart(16 * mib, 16 * mib).0, "16.000 MiB");
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

    #[test]
    fn every_unit_parses() {
        for (unit, shift) in [
            ("", 0),
            ("B", 0),
            ("K", 10),
            ("KB", 10),
            ("KiB", 10),
            ("M", 20),
            ("MB", 20),
            ("MiB", 20),
            ("G", 30),
            ("GB", 30),
            ("GiB", 30),
            ("T", 40),
            ("TB", 40),
            ("TiB", 40),
            ("P", 50),
            ("PB", 50),
            ("PiB", 50),
            ("E", 60),
            ("EB", 60),
            ("EiB", 60),
        ] {
            assert_eq!(parse_size(&format!("3{unit}")), Ok(3 << shift), "3{unit}");
            // Lower case, a space before the unit, and a fraction.
            let half = parse_size(&format!("1.5 {}", unit.to_lowercase()));
            if shift == 0 {
                assert!(half.is_err(), "1.5 {unit}: not a whole number of bytes");
            } else {
                assert_eq!(half, Ok(3 << (shift - 1)), "1.5 {unit}");
            }
        }
        // Zero is refused in every unit, not only as a whole number of
        // bytes; one byte written as a fraction is one byte.
        for zero in ["0K", "0.0G", "0.0", "0 TiB"] {
            assert!(parse_size(zero).is_err(), "{zero}");
        }
        assert_eq!(parse_size("1.0"), Ok(1));
        assert_eq!(parse_size("0.5K"), Ok(512));
    }

    /// The default budget is at most half the machine's memory and within
    /// what the address space allows; on Linux both are read from /proc.
    #[test]
    fn the_default_is_at_most_half_the_machine() {
        let limit = default_limit();
        assert!(limit > 0);
        #[cfg(target_os = "linux")]
        assert!(read_proc("/proc/meminfo", "MemTotal:").is_some());
        if let Some(kib) = read_proc("/proc/meminfo", "MemTotal:") {
            assert!(limit <= kib * 1024 / 2, "{limit} bytes of {kib} KiB");
        }
        if let Some(space) = address_space_limit() {
            assert!(limit <= limit_within(space));
        }
    }

    /// Past the largest unit, sizes print in it (the loop stops at TiB).
    #[test]
    fn sizes_past_the_largest_unit_print_in_it() {
        assert_eq!(Bytes(3 << 50).to_string(), "3072 TiB");
        assert_eq!(Bytes(u64::MAX).to_string(), "16777216 TiB");
        assert_eq!(apart(3 << 50, 1 << 40).0, "3072 TiB");
    }

    /// Under a KiB both sizes read in bytes; from a KiB on, in KiB; ten
    /// of a unit and more without decimals.
    #[test]
    fn sizes_at_the_edges_of_their_units() {
        assert_eq!(
            apart(100, 200),
            ("100 bytes".to_string(), "200 bytes".to_string())
        );
        assert_eq!(
            apart(1023, 1),
            ("1023 bytes".to_string(), "1 byte".to_string())
        );
        assert_eq!(
            apart(1024, 512),
            ("1.0 KiB".to_string(), "0.5 KiB".to_string())
        );
        assert_eq!(
            apart(10 << 30, 5 << 30),
            ("10 GiB".to_string(), "5 GiB".to_string())
        );
        assert_eq!(Bytes(10 << 30).to_string(), "10 GiB");
        assert_eq!(Bytes(10 << 10).to_string(), "10 KiB");
    }
}
