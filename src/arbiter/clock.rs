//! Time controls and the per-seat clocks the arbiter keeps.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// `[moves/]base[+inc]` in milliseconds, with an optional byoyomi.
    Clock {
        base: u64,
        inc: u64,
        byoyomi: u64,
        moves_per_period: Option<u32>,
    },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
    /// No clock and no limit: a person who takes the time they like (`tetrarch gui`).
    Unlimited,
}

impl TimeControl {
    /// Parses `60`, `10+0.1`, `40/60`, `40/60+0.5` (seconds), with `byoyomi` in seconds.
    pub fn parse_clock(text: &str, byoyomi: f64) -> Result<TimeControl, String> {
        let secs = |s: &str| -> Result<u64, String> {
            let v: f64 = s.parse().map_err(|_| format!("time control: '{}' is not a number of seconds", s))?;
            if !(0.0..=1e7).contains(&v) {
                return Err(format!("time control: {} seconds is out of range", v));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.parse().map_err(|_| format!("time control: '{}' is not a move count", m))?;
                if m == 0 {
                    return Err("time control: moves per period must be at least 1".into());
                }
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (secs(b)?, secs(i)?),
            None => (secs(rest)?, 0),
        };
        let byoyomi = secs(&byoyomi.to_string())?;
        if base == 0 && inc == 0 && byoyomi == 0 {
            return Err("time control: no time at all".into());
        }
        Ok(TimeControl::Clock { base, inc, byoyomi, moves_per_period: moves })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |ms: u64| {
            let v = ms as f64 / 1000.0;
            if v.fract() == 0.0 { format!("{}", v as u64) } else { format!("{}", v) }
        };
        match *self {
            TimeControl::Clock { base, inc, byoyomi, moves_per_period } => {
                if let Some(m) = moves_per_period {
                    write!(f, "{}/", m)?;
                }
                write!(f, "{}", s(base))?;
                if inc > 0 {
                    write!(f, "+{}", s(inc))?;
                }
                if byoyomi > 0 {
                    write!(f, " byoyomi {}", s(byoyomi))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(ms) => write!(f, "movetime {}", s(ms)),
            TimeControl::Depth(d) => write!(f, "depth {}", d),
            TimeControl::Nodes(n) => write!(f, "nodes {}", n),
            TimeControl::Unlimited => write!(f, "none"),
        }
    }
}

/// One seat's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatClock {
    pub remaining: u64,
    pub moves: u32,
}

impl SeatClock {
    pub fn new(tc: &TimeControl) -> Self {
        let remaining = match tc {
            TimeControl::Clock { base, .. } => *base,
            _ => 0,
        };
        SeatClock { remaining, moves: 0 }
    }

    /// The most a move may take before it is late (without the arbiter's margin), or none for
    /// depth and node limits, which are bounded by the arbiter's hang timeout instead.
    pub fn allowed(&self, tc: &TimeControl) -> Option<u64> {
        match *tc {
            TimeControl::Clock { byoyomi, .. } => Some(self.remaining.saturating_add(byoyomi)),
            TimeControl::MoveTime(ms) => Some(ms),
            _ => None,
        }
    }

    /// The main time left, under a clock; none under a fixed move time, depth or nodes.
    pub fn left_ms(&self, tc: &TimeControl) -> Option<u64> {
        matches!(tc, TimeControl::Clock { .. }).then_some(self.remaining)
    }

    /// Charges a move that took `elapsed` ms; returns false when it overstepped by more than
    /// `margin`.
    pub fn charge(&mut self, tc: &TimeControl, elapsed: u64, margin: u64) -> bool {
        if let Some(a) = self.allowed(tc)
            && elapsed > a + margin
        {
            return false;
        }
        if let TimeControl::Clock { base, inc, moves_per_period, .. } = *tc {
            // Time beyond the main time came out of the byoyomi (or the margin).
            self.remaining = self.remaining.saturating_sub(elapsed) + inc;
            self.moves += 1;
            if let Some(m) = moves_per_period
                && self.moves.is_multiple_of(m)
            {
                self.remaining += base;
            }
        }
        true
    }
}

/// The `go` command for `seat`, under each seat's own time control (`tcs`, in seat order): a
/// seat on a clock is told every clock there is, and the increments of the seats that have
/// one; a seat at a fixed level is told its level.
pub fn go_command(tcs: &[TimeControl], clocks: &[SeatClock], letters: &str, seat: usize) -> String {
    match tcs[seat] {
        TimeControl::Clock { byoyomi, moves_per_period, .. } => {
            let mut s = String::from("go");
            let clocked = || tcs.iter().zip(clocks).zip(letters.chars());
            for ((tc, c), l) in clocked() {
                if matches!(tc, TimeControl::Clock { .. }) {
                    s.push_str(&format!(" {}time {}", l, c.remaining));
                }
            }
            for ((tc, _), l) in clocked() {
                if let TimeControl::Clock { inc, .. } = tc
                    && *inc > 0
                {
                    s.push_str(&format!(" {}inc {}", l, inc));
                }
            }
            if byoyomi > 0 {
                s.push_str(&format!(" byoyomi {}", byoyomi));
            }
            if let Some(m) = moves_per_period {
                // The moves left in the seat's own period (the engine reads only its own).
                s.push_str(&format!(" movestogo {}", m - clocks[seat].moves % m));
            }
            s
        }
        TimeControl::MoveTime(ms) => format!("go movetime {}", ms),
        TimeControl::Depth(d) => format!("go depth {}", d),
        TimeControl::Nodes(n) => format!("go nodes {}", n),
        TimeControl::Unlimited => "go infinite".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let tc = TimeControl::parse_clock("10+0.1", 0.0).unwrap();
        assert_eq!(tc, TimeControl::Clock { base: 10_000, inc: 100, byoyomi: 0, moves_per_period: None });
        assert_eq!(tc.to_string(), "10+0.1");
        let tc = TimeControl::parse_clock("40/60", 0.0).unwrap();
        assert_eq!(tc.to_string(), "40/60");
        let tc = TimeControl::parse_clock("0", 1.0).unwrap();
        assert_eq!(tc.to_string(), "0 byoyomi 1");
        assert!(TimeControl::parse_clock("0", 0.0).is_err());
        assert!(TimeControl::parse_clock("x", 0.0).is_err());
        assert!(TimeControl::parse_clock("0/5", 0.0).is_err());
    }

    #[test]
    fn charging() {
        let tc = TimeControl::parse_clock("1+0.5", 0.0).unwrap();
        let mut c = SeatClock::new(&tc);
        assert!(c.charge(&tc, 300, 0));
        assert_eq!(c.remaining, 1200);
        assert!(!c.charge(&tc, 1300, 50));
        let tc = TimeControl::parse_clock("0", 1.0).unwrap();
        let mut c = SeatClock::new(&tc);
        assert!(c.charge(&tc, 990, 0));
        assert_eq!(c.remaining, 0);
        assert!(!c.charge(&tc, 1100, 50));
        let tc = TimeControl::parse_clock("2/1", 0.0).unwrap();
        let mut c = SeatClock::new(&tc);
        assert!(c.charge(&tc, 400, 0));
        assert!(c.charge(&tc, 400, 0));
        assert_eq!(c.remaining, 1200);
    }
}
