//! `cargo bench --bench dojo`: perft speed from the start position and what a one-second search
//! reaches in Dojo chess. Prints figures; asserts nothing.

mod common;

use tetrarch::games::dojo::Dojo;
use tetrarch::rules::prelude::*;

/// The start, an opening after a capture, and two middlegames from random games with stacks and
/// counters (the last two lines of fixtures/dojo.perft).
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -",
    "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 d5:pP - ",
    "r2r2r1/b1b2r1r/2Bk3N/4N3/3B1N2/8/1R2K3/5R2 b - - 12 43 b1:q/a2:N/c2:Pn/h2:R/a3:B/c3:N/b4:P/b5:p/f5:n/h5:n/b6:r/e7:p d4:1.1.7/f4:1.4.5/e5:0.2.11/c6:0.3.11/h6:0.7.0/a7:0.12.0/c7:13.12.0",
    "rqr5/4r3/nbk1r2N/8/4r3/B3B3/B4KBB/RR1b4 b - - 7 43 d1:B/d2:N/f3:Rb/h3:R/e5:p/d6:pP/b7:p d1:0.3.6/a2:0.13.0/g2:13.13.0/h2:14.0.0/a3:0.1.1/e3:2.2.1/e4:0.0.2/a6:1.13.0/b6:7.6.0/h6:0.8.0",
];

fn main() {
    println!("dojo");
    common::perft_speed(&Dojo::startpos(), "start", &[5, 6], "30 M");
    for text in POSITIONS {
        let pos = Dojo::from_text(text).expect("bench positions are valid");
        let r = common::one_second(&pos, false);
        println!(
            "  1 s depth {:>3}  nodes {:>9}  nps {:>9.0}  bestmove {:<8} {}",
            r.depth,
            r.nodes,
            r.nps,
            r.best,
            &text[..text.len().min(48)]
        );
    }
}
