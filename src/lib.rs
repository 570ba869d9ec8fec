//! tetrarch: an engine for Judkins shogi, Dojo chess, four-handed Chaturanga and Judtho.

pub mod arbiter;
pub mod bench;
pub mod protocol;
pub mod rules;
pub mod search;
