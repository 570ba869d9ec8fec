//! Quiescence: captures and promotions (every move when in check, for as many plies as the game
//! allows) until the position is quiet.

use super::node::{Offer, Window};
use super::ordering::{Order, Picker, order};
use super::*;
use crate::rules::retain_tactical;

impl<G: Game> Searcher<G> {
    /// `qply` counts the plies since quiescence began.
    pub(super) fn qsearch(&mut self, pos: &G, ply: usize, qply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        if let Some(v) = self.enter(pos, ply, Some(qply)) {
            return v;
        }
        let tt = match self.probe(pos, 0, ply, alpha, beta, true) {
            Ok(tt) => tt,
            Err(v) => return v,
        };
        // With four players a check is answered by a check, and evasions would search the whole
        // tree: the game bounds how deep quiescence answers checks move by move.
        let checked = pos.must_answer_check();
        let in_check = checked && qply < G::VARIANT.search.qsearch_evasion_plies;
        let mut best = -(MATE - ply as i32);
        let mut static_eval = NO_EVAL;
        if !in_check {
            static_eval = tt.eval.unwrap_or_else(|| self.eval(pos, ply));
            let stand = static_eval;
            if stand >= beta {
                self.store(tt.key, stand, G::Move::default(), alpha, beta, static_eval, 0, ply);
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut w = Window::new(alpha, beta, best, G::Move::default());
        self.generated.clear();
        pos.tactical_moves(&mut self.generated);
        if checked && !in_check {
            retain_tactical(pos, &mut *self.generated);
        }
        if in_check && self.generated.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let how = Order::Quiescence { hash: tt.mv };
        let mut scored = G::Moves::<(i32, G::Move)>::default();
        for &m in self.generated.iter() {
            // Out of check, exchanges that lose material are not searched.
            if in_check || pos.see_ge(m, 0) {
                scored.push((order(&self.history, &self.continuation, pos, m, &how), m));
            }
        }
        let my_team = self.team(pos);
        for (_, m) in Picker::new(scored.as_mut_slice()) {
            // Quiescence keeps no path: no repetition is judged there.
            let (child, flip) = self.child(pos, Some(m), my_team, ply);
            let v = if flip {
                -self.qsearch(&child, ply + 1, qply + 1, -beta, -w.alpha)
            } else {
                self.qsearch(&child, ply + 1, qply + 1, w.alpha, beta)
            };
            if self.stopped {
                return 0;
            }
            if w.offer(v, m) == Offer::Cut {
                break;
            }
        }
        self.store_window(tt.key, &w, static_eval, 0, ply);
        w.best
    }
}
