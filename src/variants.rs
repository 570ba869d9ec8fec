//! The one list of variants: every name the protocol knows, each with its game type and the
//! facts the game declares of itself (`games/<game>/variant.rs`). The session, the match runner,
//! perft, the bench, `tune`, the page and the Python package turn a name into a game here and
//! nowhere else.

use crate::nnue::Network;
use crate::rules::{Game, MoveBuffer, Rules, Tunable, VariantSpec};
use std::sync::{Arc, OnceLock};

/// Something done with the game type of a variant: `visit` calls `visit::<G>()` with the type
/// of the variant named, so that the code under it is monomorphised per game.
pub trait Visitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// The same for the games whose evaluation has a weights table (`visit_tuned`).
pub trait TunedVisitor {
    type Output;
    fn visit<G: Tunable>(self) -> Self::Output;
}

/// Why a name does not lead to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    Unknown(String),
    /// A name that the UCI dialect does not know (its list is the dialect's own names).
    UnknownUci(String),
    /// A variant whose evaluation has no weights table to tune.
    NotTuned(&'static str),
}

impl std::fmt::Display for VariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariantError::Unknown(n) | VariantError::UnknownUci(n) => {
                let shown: String = n.chars().take(60).map(|c| if c.is_control() { '?' } else { c }).collect();
                let known: Vec<&str> = match self {
                    VariantError::UnknownUci(_) => names().into_iter().map(uci_name).collect(),
                    _ => names(),
                };
                write!(f, "unknown variant '{}' (known: {})", shown, known.join(", "))
            }
            VariantError::NotTuned(n) => {
                let (last, rest) = TUNED.split_last().unwrap_or((&"", &[]));
                write!(f, "{} has no weights table; {} and {} have", n, rest.join(", "), last)
            }
        }
    }
}

thread_local! {
    static VISITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times this thread has gone from a variant's name to its game (`visit`): a request
/// of a front end should make one such dispatch, and its tests count them.
pub fn visits_on_this_thread() -> u64 {
    VISITS.with(|n| n.get())
}

macro_rules! variants {
    ($( $spec:path => $game:ty $(, $tuned:ident)? ;)+) => {
        /// Every variant, in the order the protocol lists them.
        pub const VARIANTS: &[VariantSpec] = &[$($spec),+];

        /// Calls `v.visit::<G>()` with the game type of the variant `name`.
        pub fn visit<V: Visitor>(name: &str, v: V) -> Result<V::Output, VariantError> {
            VISITS.with(|n| n.set(n.get() + 1));
            $(if name == $spec.name {
                return Ok(v.visit::<$game>());
            })+
            Err(VariantError::Unknown(name.to_string()))
        }

        /// Calls `v.visit::<G>()` with the game type of the variant `name`, if its evaluation
        /// has a weights table that `tetrarch tune` fits.
        pub fn visit_tuned<V: TunedVisitor>(name: &str, v: V) -> Result<V::Output, VariantError> {
            $(if name == $spec.name {
                return variants!(@tuned v $spec, $game $(, $tuned)?);
            })+
            Err(VariantError::Unknown(name.to_string()))
        }

        /// The variants `visit_tuned` reaches.
        pub const TUNED: &[&str] = &[$($(variants!(@tuned_name $spec, $tuned),)?)+];

        $(
            const _: () = assert!(
                <<$game as Rules>::Moves<u8> as MoveBuffer<u8>>::CAPACITY == <$game as Rules>::MAX_MOVES,
                "a game's move buffers hold its stated bound"
            );
        )+
    };
    (@tuned $v:ident $spec:path, $game:ty) => { Err(VariantError::NotTuned($spec.name)) };
    (@tuned $v:ident $spec:path, $game:ty, tuned) => { Ok($v.visit::<$game>()) };
    (@tuned_name $spec:path, tuned) => { $spec.name };
}

variants! {
    crate::games::judkins::VARIANT => crate::games::judkins::Judkins, tuned;
    crate::games::dojo::VARIANT => crate::games::dojo::Dojo, tuned;
    crate::games::chaturanga::DOUBLE_MATE_VARIANT => crate::games::chaturanga::DoubleMate, tuned;
    crate::games::chaturanga::ALL_AGAINST_ALL_VARIANT => crate::games::chaturanga::AllAgainstAll, tuned;
    crate::games::judtho::VARIANT => crate::games::judtho::Judtho;
}

/// The variant an engine session, `match`, `tune` and `openings` start with: the first listed.
pub const DEFAULT_VARIANT: &str = VARIANTS[0].name;

/// The entry named `name`.
pub fn find(name: &str) -> Option<&'static VariantSpec> {
    VARIANTS.iter().find(|v| v.name == name)
}

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

/// The networks built into the engine (`nets/`), by variant: each one kept because an SPRT
/// against the game's own evaluation said it gains, and its provenance is in docs/strength.md.
/// A variant without one plays with its own evaluation.
const NETWORKS: &[(&str, &[u8])] = &[
    ("judkins", include_bytes!("../nets/judkins.nnue")),
    ("chaturanga", include_bytes!("../nets/chaturanga.nnue")),
    ("dojo", include_bytes!("../nets/dojo.nnue")),
];

/// The network built in for the variant `name`, read once per process, and only that one: an
/// engine that plays one game does not pay for reading the others'.
pub fn embedded_network(name: &str) -> Option<Arc<Network>> {
    static READ: [OnceLock<Option<Arc<Network>>>; NETWORKS.len()] = [const { OnceLock::new() }; NETWORKS.len()];
    let i = NETWORKS.iter().position(|(v, _)| *v == name)?;
    // A built-in network that does not read is a build's defect, which tests/nnue.rs catches.
    READ[i].get_or_init(|| Network::from_bytes(NETWORKS[i].1).ok().map(Arc::new)).clone()
}

/// The variants that have a network built in.
pub fn embedded_networks() -> Vec<&'static str> {
    NETWORKS.iter().map(|(v, _)| *v).collect()
}

/// The variant names, in the list's order.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
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
    fn every_entry_leads_to_its_own_game() {
        for v in VARIANTS {
            let (name, seats, letters) = visit(v.name, Facts).unwrap();
            assert_eq!(name, v.name, "the game's VARIANT is its own entry");
            assert_eq!((seats, letters), (v.seats.len(), v.seats));
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
