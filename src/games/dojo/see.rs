//! Dojo chess static exchange evaluation.
//!
//! A captured piece turns passive on its square (D3), so a capture gains the whole piece as in
//! chess. What differs is the board behind the captors: a square that keeps passive members stays
//! closed when its active piece leaves it (D4), so a slider behind such a captor never joins in.

use super::eval::VALUE;
use super::*;

/// The antisensei is never captured: a captor that could be taken back must not take.
const ANTISENSEI: i32 = 20_000;

#[inline]
fn worth(kind: usize) -> i32 {
    if kind == KING { ANTISENSEI } else { VALUE[kind] }
}

impl Dojo {
    /// Whether `m` keeps at least `threshold` centipawns when every piece that attacks its
    /// square takes in turn, least valuable first (pins and belt counters ignored).
    pub(super) fn see(&self, m: Move, threshold: i32) -> bool {
        let us = self.turn as usize;
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let mover = self.kind_at(fb);
        let enemy_on_to = self.color[us ^ 1] & tb != 0;
        let far = if us == WHITE { 7 } else { 0 };
        if mover == PAWN && to / 8 == far {
            // D6: the yellow belt leaves the game and may freeze an enemy piece; nothing is left
            // on the square to take back.
            let victim = if enemy_on_to { VALUE[self.kind_at(tb)] } else { 0 };
            let frozen = m.target().map(|t| VALUE[self.kind_at(1u64 << t)]).unwrap_or(0);
            return victim + frozen - VALUE[PAWN] >= threshold;
        }
        let victim = if enemy_on_to {
            VALUE[self.kind_at(tb)]
        } else if mover == PAWN && to as u8 == self.ep {
            VALUE[PAWN]
        } else {
            0
        };
        let mut swap = victim - threshold;
        if swap < 0 {
            return false;
        }
        swap = worth(mover) - swap;
        if swap <= 0 {
            return true;
        }
        let k = &self.kind;
        let diagonal = k[BISHOP] | k[QUEEN];
        let straight = k[ROOK] | k[QUEEN];
        // A captor's square opens behind it only when no passive member stays there.
        let mut occ = self.blocked() & !(fb & !self.passive);
        let mut used = fb;
        let mut attackers = self.attackers(to, WHITE, occ) | self.attackers(to, BLACK, occ);
        let mut stm = us;
        let mut res = true;
        const ORDER: [usize; 5] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN];
        loop {
            stm ^= 1;
            attackers &= !used;
            let mine = attackers & self.color[stm];
            if mine == 0 {
                break;
            }
            res = !res;
            let Some(kind) = ORDER.iter().copied().find(|&kind| mine & k[kind] != 0) else {
                // Only the antisensei is left: it may take only if nothing takes it back.
                return if attackers & self.color[stm ^ 1] != 0 { !res } else { res };
            };
            swap = VALUE[kind] - swap;
            if swap < res as i32 {
                break;
            }
            let b = mine & k[kind];
            let b = b & b.wrapping_neg();
            used |= b;
            occ &= !(b & !self.passive);
            // Sliders behind the captor join in.
            attackers |= (SLIDERS.rook(to, occ) & straight) | (SLIDERS.bishop(to, occ) & diagonal);
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Evaluation, Notation};

    fn see(text: &str, mv: &str, threshold: i32) -> bool {
        let pos = Dojo::from_text(text).unwrap();
        let m = pos.parse_move(mv).unwrap();
        pos.see_ge(m, threshold)
    }

    /// The white rook takes a knight on d5 that a pawn on e6 guards: 320 won, 500 lost, the pawn
    /// taken back by the rook behind on d1 (100): -80.
    #[test]
    fn exchanges_count_recaptures_and_sliders_behind() {
        let xray = "4k3/8/4p3/3n4/8/8/3R4/3RK3 w - - 0 1 - -";
        assert!(see(xray, "d2d5", -80) && !see(xray, "d2d5", -79));
        // Without the second rook the pawn keeps the rook: -180.
        let alone = "4k3/8/4p3/3n4/8/8/3R4/4K3 w - - 0 1 - -";
        assert!(see(alone, "d2d5", -180) && !see(alone, "d2d5", -179));
        // An unguarded knight is simply won.
        let free = "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1 - -";
        assert!(see(free, "d2d5", 320) && !see(free, "d2d5", 321));
        // A quiet move onto a square a pawn guards loses the rook.
        let guarded = "4k3/8/8/8/4p3/8/3R4/4K3 w - - 0 1 - -";
        assert!(!see(guarded, "d2d3", -499) && see(guarded, "d2d3", -500) && see(guarded, "d2d1", 0));
    }

    /// A passive member on d2 keeps its square closed when the rook on it takes: the rook on d1
    /// behind it never joins in (D4), so the exchange ends with the pawn's capture.
    #[test]
    fn a_square_with_passive_members_stays_closed() {
        let stacked = "4k3/8/4p3/3n4/8/8/3R4/3RK3 w - - 0 1 d2:p -";
        assert!(see(stacked, "d2d5", -180) && !see(stacked, "d2d5", -179));
    }
}
