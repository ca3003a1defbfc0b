//! One combination on the table: the players' calls, and who wins it — the
//! first valid call, unless a higher valid prime follows before the next
//! turn; equal primes called together tie; nobody calling buries the cards.

use crate::arith::Value;

/// How close two calls must be to count as one moment, and how long after
/// the first valid call a higher prime may still override it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    pub tie_window_ms: u32,
    pub override_window_ms: u32,
}

impl Timing {
    /// Checks that the windows make sense: a tie window shorter than the
    /// override window, both under a minute.
    ///
    /// # Errors
    /// [`TimingError`] naming the window out of range.
    pub fn validate(&self) -> Result<(), TimingError> {
        if self.override_window_ms > MAX_WINDOW_MS {
            return Err(TimingError::OverrideTooLong {
                ms: self.override_window_ms,
            });
        }
        if self.tie_window_ms > self.override_window_ms {
            return Err(TimingError::TieLongerThanOverride {
                tie_ms: self.tie_window_ms,
                override_ms: self.override_window_ms,
            });
        }
        Ok(())
    }
}

/// The longest override window a table may set.
pub const MAX_WINDOW_MS: u32 = 60_000;

/// A table's timing that makes no sense ([`Timing::validate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimingError {
    #[error("the override window must be at most {MAX_WINDOW_MS} ms, not {ms}")]
    OverrideTooLong { ms: u32 },
    #[error(
        "the tie window ({tie_ms} ms) must not be longer than the override window ({override_ms} ms)"
    )]
    TieLongerThanOverride { tie_ms: u32, override_ms: u32 },
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            tie_window_ms: 150,
            override_window_ms: 1_500,
        }
    }
}

/// What happens to the combination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player takes the cards.
    Win(usize),
    /// These players called the same prime at the same moment: each buries
    /// their card and turns the next.
    Tie(Vec<usize>),
    /// No valid call: every card on the table is buried and replaced.
    NoCall,
}

/// Rules on the calls (`player`, call). A wrong call bars its player for
/// this combination and is otherwise ignored.
pub fn resolve(calls: &[(usize, Call)], timing: Timing) -> Outcome {
    let mut valid: Vec<(usize, Call)> = calls.iter().copied().filter(|(_, c)| c.valid).collect();
    valid.sort_by_key(|&(player, c)| (c.time_ms, player));
    let Some(&(first, call)) = valid.first() else {
        return Outcome::NoCall;
    };
    let mut tied: Vec<usize> = valid
        .iter()
        .filter(|(_, c)| {
            c.prime == call.prime && c.time_ms <= call.time_ms.saturating_add(timing.tie_window_ms)
        })
        .map(|&(p, _)| p)
        .collect();
    if tied.len() > 1 {
        // By seat: the same players tie whatever order they called in.
        tied.sort_unstable();
        return Outcome::Tie(tied);
    }
    let deadline = call.time_ms.saturating_add(timing.override_window_ms);
    let (mut winner, mut best) = (first, call.prime);
    for &(player, c) in &valid[1..] {
        if c.time_ms <= deadline && c.prime > best {
            (winner, best) = (player, c.prime);
        }
    }
    Outcome::Win(winner)
}

/// A call made at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub time_ms: u32,
    pub prime: Value,
    /// False for a wrong call: the player is barred for this combination.
    pub valid: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(time_ms: u32, prime: i128, valid: bool) -> Call {
        Call {
            time_ms,
            prime,
            valid,
        }
    }

    #[test]
    fn the_first_valid_call_wins() {
        let t = Timing::default();
        let calls = [(0, call(4000, 7, true)), (1, call(2000, 5, true))];
        assert_eq!(resolve(&calls, t), Outcome::Win(1));
    }

    #[test]
    fn a_higher_prime_called_in_time_overrides() {
        let t = Timing::default();
        let calls = [(0, call(2000, 5, true)), (1, call(3000, 11, true))];
        assert_eq!(resolve(&calls, t), Outcome::Win(1));
        // Too late: the next round has started.
        let calls = [(0, call(2000, 5, true)), (1, call(4000, 11, true))];
        assert_eq!(resolve(&calls, t), Outcome::Win(0));
        // Lower primes never override.
        let calls = [(0, call(2000, 5, true)), (1, call(2100, 3, true))];
        assert_eq!(resolve(&calls, t), Outcome::Win(0));
    }

    #[test]
    fn simultaneous_equal_calls_tie() {
        let t = Timing::default();
        let calls = [
            (0, call(2000, 5, true)),
            (1, call(2100, 5, true)),
            (2, call(2050, 7, true)),
        ];
        assert_eq!(resolve(&calls, t), Outcome::Tie(vec![0, 1]));
        // Equal primes far apart: the first wins.
        let calls = [(0, call(2000, 5, true)), (1, call(2500, 5, true))];
        assert_eq!(resolve(&calls, t), Outcome::Win(0));
    }

    #[test]
    fn calls_at_the_end_of_time_do_not_overflow() {
        let t = Timing::default();
        let calls = [
            (1, call(u32::MAX, 5, true)),
            (0, call(u32::MAX - 10, 5, true)),
        ];
        assert_eq!(resolve(&calls, t), Outcome::Tie(vec![0, 1]));
        let calls = [
            (0, call(u32::MAX - 1, 5, true)),
            (1, call(u32::MAX, 7, true)),
        ];
        assert_eq!(resolve(&calls, t), Outcome::Win(1));
    }

    #[test]
    fn a_wrong_call_is_barred() {
        let t = Timing::default();
        let calls = [(0, call(1000, 9, false)), (1, call(2500, 5, true))];
        assert_eq!(resolve(&calls, t), Outcome::Win(1));
        let calls = [(0, call(1000, 9, false))];
        assert_eq!(resolve(&calls, t), Outcome::NoCall);
        assert_eq!(resolve(&[], t), Outcome::NoCall);
    }
}
