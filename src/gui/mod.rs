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
//!
//! The files: `server.rs` (listening, the workers, Ctrl-C), `http.rs` (requests, the guard,
//! answers), `routes.rs` (each request), `api.rs` (the requests' and answers' types),
//! `hub.rs` (the shared state, the control lock, the event streams and the watchdog),
//! `table.rs` (the game at the table and the state made from it), `play.rs` (the referee's
//! thread), `analysis.rs`, `live.rs` (the game as the page sees it), `guide.rs` (each game's
//! rules for players), and the page itself (`page.html`, `page.js`, `page.css`).

mod analysis;
mod api;
mod guide;
mod http;
mod hub;
mod live;
mod play;
mod routes;
mod server;
mod table;

pub use server::GuiArgs;

/// `tetrarch gui`: serves until Ctrl-C.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    server::serve(args)
}
