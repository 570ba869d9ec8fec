//! Everything at the table: the game (its players, its referee's thread, the position shown),
//! the analysis, and the page's state made from them.

use super::api::{self, Kind, PlayerState, ResultState, State, TurnState, VariantInfo};
use super::hub::Worker;
use super::live::Shown;
use crate::arbiter::clock::TimeControl;
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::game::{GameReport, Request};
use crate::arbiter::movedata::InfoLine;
use crate::arbiter::record::parse_pgn;
use crate::live::Live;
use crate::rules::Seat;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Who plays a player's seats.
#[derive(Clone, Debug)]
pub enum Controller {
    /// A person at the page.
    Human,
    Engine(EngineSpec),
    /// A player of a loaded record: nobody plays it here.
    Record,
}

/// One player of a game at the table.
#[derive(Clone, Debug)]
pub struct Seated {
    pub name: String,
    pub seats: Vec<Seat>,
    pub controller: Controller,
    /// The time control of its seats (a level for an engine without a clock).
    pub tc: TimeControl,
}

impl Seated {
    pub fn human(&self) -> bool {
        matches!(self.controller, Controller::Human)
    }

    fn kind(&self) -> Kind {
        match self.controller {
            Controller::Human => Kind::Person,
            Controller::Engine(_) => Kind::Engine,
            Controller::Record => Kind::Record,
        }
    }
}

/// The turn under way.
#[derive(Clone, Debug)]
pub struct Turn {
    pub seat: Seat,
    pub player: usize,
    pub clocks: Vec<Option<u64>>,
    pub since: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Nothing at the table yet.
    Idle,
    Running,
    Over,
    /// A loaded record or position, to look through and play on from.
    Review,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Running => "running",
            Status::Over => "over",
            Status::Review => "review",
        }
    }
}

/// The referee's thread of the game being played, and where its orders go.
pub struct Referee {
    pub orders: Sender<Request>,
    pub worker: Worker,
}

/// The analysis engine at work.
pub struct Analysis {
    pub stop: Arc<AtomicBool>,
    pub worker: Worker,
    pub ply: usize,
}

/// Everything at the table.
pub struct Table {
    /// Counts games, so that a finished game's thread cannot speak for the next one.
    pub generation: u64,
    pub status: Status,
    pub live: Option<Box<dyn Live>>,
    pub players: Vec<Seated>,
    /// The game's referee while the game is played.
    pub referee: Option<Referee>,
    pub turn: Option<Turn>,
    /// The last `info` of each player's engine, for the move under way or the last one played.
    pub infos: Vec<Option<InfoLine>>,
    /// The game as the referee last reported it (its final report once over).
    pub report: Option<GameReport>,
    /// A loaded record's text, shown and saved as it was.
    pub loaded: Option<String>,
    pub analysis: Option<Analysis>,
}

/// Why a person may not take back in a game with these players.
pub fn takeback_refusal(players: &[Seated]) -> Option<&'static str> {
    players
        .iter()
        .any(|p| matches!(p.tc, TimeControl::Clock { .. }))
        .then_some("Take back is only for games without clocks: a clock cannot be wound back fairly.")
}

impl Table {
    pub fn new() -> Table {
        Table {
            generation: 0,
            status: Status::Idle,
            live: None,
            players: Vec::new(),
            referee: None,
            turn: None,
            infos: Vec::new(),
            report: None,
            loaded: None,
            analysis: None,
        }
    }

    /// The quarter turns of the board as a person at the table sees it: the seat of the person
    /// to move, else the first person's; all engines: unturned.
    pub fn view(&self) -> u8 {
        let Some(live) = &self.live else { return 0 };
        let views = live.views();
        // A player of two armies (Double Mate) keeps one view: his first seat's.
        let seat_of_person = |p: &Seated| p.seats.first().copied();
        let to_move = self.turn.as_ref().and_then(|t| self.players.get(t.player)).filter(|p| p.human());
        to_move
            .or_else(|| self.players.iter().find(|p| p.human()))
            .and_then(seat_of_person)
            .and_then(|s| views.get(s.index()).copied())
            .unwrap_or(0)
    }

    /// The person whose move it is, if it is a person's.
    pub fn person_to_move(&self) -> Option<usize> {
        let t = self.turn.as_ref()?;
        (self.status == Status::Running && self.players.get(t.player)?.human()).then_some(t.player)
    }

    /// Names the seats in a record's detail as people name them (`won by w` is `won by gote`).
    fn result_of(&self, result: String, termination: String, detail: String) -> ResultState {
        let detail = self.live.as_ref().and_then(|l| l.outcome_words()).unwrap_or(detail);
        let words = if termination.is_empty() || detail.starts_with("won by") || detail.starts_with("drawn") {
            detail.clone()
        } else if detail.is_empty() {
            termination.clone()
        } else {
            format!("{}: {}", termination, detail)
        };
        ResultState { result, termination, detail, words }
    }

    pub fn state(&self, engines: &[EngineSpec]) -> State {
        let live = self.live.as_deref();
        let variant = live.map(|l| l.variant());
        let turns = self.view();
        let letters_of = |p: &Seated| -> String {
            p.seats.iter().filter_map(|&s| variant.and_then(|v| v.seats.chars().nth(s.index()))).collect()
        };
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| PlayerState {
                name: p.name.clone(),
                seats: letters_of(p),
                human: p.human(),
                kind: p.kind(),
                time: p.tc.to_string(),
                info: self.infos.get(i).cloned().flatten(),
            })
            .collect();
        let report = self.report.as_ref();
        let result = match (self.status, report, &self.loaded) {
            (_, _, Some(text)) => parse_pgn(text).ok().and_then(|g| g.into_iter().next()).map(|g| {
                let tag = |k: &str| g.tag(k).unwrap_or("").to_string();
                self.result_of(g.result.clone(), tag("Termination"), tag("TerminationDetail"))
            }),
            (Status::Over, Some(r), None) => Some(self.result_of(r.result(), r.termination.clone(), r.detail.clone())),
            _ => None,
        };
        let turn = self.turn.as_ref().filter(|_| self.status == Status::Running).map(|t| TurnState {
            seat: t.seat.index(),
            player: t.player,
            clocks: t.clocks.clone(),
            elapsed: t.since.elapsed().as_millis() as u64,
        });
        let person = self.person_to_move();
        let running = self.status == Status::Running;
        let refusal = takeback_refusal(&self.players).filter(|_| running);
        State {
            status: self.status.word(),
            generation: self.generation,
            variant: variant.map(|v| VariantInfo {
                name: v.name,
                title: v.title,
                seats: v.seats,
                files: v.files as usize,
                ranks: v.ranks as usize,
            }),
            start: live.and_then(|l| l.start().map(String::from)),
            moves: live.map(|l| l.moves().to_vec()).unwrap_or_default(),
            data: report.map(|r| r.move_data.iter().map(|d| d.map(|d| d.comment())).collect()).unwrap_or_default(),
            players,
            turn,
            person,
            takeback: running && refusal.is_none(),
            takeback_why: refusal,
            legal: match (person, live) {
                (Some(_), Some(l)) => l.choices(),
                _ => Vec::new(),
            },
            view: turns,
            seats: live.map(|l| l.seats()).unwrap_or_default(),
            // The squares are left out: the page asks for them once per game and view.
            frame: live.and_then(|l| l.frame(l.moves().len(), turns, false).ok()),
            result,
            analysis: self.analysis.as_ref().map(|a| a.ply),
            engines: engines.iter().map(|e| e.name.clone()).collect(),
        }
    }
}

/// The seats' names for people, from each game's picture.
pub fn seat_names(variant: &str) -> Vec<&'static str> {
    use crate::rules::Game;
    use crate::variants::{self, Visitor};
    struct Names;
    impl Visitor for Names {
        type Output = Vec<&'static str>;
        fn visit<G: Game>(self) -> Vec<&'static str> {
            G::startpos().diagram().seats.iter().map(|s| s.name).collect()
        }
    }
    variants::visit(variant, Names).unwrap_or_default()
}

/// The page's first load: its token, the variants and the engines of the command line.
pub fn page_config(token: &str, engines: &[EngineSpec]) -> api::PageConfig {
    api::PageConfig {
        token: token.to_string(),
        variants: crate::variants::VARIANTS
            .iter()
            .map(|v| api::VariantChoice {
                name: v.name,
                title: v.title,
                seats: v.seats,
                players: v.players.to_vec(),
                names: seat_names(v.name),
            })
            .collect(),
        engines: engines.iter().map(|e| e.name.clone()).collect(),
    }
}
