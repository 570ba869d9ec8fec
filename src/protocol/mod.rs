//! The extended USI protocol (`protocol-spec.md`): nom parsers into a typed `Command`, typed
//! `Reply` lines, and the session that applies one to the engine's state.

pub mod command;
mod engine;
pub mod options;
pub mod reply;
pub mod session;
pub mod stdio;

pub use command::{Command, parse};
pub use reply::{Output, Reply};
pub use session::Session;
pub use stdio::run_stdio;
