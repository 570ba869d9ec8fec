//! tetrarch: an engine for Judkins shogi, Dojo chess, four-handed Chaturanga and Judtho.
//! `docs/architecture.md` is the map of this crate.

// Armies, colours and seats are small numbers that index several parallel tables at once; a
// loop over the index says that more plainly than zipped iterators, so clippy's
// needless_range_loop is off.
#![allow(clippy::needless_range_loop)]

pub mod arbiter;
pub mod bench;
pub mod board;
pub mod datagen;
pub mod games;
pub mod gui;
pub mod live;
pub mod nnue;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tune;
pub mod variants;
pub mod view;
