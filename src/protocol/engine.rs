//! The session's engine: the game (`crate::live`'s one game object, chosen once per variant),
//! its searcher, and the worker thread each search or perft runs on.

use super::command::{GoParams, PositionStart, shown};
use super::options::Options;
use super::reply::{Output, Reply};
use crate::live::{self, Line, Live, Think};
use crate::nnue::Network;
use crate::search::time::{Clock, budget, fixed};
use crate::search::{Control, Limits, SEARCH_STACK};
use crate::variants::{self, VariantError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::JoinHandle;

pub(super) struct Engine {
    game: Box<dyn Live>,
    searcher: Option<Box<dyn Think>>,
    hash_mib: usize,
    threads: usize,
    worker: Option<JoinHandle<Option<Box<dyn Think>>>>,
    control: Option<Arc<Control>>,
    unbounded: bool,
    /// The network the searcher evaluates with (`Use NNUE`, `EvalFile`), kept for a searcher
    /// made again.
    network: Option<Arc<Network>>,
}

impl Engine {
    /// The engine for the variant `name`. The searcher and its hash table are made here, when
    /// the variant is chosen, so that a large table is allocated and written before `readyok`,
    /// never on a clock.
    pub(super) fn new(name: &str, options: Options) -> Result<Engine, VariantError> {
        let game = match live::open(name, None, &[]) {
            Ok(g) => g,
            Err(live::OpenError::Variant(v)) => return Err(v),
            // A variant's own start is always one of its positions.
            Err(e) => return Err(VariantError::Unknown(e.to_string())),
        };
        let searcher = game.searcher(options.hash_mib, options.threads);
        let network = searcher.network();
        Ok(Engine {
            game,
            searcher: Some(searcher),
            hash_mib: options.hash_mib,
            threads: options.threads,
            worker: None,
            control: None,
            unbounded: false,
            network,
        })
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

    fn take_searcher(&mut self) -> Box<dyn Think> {
        self.searcher.take().unwrap_or_else(|| self.new_searcher(self.hash_mib, self.threads))
    }

    fn new_searcher(&self, hash_mib: usize, threads: usize) -> Box<dyn Think> {
        let mut s = self.game.searcher(hash_mib, threads);
        // The network was checked when the engine took it.
        let _ = s.set_network(self.network.clone());
        s
    }

    /// Evaluates with `net` (none: the game's own evaluation); a network that does not fit the
    /// variant is refused and nothing changes. Not while a search runs (`idle` options).
    pub(super) fn set_network(&mut self, net: Option<Arc<Network>>) -> Result<(), String> {
        if let Some(n) = &net {
            self.game.network_fits(n)?;
        }
        if let Some(s) = self.searcher.as_mut() {
            s.set_network(net.clone())?;
        }
        self.network = net;
        Ok(())
    }

    pub(super) fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    pub(super) fn variant(&self) -> &'static str {
        self.game.variant().name
    }

    /// The line that names the variant when it is chosen, in the dialect spoken.
    pub(super) fn announce(&self, uci: bool) -> String {
        let v = self.game.variant();
        let seats: Vec<String> = v.seats.chars().map(String::from).collect();
        let start = self.game.position();
        let (name, startpos) =
            if uci { (variants::uci_name(v.name), (self.game.uci().position_out)(&start)) } else { (v.name, start) };
        format!("variant {} files {} ranks {} seats {} startpos {}", name, v.files, v.ranks, seats.join(","), startpos)
    }

    pub(super) fn set_position(&mut self, start: &PositionStart, moves: &[String], uci: bool) -> Result<(), String> {
        let dialect = self.game.uci();
        let text = match start {
            PositionStart::Startpos => None,
            PositionStart::Text(t) if uci => Some((dialect.position_in)(t).map_err(|e| format!("position: {}", e))?),
            PositionStart::Text(t) => Some(t.clone()),
        };
        let mut game = live::open(self.game.variant().name, text.as_deref(), &[]).map_err(|e| e.to_string())?;
        for (i, m) in moves.iter().enumerate() {
            let text = if uci { (dialect.move_in)(m) } else { Ok(m.clone()) };
            text.and_then(|t| Ok(game.push(&t)?))
                .map_err(|e| format!("position: move {} '{}' rejected: {}", i + 1, shown(m), e))?;
        }
        self.game = game;
        Ok(())
    }

    pub(super) fn go(&mut self, p: &GoParams, opts: &Options, out: &Arc<Output>) -> Result<(), String> {
        if self.searching() {
            return Err("go: a search is already running".into());
        }
        let v = self.game.variant();
        for &(c, _) in p.time.iter().chain(p.inc.iter()) {
            if !v.seats.contains(c) {
                return Err(format!("go: {} has no seat '{}' (seats: {})", v.name, c, v.seats));
            }
        }
        // In the UCI dialect a clock letter may stand for another seat (Judkins: `wtime` is
        // sente's clock).
        let dialect = self.game.uci();
        let seat_of = |c: char| if opts.uci { (dialect.clock_seat)(c) } else { c };
        let uci = opts.uci;
        let say = move |text: String| if uci { (dialect.move_out)(&text) } else { text };
        if p.ponder && p.infinite {
            return Err("go: ponder and infinite exclude each other".into());
        }
        let me = self.game.letter(self.game.to_move());
        let time = p.time.iter().find(|t| seat_of(t.0) == me).map(|t| t.1);
        let inc = p.inc.iter().find(|t| seat_of(t.0) == me).map(|t| t.1);
        let mut limits = Limits {
            // A mate search looks no deeper than the mate it is asked for, and a little more.
            depth: p.depth.or(p.mate.map(|n| n.saturating_mul(2).saturating_add(2))),
            nodes: p.nodes,
            budget: None,
            mate: p.mate,
            infinite: p.infinite,
            best_reply: opts.best_reply.unwrap_or(v.search.best_reply),
            multipv: opts.multipv,
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
        let game = self.game.boxed();
        let out = Arc::clone(out);
        let ctl = Arc::clone(&control);
        let spawned = std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK).spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                let mut report = |l: &Line| {
                    out.send(&Reply::Info(Line { pv: l.pv.iter().cloned().map(say).collect(), ..l.clone() }));
                };
                let r = searcher.think(game.as_ref(), limits, Arc::clone(&ctl), &mut report);
                (r, searcher)
            }));
            match result {
                Ok((Ok(found), searcher)) => {
                    let mv = found.best.map(say).unwrap_or_else(|| "resign".to_string());
                    ctl.mark_answered();
                    out.send(&Reply::BestMove { mv, ponder: found.ponder.map(say) });
                    Some(searcher)
                }
                Ok((Err(e), searcher)) => {
                    let mv = game.legal().into_iter().next().map(say).unwrap_or("resign".into());
                    out.send(&Reply::Error(format!("{}; playing the first legal move", e)));
                    ctl.mark_answered();
                    out.send(&Reply::BestMove { mv, ponder: None });
                    Some(searcher)
                }
                Err(_) => {
                    // Never leave a `go` unanswered: fall back to the first legal move.
                    let mv = game.legal().into_iter().next().map(say).unwrap_or("resign".into());
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

    pub(super) fn perft(&mut self, depth: u32, uci: bool, out: &Arc<Output>) -> Result<(), String> {
        if self.searching() {
            return Err("go perft: a search is already running".into());
        }
        let game = self.game.boxed();
        let out = Arc::clone(out);
        let control = Control::new(false);
        let ctl = Arc::clone(&control);
        let h = std::thread::Builder::new()
            .name("perft".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let move_out = game.uci().move_out;
                let counted = game.perft(depth, &ctl.stop, &mut |mv, n| {
                    out.send(&Reply::PerftMove { mv: if uci { move_out(&mv) } else { mv }, nodes: n });
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

    /// Whether the running search ends only on `stop` (or `ponderhit`).
    pub(super) fn unbounded(&self) -> bool {
        self.unbounded
    }

    /// Collects a search that has already answered, so that commands queued behind it run
    /// before a following `isready` is answered.
    pub(super) fn settle(&mut self) {
        if self.control.as_ref().is_some_and(|c| c.is_answered()) {
            self.join();
        }
    }

    pub(super) fn searching(&mut self) -> bool {
        self.reap();
        self.worker.is_some()
    }

    pub(super) fn stop(&mut self) {
        if let Some(c) = &self.control {
            c.stop();
        }
        self.join();
    }

    pub(super) fn ponderhit(&mut self) {
        if let Some(c) = &self.control {
            c.ponderhit();
        }
    }

    pub(super) fn new_game(&mut self) {
        self.stop();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    /// Resizes the hash table; the MiB it got.
    pub(super) fn set_hash(&mut self, mib: usize) -> usize {
        self.hash_mib = mib;
        match self.searcher.as_mut() {
            Some(s) => s.resize(mib),
            None => {
                self.searcher = Some(self.new_searcher(mib, self.threads));
                mib
            }
        }
    }

    pub(super) fn set_threads(&mut self, n: usize) {
        self.threads = n;
        match self.searcher.as_mut() {
            Some(s) => s.set_threads(n),
            None => self.searcher = Some(self.new_searcher(self.hash_mib, n)),
        }
    }

    pub(super) fn display(&self, uci: bool) -> String {
        self.game.display(uci)
    }

    pub(super) fn legal_moves(&self, uci: bool) -> Vec<String> {
        let moves = self.game.legal();
        if !uci {
            return moves;
        }
        let move_out = self.game.uci().move_out;
        moves.iter().map(|m| move_out(m)).collect()
    }

    pub(super) fn status(&self) -> String {
        self.game.status()
    }
}
