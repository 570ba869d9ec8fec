//! The learned evaluation in the search (docs/nnue.md). Each ply keeps both perspectives'
//! accumulators; a child's are its parent's with the rows of the inputs its move changed taken
//! off and put on, so that an evaluation costs the network's small layers and no sum over the
//! position. The game tells what a move changes (`Inputs::input_changes`: Judkins's
//! drops, captures and promotions); a null move changes nothing. A game that does not
//! (`INPUT_CHANGES` false: Dojo, whose turn ends may change many pieces and counters) tells
//! the difference between a parent and its child instead (`Inputs::input_difference`).
//!
//! With two sides the perspectives are the two sides', and the network judges for the side to
//! move. With more (all against all) the search plays for the root's army against the others,
//! as the game's own evaluation does there: the perspectives are the root's army and the one
//! after it (`Inputs::perspectives`), the same for the whole search, and the network judges
//! for the root, turned round for the others.

use super::*;
use crate::nnue::{Active, Network};

/// A network in use and its per-ply state.
pub(super) struct Learned {
    net: Arc<Network>,
    /// The accumulator of perspective `k` at `ply`: `[(ply * 2 + k) * hidden..][..hidden]`.
    acc: Vec<i16>,
    /// The sides whose perspectives the accumulators hold: the two sides in order, or, with more
    /// than two, the root's and the next (set with the root's).
    sides: [Side; 2],
    /// Scratch lists of the inputs one move changed, per perspective.
    removed: [Active; 2],
    added: [Active; 2],
    /// Tests: each accumulator made from its parent's is compared with one made from scratch.
    checking: bool,
    checked: u64,
    mismatched: u64,
}

/// Whether the game has two sides, whose perspectives the network sees from the side to move's.
const fn two_sides<G: Game>() -> bool {
    G::VARIANT.players.len() == 2
}

/// Why a searcher does not take a network.
pub fn network_fits<G: Game>(net: &Network) -> Result<(), String> {
    if net.variant != G::VARIANT.name {
        return Err(format!("the network is for {}, not {}", net.variant, G::VARIANT.name));
    }
    if G::FEATURES == 0 {
        return Err(format!("{} has no inputs for a learned evaluation", G::VARIANT.name));
    }
    if net.features != G::FEATURES || net.max_active < G::MAX_ACTIVE {
        return Err(format!(
            "the network has {} inputs ({} active), {} has {} ({} active)",
            net.features,
            net.max_active,
            G::VARIANT.name,
            G::FEATURES,
            G::MAX_ACTIVE
        ));
    }
    Ok(())
}

impl<G: Game> Searcher<G> {
    /// Evaluates with `net` from the next search on, or with the game's own evaluation
    /// (`None`). A network for another game or input set is refused and nothing changes. The
    /// hash table is cleared, since its stored evaluations were the other evaluation's.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) -> Result<(), String> {
        if let Some(n) = &net {
            network_fits::<G>(n)?;
        }
        let same = match (&net, &self.learned) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, &b.net),
            (None, None) => true,
            _ => false,
        };
        if same {
            return Ok(());
        }
        for h in self.helpers.iter_mut() {
            h.set_network(net.clone())?;
        }
        self.learned = net.map(|net| Learned {
            acc: vec![0; (MAX_PLY + 2) * 2 * net.hidden],
            sides: [Side(0), Side(1)],
            removed: Default::default(),
            added: Default::default(),
            checking: false,
            checked: 0,
            mismatched: 0,
            net,
        });
        // A helper shares the main searcher's table, which the main searcher clears.
        if !self.helper {
            self.clear();
        }
        Ok(())
    }

    /// The network the search evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.learned.as_ref().map(|l| &l.net)
    }

    /// The accumulators of the position searched at `ply` from scratch: the root's, whose seat
    /// is `root_seat`.
    pub(super) fn refresh(&mut self, pos: &G, ply: usize) {
        let root_seat = self.root_seat;
        let Some(l) = self.learned.as_mut() else { return };
        l.sides = if two_sides::<G>() { [Side(0), Side(1)] } else { pos.perspectives(root_seat) };
        let h = l.net.hidden;
        let mut active = Active::default();
        for (k, &side) in l.sides.iter().enumerate() {
            let i = ply * 2 + k;
            active.clear();
            pos.features(side, &mut active);
            l.net.refresh(&mut l.acc[i * h..(i + 1) * h], active.as_slice());
        }
    }

    /// The accumulators of `child`, searched at `ply`, from those of its parent `pos` at
    /// `ply - 1`, which `mv` led from (none: a null move).
    #[inline]
    pub(super) fn accumulate(&mut self, pos: &G, mv: Option<G::Move>, child: &G, ply: usize) {
        debug_assert!(ply >= 1);
        let Some(l) = self.learned.as_mut() else { return };
        let h = l.net.hidden;
        for side in 0..2 {
            l.removed[side].clear();
            l.added[side].clear();
        }
        if !G::INPUT_CHANGES {
            pos.input_difference(child, l.sides, &mut l.removed, &mut l.added);
        }
        for (side, &perspective) in l.sides.iter().enumerate() {
            let (i, parent) = (ply * 2 + side, (ply - 1) * 2 + side);
            if G::INPUT_CHANGES
                && let Some(m) = mv
            {
                pos.input_changes(m, perspective, &mut l.removed[side], &mut l.added[side]);
            }
            let (low, high) = l.acc.split_at_mut(i * h);
            l.net.update(
                &low[parent * h..(parent + 1) * h],
                &mut high[..h],
                l.removed[side].as_slice(),
                l.added[side].as_slice(),
            );
            if l.checking {
                let mut scratch = vec![0i16; h];
                let mut active = Active::default();
                child.features(perspective, &mut active);
                l.net.refresh(&mut scratch, active.as_slice());
                l.checked += 1;
                l.mismatched += (scratch[..] != high[..h]) as u64;
            }
        }
    }

    /// The accumulators of `child`, searched at `ply`, from those of `pos` at `ply - 1`, where
    /// several turns lead from one to the other: Best-Reply Search's reply with the ordered turns
    /// after it, or the root side's turn handed back when no Opponent can move.
    pub(super) fn accumulate_turns(&mut self, pos: &G, child: &G, ply: usize) {
        if G::INPUT_CHANGES {
            // The changes are told one move at a time: made from scratch.
            self.refresh(child, ply);
        } else {
            self.accumulate(pos, None, child, ply);
        }
    }

    /// The network's evaluation of `pos` at `ply` from the view of the team to move.
    #[inline]
    pub(super) fn learned_eval(&self, pos: &G, ply: usize) -> i32 {
        let Some(l) = self.learned.as_ref() else { return 0 };
        let h = l.net.hidden;
        let at = |k: usize| &l.acc[(ply * 2 + k) * h..(ply * 2 + k + 1) * h];
        let mover = pos.side_of(pos.to_move());
        // With two sides the network judges for the side to move; with more, for the root's
        // seat (the first perspective) and so for its side in this position (in Judtho a
        // checkmate below the root may have moved it), and the others' view is its negation.
        let (judged, us) =
            if two_sides::<G>() { (mover, (mover != l.sides[0]) as usize) } else { (self.root_side(pos), 0) };
        let mut e = l.net.output(at(us), at(1 - us));
        if l.net.adds_own {
            e += pos.evaluate(judged);
        }
        if judged != mover {
            e = -e;
        }
        e.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Tests: from now on every accumulator the search makes from its parent's is also made
    /// from scratch and compared (`accumulator_checks`).
    pub fn check_accumulators(&mut self, on: bool) {
        if let Some(l) = self.learned.as_mut() {
            l.checking = on;
        }
    }

    /// How many accumulators were compared with their from-scratch twins, and how many differed.
    pub fn accumulator_checks(&self) -> (u64, u64) {
        self.learned.as_ref().map_or((0, 0), |l| (l.checked, l.mismatched))
    }
}
