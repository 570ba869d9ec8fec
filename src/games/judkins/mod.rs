//! Judkins shogi: 6x6 shogi with drops (`docs/rules/judkins.md`).
//!
//! Squares are numbered in SFEN reading order: `sq = row * 6 + col`, row 0 is rank `a` (gote's
//! back rank), col 0 is file `6`. Sente (seat `b`, 0) moves toward row 0. Sets of squares are
//! `u64` bitboards using the low 36 bits.
//!
//! This file holds the position and the rules the other files share; `movegen.rs` makes the
//! legal moves and plays them, `notation.rs` reads and writes SFEN and move texts, `eval.rs`
//! and `see.rs` are the search's view.

mod actions;
mod diagram;
mod eval;
mod features;
mod movegen;
mod notation;
mod see;
mod tables;
pub mod uci;
mod variant;

pub use eval::{WEIGHTS, Weights};
use notation::format_move;
pub use notation::{START_SFEN, square_name};
use tables::{STEP_GOLD, STEP_KING, STEP_KNIGHT, STEP_PAWN, STEP_SILVER, Tables, tables};
pub use variant::VARIANT;

use crate::board::geometry::pop as pop_lsb;
use crate::board::sliders::SLIDERS_6X6 as SLIDERS;
use crate::rules::VariantSpec;
use crate::rules::{MoveList, Outcome, Rules, Seat, SeatMask, Side, Termination};

/// At most 6 kinds in hand dropped on at most 34 empty squares (204), 13 pieces besides the
/// king with at most 14 moves each (a dragon: 10 rook squares and 4 diagonal steps), each
/// at most twice with the promotion choice (364), and the king's 8: 576.
pub const MAX_MOVES: usize = 576;
/// This game's move buffers, for moves and for moves with scores.
pub type List<T> = MoveList<T, MAX_MOVES>;

pub const FILES: usize = 6;
pub const RANKS: usize = 6;
pub const SQUARES: usize = FILES * RANKS;
const BOARD: u64 = (1u64 << SQUARES) - 1;

pub const SENTE: u8 = 0;
pub const GOTE: u8 = 1;

// Piece types. The six that can be in hand come first so that a hand index is a piece type.
pub const PAWN: u8 = 0;
pub const SILVER: u8 = 1;
pub const GOLD: u8 = 2;
pub const KNIGHT: u8 = 3;
pub const BISHOP: u8 = 4;
pub const ROOK: u8 = 5;
pub const KING: u8 = 6;
pub const TOKIN: u8 = 7;
pub const PRO_SILVER: u8 = 8;
pub const PRO_KNIGHT: u8 = 9;
pub const HORSE: u8 = 10;
pub const DRAGON: u8 = 11;
pub const PIECE_TYPES: usize = 12;
pub const HAND_KINDS: usize = 6;

const PROMOTED: [u8; PIECE_TYPES] = [TOKIN, PRO_SILVER, GOLD, PRO_KNIGHT, HORSE, DRAGON, KING, 0, 0, 0, 0, 0];
const CAN_PROMOTE: [bool; PIECE_TYPES] =
    [true, true, false, true, true, true, false, false, false, false, false, false];
const UNPROMOTED: [u8; PIECE_TYPES] =
    [PAWN, SILVER, GOLD, KNIGHT, BISHOP, ROOK, KING, PAWN, SILVER, KNIGHT, BISHOP, ROOK];
const LETTERS: [u8; PIECE_TYPES] = *b"PSGNBRKPSNBR";

/// A board square's content: 0 for empty, else `1 + piece_type + 12 * colour`.
type Cell = u8;
#[inline(always)]
fn cell(color: u8, pt: u8) -> Cell {
    1 + pt + 12 * color
}
#[inline(always)]
fn cell_color(c: Cell) -> u8 {
    (c - 1) / 12
}
#[inline(always)]
fn cell_type(c: Cell) -> u8 {
    (c - 1) % 12
}

/// A move in 16 bits: destination (6 bits), origin (6 bits: a square, or `36 + piece type` for a
/// drop) and the promotion flag. The all-zero value is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Move(u16);

impl Move {
    const DROP_BASE: u16 = SQUARES as u16;
    #[inline(always)]
    pub fn normal(from: usize, to: usize, promote: bool) -> Self {
        Move(to as u16 | (from as u16) << 6 | (promote as u16) << 12)
    }
    #[inline(always)]
    pub fn drop(pt: u8, to: usize) -> Self {
        Move(to as u16 | (Self::DROP_BASE + pt as u16) << 6)
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    fn origin(self) -> u16 {
        (self.0 >> 6) & 63
    }
    #[inline(always)]
    pub fn is_drop(self) -> bool {
        self.origin() >= Self::DROP_BASE
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        self.origin() as usize
    }
    #[inline(always)]
    pub fn drop_type(self) -> u8 {
        (self.origin() - Self::DROP_BASE) as u8
    }
    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        self.0 & (1 << 12) != 0
    }
}

crate::rules::move_word!(Move(u16), format_move);

/// A Judkins shogi position.
#[derive(Clone)]
pub struct Judkins {
    board: [Cell; SQUARES],
    by_color: [u64; 2],
    by_type: [u64; PIECE_TYPES],
    hand: [[u8; HAND_KINDS]; 2],
    side: u8,
    king: [u8; 2],
    hash: u64,
    move_number: u64,
    /// Pieces giving check to the side to move; kept current by `play`.
    checkers: u64,
}

impl Judkins {
    fn empty() -> Self {
        Judkins {
            board: [0; SQUARES],
            by_color: [0; 2],
            by_type: [0; PIECE_TYPES],
            hand: [[0; HAND_KINDS]; 2],
            side: SENTE,
            king: [0; 2],
            hash: 0,
            move_number: 1,
            checkers: 0,
        }
    }

    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    pub fn piece_at(&self, sq: usize) -> Option<(u8, u8)> {
        let c = self.board[sq];
        (c != 0).then(|| (cell_color(c), cell_type(c)))
    }

    #[inline(always)]
    fn put(&mut self, color: u8, pt: u8, sq: usize) {
        let b = 1u64 << sq;
        self.board[sq] = cell(color, pt);
        self.by_color[color as usize] |= b;
        self.by_type[pt as usize] |= b;
        self.hash ^= tables().zobrist_piece[(color * 12 + pt) as usize][sq];
    }

    #[inline(always)]
    fn remove(&mut self, color: u8, pt: u8, sq: usize) {
        let b = 1u64 << sq;
        self.board[sq] = 0;
        self.by_color[color as usize] &= !b;
        self.by_type[pt as usize] &= !b;
        self.hash ^= tables().zobrist_piece[(color * 12 + pt) as usize][sq];
    }

    /// The pieces of `color` attacking `sq`, with `occ` as blockers.
    #[inline(always)]
    fn attackers(&self, t: &Tables, color: u8, sq: usize, occ: u64) -> u64 {
        // A piece of colour c attacks sq exactly when the same piece of the other colour on sq
        // would attack it.
        let o = (color ^ 1) as usize;
        let bt = &self.by_type;
        let golds = bt[GOLD as usize] | bt[TOKIN as usize] | bt[PRO_SILVER as usize] | bt[PRO_KNIGHT as usize];
        let step = (t.step[o][STEP_PAWN][sq] & bt[PAWN as usize])
            | (t.step[o][STEP_SILVER][sq] & bt[SILVER as usize])
            | (t.step[o][STEP_GOLD][sq] & golds)
            | (t.step[o][STEP_KNIGHT][sq] & bt[KNIGHT as usize])
            | (t.step[o][STEP_KING][sq] & (bt[KING as usize] | bt[HORSE as usize] | bt[DRAGON as usize]));
        let rooks = bt[ROOK as usize] | bt[DRAGON as usize];
        let bishops = bt[BISHOP as usize] | bt[HORSE as usize];
        let sliders = (SLIDERS.rook(sq, occ) & rooks) | (SLIDERS.bishop(sq, occ) & bishops);
        (step | sliders) & self.by_color[color as usize]
    }

    /// Pieces of `color` that are pinned to their own king.
    #[inline(always)]
    fn pinned(&self, t: &Tables, color: u8, occ: u64) -> u64 {
        let ksq = self.king[color as usize] as usize;
        let them = self.by_color[(color ^ 1) as usize];
        let bt = &self.by_type;
        let mut snipers = ((t.rook_empty[ksq] & (bt[ROOK as usize] | bt[DRAGON as usize]))
            | (t.bishop_empty[ksq] & (bt[BISHOP as usize] | bt[HORSE as usize])))
            & them;
        let mut pinned = 0;
        while snipers != 0 {
            let s = pop_lsb(&mut snipers);
            let b = t.between[ksq][s] & occ;
            if b.count_ones() == 1 {
                pinned |= b & self.by_color[color as usize];
            }
        }
        pinned
    }

    fn compute_checkers(&self) -> u64 {
        let t = tables();
        self.attackers(t, self.side ^ 1, self.king[self.side as usize] as usize, self.occupied())
    }
}

impl Rules for Judkins {
    type Move = Move;

    const VARIANT: &'static VariantSpec = &variant::VARIANT;
    const MAX_MOVES: usize = MAX_MOVES;
    type Moves<T: Copy + Send> = List<T>;
    const REPETITIONS: usize = 4;
    const PERPETUAL_CHECK_LOSES: bool = true;

    fn startpos() -> Self {
        Self::parse_sfen(START_SFEN).expect("start position parses")
    }

    fn to_move(&self) -> Seat {
        Seat(self.side)
    }

    fn legal_moves(&self, out: &mut List<Move>) {
        self.generate(out, false);
    }

    #[inline]
    fn play(&mut self, m: Move) {
        self.make(m);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let t = tables();
        let mut h = 0;
        for sq in 0..SQUARES {
            let c = self.board[sq];
            if c != 0 {
                h ^= t.zobrist_piece[(c - 1) as usize][sq];
            }
        }
        for color in 0..2 {
            for k in 0..HAND_KINDS {
                for n in 0..self.hand[color][k] as usize {
                    h ^= t.zobrist_hand[color][k][n];
                }
            }
        }
        if self.side == GOTE {
            h ^= t.zobrist_gote;
        }
        h
    }

    fn must_answer_check(&self) -> bool {
        self.checkers != 0
    }

    fn checked_seats(&self) -> SeatMask {
        // Only the side to move can be in check: SFEN refuses a position where the other side
        // is, and no legal move leaves the mover in check.
        if self.checkers != 0 { Seat(self.side).mask() } else { SeatMask::EMPTY }
    }

    fn no_move_outcome(&self) -> Outcome {
        // In shogi a player without a legal move has lost, checked or not.
        Outcome::win(SeatMask(1 << (self.side ^ 1)), Termination::Checkmate)
    }
}
