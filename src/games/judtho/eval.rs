//! Judtho evaluation.

use super::*;
use crate::rules::Evaluation;

/// Material values in centipawns, by kind (the king: none).
pub const VALUE: [i32; 8] = [0, 950, 420, 700, 500, 320, 330, 100];

impl Judtho {
    /// One seat's standing: its material.
    fn seat_score(&self, seat: u8) -> i32 {
        let mut s = 0;
        for k in 0..8 {
            s += VALUE[k] * (self.board.by_seat[seat as usize] & self.board.by_kind[k]).count() as i32;
        }
        s
    }
}

impl Evaluation for Judtho {
    const MOVE_INDEX_SPACE: usize = 144 * 144 * 2 + 144 + 8 * 144 + 1;
    const NULL_MOVE: bool = false;

    fn evaluate(&self, side: Side) -> i32 {
        let mut mine = 0;
        let mut theirs = 0;
        let mut others = 0;
        for s in 0..4u8 {
            let v = self.seat_score(s);
            if self.rel.side(s) == side {
                mine += v;
            } else {
                theirs += v;
                others += 1;
            }
        }
        mine - if others > 0 { theirs / others } else { 0 }
    }

    fn tactical_value(&self, m: Move) -> Option<i32> {
        match m.kind() {
            STEP | JUMP => {
                let victim =
                    self.board.at(m.to()).filter(|&(s, _)| s != self.to_move_seat()).map(|p| VALUE[p.1 as usize]);
                let promo = m.promotion().map(|k| VALUE[k as usize] - 100);
                match (victim, promo) {
                    (None, None) => None,
                    (v, p) => Some(v.unwrap_or(0) * 8 + p.unwrap_or(0) + 100),
                }
            }
            DISTANT => Some(800 * m.leaps().count_ones() as i32),
            _ => None,
        }
    }

    fn move_index(m: Move) -> usize {
        match m.kind() {
            STEP => m.from() * 144 + m.to(),
            JUMP => 144 * 144 + m.from() * 144 + m.to(),
            DISTANT => 2 * 144 * 144 + m.from(),
            PLACE => 2 * 144 * 144 + 144 + m.placed() as usize * 144 + m.to(),
            _ => 2 * 144 * 144 + 144 + 8 * 144,
        }
    }

    fn play_null(&mut self) {
        let old = self.meta_key();
        self.rotate_turn();
        self.hash ^= old ^ self.meta_key();
    }
}
