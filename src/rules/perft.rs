//! Perft: the count of the legal move tree, the measure every move generator is checked by.

use super::{MoveBuffer, MovesOf, Rules};

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counted at the last ply).
pub fn perft<G: Rules>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MovesOf::<G>::default();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let mut child = pos.clone();
        child.play(m);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// Perft split by root move, in the order the generator yields them.
pub fn perft_divide<G: Rules>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut list = MovesOf::<G>::default();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play(m);
            (m, if depth <= 1 { 1 } else { perft(&child, depth - 1) })
        })
        .collect()
}
