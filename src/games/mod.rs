//! The games, one folder each. In every folder `mod.rs` holds the position and the rules,
//! `movegen.rs` the legal moves and make-move, `notation.rs` the texts, `eval.rs` the
//! evaluation and `see.rs` the exchange evaluation, where the game has one.

pub mod chaturanga;
pub mod dojo;
pub mod judkins;
pub mod judtho;
