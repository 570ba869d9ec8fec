//! tetrarch: an engine for Judkins shogi, Dojo chess, four-handed Chaturanga and Judtho.
//! `docs/architecture.md` is the map of this crate.

pub mod arbiter;
pub mod bench;
pub mod board;
pub mod games;
pub mod protocol;
pub mod rules;
pub mod search;
