//! Dojo chess (`docs/rules/dojo.md`): chess in which captured pieces stay on their squares as
//! passive members, and belt counters promote, demote and remove pieces at the end of their
//! owner's turns.
//!
//! Squares are `rank * 8 + file`, `a1` = 0. Active pieces live in bitboards (at most one per
//! square, D3). Passive members are a bitboard of blocked squares plus one list in the order the
//! members were made passive, which gives each square's stack order (D9 appoints the member made
//! passive last). The belt counters sit in a per-square table that travels with the active piece.
//!
//! This file holds the position, its board access and attacks; `movegen.rs` makes the legal
//! moves and plays a turn with its counters, `notation.rs` reads and writes the extended FEN and
//! move texts, `eval.rs` and `see.rs` (exchanges) are the search's view.

mod actions;
mod diagram;
mod eval;
mod features;
mod movegen;
mod notation;
mod see;
mod tables;
mod variant;

pub use eval::{WEIGHTS, Weights};
use notation::format_move;
pub use notation::{START, parse_square, square_name};
use tables::tables;
pub use variant::VARIANT;

use crate::board::geometry::{flip, kind_on, pop};
use crate::board::sliders::SLIDERS_8X8 as SLIDERS;
use crate::rules::VariantSpec;
use crate::rules::{MoveList, Outcome, Rules, Seat, SeatMask, Side, Termination};

/// At most 16 active pieces: the antisensei's 8 steps and 2 castlings, the deputy's 27 queen
/// moves and 14 more pieces with at most a rook's 14 each: 233 moves before the choices. A yellow
/// belt's move onto the far rank (at most 8 x 3 of them) carries a D6 choice of one of at most 15
/// enemy pieces or none (16 versions), and when treason fires every move carries one of at most
/// 14 appointees (D9): (233 - 24) x 14 + 24 x 16 x 14 = 8302.
pub const MAX_MOVES: usize = 8302;
/// This game's move buffers, for moves and for moves with scores.
pub type List<T> = MoveList<T, MAX_MOVES>;

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;
const LETTERS: [u8; 6] = *b"PNBRQK";

/// D7, D8, D10: a counter fires when it reaches this many owner's moves.
pub const BELT_LIMIT: u8 = 15;
/// D9: the treason counter fires at this many.
pub const TREASON_LIMIT: u8 = 10;
/// Counter slots per active piece.
pub const OBEDIENT: usize = 0;
pub const STAGNATION: usize = 1;
pub const DEFECTION: usize = 2;

/// `d` and `status` name the counters that fire within this many of their owner's moves.
pub const SOON: u8 = 5;

const NO_SQUARE: u8 = 64;
const CASTLE_WK: u8 = 1;
const CASTLE_WQ: u8 = 2;
const CASTLE_BK: u8 = 4;
const CASTLE_BQ: u8 = 8;

/// A move in 32 bits: origin (6), destination (6), the D6 target plus one (7; 0 = none) and the
/// D9 appointee plus one (7; 0 = none). Castling is the king's two-square move, en passant the
/// pawn's diagonal step to the en-passant square: both are known from the position.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Move(u32);

impl Move {
    #[inline(always)]
    fn new(from: usize, to: usize) -> Move {
        Move(from as u32 | (to as u32) << 6)
    }
    #[inline(always)]
    fn with_target(self, sq: Option<usize>) -> Move {
        match sq {
            Some(s) => Move(self.0 | (s as u32 + 1) << 12),
            None => self,
        }
    }
    #[inline(always)]
    fn with_appointee(self, sq: usize) -> Move {
        Move(self.0 | (sq as u32 + 1) << 19)
    }
    /// D6: the enemy piece made passive.
    #[inline(always)]
    pub fn target(self) -> Option<usize> {
        match (self.0 >> 12) & 127 {
            0 => None,
            s => Some(s as usize - 1),
        }
    }
    /// D9: the square of the new deputy.
    #[inline(always)]
    pub fn appointee(self) -> Option<usize> {
        match (self.0 >> 19) & 127 {
            0 => None,
            s => Some(s as usize - 1),
        }
    }
}

crate::rules::move_word!(Move(u32), format_move, squares: 6);

/// A passive member in the stack list: square, owner and belt.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Member(u16);

impl Member {
    fn new(sq: usize, c: usize, k: usize) -> Member {
        Member(sq as u16 | (c as u16) << 6 | (k as u16) << 7)
    }
    fn square(self) -> usize {
        (self.0 & 63) as usize
    }
    fn color(self) -> usize {
        ((self.0 >> 6) & 1) as usize
    }
    fn kind(self) -> usize {
        (self.0 >> 7) as usize
    }
}

/// The most passive members a game can hold: 32 pieces less the two antisenseis.
const MAX_PASSIVE: usize = 30;

#[derive(Clone, PartialEq, Eq)]
pub struct Dojo {
    color: [u64; 2],
    kind: [u64; 6],
    /// Squares holding at least one passive member.
    passive: u64,
    /// Every passive member, in the order they were made passive.
    stack: [Member; MAX_PASSIVE],
    n_stack: u8,
    /// Obedient, stagnation and defection counters of the active piece on each square.
    counters: [[u8; 3]; 64],
    treason: [u8; 2],
    turn: u8,
    castling: u8,
    ep: u8,
    halfmove: u16,
    fullmove: u32,
    hash: u64,
}

impl std::fmt::Debug for Dojo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::rules::Notation::to_text(self))
    }
}

#[inline(always)]
fn passive_key(m: Member, depth: usize) -> u64 {
    // The stack order matters (D9), so a member's key depends on its height in the stack.
    tables().z_passive[m.color()][m.kind()][m.square()].rotate_left((depth as u32 * 9) & 63)
}

impl Dojo {
    fn empty() -> Self {
        Dojo {
            color: [0; 2],
            kind: [0; 6],
            passive: 0,
            stack: [Member::default(); MAX_PASSIVE],
            n_stack: 0,
            counters: [[0; 3]; 64],
            treason: [0; 2],
            turn: WHITE as u8,
            castling: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    // ---- board access ----

    #[inline(always)]
    fn active(&self) -> u64 {
        self.color[0] | self.color[1]
    }

    /// Squares that stop sliders and steps: an active piece or a passive member (D4).
    #[inline(always)]
    fn blocked(&self) -> u64 {
        self.active() | self.passive
    }

    #[inline(always)]
    fn kind_at(&self, b: u64) -> usize {
        kind_on(&self.kind, [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING], b)
    }

    /// The active piece on `sq`: owner and belt.
    pub fn piece_at(&self, sq: usize) -> Option<(usize, usize)> {
        let b = 1u64 << sq;
        if self.active() & b == 0 {
            return None;
        }
        Some((if self.color[0] & b != 0 { WHITE } else { BLACK }, self.kind_at(b)))
    }

    /// The passive members on `sq`, first made passive first: (owner, belt).
    pub fn stack_at(&self, sq: usize) -> Vec<(usize, usize)> {
        self.members().filter(|m| m.square() == sq).map(|m| (m.color(), m.kind())).collect()
    }

    fn members(&self) -> impl Iterator<Item = Member> + '_ {
        self.stack[..self.n_stack as usize].iter().copied()
    }

    pub fn counter(&self, sq: usize, which: usize) -> u8 {
        self.counters[sq][which]
    }

    pub fn treason_counter(&self, c: usize) -> u8 {
        self.treason[c]
    }

    #[inline(always)]
    fn king_sq(&self, c: usize) -> usize {
        (self.color[c] & self.kind[KING]).trailing_zeros() as usize
    }

    fn deputy(&self, c: usize) -> Option<usize> {
        let q = self.color[c] & self.kind[QUEEN];
        (q != 0).then(|| q.trailing_zeros() as usize)
    }

    // ---- changes that keep the hash ----

    /// Puts an active piece on an empty square, with its key.
    #[inline(always)]
    fn put(&mut self, c: usize, k: usize, sq: usize) {
        flip(&mut self.color[c], &mut self.kind[k], sq);
        self.hash ^= tables().z_piece[c][k][sq];
    }

    /// Takes an active piece off its square with its counters.
    #[inline(always)]
    fn remove(&mut self, c: usize, k: usize, sq: usize) {
        flip(&mut self.color[c], &mut self.kind[k], sq);
        self.hash ^= tables().z_piece[c][k][sq];
        for i in 0..3 {
            self.set_counter(sq, i, 0);
        }
    }

    #[inline(always)]
    fn set_counter(&mut self, sq: usize, i: usize, v: u8) {
        let old = self.counters[sq][i];
        if old != v {
            let z = &tables().z_counter[i];
            self.hash ^= z[old as usize][sq] ^ z[v as usize][sq];
            self.counters[sq][i] = v;
        }
    }

    fn set_treason(&mut self, c: usize, v: u8) {
        let old = self.treason[c];
        if old != v {
            let z = &tables().z_treason[c];
            self.hash ^= z[old as usize] ^ z[v as usize];
            self.treason[c] = v;
        }
    }

    /// Moves an active piece with its counters.
    #[inline(always)]
    fn shift(&mut self, c: usize, k: usize, from: usize, to: usize) {
        let moved = self.counters[from];
        self.remove(c, k, from);
        self.put(c, k, to);
        for (i, &v) in moved.iter().enumerate() {
            self.set_counter(to, i, v);
        }
    }

    /// Changes the belt of an active piece where it stands.
    fn rebelt(&mut self, c: usize, from: usize, to: usize, sq: usize) {
        let z = &tables().z_piece[c];
        self.kind[from] &= !(1u64 << sq);
        self.kind[to] |= 1u64 << sq;
        self.hash ^= z[from][sq] ^ z[to][sq];
    }

    /// The active piece on `sq` becomes a passive member there.
    fn make_passive(&mut self, c: usize, k: usize, sq: usize) {
        self.remove(c, k, sq);
        if k == QUEEN {
            // D9's condition needs an active deputy: it breaks the moment the deputy is lost.
            self.set_treason(c, 0);
        }
        let depth = self.members().filter(|m| m.square() == sq).count();
        let m = Member::new(sq, c, k);
        self.hash ^= passive_key(m, depth);
        self.stack[self.n_stack as usize] = m;
        self.n_stack += 1;
        self.passive |= 1u64 << sq;
    }

    fn stack_key(&self, sq: usize) -> u64 {
        self.members().filter(|m| m.square() == sq).enumerate().fold(0, |h, (d, m)| h ^ passive_key(m, d))
    }

    /// D9: the owner's passive member on `sq` made passive last leaves the stack. Its belt.
    fn take_passive(&mut self, c: usize, sq: usize) -> Option<usize> {
        let n = self.n_stack as usize;
        let i = (0..n).rev().find(|&i| self.stack[i].square() == sq && self.stack[i].color() == c)?;
        let k = self.stack[i].kind();
        let before = self.stack_key(sq);
        self.stack.copy_within(i + 1..n, i);
        self.n_stack -= 1;
        self.hash ^= before ^ self.stack_key(sq);
        if !self.members().any(|m| m.square() == sq) {
            self.passive &= !(1u64 << sq);
        }
        Some(k)
    }

    fn set_ep(&mut self, sq: u8) {
        if self.ep != NO_SQUARE {
            self.hash ^= tables().z_ep[self.ep as usize % 8];
        }
        self.ep = sq;
        if sq != NO_SQUARE {
            self.hash ^= tables().z_ep[sq as usize % 8];
        }
    }

    fn set_castling(&mut self, rights: u8) {
        let z = &tables().z_castle;
        self.hash ^= z[self.castling as usize] ^ z[rights as usize];
        self.castling = rights;
    }

    // ---- attacks ----

    /// Active pieces of `by` that attack `sq` with blockers `occ` (passive members never attack).
    #[inline]
    fn attackers(&self, sq: usize, by: usize, occ: u64) -> u64 {
        let t = tables();
        let k = &self.kind;
        ((t.pawn_attacks[by ^ 1][sq] & k[PAWN])
            | (t.knight[sq] & k[KNIGHT])
            | (t.king[sq] & k[KING])
            | (SLIDERS.bishop(sq, occ) & (k[BISHOP] | k[QUEEN]))
            | (SLIDERS.rook(sq, occ) & (k[ROOK] | k[QUEEN])))
            & self.color[by]
    }

    pub fn king_attacked(&self, c: usize) -> bool {
        self.attackers(self.king_sq(c), c ^ 1, self.blocked()) != 0
    }

    /// Own active pieces that alone stand between the king and an enemy slider. A piece on a
    /// square with passive members is never pinned: the square stays blocked when it leaves.
    fn pinned(&self, us: usize, king: usize) -> u64 {
        let t = tables();
        let k = &self.kind;
        let them = self.color[us ^ 1];
        let mut snipers = ((SLIDERS.rook(king, 0) & (k[ROOK] | k[QUEEN]))
            | (SLIDERS.bishop(king, 0) & (k[BISHOP] | k[QUEEN])))
            & them;
        let occ = self.blocked();
        let mut pinned = 0;
        while snipers != 0 {
            let s = pop(&mut snipers);
            let b = t.between[king][s] & occ;
            if b.count_ones() == 1 {
                pinned |= b & self.color[us] & !self.passive;
            }
        }
        pinned
    }
}

impl Rules for Dojo {
    type Move = Move;

    const VARIANT: &'static VariantSpec = &variant::VARIANT;
    const MAX_MOVES: usize = MAX_MOVES;
    type Moves<T: Copy + Send> = List<T>;

    fn startpos() -> Self {
        Self::parse(START).expect("start position parses")
    }

    fn to_move(&self) -> Seat {
        Seat(self.turn)
    }

    fn legal_moves(&self, out: &mut List<Move>) {
        self.generate(out, false);
    }

    fn play(&mut self, m: Move) {
        self.make(m);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let t = tables();
        let mut h = 0;
        for c in 0..2 {
            for k in 0..6 {
                let mut b = self.color[c] & self.kind[k];
                while b != 0 {
                    h ^= t.z_piece[c][k][pop(&mut b)];
                }
            }
            h ^= t.z_treason[c][self.treason[c] as usize];
        }
        let mut b = self.passive;
        while b != 0 {
            h ^= self.stack_key(pop(&mut b));
        }
        for sq in 0..64 {
            for i in 0..3 {
                h ^= t.z_counter[i][self.counters[sq][i] as usize][sq];
            }
        }
        if self.turn as usize == BLACK {
            h ^= t.z_black;
        }
        h ^= t.z_castle[self.castling as usize];
        if self.ep != NO_SQUARE {
            h ^= t.z_ep[self.ep as usize % 8];
        }
        h
    }

    fn must_answer_check(&self) -> bool {
        self.king_attacked(self.turn as usize)
    }

    fn checked_seats(&self) -> SeatMask {
        SeatMask((0..2).filter(|&c| self.king_attacked(c)).fold(0, |m, c| m | (1 << c)))
    }

    fn static_outcome(&self) -> Option<Outcome> {
        if self.halfmove < 100 {
            return None;
        }
        // D1: 100 plies without a capture or a yellow-belt move draw, unless that last move mated.
        if self.must_answer_check() {
            let mut list = List::new();
            self.generate(&mut list, false);
            if list.is_empty() {
                return None;
            }
        }
        Some(Outcome::draw(Termination::MoveLimit))
    }

    fn no_move_outcome(&self) -> Outcome {
        if self.must_answer_check() {
            Outcome::win(SeatMask(1 << (self.turn ^ 1)), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::Stalemate)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;

    #[test]
    fn start_position_round_trips() {
        let p = Dojo::startpos();
        assert_eq!(p.to_text(), START);
        assert_eq!(p.hash, p.hash_from_scratch());
    }

    #[test]
    fn between_covers_diagonals() {
        let t = tables();
        assert_eq!(t.between[0][63].count_ones(), 6);
        assert_eq!(t.between[4][60].count_ones(), 6);
        assert_eq!(t.between[0][10], 0);
    }
}
