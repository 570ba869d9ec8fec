//! Perft: the count of the legal move tree, the measure every move generator is checked by.

use super::{MoveBuffer, MovesOf, Rules};
use std::sync::atomic::{AtomicBool, Ordering};

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

/// `perft` that gives up, with `None`, once `stop` is raised. The flag is read only where three
/// or more plies remain, so a stop is heard within a few thousand leaves and the bulk-counted
/// last plies run as fast as `perft`'s.
pub fn perft_stoppable<G: Rules>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MovesOf::<G>::default();
    pos.legal_moves(&mut list);
    let mut n = 0;
    for &m in list.iter() {
        let mut child = pos.clone();
        child.play(m);
        n += perft_stoppable(&child, depth - 1, stop)?;
    }
    Some(n)
}

/// Perft split by root move: `each` hears every root move and its count, in the order the
/// generator yields them (a root move counts 1 at depth 1). The total, or `None` once `stop`
/// is raised (the moves heard by then are whole).
pub fn perft_split<G: Rules>(
    pos: &G,
    depth: u32,
    stop: &AtomicBool,
    mut each: impl FnMut(G::Move, u64),
) -> Option<u64> {
    let mut list = MovesOf::<G>::default();
    pos.legal_moves(&mut list);
    let mut total = 0;
    for &m in list.iter() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = pos.clone();
        child.play(m);
        let n = perft_stoppable(&child, depth.max(1) - 1, stop)?;
        each(m, n);
        total += n;
    }
    Some(total)
}

/// Perft split by root move, in the order the generator yields them.
pub fn perft_divide<G: Rules>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut split = Vec::new();
    perft_split(pos, depth, &AtomicBool::new(false), |m, n| split.push((m, n)));
    split
}
