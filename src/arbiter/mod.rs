//! `tetrarch match`: a tournament manager for two to four engines in one game, refereed by
//! tetrarch's own rules library. See `docs/match.md`.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod jsonl;
pub mod movedata;
pub mod openings;
pub mod rating;
pub mod record;
pub mod rescore;
pub mod stats;

use crate::rules::{Game, Rules, Seat};
use crate::variants::{self, Visitor};
use clock::TimeControl;
use engine::{EngineProc, EngineSpec, Fault};
use game::{Ending, GameConfig, GameReport, Opening, Player};
use rating::{Placing, Rating};
use stats::{Sprt, SprtState, Tally, show_elo};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

/// Raised by Ctrl-C: no new game starts, running ones are abandoned.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Where each finished game is shown besides the record files.
pub trait GamePages {
    /// Adds the game numbered `index` (from 0), given as its record text.
    fn add(&mut self, index: usize, record: &str) -> Result<(), String>;
}

/// Opens a match's pages in a directory, under the match's title.
pub type Pages = fn(&std::path::Path, &str) -> Result<Box<dyn GamePages>, String>;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: String,
    pub engines: Vec<EngineSpec>,
    pub tc: TimeControl,
    pub games: usize,
    pub concurrency: usize,
    pub openings: Vec<Opening>,
    pub sprt: Option<Sprt>,
    pub pgn: Option<std::path::PathBuf>,
    pub jsonl: Option<std::path::PathBuf>,
    /// A directory for the games' pages, with what writes them (`tetrarch view`'s pages, which
    /// the caller names, so that the match runner needs nothing of them): each game's record is
    /// given to it as the game ends.
    pub html: Option<(std::path::PathBuf, Pages)>,
    pub margin_ms: u64,
    pub startup_ms: u64,
    pub hang_ms: u64,
    pub max_plies: usize,
    pub event: String,
    /// Progress lines on stderr.
    pub progress: bool,
    /// `(k, n)`: play only the k-th (from 1) of n disjoint parts of the schedule, the games whose
    /// number `g` (from 0) has `g mod n = k - 1`; `match merge` pools the parts.
    pub shard: Option<(usize, usize)>,
}

impl MatchConfig {
    /// The schedule's game numbers this run plays.
    pub fn game_numbers(&self) -> impl Iterator<Item = usize> + '_ {
        let (k, n) = self.shard.unwrap_or((1, 1));
        (k.saturating_sub(1)..self.games).step_by(n.max(1))
    }
}

/// What a match produced.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: Vec<GameReport>,
    pub engines: Vec<(String, Tally)>,
    /// With two engines, the first's games against the second, each scored by its share of
    /// the points the two won (with two players, its points): what `--sprt` tests. Where an
    /// engine holds several players (all against all, Judtho), its row above counts the mean
    /// of its players' points, which is at most 1/2 when one of them wins alone.
    pub head_to_head: Tally,
    /// Per seat letter, the results of whoever sat there.
    pub seats: Vec<(char, Tally)>,
    pub terminations: BTreeMap<String, usize>,
    pub sprt: Option<(SprtState, f64)>,
    /// The hypotheses of `sprt`, when they are to be printed with it (`match merge`).
    pub sprt_bounds: Option<Sprt>,
    pub interrupted: bool,
    /// Players in each game of the variant.
    pub players: usize,
    /// Per engine, how often it finished in each place (a shared place counts as its best).
    pub places: Vec<Vec<u32>>,
    /// Per engine, its rating on the one scale of `rating` (updated after every game).
    pub ratings: Vec<Rating>,
    /// Per engine, what its moves' data add up to.
    pub moves: Vec<MoveStats>,
}

/// One engine's moves, from the per-move data of the records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    pub moves: u64,
    pub time_ms: u64,
    pub depth_sum: u64,
    pub depths: u64,
    pub nodes: u64,
    /// The time of the moves whose nodes were reported, for nodes per second.
    pub nodes_time_ms: u64,
}

impl Summary {
    pub fn new(engines: &[String], seat_letters: &str, players: usize) -> Summary {
        Summary {
            engines: engines.iter().map(|e| (e.clone(), Tally::default())).collect(),
            seats: seat_letters.chars().map(|c| (c, Tally::default())).collect(),
            players,
            places: vec![vec![0; players]; engines.len()],
            ratings: rating::fit(engines.len(), &[]),
            moves: vec![MoveStats::default(); engines.len()],
            ..Summary::default()
        }
    }

    /// Counts one finished game.
    pub fn add(&mut self, report: GameReport) {
        if report.ending == Ending::Unterminated {
            // A game that is not over counts for nothing but its place in the list.
            *self.terminations.entry(report.termination.clone()).or_default() += 1;
            self.games.push(report);
            return;
        }
        // An engine that holds more than one player of a game (fewer engines than players)
        // counts the game once: its points are the mean of its players', its place their best.
        // The sum of its players' points is kept for the head-to-head count below.
        let mut sums = [0.0f64; 2];
        for (p, player) in report.players.iter().enumerate() {
            let e = player.engine;
            if report.players[..p].iter().any(|q| q.engine == e) {
                continue;
            }
            let mine: Vec<usize> = (0..report.players.len()).filter(|&q| report.players[q].engine == e).collect();
            let sum = mine.iter().map(|&q| report.player_points(q)).sum::<f64>();
            if let Some(s) = sums.get_mut(e) {
                *s = sum;
            }
            self.engines[e].1.add(sum / mine.len() as f64);
            let place = mine.iter().map(|&q| report.places[q]).min().unwrap_or(1);
            if let Some(c) = self.places[e].get_mut(place.saturating_sub(1)) {
                *c += 1;
            }
        }
        if self.engines.len() == 2 {
            let both = sums[0] + sums[1];
            self.head_to_head.add(if both > 0.0 { sums[0] / both } else { 0.5 });
        }
        for (s, t) in self.seats.iter_mut().enumerate() {
            t.1.add(report.points[s]);
        }
        for (d, mover) in report.move_data.iter().zip(&report.movers) {
            let (Some(d), Some(p)) = (d, mover) else { continue };
            let m = &mut self.moves[report.players[*p].engine];
            m.moves += 1;
            m.time_ms += d.time_ms;
            if let Some(depth) = d.depth {
                m.depth_sum += depth as u64;
                m.depths += 1;
            }
            if let Some(n) = d.nodes {
                m.nodes += n;
                m.nodes_time_ms += d.time_ms;
            }
        }
        *self.terminations.entry(report.termination.clone()).or_default() += 1;
        self.games.push(report);
        self.rate();
    }

    /// Rates the games in the order they are held.
    fn rate(&mut self) {
        let placings: Vec<Placing> =
            self.games.iter().filter(|g| g.ending != Ending::Unterminated).map(placing).collect();
        self.ratings = rating::fit(self.engines.len(), &placings);
    }

    /// Puts the games in schedule order, whatever order they finished in, and rates them in
    /// that order: a match and its records rescored give the same figures to the last digit.
    pub fn finish(&mut self) {
        self.games.sort_by_key(|g| g.index);
        self.rate();
    }

    pub fn table(&self) -> String {
        let mut s = String::new();
        if self.players <= 2 {
            s.push_str(&format!(
                "{:<20} {:>6} {:>5} {:>5} {:>5} {:>7} {:>8}  {:<18} {:>7}  {}\n",
                "engine", "games", "W", "D", "L", "score", "Elo", "95% interval", "rating", "95% interval"
            ));
            for ((name, t), r) in self.engines.iter().zip(&self.ratings) {
                if t.games() == 0 {
                    s.push_str(&format!("{:<20} {:>6}  did not play\n", name, 0));
                    continue;
                }
                let (e, lo, hi) = t.elo();
                s.push_str(&format!(
                    "{:<20} {:>6} {:>5} {:>5} {:>5} {:>6.1}% {:>8}  {:<18} {:>7}  [{}, {}]\n",
                    name,
                    t.games(),
                    t.wins,
                    t.draws,
                    t.losses,
                    100.0 * t.score(),
                    show_elo(e, 1),
                    format!("[{}, {}]", show_elo(lo, 1), show_elo(hi, 1)),
                    show_elo(r.elo, 1),
                    show_elo(r.lo, 1),
                    show_elo(r.hi, 1)
                ));
            }
        } else {
            s.push_str(&format!(
                "{:<20} {:>6} {:>7} {:>7} {:>7}  {:<18}",
                "engine", "games", "points", "score", "rating", "95% interval"
            ));
            for k in 1..=self.players {
                s.push_str(&format!(" {:>6}", ordinal(k)));
            }
            s.push('\n');
            for (((name, t), r), places) in self.engines.iter().zip(&self.ratings).zip(&self.places) {
                if t.games() == 0 {
                    s.push_str(&format!("{:<20} {:>6}  did not play\n", name, 0));
                    continue;
                }
                s.push_str(&format!(
                    "{:<20} {:>6} {:>7.1} {:>6.1}% {:>7}  {:<18}",
                    name,
                    t.games(),
                    t.points(),
                    100.0 * t.score(),
                    show_elo(r.elo, 1),
                    format!("[{}, {}]", show_elo(r.lo, 1), show_elo(r.hi, 1))
                ));
                for c in places {
                    s.push_str(&format!(" {:>6}", c));
                }
                s.push('\n');
            }
        }
        if self.moves.iter().any(|m| m.moves > 0) {
            s.push_str(&format!(
                "\n{:<20} {:>7} {:>10} {:>6} {:>12}\n",
                "moves by", "moves", "mean time", "depth", "nodes/s"
            ));
            for ((name, _), m) in self.engines.iter().zip(&self.moves) {
                let time = if m.moves > 0 {
                    format!("{:.3}s", m.time_ms as f64 / m.moves as f64 / 1000.0)
                } else {
                    "-".into()
                };
                let depth =
                    if m.depths > 0 { format!("{:.1}", m.depth_sum as f64 / m.depths as f64) } else { "-".into() };
                let nps = m
                    .nodes
                    .saturating_mul(1000)
                    .checked_div(m.nodes_time_ms)
                    .map_or_else(|| "-".to_string(), |v| v.to_string());
                s.push_str(&format!("{:<20} {:>7} {:>10} {:>6} {:>12}\n", name, m.moves, time, depth, nps));
            }
        }
        s.push_str(&format!("\n{:<6} {:>6} {:>5} {:>5} {:>5} {:>7}\n", "seat", "games", "W", "D", "L", "score"));
        for (seat, t) in &self.seats {
            s.push_str(&format!(
                "{:<6} {:>6} {:>5} {:>5} {:>5} {:>6.1}%\n",
                seat,
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            ));
        }
        s.push_str("\nterminations:");
        for (k, n) in &self.terminations {
            s.push_str(&format!(" {} {},", k, n));
        }
        if s.ends_with(',') {
            s.pop();
        }
        s.push('\n');
        if self.players > 2 && self.engines.len() == 2 && self.head_to_head.games() > 0 {
            // Each engine holds several players: the SPRT's count, by share of the two's points.
            let t = self.head_to_head;
            let (e, lo, hi) = t.elo();
            s.push_str(&format!(
                "head to head: {} {}-{}-{} {} ({:.1}%), Elo {} [{}, {}]\n",
                self.engines[0].0,
                t.wins,
                t.draws,
                t.losses,
                self.engines[1].0,
                100.0 * t.score(),
                show_elo(e, 1),
                show_elo(lo, 1),
                show_elo(hi, 1)
            ));
        }
        if let Some((state, llr)) = self.sprt {
            s.push_str(&format!("sprt: {:?}, llr {:.2}", state, llr + 0.0));
            if let Some(b) = self.sprt_bounds {
                let (lo, hi) = b.bounds();
                s.push_str(&format!(
                    " (elo0 {} elo1 {} alpha {} beta {}: bounds [{:.2}, {:.2}])",
                    b.elo0, b.elo1, b.alpha, b.beta, lo, hi
                ));
            }
            s.push('\n');
        }
        if self.interrupted {
            s.push_str("interrupted: the games above are the ones that finished\n");
        }
        s
    }
}

fn placing(report: &GameReport) -> Placing {
    Placing { engines: report.players.iter().map(|p| p.engine).collect(), places: report.places.clone() }
}

fn ordinal(k: usize) -> String {
    match k {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        k => format!("{}th", k),
    }
}

/// The players of a variant, from the registry: the seats each engine commands.
pub(crate) fn player_seats<G: Rules>() -> Vec<Vec<Seat>> {
    let letters = G::VARIANT.seats;
    G::VARIANT
        .players
        .iter()
        .map(|p| p.chars().filter_map(|c| letters.find(c).map(|i| Seat(i as u8))).collect())
        .collect()
}

/// Who plays game `g`: for each player, its engine; and the opening, number `(g / players) mod
/// openings`, so that each opening is played once with every rotation of the seats.
///
/// With no more engines than players, player `k` is engine `(k + g) mod engines`. With more,
/// every set of `players` engines meets in turn, each with every rotation of its seats, so
/// every engine meets every other equally often over a cycle (`cycle`). The sets come in a
/// greedy order that keeps the engines' game counts close at any point: the next set is the one
/// whose engines have played least (within one meeting of each other with two players, two
/// with more).
pub fn schedule(g: usize, players: usize, engines: usize, openings: usize) -> (Vec<usize>, usize) {
    let opening = (g / players.max(1)) % openings.max(1);
    let rotation = g % players.max(1);
    if engines <= players {
        return ((0..players).map(|k| (k + rotation) % engines.max(1)).collect(), opening);
    }
    let sets = meeting_order(players, engines);
    let set = &sets[(g / players) % sets.len()];
    ((0..players).map(|k| set[(k + rotation) % players]).collect(), opening)
}

/// Games in one full cycle of the schedule: every rotation of every meeting.
pub fn cycle(players: usize, engines: usize) -> usize {
    if engines <= players { players } else { players * meeting_order(players, engines).len() }
}

/// Every set of `players` engines out of `engines`, in the order they meet.
fn meeting_order(players: usize, engines: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = Vec::new();
    let mut set: Vec<usize> = (0..players).collect();
    loop {
        all.push(set.clone());
        // The next set in lexicographic order.
        let Some(i) = (0..players).rev().find(|&i| set[i] < engines - players + i) else { break };
        set[i] += 1;
        for j in i + 1..players {
            set[j] = set[j - 1] + 1;
        }
    }
    let mut played = vec![0usize; engines];
    let mut order = Vec::with_capacity(all.len());
    while !all.is_empty() {
        let best = (0..all.len())
            .min_by_key(|&i| {
                let s = &all[i];
                (s.iter().map(|&e| played[e]).max(), s.iter().map(|&e| played[e]).sum::<usize>())
            })
            .unwrap_or(0);
        let s = all.remove(best);
        for &e in &s {
            played[e] += 1;
        }
        order.push(s);
    }
    order
}

pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    struct Run<'a>(&'a MatchConfig);
    impl Visitor for Run<'_> {
        type Output = Result<Summary, String>;
        fn visit<G: Game>(self) -> Self::Output {
            run_game::<G>(self.0)
        }
    }
    variants::visit(&cfg.variant, Run(cfg)).map_err(|e| format!("match: {}", e))?
}

fn run_game<G: Game>(cfg: &MatchConfig) -> Result<Summary, String> {
    if cfg.engines.is_empty() {
        return Err("match: no engine given".into());
    }
    for e in &cfg.engines {
        if let Some(l) = &e.go_seats
            && l.chars().count() != G::VARIANT.seats.len()
        {
            return Err(format!("engine {}: go-seats needs {} letters", e.name, G::VARIANT.seats.len()));
        }
    }
    // An engine that cannot be started, or that exits before it has said `usiok` and
    // `readyok`, would lose every game as a crash: stop the match before the first game instead.
    // One that is only slow to answer is left to each game's start-up allowance.
    for spec in &cfg.engines {
        let mut proc = EngineProc::spawn(spec).map_err(|e| format!("match: engine {}: {}", spec.name, e))?;
        let timeout = std::time::Duration::from_millis(cfg.startup_ms);
        if let Err((Fault::Died, what)) = proc.initialise(G::VARIANT.name, timeout) {
            return Err(format!(
                "match: engine {} ({}) exited before answering '{}': is it an engine for {}?",
                spec.name,
                spec.cmd,
                what,
                G::VARIANT.name
            ));
        }
    }
    let groups = player_seats::<G>();
    let openings = if cfg.openings.is_empty() { vec![Opening::default()] } else { cfg.openings.clone() };
    for (i, o) in openings.iter().enumerate() {
        o.start::<G>().map_err(|e| format!("opening {}: {}", i + 1, e))?;
    }
    let game_cfg = GameConfig {
        variant: G::VARIANT.name,
        tcs: vec![cfg.tc; G::VARIANT.seats.len()],
        margin_ms: cfg.margin_ms,
        startup_ms: cfg.startup_ms,
        hang_ms: cfg.hang_ms,
        max_plies: cfg.max_plies,
    };
    let mut pgn = match &cfg.pgn {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("{}: {}", p.display(), e))?),
        None => None,
    };
    let mut jsonl = match &cfg.jsonl {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("{}: {}", p.display(), e))?),
        None => None,
    };
    let mut site = match &cfg.html {
        Some((dir, open)) => Some(open(dir, &cfg.event)?),
        None => None,
    };
    let next = Arc::new(AtomicUsize::new(0));
    let halt = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<GameReport, String>>();
    let mut workers = Vec::new();
    for w in 0..cfg.concurrency.max(1) {
        let (next, halt, tx) = (Arc::clone(&next), Arc::clone(&halt), tx.clone());
        let (cfg, game_cfg, groups, openings) = (cfg.clone(), game_cfg.clone(), groups.clone(), openings.clone());
        let h = std::thread::Builder::new()
            .name(format!("match-{}", w))
            .spawn(move || worker::<G>(&cfg, &game_cfg, &groups, &openings, &next, &halt, &tx))
            .map_err(|e| format!("cannot start a worker: {}", e))?;
        workers.push(h);
    }
    drop(tx);

    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut summary = Summary::new(&names, G::VARIANT.seats, groups.len());
    let started = Instant::now();
    let tc_text = cfg.tc.to_string();
    let mut failure = None;
    for msg in rx.iter() {
        let report = match msg {
            Ok(r) => r,
            Err(e) => {
                failure = Some(e);
                halt.store(true, Ordering::SeqCst);
                continue;
            }
        };
        if let Some(f) = pgn.as_mut() {
            let _ = f.write_all(record::pgn(&report, &cfg.event, &tc_text).as_bytes()).and_then(|_| f.flush());
        }
        if let Some(f) = jsonl.as_mut() {
            let _ = writeln!(f, "{}", record::json(&report, &tc_text)).and_then(|_| f.flush());
        }
        if let Some(site) = site.as_mut()
            && let Err(e) = site.add(report.index, &record::pgn(&report, &cfg.event, &tc_text))
        {
            // The pages are for people; a page that cannot be written does not stop the match.
            eprintln!("warning: --html: {}", e);
        }
        summary.add(report);
        // Once the test has decided, games still in flight are counted but do not undo it.
        let decided = matches!(summary.sprt, Some((state, _)) if state != SprtState::Continue);
        if let Some(sprt) = cfg.sprt
            && summary.engines.len() == 2
            && !decided
        {
            let t = summary.head_to_head;
            let state = sprt.state(&t);
            summary.sprt = Some((state, sprt.llr(&t)));
            if state != SprtState::Continue {
                halt.store(true, Ordering::SeqCst);
            }
        }
        if cfg.progress {
            eprintln!("{}", progress_line(&summary, cfg.game_numbers().count(), started.elapsed().as_secs_f64()));
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    summary.finish();
    summary.interrupted = INTERRUPTED.load(Ordering::SeqCst);
    Ok(summary)
}

fn progress_line(s: &Summary, total: usize, secs: f64) -> String {
    let done = s.games.len();
    let eta = if done > 0 { secs / done as f64 * (total.saturating_sub(done)) as f64 } else { 0.0 };
    let mut line = format!("[{}/{}]", done, total);
    if s.players <= 2 && s.engines.len() == 2 {
        let t = s.engines[0].1;
        let (e, lo, hi) = t.elo();
        line.push_str(&format!(
            " {} {:.1} - {:.1} {} ({:.1}%) Elo {} [{}, {}]",
            s.engines[0].0,
            t.points(),
            s.engines[1].1.points(),
            s.engines[1].0,
            100.0 * t.score(),
            show_elo(e, 0),
            show_elo(lo, 0),
            show_elo(hi, 0)
        ));
    } else {
        // The same rating as the final table's, on one scale.
        for ((n, t), r) in s.engines.iter().zip(&s.ratings) {
            if t.games() == 0 {
                line.push_str(&format!(" {} not yet played", n));
                continue;
            }
            line.push_str(&format!(
                " {} {:.1}/{} {} [{}, {}]",
                n,
                t.points(),
                t.games(),
                show_elo(r.elo, 0),
                show_elo(r.lo, 0),
                show_elo(r.hi, 0)
            ));
        }
    }
    if s.players > 2 && s.engines.len() == 2 {
        let t = s.head_to_head;
        line.push_str(&format!(" head to head {}-{}-{}", t.wins, t.draws, t.losses));
    }
    if let Some((_, llr)) = s.sprt {
        line.push_str(&format!(" llr {:.2}", llr));
    }
    line.push_str(&format!(" eta {}m{:02}s", (eta as u64) / 60, (eta as u64) % 60));
    line
}

/// Plays games until there are none left; keeps engine processes alive between games and
/// replaces any that misbehaved.
fn worker<G: Game>(
    cfg: &MatchConfig,
    game_cfg: &GameConfig,
    groups: &[Vec<Seat>],
    openings: &[Opening],
    next: &AtomicUsize,
    halt: &AtomicBool,
    tx: &mpsc::Sender<Result<GameReport, String>>,
) {
    let mut idle: Vec<Vec<EngineProc>> = cfg.engines.iter().map(|_| Vec::new()).collect();
    loop {
        if halt.load(Ordering::SeqCst) || INTERRUPTED.load(Ordering::SeqCst) {
            return;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(g) = cfg.game_numbers().nth(i) else {
            return;
        };
        let (assignment, opening) = schedule(g, groups.len(), cfg.engines.len(), openings.len());
        let players: Vec<Player> = assignment
            .iter()
            .zip(groups)
            .map(|(&e, seats)| Player { engine: e, name: cfg.engines[e].name.clone(), seats: seats.clone() })
            .collect();
        let mut procs = Vec::new();
        let mut startup_fault = None;
        for (p, &e) in assignment.iter().enumerate() {
            let proc = match idle[e].pop() {
                Some(pr) if pr.alive() => Ok(pr),
                _ => EngineProc::start(
                    &cfg.engines[e],
                    G::VARIANT.name,
                    std::time::Duration::from_millis(game_cfg.startup_ms),
                ),
            };
            match proc {
                Ok(pr) => procs.push(pr),
                Err((f, msg)) => {
                    startup_fault = Some((p, f, msg));
                    break;
                }
            }
        }
        let report = match startup_fault {
            Some((p, f, msg)) => Ok(GameReport::startup_forfeit::<G>(g, &openings[opening], &players, p, f, msg)),
            None => game::play::<G>(g, &openings[opening], &players, &mut procs, game_cfg),
        };
        // An engine that misbehaved or died is replaced; the others play on.
        for (pr, &e) in procs.into_iter().zip(assignment.iter()) {
            if !pr.spoiled && pr.alive() {
                idle[e].push(pr);
            }
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            return;
        }
        if tx.send(report).is_err() {
            return;
        }
    }
}
