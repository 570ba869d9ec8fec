//! `tetrarch tune`: fits an evaluation's weights to the results of played games (Texel's
//! method). Each quiet position of each game is labelled with the game's result; the weights are
//! moved one at a time, by shrinking steps, while the mean squared difference between the
//! results and the evaluation's predicted score (a logistic curve of the evaluation) falls.
//! Every tenth game is held out, and its error is reported beside the fitted one, so that a fit
//! that only learns its own games shows. A game may also carry another engine's evaluation of
//! each of its positions (a list "evals"); its positions are then fitted to a blend of the
//! result and that evaluation's predicted score.

use crate::arbiter::jsonl::evals_of_line;
use crate::arbiter::record::ParsedGame;
use crate::arbiter::rescore::{game_of_json, result_points};
use crate::rules::Seat;
use crate::rules::weights::{Fit, Tunable};
use crate::variants::{self, TunedVisitor};

/// The seats whose evaluation a game's positions are fitted to, each with its result: the first
/// side's in a two-sided game; in all against all, every army's share of the three others it
/// finished ahead of (a tie counts half), from the places the game's record gives.
fn results<G: Tunable>(g: &ParsedGame) -> Result<Vec<(Seat, f64)>, String> {
    if G::FIT == Fit::FirstSide {
        let r = first_side_result(&g.result).ok_or_else(|| format!("result {} is not a two-sided result", g.result))?;
        return Ok(vec![(Seat(0), r)]);
    }
    let places: Vec<u32> = g
        .tag("Places")
        .ok_or("no places (all against all's results are its places)")?
        .split('-')
        .map(|p| p.parse().map_err(|_| format!("place '{}'", p)))
        .collect::<Result<_, _>>()?;
    let n = G::VARIANT.seats.len();
    if places.len() != n {
        return Err(format!("{} places, not {}", places.len(), n));
    }
    Ok((0..n)
        .map(|s| {
            let share: f64 = (0..n)
                .filter(|&o| o != s)
                .map(|o| match places[s].cmp(&places[o]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                })
                .sum();
            (Seat(s as u8), share / (n - 1) as f64)
        })
        .collect())
}

/// A position, a seat, and the result of its game for that seat: 1 won, 0.5 drawn, 0 lost (all
/// against all: its share of the other armies it finished ahead of).
pub struct Sample<P> {
    pub pos: P,
    pub seat: Seat,
    /// What the fit aims at: the result, or its blend with `eval`'s predicted score.
    pub result: f64,
    /// Another engine's evaluation of the position from the seat's side, in centipawns (a mate
    /// as +-10000), where the game's line carries "evals".
    pub eval: Option<i32>,
}

/// What a tuning run is given.
pub struct TuneConfig {
    /// JSON lines of `tetrarch match --jsonl`: (name, text).
    pub files: Vec<(String, String)>,
    /// Passes over the weights at each step size, at most.
    pub passes: usize,
    /// Threads that share out the positions.
    pub threads: usize,
    /// The first step size; it halves down to 1. A game whose evaluation is read through a
    /// flat curve (Dojo's many draws) needs larger steps than Judkins's 8.
    pub step: i32,
    /// In games that carry "evals": the share of the game's result in each position's target;
    /// the rest is the predicted score of the evaluation given (1: results alone).
    pub result_share: f64,
}

/// Tunes the weights of `variant` and returns the text of the new table; `log` receives progress.
pub fn run(variant: &str, cfg: &TuneConfig, log: &mut dyn FnMut(String)) -> Result<String, String> {
    struct Run<'a>(&'a str, &'a TuneConfig, &'a mut dyn FnMut(String));
    impl TunedVisitor for Run<'_> {
        type Output = Result<String, String>;
        fn visit<G: Tunable>(self) -> Result<String, String> {
            run_game::<G>(self.0, self.1, self.2)
        }
    }
    variants::visit_tuned(variant, Run(variant, cfg, log)).map_err(|e| format!("tune: {}", e))?
}

fn run_game<G: Tunable>(variant: &str, cfg: &TuneConfig, log: &mut dyn FnMut(String)) -> Result<String, String> {
    let (mut games, mut evals) = (Vec::new(), Vec::new());
    for (name, text) in &cfg.files {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = |e: String| format!("{} line {}: {}", name, n + 1, e);
            games.push(game_of_json(line).map_err(at)?);
            evals.push(evals_of_line(line).map_err(at)?);
        }
    }
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        if g.tag("Variant") != Some(variant) {
            return Err(format!("game {}: variant {:?}, not {}", i + 1, g.tag("Variant"), variant));
        }
        let samples = samples_of::<G>(g, evals[i].as_deref()).map_err(|e| format!("game {}: {}", i + 1, e))?;
        if i % 10 == 9 { held.extend(samples) } else { fit.extend(samples) }
    }
    log(format!("{} games: {} positions to fit, {} held out", games.len(), fit.len(), held.len()));
    if fit.is_empty() || held.is_empty() {
        return Err("tune: too few quiet positions (give more games)".into());
    }
    if fit.iter().any(|s| s.eval.is_some()) {
        blend_evals(&mut fit, &mut held, cfg.result_share, log);
    }
    let eval = |p: &G, seat: Seat, w: &G::Weights| p.eval_with(seat, w);
    let w0 = G::weights();
    let (start, fixed) = G::to_list(&w0);
    let k = fit_scale(&fit, |p, s| eval(p, s, &w0), cfg.threads);
    let before =
        (error(&fit, k, |p, s| eval(p, s, &w0), cfg.threads), error(&held, k, |p, s| eval(p, s, &w0), cfg.threads));
    log(format!("scale {:.1} cp; error before: fitted {:.6}, held out {:.6}", k, before.0, before.1));
    let best = descend(&fit, k, start, &fixed, cfg, &G::from_list, eval, log);
    let w = G::from_list(&best);
    let after =
        (error(&fit, k, |p, s| eval(p, s, &w), cfg.threads), error(&held, k, |p, s| eval(p, s, &w), cfg.threads));
    log(format!("error after: fitted {:.6}, held out {:.6}", after.0, after.1));
    Ok(G::to_rust(&w))
}

/// The quiet positions of one game: not in check, past the opening, and where the move played
/// next was not a capture or promotion (a position in the middle of an exchange is judged by its
/// end, which the static evaluation does not see).
/// Each position gives a sample for each seat that `results` names and that is still in
/// the game.
/// `evals`, where given, holds another engine's evaluation of the position before each move,
/// from the side to move's view.
pub fn samples_of<G: Tunable>(g: &ParsedGame, evals: Option<&[i32]>) -> Result<Vec<Sample<G>>, String> {
    let results = results::<G>(g)?;
    if let Some(e) = evals.filter(|e| e.len() != g.moves.len()) {
        return Err(format!("{} evals for {} moves", e.len(), g.moves.len()));
    }
    let mut pos = match g.tag("StartPosition") {
        Some(text) => G::from_text(text)?,
        None => G::startpos(),
    };
    let skip: usize = g.tag("OpeningPlies").and_then(|n| n.parse().ok()).unwrap_or(0);
    let mut out = Vec::new();
    for (ply, text) in g.moves.iter().enumerate() {
        let m = pos.parse_move(text).map_err(|e| format!("move {} '{}': {}", ply + 1, text, e))?;
        if ply >= skip && !pos.must_answer_check() && pos.tactical_value(m).is_none() {
            for &(seat, result) in &results {
                if !pos.side_lost(pos.side_of(seat)) {
                    let mine = pos.side_of(seat) == pos.side_of(pos.to_move());
                    let eval = evals.map(|e| if mine { e[ply] } else { -e[ply] });
                    out.push(Sample { pos: pos.clone(), seat, result, eval });
                }
            }
        }
        pos.play(m);
    }
    Ok(out)
}

/// Turns each target of a position that carries another engine's evaluation into
/// `share` x result + (1 - share) x that evaluation's predicted score, read through the
/// logistic curve that fits the results best (that engine's centipawns are not ours).
fn blend_evals<P: Sync>(fit: &mut [Sample<P>], held: &mut [Sample<P>], share: f64, log: &mut dyn FnMut(String)) {
    // The evaluation given stands in for the position, so that the scale is fitted as ours is.
    let rated: Vec<Sample<i32>> = fit
        .iter()
        .filter_map(|s| s.eval.map(|e| Sample { pos: e, seat: s.seat, result: s.result, eval: None }))
        .collect();
    let k = fit_scale(&rated, |&e, _| e, 2);
    log(format!(
        "{} positions carry evals: scale {:.1} cp, their error against the results {:.6}; targets {:.2} result",
        rated.len(),
        k,
        error(&rated, k, |&e, _| e, 2),
        share
    ));
    for s in fit.iter_mut().chain(held.iter_mut()) {
        if let Some(e) = s.eval {
            s.result = share * s.result + (1.0 - share) * sigmoid(e, k);
        }
    }
}

/// The first side's share of a two-sided result: `1-0`, `1/2-1/2`, or Double Mate's seat by
/// seat `1-0-1-0`, where the first and third seats are one side.
fn first_side_result(r: &str) -> Option<f64> {
    let seats = r.split('-').count();
    match result_points(r, seats).ok()?[..] {
        [a, b] if a + b == 1.0 => Some(a),
        [a, b, c, d] if a == c && b == d && a + b == 1.0 => Some(a),
        _ => None,
    }
}

fn sigmoid(eval: i32, k: f64) -> f64 {
    1.0 / (1.0 + (-(eval as f64) / k).exp())
}

/// The mean squared difference between results and predicted scores, shared out over threads.
pub fn error<P: Sync>(samples: &[Sample<P>], k: f64, eval: impl Fn(&P, Seat) -> i32 + Sync, threads: usize) -> f64 {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                let eval = &eval;
                s.spawn(move || part.iter().map(|x| (x.result - sigmoid(eval(&x.pos, x.seat), k)).powi(2)).sum::<f64>())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    });
    total / samples.len() as f64
}

/// The scale of the logistic curve that fits the results best with the weights as they are
/// (golden-section search over 20 to 2000 centipawns), so that the weights are then moved
/// against a curve that does not move.
fn fit_scale<P: Sync>(samples: &[Sample<P>], eval: impl Fn(&P, Seat) -> i32 + Sync, threads: usize) -> f64 {
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
    eval: impl Fn(&P, Seat, &W) -> i32 + Sync,
    log: &mut dyn FnMut(String),
) -> Vec<i32> {
    let err = |params: &[i32]| {
        let w = make(params);
        error(samples, k, |p, s| eval(p, s, &w), cfg.threads)
    };
    let mut best = err(&params);
    let mut step = cfg.step.max(1);
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
