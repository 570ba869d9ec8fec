//! Judtho's inputs for a learned evaluation (docs/nnue.md). A perspective is a seat's: each
//! piece by its kind, its square and what its owner is to that seat (the seat itself, or each
//! other seat by its place after it in the turn order and as its Ally, its Opponent, or neither:
//! the Rival while the Rivalries stand), the pieces in hand the same way, each seat's rank in its
//! alliance and the checkmates so far. The relationships are in the inputs, not in the weights:
//! a checkmate that turns an Opponent into an Ally changes the inputs of all his pieces, and one
//! set of weights serves every seat and every alliance.
//!
//! A perspective mirrors the board so that its seat's Realm is White's, a1-f4, and its pawns go
//! up: Yellow's files are turned, Red's ranks, Black's both (the Realms are 6x4, so no quarter
//! turn takes one onto another).
//!
//! The search's perspectives are seats, not sides (`Inputs::perspectives`): the root seat's
//! and the first after it in another alliance. A seat's index stands for the side in the
//! `Side` the search passes, which in Judtho is always a seat's (the First Ally's).

use super::*;
use crate::nnue::Active;
use crate::rules::Inputs;

const KINDS: usize = 8;
/// Owner classes: the seat itself, then places 1-3 after it × (Ally, Opponent, neither).
const CLASSES: usize = 1 + 3 * 3;
const BOARD_INPUTS: usize = CLASSES * KINDS * SQUARES;
/// A hand: the first King, Queen, Prince, Princess, Rook, Knight and Bishop, and the first to
/// the sixth Pawn.
const HAND_SLOTS: usize = 7 + 6;
const HAND_BASE: usize = BOARD_INPUTS;
/// Per place: the seat's rank in its alliance (0 single, 1 First Ally, 2 Second, 3 Third).
const RANK_BASE: usize = HAND_BASE + 4 * HAND_SLOTS;
/// The checkmates so far: 0, 1, 2 (the third ends the game).
const MATES_BASE: usize = RANK_BASE + 4 * 4;

/// The place of `owner` after `view` in the turn order (0: `view` itself).
#[inline(always)]
fn place(view: u8, owner: u8) -> usize {
    ((owner + 4 - view) % 4) as usize
}

/// `sq` seen from `view`: White's Realm where `view`'s stands.
#[inline(always)]
fn mirrored(view: u8, sq: usize) -> usize {
    let (file, rank) = (sq % 12, sq / 12);
    let file = if view & 2 != 0 { 11 - file } else { file };
    let rank = if view & 1 != 0 { 11 - rank } else { rank };
    rank * 12 + file
}

impl Judtho {
    /// The owner class of `owner`'s pieces seen from `view` (`CLASSES`).
    #[inline(always)]
    fn owner_class(&self, view: u8, owner: u8) -> usize {
        if owner == view {
            return 0;
        }
        let place = place(view, owner);
        let relation = if self.rel.allied(view, owner) {
            0
        } else if self.rel.opponents(view) & (1 << owner) != 0 {
            1
        } else {
            2
        };
        1 + (place - 1) * 3 + relation
    }

    #[inline(always)]
    fn piece_input(class: usize, view: u8, kind: usize, sq: usize) -> usize {
        (class * KINDS + kind) * SQUARES + mirrored(view, sq)
    }

    /// The `i`-th piece of `kind` in the hand of the seat at `place` after the view's.
    #[inline(always)]
    fn hand_input(place: usize, kind: usize, i: usize) -> usize {
        HAND_BASE + place * HAND_SLOTS + kind.min(PAWN as usize) + i
    }
}

impl Inputs for Judtho {
    const FEATURES: usize = MATES_BASE + 3;
    /// Every piece is one input, on the board or in hand (52), then four ranks and the checkmates.
    const MAX_ACTIVE: usize = 4 * 13 + 4 + 1;

    fn features(&self, side: Side, out: &mut Active) {
        let view = side.index() as u8 % 4;
        for owner in 0..4u8 {
            let class = self.owner_class(view, owner);
            for kind in 0..KINDS {
                for sq in (self.board.by_seat[owner as usize] & self.board.by_kind[kind]).iter() {
                    out.push(Self::piece_input(class, view, kind, sq));
                }
            }
            let place = place(view, owner);
            for kind in 0..KINDS {
                for i in 0..self.hand[owner as usize][kind] as usize {
                    out.push(Self::hand_input(place, kind, i));
                }
            }
            out.push(RANK_BASE + place * 4 + self.rel.rank(owner).min(3) as usize);
        }
        out.push(MATES_BASE + self.rel.mates().min(2) as usize);
    }

    /// Seats, not sides: `seat`'s own view, and that of the first seat after it in another
    /// alliance. A side's view would change with every checkmate that moves its First Ally.
    fn perspectives(&self, seat: Seat) -> [Side; 2] {
        let us = seat.index() as u8 % 4;
        let them = (1..4).map(|k| (us + k) % 4).find(|&s| self.rel.side(s) != self.rel.side(us)).unwrap_or(us);
        [Side(us), Side(them)]
    }

    /// With the relationships unchanged only the pieces and hands that changed are compared; a
    /// checkmate, which changes the classes of whole armies, compares the two lists.
    fn input_difference(&self, child: &Self, sides: [Side; 2], removed: &mut [Active; 2], added: &mut [Active; 2]) {
        if self.rel != child.rel {
            return crate::rules::listed_difference(self, child, sides, removed, added);
        }
        let views = sides.map(|s| s.index() as u8 % 4);
        // The squares whose piece changed: a move touches two to four of them, and each is read
        // from the mailbox instead of every owner's kinds being compared set by set.
        let mut changed = Set::EMPTY;
        for (a, b) in self.board.by_seat.iter().zip(&child.board.by_seat) {
            changed |= *a ^ *b;
        }
        for (a, b) in self.board.by_kind.iter().zip(&child.board.by_kind) {
            changed |= *a ^ *b;
        }
        for sq in changed.iter() {
            for (board, lists) in [(&self.board, &mut *removed), (&child.board, &mut *added)] {
                if let Some((owner, kind)) = board.at(sq) {
                    for (&view, list) in views.iter().zip(lists.iter_mut()) {
                        list.push(Self::piece_input(self.owner_class(view, owner), view, kind as usize, sq));
                    }
                }
            }
        }
        for owner in 0..4u8 {
            let o = owner as usize;
            if self.hand[o] != child.hand[o] {
                for kind in 0..KINDS {
                    let (before, after) = (self.hand[o][kind] as usize, child.hand[o][kind] as usize);
                    let (lists, range) =
                        if before > after { (&mut *removed, after..before) } else { (&mut *added, before..after) };
                    for i in range {
                        for (&view, list) in views.iter().zip(lists.iter_mut()) {
                            list.push(Self::hand_input(place(view, owner), kind, i));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_takes_each_realm_onto_whites() {
        // The corners a1 (White's Realm), a12 (Red's), l1 (Yellow's) and l12 (Black's).
        for (view, corner) in [(0, 0), (1, 132), (2, 11), (3, 143)] {
            assert_eq!(mirrored(view, corner), 0);
        }
        for view in 0..4 {
            for sq in 0..SQUARES {
                assert_eq!(mirrored(view, mirrored(view, sq)), sq);
            }
        }
    }

    #[test]
    fn the_blocks_of_inputs_follow_each_other() {
        assert_eq!(Judtho::piece_input(CLASSES - 1, 0, KINDS - 1, 143), HAND_BASE - 1);
        assert_eq!(Judtho::hand_input(3, PAWN as usize, 5), RANK_BASE - 1);
        assert_eq!(Judtho::hand_input(0, BISHOP as usize, 0) + 1, Judtho::hand_input(0, PAWN as usize, 0));
    }
}
