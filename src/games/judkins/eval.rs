//! Judkins evaluation: material with hands, placement by rank and file, mobility, and king safety that
//! knows drops.

use super::*;
use crate::board::geometry::with_popcnt;
use crate::rules::Evaluation;
use crate::rules::weights::{two_sided_tunable, weights};

// Material values (centipawns) for exchanges and move ordering; a piece in hand is worth a
// little more than on the board because it can be dropped anywhere.
pub(super) const VALUE: [i32; PIECE_TYPES] = [100, 520, 570, 380, 700, 800, 0, 560, 560, 560, 900, 1050];
pub(super) const HAND_VALUE: [i32; HAND_KINDS] = [120, 580, 620, 420, 770, 880];

weights! {
    /// The evaluation's weights in one table, so that `tetrarch tune` can fit them to the results of
    /// played games (docs/strength.md, "Tuning").
    pub struct Weights {
        /// Material on the board, by piece type (the king's is not used).
        pub value: [i32; PIECE_TYPES] => fixed |i| i == KING as usize,
        pub hand_value: [i32; HAND_KINDS],
        /// Per safe square next to the enemy king from which a piece in hand could be dropped with
        /// check, by the kind in hand.
        pub drop_check: [i32; HAND_KINDS],
        /// Per square of the enemy king's zone that a piece of each type attacks.
        pub king_attack: [i32; PIECE_TYPES] => fixed |i| i == KING as usize,
        /// Mobility per square: bishops, rooks and their promotions; the other pieces.
        pub mobility_slider: i32,
        pub mobility_step: i32,
        /// A general (gold, silver, or a piece that moves as a gold) next to its own king.
        pub shelter: i32,
        /// Per rank advanced toward promotion.
        pub pawn_advance: i32,
        pub silver_advance: i32,
        /// King pressure per piece in the enemy's hand.
        pub hand_pressure: i32,
        /// King pressure is multiplied by this over 8, by the number of attackers (0 to 7).
        pub attackers: [i32; 8] => fixed |i| i == 0,
        /// Per square next to the king that the enemy attacks and nothing of ours defends.
        pub weak_square: i32,
        /// The side to move's bonus.
        pub tempo: i32,
        /// By piece type (the king's too) and rank, counted from the owner's own back rank.
        pub placement: [[i32; RANKS]; PIECE_TYPES],
        /// By piece type (the king's too) and file, counted from the owner's left (the file a
        /// castle stands on matters as much as its rank).
        pub file: [[i32; FILES]; PIECE_TYPES],
    }
}

/// The weights the engine plays with.
pub const WEIGHTS: Weights = Weights {
    value: [201, 464, 439, 326, 659, 845, 0, 577, 393, 512, 991, 1091],
    hand_value: [260, 589, 701, 410, 715, 867],
    drop_check: [-38, 9, 45, 17, 24, 40],
    king_attack: [32, 24, 30, 15, 11, 6, 0, 29, 26, 16, 11, 7],
    mobility_slider: 26,
    mobility_step: 40,
    shelter: 55,
    pawn_advance: -11,
    silver_advance: 2,
    hand_pressure: 12,
    attackers: [0, 21, 31, 32, 25, 17, 0, 81],
    weak_square: 48,
    tempo: 144,
    placement: [
        [-24, 14, 9, 72, -75, 0],
        [-143, -40, 95, 41, 57, -94],
        [25, 11, 87, -8, -102, -207],
        [-31, -31, 51, -84, 0, 0],
        [-94, 10, 90, 69, 205, 118],
        [-203, -110, -246, -67, 130, 270],
        [-187, -135, -57, 73, 264, 156],
        [0, -53, 198, 78, -35, -132],
        [0, -270, 1, 131, -22, -95],
        [-270, -90, 240, 178, -24, -191],
        [-65, -19, 86, 107, 49, 45],
        [-86, 37, 106, 68, 77, 148],
    ],
    file: [
        [-24, -29, 46, 90, -90, -90],
        [-90, -15, 70, 90, -38, -90],
        [-90, 54, 90, 90, -70, -90],
        [-42, -33, -7, 81, -36, 31],
        [-34, 90, 90, -71, -88, -90],
        [78, 90, 33, 62, 26, -86],
        [90, 17, -90, -90, 90, -90],
        [-90, 4, 90, -35, -90, -10],
        [-70, 52, 90, -22, -90, -90],
        [-90, -30, 90, 90, 90, -90],
        [-41, 56, 90, 46, 40, -90],
        [19, -38, 12, 90, 16, -87],
    ],
};

/// The file of `sq` counted from `color`'s own left (file 6 for sente, file 1 for gote).
#[inline(always)]
fn own_file(color: usize, sq: usize) -> usize {
    let col = sq % FILES;
    if color == SENTE as usize { col } else { FILES - 1 - col }
}

/// The rank of `sq` counted from `color`'s own back rank.
#[inline(always)]
fn own_rank(color: usize, sq: usize) -> usize {
    let row = sq / FILES;
    if color == SENTE as usize { RANKS - 1 - row } else { row }
}

impl Judkins {
    pub(super) fn eval_sente(&self) -> i32 {
        // The software bit count was 13% of the evaluation.
        with_popcnt!(p: &Judkins = self => i32 { p.eval_sente_with(&WEIGHTS) })
    }

    /// The evaluation from sente's side with the weights `w` (`WEIGHTS` in play; others while
    /// tuning).
    #[inline(always)]
    pub fn eval_sente_with(&self, w: &Weights) -> i32 {
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
                score[color] += w.hand_value[k] * self.hand[color][k] as i32;
            }
            let mut pieces = self.by_color[color] & !(1u64 << self.king[color]);
            let enemy_zone = zone[color ^ 1];
            let own_zone = zone[color];
            while pieces != 0 {
                let sq = pop_lsb(&mut pieces);
                let pt = cell_type(self.board[sq]);
                score[color] += w.value[pt as usize];
                let att = t.attacks(color as u8, pt, sq, occ);
                attacked[color] |= att;
                // Mobility: squares a piece attacks that its own men do not hold, long-range
                // pieces apart from the others.
                let mobility = (att & !self.by_color[color]).count_ones() as i32;
                score[color] += match pt {
                    BISHOP | ROOK | HORSE | DRAGON => w.mobility_slider * mobility,
                    _ => w.mobility_step * mobility,
                };
                let hits = (att & enemy_zone).count_ones() as i32;
                if hits > 0 {
                    king_pressure[color ^ 1] += hits * w.king_attack[pt as usize];
                    king_attackers[color ^ 1] += 1;
                }
                // Generals next to their own king (the fitted weight finds little in it).
                if matches!(pt, GOLD | SILVER | TOKIN | PRO_SILVER | PRO_KNIGHT) && own_zone & (1u64 << sq) != 0 {
                    score[color] += w.shelter;
                }
                let advance = own_rank(color, sq);
                score[color] += w.placement[pt as usize][advance] + w.file[pt as usize][own_file(color, sq)];
                // Pawns and silvers as they advance toward promotion.
                if matches!(pt, PAWN | SILVER) {
                    score[color] += advance as i32 * if pt == PAWN { w.pawn_advance } else { w.silver_advance };
                }
            }
            let ksq = self.king[color] as usize;
            score[color] +=
                w.placement[KING as usize][own_rank(color, ksq)] + w.file[KING as usize][own_file(color, ksq)];
            // Pieces in hand threaten drops next to the enemy king.
            let hand_pieces: i32 = self.hand[color].iter().map(|&n| n as i32).sum();
            if hand_pieces > 0 {
                king_pressure[color ^ 1] += w.hand_pressure * hand_pieces;
                king_attackers[color ^ 1] += 1;
            }
        }
        let empty = !occ & BOARD;
        for color in 0..2 {
            let them = color ^ 1;
            let ksq = self.king[color] as usize;
            // Pressure scaled by the number of attackers, by a fitted table: not monotone, it
            // is what the results of the games asked for.
            let mult = w.attackers[king_attackers[color].min(7) as usize];
            let mut danger = king_pressure[color] * mult / 8;
            // Squares next to the king that the enemy attacks and no piece of ours defends.
            let weak = zone[color] & attacked[them] & !attacked[color];
            danger += w.weak_square * weak.count_ones() as i32;
            // Checks the enemy could drop on squares we do not guard.
            for pt in [PAWN, SILVER, GOLD, KNIGHT, BISHOP, ROOK] {
                if self.hand[them][pt as usize] > 0 {
                    let checks = t.attacks(color as u8, pt, ksq, occ) & empty & !attacked[color];
                    danger += w.drop_check[pt as usize] * checks.count_ones() as i32;
                }
            }
            score[color] -= danger + danger * danger / 800;
        }
        score[0] - score[1] + if self.side == SENTE { w.tempo } else { -w.tempo }
    }
}

impl Evaluation for Judkins {
    const MOVE_INDEX_SPACE: usize = (SQUARES + HAND_KINDS) * SQUARES * 2;

    fn evaluate(&self, side: Side) -> i32 {
        let e = self.eval_sente();
        if side == Side(SENTE) { e } else { -e }
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

    // The twelve kinds on the board, then the six kinds dropped.
    const PIECE_TO_SPACE: usize = (PIECE_TYPES + HAND_KINDS) * SQUARES;

    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        let kind =
            if m.is_drop() { PIECE_TYPES + m.drop_type() as usize } else { cell_type(self.board[m.from()]) as usize };
        kind * SQUARES + m.to()
    }

    fn tactical_moves(&self, out: &mut List<Move>) {
        self.generate(out, true);
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m, threshold)
    }

    fn play_null(&mut self) {
        self.side ^= 1;
        self.hash ^= tables().zobrist_gote;
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = self.compute_checkers();
    }
}

two_sided_tunable!(Judkins, eval_sente_with);
