//! Judtho moves as actions: a placement (kind and square), a step or line capture, a jump, a
//! knight's distant capture (its square and the set it takes) or `pass`; then the kind a pawn
//! promotes to, and each promotion square of a checkmate, in resolve order.

use super::*;
use crate::rules::Actions;

const S: u32 = SQUARES as u32;
const PLACES: u32 = 0;
const STEPS: u32 = PLACES + 8 * S;
const PROMOTIONS: u32 = STEPS + S * S;
const JUMPS: u32 = PROMOTIONS + 8;
const DISTANT_CAPTURES: u32 = JUMPS + S * S;
const PASSING: u32 = DISTANT_CAPTURES + S * 255;
const SUFFIXES: u32 = PASSING + 1;

impl Actions for Judtho {
    const ACTIONS: u32 = SUFFIXES + S;

    fn action_tokens(mv: Move, out: &mut Vec<u32>) {
        let (from, to) = (mv.from() as u32, mv.to() as u32);
        match mv.kind() {
            PLACE => out.push(PLACES + mv.placed() as u32 * S + to),
            JUMP => out.push(JUMPS + from * S + to),
            DISTANT => out.push(DISTANT_CAPTURES + from * 255 + mv.leaps() as u32 - 1),
            PASS_TYPE => out.push(PASSING),
            _ => {
                out.push(STEPS + from * S + to);
                if let Some(k) = mv.promotion() {
                    out.push(PROMOTIONS + k as u32);
                }
            }
        }
        out.extend(mv.choices().map(|sq| SUFFIXES + sq as u32));
    }
}
