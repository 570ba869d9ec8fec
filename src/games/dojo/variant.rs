//! Dojo chess as a variant: its entry in the list of variants (`crate::variants`), with the
//! positions `tetrarch bench` searches (openings, middlegames and endgames, played on from the openings file by short searches; the node totals
//! are the search's signature, held by tests/bench.rs).

use crate::rules::{BenchPositions, SearchPolicy, VariantSpec};

pub const VARIANT: VariantSpec = VariantSpec {
    name: "dojo",
    title: "Dojo chess",
    seats: "wb",
    players: &["w", "b"],
    files: 8,
    ranks: 8,
    keyword: "fen",
    search: SearchPolicy::DEFAULT,
    bench: &DOJO,
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
