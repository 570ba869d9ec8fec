//! Judkins tables, made at compile time.

use super::{
    BISHOP, FILES, GOLD, HAND_KINDS, HORSE, KING, KNIGHT, PAWN, PRO_KNIGHT, PRO_SILVER, RANKS, ROOK, SILVER, SQUARES,
    TOKIN,
};
use crate::board::geometry::{
    BISHOP_DIRS, KING_STEPS, ROOK_DIRS, between_table, file_mask, leap_table, line_table, rank_mask, ray_table,
};
use crate::board::sliders::SLIDERS_6X6 as SLIDERS;
use crate::board::zobrist::Zobrist;

/// Attack sets and hash keys, made by the compiler.
pub struct Tables {
    /// Step attacks `[colour][kind][square]` for pawn, silver, gold-movers, knight, king.
    pub step: [[[u64; SQUARES]; 5]; 2],
    pub between: [[u64; SQUARES]; SQUARES],
    pub line: [[u64; SQUARES]; SQUARES],
    pub rook_empty: [u64; SQUARES],
    pub bishop_empty: [u64; SQUARES],
    pub zobrist_piece: [[u64; SQUARES]; 24],
    /// `[colour][kind][n]`: XORed in when the `n`th piece of a kind enters a hand (n from 1).
    pub zobrist_hand: [[[u64; 3]; HAND_KINDS]; 2],
    pub zobrist_gote: u64,
    /// Per colour: the last rank, the last two ranks, and the promotion zone.
    pub last_rank: [u64; 2],
    pub last_two: [u64; 2],
    pub zone: [u64; 2],
    pub file_mask: [u64; FILES],
}

pub const STEP_PAWN: usize = 0;
pub const STEP_SILVER: usize = 1;
pub const STEP_GOLD: usize = 2;
pub const STEP_KNIGHT: usize = 3;
pub const STEP_KING: usize = 4;

/// The step patterns as sente sees them (negative rows are forward), in `STEP_*` order.
const PATTERNS: [&[(i32, i32)]; 5] = [
    &[(0, -1)],
    &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
    &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
    &[(-1, -2), (1, -2)],
    &KING_STEPS,
];

/// A pattern as gote sees it: rows mirrored.
const fn mirrored<const N: usize>(p: &[(i32, i32)]) -> [(i32, i32); N] {
    let mut out = [(0, 0); N];
    let mut i = 0;
    while i < N {
        out[i] = (p[i].0, -p[i].1);
        i += 1;
    }
    out
}

const fn steps() -> [[[u64; SQUARES]; 5]; 2] {
    let mut t = [[[0u64; SQUARES]; 5]; 2];
    let mut k = 0;
    while k < 5 {
        t[0][k] = leap_table::<SQUARES>(FILES, RANKS, PATTERNS[k]);
        k += 1;
    }
    t[1][0] = leap_table::<SQUARES>(FILES, RANKS, &mirrored::<1>(PATTERNS[0]));
    t[1][1] = leap_table::<SQUARES>(FILES, RANKS, &mirrored::<5>(PATTERNS[1]));
    t[1][2] = leap_table::<SQUARES>(FILES, RANKS, &mirrored::<6>(PATTERNS[2]));
    t[1][3] = leap_table::<SQUARES>(FILES, RANKS, &mirrored::<2>(PATTERNS[3]));
    t[1][4] = leap_table::<SQUARES>(FILES, RANKS, &mirrored::<8>(PATTERNS[4]));
    t
}

impl Tables {
    const fn new() -> Tables {
        // Fixed seed and order: hashes are the same on every run.
        let mut z = Zobrist::new(0x4A55_444B_494E_5321);
        let mut zobrist_piece = [[0u64; SQUARES]; 24];
        let mut i = 0;
        while i < 24 {
            zobrist_piece[i] = z.fill::<SQUARES>();
            i += 1;
        }
        let mut zobrist_hand = [[[0u64; 3]; HAND_KINDS]; 2];
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < HAND_KINDS {
                zobrist_hand[c][k] = z.fill::<3>();
                k += 1;
            }
            c += 1;
        }
        let zobrist_gote = z.next();
        let mut files = [0u64; FILES];
        let mut f = 0;
        while f < FILES {
            files[f] = file_mask(FILES, RANKS, f);
            f += 1;
        }
        let (r0, r1, r4, r5) = (rank_mask(FILES, 0), rank_mask(FILES, 1), rank_mask(FILES, 4), rank_mask(FILES, 5));
        Tables {
            step: steps(),
            between: between_table::<SQUARES>(FILES, RANKS, &KING_STEPS),
            line: line_table::<SQUARES>(FILES, RANKS, &KING_STEPS),
            rook_empty: ray_table::<SQUARES>(FILES, RANKS, &ROOK_DIRS),
            bishop_empty: ray_table::<SQUARES>(FILES, RANKS, &BISHOP_DIRS),
            zobrist_piece,
            zobrist_hand,
            zobrist_gote,
            last_rank: [r0, r5],
            last_two: [r0 | r1, r4 | r5],
            zone: [r0 | r1, r4 | r5],
            file_mask: files,
        }
    }
}

impl Tables {
    #[inline(always)]
    pub fn attacks(&self, color: u8, pt: u8, sq: usize, occ: u64) -> u64 {
        let c = color as usize;
        match pt {
            PAWN => self.step[c][STEP_PAWN][sq],
            SILVER => self.step[c][STEP_SILVER][sq],
            GOLD | TOKIN | PRO_SILVER | PRO_KNIGHT => self.step[c][STEP_GOLD][sq],
            KNIGHT => self.step[c][STEP_KNIGHT][sq],
            BISHOP => SLIDERS.bishop(sq, occ),
            ROOK => SLIDERS.rook(sq, occ),
            KING => self.step[c][STEP_KING][sq],
            HORSE => SLIDERS.bishop(sq, occ) | self.step[c][STEP_KING][sq],
            _ => SLIDERS.rook(sq, occ) | self.step[c][STEP_KING][sq],
        }
    }
}

static TABLES: Tables = Tables::new();

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}
