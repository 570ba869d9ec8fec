//! Judkins shogi: 6x6 shogi with drops (`docs/rules/judkins.md`).
//!
//! Squares are numbered in SFEN reading order: `sq = row * 6 + col`, row 0 is rank `a` (gote's
//! back rank), col 0 is file `6`. Sente (seat `b`, 0) moves toward row 0. Sets of squares are
//! `u64` bitboards using the low 36 bits.

use super::magic::{BISHOP_DIRS, ROOK_DIRS, SliderTables, slow_attacks};
use super::{Game, MoveList, Outcome, Seat, SeatMask, Side, Termination, VariantInfo};
use std::fmt::Write as _;
use std::sync::LazyLock;

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

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", format_move(*self))
    }
}

pub fn square_name(sq: usize) -> String {
    let col = sq % FILES;
    let row = sq / FILES;
    format!("{}{}", FILES - col, (b'a' + row as u8) as char)
}

fn format_move(m: Move) -> String {
    if m.is_drop() {
        format!("{}*{}", LETTERS[m.drop_type() as usize] as char, square_name(m.to()))
    } else {
        format!("{}{}{}", square_name(m.from()), square_name(m.to()), if m.is_promotion() { "+" } else { "" })
    }
}

/// Precomputed attack sets and hash keys, built once.
pub struct Tables {
    sliders: SliderTables,
    /// Step attacks `[colour][kind][square]` for pawn, silver, gold-movers, knight, king.
    step: [[[u64; SQUARES]; 5]; 2],
    between: [[u64; SQUARES]; SQUARES],
    line: [[u64; SQUARES]; SQUARES],
    rook_empty: [u64; SQUARES],
    bishop_empty: [u64; SQUARES],
    zobrist_piece: [[u64; SQUARES]; 24],
    /// `[colour][kind][n]`: XORed in when the `n`th piece of a kind enters a hand (n from 1).
    zobrist_hand: [[[u64; 3]; HAND_KINDS]; 2],
    zobrist_gote: u64,
    /// Per colour: the last rank, the last two ranks, and the promotion zone.
    last_rank: [u64; 2],
    last_two: [u64; 2],
    zone: [u64; 2],
    file_mask: [u64; FILES],
}

const STEP_PAWN: usize = 0;
const STEP_SILVER: usize = 1;
const STEP_GOLD: usize = 2;
const STEP_KNIGHT: usize = 3;
const STEP_KING: usize = 4;

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::new);

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

impl Tables {
    fn new() -> Tables {
        // Offsets seen by sente: negative rows are forward.
        let patterns: [&[(i32, i32)]; 5] = [
            &[(0, -1)],
            &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
            &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
            &[(-1, -2), (1, -2)],
            &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        ];
        let mut step = [[[0u64; SQUARES]; 5]; 2];
        for color in 0..2 {
            for (k, pat) in patterns.iter().enumerate() {
                for sq in 0..SQUARES {
                    let (c, r) = ((sq % FILES) as i32, (sq / FILES) as i32);
                    for &(dc, dr) in pat.iter() {
                        let dr = if color == 0 { dr } else { -dr };
                        let (x, y) = (c + dc, r + dr);
                        if (0..FILES as i32).contains(&x) && (0..RANKS as i32).contains(&y) {
                            step[color][k][sq] |= 1u64 << (y as usize * FILES + x as usize);
                        }
                    }
                }
            }
        }
        let mut between = [[0u64; SQUARES]; SQUARES];
        let mut line = [[0u64; SQUARES]; SQUARES];
        let (f, r) = (FILES as i32, RANKS as i32);
        for a in 0..SQUARES {
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                for &d in dirs.iter() {
                    let ray = slow_attacks(f, r, a, 0, &[d]);
                    let back = slow_attacks(f, r, a, 0, &[(-d.0, -d.1)]);
                    for b in 0..SQUARES {
                        if ray & (1u64 << b) != 0 {
                            between[a][b] = ray & slow_attacks(f, r, b, 0, &[(-d.0, -d.1)]);
                            line[a][b] = ray | back | (1u64 << a);
                        }
                    }
                }
            }
        }
        let mut rook_empty = [0u64; SQUARES];
        let mut bishop_empty = [0u64; SQUARES];
        for sq in 0..SQUARES {
            rook_empty[sq] = slow_attacks(f, r, sq, 0, &ROOK_DIRS);
            bishop_empty[sq] = slow_attacks(f, r, sq, 0, &BISHOP_DIRS);
        }
        let mut seed = 0x4A55_444B_494E_5321u64; // fixed: hashes are the same on every run
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut zobrist_piece = [[0u64; SQUARES]; 24];
        for row in zobrist_piece.iter_mut() {
            for k in row.iter_mut() {
                *k = rnd();
            }
        }
        let mut zobrist_hand = [[[0u64; 3]; HAND_KINDS]; 2];
        for c in zobrist_hand.iter_mut() {
            for k in c.iter_mut() {
                for n in k.iter_mut() {
                    *n = rnd();
                }
            }
        }
        let zobrist_gote = rnd();
        let row_mask = |row: usize| 0b111111u64 << (row * FILES);
        let mut file_mask = [0u64; FILES];
        for (col, m) in file_mask.iter_mut().enumerate() {
            for row in 0..RANKS {
                *m |= 1u64 << (row * FILES + col);
            }
        }
        Tables {
            sliders: SliderTables::new(FILES, RANKS),
            step,
            between,
            line,
            rook_empty,
            bishop_empty,
            zobrist_piece,
            zobrist_hand,
            zobrist_gote,
            last_rank: [row_mask(0), row_mask(5)],
            last_two: [row_mask(0) | row_mask(1), row_mask(4) | row_mask(5)],
            zone: [row_mask(0) | row_mask(1), row_mask(4) | row_mask(5)],
            file_mask,
        }
    }

    #[inline(always)]
    fn attacks(&self, color: u8, pt: u8, sq: usize, occ: u64) -> u64 {
        let c = color as usize;
        match pt {
            PAWN => self.step[c][STEP_PAWN][sq],
            SILVER => self.step[c][STEP_SILVER][sq],
            GOLD | TOKIN | PRO_SILVER | PRO_KNIGHT => self.step[c][STEP_GOLD][sq],
            KNIGHT => self.step[c][STEP_KNIGHT][sq],
            BISHOP => self.sliders.bishop(sq, occ),
            ROOK => self.sliders.rook(sq, occ),
            KING => self.step[c][STEP_KING][sq],
            HORSE => self.sliders.bishop(sq, occ) | self.step[c][STEP_KING][sq],
            _ => self.sliders.rook(sq, occ) | self.step[c][STEP_KING][sq],
        }
    }
}

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
    move_number: u32,
    /// Pieces giving check to the side to move; kept current by `play`.
    checkers: u64,
}

#[inline(always)]
fn pop_lsb(b: &mut u64) -> usize {
    let s = b.trailing_zeros() as usize;
    *b &= *b - 1;
    s
}

pub const START_SFEN: &str = "rbnsgk/5p/6/6/P5/KGSNBR b - 1";

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
        let sliders = (t.sliders.rook(sq, occ) & rooks) | (t.sliders.bishop(sq, occ) & bishops);
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

    /// Pushes the moves of the piece on `from` to `targets`. With `tactical_only`, `targets`
    /// holds captures and promotion squares, and a quiet move's non-promoting twin is left out.
    #[inline(always)]
    fn push_moves(
        t: &Tables,
        us: u8,
        pt: u8,
        from: usize,
        mut targets: u64,
        quiet_squares: u64,
        out: &mut MoveList<Move>,
    ) {
        let u = us as usize;
        if !CAN_PROMOTE[pt as usize] {
            while targets != 0 {
                out.push(Move::normal(from, pop_lsb(&mut targets), false));
            }
            return;
        }
        let from_zone = t.zone[u] & (1u64 << from) != 0;
        let forced = match pt {
            PAWN => t.last_rank[u],
            KNIGHT => t.last_two[u],
            _ => 0,
        };
        while targets != 0 {
            let to = pop_lsb(&mut targets);
            let tb = 1u64 << to;
            if from_zone || t.zone[u] & tb != 0 {
                out.push(Move::normal(from, to, true));
                if forced & tb == 0 && quiet_squares & tb != 0 {
                    out.push(Move::normal(from, to, false));
                }
            } else {
                out.push(Move::normal(from, to, false));
            }
        }
    }

    /// Whether dropping a pawn of the side to move on `sq` (which checks the enemy king) mates.
    fn pawn_drop_mates(&self, t: &Tables, sq: usize) -> bool {
        let us = self.side;
        let them = us ^ 1;
        let ksq = self.king[them as usize] as usize;
        let occ = self.occupied() | (1u64 << sq);
        // The pawn attacks only the king's square, which the king leaves, so our attacker sets
        // below need not include it; it matters only as a blocker.
        let occ_no_king = occ & !(1u64 << ksq);
        let mut flights = t.step[0][STEP_KING][ksq] & !self.by_color[them as usize];
        while flights != 0 {
            if self.attackers(t, us, pop_lsb(&mut flights), occ_no_king) == 0 {
                return false;
            }
        }
        // Capture of the pawn by another piece that is not pinned (pins seen with the pawn in).
        let mut defenders = self.attackers(t, them, sq, occ) & !(1u64 << ksq);
        let pinned = if defenders != 0 { self.pinned(t, them, occ) } else { 0 };
        while defenders != 0 {
            let d = pop_lsb(&mut defenders);
            if pinned & (1u64 << d) == 0 || t.line[ksq][d] & (1u64 << sq) != 0 {
                return false;
            }
        }
        true
    }

    /// Legal moves. With `tactical_only` (and not in check), just the captures and promotions:
    /// exactly the moves that `tactical_value` scores.
    fn generate(&self, out: &mut MoveList<Move>, tactical_only: bool) {
        let t = tables();
        let tactical_only = tactical_only && self.checkers == 0;
        let us = self.side;
        let them = us ^ 1;
        let u = us as usize;
        let occ = self.occupied();
        let own = self.by_color[u];
        let ksq = self.king[u] as usize;

        let enemy = self.by_color[them as usize];
        let mut king_targets = t.step[u][STEP_KING][ksq] & !own & if tactical_only { enemy } else { BOARD };
        let occ_no_king = occ ^ (1u64 << ksq);
        while king_targets != 0 {
            let to = pop_lsb(&mut king_targets);
            if self.attackers(t, them, to, occ_no_king) == 0 {
                out.push(Move::normal(ksq, to, false));
            }
        }
        if self.checkers.count_ones() > 1 {
            return;
        }
        let (target, drop_target) = if self.checkers != 0 {
            let c = self.checkers.trailing_zeros() as usize;
            (self.checkers | t.between[ksq][c], t.between[ksq][c])
        } else {
            (!own & BOARD, !occ & BOARD)
        };
        let pinned = self.pinned(t, us, occ);
        // Quiet squares may only hold promotions in tactical mode.
        let quiet_squares = if tactical_only { 0 } else { BOARD };
        let mut pieces = own & !(1u64 << ksq);
        while pieces != 0 {
            let from = pop_lsb(&mut pieces);
            let pt = cell_type(self.board[from]);
            let mut targets = t.attacks(us, pt, from, occ) & target;
            if pinned & (1u64 << from) != 0 {
                targets &= t.line[ksq][from];
            }
            if tactical_only {
                let promotable = CAN_PROMOTE[pt as usize] && (t.zone[u] & (1u64 << from) != 0);
                targets &= enemy
                    | if promotable {
                        BOARD
                    } else if CAN_PROMOTE[pt as usize] {
                        t.zone[u]
                    } else {
                        0
                    };
            }
            Self::push_moves(t, us, pt, from, targets, quiet_squares | enemy, out);
        }
        if drop_target == 0 || tactical_only {
            return;
        }
        let hand = &self.hand[u];
        for pt in [SILVER, GOLD, BISHOP, ROOK] {
            if hand[pt as usize] > 0 {
                let mut squares = drop_target;
                while squares != 0 {
                    out.push(Move::drop(pt, pop_lsb(&mut squares)));
                }
            }
        }
        if hand[KNIGHT as usize] > 0 {
            let mut squares = drop_target & !t.last_two[u];
            while squares != 0 {
                out.push(Move::drop(KNIGHT, pop_lsb(&mut squares)));
            }
        }
        if hand[PAWN as usize] > 0 {
            let mut squares = drop_target & !t.last_rank[u];
            let mut pawns = self.by_type[PAWN as usize] & own;
            while pawns != 0 {
                let p = pop_lsb(&mut pawns);
                squares &= !t.file_mask[p % FILES];
            }
            // Uchifuzume: only the square in front of the enemy king can give a pawn check.
            let eksq = self.king[them as usize] as usize;
            let check_sq = t.step[them as usize][STEP_PAWN][eksq];
            if squares & check_sq != 0 && self.pawn_drop_mates(t, check_sq.trailing_zeros() as usize) {
                squares &= !check_sq;
            }
            while squares != 0 {
                out.push(Move::drop(PAWN, pop_lsb(&mut squares)));
            }
        }
    }

    fn compute_hash(&self) -> u64 {
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

    fn parse_sfen(text: &str) -> Result<Judkins, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(format!("SFEN needs 3 or 4 fields (board, side, hand, move number), got {}", fields.len()));
        }
        let mut pos = Judkins::empty();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != RANKS {
            return Err(format!("SFEN board needs {} ranks, got {}", RANKS, rows.len()));
        }
        let mut counts = [0u8; 7];
        let mut kings = [0u8; 2];
        for (row, text) in rows.iter().enumerate() {
            let mut col = 0usize;
            let mut promoted = false;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if promoted {
                        return Err("SFEN '+' must precede a piece letter".into());
                    }
                    if d == 0 {
                        return Err("SFEN empty-square count 0".into());
                    }
                    col += d as usize;
                    if col > FILES {
                        return Err(format!("SFEN rank {} is longer than {}", row + 1, FILES));
                    }
                    continue;
                }
                if ch == '+' {
                    if promoted {
                        return Err("SFEN has '++'".into());
                    }
                    promoted = true;
                    continue;
                }
                let color = if ch.is_ascii_uppercase() { SENTE } else { GOTE };
                let base = LETTERS[..7]
                    .iter()
                    .position(|&l| l as char == ch.to_ascii_uppercase())
                    .ok_or_else(|| format!("SFEN has unknown piece letter '{}'", ch))? as u8;
                let pt = if promoted {
                    if !CAN_PROMOTE[base as usize] {
                        return Err(format!("SFEN piece '{}' cannot be promoted", ch));
                    }
                    PROMOTED[base as usize]
                } else {
                    base
                };
                promoted = false;
                if col >= FILES {
                    return Err(format!("SFEN rank {} is longer than {}", row + 1, FILES));
                }
                let sq = row * FILES + col;
                if pt == KING {
                    kings[color as usize] += 1;
                    pos.king[color as usize] = sq as u8;
                }
                counts[base as usize] += 1;
                pos.put(color, pt, sq);
                col += 1;
            }
            if promoted {
                return Err("SFEN '+' at the end of a rank".into());
            }
            if col != FILES {
                return Err(format!("SFEN rank {} has {} squares, needs {}", row + 1, col, FILES));
            }
        }
        if kings != [1, 1] {
            return Err("SFEN needs exactly one king of each side".into());
        }
        pos.side = match fields[1] {
            "b" => SENTE,
            "w" => GOTE,
            s => return Err(format!("SFEN side to move must be 'b' or 'w', got '{}'", s)),
        };
        if fields[2] != "-" {
            let mut seen = [[false; HAND_KINDS]; 2];
            let mut n: Option<u32> = None;
            for ch in fields[2].chars() {
                if let Some(d) = ch.to_digit(10) {
                    let v = n.unwrap_or(0) * 10 + d;
                    if v > 99 {
                        return Err("SFEN hand count too large".into());
                    }
                    n = Some(v);
                    continue;
                }
                let color = if ch.is_ascii_uppercase() { SENTE } else { GOTE };
                let pt = LETTERS[..HAND_KINDS]
                    .iter()
                    .position(|&l| l as char == ch.to_ascii_uppercase())
                    .ok_or_else(|| format!("SFEN hand has bad piece '{}'", ch))?;
                let count = n.take().unwrap_or(1);
                if count < 1 {
                    return Err("SFEN hand count must be at least 1".into());
                }
                if seen[color as usize][pt] {
                    return Err(format!("SFEN hand names '{}' twice", ch));
                }
                seen[color as usize][pt] = true;
                if count > 2 {
                    return Err(format!("SFEN hand has {} of '{}'; only 2 exist", count, ch));
                }
                counts[pt] += count as u8;
                for _ in 0..count {
                    let have = pos.hand[color as usize][pt] as usize;
                    pos.hand[color as usize][pt] += 1;
                    pos.hash ^= tables().zobrist_hand[color as usize][pt][have];
                }
            }
            if n.is_some() {
                return Err("SFEN hand ends with a number".into());
            }
        }
        for (pt, &c) in counts.iter().enumerate() {
            if c > 2 {
                return Err(format!("SFEN has {} pieces of kind '{}'; only 2 exist", c, LETTERS[pt] as char));
            }
        }
        if fields.len() == 4 {
            pos.move_number = fields[3]
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("SFEN move number must be a positive integer, got '{}'", fields[3]))?;
        }
        if pos.side == GOTE {
            pos.hash ^= tables().zobrist_gote;
        }
        let t = tables();
        for color in 0..2u8 {
            let c = color as usize;
            let mine = pos.by_color[c];
            if mine & pos.by_type[PAWN as usize] & t.last_rank[c] != 0
                || mine & pos.by_type[KNIGHT as usize] & t.last_two[c] != 0
            {
                return Err("SFEN has a pawn or knight on a square it can never leave".into());
            }
            for f in 0..FILES {
                if (mine & pos.by_type[PAWN as usize] & t.file_mask[f]).count_ones() > 1 {
                    return Err("SFEN has two unpromoted pawns of one side on a file (nifu)".into());
                }
            }
        }
        let waiting = pos.side ^ 1;
        if pos.attackers(t, pos.side, pos.king[waiting as usize] as usize, pos.occupied()) != 0 {
            return Err("SFEN: the side not to move is in check".into());
        }
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    fn format_sfen(&self) -> String {
        let mut s = String::with_capacity(48);
        for row in 0..RANKS {
            let mut empty = 0;
            for col in 0..FILES {
                let c = self.board[row * FILES + col];
                if c == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    let _ = write!(s, "{}", empty);
                    empty = 0;
                }
                let pt = cell_type(c);
                if pt >= TOKIN {
                    s.push('+');
                }
                let l = LETTERS[pt as usize] as char;
                s.push(if cell_color(c) == SENTE { l } else { l.to_ascii_lowercase() });
            }
            if empty > 0 {
                let _ = write!(s, "{}", empty);
            }
            if row + 1 < RANKS {
                s.push('/');
            }
        }
        s.push_str(if self.side == SENTE { " b " } else { " w " });
        let mut hand = String::new();
        for color in 0..2 {
            // USI order: rook, bishop, gold, silver, knight, pawn.
            for pt in [ROOK, BISHOP, GOLD, SILVER, KNIGHT, PAWN] {
                let n = self.hand[color][pt as usize];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    let _ = write!(hand, "{}", n);
                }
                let l = LETTERS[pt as usize] as char;
                hand.push(if color == 0 { l } else { l.to_ascii_lowercase() });
            }
        }
        s.push_str(if hand.is_empty() { "-" } else { &hand });
        let _ = write!(s, " {}", self.move_number);
        s
    }
}

// Material values (centipawns); a piece in hand is worth a little more than on the board because
// it can be dropped anywhere.
const VALUE: [i32; PIECE_TYPES] = [100, 520, 570, 380, 700, 800, 0, 560, 560, 560, 900, 1050];
const HAND_VALUE: [i32; HAND_KINDS] = [120, 580, 620, 420, 770, 880];
/// Weight of a safe square from which the enemy could drop a checking piece of each type.
const DROP_CHECK_WEIGHT: [i32; HAND_KINDS] = [6, 14, 16, 12, 14, 20];
/// Weight of an attack by an enemy piece of each type on the squares around the king.
const KING_ATTACK_WEIGHT: [i32; PIECE_TYPES] = [4, 8, 8, 7, 9, 11, 0, 8, 8, 8, 13, 15];

impl Judkins {
    fn eval_sente(&self) -> i32 {
        let t = tables();
        let occ = self.occupied();
        let mut score = [0i32; 2];
        let mut king_pressure = [0i32; 2];
        let mut king_attackers = [0i32; 2];
        let zone = [t.step[0][STEP_KING][self.king[0] as usize], t.step[1][STEP_KING][self.king[1] as usize]];
        // Squares each side's pieces (king aside) attack.
        let mut attacked = [0u64; 2];
        for color in 0..2usize {
            for k in 0..HAND_KINDS {
                score[color] += HAND_VALUE[k] * self.hand[color][k] as i32;
            }
            let mut pieces = self.by_color[color] & !(1u64 << self.king[color]);
            let enemy_zone = zone[color ^ 1];
            let own_zone = zone[color];
            while pieces != 0 {
                let sq = pop_lsb(&mut pieces);
                let pt = cell_type(self.board[sq]);
                score[color] += VALUE[pt as usize];
                let att = t.attacks(color as u8, pt, sq, occ);
                attacked[color] |= att;
                // Mobility, weighted lightly: long-range pieces gain most from open lines.
                let mobility = (att & !self.by_color[color]).count_ones() as i32;
                score[color] += match pt {
                    BISHOP | ROOK | HORSE | DRAGON => 4 * mobility,
                    _ => 2 * mobility,
                };
                let hits = (att & enemy_zone).count_ones() as i32;
                if hits > 0 {
                    king_pressure[color ^ 1] += hits * KING_ATTACK_WEIGHT[pt as usize];
                    king_attackers[color ^ 1] += 1;
                }
                // Generals next to their own king shelter it.
                if matches!(pt, GOLD | SILVER | TOKIN | PRO_SILVER | PRO_KNIGHT) && own_zone & (1u64 << sq) != 0 {
                    score[color] += 18;
                }
                // Pawns and silvers gain as they advance toward promotion.
                if matches!(pt, PAWN | SILVER) {
                    let row = sq / FILES;
                    let advance = if color == 0 { 5 - row } else { row } as i32;
                    score[color] += advance * if pt == PAWN { 8 } else { 4 };
                }
            }
            // Pieces in hand threaten drops next to the enemy king.
            let hand_pieces: i32 = self.hand[color].iter().map(|&n| n as i32).sum();
            if hand_pieces > 0 {
                king_pressure[color ^ 1] += 6 * hand_pieces;
                king_attackers[color ^ 1] += 1;
            }
        }
        let empty = !occ & BOARD;
        for color in 0..2 {
            let them = color ^ 1;
            let ksq = self.king[color] as usize;
            // Pressure grows faster than linearly with the number of attackers.
            let mult = [0, 6, 12, 16, 19, 21, 22, 23][king_attackers[color].min(7) as usize];
            let mut danger = king_pressure[color] * mult / 8;
            // Squares next to the king that the enemy attacks and no piece of ours defends.
            let weak = zone[color] & attacked[them] & !attacked[color];
            danger += 20 * weak.count_ones() as i32;
            // Checks the enemy could drop on squares we do not guard.
            for pt in [PAWN, SILVER, GOLD, KNIGHT, BISHOP, ROOK] {
                if self.hand[them][pt as usize] > 0 {
                    let checks = t.attacks(color as u8, pt, ksq, occ) & empty & !attacked[color];
                    danger += DROP_CHECK_WEIGHT[pt as usize] * checks.count_ones() as i32;
                }
            }
            score[color] -= danger + danger * danger / 800;
        }
        score[0] - score[1] + if self.side == SENTE { 20 } else { -20 }
    }
}

/// What a capture of a piece of each type gains: the piece leaves the board and joins the
/// captor's hand, unpromoted.
const CAPTURE_GAIN: [i32; PIECE_TYPES] = {
    let mut g = [0; PIECE_TYPES];
    let mut i = 0;
    while i < PIECE_TYPES {
        g[i] = VALUE[i] + if i == KING as usize { 10_000 } else { HAND_VALUE[UNPROMOTED[i] as usize] };
        i += 1;
    }
    g
};

impl Judkins {
    /// Static exchange evaluation: whether `m` wins at least `threshold` after the best sequence
    /// of recaptures on its square (pins ignored).
    fn see(&self, m: Move, threshold: i32) -> bool {
        let t = tables();
        let to = m.to();
        let us = self.side;
        let (from_bit, mover) = if m.is_drop() {
            (0, m.drop_type())
        } else {
            let pt = cell_type(self.board[m.from()]);
            (1u64 << m.from(), if m.is_promotion() { PROMOTED[pt as usize] } else { pt })
        };
        let victim = self.board[to];
        let mut swap = if victim != 0 { CAPTURE_GAIN[cell_type(victim) as usize] } else { 0 } - threshold;
        if m.is_promotion() && !m.is_drop() {
            let pt = cell_type(self.board[m.from()]);
            swap += VALUE[mover as usize] - VALUE[pt as usize];
        }
        if swap < 0 {
            return false;
        }
        swap = CAPTURE_GAIN[mover as usize] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = (self.occupied() ^ from_bit) | (1u64 << to);
        let bt = &self.by_type;
        let rooks = bt[ROOK as usize] | bt[DRAGON as usize];
        let bishops = bt[BISHOP as usize] | bt[HORSE as usize];
        let mut attackers = (self.attackers(t, 0, to, occ) | self.attackers(t, 1, to, occ)) & !from_bit;
        let mut stm = us;
        let mut res = 1;
        // Cheapest capturers first.
        const ORDER: [u8; 11] =
            [PAWN, KNIGHT, SILVER, GOLD, TOKIN, PRO_SILVER, PRO_KNIGHT, BISHOP, ROOK, HORSE, DRAGON];
        loop {
            stm ^= 1;
            attackers &= occ;
            let mine = attackers & self.by_color[stm as usize];
            if mine == 0 {
                break;
            }
            res ^= 1;
            let Some(pt) = ORDER.iter().copied().find(|&pt| mine & bt[pt as usize] != 0) else {
                // Only the king is left: it may capture only if nothing recaptures.
                return if attackers & self.by_color[(stm ^ 1) as usize] != 0 { res ^ 1 != 0 } else { res != 0 };
            };
            swap = CAPTURE_GAIN[pt as usize] - swap;
            if swap < res {
                break;
            }
            let b = mine & bt[pt as usize];
            occ ^= b & b.wrapping_neg();
            // Sliders behind the capturer join in.
            attackers |= (t.sliders.rook(to, occ) & rooks) | (t.sliders.bishop(to, occ) & bishops);
        }
        res != 0
    }
}

impl Game for Judkins {
    type Move = Move;

    const INFO: VariantInfo = VariantInfo { name: "judkins", files: 6, ranks: 6, seat_letters: "bw" };
    const REPETITIONS: usize = 4;
    const PERPETUAL_CHECK_LOSES: bool = true;
    const MOVE_INDEX_SPACE: usize = (SQUARES + HAND_KINDS) * SQUARES * 2;
    const NULL_MOVE: bool = true;

    fn startpos() -> Self {
        Self::parse_sfen(START_SFEN).expect("start position parses")
    }

    fn from_text(text: &str) -> Result<Self, String> {
        Self::parse_sfen(text)
    }

    fn to_text(&self) -> String {
        self.format_sfen()
    }

    fn to_move(&self) -> Seat {
        self.side
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

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m, threshold)
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let t = tables();
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let pt = m.drop_type();
            self.hand[us as usize][pt as usize] -= 1;
            let n = self.hand[us as usize][pt as usize] as usize;
            self.hash ^= t.zobrist_hand[us as usize][pt as usize][n];
            self.put(us, pt, to);
        } else {
            let from = m.from();
            let pt = cell_type(self.board[from]);
            let captured = self.board[to];
            if captured != 0 {
                let cpt = cell_type(captured);
                self.remove(us ^ 1, cpt, to);
                let k = UNPROMOTED[cpt as usize] as usize;
                let n = self.hand[us as usize][k] as usize;
                self.hand[us as usize][k] += 1;
                self.hash ^= t.zobrist_hand[us as usize][k][n];
            }
            self.remove(us, pt, from);
            let new_pt = if m.is_promotion() { PROMOTED[pt as usize] } else { pt };
            self.put(us, new_pt, to);
            if pt == KING {
                self.king[us as usize] = to as u8;
            }
        }
        self.side ^= 1;
        self.hash ^= t.zobrist_gote;
        self.move_number += 1;
        self.checkers = self.compute_checkers();
    }

    fn play_null(&mut self) {
        self.side ^= 1;
        self.hash ^= tables().zobrist_gote;
        self.move_number += 1;
        self.checkers = self.compute_checkers();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    fn checked_seats(&self) -> SeatMask {
        let t = tables();
        let occ = self.occupied();
        (0..2u8)
            .filter(|&c| self.attackers(t, c ^ 1, self.king[c as usize] as usize, occ) != 0)
            .fold(0, |m, c| m | (1 << c))
    }

    fn no_move_outcome(&self) -> Outcome {
        // In shogi a player without a legal move has lost, checked or not.
        Outcome::win(1 << (self.side ^ 1), Termination::Checkmate)
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn evaluate(&self, side: Side) -> i32 {
        let e = self.eval_sente();
        if side == SENTE { e } else { -e }
    }

    #[inline]
    fn tactical_value(&self, m: Move) -> Option<i32> {
        if m.is_drop() {
            return None;
        }
        let captured = self.board[m.to()];
        let mover = cell_type(self.board[m.from()]);
        let mut v = None;
        if captured != 0 {
            // Most valuable victim, least valuable attacker.
            v = Some(VALUE[cell_type(captured) as usize] * 8 - VALUE[mover as usize] / 16 + 100);
        }
        if m.is_promotion() {
            let gain = VALUE[PROMOTED[mover as usize] as usize] - VALUE[mover as usize];
            v = Some(v.unwrap_or(0) + gain);
        }
        v
    }

    #[inline(always)]
    fn move_index(m: Move) -> usize {
        (m.origin() as usize * SQUARES + m.to()) * 2 + m.is_promotion() as usize
    }

    fn picture(&self) -> String {
        let mut s = String::new();
        s.push_str("   6  5  4  3  2  1\n");
        for row in 0..RANKS {
            s.push_str(" +--+--+--+--+--+--+\n");
            s.push(' ');
            for col in 0..FILES {
                s.push('|');
                match self.piece_at(row * FILES + col) {
                    None => s.push_str("  "),
                    Some((color, pt)) => {
                        s.push(if pt >= TOKIN { '+' } else { ' ' });
                        let l = LETTERS[pt as usize] as char;
                        s.push(if color == SENTE { l } else { l.to_ascii_lowercase() });
                    }
                }
            }
            let _ = writeln!(s, "| {}", (b'a' + row as u8) as char);
        }
        s.push_str(" +--+--+--+--+--+--+\n");
        for (color, name) in [(GOTE, "gote (w)"), (SENTE, "sente (b)")] {
            let _ = write!(s, " hand {}:", name);
            for pt in [ROOK, BISHOP, GOLD, SILVER, KNIGHT, PAWN] {
                let n = self.hand[color as usize][pt as usize];
                if n > 0 {
                    let _ = write!(
                        s,
                        " {}{}",
                        LETTERS[pt as usize] as char,
                        if n > 1 { format!("x{}", n) } else { String::new() }
                    );
                }
            }
            s.push('\n');
        }
        s
    }

    fn move_number(&self) -> u32 {
        self.move_number
    }
}
