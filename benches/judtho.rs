//! `cargo bench --bench judtho`: Battle-phase perft speed from the position after a full
//! Assembly (one tetrarch played against itself) and from 20 positions after Assemblies of random
//! placements (issue 51 measures on these: the self-play Assembly packs pieces the way few random
//! ones do), and what a one-second search reaches in the Assembly and in the Battles, with the
//! paranoid search and with Best-Reply Search. Prints figures; asserts nothing.

mod common;

use std::time::Instant;
use tetrarch::board::zobrist::SplitMix64;
use tetrarch::games::judtho::Judtho;
use tetrarch::rules::perft;
use tetrarch::rules::prelude::*;

/// The positions after `n` Assemblies of random placements (seeded: the same every run), each
/// with the first Battle move to make.
fn random_assemblies(n: usize) -> Vec<Judtho> {
    let mut rng = SplitMix64(51);
    let mut found = Vec::new();
    while found.len() < n {
        let mut pos = Judtho::startpos();
        let mut moves = <Judtho as Rules>::Moves::<<Judtho as Rules>::Move>::default();
        while pos.in_assembly() {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves.as_slice()[rng.below(moves.len())]);
        }
        if !pos.in_assembly() && pos.static_outcome().is_none() {
            found.push(pos);
        }
    }
    found
}

/// After the 48th placement of a self-play game, White to make the first move.
const AFTER_ASSEMBLY: &str = "rP1rB7bQ1/rPrR2rK2bP2bKbP/rP2rP1rNbR3bPbP/rP2rPrQrS1bSbBbNbPbP/12/12/12/12/wPwNwP1wBwQyN2yPyPyP/wPwPwP1wP1yPyS2yPyP/3wR5yQyB1/4wKwS2yR1yK1 w w:C,r:C,y:C,b:C - wryb 0 49";

/// The start, an Assembly half done, the first Battle, after the First Checkmate, and a Triple
/// Alliance against a single player.
const POSITIONS: &[(&str, &str)] = &[
    (
        "assembly start",
        "12/12/12/12/12/12/12/12/12/12/12/12 w w:KQCSRNBPPPPPP,r:KQCSRNBPPPPPP,y:KQCSRNBPPPPPP,b:KQCSRNBPPPPPP - wryb 0 1",
    ),
    (
        "assembly 20",
        "2rB7bQ1/12/5rNbR5/rP3rQrS1bSbB2bP/12/12/12/12/wP1wP2wQyN3yP1/7yS3yP/3wR5yQ2/5wS6 w w:KCNBPPPP,r:KCRPPPPP,y:KCRBPPPP,b:KCNPPPPP - wryb 0 21",
    ),
    ("battle 49", AFTER_ASSEMBLY),
    (
        "battle 81",
        "rP1rB6bQ2/rPrR2rK2bP2bKbP/rP2rP1rNbR1bS1bPbP/3rPrQ3bB1bPbP/6rS5/rP11/12/8bN3/wP1wP1wBwS1yQ1yPyPyP/wPwPwP1wP1yPySyN1yPyP/1wN1wR6yB1/2wK2yR4yK1 w w:C,r:C,y:C,b:C - wryb 2 81",
    ),
    ("double", "rK6wR3bK/rCrP10/2rP9/12/12/12/12/12/12/12/12/wK10yK r w:S,r:,y:S,b:S wr rybw 0 101"),
    ("triple", "rK10bK/3rN8/12/12/12/12/12/12/12/12/10yCyP/wK6wR3yK b w:S,r:C,y:,b:S wry brbybw 0 101"),
];

fn main() {
    // `-- --depth N`: only the Battle positions, each searched to depth N both ways, a fixed
    // amount of work whose instruction count (`valgrind --tool=callgrind`) repeats exactly on a
    // busy machine, as the one-second searches' speed does not.
    let args: Vec<String> = std::env::args().collect();
    if let Some(depth) = args.iter().position(|a| a == "--depth").and_then(|i| args.get(i + 1)?.parse().ok()) {
        fixed_depth(depth);
        return;
    }
    let pos = Judtho::from_text(AFTER_ASSEMBLY).expect("a valid position");
    common::perft_speed(&pos, "after the Assembly", &[3, 4], "10 M");
    let random = random_assemblies(20);
    for depth in [3, 4] {
        let t = Instant::now();
        let n: u64 = random.iter().map(|p| perft(p, depth)).sum();
        let s = t.elapsed().as_secs_f64();
        println!(
            "  perft {depth} after 20 random Assemblies {n:>12} nodes  {s:7.3} s  {:>12.0} nodes/s  (goal: 20 M)",
            n as f64 / s
        );
    }
    for (label, text) in POSITIONS {
        let pos = Judtho::from_text(text).expect("a valid position");
        for best_reply in [false, true] {
            let r = common::one_second(&pos, best_reply);
            println!(
                "  1 s {label:<15} {:<8} depth {:>3}  nodes {:>9}  nps {:>9.0}  bestmove {}",
                if best_reply { "brs" } else { "paranoid" },
                r.depth,
                r.nodes,
                r.nps,
                r.best
            );
        }
    }
}

/// The Battle positions of `POSITIONS` searched to `depth`, paranoid and Best-Reply, each in a
/// fresh searcher: the nodes of each and their total.
fn fixed_depth(depth: u32) {
    let mut total = 0;
    let t = Instant::now();
    for (label, text) in POSITIONS.iter().filter(|(label, _)| !label.starts_with("assembly")) {
        let pos = Judtho::from_text(text).expect("a valid position");
        for best_reply in [false, true] {
            let r = common::fixed_depth(&pos, depth, best_reply);
            total += r.nodes;
            println!(
                "  depth {depth} {label:<15} {:<8} nodes {:>9}  bestmove {}",
                if best_reply { "brs" } else { "paranoid" },
                r.nodes,
                r.best
            );
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("  depth {depth} total nodes {total:>9}  {s:7.3} s  {:>9.0} nodes/s", total as f64 / s);
}
