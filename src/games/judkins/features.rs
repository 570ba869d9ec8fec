//! Judkins's inputs for a learned evaluation (docs/nnue.md): each piece by its kind, its square
//! and whether it is the perspective's own, and each piece in hand by its kind, its owner and
//! whether it is the first or the second of its kind there. The board is turned for gote, so
//! that both perspectives see their own camp at the bottom and one set of weights serves both.

use super::*;
use crate::nnue::Active;
use crate::rules::Inputs;

/// Pieces on the board: 2 owners (own, other) x 12 kinds x 36 squares.
const BOARD_FEATURES: usize = 2 * PIECE_TYPES * SQUARES;
/// A hand holds at most 2 of a kind: 2 owners x 6 kinds x 2.
const HAND_FEATURES: usize = 2 * HAND_KINDS * 2;

/// The input of a piece of `color` and type `pt` on `sq`, seen from `side`.
#[inline(always)]
fn board_input(side: u8, color: u8, pt: u8, sq: usize) -> usize {
    let turned = if side == SENTE { sq } else { SQUARES - 1 - sq };
    (((color != side) as usize) * PIECE_TYPES + pt as usize) * SQUARES + turned
}

/// The input of the `i`-th piece of `kind` in `owner`'s hand (from 0), seen from `side`.
#[inline(always)]
fn hand_input(side: u8, owner: u8, kind: usize, i: usize) -> usize {
    BOARD_FEATURES + (((owner != side) as usize) * HAND_KINDS + kind) * 2 + i
}

impl Inputs for Judkins {
    const FEATURES: usize = BOARD_FEATURES + HAND_FEATURES;
    /// Every piece is one input, on the board or in a hand: 7 a side.
    const MAX_ACTIVE: usize = 14;

    /// Every move's changes are told (`input_changes`): a move changes at most four inputs.
    const INPUT_CHANGES: bool = true;

    /// What `m` (legal here) changes in `side`'s inputs, as `make` plays it: the mover's piece
    /// leaves its square or its hand and comes onto its target, promoted or not; a captured
    /// piece leaves the board and enters the mover's hand.
    fn input_changes(&self, m: Move, side: Side, removed: &mut Active, added: &mut Active) {
        let side = side.0;
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let pt = m.drop_type();
            let n = self.hand[us as usize][pt as usize] as usize;
            if (1..=2).contains(&n) {
                removed.push(hand_input(side, us, pt as usize, n - 1));
            }
            added.push(board_input(side, us, pt, to));
            return;
        }
        let from = m.from();
        let pt = cell_type(self.board[from]);
        removed.push(board_input(side, us, pt, from));
        let captured = self.board[to];
        if captured != 0 {
            let cpt = cell_type(captured);
            removed.push(board_input(side, us ^ 1, cpt, to));
            let k = UNPROMOTED[cpt as usize] as usize;
            let n = self.hand[us as usize][k] as usize;
            if n < 2 {
                added.push(hand_input(side, us, k, n));
            }
        }
        let new_pt = if m.is_promotion() { PROMOTED[pt as usize] } else { pt };
        added.push(board_input(side, us, new_pt, to));
    }

    fn features(&self, side: Side, out: &mut Active) {
        let side = side.0;
        let mut occupied = self.occupied();
        while occupied != 0 {
            let sq = pop_lsb(&mut occupied);
            let c = self.board[sq];
            out.push(board_input(side, cell_color(c), cell_type(c), sq));
        }
        for owner in 0..2u8 {
            for kind in 0..HAND_KINDS {
                for i in 0..(self.hand[owner as usize][kind] as usize).min(2) {
                    out.push(hand_input(side, owner, kind, i));
                }
            }
        }
    }
}
