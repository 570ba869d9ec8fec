//! `tetrarch tune`: fits an evaluation's weights to the results of played games (Texel's
//! method). Each quiet position of each game is labelled with the game's result; the weights are
//! moved one at a time, by shrinking steps, while the mean squared difference between the
//! results and the evaluation's predicted score (a logistic curve of the evaluation) falls.
//! Every tenth game is held out, and its error is reported beside the fitted one, so that a fit
//! that only learns its own games shows.

use crate::arbiter::record::ParsedGame;
use crate::arbiter::rescore::game_of_json;
use crate::games::judkins::{Judkins, WEIGHTS, Weights};
use crate::rules::{Evaluation, Notation};

/// A position and the result of its game for the first seat: 1 won, 0.5 drawn, 0 lost.
pub struct Sample<P> {
    pub pos: P,
    pub result: f64,
}

/// What a tuning run is given.
pub struct TuneConfig {
    /// JSON lines of `tetrarch match --jsonl`: (name, text).
    pub files: Vec<(String, String)>,
    /// Passes over the weights at each step size, at most.
    pub passes: usize,
    /// Threads that share out the positions.
    pub threads: usize,
}

/// Tunes the weights of `variant` and returns the text of the new table; `log` receives progress.
pub fn run(variant: &str, cfg: &TuneConfig, log: &mut dyn FnMut(String)) -> Result<String, String> {
    if variant != "judkins" {
        return Err(format!("tune: {} has no weights table to tune; judkins has", variant));
    }
    let mut games = Vec::new();
    for (name, text) in &cfg.files {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            games.push(game_of_json(line).map_err(|e| format!("{} line {}: {}", name, n + 1, e))?);
        }
    }
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        if g.tag("Variant") != Some(variant) {
            return Err(format!("game {}: variant {:?}, not {}", i + 1, g.tag("Variant"), variant));
        }
        let samples = samples_of::<Judkins>(g).map_err(|e| format!("game {}: {}", i + 1, e))?;
        if i % 10 == 9 { held.extend(samples) } else { fit.extend(samples) }
    }
    log(format!("{} games: {} positions to fit, {} held out", games.len(), fit.len(), held.len()));
    if fit.is_empty() || held.is_empty() {
        return Err("tune: too few quiet positions (give more games)".into());
    }
    let eval = |p: &Judkins, w: &Weights| p.eval_sente_with(w);
    let (start, fixed) = WEIGHTS.to_list();
    let k = fit_scale(&fit, |p| eval(p, &WEIGHTS), cfg.threads);
    let before =
        (error(&fit, k, |p| eval(p, &WEIGHTS), cfg.threads), error(&held, k, |p| eval(p, &WEIGHTS), cfg.threads));
    log(format!("scale {:.1} cp; error before: fitted {:.6}, held out {:.6}", k, before.0, before.1));
    let best = descend(&fit, k, start, &fixed, cfg, &Weights::from_list, eval, log);
    let w = Weights::from_list(&best);
    let after = (error(&fit, k, |p| eval(p, &w), cfg.threads), error(&held, k, |p| eval(p, &w), cfg.threads));
    log(format!("error after: fitted {:.6}, held out {:.6}", after.0, after.1));
    Ok(w.to_rust())
}

/// The quiet positions of one game: not in check, past the opening, and where the move played
/// next was not a capture or promotion (a position in the middle of an exchange is judged by its
/// end, which the static evaluation does not see).
pub fn samples_of<G: Notation + Evaluation>(g: &ParsedGame) -> Result<Vec<Sample<G>>, String> {
    let result = match g.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        r => return Err(format!("result {} is not a two-player result", r)),
    };
    let mut pos = match g.tag("StartPosition") {
        Some(text) => G::from_text(text)?,
        None => G::startpos(),
    };
    let skip: usize = g.tag("OpeningPlies").and_then(|n| n.parse().ok()).unwrap_or(0);
    let mut out = Vec::new();
    for (ply, text) in g.moves.iter().enumerate() {
        let m = pos.parse_move(text).map_err(|e| format!("move {} '{}': {}", ply + 1, text, e))?;
        if ply >= skip && !pos.in_check() && pos.tactical_value(m).is_none() {
            out.push(Sample { pos: pos.clone(), result });
        }
        pos.play(m);
    }
    Ok(out)
}

fn sigmoid(eval: i32, k: f64) -> f64 {
    1.0 / (1.0 + (-(eval as f64) / k).exp())
}

/// The mean squared difference between results and predicted scores, shared out over threads.
pub fn error<P: Sync>(samples: &[Sample<P>], k: f64, eval: impl Fn(&P) -> i32 + Sync, threads: usize) -> f64 {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                let eval = &eval;
                s.spawn(move || part.iter().map(|x| (x.result - sigmoid(eval(&x.pos), k)).powi(2)).sum::<f64>())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    });
    total / samples.len() as f64
}

/// The scale of the logistic curve that fits the results best with the weights as they are
/// (golden-section search over 20 to 2000 centipawns), so that the weights are then moved
/// against a curve that does not move.
fn fit_scale<P: Sync>(samples: &[Sample<P>], eval: impl Fn(&P) -> i32 + Sync, threads: usize) -> f64 {
    let (mut lo, mut hi) = (20.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, a, &eval, threads) < error(samples, b, &eval, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Coordinate descent: each weight that is not fixed is moved by `step` up, else down, and kept
/// where the error falls; a pass with no change halves the step, down to 1.
#[allow(clippy::too_many_arguments)]
fn descend<P: Sync, W: Sync>(
    samples: &[Sample<P>],
    k: f64,
    mut params: Vec<i32>,
    fixed: &[bool],
    cfg: &TuneConfig,
    make: &dyn Fn(&[i32]) -> W,
    eval: impl Fn(&P, &W) -> i32 + Sync,
    log: &mut dyn FnMut(String),
) -> Vec<i32> {
    let err = |params: &[i32]| {
        let w = make(params);
        error(samples, k, |p| eval(p, &w), cfg.threads)
    };
    let mut best = err(&params);
    let mut step = 8;
    while step >= 1 {
        for pass in 0..cfg.passes {
            let mut changed = 0;
            for i in 0..params.len() {
                if fixed[i] {
                    continue;
                }
                for delta in [step, -step] {
                    params[i] += delta;
                    let e = err(&params);
                    if e < best {
                        best = e;
                        changed += 1;
                        break;
                    }
                    params[i] -= delta;
                }
            }
            log(format!("step {} pass {}: error {:.6}, {} weights moved", step, pass + 1, best, changed));
            if changed == 0 {
                break;
            }
        }
        step /= 2;
    }
    params
}
