//! Dojo moves as actions: the move's squares (4,096), then, where the move carries them, the
//! piece made passive (D6, 64) and the deputy appointed (D9, 64). `END` closes a move that
//! chooses no piece where one could be chosen.

use super::*;
use crate::rules::Actions;

const TARGET: u32 = 64 * 64;
const APPOINTEE: u32 = TARGET + 64;

impl Actions for Dojo {
    const ACTIONS: u32 = APPOINTEE + 64;

    fn action_tokens(mv: Move, out: &mut Vec<u32>) {
        out.push((mv.from() * 64 + mv.to()) as u32);
        if let Some(t) = mv.target() {
            out.push(TARGET + t as u32);
        }
        if let Some(a) = mv.appointee() {
            out.push(APPOINTEE + a as u32);
        }
    }
}
