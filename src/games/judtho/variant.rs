//! Judtho as a variant: its entry in the list of variants (`crate::variants`), with the
//! positions `tetrarch bench` searches (openings, middlegames and endgames, played on from the openings file by short searches; the node totals
//! are the search's signature, held by tests/bench.rs).

use crate::rules::{BenchPositions, VariantSpec};

pub const VARIANT: VariantSpec = VariantSpec {
    name: "judtho",
    title: "Judtho",
    seats: "wryb",
    players: &["w", "r", "y", "b"],
    files: 12,
    ranks: 12,
    keyword: "fen",
    search: super::SEARCH,
    bench: &JUDTHO,
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
