//! Judtho tables for the 12x12 board, made at compile time.

use super::{B, R, SQUARES, W, Y};
use crate::board::geometry::{KING_STEPS, KNIGHT_STEPS};
use crate::board::squareset::{GRID_12 as GRID, QUEEN_DIRS, Rays, Set144 as Set};
use crate::board::zobrist::Zobrist;

/// Directions of pawn travel: toward rank 12 (White, Yellow) and toward rank 1 (Red, Black).
pub const UP: usize = 0;
pub const DOWN: usize = 1;

/// No direction joins two squares.
pub const NO_DIR: u8 = 255;

pub struct Tables {
    pub king: [Set; SQUARES],
    pub knight: [Set; SQUARES],
    /// `[direction][square]`: the two squares a pawn travelling that way attacks.
    pub pawn_attacks: [[Set; SQUARES]; 2],
    /// `[direction][square]`: the squares from which a pawn travelling that way attacks it.
    pub pawn_from: [[Set; SQUARES]; 2],
    /// The squares up to 4 away on a queen line: what a Princess attacks, whatever stands between.
    pub ring4: [Set; SQUARES],
    /// The squares up to 3 away on a rank or file: where a Prince can attack from.
    pub orth3: [Set; SQUARES],
    /// Every square on a queen line through a square, to the edges.
    pub lines: [Set; SQUARES],
    /// `[a][b]`: the index in `QUEEN_DIRS` of the direction from `a` to `b`, or `NO_DIR`.
    pub dir: [[u8; SQUARES]; SQUARES],
    pub rays: Rays<3, SQUARES>,
    /// Each seat's Realm, and the Neutral Realm (ranks 5 to 8).
    pub realm: [Set; 4],
    /// `[direction]`: the rank a pawn travelling that way promotes on.
    pub far_rank: [Set; 2],
    pub z_piece: [[[u64; SQUARES]; 8]; 4],
    /// `[seat][kind][n]`: XORed in while a hand holds more than `n` pieces of a kind.
    pub z_hand: [[[u64; 7]; 8]; 4],
}

/// The Realm of a seat: White a1-f4, Red a9-f12, Yellow g1-l4, Black g9-l12.
const fn realm(seat: u8) -> Set {
    let (f0, r0) = match seat {
        W => (0, 0),
        R => (0, 8),
        Y => (6, 0),
        _ => (6, 8),
    };
    let mut s = Set::EMPTY;
    let mut f = 0;
    while f < 6 {
        let mut r = 0;
        while r < 4 {
            s = s.with((r0 + r) * 12 + f0 + f);
            r += 1;
        }
        f += 1;
    }
    s
}

impl Tables {
    const fn new() -> Tables {
        let mut king = [Set::EMPTY; SQUARES];
        let mut knight = [Set::EMPTY; SQUARES];
        let mut pawn_attacks = [[Set::EMPTY; SQUARES]; 2];
        let mut pawn_from = [[Set::EMPTY; SQUARES]; 2];
        let mut ring4 = [Set::EMPTY; SQUARES];
        let mut orth3 = [Set::EMPTY; SQUARES];
        let mut lines = [Set::EMPTY; SQUARES];
        let mut dir = [[NO_DIR; SQUARES]; SQUARES];
        let mut sq = 0;
        while sq < SQUARES {
            king[sq] = GRID.leaps(sq, &KING_STEPS);
            knight[sq] = GRID.leaps(sq, &KNIGHT_STEPS);
            pawn_attacks[UP][sq] = GRID.leaps(sq, &[(-1, 1), (1, 1)]);
            pawn_attacks[DOWN][sq] = GRID.leaps(sq, &[(-1, -1), (1, -1)]);
            pawn_from[UP][sq] = GRID.leaps(sq, &[(-1, -1), (1, -1)]);
            pawn_from[DOWN][sq] = GRID.leaps(sq, &[(-1, 1), (1, 1)]);
            ring4[sq] = GRID.slide(sq, Set::EMPTY, &QUEEN_DIRS, 4);
            orth3[sq] = GRID.slide(sq, Set::EMPTY, &[(1, 0), (0, 1), (-1, 0), (0, -1)], 3);
            lines[sq] = GRID.slide(sq, Set::EMPTY, &QUEEN_DIRS, 12);
            let mut d = 0;
            while d < 8 {
                let mut at = sq;
                while let Some(t) = GRID.step(at, QUEEN_DIRS[d].0, QUEEN_DIRS[d].1) {
                    dir[sq][t] = d as u8;
                    at = t;
                }
                d += 1;
            }
            sq += 1;
        }
        // Fixed seed and order: hashes are the same on every run.
        let mut z = Zobrist::new(0x4A55_4454_484F_2144);
        let mut z_piece = [[[0u64; SQUARES]; 8]; 4];
        let mut z_hand = [[[0u64; 7]; 8]; 4];
        let mut s = 0;
        while s < 4 {
            let mut k = 0;
            while k < 8 {
                z_piece[s][k] = z.fill::<SQUARES>();
                z_hand[s][k] = z.fill::<7>();
                k += 1;
            }
            s += 1;
        }
        let mut top = Set::EMPTY;
        let mut bottom = Set::EMPTY;
        let mut f = 0;
        while f < 12 {
            top = top.with(132 + f);
            bottom = bottom.with(f);
            f += 1;
        }
        Tables {
            king,
            knight,
            pawn_attacks,
            pawn_from,
            ring4,
            orth3,
            lines,
            dir,
            rays: Rays::new(&GRID),
            realm: [realm(W), realm(R), realm(Y), realm(B)],
            far_rank: [top, bottom],
            z_piece,
            z_hand,
        }
    }
}

static TABLES: Tables = Tables::new();

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

/// A key for a rarely changing part of the state (relationships, the turn cycle, the Assembly's
/// obligations): splitmix64 of a tag and a value.
#[inline]
pub fn mix(tag: u64, value: u64) -> u64 {
    let mut z = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ value.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn realms_and_reaches() {
        let t = tables();
        assert_eq!(t.realm.iter().map(|r| r.count()).sum::<u32>(), 96);
        assert!(t.realm[W as usize].has(0) && t.realm[W as usize].has(3 * 12 + 5));
        assert!(t.realm[Y as usize].has(11) && t.realm[R as usize].has(143 - 11) && t.realm[B as usize].has(143));
        // A Princess in the middle reaches 32 squares, a Prince 12.
        assert_eq!(t.ring4[5 * 12 + 5].count(), 32);
        assert_eq!(t.orth3[5 * 12 + 5].count(), 12);
        // Pawns: White's on e2 attack d3 and f3; Red's on e11 attack d10 and f10.
        assert_eq!(t.pawn_attacks[UP][12 + 4], Set::square(2 * 12 + 3).with(2 * 12 + 5));
        assert_eq!(t.pawn_from[DOWN][9 * 12 + 3], Set::square(10 * 12 + 4).with(10 * 12 + 2));
        assert_eq!(t.dir[0][143], 2);
        assert_eq!(t.dir[143][0], 6);
        assert_eq!(t.dir[0][13 + 1], NO_DIR);
    }
}
