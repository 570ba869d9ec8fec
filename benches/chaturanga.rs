//! `cargo bench --bench chaturanga`: perft speed from the start position and what a one-second
//! search reaches, in both forms of four-handed Chaturanga. Prints figures; asserts nothing.

use std::time::Instant;
use tetrarch::games::chaturanga::{AllAgainstAll, DoubleMate};
use tetrarch::rules::{Game, Record, perft};
use tetrarch::search::time::fixed;
use tetrarch::search::{Control, Limits, Searcher};

/// The start and two positions from engine games (turns 25 and 61 of a match game).
const POSITIONS: &[&str] = &[
    "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1",
    "bSbPbNrK1rR2/bKbP3rPrPrP/bR1bP1rPrS1gR/1bP6/4yNgPgK1/yP2yP1gNgP1/1yPyP3gP1/yS1yRyK1gP1gS y - 0 25",
    "rK7/6rR1/bK1bP1bPrS2/3bP3gK/yP4gP1yR/2yPyP4/1yP6/yS2yK1gP1gS y - 2 61",
];

fn perft_speed<G: Game>(depth: u32) {
    let pos = G::startpos();
    let t = Instant::now();
    let n = perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("  perft {depth} start   {n:>12} nodes  {s:7.3} s  {:>12.0} nodes/s  (required: 20 M)", n as f64 / s);
}

fn one_second<G: Game>(label: &str, best_reply: bool) {
    for text in POSITIONS {
        let Ok(pos) = G::from_text(text) else { continue };
        let mut searcher: Searcher<G> = Searcher::new(64);
        let limits = Limits { budget: Some(fixed(1000, 0)), best_reply, ..Limits::default() };
        let t = Instant::now();
        let r = searcher.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
        let nps = r.nodes as f64 / t.elapsed().as_secs_f64();
        let best = r.best.map(|m| pos.format_move(m)).unwrap_or_default();
        println!(
            "  1 s {label:<9} depth {:>3}  nodes {:>9}  nps {:>9.0}  bestmove {best:<6} {}",
            r.depth,
            r.nodes,
            nps,
            &text[..text.len().min(40)]
        );
    }
}

fn main() {
    println!("chaturanga (Double Mate)");
    perft_speed::<DoubleMate>(7);
    one_second::<DoubleMate>("", false);
    println!("chaturanga-ffa (all against all)");
    perft_speed::<AllAgainstAll>(7);
    one_second::<AllAgainstAll>("paranoid", false);
    one_second::<AllAgainstAll>("brs", true);
}
