//! Double Mate's inputs for a learned evaluation (docs/nnue.md): each piece by its kind, its
//! square and its army's place in the turn order seen from the perspective's side (the side's
//! first army, the Opponent after it, the partner, the Opponent after that). Black and Green's
//! perspective turns the board a quarter so that Black stands where Yellow stands: the four
//! armies' camps and the pawns' directions go round with it, and one set of weights serves
//! both sides. All against all has four sides and no pair of perspectives, so no inputs yet.
//!
//! The search updates a child's accumulators by comparing the twenty bitboards of army and
//! kind with its parent's: a concourse (C6) hands pieces from one army to another, which a list
//! of a move's changes would have to repeat from `make`, and the comparison is as cheap.

use super::*;
use crate::nnue::Active;

const KINDS: usize = 5;
pub(super) const FEATURES: usize = 4 * KINDS * 64;
/// Every piece is one input: at most 32 on the board.
pub(super) const MAX_ACTIVE: usize = 32;

/// The input of a piece of `army` and `kind` on `sq`, seen from `side` (0: Yellow and Red, 1:
/// Black and Green).
#[inline(always)]
fn piece_input(side: usize, army: usize, kind: usize, sq: usize) -> usize {
    // (file, rank) -> (7 - rank, file): Black's camp onto Yellow's, Red's onto Black's, and so
    // on round the board, the turn order kept.
    let turned = if side == 0 { sq } else { (sq % 8) * 8 + 7 - sq / 8 };
    let place = (army + 4 - side) % 4;
    (place * KINDS + kind) * 64 + turned
}

impl<const FFA: bool> Chaturanga<FFA> {
    pub(super) fn active_features(&self, side: usize, out: &mut Active) {
        for army in 0..4 {
            for kind in 0..KINDS {
                let mut b = self.army[army] & self.kind[kind];
                while b != 0 {
                    out.push(piece_input(side, army, kind, pop(&mut b)));
                }
            }
        }
    }

    /// The inputs of both perspectives that `child` has and this position has not (`added`),
    /// and the reverse (`removed`).
    pub(super) fn feature_difference(&self, child: &Self, removed: &mut [Active; 2], added: &mut [Active; 2]) {
        for army in 0..4 {
            for kind in 0..KINDS {
                let (before, after) = (self.army[army] & self.kind[kind], child.army[army] & child.kind[kind]);
                for (bits, lists) in [(before & !after, &mut *removed), (after & !before, &mut *added)] {
                    let mut b = bits;
                    while b != 0 {
                        let sq = pop(&mut b);
                        for (side, list) in lists.iter_mut().enumerate() {
                            list.push(piece_input(side, army, kind, sq));
                        }
                    }
                }
            }
        }
    }
}
