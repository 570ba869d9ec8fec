//! Judkins evaluation: material with hands, mobility, and king safety that knows drops.

use super::*;
use crate::rules::Evaluation;

// Material values (centipawns); a piece in hand is worth a little more than on the board because
// it can be dropped anywhere.
pub(super) const VALUE: [i32; PIECE_TYPES] = [100, 520, 570, 380, 700, 800, 0, 560, 560, 560, 900, 1050];
pub(super) const HAND_VALUE: [i32; HAND_KINDS] = [120, 580, 620, 420, 770, 880];
/// Weight of a safe square from which the enemy could drop a checking piece of each type.
pub(super) const DROP_CHECK_WEIGHT: [i32; HAND_KINDS] = [6, 14, 16, 12, 14, 20];
/// Weight of an attack by an enemy piece of each type on the squares around the king.
pub(super) const KING_ATTACK_WEIGHT: [i32; PIECE_TYPES] = [4, 8, 8, 7, 9, 11, 0, 8, 8, 8, 13, 15];

impl Judkins {
    pub(super) fn eval_sente(&self) -> i32 {
        let t = tables();
        let occ = self.occupied();
        let mut score = [0i32; 2];
        let mut king_pressure = [0i32; 2];
        let mut king_attackers = [0i32; 2];
        let zone = [t.step[0][STEP_KING][self.king[0] as usize], t.step[1][STEP_KING][self.king[1] as usize]];
        // Squares each side's pieces (king aside) attack.
        let mut attacked = [0u64; 2];
        for color in 0..2usize {
            for k in 0..HAND_KINDS {
                score[color] += HAND_VALUE[k] * self.hand[color][k] as i32;
            }
            let mut pieces = self.by_color[color] & !(1u64 << self.king[color]);
            let enemy_zone = zone[color ^ 1];
            let own_zone = zone[color];
            while pieces != 0 {
                let sq = pop_lsb(&mut pieces);
                let pt = cell_type(self.board[sq]);
                score[color] += VALUE[pt as usize];
                let att = t.attacks(color as u8, pt, sq, occ);
                attacked[color] |= att;
                // Mobility, weighted lightly: long-range pieces gain most from open lines.
                let mobility = (att & !self.by_color[color]).count_ones() as i32;
                score[color] += match pt {
                    BISHOP | ROOK | HORSE | DRAGON => 4 * mobility,
                    _ => 2 * mobility,
                };
                let hits = (att & enemy_zone).count_ones() as i32;
                if hits > 0 {
                    king_pressure[color ^ 1] += hits * KING_ATTACK_WEIGHT[pt as usize];
                    king_attackers[color ^ 1] += 1;
                }
                // Generals next to their own king shelter it.
                if matches!(pt, GOLD | SILVER | TOKIN | PRO_SILVER | PRO_KNIGHT) && own_zone & (1u64 << sq) != 0 {
                    score[color] += 18;
                }
                // Pawns and silvers gain as they advance toward promotion.
                if matches!(pt, PAWN | SILVER) {
                    let row = sq / FILES;
                    let advance = if color == 0 { 5 - row } else { row } as i32;
                    score[color] += advance * if pt == PAWN { 8 } else { 4 };
                }
            }
            // Pieces in hand threaten drops next to the enemy king.
            let hand_pieces: i32 = self.hand[color].iter().map(|&n| n as i32).sum();
            if hand_pieces > 0 {
                king_pressure[color ^ 1] += 6 * hand_pieces;
                king_attackers[color ^ 1] += 1;
            }
        }
        let empty = !occ & BOARD;
        for color in 0..2 {
            let them = color ^ 1;
            let ksq = self.king[color] as usize;
            // Pressure grows faster than linearly with the number of attackers.
            let mult = [0, 6, 12, 16, 19, 21, 22, 23][king_attackers[color].min(7) as usize];
            let mut danger = king_pressure[color] * mult / 8;
            // Squares next to the king that the enemy attacks and no piece of ours defends.
            let weak = zone[color] & attacked[them] & !attacked[color];
            danger += 20 * weak.count_ones() as i32;
            // Checks the enemy could drop on squares we do not guard.
            for pt in [PAWN, SILVER, GOLD, KNIGHT, BISHOP, ROOK] {
                if self.hand[them][pt as usize] > 0 {
                    let checks = t.attacks(color as u8, pt, ksq, occ) & empty & !attacked[color];
                    danger += DROP_CHECK_WEIGHT[pt as usize] * checks.count_ones() as i32;
                }
            }
            score[color] -= danger + danger * danger / 800;
        }
        score[0] - score[1] + if self.side == SENTE { 20 } else { -20 }
    }
}

impl Evaluation for Judkins {
    const MOVE_INDEX_SPACE: usize = (SQUARES + HAND_KINDS) * SQUARES * 2;
    const NULL_MOVE: bool = true;

    fn evaluate(&self, side: Side) -> i32 {
        let e = self.eval_sente();
        if side == SENTE { e } else { -e }
    }

    #[inline]
    fn tactical_value(&self, m: Move) -> Option<i32> {
        if m.is_drop() {
            return None;
        }
        let captured = self.board[m.to()];
        let mover = cell_type(self.board[m.from()]);
        let mut v = None;
        if captured != 0 {
            // Most valuable victim, least valuable attacker.
            v = Some(VALUE[cell_type(captured) as usize] * 8 - VALUE[mover as usize] / 16 + 100);
        }
        if m.is_promotion() {
            let gain = VALUE[PROMOTED[mover as usize] as usize] - VALUE[mover as usize];
            v = Some(v.unwrap_or(0) + gain);
        }
        v
    }

    #[inline(always)]
    fn move_index(m: Move) -> usize {
        (m.origin() as usize * SQUARES + m.to()) * 2 + m.is_promotion() as usize
    }

    // The twelve kinds on the board, then the six kinds dropped.
    const PIECE_TO_SPACE: usize = (PIECE_TYPES + HAND_KINDS) * SQUARES;

    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        let kind =
            if m.is_drop() { PIECE_TYPES + m.drop_type() as usize } else { cell_type(self.board[m.from()]) as usize };
        kind * SQUARES + m.to()
    }

    fn tactical_moves(&self, out: &mut List<Move>) {
        self.generate(out, true);
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m, threshold)
    }

    fn play_null(&mut self) {
        self.pass();
    }
}
