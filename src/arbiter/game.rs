//! One refereed game: the rules library keeps the game, the engines only propose moves.

use super::clock::{SeatClock, TimeControl, go_command};
use super::engine::{EngineProc, Fault};
use super::movedata::{InfoWatch, MoveData};
use super::rating::places_by_key;
use crate::rules::{Game, Notation, Outcome, Record, Rules, Seat, SeatMask};
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

    pub fn start<G: Notation>(&self) -> Result<Record<G>, String> {
        let pos = match &self.position {
            None => G::startpos(),
            Some(t) => G::from_text(t)?,
        };
        let mut r = Record::new(pos);
        for (i, m) in self.moves.iter().enumerate() {
            r.play_text(m).map_err(|e| format!("move {} '{}': {}", i + 1, m, e))?;
        }
        if r.outcome().is_some() {
            return Err("the opening ends the game".into());
        }
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
    pub tc: TimeControl,
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
}

impl Ending {
    /// The ending a record's `Termination` word stands for.
    pub fn of_termination(word: &str) -> Option<Ending> {
        Some(match word {
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

    /// PGN-style result: each seat's points in seat order, `1-0`, `1/2-1/2`, `1-0-1-0`.
    pub fn result(&self) -> String {
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
        seats.iter().map(|&s| self.points[s as usize]).sum::<f64>() / seats.len().max(1) as f64
    }
}

/// Points when the game ends by the rules.
pub(crate) fn points_of_outcome<G: Rules>(pos: &G, o: &Outcome) -> Vec<f64> {
    (0..pos.seats())
        .map(|s| {
            if pos.side_lost(pos.side_of(s as Seat)) {
                // Out before the end (C8: a draw is shared by the armies still in).
                0.0
            } else if o.is_draw() {
                0.5
            } else if o.winners & (1 << s) != 0 {
                1.0
            } else {
                0.0
            }
        })
        .collect()
}

/// Points when `culprit`'s seats forfeit: with two sides the other side wins; with more, the
/// culprit's side loses and every other seat still in draws (as Judtho's T11 treats a
/// resignation); an army already out keeps its loss (C8).
pub fn points_of_forfeit<G: Rules>(pos: &G, culprit_seats: &[Seat]) -> Vec<f64> {
    let n = pos.seats();
    let lost_sides: Vec<u8> = culprit_seats.iter().map(|&s| pos.side_of(s)).collect();
    let mut sides: Vec<u8> = (0..n as Seat).map(|s| pos.side_of(s)).collect();
    sides.sort_unstable();
    sides.dedup();
    (0..n as Seat)
        .map(|s| {
            if lost_sides.contains(&pos.side_of(s)) || pos.side_lost(pos.side_of(s)) {
                0.0
            } else if sides.len() == 2 {
                1.0
            } else {
                0.5
            }
        })
        .collect()
}

/// Each player's place at the end of a game: more points first, and among equal points the
/// rules' ranking (all against all: the armies still in, then the last out first, C8). Players
/// equal on both share their places.
pub fn player_places<G: Rules>(pos: &G, points: &[f64], players: &[Player]) -> Vec<usize> {
    let ranking = pos.ranking();
    let rank_of = |s: Seat| ranking.as_ref().and_then(|r| r.iter().position(|m| m & (1 << s) != 0)).unwrap_or(0);
    let keys: Vec<(f64, i64)> = players
        .iter()
        .map(|p| {
            let pts = p.seats.iter().map(|&s| points.get(s as usize).copied().unwrap_or(0.0)).sum::<f64>()
                / p.seats.len().max(1) as f64;
            let rank = p.seats.iter().map(|&s| rank_of(s)).min().unwrap_or(0);
            (pts, -(rank as i64))
        })
        .collect();
    places_by_key(&keys)
}

fn seat_mask(seats: &[Seat]) -> SeatMask {
    seats.iter().fold(0, |m, &s| m | (1 << s))
}

/// Plays one game. `procs[i]` is player `i`'s engine, already initialised for the variant.
pub fn play<G: Game>(
    index: usize,
    opening: &Opening,
    players: &[Player],
    procs: &mut [EngineProc],
    cfg: &GameConfig,
) -> Result<GameReport, String> {
    let started = Instant::now();
    let mut record: Record<G> = opening.start().map_err(|e| format!("opening: {}", e))?;
    let start_position = opening.position.clone();
    let mut report = GameReport::unplayed::<G>(index, opening, players);
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

    for (p, proc) in procs.iter_mut().enumerate() {
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
    let mut clocks: Vec<SeatClock> = (0..record.current.seats()).map(|_| SeatClock::new(&cfg.tc)).collect();
    let position_prefix = match &start_position {
        None => "position startpos".to_string(),
        Some(p) => format!("position {} {}", G::VARIANT.keyword, p),
    };
    loop {
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
        let Some(p) = players.iter().position(|pl| seat_mask(&pl.seats) & (1 << seat) != 0) else {
            return Err(format!("no player for seat {}", crate::rules::seat_letter::<G>(seat)));
        };
        let proc = &mut procs[p];
        let who = format!("{} ({})", players[p].name, crate::rules::seat_letter::<G>(seat));
        let mut position = position_prefix.clone();
        if !report.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&report.moves.join(" "));
        }
        proc.discard_pending();
        let go_letters = proc.spec.go_seats.as_deref().filter(|l| l.len() == letters.len()).unwrap_or(letters);
        let (go, allowed) = match &proc.spec.go {
            Some(fixed) => (fixed.clone(), None),
            None => (go_command(&cfg.tc, &clocks, go_letters), clocks[seat as usize].allowed(&cfg.tc)),
        };
        let wait = allowed.map(|a| a + cfg.margin_ms).unwrap_or(cfg.hang_ms);
        let sent = proc.send(&position).and_then(|_| proc.send(&go));
        let t0 = Instant::now();
        let mut info = InfoWatch::default();
        let answer = sent.and_then(|_| {
            proc.wait_for(t0 + Duration::from_millis(wait), |l| {
                info.read(l);
                l.split_whitespace().next() == Some("bestmove")
            })
        });
        let elapsed = t0.elapsed().as_millis() as u64;
        let line = match answer {
            Ok(l) => l,
            Err(Fault::Died) => {
                return Ok(forfeit(
                    report,
                    &record,
                    p,
                    Ending::Crash,
                    "crash",
                    format!("{} exited during its move", who),
                ));
            }
            Err(Fault::Timeout) if allowed.is_some() => {
                return Ok(forfeit(
                    report,
                    &record,
                    p,
                    Ending::TimeForfeit,
                    "time forfeit",
                    format!("{} sent no move within {} ms", who, wait),
                ));
            }
            Err(Fault::Timeout) => {
                return Ok(forfeit(
                    report,
                    &record,
                    p,
                    Ending::Hang,
                    "no response",
                    format!("{} hung for {} ms", who, wait),
                ));
            }
        };
        if proc.spec.go.is_none() && !clocks[seat as usize].charge(&cfg.tc, elapsed, cfg.margin_ms) {
            return Ok(forfeit(
                report,
                &record,
                p,
                Ending::TimeForfeit,
                "time forfeit",
                format!("{} took {} ms, {} allowed", who, elapsed, allowed.unwrap_or(0)),
            ));
        }
        let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
        if mv == "resign" {
            return Ok(forfeit(report, &record, p, Ending::Resigned, "resignation", format!("{} resigned", who)));
        }
        let before = record.current.clone();
        if let Err(e) = record.play_text(&mv) {
            proc.spoiled = true;
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
            clock_ms: if proc.spec.go.is_none() { clocks[seat as usize].left_ms(&cfg.tc) } else { None },
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
        }));
        if let Some(note) = record.current.milestone(&before) {
            report.comments.push((report.moves.len(), note));
        }
    }
}
