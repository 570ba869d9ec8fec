//! One refereed game: the rules library keeps the game, the engines only propose moves.

use super::clock::{SeatClock, TimeControl, go_command};
use super::engine::{EngineProc, Fault};
use super::movedata::{InfoWatch, MoveData};
use crate::rules::places;
use crate::rules::{Game, Notation, Record, Rules, Seat};
pub use crate::rules::{points_of_forfeit, points_of_outcome};
use std::time::{Duration, Instant};

/// A start for games: a position (none: the variant's start) and moves played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub position: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    /// Parses one line of an openings file: `startpos [moves ...]`, `sfen|fen <position>
    /// [moves ...]`, `<position> [moves ...]` (a position has a `/`), `moves ...`, or a bare
    /// list of moves. Lines are checked against the rules by `check`.
    pub fn parse(line: &str) -> Opening {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "moves");
        let (head, moves) = match at {
            Some(i) => (&words[..i], words[i + 1..].to_vec()),
            None => (&words[..], Vec::new()),
        };
        let head: Vec<&str> = match head.first() {
            Some(&"sfen") | Some(&"fen") => head[1..].to_vec(),
            Some(&"startpos") => Vec::new(),
            _ => head.to_vec(),
        };
        if at.is_none() && !head.iter().any(|w| w.contains('/')) {
            // A bare move list.
            return Opening { position: None, moves: head.iter().map(|s| s.to_string()).collect() };
        }
        Opening {
            position: if head.is_empty() { None } else { Some(head.join(" ")) },
            moves: moves.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The game after the opening's moves, which must not end it.
    pub fn start<G: Notation>(&self) -> Result<Record<G>, String> {
        let r = self.start_any()?;
        if r.outcome().is_some() {
            return Err("the opening ends the game".into());
        }
        Ok(r)
    }

    /// The game after the opening's moves, over or not.
    pub fn start_any<G: Notation>(&self) -> Result<Record<G>, String> {
        let pos = match &self.position {
            None => G::startpos(),
            Some(t) => G::from_text(t)?,
        };
        let mut r = Record::new(pos);
        r.replay(&self.moves)?;
        Ok(r)
    }
}

/// Who plays: one engine process per player, each commanding one or more seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub engine: usize,
    pub name: String,
    pub seats: Vec<Seat>,
}

#[derive(Clone, Debug)]
pub struct GameConfig {
    pub variant: &'static str,
    /// Each seat's time control, in seat order (a match gives every seat the same).
    pub tcs: Vec<TimeControl>,
    /// How late a move may be before it loses on time.
    pub margin_ms: u64,
    /// How long an engine may take to answer `usi`/`isready`.
    pub startup_ms: u64,
    /// How long a depth- or node-limited move may take before the engine counts as hung.
    pub hang_ms: u64,
    /// The arbiter adjudicates a draw after this many plies.
    pub max_plies: usize,
}

/// How a game ended, for the statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    Rules,
    Adjudicated,
    Resigned,
    IllegalMove,
    TimeForfeit,
    Crash,
    Hang,
    StartupFailure,
    /// Not over: stopped from outside (a GUI's new game, its page closed) or saved while on.
    Unterminated,
}

impl Ending {
    /// The ending a record's `Termination` word stands for.
    pub fn of_termination(word: &str) -> Option<Ending> {
        Some(match word {
            "unterminated" => Ending::Unterminated,
            "adjudication" => Ending::Adjudicated,
            "resignation" => Ending::Resigned,
            "illegal move" => Ending::IllegalMove,
            "time forfeit" => Ending::TimeForfeit,
            "crash" => Ending::Crash,
            "no response" => Ending::Hang,
            "start-up failure" => Ending::StartupFailure,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct GameReport {
    pub index: usize,
    pub variant: &'static str,
    pub seat_letters: &'static str,
    pub players: Vec<Player>,
    pub opening: Opening,
    /// The start as a position string, when it is not the variant's start position.
    pub start_position: Option<String>,
    /// Every move from the start position, opening included.
    pub moves: Vec<String>,
    /// Aligned with `moves`: what the arbiter measured and the engine reported for each move
    /// played in the game (`None` for the opening's moves).
    pub move_data: Vec<Option<MoveData>>,
    /// Aligned with `moves`: the player (index into `players`) that chose each move played in
    /// the game (`None` for the opening's moves).
    pub movers: Vec<Option<usize>>,
    /// Notes on what moves changed (`Notation::milestone`): after how many moves, and the text.
    pub comments: Vec<(usize, String)>,
    pub opening_plies: usize,
    /// Points per seat: 1, 1/2 or 0.
    pub points: Vec<f64>,
    /// Each player's place, 1 the best; players that share a place all have the best place it
    /// covers, as in sport (three winners are all 1st, the loser 4th).
    pub places: Vec<usize>,
    pub ending: Ending,
    /// The termination word: a rules reason (`checkmate`, `repetition`, ...) or the arbiter's.
    pub termination: String,
    pub detail: String,
    /// The player whose fault ended the game, if any.
    pub culprit: Option<usize>,
    pub duration_ms: u64,
}

impl GameReport {
    /// A game not yet played from `opening`: its moves so far are the opening's.
    pub fn unplayed<G: Notation>(index: usize, opening: &Opening, players: &[Player]) -> GameReport {
        GameReport {
            index,
            variant: G::VARIANT.name,
            seat_letters: G::VARIANT.seats,
            players: players.to_vec(),
            opening: opening.clone(),
            start_position: opening.position.clone().filter(|p| *p != G::startpos().to_text()),
            moves: opening.moves.clone(),
            move_data: vec![None; opening.moves.len()],
            movers: vec![None; opening.moves.len()],
            comments: Vec::new(),
            opening_plies: opening.moves.len(),
            points: vec![0.5; G::VARIANT.seats.len()],
            places: vec![1; players.len()],
            ending: Ending::Rules,
            termination: String::new(),
            detail: String::new(),
            culprit: None,
            duration_ms: 0,
        }
    }

    /// A game lost before its first move by player `culprit`, whose engine did not start
    /// (`fault`: it died, or did not answer in time). The opening was checked beforehand: its
    /// position is the one whose sides the forfeit follows.
    pub fn startup_forfeit<G: Game>(
        index: usize,
        opening: &Opening,
        players: &[Player],
        culprit: usize,
        fault: Fault,
        detail: String,
    ) -> GameReport {
        let mut r = GameReport::unplayed::<G>(index, opening, players);
        let start = opening.start::<G>().map(|rec| rec.current).unwrap_or_else(|_| G::startpos());
        r.points = points_of_forfeit(&start, &players[culprit].seats);
        (r.ending, r.termination) = match fault {
            Fault::Died => (Ending::Crash, "crash".into()),
            Fault::Timeout => (Ending::StartupFailure, "start-up failure".into()),
        };
        r.detail = detail;
        r.culprit = Some(culprit);
        r.places = player_places(&start, &r.points, players);
        r
    }

    /// PGN-style result: each seat's points in seat order, `1-0`, `1/2-1/2`, `1-0-1-0`; `*` for
    /// a game that is not over.
    pub fn result(&self) -> String {
        if self.ending == Ending::Unterminated {
            return "*".into();
        }
        self.points
            .iter()
            .map(|&p| {
                if p >= 0.75 {
                    "1"
                } else if p <= 0.25 {
                    "0"
                } else {
                    "1/2"
                }
            })
            .collect::<Vec<_>>()
            .join("-")
    }

    /// A player's points: the mean over its seats.
    pub fn player_points(&self, p: usize) -> f64 {
        let seats = &self.players[p].seats;
        seats.iter().map(|&s| self.points[s.index()]).sum::<f64>() / seats.len().max(1) as f64
    }
}

/// Each player's place at the end of a game (`rules::places`, over the players' seats).
pub fn player_places<G: Rules>(pos: &G, points: &[f64], players: &[Player]) -> Vec<usize> {
    let groups: Vec<&[Seat]> = players.iter().map(|p| p.seats.as_slice()).collect();
    places(pos, points, &groups)
}

/// Who chooses a player's moves: an engine process, or a person whose moves come as orders.
pub enum Mover<'a> {
    Engine(&'a mut EngineProc),
    Human,
}

/// What a game hears from outside while it runs (a GUI): a person's move, resignation or
/// take-back, or the end of the game. Each order but `Abort` is answered on its channel.
#[derive(Debug)]
pub enum Order {
    /// `player`'s move, as its canonical text.
    Move { player: usize, text: String },
    /// `player` gives up: its seats forfeit (in Judtho only a player without allies may).
    Resign { player: usize },
    /// Back to just before `player`'s last move, in a game without clocks.
    TakeBack { player: usize },
    /// The game stops unfinished.
    Abort,
}

/// An order and where its answer goes.
pub type Request = (Order, Option<std::sync::mpsc::Sender<Result<(), String>>>);

/// What an order did, once ruled and answered.
enum Ruling {
    /// Refused, with the reason sent back; the wait goes on.
    Refused,
    /// The move of the person whose turn it is, as its text.
    Moved(String),
    /// The player resigned.
    Resigned(usize),
    /// Moves were taken back: the turn starts again.
    TookBack,
    /// The game stops unfinished.
    Abort,
}

/// What happens in a game, as it happens.
#[derive(Debug)]
pub enum Event<'a> {
    /// A seat's turn begins: who moves, and each seat's main time left (none without a clock).
    Turn { seat: Seat, player: usize, clocks: Vec<Option<u64>> },
    /// A line from the engine choosing `player`'s move.
    Info { player: usize, line: &'a str },
    /// A move was played: the game so far, that move last.
    Moved { report: &'a GameReport },
    /// Moves were taken back: the game as it now stands.
    TookBack { report: &'a GameReport },
}

/// Plays one game between engines. `procs[i]` is player `i`'s engine, already initialised for
/// the variant.
pub fn play<G: Game>(
    index: usize,
    opening: &Opening,
    players: &[Player],
    procs: &mut [EngineProc],
    cfg: &GameConfig,
) -> Result<GameReport, String> {
    let mut movers: Vec<Mover> = procs.iter_mut().map(Mover::Engine).collect();
    referee::<G>(index, opening, players, &mut movers, cfg, None, &mut |_| {})
}

/// How long a wait for an engine's line lasts when orders may arrive meanwhile.
const ORDER_POLL: Duration = Duration::from_millis(10);

/// Stops an engine's search and waits briefly for its `bestmove`, which is dropped; an engine
/// that does not answer is not used again.
fn call_off(proc: &mut EngineProc) {
    if proc.send("stop").is_ok()
        && proc.wait_for(Instant::now() + Duration::from_secs(2), |l| l.starts_with("bestmove")).is_err()
    {
        proc.spoiled = true;
    }
}

/// Referees one game: engines' moves come from their processes, people's from `orders`. Every
/// rule, clock and forfeit is the same for both, and the same as in `tetrarch match`. `watch`
/// hears each turn, each engine line and each move.
pub fn referee<G: Game>(
    index: usize,
    opening: &Opening,
    players: &[Player],
    movers: &mut [Mover],
    cfg: &GameConfig,
    orders: Option<&std::sync::mpsc::Receiver<Request>>,
    watch: &mut dyn FnMut(Event<'_>),
) -> Result<GameReport, String> {
    let started = Instant::now();
    let mut record: Record<G> = opening.start().map_err(|e| format!("opening: {}", e))?;
    let start_position = opening.position.clone();
    let mut report = GameReport::unplayed::<G>(index, opening, players);
    if cfg.tcs.len() != record.current.seats() {
        return Err(format!("{} time controls for {} seats", cfg.tcs.len(), record.current.seats()));
    }
    // Every end of the game goes through here, with the position it ended in.
    let finish =
        |mut r: GameReport, pos: &G, ending: Ending, termination: &str, detail: String, culprit: Option<usize>| {
            r.places = player_places(pos, &r.points, players);
            r.ending = ending;
            r.termination = termination.to_string();
            r.detail = detail;
            r.culprit = culprit;
            r.duration_ms = started.elapsed().as_millis() as u64;
            r
        };
    let forfeit = |r: GameReport, rec: &Record<G>, p: usize, ending: Ending, termination: &str, detail: String| {
        let mut r = r;
        r.points = points_of_forfeit(&rec.current, &players[p].seats);
        finish(r, &rec.current, ending, termination, detail, Some(p))
    };
    let unterminated = |r: GameReport, rec: &Record<G>, detail: &str| {
        finish(r, &rec.current, Ending::Unterminated, "unterminated", detail.to_string(), None)
    };
    // A resignation the rules allow (Judtho's T11: only a player without allies).
    let may_resign = |rec: &Record<G>, p: usize| -> Result<(), String> {
        players[p].seats.iter().try_for_each(|&seat| rec.current.may_resign(seat))
    };
    let answer = |reply: Option<std::sync::mpsc::Sender<Result<(), String>>>, r: Result<(), String>| {
        if let Some(tx) = reply {
            let _ = tx.send(r);
        }
    };
    let resigned = |r: GameReport, rec: &Record<G>, p: usize| {
        forfeit(r, rec, p, Ending::Resigned, "resignation", format!("{} resigned", players[p].name))
    };
    let clocked = cfg.tcs.iter().any(|tc| matches!(tc, TimeControl::Clock { .. }));
    let human: Vec<bool> = movers.iter().map(|m| matches!(m, Mover::Human)).collect();
    // People's orders are ruled alike whether the turn waits for a person (`to_move`, whose move
    // is then welcome) or for an engine. `call_off` runs before an order that ends the wait is
    // answered: it stops a thinking engine.
    let rule = |(order, reply): Request,
                to_move: Option<usize>,
                who: &str,
                report: &mut GameReport,
                record: &mut Record<G>,
                call_off: &mut dyn FnMut()| {
        let person = |player: usize| human.get(player).copied().unwrap_or(false);
        let (verdict, ruling) = match order {
            Order::Move { player, text } if Some(player) == to_move => match record.current.parse_move(&text) {
                Ok(_) => (Ok(()), Ruling::Moved(text)),
                Err(e) => (Err(e.to_string()), Ruling::Refused),
            },
            Order::Move { .. } => (Err(format!("it is {}'s turn", who)), Ruling::Refused),
            Order::Resign { player } if !person(player) => {
                (Err("only a person's seat may resign".into()), Ruling::Refused)
            }
            Order::Resign { player } => match may_resign(record, player) {
                Ok(()) => (Ok(()), Ruling::Resigned(player)),
                Err(e) => (Err(e), Ruling::Refused),
            },
            Order::TakeBack { player } if !person(player) => {
                (Err("only a person's seat may take back".into()), Ruling::Refused)
            }
            // A take-back that fails has changed nothing.
            Order::TakeBack { player } => match take_back::<G>(report, record, player, clocked) {
                Ok(_) => (Ok(()), Ruling::TookBack),
                Err(e) => (Err(e), Ruling::Refused),
            },
            // An abort is not answered: the game's end is the answer.
            Order::Abort => {
                call_off();
                return Ruling::Abort;
            }
        };
        if matches!(ruling, Ruling::Resigned(_) | Ruling::TookBack) {
            call_off();
        }
        answer(reply, verdict);
        ruling
    };

    for (p, mover) in movers.iter_mut().enumerate() {
        let Mover::Engine(proc) = mover else { continue };
        let deadline = Instant::now() + Duration::from_millis(cfg.startup_ms);
        let ok = proc.send("usinewgame").and_then(|_| proc.ready(deadline));
        if let Err(f) = ok {
            let (ending, what) = match f {
                Fault::Died => (Ending::Crash, "crash"),
                Fault::Timeout => (Ending::StartupFailure, "start-up failure"),
            };
            let detail = format!("{} did not answer usinewgame/isready", players[p].name);
            return Ok(forfeit(report, &record, p, ending, what, detail));
        }
    }

    let letters = G::VARIANT.seats;
    let mut clocks: Vec<SeatClock> = cfg.tcs.iter().map(SeatClock::new).collect();
    let position_prefix = match &start_position {
        None => "position startpos".to_string(),
        Some(p) => format!("position {} {}", G::VARIANT.keyword, p),
    };
    'turns: loop {
        if let Some(o) = record.outcome() {
            report.points = points_of_outcome(&record.current, &o);
            let detail = if o.is_draw() {
                "draw".to_string()
            } else {
                format!("won by {}", crate::rules::mask_letters::<G>(o.winners))
            };
            return Ok(finish(report, &record.current, Ending::Rules, o.reason.as_str(), detail, None));
        }
        if report.moves.len() >= cfg.max_plies {
            report.points = vec![0.5; record.current.seats()];
            return Ok(finish(
                report,
                &record.current,
                Ending::Adjudicated,
                "adjudication",
                format!("{} plies", cfg.max_plies),
                None,
            ));
        }
        let seat = record.current.to_move();
        let Some(p) = players.iter().position(|pl| pl.seats.contains(&seat)) else {
            return Err(format!("no player for seat {}", crate::rules::seat_letter::<G>(seat)));
        };
        let tc = &cfg.tcs[seat.index()];
        let who = format!("{} ({})", players[p].name, crate::rules::seat_letter::<G>(seat));
        watch(Event::Turn {
            seat,
            player: p,
            clocks: cfg.tcs.iter().zip(&clocks).map(|(tc, c)| c.left_ms(tc)).collect(),
        });
        let t0 = Instant::now();
        // The move, the time it took, what the engine said, and whether the clock runs for it.
        let (mv, elapsed, info, on_clock) = match &mut movers[p] {
            Mover::Human => {
                let allowed = clocks[seat.index()].allowed(tc);
                let deadline = allowed.map(|a| t0 + Duration::from_millis(a.saturating_add(cfg.margin_ms)));
                loop {
                    let Some(rx) = orders else { return Err(format!("{}: a person's seat without orders", who)) };
                    let next = match deadline {
                        Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
                        None => rx.recv().map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
                    };
                    let request = match next {
                        Ok(r) => r,
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                            return Ok(forfeit(
                                report,
                                &record,
                                p,
                                Ending::TimeForfeit,
                                "time forfeit",
                                format!("{} sent no move within {} ms", who, allowed.unwrap_or(0)),
                            ));
                        }
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                            return Ok(unterminated(report, &record, "the orders stopped"));
                        }
                    };
                    match rule(request, Some(p), &who, &mut report, &mut record, &mut || {}) {
                        Ruling::Refused => {}
                        Ruling::Moved(text) => {
                            break (text, t0.elapsed().as_millis() as u64, InfoWatch::default(), true);
                        }
                        Ruling::Resigned(player) => return Ok(resigned(report, &record, player)),
                        Ruling::TookBack => {
                            watch(Event::TookBack { report: &report });
                            continue 'turns;
                        }
                        Ruling::Abort => return Ok(unterminated(report, &record, "stopped")),
                    }
                }
            }
            Mover::Engine(proc) => {
                let mut position = position_prefix.clone();
                if !report.moves.is_empty() {
                    position.push_str(" moves ");
                    position.push_str(&report.moves.join(" "));
                }
                proc.discard_pending();
                let go_letters = proc.spec.go_seats.as_deref().filter(|l| l.len() == letters.len()).unwrap_or(letters);
                let (go, allowed) = match &proc.spec.go {
                    Some(fixed) => (fixed.clone(), None),
                    None => (go_command(&cfg.tcs, &clocks, go_letters, seat.index()), clocks[seat.index()].allowed(tc)),
                };
                let wait = allowed.map(|a| a.saturating_add(cfg.margin_ms)).unwrap_or(cfg.hang_ms);
                let sent = proc.send(&position).and_then(|_| proc.send(&go));
                let t0 = Instant::now();
                let deadline = t0 + Duration::from_millis(wait);
                let mut info = InfoWatch::default();
                let mut answer_line = sent.map(|_| None);
                while let Ok(None) = answer_line {
                    // With orders to listen to, the wait is cut in slices between which they
                    // are read; without, it is one wait, as a match has always had.
                    let until = if orders.is_some() { deadline.min(Instant::now() + ORDER_POLL) } else { deadline };
                    answer_line = match proc.next_line(until) {
                        Ok(Some(l)) => {
                            info.read(&l);
                            watch(Event::Info { player: p, line: &l });
                            Ok(l.split_whitespace().next().filter(|&w| w == "bestmove").map(|_| l.clone()))
                        }
                        Ok(None) if Instant::now() >= deadline => {
                            proc.spoiled = true;
                            Err(Fault::Timeout)
                        }
                        Ok(None) => Ok(None),
                        Err(f) => Err(f),
                    };
                    let Some(rx) = orders else { continue };
                    while let Ok(request) = rx.try_recv() {
                        match rule(request, None, &who, &mut report, &mut record, &mut || call_off(proc)) {
                            Ruling::Refused | Ruling::Moved(_) => {}
                            Ruling::Resigned(player) => return Ok(resigned(report, &record, player)),
                            Ruling::TookBack => {
                                watch(Event::TookBack { report: &report });
                                continue 'turns;
                            }
                            Ruling::Abort => return Ok(unterminated(report, &record, "stopped")),
                        }
                    }
                }
                let elapsed = t0.elapsed().as_millis() as u64;
                let line = match answer_line {
                    Ok(Some(l)) => l,
                    Ok(None) => unreachable!("the wait ends with a line or a fault"),
                    Err(fault) => {
                        let (ending, word, detail) = match fault {
                            Fault::Died => (Ending::Crash, "crash", format!("{} exited during its move", who)),
                            Fault::Timeout if allowed.is_some() => (
                                Ending::TimeForfeit,
                                "time forfeit",
                                format!("{} sent no move within {} ms", who, wait),
                            ),
                            Fault::Timeout => (Ending::Hang, "no response", format!("{} hung for {} ms", who, wait)),
                        };
                        return Ok(forfeit(report, &record, p, ending, word, detail));
                    }
                };
                let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
                // A fixed `go` line is off the clock.
                (mv, elapsed, info, proc.spec.go.is_none())
            }
        };
        if on_clock && !clocks[seat.index()].charge(tc, elapsed, cfg.margin_ms) {
            let allowed = clocks[seat.index()].allowed(tc);
            return Ok(forfeit(
                report,
                &record,
                p,
                Ending::TimeForfeit,
                "time forfeit",
                format!("{} took {} ms, {} allowed", who, elapsed, allowed.unwrap_or(0)),
            ));
        }
        if mv == "resign" {
            return Ok(forfeit(report, &record, p, Ending::Resigned, "resignation", format!("{} resigned", who)));
        }
        let before = record.current.clone();
        if let Err(e) = record.play_text(&mv) {
            if let Mover::Engine(proc) = &mut movers[p] {
                proc.spoiled = true;
            }
            let shown: String = mv.chars().take(40).collect();
            return Ok(forfeit(
                report,
                &record,
                p,
                Ending::IllegalMove,
                "illegal move",
                format!("{} played '{}': {}", who, shown, e),
            ));
        }
        report.moves.push(mv);
        report.movers.push(Some(p));
        report.move_data.push(Some(MoveData {
            time_ms: elapsed,
            clock_ms: if on_clock { clocks[seat.index()].left_ms(tc) } else { None },
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
        }));
        if let Some(note) = record.current.milestone(&before) {
            report.comments.push((report.moves.len(), note));
        }
        watch(Event::Moved { report: &report });
    }
}

/// Takes the game back to just before `player`'s last move (so that it is that player's turn
/// again); refused in a game with clocks, or before the player has moved. The plies left.
fn take_back<G: Game>(
    report: &mut GameReport,
    record: &mut Record<G>,
    player: usize,
    clocked: bool,
) -> Result<usize, String> {
    if clocked {
        return Err("take-back is only for games without clocks".into());
    }
    let Some(last) = report.movers.iter().rposition(|m| *m == Some(player)) else {
        return Err("you have no move to take back".into());
    };
    let opening = Opening { position: report.opening.position.clone(), moves: report.moves[..last].to_vec() };
    let r = opening.start_any::<G>()?;
    *record = r;
    report.moves.truncate(last);
    report.movers.truncate(last);
    report.move_data.truncate(last);
    report.comments.retain(|c| c.0 <= last);
    Ok(last)
}
