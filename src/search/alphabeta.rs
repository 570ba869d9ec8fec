//! The main search: principal variation search with the transposition table, null move, late
//! move reductions, futility and exchange pruning, and check extensions.

use super::ordering::{HISTORY_MAX, NO_PIECE_TO, cutoff_bonus, pick_next};
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
        self.pv_len[ply] = ply;
        self.pv_len[ply + 1] = ply + 1;
        if depth <= 0 {
            return self.qsearch(pos, ply, 0, alpha, beta);
        }
        if let Some(v) = self.enter(pos, ply, true) {
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
        let key = pos.hash() ^ self.key_salt;
        let mut tt_move = G::Move::default();
        let mut tt_eval = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            tt_eval = (e.eval != NO_EVAL).then_some(e.eval);
            let s = score_from_tt(e.score, ply);
            if !pv_node && e.depth as i32 >= depth && cuts(e.bound, s, alpha, beta) {
                return s;
            }
        }
        let in_check = pos.in_check();
        let eval = if in_check { -INF } else { tt_eval.unwrap_or_else(|| self.eval(pos)) };
        let stored_eval = if in_check { NO_EVAL } else { eval };
        let my_team = self.team(pos);
        // Continuation histories, improving, internal iterative reduction, razoring and
        // history pruning were measured in two-sided games (docs/strength.md); the paranoid
        // search of more than two sides keeps the pruning its own figures were measured with.
        let two_sided = !self.many_sides;
        // Whether the side to move stands better than two plies up: at its own previous turn
        // where two sides alternate; in Judtho's turn cycles, two turns back whoever moved.
        let root_view = |v: i32| if my_team { v } else { -v };
        self.evals[ply] = if in_check { NO_EVAL } else { root_view(eval) };
        let improving = two_sided
            && !in_check
            && ply >= 2
            && self.evals[ply - 2] != NO_EVAL
            && eval > root_view(self.evals[ply - 2]);
        // Internal iterative reduction: a node the table knows nothing of is searched a ply
        // shallower first; a deeper visit will find the move stored.
        if two_sided && depth >= 4 && tt_move == G::Move::default() {
            depth -= 1;
        }

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left.
            if depth <= 4 && eval - 110 * (depth - improving as i32) >= beta {
                return eval;
            }
            // Razoring: far below alpha near the leaves, only a capture could help; if none
            // does, the node fails low without a full search.
            if two_sided && depth <= 2 && eval + 250 * depth < alpha {
                let v = self.qsearch(pos, ply, 0, alpha, alpha + 1);
                if v <= alpha {
                    return v;
                }
            }
            if G::NULL_MOVE && null_ok && depth >= 3 && eval >= beta {
                self.played[ply] = NO_PIECE_TO;
                let mut child = pos.clone();
                child.play_null();
                let flip = self.team(&child) != my_team;
                self.push_trace(Trace::of(&child));
                let r = 3 + depth / 4;
                let v = self.value(&child, flip, depth - 1 - r, ply + 1, beta - 1, beta, false);
                self.pop_trace();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        let mut moves = MovesOf::<G>::default();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let killers = self.killers[ply];
        let seat = pos.to_move();
        // The moves one and two plies up, which a quiet move here may continue.
        let before = [
            if two_sided && ply >= 1 { self.played[ply - 1] } else { NO_PIECE_TO },
            if two_sided && ply >= 2 { self.played[ply - 2] } else { NO_PIECE_TO },
        ];
        let mut scored = G::Moves::<(i32, G::Move)>::default();
        for &m in moves.iter() {
            let score = if m == tt_move {
                1 << 30
            } else if let Some(t) = pos.tactical_value(m) {
                // Captures that lose material go last.
                if pos.see_ge(m, 0) { (1 << 20) + t } else { -(1 << 20) + t }
            } else if m == killers[0] {
                (1 << 19) + 1
            } else if m == killers[1] {
                1 << 19
            } else {
                let h = self.history.get(seat, G::move_index(m));
                if two_sided {
                    let pt = pos.piece_to(m);
                    h + self.continuation.get(seat, before[0], pt) + self.continuation.get(seat, before[1], pt)
                } else {
                    // On the scale of the three tables together, as the reductions read it.
                    2 * h
                }
            };
            scored.push((score, m));
        }

        let mut best = -INF;
        let mut best_move = G::Move::default();
        let orig_alpha = alpha;
        let mut quiets_tried = 0;
        // The quiet moves searched before a cutoff lose history.
        let mut tried: [(G::Move, usize); 32] = [(G::Move::default(), 0); 32];
        let n = scored.len();
        for count in 0..n {
            pick_next(scored.as_mut_slice(), count);
            let (score, m) = scored.as_slice()[count];
            let quiet = score < (1 << 19) && score > -(1 << 19) && m != tt_move;
            if quiet && !pv_node && !in_check && best > -MATE_BOUND {
                // Late quiet moves near the leaves, quiet moves that cannot lift a hopeless
                // eval, and quiet moves that lose material are not worth a search.
                let late = 3 + depth * depth * 2;
                if depth <= 3 && quiets_tried >= if two_sided { late * (2 + improving as i32) / 3 } else { late } {
                    continue;
                }
                // Quiet moves that kept failing here and after these moves.
                if two_sided && depth <= 3 && score < -3000 * depth {
                    continue;
                }
                if depth <= 3 && eval + 150 + 120 * depth <= alpha {
                    continue;
                }
                if depth <= 6 && !pos.see_ge(m, -60 * depth * depth) {
                    continue;
                }
            }
            // Only the two-sided search reads continuation histories.
            let pt = if two_sided { pos.piece_to(m) } else { NO_PIECE_TO };
            self.played[ply] = pt;
            let mut child = pos.clone();
            child.play(m);
            let gives_check = child.in_check();
            let flip = self.team(&child) != my_team;
            self.push_trace(Trace::of(&child));
            // Checks that do not simply lose the checking piece are searched a ply deeper.
            let extend = G::EXTEND_CHECKS && gives_check && ply < MAX_PLY / 2 && pos.see_ge(m, 0);
            let d = depth - 1 + extend as i32;
            let v = if count == 0 {
                self.value(&child, flip, d, ply + 1, alpha, beta, true)
            } else {
                let r = if depth >= 3 && count >= 3 && quiet && !in_check && !gives_check {
                    let r = self.lmr[(depth as usize).min(63)][count.min(63)] as i32 - pv_node as i32
                        + (two_sided && !improving) as i32
                        - score / HISTORY_MAX;
                    r.clamp(0, d - 1)
                } else {
                    0
                };
                let mut v = self.value(&child, flip, d - r, ply + 1, alpha, alpha + 1, true);
                if v > alpha && r > 0 {
                    v = self.value(&child, flip, d, ply + 1, alpha, alpha + 1, true);
                }
                if v > alpha && v < beta {
                    v = self.value(&child, flip, d, ply + 1, alpha, beta, true);
                }
                v
            };
            self.pop_trace();
            if self.stopped {
                return 0;
            }
            if quiet {
                if (quiets_tried as usize) < tried.len() {
                    tried[quiets_tried as usize] = (m, pt);
                }
                quiets_tried += 1;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, m);
                    if v >= beta {
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let bonus = cutoff_bonus(depth);
                            self.history.update(seat, G::move_index(m), bonus);
                            for b in before {
                                self.continuation.update(seat, b, pt, bonus);
                            }
                            let n = (quiets_tried as usize).min(tried.len());
                            for &(q, qpt) in &tried[..n] {
                                if q != m {
                                    self.history.update(seat, G::move_index(q), -bonus);
                                    for b in before {
                                        self.continuation.update(seat, b, qpt, -bonus);
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.store(key, best, best_move, orig_alpha, beta, stored_eval, depth, ply);
        best
    }
}
