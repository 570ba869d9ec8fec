//! Judtho exchange evaluation. Four players, line captures that take several pieces and
//! distant captures that take them from afar make a full swap list unclear; two plies tell most
//! of it: what the move takes, less the moved piece if an Opponent of its owner then attacks
//! the square it stands on.

use super::eval::VALUE;
use super::*;
use crate::board::geometry::KNIGHT_STEPS;

impl Judtho {
    /// What `m` wins in centipawns once the square it lands on is answered.
    pub(super) fn exchange(&self, m: Move) -> i32 {
        let value = |sq: usize| self.board.at(sq).map(|p| VALUE[p.1 as usize]).unwrap_or(0);
        match m.kind() {
            STEP | JUMP => {
                let (from, to) = (m.from(), m.to());
                let Some((owner, kind)) = self.board.at(from) else { return 0 };
                let mut taken = if self.board.occ.has(to) { Set::square(to) } else { Set::EMPTY };
                if m.kind() == STEP {
                    taken |= attacks::between(from, to) & self.board.occ;
                }
                let placed = m.promotion().unwrap_or(kind);
                let gain = taken.iter().map(value).sum::<i32>() + VALUE[placed as usize] - VALUE[kind as usize];
                let at_risk = placed != KING && self.attacked_after(owner, from, to, placed, taken);
                gain - if at_risk { VALUE[placed as usize] } else { 0 }
            }
            DISTANT => {
                // The knight stays where it stood: only what it takes counts.
                let from = m.from();
                KNIGHT_STEPS
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| m.leaps() & (1 << i) != 0)
                    .map(|(_, &(df, dr))| {
                        value(((from / 12) as i32 + dr) as usize * 12 + ((from % 12) as i32 + df) as usize)
                    })
                    .sum()
            }
            _ => 0,
        }
    }

    /// Whether an Opponent of `owner` attacks `to` once `owner`'s piece has moved there from
    /// `from` as `placed`, taking `taken`. Read on the board as it stands, the captures left out
    /// of the attackers and the occupancy; only a Prince near the square, whose line reads whose
    /// pieces stand on it, needs the board after the move.
    fn attacked_after(&self, owner: u8, from: usize, to: usize, placed: u8, taken: Set) -> bool {
        let atk = self.board.of(self.rel.opponents(owner)).minus(taken);
        if (self.board.by_kind[PRINCE as usize] & atk & tables().orth3[to]).any() {
            let b = self.board.after(taken.with(from), Some((owner, placed, to)));
            return b.attacked(to, self.rel.opponents(owner), &self.rel);
        }
        let occ = self.board.occ.minus(taken).without(from).with(to);
        self.board.attacked_by(to, atk, &self.rel, occ)
    }
}
