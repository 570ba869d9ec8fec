//! What every node kind shares: its opening (count, poll the limits, end at a repetition, a
//! settled result or the ply limit), the one rule by which the hash table settles a node, how a
//! node's result is stored, the re-search of a move that beat a null window, and the scores of
//! ends seen from the team to move.

use super::ordering::HISTORY_MAX;
use super::params::{LMR_DEPTH, LMR_MOVES};
use super::tt::{Bound, Entry};
use super::*;

/// What the hash table knows of a node that it does not settle.
pub(super) struct Probe<M> {
    pub key: u64,
    /// The stored move, or the default move.
    pub mv: M,
    /// The stored static evaluation.
    pub eval: Option<i32>,
}

/// How a move after the first is searched once its null window fails high.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ReSearch {
    /// Principal variation search: a reduced move is searched again at full depth with the
    /// null window, and a score inside the window with the full window.
    Pvs,
    /// Best-Reply Search's root side: straight to the full window at full depth.
    Full,
    /// Best-Reply Search's replies: straight to the full window at full depth, when the move
    /// was reduced or the window is wider than null.
    FullIfReducedOrWide,
}

/// What a node knows of one of its moves before searching it, from which `search_move` sets the
/// move's depth: the root's moves and every node's go through the one rule.
pub(super) struct Step {
    pub depth: i32,
    pub ply: usize,
    /// The move's place in the node's order, from 0.
    pub count: usize,
    pub in_check: bool,
    pub pv_node: bool,
    /// Neither the hash move, nor tactical, nor a killer.
    pub quiet: bool,
    /// The policy measures improvement and the side to move stands no better than two plies
    /// up; the root has nothing two plies up.
    pub not_improving: bool,
    /// The move's ordering score: a quiet move with a good history is reduced less.
    pub history: i32,
}

/// A node's window and the best score and move it has found in it.
pub(super) struct Window<M> {
    /// Alpha as the node began its moves, for the bound its result is stored with.
    pub orig_alpha: i32,
    pub alpha: i32,
    pub beta: i32,
    pub best: i32,
    pub best_move: M,
}

/// What a move's score did at its node.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Offer {
    /// No better than the best so far.
    NoBetter,
    /// The best so far, at or below alpha.
    Best,
    /// It raised alpha: a new principal variation.
    Raised,
    /// It reached beta: the node is cut.
    Cut,
}

impl<M: Copy> Window<M> {
    #[inline(always)]
    pub(super) fn new(alpha: i32, beta: i32, best: i32, best_move: M) -> Self {
        Window { orig_alpha: alpha, alpha, beta, best, best_move }
    }

    /// Takes `v`, the score of move `m`.
    #[inline(always)]
    pub(super) fn offer(&mut self, v: i32, m: M) -> Offer {
        if v <= self.best {
            return Offer::NoBetter;
        }
        self.best = v;
        self.best_move = m;
        if v <= self.alpha {
            return Offer::Best;
        }
        self.alpha = v;
        if v >= self.beta { Offer::Cut } else { Offer::Raised }
    }
}

impl<G: Game> Searcher<G> {
    /// The opening of an interior node: at depth 0 quiescence takes over; otherwise `enter`.
    #[inline(always)]
    pub(super) fn open(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        self.pv_len[ply] = ply;
        self.pv_len[ply + 1] = ply + 1;
        if depth <= 0 {
            return Some(self.qsearch(pos, ply, 0, alpha, beta));
        }
        self.enter(pos, ply, None)
    }

    /// What every node does first: count itself, poll the limits, and end at a stop, a
    /// repetition, a settled result or the ply limit. Quiescence (`qply`, its plies so far)
    /// looks for no repetition, which captures cannot make, counts into the selective depth
    /// here, and also ends at the game's quiescence limit.
    #[inline(always)]
    pub(super) fn enter(&mut self, pos: &G, ply: usize, qply: Option<usize>) -> Option<i32> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return Some(0);
        }
        match qply {
            None => {
                if let Some(v) = self.repetition(pos) {
                    return Some(v);
                }
            }
            Some(_) => self.seldepth = self.seldepth.max(ply),
        }
        if let Some(v) = self.settled(pos, ply) {
            return Some(v);
        }
        if ply >= MAX_PLY - 2 || qply.is_some_and(|q| q >= G::VARIANT.search.qsearch_plies) {
            return Some(self.eval(pos, ply));
        }
        None
    }

    /// The one hash-table rule: a stored score settles a node (`Err`) when it was searched at
    /// least as deep and its bound settles the window, on a null window only, since a
    /// principal variation is searched to its end; quiescence (`qsearch`), which reports no line,
    /// takes the cut on any window.
    #[inline(always)]
    pub(super) fn probe(
        &self,
        pos: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        qsearch: bool,
    ) -> Result<Probe<G::Move>, i32> {
        let key = pos.hash() ^ self.key_salt;
        match self.tt.probe(key) {
            Some(Entry { mv, score, eval, depth: stored, bound, .. }) => {
                let s = score_from_tt(score, ply);
                if (qsearch || beta - alpha == 1) && stored as i32 >= depth && cuts(bound, s, alpha, beta) {
                    return Err(s);
                }
                Ok(Probe { key, mv, eval: (eval != NO_EVAL).then_some(eval) })
            }
            None => Ok(Probe { key, mv: G::Move::default(), eval: None }),
        }
    }

    /// Stores a node's result (`w`): its bound follows from where its best fell against its
    /// window.
    #[inline(always)]
    pub(super) fn store_window(&mut self, key: u64, w: &Window<G::Move>, eval: i32, depth: i32, ply: usize) {
        self.store(key, w.best, w.best_move, w.orig_alpha, w.beta, eval, depth, ply);
    }

    /// Stores a node's result: its bound follows from where `best` fell against the window.
    // The window, depth and ply of a node travel together through every search function;
    // bundling them would build and take apart a struct at every node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        key: u64,
        best: i32,
        mv: G::Move,
        alpha: i32,
        beta: i32,
        eval: i32,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = if bound == Bound::Upper { G::Move::default() } else { mv };
        self.tt.store(key, mv, score_to_tt(best, ply), eval, depth, bound);
    }

    /// Searches move `m` of `pos`, whose position is `child`, at the depth `step` gives it: the
    /// first move with the full window; every later one with the null window, reduced when it is
    /// late and quiet, and searched again as principal variation search does.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn search_move(
        &mut self,
        pos: &G,
        m: G::Move,
        child: &G,
        flip: bool,
        step: &Step,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let gives_check = child.must_answer_check();
        // Checks are searched a ply deeper. Below the root only those that do not simply lose
        // the checking piece; at the root every check (so that a mate by a checking sacrifice
        // is found at its depth, tests/search.rs), but no evasion of a check the root is in.
        let extend = G::VARIANT.search.extend_checks
            && gives_check
            && if step.ply == 0 { !step.in_check } else { step.ply < MAX_PLY / 2 && pos.see_ge(m, 0) };
        let d = step.depth - 1 + extend as i32;
        let ply = step.ply + 1;
        if step.count == 0 {
            return self.value(child, flip, d, ply, alpha, beta, true);
        }
        // Late quiet moves are reduced; at the root only where the policy says so (two sides:
        // with drops, Judkins has a hundred root moves and each would cost a full search).
        let reducible = step.quiet
            && !step.in_check
            && !gives_check
            && (step.ply > 0 || self.policy.root_reductions)
            && step.depth >= LMR_DEPTH
            && step.count >= LMR_MOVES;
        let r = if reducible {
            let r = self.lmr[(step.depth as usize).min(63)][step.count.min(63)] as i32 - step.pv_node as i32
                + step.not_improving as i32
                - step.history / HISTORY_MAX;
            r.clamp(0, d - 1)
        } else {
            0
        };
        let search = |s: &mut Self, d: i32, a: i32, b: i32| s.value(child, flip, d, ply, a, b, true);
        self.re_search(ReSearch::Pvs, d, r, alpha, beta, search)
    }

    /// A move after the first: the null window at `depth - r`, then as `how` says once that
    /// fails high. `search(self, depth, alpha, beta)` searches the move's position.
    #[inline(always)]
    pub(super) fn re_search(
        &mut self,
        how: ReSearch,
        depth: i32,
        r: i32,
        alpha: i32,
        beta: i32,
        mut search: impl FnMut(&mut Self, i32, i32, i32) -> i32,
    ) -> i32 {
        let mut v = search(self, depth - r, alpha, alpha + 1);
        if v <= alpha || self.stopped {
            return v;
        }
        match how {
            ReSearch::Pvs => {
                if r > 0 {
                    v = search(self, depth, alpha, alpha + 1);
                }
                if v > alpha && v < beta && !self.stopped {
                    v = search(self, depth, alpha, beta);
                }
            }
            ReSearch::Full => v = search(self, depth, alpha, beta),
            ReSearch::FullIfReducedOrWide => {
                if r > 0 || beta - alpha > 1 {
                    v = search(self, depth, alpha, beta);
                }
            }
        }
        v
    }

    /// The value of `child` for the side that moved into it: `flip` when the team changes.
    // The window, depth and ply of a node travel together through every search function;
    // bundling them would build and take apart a struct at every node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn value(
        &mut self,
        child: &G,
        flip: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        if self.brs {
            return if flip {
                -self.best_replies(child, depth, ply, -beta, -alpha)
            } else {
                self.brs_max(child, depth, ply, alpha, beta)
            };
        }
        if flip {
            -self.negamax(child, depth, ply, -beta, -alpha, null_ok)
        } else {
            self.negamax(child, depth, ply, alpha, beta, null_ok)
        }
    }

    #[inline]
    pub(super) fn set_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The position after `mv` (the null move when `None`) at `ply + 1`, with its accumulators
    /// when a network evaluates, and whether its mover is of another team than `my_team`, so
    /// that its score is negated.
    #[inline]
    pub(super) fn child(&mut self, pos: &G, mv: Option<G::Move>, my_team: bool, ply: usize) -> (G, bool) {
        let mut child = pos.clone();
        match mv {
            Some(m) => child.play(m),
            None => child.play_null(),
        }
        self.tt.prefetch(child.hash() ^ self.key_salt);
        if self.learned.is_some() {
            self.accumulate(pos, mv, &child, ply + 1);
        }
        let flip = self.team(&child) != my_team;
        (child, flip)
    }

    /// One step down the tree, the same for every node kind that keeps the path: the child
    /// (`child`), its trace on the path for the repetition rules while `search` runs on it.
    #[inline]
    pub(super) fn descend<R>(
        &mut self,
        pos: &G,
        mv: Option<G::Move>,
        my_team: bool,
        ply: usize,
        search: impl FnOnce(&mut Self, &G, bool) -> R,
    ) -> R {
        let (child, flip) = self.child(pos, mv, my_team, ply);
        self.push_trace(Trace::of(&child));
        let v = search(self, &child, flip);
        self.pop_trace();
        v
    }

    #[inline]
    pub(super) fn push_trace(&mut self, t: Trace) {
        self.rep_filter[t.hash as usize & REP_MASK] += 1;
        self.path.push(t);
    }

    #[inline]
    pub(super) fn pop_trace(&mut self) {
        if let Some(t) = self.path.pop() {
            self.rep_filter[t.hash as usize & REP_MASK] -= 1;
        }
    }

    /// The score of a repetition of the last position in `path`, from the mover's team's view:
    /// a draw, or a decided game when one side checked on every move of the cycle.
    fn repetition(&self, pos: &G) -> Option<i32> {
        let last = *self.path.last()?;
        if self.rep_filter[last.hash as usize & REP_MASK] < 2 {
            return None;
        }
        let n = self.path.len();
        let first = (0..n - 1).rev().find(|&i| self.path[i].hash == last.hash)?;
        if G::PERPETUAL_CHECK_LOSES
            && let Some(checker) = perpetual_checker(pos, &self.path[first..])
        {
            let mover_side = pos.side_of(pos.to_move());
            return Some(if checker == mover_side { -WON } else { WON });
        }
        Some(self.draw_value(pos))
    }

    /// Whether the team to move in `pos` is the root's.
    #[inline]
    pub(super) fn team(&self, pos: &G) -> bool {
        pos.side_of(pos.to_move()) == self.root_side(pos)
    }

    /// The root seat's side in `pos`. Judtho's checkmates move seats between sides, so the side
    /// the search plays for is the root seat's side in each position, not the one at the root.
    #[inline]
    pub(super) fn root_side(&self, pos: &G) -> Side {
        pos.side_of(self.root_seat)
    }

    /// The static evaluation of `pos` at `ply` from the view of the team to move: the network's
    /// when one is in use, else the game's own.
    #[inline]
    pub(super) fn eval(&self, pos: &G, ply: usize) -> i32 {
        if self.learned.is_some() {
            return self.learned_eval(pos, ply);
        }
        let e = pos.evaluate(self.root_side(pos));
        if self.team(pos) { e } else { -e }
    }

    /// A draw from the mover's team's view. With more than two sides a shared draw is worth
    /// less to the root than playing on for the win: the paranoid view makes most lines look
    /// bad and would otherwise steer into repetitions.
    #[inline]
    fn draw_value(&self, pos: &G) -> i32 {
        if !self.policy.draw_contempt {
            return 0;
        }
        if self.team(pos) { -DRAW_CONTEMPT } else { DRAW_CONTEMPT }
    }

    pub(super) fn outcome_score(&self, pos: &G, o: Outcome, ply: usize) -> i32 {
        if o.is_draw() {
            return self.draw_value(pos);
        }
        let root_wins = o.winners.seats().any(|s| pos.side_of(s) == self.root_side(pos));
        let v = if root_wins { MATE - ply as i32 } else { -(MATE - ply as i32) };
        if self.team(pos) { v } else { -v }
    }

    /// The score of a node whose result is already decided for the root: the game is over, or
    /// the root's side is out of a game that goes on without it (then the later, the better).
    #[inline]
    pub(super) fn settled(&self, pos: &G, ply: usize) -> Option<i32> {
        if pos.side_lost(self.root_side(pos)) {
            let v = -(MATE - ply as i32);
            return Some(if self.team(pos) { v } else { -v });
        }
        pos.static_outcome().map(|o| self.outcome_score(pos, o, ply))
    }

    #[inline]
    pub(super) fn check_limits(&mut self) {
        if self.helper {
            self.crew_nodes.fetch_add(self.nodes - self.counted, Ordering::Relaxed);
            self.counted = self.nodes;
        }
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        // After a ponderhit the iterations finished while pondering are already in hand, and the
        // one under way may be far deeper than the clock allows: the move ends at the soft
        // limit, never later than the same clocks would give without pondering.
        let limit = |b: Budget| if self.control.pondered { b.soft } else { b.hard };
        if let (Some(b), Some(ms)) = (self.limits.budget, self.control.clock_ms())
            && ms >= limit(b)
        {
            self.stopped = true;
        }
    }
}

/// Whether a stored score with this bound settles the window.
#[inline]
fn cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

#[inline]
fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline]
fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}
