//! The game-independent search: iterative deepening PVS over sides, not colours.
//!
//! Every score is from the point of view of the *team* to move at a node: the root side, or
//! everybody else. Two plies flip the sign only when the team changes, so two seats of one side
//! may move in a row (Judtho's alliances) and a multi-player game reduces to the paranoid
//! search through this same code. With two sides this is plain negamax alpha-beta.

pub mod time;
pub mod tt;

use crate::rules::{Game, MAX_MOVES, MoveList, Outcome, Record, Seat, Side, Trace, perpetual_checker};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use time::Budget;
use tt::{Bound, Table};

pub const MAX_PLY: usize = 128;
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// A decided game that is not a mate (perpetual check), kept below the mate range so that it is
/// never printed as `mate`.
pub const WON: i32 = 20_000;
const INF: i32 = 32_000;
/// What a shared draw costs the root in games of more than two sides.
pub const DRAW_CONTEMPT: i32 = 500;
/// No static evaluation stored (the side to move was in check).
const NO_EVAL: i32 = i32::MIN;

/// What limits a search. Unset fields do not limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub budget: Option<Budget>,
    /// Stop as soon as a mate in at most this many moves of the side to move is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// With more than two sides: Best-Reply Search instead of the paranoid search.
    pub best_reply: bool,
}

/// Shared between the session and the search thread.
pub struct Control {
    pub stop: AtomicBool,
    /// Milliseconds after `start` at which pondering turned into a real search; `PONDERING`
    /// while it has not.
    pub ponderhit_ms: AtomicU64,
    pub start: Instant,
    /// Raised once the search's `bestmove` is out: the thread is about to end.
    answered: AtomicBool,
}

const PONDERING: u64 = u64::MAX;

impl Control {
    pub fn new(ponder: bool) -> Arc<Self> {
        Arc::new(Control {
            stop: AtomicBool::new(false),
            ponderhit_ms: AtomicU64::new(if ponder { PONDERING } else { 0 }),
            start: Instant::now(),
            answered: AtomicBool::new(false),
        })
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Called once the search's answer is out.
    pub fn mark_answered(&self) {
        self.answered.store(true, Ordering::SeqCst);
    }
    pub fn is_answered(&self) -> bool {
        self.answered.load(Ordering::SeqCst)
    }
    pub fn ponderhit(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.ponderhit_ms.store(ms, Ordering::SeqCst);
    }
    fn pondering(&self) -> bool {
        self.ponderhit_ms.load(Ordering::Relaxed) == PONDERING
    }
    /// Time counted against the clock: none while pondering.
    fn clock_ms(&self) -> Option<u64> {
        let ph = self.ponderhit_ms.load(Ordering::Relaxed);
        (ph != PONDERING).then(|| (self.start.elapsed().as_millis() as u64).saturating_sub(ph))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Plies to mate; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate(MATE - v)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }
}

/// One progress report, sent after each completed iteration and at the end.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

impl<M> Info<M> {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// Search state that lives across moves of a game: the hash table and move-ordering history.
pub struct Searcher<G: Game> {
    tt: Table<G::Move>,
    history: Vec<i32>,
    killers: Vec<[G::Move; 2]>,
    pv: Vec<[G::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    path: Vec<Trace>,
    rep_filter: Vec<u16>,
    nodes: u64,
    seldepth: usize,
    root_side: Side,
    root_seat: Seat,
    /// More than two sides: the paranoid view, and a key salt per root side.
    many_sides: bool,
    /// Best-Reply Search is on for this search (more than two sides and asked for).
    brs: bool,
    key_salt: u64,
    limits: Limits,
    control: Arc<Control>,
    stopped: bool,
    lmr: [[u8; 64]; 64],
}

const REP_MASK: usize = 4095;

impl<G: Game> Searcher<G> {
    pub fn new(hash_mib: usize) -> Self {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Searcher {
            tt: Table::new(hash_mib),
            history: vec![0; G::MOVE_INDEX_SPACE * 4],
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 1],
            pv: vec![[G::Move::default(); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            rep_filter: vec![0; REP_MASK + 1],
            nodes: 0,
            seldepth: 0,
            root_side: 0,
            root_seat: 0,
            many_sides: false,
            brs: false,
            key_salt: 0,
            limits: Limits::default(),
            control: Control::new(false),
            stopped: false,
            lmr,
        }
    }

    pub fn resize(&mut self, hash_mib: usize) {
        self.tt = Table::new(hash_mib);
    }

    /// Forgets everything learnt: for a new game, and for reproducible benchmarks.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [G::Move::default(); 2]);
    }

    /// Searches the current position of `record` and returns the best move, or none when the
    /// game is over. `report` receives one `Info` per completed iteration.
    pub fn think(
        &mut self,
        record: &Record<G>,
        limits: Limits,
        control: Arc<Control>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.limits = limits;
        self.control = control;
        self.stopped = false;
        self.nodes = 0;
        self.seldepth = 0;
        self.tt.new_search();
        for k in self.killers.iter_mut() {
            *k = [G::Move::default(); 2];
        }
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let root = &record.current;
        self.root_side = root.side_of(root.to_move());
        self.root_seat = root.to_move();
        let mut sides: Vec<Side> = (0..root.seats() as u8).map(|s| root.side_of(s)).collect();
        sides.sort_unstable();
        sides.dedup();
        let two_sided = sides.len() <= 2;
        self.many_sides = !two_sided;
        // With more than two sides a score depends on who the root is (paranoid search).
        self.key_salt = if two_sided { 0 } else { (self.root_side as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) };
        self.brs = !two_sided && limits.best_reply && root.with_turn(root.to_move()).is_some();
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
        let mut root_moves = MoveList::new();
        record.legal_moves(&mut root_moves);
        if root_moves.is_empty() {
            self.wait_while_required();
            return result;
        }
        let mut scores: Vec<i32> = vec![0; root_moves.len()];
        result.best = Some(root_moves.as_slice()[0]);
        let max_depth = self.limits.depth.map(|d| d.clamp(1, MAX_PLY as u32 - 8)).unwrap_or(MAX_PLY as u32 - 8);
        let only_move = root_moves.len() == 1 && self.limits.budget.is_some() && !self.limits.infinite;

        let mut prev: i32 = 0;
        for depth in 1..=max_depth {
            // Aspiration window around the previous score once the scores settle.
            let mut delta = 30;
            let (mut alpha, mut beta) =
                if depth >= 5 && prev.abs() < MATE_BOUND { (prev - delta, prev + delta) } else { (-INF, INF) };
            let v = loop {
                let v = self.root(root, &mut root_moves, &mut scores, depth as i32, alpha, beta);
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
            if self.stopped && depth > 1 {
                // A part-searched iteration still improves on the last when its first move
                // (the previous best) was searched fully and something beat it.
                break;
            }
            prev = v;
            let pv: Vec<G::Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if let Some(&m) = pv.first() {
                result.best = Some(m);
            }
            result.ponder = pv.get(1).copied();
            result.score = v;
            result.depth = depth;
            report(&self.info(depth, v, &pv));
            if self.stopped {
                break;
            }
            if let Some(n) = self.limits.mate
                && v >= MATE_BOUND
                && MATE - v <= 2 * n as i32 - 1
            {
                break;
            }
            if only_move {
                break;
            }
            if let (Some(b), Some(ms)) = (self.limits.budget, self.control.clock_ms())
                && ms >= b.soft
            {
                break;
            }
        }
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            let mut child = root.clone();
            child.play(best);
            if let Some(e) = self.tt.probe(child.hash() ^ self.key_salt) {
                let mut list = MoveList::new();
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

    fn info(&self, depth: u32, v: i32, pv: &[G::Move]) -> Info<G::Move> {
        Info {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(v),
            nodes: self.nodes,
            time_ms: self.control.start.elapsed().as_millis() as u64,
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
        }
    }

    #[inline]
    fn push_trace(&mut self, t: Trace) {
        self.rep_filter[t.hash as usize & REP_MASK] += 1;
        self.path.push(t);
    }

    #[inline]
    fn pop_trace(&mut self) {
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
            return Some(if pos.side_of(checker) == mover_side { -WON } else { WON });
        }
        Some(self.draw_value(pos))
    }

    #[inline]
    fn team(&self, pos: &G) -> bool {
        pos.side_of(pos.to_move()) == self.root_side
    }

    #[inline]
    fn eval(&self, pos: &G) -> i32 {
        let e = pos.evaluate(self.root_side);
        if self.team(pos) { e } else { -e }
    }

    /// A draw from the mover's team's view. With more than two sides a shared draw is worth
    /// less to the root than playing on for the win: the paranoid view makes most lines look
    /// bad and would otherwise steer into repetitions.
    #[inline]
    fn draw_value(&self, pos: &G) -> i32 {
        if !self.many_sides {
            return 0;
        }
        if self.team(pos) { -DRAW_CONTEMPT } else { DRAW_CONTEMPT }
    }

    fn outcome_score(&self, pos: &G, o: Outcome, ply: usize) -> i32 {
        if o.is_draw() {
            return self.draw_value(pos);
        }
        let root_wins = (0..pos.seats() as u8).any(|s| o.winners & (1 << s) != 0 && pos.side_of(s) == self.root_side);
        let v = if root_wins { MATE - ply as i32 } else { -(MATE - ply as i32) };
        if self.team(pos) { v } else { -v }
    }

    /// The score of a node whose result is already decided for the root: the game is over, or
    /// the root's side is out of a game that goes on without it (then the later, the better).
    #[inline]
    fn settled(&self, pos: &G, ply: usize) -> Option<i32> {
        if pos.side_lost(self.root_side) {
            let v = -(MATE - ply as i32);
            return Some(if self.team(pos) { v } else { -v });
        }
        pos.static_outcome().map(|o| self.outcome_score(pos, o, ply))
    }

    /// What every interior node does first: count itself, poll the limits, and end at a stop,
    /// a repetition (when asked), a settled result or the ply limit.
    #[inline]
    fn enter(&mut self, pos: &G, ply: usize, repetitions: bool) -> Option<i32> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return Some(0);
        }
        if repetitions && let Some(v) = self.repetition(pos) {
            return Some(v);
        }
        if let Some(v) = self.settled(pos, ply) {
            return Some(v);
        }
        if ply >= MAX_PLY - 2 {
            return Some(self.eval(pos));
        }
        None
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        if let (Some(b), Some(ms)) = (self.limits.budget, self.control.clock_ms())
            && ms >= b.hard
        {
            self.stopped = true;
        }
    }

    #[inline]
    fn value(&mut self, child: &G, flip: bool, depth: i32, ply: usize, alpha: i32, beta: i32, null_ok: bool) -> i32 {
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

    fn root(
        &mut self,
        pos: &G,
        moves: &mut MoveList<G::Move>,
        scores: &mut [i32],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[0] = 0;
        let my_team = self.team(pos);
        let in_check = pos.in_check();
        let mut best = -INF;
        for i in 0..moves.len() {
            let m = moves.as_slice()[i];
            let mut child = pos.clone();
            child.play(m);
            let flip = self.team(&child) != my_team;
            self.push_trace(Trace::of(&child));
            let ext = (child.in_check() && !in_check) as i32;
            let d = depth - 1 + ext;
            let v = if i == 0 {
                self.value(&child, flip, d, 1, alpha, beta, true)
            } else {
                let mut v = self.value(&child, flip, d, 1, alpha, alpha + 1, true);
                if v > alpha && v < beta && !self.stopped {
                    v = self.value(&child, flip, d, 1, alpha, beta, true);
                }
                v
            };
            self.pop_trace();
            if self.stopped {
                break;
            }
            scores[i] = if v > alpha || i == 0 { v } else { -INF + i as i32 };
            if v > best {
                best = v;
            }
            if v > alpha || i == 0 {
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
            let mut idx: Vec<usize> = (0..moves.len()).collect();
            idx.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
            let old: Vec<G::Move> = moves.iter().copied().collect();
            let old_scores: Vec<i32> = scores.to_vec();
            for (k, &i) in idx.iter().enumerate() {
                moves.as_mut_slice()[k] = old[i];
                scores[k] = old_scores[i];
            }
        } else if self.pv_len[0] > 0 {
            // Keep the best move found so far first.
            let b = self.pv[0][0];
            if let Some(p) = moves.iter().position(|&m| m == b) {
                moves.as_mut_slice()[..=p].rotate_right(1);
            }
        }
        best
    }

    #[inline]
    fn set_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn negamax(&mut self, pos: &G, depth: i32, ply: usize, mut alpha: i32, mut beta: i32, null_ok: bool) -> i32 {
        self.pv_len[ply] = ply;
        self.pv_len[ply + 1] = ply + 1;
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta);
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

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left.
            if depth <= 4 && eval - 110 * depth >= beta {
                return eval;
            }
            if G::NULL_MOVE && null_ok && depth >= 3 && eval >= beta {
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

        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let killers = self.killers[ply];
        let seat = pos.to_move() as usize & 3;
        let mut scored: MoveList<(i32, G::Move)> = MoveList::new();
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
                self.history[seat * G::MOVE_INDEX_SPACE + G::move_index(m)]
            };
            scored.push((score, m));
        }

        let mut best = -INF;
        let mut best_move = G::Move::default();
        let orig_alpha = alpha;
        let mut quiets_tried = 0;
        // The quiet moves searched before a cutoff lose history.
        let mut tried: [G::Move; 32] = [G::Move::default(); 32];
        let n = scored.len();
        for count in 0..n {
            pick_next(scored.as_mut_slice(), count);
            let (score, m) = scored.as_slice()[count];
            let quiet = score < (1 << 19) && score > -(1 << 19) && m != tt_move;
            if quiet && !pv_node && !in_check && best > -MATE_BOUND {
                // Late quiet moves near the leaves, quiet moves that cannot lift a hopeless
                // eval, and quiet moves that lose material are not worth a search.
                if depth <= 3 && quiets_tried >= 3 + depth * depth * 2 {
                    continue;
                }
                if depth <= 3 && eval + 150 + 120 * depth <= alpha {
                    continue;
                }
                if depth <= 6 && !pos.see_ge(m, -60 * depth * depth) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play(m);
            let gives_check = child.in_check();
            let flip = self.team(&child) != my_team;
            self.push_trace(Trace::of(&child));
            // Checks that do not simply lose the checking piece are searched a ply deeper.
            let extend = gives_check && ply < MAX_PLY / 2 && pos.see_ge(m, 0);
            let d = depth - 1 + extend as i32;
            let v = if count == 0 {
                self.value(&child, flip, d, ply + 1, alpha, beta, true)
            } else {
                let r = if depth >= 3 && count >= 3 && quiet && !in_check && !gives_check {
                    let r = self.lmr[(depth as usize).min(63)][count.min(63)] as i32
                        - pv_node as i32
                        - score / (HISTORY_MAX / 2);
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
                    tried[quiets_tried as usize] = m;
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
                            let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
                            let base = seat * G::MOVE_INDEX_SPACE;
                            update_history(&mut self.history[base + G::move_index(m)], bonus);
                            let n = (quiets_tried as usize).min(tried.len());
                            for &q in &tried[..n] {
                                if q != m {
                                    update_history(&mut self.history[base + G::move_index(q)], -bonus);
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

    /// Stores a node's result: its bound follows from where `best` fell against the window.
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, key: u64, best: i32, mv: G::Move, alpha: i32, beta: i32, eval: i32, depth: i32, ply: usize) {
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

    /// The table's word on a Best-Reply node: a stored score that settles a null window, and
    /// the stored move.
    #[inline]
    fn brs_probe(&self, key: u64, depth: i32, ply: usize, alpha: i32, beta: i32) -> (Option<i32>, G::Move) {
        match self.tt.probe(key) {
            Some(e) => {
                let s = score_from_tt(e.score, ply);
                let settles = beta - alpha == 1 && e.depth as i32 >= depth && cuts(e.bound, s, alpha, beta);
                (settles.then_some(s), e.mv)
            }
            None => (None, G::Move::default()),
        }
    }

    /// Best-Reply Search, the root side's turn: every legal move, alpha-beta with the table.
    fn brs_max(&mut self, pos: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta);
        }
        if let Some(v) = self.enter(pos, ply, true) {
            return v;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.hash() ^ self.key_salt;
        let (cut, tt_move) = self.brs_probe(key, depth, ply, alpha, beta);
        if let Some(v) = cut {
            return v;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let mut scored: MoveList<(i32, G::Move)> = MoveList::new();
        let seat = pos.to_move() as usize & 3;
        for &m in moves.iter() {
            let score = if m == tt_move {
                1 << 30
            } else if let Some(t) = pos.tactical_value(m) {
                (1 << 20) + t
            } else {
                self.history[seat * G::MOVE_INDEX_SPACE + G::move_index(m)]
            };
            scored.push((score, m));
        }
        let (orig_alpha, mut best, mut best_move) = (alpha, -INF, G::Move::default());
        for count in 0..scored.len() {
            pick_next(scored.as_mut_slice(), count);
            let (score, m) = scored.as_slice()[count];
            let quiet = score < (1 << 20);
            let mut child = pos.clone();
            child.play(m);
            let flip = self.team(&child) != self.team(pos);
            self.push_trace(Trace::of(&child));
            let r = (depth >= 3 && count >= 4 && quiet) as i32;
            let mut v = if count == 0 {
                self.value(&child, flip, depth - 1, ply + 1, alpha, beta, true)
            } else {
                self.value(&child, flip, depth - 1 - r, ply + 1, alpha, alpha + 1, true)
            };
            if count > 0 && v > alpha && !self.stopped {
                v = self.value(&child, flip, depth - 1, ply + 1, alpha, beta, true);
            }
            self.pop_trace();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, m);
                    if v >= beta {
                        if quiet {
                            let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
                            update_history(&mut self.history[seat * G::MOVE_INDEX_SPACE + G::move_index(m)], bonus);
                        }
                        break;
                    }
                }
            }
        }
        self.store(key, best, best_move, orig_alpha, beta, NO_EVAL, depth, ply);
        best
    }

    /// The move an opponent that does not give the best reply is assumed to play (BRS+): its
    /// most valuable capture that does not lose material, or none (it waits).
    fn ordered_move(pos: &G) -> Option<G::Move> {
        let mut list = MoveList::new();
        pos.tactical_moves(&mut list);
        let mut best: Option<(i32, G::Move)> = None;
        for &m in list.iter() {
            if let Some(t) = pos.tactical_value(m)
                && best.is_none_or(|(b, _)| t > b)
                && pos.see_ge(m, 0)
            {
                best = Some((t, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// One turn of an opponent that does not give the best reply: its ordered move, or a wait.
    fn play_ordered_turn(pos: &mut G) {
        match Self::ordered_move(pos) {
            Some(m) => pos.play(m),
            None => pos.play_null(),
        }
    }

    /// Whether the turns of the opponents between two turns of the root side are over.
    fn round_done(&self, pos: &G) -> bool {
        pos.side_of(pos.to_move()) == self.root_side || pos.static_outcome().is_some() || pos.side_lost(self.root_side)
    }

    /// Best-Reply Search (BRS+, Esser et al. 2014), the layer between two turns of the root
    /// side: the moves of every opponent compete and only the best of them is searched; the
    /// other opponents keep their turns and play their ordered move (`ordered_move`), so the
    /// turn order stays the game's and a capture another opponent would make is not missed.
    /// Scores are the opponents' view (the team not the root's).
    fn best_replies(&mut self, pos: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta);
        }
        if let Some(v) = self.enter(pos, ply, true) {
            return v;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.hash() ^ self.key_salt;
        if let (Some(v), _) = self.brs_probe(key, depth, ply, alpha, beta) {
            return v;
        }
        // The opponents in turn order, each in the position its turn comes in when those before
        // it played their ordered moves; then all their moves, captures first.
        let mut scored: MoveList<(i32, G::Move, Seat)> = MoveList::new();
        let mut movers: [Option<G>; 8] = Default::default();
        let mut turn = pos.clone();
        for _ in 0..8 {
            if self.round_done(&turn) {
                break;
            }
            let s = turn.to_move();
            let mut list = MoveList::new();
            turn.legal_moves(&mut list);
            for &m in list.iter() {
                if scored.len() >= MAX_MOVES {
                    break;
                }
                let score = match turn.tactical_value(m) {
                    Some(t) => (1 << 20) + t,
                    None => self.history[(s as usize & 3) * G::MOVE_INDEX_SPACE + G::move_index(m)],
                };
                scored.push((score, m, s));
            }
            let mut next = turn.clone();
            Self::play_ordered_turn(&mut next);
            movers[s as usize & 7] = Some(std::mem::replace(&mut turn, next));
        }
        if scored.is_empty() {
            // No opponent can move: the root side moves again.
            let Some(next) = pos.with_turn(self.root_seat) else { return self.eval(pos) };
            return -self.brs_max(&next, depth - 1, ply + 1, -beta, -alpha);
        }
        scored.as_mut_slice().sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let orig_alpha = alpha;
        let mut best = -INF;
        for count in 0..scored.len() {
            let (score, m, s) = scored.as_slice()[count];
            let Some(p) = movers[s as usize & 7].as_ref() else { continue };
            let mut child = p.clone();
            child.play(m);
            for _ in 0..8 {
                if self.round_done(&child) {
                    break;
                }
                Self::play_ordered_turn(&mut child);
            }
            let v = match self.settled(&child, ply + 1) {
                Some(v) => {
                    if self.team(&child) {
                        -v
                    } else {
                        v
                    }
                }
                None => {
                    if !self.team(&child) {
                        continue;
                    }
                    self.push_trace(Trace::of(&child));
                    let quiet = score < (1 << 20);
                    let r = (depth >= 3 && count >= 6 && quiet) as i32;
                    let mut v = -self.brs_max(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha);
                    if v > alpha && !self.stopped && (r > 0 || beta - alpha > 1) {
                        v = -self.brs_max(&child, depth - 1, ply + 1, -beta, -alpha);
                    }
                    self.pop_trace();
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if score < (1 << 20) {
                            let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
                            let idx = (s as usize & 3) * G::MOVE_INDEX_SPACE + G::move_index(m);
                            update_history(&mut self.history[idx], bonus);
                        }
                        break;
                    }
                }
            }
        }
        self.store(key, best, G::Move::default(), orig_alpha, beta, NO_EVAL, depth, ply);
        best
    }

    fn qsearch(&mut self, pos: &G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
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
        if ply >= MAX_PLY - 2 {
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
        let in_check = pos.in_check();
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
        let mut moves = MoveList::new();
        pos.tactical_moves(&mut moves);
        if in_check && moves.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let mut scored: MoveList<(i32, G::Move)> = MoveList::new();
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
                -self.qsearch(&child, ply + 1, -beta, -alpha)
            } else {
                self.qsearch(&child, ply + 1, alpha, beta)
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

/// History scores stay within +-HISTORY_MAX: each update moves a score toward the bound by a
/// share of the distance (so old results fade).
const HISTORY_MAX: i32 = 16_384;

#[inline]
fn update_history(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Brings the best-scored remaining move to `count`: by selection for the first few (most nodes
/// cut off early), then by sorting the rest once.
#[inline]
fn pick_next<M: Copy>(list: &mut [(i32, M)], count: usize) {
    const SELECT: usize = 3;
    if count < SELECT {
        let mut bi = count;
        for j in count + 1..list.len() {
            if list[j].0 > list[bi].0 {
                bi = j;
            }
        }
        list.swap(count, bi);
    } else if count == SELECT {
        list[SELECT..].sort_unstable_by(|a, b| b.0.cmp(&a.0));
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
