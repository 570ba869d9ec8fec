//! The rules core shared by every game: seats, sides, outcomes, move lists, the `Game` trait and
//! the game record that owns a history (repetition rules need one; a bare position does not).
//!
//! Every rule lives in exactly one place: the engine's search, the protocol session, the match
//! arbiter and the tests all go through this module.

pub mod chaturanga;
pub mod dojo;
pub mod judkins;
pub mod magic;

use std::fmt;
use std::mem::MaybeUninit;

/// A player slot, `0..seats`. Each game names its seats with letters (`SEAT_LETTERS`).
pub type Seat = u8;
/// A set of seats whose interests coincide right now.
pub type Side = u8;
/// A set of seats as a bit mask (bit `s` for seat `s`).
pub type SeatMask = u8;

/// Why a game ended. The text is what `status`, `d` and game records print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    /// No legal move without being in check, where the rules make that a draw.
    Stalemate,
    Repetition,
    PerpetualCheck,
    MoveLimit,
    /// Chaturanga Double Mate: the enemy armies are mated or lone kings, none mated (C4).
    LoneKings,
    /// Chaturanga all against all: the last king standing (C8).
    KingCapture,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::MoveLimit => "move-limit",
            Termination::LoneKings => "lone-kings",
            Termination::KingCapture => "king-capture",
        }
    }
}

/// The end of a game. `winners` empty means a draw among all seats still in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winners: SeatMask,
    pub reason: Termination,
}

impl Outcome {
    pub fn draw(reason: Termination) -> Self {
        Outcome { winners: 0, reason }
    }
    pub fn win(winners: SeatMask, reason: Termination) -> Self {
        Outcome { winners, reason }
    }
    pub fn is_draw(&self) -> bool {
        self.winners == 0
    }
}

/// The variants that can be played, in the order the protocol lists them.
pub const PLAYABLE: &[&str] = &["judkins", "dojo", "chaturanga", "chaturanga-ffa"];

/// Evaluates `$body` with the type `$G` standing for the game of the playable variant named
/// `$name`, or `$other` for any other name: the one place that maps names to games.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr, _ => $other:expr) => {
        match $name {
            "judkins" => {
                type $G = $crate::rules::judkins::Judkins;
                $body
            }
            "dojo" => {
                type $G = $crate::rules::dojo::Dojo;
                $body
            }
            "chaturanga" => {
                type $G = $crate::rules::chaturanga::DoubleMate;
                $body
            }
            "chaturanga-ffa" => {
                type $G = $crate::rules::chaturanga::AllAgainstAll;
                $body
            }
            _ => $other,
        }
    };
}

/// The most legal moves any position of any game can have. Dojo chess needs the room: when
/// treason fires, every move carries one of up to 14 appointees (D9).
pub const MAX_MOVES: usize = 2048;

/// A fixed-capacity move buffer on the stack: move generation never allocates.
pub struct MoveList<M: Copy> {
    len: usize,
    moves: [MaybeUninit<M>; MAX_MOVES],
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> MoveList<M> {
    #[inline(always)]
    pub fn new() -> Self {
        // Uninitialised storage: only the first `len` slots are ever read.
        MoveList { len: 0, moves: [const { MaybeUninit::uninit() }; MAX_MOVES] }
    }
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        // MAX_MOVES is above every game's branching factor; a debug build checks it, a release
        // build drops the excess rather than writing out of bounds.
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: slots below `len` were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const M, self.len) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut M, self.len) }
    }
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

/// Static facts about a variant, printed by `info string variant ...`.
#[derive(Clone, Copy, Debug)]
pub struct VariantInfo {
    pub name: &'static str,
    pub files: u8,
    pub ranks: u8,
    pub seat_letters: &'static str,
}

/// One game's rules behind one interface.
///
/// Positions are cheap to copy: the search and perft use copy-make (`clone` then `play`), which
/// keeps unmake bugs out of every game and costs a few hundred bytes of memcpy per node.
pub trait Game: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + Default + Send + Sync + fmt::Debug + 'static;

    const INFO: VariantInfo;
    /// A position seen this many times ends the game (3 in chess-like games, 4 in shogi).
    const REPETITIONS: usize;
    /// Whether a player who gave check with every move of a repetition cycle loses (shogi).
    const PERPETUAL_CHECK_LOSES: bool;
    /// Size of the index space of `move_index`, for history tables.
    const MOVE_INDEX_SPACE: usize;
    /// Whether a null move is meaningful (two alternating sides, zugzwang rare).
    const NULL_MOVE: bool;

    fn startpos() -> Self;
    /// Parses the variant's position string. Any order of hand pieces is accepted; everything
    /// else must be exact.
    fn from_text(text: &str) -> Result<Self, String>;
    /// The one canonical position string.
    fn to_text(&self) -> String;

    fn seats(&self) -> usize {
        Self::INFO.seat_letters.len()
    }
    fn to_move(&self) -> Seat;
    fn side_of(&self, seat: Seat) -> Side;
    /// Whether `side` is out of a game that goes on without it (a Chaturanga army whose king was
    /// captured): its result is settled, whatever the others do.
    fn side_lost(&self, _side: Side) -> bool {
        false
    }

    fn legal_moves(&self, out: &mut MoveList<Self::Move>);
    /// The legal moves that `tactical_value` scores (captures, promotions), for quiescence.
    /// When in check, every legal move.
    fn tactical_moves(&self, out: &mut MoveList<Self::Move>) {
        self.legal_moves(out);
        if !self.in_check() {
            let mut n = 0;
            for i in 0..out.len() {
                let m = out.as_slice()[i];
                if self.tactical_value(m).is_some() {
                    out.as_mut_slice()[n] = m;
                    n += 1;
                }
            }
            out.truncate(n);
        }
    }
    /// Whether `mv` keeps at least `threshold` centipawns after the exchanges on its square.
    /// Games without an exchange evaluator say yes.
    fn see_ge(&self, _mv: Self::Move, _threshold: i32) -> bool {
        true
    }
    fn play(&mut self, mv: Self::Move);
    /// The same position with `seat` to move, for searches that let one opponent answer for
    /// all (Best-Reply Search); `None` where the game cannot skip turns that way.
    fn with_turn(&self, _seat: Seat) -> Option<Self> {
        None
    }
    /// Hands the turn over without moving (search only, when `NULL_MOVE`).
    fn play_null(&mut self);

    fn hash(&self) -> u64;
    fn hash_from_scratch(&self) -> u64;

    /// Whether the seat to move is in check.
    fn in_check(&self) -> bool;
    /// Every seat whose king is attacked now.
    fn checked_seats(&self) -> SeatMask;

    /// An end that the position shows without looking at the legal moves (none in shogi).
    fn static_outcome(&self) -> Option<Outcome> {
        None
    }
    /// The end when the seat to move has no legal move.
    fn no_move_outcome(&self) -> Outcome;

    /// The one canonical spelling of a legal move.
    fn format_move(&self, mv: Self::Move) -> String;
    /// Parses a move text: only the canonical spelling of a legal move is accepted.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|&m| self.format_move(m) == text)
            .ok_or_else(|| format!("illegal or malformed move '{}'", text))
    }

    /// Static evaluation in centipawns from the point of view of `side`.
    fn evaluate(&self, side: Side) -> i32;
    /// Ordering value for captures and promotions; `None` for a quiet move. Quiescence searches
    /// only the moves that have one.
    fn tactical_value(&self, mv: Self::Move) -> Option<i32>;
    fn move_index(mv: Self::Move) -> usize;

    /// A human-readable board picture for `d`.
    fn picture(&self) -> String;
    /// The move number written in the position string.
    fn move_number(&self) -> u32;

    /// Facts about the position beyond turn and checks, for `d` and `status`: each a key and
    /// a value without blanks (Chaturanga's mated armies and lone kings, for instance).
    fn notes(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// For games with more than two sides: the places, best first, each a set of seats that
    /// share it (all against all ranks armies by when they went out).
    fn ranking(&self) -> Option<Vec<SeatMask>> {
        None
    }
}

pub fn seat_letter<G: Game>(seat: Seat) -> char {
    G::INFO.seat_letters.as_bytes().get(seat as usize).map(|&b| b as char).unwrap_or('?')
}

pub fn mask_letters<G: Game>(mask: SeatMask) -> String {
    let s: String = (0..8u8).filter(|s| mask & (1 << s) != 0).map(seat_letter::<G>).collect();
    if s.is_empty() { "-".to_string() } else { s }
}

/// One position of a game's history, as the repetition rules need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trace {
    pub hash: u64,
    pub to_move: Seat,
    /// The seat to move was in check in this position.
    pub in_check: bool,
}

impl Trace {
    pub fn of<G: Game>(pos: &G) -> Self {
        Trace { hash: pos.hash(), to_move: pos.to_move(), in_check: pos.in_check() }
    }
}

/// Applies the repetition rule to a history whose last entry is the current position.
/// Returns the outcome if the current position completes the required number of occurrences.
pub fn repetition_outcome<G: Game>(pos: &G, traces: &[Trace]) -> Option<Outcome> {
    let last = *traces.last()?;
    let mut count = 1;
    let mut first = traces.len() - 1;
    // Only positions with the same seat to move can be equal; hashes include it.
    for i in (0..traces.len() - 1).rev() {
        if traces[i].hash == last.hash {
            count += 1;
            first = i;
        }
    }
    if count < G::REPETITIONS {
        return None;
    }
    if G::PERPETUAL_CHECK_LOSES {
        // The cycle is every position from the first occurrence to now. A seat that gave check
        // with every one of its moves there left its opponent in check in every position where
        // that opponent was to move.
        if let Some(loser) = perpetual_checker(pos, &traces[first..]) {
            let winners =
                (0..pos.seats() as Seat).filter(|&s| pos.side_of(s) != pos.side_of(loser)).fold(0, |m, s| m | (1 << s));
            return Some(Outcome::win(winners, Termination::PerpetualCheck));
        }
    }
    Some(Outcome::draw(Termination::Repetition))
}

/// In a two-sided repetition cycle (first to last entry inclusive), the seat that checked on
/// every one of its moves, if exactly one did. If both did, the rule cancels out: a draw.
pub fn perpetual_checker<G: Game>(pos: &G, cycle: &[Trace]) -> Option<Seat> {
    // The positions after a seat's moves are those where its opponent is to move; skip the first
    // entry, which no move inside the cycle produced.
    let moves = cycle.get(1..)?;
    let mut checker = None;
    for defender in 0..pos.seats() as Seat {
        let mut seen = false;
        let all_checked = moves.iter().filter(|t| t.to_move == defender).all(|t| {
            seen = true;
            t.in_check
        });
        if seen && all_checked {
            if checker.is_some() {
                return None;
            }
            checker = (0..pos.seats() as Seat).find(|&s| pos.side_of(s) != pos.side_of(defender));
        }
    }
    checker
}

/// A game from a start position through a list of moves: the unit the protocol session and the
/// arbiter keep. It knows the whole history, so it can judge repetition.
#[derive(Clone)]
pub struct Record<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
    pub current: G,
    pub traces: Vec<Trace>,
}

impl<G: Game> Record<G> {
    pub fn new(start: G) -> Self {
        let traces = vec![Trace::of(&start)];
        Record { current: start.clone(), start, moves: Vec::new(), traces }
    }

    /// Plays a move given as text. Fails, changing nothing, if the game is over or the move is
    /// not the canonical text of a legal move.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, String> {
        if let Some(o) = self.outcome() {
            return Err(format!("move '{}' after the game ended ({})", text, o.reason.as_str()));
        }
        let mv = self.current.parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: G::Move) {
        self.current.play(mv);
        self.moves.push(mv);
        self.traces.push(Trace::of(&self.current));
    }

    pub fn legal_moves(&self, out: &mut MoveList<G::Move>) {
        out.clear();
        if self.outcome().is_none() {
            self.current.legal_moves(out);
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.current.static_outcome() {
            return Some(o);
        }
        let mut list = MoveList::new();
        self.current.legal_moves(&mut list);
        if list.is_empty() {
            return Some(self.current.no_move_outcome());
        }
        repetition_outcome(&self.current, &self.traces)
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counted at the last ply).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let mut child = pos.clone();
        child.play(m);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// Perft split by root move, in the order the generator yields them.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play(m);
            (m, if depth <= 1 { 1 } else { perft(&child, depth - 1) })
        })
        .collect()
}
