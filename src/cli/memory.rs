//! The memory the process may use: the default budget from the machine's
//! memory, its cgroup and `ulimit`, the least address space the program
//! starts in, and sizes as `--memory-limit` reads them.

use std::sync::{Arc, OnceLock};

use prime_solve::Budget;

/// The process's budget, shared by every search a command runs: at first
/// [`default_limit`], set from `--memory-limit` before any work.
pub(crate) fn budget() -> &'static Arc<Budget> {
    static PROCESS: OnceLock<Arc<Budget>> = OnceLock::new();
    PROCESS.get_or_init(|| Budget::new(default_limit()))
}

/// The default budget: half the machine's physical memory, and never
/// more than about 70% of the address space the process may use
/// (`ulimit -v`), leaving room for the program, thread stacks and the
/// allocator's own reservations. 4 GiB where neither can be read.
pub(crate) fn default_limit() -> u64 {
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
pub(crate) fn address_space_limit() -> Option<u64> {
    space_limits().into_iter().flatten().min()
}

/// The `ulimit` flag of the limit [`address_space_limit`] gives, for
/// messages: `ulimit -v`, or `ulimit -d` where that is the lesser.
pub(crate) fn address_space_flag() -> &'static str {
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
pub(crate) fn most_within(bytes: u64) -> u64 {
    bytes.saturating_sub(ADDRESS_SPACE_RESERVE.min(bytes / 2))
}

/// The least address space (`ulimit -v`) the program starts in: the
/// least whose default budget ([`limit_within`]) has room for one worker
/// thread ([`PER_THREAD`]), which every command needs. (Below about 20
/// MiB the program could not even start its threads.)
pub(crate) const MIN_ADDRESS_SPACE: u64 = 46 << 20;

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
pub(crate) const PER_THREAD: u64 = 16 << 20;

/// Reads a size: a number of bytes with an optional unit K, M, G, T, P, E
/// (powers of 1024, an optional `B` or `iB` after it), e.g. `4G`, `512M`,
/// `1.5GiB`, `2000000`; a whole number of bytes is read exactly, up to
/// 2^64 − 1.
///
/// # Errors
/// A message saying what to write instead, for anything else.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
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
}
