//! A fixed numbering of every game's moves, for learning agents (the Python package's action
//! spaces). A move is one action, or, where one move carries choices that would multiply the
//! numbering past any use (Dojo's D6 piece and D9 deputy, Judtho's pawn promotions and its
//! promotion squares on checkmate), its base action followed by one action per choice, as
//! OpenSpiel splits an Amazons move. Each action id means the same thing in every position.

use super::Rules;

pub trait Actions: Rules {
    /// Action ids are `0..ACTIONS`; `ACTIONS` itself is `END`, which closes a move whose
    /// actions are also the start of another legal move's (Dojo's `b7b8` beside `b7b8/c5`).
    const ACTIONS: u32;
    /// The actions of `mv`, in order: the move, then its choices. Two legal moves of a
    /// position never have the same list.
    fn action_tokens(mv: Self::Move, out: &mut Vec<u32>);
}

/// The action that ends a move which is the start of another (see `Actions::ACTIONS`).
pub fn end<G: Actions>() -> u32 {
    G::ACTIONS
}
