//! The page's API as types: each request body as serde reads it, and everything the server
//! sends (the state, a position's frame, a legal move, an engine's line) as serde writes it. The
//! field names are the page's (`page.js`) and the tests' contract.

use crate::arbiter::movedata::InfoLine;
use serde::{Deserialize, Serialize};

// ---- requests

/// Who plays a player's seats, as the New game dialog says it.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    #[default]
    Human,
    Engine,
}

/// One player of `POST /api/new`.
#[derive(Debug, Deserialize)]
pub struct PlayerAsk {
    #[serde(default)]
    pub who: Who,
    /// `none`, a level (`depth 3`, `nodes 20000`, `movetime 1000`) or a clock (`300+5`).
    #[serde(default)]
    pub time: Option<String>,
    /// `self`, an engine of the command line by name, or a spec with `cmd=`.
    #[serde(default)]
    pub engine: Option<String>,
    /// A person's name for the record.
    #[serde(default)]
    pub name: Option<String>,
}

/// `POST /api/new`.
#[derive(Debug, Deserialize)]
pub struct NewGameAsk {
    pub variant: String,
    /// A start as `position` takes it (`startpos`, `fen ...`, or the bare string), with
    /// `moves ...` after it; empty: the variant's start.
    #[serde(default)]
    pub start: String,
    /// More moves after the start.
    #[serde(default)]
    pub moves: String,
    pub players: Vec<PlayerAsk>,
    #[serde(default)]
    pub max_plies: Option<u64>,
}

/// `POST /api/move`, `/api/resign` and `/api/takeback`: without a player, the person to move.
#[derive(Debug, Default, Deserialize)]
pub struct OrderAsk {
    #[serde(default)]
    pub player: Option<usize>,
    #[serde(default, rename = "move")]
    pub text: Option<String>,
}

/// `POST /api/load`: a record file's game, or a position of a variant.
#[derive(Debug, Deserialize)]
pub struct LoadAsk {
    #[serde(default)]
    pub text: String,
    /// Which game of the record, from 1.
    #[serde(default)]
    pub game: Option<usize>,
    #[serde(default)]
    pub variant: Option<String>,
}

/// `POST /api/analyse`: an engine on the position after `ply` moves (the game now without it).
#[derive(Debug, Default, Deserialize)]
pub struct AnalyseAsk {
    #[serde(default)]
    pub engine: Option<String>,
    #[serde(default)]
    pub ply: Option<usize>,
}

// ---- answers

/// A seat as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatInfo {
    pub letter: String,
    pub name: &'static str,
    pub fill: &'static str,
    /// The quarter turns that put the seat's side at the bottom.
    pub view: u8,
    /// The seat's sign where its colour does not tell it apart (shogi's pieces are all one
    /// wood): ☗ for sente, ☖ for gote.
    pub symbol: Option<&'static str>,
}

/// Where the mouse picks a move up: a square, or a kind in a seat's hand.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum From {
    Square { square: String },
    Hand { seat: String, kind: String },
}

/// A legal move with how the mouse enters it (`rules::diagram::Gesture`).
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    pub text: String,
    pub from: Option<From>,
    pub to: Vec<String>,
    pub marks: Vec<String>,
    pub words: String,
}

/// How a position ended, by the rules.
#[derive(Clone, Debug, Serialize)]
pub struct FrameOutcome {
    /// The winners' seat letters (empty for a draw).
    pub winners: String,
    pub reason: &'static str,
    pub draw: bool,
    /// The same for people: "won by gote: checkmate", "drawn: stalemate".
    pub words: String,
}

/// The move that led to a position.
#[derive(Clone, Debug, Serialize)]
pub struct LastMove {
    pub seat: String,
    #[serde(rename = "move")]
    pub text: String,
}

/// A position as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// The whole board, or none for a page that already shows this game's squares.
    pub svg: Option<String>,
    /// The seats, hands and facts.
    pub panel: String,
    /// What stands on the board, and the pieces' drawings.
    pub men: String,
    pub defs: String,
    pub position: String,
    pub turn: String,
    pub checks: String,
    pub outcome: Option<FrameOutcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<LastMove>,
    /// What a person at the table should know now, in words (the Assembly's realm, a piece
    /// that stays in hand, who plays which armies); empty when there is nothing to say.
    pub hints: Vec<String>,
}

/// A variant as the page names and measures it.
#[derive(Clone, Debug, Serialize)]
pub struct VariantInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub seats: &'static str,
    pub files: usize,
    pub ranks: usize,
}

/// Who a player at the table is.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A person at this page.
    Person,
    Engine,
    /// A player of a loaded record: nobody plays it here.
    Record,
}

/// A player at the table.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerState {
    pub name: String,
    /// The letters of its seats.
    pub seats: String,
    /// A person at this page (not an engine, not a loaded record's player).
    pub human: bool,
    pub kind: Kind,
    pub time: String,
    /// Its engine's last line in this game, while it is still the game's.
    pub info: Option<InfoLine>,
}

/// The turn under way.
#[derive(Clone, Debug, Serialize)]
pub struct TurnState {
    pub seat: usize,
    pub player: usize,
    /// Each seat's main time left, in milliseconds, at the turn's start.
    pub clocks: Vec<Option<u64>>,
    /// Milliseconds since the turn began.
    pub elapsed: u64,
}

/// How the game at the table ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultState {
    /// Each seat's points, as a record writes them (`0-1`, `1-0-0-0`).
    pub result: String,
    pub termination: String,
    /// The record's detail, with players and seats named as people name them.
    pub detail: String,
    /// The result in a line for people: "gote won: checkmate", "drawn: the arbiter, after 200
    /// plies".
    pub words: String,
}

/// Everything the page shows, sent whole on every change.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// `idle`, `running`, `over` or `review` (a loaded record or position).
    pub status: &'static str,
    /// Counts the games at this table.
    pub generation: u64,
    pub variant: Option<VariantInfo>,
    /// The start's position string, when it is not the variant's start.
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// Each move's record comment (time, score, depth), where there is one.
    pub data: Vec<Option<String>>,
    pub players: Vec<PlayerState>,
    pub turn: Option<TurnState>,
    /// The person whose move it is, if it is a person's.
    pub person: Option<usize>,
    /// Whether a person may take back now.
    pub takeback: bool,
    /// Why a person may not take back in this game, when a game is on and it is so.
    pub takeback_why: Option<&'static str>,
    /// The legal moves, when a person is to move.
    pub legal: Vec<LegalMove>,
    /// The quarter turns of the board for the person at the table.
    pub view: u8,
    pub seats: Vec<SeatInfo>,
    /// The position now, without the squares.
    pub frame: Option<Frame>,
    pub result: Option<ResultState>,
    /// The ply the analysis thinks on.
    pub analysis: Option<usize>,
    pub engines: Vec<String>,
}

/// One line of an engine at the table, as it comes.
#[derive(Clone, Debug, Serialize)]
pub struct InfoEvent {
    pub player: usize,
    pub info: InfoLine,
}

/// What the analysis engine says.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisEvent {
    pub ply: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info: Option<InfoLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

/// A variant as the page's New game and Load dialogs list it, with its rules for people.
#[derive(Clone, Debug, Serialize)]
pub struct VariantChoice {
    pub name: &'static str,
    pub title: &'static str,
    pub seats: &'static str,
    /// Each player's seat letters.
    pub players: Vec<&'static str>,
    /// Each seat's name for people.
    pub names: Vec<&'static str>,
}

/// What the page knows from its first load.
#[derive(Clone, Debug, Serialize)]
pub struct PageConfig {
    pub token: String,
    pub variants: Vec<VariantChoice>,
    pub engines: Vec<String>,
}
