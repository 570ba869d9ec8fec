//! What the per-game benches (chaturanga, dojo, judtho) measure the same way: perft speed from a
//! position, and what a one-second search reaches.

use std::time::Instant;
use tetrarch::rules::{Game, Record, perft};
use tetrarch::search::time::fixed;
use tetrarch::search::{Control, Limits, Searcher};

/// Perft of `pos` at each depth, one line each: nodes, time, nodes per second.
pub fn perft_speed<G: Game>(pos: &G, label: &str, depths: &[u32], required: &str) {
    for &depth in depths {
        let t = Instant::now();
        let n = perft(pos, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "  perft {depth} {label} {n:>12} nodes  {s:7.3} s  {:>12.0} nodes/s  (required: {required})",
            n as f64 / s
        );
    }
}

/// What one search from `pos` reached.
pub struct OneSecond {
    pub depth: u32,
    pub nodes: u64,
    pub nps: f64,
    pub best: String,
}

/// One search of one second from `pos`, in a fresh searcher.
pub fn one_second<G: Game>(pos: &G, best_reply: bool) -> OneSecond {
    search(pos, Limits { budget: Some(fixed(1000, 0)), best_reply, ..Limits::default() })
}

/// One search of `pos` to `depth`, in a fresh searcher: the same nodes every run.
// Only some of the benches that include this module search to a fixed depth.
#[allow(dead_code)]
pub fn fixed_depth<G: Game>(pos: &G, depth: u32, best_reply: bool) -> OneSecond {
    search(pos, Limits { depth: Some(depth), best_reply, ..Limits::default() })
}

fn search<G: Game>(pos: &G, limits: Limits) -> OneSecond {
    let mut searcher: Searcher<G> = Searcher::new(64);
    let t = Instant::now();
    let r = searcher.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
    let nps = r.nodes as f64 / t.elapsed().as_secs_f64();
    OneSecond { depth: r.depth, nodes: r.nodes, nps, best: r.best.map(|m| pos.format_move(m)).unwrap_or_default() }
}
