//! Chaturanga evaluation: material, pawns near promotion, king safety against the armies that
//! attack it, the mate states of C3 and C4, and all against all's hunt for short-handed kings.

use super::*;
use crate::board::geometry::{CENTRE_8X8, with_popcnt};
use crate::rules::Evaluation;
use crate::rules::SearchPolicy;
use crate::rules::weights::{Fit, Tunable, weights};

weights! {
    /// The evaluation's weights in one table, so that `tetrarch tune` can fit them to the results of
    /// played games (docs/strength.md, "Tuning"). Each form has its own table; some terms are read
    /// by one form only.
    pub struct Weights for |ffa: bool| {
        /// Material by kind: king (not used), rook, knight, ship, pawn.
        pub value: [i32; 5] => fixed |i| i == KING,
        /// A pawn's bonus by the steps it has left to its edge.
        pub pawn_advance: [i32; 8] => fixed |i| i == 0 || i == 7,
        /// Per square a rook, a knight reaches.
        pub mobility_rook: i32,
        pub mobility_knight: i32,
        /// Double Mate: an army down to its king counts as beaten (C4).
        pub lone_king: i32 => fixed |_i| ffa,
        /// Per square next to the king that an enemy attacks.
        pub zone_attacked: i32,
        /// In check, and per escape fewer than three.
        pub check: i32 => fixed |_i| ffa,
        pub check_escape: i32 => fixed |_i| ffa,
        /// Double Mate: mated (C3), on top of the check.
        pub mated: i32 => fixed |_i| ffa,
        /// Not in check, but no square to run to.
        pub no_escape: i32,
        /// All against all: in check, and per escape fewer than three; taken before it can move.
        pub ffa_check: i32 => fixed |_i| !ffa,
        pub ffa_check_escape: i32 => fixed |_i| !ffa,
        pub doomed: i32 => fixed |_i| !ffa,
        /// Per step the king has left its home edge, by each enemy rook, knight and ship (at most 8).
        pub king_out: i32,
        /// An army short of material: per square its king cannot go to, and per step nearer a corner.
        pub hunted_room: i32,
        pub hunted_edge: i32,
        /// The side to move's bonus (Double Mate).
        pub tempo: i32 => fixed |_i| ffa,
        /// All against all: per opponent out; and the hunt of a short-handed king, per point of how
        /// hunted it is, per step the hunter's king is nearer, per square a rook's box takes away.
        pub out_bonus: i32 => fixed |_i| !ffa,
        pub hunt: i32 => fixed |_i| !ffa,
        pub hunt_near: i32 => fixed |_i| !ffa,
        pub hunt_box: i32 => fixed |_i| !ffa,
        /// Per step toward the centre (0 at the edge to 3), of each knight and each ship.
        pub centre_knight: i32 => fixed |_i| ffa,
        pub centre_ship: i32 => fixed |_i| ffa,
        /// Per square next to the king that a piece of its own army stands on.
        pub king_shelter: i32 => fixed |_i| ffa,
    }
}

/// Double Mate's weights.
pub const WEIGHTS: Weights = Weights {
    value: [0, 453, 293, 106, 101],
    pawn_advance: [0, 118, 104, 51, 6, -6, -12, 0],
    mobility_rook: 20,
    mobility_knight: 15,
    lone_king: 331,
    zone_attacked: 1,
    check: 93,
    check_escape: 89,
    mated: 266,
    no_escape: 102,
    ffa_check: 60,
    ffa_check_escape: 30,
    doomed: 1500,
    king_out: 4,
    hunted_room: 15,
    hunted_edge: 39,
    tempo: 29,
    out_bonus: 300,
    hunt: 2,
    hunt_near: 12,
    hunt_box: 2,
    centre_knight: 19,
    centre_ship: 3,
    king_shelter: 6,
};

/// All against all's weights: its tuning labels each army with its places against the three
/// others, not a side's result.
pub const FFA_WEIGHTS: Weights = Weights {
    value: [0, 500, 320, 190, 100],
    pawn_advance: [0, 90, 45, 25, 12, 5, 0, 0],
    mobility_rook: 3,
    mobility_knight: 3,
    lone_king: 400,
    zone_attacked: 12,
    check: 40,
    check_escape: 30,
    mated: 350,
    no_escape: 25,
    ffa_check: 60,
    ffa_check_escape: 30,
    doomed: 1500,
    king_out: 3,
    hunted_room: 12,
    hunted_edge: 20,
    tempo: 0,
    out_bonus: 300,
    hunt: 2,
    hunt_near: 12,
    hunt_box: 2,
    centre_knight: 0,
    centre_ship: 0,
    king_shelter: 0,
};

impl<const FFA: bool> Chaturanga<FFA> {
    /// One army's standing in centipawns: material, pawns near promotion, king safety against
    /// the armies that attack it, and the mate states that C3 and C4 make decisive.
    /// Returns the score, the material, and how hunted the army's king is when the army is short
    /// of material (0 otherwise).
    #[inline(always)]
    pub(super) fn army_score(&self, a: usize, occ: u64, w: &Weights) -> (i32, i32, i32) {
        let t = tables();
        let own = self.army[a];
        let mut s = 0;
        for (k, v) in w.value.iter().enumerate().skip(1) {
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
            s += w.pawn_advance[left];
        }
        // Mobility of the pieces that go far: rooks and knights.
        let mut rooks = own & self.kind[ROOK];
        while rooks != 0 {
            s += w.mobility_rook * (SLIDERS.rook(pop(&mut rooks), occ) & !own).count_ones() as i32;
        }
        let mut knights = own & self.kind[KNIGHT];
        while knights != 0 {
            let sq = pop(&mut knights);
            s += w.mobility_knight * (t.knight[sq] & !own).count_ones() as i32 + w.centre_knight * CENTRE_8X8[sq];
        }
        let mut ships = own & self.kind[SHIP];
        while ships != 0 {
            s += w.centre_ship * CENTRE_8X8[pop(&mut ships)];
        }
        let Some(ksq) = self.king_square(a) else { return (s, material, 0) };
        if !FFA && own == 1u64 << ksq {
            // A lone king counts as beaten (C4).
            return (s - w.lone_king, material, 0);
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
        s -= w.zone_attacked * attacked;
        s += w.king_shelter * (zone & own).count_ones() as i32;
        let checkers = self.attackers(ksq, enemies, occ);
        if FFA && checkers != 0 {
            // All against all: an attacked king is taken by the first attacker to move before
            // its own army does; only an army to move before all of them can still run.
            let after = |x: usize| (x + 4 - self.turn as usize) % 4;
            let doomed = (0..4).any(|b| checkers & self.army[b] != 0 && after(b) < after(a));
            s -= if doomed { w.doomed } else { w.ffa_check + w.ffa_check_escape * (3 - escapes).max(0) };
        } else if checkers != 0 {
            // In check: the fewer escapes, the nearer a mate.
            s -= w.check + w.check_escape * (3 - escapes).max(0);
            if escapes == 0 && !FFA && !self.has_legal_move(a) {
                // Mated: the army cannot move until freed (C3), and two such armies lose (C4).
                s -= w.mated;
            }
        } else if escapes == 0 {
            s -= w.no_escape;
        }
        // A king that has left its home edge while enemy pieces remain is a target for every
        // one of them.
        let (f, r) = (ksq % 8, ksq / 8);
        let home = [r, f, 7 - r, 7 - f][a] as i32;
        let hunters = (self.armies_bb(enemies) & (self.kind[ROOK] | self.kind[KNIGHT] | self.kind[SHIP])).count_ones();
        s -= home * hunters.min(8) as i32 * w.king_out;
        let mut hunted = 0;
        if material < 400 {
            // An army short of material is hunted down: the less room its king has and the
            // nearer it is to a corner, the sooner it falls (all against all: captured; Double
            // Mate: mated).
            let edge = CENTRE_8X8[ksq];
            hunted = w.hunted_room * (8 - escapes) + w.hunted_edge * (3 - edge);
            s -= hunted;
        }
        (s, material, hunted)
    }

    /// The smallest rectangle one of army `a`'s rooks confines the king on `k` to: the squares
    /// on the king's side of the rook's file times those on its side of the rook's rank. A rook
    /// on the king's line confines nothing (64).
    pub(super) fn rook_box(&self, a: usize, k: usize) -> i32 {
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

    pub(super) fn eval_for(&self, side: Side) -> i32 {
        let w = if FFA { &FFA_WEIGHTS } else { &WEIGHTS };
        with_popcnt!([const F: bool] p: &Chaturanga<F> = self, side: Side = side, w: &Weights = w => i32 {
            p.eval_for_with(side, w)
        })
    }

    /// The evaluation for `side` with the weights `w` (the form's own table in play; others
    /// while tuning).
    #[inline(always)]
    pub fn eval_for_with(&self, side: Side, w: &Weights) -> i32 {
        let occ = self.occupied();
        let mut scores = [(0i32, 0i32, 0i32); 4];
        for (a, sc) in scores.iter_mut().enumerate() {
            if self.out & (1 << a) == 0 {
                *sc = self.army_score(a, occ, w);
            }
        }
        if FFA {
            // The others weigh as the mean of one average opponent and the strongest, so that
            // an army level with the field scores 0: a piece of mine lost costs its whole value,
            // one taken from an opponent gains a sixth of it (two thirds from the strongest),
            // since the other two profit as much. An army out counts as nothing in the average,
            // and every army out brings the last-king win nearer: knocking out a weak army must
            // never look like a loss.
            let me = side.index();
            let others: i32 = (0..4).filter(|&a| a != me).map(|a| scores[a].0).sum();
            let leader =
                (0..4).filter(|&a| a != me && self.out & (1 << a) == 0).map(|a| scores[a].0).max().unwrap_or(0);
            let gone = (self.out & !(1 << me)).count_ones() as i32;
            let mut v = scores[me].0 - (others / 3 + leader) / 2 + w.out_bonus * gone;
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
                    v += w.hunt * scores[o].2
                        + w.hunt_near * (7 - distance(mine, theirs))
                        + w.hunt_box * (64 - self.rook_box(me, theirs));
                }
            }
            v
        } else {
            let a = side.index() & 1;
            let mine = scores[a].0 + scores[a + 2].0;
            let theirs = scores[a ^ 1].0 + scores[(a ^ 1) + 2].0;
            let tempo = if self.turn as usize & 1 == a { w.tempo } else { -w.tempo };
            mine - theirs + tempo
        }
    }
}

pub(super) fn distance(a: usize, b: usize) -> i32 {
    ((a % 8).abs_diff(b % 8)).max((a / 8).abs_diff(b / 8)) as i32
}

/// What taking each kind is worth, for move ordering and exchanges (a king: all against all).
pub(super) const VICTIM: [i32; 5] = [2000, 500, 320, 190, 100];

/// How the search treats Double Mate (the registry lists it with the variant): two sides that
/// alternate, as in chess.
pub const DOUBLE_MATE_SEARCH: SearchPolicy = SearchPolicy::DEFAULT;

/// All against all: no null move (four sides), and Best-Reply Search: one Best-Reply seat
/// against three paranoid copies of the same build at 0.3+0.03 over 200 games took 60.2% of the
/// points, first in 141 (docs/strength.md); against depth-1 copies the two had measured the
/// same.
pub const ALL_AGAINST_ALL_SEARCH: SearchPolicy =
    SearchPolicy { null_move: false, best_reply: true, ..SearchPolicy::DEFAULT };

impl<const FFA: bool> Evaluation for Chaturanga<FFA> {
    const MOVE_INDEX_SPACE: usize = 64 * 64 + 1;

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

    // Five kinds on 64 squares, and the pass.
    const PIECE_TO_SPACE: usize = 5 * 64 + 1;

    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        if m == PASS { 5 * 64 } else { self.kind_at(1u64 << m.from()) * 64 + m.to() }
    }

    fn tactical_moves(&self, out: &mut List<Move>) {
        if self.over.is_some() {
            return;
        }
        if self.must_answer_check() {
            self.legal_moves(out);
        } else {
            self.generate(self.turn as usize, out, true);
        }
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m, threshold)
    }

    fn play_null(&mut self) {
        self.pass();
    }

    fn with_turn(&self, seat: Seat) -> Option<Self> {
        // Only all against all: there a skipped turn is an army that waits. In Double Mate the
        // sides alternate and plain alpha-beta applies.
        if !FFA || self.over.is_some() || seat > Seat(3) || self.out & (1 << seat.0) != 0 {
            return None;
        }
        let mut p = self.clone();
        p.hash ^= tables().z_turn[p.turn as usize] ^ tables().z_turn[seat.index()];
        p.turn = seat.0;
        Some(p)
    }
}

/// `tetrarch tune` fits Double Mate's `WEIGHTS` to two-sided results and all against all's
/// `FFA_WEIGHTS` to every army's places; the two lists leave different weights fixed.
impl<const FFA: bool> Tunable for Chaturanga<FFA> {
    type Weights = Weights;
    const WEIGHTS: Weights = if FFA { FFA_WEIGHTS } else { WEIGHTS };
    const WEIGHTS_NAME: &'static str = if FFA { "FFA_WEIGHTS" } else { "WEIGHTS" };
    const FORM: bool = FFA;
    const FIT: Fit = if FFA { Fit::Places } else { Fit::FirstSide };
    fn eval_with(&self, seat: Seat, w: &Weights) -> i32 {
        self.eval_for_with(self.side_of(seat), w)
    }
}
