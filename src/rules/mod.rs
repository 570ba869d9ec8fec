//! The rules core shared by every game: seats, sides and outcomes, the three traits a game
//! implements (`Rules`, `Notation`, `Evaluation`), move lists, the game record that knows a
//! game's history, perft, and the one registry of variants.
//!
//! Every rule lives in exactly one place: the engine's search, the protocol session, the match
//! arbiter and the tests all go through the games' implementations of these traits.

pub mod actions;
pub mod diagram;
mod game;
mod movelist;
mod perft;
mod record;
pub mod registry;
pub mod text;
pub mod weights;

pub use actions::Actions;
pub use diagram::Draw;
pub use game::{Evaluation, Game, Notation, Packed, Rules, UciDialect, retain_tactical};
pub use movelist::{MoveBuffer, MoveList};
pub use perft::{perft, perft_divide, perft_split, perft_stoppable};
pub use record::{Record, Trace, perpetual_checker, position_words, repetition_outcome};

/// A game's buffer of its own moves.
pub type MovesOf<G> = <G as Rules>::Moves<<G as Rules>::Move>;
pub use registry::{VARIANTS, VariantSpec};

/// A player slot, `0..seats`. Each game names its seats with letters (`VariantSpec::seats`).
pub type Seat = u8;
/// A set of seats whose interests coincide right now.
pub type Side = u8;
/// A set of seats as a bit mask (bit `s` for seat `s`).
pub type SeatMask = u8;

/// Why a game ended. The text is what `status`, `d` and game records print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    /// No legal move without being in check, where the rules make that a draw.
    Stalemate,
    Repetition,
    PerpetualCheck,
    MoveLimit,
    /// Chaturanga Double Mate: the enemy armies are mated or lone kings, none mated (C4).
    LoneKings,
    /// Chaturanga all against all: the last king standing (C8).
    KingCapture,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::MoveLimit => "move-limit",
            Termination::LoneKings => "lone-kings",
            Termination::KingCapture => "king-capture",
        }
    }
}

/// The end of a game. `winners` empty means a draw among all seats still in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winners: SeatMask,
    pub reason: Termination,
}

impl Outcome {
    pub fn draw(reason: Termination) -> Self {
        Outcome { winners: 0, reason }
    }
    pub fn win(winners: SeatMask, reason: Termination) -> Self {
        Outcome { winners, reason }
    }
    pub fn is_draw(&self) -> bool {
        self.winners == 0
    }
}

pub fn seat_letter<G: Rules>(seat: Seat) -> char {
    G::VARIANT.seats.as_bytes().get(seat as usize).map(|&b| b as char).unwrap_or('?')
}

pub fn mask_letters<G: Rules>(mask: SeatMask) -> String {
    let s: String = (0..8u8).filter(|s| mask & (1 << s) != 0).map(seat_letter::<G>).collect();
    if s.is_empty() { "-".to_string() } else { s }
}

/// The traits and types that code using the games needs in scope: `use tetrarch::rules::prelude::*`.
pub mod prelude {
    pub use super::{Evaluation, Game, MoveBuffer, MoveList, MovesOf, Notation, Record, Rules};
}
