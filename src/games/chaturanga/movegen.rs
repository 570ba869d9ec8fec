//! Chaturanga move generation and make-move.

use super::*;

impl<const FFA: bool> Chaturanga<FFA> {
    /// Moves the pieces for army `a`'s move `m` (not a pass). Returns whether it captured or
    /// moved a pawn (C5's counter).
    pub(super) fn apply(&mut self, a: usize, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let k = self.kind_at(fb);
        let mut reset = k == PAWN;
        if self.occupied() & tb != 0 {
            let (c, ck) = (self.army_at(tb), self.kind_at(tb));
            self.remove(c, ck, to);
            reset = true;
            if FFA && ck == KING {
                self.go_out(c);
            }
        }
        self.remove(a, k, from);
        self.put(a, m.promotion().unwrap_or(k), to);
        if k == SHIP {
            let mut block = self.concourse(from, to);
            while block != 0 {
                let sq = pop(&mut block);
                let o = self.army_at(1u64 << sq);
                if o == a {
                    continue;
                }
                self.remove(o, SHIP, sq);
                if !FFA && o == (a ^ 2) {
                    // C6: the partner's ships join the mover's army.
                    self.put(a, SHIP, sq);
                } else {
                    reset = true;
                }
            }
        }
        reset
    }

    /// Army `a`'s legal moves, as if it were its turn, without the pass. `tactical` keeps
    /// only captures and promotions.
    pub(super) fn generate(&self, a: usize, out: &mut List<Move>, tactical: bool) {
        let t = tables();
        let occ = self.occupied();
        let own = self.army[a];
        if own & self.kind[KING] == 0 {
            return; // out (all against all): its pieces are inert
        }
        let enemies = self.enemies(a);
        // What may be taken: in Double Mate an enemy piece other than a king (C1); in all against
        // all anything not one's own, kings and inert pieces included (C7).
        let capturable = if FFA { occ & !own } else { self.armies_bb(enemies) & !self.kind[KING] };
        let targets = if tactical { capturable } else { capturable | !occ };
        let ksq = (own & self.kind[KING]).trailing_zeros() as usize;

        // Double Mate: moves that might uncover the king are tried on a copy; all others are
        // legal at once. Only rooks slide, so only rank and file pins exist.
        let (checked, pinned) = if FFA {
            (false, 0)
        } else {
            let checkers = self.attackers(ksq, enemies, occ);
            let mut pinned = 0;
            let mut snipers = t.rook_empty[ksq] & self.kind[ROOK] & self.armies_bb(enemies);
            while snipers != 0 {
                let s = pop(&mut snipers);
                let b = t.between[ksq][s] & occ;
                if b & (b.wrapping_sub(1)) == 0 && b & own != 0 {
                    pinned |= b;
                }
            }
            (checkers != 0, pinned)
        };

        let mut push = |me: &Self, from: usize, to: usize, promo: u16, ship: bool| {
            let m = Move::new(from, to, promo);
            if FFA
                || !(checked || pinned & (1u64 << from) != 0 || (ship && me.concourse(from, to) != 0))
                || me.safe_after(a, m)
            {
                out.push(m);
            }
        };

        let mut pieces = own & !self.kind[KING];
        while pieces != 0 {
            let from = pop(&mut pieces);
            let fb = 1u64 << from;
            if self.kind[PAWN] & fb != 0 {
                let mut to_bb = (t.pawn_push[a][from] & !occ) | (t.pawn_attacks[a][from] & capturable);
                if tactical {
                    to_bb &= capturable | t.last[a];
                }
                while to_bb != 0 {
                    let to = pop(&mut to_bb);
                    if t.last[a] & (1u64 << to) != 0 {
                        for p in 1..=3 {
                            push(self, from, to, p, false);
                        }
                    } else {
                        push(self, from, to, 0, false);
                    }
                }
                continue;
            }
            let (att, ship) = if self.kind[KNIGHT] & fb != 0 {
                (t.knight[from], false)
            } else if self.kind[SHIP] & fb != 0 {
                (t.ship[from], true)
            } else {
                (SLIDERS.rook(from, occ), false)
            };
            let mut to_bb = att & targets;
            while to_bb != 0 {
                push(self, from, pop(&mut to_bb), 0, ship);
            }
        }

        let mut to_bb = t.king[ksq] & targets;
        while to_bb != 0 {
            let to = pop(&mut to_bb);
            if FFA || self.attackers(to, enemies, occ ^ (1u64 << ksq)) == 0 {
                out.push(Move::new(ksq, to, 0));
            }
        }
    }

    /// Plays a legal move (or the pass) and hands the turn on.
    pub(super) fn make(&mut self, m: Move) {
        let a = self.turn as usize;
        let reset = m != PASS && self.apply(a, m);
        self.quiet = if reset { 0 } else { self.quiet + 1 };
        self.number = self.number.saturating_add(1);
        let next = self.next_turn(self.turn);
        self.hash ^= tables().z_turn[self.turn as usize] ^ tables().z_turn[next as usize];
        self.turn = next;
        self.over = self.compute_over();
    }

    /// Hands the turn on without moving.
    pub(super) fn pass(&mut self) {
        let next = self.next_turn(self.turn);
        self.hash ^= tables().z_turn[self.turn as usize] ^ tables().z_turn[next as usize];
        self.turn = next;
        self.number = self.number.saturating_add(1);
    }
}
