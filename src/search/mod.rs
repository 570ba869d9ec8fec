//! The game-independent search: iterative deepening PVS over sides, not colours.
//!
//! Every score is from the point of view of the *team* to move at a node: the root side, or
//! everybody else. Two plies flip the sign only when the team changes, so two seats of one side
//! may move in a row (Judtho's alliances) and a multi-player game reduces to the paranoid
//! search through this same code. With two sides this is plain negamax alpha-beta.

mod alphabeta;
mod brs;
mod ordering;
mod qsearch;
pub mod time;
pub mod tt;

use crate::rules::{Game, MoveBuffer, MovesOf, Outcome, Record, Seat, Side, Trace, perpetual_checker};
use ordering::{ContinuationHistory, History, NO_PIECE_TO};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use time::Budget;
use tt::{Bound, Table};

pub const MAX_PLY: usize = 128;
/// The stack of every search thread: positions are copied down the tree (copy-make), and
/// Judtho's are large.
pub const SEARCH_STACK: usize = 64 << 20;
/// The largest hash table the `USI_Hash` option takes, in MiB.
pub const MAX_HASH_MIB: usize = 8192;
/// The most search threads the `Threads` option takes.
pub const MAX_THREADS: usize = 256;
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
    /// Whether the search began as `go ponder`.
    pondered: bool,
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
            pondered: ponder,
            answered: AtomicBool::new(false),
        })
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Called just before the search's last line (`bestmove`) is written: from then on, a reader
    /// that sees it answered joins the thread, which is the wait for that line to be out, so
    /// commands queued behind the search are answered after it and before a later `readyok`.
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
        self.nodes.saturating_mul(1000) / self.time_ms.max(1)
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
///
/// With more than one thread (Lazy SMP) the searcher runs helpers: searchers of their own
/// (history, killers, stack) over the same hash table, which search the same position without
/// a clock until the main search ends. What they store in the table guides and cuts the main
/// search; only the main search reports and answers.
pub struct Searcher<G: Game> {
    tt: Arc<Table<G::Move>>,
    helpers: Vec<Searcher<G>>,
    /// Whether this is a helper (it neither ages the table nor keeps a clock).
    helper: bool,
    /// The helpers' nodes of the running search, added up as they go.
    crew_nodes: Arc<AtomicU64>,
    /// A helper's nodes already added to `crew_nodes`.
    counted: u64,
    history: History,
    /// Quiet moves that answered the move one ply before, and two plies before.
    continuation: ContinuationHistory,
    /// The `piece_to` of the move played at each ply (`NO_PIECE_TO` for a null move), which the
    /// continuation histories read at the plies after it.
    played: [usize; MAX_PLY + 2],
    /// The static evaluation at each ply from the root side's view, `NO_EVAL` in check: a side
    /// whose position improves on its last turn's is searched with less suspicion.
    evals: [i32; MAX_PLY + 2],
    /// Best-Reply Search's lists of every opponent's moves, one per ply, kept between nodes so
    /// that the search does not allocate once they have grown.
    brs_lists: Vec<Vec<(i32, G::Move, u8)>>,
    killers: Vec<[G::Move; 2]>,
    pv: Vec<[G::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    path: Vec<Trace>,
    rep_filter: Vec<u16>,
    nodes: u64,
    seldepth: usize,
    root_seat: Seat,
    /// More than two sides: the paranoid view, and a key salt per root seat.
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
        Self::with_table(Arc::new(Table::new(hash_mib)))
    }

    fn with_table(tt: Arc<Table<G::Move>>) -> Self {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Searcher {
            tt,
            helpers: Vec::new(),
            helper: false,
            crew_nodes: Arc::new(AtomicU64::new(0)),
            counted: 0,
            history: History::new(G::VARIANT.seats.len(), G::MOVE_INDEX_SPACE),
            continuation: ContinuationHistory::new(G::VARIANT.seats.len(), G::PIECE_TO_SPACE),
            played: [NO_PIECE_TO; MAX_PLY + 2],
            evals: [NO_EVAL; MAX_PLY + 2],
            brs_lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 1],
            pv: vec![[G::Move::default(); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            rep_filter: vec![0; REP_MASK + 1],
            nodes: 0,
            seldepth: 0,
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
        // The old table goes first, so that two large tables are never held at once.
        let threads = self.threads();
        self.helpers.clear();
        self.tt = Arc::new(Table::new(1));
        self.tt = Arc::new(Table::new(hash_mib));
        self.set_threads(threads);
    }

    /// The hash table's size in MiB: what was asked, unless the machine gave less.
    pub fn hash_mib(&self) -> usize {
        self.tt.mib()
    }

    /// The number of search threads, this one included.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.helpers.truncate(n - 1);
        while self.helpers.len() < n - 1 {
            let mut h = Searcher::with_table(Arc::clone(&self.tt));
            h.helper = true;
            h.crew_nodes = Arc::clone(&self.crew_nodes);
            self.helpers.push(h);
        }
    }

    /// Forgets everything learnt: for a new game, and for reproducible benchmarks.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget_ordering();
        self.helpers.iter_mut().for_each(Self::forget_ordering);
    }

    fn forget_ordering(&mut self) {
        self.history.clear();
        self.continuation.clear();
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
        self.tt.new_search();
        self.crew_nodes.store(0, Ordering::Relaxed);
        if self.helpers.is_empty() {
            return self.search(record, limits, control, report);
        }
        // The helpers search without a clock or a node limit, until the main search ends.
        let crew = Control::new(false);
        let crew_limits = Limits { nodes: None, budget: None, mate: None, infinite: true, ..limits };
        let mut helpers = std::mem::take(&mut self.helpers);
        let result = std::thread::scope(|scope| {
            for h in helpers.iter_mut() {
                let crew = Arc::clone(&crew);
                // A helper that cannot get a thread leaves the work to the others.
                let _ = std::thread::Builder::new().name("helper".into()).stack_size(SEARCH_STACK).spawn_scoped(
                    scope,
                    move || {
                        h.search(record, crew_limits, crew, &mut |_| {});
                    },
                );
            }
            let r = self.search(record, limits, control, report);
            crew.stop();
            r
        });
        self.helpers = helpers;
        SearchResult { nodes: result.nodes + self.crew_nodes.load(Ordering::Relaxed), ..result }
    }

    fn search(
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
        self.counted = 0;
        self.seldepth = 0;
        for k in self.killers.iter_mut() {
            *k = [G::Move::default(); 2];
        }
        self.history.age();
        let root = &record.current;
        self.root_seat = root.to_move();
        let mut sides: Vec<Side> = (0..root.seats() as u8).map(|s| root.side_of(s)).collect();
        sides.sort_unstable();
        sides.dedup();
        let two_sided = sides.len() <= 2;
        self.many_sides = !two_sided;
        // With more than two sides a score depends on who the root is (paranoid search).
        self.key_salt = if two_sided { 0 } else { (self.root_seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) };
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
                    !o.is_draw()
                        && (0..root.seats() as Seat).all(|s| o.winners & (1 << s) == 0 || root.side_of(s) != me)
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
                // A part-searched iteration is dropped: using a move that beat the last best in
                // it was measured and did not gain (docs/strength.md).
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
                let growth =
                    if before_last_ms > 0 { (last_ms as f64 / before_last_ms as f64).clamp(1.5, 8.0) } else { 2.0 };
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

    fn info(&self, depth: u32, v: i32, pv: &[G::Move]) -> Info<G::Move> {
        Info {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(v),
            nodes: self.nodes + self.crew_nodes.load(Ordering::Relaxed),
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
            return Some(if checker == mover_side { -WON } else { WON });
        }
        Some(self.draw_value(pos))
    }

    #[inline]
    fn team(&self, pos: &G) -> bool {
        pos.side_of(pos.to_move()) == self.root_side(pos)
    }

    /// The root seat's side in `pos`. Judtho's checkmates move seats between sides, so the side
    /// the search plays for is the root seat's side in each position, not the one at the root.
    #[inline]
    fn root_side(&self, pos: &G) -> Side {
        pos.side_of(self.root_seat)
    }

    #[inline]
    fn eval(&self, pos: &G) -> i32 {
        let e = pos.evaluate(self.root_side(pos));
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
        let root_wins =
            (0..pos.seats() as u8).any(|s| o.winners & (1 << s) != 0 && pos.side_of(s) == self.root_side(pos));
        let v = if root_wins { MATE - ply as i32 } else { -(MATE - ply as i32) };
        if self.team(pos) { v } else { -v }
    }

    /// The score of a node whose result is already decided for the root: the game is over, or
    /// the root's side is out of a game that goes on without it (then the later, the better).
    #[inline]
    fn settled(&self, pos: &G, ply: usize) -> Option<i32> {
        if pos.side_lost(self.root_side(pos)) {
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

    /// The value of `child` for the side that moved into it: `flip` when the team changes.
    // The window, depth and ply of a node travel together through every search function;
    // bundling them would build and take apart a struct at every node.
    #[allow(clippy::too_many_arguments)]
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
        moves: &mut MovesOf<G>,
        scores: &mut [i32],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[0] = 0;
        self.evals[0] = NO_EVAL;
        let my_team = self.team(pos);
        let in_check = pos.in_check();
        let mut best = -INF;
        // The nodes each move's search took: the moves that failed low are tried next time in
        // the order of the work it took to refute them, the nearest to good first, so that the
        // reductions of late moves fall on the moves refuted at once.
        let mut effort = vec![0u64; moves.len()];
        for i in 0..moves.len() {
            let m = moves.as_slice()[i];
            let nodes_before = self.nodes;
            self.played[0] = pos.piece_to(m);
            let mut child = pos.clone();
            child.play(m);
            let flip = self.team(&child) != my_team;
            self.push_trace(Trace::of(&child));
            let ext = (G::EXTEND_CHECKS && child.in_check() && !in_check) as i32;
            let d = depth - 1 + ext;
            let v = if i == 0 {
                self.value(&child, flip, d, 1, alpha, beta, true)
            } else {
                // Late quiet root moves are reduced as they are everywhere else in the
                // two-sided search: with drops, Judkins has a hundred root moves and each cost a
                // full-depth search.
                let r = if !self.many_sides
                    && depth >= 3
                    && i >= 3
                    && !in_check
                    && ext == 0
                    && pos.tactical_value(m).is_none()
                {
                    (self.lmr[(depth as usize).min(63)][i.min(63)] as i32 - 1).clamp(0, d - 1)
                } else {
                    0
                };
                let mut v = self.value(&child, flip, d - r, 1, alpha, alpha + 1, true);
                if v > alpha && r > 0 && !self.stopped {
                    v = self.value(&child, flip, d, 1, alpha, alpha + 1, true);
                }
                if v > alpha && v < beta && !self.stopped {
                    v = self.value(&child, flip, d, 1, alpha, beta, true);
                }
                v
            };
            self.pop_trace();
            if self.stopped {
                break;
            }
            scores[i] = if v > alpha || i == 0 { v } else { -INF };
            effort[i] = self.nodes - nodes_before;
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
            idx.sort_by_key(|&i| std::cmp::Reverse((scores[i], effort[i])));
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

    /// Stores a node's result: its bound follows from where `best` fell against the window.
    // The window, depth and ply of a node travel together through every search function;
    // bundling them would build and take apart a struct at every node.
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
