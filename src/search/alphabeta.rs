//! The main search: principal variation search with the transposition table, null move, late
//! move reductions, futility and exchange pruning, and check extensions.

use super::node::{Offer, Step, Window};
use super::ordering::{NO_PIECE_TO, Order, Picker, band, cutoff_bonus};
use super::params::*;
use super::*;

impl<G: Game> Searcher<G> {
    pub(super) fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        null_ok: bool,
    ) -> i32 {
        if let Some(v) = self.open(pos, depth, ply, alpha, beta) {
            return v;
        }
        // Mate distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let tt = match self.probe(pos, depth, ply, alpha, beta, false) {
            Ok(tt) => tt,
            Err(v) => return v,
        };
        let in_check = pos.must_answer_check();
        let eval = if in_check { -INF } else { tt.eval.unwrap_or_else(|| self.eval(pos, ply)) };
        let stored_eval = if in_check { NO_EVAL } else { eval };
        let my_team = self.team(pos);
        let policy = self.policy;
        // Whether the side to move stands better than two plies up: at its own previous turn
        // where two sides alternate; in Judtho's turn cycles, two turns back whoever moved.
        let root_view = |v: i32| if my_team { v } else { -v };
        self.evals[ply] = if in_check { NO_EVAL } else { root_view(eval) };
        let improving = policy.improving
            && !in_check
            && ply >= 2
            && self.evals[ply - 2] != NO_EVAL
            && eval > root_view(self.evals[ply - 2]);
        // Internal iterative reduction: a node the table knows nothing of is searched a ply
        // shallower first; a deeper visit will find the move stored.
        if policy.internal_reduction && depth >= IIR_DEPTH && tt.mv == G::Move::default() {
            depth -= 1;
        }

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left.
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving as i32) >= beta {
                return eval;
            }
            // Razoring: far below alpha near the leaves, only a capture could help; if none
            // does, the node fails low without a full search.
            if policy.razoring && depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth < alpha {
                let v = self.qsearch(pos, ply, 0, alpha, alpha + 1);
                if v <= alpha {
                    return v;
                }
            }
            if G::VARIANT.search.null_move && null_ok && depth >= NULL_MOVE_DEPTH && eval >= beta {
                self.played[ply] = NO_PIECE_TO;
                let r = NULL_MOVE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR;
                let v = self.descend(pos, None, my_team, ply, |s, child, flip| {
                    s.value(child, flip, depth - 1 - r, ply + 1, beta - 1, beta, false)
                });
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        let seat = pos.to_move();
        // The moves one and two plies up, which a quiet move here may continue.
        let before = [
            if policy.continuation && ply >= 1 { self.played[ply - 1] } else { NO_PIECE_TO },
            if policy.continuation && ply >= 2 { self.played[ply - 2] } else { NO_PIECE_TO },
        ];
        let how = Order::FullWidth { hash: tt.mv, killers: self.killers[ply], before, policy };
        let mut scored = G::Moves::<(i32, G::Move)>::default();
        self.score_legal_moves(pos, &how, &mut scored);
        if scored.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }

        let mut w = Window::new(alpha, beta, -INF, G::Move::default());
        let mut quiets_tried = 0;
        // The quiet moves searched before a cutoff lose history.
        let mut tried: [(G::Move, usize); 32] = [(G::Move::default(), 0); 32];
        for (count, (score, m)) in Picker::new(scored.as_mut_slice()).enumerate() {
            let quiet = band::is_quiet(score);
            if quiet && !pv_node && !in_check && w.best > -MATE_BOUND && depth <= SEE_QUIET_DEPTH {
                // Late quiet moves near the leaves, quiet moves that cannot lift a hopeless
                // eval, and quiet moves that lose material are not worth a search.
                if depth <= QUIET_PRUNING_DEPTH {
                    let late = LATE_MOVES_BASE + LATE_MOVES_FACTOR * depth * depth;
                    let late = if policy.improving { late * (2 + improving as i32) / 3 } else { late };
                    if quiets_tried >= late {
                        continue;
                    }
                    // Quiet moves that kept failing here and after these moves.
                    if policy.history_pruning && score < -HISTORY_PRUNING_MARGIN * depth {
                        continue;
                    }
                    if eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= w.alpha {
                        continue;
                    }
                }
                if !pos.see_ge(m, -SEE_QUIET_MARGIN * depth * depth) {
                    continue;
                }
            }
            // Only the searches with continuation histories read `piece_to`.
            let pt = if policy.continuation { pos.piece_to(m) } else { NO_PIECE_TO };
            self.played[ply] = pt;
            let alpha = w.alpha;
            let step = Step {
                depth,
                ply,
                count,
                in_check,
                pv_node,
                quiet,
                not_improving: policy.improving && !improving,
                history: score,
            };
            let v = self.descend(pos, Some(m), my_team, ply, |s, child, flip| {
                s.search_move(pos, m, child, flip, &step, alpha, beta)
            });
            if self.stopped {
                return 0;
            }
            if quiet {
                if (quiets_tried as usize) < tried.len() {
                    tried[quiets_tried as usize] = (m, pt);
                }
                quiets_tried += 1;
            }
            match w.offer(v, m) {
                Offer::Raised => self.set_pv(ply, m),
                Offer::Cut => {
                    self.set_pv(ply, m);
                    if quiet {
                        let tried = &tried[..(quiets_tried as usize).min(32)];
                        self.reward_quiet(ply, seat, depth, before, (m, pt), tried);
                    }
                    break;
                }
                Offer::NoBetter | Offer::Best => {}
            }
        }
        self.store_window(tt.key, &w, stored_eval, depth, ply);
        w.best
    }

    /// A quiet move `best` caused a cutoff at `depth`: it becomes the ply's first killer and
    /// gains history, after the moves `before` too; the quiet moves `tried` before it lose.
    fn reward_quiet(
        &mut self,
        ply: usize,
        seat: Seat,
        depth: i32,
        before: [usize; 2],
        (m, pt): (G::Move, usize),
        tried: &[(G::Move, usize)],
    ) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = cutoff_bonus(depth);
        self.history.update(seat, G::move_index(m), bonus);
        for b in before {
            self.continuation.update(seat, b, pt, bonus);
        }
        for &(q, qpt) in tried {
            if q != m {
                self.history.update(seat, G::move_index(q), -bonus);
                for b in before {
                    self.continuation.update(seat, b, qpt, -bonus);
                }
            }
        }
    }
}
