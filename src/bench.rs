//! `tetrarch bench`: a fixed search workload. Its node total is a signature of the search: it
//! changes only when search behaviour changes.

use crate::rules::judkins::Judkins;
use crate::rules::{Game, PLAYABLE, Record, perft_divide};
use crate::search::{Control, Limits, Searcher};
use std::time::Instant;

/// Judkins positions: the start, openings, middlegames with hands, and endgames with checks.
pub const JUDKINS_POSITIONS: &[&str] = &[
    "rbnsgk/5p/6/6/P5/KGSNBR b - 1",
    "rbnsgk/6/5p/P5/6/KGSNBR b - 3",
    "rb1sgk/5p/2n3/6/P2S2/KG1NBR b - 5",
    "2r3/1P4/2N2k/3s2/1G2p1/2KN2 w SR2Bg 30",
    "3G1k/P3s1/5g/K5/+B5/B1+n1+p+s b NRr 117",
    "1b1Bg1/6/3n1k/6/G5/K1SN2 w SR2pr 10",
    "5g/Bp4/6/S4n/r1GKBk/6 b Pnsr 91",
    "2nsg1/1+NP3/1r2k1/K5/GS1B2/6 w RBp 32",
    "4b1/1+P4/4gn/1n4/Kskgs1/3+r2 b Prb 71",
    "1bn1gk/3s1p/3R2/6/K2S2/1G1NBR w p 6",
];

pub struct BenchResult {
    pub nodes: u64,
    pub millis: u128,
}

pub fn run(depth: u32, hash_mib: usize, mut line: impl FnMut(&str)) -> BenchResult {
    let mut searcher: Searcher<Judkins> = Searcher::new(hash_mib);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, text) in JUDKINS_POSITIONS.iter().enumerate() {
        let pos = Judkins::from_text(text).expect("bench positions are valid");
        searcher.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let r = searcher.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
        nodes += r.nodes;
        let best = r.best.map(|m| pos.format_move(m)).unwrap_or_else(|| "resign".into());
        line(&format!("position {:2} nodes {:10} bestmove {:6} {}", i + 1, r.nodes, best, text));
    }
    BenchResult { nodes, millis: start.elapsed().as_millis() }
}

/// `tetrarch perft`: the count split by first move, the total, and the speed.
pub fn perft(variant: &str, depth: u32, position: &str, line: impl FnMut(&str)) -> Result<(), String> {
    crate::with_game!(variant, G => perft_of::<G>(depth, position, line), _ => Err(format!(
        "variant '{}' is not playable yet (playable: {})",
        variant,
        PLAYABLE.join(", ")
    )))
}

fn perft_of<G: Game>(depth: u32, position: &str, mut line: impl FnMut(&str)) -> Result<(), String> {
    let pos = if position.trim().is_empty() { G::startpos() } else { G::from_text(position)? };
    let start = Instant::now();
    let split = perft_divide(&pos, depth.max(1));
    let total: u64 = split.iter().map(|s| s.1).sum();
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in &split {
        line(&format!("{}: {}", pos.format_move(*m), n));
    }
    line("");
    line(&format!("Nodes searched: {}", total));
    line(&format!("Time: {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9)));
    Ok(())
}
