//! Judkins shogi as a variant: its entry in the list of variants (`crate::variants`), with the
//! positions `tetrarch bench` searches (openings, middlegames and endgames; the node totals
//! are the search's signature, held by tests/bench.rs).

use crate::rules::{BenchPositions, SearchPolicy, VariantSpec};

pub const VARIANT: VariantSpec = VariantSpec {
    name: "judkins",
    title: "Judkins shogi",
    seats: "bw",
    players: &["b", "w"],
    files: 6,
    ranks: 6,
    keyword: "sfen",
    search: SearchPolicy::DEFAULT,
    bench: &JUDKINS,
};

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
