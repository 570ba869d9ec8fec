//! The session's engine for one variant: `Engine` is what the session asks of it, and
//! `Variant<G>` answers for every game, generically: it keeps the game's record and its
//! searcher, and runs each search on a worker thread of its own. Dynamic dispatch stops here.

use super::command::{GoParams, PositionStart, shown};
use super::options::Options;
use super::reply::{Output, Reply, SearchInfo};
use crate::rules::{Game, MoveBuffer, MovesOf, Outcome, Record, mask_letters, perft_split, seat_letter};
use crate::search::time::{Clock, budget, fixed};
use crate::search::{Control, Limits, SEARCH_STACK, Searcher};
use crate::variants::{self, VariantError, Visitor};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What the session needs from one variant; implemented once, generically, by `Variant<G>`.
/// Dynamic dispatch stops here: the search under it is monomorphised per game.
pub(super) trait Engine: Send {
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
            (variants::uci_name(v.name), (G::UCI.position_out)(&G::startpos().to_text()))
        } else {
            (v.name, G::startpos().to_text())
        };
        format!("variant {} files {} ranks {} seats {} startpos {}", name, v.files, v.ranks, seats.join(","), startpos)
    }

    fn set_position(&mut self, start: &PositionStart, moves: &[String], uci: bool) -> Result<(), String> {
        let pos = match start {
            PositionStart::Startpos => G::startpos(),
            PositionStart::Text(t) if uci => {
                (G::UCI.position_in)(t).and_then(|t| G::from_text(&t)).map_err(|e| format!("position: {}", e))?
            }
            PositionStart::Text(t) => G::from_text(t).map_err(|e| format!("position: {}", e))?,
        };
        let mut record = Record::new(pos);
        for (i, m) in moves.iter().enumerate() {
            let text = if uci { (G::UCI.move_in)(m) } else { Ok(m.clone()) };
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
        let seat_of = |c: char| if opts.uci { (G::UCI.clock_seat)(c) } else { c };
        let uci = opts.uci;
        let say = move |text: String| if uci { (G::UCI.move_out)(&text) } else { text };
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
            best_reply: opts.best_reply.unwrap_or(G::VARIANT.search.best_reply),
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
                    out.send(&Reply::PerftMove { mv: if uci { (G::UCI.move_out)(&mv) } else { mv }, nodes: n });
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
        let text = if uci { (G::UCI.position_out)(&pos.to_text()) } else { pos.to_text() };
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
        list.iter().map(|&m| if uci { (G::UCI.move_out)(&text(m)) } else { text(m) }).collect()
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

pub(super) fn make_engine(name: &str, options: Options) -> Result<Box<dyn Engine>, VariantError> {
    variants::visit(name, MakeEngine(options))
}
