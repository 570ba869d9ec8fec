//! Four-handed Chaturanga, both forms: the rules checked against a deliberately simple second
//! implementation (`tests/chaturanga_ref`), the perft suites in fixtures/, the source text's
//! scenarios, and random games to the end with invariants at every ply.

mod chaturanga_ref;
mod common;

use chaturanga_ref::RefPos;
use tetrarch::rules::chaturanga::{AllAgainstAll, DoubleMate};
use tetrarch::rules::{Game, MoveList, Record, perft};

fn moves_of<G: Game>(pos: &G) -> Vec<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

/// Compares the legal moves at every node of the tree to `depth`, then the counts.
fn cross_check<G: Game>(pos: &G, r: &RefPos, depth: u32) {
    let mut mine = moves_of(pos);
    let mut theirs = r.moves();
    theirs.sort();
    mine.sort();
    assert_eq!(mine, theirs, "legal moves differ in {}", pos.to_text());
    if depth <= 1 {
        return;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &m in list.iter() {
        let text = pos.format_move(m);
        let mut child = pos.clone();
        child.play(m);
        let rc = r.play(&text);
        assert_eq!(child.to_text(), rc.to_text(), "after {} from {}", text, pos.to_text());
        cross_check(&child, &rc, depth - 1);
    }
}

fn cross_check_random<G: Game>(ffa: bool, seed: u64) {
    // Positions from random games, thinned out to keep every stage of the game.
    let all = common::random_positions::<G>(seed, 60, 400);
    let step = (all.len() / 500).max(1);
    let picked: Vec<&G> = all.iter().step_by(step).take(500).collect();
    assert!(picked.len() >= 500, "only {} positions", picked.len());
    for pos in picked {
        let r = RefPos::parse(&pos.to_text(), ffa);
        cross_check(pos, &r, 3);
        assert_eq!(perft(pos, 3), r.perft(3), "perft 3 of {}", pos.to_text());
    }
}

#[test]
fn double_mate_matches_the_reference_on_500_random_positions() {
    cross_check_random::<DoubleMate>(false, 0x0D0B_1E11);
}

#[test]
fn all_against_all_matches_the_reference_on_500_random_positions() {
    cross_check_random::<AllAgainstAll>(true, 0xFFA0_4444);
}
