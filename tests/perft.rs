//! The Judkins perft suite: every count in fixtures/judkins.perft, which comes from an
//! independent implementation (pawn-drop mates excluded, as real shogi rules demand).

mod common;
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::prelude::*;
use tetrarch::rules::{perft, perft_divide};

#[test]
fn judkins_perft_suite() {
    let cases = common::read_perft_suite(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/judkins.perft"));
    assert!(cases.len() >= 9);
    let mut checked = 0;
    for case in &cases {
        let pos = Judkins::from_text(&case.position).unwrap_or_else(|e| panic!("{}: {e}", case.label));
        for &(depth, expected) in &case.counts {
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.label);
            checked += 1;
        }
    }
    assert_eq!(checked, 38, "every count in the suite");
}

#[test]
fn divide_sums_to_perft() {
    let pos = Judkins::startpos();
    let split = perft_divide(&pos, 4);
    assert_eq!(split.len(), 20);
    assert_eq!(split.iter().map(|s| s.1).sum::<u64>(), 118345);
}
