//! Chaturanga moves as actions: origin, destination and promotion (none, rook, knight, ship),
//! and `pass`; 16,385 in all, each one action.

use super::*;
use crate::rules::Actions;

impl<const FFA: bool> Actions for Chaturanga<FFA> {
    const ACTIONS: u32 = 64 * 64 * 4 + 1;

    fn action_tokens(mv: Move, out: &mut Vec<u32>) {
        out.push(if mv == PASS {
            64 * 64 * 4
        } else {
            let promotion = ((mv.0 >> 12) & 3) as u32;
            (mv.from() * 64 + mv.to()) as u32 * 4 + promotion
        });
    }
}
