//! Board geometry shared by every game: squares and their names, steps and lines, the Zobrist
//! key generator, slider attacks, and sets of squares for boards larger than 64 squares.
//!
//! Everything here is made by the compiler (`const fn`) or by `build.rs`, never at start-up.

pub mod geometry;
pub mod sliders;
pub mod squareset;
pub mod zobrist;
