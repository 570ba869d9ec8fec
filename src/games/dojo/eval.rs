//! Dojo evaluation: material, placement and mobility through the passive stacks, and what the
//! belt counters are about to do.

use super::*;
use crate::board::geometry::{CENTRE_8X8, squares, with_popcnt};
use crate::rules::Evaluation;
use crate::rules::weights::{two_sided_tunable, weights};

/// Material values (centipawns) for exchanges and move ordering.
pub(super) const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The mop-up against a bare antisensei: per square it cannot reach, per step from the centre,
/// per step the two antisenseis are closer than seven.
const MOP_REGION: i32 = 6;
const MOP_EDGE: i32 = 20;
const MOP_KINGS: i32 = 12;

/// Per colour and square: the squares ahead of a pawn there on its own and the two next files,
/// where an enemy pawn would stop or take it.
const FRONT_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let mut files = 0x0101_0101_0101_0101u64 << f;
        if f > 0 {
            files |= 0x0101_0101_0101_0101u64 << (f - 1);
        }
        if f < 7 {
            files |= 0x0101_0101_0101_0101u64 << (f + 1);
        }
        let above = if r == 7 { 0 } else { !0u64 << ((r + 1) * 8) };
        let below = if r == 0 { 0 } else { !0u64 >> ((8 - r) * 8) };
        t[WHITE][sq] = files & above;
        t[BLACK][sq] = files & below;
        sq += 1;
    }
    t
};

weights! {
    /// The evaluation's weights in one table, so that `tetrarch tune` can fit them to the results of
    /// played games (docs/strength.md, "Tuning"). Ratios are in hundredths where a term scales a
    /// value: 100 plays the term as first set.
    pub struct Weights {
        /// Material by piece type (the antisensei's is not used).
        pub value: [i32; 6] => fixed |i| i == KING,
        /// A passed pawn's further bonus by rank: no enemy pawn ahead on its file or the next two.
        pub passed: [i32; 8] => fixed |i| i == 0 || i == 7,
        /// A pawn with a passive member on the square ahead, which it cannot push into (D4).
        pub pawn_blocked: i32,
        /// D6: a pawn on the far rank's doorstep (rank 6, rank 5) free to reach it is worth this
        /// many hundredths of the best enemy piece it could freeze, less a pawn.
        pub freeze: [i32; 2],
        /// By knight, bishop, rook, queen: per step toward the centre, and per square reached.
        pub centre: [i32; 4],
        pub mobility: [i32; 4],
        /// Two bishops or more.
        pub bishop_pair: i32,
        /// D7, D8: hundredths of the promotion's gain, by the square of the counter over 300.
        pub promotion: i32,
        /// D10: hundredths of the piece's value, by the square of its counter over 260, when it
        /// lingers within three squares of the enemy antisensei.
        pub defection: i32,
        /// D9: hundredths of treason's gain over the deputy's, by the square of the counter over 100.
        pub treason: i32,
        /// King safety: per enemy piece of each type within two squares of the antisensei.
        pub king_near: [i32; 5],
        /// Per attack on a square next to the antisensei.
        pub king_zone: i32,
        /// The side to move's bonus.
        pub tempo: i32,
        /// By piece type (the antisensei's too) and rank counted from the owner's side (for the
        /// yellow belt, how far it has come; it never stands on ranks 0 and 7).
        pub rank: [[i32; 8]; 6] => fixed |i| i / 8 == PAWN && (i % 8 == 0 || i % 8 == 7),
        /// By piece type (the antisensei's too) and file, a to h for both colours: the start
        /// position is a mirror through the middle rank, so the a-file is each side's queen's
        /// rook file.
        pub file: [[i32; 8]; 6],
    }
}

/// The weights the engine plays with.
pub const WEIGHTS: Weights = Weights {
    value: [175, 312, 343, 492, 926, 0],
    passed: [0, 40, -16, 17, -78, 59, 63, 0],
    pawn_blocked: 9,
    freeze: [36, 3],
    centre: [-2, 1, -8, -9],
    mobility: [3, 3, 2, 1],
    bishop_pair: 14,
    promotion: 134,
    defection: 92,
    treason: 190,
    king_near: [4, -29, -17, 102, 52],
    king_zone: 37,
    tempo: 48,
    rank: [
        [0, 20, 29, 10, -9, -2, 124, 0],
        [0, 14, 24, 43, 29, 57, -11, -63],
        [-12, 7, -6, -25, -15, -4, 42, -59],
        [-14, -20, -20, -23, -47, -23, 7, -34],
        [-66, -62, -53, -59, -57, 41, 85, 90],
        [31, 46, 41, 18, 7, 0, -21, -90],
    ],
    file: [
        [37, 21, -18, -7, 0, -13, -11, -31],
        [-32, -12, -6, 6, 0, -1, -11, -31],
        [-11, -10, 7, -6, 0, -1, -4, -25],
        [3, 6, -5, 7, 0, -3, 9, -9],
        [19, 52, 35, 34, 61, 43, 36, -21],
        [-17, -4, -14, 13, 8, 3, 5, 4],
    ],
};

impl Dojo {
    // ---- evaluation ----

    /// One side's standing in centipawns: material, piece placement and mobility through the
    /// passive stacks, and what the counters are about to do.
    #[inline(always)]
    fn side_score(&self, c: usize, occ: u64, w: &Weights) -> i32 {
        let t = tables();
        let k = &self.kind;
        let own = self.color[c];
        let enemy = self.color[c ^ 1];
        let my_king = self.king_sq(c);
        let their_king = self.king_sq(c ^ 1);
        let forward = |sq: usize| if c == WHITE { sq / 8 } else { 7 - sq / 8 };
        let mut s = w.rank[KING][forward(my_king)] + w.file[KING][my_king % 8];
        // The most valuable enemy piece D6 could freeze.
        let best_enemy = (PAWN..KING).filter(|&kind| enemy & k[kind] != 0).map(|kind| w.value[kind]).max().unwrap_or(0);
        // Belt by belt: a piece's belt is known without asking its square.
        for (kind, sq) in (PAWN..KING).flat_map(|kind| squares(own & k[kind]).map(move |sq| (kind, sq))) {
            let r = forward(sq);
            s += w.value[kind] + w.rank[kind][r] + w.file[kind][sq % 8];
            let centre = CENTRE_8X8[sq];
            let cnt = self.counters[sq];
            match kind {
                PAWN => {
                    if FRONT_SPAN[c][sq] & enemy & k[PAWN] == 0 {
                        s += w.passed[r];
                    }
                    let step = if c == WHITE { sq + 8 } else { sq.wrapping_sub(8) };
                    if step < 64 && self.passive & (1u64 << step) != 0 {
                        // A passive member ahead stops this pawn for good, except by capture.
                        s -= w.pawn_blocked;
                    }
                    if r == 6 || r == 5 {
                        // D6: reaching the far rank freezes the best enemy piece.
                        let free = step < 64 && occ & (1u64 << step) == 0;
                        let takes = t.pawn_attacks[c][sq] & enemy != 0;
                        if free || takes {
                            s += (best_enemy - 100).max(0) * w.freeze[6 - r] / 100;
                        }
                    }
                }
                KNIGHT => {
                    s +=
                        centre * w.centre[0] + w.mobility[0] * (t.knight[sq] & !own & !self.passive).count_ones() as i32
                }
                BISHOP => {
                    s += centre * w.centre[1] + w.mobility[1] * (SLIDERS.bishop(sq, occ) & !own).count_ones() as i32
                }
                ROOK => s += centre * w.centre[2] + w.mobility[2] * (SLIDERS.rook(sq, occ) & !own).count_ones() as i32,
                QUEEN => {
                    s += centre * w.centre[3]
                        + w.mobility[3] * (SLIDERS.rook(sq, occ) | SLIDERS.bishop(sq, occ)).count_ones() as i32;
                }
                _ => {}
            }
            if kind <= BISHOP {
                // D7, D8: a promotion a few moves away is nearly banked.
                let m = cnt[OBEDIENT].max(cnt[STAGNATION]) as i32;
                s += (w.value[kind + 1] - w.value[kind]) * m * m * w.promotion / 30000;
            }
            let d = cnt[DEFECTION] as i32;
            if d > 0 && t.distance[sq][their_king] <= 3 {
                // D10: a piece lingering by the enemy antisensei is about to leave.
                s -= w.value[kind] * d * d * w.defection / 26000;
            }
        }
        // D9: treason demotes the deputy and returns the best candidate as the new one.
        let tr = self.treason[c] as i32;
        if tr > 0
            && let Some(q) = self.deputy(c)
        {
            let cands = self.candidates(c, q);
            let gain = if cands & !own != 0 {
                w.value[QUEEN]
            } else {
                let mut best = 0;
                let mut x = cands;
                while x != 0 {
                    best = best.max(w.value[QUEEN] - w.value[self.kind_at(1u64 << pop(&mut x))]);
                }
                best
            };
            s += (gain - (w.value[QUEEN] - w.value[PAWN])) * tr * tr * w.treason / 10000;
        }
        // King safety: enemy pieces near the antisensei, passive members next to it shelter it.
        let near = enemy & t.ring2[my_king];
        let danger: i32 = (PAWN..KING).map(|kind| w.king_near[kind] * (near & k[kind]).count_ones() as i32).sum();
        s -= danger + w.king_zone * self.zone_attacks(c, occ);
        if (own & k[BISHOP]).count_ones() >= 2 {
            s += w.bishop_pair;
        }
        s
    }

    pub(super) fn eval_white(&self) -> i32 {
        with_popcnt!(p: &Dojo = self => i32 { p.eval_white_with(&WEIGHTS) })
    }

    /// The evaluation from White's side with the weights `w` (`WEIGHTS` in play; others while
    /// tuning).
    #[inline(always)]
    pub fn eval_white_with(&self, w: &Weights) -> i32 {
        let occ = self.blocked();
        let tempo = if self.turn as usize == WHITE { w.tempo } else { -w.tempo };
        let mut e = self.side_score(WHITE, occ, w) - self.side_score(BLACK, occ, w) + tempo;
        for strong in [WHITE, BLACK] {
            let weak = strong ^ 1;
            if self.color[weak] & !self.kind[KING] == 0 && self.color[strong] & !self.kind[KING] != 0 {
                let m = self.mop_up(strong);
                e += if strong == WHITE { m } else { -m };
            }
        }
        e
    }

    /// How many times the enemy attacks the squares next to `c`'s antisensei: each square's
    /// attackers, summed over the squares, counted instead piece by piece over the pieces that
    /// may reach them (a slider's lines ask one table; the squares' would ask eighteen).
    #[inline(always)]
    fn zone_attacks(&self, c: usize, occ: u64) -> i32 {
        let (t, k) = (tables(), &self.kind);
        let (their, king) = (c ^ 1, self.king_sq(c));
        let (enemy, zone) = (self.color[their], t.king[king]);
        let hits = |set: u64| (set & zone).count_ones() as i32;
        let mut n = hits(t.king[self.king_sq(their)]);
        n += squares(enemy & k[PAWN] & t.ring2[king]).map(|p| hits(t.pawn_attacks[their][p])).sum::<i32>();
        n += squares(enemy & k[KNIGHT] & t.ring3[king]).map(|p| hits(t.knight[p])).sum::<i32>();
        let diagonal = enemy & (k[BISHOP] | k[QUEEN]) & t.bishop_near[king];
        n += squares(diagonal).map(|p| hits(SLIDERS.bishop(p, occ))).sum::<i32>();
        let straight = enemy & (k[ROOK] | k[QUEEN]) & t.rook_near[king];
        n + squares(straight).map(|p| hits(SLIDERS.rook(p, occ))).sum::<i32>()
    }

    /// A bare antisensei against any active piece: most such games that end drawn by D1's
    /// hundred plies had one side a rook or more up (docs/strength.md, "Dojo's drawn
    /// endings"), shuffling because no move short of the mate gains. The stronger side is paid
    /// for every square the lone antisensei can no longer reach (a flood through squares free
    /// of stacks and of its attacks: the stacks are walls), for an antisensei pushed to the
    /// edge, and for its own antisensei brought up.
    fn mop_up(&self, strong: usize) -> i32 {
        let t = tables();
        let weak_king = self.king_sq(strong ^ 1);
        // Sliders see through the lone antisensei: the squares behind it are no refuge.
        let occ = self.blocked() & !(1u64 << weak_king);
        let mut attacked = 0u64;
        let mut free = !self.passive;
        while free != 0 {
            let sq = pop(&mut free);
            if self.attackers(sq, strong, occ) != 0 {
                attacked |= 1u64 << sq;
            }
        }
        let open = !self.passive & !attacked;
        let mut region = 1u64 << weak_king;
        loop {
            let mut grown = region;
            let mut r = region;
            while r != 0 {
                grown |= t.king[pop(&mut r)] & open;
            }
            if grown == region {
                break;
            }
            region = grown;
        }
        let reach = region.count_ones() as i32;
        let kings = t.distance[self.king_sq(strong)][weak_king] as i32;
        MOP_REGION * (64 - reach) + MOP_EDGE * (3 - CENTRE_8X8[weak_king]) + MOP_KINGS * (7 - kings)
    }
}

impl Evaluation for Dojo {
    const MOVE_INDEX_SPACE: usize = 64 * 64;

    fn evaluate(&self, side: Side) -> i32 {
        let e = self.eval_white();
        if side.index() == WHITE { e } else { -e }
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

    const PIECE_TO_SPACE: usize = 6 * 64;

    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        self.kind_at(1u64 << m.from()) * 64 + m.to()
    }

    fn tactical_moves(&self, out: &mut List<Move>) {
        self.generate(out, true);
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m, threshold)
    }

    fn play_null(&mut self) {
        self.set_ep(NO_SQUARE);
        self.finish_turn();
    }
}

two_sided_tunable!(Dojo, eval_white_with);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Notation, Rules};

    #[test]
    fn the_zone_is_attacked_as_often_as_its_squares_are() {
        // Piece by piece against square by square, along random games from the bench's
        // positions (passive stacks, lone antisenseis and all).
        let mut rng = crate::board::zobrist::SplitMix64(0x5EED);
        let mut seen = 0;
        for text in VARIANT.bench.positions {
            for _ in 0..8 {
                let mut pos = Dojo::from_text(text).unwrap();
                for _ in 0..80 {
                    let occ = pos.blocked();
                    for c in [WHITE, BLACK] {
                        let by_square: i32 = squares(tables().king[pos.king_sq(c)])
                            .map(|sq| pos.attackers(sq, c ^ 1, occ).count_ones() as i32)
                            .sum();
                        assert_eq!(pos.zone_attacks(c, occ), by_square, "{}", pos.to_text());
                        seen += (by_square > 0) as usize;
                    }
                    let mut list = List::default();
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    pos.play(list.as_slice()[rng.below(list.len())]);
                }
            }
        }
        assert!(seen > 1000, "only {} zones attacked", seen);
    }
}
