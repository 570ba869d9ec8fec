//! Judtho (`docs/rules/judtho.md`): four players on a 12x12 board. In the Assembly each places
//! 12 of their 13 pieces into a corner Realm; in the Battles every checkmate forges an alliance,
//! which changes who may move whose pieces and, with a Triple Alliance, the turn order. The
//! third checkmate ends the game.
//!
//! Squares are `rank * 12 + file`, `a1` = 0, `l12` = 143; sets of squares are `SquareSet<3>`.
//! Seats in turn order: White 0, Red 1, Yellow 2, Black 3, so the Rivals (White and Yellow, Red
//! and Black) are the seats whose numbers differ by 2, and a seat's pawns travel up the board
//! when its number is even.
//!
//! This file holds the position and the rules every phase shares; `attacks.rs` is T5 (what
//! attacks what, and check), `assembly.rs` the placements and T6, `alliance.rs` the
//! relationships, checkmates and turn order (T8, T9), `movegen.rs` the Battles' moves (T7),
//! `notation.rs` the texts, `eval.rs` the evaluation.

mod actions;
mod alliance;
mod assembly;
mod attacks;
mod diagram;
mod eval;
mod features;
mod movegen;
mod notation;
mod see;
mod tables;
mod variant;

pub use eval::SEARCH;
pub use notation::START;
use tables::{mix, tables};
pub use variant::VARIANT;

use crate::board::squareset::Set144 as Set;
use crate::rules::VariantSpec;
use crate::rules::{MoveList, Outcome, Rules, Seat, SeatMask, Side, Termination};

pub const SQUARES: usize = 144;

pub const W: u8 = 0;
pub const R: u8 = 1;
pub const Y: u8 = 2;
pub const B: u8 = 3;
pub const SEAT_LETTERS: [u8; 4] = *b"wryb";

pub const KING: u8 = 0;
pub const QUEEN: u8 = 1;
pub const PRINCE: u8 = 2;
pub const PRINCESS: u8 = 3;
pub const ROOK: u8 = 4;
pub const KNIGHT: u8 = 5;
pub const BISHOP: u8 = 6;
pub const PAWN: u8 = 7;
/// Kind letters in the order of the hands in the position string.
pub const KIND_LETTERS: [u8; 8] = *b"KQCSRNBP";
/// What each player has at the start: one of each piece and six pawns.
pub const FULL_HAND: [u8; 8] = [1, 1, 1, 1, 1, 1, 1, 6];
/// Pieces each player places.
pub const PLACED_EACH: u8 = 12;
/// Pieces on the board when the Assembly ends.
pub const ASSEMBLY: u8 = 48;
/// T12: this many turns without a capture, a pawn move, a promotion or a checkmate draw.
pub const QUIET_LIMIT: u16 = 200;
/// A seat in no alliance.
pub const NONE: u8 = 255;

/// Judtho has no small provable bound on its legal moves: a knight's distant capture alone has
/// up to 255 subsets, and every checkmate a move gives multiplies it by up to 24 promotion
/// squares. tetrarch plays positions of up to 4096 legal moves (a full Assembly turn has at
/// most 8 kinds x 24 squares = 192, the Battles' busiest positions a few hundred); a position
/// string with more is refused (`from_text`), and a game that reaches one stops with an error.
pub const MAX_MOVES: usize = 4096;
/// This game's move buffers.
pub type List<T> = MoveList<T, MAX_MOVES>;

/// A move in 64 bits: bits 0-7 the origin (a placement's square), 8-15 the destination, 16-23 an
/// extra (a placement's kind, a promotion's kind plus one, or a distant capture's leaps as a
/// mask over `KNIGHT_STEPS`), 24-26 the type, 32-39 and 40-47 the squares (plus one) of the
/// promotions chosen for the checkmates the move gives, in the order they are resolved.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Move(u64);

pub const PLACE: u8 = 1;
/// A step, a slide, or a Princess's or Prince's line capture.
pub const STEP: u8 = 2;
pub const JUMP: u8 = 3;
pub const DISTANT: u8 = 4;
pub const PASS_TYPE: u8 = 5;

pub const PASS: Move = Move((PASS_TYPE as u64) << 24);

impl Move {
    #[inline(always)]
    pub fn place(kind: u8, sq: usize) -> Move {
        Move(sq as u64 | (sq as u64) << 8 | (kind as u64) << 16 | (PLACE as u64) << 24)
    }
    #[inline(always)]
    pub fn step(from: usize, to: usize, promotion: Option<u8>) -> Move {
        let p = promotion.map(|k| k as u64 + 1).unwrap_or(0);
        Move(from as u64 | (to as u64) << 8 | p << 16 | (STEP as u64) << 24)
    }
    #[inline(always)]
    pub fn jump(from: usize, to: usize) -> Move {
        Move(from as u64 | (to as u64) << 8 | (JUMP as u64) << 24)
    }
    #[inline(always)]
    pub fn distant(from: usize, leaps: u8) -> Move {
        Move(from as u64 | (from as u64) << 8 | (leaps as u64) << 16 | (DISTANT as u64) << 24)
    }
    #[inline(always)]
    pub fn kind(self) -> u8 {
        ((self.0 >> 24) & 7) as u8
    }
    #[inline(always)]
    fn extra(self) -> u8 {
        ((self.0 >> 16) & 255) as u8
    }
    /// The kind placed, for a placement.
    #[inline(always)]
    pub fn placed(self) -> u8 {
        self.extra()
    }
    /// The kind a pawn promotes to on the far rank.
    #[inline(always)]
    pub fn promotion(self) -> Option<u8> {
        (self.kind() == STEP && self.extra() != 0).then(|| self.extra() - 1)
    }
    /// A distant capture's leaps, a mask over `KNIGHT_STEPS`.
    #[inline(always)]
    pub fn leaps(self) -> u8 {
        self.extra()
    }
    /// The promotion squares chosen for the checkmates this move gives, in order.
    pub fn choices(self) -> impl Iterator<Item = usize> {
        [(self.0 >> 32) & 255, (self.0 >> 40) & 255].into_iter().take_while(|&s| s != 0).map(|s| s as usize - 1)
    }
    /// The same move with one more promotion square.
    #[inline]
    fn with_choice(self, sq: usize) -> Move {
        if (self.0 >> 32) & 255 == 0 {
            Move(self.0 | (sq as u64 + 1) << 32)
        } else {
            Move(self.0 | (sq as u64 + 1) << 40)
        }
    }
}

crate::rules::move_word!(Move(u64), notation::format_move, squares: 8);

/// The pieces on the board: sets by seat and by kind, and a square-by-square copy.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    pub by_seat: [Set; 4],
    pub by_kind: [Set; 8],
    pub occ: Set,
    /// 0 for an empty square, else `1 + seat * 8 + kind`.
    cells: [u8; SQUARES],
    /// Each seat's king square, or `NONE` before it is placed.
    pub kings: [u8; 4],
}

impl Board {
    fn empty() -> Board {
        Board {
            by_seat: [Set::EMPTY; 4],
            by_kind: [Set::EMPTY; 8],
            occ: Set::EMPTY,
            cells: [0; SQUARES],
            kings: [NONE; 4],
        }
    }

    /// The owner and kind of the piece on `sq`.
    #[inline(always)]
    pub fn at(&self, sq: usize) -> Option<(u8, u8)> {
        let c = self.cells[sq];
        (c != 0).then(|| ((c - 1) / 8, (c - 1) % 8))
    }

    #[inline(always)]
    fn put(&mut self, seat: u8, kind: u8, sq: usize) {
        self.by_seat[seat as usize].insert(sq);
        self.by_kind[kind as usize].insert(sq);
        self.occ.insert(sq);
        self.cells[sq] = 1 + seat * 8 + kind;
        if kind == KING {
            self.kings[seat as usize] = sq as u8;
        }
    }

    /// A copy of the board with the pieces on `vacated` taken off and `landed` (seat, kind,
    /// square) put on: a move seen on its own, for the tests that must read the board after it.
    fn after(&self, vacated: Set, landed: Option<(u8, u8, usize)>) -> Board {
        let mut b = self.clone();
        for s in vacated.iter() {
            b.take(s);
        }
        if let Some((seat, kind, sq)) = landed {
            b.put(seat, kind, sq);
        }
        b
    }

    #[inline(always)]
    fn take(&mut self, sq: usize) -> Option<(u8, u8)> {
        let (seat, kind) = self.at(sq)?;
        self.by_seat[seat as usize].remove(sq);
        self.by_kind[kind as usize].remove(sq);
        self.occ.remove(sq);
        self.cells[sq] = 0;
        if kind == KING {
            self.kings[seat as usize] = NONE;
        }
        Some((seat, kind))
    }
}

/// A Judtho position.
#[derive(Clone, PartialEq, Eq)]
pub struct Judtho {
    board: Board,
    /// Pieces in hand, per seat and kind.
    hand: [[u8; 8]; 4],
    /// The pieces placed so far; the Assembly ends at 48.
    placed: u8,
    /// The relationships (`alliance.rs`).
    rel: alliance::Relations,
    /// The turn cycle from the seat to move on (`cycle[0]`): a rotation of `wryb`, or after a
    /// Triple Alliance six turns that alternate the single player with the members (T9).
    cycle: [u8; 6],
    cycle_len: u8,
    /// T6: the seats that were given check by a placement since their own last placement.
    pending: u8,
    /// T6b: per seat, the squares of the placements that gave its king check, in order.
    checks: [[u8; 24]; 4],
    n_checks: [u8; 4],
    quiet: u16,
    number: u64,
    hash: u64,
    over: Option<Outcome>,
    /// The seats whose kings stand in check: kept by every change of the board or of the
    /// relationships (`refresh_checked`), and read by move generation and the T8 test.
    checked: u8,
}

impl std::fmt::Debug for Judtho {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::rules::Notation::to_text(self))
    }
}

/// The seat whose pieces travel up the board (toward rank 12) travel in direction 0.
#[inline(always)]
pub fn pawn_dir(seat: u8) -> usize {
    (seat & 1) as usize
}

impl Judtho {
    fn empty() -> Judtho {
        Judtho {
            board: Board::empty(),
            hand: [[0; 8]; 4],
            placed: 0,
            rel: alliance::Relations::start(),
            cycle: [W, R, Y, B, 0, 0],
            cycle_len: 4,
            pending: 0,
            checks: [[0; 24]; 4],
            n_checks: [0; 4],
            quiet: 0,
            number: 1,
            hash: 0,
            over: None,
            checked: 0,
        }
    }

    /// The owner and kind of the piece on `sq`.
    pub fn piece_at(&self, sq: usize) -> Option<(u8, u8)> {
        self.board.at(sq)
    }

    pub fn hand(&self, seat: u8) -> [u8; 8] {
        self.hand[seat as usize]
    }

    #[inline(always)]
    pub fn in_assembly(&self) -> bool {
        self.placed < ASSEMBLY
    }

    #[inline(always)]
    fn to_move_seat(&self) -> u8 {
        self.cycle[0]
    }

    /// The turn cycle, from the seat to move on.
    pub fn cycle(&self) -> &[u8] {
        &self.cycle[..self.cycle_len as usize]
    }

    #[inline(always)]
    fn put(&mut self, seat: u8, kind: u8, sq: usize) {
        self.board.put(seat, kind, sq);
        self.hash ^= tables().z_piece[seat as usize][kind as usize][sq];
    }

    #[inline(always)]
    fn take(&mut self, sq: usize) -> Option<(u8, u8)> {
        let p = self.board.take(sq)?;
        self.hash ^= tables().z_piece[p.0 as usize][p.1 as usize][sq];
        Some(p)
    }

    /// Takes a piece from a hand (which must hold one).
    fn take_from_hand(&mut self, seat: u8, kind: u8) {
        let h = &mut self.hand[seat as usize][kind as usize];
        *h -= 1;
        self.hash ^= tables().z_hand[seat as usize][kind as usize][*h as usize];
    }

    fn put_in_hand(&mut self, seat: u8, kind: u8) {
        let h = &mut self.hand[seat as usize][kind as usize];
        self.hash ^= tables().z_hand[seat as usize][kind as usize][*h as usize];
        *h += 1;
    }

    /// The part of the hash that is not pieces or hands: the turn cycle, the relationships and
    /// the Assembly's check records. It changes rarely, so it is recomputed whole.
    fn meta_key(&self) -> u64 {
        let mut code = self.cycle_len as u64;
        for &s in self.cycle() {
            code = code << 2 | s as u64;
        }
        let mut h = mix(1, code) ^ mix(2, self.rel.code());
        if self.pending != 0 {
            h ^= mix(3, self.pending as u64);
        }
        for s in 0..4 {
            for i in 0..self.n_checks[s] as usize {
                h ^= mix(4, (s as u64) << 16 | (i as u64) << 8 | self.checks[s][i] as u64);
            }
        }
        h
    }

    /// Hands the turn to the next seat of the cycle.
    fn rotate_turn(&mut self) {
        let n = self.cycle_len as usize;
        self.cycle[..n].rotate_left(1);
    }

    /// Whether `seat`'s king stands attacked by one of its Opponents.
    #[inline(always)]
    pub fn king_in_check(&self, seat: u8) -> bool {
        self.checked & (1 << seat) != 0
    }

    /// Finds the kings in check anew, after the board or the relationships changed.
    fn refresh_checked(&mut self) {
        let mut checked = 0;
        for s in 0..4u8 {
            let k = self.board.kings[s as usize];
            if k != NONE && self.board.attacked(k as usize, self.rel.opponents(s), &self.rel) {
                checked |= 1 << s;
            }
        }
        self.checked = checked;
    }

    /// The end the position shows: the third checkmate, or T12.
    fn compute_over(&self) -> Option<Outcome> {
        if let Some(o) = self.rel.outcome() {
            return Some(o);
        }
        if self.quiet >= QUIET_LIMIT {
            return Some(Outcome::draw(Termination::MoveLimit));
        }
        None
    }
}

impl Rules for Judtho {
    type Move = Move;
    type Moves<T: Copy + Send> = List<T>;

    const VARIANT: &'static VariantSpec = &variant::VARIANT;
    const MAX_MOVES: usize = MAX_MOVES;

    fn startpos() -> Self {
        Self::parse(START).expect("start position parses")
    }

    fn to_move(&self) -> Seat {
        Seat(self.to_move_seat())
    }

    fn side_of(&self, seat: Seat) -> Side {
        Side(self.rel.side(seat.0))
    }

    fn legal_moves(&self, out: &mut List<Move>) {
        if self.over.is_some() {
            return;
        }
        if self.in_assembly() {
            self.placements(out);
            return;
        }
        let us = self.to_move_seat();
        self.generate(us, &mut movegen::All(out), true);
        if out.is_empty() && !self.king_in_check(us) && self.may_pass(us) {
            // A pass is a move too: T8 tests the kings after it, and a checkmate it lets happen
            // carries its promotion like any other.
            self.mate_variants(us, PASS, &mut movegen::All(out));
        }
    }

    fn play(&mut self, m: Move) {
        self.make(m);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let t = tables();
        let mut h = self.meta_key();
        for sq in 0..SQUARES {
            if let Some((s, k)) = self.board.at(sq) {
                h ^= t.z_piece[s as usize][k as usize][sq];
            }
        }
        for s in 0..4 {
            for k in 0..8 {
                for n in 0..self.hand[s][k] as usize {
                    h ^= t.z_hand[s][k][n];
                }
            }
        }
        h
    }

    fn must_answer_check(&self) -> bool {
        // In the Assembly no move answers a check (T6 constrains the next placement instead).
        !self.in_assembly() && self.king_in_check(self.to_move_seat())
    }

    fn checked_seats(&self) -> SeatMask {
        SeatMask(self.checked)
    }

    fn static_outcome(&self) -> Option<Outcome> {
        self.over
    }

    /// T11: an unallied player may resign; an allied one may not.
    fn may_resign(&self, seat: Seat) -> Result<(), String> {
        let side = self.side_of(seat);
        if Seat::all(4).any(|s| s != seat && self.side_of(s) == side) {
            return Err("an allied player may not resign (Judtho, T11)".into());
        }
        Ok(())
    }

    fn no_move_outcome(&self) -> Outcome {
        // T10: the single player facing a Triple Alliance without a move, or nobody able to move.
        Outcome::draw(Termination::Stalemate)
    }
}
