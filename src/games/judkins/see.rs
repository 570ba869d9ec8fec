//! Judkins static exchange evaluation.

use super::eval::{HAND_VALUE, VALUE};
use super::*;

/// What a capture of a piece of each type gains: the piece leaves the board and joins the
/// captor's hand, unpromoted.
pub(super) const CAPTURE_GAIN: [i32; PIECE_TYPES] = {
    let mut g = [0; PIECE_TYPES];
    let mut i = 0;
    while i < PIECE_TYPES {
        g[i] = VALUE[i] + if i == KING as usize { 10_000 } else { HAND_VALUE[UNPROMOTED[i] as usize] };
        i += 1;
    }
    g
};

impl Judkins {
    /// Static exchange evaluation: whether `m` wins at least `threshold` after the best sequence
    /// of recaptures on its square (pins ignored).
    pub(super) fn see(&self, m: Move, threshold: i32) -> bool {
        let t = tables();
        let to = m.to();
        let us = self.side;
        let (from_bit, mover) = if m.is_drop() {
            (0, m.drop_type())
        } else {
            let pt = cell_type(self.board[m.from()]);
            (1u64 << m.from(), if m.is_promotion() { PROMOTED[pt as usize] } else { pt })
        };
        let victim = self.board[to];
        let mut swap = if victim != 0 { CAPTURE_GAIN[cell_type(victim) as usize] } else { 0 } - threshold;
        if m.is_promotion() && !m.is_drop() {
            let pt = cell_type(self.board[m.from()]);
            swap += VALUE[mover as usize] - VALUE[pt as usize];
        }
        if swap < 0 {
            return false;
        }
        swap = CAPTURE_GAIN[mover as usize] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = (self.occupied() ^ from_bit) | (1u64 << to);
        let bt = &self.by_type;
        let rooks = bt[ROOK as usize] | bt[DRAGON as usize];
        let bishops = bt[BISHOP as usize] | bt[HORSE as usize];
        let mut attackers = (self.attackers(t, 0, to, occ) | self.attackers(t, 1, to, occ)) & !from_bit;
        let mut stm = us;
        let mut res = 1;
        // Cheapest capturers first.
        const ORDER: [u8; 11] =
            [PAWN, KNIGHT, SILVER, GOLD, TOKIN, PRO_SILVER, PRO_KNIGHT, BISHOP, ROOK, HORSE, DRAGON];
        loop {
            stm ^= 1;
            attackers &= occ;
            let mine = attackers & self.by_color[stm as usize];
            if mine == 0 {
                break;
            }
            res ^= 1;
            let Some(pt) = ORDER.iter().copied().find(|&pt| mine & bt[pt as usize] != 0) else {
                // Only the king is left: it may capture only if nothing recaptures.
                return if attackers & self.by_color[(stm ^ 1) as usize] != 0 { res ^ 1 != 0 } else { res != 0 };
            };
            swap = CAPTURE_GAIN[pt as usize] - swap;
            if swap < res {
                break;
            }
            let b = mine & bt[pt as usize];
            occ ^= b & b.wrapping_neg();
            // Sliders behind the capturer join in.
            attackers |= (SLIDERS.rook(to, occ) & rooks) | (SLIDERS.bishop(to, occ) & bishops);
        }
        res != 0
    }
}
