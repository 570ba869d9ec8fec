//! `tetrarch bench`: a fixed search workload over every playable variant. Each variant's node
//! total, and their sum, are a signature of the search: they change only when search behaviour
//! changes (tests/bench.rs holds them).

use crate::rules::registry::{self, BenchPositions, VariantSpec, Visitor};
use crate::rules::{Game, Record, perft_divide};
use crate::search::{Control, Limits, Searcher};
use std::time::Instant;

/// The start, openings, middlegames and endgames of each playable variant (the registry lists each
/// variant's with it); the non-Judkins positions come from the openings files played on by short
/// searches.
pub const JUDKINS: BenchPositions = BenchPositions {
    depth: 9,
    positions: &[
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
    ],
};

pub const DOJO: BenchPositions = BenchPositions {
    depth: 7,
    positions: &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -",
        "r1bqk2r/1ppp1p1p/2nbpnp1/p7/P7/2NP1NP1/1PPBPP1P/R2QKB1R w KQkq - 0 7 - f1:6.6.0/b2:0.6.0/c2:6.6.0/d2:6.0.0/e2:6.6.0/f2:6.6.0/h2:0.6.0/c3:3.2.0/d3:6.5.0/f3:6.3.0/g3:6.1.0/a4:0.4.0/a5:0.5.0/c6:5.4.0/d6:6.1.0/e6:6.3.0/f6:6.2.0/g6:6.0.0/b7:0.6.0/c7:6.6.0/d7:6.6.0/f7:6.6.0/h7:0.6.0/c8:6.6.0",
        "r1b1k2r/pp1nppbp/2p2np1/2Nq4/1P1P4/2P2N2/P4PPP/R1BQKB1R w KQkq - 1 11 d6:pP c1:10.10.0/f1:10.10.0/a2:0.10.0/f2:10.10.0/g2:10.10.0/h2:0.10.0/c3:10.0.0/f3:10.6.0/b4:0.1.0/d4:0.8.0/c5:0.2.3/c6:10.8.0/f6:2.1.0/g6:10.6.0/a7:0.10.0/b7:0.10.0/d7:3.2.0/e7:10.10.0/f7:10.10.0/g7:10.0.0/h7:0.10.0/c8:10.10.0",
        "1r1qk2r/nbnnrn1n/1n3b2/5Q2/3n4/2N3B1/NNNN1NNN/R1RRKR2 w Q - 1 18 g2:n/g6:pN a2:0.2.0/b2:0.2.0/c2:2.2.0/d2:2.2.0/f2:2.2.0/g2:2.0.0/h2:0.2.0/c3:14.13.0/g3:2.0.0/d4:0.0.1/f5:0.0.2/b6:0.1.0/f6:2.14.0/a7:0.2.0/b7:0.5.0/c7:2.2.0/d7:2.2.0/f7:2.2.0/h7:0.2.0",
        "4k3/nn6/8/8/1N6/2rB1N2/6N1/3K3r w - - 2 28 f1:Rn/h1:R/f2:P/a3:Nb/f3:n/b4:Nn/d4:Nn/b5:Pp/f5:pRn/a6:qQ/e7:bN/c8:rR g2:0.12.0/c3:0.0.1/d3:12.0.0/f3:2.1.0/b4:0.5.0/a7:0.12.0/b7:0.12.0",
        "8/5k2/8/4r3/8/4K3/8/4R3 w - - 8 43 g1:Bn/h1:Rb/f2:P/c3:NbRnB/h4:nN/b5:B/c5:B/e6:pP/f6:p/a7:Rr/b7:n/c7:n/d7:b/f7:rB/g7:nP/d8:qQ e5:0.0.4",
    ],
};

pub const CHATURANGA: BenchPositions = BenchPositions {
    depth: 10,
    positions: &[
        "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1",
        "bSbP2rKrR1rS/bNbP1rNrPrP1rP/1bKbP5/1bP4rPgS/4yN1gPgK/6gPgR/1bRyPyPyK1gPgN/yS5yR1 y - 2 17",
        "bSbP2rKrRrN1/1bP2rPrPrP1/1bPbN2rS2/1bPbK5/bR4gKgN1/5gSgPgR/1yPyPyPyK1gP1/1yNyR1yS3 y - 0 25",
        "2bP2rK2/2bP1rPrRrPrP/bKbPbS2rS2/8/3rN1rPgP1/2yS1yKgSgKgR/2yP3gPgN/1bR6 r - 4 39",
        "bS1bP5/3rK4/bK2bP1rSgK1/2bP1gPrP2/rN7/yPgSyN4rR/2yPyPyKgP1gN/6gP1 r - 0 59",
        "2rK3rN1/7yR/bK1bS2rPrP1/2yP3rR1/3yN1gP2/yP1yS3gK1/5gP2/2yK5 y - 7 89",
    ],
};

pub const CHATURANGA_FFA: BenchPositions = BenchPositions {
    depth: 9,
    positions: &[
        "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1",
        "1bP3rR1rS/bN1bP2rKrPrP/bRbPbS1rPrP1rN/bKbP6/6gPgK/3yP1gPgR1/yPyPyP2gP1gN/ySyNyRyK1gP1gS y - 0 17",
        "bS1bPrK1rRrN1/bN2bP1rP2/bKbRbP1rPrS1rP/1bP4rP1/1yP4gP1/yP1yNyP2gPgR/2yP2gPgK1/ySyR1yK1gNgPgS y - 2 25",
        "bSbP3rKrNrS/6rRrP/bKbPbNyN1rP2/3rP4/1yP3gP1gK/bR1yP2gPgN1/3yPgP2gR/ySyRyK3gPgS r - 3 39",
        "rKbP5rS/5yN1rP/bRbPbS1rR3/yP1bP2gN2/1yR6/2bNyP1gPrNgR/yP4yK2/yS5gP1 r bg 3 59",
        "bSbPbN4rS/1bK5bR/2bP3rP1/2yP3rPrK/yP1yP1rP1gP1/1yP2rN1gPyK/5yR2/7gS r g 1 89",
    ],
};

pub const JUDTHO: BenchPositions = BenchPositions {
    depth: 4,
    positions: &[
        "12/12/12/12/12/12/12/12/12/12/12/12 w w:KQCSRNBPPPPPP,r:KQCSRNBPPPPPP,y:KQCSRNBPPPPPP,b:KQCSRNBPPPPPP - wryb 0 1",
        "2rB7bQ1/12/5rNbR5/rP3rQrS1bSbB2bP/12/12/12/12/wP1wP2wQyN3yP1/7yS3yP/3wR5yQ2/5wS6 w w:KCNBPPPP,r:KCRPPPPP,y:KCRBPPPP,b:KCNPPPPP - wryb 0 21",
        "rP1rB7bQ1/rPrR2rK2bP2bKbP/rP2rP1rNbR3bPbP/rP2rPrQrS1bSbBbNbPbP/12/12/12/12/wPwNwP1wBwQyN2yPyPyP/wPwPwP1wP1yPyS2yPyP/3wR5yQyB1/4wKwS2yR1yK1 w w:C,r:C,y:C,b:C - wryb 0 49",
        "rP1rB7bQ1/rPrR2rK2bP2bKbP/rP2rP1rNbRbS2bPbP/rP2rP1rS2bB1bPbP/12/12/4rQyQbN5/4wQ7/wP1wP1wB1yN2yPyPyP/wPwPwPwNwPwSyPyS2yPyP/3wR6yB1/4wK1yR3yK1 w w:C,r:C,y:C,b:C - wryb 12 61",
        "rP1rB6bQ2/rPrR2rK2bP2bKbP/rP2rP1rNbR1bS1bPbP/3rPrQ3bB1bPbP/6rS5/rP11/12/8bN3/wP1wP1wBwS1yQ1yPyPyP/wPwPwP1wP1yPySyN1yPyP/1wN1wR6yB1/2wK2yR4yK1 w w:C,r:C,y:C,b:C - wryb 2 81",
        "rP1rB6bQ2/rPrR2rK3bS1bKbP/rP2rP1rNbR3bPbP/3rP4bB1bPbP/12/rP11/4rQ7/5rS6/wP1wP1wB5yPyP/wPwPwP1wP1yP1yN1yPyP/wK2wRbN5yByK/yR2wN8 y w:C,r:C,y:C,b:C - ybwr 0 111",
        "rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100",
        "rK10bK/10bPbP/12/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:,y:,b:C wry wbrbyb 0 100",
    ],
};

/// One variant's figures.
pub struct VariantBench {
    pub variant: &'static str,
    pub nodes: u64,
    pub millis: u128,
}

pub struct BenchResult {
    pub variants: Vec<VariantBench>,
    pub nodes: u64,
    pub millis: u128,
}

/// Searches every set (or only `only`) to its depth, or to `depth` when given.
pub fn run(
    depth: Option<u32>,
    hash_mib: usize,
    only: Option<&str>,
    mut line: impl FnMut(&str),
) -> Result<BenchResult, String> {
    let sets = registry::VARIANTS.iter().filter_map(|v| v.bench.map(|b| (v, b)));
    let sets: Vec<(&VariantSpec, &BenchPositions)> = sets.filter(|(v, _)| only.is_none_or(|o| o == v.name)).collect();
    if let Some(v) = only
        && sets.is_empty()
    {
        return Err(format!("bench: no positions for variant '{}'", v));
    }
    let mut result = BenchResult { variants: Vec::new(), nodes: 0, millis: 0 };
    for (spec, set) in sets {
        let d = depth.unwrap_or(set.depth);
        struct Bench<'a, F>(&'a BenchPositions, u32, usize, &'a mut F);
        impl<F: FnMut(&str)> Visitor for Bench<'_, F> {
            type Output = Result<VariantBench, String>;
            fn visit<G: Game>(self) -> Self::Output {
                bench_set::<G>(self.0, self.1, self.2, self.3)
            }
        }
        let r = registry::visit(spec.name, Bench(set, d, hash_mib, &mut line)).map_err(|e| e.to_string())??;
        line(&format!("variant {} depth {} nodes {} time {} ms", spec.name, d, r.nodes, r.millis));
        result.nodes += r.nodes;
        result.millis += r.millis;
        result.variants.push(r);
    }
    Ok(result)
}

fn bench_set<G: Game>(
    set: &BenchPositions,
    depth: u32,
    hash_mib: usize,
    line: &mut impl FnMut(&str),
) -> Result<VariantBench, String> {
    let mut searcher: Searcher<G> = Searcher::new(hash_mib);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, text) in set.positions.iter().enumerate() {
        let pos = G::from_text(text).map_err(|e| format!("bench position {} of {}: {}", i + 1, G::VARIANT.name, e))?;
        searcher.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let r = searcher.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
        nodes += r.nodes;
        let best = r.best.map(|m| pos.format_move(m)).unwrap_or_else(|| "resign".into());
        line(&format!("{} {:2} nodes {:10} bestmove {}", G::VARIANT.name, i + 1, r.nodes, best));
    }
    Ok(VariantBench { variant: G::VARIANT.name, nodes, millis: start.elapsed().as_millis() })
}

/// `tetrarch perft`: the count split by first move, the total, and the speed.
/// `tetrarch perft <variant> <depth> [position]`: the position is `startpos`, `sfen|fen <text>`
/// or a bare position string, each optionally followed by `moves ...`; the depth is limited as
/// `go perft` limits it.
pub fn perft(variant: &str, depth: u32, position: &str, line: impl FnMut(&str)) -> Result<(), String> {
    if !(1..=64).contains(&depth) {
        return Err(format!("depth {} is out of range: from 1 to 64, as for go perft", depth));
    }
    struct Perft<'a, F>(u32, &'a str, F);
    impl<F: FnMut(&str)> Visitor for Perft<'_, F> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self) -> Self::Output {
            perft_of::<G>(self.0, self.1, self.2)
        }
    }
    registry::visit(variant, Perft(depth, position, line)).map_err(|e| e.to_string())?
}

fn perft_of<G: Game>(depth: u32, position: &str, mut line: impl FnMut(&str)) -> Result<(), String> {
    let words: Vec<&str> = position.split_whitespace().collect();
    let (start, moves) = crate::rules::position_words(&words)?;
    let start = match start {
        None => G::startpos(),
        Some(text) => G::from_text(&text)?,
    };
    let mut record = crate::rules::Record::new(start);
    record.replay(&moves)?;
    let pos = record.current;
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
