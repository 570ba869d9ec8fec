//! The page's requests, each answered from the table: what is shown (the page, the state, a
//! past position, a preview, the record) and what changes it (a new game, a person's order,
//! a load, the analysis).

use super::analysis::{analyse, position_command};
use super::api::{AnalyseAsk, LoadAsk, NewGameAsk, OrderAsk};
use super::http::{Answer, Ask};
use super::hub::{Control, Hub, Worker, lock};
use super::live::Shown;
use super::play::{NewGame, engine_spec, play_game};
use super::table::{Analysis, Controller, Referee, Seated, Status, page_config};
use crate::arbiter::clock::TimeControl;
use crate::arbiter::game::{Ending, GameReport, Order, Request};
use crate::arbiter::record::{parse_pgn, pgn};
use crate::live::{self, Live, Played};
use crate::rules::{Game, Seat, position_words};
use crate::variants::{self, Visitor};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, MutexGuard};
use std::time::Duration;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");
/// The page may talk to its own server and nothing else. Sent as a header, where every
/// directive counts (`frame-ancestors` is ignored in a `<meta>`).
pub const POLICY: &str = "default-src 'none'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data: blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// How long a person's order may wait for the referee's answer.
const ORDER_ANSWER: Duration = Duration::from_secs(10);

pub fn route(hub: &Arc<Hub>, ask: &Ask) -> Answer {
    let answer = match (ask.method.as_str(), ask.path.as_str()) {
        ("GET", "/") => {
            Ok(Answer { status: 200, kind: "text/html; charset=utf-8", body: page(hub), policy: Some(POLICY) })
        }
        ("GET", "/api/state") => Ok(Answer::json(&hub.state())),
        ("GET", "/api/frame") => frame(hub, ask),
        ("GET", "/api/preview") => preview(hub, ask),
        ("GET", "/api/record") => record(hub),
        ("GET", "/api/guide") => {
            let variant = ask.query("variant").ok_or_else(|| Answer::error(400, "guide: give variant=..."));
            variant.and_then(|v| super::guide::guide(v).map(|g| Answer::json(&g)).map_err(|e| Answer::error(404, e)))
        }
        ("POST", "/api/new") => new_game(hub, ask),
        ("POST", "/api/move") => person_order(hub, ask, "move"),
        ("POST", "/api/resign") => person_order(hub, ask, "resign"),
        ("POST", "/api/takeback") => person_order(hub, ask, "takeback"),
        ("POST", "/api/stop") => {
            hub.stop_game(&hub.control());
            Ok(Answer::ok())
        }
        ("POST", "/api/load") => load(hub, ask),
        ("POST", "/api/analyse") => start_analysis(hub, ask),
        ("POST", "/api/analyse/stop") => {
            hub.stop_analysis(&hub.control());
            hub.broadcast_state(&lock(&hub.table));
            Ok(Answer::ok())
        }
        (_, "/" | "/events" | "/api/state" | "/api/frame" | "/api/preview" | "/api/record" | "/api/guide") => {
            Err(Answer::error(405, format!("{} takes GET", ask.path)))
        }
        (_, "/api/new" | "/api/move" | "/api/resign" | "/api/takeback" | "/api/stop" | "/api/load")
        | (_, "/api/analyse" | "/api/analyse/stop") => Err(Answer::error(405, format!("{} takes POST", ask.path))),
        (_, p) if p.starts_with("/api/") => Err(Answer::error(404, format!("no such request: {} {}", ask.method, p))),
        _ => Err(Answer::error(404, format!("nothing at {}", ask.path))),
    };
    answer.unwrap_or_else(|a| a)
}

fn page(hub: &Hub) -> String {
    let config = crate::view::page::script_json(&page_config(&hub.guard.token, &hub.engines));
    PAGE.replace("{{STYLE}}", STYLE).replace("{{CONFIG}}", &config).replace("{{SCRIPT}}", SCRIPT)
}

fn turns_of(ask: &Ask) -> Result<u8, Answer> {
    Ok((ask.query_number("turns")?.unwrap_or(0) % 4) as u8)
}

/// The game at the table, or the answer that there is none.
fn live_of<'a>(t: &'a MutexGuard<'_, super::table::Table>) -> Result<&'a dyn Live, Answer> {
    t.live.as_deref().ok_or_else(|| Answer::error(409, "no game at the table"))
}

fn frame(hub: &Hub, ask: &Ask) -> Result<Answer, Answer> {
    let turns = turns_of(ask)?;
    let t = lock(&hub.table);
    let live = live_of(&t)?;
    let ply = ask.query_number("ply")?.map_or(Ok(live.moves().len()), |p| {
        usize::try_from(p).map_err(|_| Answer::error(400, format!("ply {} is past the game's end", p)))
    })?;
    live.frame(ply, turns, true).map(|f| Answer::json(&f)).map_err(|e| Answer::error(400, e))
}

/// The position after a move from the game's position now. The page names the position it asked
/// from (`generation`, `ply`): a person's click on a chooser's button sends its move and focuses
/// the button at once, so the move may be played before its preview is asked for. Such a preview is answered with
/// nothing (204), not refused: the question was fair when asked and the page drops the answer.
fn preview(hub: &Hub, ask: &Ask) -> Result<Answer, Answer> {
    let turns = turns_of(ask)?;
    let text = ask.query("move").ok_or_else(|| Answer::error(400, "preview: give move=..."))?;
    let (generation, ply) = (ask.query_number("generation")?, ask.query_number("ply")?);
    let t = lock(&hub.table);
    let live = live_of(&t)?;
    let now = live.moves().len() as u64;
    if generation.is_some_and(|g| g != t.generation) || ply.is_some_and(|p| p != now) {
        return Ok(Answer::nothing());
    }
    live.preview(text, turns).map(|f| Answer::json(&f)).map_err(|e| Answer::error(400, e))
}

fn record(hub: &Hub) -> Result<Answer, Answer> {
    let t = lock(&hub.table);
    let pgn_answer =
        |body: String| Answer { status: 200, kind: "application/x-chess-pgn; charset=utf-8", body, policy: None };
    if let Some(text) = &t.loaded {
        return Ok(pgn_answer(text.clone()));
    }
    let mut r = t.report.clone().ok_or_else(|| Answer::error(409, "no game to save"))?;
    if t.status == Status::Running {
        r.ending = Ending::Unterminated;
        r.termination = "unterminated".into();
        r.detail = "saved during the game".into();
    }
    let tc = time_controls(&t.players, r.seat_letters);
    Ok(pgn_answer(pgn(&r, "tetrarch gui", &tc)))
}

/// The TimeControl tag: the one time control of every seat, or each seat's.
fn time_controls(players: &[Seated], letters: &str) -> String {
    let all: Vec<String> = players.iter().map(|p| p.tc.to_string()).collect();
    if all.windows(2).all(|w| w[0] == w[1]) {
        return all.first().cloned().unwrap_or_default();
    }
    players
        .iter()
        .map(|p| {
            let seats: String = p.seats.iter().filter_map(|&s| letters.chars().nth(s.index())).collect();
            format!("{}: {}", seats, p.tc)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Starts the referee's thread of a game of `G`.
type Starter = fn(Arc<Hub>, u64, NewGame, Receiver<Request>) -> std::io::Result<Worker>;

fn starter<G: Game>(hub: Arc<Hub>, generation: u64, game: NewGame, rx: Receiver<Request>) -> std::io::Result<Worker> {
    Worker::spawn("gui-game", move || play_game::<G>(hub, generation, game, rx))
}

/// What a new game needs, made in one pass through the registry: its opening checked and
/// played, its report before a move, and how its thread starts.
struct Prepared {
    live: Box<dyn Live>,
    unplayed: GameReport,
    start: Starter,
}

fn prepare(game: &NewGame) -> Result<Prepared, String> {
    struct Prepare<'a>(&'a NewGame);
    impl Visitor for Prepare<'_> {
        type Output = Result<Prepared, String>;
        fn visit<G: Game>(self) -> Self::Output {
            let game = self.0;
            game.opening.start::<G>()?;
            let live = Played::<G>::open(game.opening.position.as_deref(), &game.opening.moves)?;
            let unplayed = GameReport::unplayed::<G>(0, &game.opening, &game.arbiter_players());
            Ok(Prepared { live: Box::new(live), unplayed, start: starter::<G> })
        }
    }
    variants::visit(game.variant.name, Prepare(game)).map_err(|e| e.to_string())?
}

/// Stops whatever runs at the table, under the control lock the caller holds.
fn clear(hub: &Hub, c: &Control) {
    hub.stop_game(c);
    hub.stop_analysis(c);
}

fn new_game(hub: &Arc<Hub>, ask: &Ask) -> Result<Answer, Answer> {
    let body: NewGameAsk = ask.body()?;
    let game = NewGame::of(hub, &body).map_err(|e| Answer::error(400, e))?;
    let Prepared { live, unplayed, start } = prepare(&game).map_err(|e| Answer::error(400, e))?;
    let players = game.players.clone();
    // From the stop to the start, no other request may stop or start anything.
    let control = hub.control();
    clear(hub, &control);
    let mut t = lock(&hub.table);
    t.generation += 1;
    let (tx, rx) = mpsc::channel();
    let worker = match start(Arc::clone(hub), t.generation, game, rx) {
        Ok(w) => w,
        Err(e) => {
            // The game before was stopped: it is shown as over.
            if t.status == Status::Running {
                t.status = Status::Over;
            }
            hub.broadcast_state(&t);
            return Err(Answer::error(503, format!("cannot start the game: {}", e)));
        }
    };
    t.infos = vec![None; players.len()];
    t.players = players;
    t.live = Some(live);
    t.status = Status::Running;
    t.referee = Some(Referee { orders: tx, worker });
    t.turn = None;
    t.report = Some(unplayed);
    t.loaded = None;
    hub.arm();
    hub.broadcast_state(&t);
    Ok(Answer::ok())
}

/// A person's move, resignation or take-back, handed to the referee, whose answer is the
/// request's.
fn person_order(hub: &Hub, ask: &Ask, what: &str) -> Result<Answer, Answer> {
    let body: OrderAsk = ask.body()?;
    let (orders, order) = {
        let t = lock(&hub.table);
        let orders = t
            .referee
            .as_ref()
            .filter(|_| t.status == Status::Running)
            .map(|r| r.orders.clone())
            .ok_or_else(|| Answer::error(409, "no game is being played"))?;
        // Without a player: the person to move.
        let player = match body.player {
            Some(p) => p,
            None => t.person_to_move().ok_or_else(|| Answer::error(409, "it is not a person's turn"))?,
        };
        if !t.players.get(player).is_some_and(Seated::human) {
            return Err(Answer::error(400, format!("player {} is not a person at this table", player)));
        }
        let order = match what {
            "move" => {
                Order::Move { player, text: body.text.ok_or_else(|| Answer::error(400, "move: give the move's text"))? }
            }
            "resign" => Order::Resign { player },
            _ => Order::TakeBack { player },
        };
        (orders, order)
    };
    let (tx, rx) = mpsc::channel();
    if orders.send((order, Some(tx))).is_err() {
        return Err(Answer::error(409, "the game has ended"));
    }
    match rx.recv_timeout(ORDER_ANSWER) {
        Ok(Ok(())) => Ok(Answer::ok()),
        Ok(Err(e)) => Err(Answer::error(409, e)),
        Err(_) => Err(Answer::error(409, "the game did not take the request (it may have ended)")),
    }
}

/// A record file's game or a position, at the table to look through.
fn load(hub: &Hub, ask: &Ask) -> Result<Answer, Answer> {
    let body: LoadAsk = ask.body()?;
    let text = body.text.trim().to_string();
    if text.is_empty() {
        return Err(Answer::error(400, "load: paste a record or a position"));
    }
    let bad = |e: String| Answer::error(400, e);
    let (live, loaded, names) = if text.starts_with('[') {
        let games = match parse_pgn(&text) {
            Ok(g) if !g.is_empty() => g,
            Ok(_) => return Err(bad("the record holds no game".into())),
            Err(e) => return Err(bad(format!("the record: {}", e))),
        };
        let k = body.game.unwrap_or(1).max(1);
        let g = games.get(k - 1).ok_or_else(|| bad(format!("game {} of {} games", k, games.len())))?;
        let variant = g.tag("Variant").ok_or_else(|| bad("the record has no Variant tag".into()))?;
        let live = live::open(variant, g.tag("StartPosition"), &g.moves)
            .map_err(|e| bad(format!("the record does not replay: {}", e)))?;
        let seats: Vec<(char, String)> =
            live.variant().seats.chars().map(|c| (c, g.tag(&c.to_string()).unwrap_or("?").to_string())).collect();
        // The record's own text for this game, to save unchanged.
        (live, Some(pgn_of_game(&text, k - 1)), seats)
    } else {
        let variant = body.variant.ok_or_else(|| bad("load: a position needs its variant".into()))?;
        let words: Vec<&str> = text.split_whitespace().collect();
        let (start, moves) = position_words(&words).map_err(bad)?;
        (live::open(&variant, start.as_deref(), &moves).map_err(|e| bad(e.to_string()))?, None, Vec::new())
    };
    let control = hub.control();
    clear(hub, &control);
    let mut t = lock(&hub.table);
    t.generation += 1;
    let spec = live.variant();
    t.players = spec
        .players
        .iter()
        .map(|letters| Seated {
            name: names.iter().find(|(c, _)| letters.contains(*c)).map_or("?".to_string(), |(_, n)| n.clone()),
            seats: letters.chars().filter_map(|c| spec.seats.find(c).map(|s| Seat(s as u8))).collect(),
            controller: Controller::Record,
            tc: TimeControl::Unlimited,
        })
        .collect();
    t.infos = vec![None; t.players.len()];
    t.live = Some(live);
    t.status = Status::Review;
    t.turn = None;
    t.report = None;
    t.loaded = loaded;
    hub.broadcast_state(&t);
    Ok(Answer::ok())
}

/// The text of game `k` (from 0) of a record file: from its tags to the line before the next
/// game's.
fn pgn_of_game(text: &str, k: usize) -> String {
    let mut games: Vec<String> = Vec::new();
    let mut in_moves = false;
    for line in text.lines() {
        let tag = line.trim_start().starts_with('[');
        if tag && (games.is_empty() || in_moves) {
            games.push(String::new());
            in_moves = false;
        }
        if !tag && !line.trim().is_empty() {
            in_moves = true;
        }
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games.get(k).map(|g| format!("{}\n", g.trim_end())).unwrap_or_default()
}

fn start_analysis(hub: &Arc<Hub>, ask: &Ask) -> Result<Answer, Answer> {
    let body: AnalyseAsk = ask.body()?;
    let spec = engine_spec(hub, body.engine.as_deref().unwrap_or("self")).map_err(|e| Answer::error(400, e))?;
    let (variant, position, ply) = {
        let t = lock(&hub.table);
        let live = live_of(&t)?;
        let ply = body.ply.unwrap_or(live.moves().len());
        if ply > live.moves().len() {
            return Err(Answer::error(400, format!("ply {} is past the game's {} moves", ply, live.moves().len())));
        }
        (live.variant(), position_command(live.variant(), live.start(), &live.moves()[..ply]), ply)
    };
    let control = hub.control();
    hub.stop_analysis(&control);
    let stop = Arc::new(AtomicBool::new(false));
    let (h, s) = (Arc::clone(hub), Arc::clone(&stop));
    let worker = Worker::spawn("gui-analysis", move || analyse(h, spec, variant.name, position, ply, s))
        .map_err(|e| Answer::error(503, format!("cannot start the analysis: {}", e)))?;
    let mut t = lock(&hub.table);
    t.analysis = Some(Analysis { stop, worker, ply });
    hub.arm();
    hub.broadcast_state(&t);
    Ok(Answer::ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_game_goes_from_its_variant_to_its_game_once() {
        for v in crate::variants::VARIANTS {
            let game = NewGame { variant: v, opening: Default::default(), players: Vec::new(), max_plies: 100 };
            let before = crate::variants::visits_on_this_thread();
            let prepared = prepare(&game).unwrap();
            assert_eq!(crate::variants::visits_on_this_thread() - before, 1, "{}", v.name);
            // Everything after it is a call on the game object.
            assert_eq!(prepared.live.variant().name, v.name);
            assert!(!prepared.live.choices().is_empty());
            assert!(prepared.live.frame(0, 0, true).is_ok());
            assert_eq!(crate::variants::visits_on_this_thread() - before, 1, "{}", v.name);
        }
    }
}
