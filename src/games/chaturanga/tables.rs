//! Chaturanga tables, made at compile time.

use crate::board::geometry::{KING_STEPS, KNIGHT_STEPS, ROOK_DIRS, between_table, leap_table, leaps, ray_table};
use crate::board::zobrist::Zobrist;

pub struct Tables {
    pub king: [u64; 64],
    pub knight: [u64; 64],
    pub ship: [u64; 64],
    pub rook_empty: [u64; 64],
    /// Per army: the square a pawn steps to (or none), the squares it attacks, and the squares
    /// from which one of its pawns attacks a given square.
    pub pawn_push: [[u64; 64]; 4],
    pub pawn_attacks: [[u64; 64]; 4],
    pub pawn_from: [[u64; 64]; 4],
    /// The edge each army's pawns promote on.
    pub last: [u64; 4],
    /// Squares strictly between two squares of one rank or file.
    pub between: [[u64; 64]; 64],
    /// The 2x2 blocks that contain a square (0 where the block would leave the board).
    pub blocks: [[u64; 4]; 64],
    pub z_piece: [[[u64; 64]; 5]; 4],
    pub z_turn: [u64; 4],
    pub z_out: [u64; 4],
}

/// Forward, as (file, rank) steps, for yellow, black, red and green.
pub const FORWARD: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Tables {
    const fn new() -> Tables {
        let mut pawn_push = [[0u64; 64]; 4];
        let mut pawn_attacks = [[0u64; 64]; 4];
        let mut pawn_from = [[0u64; 64]; 4];
        let mut blocks = [[0u64; 4]; 64];
        let mut sq = 0;
        while sq < 64 {
            let mut a = 0;
            while a < 4 {
                let (df, dr) = FORWARD[a];
                pawn_push[a][sq] = leaps(8, 8, sq, &[(df, dr)]);
                // Diagonally forward: the two squares beside the step, across the direction.
                pawn_attacks[a][sq] = leaps(8, 8, sq, &[(df + dr, dr + df), (df - dr, dr - df)]);
                a += 1;
            }
            let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
            let corners = [(0, 0), (-1, 0), (0, -1), (-1, -1)];
            let mut i = 0;
            while i < 4 {
                let (x, y) = (f + corners[i].0, r + corners[i].1);
                if x >= 0 && x < 7 && y >= 0 && y < 7 {
                    let c = (y * 8 + x) as usize;
                    blocks[sq][i] = (1u64 << c) | (1u64 << (c + 1)) | (1u64 << (c + 8)) | (1u64 << (c + 9));
                }
                i += 1;
            }
            sq += 1;
        }
        let mut a = 0;
        while a < 4 {
            let mut from = 0;
            while from < 64 {
                let mut b = pawn_attacks[a][from];
                while b != 0 {
                    let to = b.trailing_zeros() as usize;
                    b &= b - 1;
                    pawn_from[a][to] |= 1u64 << from;
                }
                from += 1;
            }
            a += 1;
        }
        // Fixed seed and order: hashes are the same on every run.
        let mut z = Zobrist::new(0x4348_4154_5552_4147);
        let mut z_piece = [[[0u64; 64]; 5]; 4];
        let mut a = 0;
        while a < 4 {
            let mut k = 0;
            while k < 5 {
                z_piece[a][k] = z.fill::<64>();
                k += 1;
            }
            a += 1;
        }
        let z_turn = z.fill::<4>();
        let z_out = z.fill::<4>();
        Tables {
            king: leap_table::<64>(8, 8, &KING_STEPS),
            knight: leap_table::<64>(8, 8, &KNIGHT_STEPS),
            ship: leap_table::<64>(8, 8, &[(2, 2), (2, -2), (-2, 2), (-2, -2)]),
            rook_empty: ray_table::<64>(8, 8, &ROOK_DIRS),
            pawn_push,
            pawn_attacks,
            pawn_from,
            last: [0xFF00_0000_0000_0000, 0x8080_8080_8080_8080, 0xFF, 0x0101_0101_0101_0101],
            between: between_table::<64>(8, 8, &ROOK_DIRS),
            blocks,
            z_piece,
            z_turn,
            z_out,
        }
    }
}

static TABLES: Tables = Tables::new();

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

#[cfg(test)]
mod tests {
    use super::super::{BLACK, GREEN, RED, YELLOW};
    use super::*;

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
