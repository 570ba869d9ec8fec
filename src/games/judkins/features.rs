//! Judkins's inputs for a learned evaluation (docs/nnue.md): each piece by its kind, its square
//! and whether it is the perspective's own, and each piece in hand by its kind, its owner and
//! whether it is the first or the second of its kind there. The board is turned for gote, so
//! that both perspectives see their own camp at the bottom and one set of weights serves both.

use super::*;

/// Pieces on the board: 2 owners (own, other) x 12 kinds x 36 squares.
const BOARD_FEATURES: usize = 2 * PIECE_TYPES * SQUARES;
/// A hand holds at most 2 of a kind: 2 owners x 6 kinds x 2.
const HAND_FEATURES: usize = 2 * HAND_KINDS * 2;
pub(super) const FEATURES: usize = BOARD_FEATURES + HAND_FEATURES;
/// Every piece is one input, on the board or in a hand: 7 a side.
pub(super) const MAX_ACTIVE: usize = 14;

impl Judkins {
    pub(super) fn active_features(&self, side: u8, out: &mut dyn FnMut(usize)) {
        let turn = |sq: usize| if side == SENTE { sq } else { SQUARES - 1 - sq };
        let mut occupied = self.occupied();
        while occupied != 0 {
            let sq = pop_lsb(&mut occupied);
            let c = self.board[sq];
            let theirs = (cell_color(c) != side) as usize;
            out((theirs * PIECE_TYPES + cell_type(c) as usize) * SQUARES + turn(sq));
        }
        for owner in 0..2u8 {
            let theirs = (owner != side) as usize;
            for kind in 0..HAND_KINDS {
                for i in 0..(self.hand[owner as usize][kind] as usize).min(2) {
                    out(BOARD_FEATURES + (theirs * HAND_KINDS + kind) * 2 + i);
                }
            }
        }
    }
}
