//! Dojo evaluation: material, placement and mobility through the passive stacks, and what the
//! belt counters are about to do.

use super::*;
use crate::rules::Evaluation;

pub(super) const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];
pub(super) const PAWN_RANK: [i32; 8] = [0, 0, 5, 10, 20, 35, 60, 0];
/// How central a square is, 0 at the edge to 3 in the middle.
pub(super) const CENTRE: [i32; 64] = {
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

impl Dojo {
    // ---- evaluation ----

    /// One side's standing in centipawns: material, piece placement and mobility through the
    /// passive stacks, and what the counters are about to do.
    pub(super) fn side_score(&self, c: usize, occ: u64) -> i32 {
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
                BISHOP => s += centre * 2 + 3 * (SLIDERS.bishop(sq, occ) & !own).count_ones() as i32,
                ROOK => s += 2 * (SLIDERS.rook(sq, occ) & !own).count_ones() as i32,
                QUEEN => {
                    s += centre + (SLIDERS.rook(sq, occ) | SLIDERS.bishop(sq, occ)).count_ones() as i32;
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

    pub(super) fn eval_white(&self) -> i32 {
        let occ = self.blocked();
        self.side_score(WHITE, occ) - self.side_score(BLACK, occ)
    }
}

impl Evaluation for Dojo {
    const MOVE_INDEX_SPACE: usize = 64 * 64;
    const NULL_MOVE: bool = true;

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

    const PIECE_TO_SPACE: usize = 6 * 64;

    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        self.kind_at(1u64 << m.from()) * 64 + m.to()
    }

    fn tactical_moves(&self, out: &mut List<Move>) {
        self.generate(out, true);
    }

    fn play_null(&mut self) {
        self.pass();
    }
}
