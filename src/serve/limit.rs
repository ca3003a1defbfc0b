//! Each address's share of heavy searches: a bucket per address that
//! holds a minute's share and refills at that rate, so one address can
//! take at most its share of the places for heavy searches, however fast
//! it asks. Light requests never touch it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The most addresses remembered at once; past it, those whose buckets
/// are full again are forgotten, and while none is, a new address is
/// refused (a flood of addresses cannot grow the map without end).
const MAX_ADDRESSES: usize = 16_384;

/// Each address's bucket of heavy searches.
pub(super) struct Shares {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

#[derive(Clone, Copy)]
struct Bucket {
    /// Searches the address may still start.
    tokens: f64,
    /// When `tokens` was counted.
    at: Instant,
}

impl Bucket {
    /// The bucket refilled to `now`, at most full.
    fn at(self, now: Instant, per_minute: f64) -> Bucket {
        let minutes = now.saturating_duration_since(self.at).as_secs_f64() / 60.0;
        Bucket {
            tokens: (self.tokens + minutes * per_minute).min(per_minute),
            at: now,
        }
    }
}

impl Shares {
    pub(super) fn new(per_minute: u32) -> Shares {
        Shares {
            per_minute: f64::from(per_minute.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `ip` may start one more heavy search now; if so, it is
    /// counted.
    pub(super) fn take(&self, ip: IpAddr) -> bool {
        self.take_at(ip, Instant::now())
    }

    /// Whether `ip` has spent its share for now (nothing is counted).
    pub(super) fn spent(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        buckets
            .get(&ip)
            .is_some_and(|b| b.at(now, self.per_minute).tokens < 1.0)
    }

    /// Gives back one search `ip` was counted for but did not run.
    pub(super) fn give_back(&self, ip: IpAddr) {
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(b) = buckets.get_mut(&ip) {
            b.tokens = (b.tokens + 1.0).min(self.per_minute);
        }
    }

    fn take_at(&self, ip: IpAddr, now: Instant) -> bool {
        let per_minute = self.per_minute;
        // A poisoned map is still a map of counts: go on with it.
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= MAX_ADDRESSES && !buckets.contains_key(&ip) {
            buckets.retain(|_, b| b.at(now, per_minute).tokens < per_minute);
            if buckets.len() >= MAX_ADDRESSES {
                return false;
            }
        }
        let bucket = buckets.entry(ip).or_insert(Bucket {
            tokens: per_minute,
            at: now,
        });
        *bucket = bucket.at(now, per_minute);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn an_address_gets_its_share_a_minute_and_others_theirs() {
        let shares = Shares::new(3);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "::1".parse().unwrap());
        let t0 = Instant::now();
        assert!((0..3).all(|_| shares.take_at(a, t0)));
        assert!(!shares.take_at(a, t0));
        assert!(shares.take_at(b, t0));
        // A third of a minute refills one.
        assert!(shares.take_at(a, t0 + Duration::from_secs(20)));
        assert!(!shares.take_at(a, t0 + Duration::from_secs(21)));
        // An idle hour refills no more than the share.
        let later = t0 + Duration::from_secs(3600);
        assert!((0..3).all(|_| shares.take_at(a, later)));
        assert!(!shares.take_at(a, later));
    }

    #[test]
    fn the_map_of_addresses_is_bounded() {
        let shares = Shares::new(1);
        let t0 = Instant::now();
        for i in 0..MAX_ADDRESSES as u32 {
            assert!(shares.take_at(IpAddr::from(i.to_be_bytes()), t0));
        }
        // Every bucket is empty: a new address waits.
        let new = IpAddr::from([255, 255, 255, 255]);
        assert!(!shares.take_at(new, t0));
        // A minute on, the full buckets are forgotten.
        assert!(shares.take_at(new, t0 + Duration::from_secs(61)));
        let n = shares.buckets.lock().unwrap().len();
        assert_eq!(n, 1);
    }
}
