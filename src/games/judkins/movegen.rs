//! Judkins move generation and make-move.

use super::*;

impl Judkins {
    /// Pushes the moves of the piece on `from` to `targets`. With `tactical_only`, `targets`
    /// holds captures and promotion squares, and a quiet move's non-promoting twin is left out.
    #[inline(always)]
    pub(super) fn push_moves(
        t: &Tables,
        us: u8,
        pt: u8,
        from: usize,
        mut targets: u64,
        quiet_squares: u64,
        out: &mut List<Move>,
    ) {
        let u = us as usize;
        if !CAN_PROMOTE[pt as usize] {
            while targets != 0 {
                out.push(Move::normal(from, pop_lsb(&mut targets), false));
            }
            return;
        }
        let from_zone = t.zone[u] & (1u64 << from) != 0;
        let forced = match pt {
            PAWN => t.last_rank[u],
            KNIGHT => t.last_two[u],
            _ => 0,
        };
        while targets != 0 {
            let to = pop_lsb(&mut targets);
            let tb = 1u64 << to;
            if from_zone || t.zone[u] & tb != 0 {
                out.push(Move::normal(from, to, true));
                if forced & tb == 0 && quiet_squares & tb != 0 {
                    out.push(Move::normal(from, to, false));
                }
            } else {
                out.push(Move::normal(from, to, false));
            }
        }
    }

    /// Whether dropping a pawn of the side to move on `sq` (which checks the enemy king) mates.
    pub(super) fn pawn_drop_mates(&self, t: &Tables, sq: usize) -> bool {
        let us = self.side;
        let them = us ^ 1;
        let ksq = self.king[them as usize] as usize;
        let occ = self.occupied() | (1u64 << sq);
        // The pawn attacks only the king's square, which the king leaves, so our attacker sets
        // below need not include it; it matters only as a blocker.
        let occ_no_king = occ & !(1u64 << ksq);
        let mut flights = t.step[0][STEP_KING][ksq] & !self.by_color[them as usize];
        while flights != 0 {
            if self.attackers(t, us, pop_lsb(&mut flights), occ_no_king) == 0 {
                return false;
            }
        }
        // Capture of the pawn by another piece that is not pinned (pins seen with the pawn in).
        let mut defenders = self.attackers(t, them, sq, occ) & !(1u64 << ksq);
        let pinned = if defenders != 0 { self.pinned(t, them, occ) } else { 0 };
        while defenders != 0 {
            let d = pop_lsb(&mut defenders);
            if pinned & (1u64 << d) == 0 || t.line[ksq][d] & (1u64 << sq) != 0 {
                return false;
            }
        }
        true
    }

    /// Legal moves. With `tactical_only` (and not in check), just the captures and promotions:
    /// exactly the moves that `tactical_value` scores.
    pub(super) fn generate(&self, out: &mut List<Move>, tactical_only: bool) {
        let t = tables();
        let tactical_only = tactical_only && self.checkers == 0;
        let us = self.side;
        let them = us ^ 1;
        let u = us as usize;
        let occ = self.occupied();
        let own = self.by_color[u];
        let ksq = self.king[u] as usize;

        let enemy = self.by_color[them as usize];
        let mut king_targets = t.step[u][STEP_KING][ksq] & !own & if tactical_only { enemy } else { BOARD };
        let occ_no_king = occ ^ (1u64 << ksq);
        while king_targets != 0 {
            let to = pop_lsb(&mut king_targets);
            if self.attackers(t, them, to, occ_no_king) == 0 {
                out.push(Move::normal(ksq, to, false));
            }
        }
        if self.checkers.count_ones() > 1 {
            return;
        }
        let (target, drop_target) = if self.checkers != 0 {
            let c = self.checkers.trailing_zeros() as usize;
            (self.checkers | t.between[ksq][c], t.between[ksq][c])
        } else {
            (!own & BOARD, !occ & BOARD)
        };
        let pinned = self.pinned(t, us, occ);
        // Quiet squares may only hold promotions in tactical mode.
        let quiet_squares = if tactical_only { 0 } else { BOARD };
        let mut pieces = own & !(1u64 << ksq);
        while pieces != 0 {
            let from = pop_lsb(&mut pieces);
            let pt = cell_type(self.board[from]);
            let mut targets = t.attacks(us, pt, from, occ) & target;
            if pinned & (1u64 << from) != 0 {
                targets &= t.line[ksq][from];
            }
            if tactical_only {
                let promotable = CAN_PROMOTE[pt as usize] && (t.zone[u] & (1u64 << from) != 0);
                targets &= enemy
                    | if promotable {
                        BOARD
                    } else if CAN_PROMOTE[pt as usize] {
                        t.zone[u]
                    } else {
                        0
                    };
            }
            Self::push_moves(t, us, pt, from, targets, quiet_squares | enemy, out);
        }
        if drop_target == 0 || tactical_only {
            return;
        }
        let hand = &self.hand[u];
        for pt in [SILVER, GOLD, BISHOP, ROOK] {
            if hand[pt as usize] > 0 {
                let mut squares = drop_target;
                while squares != 0 {
                    out.push(Move::drop(pt, pop_lsb(&mut squares)));
                }
            }
        }
        if hand[KNIGHT as usize] > 0 {
            let mut squares = drop_target & !t.last_two[u];
            while squares != 0 {
                out.push(Move::drop(KNIGHT, pop_lsb(&mut squares)));
            }
        }
        if hand[PAWN as usize] > 0 {
            let mut squares = drop_target & !t.last_rank[u];
            let mut pawns = self.by_type[PAWN as usize] & own;
            while pawns != 0 {
                let p = pop_lsb(&mut pawns);
                squares &= !t.file_mask[p % FILES];
            }
            // Uchifuzume: only the square in front of the enemy king can give a pawn check.
            let eksq = self.king[them as usize] as usize;
            let check_sq = t.step[them as usize][STEP_PAWN][eksq];
            if squares & check_sq != 0 && self.pawn_drop_mates(t, check_sq.trailing_zeros() as usize) {
                squares &= !check_sq;
            }
            while squares != 0 {
                out.push(Move::drop(PAWN, pop_lsb(&mut squares)));
            }
        }
    }

    /// Plays a legal move.
    #[inline]
    pub(super) fn make(&mut self, m: Move) {
        let t = tables();
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let pt = m.drop_type();
            self.hand[us as usize][pt as usize] -= 1;
            let n = self.hand[us as usize][pt as usize] as usize;
            self.hash ^= t.zobrist_hand[us as usize][pt as usize][n];
            self.put(us, pt, to);
        } else {
            let from = m.from();
            let pt = cell_type(self.board[from]);
            let captured = self.board[to];
            if captured != 0 {
                let cpt = cell_type(captured);
                self.remove(us ^ 1, cpt, to);
                let k = UNPROMOTED[cpt as usize] as usize;
                let n = self.hand[us as usize][k] as usize;
                self.hand[us as usize][k] += 1;
                self.hash ^= t.zobrist_hand[us as usize][k][n];
            }
            self.remove(us, pt, from);
            let new_pt = if m.is_promotion() { PROMOTED[pt as usize] } else { pt };
            self.put(us, new_pt, to);
            if pt == KING {
                self.king[us as usize] = to as u8;
            }
        }
        self.side ^= 1;
        self.hash ^= t.zobrist_gote;
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = self.compute_checkers();
    }
}
