//! A game at the table: the New game request read and checked, the referee's thread that plays
//! it (the arbiter's `referee`, with people's moves as orders), and what the thread tells the
//! pages as the game goes.

use super::api::{InfoEvent, NewGameAsk, PlayerAsk, Who};
use super::hub::{Hub, lock, sse};
use super::table::{Controller, Seated, Status, Turn};
use crate::arbiter::clock::TimeControl;
use crate::arbiter::engine::{EngineProc, EngineSpec};
use crate::arbiter::game::{self, Ending, GameConfig, GameReport, Opening, Player, Request};
use crate::arbiter::movedata::InfoLine;
use crate::rules::VariantSpec;
use crate::rules::{Game, Seat, position_words};
use crate::variants;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Parses a player's time: `none`, `depth N`, `nodes N`, `movetime MS`, or a clock as `tetrarch
/// match --tc` takes it (`5+0.1`, `40/60`), optionally with ` byoyomi S`.
pub fn parse_time(text: &str, human: bool) -> Result<TimeControl, String> {
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

/// An engine by what the page names it: `self`, an engine of the command line, or a spec.
pub fn engine_spec(hub: &Hub, text: &str) -> Result<EngineSpec, String> {
    let text = text.trim();
    if text.is_empty() || text == "self" {
        return EngineSpec::parse(&format!("name=tetrarch cmd={}", hub.me));
    }
    if let Some(e) = hub.engines.iter().find(|e| e.name == text) {
        return Ok(e.clone());
    }
    if text.contains("cmd=") {
        return EngineSpec::parse(text);
    }
    Err(format!("engine '{}': not 'self', an engine of the command line, or a spec with cmd=", text))
}

/// The game a New game request asks for, checked.
pub struct NewGame {
    pub variant: &'static VariantSpec,
    pub opening: Opening,
    pub players: Vec<Seated>,
    pub max_plies: usize,
}

fn seated(hub: &Hub, i: usize, p: &PlayerAsk, letters: &str, variant: &VariantSpec) -> Result<Seated, String> {
    let human = p.who == Who::Human;
    let tc = parse_time(p.time.as_deref().unwrap_or("none"), human).map_err(|e| format!("player {}: {}", i + 1, e))?;
    let controller = match p.who {
        Who::Human => Controller::Human,
        Who::Engine => Controller::Engine(
            engine_spec(hub, p.engine.as_deref().unwrap_or("self")).map_err(|e| format!("player {}: {}", i + 1, e))?,
        ),
    };
    let name = match &controller {
        Controller::Engine(spec) => spec.name.clone(),
        _ => p.name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("human").to_string(),
    };
    let seats = letters.chars().filter_map(|c| variant.seats.find(c).map(|s| Seat(s as u8))).collect();
    Ok(Seated { name, seats, controller, tc })
}

impl NewGame {
    pub fn of(hub: &Hub, ask: &NewGameAsk) -> Result<NewGame, String> {
        let variant = variants::find(&ask.variant).ok_or_else(|| format!("variant '{}': unknown", ask.variant))?;
        // A start may be given as `position` takes it: `startpos`, `sfen ...`, `fen ...` or the
        // bare string, with `moves ...` after it.
        let words: Vec<&str> = ask.start.split_whitespace().collect();
        let (start, mut moves) = position_words(&words)?;
        moves.extend(ask.moves.split_whitespace().map(String::from));
        let opening = Opening { position: start, moves };
        let groups = variant.players;
        if ask.players.len() != groups.len() {
            return Err(format!("{} has {} players, {} given", variant.name, groups.len(), ask.players.len()));
        }
        let mut players = ask
            .players
            .iter()
            .zip(groups)
            .enumerate()
            .map(|(i, (p, letters))| seated(hub, i, p, letters, variant))
            .collect::<Result<Vec<_>, _>>()?;
        // Players that share a name are numbered, as in a match, so that the record tells them
        // apart.
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        for (i, p) in players.iter_mut().enumerate() {
            if names.iter().filter(|n| **n == names[i]).count() > 1 {
                p.name = format!("{}-{}", names[i], i + 1);
            }
        }
        let max_plies = ask.max_plies.map_or(1000, |n| n.clamp(1, 100_000) as usize);
        Ok(NewGame { variant, opening, players, max_plies })
    }

    pub fn arbiter_players(&self) -> Vec<Player> {
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| Player { engine: i, name: p.name.clone(), seats: p.seats.clone() })
            .collect()
    }
}

/// Plays one game at the table: starts its engines, referees it, and reports every turn, line
/// and move to the pages.
pub fn play_game<G: Game>(hub: Arc<Hub>, generation: u64, game: NewGame, rx: Receiver<Request>) {
    let players = game.arbiter_players();
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
            Controller::Engine(spec) => {
                match EngineProc::start(spec, G::VARIANT.name, Duration::from_millis(cfg.startup_ms)) {
                    Ok(pr) => procs.push(Some(pr)),
                    Err((fault, detail)) => {
                        failed = Some((i, fault, detail));
                        break;
                    }
                }
            }
            _ => procs.push(None),
        }
    }
    let report = match failed {
        // The same forfeit as a match's for an engine that does not start.
        Some((p, fault, detail)) => Ok(GameReport::startup_forfeit::<G>(0, &game.opening, &players, p, fault, detail)),
        None => {
            let mut movers: Vec<game::Mover> = procs
                .iter_mut()
                .map(|p| match p {
                    Some(pr) => game::Mover::Engine(pr),
                    None => game::Mover::Human,
                })
                .collect();
            game::referee::<G>(0, &game.opening, &players, &mut movers, &cfg, Some(&rx), &mut |e| {
                on_event(&hub, generation, e)
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
    // This thread is ending: nothing is left to stop.
    t.referee = None;
    t.turn = None;
    hub.broadcast_state(&t);
}

fn on_event(hub: &Hub, generation: u64, e: game::Event<'_>) {
    let mut t = lock(&hub.table);
    if t.generation != generation {
        return;
    }
    match e {
        game::Event::Turn { seat, player, clocks } => {
            t.turn = Some(Turn { seat, player, clocks, since: Instant::now() });
            hub.broadcast_state(&t);
        }
        game::Event::Info { player, line } => {
            if let Some(info) = InfoLine::parse(line).filter(InfoLine::has_depth) {
                if let Some(slot) = t.infos.get_mut(player) {
                    *slot = Some(info.clone());
                }
                drop(t);
                hub.broadcast(sse("info", &InfoEvent { player, info }));
            }
        }
        game::Event::Moved { report } => {
            if let Some(live) = t.live.as_mut() {
                let _ = live.set_moves(&report.moves);
            }
            t.report = Some(report.clone());
            // Shown with the turn that follows it.
        }
        game::Event::TookBack { report } => {
            if let Some(live) = t.live.as_mut() {
                let _ = live.set_moves(&report.moves);
            }
            t.report = Some(report.clone());
            // What the engines said was about moves that are gone.
            t.infos.iter_mut().for_each(|i| *i = None);
            t.turn = None;
            hub.broadcast_state(&t);
        }
    }
}
