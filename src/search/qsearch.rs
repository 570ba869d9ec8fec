//! Quiescence: captures and promotions (every move when in check, for as many plies as the game
//! allows) until the position is quiet.

use super::ordering::pick_next;
use super::*;

impl<G: Game> Searcher<G> {
    /// `qply` counts the plies since quiescence began.
    pub(super) fn qsearch(&mut self, pos: &G, ply: usize, qply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.settled(pos, ply) {
            return v;
        }
        if ply >= MAX_PLY - 2 || qply >= G::QSEARCH_PLIES {
            return self.eval(pos);
        }
        let key = pos.hash() ^ self.key_salt;
        let mut tt_move = G::Move::default();
        let mut tt_eval = None;
        if let Some(e) = self.tt.probe(key) {
            let v = score_from_tt(e.score, ply);
            if cuts(e.bound, v, alpha, beta) {
                return v;
            }
            tt_move = e.mv;
            tt_eval = (e.eval != NO_EVAL).then_some(e.eval);
        }
        // With four players a check is answered by a check, and evasions would search the whole
        // tree: the game bounds how deep quiescence answers checks move by move.
        let checked = pos.in_check();
        let in_check = checked && qply < G::QSEARCH_EVASION_PLIES;
        let mut best = -(MATE - ply as i32);
        let mut static_eval = NO_EVAL;
        if !in_check {
            static_eval = tt_eval.unwrap_or_else(|| self.eval(pos));
            let stand = static_eval;
            if stand >= beta {
                self.tt.store(key, G::Move::default(), score_to_tt(stand, ply), static_eval, 0, Bound::Lower);
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let orig_alpha = alpha;
        let mut best_move = G::Move::default();
        let mut moves = MovesOf::<G>::default();
        pos.tactical_moves(&mut moves);
        if checked && !in_check {
            let mut n = 0;
            for i in 0..moves.len() {
                let m = moves.as_slice()[i];
                if pos.tactical_value(m).is_some() {
                    moves.as_mut_slice()[n] = m;
                    n += 1;
                }
            }
            moves.truncate(n);
        }
        if in_check && moves.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let mut scored = G::Moves::<(i32, G::Move)>::default();
        for &m in moves.iter() {
            // Out of check, exchanges that lose material are not searched.
            if in_check || pos.see_ge(m, 0) {
                let first = if m == tt_move { 1 << 30 } else { 0 };
                scored.push((first + pos.tactical_value(m).unwrap_or(0), m));
            }
        }
        let my_team = self.team(pos);
        for count in 0..scored.len() {
            pick_next(scored.as_mut_slice(), count);
            let m = scored.as_slice()[count].1;
            let mut child = pos.clone();
            child.play(m);
            let flip = self.team(&child) != my_team;
            let v = if flip {
                -self.qsearch(&child, ply + 1, qply + 1, -beta, -alpha)
            } else {
                self.qsearch(&child, ply + 1, qply + 1, alpha, beta)
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.store(key, best, best_move, orig_alpha, beta, static_eval, 0, ply);
        best
    }
}
