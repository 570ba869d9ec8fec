//! The rules' errors, one type per concern: a position string that is not one of the game's, and
//! a move that the game refuses. Each prints the words the protocol has always printed for it;
//! the front ends tell them apart by type (Python raises `InvalidPositionError` and
//! `IllegalMoveError`, both `ValueError`s).

use std::fmt;

/// A position string that is not one of the game's, with what is wrong in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

impl From<String> for PositionError {
    fn from(s: String) -> Self {
        PositionError(s)
    }
}

impl From<&str> for PositionError {
    fn from(s: &str) -> Self {
        PositionError(s.to_string())
    }
}

impl From<PositionError> for String {
    fn from(e: PositionError) -> String {
        e.0
    }
}

/// A move that the game refuses. A move text is only ever the canonical text of a legal move
/// (protocol-spec.md, section 5), so a text that is no move at all and a move that is not legal
/// here are one case, as they are to the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not the canonical text of a legal move in this position.
    Illegal { text: String },
    /// Any move once the game has ended, with how it ended.
    AfterTheEnd { text: String, reason: &'static str },
}

impl MoveError {
    /// The move text refused.
    pub fn text(&self) -> &str {
        match self {
            MoveError::Illegal { text } | MoveError::AfterTheEnd { text, .. } => text,
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Illegal { text } => write!(f, "illegal or malformed move '{}'", text),
            MoveError::AfterTheEnd { text, reason } => write!(f, "move '{}' after the game ended ({})", text, reason),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<MoveError> for String {
    fn from(e: MoveError) -> String {
        e.to_string()
    }
}
