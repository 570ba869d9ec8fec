//! Dojo tables, made at compile time.

use super::{BLACK, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, WHITE};
use crate::board::geometry::{KING_STEPS, KNIGHT_STEPS, between_table, distance_table, leap_table};
use crate::board::zobrist::Zobrist;

pub struct Tables {
    pub king: [u64; 64],
    pub knight: [u64; 64],
    /// Per colour: the squares a pawn on a square attacks.
    pub pawn_attacks: [[u64; 64]; 2],
    /// Squares strictly between two squares on a line (rank, file or diagonal), else 0.
    pub between: [[u64; 64]; 64],
    /// King distance, max(|dfile|, |drank|).
    pub distance: [[u8; 64]; 64],
    /// Squares within king distance 2.
    pub ring2: [u64; 64],
    /// Squares within king distance 3: where a piece counts toward D10's defection.
    pub ring3: [u64; 64],
    /// Per square: where a rook, or a bishop, on an empty board would attack a square next to
    /// it (the sliders that may bear on an antisensei's zone).
    pub rook_near: [u64; 64],
    pub bishop_near: [u64; 64],
    /// Castling rights kept when a piece leaves or arrives on a square.
    pub castle_keep: [u8; 64],
    pub z_piece: [[[u64; 64]; 6]; 2],
    pub z_passive: [[[u64; 64]; 6]; 2],
    pub z_black: u64,
    pub z_castle: [u64; 16],
    pub z_ep: [u64; 8],
    pub z_counter: [[[u64; 64]; 16]; 3],
    pub z_treason: [[u64; 16]; 2],
}

impl Tables {
    const fn new() -> Tables {
        let distance = distance_table::<64>(8);
        let mut ring2 = [0u64; 64];
        let mut ring3 = [0u64; 64];
        let (mut rook_near, mut bishop_near) = ([0u64; 64], [0u64; 64]);
        let mut sq = 0;
        while sq < 64 {
            let mut b = 0;
            while b < 64 {
                if distance[sq][b] <= 2 {
                    ring2[sq] |= 1u64 << b;
                }
                if distance[sq][b] <= 3 {
                    ring3[sq] |= 1u64 << b;
                }
                if distance[sq][b] == 1 {
                    // `b` is next to `sq`: every square on its lines.
                    let (f, r) = ((b % 8) as i32, (b / 8) as i32);
                    let mut o = 0;
                    while o < 64 {
                        let (of, or) = ((o % 8) as i32, (o / 8) as i32);
                        if o != b && (of == f || or == r) {
                            rook_near[sq] |= 1u64 << o;
                        }
                        if o != b && (of - f == or - r || of - f == r - or) {
                            bishop_near[sq] |= 1u64 << o;
                        }
                        o += 1;
                    }
                }
                b += 1;
            }
            sq += 1;
        }
        let mut pawn_attacks = [[0u64; 64]; 2];
        pawn_attacks[WHITE] = leap_table::<64>(8, 8, &[(-1, 1), (1, 1)]);
        pawn_attacks[BLACK] = leap_table::<64>(8, 8, &[(-1, -1), (1, -1)]);
        let mut castle_keep = [0xFu8; 64];
        castle_keep[4] = !(CASTLE_WK | CASTLE_WQ);
        castle_keep[7] = !CASTLE_WK;
        castle_keep[0] = !CASTLE_WQ;
        castle_keep[60] = !(CASTLE_BK | CASTLE_BQ);
        castle_keep[63] = !CASTLE_BK;
        castle_keep[56] = !CASTLE_BQ;

        // Fixed seed and order: hashes are the same on every run. A key of 0 for a counter or
        // treason value of 0: a piece whose counters are all zero adds nothing.
        let mut z = Zobrist::new(0x444F_4A4F_4348_4553);
        let mut z_piece = [[[0u64; 64]; 6]; 2];
        let mut z_passive = [[[0u64; 64]; 6]; 2];
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < 6 {
                let mut sq = 0;
                while sq < 64 {
                    z_piece[c][k][sq] = z.next();
                    z_passive[c][k][sq] = z.next();
                    sq += 1;
                }
                k += 1;
            }
            c += 1;
        }
        let z_black = z.next();
        let mut z_castle = [0u64; 16];
        let mut i = 1;
        while i < 16 {
            z_castle[i] = z.next();
            i += 1;
        }
        let z_ep = z.fill::<8>();
        let mut z_counter = [[[0u64; 64]; 16]; 3];
        let mut i = 0;
        while i < 3 {
            let mut v = 1;
            while v < 16 {
                z_counter[i][v] = z.fill::<64>();
                v += 1;
            }
            i += 1;
        }
        let mut z_treason = [[0u64; 16]; 2];
        let mut c = 0;
        while c < 2 {
            let mut v = 1;
            while v < 16 {
                z_treason[c][v] = z.next();
                v += 1;
            }
            c += 1;
        }
        Tables {
            king: leap_table::<64>(8, 8, &KING_STEPS),
            knight: leap_table::<64>(8, 8, &KNIGHT_STEPS),
            pawn_attacks,
            between: between_table::<64>(8, 8, &KING_STEPS),
            distance,
            ring2,
            ring3,
            rook_near,
            bishop_near,
            castle_keep,
            z_piece,
            z_passive,
            z_black,
            z_castle,
            z_ep,
            z_counter,
            z_treason,
        }
    }
}

static TABLES: Tables = Tables::new();

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}
