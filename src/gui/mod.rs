//! `tetrarch gui`: a local web server and one page to play every variant in a browser, a person
//! or an engine in each player's place. Games are refereed by `arbiter::game::referee`, the code
//! that referees `tetrarch match`: the same engine processes, clocks, forfeits and results, with
//! people's moves arriving as orders. Positions are drawn by `view`'s SVG code, and the legal
//! moves the page offers come from the rules library with their gestures (`Draw::gesture`).
//!
//! The server (tiny_http: a small synchronous HTTP/1.1 server, which suits the engine's
//! thread-per-task design and needs no async runtime) answers the page's requests and pushes
//! what happens as Server-Sent Events over one long response. Every request but the page's own
//! first load must carry the random token printed with the address; requests from another
//! origin are refused.

mod http;
mod json;
mod live;
mod session;

pub use session::GuiArgs;

/// `tetrarch gui`: serves until Ctrl-C.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    session::serve(args)
}
