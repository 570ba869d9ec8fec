//! The session: applies commands to the engine's state and answers with replies.
//!
//! The reader (this session) never waits on the search, which runs in a worker thread and
//! prints its own `info` and `bestmove` lines. Every command is checked completely before it
//! changes anything, so a bad line leaves the state exactly as it was.

use super::command::{self, Command, GoParams, PositionStart};
use super::reply::{OptionKind, Output, Reply, SearchInfo};
use crate::rules::registry::{self, VariantError, Visitor};
use crate::rules::{Game, MoveBuffer, MovesOf, Outcome, Record, mask_letters, perft_split, seat_letter};
use crate::search::time::{Clock, budget, fixed};
use crate::search::{Control, Limits, Searcher};
use std::collections::VecDeque;
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;

pub const ENGINE_NAME: &str = concat!("tetrarch ", env!("CARGO_PKG_VERSION"));
pub const AUTHOR: &str = "the tetrarch developers";

/// Longest accepted input line; longer ones are refused whole.
pub const MAX_LINE: usize = 1 << 20;
use crate::search::{MAX_HASH_MIB, MAX_THREADS, SEARCH_STACK};

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub hash_mib: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Games with more than two sides: Best-Reply Search instead of paranoid.
    /// `None`: each game's own choice (`Evaluation::BEST_REPLY`).
    pub best_reply: Option<bool>,
    pub overhead_ms: u64,
    pub ponder: bool,
    /// Speaking the UCI dialect (after `uci`): Fairy-Stockfish's texts where a game has its own.
    pub uci: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { hash_mib: 16, threads: 1, best_reply: None, overhead_ms: 50, ponder: false, uci: false }
    }
}

/// What the session needs from one variant; implemented once, generically, by `Variant<G>`.
/// Dynamic dispatch stops here: the search under it is monomorphised per game.
trait Engine: Send {
    /// The line that names the variant when it is chosen, in the dialect spoken.
    fn announce(&self, uci: bool) -> String;
    fn set_position(&mut self, start: &PositionStart, moves: &[String], uci: bool) -> Result<(), String>;
    fn go(&mut self, p: &GoParams, opts: &Options, out: &Arc<Output>) -> Result<(), String>;
    fn perft(&mut self, depth: u32, uci: bool, out: &Arc<Output>) -> Result<(), String>;
    fn searching(&mut self) -> bool;
    /// Collects a search that has already answered, so that commands queued behind it run
    /// before a following `isready` is answered.
    fn settle(&mut self);
    /// Whether the running search ends only on `stop` (or `ponderhit`).
    fn unbounded(&self) -> bool;
    fn stop(&mut self);
    fn ponderhit(&mut self);
    fn new_game(&mut self);
    /// Resizes the hash table; the MiB it got.
    fn set_hash(&mut self, mib: usize) -> usize;
    fn set_threads(&mut self, n: usize);
    fn display(&self, uci: bool) -> String;
    fn legal_moves(&self, uci: bool) -> Vec<String>;
    fn status(&self) -> String;
}

struct Variant<G: Game> {
    record: Record<G>,
    searcher: Option<Box<Searcher<G>>>,
    hash_mib: usize,
    threads: usize,
    worker: Option<JoinHandle<Option<Box<Searcher<G>>>>>,
    control: Option<Arc<Control>>,
    unbounded: bool,
}

fn outcome_text<G: Game>(pos: &G, o: Option<Outcome>) -> String {
    let mut s = match o {
        None => return "none".to_string(),
        Some(o) if o.is_draw() => format!("draw {}", o.reason.as_str()),
        Some(o) => format!("win {} {}", mask_letters::<G>(o.winners), o.reason.as_str()),
    };
    if let Some(places) = pos.ranking() {
        let places: Vec<String> = places.iter().map(|&m| mask_letters::<G>(m)).collect();
        s.push_str(" ranking ");
        s.push_str(&places.join(","));
    }
    s
}

/// Input echoed in an error: at most 60 characters. Control characters are escaped when the
/// line is written (`reply::escape_controls`).
pub fn shown(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        t.push_str("...");
    }
    t
}

impl<G: Game> Variant<G> {
    /// The searcher and its hash table are made here, when the variant is chosen, so that a
    /// large table is allocated and written before `readyok`, never on a clock.
    fn new(hash_mib: usize, threads: usize) -> Self {
        Variant {
            record: Record::new(G::startpos()),
            searcher: Some(Self::searcher(hash_mib, threads)),
            hash_mib,
            threads,
            worker: None,
            control: None,
            unbounded: false,
        }
    }

    /// Collects a finished worker, taking back the searcher it borrowed.
    fn reap(&mut self) {
        if self.worker.as_ref().is_some_and(|w| w.is_finished()) {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(w) = self.worker.take()
            && let Ok(Some(s)) = w.join()
        {
            self.searcher = Some(s);
        }
        self.control = None;
    }

    fn searcher(hash_mib: usize, threads: usize) -> Box<Searcher<G>> {
        let mut s = Box::new(Searcher::new(hash_mib));
        s.set_threads(threads);
        s
    }

    fn take_searcher(&mut self) -> Box<Searcher<G>> {
        self.searcher.take().unwrap_or_else(|| Self::searcher(self.hash_mib, self.threads))
    }
}

impl<G: Game> Engine for Variant<G> {
    fn announce(&self, uci: bool) -> String {
        let v = G::VARIANT;
        let seats: Vec<String> = v.seats.chars().map(String::from).collect();
        let (name, startpos) = if uci {
            (registry::uci_name(v.name), G::uci_position_out(&G::startpos().to_text()))
        } else {
            (v.name, G::startpos().to_text())
        };
        format!("variant {} files {} ranks {} seats {} startpos {}", name, v.files, v.ranks, seats.join(","), startpos)
    }

    fn set_position(&mut self, start: &PositionStart, moves: &[String], uci: bool) -> Result<(), String> {
        let pos = match start {
            PositionStart::Startpos => G::startpos(),
            PositionStart::Text(t) if uci => {
                G::uci_position(t).and_then(|t| G::from_text(&t)).map_err(|e| format!("position: {}", e))?
            }
            PositionStart::Text(t) => G::from_text(t).map_err(|e| format!("position: {}", e))?,
        };
        let mut record = Record::new(pos);
        for (i, m) in moves.iter().enumerate() {
            let text = if uci { G::uci_move_in(m) } else { Ok(m.clone()) };
            text.and_then(|t| record.play_text(&t).map(|_| ()))
                .map_err(|e| format!("position: move {} '{}' rejected: {}", i + 1, shown(m), e))?;
        }
        self.record = record;
        Ok(())
    }

    fn go(&mut self, p: &GoParams, opts: &Options, out: &Arc<Output>) -> Result<(), String> {
        if self.searching() {
            return Err("go: a search is already running".into());
        }
        for &(c, _) in p.time.iter().chain(p.inc.iter()) {
            if !G::VARIANT.seats.contains(c) {
                return Err(format!("go: {} has no seat '{}' (seats: {})", G::VARIANT.name, c, G::VARIANT.seats));
            }
        }
        // In the UCI dialect a clock letter may stand for another seat (Judkins: `wtime` is
        // sente's clock).
        let seat_of = |c: char| if opts.uci { G::uci_clock_seat(c) } else { c };
        let uci = opts.uci;
        let say = move |text: String| if uci { G::uci_move_out(&text) } else { text };
        if p.ponder && p.infinite {
            return Err("go: ponder and infinite exclude each other".into());
        }
        let me = seat_letter::<G>(self.record.current.to_move());
        let time = p.time.iter().find(|t| seat_of(t.0) == me).map(|t| t.1);
        let inc = p.inc.iter().find(|t| seat_of(t.0) == me).map(|t| t.1);
        let mut limits = Limits {
            // A mate search looks no deeper than the mate it is asked for, and a little more.
            depth: p.depth.or(p.mate.map(|n| n.saturating_mul(2).saturating_add(2))),
            nodes: p.nodes,
            budget: None,
            mate: p.mate,
            infinite: p.infinite,
            best_reply: opts.best_reply.unwrap_or(G::BEST_REPLY),
        };
        if !p.infinite {
            if let Some(mt) = p.movetime {
                limits.budget = Some(fixed(mt, opts.overhead_ms));
            } else if time.is_some() || p.byoyomi.is_some() || inc.is_some() {
                let clock = Clock {
                    time: time.unwrap_or(0),
                    inc: inc.unwrap_or(0),
                    byoyomi: p.byoyomi.unwrap_or(0),
                    moves_to_go: p.movestogo,
                };
                limits.budget = Some(budget(clock, opts.overhead_ms));
            }
        }
        let control = Control::new(p.ponder);
        self.unbounded = p.infinite
            || p.ponder
            || (limits.depth.is_none() && limits.nodes.is_none() && limits.budget.is_none() && limits.mate.is_none());
        let mut searcher = self.take_searcher();
        let record = self.record.clone();
        let out = Arc::clone(out);
        let ctl = Arc::clone(&control);
        let spawned = std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK).spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                let root = record.current.clone();
                let mut report = |info: &crate::search::Info<G::Move>| {
                    let mut pos = root.clone();
                    // Each move is checked before it is played: a line that went wrong would
                    // be cut, never printed with an illegal move.
                    let mut pv = Vec::with_capacity(info.pv.len());
                    for &m in &info.pv {
                        let mut legal = MovesOf::<G>::default();
                        pos.legal_moves(&mut legal);
                        if !legal.iter().any(|&l| l == m) {
                            break;
                        }
                        pv.push(say(pos.format_move(m)));
                        pos.play(m);
                    }
                    out.send(&Reply::Info(SearchInfo {
                        depth: info.depth,
                        seldepth: info.seldepth,
                        score: info.score,
                        nodes: info.nodes,
                        nps: info.nps(),
                        time_ms: info.time_ms,
                        hashfull: info.hashfull,
                        pv,
                    }));
                };
                let r = searcher.think(&record, limits, Arc::clone(&ctl), &mut report);
                (r, searcher)
            }));
            match result {
                Ok((r, searcher)) => {
                    let (mv, ponder) = match r.best {
                        None => ("resign".to_string(), None),
                        Some(m) => {
                            let mut after = record.current.clone();
                            after.play(m);
                            (say(record.current.format_move(m)), r.ponder.map(|p| say(after.format_move(p))))
                        }
                    };
                    ctl.mark_answered();
                    out.send(&Reply::BestMove { mv, ponder });
                    Some(searcher)
                }
                Err(_) => {
                    // Never leave a `go` unanswered: fall back to the first legal move.
                    let mut list = MovesOf::<G>::default();
                    record.legal_moves(&mut list);
                    let mv = list.iter().next().map(|&m| say(record.current.format_move(m))).unwrap_or("resign".into());
                    out.send(&Reply::Error("internal error in the search; playing the first legal move".into()));
                    ctl.mark_answered();
                    out.send(&Reply::BestMove { mv, ponder: None });
                    None
                }
            }
        });
        match spawned {
            Ok(h) => {
                self.worker = Some(h);
                self.control = Some(control);
                Ok(())
            }
            Err(e) => Err(format!("go: cannot start the search thread: {}", e)),
        }
    }

    fn perft(&mut self, depth: u32, uci: bool, out: &Arc<Output>) -> Result<(), String> {
        if self.searching() {
            return Err("go perft: a search is already running".into());
        }
        let pos = self.record.current.clone();
        let out = Arc::clone(out);
        let control = Control::new(false);
        let ctl = Arc::clone(&control);
        let h = std::thread::Builder::new()
            .name("perft".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let counted = perft_split(&pos, depth, &ctl.stop, |m, n| {
                    let mv = pos.format_move(m);
                    out.send(&Reply::PerftMove { mv: if uci { G::uci_move_out(&mv) } else { mv }, nodes: n });
                });
                ctl.mark_answered();
                out.send(&match counted {
                    Some(total) => Reply::PerftTotal(total),
                    None => Reply::Text("perft stopped".into()),
                });
                None
            })
            .map_err(|e| format!("go perft: cannot start a thread: {}", e))?;
        self.worker = Some(h);
        self.control = Some(control);
        self.unbounded = false;
        Ok(())
    }

    fn unbounded(&self) -> bool {
        self.unbounded
    }

    fn settle(&mut self) {
        if self.control.as_ref().is_some_and(|c| c.is_answered()) {
            self.join();
        }
    }

    fn searching(&mut self) -> bool {
        self.reap();
        self.worker.is_some()
    }

    fn stop(&mut self) {
        if let Some(c) = &self.control {
            c.stop();
        }
        self.join();
    }

    fn ponderhit(&mut self) {
        if let Some(c) = &self.control {
            c.ponderhit();
        }
    }

    fn new_game(&mut self) {
        self.stop();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    fn set_hash(&mut self, mib: usize) -> usize {
        self.hash_mib = mib;
        match self.searcher.as_mut() {
            Some(s) => s.resize(mib),
            None => self.searcher = Some(Self::searcher(mib, self.threads)),
        }
        self.searcher.as_ref().map_or(mib, |s| s.hash_mib())
    }

    fn set_threads(&mut self, n: usize) {
        self.threads = n;
        match self.searcher.as_mut() {
            Some(s) => s.set_threads(n),
            None => self.searcher = Some(Self::searcher(self.hash_mib, n)),
        }
    }

    fn display(&self, uci: bool) -> String {
        let pos = &self.record.current;
        let mut s = pos.picture();
        let text = if uci { G::uci_position_out(&pos.to_text()) } else { pos.to_text() };
        s.push_str(&format!("position {}\n", text));
        s.push_str(&format!("hash {:016x}\n", pos.hash()));
        s.push_str(&format!("turn {}\n", seat_letter::<G>(pos.to_move())));
        s.push_str(&format!("checks {}\n", mask_letters::<G>(pos.checked_seats())));
        for (k, v) in pos.notes() {
            s.push_str(&format!("{} {}\n", k, v));
        }
        s.push_str(&format!("outcome {}", outcome_text(pos, self.record.outcome())));
        s
    }

    fn legal_moves(&self, uci: bool) -> Vec<String> {
        let mut list = MovesOf::<G>::default();
        self.record.legal_moves(&mut list);
        let text = |m| self.record.current.format_move(m);
        list.iter().map(|&m| if uci { G::uci_move_out(&text(m)) } else { text(m) }).collect()
    }

    fn status(&self) -> String {
        let pos = &self.record.current;
        let notes: String = pos.notes().iter().map(|(k, v)| format!(" {} {}", k, v)).collect();
        format!(
            "turn {} checks {}{} outcome {}",
            seat_letter::<G>(pos.to_move()),
            mask_letters::<G>(pos.checked_seats()),
            notes,
            outcome_text(pos, self.record.outcome())
        )
    }
}

/// A session's engine for a variant of the registry.
struct MakeEngine(Options);

impl Visitor for MakeEngine {
    type Output = Box<dyn Engine>;
    fn visit<G: Game>(self) -> Box<dyn Engine> {
        Box::new(Variant::<G>::new(self.0.hash_mib, self.0.threads))
    }
}

fn make_engine(name: &str, options: Options) -> Result<Box<dyn Engine>, VariantError> {
    registry::visit(name, MakeEngine(options))
}

pub struct Session {
    out: Arc<Output>,
    options: Options,
    engine: Box<dyn Engine>,
    /// Commands (and the errors of refused lines) that wait, in order, for the running search.
    pending: VecDeque<Result<Command, String>>,
}

impl Session {
    pub fn new(out: Arc<Output>) -> Self {
        let options = Options::default();
        let engine = make_engine("judkins", options).expect("the default variant exists");
        Session { out, options, engine, pending: VecDeque::new() }
    }

    fn send(&self, r: Reply) {
        self.out.send(&r);
    }

    /// Takes one input line. Returns false when the session should end (`quit`).
    ///
    /// `isready`, `stop`, `ponderhit`, `gameover` and `quit` act at once. Every other command,
    /// and the error of a refused line, is answered in the order it was sent: one that arrives
    /// during a search waits until the search has printed its `bestmove`, and so does
    /// everything after it.
    pub fn input(&mut self, line: &str) -> bool {
        match command::parse(line) {
            Ok(None) => return true,
            Ok(Some(Command::Quit)) => return false,
            Ok(Some(Command::IsReady)) => {
                if !self.pending.is_empty() {
                    self.engine.settle();
                    self.pump();
                }
                self.send(Reply::ReadyOk)
            }
            Ok(Some(Command::Stop | Command::GameOver(_))) => self.engine.stop(),
            Ok(Some(Command::PonderHit)) => self.engine.ponderhit(),
            // An error waits its turn too, so that a script reads answers in the order it asked.
            Ok(Some(cmd)) => self.pending.push_back(Ok(cmd)),
            Err(e) => self.pending.push_back(Err(e)),
        }
        self.pump();
        true
    }

    /// Runs the waiting commands that can run now: all of them, once no search is running.
    pub fn pump(&mut self) {
        while !self.pending.is_empty() {
            if self.engine.searching() {
                return;
            }
            match self.pending.pop_front() {
                Some(Ok(cmd)) => self.handle(cmd),
                Some(Err(e)) => self.send(Reply::Error(e)),
                None => return,
            }
        }
    }

    /// Whether commands are waiting for the search.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// End of input: the waiting commands still run and a bounded search (a clock, a depth,
    /// nodes) still ends with its `bestmove`; a search that would wait for `stop` is stopped.
    pub fn finish(&mut self) {
        loop {
            self.pump();
            let searching = self.engine.searching();
            if !searching && self.pending.is_empty() {
                return;
            }
            if searching && self.engine.unbounded() {
                self.engine.stop();
                continue;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Ends any search at once (its `bestmove` is printed): `quit`.
    pub fn shutdown(&mut self) {
        self.pending.clear();
        self.engine.stop();
    }

    /// The `usi` or `uci` reply. Under `uci` the options have UCI's names (`Hash`, `Ponder`,
    /// `Move Overhead`, `UCI_Variant`) and the variants their names in that dialect.
    fn identify(&self, ok: Reply) {
        self.send(Reply::Id { name: ENGINE_NAME, author: AUTHOR });
        let d = Options::default();
        let uci = self.options.uci;
        self.send(Reply::Option {
            name: if uci { "Hash" } else { "USI_Hash" },
            kind: OptionKind::Spin { default: d.hash_mib as i64, min: 1, max: MAX_HASH_MIB as i64 },
        });
        self.send(Reply::Option {
            name: "Threads",
            kind: OptionKind::Spin { default: d.threads as i64, min: 1, max: MAX_THREADS as i64 },
        });
        self.send(Reply::Option {
            name: if uci { "Ponder" } else { "USI_Ponder" },
            kind: OptionKind::Check { default: false },
        });
        let names = registry::names(true);
        self.send(Reply::Option {
            name: if uci { "UCI_Variant" } else { "USI_Variant" },
            kind: OptionKind::Combo {
                default: "judkins",
                vars: if uci { names.into_iter().map(registry::uci_name).collect() } else { names },
            },
        });
        self.send(Reply::Option {
            name: if uci { "Move Overhead" } else { "MoveOverhead" },
            kind: OptionKind::Spin { default: d.overhead_ms as i64, min: 0, max: 5000 },
        });
        self.send(Reply::Option {
            name: "MultiSearch",
            kind: OptionKind::Combo {
                default: match d.best_reply {
                    None => "auto",
                    Some(true) => "brs",
                    Some(false) => "paranoid",
                },
                vars: vec!["auto", "paranoid", "brs"],
            },
        });
        self.send(ok);
    }

    fn handle(&mut self, cmd: Command) {
        let r = match cmd {
            Command::Usi => {
                self.options.uci = false;
                self.identify(Reply::UsiOk);
                Ok(())
            }
            Command::Uci => {
                self.options.uci = true;
                self.identify(Reply::UciOk);
                Ok(())
            }
            Command::NewGame => {
                self.engine.new_game();
                Ok(())
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.engine.set_position(&start, &moves, self.options.uci),
            Command::Go(p) => self.engine.go(&p, &self.options, &self.out),
            Command::Perft(d) => self.engine.perft(d, self.options.uci, &self.out),
            Command::Display => {
                self.send(Reply::Raw(self.engine.display(self.options.uci)));
                Ok(())
            }
            Command::LegalMoves => {
                self.send(Reply::LegalMoves(self.engine.legal_moves(self.options.uci)));
                Ok(())
            }
            Command::Status => {
                self.send(Reply::Status(self.engine.status()));
                Ok(())
            }
            Command::Debug => Ok(()),
            // Acted on as they arrive, in `input`.
            Command::IsReady | Command::Stop | Command::PonderHit | Command::GameOver(_) | Command::Quit => Ok(()),
        };
        if let Err(e) = r {
            self.send(Reply::Error(e));
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let key: String = name.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let missing = || format!("setoption: '{}' needs a value", shown(name));
        // An option that rebuilds the searcher: a number from 1 to `max`, set between searches.
        let searcher_size = |engine: &mut Box<dyn Engine>, option: &str, max: u64| -> Result<usize, String> {
            let v =
                command::parse_int(value.ok_or_else(missing)?).map_err(|e| format!("setoption {}: {}", option, e))?;
            if !(1..=max).contains(&v) {
                return Err(format!("setoption {}: {} is out of range 1..{}", option, v, max));
            }
            if engine.searching() {
                return Err(format!("setoption {}: not while a search is running", option));
            }
            Ok(v as usize)
        };
        match key.as_str() {
            "usi_hash" | "hash" => {
                let v = searcher_size(&mut self.engine, "USI_Hash", MAX_HASH_MIB as u64)?;
                self.options.hash_mib = v;
                let got = self.engine.set_hash(v);
                if got.saturating_mul(2) <= v {
                    self.send(Reply::Text(format!("USI_Hash: {} MiB, the most this machine would give", got)));
                }
                Ok(())
            }
            "threads" => {
                let v = searcher_size(&mut self.engine, "Threads", MAX_THREADS as u64)?;
                self.options.threads = v;
                self.engine.set_threads(v);
                Ok(())
            }
            "moveoverhead" => {
                let v = command::parse_int(value.ok_or_else(missing)?)
                    .map_err(|e| format!("setoption MoveOverhead: {}", e))?;
                if v > 5000 {
                    return Err(format!("setoption MoveOverhead: {} is out of range 0..5000", v));
                }
                self.options.overhead_ms = v;
                Ok(())
            }
            "multisearch" => {
                self.options.best_reply = match value.ok_or_else(missing)? {
                    "auto" => None,
                    "paranoid" => Some(false),
                    "brs" => Some(true),
                    v => return Err(format!("setoption MultiSearch: '{}' is not auto, paranoid or brs", shown(v))),
                };
                Ok(())
            }
            "usi_ponder" | "ponder" => {
                self.options.ponder = command::parse_bool(value.ok_or_else(missing)?)
                    .map_err(|e| format!("setoption USI_Ponder: {}", e))?;
                Ok(())
            }
            "usi_variant" | "uci_variant" => {
                let v = value.ok_or_else(missing)?;
                if self.engine.searching() {
                    return Err("setoption USI_Variant: not while a search is running".into());
                }
                let name = if self.options.uci {
                    registry::from_uci_name(v).map_err(|e| format!("setoption UCI_Variant: {}", e))?
                } else {
                    v
                };
                let engine = make_engine(name, self.options).map_err(|e| format!("setoption USI_Variant: {}", e))?;
                self.engine = engine;
                self.send(Reply::Text(self.engine.announce(self.options.uci)));
                Ok(())
            }
            _ => Err(format!("setoption: unknown option '{}'", shown(name))),
        }
    }
}

/// Reads one line of at most `MAX_LINE` bytes, not counting its `\n` or `\r\n`. A longer line
/// is consumed and reported as `Err(len)`; `Ok(None)` is the end of input.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Result<(), usize>>> {
    buf.clear();
    let mut too_long = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if buf.is_empty() && too_long == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        // Room for the longest line and its `\r\n`; what is past that is counted, not kept.
        if too_long > 0 || buf.len() + take > MAX_LINE + 2 {
            let ending = match &chunk[..take] {
                [.., b'\r', b'\n'] => 2,
                [.., b'\n'] => 1,
                _ => 0,
            };
            too_long += take - ending;
            too_long += std::mem::take(buf).len();
        } else {
            buf.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        if done {
            break;
        }
    }
    let ending = if buf.ends_with(b"\r\n") { 2 } else { usize::from(buf.ends_with(b"\n")) };
    if too_long == 0 && buf.len() - ending > MAX_LINE {
        too_long = buf.len() - ending;
        buf.clear();
    }
    Ok(Some(if too_long > 0 { Err(too_long) } else { Ok(()) }))
}

enum Input {
    Line(String),
    Refused(String),
    End,
}

/// The engine's main loop on stdin and stdout. A reader thread turns stdin into lines, so that
/// commands waiting for a search never keep `isready` or `stop` from being read. End of input
/// means quit.
pub fn run_stdio() {
    let out = Arc::new(Output::stdout());
    let mut session = Session::new(Arc::clone(&out));
    let (tx, rx) = mpsc::channel::<Input>();
    let reader = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::with_capacity(4096);
        loop {
            let msg = match read_line(&mut input, &mut buf) {
                Ok(None) | Err(_) => Input::End,
                Ok(Some(Err(len))) => {
                    Input::Refused(format!("input line of {} bytes is longer than {} and was ignored", len, MAX_LINE))
                }
                Ok(Some(Ok(()))) => match std::str::from_utf8(&buf) {
                    Ok(line) => Input::Line(line.to_string()),
                    Err(_) => Input::Refused("input line is not valid UTF-8 and was ignored".into()),
                },
            };
            let end = matches!(msg, Input::End);
            if tx.send(msg).is_err() || end {
                return;
            }
        }
    });
    if reader.is_err() {
        out.send(&Reply::Error("cannot start the input thread".into()));
        return;
    }
    loop {
        let msg = if session.has_pending() {
            match rx.recv_timeout(std::time::Duration::from_millis(1)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    session.pump();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => Input::End,
            }
        } else {
            rx.recv().unwrap_or(Input::End)
        };
        match msg {
            Input::Line(line) => {
                log::debug!("<< {}", super::reply::escape_controls(line.trim_end()));
                if !session.input(&line) {
                    session.shutdown();
                    break;
                }
            }
            Input::Refused(e) => out.send(&Reply::Error(e)),
            Input::End => {
                session.finish();
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<usize, usize>> {
        let mut r = std::io::BufReader::with_capacity(4096, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, &mut buf).unwrap() {
            out.push(l.map(|_| buf.len()));
        }
        out
    }

    #[test]
    fn the_line_limit_counts_the_line_without_its_ending() {
        let full = vec![b'x'; MAX_LINE];
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let mut input = full.clone();
            input.extend_from_slice(ending);
            input.extend_from_slice(b"isready\n");
            let got = lines(&input);
            if ending.is_empty() {
                // No ending: the line runs on into the next one and is too long.
                assert_eq!(got, vec![Err(MAX_LINE + 7)]);
            } else {
                assert_eq!(got, vec![Ok(MAX_LINE + ending.len()), Ok(8)], "ending {ending:?}");
            }
        }
        let mut over = vec![b'x'; MAX_LINE + 1];
        over.extend_from_slice(b"\r\nisready\n");
        assert_eq!(lines(&over), vec![Err(MAX_LINE + 1), Ok(8)]);
        // The last line may end with the input.
        assert_eq!(lines(&full), vec![Ok(MAX_LINE)]);
    }
}
