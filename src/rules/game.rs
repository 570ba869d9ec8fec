//! What a game is to the rest of the engine, in three parts: `Rules` (the game itself: its
//! moves, turns, sides and ends), `Notation` (its texts, both ways) and `Evaluation` (what the
//! search needs beyond the rules). `Game` is all three. The arbiter's seat bookkeeping and perft
//! need only `Rules`, the protocol and records `Notation` too, the search `Evaluation`.

use super::diagram::Draw;
use super::error::{MoveError, PositionError};
use super::variant::VariantSpec;
use super::{MoveBuffer, Outcome, Seat, SeatMask, Side};
use crate::nnue::Active;
use std::fmt;

/// A move as bits, for tables that keep moves in machine words (the shared hash table).
pub trait Packed: Copy {
    fn pack(self) -> u64;
    /// Any bits give some value, never a panic: a move read back from a table is only compared
    /// with the moves generated in the position.
    fn unpack(bits: u64) -> Self;
}

impl Packed for u8 {
    fn pack(self) -> u64 {
        self as u64
    }
    fn unpack(bits: u64) -> Self {
        bits as u8
    }
}

/// A game's move that is a newtype over a word of bits (`$word`): `Packed` as that word, and
/// `Debug` as the move's canonical text (`$format`), so that a failed assertion shows what a
/// person would type. With `squares: $bits`, the word starts with the from-square and the
/// to-square, `$bits` bits each, and the macro writes their accessors `from` and `to`.
macro_rules! move_word {
    ($mv:ident($word:ty), $format:path, squares: $bits:expr) => {
        impl $mv {
            /// The square the move starts from.
            #[inline(always)]
            pub fn from(self) -> usize {
                (self.0 & ((1 << $bits) - 1)) as usize
            }
            /// The square the move ends on.
            #[inline(always)]
            pub fn to(self) -> usize {
                ((self.0 >> $bits) & ((1 << $bits) - 1)) as usize
            }
        }
        $crate::rules::move_word!($mv($word), $format);
    };
    ($mv:ident($word:ty), $format:path) => {
        impl $crate::rules::Packed for $mv {
            fn pack(self) -> u64 {
                self.0 as u64
            }
            fn unpack(bits: u64) -> Self {
                $mv(bits as $word)
            }
        }

        impl std::fmt::Debug for $mv {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$format(*self))
            }
        }
    };
}
pub(crate) use move_word;

/// One game's rules.
///
/// Positions are cheap to copy: the search and perft use copy-make (`clone` then `play`), which
/// keeps unmake bugs out of every game and costs a few hundred bytes of memcpy per node.
pub trait Rules: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + Default + Send + Sync + fmt::Debug + 'static + Packed;

    /// The game's entry in the variant registry: its name, seats and board.
    const VARIANT: &'static VariantSpec;
    /// The most legal moves a position of this game can have, derived where the game defines
    /// it. Its move buffers hold exactly this many, and one more is an error, never a silent
    /// drop (`MoveList::push`).
    const MAX_MOVES: usize;
    /// The game's move buffers: `MoveList<T, MAX_MOVES>`, for moves and for moves with scores.
    type Moves<T: Copy + Send>: MoveBuffer<T> + Send;
    /// A position seen this many times ends the game: the chess rule, 3, unless the game says
    /// otherwise (4 in shogi).
    const REPETITIONS: usize = 3;
    /// Whether a side that gave check with every move of a repetition cycle loses (shogi; a
    /// draw in chess).
    const PERPETUAL_CHECK_LOSES: bool = false;

    fn startpos() -> Self;

    fn seats(&self) -> usize {
        Self::VARIANT.seats.len()
    }
    fn to_move(&self) -> Seat;
    /// The side whose interests `seat` serves: its own, unless the game joins seats into sides
    /// (Double Mate's partners, Judtho's alliances).
    fn side_of(&self, seat: Seat) -> Side {
        Side(seat.0)
    }
    /// Whether `side` is out of a game that goes on without it (a Chaturanga army whose king was
    /// captured): its result is settled, whatever the others do.
    fn side_lost(&self, _side: Side) -> bool {
        false
    }

    /// Appends the legal moves to `out`, which callers hand over empty.
    fn legal_moves(&self, out: &mut Self::Moves<Self::Move>);
    fn play(&mut self, mv: Self::Move);

    fn hash(&self) -> u64;
    fn hash_from_scratch(&self) -> u64;

    /// Whether the seat to move is in check.
    fn must_answer_check(&self) -> bool;
    /// Every seat whose king is attacked now.
    fn checked_seats(&self) -> SeatMask;

    /// An end that the position shows without looking at the legal moves (none in shogi).
    fn static_outcome(&self) -> Option<Outcome> {
        None
    }
    /// The end when the seat to move has no legal move.
    fn no_move_outcome(&self) -> Outcome;
    /// Whether the player of `seat` may resign now, and if not, why (Judtho's T11: only a
    /// player without allies).
    fn may_resign(&self, _seat: Seat) -> Result<(), String> {
        Ok(())
    }
    /// For games with more than two sides: the places, best first, each a set of seats that
    /// share it (all against all ranks armies by when they went out).
    fn ranking(&self) -> Option<Vec<SeatMask>> {
        None
    }
}

/// A game's texts: the one canonical position string and move text, both ways, and what `d`
/// and `status` show.
pub trait Notation: Rules {
    /// Parses the variant's position string. Any order of hand pieces is accepted; everything
    /// else must be exact.
    fn from_text(text: &str) -> Result<Self, PositionError>;
    /// The one canonical position string.
    fn to_text(&self) -> String;

    /// The one canonical spelling of a legal move.
    fn format_move(&self, mv: Self::Move) -> String;
    /// Parses a move text: only the canonical spelling of a legal move is accepted.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mut list = Self::Moves::<Self::Move>::default();
        self.legal_moves(&mut list);
        self.move_of_text(list.as_slice(), text)
    }
    /// The move of `legal` (this position's legal moves) whose canonical text is `text`.
    fn move_of_text(&self, legal: &[Self::Move], text: &str) -> Result<Self::Move, MoveError> {
        legal
            .iter()
            .copied()
            .find(|&m| self.format_move(m) == text)
            .ok_or_else(|| MoveError::Illegal { text: text.to_string() })
    }

    /// The game's texts in the UCI dialect of Fairy-Stockfish and Cute Chess
    /// (protocol-spec.md, section 8), translated at the protocol's edge; by default they are
    /// the game's own.
    const UCI: UciDialect = UciDialect::SAME;
    /// The move number written in the position string.
    fn move_number(&self) -> u64;
    /// Facts about the position beyond turn and checks, for `d` and `status`: each a key and
    /// a value without blanks (Chaturanga's mated armies and lone kings, for instance).
    fn notes(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// What the last move (from `before`) changed in the game's standing, for game records: the
    /// end of Judtho's Assembly, a new alliance. None for an ordinary move.
    fn milestone(&self, _before: &Self) -> Option<String> {
        None
    }
}

/// How a game's texts read and write in the UCI dialect of Fairy-Stockfish and Cute Chess, where
/// they differ from its own (Judkins: FEN and chess-like squares).
#[derive(Clone, Copy)]
pub struct UciDialect {
    /// A position string of the dialect as the game's.
    pub position_in: fn(&str) -> Result<String, String>,
    /// One of the game's position strings in the dialect: what `position_in` reads back.
    pub position_out: fn(&str) -> String,
    /// A move text of the dialect as the game's (legality is checked afterwards).
    pub move_in: fn(&str) -> Result<String, String>,
    /// One of the game's move texts in the dialect.
    pub move_out: fn(&str) -> String,
    /// The seat letter that a `go` clock letter of the dialect (`wtime`) stands for.
    pub clock_seat: fn(char) -> char,
}

impl UciDialect {
    /// The game's own texts.
    pub const SAME: UciDialect = UciDialect {
        position_in: |t| Ok(t.to_string()),
        position_out: str::to_string,
        move_in: |t| Ok(t.to_string()),
        move_out: str::to_string,
        clock_seat: |c| c,
    };
}

/// What the search needs to know of a game beyond its rules: a static evaluation, which moves
/// are tactical and how they exchange, and the turn-skipping moves some searches play.
pub trait Evaluation: Inputs {
    /// Size of the index space of `move_index`, for history tables.
    const MOVE_INDEX_SPACE: usize;
    /// Static evaluation in centipawns from the point of view of `side`.
    fn evaluate(&self, side: Side) -> i32;
    /// Ordering value for captures and promotions; `None` for a quiet move. Quiescence searches
    /// only the moves that have one.
    fn tactical_value(&self, mv: Self::Move) -> Option<i32>;
    fn move_index(mv: Self::Move) -> usize;
    /// Size of the index space of `piece_to`.
    const PIECE_TO_SPACE: usize;
    /// The kind of piece `mv` moves (drops, places) and the square it goes to, as one index
    /// below `PIECE_TO_SPACE`: what the continuation histories remember of a move, so that "a
    /// silver to 3c" answers "a bishop to 2b" wherever each came from.
    fn piece_to(&self, mv: Self::Move) -> usize;

    /// The legal moves that `tactical_value` scores (captures, promotions), for quiescence;
    /// every legal move when the seat to move must answer a check. Each game generates them
    /// itself (`retain_tactical` filters a list of legal moves).
    fn tactical_moves(&self, out: &mut Self::Moves<Self::Move>);
    /// Whether `mv` keeps at least `threshold` centipawns after the exchanges on its square.
    fn see_ge(&self, mv: Self::Move, threshold: i32) -> bool;

    /// Hands the turn over without moving (search only: null-move pruning where the game's
    /// `SearchPolicy` allows it, and
    /// an opponent that waits in Best-Reply Search).
    fn play_null(&mut self);

    /// The same position with `seat` to move, for searches that let one opponent answer for
    /// all (Best-Reply Search); `None` where the game cannot skip turns that way.
    fn with_turn(&self, _seat: Seat) -> Option<Self> {
        None
    }
}

/// What a learned evaluation sees of a game's positions (docs/nnue.md): its input space, the
/// inputs active in a position from each perspective, and what a move changes in them. Each
/// game implements it in its own `features.rs`.
pub trait Inputs: Rules {
    /// The size of the game's input space for a learned evaluation (docs/nnue.md); 0 for a
    /// game that has none yet.
    const FEATURES: usize = 0;
    /// The most inputs one perspective of a position has active.
    const MAX_ACTIVE: usize = 0;
    /// Pushes the active inputs of the position seen from `side`'s perspective, each below
    /// `FEATURES`, onto `out`: what the network's first layer sums for that side. The search
    /// sets each accumulator from its parent's by the inputs a move changed (`input_changes`).
    fn features(&self, _side: Side, _out: &mut Active) {}
    /// The two perspectives a network evaluates `seat`'s position from: its side's, and that of
    /// the first seat after it in the turn order that plays for another side. With two sides
    /// these are the two; in all against all, the army and the Opponent who moves after it.
    fn perspectives(&self, seat: Seat) -> [Side; 2] {
        let (n, us) = (self.seats().max(1), self.side_of(seat));
        let them = (1..n).map(|k| self.side_of(Seat(((seat.index() + k) % n) as u8))).find(|&s| s != us).unwrap_or(us);
        [us, them]
    }
    /// Whether `input_changes` tells every move's changes; where it does not, the search asks
    /// `input_difference` of each parent and child. The inputs may not depend on whose turn it
    /// is: a null move changes none, and the network picks the perspectives by the side to
    /// move.
    const INPUT_CHANGES: bool = false;
    /// The inputs of `side`'s perspective that `mv`, legal in this position, takes away and
    /// brings (pushed onto `removed` and `added`).
    fn input_changes(&self, _mv: Self::Move, _side: Side, _removed: &mut Active, _added: &mut Active) {}
    /// The inputs of perspectives `sides` that `child` has and this position has not (`added`),
    /// and the reverse (`removed`), repeats counted; an input may stand in both lists. By
    /// default both positions' inputs are listed, sorted and compared; a game whose turn may
    /// change many inputs at once (Dojo's counters) compares its own fields instead.
    fn input_difference(&self, child: &Self, sides: [Side; 2], removed: &mut [Active; 2], added: &mut [Active; 2]) {
        listed_difference(self, child, sides, removed, added);
    }
}

/// `Inputs::input_difference` by listing both positions' inputs, sorting and comparing them.
pub fn listed_difference<G: Inputs>(
    pos: &G,
    child: &G,
    sides: [Side; 2],
    removed: &mut [Active; 2],
    added: &mut [Active; 2],
) {
    for (i, &side) in sides.iter().enumerate() {
        let (mut before, mut after) = (Active::default(), Active::default());
        pos.features(side, &mut before);
        child.features(side, &mut after);
        before.sort();
        after.sort();
        Active::difference(&before, &after, &mut removed[i], &mut added[i]);
    }
}

/// Keeps the moves of `list` that `tactical_value` scores, in their order.
#[inline]
pub fn retain_tactical<G: Evaluation>(pos: &G, list: &mut G::Moves<G::Move>) {
    let mut n = 0;
    for i in 0..list.len() {
        let m = list.as_slice()[i];
        if pos.tactical_value(m).is_some() {
            list.as_mut_slice()[n] = m;
            n += 1;
        }
    }
    list.truncate(n);
}

/// A whole game: its rules, its texts, its evaluation, its picture and its numbered actions.
pub trait Game: Rules + Notation + Evaluation + Draw + super::Actions {}
impl<T: Rules + Notation + Evaluation + Draw + super::Actions> Game for T {}
