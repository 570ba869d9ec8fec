//! Dojo's inputs for a learned evaluation (docs/nnue.md): each active piece by its kind, its
//! square and whether it is the perspective's own; each passive member the same way (a square
//! may hold several, each an input of its own); each belt counter that nears its firing, by
//! its piece's owner and kind, the counter and how near; and the treason counters. The board is
//! turned for black (ranks mirrored), so that both perspectives see their own camp at the
//! bottom and one set of weights serves both. The search updates a child's accumulators by
//! comparing its fields with its parent's (`feature_difference`) rather than by the move: a
//! turn's end may promote, demote, freeze or remove several pieces and moves every counter of
//! the mover's, which a list of a move's changes would have to repeat from `make`.

use super::*;
use crate::nnue::Active;
use crate::rules::Inputs;

const PIECES: usize = 2 * 6 * 64;
/// Active pieces, then passive members.
const PASSIVE: usize = PIECES;
/// A piece's counter within 10 turns of firing is an input in one of `COUNTER_STEPS` steps of
/// nearness (`nearness`): 2 owners x 3 counters x 6 kinds x 3 steps.
const COUNTERS: usize = PASSIVE + PIECES;
const COUNTER_STEPS: usize = 3;
const TREASON: usize = COUNTERS + 2 * 3 * 6 * COUNTER_STEPS;

/// How near a belt counter (`limit` fires) is to firing: none, or a step 0..3.
#[inline(always)]
const fn nearness(count: u8, limit: u8) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let left = limit.saturating_sub(count);
    match left {
        1..=2 => Some(2),
        3..=5 => Some(1),
        6..=10 => Some(0),
        _ => None,
    }
}

#[inline(always)]
fn piece_input(side: usize, color: usize, kind: usize, sq: usize) -> usize {
    let turned = if side == WHITE { sq } else { sq ^ 56 };
    ((color != side) as usize * 6 + kind) * 64 + turned
}

/// `NEAR[count]`: `nearness(count, BELT_LIMIT)` as a step plus one, 0 for none.
const NEAR: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match nearness(c as u8, BELT_LIMIT) {
            Some(step) => step as u8 + 1,
            None => 0,
        };
        c += 1;
    }
    t
};

/// A piece's three counters as their `NEAR` steps.
#[inline(always)]
fn near(counters: [u8; 3]) -> [u8; 3] {
    counters.map(|c| NEAR[c as usize])
}

/// The input of the counter `c` of a piece of `kind` at `step`, for a perspective that sees its
/// owner as `rel` (0: own).
#[inline(always)]
fn counter_input(rel: usize, c: usize, kind: usize, step: usize) -> usize {
    COUNTERS + ((rel * 3 + c) * 6 + kind) * COUNTER_STEPS + step
}

impl Inputs for Dojo {
    const FEATURES: usize = TREASON + 2 * COUNTER_STEPS;
    /// At most 32 active pieces, three counters for each but the antisenseis, 30 passive members
    /// and two treason counters.
    const MAX_ACTIVE: usize = 32 + 30 + 3 * 30 + 2;

    /// The inputs of `side`'s perspective in increasing order (the search's difference of two
    /// lists needs them sorted, and sorting them afterwards cost a fifth of the search's time).
    fn features(&self, side: Side, out: &mut Active) {
        let side = side.index();
        // Per owner (own first), counter, kind and step: how many pieces have that input.
        let mut counters = [0u8; 2 * 3 * 6 * COUNTER_STEPS];
        for rel in 0..2 {
            let color = if rel == 0 { side } else { 1 - side };
            for kind in 0..6 {
                let b = self.color[color] & self.kind[kind];
                // Black's perspective turns the ranks: a byte swap, so that its squares still
                // come out in increasing order.
                let mut turned = if side == WHITE { b } else { b.swap_bytes() };
                while turned != 0 {
                    let t = pop(&mut turned);
                    out.push((rel * 6 + kind) * 64 + t);
                    let sq = if side == WHITE { t } else { t ^ 56 };
                    for (c, &count) in self.counters[sq].iter().enumerate() {
                        if let Some(step) = nearness(count, BELT_LIMIT) {
                            counters[((rel * 3 + c) * 6 + kind) * COUNTER_STEPS + step] += 1;
                        }
                    }
                }
            }
        }
        let first_passive = out.count();
        for m in &self.stack[..self.n_stack as usize] {
            out.push(PASSIVE + piece_input(side, m.color(), m.kind(), m.square()));
        }
        out.sort_from(first_passive);
        for (i, &n) in counters.iter().enumerate() {
            for _ in 0..n {
                out.push(COUNTERS + i);
            }
        }
        for rel in 0..2 {
            let color = if rel == 0 { side } else { 1 - side };
            if let Some(step) = nearness(self.treason[color], TREASON_LIMIT) {
                out.push(TREASON + rel * COUNTER_STEPS + step);
            }
        }
    }

    /// The inputs of each perspective (`[side]`) that `child` has and `self` has not (`added`)
    /// and the reverse (`removed`), from the two positions' fields: the pieces' bitboards, the
    /// stacks past their common beginning, the counters of the pieces whose square, belt or
    /// counters differ, and the treason counters. An input may stand in both lists (a member
    /// taken from the middle of the stack lists the members above it twice): the sums still
    /// agree.
    fn input_difference(&self, child: &Dojo, sides: [Side; 2], removed: &mut [Active; 2], added: &mut [Active; 2]) {
        // Two sides: the search keeps White's perspective first, Black's second.
        debug_assert_eq!(sides, [Side(0), Side(1)]);
        for color in 0..2 {
            for kind in 0..6 {
                let (before, after) = (self.color[color] & self.kind[kind], child.color[color] & child.kind[kind]);
                // Both perspectives at once: white's sees `color` as own when it is white.
                let rel = [(color != WHITE) as usize, (color != BLACK) as usize];
                let base = [(rel[0] * 6 + kind) * 64, (rel[1] * 6 + kind) * 64];
                let mut gone = before & !after;
                while gone != 0 {
                    let sq = pop(&mut gone);
                    removed[WHITE].push(base[WHITE] + sq);
                    removed[BLACK].push(base[BLACK] + (sq ^ 56));
                }
                let mut came = after & !before;
                while came != 0 {
                    let sq = pop(&mut came);
                    added[WHITE].push(base[WHITE] + sq);
                    added[BLACK].push(base[BLACK] + (sq ^ 56));
                }
                // A piece's counters are inputs where they near their firing: those of a piece
                // that came or went, or whose counters moved across a step. Only the mover's
                // turn moves counters of pieces that stay where they are (the tests hold it).
                let mut either = if color == self.turn as usize { before | after } else { before ^ after };
                while either != 0 {
                    let sq = pop(&mut either);
                    let b = 1u64 << sq;
                    let was = if before & b != 0 { near(self.counters[sq]) } else { [0; 3] };
                    let is = if after & b != 0 { near(child.counters[sq]) } else { [0; 3] };
                    // Most counters move every turn, few of them across a step.
                    if was == is {
                        continue;
                    }
                    for c in 0..3 {
                        let (x, y) = (was[c], is[c]);
                        if x == y {
                            continue;
                        }
                        for side in [WHITE, BLACK] {
                            if x != 0 {
                                removed[side].push(counter_input(rel[side], c, kind, x as usize - 1));
                            }
                            if y != 0 {
                                added[side].push(counter_input(rel[side], c, kind, y as usize - 1));
                            }
                        }
                    }
                }
            }
        }

        let (a, b) = (&self.stack[..self.n_stack as usize], &child.stack[..child.n_stack as usize]);
        let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        for side in [WHITE, BLACK] {
            for m in &a[common..] {
                removed[side].push(PASSIVE + piece_input(side, m.color(), m.kind(), m.square()));
            }
            for m in &b[common..] {
                added[side].push(PASSIVE + piece_input(side, m.color(), m.kind(), m.square()));
            }
        }

        for color in 0..2 {
            let (before, after) =
                (nearness(self.treason[color], TREASON_LIMIT), nearness(child.treason[color], TREASON_LIMIT));
            if before != after {
                for side in [WHITE, BLACK] {
                    let rel = (color != side) as usize;
                    if let Some(step) = before {
                        removed[side].push(TREASON + rel * COUNTER_STEPS + step);
                    }
                    if let Some(step) = after {
                        added[side].push(TREASON + rel * COUNTER_STEPS + step);
                    }
                }
            }
        }
    }
}
