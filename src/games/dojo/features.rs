//! Dojo's inputs for a learned evaluation (docs/nnue.md): each active piece by its kind, its
//! square and whether it is the perspective's own; each passive member the same way (a square
//! may hold several, each an input of its own); each belt counter that nears its firing, by
//! its piece's owner and kind, the counter and how near; and the treason counters. The board is
//! turned for black (ranks mirrored), so that both perspectives see their own camp at the
//! bottom and one set of weights serves both. The search makes each child's inputs from
//! scratch and updates its accumulators by the difference with its parent's: a turn's end may
//! promote, demote or freeze several pieces, which a list of a move's changes would have to
//! repeat from `make`.

use super::*;
use crate::nnue::Active;

const PIECES: usize = 2 * 6 * 64;
/// Active pieces, then passive members.
const PASSIVE: usize = PIECES;
/// A piece's counter within 10 turns of firing is an input in one of `COUNTER_STEPS` steps of
/// nearness (`nearness`): 2 owners x 3 counters x 6 kinds x 3 steps.
const COUNTERS: usize = PASSIVE + PIECES;
const COUNTER_STEPS: usize = 3;
const TREASON: usize = COUNTERS + 2 * 3 * 6 * COUNTER_STEPS;
pub(super) const FEATURES: usize = TREASON + 2 * COUNTER_STEPS;
/// At most 32 active pieces, three counters for each but the antisenseis, 30 passive members
/// and two treason counters.
pub(super) const MAX_ACTIVE: usize = 32 + 30 + 3 * 30 + 2;

/// How near a belt counter (`limit` fires) is to firing: none, or a step 0..3.
#[inline(always)]
fn nearness(count: u8, limit: u8) -> Option<usize> {
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

impl Dojo {
    /// The inputs of `side`'s perspective in increasing order (the search's difference of two
    /// lists needs them sorted, and sorting them afterwards cost a fifth of the search's time).
    pub(super) fn active_features(&self, side: usize, out: &mut Active) {
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
}
