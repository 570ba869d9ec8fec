//! The server's state and its routes: the game at the table (who plays each player's seats, the
//! referee's thread, the position shown), the analysis engine, and the pages listening for
//! events.

use super::http::{Answer, Ask, Guard, new_token, respond};
use super::live::{self, Live};
use crate::arbiter::clock::TimeControl;
use crate::arbiter::engine::{EngineProc, EngineSpec};
use crate::arbiter::game::{self, Ending, GameConfig, GameReport, Opening, Order, Player, Request};
use crate::arbiter::record::{parse_pgn, pgn};
use crate::gui::json::{Json, obj};
use crate::rules::registry::{self, VariantSpec, Visitor};
use crate::rules::{Game, Seat, position_words};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");
/// The page may talk to its own server and nothing else.
const POLICY: &str = "default-src 'none'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data: blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// How long the server waits with no page listening before it stops the engines: long enough
/// for a page to reload.
const PAGE_GONE: Duration = Duration::from_secs(3);
/// A page that stopped listening is noticed within this (a comment is sent this often).
const HEARTBEAT: Duration = Duration::from_millis(1000);

/// What `tetrarch gui` was asked for.
pub struct GuiArgs {
    /// The address to listen on: 127.0.0.1 unless said otherwise.
    pub host: String,
    /// The port: any free one when 0.
    pub port: u16,
    /// Open the system's browser at the address.
    pub open: bool,
    /// Engines given on the command line, as `tetrarch match --engine` takes them.
    pub engines: Vec<String>,
}

/// Who plays a player's seats.
#[derive(Clone, Debug)]
enum Controller {
    Human,
    Engine(EngineSpec),
}

/// One player of a game at the table.
#[derive(Clone, Debug)]
struct Seated {
    name: String,
    seats: Vec<Seat>,
    controller: Controller,
    /// The time control of its seats (a level for an engine without a clock).
    tc: TimeControl,
}

impl Seated {
    fn human(&self) -> bool {
        matches!(self.controller, Controller::Human)
    }
}

/// The turn under way.
#[derive(Clone, Debug)]
struct Turn {
    seat: Seat,
    player: usize,
    clocks: Vec<Option<u64>>,
    since: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
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

/// The analysis engine at work.
struct Analysis {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
    ply: usize,
}

/// Everything at the table.
struct Table {
    /// Counts games, so that a finished game's thread cannot speak for the next one.
    generation: u64,
    status: Status,
    live: Option<Box<dyn Live>>,
    players: Vec<Seated>,
    orders: Option<Sender<Request>>,
    thread: Option<JoinHandle<()>>,
    turn: Option<Turn>,
    /// The last `info` of each player's engine in this game.
    infos: Vec<Json>,
    /// The game as the referee last reported it (its final report once over).
    report: Option<GameReport>,
    /// A loaded record's text, shown and saved as it was.
    loaded: Option<String>,
    analysis: Option<Analysis>,
}

struct Hub {
    guard: Guard,
    /// This binary, for the engine `self`.
    me: String,
    /// The engines given on the command line.
    engines: Vec<EngineSpec>,
    table: Mutex<Table>,
    listeners: Mutex<Vec<Sender<String>>>,
    /// When a page last listened.
    heard: Mutex<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One Server-Sent Event.
fn sse(event: &str, data: &Json) -> String {
    format!("event: {}\ndata: {}\n\n", event, data)
}

/// An engine's `info` line as the page shows it.
fn info_json(line: &str) -> Option<Json> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut fields: Vec<(String, Json)> = Vec::new();
    while let Some(w) = words.next() {
        match w {
            "string" => return None,
            "pv" => {
                fields.push(("pv".into(), words.collect::<Vec<_>>().join(" ").into()));
                break;
            }
            "depth" | "seldepth" | "nodes" | "nps" | "time" | "hashfull" => {
                if let Some(v) = words.next().and_then(|v| v.parse::<u64>().ok()) {
                    fields.push((w.into(), v.into()));
                }
            }
            "score" => {
                let kind = words.next();
                let v = words.next().and_then(|v| v.parse::<i64>().ok());
                let text = match (kind, v) {
                    (Some("cp"), Some(v)) => crate::arbiter::movedata::Score::Cp(v).to_string(),
                    (Some("mate"), Some(v)) => crate::arbiter::movedata::Score::Mate(v).to_string(),
                    _ => continue,
                };
                fields.push(("score".into(), text.into()));
            }
            _ => {}
        }
    }
    fields.iter().any(|(k, _)| k == "depth").then(|| Json::Object(fields.into_iter().collect()))
}

impl Hub {
    fn broadcast(&self, message: String) {
        lock(&self.listeners).retain(|tx| tx.send(message.clone()).is_ok());
    }

    fn spec_of(&self, text: &str) -> Result<EngineSpec, String> {
        let text = text.trim();
        if text.is_empty() || text == "self" {
            return EngineSpec::parse(&format!("name=tetrarch cmd={}", self.me));
        }
        if let Some(e) = self.engines.iter().find(|e| e.name == text) {
            return Ok(e.clone());
        }
        if text.contains("cmd=") {
            return EngineSpec::parse(text);
        }
        Err(format!("engine '{}': not 'self', an engine of the command line, or a spec with cmd=", text))
    }
}

impl Table {
    /// The quarter turns of the board as a person at the table sees it: the seat of the person
    /// to move, else the first person's; all engines: unturned.
    fn view(&self) -> u8 {
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
    fn person_to_move(&self) -> Option<usize> {
        let t = self.turn.as_ref()?;
        (self.status == Status::Running && self.players.get(t.player)?.human()).then_some(t.player)
    }

    fn state(&self, hub: &Hub) -> Json {
        let variant = self.live.as_ref().map(|l| l.variant());
        let turns = self.view();
        // The squares are left out: the page asks for them once per game and view.
        let frame = self.live.as_ref().and_then(|l| l.frame(l.moves().len(), turns, false).ok());
        let report = self.report.as_ref();
        let players: Vec<Json> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let letters: String =
                    p.seats.iter().filter_map(|&s| variant.and_then(|v| v.seats.chars().nth(s.index()))).collect();
                obj([
                    ("name", p.name.as_str().into()),
                    ("seats", letters.into()),
                    ("human", p.human().into()),
                    ("time", p.tc.to_string().into()),
                    ("info", self.infos.get(i).cloned().unwrap_or(Json::Null)),
                ])
            })
            .collect();
        let data: Vec<Json> =
            report.map(|r| r.move_data.iter().map(|d| d.map(|d| d.comment()).into()).collect()).unwrap_or_default();
        let result = report.filter(|_| self.status == Status::Over).map(|r| {
            obj([
                ("result", r.result().into()),
                ("termination", r.termination.as_str().into()),
                ("detail", r.detail.as_str().into()),
            ])
        });
        let loaded_result = self.loaded.as_ref().and_then(|t| parse_pgn(t).ok()).and_then(|g| {
            g.into_iter().next().map(|g| {
                obj([
                    ("result", g.result.as_str().into()),
                    ("termination", g.tag("Termination").unwrap_or("").into()),
                    ("detail", g.tag("TerminationDetail").unwrap_or("").into()),
                ])
            })
        });
        let turn = self.turn.as_ref().filter(|_| self.status == Status::Running).map(|t| {
            obj([
                ("seat", t.seat.index().into()),
                ("player", t.player.into()),
                ("clocks", Json::Array(t.clocks.iter().map(|&c| c.into()).collect())),
                ("elapsed", (t.since.elapsed().as_millis() as u64).into()),
            ])
        });
        let person = self.person_to_move();
        let clocked = self.players.iter().any(|p| matches!(p.tc, TimeControl::Clock { .. }));
        obj([
            ("status", self.status.word().into()),
            ("generation", (self.generation as usize).into()),
            (
                "variant",
                variant.map_or(Json::Null, |v| {
                    obj([
                        ("name", v.name.into()),
                        ("title", v.title.into()),
                        ("seats", v.seats.into()),
                        ("files", (v.files as usize).into()),
                        ("ranks", (v.ranks as usize).into()),
                    ])
                }),
            ),
            ("start", self.live.as_ref().and_then(|l| l.start().map(String::from)).into()),
            ("moves", self.live.as_ref().map(|l| l.moves().to_vec()).unwrap_or_default().into()),
            ("data", Json::Array(data)),
            ("players", Json::Array(players)),
            ("turn", turn.into()),
            ("person", person.into()),
            ("takeback", (!clocked && self.status == Status::Running).into()),
            (
                "legal",
                match (person, &self.live) {
                    (Some(_), Some(l)) => l.legal(),
                    _ => Json::Array(Vec::new()),
                },
            ),
            ("view", (turns as usize).into()),
            ("seats", self.live.as_ref().map_or(Json::Array(Vec::new()), |l| l.seats())),
            ("frame", frame.into()),
            ("result", result.or(loaded_result).into()),
            ("analysis", self.analysis.as_ref().map(|a| a.ply).into()),
            ("engines", hub.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>().into()),
        ])
    }
}

/// Waits up to `limit` for a thread to end, and joins it if it did.
fn reap(h: JoinHandle<()>, limit: Duration) {
    let until = Instant::now() + limit;
    while !h.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    if h.is_finished() {
        let _ = h.join();
    }
}

impl Hub {
    /// Ends the game under way, if any, and waits (briefly) for its engines to quit. The table
    /// is not held meanwhile: the game's last events need it.
    fn stop_game(&self) {
        let (orders, thread) = {
            let mut t = lock(&self.table);
            (t.orders.take(), t.thread.take())
        };
        if let Some(tx) = orders {
            let _ = tx.send((Order::Abort, None));
        }
        if let Some(h) = thread {
            reap(h, Duration::from_secs(5));
        }
    }

    /// Ends the analysis, if any, likewise.
    fn stop_analysis(&self) {
        let analysis = lock(&self.table).analysis.take();
        if let Some(a) = analysis {
            a.stop.store(true, Ordering::SeqCst);
            reap(a.thread, Duration::from_secs(3));
        }
    }
}

/// Parses a player's time: `none`, `depth N`, `nodes N`, `movetime MS`, or a clock as `tetrarch
/// match --tc` takes it (`5+0.1`, `40/60`), optionally with ` byoyomi S`.
fn parse_time(text: &str, human: bool) -> Result<TimeControl, String> {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let number = |w: &str, what: &str| -> Result<u64, String> {
        w.parse::<u64>()
            .map_err(|_| format!("{} '{}' is not a number", what, w))
            .and_then(|n| if n == 0 { Err(format!("{} must be at least 1", what)) } else { Ok(n) })
    };
    let tc = match words.as_slice() {
        [] | ["none"] => TimeControl::Unlimited,
        ["depth", n] => TimeControl::Depth(u32::try_from(number(n, "depth")?).unwrap_or(u32::MAX).min(100)),
        ["nodes", n] => TimeControl::Nodes(number(n, "nodes")?),
        ["movetime", n] => TimeControl::MoveTime(number(n, "movetime")?.min(86_400_000)),
        [clock] => TimeControl::parse_clock(clock, 0.0)?,
        [clock, "byoyomi", b] => {
            TimeControl::parse_clock(clock, b.parse::<f64>().map_err(|_| format!("byoyomi '{}' is not seconds", b))?)?
        }
        _ => return Err(format!("time '{}': give none, depth N, nodes N, movetime MS or a clock like 5+0.1", t)),
    };
    match (human, tc) {
        (true, TimeControl::Depth(_) | TimeControl::Nodes(_)) => {
            Err("a person plays with a clock, a time per move, or none".into())
        }
        (false, TimeControl::Unlimited) => Err("an engine needs a clock or a level (depth, nodes, movetime)".into()),
        _ => Ok(tc),
    }
}

/// The game a new-game request asks for.
struct NewGame {
    variant: &'static VariantSpec,
    opening: Opening,
    players: Vec<Seated>,
    max_plies: usize,
}

fn new_game_of(hub: &Hub, body: &Json) -> Result<NewGame, String> {
    let name = body.get("variant").and_then(Json::as_str).ok_or("variant: missing")?;
    let variant = registry::find(name).filter(|v| v.playable).ok_or_else(|| format!("variant '{}': unknown", name))?;
    let text = |k: &str| body.get(k).and_then(Json::as_str).unwrap_or("").trim().to_string();
    let start = text("start");
    let moves: Vec<String> = text("moves").split_whitespace().map(String::from).collect();
    // A start may be given as `position` takes it: `startpos`, `sfen ...`, `fen ...` or the bare
    // string, with `moves ...` after it.
    let words: Vec<&str> = start.split_whitespace().collect();
    let (start, mut before) = position_words(&words)?;
    before.extend(moves);
    let opening = Opening { position: start, moves: before };
    let groups = variant.players;
    let given = body.get("players").and_then(Json::as_array).ok_or("players: missing")?;
    if given.len() != groups.len() {
        return Err(format!("{} has {} players, {} given", variant.name, groups.len(), given.len()));
    }
    let mut players = Vec::new();
    for (i, (p, letters)) in given.iter().zip(groups).enumerate() {
        let who = p.get("who").and_then(Json::as_str).unwrap_or("human");
        let human = match who {
            "human" => true,
            "engine" => false,
            other => return Err(format!("player {}: '{}' is not human or engine", i + 1, other)),
        };
        let tc = parse_time(p.get("time").and_then(Json::as_str).unwrap_or("none"), human)
            .map_err(|e| format!("player {}: {}", i + 1, e))?;
        let controller = if human {
            Controller::Human
        } else {
            Controller::Engine(
                hub.spec_of(p.get("engine").and_then(Json::as_str).unwrap_or("self"))
                    .map_err(|e| format!("player {}: {}", i + 1, e))?,
            )
        };
        let name = match &controller {
            Controller::Human => p
                .get("name")
                .and_then(Json::as_str)
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .unwrap_or("human")
                .to_string(),
            Controller::Engine(spec) => spec.name.clone(),
        };
        let seats = letters.chars().filter_map(|c| variant.seats.find(c).map(|s| Seat(s as u8))).collect();
        players.push(Seated { name, seats, controller, tc });
    }
    // Players that share a name are numbered, as in a match, so that the record tells them
    // apart.
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    for (i, p) in players.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == names[i]).count() > 1 {
            p.name = format!("{}-{}", names[i], i + 1);
        }
    }
    let max_plies = body.get("max_plies").and_then(Json::as_u64).map_or(1000, |n| n.clamp(1, 100_000) as usize);
    Ok(NewGame { variant, opening, players, max_plies })
}

/// Plays one game at the table: starts its engines, referees it, and reports every turn, line
/// and move to the pages.
fn play_game<G: Game>(hub: Arc<Hub>, generation: u64, game: NewGame, rx: Receiver<Request>) {
    let players: Vec<Player> = game
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| Player { engine: i, name: p.name.clone(), seats: p.seats.clone() })
        .collect();
    let mut tcs = vec![TimeControl::Unlimited; G::VARIANT.seats.len()];
    for p in &game.players {
        for &s in &p.seats {
            tcs[s.index()] = p.tc;
        }
    }
    let cfg = GameConfig {
        variant: G::VARIANT.name,
        tcs,
        margin_ms: 100,
        startup_ms: 10_000,
        hang_ms: 60_000,
        max_plies: game.max_plies,
    };
    let mut procs: Vec<Option<EngineProc>> = Vec::new();
    let mut failed = None;
    for (i, p) in game.players.iter().enumerate() {
        match &p.controller {
            Controller::Human => procs.push(None),
            Controller::Engine(spec) => {
                let started = EngineProc::spawn(spec).map_err(|e| (game::Ending::Crash, e)).and_then(|mut pr| {
                    pr.initialise(G::VARIANT.name, Duration::from_millis(cfg.startup_ms)).map(|_| pr).map_err(
                        |(f, what)| {
                            let ending = if f == crate::arbiter::engine::Fault::Died {
                                Ending::Crash
                            } else {
                                Ending::StartupFailure
                            };
                            (ending, format!("{} failed at {}", spec.name, what))
                        },
                    )
                });
                match started {
                    Ok(pr) => procs.push(Some(pr)),
                    Err(e) => {
                        failed = Some((i, e));
                        break;
                    }
                }
            }
        }
    }
    let report = match failed {
        Some((p, (ending, detail))) => {
            // The same forfeit as a match's for an engine that does not start.
            let mut r = GameReport::unplayed::<G>(0, &game.opening, &players);
            let start = game.opening.start::<G>().map(|rec| rec.current).unwrap_or_else(|_| G::startpos());
            r.points = game::points_of_forfeit(&start, &players[p].seats);
            r.termination = if ending == Ending::Crash { "crash".into() } else { "start-up failure".into() };
            r.ending = ending;
            r.detail = detail;
            r.culprit = Some(p);
            r.places = game::player_places(&start, &r.points, &players);
            Ok(r)
        }
        None => {
            let mut movers: Vec<game::Mover> = procs
                .iter_mut()
                .map(|p| match p {
                    Some(pr) => game::Mover::Engine(pr),
                    None => game::Mover::Human,
                })
                .collect();
            let hub2 = Arc::clone(&hub);
            game::referee::<G>(0, &game.opening, &players, &mut movers, &cfg, Some(&rx), &mut |e| {
                on_event(&hub2, generation, e)
            })
        }
    };
    drop(procs);
    let mut t = lock(&hub.table);
    if t.generation != generation {
        return;
    }
    match report {
        Ok(r) => {
            if let Some(live) = t.live.as_mut() {
                let _ = live.set_moves(&r.moves);
            }
            t.report = Some(r);
        }
        Err(e) => {
            if let Some(r) = t.report.as_mut() {
                r.ending = Ending::Unterminated;
                r.termination = "unterminated".into();
                r.detail = e;
            }
        }
    }
    t.status = Status::Over;
    t.orders = None;
    t.turn = None;
    let state = sse("state", &t.state(&hub));
    drop(t);
    hub.broadcast(state);
}

fn on_event(hub: &Hub, generation: u64, e: game::Event<'_>) {
    let mut t = lock(&hub.table);
    if t.generation != generation {
        return;
    }
    match e {
        game::Event::Turn { seat, player, clocks } => {
            t.turn = Some(Turn { seat, player, clocks, since: Instant::now() });
            let state = sse("state", &t.state(hub));
            drop(t);
            hub.broadcast(state);
        }
        game::Event::Info { player, line } => {
            if let Some(info) = info_json(line) {
                if let Some(slot) = t.infos.get_mut(player) {
                    *slot = info.clone();
                }
                drop(t);
                hub.broadcast(sse("info", &obj([("player", player.into()), ("info", info)])));
            }
        }
        game::Event::Moved { report } | game::Event::TookBack { report } => {
            if let Some(live) = t.live.as_mut() {
                let _ = live.set_moves(&report.moves);
            }
            t.report = Some(report.clone());
            // A take-back is shown at once; a move with the turn that follows it.
            if matches!(e, game::Event::TookBack { .. }) {
                t.turn = None;
                let state = sse("state", &t.state(hub));
                drop(t);
                hub.broadcast(state);
            }
        }
    }
}

/// The analysis engine's loop: `go infinite` on one position until stopped.
fn analyse(
    hub: Arc<Hub>,
    spec: EngineSpec,
    variant: &'static str,
    position: String,
    ply: usize,
    stop: Arc<AtomicBool>,
) {
    let tell = |what: Json| hub.broadcast(sse("analysis", &what));
    let mut proc = match EngineProc::spawn(&spec) {
        Ok(p) => p,
        Err(e) => return tell(obj([("ply", ply.into()), ("error", e.into())])),
    };
    if let Err((_, what)) = proc.initialise(variant, Duration::from_secs(10)) {
        return tell(obj([("ply", ply.into()), ("error", format!("{} failed at {}", spec.name, what).into())]));
    }
    if proc.send(&position).and_then(|_| proc.send("go infinite")).is_err() {
        return tell(obj([("ply", ply.into()), ("error", format!("{} exited", spec.name).into())]));
    }
    while !stop.load(Ordering::SeqCst) {
        match proc.next_line(Instant::now() + Duration::from_millis(50)) {
            Ok(Some(line)) => {
                if let Some(info) = info_json(&line) {
                    tell(obj([("ply", ply.into()), ("engine", spec.name.as_str().into()), ("info", info)]));
                } else if line.starts_with("bestmove") {
                    // A position with no move to search ends at once.
                    break;
                }
            }
            Ok(None) => {}
            Err(_) => return tell(obj([("ply", ply.into()), ("error", format!("{} exited", spec.name).into())])),
        }
    }
    let _ = proc.send("stop");
    let _ = proc.wait_for(Instant::now() + Duration::from_secs(2), |l| l.starts_with("bestmove"));
    tell(obj([("ply", ply.into()), ("stopped", true.into())]));
}

/// The position command for the game shown after `ply` moves.
fn position_command(variant: &VariantSpec, start: Option<&str>, moves: &[String]) -> String {
    let mut s = match start {
        None => "position startpos".to_string(),
        Some(p) => format!("position {} {}", variant.keyword, p),
    };
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s
}

fn route(hub: &Arc<Hub>, ask: &Ask) -> Answer {
    match (ask.method.as_str(), ask.path.as_str()) {
        ("GET", "/") => Answer { status: 200, kind: "text/html; charset=utf-8", body: page(hub) },
        ("GET", "/api/state") => Answer::json(lock(&hub.table).state(hub)),
        ("GET", "/api/frame") => frame(hub, ask),
        ("GET", "/api/preview") => preview(hub, ask),
        ("GET", "/api/record") => record(hub),
        ("POST", "/api/new") => new_game(hub, ask),
        ("POST", "/api/move") => person_order(hub, ask, "move"),
        ("POST", "/api/resign") => person_order(hub, ask, "resign"),
        ("POST", "/api/takeback") => person_order(hub, ask, "takeback"),
        ("POST", "/api/stop") => {
            hub.stop_game();
            Answer::ok()
        }
        ("POST", "/api/load") => load(hub, ask),
        ("POST", "/api/analyse") => start_analysis(hub, ask),
        ("POST", "/api/analyse/stop") => {
            hub.stop_analysis();
            let state = sse("state", &lock(&hub.table).state(hub));
            hub.broadcast(state);
            Answer::ok()
        }
        (_, "/" | "/events" | "/api/state" | "/api/frame" | "/api/preview" | "/api/record") => {
            Answer::error(405, format!("{} takes GET", ask.path))
        }
        (_, p) if p.starts_with("/api/") => Answer::error(404, format!("no such request: {} {}", ask.method, p)),
        _ => Answer::error(404, format!("nothing at {}", ask.path)),
    }
}

fn page(hub: &Hub) -> String {
    let variants: Vec<Json> = crate::rules::VARIANTS
        .iter()
        .filter(|v| v.playable)
        .map(|v| {
            obj([
                ("name", v.name.into()),
                ("title", v.title.into()),
                ("seats", v.seats.into()),
                ("players", v.players.iter().map(|p| p.to_string()).collect::<Vec<_>>().into()),
                ("names", seat_names(v.name).into()),
            ])
        })
        .collect();
    let config = obj([
        ("token", hub.guard.token.as_str().into()),
        ("variants", Json::Array(variants)),
        ("engines", hub.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>().into()),
    ]);
    // Inside <script>: nothing may close it.
    let config = config.to_string().replace('<', "\\u003c");
    PAGE.replace("{{POLICY}}", POLICY)
        .replace("{{STYLE}}", STYLE)
        .replace("{{CONFIG}}", &config)
        .replace("{{SCRIPT}}", SCRIPT)
}

/// The seats' names for people, from each game's picture.
fn seat_names(variant: &str) -> Vec<String> {
    struct Names;
    impl Visitor for Names {
        type Output = Vec<String>;
        fn visit<G: Game>(self) -> Vec<String> {
            G::startpos().diagram().seats.iter().map(|s| s.name.to_string()).collect()
        }
    }
    registry::visit(variant, Names).unwrap_or_default()
}

fn turns_of(ask: &Ask) -> Result<u8, Answer> {
    Ok((ask.query_number("turns")?.unwrap_or(0) % 4) as u8)
}

fn frame(hub: &Hub, ask: &Ask) -> Answer {
    let turns = match turns_of(ask) {
        Ok(t) => t,
        Err(a) => return a,
    };
    let t = lock(&hub.table);
    let Some(live) = &t.live else { return Answer::error(409, "no game at the table") };
    let ply = match ask.query_number("ply") {
        Ok(p) => p.map_or(live.moves().len(), |p| p as usize),
        Err(a) => return a,
    };
    match live.frame(ply, turns, true) {
        Ok(f) => Answer::json(f),
        Err(e) => Answer::error(400, e),
    }
}

fn preview(hub: &Hub, ask: &Ask) -> Answer {
    let turns = match turns_of(ask) {
        Ok(t) => t,
        Err(a) => return a,
    };
    let Some(text) = ask.query("move") else { return Answer::error(400, "preview: give move=...") };
    let t = lock(&hub.table);
    let Some(live) = &t.live else { return Answer::error(409, "no game at the table") };
    match live.preview(text, turns) {
        Ok(f) => Answer::json(f),
        Err(e) => Answer::error(400, e),
    }
}

fn record(hub: &Hub) -> Answer {
    let t = lock(&hub.table);
    if let Some(text) = &t.loaded {
        return Answer { status: 200, kind: "application/x-chess-pgn; charset=utf-8", body: text.clone() };
    }
    let Some(r) = &t.report else { return Answer::error(409, "no game to save") };
    let mut r = r.clone();
    if t.status == Status::Running {
        r.ending = Ending::Unterminated;
        r.termination = "unterminated".into();
        r.detail = "saved during the game".into();
    }
    let tc = time_controls(&t.players, r.seat_letters);
    Answer { status: 200, kind: "application/x-chess-pgn; charset=utf-8", body: pgn(&r, "tetrarch gui", &tc) }
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

fn new_game(hub: &Arc<Hub>, ask: &Ask) -> Answer {
    let body = match ask.json() {
        Ok(b) => b,
        Err(a) => return a,
    };
    let game = match new_game_of(hub, &body) {
        Ok(g) => g,
        Err(e) => return Answer::error(400, e),
    };
    let live = match check_opening(game.variant.name, &game.opening)
        .and_then(|_| live::open(game.variant.name, game.opening.position.as_deref(), &game.opening.moves))
    {
        Ok(l) => l,
        Err(e) => return Answer::error(400, e),
    };
    hub.stop_game();
    hub.stop_analysis();
    let mut t = lock(&hub.table);
    t.generation += 1;
    let generation = t.generation;
    let (tx, rx) = mpsc::channel();
    struct Start(Arc<Hub>, u64, NewGame, Receiver<Request>);
    impl Visitor for Start {
        type Output = std::io::Result<JoinHandle<()>>;
        fn visit<G: Game>(self) -> Self::Output {
            let Start(hub, generation, game, rx) = self;
            std::thread::Builder::new().name("gui-game".into()).spawn(move || play_game::<G>(hub, generation, game, rx))
        }
    }
    let players = game.players.clone();
    let names: Vec<Player> = players
        .iter()
        .enumerate()
        .map(|(i, p)| Player { engine: i, name: p.name.clone(), seats: p.seats.clone() })
        .collect();
    struct Unplayed<'a>(&'a Opening, &'a [Player]);
    impl Visitor for Unplayed<'_> {
        type Output = GameReport;
        fn visit<G: Game>(self) -> GameReport {
            GameReport::unplayed::<G>(0, self.0, self.1)
        }
    }
    let Ok(unplayed) = registry::visit(game.variant.name, Unplayed(&game.opening, &names)) else {
        return Answer::error(400, "unknown variant");
    };
    let thread = match registry::visit(game.variant.name, Start(Arc::clone(hub), generation, game, rx)) {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return Answer::error(500, format!("cannot start the game: {}", e)),
        Err(e) => return Answer::error(400, e.to_string()),
    };
    t.infos = vec![Json::Null; players.len()];
    t.players = players;
    t.live = Some(live);
    t.status = Status::Running;
    t.orders = Some(tx);
    t.thread = Some(thread);
    t.turn = None;
    t.report = Some(unplayed);
    t.loaded = None;
    let state = sse("state", &t.state(hub));
    drop(t);
    hub.broadcast(state);
    Answer::ok()
}

/// A person's move, resignation or take-back, handed to the referee, whose answer is the
/// request's.
fn person_order(hub: &Hub, ask: &Ask, what: &str) -> Answer {
    let body = match ask.json() {
        Ok(b) => b,
        Err(a) => return a,
    };
    let (orders, order) = {
        let t = lock(&hub.table);
        if t.status != Status::Running {
            return Answer::error(409, "no game is being played");
        }
        let Some(orders) = t.orders.clone() else { return Answer::error(409, "no game is being played") };
        let player = match body.get("player").map(|p| p.as_u64()) {
            Some(Some(p)) => p as usize,
            Some(None) => return Answer::error(400, "player must be a number"),
            // Without a player: the person to move.
            None => match t.person_to_move() {
                Some(p) => p,
                None => return Answer::error(409, "it is not a person's turn"),
            },
        };
        if !t.players.get(player).is_some_and(Seated::human) {
            return Answer::error(400, format!("player {} is not a person at this table", player));
        }
        let order = match what {
            "move" => match body.get("move").and_then(Json::as_str) {
                Some(m) => Order::Move { player, text: m.to_string() },
                None => return Answer::error(400, "move: give the move's text"),
            },
            "resign" => Order::Resign { player },
            _ => Order::TakeBack { player },
        };
        (orders, order)
    };
    let (tx, rx) = mpsc::channel();
    if orders.send((order, Some(tx))).is_err() {
        return Answer::error(409, "the game has ended");
    }
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(Ok(())) => Answer::ok(),
        Ok(Err(e)) => Answer::error(409, e),
        Err(_) => Answer::error(409, "the game did not take the request (it may have ended)"),
    }
}

/// A record file's game or a position, at the table to look through.
fn load(hub: &Hub, ask: &Ask) -> Answer {
    let body = match ask.json() {
        Ok(b) => b,
        Err(a) => return a,
    };
    let text = body.get("text").and_then(Json::as_str).unwrap_or("").trim().to_string();
    if text.is_empty() {
        return Answer::error(400, "load: paste a record or a position");
    }
    let (live, loaded, names) = if text.starts_with('[') {
        let games = match parse_pgn(&text) {
            Ok(g) if !g.is_empty() => g,
            Ok(_) => return Answer::error(400, "the record holds no game"),
            Err(e) => return Answer::error(400, format!("the record: {}", e)),
        };
        let k = body.get("game").and_then(Json::as_u64).unwrap_or(1).max(1) as usize;
        let Some(g) = games.get(k - 1) else {
            return Answer::error(400, format!("game {} of {} games", k, games.len()));
        };
        let Some(variant) = g.tag("Variant") else { return Answer::error(400, "the record has no Variant tag") };
        let live = match live::open(variant, g.tag("StartPosition"), &g.moves) {
            Ok(l) => l,
            Err(e) => return Answer::error(400, format!("the record does not replay: {}", e)),
        };
        let seats: Vec<(char, String)> =
            live.variant().seats.chars().map(|c| (c, g.tag(&c.to_string()).unwrap_or("?").to_string())).collect();
        // The record's own text for this game, to save unchanged.
        let own = pgn_of_game(&text, k - 1);
        (live, Some(own), seats)
    } else {
        let Some(variant) = body.get("variant").and_then(Json::as_str) else {
            return Answer::error(400, "load: a position needs its variant");
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let (start, moves) = match position_words(&words) {
            Ok(p) => p,
            Err(e) => return Answer::error(400, e),
        };
        let live = match live::open(variant, start.as_deref(), &moves) {
            Ok(l) => l,
            Err(e) => return Answer::error(400, e),
        };
        (live, None, Vec::new())
    };
    hub.stop_game();
    hub.stop_analysis();
    let mut t = lock(&hub.table);
    t.generation += 1;
    let spec = live.variant();
    t.players = spec
        .players
        .iter()
        .map(|letters| Seated {
            name: names.iter().find(|(c, _)| letters.contains(*c)).map_or("?".to_string(), |(_, n)| n.clone()),
            seats: letters.chars().filter_map(|c| spec.seats.find(c).map(|s| Seat(s as u8))).collect(),
            controller: Controller::Human,
            tc: TimeControl::Unlimited,
        })
        .collect();
    t.infos = vec![Json::Null; t.players.len()];
    t.live = Some(live);
    t.status = Status::Review;
    t.turn = None;
    t.report = None;
    t.loaded = loaded;
    let state = sse("state", &t.state(hub));
    drop(t);
    hub.broadcast(state);
    Answer::ok()
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

fn start_analysis(hub: &Arc<Hub>, ask: &Ask) -> Answer {
    let body = match ask.json() {
        Ok(b) => b,
        Err(a) => return a,
    };
    let spec = match hub.spec_of(body.get("engine").and_then(Json::as_str).unwrap_or("self")) {
        Ok(s) => s,
        Err(e) => return Answer::error(400, e),
    };
    let (variant, position, ply) = {
        let t = lock(&hub.table);
        let Some(live) = &t.live else { return Answer::error(409, "no game at the table") };
        let ply = body.get("ply").and_then(Json::as_u64).map_or(live.moves().len(), |p| p as usize);
        if ply > live.moves().len() {
            return Answer::error(400, format!("ply {} is past the game's {} moves", ply, live.moves().len()));
        }
        (live.variant(), position_command(live.variant(), live.start(), &live.moves()[..ply]), ply)
    };
    hub.stop_analysis();
    let mut t = lock(&hub.table);
    let stop = Arc::new(AtomicBool::new(false));
    let (h, s) = (Arc::clone(hub), Arc::clone(&stop));
    let thread = match std::thread::Builder::new()
        .name("gui-analysis".into())
        .spawn(move || analyse(h, spec, variant.name, position, ply, s))
    {
        Ok(th) => th,
        Err(e) => return Answer::error(500, format!("cannot start the analysis: {}", e)),
    };
    t.analysis = Some(Analysis { stop, thread, ply });
    let state = sse("state", &t.state(hub));
    drop(t);
    hub.broadcast(state);
    Answer::ok()
}

/// The event stream of one page: the state at once, then every change, and a comment every
/// `HEARTBEAT` by which a page that went away is noticed.
fn events(hub: Arc<Hub>, req: tiny_http::Request) {
    use std::io::Write;
    let (tx, rx) = mpsc::channel::<String>();
    let first = sse("state", &lock(&hub.table).state(&hub));
    lock(&hub.listeners).push(tx);
    *lock(&hub.heard) = Instant::now();
    let mut w = req.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
    if w.write_all(head.as_bytes()).and_then(|_| w.write_all(first.as_bytes())).and_then(|_| w.flush()).is_err() {
        return;
    }
    loop {
        let msg = match rx.recv_timeout(HEARTBEAT) {
            Ok(m) if m.is_empty() => continue,
            Ok(m) => m,
            Err(mpsc::RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if w.write_all(msg.as_bytes()).and_then(|_| w.flush()).is_err() {
            return;
        }
    }
}

/// Stops the engines when no page has listened for `PAGE_GONE`: the page was closed.
fn watchdog(hub: Arc<Hub>) {
    loop {
        std::thread::sleep(Duration::from_millis(250));
        // An empty message reaches only streams that are still open.
        let listening = {
            let mut l = lock(&hub.listeners);
            l.retain(|tx| tx.send(String::new()).is_ok());
            !l.is_empty()
        };
        if listening {
            *lock(&hub.heard) = Instant::now();
            continue;
        }
        if lock(&hub.heard).elapsed() < PAGE_GONE {
            continue;
        }
        let busy = {
            let t = lock(&hub.table);
            t.thread.is_some() || t.analysis.is_some()
        };
        if busy {
            log::info!("no page is open: stopping the game and the analysis");
            hub.stop_game();
            hub.stop_analysis();
        }
    }
}

/// Checks that an opening replays and does not already end the game.
fn check_opening(variant: &str, opening: &Opening) -> Result<(), String> {
    struct Check<'a>(&'a Opening);
    impl Visitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self) -> Self::Output {
            self.0.start::<G>().map(|_| ())
        }
    }
    registry::visit(variant, Check(opening)).map_err(|e| e.to_string())?
}

pub fn serve(args: &GuiArgs) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?.to_string_lossy().into_owned();
    let engines = args.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<Vec<_>, _>>()?;
    let server = tiny_http::Server::http((args.host.as_str(), args.port))
        .map_err(|e| format!("gui: cannot listen on {}:{}: {}", args.host, args.port, e))?;
    let addr = server.server_addr().to_ip().ok_or("gui: not listening on an IP address")?;
    let port = addr.port();
    let loopback = addr.ip().is_loopback();
    let hosts = if loopback {
        vec![
            format!("127.0.0.1:{}", port),
            format!("localhost:{}", port),
            format!("[::1]:{}", port),
            format!("{}:{}", args.host, port),
        ]
    } else {
        Vec::new()
    };
    let token = new_token();
    let shown_host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { args.host.clone() };
    let url = format!("http://{}:{}/?token={}", shown_host, port, token);
    let hub = Arc::new(Hub {
        guard: Guard { token, hosts },
        me,
        engines,
        table: Mutex::new(Table {
            generation: 0,
            status: Status::Idle,
            live: None,
            players: Vec::new(),
            orders: None,
            thread: None,
            turn: None,
            infos: Vec::new(),
            report: None,
            loaded: None,
            analysis: None,
        }),
        listeners: Mutex::new(Vec::new()),
        heard: Mutex::new(Instant::now()),
    });
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "tetrarch gui: open {}", url);
        let _ = writeln!(out, "(Ctrl-C stops the server and every engine it started)");
        let _ = out.flush();
    }
    if args.open {
        open_browser(&url);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let s = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
    {
        let h = Arc::clone(&hub);
        std::thread::Builder::new()
            .name("gui-watchdog".into())
            .spawn(move || watchdog(h))
            .map_err(|e| e.to_string())?;
    }
    while !stop.load(Ordering::SeqCst) {
        let mut req = match server.recv_timeout(Duration::from_millis(100)) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(e) => {
                log::warn!("gui: {}", e);
                continue;
            }
        };
        let hub = Arc::clone(&hub);
        let spawned = std::thread::Builder::new().name("gui-request".into()).spawn(move || {
            let ask = match Ask::read(&mut req) {
                Ok(a) => a,
                Err(e) => return respond(req, Answer::error(400, e)),
            };
            if let Err(a) = hub.guard.check(&ask) {
                return respond(req, a);
            }
            if ask.path == "/events" {
                return if ask.method == "GET" {
                    events(hub, req)
                } else {
                    respond(req, Answer::error(405, "/events takes GET"))
                };
            }
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(&hub, &ask)))
                .unwrap_or_else(|_| Answer::error(500, "internal error; the game is unchanged"));
            respond(req, answer);
        });
        if let Err(e) = spawned {
            log::warn!("gui: cannot answer a request: {}", e);
        }
    }
    // Ctrl-C: the game and the analysis end, and every engine with them.
    hub.stop_game();
    hub.stop_analysis();
    crate::arbiter::engine::kill_all();
    Ok(())
}

fn open_browser(url: &str) {
    let tries: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[("xdg-open", &[]), ("sensible-browser", &[]), ("chromium", &[]), ("firefox", &[])]
    };
    for (cmd, args) in tries {
        let started = std::process::Command::new(cmd)
            .args(*args)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if let Ok(mut child) = started {
            // Reaped when it exits, so that it leaves no zombie behind.
            std::thread::spawn(move || child.wait());
            return;
        }
    }
    eprintln!("tetrarch gui: could not open a browser; open the address above yourself");
}
