//! Scores, Elo estimates with their intervals, and the sequential probability ratio test.

/// Game scores of one engine: each game scores 1, 1/2 or 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn add(&mut self, points: f64) {
        if points >= 0.75 {
            self.wins += 1;
        } else if points <= 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
    pub fn score(&self) -> f64 {
        if self.games() == 0 { 0.5 } else { self.points() / self.games() as f64 }
    }

    /// The Elo difference the score implies, with a 95% interval from the trinomial variance.
    /// A score of 0 or 1 implies an infinite difference. Where the games show no spread at all
    /// (all won, all lost, all drawn) the trinomial interval would shrink to a point, so the
    /// Wilson interval of the score stands in for it.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let s = self.score();
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * (0.0 - s).powi(2);
        const Z: f64 = 1.959964;
        if var == 0.0 {
            let centre = (s + Z * Z / (2.0 * n)) / (1.0 + Z * Z / n);
            let half = Z / (1.0 + Z * Z / n) * (s * (1.0 - s) / n + Z * Z / (4.0 * n * n)).sqrt();
            // At 0 and 1 the bound on that side is exact: nothing is below no points.
            let lo = if s <= 0.0 { f64::NEG_INFINITY } else { elo_of(centre - half) };
            let hi = if s >= 1.0 { f64::INFINITY } else { elo_of(centre + half) };
            return (elo_of(s), lo, hi);
        }
        let half = Z * (var / n).sqrt();
        (elo_of(s), elo_of(s - half), elo_of(s + half))
    }
}

/// The Elo difference a score implies: infinite at 0 and 1.
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo figure for people: signed, rounded to `decimals`, never `-0`, and `+inf`/`-inf`
/// where the score is all or nothing.
pub fn show_elo(x: f64, decimals: usize) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf".into() } else { "-inf".into() };
    }
    let scale = 10f64.powi(decimals as i32);
    // Adding 0.0 turns a negative zero into a positive one.
    let r = (x * scale).round() / scale + 0.0;
    format!("{:+.*}", decimals, r)
}

fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; all four required).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut v = [None; 4];
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, x) = w.split_once('=').ok_or_else(|| format!("sprt: '{}' is not key=value", w))?;
            let x: f64 = x.parse().map_err(|_| format!("sprt: '{}' is not a number", x))?;
            let i = ["elo0", "elo1", "alpha", "beta"]
                .iter()
                .position(|&n| n == k)
                .ok_or_else(|| format!("sprt: unknown '{}'", k))?;
            v[i] = Some(x);
        }
        let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = v else {
            return Err("sprt: needs elo0, elo1, alpha and beta".into());
        };
        if elo1 <= elo0 || !(0.0..0.5).contains(&alpha) || !(0.0..0.5).contains(&beta) || alpha == 0.0 || beta == 0.0 {
            return Err("sprt: needs elo0 < elo1 and 0 < alpha, beta < 0.5".into());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0) for the first engine's tally,
    /// in the usual normal approximation of the generalised SPRT.
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = t.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = t.score();
        let (w, d, l) = (t.wins as f64 / n, t.draws as f64 / n, t.losses as f64 / n);
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_score_is_zero() {
        let t = Tally { wins: 10, draws: 10, losses: 10 };
        let (e, lo, hi) = t.elo();
        assert!(e.abs() < 1e-9);
        assert!(lo < 0.0 && hi > 0.0);
        assert!((elo_of(0.75) - 190.85).abs() < 0.1);
    }

    #[test]
    fn all_or_nothing_scores_read_as_infinite_with_a_real_interval() {
        let lost = Tally { wins: 0, draws: 0, losses: 3 };
        let (e, lo, hi) = lost.elo();
        assert_eq!((show_elo(e, 0), show_elo(lo, 0)), ("-inf".to_string(), "-inf".to_string()));
        // Three losses do not rule out an engine some 40 Elo better (Wilson's 56% upper bound).
        assert!(hi.is_finite() && hi > 0.0, "{hi}");
        let won = Tally { wins: 5, draws: 0, losses: 0 };
        assert_eq!(show_elo(won.elo().0, 1), "+inf");
        let drawn = Tally { wins: 0, draws: 4, losses: 0 };
        let (e, lo, hi) = drawn.elo();
        assert_eq!(show_elo(e, 0), "+0");
        assert!(lo < -100.0 && hi > 100.0);
        assert_eq!(show_elo(-0.4, 0), "+0");
        assert_eq!(show_elo(-0.04, 1), "+0.0");
        assert_eq!(show_elo(-12.46, 1), "-12.5");
    }

    #[test]
    fn sprt_decides_lopsided_results() {
        let s = Sprt::parse(&["elo0=0 elo1=10 alpha=0.05 beta=0.05".to_string()]).unwrap();
        assert_eq!(s.state(&Tally { wins: 400, draws: 100, losses: 100 }), SprtState::AcceptH1);
        assert_eq!(s.state(&Tally { wins: 100, draws: 100, losses: 400 }), SprtState::AcceptH0);
        assert_eq!(s.state(&Tally { wins: 3, draws: 2, losses: 3 }), SprtState::Continue);
        assert!(Sprt::parse(&["elo0=5 elo1=0 alpha=0.05 beta=0.05".to_string()]).is_err());
    }
}
