//! Four-handed Chaturanga, both forms, as a variant: its entry in the list of variants (`crate::variants`), with the
//! positions `tetrarch bench` searches (openings, middlegames and endgames, played on from the openings files by short searches; the node totals
//! are the search's signature, held by tests/bench.rs).

use crate::rules::{BenchPositions, VariantSpec};

pub const DOUBLE_MATE_VARIANT: VariantSpec = VariantSpec {
    name: "chaturanga",
    title: "four-handed Chaturanga, Double Mate",
    seats: "ybrg",
    players: &["yr", "bg"],
    files: 8,
    ranks: 8,
    keyword: "fen",
    search: super::DOUBLE_MATE_SEARCH,
    bench: &CHATURANGA,
};

pub const ALL_AGAINST_ALL_VARIANT: VariantSpec = VariantSpec {
    name: "chaturanga-ffa",
    title: "four-handed Chaturanga, all against all",
    seats: "ybrg",
    players: &["y", "b", "r", "g"],
    files: 8,
    ranks: 8,
    keyword: "fen",
    search: super::ALL_AGAINST_ALL_SEARCH,
    bench: &CHATURANGA_FFA,
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
