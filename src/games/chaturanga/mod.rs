//! Four-handed Chaturanga in its two forms (`docs/rules/chaturanga.md`): `Double Mate` (yellow
//! and red against black and green; kings are mated, never captured) and `all against all`
//! (kings are captured, an army without its king is out and its pieces stay as inert obstacles).
//!
//! Squares are `rank * 8 + file`, `a1` = 0. Armies are seats in turn order: yellow 0, black 1,
//! red 2, green 3, so in Double Mate an army's side is its seat's parity. Sets of squares are
//! `u64` bitboards; the only slider is the rook, so pins run along ranks and files only.
//!
//! This file holds the position, its attacks and the ends of the game; `movegen.rs` makes the
//! legal moves and plays them, `notation.rs` reads and writes position strings and move texts,
//! `eval.rs` and `see.rs` are the search's view.

mod actions;
mod diagram;
mod eval;
mod features;
mod movegen;
mod notation;
mod see;
mod tables;
mod variant;

pub use eval::{ALL_AGAINST_ALL_SEARCH, DOUBLE_MATE_SEARCH, FFA_WEIGHTS, WEIGHTS, Weights};
use notation::format_move;
pub use notation::{START, square_name};
use tables::tables;
pub use variant::{ALL_AGAINST_ALL_VARIANT, DOUBLE_MATE_VARIANT};

use crate::board::geometry::{flip, kind_on, pop};
use crate::board::sliders::SLIDERS_8X8 as SLIDERS;
use crate::rules::VariantSpec;
use crate::rules::{MoveList, Outcome, Rules, Seat, SeatMask, Side, Termination};

/// An army has at most 16 pieces besides its king (its own 7, and in Double Mate the ships
/// a concourse brings over from the partner, C6), none with more than a rook's 14 moves (a
/// pawn has at most 3 moves, 3 promotions each); the king 8; or the pass alone: 232.
pub const MAX_MOVES: usize = 232;
/// This game's move buffers, for moves and for moves with scores.
pub type List<T> = MoveList<T, MAX_MOVES>;

pub const YELLOW: u8 = 0;
pub const BLACK: u8 = 1;
pub const RED: u8 = 2;
pub const GREEN: u8 = 3;
pub const ARMY_LETTERS: [u8; 4] = *b"ybrg";

pub const KING: usize = 0;
pub const ROOK: usize = 1;
pub const KNIGHT: usize = 2;
pub const SHIP: usize = 3;
pub const PAWN: usize = 4;
const KIND_LETTERS: [u8; 5] = *b"KRNSP";

/// C5: this many army turns without a capture or a pawn move draw the game.
pub const QUIET_LIMIT: u32 = 200;

/// A move in 16 bits: origin (6 bits), destination (6 bits), promotion kind (2 bits: none, rook,
/// knight, ship). `PASS` is the one move of an army that has no other. Zero is never a move.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Move(u16);

pub const PASS: Move = Move(1 << 14);
const PROMOTION_KINDS: [usize; 3] = [ROOK, KNIGHT, SHIP];

impl Move {
    #[inline(always)]
    fn new(from: usize, to: usize, promo: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | promo << 12)
    }
    /// The kind a pawn promotes to, if this is a promotion.
    #[inline(always)]
    pub fn promotion(self) -> Option<usize> {
        match (self.0 >> 12) & 3 {
            0 => None,
            k => Some(PROMOTION_KINDS[k as usize - 1]),
        }
    }
}

crate::rules::move_word!(Move(u16), format_move, squares: 6);

/// A position of either form: `FFA` is all against all.
#[derive(Clone, PartialEq, Eq)]
pub struct Chaturanga<const FFA: bool> {
    army: [u64; 4],
    kind: [u64; 5],
    turn: u8,
    /// All against all: the armies whose king was captured, as a mask and in the order they
    /// went out (the ranking needs the order).
    out: u8,
    out_order: [u8; 4],
    n_out: u8,
    quiet: u32,
    number: u64,
    hash: u64,
    over: Option<Outcome>,
}

impl<const FFA: bool> std::fmt::Debug for Chaturanga<FFA> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::rules::Notation::to_text(self))
    }
}

pub type DoubleMate = Chaturanga<false>;
pub type AllAgainstAll = Chaturanga<true>;

/// What `d` and `status` say about one army.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArmyState {
    Playing,
    /// In check with no legal move (C3).
    Mated,
    /// Nothing left but the king (C4).
    LoneKing,
    /// King captured (C7).
    Out,
}

impl<const FFA: bool> Chaturanga<FFA> {
    fn empty() -> Self {
        Chaturanga {
            army: [0; 4],
            kind: [0; 5],
            turn: YELLOW,
            out: 0,
            out_order: [0; 4],
            n_out: 0,
            quiet: 0,
            number: 1,
            hash: 0,
            over: None,
        }
    }

    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.army[0] | self.army[1] | self.army[2] | self.army[3]
    }

    pub fn piece_at(&self, sq: usize) -> Option<(u8, usize)> {
        let b = 1u64 << sq;
        let a = (0..4).find(|&a| self.army[a] & b != 0)?;
        let k = (0..5).find(|&k| self.kind[k] & b != 0)?;
        Some((a as u8, k))
    }

    #[inline(always)]
    fn kind_at(&self, b: u64) -> usize {
        // Pawns are the most common piece, the king the rarest.
        kind_on(&self.kind, [PAWN, SHIP, KNIGHT, ROOK, KING], b)
    }

    #[inline(always)]
    fn army_at(&self, b: u64) -> usize {
        (0..3).find(|&a| self.army[a] & b != 0).unwrap_or(3)
    }

    /// Puts a piece on an empty square, or lifts it from its square (`remove`), with its key.
    #[inline(always)]
    fn put(&mut self, a: usize, k: usize, sq: usize) {
        flip(&mut self.army[a], &mut self.kind[k], sq);
        self.hash ^= tables().z_piece[a][k][sq];
    }

    #[inline(always)]
    fn remove(&mut self, a: usize, k: usize, sq: usize) {
        self.put(a, k, sq);
    }

    /// The armies whose pieces attack army `a`: the other side in Double Mate; in all against
    /// all every other army still in (C7: the pieces of an army that is out are inert).
    #[inline(always)]
    fn enemies(&self, a: usize) -> u8 {
        if FFA { 0xF & !self.out & !(1 << a) } else { 0b1010 >> (a & 1) }
    }

    #[inline(always)]
    fn armies_bb(&self, mask: u8) -> u64 {
        let mut b = 0;
        for a in 0..4 {
            if mask & (1 << a) != 0 {
                b |= self.army[a];
            }
        }
        b
    }

    /// The pieces of the armies in `mask` that attack `sq`, with blockers `occ`.
    #[inline]
    fn attackers(&self, sq: usize, mask: u8, occ: u64) -> u64 {
        let t = tables();
        let k = &self.kind;
        let by = self.armies_bb(mask);
        let mut att = ((t.king[sq] & k[KING])
            | (t.knight[sq] & k[KNIGHT])
            | (t.ship[sq] & k[SHIP])
            | (SLIDERS.rook(sq, occ) & k[ROOK]))
            & by;
        for a in 0..4 {
            if mask & (1 << a) != 0 {
                att |= t.pawn_from[a][sq] & k[PAWN] & self.army[a];
            }
        }
        att
    }

    fn king_square(&self, a: usize) -> Option<usize> {
        let b = self.army[a] & self.kind[KING];
        (b != 0).then(|| b.trailing_zeros() as usize)
    }

    /// Whether army `a`'s king is attacked by an enemy piece.
    pub fn king_attacked(&self, a: usize) -> bool {
        match self.king_square(a) {
            Some(k) => self.attackers(k, self.enemies(a), self.occupied()) != 0,
            None => false,
        }
    }

    fn is_lone(&self, a: usize) -> bool {
        self.army[a] & !self.kind[KING] == 0 && self.army[a] != 0
    }

    /// The squares of the 2x2 blocks of ships that a ship arriving on `to` completes, without
    /// `to` itself (C6, C9).
    #[inline]
    fn concourse(&self, from: usize, to: usize) -> u64 {
        let ships = (self.kind[SHIP] & !(1u64 << from)) | (1u64 << to);
        let mut squares = 0;
        for &m in tables().blocks[to].iter() {
            if m != 0 && ships & m == m {
                squares |= m;
            }
        }
        squares & !(1u64 << to)
    }

    fn go_out(&mut self, a: usize) {
        self.out |= 1 << a;
        self.out_order[self.n_out as usize] = a as u8;
        self.n_out += 1;
        self.hash ^= tables().z_out[a];
    }

    /// The next army to move after `a`: the next in turn order, skipping armies that are out.
    fn next_turn(&self, a: u8) -> u8 {
        let mut n = (a + 1) & 3;
        while self.out & (1 << n) != 0 && n != a {
            n = (n + 1) & 3;
        }
        n
    }

    /// Double Mate: whether army `a`'s king is safe after `a` plays `m` (C1).
    fn safe_after(&self, a: usize, m: Move) -> bool {
        let mut c = self.clone();
        c.apply(a, m);
        !c.king_attacked(a)
    }

    fn has_legal_move(&self, a: usize) -> bool {
        let mut list = List::new();
        self.generate(a, &mut list, false);
        !list.is_empty()
    }

    /// C3: in check with no legal move, judged as if it were the army's turn.
    pub fn is_mated(&self, a: usize) -> bool {
        self.king_attacked(a) && !self.has_legal_move(a)
    }

    pub fn army_state(&self, a: usize) -> ArmyState {
        if FFA && self.out & (1 << a) != 0 {
            ArmyState::Out
        } else if !FFA && self.is_mated(a) {
            ArmyState::Mated
        } else if self.is_lone(a) {
            ArmyState::LoneKing
        } else {
            ArmyState::Playing
        }
    }

    /// The end the position shows by itself: C4's win, the last king (C8), or C5's counter.
    fn compute_over(&self) -> Option<Outcome> {
        if FFA {
            let left = 0xF & !self.out;
            if left.count_ones() == 1 {
                return Some(Outcome::win(SeatMask(left), Termination::KingCapture));
            }
        } else {
            let mut mated = [false; 4];
            let mut down = [false; 4];
            for a in 0..4 {
                mated[a] = self.is_mated(a);
                down[a] = mated[a] || self.is_lone(a);
            }
            let yr_win = down[1] && down[3];
            let bg_win = down[0] && down[2];
            if yr_win && bg_win {
                return Some(Outcome::draw(Termination::Checkmate));
            }
            if yr_win || bg_win {
                let (winners, l1, l2) = if yr_win { (0b0101, 1, 3) } else { (0b1010, 0, 2) };
                let reason = if mated[l1] || mated[l2] { Termination::Checkmate } else { Termination::LoneKings };
                return Some(Outcome::win(SeatMask(winners), reason));
            }
        }
        if self.quiet >= QUIET_LIMIT {
            return Some(Outcome::draw(Termination::MoveLimit));
        }
        None
    }
}

impl<const FFA: bool> Rules for Chaturanga<FFA> {
    type Move = Move;

    const VARIANT: &'static VariantSpec =
        if FFA { &variant::ALL_AGAINST_ALL_VARIANT } else { &variant::DOUBLE_MATE_VARIANT };
    const MAX_MOVES: usize = MAX_MOVES;
    type Moves<T: Copy + Send> = List<T>;

    fn startpos() -> Self {
        Self::parse(START).expect("start position parses")
    }

    fn to_move(&self) -> Seat {
        Seat(self.turn)
    }

    fn side_of(&self, seat: Seat) -> Side {
        Side(if FFA { seat.0 } else { seat.0 & 1 })
    }

    fn side_lost(&self, side: Side) -> bool {
        FFA && self.out & (1 << side.0) != 0
    }

    fn legal_moves(&self, out: &mut List<Move>) {
        if self.over.is_some() {
            return;
        }
        self.generate(self.turn as usize, out, false);
        if out.is_empty() {
            // C3: an army with no move passes, unless no army in the game can move (C5).
            let mut others = (0..4).filter(|&a| a != self.turn as usize && self.out & (1 << a) == 0);
            if others.any(|a| self.has_legal_move(a)) {
                out.push(PASS);
            }
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
        let mut h = t.z_turn[self.turn as usize];
        for a in 0..4 {
            if self.out & (1 << a) != 0 {
                h ^= t.z_out[a];
            }
            for k in 0..5 {
                let mut b = self.army[a] & self.kind[k];
                while b != 0 {
                    h ^= t.z_piece[a][k][pop(&mut b)];
                }
            }
        }
        h
    }

    fn must_answer_check(&self) -> bool {
        // All against all has no check to answer (C7): a king in danger is a capture away, and
        // quiescence sees captures. `checked_seats` still shows attacked kings.
        !FFA && self.king_attacked(self.turn as usize)
    }

    fn checked_seats(&self) -> SeatMask {
        SeatMask((0..4).filter(|&a| self.king_attacked(a)).fold(0, |m, a| m | (1 << a)))
    }

    fn static_outcome(&self) -> Option<Outcome> {
        self.over
    }

    fn no_move_outcome(&self) -> Outcome {
        // Only reached when no army in the game can move (C5).
        Outcome::draw(Termination::Stalemate)
    }

    fn ranking(&self) -> Option<Vec<SeatMask>> {
        if !FFA {
            return None;
        }
        // The armies still in share the best place; then the armies out, last out first (C8).
        let mut r = vec![SeatMask(0xF & !self.out)];
        r.extend(self.out_order[..self.n_out as usize].iter().rev().map(|&a| Seat(a).mask()));
        Some(r)
    }
}
