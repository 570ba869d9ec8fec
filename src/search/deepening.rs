//! Iterative deepening and the root: each iteration searches every root move, within an
//! aspiration window once the scores settle, and decides whether the clock allows another.

use super::node::Step;
use super::params::*;
use super::*;

impl<G: Game> Searcher<G> {
    /// One thread's search of `record`'s position within the `limits` and under the `control`
    /// that `think` gave this searcher.
    pub(super) fn search(
        &mut self,
        record: &Record<G>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.stopped = false;
        self.nodes = 0;
        self.counted = 0;
        self.seldepth = 0;
        for k in self.killers.iter_mut() {
            *k = [G::Move::default(); 2];
        }
        self.history.age();
        let root = &record.current;
        self.root_seat = root.to_move();
        self.refresh(root, 0);
        let mut sides: Vec<Side> = Seat::all(root.seats()).map(|s| root.side_of(s)).collect();
        sides.sort_unstable();
        sides.dedup();
        let two_sided = sides.len() <= 2;
        self.policy = Policy::for_sides(sides.len());
        // With more than two sides a score depends on who the root is (paranoid search).
        self.key_salt = if two_sided { 0 } else { (self.root_seat.0 as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) };
        self.brs = !two_sided && self.limits.best_reply && root.with_turn(root.to_move()).is_some();
        if self.brs {
            // Best-reply nodes mean something else than paranoid ones with the same position.
            self.key_salt ^= 0xB125_0000_0000_0001;
        }
        self.path.clear();
        self.rep_filter.iter_mut().for_each(|c| *c = 0);
        for t in record.traces.iter() {
            self.push_trace(*t);
        }

        let mut result = SearchResult { best: None, ponder: None, score: 0, depth: 0, nodes: 0 };
        let mut root_moves = MovesOf::<G>::default();
        record.legal_moves(&mut root_moves);
        if root_moves.is_empty() {
            self.wait_while_required();
            return result;
        }
        // A move that ends the game at once as the mover's own loss (shogi's perpetual check)
        // is never chosen while another move exists, however lost the game is: a front end
        // such as Cute Chess refuses it as an illegal move instead.
        if root_moves.len() > 1 {
            let me = root.side_of(self.root_seat);
            let self_defeat = |m: G::Move| {
                let mut after = record.clone();
                after.play(m);
                after.outcome().is_some_and(|o| {
                    !o.is_draw() && Seat::all(root.seats()).all(|s| !o.winners.contains(s) || root.side_of(s) != me)
                })
            };
            let keep: Vec<G::Move> = root_moves.iter().copied().filter(|&m| !self_defeat(m)).collect();
            if !keep.is_empty() && keep.len() < root_moves.len() {
                root_moves.clear();
                keep.into_iter().for_each(|m| root_moves.push(m));
            }
        }
        let mut scores: Vec<i32> = vec![0; root_moves.len()];
        result.best = Some(root_moves.as_slice()[0]);
        let max_depth = self.limits.depth.map(|d| d.clamp(1, MAX_PLY as u32 - 8)).unwrap_or(MAX_PLY as u32 - 8);
        let only_move = root_moves.len() == 1 && self.limits.budget.is_some() && !self.limits.infinite;

        let mut prev: i32 = 0;
        // How long the last two iterations took on the clock, to foresee the next one's length.
        let mut last_ms = 0u64;
        let mut iteration_start = self.control.clock_ms().unwrap_or(0);
        let lines = self.limits.multipv.clamp(1, root_moves.len());
        let mut found: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines);
        for depth in 1..=max_depth {
            // Each line searches the root moves that the lines before it left, the best of them
            // first in its place; the first line is the search's move.
            found.clear();
            for line in 0..lines {
                // Aspiration window around the previous score once the scores settle (the first
                // line; the others open fully).
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) = if line == 0 && depth >= ASPIRATION_DEPTH && prev.abs() < MATE_BOUND {
                    (prev - delta, prev + delta)
                } else {
                    (-INF, INF)
                };
                let v = loop {
                    let v = self.root(root, &mut root_moves, &mut scores, line, depth as i32, (alpha, beta));
                    if self.stopped {
                        break v;
                    }
                    if v <= alpha {
                        alpha = (alpha - delta).max(-INF);
                        beta = (alpha + beta) / 2;
                    } else if v >= beta {
                        beta = (beta + delta).min(INF);
                    } else {
                        break v;
                    }
                    delta += delta;
                };
                // A part-searched line is dropped (but the first of the first iteration, which
                // is all there is): using a move that beat the last best in it was measured and
                // did not gain (docs/strength.md).
                if self.stopped && (depth > 1 || line > 0) {
                    break;
                }
                found.push((v, self.pv[0][..self.pv_len[0]].to_vec()));
                if self.stopped {
                    break;
                }
            }
            // The lines in order of their scores: a later line may score above an earlier
            // one, each searched with what the tables learnt meanwhile; the best is the move.
            if found.len() > 1 {
                found.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
                for (k, (_, pv)) in found.iter().enumerate() {
                    if let Some(p) = pv.first().and_then(|&m| root_moves.iter().position(|&x| x == m)) {
                        root_moves.as_mut_slice().swap(k, p);
                        scores.swap(k, p);
                    }
                }
            }
            let Some((v, pv)) = found.first().cloned() else { break };
            prev = v;
            if let Some(&m) = pv.first() {
                result.best = Some(m);
            }
            result.ponder = pv.get(1).copied();
            result.score = v;
            result.depth = depth;
            for (k, (v, pv)) in found.iter().enumerate() {
                report(&self.info(k + 1, depth, *v, pv));
            }
            if self.stopped {
                break;
            }
            if let Some(n) = self.limits.mate
                && v >= MATE_BOUND
                && MATE - v < 2 * n as i32
            {
                break;
            }
            if only_move {
                break;
            }
            if let (Some(b), Some(ms)) = (self.limits.budget, self.control.clock_ms()) {
                if ms >= b.soft {
                    break;
                }
                // Start another iteration only if it should end by the hard limit (twice the soft
                // one, or less near the end of the clock): the next takes about as much longer than the last as the last took than
                // the one before (1.5 to 8 times). An iteration begun just before the soft limit
                // would otherwise be cut at the hard one, its time lost.
                let before_last_ms = last_ms;
                last_ms = ms.saturating_sub(iteration_start);
                iteration_start = ms;
                let growth = if before_last_ms > 0 {
                    (last_ms as f64 / before_last_ms as f64).clamp(ITERATION_GROWTH.0, ITERATION_GROWTH.1)
                } else {
                    ITERATION_GROWTH_UNKNOWN
                };
                if !b.use_all && ms as f64 + last_ms as f64 * growth > b.hard as f64 {
                    break;
                }
            }
        }
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            let mut child = root.clone();
            child.play(best);
            if let Some(e) = self.tt.probe(child.hash() ^ self.key_salt) {
                let mut list = MovesOf::<G>::default();
                child.legal_moves(&mut list);
                if list.iter().any(|&m| m == e.mv) {
                    result.ponder = Some(e.mv);
                }
            }
        }
        result.nodes = self.nodes;
        self.wait_while_required();
        result
    }

    /// `go infinite` and `go ponder` must not answer before `stop` (or `ponderhit`).
    fn wait_while_required(&self) {
        loop {
            let stop = self.control.stop.load(Ordering::SeqCst);
            let hold = self.limits.infinite || self.control.pondering();
            if stop || !hold {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    fn info(&self, multipv: usize, depth: u32, v: i32, pv: &[G::Move]) -> Info<G::Move> {
        Info {
            multipv,
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(v),
            nodes: self.nodes + self.crew_nodes.load(Ordering::Relaxed),
            time_ms: self.control.start.elapsed().as_millis() as u64,
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
        }
    }

    fn root(
        &mut self,
        pos: &G,
        moves: &mut MovesOf<G>,
        scores: &mut [i32],
        first: usize,
        depth: i32,
        (mut alpha, beta): (i32, i32),
    ) -> i32 {
        self.pv_len[0] = 0;
        self.evals[0] = NO_EVAL;
        let my_team = self.team(pos);
        let in_check = pos.must_answer_check();
        let mut best = -INF;
        // The nodes each move's search took: the moves that failed low are tried next time in
        // the order of the work it took to refute them, the nearest to good first, so that the
        // reductions of late moves fall on the moves refuted at once.
        let mut effort = vec![0u64; moves.len()];
        // The moves before `first` are the lines already searched (MultiPV).
        for i in first..moves.len() {
            let m = moves.as_slice()[i];
            let nodes_before = self.nodes;
            self.played[0] = pos.piece_to(m);
            let step = Step {
                depth,
                ply: 0,
                count: i - first,
                in_check,
                pv_node: true,
                quiet: pos.tactical_value(m).is_none(),
                not_improving: false,
                history: 0,
            };
            let v = self.descend(pos, Some(m), my_team, 0, |s, child, flip| {
                s.search_move(pos, m, child, flip, &step, alpha, beta)
            });
            if self.stopped {
                break;
            }
            scores[i] = if v > alpha || i == first { v } else { -INF };
            effort[i] = self.nodes - nodes_before;
            if v > best {
                best = v;
            }
            if v > alpha || i == first {
                self.set_pv(0, m);
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        // The next iteration searches the best moves first (stable: earlier wins ties).
        if !self.stopped {
            let mut idx: Vec<usize> = (first..moves.len()).collect();
            idx.sort_by_key(|&i| std::cmp::Reverse((scores[i], effort[i])));
            let old: Vec<G::Move> = moves.iter().copied().collect();
            let old_scores: Vec<i32> = scores.to_vec();
            for (k, &i) in idx.iter().enumerate() {
                moves.as_mut_slice()[first + k] = old[i];
                scores[first + k] = old_scores[i];
            }
        } else if self.pv_len[0] > 0 {
            // Keep the best move found so far first.
            let b = self.pv[0][0];
            if let Some(p) = moves.iter().skip(first).position(|&m| m == b) {
                moves.as_mut_slice()[first..=first + p].rotate_right(1);
            }
        }
        best
    }
}
