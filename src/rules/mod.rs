//! The rules core shared by every game: seats, sides and outcomes, the three traits a game
//! implements (`Rules`, `Notation`, `Evaluation`), move lists, the game record that knows a
//! game's history, perft, and what a game declares of itself as a variant.
//!
//! Every rule lives in exactly one place: the engine's search, the protocol session, the match
//! arbiter and the tests all go through the games' implementations of these traits.

pub mod actions;
pub mod diagram;
mod error;
mod game;
mod movelist;
mod perft;
mod record;
mod standing;
pub mod text;
mod variant;
pub mod weights;

pub use actions::Actions;
pub use diagram::Draw;
pub use error::{MoveError, PositionError};
pub(crate) use game::move_word;
pub use game::{Evaluation, Game, Inputs, Notation, Packed, Rules, UciDialect, listed_difference, retain_tactical};
pub use movelist::{MoveBuffer, MoveList};
pub use perft::{perft, perft_divide, perft_split, perft_stoppable};
pub use record::{Record, Trace, perpetual_checker, position_words, repetition_outcome};
pub use standing::{places, places_by_key, points_of_forfeit, points_of_outcome};

/// A game's buffer of its own moves.
pub type MovesOf<G> = <G as Rules>::Moves<<G as Rules>::Move>;
pub use variant::{BenchPositions, SearchPolicy, VariantSpec};
pub use weights::Tunable;

/// A player slot, `0..seats`. Each game names its seats with letters (`VariantSpec::seats`).
///
/// Seats, sides and sets of seats are three types, so that the compiler keeps apart what the
/// design keeps apart (design.md, "seats and sides"): a seat is who moves, a side is whose
/// interests a score serves, and neither is a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into a per-seat table.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The set of this seat alone.
    pub const fn mask(self) -> SeatMask {
        SeatMask(1 << self.0)
    }
    /// The seats of a game of `n` seats, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> {
        (0..n as u8).map(Seat)
    }
}

/// A set of seats whose interests coincide right now, named by a number the game chooses: a
/// seat's own number where every seat is its own side, the partnership's in Double Mate, the
/// alliance's in Judtho. Two seats are on one side when their sides are equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Side(pub u8);

impl Side {
    /// The side as an index into a per-side table.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of seats (bit `s` for seat `s`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatMask(pub u8);

impl SeatMask {
    pub const EMPTY: SeatMask = SeatMask(0);

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// The seats in the set, lowest first.
    pub fn seats(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |&s| self.0 & (1 << s) != 0).map(Seat)
    }
}

impl std::ops::BitOr for SeatMask {
    type Output = SeatMask;
    fn bitor(self, other: SeatMask) -> SeatMask {
        SeatMask(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for SeatMask {
    fn bitor_assign(&mut self, other: SeatMask) {
        self.0 |= other.0;
    }
}

impl std::ops::BitAnd for SeatMask {
    type Output = SeatMask;
    fn bitand(self, other: SeatMask) -> SeatMask {
        SeatMask(self.0 & other.0)
    }
}

impl FromIterator<Seat> for SeatMask {
    fn from_iter<I: IntoIterator<Item = Seat>>(seats: I) -> SeatMask {
        seats.into_iter().fold(SeatMask::EMPTY, |m, s| m | s.mask())
    }
}

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
        Outcome { winners: SeatMask::EMPTY, reason }
    }
    pub fn win(winners: SeatMask, reason: Termination) -> Self {
        Outcome { winners, reason }
    }
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty()
    }
}

pub fn seat_letter<G: Rules>(seat: Seat) -> char {
    G::VARIANT.seats.as_bytes().get(seat.index()).map(|&b| b as char).unwrap_or('?')
}

pub fn mask_letters<G: Rules>(mask: SeatMask) -> String {
    let s: String = mask.seats().map(seat_letter::<G>).collect();
    if s.is_empty() { "-".to_string() } else { s }
}

/// The traits and types that code using the games needs in scope: `use tetrarch::rules::prelude::*`.
pub mod prelude {
    pub use super::{
        Evaluation, Game, Inputs, MoveBuffer, MoveList, MovesOf, Notation, Record, Rules, Seat, SeatMask, Side,
    };
}
