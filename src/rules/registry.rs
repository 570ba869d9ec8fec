//! The one registry of variants: every name the protocol knows, with its seats, board, position
//! keyword and game type. The session, the match runner, perft, the bench and the command line
//! all read it; nothing else lists variant names.

use super::{Game, MoveBuffer, Rules};

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
    /// Whether the engine plays it yet (its position strings and moves are specified either
    /// way).
    pub playable: bool,
    /// How the search treats it.
    pub search: SearchPolicy,
    /// The positions `tetrarch bench` searches, and to what depth (every playable variant has
    /// them).
    pub bench: Option<&'static BenchPositions>,
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

/// Something done with the game type of a variant: `visit` calls `visit::<G>()` with the type
/// of the variant named, so that the code under it is monomorphised per game.
pub trait Visitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// The same for the games whose evaluation has a weights table (`visit_tuned`).
pub trait TunedVisitor {
    type Output;
    fn visit<G: crate::tune::Tunable>(self) -> Self::Output;
}

/// Why a name does not lead to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    Unknown(String),
    /// A name that the UCI dialect does not know (its list is the dialect's own names).
    UnknownUci(String),
    NotPlayable(&'static str),
    /// A variant whose evaluation has no weights table to tune.
    NotTuned(&'static str),
}

impl std::fmt::Display for VariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariantError::Unknown(n) | VariantError::UnknownUci(n) => {
                let shown: String = n.chars().take(60).map(|c| if c.is_control() { '?' } else { c }).collect();
                let known: Vec<&str> = match self {
                    VariantError::UnknownUci(_) => names(true).into_iter().map(uci_name).collect(),
                    _ => names(false),
                };
                write!(f, "unknown variant '{}' (known: {})", shown, known.join(", "))
            }
            VariantError::NotPlayable(n) => {
                write!(f, "variant '{}' is defined by the protocol but not playable yet", n)
            }
            VariantError::NotTuned(n) => {
                let (last, rest) = TUNED.split_last().unwrap_or((&"", &[]));
                write!(f, "{} has no weights table; {} and {} have", n, rest.join(", "), last)
            }
        }
    }
}

macro_rules! registry {
    ($( $name:literal => {
        title: $title:literal,
        seats: $seats:literal,
        players: [$($player:literal),+],
        board: $files:literal x $ranks:literal,
        keyword: $kw:literal,
        $(search: $search:expr,)?
        $(tuned: $tuned:ident,)?
        $(bench: $bench:expr,)?
        game: $game:tt $(,)?
    } )+) => {
        /// Every variant, in the order the protocol lists them.
        pub const VARIANTS: &[VariantSpec] = &[$(VariantSpec {
            name: $name,
            title: $title,
            seats: $seats,
            players: &[$($player),+],
            files: $files,
            ranks: $ranks,
            keyword: $kw,
            playable: registry!(@playable $game),
            search: registry!(@search $($search)?),
            bench: registry!(@bench $($bench)?),
        }),+];

        /// Calls `v.visit::<G>()` with the game type of the variant `name`.
        pub fn visit<V: Visitor>(name: &str, v: V) -> Result<V::Output, VariantError> {
            match name {
                $($name => registry!(@visit v $name $game),)+
                _ => Err(VariantError::Unknown(name.to_string())),
            }
        }

        /// Calls `v.visit::<G>()` with the game type of the variant `name`, if its evaluation
        /// has a weights table that `tetrarch tune` fits.
        pub fn visit_tuned<V: TunedVisitor>(name: &str, v: V) -> Result<V::Output, VariantError> {
            match name {
                $($name => registry!(@visit_tuned v $name $game $($tuned)?),)+
                _ => Err(VariantError::Unknown(name.to_string())),
            }
        }

        /// The variants `visit_tuned` reaches.
        pub const TUNED: &[&str] = &[$($(registry!(@tuned_name $name $tuned),)?)+];

        $(registry!(@bound $game);)+
    };
    (@visit_tuned $v:ident $name:literal $game:tt) => { Err(VariantError::NotTuned($name)) };
    (@visit_tuned $v:ident $name:literal ($game:ty) weights) => { Ok($v.visit::<$game>()) };
    (@tuned_name $name:literal weights) => { $name };
    (@bench) => { None };
    (@bench $bench:expr) => { Some(&$bench) };
    (@search) => { SearchPolicy::DEFAULT };
    (@search $search:expr) => { $search };
    (@playable none) => { false };
    (@playable $game:tt) => { true };
    (@visit $v:ident $name:literal none) => { Err(VariantError::NotPlayable($name)) };
    (@visit $v:ident $name:literal ($game:ty)) => { Ok($v.visit::<$game>()) };
    (@bound none) => {};
    (@bound ($game:ty)) => {
        const _: () = assert!(
            <<$game as Rules>::Moves<u8> as MoveBuffer<u8>>::CAPACITY == <$game as Rules>::MAX_MOVES,
            "a game's move buffers hold its stated bound"
        );
    };
}

registry! {
    "judkins" => {
        title: "Judkins shogi",
        seats: "bw",
        players: ["b", "w"],
        board: 6 x 6,
        keyword: "sfen",
        tuned: weights,
        bench: crate::bench::JUDKINS,
        game: (crate::games::judkins::Judkins),
    }
    "dojo" => {
        title: "Dojo chess",
        seats: "wb",
        players: ["w", "b"],
        board: 8 x 8,
        keyword: "fen",
        tuned: weights,
        bench: crate::bench::DOJO,
        game: (crate::games::dojo::Dojo),
    }
    "chaturanga" => {
        title: "four-handed Chaturanga, Double Mate",
        seats: "ybrg",
        players: ["yr", "bg"],
        board: 8 x 8,
        keyword: "fen",
        search: crate::games::chaturanga::DOUBLE_MATE_SEARCH,
        tuned: weights,
        bench: crate::bench::CHATURANGA,
        game: (crate::games::chaturanga::DoubleMate),
    }
    "chaturanga-ffa" => {
        title: "four-handed Chaturanga, all against all",
        seats: "ybrg",
        players: ["y", "b", "r", "g"],
        board: 8 x 8,
        keyword: "fen",
        search: crate::games::chaturanga::ALL_AGAINST_ALL_SEARCH,
        tuned: weights,
        bench: crate::bench::CHATURANGA_FFA,
        game: (crate::games::chaturanga::AllAgainstAll),
    }
    "judtho" => {
        title: "Judtho",
        seats: "wryb",
        players: ["w", "r", "y", "b"],
        board: 12 x 12,
        keyword: "fen",
        search: crate::games::judtho::SEARCH,
        bench: crate::bench::JUDTHO,
        game: (crate::games::judtho::Judtho),
    }
}

/// The variant an engine session, `match`, `tune` and `openings` start with: the first listed.
pub const DEFAULT_VARIANT: &str = VARIANTS[0].name;

/// The registry entry named `name`, at compile time: each game's `Rules::VARIANT`.
pub const fn spec(name: &str) -> &'static VariantSpec {
    let mut i = 0;
    while i < VARIANTS.len() {
        if str_eq(VARIANTS[i].name, name) {
            return &VARIANTS[i];
        }
        i += 1;
    }
    panic!("no such variant in the registry");
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The entry named `name`, playable or not.
pub fn find(name: &str) -> Option<&'static VariantSpec> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// The variant names, all or only the playable ones, in registry order.
/// A variant's name in the UCI dialect (protocol-spec.md, section 8). Fairy-Stockfish and Cute
/// Chess know `chaturanga` as the two-player ancestor of chess, so the four-handed forms are
/// offered there under names that no such tool takes for another game.
pub fn uci_name(name: &'static str) -> &'static str {
    match name {
        "chaturanga" => "chaturanga4",
        "chaturanga-ffa" => "chaturanga4-ffa",
        n => n,
    }
}

/// The variant a name of the UCI dialect stands for (the name itself for the others; the
/// four-handed forms' own names are not taken there).
pub fn from_uci_name(name: &str) -> Result<&'static str, VariantError> {
    VARIANTS
        .iter()
        .map(|v| v.name)
        .find(|&n| uci_name(n) == name)
        .ok_or_else(|| VariantError::UnknownUci(name.to_string()))
}

pub fn names(playable_only: bool) -> Vec<&'static str> {
    VARIANTS.iter().filter(|v| v.playable || !playable_only).map(|v| v.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Facts;
    impl Visitor for Facts {
        type Output = (&'static str, usize, &'static str);
        fn visit<G: Game>(self) -> Self::Output {
            (G::VARIANT.name, G::startpos().seats(), G::VARIANT.seats)
        }
    }

    #[test]
    fn every_playable_entry_leads_to_its_own_game() {
        for v in VARIANTS {
            match visit(v.name, Facts) {
                Ok((name, seats, letters)) => {
                    assert!(v.playable);
                    assert_eq!(name, v.name, "the game's VARIANT points at its own entry");
                    assert_eq!((seats, letters), (v.seats.len(), v.seats));
                }
                Err(e) => assert_eq!(e, VariantError::NotPlayable(v.name)),
            }
            let players: String = v.players.concat();
            let mut sorted: Vec<char> = players.chars().collect();
            sorted.sort_unstable();
            let mut seats: Vec<char> = v.seats.chars().collect();
            seats.sort_unstable();
            assert_eq!(sorted, seats, "{}: every seat has exactly one player", v.name);
        }
        assert!(matches!(visit("shogi", Facts), Err(VariantError::Unknown(_))));
    }
}
