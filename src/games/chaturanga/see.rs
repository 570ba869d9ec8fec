//! Chaturanga static exchange evaluation.

use super::eval::VICTIM;
use super::*;

impl<const FFA: bool> Chaturanga<FFA> {
    /// Static exchange on `m`'s square: whether the army to move keeps at least `threshold`
    /// when every piece that attacks the square takes in turn, least valuable first. The
    /// mover's side is its own army (and its partner's in Double Mate); the other side is every
    /// army that attacks it, as one: in all against all the first of them to move takes, and the
    /// rest are as glad to take again. A king takes last, and only when nothing guards the
    /// square. Pieces of an army that is out are worth nothing to take (C7).
    pub(super) fn see(&self, m: Move, threshold: i32) -> bool {
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
                    attackers |= SLIDERS.rook(to, occ) & rooks;
                    foe_turn = !foe_turn;
                    continue 'exchange;
                }
            }
            // Only the king is left to take.
            return if attackers & other != 0 { !res } else { res };
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Evaluation, Notation};

    /// The exchange on a5 after yellow's rook takes black's knight there, with a green pawn on
    /// b4 guarding it and, on a8, a red rook: yellow's partner in Double Mate, one more enemy in
    /// all against all.
    #[test]
    pub(super) fn static_exchange_counts_partners_and_enemies() {
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
}
