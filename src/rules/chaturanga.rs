//! Four-handed Chaturanga in its two forms (`docs/rules/chaturanga.md`): `Double Mate` (yellow
//! and red against black and green; kings are mated, never captured) and `all against all`
//! (kings are captured, an army without its king is out and its pieces stay as inert obstacles).
//!
//! Squares are `rank * 8 + file`, `a1` = 0. Armies are seats in turn order: yellow 0, black 1,
//! red 2, green 3, so in Double Mate an army's side is its seat's parity. Sets of squares are
//! `u64` bitboards; the only slider is the rook, so pins run along ranks and files only.

use super::magic::{ROOK_DIRS, SliderTables, slow_attacks};
use super::{Game, MoveList, Outcome, Seat, SeatMask, Side, Termination, VariantInfo};
use std::fmt::Write as _;
use std::sync::LazyLock;

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

pub const START: &str = "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1";

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
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
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

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_move(*self))
    }
}

pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

fn format_move(m: Move) -> String {
    if m == PASS {
        return "pass".into();
    }
    let mut s = square_name(m.from());
    s.push_str(&square_name(m.to()));
    if let Some(k) = m.promotion() {
        s.push(KIND_LETTERS[k].to_ascii_lowercase() as char);
    }
    s
}

pub struct Tables {
    sliders: SliderTables,
    king: [u64; 64],
    knight: [u64; 64],
    ship: [u64; 64],
    rook_empty: [u64; 64],
    /// Per army: the square a pawn steps to (or none), the squares it attacks, and the squares
    /// from which one of its pawns attacks a given square.
    pawn_push: [[u64; 64]; 4],
    pawn_attacks: [[u64; 64]; 4],
    pawn_from: [[u64; 64]; 4],
    /// The edge each army's pawns promote on.
    last: [u64; 4],
    /// Squares strictly between two squares of one rank or file.
    between: [[u64; 64]; 64],
    /// The 2x2 blocks that contain a square (0 where the block would leave the board).
    blocks: [[u64; 4]; 64],
    z_piece: [[[u64; 64]; 5]; 4],
    z_turn: [u64; 4],
    z_out: [u64; 4],
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::new);

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

/// Forward, as (file, rank) steps, for yellow, black, red and green.
const FORWARD: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

fn leaps(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    steps
        .iter()
        .filter(|&&(df, dr)| (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)))
        .fold(0, |b, &(df, dr)| b | 1u64 << ((r + dr) * 8 + f + df))
}

impl Tables {
    fn new() -> Tables {
        let mut t = Tables {
            sliders: SliderTables::new(8, 8),
            king: [0; 64],
            knight: [0; 64],
            ship: [0; 64],
            rook_empty: [0; 64],
            pawn_push: [[0; 64]; 4],
            pawn_attacks: [[0; 64]; 4],
            pawn_from: [[0; 64]; 4],
            last: [0; 4],
            between: [[0; 64]; 64],
            blocks: [[0; 4]; 64],
            z_piece: [[[0; 64]; 5]; 4],
            z_turn: [0; 4],
            z_out: [0; 4],
        };
        for sq in 0..64 {
            t.king[sq] = leaps(sq, &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]);
            t.knight[sq] = leaps(sq, &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
            t.ship[sq] = leaps(sq, &[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
            t.rook_empty[sq] = slow_attacks(8, 8, sq, 0, &ROOK_DIRS);
            for a in 0..4 {
                let (df, dr) = FORWARD[a];
                t.pawn_push[a][sq] = leaps(sq, &[(df, dr)]);
                // Diagonally forward: the two squares beside the step, across the direction.
                t.pawn_attacks[a][sq] = leaps(sq, &[(df + dr, dr + df), (df - dr, dr - df)]);
            }
            let (f, r) = (sq % 8, sq / 8);
            for (i, (df, dr)) in [(0, 0), (-1, 0), (0, -1), (-1, -1)].into_iter().enumerate() {
                let (x, y) = (f as i32 + df, r as i32 + dr);
                if (0..7).contains(&x) && (0..7).contains(&y) {
                    let c = (y * 8 + x) as usize;
                    t.blocks[sq][i] = (1u64 << c) | (1u64 << (c + 1)) | (1u64 << (c + 8)) | (1u64 << (c + 9));
                }
            }
        }
        for a in 0..4 {
            for from in 0..64 {
                let mut b = t.pawn_attacks[a][from];
                while b != 0 {
                    let to = pop(&mut b);
                    t.pawn_from[a][to] |= 1u64 << from;
                }
            }
        }
        t.last = [0xFF00_0000_0000_0000, 0x8080_8080_8080_8080, 0xFF, 0x0101_0101_0101_0101];
        for a in 0..64 {
            for &d in ROOK_DIRS.iter() {
                let ray = slow_attacks(8, 8, a, 0, &[d]);
                let mut r = ray;
                while r != 0 {
                    let b = pop(&mut r);
                    t.between[a][b] = ray & slow_attacks(8, 8, b, 0, &[(-d.0, -d.1)]);
                }
            }
        }
        let mut seed = 0x4348_4154_5552_4147u64; // fixed: hashes are the same on every run
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for army in t.z_piece.iter_mut() {
            for kind in army.iter_mut() {
                for k in kind.iter_mut() {
                    *k = rnd();
                }
            }
        }
        for k in t.z_turn.iter_mut().chain(t.z_out.iter_mut()) {
            *k = rnd();
        }
        t
    }
}

#[inline(always)]
fn pop(b: &mut u64) -> usize {
    let s = b.trailing_zeros() as usize;
    *b &= *b - 1;
    s
}

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
    number: u32,
    hash: u64,
    over: Option<Outcome>,
}

impl<const FFA: bool> std::fmt::Debug for Chaturanga<FFA> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format())
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
        if self.kind[PAWN] & b != 0 {
            PAWN
        } else if self.kind[SHIP] & b != 0 {
            SHIP
        } else if self.kind[KNIGHT] & b != 0 {
            KNIGHT
        } else if self.kind[ROOK] & b != 0 {
            ROOK
        } else {
            KING
        }
    }

    #[inline(always)]
    fn army_at(&self, b: u64) -> usize {
        (0..3).find(|&a| self.army[a] & b != 0).unwrap_or(3)
    }

    #[inline(always)]
    fn put(&mut self, a: usize, k: usize, sq: usize) {
        self.army[a] |= 1u64 << sq;
        self.kind[k] |= 1u64 << sq;
        self.hash ^= tables().z_piece[a][k][sq];
    }

    #[inline(always)]
    fn remove(&mut self, a: usize, k: usize, sq: usize) {
        self.army[a] &= !(1u64 << sq);
        self.kind[k] &= !(1u64 << sq);
        self.hash ^= tables().z_piece[a][k][sq];
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
            | (t.sliders.rook(sq, occ) & k[ROOK]))
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

    /// Moves the pieces for army `a`'s move `m` (not a pass). Returns whether it captured or
    /// moved a pawn (C5's counter).
    fn apply(&mut self, a: usize, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let k = self.kind_at(fb);
        let mut reset = k == PAWN;
        if self.occupied() & tb != 0 {
            let (c, ck) = (self.army_at(tb), self.kind_at(tb));
            self.remove(c, ck, to);
            reset = true;
            if FFA && ck == KING {
                self.go_out(c);
            }
        }
        self.remove(a, k, from);
        self.put(a, m.promotion().unwrap_or(k), to);
        if k == SHIP {
            let mut block = self.concourse(from, to);
            while block != 0 {
                let sq = pop(&mut block);
                let o = self.army_at(1u64 << sq);
                if o == a {
                    continue;
                }
                self.remove(o, SHIP, sq);
                if !FFA && o == (a ^ 2) {
                    // C6: the partner's ships join the mover's army.
                    self.put(a, SHIP, sq);
                } else {
                    reset = true;
                }
            }
        }
        reset
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

    /// Army `a`'s legal moves, as if it were its turn, without the pass. `tactical` keeps
    /// only captures and promotions.
    fn generate(&self, a: usize, out: &mut MoveList<Move>, tactical: bool) {
        let t = tables();
        let occ = self.occupied();
        let own = self.army[a];
        if own & self.kind[KING] == 0 {
            return; // out (all against all): its pieces are inert
        }
        let enemies = self.enemies(a);
        // What may be taken: in Double Mate an enemy piece other than a king (C1); in all against
        // all anything not one's own, kings and inert pieces included (C7).
        let capturable = if FFA { occ & !own } else { self.armies_bb(enemies) & !self.kind[KING] };
        let targets = if tactical { capturable } else { capturable | !occ };
        let ksq = (own & self.kind[KING]).trailing_zeros() as usize;

        // Double Mate: moves that might uncover the king are tried on a copy; all others are
        // legal at once. Only rooks slide, so only rank and file pins exist.
        let (checked, pinned) = if FFA {
            (false, 0)
        } else {
            let checkers = self.attackers(ksq, enemies, occ);
            let mut pinned = 0;
            let mut snipers = t.rook_empty[ksq] & self.kind[ROOK] & self.armies_bb(enemies);
            while snipers != 0 {
                let s = pop(&mut snipers);
                let b = t.between[ksq][s] & occ;
                if b & (b.wrapping_sub(1)) == 0 && b & own != 0 {
                    pinned |= b;
                }
            }
            (checkers != 0, pinned)
        };

        let mut push = |me: &Self, from: usize, to: usize, promo: u16, ship: bool| {
            let m = Move::new(from, to, promo);
            if FFA
                || !(checked || pinned & (1u64 << from) != 0 || (ship && me.concourse(from, to) != 0))
                || me.safe_after(a, m)
            {
                out.push(m);
            }
        };

        let mut pieces = own & !self.kind[KING];
        while pieces != 0 {
            let from = pop(&mut pieces);
            let fb = 1u64 << from;
            if self.kind[PAWN] & fb != 0 {
                let mut to_bb = (t.pawn_push[a][from] & !occ) | (t.pawn_attacks[a][from] & capturable);
                if tactical {
                    to_bb &= capturable | t.last[a];
                }
                while to_bb != 0 {
                    let to = pop(&mut to_bb);
                    if t.last[a] & (1u64 << to) != 0 {
                        for p in 1..=3 {
                            push(self, from, to, p, false);
                        }
                    } else {
                        push(self, from, to, 0, false);
                    }
                }
                continue;
            }
            let (att, ship) = if self.kind[KNIGHT] & fb != 0 {
                (t.knight[from], false)
            } else if self.kind[SHIP] & fb != 0 {
                (t.ship[from], true)
            } else {
                (t.sliders.rook(from, occ), false)
            };
            let mut to_bb = att & targets;
            while to_bb != 0 {
                push(self, from, pop(&mut to_bb), 0, ship);
            }
        }

        let mut to_bb = t.king[ksq] & targets;
        while to_bb != 0 {
            let to = pop(&mut to_bb);
            if FFA || self.attackers(to, enemies, occ ^ (1u64 << ksq)) == 0 {
                out.push(Move::new(ksq, to, 0));
            }
        }
    }

    /// Static exchange on `m`'s square: whether the army to move keeps at least `threshold`
    /// when every piece that attacks the square takes in turn, least valuable first. The
    /// mover's side is its own army (and its partner's in Double Mate); the other side is every
    /// army that attacks it, as one: in all against all the first of them to move takes, and the
    /// rest are as glad to take again. A king takes last, and only when nothing guards the
    /// square. Pieces of an army that is out are worth nothing to take (C7).
    fn see(&self, m: Move, threshold: i32) -> bool {
        if m == PASS {
            return threshold <= 0;
        }
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let mover = self.kind_at(fb);
        if mover == SHIP && self.concourse(from, to) != 0 {
            // The concourse wins or converts ships away from the square: no exchange on one
            // square describes it.
            return true;
        }
        let mut occ = self.occupied();
        let victim =
            if occ & tb != 0 && self.out & (1 << self.army_at(tb)) == 0 { VICTIM[self.kind_at(tb)] } else { 0 };
        let placed = m.promotion().unwrap_or(mover);
        let mut swap = victim + VICTIM[placed] - VICTIM[mover] - threshold;
        if swap < 0 {
            return false;
        }
        swap = VICTIM[placed] - swap;
        if swap <= 0 {
            return true;
        }
        let a = self.turn as usize;
        let friends = if FFA { 1u8 << a } else { (1u8 << a) | (1u8 << (a ^ 2)) };
        let foes = self.enemies(a);
        let (friend_bb, foe_bb) = (self.armies_bb(friends), self.armies_bb(foes));
        let rooks = self.kind[ROOK] & (friend_bb | foe_bb);
        occ = (occ & !fb) | tb;
        let mut attackers = self.attackers(to, friends | foes, occ);
        let mut foe_turn = true;
        let mut res = true;
        'exchange: loop {
            attackers &= occ;
            let (side, other) = if foe_turn { (foe_bb, friend_bb) } else { (friend_bb, foe_bb) };
            let takers = attackers & side;
            if takers == 0 {
                break;
            }
            res = !res;
            for k in [PAWN, SHIP, KNIGHT, ROOK] {
                let bb = takers & self.kind[k];
                if bb != 0 {
                    swap = VICTIM[k] - swap;
                    if swap < res as i32 {
                        break 'exchange;
                    }
                    occ ^= bb & bb.wrapping_neg();
                    // Only rooks slide, so only a rook can stand behind the piece just gone.
                    attackers |= tables().sliders.rook(to, occ) & rooks;
                    foe_turn = !foe_turn;
                    continue 'exchange;
                }
            }
            // Only the king is left to take.
            return if attackers & other != 0 { !res } else { res };
        }
        res
    }

    /// Double Mate: whether army `a`'s king is safe after `a` plays `m` (C1).
    fn safe_after(&self, a: usize, m: Move) -> bool {
        let mut c = self.clone();
        c.apply(a, m);
        !c.king_attacked(a)
    }

    fn has_legal_move(&self, a: usize) -> bool {
        let mut list = MoveList::new();
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
                return Some(Outcome::win(left, Termination::KingCapture));
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
                return Some(Outcome::win(winners, reason));
            }
        }
        if self.quiet >= QUIET_LIMIT {
            return Some(Outcome::draw(Termination::MoveLimit));
        }
        None
    }

    fn compute_hash(&self) -> u64 {
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

    fn parse(text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(format!(
                "position needs 5 fields (board, army to move, armies out, quiet turns, turn number), got {}",
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
            let mut chars = rank.chars();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(format!("rank {}: bad count '{}'", r + 1, c));
                    }
                    f += d as usize;
                } else {
                    let a = ARMY_LETTERS
                        .iter()
                        .position(|&l| l as char == c)
                        .ok_or_else(|| format!("rank {}: '{}' is not an army (y b r g)", r + 1, c))?;
                    let kc = chars.next().ok_or_else(|| format!("rank {}: army '{}' without a piece", r + 1, c))?;
                    let k = KIND_LETTERS
                        .iter()
                        .position(|&l| l as char == kc)
                        .ok_or_else(|| format!("rank {}: '{}' is not a piece (K R N S P)", r + 1, kc))?;
                    if f >= 8 {
                        return Err(format!("rank {} has more than 8 squares", r + 1));
                    }
                    p.put(a, k, r * 8 + f);
                    f += 1;
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
            "y" => YELLOW,
            "b" => BLACK,
            "r" => RED,
            "g" => GREEN,
            s => return Err(format!("army to move '{}' is not y, b, r or g", s)),
        };
        if fields[2] != "-" {
            if !FFA {
                return Err("armies out: only all against all has them; Double Mate needs '-'".into());
            }
            for c in fields[2].chars() {
                let a = ARMY_LETTERS
                    .iter()
                    .position(|&l| l as char == c)
                    .ok_or_else(|| format!("armies out: '{}' is not an army", c))?;
                if p.out & (1 << a) != 0 {
                    return Err(format!("armies out: '{}' twice", c));
                }
                p.go_out(a);
            }
        }
        for a in 0..4 {
            let kings = (p.army[a] & p.kind[KING]).count_ones();
            let l = ARMY_LETTERS[a] as char;
            if p.out & (1 << a) != 0 {
                if kings != 0 {
                    return Err(format!("army {} is out but has a king", l));
                }
            } else if kings != 1 {
                return Err(format!("army {} needs exactly one king, has {}", l, kings));
            }
            if p.army[a] & p.kind[PAWN] & tables().last[a] != 0 {
                return Err(format!("army {} has a pawn on its promotion edge", l));
            }
        }
        if p.out & (1 << p.turn) != 0 {
            return Err("the army to move is out".into());
        }
        if p.out.count_ones() > 3 {
            return Err("at least one army must be in".into());
        }
        p.quiet = fields[3].parse().map_err(|_| format!("quiet turns '{}' is not a number", fields[3]))?;
        if p.quiet > QUIET_LIMIT {
            return Err(format!("quiet turns {} is above the limit {}", p.quiet, QUIET_LIMIT));
        }
        p.number = fields[4].parse().map_err(|_| format!("turn number '{}' is not a number", fields[4]))?;
        if p.number == 0 || p.number > 1_000_000 {
            return Err(format!("turn number {} is out of range (1 to 1000000)", p.number));
        }
        p.hash ^= tables().z_turn[p.turn as usize];
        p.over = p.compute_over();
        Ok(p)
    }

    fn format(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.piece_at(r * 8 + f) {
                    None => empty += 1,
                    Some((a, k)) => {
                        if empty > 0 {
                            let _ = write!(s, "{}", empty);
                            empty = 0;
                        }
                        s.push(ARMY_LETTERS[a as usize] as char);
                        s.push(KIND_LETTERS[k] as char);
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
        let out: String =
            self.out_order[..self.n_out as usize].iter().map(|&a| ARMY_LETTERS[a as usize] as char).collect();
        let _ = write!(
            s,
            " {} {} {} {}",
            ARMY_LETTERS[self.turn as usize] as char,
            if out.is_empty() { "-" } else { &out },
            self.quiet,
            self.number
        );
        s
    }

    // ---- evaluation ----

    /// One army's standing in centipawns: material, pawns near promotion, king safety against
    /// the armies that attack it, and the mate states that C3 and C4 make decisive.
    /// Returns the score, the material, and how hunted the army's king is when the army is short
    /// of material (0 otherwise).
    fn army_score(&self, a: usize, occ: u64) -> (i32, i32, i32) {
        const VALUE: [i32; 5] = [0, 500, 320, 190, 100];
        // Steps a pawn has left to its edge: the last steps are worth most.
        const PAWN_ADVANCE: [i32; 8] = [0, 90, 45, 25, 12, 5, 0, 0];
        let t = tables();
        let own = self.army[a];
        let mut s = 0;
        for (k, v) in VALUE.iter().enumerate().skip(1) {
            s += v * (own & self.kind[k]).count_ones() as i32;
        }
        let material = s;
        let mut pawns = own & self.kind[PAWN];
        while pawns != 0 {
            let sq = pop(&mut pawns);
            let (f, r) = (sq % 8, sq / 8);
            let left = match a {
                0 => 7 - r,
                1 => 7 - f,
                2 => r,
                _ => f,
            };
            s += PAWN_ADVANCE[left];
        }
        // Mobility of the pieces that go far: rooks and knights.
        let mut rooks = own & self.kind[ROOK];
        while rooks != 0 {
            s += 3 * (t.sliders.rook(pop(&mut rooks), occ) & !own).count_ones() as i32;
        }
        let mut knights = own & self.kind[KNIGHT];
        while knights != 0 {
            s += 3 * (t.knight[pop(&mut knights)] & !own).count_ones() as i32;
        }
        let Some(ksq) = self.king_square(a) else { return (s, material, 0) };
        if !FFA && own == 1u64 << ksq {
            // A lone king counts as beaten (C4).
            return (s - 400, material, 0);
        }
        let enemies = self.enemies(a);
        let zone = t.king[ksq];
        let mut attacked = 0;
        let mut escapes = 0;
        let mut z = zone;
        while z != 0 {
            let sq = pop(&mut z);
            let hit = self.attackers(sq, enemies, occ ^ (1u64 << ksq)) != 0;
            attacked += hit as i32;
            escapes += (!hit && own & (1u64 << sq) == 0) as i32;
        }
        s -= 12 * attacked;
        let checkers = self.attackers(ksq, enemies, occ);
        if FFA && checkers != 0 {
            // All against all: an attacked king is taken by the first attacker to move before
            // its own army does; only an army to move before all of them can still run.
            let after = |x: usize| (x + 4 - self.turn as usize) % 4;
            let doomed = (0..4).any(|b| checkers & self.army[b] != 0 && after(b) < after(a));
            s -= if doomed { 1500 } else { 60 + 30 * (3 - escapes).max(0) };
        } else if checkers != 0 {
            // In check: the fewer escapes, the nearer a mate.
            s -= 40 + 30 * (3 - escapes).max(0);
            if escapes == 0 && !FFA && !self.has_legal_move(a) {
                // Mated: the army cannot move until freed (C3), and two such armies lose (C4).
                s -= 350;
            }
        } else if escapes == 0 {
            s -= 25;
        }
        // A king that has left its home edge while enemy pieces remain is a target for every
        // one of them.
        let (f, r) = (ksq % 8, ksq / 8);
        let home = [r, f, 7 - r, 7 - f][a] as i32;
        let hunters = (self.armies_bb(enemies) & (self.kind[ROOK] | self.kind[KNIGHT] | self.kind[SHIP])).count_ones();
        s -= home * hunters.min(8) as i32 * 3;
        let mut hunted = 0;
        if material < 400 {
            // An army short of material is hunted down: the less room its king has and the
            // nearer it is to a corner, the sooner it falls (all against all: captured; Double
            // Mate: mated).
            let edge = (f.min(7 - f)).min(r.min(7 - r)) as i32;
            hunted = 12 * (8 - escapes) + 20 * (3 - edge);
            s -= hunted;
        }
        (s, material, hunted)
    }

    /// The smallest rectangle one of army `a`'s rooks confines the king on `k` to: the squares
    /// on the king's side of the rook's file times those on its side of the rook's rank. A rook
    /// on the king's line confines nothing (64).
    fn rook_box(&self, a: usize, k: usize) -> i32 {
        let side = |r: usize, x: usize| match x.cmp(&r) {
            std::cmp::Ordering::Less => r as i32,
            std::cmp::Ordering::Greater => 7 - r as i32,
            std::cmp::Ordering::Equal => 8,
        };
        let mut best = 64;
        let mut rooks = self.army[a] & self.kind[ROOK];
        while rooks != 0 {
            let r = pop(&mut rooks);
            best = best.min(side(r % 8, k % 8) * side(r / 8, k / 8));
        }
        best
    }

    fn eval_for(&self, side: Side) -> i32 {
        let occ = self.occupied();
        let mut scores = [(0i32, 0i32, 0i32); 4];
        for (a, sc) in scores.iter_mut().enumerate() {
            if self.out & (1 << a) == 0 {
                *sc = self.army_score(a, occ);
            }
        }
        if FFA {
            // The others weigh as one average opponent; one's own material counts double, since
            // the last army with pieces left is the one that can still take kings. An army out
            // counts as nothing in that average, and every army out brings the last-king win
            // nearer: knocking out a weak army must never look like a loss.
            let me = side as usize;
            let others: i32 = (0..4).filter(|&a| a != me).map(|a| scores[a].0).sum();
            let leader =
                (0..4).filter(|&a| a != me && self.out & (1 << a) == 0).map(|a| scores[a].0).max().unwrap_or(0);
            let gone = (self.out & !(1 << me)).count_ones() as i32;
            let mut v = scores[me].0 * 2 - (others / 3 + leader) / 2 + OUT_BONUS * gone;
            if scores[me].1 >= 190
                && let Some(mine) = self.king_square(me)
            {
                // With a piece or more against kings that have less, hunt them down one at a
                // time, the nearest first: drive it to the edge, take its squares away, box it
                // in with a rook and bring the king up (a king that must move into attack is
                // taken, so even stalemate wins here). Chasing all of them at once pulls the
                // pieces every way and gets none.
                let target = (0..4)
                    .filter(|&o| o != me && self.out & (1 << o) == 0 && scores[o].2 > 0 && scores[o].1 < scores[me].1)
                    .filter_map(|o| self.king_square(o).map(|k| (o, k)))
                    .min_by_key(|&(o, k)| (distance(mine, k), -scores[o].2));
                if let Some((o, theirs)) = target {
                    v += 2 * scores[o].2 + 12 * (7 - distance(mine, theirs)) + 2 * (64 - self.rook_box(me, theirs));
                }
            }
            v
        } else {
            let a = side as usize & 1;
            let mine = scores[a].0 + scores[a + 2].0;
            let theirs = scores[a ^ 1].0 + scores[(a ^ 1) + 2].0;
            mine - theirs
        }
    }
}

fn distance(a: usize, b: usize) -> i32 {
    ((a % 8).abs_diff(b % 8)).max((a / 8).abs_diff(b / 8)) as i32
}

/// What taking each kind is worth, for move ordering and exchanges (a king: all against all).
const VICTIM: [i32; 5] = [2000, 500, 320, 190, 100];
/// All against all: what each opponent out is worth to the armies still in.
const OUT_BONUS: i32 = 300;

impl<const FFA: bool> Game for Chaturanga<FFA> {
    type Move = Move;

    const INFO: VariantInfo = VariantInfo {
        name: if FFA { "chaturanga-ffa" } else { "chaturanga" },
        files: 8,
        ranks: 8,
        seat_letters: "ybrg",
    };
    const REPETITIONS: usize = 3;
    const PERPETUAL_CHECK_LOSES: bool = false;
    const MOVE_INDEX_SPACE: usize = 64 * 64 + 1;
    const NULL_MOVE: bool = !FFA;

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
        if FFA { seat } else { seat & 1 }
    }

    fn side_lost(&self, side: Side) -> bool {
        FFA && self.out & (1 << side) != 0
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
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

    fn tactical_moves(&self, out: &mut MoveList<Move>) {
        if self.over.is_some() {
            return;
        }
        if self.in_check() {
            self.legal_moves(out);
        } else {
            self.generate(self.turn as usize, out, true);
        }
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m, threshold)
    }

    fn play(&mut self, m: Move) {
        let a = self.turn as usize;
        let reset = m != PASS && self.apply(a, m);
        self.quiet = if reset { 0 } else { self.quiet + 1 };
        self.number += 1;
        let next = self.next_turn(self.turn);
        self.hash ^= tables().z_turn[self.turn as usize] ^ tables().z_turn[next as usize];
        self.turn = next;
        self.over = self.compute_over();
    }

    fn with_turn(&self, seat: Seat) -> Option<Self> {
        // Only all against all: there a skipped turn is an army that waits. In Double Mate the
        // sides alternate and plain alpha-beta applies.
        if !FFA || self.over.is_some() || self.out & (1 << seat) != 0 || seat > 3 {
            return None;
        }
        let mut p = self.clone();
        p.hash ^= tables().z_turn[p.turn as usize] ^ tables().z_turn[seat as usize];
        p.turn = seat;
        Some(p)
    }

    fn play_null(&mut self) {
        let next = self.next_turn(self.turn);
        self.hash ^= tables().z_turn[self.turn as usize] ^ tables().z_turn[next as usize];
        self.turn = next;
        self.number += 1;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn in_check(&self) -> bool {
        // All against all has no check to answer (C7): a king in danger is a capture away, and
        // quiescence sees captures. `checked_seats` still shows attacked kings.
        !FFA && self.king_attacked(self.turn as usize)
    }

    fn checked_seats(&self) -> SeatMask {
        (0..4).filter(|&a| self.king_attacked(a)).fold(0, |m, a| m | (1 << a))
    }

    fn static_outcome(&self) -> Option<Outcome> {
        self.over
    }

    fn no_move_outcome(&self) -> Outcome {
        // Only reached when no army in the game can move (C5).
        Outcome::draw(Termination::Stalemate)
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn evaluate(&self, side: Side) -> i32 {
        self.eval_for(side)
    }

    fn tactical_value(&self, m: Move) -> Option<i32> {
        if m == PASS {
            return None;
        }
        let tb = 1u64 << m.to();
        let mover = self.kind_at(1u64 << m.from());
        let mut v = None;
        if self.occupied() & tb != 0 {
            v = Some(VICTIM[self.kind_at(tb)] * 8 - VICTIM[mover] / 16 + 100);
        }
        if let Some(k) = m.promotion() {
            v = Some(v.unwrap_or(0) + VICTIM[k] - 100);
        }
        if mover == SHIP && self.concourse(m.from(), m.to()) != 0 {
            v = Some(v.unwrap_or(0) + 400);
        }
        v
    }

    #[inline(always)]
    fn move_index(m: Move) -> usize {
        if m == PASS { 64 * 64 } else { m.from() * 64 + m.to() }
    }

    fn picture(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            s.push_str("  +--+--+--+--+--+--+--+--+\n");
            let _ = write!(s, "{} ", r + 1);
            for f in 0..8 {
                s.push('|');
                match self.piece_at(r * 8 + f) {
                    None => s.push_str("  "),
                    Some((a, k)) => {
                        s.push(ARMY_LETTERS[a as usize] as char);
                        s.push(KIND_LETTERS[k] as char);
                    }
                }
            }
            s.push_str("|\n");
        }
        s.push_str("  +--+--+--+--+--+--+--+--+\n");
        s.push_str("   a  b  c  d  e  f  g  h\n");
        s
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let mut mated = String::new();
        let mut lone = String::new();
        for a in 0..4 {
            match self.army_state(a) {
                ArmyState::Mated => mated.push(ARMY_LETTERS[a] as char),
                ArmyState::LoneKing => lone.push(ARMY_LETTERS[a] as char),
                _ => {}
            }
        }
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        let mut notes = Vec::new();
        if !FFA {
            notes.push(("mated", dash(mated)));
            notes.push(("lone", dash(lone)));
        } else {
            let out: String =
                self.out_order[..self.n_out as usize].iter().map(|&a| ARMY_LETTERS[a as usize] as char).collect();
            notes.push(("out", dash(out)));
        }
        notes.push(("quiet", self.quiet.to_string()));
        notes
    }

    fn ranking(&self) -> Option<Vec<SeatMask>> {
        if !FFA {
            return None;
        }
        // The armies still in share the best place; then the armies out, last out first (C8).
        let mut r = vec![0xF & !self.out];
        r.extend(self.out_order[..self.n_out as usize].iter().rev().map(|&a| 1u8 << a));
        Some(r)
    }

    fn move_number(&self) -> u32 {
        self.number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exchange on a5 after yellow's rook takes black's knight there, with a green pawn on
    /// b4 guarding it and, on a8, a red rook: yellow's partner in Double Mate, one more enemy in
    /// all against all.
    #[test]
    fn static_exchange_counts_partners_and_enemies() {
        fn see<const FFA: bool>(text: &str, mv: &str, threshold: i32) -> bool {
            let pos = Chaturanga::<FFA>::parse(text).unwrap();
            let m = pos.parse_move(mv).unwrap();
            pos.see_ge(m, threshold)
        }
        // Knight 320, rook 500 lost to the pawn, the pawn 100 back to the rook behind: -80.
        let xray = "4rK3/8/8/bN6bK/1gP6/8/yR7/yR2yK3gK y - 0 1";
        for ffa in [false, true] {
            let f = if ffa { see::<true> } else { see::<false> };
            assert!(f(xray, "a2a5", -80) && !f(xray, "a2a5", -79), "ffa {ffa}");
        }
        let unguarded = "4rK3/8/8/bN6bK/8/8/yR7/3yK3gK y - 0 1";
        assert!(see::<true>(unguarded, "a2a5", 320) && !see::<true>(unguarded, "a2a5", 321));
        // The red rook takes the pawn back for yellow in Double Mate (-80); in all against all
        // it is one more enemy, and the rook is simply lost (-180).
        let partner = "rR3rK3/8/8/bN6bK/1gP6/8/yR7/3yK3gK y - 0 1";
        assert!(see::<false>(partner, "a2a5", -80) && !see::<false>(partner, "a2a5", -79));
        assert!(see::<true>(partner, "a2a5", -180) && !see::<true>(partner, "a2a5", -179));
        // A quiet move onto a square the pawn guards loses the rook.
        assert!(!see::<true>(partner, "a2a3", -499) && see::<true>(partner, "a2a3", -500));
    }

    #[test]
    fn pawn_tables_point_forward() {
        let t = tables();
        let sq = |s: &str| {
            let b = s.as_bytes();
            (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
        };
        assert_eq!(t.pawn_push[YELLOW as usize][sq("b2")], 1u64 << sq("b3"));
        assert_eq!(t.pawn_push[BLACK as usize][sq("b5")], 1u64 << sq("c5"));
        assert_eq!(t.pawn_push[RED as usize][sq("e7")], 1u64 << sq("e6"));
        assert_eq!(t.pawn_push[GREEN as usize][sq("g4")], 1u64 << sq("f4"));
        assert_eq!(t.pawn_attacks[BLACK as usize][sq("b5")], (1u64 << sq("c6")) | (1u64 << sq("c4")));
        assert_eq!(t.pawn_attacks[GREEN as usize][sq("g4")], (1u64 << sq("f5")) | (1u64 << sq("f3")));
        assert_eq!(t.pawn_attacks[YELLOW as usize][sq("a2")], 1u64 << sq("b3"));
        assert_eq!(t.pawn_attacks[RED as usize][sq("e7")], (1u64 << sq("d6")) | (1u64 << sq("f6")));
    }
}
