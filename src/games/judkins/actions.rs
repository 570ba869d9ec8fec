//! Judkins moves as actions: a board move is its squares and whether it promotes, a drop its
//! kind and square; 2,808 in all, each one action.

use super::*;
use crate::rules::Actions;

const BOARD_MOVES: u32 = (SQUARES * SQUARES * 2) as u32;

impl Actions for Judkins {
    const ACTIONS: u32 = BOARD_MOVES + (HAND_KINDS * SQUARES) as u32;

    fn action_tokens(mv: Move, out: &mut Vec<u32>) {
        out.push(if mv.is_drop() {
            BOARD_MOVES + (mv.drop_type() as usize * SQUARES + mv.to()) as u32
        } else {
            ((mv.from() * SQUARES + mv.to()) * 2 + mv.is_promotion() as usize) as u32
        });
    }
}
