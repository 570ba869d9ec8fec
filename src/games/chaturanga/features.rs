//! Four-handed Chaturanga's inputs for a learned evaluation (docs/nnue.md): each piece by its
//! kind, its square and its army's place in the turn order seen from the perspective's army
//! (the army itself, the Opponent after it, the army across, the one after that). A perspective
//! turns the board by as many quarters as its army's place after Yellow, so that every army
//! sees its own camp where Yellow's stands, the other camps and the pawns' directions gone round
//! with it, and one set of weights serves every perspective. Double Mate's two perspectives are
//! its sides' first armies, Yellow and Black; all against all's are any two of the four.
//!
//! The search updates a child's accumulators by comparing the twenty bitboards of army and
//! kind with its parent's: a concourse (C6) hands pieces from one army to another, which a list
//! of a move's changes would have to repeat from `make`, and the comparison is as cheap.

use super::*;
use crate::nnue::Active;
use crate::rules::Inputs;

const KINDS: usize = 5;

/// A square turned by `q` quarters: one quarter takes (file, rank) to (7 - rank, file), Black's
/// camp onto Yellow's, Red's onto Black's and so on round the board, the turn order kept.
const TURNED: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = sq as u8;
        let mut q = 1;
        while q < 4 {
            let s = t[q - 1][sq] as usize;
            t[q][sq] = ((s % 8) * 8 + 7 - s / 8) as u8;
            q += 1;
        }
        sq += 1;
    }
    t
};

/// The input of a piece of `army` and `kind` on `sq`, seen from the army `view` (Double Mate:
/// 0 for Yellow and Red, 1 for Black and Green).
#[inline(always)]
fn piece_input(view: usize, army: usize, kind: usize, sq: usize) -> usize {
    let place = (army + 4 - view) % 4;
    (place * KINDS + kind) * 64 + TURNED[view][sq] as usize
}

// Both forms see the pieces the same way: Double Mate from its two sides, all against all from
// any of its four armies.
impl<const FFA: bool> Inputs for Chaturanga<FFA> {
    const FEATURES: usize = 4 * KINDS * 64;
    /// Every piece is one input: at most 32 on the board.
    const MAX_ACTIVE: usize = 32;

    fn features(&self, side: Side, out: &mut Active) {
        let view = side.index() % 4;
        for army in 0..4 {
            for kind in 0..KINDS {
                let mut b = self.army[army] & self.kind[kind];
                while b != 0 {
                    out.push(piece_input(view, army, kind, pop(&mut b)));
                }
            }
        }
    }

    /// The twenty bitboards of army and kind compared with the parent's.
    fn input_difference(&self, child: &Self, sides: [Side; 2], removed: &mut [Active; 2], added: &mut [Active; 2]) {
        let views = sides.map(|s| s.index() % 4);
        for army in 0..4 {
            for kind in 0..KINDS {
                let (before, after) = (self.army[army] & self.kind[kind], child.army[army] & child.kind[kind]);
                for (bits, lists) in [(before & !after, &mut *removed), (after & !before, &mut *added)] {
                    let mut b = bits;
                    while b != 0 {
                        let sq = pop(&mut b);
                        for (&view, list) in views.iter().zip(lists.iter_mut()) {
                            list.push(piece_input(view, army, kind, sq));
                        }
                    }
                }
            }
        }
    }
}
