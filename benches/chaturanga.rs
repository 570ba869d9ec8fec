//! `cargo bench --bench chaturanga`: perft speed from the start position and what a one-second
//! search reaches, in both forms of four-handed Chaturanga. Prints figures; asserts nothing.

mod common;

use tetrarch::games::chaturanga::{AllAgainstAll, DoubleMate};
use tetrarch::rules::prelude::*;

/// The start and two positions from engine games (turns 25 and 61 of a match game).
const POSITIONS: &[&str] = &[
    "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1",
    "bSbPbNrK1rR2/bKbP3rPrPrP/bR1bP1rPrS1gR/1bP6/4yNgPgK1/yP2yP1gNgP1/1yPyP3gP1/yS1yRyK1gP1gS y - 0 25",
    "rK7/6rR1/bK1bP1bPrS2/3bP3gK/yP4gP1yR/2yPyP4/1yP6/yS2yK1gP1gS y - 2 61",
];

fn one_second_each<G: Game>(label: &str, best_reply: bool) {
    for text in POSITIONS {
        let Ok(pos) = G::from_text(text) else { continue };
        let r = common::one_second(&pos, best_reply);
        println!(
            "  1 s {label:<9} depth {:>3}  nodes {:>9}  nps {:>9.0}  bestmove {:<6} {}",
            r.depth,
            r.nodes,
            r.nps,
            r.best,
            &text[..text.len().min(40)]
        );
    }
}

fn main() {
    println!("chaturanga (Double Mate)");
    common::perft_speed(&DoubleMate::startpos(), "start  ", &[7], "20 M");
    one_second_each::<DoubleMate>("", false);
    println!("chaturanga-ffa (all against all)");
    common::perft_speed(&AllAgainstAll::startpos(), "start  ", &[7], "20 M");
    one_second_each::<AllAgainstAll>("paranoid", false);
    one_second_each::<AllAgainstAll>("brs", true);
}
