//! How long to think: from the clock of the seat to move to a soft and a hard limit.

/// The clock of the seat to move as `go` gave it, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: u64,
    pub inc: u64,
    pub byoyomi: u64,
    pub moves_to_go: Option<u32>,
}

/// `soft`: do not start a new iteration after it. `hard`: stop the search at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: u64,
    pub hard: u64,
    /// Time left unused is lost (`movetime`; a byoyomi with no main time left; the last move
    /// before the clock is refilled): iterations go on to the soft limit even when the next one
    /// is not expected to end by the hard limit, since nothing is saved by stopping early.
    pub use_all: bool,
}

/// Splits the clock. `overhead` is what the move costs to reach the arbiter (pipes, GUI), so the
/// hard limit always leaves it unused: the engine must never lose on time.
pub fn budget(clock: Clock, overhead: u64) -> Budget {
    // Clocks are whatever `go` sends, up to 2^64 - 1 ms: the sums below are made in 128 bits and
    // capped, so that no clock, however large, wraps around to a budget of a few milliseconds.
    let (time, inc, byoyomi) = (clock.time as u128, clock.inc as u128, clock.byoyomi as u128);
    // Everything that can be spent on this move without flagging: the main time and, with
    // byoyomi, the period. An increment only arrives after the move.
    let usable = (time + byoyomi).saturating_sub(overhead as u128).max(1);
    // The spec's formula (protocol-spec.md, section 3, "Time use"). A move rarely uses all of
    // its normal time (an iteration that would overrun twice it is not begun), so a twentieth
    // of the clock and nine tenths of the increment still leave the clock at about a quarter of
    // its start after a long game; a thirtieth and three quarters left most of it unused.
    let moves_left = clock.moves_to_go.map(|m| m.clamp(1, 50) as u128).unwrap_or(20);
    let soft = time / moves_left + inc * 9 / 10 + byoyomi * 8 / 10;
    // Never bet more than a third of the main time on one move, unless fewer moves than that
    // are left before the clock is refilled (`movestogo 1`: all of it); a byoyomi is free to use.
    // Twice the normal time at most: a search that runs over is cut there (an iteration of a
    // four-player game can take ten times its predecessor, and at four times the spec's time was
    // overrun by that much).
    let share = time / moves_left.min(3);
    let hard = (soft * 2).min(share + byoyomi).min(usable);
    let soft = soft.min(hard);
    let use_all = clock.time == 0 || clock.moves_to_go == Some(1);
    let ms = |v: u128| u64::try_from(v).unwrap_or(u64::MAX).max(1);
    Budget { soft: ms(soft), hard: ms(hard), use_all }
}

/// A fixed `movetime`: use it all but the overhead.
pub fn fixed(movetime: u64, overhead: u64) -> Budget {
    let t = movetime.saturating_sub(overhead.min(movetime / 2)).max(1);
    Budget { soft: t, hard: t, use_all: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_limit_never_exceeds_the_clock() {
        for time in [0, 1, 10, 100, 1000, 60_000, 3_600_000] {
            for inc in [0, 100, 5000] {
                for byoyomi in [0, 1000, 10_000] {
                    for mtg in [None, Some(1), Some(5), Some(40)] {
                        for overhead in [0, 10, 50, 500] {
                            let c = Clock { time, inc, byoyomi, moves_to_go: mtg };
                            let b = budget(c, overhead);
                            assert!(b.soft <= b.hard, "{c:?} {b:?}");
                            assert!(b.hard <= (time + byoyomi).saturating_sub(overhead).max(1), "{c:?} {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_last_move_before_the_control_may_use_the_whole_clock() {
        let b = budget(Clock { time: 1000, inc: 0, byoyomi: 0, moves_to_go: Some(1) }, 50);
        assert_eq!((b.soft, b.hard), (950, 950));
        let b = budget(Clock { time: 1000, inc: 0, byoyomi: 0, moves_to_go: Some(2) }, 50);
        assert_eq!((b.soft, b.hard), (500, 500));
        let b = budget(Clock { time: 30_000, inc: 0, byoyomi: 0, moves_to_go: None }, 50);
        assert_eq!((b.soft, b.hard), (1500, 3000));
    }

    #[test]
    fn the_largest_clocks_do_not_wrap() {
        let max = u64::MAX;
        for (time, inc, byoyomi) in [(max, 0, 0), (max, max, max), (0, max, 0), (0, 0, max), (max, 0, 1), (1, max, 0)] {
            for mtg in [None, Some(1), Some(u32::MAX)] {
                let c = Clock { time, inc, byoyomi, moves_to_go: mtg };
                let b = budget(c, 5000);
                assert!(1 <= b.soft && b.soft <= b.hard, "{c:?} {b:?}");
                let usable = (time as u128 + byoyomi as u128).saturating_sub(5000).max(1);
                assert!(b.hard as u128 <= usable, "{c:?} {b:?}");
                if time == max || byoyomi == max {
                    assert!(b.hard > 1 << 40, "a huge clock gives a huge budget: {c:?} {b:?}");
                }
            }
        }
        // The line: both clocks at their largest and a byoyomi of 1 ms.
        let b = budget(Clock { time: max, inc: 0, byoyomi: 1, moves_to_go: None }, 50);
        assert_eq!((b.soft, b.hard), (max / 20, max / 20 * 2));
    }

    #[test]
    fn byoyomi_alone_is_used() {
        let b = budget(Clock { time: 0, inc: 0, byoyomi: 1000, moves_to_go: None }, 50);
        assert!(b.hard >= 800 && b.hard <= 950, "{b:?}");
    }
}
