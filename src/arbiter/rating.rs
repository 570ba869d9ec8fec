//! Ratings for games of two to four players on one Elo scale, from the places each game gives.
//!
//! The model (see `docs/match.md`, "Ratings"): every game is read as the pairwise results it
//! implies, as in Bradley-Terry: a player placed ahead of another beats it, two players that
//! share a place draw. Engine `i` has a strength `r_i`, and ahead of engine `j` it finishes
//! with probability `1 / (1 + 10^((r_j - r_i) / 400))`. In a two-player game this is exactly the
//! usual Elo model, so two engines' rating difference is the Elo their score implies.
//!
//! The ratings maximise the likelihood of all those pairs (Newton's method; the likelihood is
//! concave), with a weak prior of one drawn pair between every two engines, which keeps an
//! engine that never lost finite. The pairs of one game are not independent (one bad move can
//! cost a player three places), so the intervals come from the sandwich estimator with each
//! game as one cluster: the spread of the games' own contributions, not the count of pairs,
//! sets their width. Ratings are centred on the engines' mean.

/// One game as the rating sees it: each player's engine and place (1 is best; only the order
/// of places matters, and equal places are shared).
#[derive(Clone, Debug, PartialEq)]
pub struct Placing {
    pub engines: Vec<usize>,
    pub places: Vec<usize>,
}

/// An engine's rating with its 95% interval, in Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

const ELO_PER_NATURAL: f64 = 400.0 / std::f64::consts::LN_10;
const PRIOR_PAIRS: f64 = 1.0;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The pairs of one game: (engine a, engine b, a's score against b).
fn pairs(p: &Placing) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
    let n = p.engines.len().min(p.places.len());
    (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j))).filter_map(move |(i, j)| {
        let (a, b) = (p.engines[i], p.engines[j]);
        if a == b {
            return None;
        }
        let s = if p.places[i] < p.places[j] {
            1.0
        } else if p.places[i] > p.places[j] {
            0.0
        } else {
            0.5
        };
        Some((a, b, s))
    })
}

/// Solves `m x = v` for a small symmetric positive definite `m` (Gaussian elimination with
/// partial pivoting); `None` if it is singular.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Option<Vec<f64>> {
    let n = v.len();
    for c in 0..n {
        let p = (c..n).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        v.swap(c, p);
        for r in c + 1..n {
            let f = m[r][c] / m[c][c];
            for k in c..n {
                m[r][k] -= f * m[c][k];
            }
            v[r] -= f * v[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| m[r][k] * x[k]).sum();
        x[r] = (v[r] - s) / m[r][r];
    }
    Some(x)
}

fn inverse(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let cols: Option<Vec<Vec<f64>>> =
        (0..n).map(|c| solve(m.to_vec(), (0..n).map(|r| if r == c { 1.0 } else { 0.0 }).collect())).collect();
    let cols = cols?;
    Some((0..n).map(|r| (0..n).map(|c| cols[c][r]).collect()).collect())
}

/// Gradient and negated Hessian of the log-likelihood (with the prior) at `theta`, over the
/// free strengths 1..n (engine 0 is held at 0).
fn derivatives(n: usize, games: &[Placing], theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>, f64) {
    let mut g = vec![0.0; n];
    let mut h = vec![vec![0.0; n]; n];
    let mut ll = 0.0;
    let mut add = |a: usize, b: usize, s: f64, w: f64| {
        let p = sigmoid(theta[a] - theta[b]);
        ll += w * (s * p.max(1e-300).ln() + (1.0 - s) * (1.0 - p).max(1e-300).ln());
        g[a] += w * (s - p);
        g[b] -= w * (s - p);
        let q = w * p * (1.0 - p);
        h[a][a] += q;
        h[b][b] += q;
        h[a][b] -= q;
        h[b][a] -= q;
    };
    for a in 0..n {
        for b in a + 1..n {
            add(a, b, 0.5, PRIOR_PAIRS);
        }
    }
    for game in games {
        for (a, b, s) in pairs(game) {
            if a < n && b < n {
                add(a, b, s, 1.0);
            }
        }
    }
    (g[1..].to_vec(), h[1..].iter().map(|r| r[1..].to_vec()).collect(), ll)
}

/// Fits the ratings of `n` engines; each has its rating and 95% interval, the mean rating is 0.
pub fn fit(n: usize, games: &[Placing]) -> Vec<Rating> {
    if n < 2 {
        return vec![Rating { elo: 0.0, lo: 0.0, hi: 0.0 }; n];
    }
    let mut theta = vec![0.0; n];
    let (_, _, mut ll) = derivatives(n, games, &theta);
    for _ in 0..100 {
        let (g, h, _) = derivatives(n, games, &theta);
        let Some(step) = solve(h, g) else { break };
        // Newton's step, halved until the likelihood does not fall (it is concave, so this
        // ends at once near the top).
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..30 {
            let mut next = theta.clone();
            for (k, d) in step.iter().enumerate() {
                next[k + 1] += t * d;
            }
            let (_, _, l) = derivatives(n, games, &next);
            if l >= ll - 1e-12 {
                moved = step.iter().any(|d| (t * d).abs() > 1e-10);
                theta = next;
                ll = l;
                break;
            }
            t /= 2.0;
        }
        if !moved {
            break;
        }
    }

    // The sandwich: A = the negated Hessian (prior included), B = the sum over games of the
    // outer product of each game's own gradient. Cov = A^-1 B A^-1 over the free strengths.
    let (_, a, _) = derivatives(n, games, &theta);
    let mut b = vec![vec![0.0; n - 1]; n - 1];
    for game in games {
        let mut s = vec![0.0; n];
        for (x, y, score) in pairs(game) {
            if x < n && y < n {
                let p = sigmoid(theta[x] - theta[y]);
                s[x] += score - p;
                s[y] -= score - p;
            }
        }
        for i in 1..n {
            for j in 1..n {
                b[i - 1][j - 1] += s[i] * s[j];
            }
        }
    }
    let mut cov = vec![vec![0.0; n]; n];
    if let Some(ai) = inverse(&a) {
        let m = n - 1;
        for i in 0..m {
            for j in 0..m {
                let mut v = 0.0;
                for k in 0..m {
                    for l in 0..m {
                        v += ai[i][k] * b[k][l] * ai[l][j];
                    }
                }
                cov[i + 1][j + 1] = v;
            }
        }
    }
    // Centre: r = C theta with C = I - 11'/n, so Cov(r) = C Cov(theta) C'.
    let mean = theta.iter().sum::<f64>() / n as f64;
    let row_mean: Vec<f64> = (0..n).map(|i| cov[i].iter().sum::<f64>() / n as f64).collect();
    let all_mean = row_mean.iter().sum::<f64>() / n as f64;
    (0..n)
        .map(|i| {
            let var = (cov[i][i] - 2.0 * row_mean[i] + all_mean).max(0.0);
            let elo = (theta[i] - mean) * ELO_PER_NATURAL;
            let half = 1.959964 * var.sqrt() * ELO_PER_NATURAL;
            Rating { elo, lo: elo - half, hi: elo + half }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of `strengths.len()` players drawn from the Plackett-Luce model with those
    /// strengths (Elo): the first place goes to each with probability in proportion to
    /// 10^(r/400), then the next among the rest, and so on. Engines sit in rotation.
    fn simulate(strengths: &[f64], games: usize, seed: u64) -> Vec<Placing> {
        // Seeded, so that the simulated schedules are the same on every run.
        let mut rng = crate::board::zobrist::SplitMix64(seed);
        let n = strengths.len();
        (0..games)
            .map(|g| {
                let engines: Vec<usize> = (0..n).map(|k| (k + g) % n).collect();
                let mut left: Vec<usize> = (0..n).collect();
                let mut places = vec![0; n];
                let mut place = 1;
                while !left.is_empty() {
                    let w: Vec<f64> = left.iter().map(|&p| 10f64.powf(strengths[engines[p]] / 400.0)).collect();
                    let mut x = rng.unit() * w.iter().sum::<f64>();
                    let mut pick = left.len() - 1;
                    for (k, wk) in w.iter().enumerate() {
                        if x < *wk {
                            pick = k;
                            break;
                        }
                        x -= wk;
                    }
                    places[left.remove(pick)] = place;
                    place += 1;
                }
                Placing { engines, places }
            })
            .collect()
    }

    #[test]
    fn two_players_give_the_usual_elo() {
        // 60 wins, 20 draws, 20 losses: a 70% score, +147.2 Elo.
        let mut games = Vec::new();
        for (k, places) in [(60, [1, 2]), (20, [1, 1]), (20, [2, 1])] {
            for g in 0..k {
                let e = if g % 2 == 0 { vec![0, 1] } else { vec![1, 0] };
                let p = if g % 2 == 0 { places.to_vec() } else { vec![places[1], places[0]] };
                games.push(Placing { engines: e, places: p });
            }
        }
        let r = fit(2, &games);
        let diff = r[0].elo - r[1].elo;
        // The prior's one drawn pair pulls it a little towards 0: 70.5/101 instead of 70/100.
        assert!((diff - super::super::stats::elo_of(70.5 / 101.0)).abs() < 0.5, "{diff}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-9);
        assert!(r[0].lo < r[0].elo && r[0].elo < r[0].hi && r[1].lo > -200.0);
    }

    #[test]
    fn four_equal_engines_rate_within_their_intervals_of_each_other_and_of_zero() {
        // Games drawn at random: every interval holds 0 and they all overlap. (One engine's
        // rating can fall outside another's interval by chance here; tests/arbiter.rs plays real
        // identical engines, whose ratings fall inside every interval.)
        for seed in 1..=5 {
            let r = fit(4, &simulate(&[0.0; 4], 200, seed));
            for a in &r {
                assert!(a.lo < 0.0 && 0.0 < a.hi, "seed {seed}: {r:?}");
                for b in &r {
                    assert!(a.lo < b.hi && b.lo < a.hi, "seed {seed}: {r:?}");
                }
            }
        }
        // Results that favour no one rate every engine exactly 0.
        let even: Vec<Placing> = (0..40)
            .map(|g| Placing { engines: (0..4).map(|k| (k + g) % 4).collect(), places: vec![1, 2, 3, 3] })
            .collect();
        for a in fit(4, &even) {
            assert!(a.elo.abs() < 1e-6 && a.lo < 0.0 && a.hi > 0.0, "{a:?}");
        }
    }

    #[test]
    fn a_stronger_engine_rates_clearly_above_and_the_interval_covers_the_truth() {
        let truth = [200.0, 0.0, 0.0, 0.0];
        let centred: Vec<f64> = truth.iter().map(|t| t - 50.0).collect();
        let r = fit(4, &simulate(&truth, 200, 7));
        for b in &r[1..] {
            assert!(r[0].lo > b.hi, "{r:?}");
        }
        // The intervals are honest: over many seeded matches the truth falls inside about 95% of
        // the time (the pairs of a game are correlated, so intervals counting pairs as
        // independent would miss far more often).
        let (mut inside, mut total) = (0, 0);
        for seed in 100..300 {
            let r = fit(4, &simulate(&truth, 100, seed));
            for (x, t) in r.iter().zip(&centred) {
                total += 1;
                if x.lo <= *t && *t <= x.hi {
                    inside += 1;
                }
            }
        }
        let cover = inside as f64 / total as f64;
        assert!((0.90..=0.99).contains(&cover), "coverage {cover}");
    }

    #[test]
    fn engines_that_never_lose_stay_finite() {
        let games: Vec<Placing> = (0..10).map(|_| Placing { engines: vec![0, 1, 2], places: vec![1, 2, 3] }).collect();
        let r = fit(3, &games);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.lo.is_finite() && x.hi.is_finite()), "{r:?}");
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
    }
}
