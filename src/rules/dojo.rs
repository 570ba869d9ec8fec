//! Dojo chess (`docs/rules/dojo.md`): chess in which captured pieces stay on their squares as
//! passive members, and belt counters promote, demote and remove pieces at the end of their
//! owner's turns.
//!
//! Squares are `rank * 8 + file`, `a1` = 0. Active pieces live in bitboards (at most one per
//! square, D3). Passive members are a bitboard of blocked squares plus one list in the order the
//! members were made passive, which gives each square's stack order (D9 appoints the member made
//! passive last). The belt counters sit in a per-square table that travels with the active piece.

use super::magic::{BISHOP_DIRS, ROOK_DIRS, SliderTables, slow_attacks};
use super::{Game, MoveList, Outcome, Seat, SeatMask, Side, Termination, VariantInfo};
use std::fmt::Write as _;
use std::sync::LazyLock;

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

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -";

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
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
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

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_move(*self))
    }
}

pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

pub fn parse_square(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

fn format_move(m: Move) -> String {
    let mut s = square_name(m.from());
    s.push_str(&square_name(m.to()));
    if let Some(t) = m.target() {
        s.push('/');
        s.push_str(&square_name(t));
    }
    if let Some(a) = m.appointee() {
        s.push('@');
        s.push_str(&square_name(a));
    }
    s
}

struct Tables {
    sliders: SliderTables,
    king: [u64; 64],
    knight: [u64; 64],
    /// Per colour: the squares a pawn on a square attacks.
    pawn_attacks: [[u64; 64]; 2],
    /// Squares strictly between two squares on a line (rank, file or diagonal), else 0.
    between: [[u64; 64]; 64],
    /// King distance, max(|dfile|, |drank|).
    distance: [[u8; 64]; 64],
    /// Squares within king distance 2.
    ring2: [u64; 64],
    /// Castling rights kept when a piece leaves or arrives on a square.
    castle_keep: [u8; 64],
    z_piece: [[[u64; 64]; 6]; 2],
    z_passive: [[[u64; 64]; 6]; 2],
    z_black: u64,
    z_castle: [u64; 16],
    z_ep: [u64; 8],
    z_counter: [[[u64; 64]; 16]; 3],
    z_treason: [[u64; 16]; 2],
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::new);

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

fn leaps(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    steps
        .iter()
        .filter(|&&(df, dr)| (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)))
        .fold(0, |b, &(df, dr)| b | 1u64 << ((r + dr) * 8 + f + df))
}

#[inline(always)]
fn pop(b: &mut u64) -> usize {
    let s = b.trailing_zeros() as usize;
    *b &= *b - 1;
    s
}

impl Tables {
    fn new() -> Tables {
        let mut t = Tables {
            sliders: SliderTables::new(8, 8),
            king: [0; 64],
            knight: [0; 64],
            pawn_attacks: [[0; 64]; 2],
            between: [[0; 64]; 64],
            distance: [[0; 64]; 64],
            ring2: [0; 64],
            castle_keep: [0xF; 64],
            z_piece: [[[0; 64]; 6]; 2],
            z_passive: [[[0; 64]; 6]; 2],
            z_black: 0,
            z_castle: [0; 16],
            z_ep: [0; 8],
            z_counter: [[[0; 64]; 16]; 3],
            z_treason: [[0; 16]; 2],
        };
        for sq in 0..64 {
            t.king[sq] = leaps(sq, &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]);
            t.knight[sq] = leaps(sq, &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
            t.pawn_attacks[WHITE][sq] = leaps(sq, &[(-1, 1), (1, 1)]);
            t.pawn_attacks[BLACK][sq] = leaps(sq, &[(-1, -1), (1, -1)]);
            for b in 0..64 {
                let (df, dr) = ((sq % 8) as i32 - (b % 8) as i32, (sq / 8) as i32 - (b / 8) as i32);
                t.distance[sq][b] = df.abs().max(dr.abs()) as u8;
                if t.distance[sq][b] <= 2 {
                    t.ring2[sq] |= 1u64 << b;
                }
            }
            for &d in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
                let ray = slow_attacks(8, 8, sq, 0, &[d]);
                let mut r = ray;
                while r != 0 {
                    let b = pop(&mut r);
                    t.between[sq][b] = ray & slow_attacks(8, 8, b, 0, &[(-d.0, -d.1)]);
                }
            }
        }
        t.castle_keep[4] = !(CASTLE_WK | CASTLE_WQ);
        t.castle_keep[7] = !CASTLE_WK;
        t.castle_keep[0] = !CASTLE_WQ;
        t.castle_keep[60] = !(CASTLE_BK | CASTLE_BQ);
        t.castle_keep[63] = !CASTLE_BK;
        t.castle_keep[56] = !CASTLE_BQ;
        let mut seed = 0x444F_4A4F_4348_4553u64; // fixed: hashes are the same on every run
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for c in 0..2 {
            for k in 0..6 {
                for sq in 0..64 {
                    t.z_piece[c][k][sq] = rnd();
                    t.z_passive[c][k][sq] = rnd();
                }
            }
        }
        t.z_black = rnd();
        for i in 1..16 {
            t.z_castle[i] = rnd();
        }
        for z in t.z_ep.iter_mut() {
            *z = rnd();
        }
        for i in 0..3 {
            // Value 0 keeps key 0: a piece whose counters are all zero adds nothing.
            for v in 1..16 {
                for sq in 0..64 {
                    t.z_counter[i][v][sq] = rnd();
                }
            }
        }
        for c in 0..2 {
            for v in 1..16 {
                t.z_treason[c][v] = rnd();
            }
        }
        t
    }
}

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
        f.write_str(&self.format())
    }
}

#[inline(always)]
fn passive_key(m: Member, depth: usize) -> u64 {
    // The stack order matters (D9), so a member's key depends on its height in the stack.
    tables().z_passive[m.color()][m.kind()][m.square()].rotate_left((depth as u32 * 9) & 63)
}

/// What a side's move list needs to know about the position before its moves.
struct Ctx {
    us: usize,
    them: usize,
    occ: u64,
    king: usize,
    checkers: u64,
    pinned: u64,
    /// Every move must be played out on a copy: in check, or a counter may fire with effects
    /// that bear on legality or need a choice (defection, treason).
    slow: bool,
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
        if self.kind[PAWN] & b != 0 {
            PAWN
        } else if self.kind[KNIGHT] & b != 0 {
            KNIGHT
        } else if self.kind[BISHOP] & b != 0 {
            BISHOP
        } else if self.kind[ROOK] & b != 0 {
            ROOK
        } else if self.kind[QUEEN] & b != 0 {
            QUEEN
        } else {
            KING
        }
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

    #[inline(always)]
    fn put(&mut self, c: usize, k: usize, sq: usize) {
        self.color[c] |= 1u64 << sq;
        self.kind[k] |= 1u64 << sq;
        self.hash ^= tables().z_piece[c][k][sq];
    }

    /// Takes an active piece off its square with its counters.
    #[inline(always)]
    fn remove(&mut self, c: usize, k: usize, sq: usize) {
        self.color[c] &= !(1u64 << sq);
        self.kind[k] &= !(1u64 << sq);
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
            | (t.sliders.bishop(sq, occ) & (k[BISHOP] | k[QUEEN]))
            | (t.sliders.rook(sq, occ) & (k[ROOK] | k[QUEEN])))
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
        let mut snipers = ((t.sliders.rook(king, 0) & (k[ROOK] | k[QUEEN]))
            | (t.sliders.bishop(king, 0) & (k[BISHOP] | k[QUEEN])))
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

    // ---- a turn ----

    /// The move itself: captures (the captured piece turns passive), castling, en passant, the
    /// double step and D6. Returns the destination of the piece that moved, if it is still on
    /// the board.
    fn apply_move(&mut self, m: Move) -> Option<usize> {
        let us = self.turn as usize;
        let them = us ^ 1;
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let k = self.kind_at(fb);
        let mut reset = k == PAWN;
        if self.color[them] & tb != 0 {
            let ck = self.kind_at(tb);
            self.make_passive(them, ck, to);
            reset = true;
        } else if k == PAWN && to as u8 == self.ep {
            // D5: the pawn passed by turns passive on its own square.
            let victim = if us == WHITE { to - 8 } else { to + 8 };
            self.make_passive(them, PAWN, victim);
        }
        self.shift(us, k, from, to);
        let mut ep = NO_SQUARE;
        if k == KING && from.abs_diff(to) == 2 {
            let (rf, rt) = if to > from { (from + 3, from + 1) } else { (from - 4, from - 1) };
            self.shift(us, ROOK, rf, rt);
        } else if k == PAWN && from.abs_diff(to) == 16 {
            // Written only when an enemy pawn stands beside the arrival square, ready to take.
            let beside = tables().pawn_attacks[us][(from + to) / 2] & self.color[them] & self.kind[PAWN];
            if beside != 0 {
                ep = ((from + to) / 2) as u8;
            }
        }
        self.set_ep(ep);
        let rights = self.castling & tables().castle_keep[from] & tables().castle_keep[to];
        self.set_castling(rights);
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        let far = if us == WHITE { 7 } else { 0 };
        if k == PAWN && to / 8 == far {
            // D6: the yellow belt leaves the game; the chosen enemy piece turns passive.
            self.remove(us, PAWN, to);
            if let Some(t) = m.target() {
                let tk = self.kind_at(1u64 << t);
                self.make_passive(them, tk, t);
            }
            return None;
        }
        Some(to)
    }

    /// D10 for the side that just moved: pieces near the enemy antisensei for 15 of their
    /// owner's moves leave the game.
    fn defection(&mut self, us: usize) {
        let t = tables();
        let ek = self.king_sq(us ^ 1);
        let mut pieces = self.color[us] & !self.kind[KING];
        while pieces != 0 {
            let sq = pop(&mut pieces);
            if t.distance[sq][ek] <= 3 {
                let v = self.counters[sq][DEFECTION] + 1;
                if v >= BELT_LIMIT {
                    let k = self.kind_at(1u64 << sq);
                    self.remove(us, k, sq);
                } else {
                    self.set_counter(sq, DEFECTION, v);
                }
            } else {
                self.set_counter(sq, DEFECTION, 0);
            }
        }
    }

    /// Whether D9 fires at the end of this turn: the deputy's square if so.
    fn treason_fires(&self, us: usize) -> Option<usize> {
        let q = self.deputy(us)?;
        (self.treason[us] + 1 >= TREASON_LIMIT && tables().distance[q][self.king_sq(us)] > 5).then_some(q)
    }

    /// D9's candidates after the deputy on `demoted` became a yellow belt: every other own
    /// active piece but the antisensei, and every square with an own passive member and no
    /// active piece.
    fn candidates(&self, us: usize, demoted: usize) -> u64 {
        let mut c = self.color[us] & !self.kind[KING] & !(1u64 << demoted);
        let mut free = self.passive & !self.active();
        while free != 0 {
            let sq = pop(&mut free);
            if self.members().any(|m| m.square() == sq && m.color() == us) {
                c |= 1u64 << sq;
            }
        }
        c
    }

    /// D9 for the side that just moved, with the appointee the move names.
    fn treason(&mut self, us: usize, appointee: Option<usize>) {
        let Some(q) = self.deputy(us) else {
            self.set_treason(us, 0);
            return;
        };
        if tables().distance[q][self.king_sq(us)] <= 5 {
            self.set_treason(us, 0);
            return;
        }
        let v = self.treason[us] + 1;
        if v < TREASON_LIMIT {
            self.set_treason(us, v);
            return;
        }
        self.set_treason(us, 0);
        self.rebelt(us, QUEEN, PAWN, q);
        if let Some(a) = appointee {
            let b = 1u64 << a;
            if self.color[us] & b != 0 {
                let k = self.kind_at(b);
                self.rebelt(us, k, QUEEN, a);
                self.set_counter(a, OBEDIENT, 0);
                self.set_counter(a, STAGNATION, 0);
            } else if let Some(k) = self.take_passive(us, a) {
                debug_assert!(k != KING);
                self.put(us, QUEEN, a);
            }
            // Appointing a rook standing on its corner ends its castling right.
            let rights = self.castling & tables().castle_keep[a];
            self.set_castling(rights);
        }
    }

    /// D7 and D8 for the side that just moved; `moved` is where its moving piece now stands.
    fn promotions(&mut self, us: usize, moved: Option<usize>) {
        let t = tables();
        let own_king = self.king_sq(us);
        let mut belts = self.color[us] & (self.kind[PAWN] | self.kind[KNIGHT] | self.kind[BISHOP]);
        while belts != 0 {
            let sq = pop(&mut belts);
            let c = self.counters[sq];
            let mut ob = if t.distance[sq][own_king] <= 2 { c[OBEDIENT] + 1 } else { 0 };
            let mut st = if moved == Some(sq) { 0 } else { c[STAGNATION] + 1 };
            let fire = ob >= BELT_LIMIT || st >= BELT_LIMIT;
            if ob >= BELT_LIMIT {
                ob = 0;
            }
            if st >= BELT_LIMIT {
                st = 0;
            }
            if fire {
                let k = self.kind_at(1u64 << sq);
                self.rebelt(us, k, k + 1, sq);
                if k + 1 == ROOK {
                    // Purple belts have no promotion counters.
                    ob = 0;
                    st = 0;
                }
            }
            self.set_counter(sq, OBEDIENT, ob);
            self.set_counter(sq, STAGNATION, st);
        }
    }

    fn finish_turn(&mut self) {
        if self.turn as usize == BLACK {
            self.fullmove += 1;
        }
        self.turn ^= 1;
        self.hash ^= tables().z_black;
    }

    // ---- move generation ----

    fn context(&self) -> Ctx {
        let us = self.turn as usize;
        let them = us ^ 1;
        let occ = self.blocked();
        let king = self.king_sq(us);
        let checkers = self.attackers(king, them, occ);
        let due_defection = self.color[us] & !self.kind[KING] & self.defection_due(us) != 0;
        let slow = checkers != 0 || due_defection || self.treason[us] + 1 >= TREASON_LIMIT;
        Ctx { us, them, occ, king, checkers, pinned: self.pinned(us, king), slow }
    }

    /// Own pieces whose defection counter fires if they stay within reach this turn.
    fn defection_due(&self, us: usize) -> u64 {
        let mut b = self.color[us] & !self.kind[KING];
        let mut due = 0;
        while b != 0 {
            let sq = pop(&mut b);
            if self.counters[sq][DEFECTION] + 1 >= BELT_LIMIT {
                due |= 1u64 << sq;
            }
        }
        due
    }

    /// The moves of the side to move, each with every choice it may carry. `tactical` keeps
    /// captures and D6 moves only, unless in check (then every move answers it).
    fn generate(&self, out: &mut MoveList<Move>, tactical: bool) {
        let t = tables();
        let cx = self.context();
        // The check test is part of the context: quiescence need not compute it twice.
        let tactical = tactical && cx.checkers == 0;
        let (us, them) = (cx.us, cx.them);
        let own = self.color[us];
        let enemy = self.color[them];
        // An empty square, or an enemy piece to capture (passive members only with it, D3).
        let targets = !own & (!cx.occ | enemy);
        let filter = if tactical { enemy } else { !0 };
        let k = &self.kind;

        let mut pieces = own & k[KNIGHT];
        while pieces != 0 {
            let from = pop(&mut pieces);
            self.emit_all(&cx, from, t.knight[from] & targets & filter, out);
        }
        let mut pieces = own & (k[BISHOP] | k[QUEEN]);
        while pieces != 0 {
            let from = pop(&mut pieces);
            self.emit_all(&cx, from, t.sliders.bishop(from, cx.occ) & targets & filter, out);
        }
        let mut pieces = own & (k[ROOK] | k[QUEEN]);
        while pieces != 0 {
            let from = pop(&mut pieces);
            self.emit_all(&cx, from, t.sliders.rook(from, cx.occ) & targets & filter, out);
        }

        // Pawns, with the double step from the own second rank and D6 on the far rank.
        let (second, far) = if us == WHITE { (1, 7) } else { (6, 0) };
        let mut pawns = own & k[PAWN];
        while pawns != 0 {
            let from = pop(&mut pawns);
            let r = from / 8;
            if r == far {
                continue; // D12: no move from the far rank
            }
            let step = if us == WHITE { from + 8 } else { from - 8 };
            let mut dest = t.pawn_attacks[us][from] & enemy;
            if cx.occ & (1u64 << step) == 0 {
                dest |= 1u64 << step;
                if r == second {
                    let two = if us == WHITE { from + 16 } else { from - 16 };
                    if cx.occ & (1u64 << two) == 0 {
                        dest |= 1u64 << two;
                    }
                }
            }
            if self.ep != NO_SQUARE && t.pawn_attacks[us][from] & (1u64 << self.ep) != 0 {
                dest |= 1u64 << self.ep;
            }
            while dest != 0 {
                let to = pop(&mut dest);
                let capture = enemy & (1u64 << to) != 0 || to as u8 == self.ep;
                if to / 8 == far {
                    self.emit_slow(&cx, Move::new(from, to), out);
                } else if tactical && !capture {
                    continue;
                } else if to as u8 == self.ep {
                    self.emit_slow(&cx, Move::new(from, to), out);
                } else {
                    self.emit(&cx, from, to, out);
                }
            }
        }

        // The antisensei: its steps, then castling.
        let from = cx.king;
        let mut dest = t.king[from] & targets & filter;
        while dest != 0 {
            let to = pop(&mut dest);
            if cx.slow {
                self.emit_slow(&cx, Move::new(from, to), out);
            } else {
                let occ = (cx.occ & !(1u64 << from)) | self.passive | (1u64 << to);
                if self.attackers(to, them, occ) == 0 {
                    out.push(Move::new(from, to));
                }
            }
        }
        if !tactical && cx.checkers == 0 {
            let rights = self.castling >> (2 * us);
            let base = if us == WHITE { 0 } else { 56 };
            // (right, rook square, squares that must be empty, squares the king crosses)
            for (bit, rook, empty, cross) in [(1u8, base + 7, [5, 6, 6], [5, 6]), (2u8, base, [1, 2, 3], [3, 2])] {
                if rights & bit == 0 || own & k[ROOK] & (1u64 << rook) == 0 {
                    continue;
                }
                if empty.iter().any(|&e| cx.occ & (1u64 << (base + e)) != 0) {
                    continue;
                }
                if cross.iter().any(|&c| self.attackers(base + c, them, cx.occ) != 0) {
                    continue;
                }
                let m = Move::new(from, base + cross[1]);
                if cx.slow {
                    self.emit_slow(&cx, m, out);
                } else {
                    out.push(m);
                }
            }
        }
    }

    #[inline(always)]
    fn emit_all(&self, cx: &Ctx, from: usize, mut dest: u64, out: &mut MoveList<Move>) {
        while dest != 0 {
            let to = pop(&mut dest);
            self.emit(cx, from, to, out);
        }
    }

    /// A plain move of a piece other than the antisensei.
    #[inline(always)]
    fn emit(&self, cx: &Ctx, from: usize, to: usize, out: &mut MoveList<Move>) {
        if cx.slow || cx.pinned & (1u64 << from) != 0 {
            self.emit_slow(cx, Move::new(from, to), out);
        } else {
            out.push(Move::new(from, to));
        }
    }

    /// Plays the move out on a copy, once per D6 choice, and keeps the versions after which
    /// the own antisensei is safe (D11), each with every D9 appointment it allows.
    fn emit_slow(&self, cx: &Ctx, base: Move, out: &mut MoveList<Move>) {
        let us = cx.us;
        let mut after = self.clone();
        // The move without a D6 target: the choices are the enemy pieces still active after it.
        let moved = after.apply_move(base);
        let d6 = self.kind[PAWN] & (1u64 << base.from()) != 0 && moved.is_none();
        let mut choices = if d6 { after.color[cx.them] & !after.kind[KING] } else { 0 };
        let mut target = None;
        loop {
            let mut p = after.clone();
            if let Some(t) = target {
                let tk = p.kind_at(1u64 << t);
                p.make_passive(cx.them, tk, t);
            }
            p.defection(us);
            if !p.king_attacked(us) {
                let m = base.with_target(target);
                match p.treason_fires(us) {
                    Some(q) => {
                        p.rebelt(us, QUEEN, PAWN, q);
                        let mut cands = p.candidates(us, q);
                        if cands == 0 {
                            out.push(m);
                        }
                        while cands != 0 {
                            out.push(m.with_appointee(pop(&mut cands)));
                        }
                    }
                    None => out.push(m),
                }
            }
            if choices == 0 {
                break;
            }
            target = Some(pop(&mut choices));
        }
    }

    // ---- hashing ----

    fn compute_hash(&self) -> u64 {
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

    // ---- text ----

    fn parse(text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 8 {
            return Err(format!(
                "position needs 8 fields (board, side, castling, en passant, halfmove clock, fullmove number, \
                 passive members, counters), got {}",
                fields.len()
            ));
        }
        let mut p = Self::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("board needs 8 ranks, got {}", ranks.len()));
        }
        for (i, rank) in ranks.iter().enumerate() {
            let r = 7 - i;
            let mut f = 0usize;
            let mut last_digit = false;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 || last_digit {
                        return Err(format!("rank {}: bad count '{}'", r + 1, c));
                    }
                    f += d as usize;
                    last_digit = true;
                } else {
                    let (col, k) = piece_letter(c).ok_or_else(|| format!("rank {}: '{}' is not a piece", r + 1, c))?;
                    if f >= 8 {
                        return Err(format!("rank {} has more than 8 squares", r + 1));
                    }
                    p.put(col, k, r * 8 + f);
                    f += 1;
                    last_digit = false;
                }
                if f > 8 {
                    return Err(format!("rank {} has more than 8 squares", r + 1));
                }
            }
            if f != 8 {
                return Err(format!("rank {} has {} squares, not 8", r + 1, f));
            }
        }
        p.turn = match fields[1] {
            "w" => WHITE as u8,
            "b" => BLACK as u8,
            s => return Err(format!("side to move '{}' is not w or b", s)),
        };
        if p.turn as usize == BLACK {
            p.hash ^= tables().z_black;
        }
        for c in 0..2 {
            let kings = (p.color[c] & p.kind[KING]).count_ones();
            if kings != 1 {
                return Err(format!("{} needs exactly one antisensei (K), has {}", COLOR_NAMES[c], kings));
            }
            if (p.color[c] & p.kind[QUEEN]).count_ones() > 1 {
                return Err(format!("{} has more than one active deputy (Q)", COLOR_NAMES[c]));
            }
        }
        // Castling: KQkq in that order, each needing the antisensei and the purple belt at home.
        let mut rights = 0u8;
        if fields[2] != "-" {
            let mut rest = fields[2];
            for (bit, ch, king, rook) in
                [(CASTLE_WK, 'K', 4, 7), (CASTLE_WQ, 'Q', 4, 0), (CASTLE_BK, 'k', 60, 63), (CASTLE_BQ, 'q', 60, 56)]
            {
                if let Some(r) = rest.strip_prefix(ch) {
                    rest = r;
                    let c = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
                    if p.piece_at(king) != Some((c, KING)) || p.piece_at(rook) != Some((c, ROOK)) {
                        return Err(format!(
                            "castling right '{}' needs the antisensei on {} and a purple belt on {}",
                            ch,
                            square_name(king),
                            square_name(rook)
                        ));
                    }
                    rights |= bit;
                }
            }
            if !rest.is_empty() || rights == 0 {
                return Err(format!("castling '{}' is not '-' or a subset of KQkq in that order", fields[2]));
            }
        }
        p.set_castling(rights);
        p.halfmove = parse_number(fields[4], "halfmove clock", 0, 100)? as u16;
        p.fullmove = parse_number(fields[5], "fullmove number", 1, 1_000_000)?;
        // Passive members, then the counters: they need the board to check against.
        if fields[6] != "-" {
            let mut prev = None;
            for entry in fields[6].split('/') {
                let (sq, letters) = square_entry(entry, "passive", &mut prev)?;
                if letters.is_empty() {
                    return Err(format!("passive entry '{}' has no members", entry));
                }
                for c in letters.chars() {
                    let (col, k) = piece_letter(c)
                        .filter(|&(_, k)| k != KING)
                        .ok_or_else(|| format!("passive entry '{}': '{}' is not a belt (P N B R Q)", entry, c))?;
                    if p.n_stack as usize >= MAX_PASSIVE {
                        return Err(format!("more than {} passive members", MAX_PASSIVE));
                    }
                    let m = Member::new(sq, col, k);
                    let depth = p.members().filter(|x| x.square() == sq).count();
                    p.hash ^= passive_key(m, depth);
                    p.stack[p.n_stack as usize] = m;
                    p.n_stack += 1;
                    p.passive |= 1u64 << sq;
                }
            }
        }
        for c in 0..2 {
            let n = p.color[c].count_ones() as usize + p.members().filter(|m| m.color() == c).count();
            if n > 16 {
                return Err(format!("{} has {} pieces, more than the 16 of the start", COLOR_NAMES[c], n));
            }
        }
        if fields[7] != "-" {
            let mut prev: Option<usize> = None;
            let mut treason_seen = 0u8;
            for entry in fields[7].split('/') {
                let tr = entry.strip_prefix('W').map(|n| (WHITE, n)).or(entry.strip_prefix('b').map(|n| (BLACK, n)));
                if let Some((c, n)) = tr {
                    // `b8:...` starts with 'b' too: a treason entry has no colon.
                    if !n.contains(':') {
                        if treason_seen >> c != 0 {
                            return Err(format!("treason entry '{}' is out of order or repeated", entry));
                        }
                        treason_seen |= 1 << c;
                        let v = parse_number(n, "treason counter", 1, TREASON_LIMIT as u32 - 1)? as u8;
                        if p.deputy(c).is_none() {
                            return Err(format!("treason counter for {} without an active deputy", COLOR_NAMES[c]));
                        }
                        p.set_treason(c, v);
                        continue;
                    }
                }
                if treason_seen != 0 {
                    return Err(format!("counter entry '{}' after a treason entry", entry));
                }
                let (sq, nums) = square_entry(entry, "counter", &mut prev)?;
                let nums: Vec<&str> = nums.split('.').collect();
                if nums.len() != 3 {
                    return Err(format!("counter entry '{}' needs three numbers", entry));
                }
                let Some((_, k)) = p.piece_at(sq) else {
                    return Err(format!("counter entry '{}': no active piece there", entry));
                };
                let mut vals = [0u8; 3];
                for i in 0..3 {
                    vals[i] = parse_number(nums[i], "counter", 0, BELT_LIMIT as u32 - 1)? as u8;
                }
                if vals == [0; 3] {
                    return Err(format!("counter entry '{}' is all zero (leave it out)", entry));
                }
                if k == KING {
                    return Err(format!("counter entry '{}': the antisensei has no counters", entry));
                }
                if k >= ROOK && (vals[OBEDIENT] != 0 || vals[STAGNATION] != 0) {
                    return Err(format!("counter entry '{}': only P, N and B have promotion counters", entry));
                }
                for (i, &v) in vals.iter().enumerate() {
                    p.set_counter(sq, i, v);
                }
            }
        }
        if fields[3] != "-" {
            let sq =
                parse_square(fields[3]).ok_or_else(|| format!("en passant square '{}' is not a square", fields[3]))?;
            let (rank, step): (usize, i32) = if p.turn as usize == WHITE { (5, -8) } else { (2, 8) };
            let pawn = (sq as i32 + step) as usize;
            let origin = (sq as i32 - step) as usize;
            let them = p.turn as usize ^ 1;
            if sq / 8 != rank
                || p.blocked() & ((1u64 << sq) | (1u64 << origin)) != 0
                || p.piece_at(pawn) != Some((them, PAWN))
            {
                return Err(format!(
                    "en passant square '{}' does not follow a double step of the side that just moved",
                    fields[3]
                ));
            }
            p.set_ep(sq as u8);
        }
        if p.king_attacked(p.turn as usize ^ 1) {
            return Err("the side not to move is in check".into());
        }
        debug_assert_eq!(p.hash, p.compute_hash());
        Ok(p)
    }

    fn format(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.piece_at(r * 8 + f) {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            let _ = write!(s, "{}", empty);
                            empty = 0;
                        }
                        s.push(letter(c, k));
                    }
                }
            }
            if empty > 0 {
                let _ = write!(s, "{}", empty);
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.turn as usize == WHITE { " w " } else { " b " });
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, ch) in [(CASTLE_WK, 'K'), (CASTLE_WQ, 'Q'), (CASTLE_BK, 'k'), (CASTLE_BQ, 'q')] {
            if self.castling & bit != 0 {
                s.push(ch);
            }
        }
        let ep = if self.ep == NO_SQUARE { "-".to_string() } else { square_name(self.ep as usize) };
        let _ = write!(s, " {} {} {} ", ep, self.halfmove, self.fullmove);
        let mut entries = Vec::new();
        let mut b = self.passive;
        while b != 0 {
            let sq = pop(&mut b);
            let letters: String = self.stack_at(sq).into_iter().map(|(c, k)| letter(c, k)).collect();
            entries.push(format!("{}:{}", square_name(sq), letters));
        }
        s.push_str(&if entries.is_empty() { "-".to_string() } else { entries.join("/") });
        s.push(' ');
        let mut entries = Vec::new();
        for sq in 0..64 {
            let c = self.counters[sq];
            if c != [0; 3] {
                entries.push(format!("{}:{}.{}.{}", square_name(sq), c[0], c[1], c[2]));
            }
        }
        for (c, l) in [(WHITE, 'W'), (BLACK, 'b')] {
            if self.treason[c] != 0 {
                entries.push(format!("{}{}", l, self.treason[c]));
            }
        }
        s.push_str(&if entries.is_empty() { "-".to_string() } else { entries.join("/") });
        s
    }

    // ---- evaluation ----

    /// One side's standing in centipawns: material, piece placement and mobility through the
    /// passive stacks, and what the counters are about to do.
    fn side_score(&self, c: usize, occ: u64) -> i32 {
        let t = tables();
        let k = &self.kind;
        let own = self.color[c];
        let enemy = self.color[c ^ 1];
        let my_king = self.king_sq(c);
        let their_king = self.king_sq(c ^ 1);
        let mut s = 0;
        let mut b = own & !k[KING];
        // The most valuable enemy piece D6 could freeze.
        let mut best_enemy = 0;
        let mut e = enemy & !k[KING];
        while e != 0 {
            best_enemy = best_enemy.max(VALUE[self.kind_at(1u64 << pop(&mut e))]);
        }
        let forward = |sq: usize| if c == WHITE { sq / 8 } else { 7 - sq / 8 };
        while b != 0 {
            let sq = pop(&mut b);
            let kind = self.kind_at(1u64 << sq);
            s += VALUE[kind];
            let centre = CENTRE[sq];
            let cnt = self.counters[sq];
            match kind {
                PAWN => {
                    let r = forward(sq);
                    s += PAWN_RANK[r];
                    let step = if c == WHITE { sq + 8 } else { sq.wrapping_sub(8) };
                    if step < 64 && self.passive & (1u64 << step) != 0 {
                        // A passive member ahead stops this pawn for good, except by capture.
                        s -= 15;
                    }
                    if r == 6 || r == 5 {
                        // D6: reaching the far rank freezes the best enemy piece.
                        let free = step < 64 && occ & (1u64 << step) == 0;
                        let takes = t.pawn_attacks[c][sq] & enemy != 0;
                        if free || takes {
                            s += (best_enemy - 100).max(0) * if r == 6 { 2 } else { 1 } / 5;
                        }
                    }
                }
                KNIGHT => s += centre * 4 + 3 * (t.knight[sq] & !own & !self.passive).count_ones() as i32,
                BISHOP => s += centre * 2 + 3 * (t.sliders.bishop(sq, occ) & !own).count_ones() as i32,
                ROOK => s += 2 * (t.sliders.rook(sq, occ) & !own).count_ones() as i32,
                QUEEN => {
                    s += centre + (t.sliders.rook(sq, occ) | t.sliders.bishop(sq, occ)).count_ones() as i32;
                }
                _ => {}
            }
            if kind <= BISHOP {
                // D7, D8: a promotion a few moves away is nearly banked.
                let m = cnt[OBEDIENT].max(cnt[STAGNATION]) as i32;
                s += (VALUE[kind + 1] - VALUE[kind]) * m * m / 300;
            }
            let d = cnt[DEFECTION] as i32;
            if d > 0 && t.distance[sq][their_king] <= 3 {
                // D10: a piece lingering by the enemy antisensei is about to leave.
                s -= VALUE[kind] * d * d / 260;
            }
        }
        // D9: treason demotes the deputy and returns the best candidate as the new one.
        let tr = self.treason[c] as i32;
        if tr > 0
            && let Some(q) = self.deputy(c)
        {
            let cands = self.candidates(c, q);
            let gain = if cands & !own != 0 {
                VALUE[QUEEN]
            } else {
                let mut best = 0;
                let mut x = cands;
                while x != 0 {
                    best = best.max(VALUE[QUEEN] - VALUE[self.kind_at(1u64 << pop(&mut x))]);
                }
                best
            };
            s += (gain - (VALUE[QUEEN] - VALUE[PAWN])) * tr * tr / 100;
        }
        // King safety: enemy pieces near the antisensei, passive members next to it shelter it.
        let zone = t.king[my_king];
        let mut near = enemy & !k[KING] & t.ring2[my_king];
        let mut danger = 0;
        while near != 0 {
            danger += VALUE[self.kind_at(1u64 << pop(&mut near))] / 40;
        }
        let mut attackers_near = 0;
        let mut z = zone;
        while z != 0 {
            let sq = pop(&mut z);
            attackers_near += self.attackers(sq, c ^ 1, occ).count_ones() as i32;
        }
        s -= danger + 8 * attackers_near;
        s
    }

    fn eval_white(&self) -> i32 {
        let occ = self.blocked();
        self.side_score(WHITE, occ) - self.side_score(BLACK, occ)
    }

    /// Counters that fire within `SOON` of their owner's moves, for `d` and `status`.
    fn soon(&self) -> [String; 3] {
        let t = tables();
        let mut out = [String::new(), String::new(), String::new()];
        let mut add = |i: usize, sq: usize, left: u8| {
            if left <= SOON {
                if !out[i].is_empty() {
                    out[i].push(',');
                }
                let _ = write!(out[i], "{}:{}", square_name(sq), left);
            }
        };
        let mut b = self.active() & !self.kind[KING];
        while b != 0 {
            let sq = pop(&mut b);
            let c = self.counters[sq];
            let (owner, _) = self.piece_at(sq).expect("active");
            let m = c[OBEDIENT].max(c[STAGNATION]);
            if m > 0 {
                add(0, sq, BELT_LIMIT - m);
            }
            if c[DEFECTION] > 0 && t.distance[sq][self.king_sq(owner ^ 1)] <= 3 {
                add(2, sq, BELT_LIMIT - c[DEFECTION]);
            }
        }
        for c in 0..2 {
            if let (Some(q), true) = (self.deputy(c), self.treason[c] > 0) {
                add(1, q, TREASON_LIMIT - self.treason[c]);
            }
        }
        out
    }
}

const COLOR_NAMES: [&str; 2] = ["white", "black"];
const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];
const PAWN_RANK: [i32; 8] = [0, 0, 5, 10, 20, 35, 60, 0];
/// How central a square is, 0 at the edge to 3 in the middle.
const CENTRE: [i32; 64] = {
    let mut c = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let df = if f < 4 { f } else { 7 - f };
        let dr = if r < 4 { r } else { 7 - r };
        c[sq] = if df < dr { df } else { dr };
        sq += 1;
    }
    c
};

fn letter(c: usize, k: usize) -> char {
    let l = LETTERS[k] as char;
    if c == WHITE { l } else { l.to_ascii_lowercase() }
}

fn piece_letter(ch: char) -> Option<(usize, usize)> {
    let k = LETTERS.iter().position(|&l| l as char == ch.to_ascii_uppercase())?;
    Some((if ch.is_ascii_uppercase() { WHITE } else { BLACK }, k))
}

/// One `<square>:<rest>` entry of the passive or counter field, which must come in square order
/// a1, b1, ..., h8 after the entry before it (`prev`).
fn square_entry<'a>(entry: &'a str, what: &str, prev: &mut Option<usize>) -> Result<(usize, &'a str), String> {
    let (sq, rest) = entry.split_once(':').ok_or_else(|| format!("{} entry '{}' is not <square>:...", what, entry))?;
    let sq = parse_square(sq).ok_or_else(|| format!("{} entry '{}': bad square", what, entry))?;
    if prev.is_some_and(|p| p >= sq) {
        return Err(format!("{} entries must be in square order a1, b1, ..., h8 ('{}')", what, entry));
    }
    *prev = Some(sq);
    Ok((sq, rest))
}

fn parse_number(s: &str, what: &str, min: u32, max: u32) -> Result<u32, String> {
    let v: u32 = s
        .parse()
        .ok()
        .filter(|_| s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0')))
        .ok_or_else(|| format!("{} '{}' is not a number", what, s))?;
    if v < min || v > max {
        return Err(format!("{} {} is out of range ({} to {})", what, v, min, max));
    }
    Ok(v)
}

impl Game for Dojo {
    type Move = Move;

    const INFO: VariantInfo = VariantInfo { name: "dojo", files: 8, ranks: 8, seat_letters: "wb" };
    const REPETITIONS: usize = 3;
    const PERPETUAL_CHECK_LOSES: bool = false;
    const MOVE_INDEX_SPACE: usize = 64 * 64;
    const NULL_MOVE: bool = true;

    fn startpos() -> Self {
        Self::parse(START).expect("start position parses")
    }

    fn from_text(text: &str) -> Result<Self, String> {
        Self::parse(text)
    }

    fn to_text(&self) -> String {
        self.format()
    }

    fn to_move(&self) -> Seat {
        self.turn
    }

    fn side_of(&self, seat: Seat) -> Side {
        seat
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        self.generate(out, false);
    }

    fn tactical_moves(&self, out: &mut MoveList<Move>) {
        self.generate(out, true);
    }

    fn play(&mut self, m: Move) {
        let us = self.turn as usize;
        let moved = self.apply_move(m);
        self.defection(us);
        self.treason(us, m.appointee());
        self.promotions(us, moved);
        // Effects can change the belt on a corner (a purple belt appointed deputy or frozen by
        // D6): castling needs the original purple belt there.
        let mut rights = self.castling;
        for (bit, king, rook) in [(CASTLE_WK, 4, 7), (CASTLE_WQ, 4, 0), (CASTLE_BK, 60, 63), (CASTLE_BQ, 60, 56)] {
            let c = if bit <= CASTLE_WQ { WHITE } else { BLACK };
            if rights & bit != 0
                && (self.color[c] & self.kind[ROOK] & (1u64 << rook) == 0
                    || self.color[c] & self.kind[KING] & (1u64 << king) == 0)
            {
                rights &= !bit;
            }
        }
        self.set_castling(rights);
        self.finish_turn();
    }

    fn play_null(&mut self) {
        self.set_ep(NO_SQUARE);
        self.finish_turn();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn in_check(&self) -> bool {
        self.king_attacked(self.turn as usize)
    }

    fn checked_seats(&self) -> SeatMask {
        (0..2).filter(|&c| self.king_attacked(c)).fold(0, |m, c| m | (1 << c))
    }

    fn static_outcome(&self) -> Option<Outcome> {
        if self.halfmove < 100 {
            return None;
        }
        // D1: 100 plies without a capture or a yellow-belt move draw, unless that last move mated.
        if self.in_check() {
            let mut list = MoveList::new();
            self.generate(&mut list, false);
            if list.is_empty() {
                return None;
            }
        }
        Some(Outcome::draw(Termination::MoveLimit))
    }

    fn no_move_outcome(&self) -> Outcome {
        if self.in_check() {
            Outcome::win(1 << (self.turn ^ 1), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::Stalemate)
        }
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn evaluate(&self, side: Side) -> i32 {
        let e = self.eval_white();
        if side as usize == WHITE { e } else { -e }
    }

    fn tactical_value(&self, m: Move) -> Option<i32> {
        let tb = 1u64 << m.to();
        let mover = self.kind_at(1u64 << m.from());
        let mut v = None;
        if self.active() & tb != 0 {
            v = Some(VALUE[self.kind_at(tb)] * 8 - VALUE[mover] / 16 + 100);
        } else if mover == PAWN && m.to() as u8 == self.ep {
            v = Some(VALUE[PAWN] * 8 + 100);
        }
        if mover == PAWN && (m.to() / 8 == 7 || m.to() / 8 == 0) && m.to() / 8 != m.from() / 8 {
            let frozen = m.target().map(|t| VALUE[self.kind_at(1u64 << t)]).unwrap_or(0);
            v = Some(v.unwrap_or(0) + frozen * 8 - 50);
        }
        v
    }

    #[inline(always)]
    fn move_index(m: Move) -> usize {
        m.from() * 64 + m.to()
    }

    fn picture(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            s.push_str("  +---+---+---+---+---+---+---+---+\n");
            let _ = write!(s, "{} ", r + 1);
            for f in 0..8 {
                let sq = r * 8 + f;
                s.push('|');
                s.push(match self.piece_at(sq) {
                    None => ' ',
                    Some((c, k)) => letter(c, k),
                });
                let n = self.members().filter(|m| m.square() == sq).count();
                if n == 0 {
                    s.push_str("  ");
                } else {
                    let _ = write!(s, "*{}", n.min(9));
                }
            }
            s.push_str("|\n");
        }
        s.push_str("  +---+---+---+---+---+---+---+---+\n");
        s.push_str("    a   b   c   d   e   f   g   h\n");
        s.push_str("  (*n: passive members on the square)\n");
        s
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let [p, t, d] = self.soon();
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        vec![
            ("promotion", dash(p)),
            ("treason", dash(t)),
            ("defection", dash(d)),
            ("halfmove", self.halfmove.to_string()),
        ]
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let p = Dojo::startpos();
        assert_eq!(p.to_text(), START);
        assert_eq!(p.hash, p.compute_hash());
    }

    #[test]
    fn between_covers_diagonals() {
        let t = tables();
        assert_eq!(t.between[0][63].count_ones(), 6);
        assert_eq!(t.between[4][60].count_ones(), 6);
        assert_eq!(t.between[0][10], 0);
    }
}
