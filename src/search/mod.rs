//! The game-independent search: iterative deepening PVS over sides, not colours.
//!
//! Every score is from the point of view of the *team* to move at a node: the root side, or
//! everybody else. Two plies flip the sign only when the team changes, so two seats of one side
//! may move in a row (Judtho's alliances) and a multi-player game reduces to the paranoid
//! search through this same code. With two sides this is plain negamax alpha-beta.

mod alphabeta;
mod brs;
mod deepening;
mod learned;
mod node;
mod ordering;
mod params;
mod qsearch;
mod threads;
pub mod time;
pub mod tt;

pub use learned::network_fits;

use crate::rules::{Game, MoveBuffer, MovesOf, Outcome, Record, Seat, Side, Trace, perpetual_checker};
use ordering::{ContinuationHistory, History, NO_PIECE_TO};
use params::{LMR_BASE, LMR_DIVISOR, Policy};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use time::Budget;
use tt::Table;

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
pub use params::DRAW_CONTEMPT;
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
    /// How many best root moves each iteration searches and reports, each line the best of
    /// the moves the lines before it left (`MultiPV`); 0 and 1 both mean one.
    pub multipv: usize,
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
    /// The line's rank among the iteration's lines (`MultiPV`), from 1.
    pub multipv: usize,
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
    /// Best-Reply Search's ordered moves of the positions met, by hash key (`brs::ORDERED_SLOTS`
    /// slots, allocated at the first): each is found by a move generation, and iterative
    /// deepening meets most of them again.
    ordered: Vec<Option<(u64, Option<G::Move>)>>,
    /// Where a node generates its moves before it scores them into the list it orders: one
    /// list for every node, since a node is done with it before it searches a child, so that
    /// a node's frame holds one full-size list (Dojo's hold 8,302 moves), not two.
    generated: Box<MovesOf<G>>,
    killers: Vec<[G::Move; 2]>,
    pv: Vec<[G::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    path: Vec<Trace>,
    rep_filter: Vec<u16>,
    nodes: u64,
    seldepth: usize,
    root_seat: Seat,
    /// Which features the search uses: those measured where there are two sides, or more.
    policy: Policy,
    /// Best-Reply Search is on for this search (more than two sides and asked for).
    brs: bool,
    key_salt: u64,
    limits: Limits,
    control: Arc<Control>,
    stopped: bool,
    lmr: [[u8; 64]; 64],
    /// The learned evaluation when one is in use (`set_network`), else the game's own.
    learned: Option<learned::Learned>,
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
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8;
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
            ordered: Vec::new(),
            generated: Box::default(),
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 1],
            pv: vec![[G::Move::default(); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            rep_filter: vec![0; REP_MASK + 1],
            nodes: 0,
            seldepth: 0,
            root_seat: Seat(0),
            policy: Policy::TWO_SIDES,
            brs: false,
            key_salt: 0,
            limits: Limits::default(),
            control: Control::new(false),
            stopped: false,
            lmr,
            learned: None,
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

    /// Forgets everything learnt: for a new game, and for reproducible benchmarks.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget_ordering();
        self.helpers.iter_mut().for_each(Self::forget_ordering);
    }

    fn forget_ordering(&mut self) {
        self.history.clear();
        self.continuation.clear();
        self.ordered.clear();
        self.killers.iter_mut().for_each(|k| *k = [G::Move::default(); 2]);
    }
}
