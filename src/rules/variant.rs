//! What a game says of itself as a variant: its name, seats, players, board, position keyword,
//! how the search treats it and the positions its bench searches. Each game declares its own
//! `VariantSpec` beside its rules (`games/<game>/variant.rs`); the list of them is
//! `crate::variants`, above the games.

/// Static facts about a variant.
#[derive(Debug)]
pub struct VariantSpec {
    /// The name `USI_Variant` takes.
    pub name: &'static str,
    /// The game, in words.
    pub title: &'static str,
    /// One letter per seat, in seat order (which is the turn order at the start).
    pub seats: &'static str,
    /// The seats one engine commands, one string per player: a match seats one engine per
    /// player.
    pub players: &'static [&'static str],
    pub files: u8,
    pub ranks: u8,
    /// `sfen` or `fen`: the word before a position string sent to engines.
    pub keyword: &'static str,
    /// How the search treats it.
    pub search: SearchPolicy,
    /// The positions `tetrarch bench` searches, and to what depth.
    pub bench: &'static BenchPositions,
}

/// Positions of a variant searched to a fixed depth: `tetrarch bench`, whose node totals are the
/// search's signature.
#[derive(Debug)]
pub struct BenchPositions {
    pub depth: u32,
    pub positions: &'static [&'static str],
}

/// How the search treats a variant: the choices each game made by measurement
/// (docs/strength.md), declared beside its evaluation and listed here with the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchPolicy {
    /// Null-move pruning: meaningful where two sides alternate and zugzwang is rare.
    pub null_move: bool,
    /// A check is searched a ply deeper.
    pub extend_checks: bool,
    /// How many plies into quiescence a check is answered with every legal move; beyond, the
    /// position counts as quiet (captures only).
    pub qsearch_evasion_plies: usize,
    /// How many plies quiescence may run.
    pub qsearch_plies: usize,
    /// With more than two sides, Best-Reply Search (BRS+) rather than the paranoid search when
    /// the `MultiSearch` option is left at `auto`.
    pub best_reply: bool,
}

impl SearchPolicy {
    /// A two-sided game's: null moves, check extensions, quiescence unbounded, and the paranoid
    /// search should it ever have more than two sides.
    pub const DEFAULT: SearchPolicy = SearchPolicy {
        null_move: true,
        extend_checks: true,
        qsearch_evasion_plies: usize::MAX,
        qsearch_plies: usize::MAX,
        best_reply: false,
    };
}
