//! tetrarch: an engine for Judkins shogi, Dojo chess, four-handed Chaturanga and Judtho.

pub mod rules;
