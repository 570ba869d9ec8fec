//! The session: applies commands to the engine's state and answers with replies.
//!
//! The reader (this session) never waits on the search, which runs in a worker thread and
//! prints its own `info` and `bestmove` lines. Every command is checked completely before it
//! changes anything, so a bad line leaves the state exactly as it was.

use super::command::{self, Command};
use super::engine::Engine;
use super::options::{self, DEFAULT_VARIANT, OPTIONS, Options, Settings};
use super::reply::{Output, Reply};
use crate::nnue::{self, Network};
use crate::variants::{self, VariantError};
use std::collections::VecDeque;
use std::sync::Arc;

pub const ENGINE_NAME: &str = concat!("tetrarch ", env!("CARGO_PKG_VERSION"));
pub const AUTHOR: &str = "the tetrarch developers";

pub struct Session {
    out: Arc<Output>,
    pub(super) options: Options,
    pub(super) engine: Engine,
    /// Commands (and the errors of refused lines) that wait, in order, for the running search.
    pending: VecDeque<Result<Command, String>>,
    /// The network `EvalFile` read, with its path; none: the built-in networks.
    eval_file: Option<(String, Arc<Network>)>,
}

impl Session {
    pub fn new(out: Arc<Output>) -> Self {
        let options = Options::default();
        let engine = Engine::new(DEFAULT_VARIANT, options).expect("the default variant exists");
        Session { out, options, engine, pending: VecDeque::new(), eval_file: None }
    }

    pub(super) fn send(&self, r: Reply) {
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

    /// The `usi` or `uci` reply: the options of `OPTIONS`, under the names of the dialect.
    fn identify(&self, ok: Reply) {
        self.send(Reply::Id { name: ENGINE_NAME, author: AUTHOR });
        for option in OPTIONS {
            self.send(option.announce(self.options.uci));
        }
        self.send(ok);
    }

    /// Makes `name` the variant played, and announces it.
    pub(super) fn choose_variant(&mut self, name: &str) -> Result<(), VariantError> {
        self.engine = Engine::new(name, self.options)?;
        self.send(Reply::Text(self.engine.announce(self.options.uci)));
        // `EvalFile`'s network where it is this variant's and fits, else the built-in one.
        if self.engine.set_network(self.chosen_network()).is_err() {
            let _ = self.engine.set_network(self.built_in());
        }
        Ok(())
    }

    /// The variant's built-in network, unless `Use NNUE` is off.
    fn built_in(&self) -> Option<Arc<Network>> {
        self.options.use_nnue.then(|| variants::embedded_network(self.engine.variant())).flatten()
    }

    /// The network the options choose for the variant played: `EvalFile`'s where it is this
    /// variant's, else the built-in one; none with `Use NNUE` off.
    fn chosen_network(&self) -> Option<Arc<Network>> {
        match &self.eval_file {
            Some((_, n)) if self.options.use_nnue && n.variant == self.engine.variant() => Some(Arc::clone(n)),
            _ => self.built_in(),
        }
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
            Command::SetOption { name, value } => {
                options::set_option(self, &name, value.as_deref()).map_err(String::from)
            }
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
}

impl Settings for Session {
    fn options(&mut self) -> &mut Options {
        &mut self.options
    }
    fn searching(&mut self) -> bool {
        self.engine.searching()
    }
    fn set_hash(&mut self, mib: usize) -> usize {
        self.options.hash_mib = mib;
        self.engine.set_hash(mib)
    }
    fn set_threads(&mut self, n: usize) {
        self.options.threads = n;
        self.engine.set_threads(n)
    }
    fn choose_variant(&mut self, name: &str) -> Result<(), VariantError> {
        Session::choose_variant(self, name)
    }
    fn set_eval_file(&mut self, path: &str) -> Result<(), String> {
        let before = self.eval_file.take();
        if path != options::EVAL_FILE_BUILT_IN {
            let bytes = match std::fs::metadata(path) {
                Ok(m) if m.len() > nnue::MAX_FILE_BYTES as u64 => {
                    Err(nnue::NetworkError::TooLarge(m.len() as usize).to_string())
                }
                _ => std::fs::read(path).map_err(|e| e.to_string()),
            };
            match bytes.and_then(|b| Network::from_bytes(&b).map_err(|e| e.to_string())) {
                Ok(n) => self.eval_file = Some((path.to_string(), Arc::new(n))),
                Err(e) => {
                    self.eval_file = before;
                    return Err(format!("'{}': {}", command::shown(path), e));
                }
            }
        }
        // A network of another variant cannot fail to apply: the variant played keeps its own.
        if let Some((_, n)) = &self.eval_file
            && n.variant != self.engine.variant()
        {
            self.send(Reply::Text(format!("EvalFile: a network for {}, used when {} is played", n.variant, n.variant)));
        }
        if let Err(e) = self.apply_network() {
            self.eval_file = before;
            return Err(e);
        }
        Ok(())
    }
    fn apply_network(&mut self) -> Result<(), String> {
        let net = self.chosen_network();
        self.engine.set_network(net)?;
        let said = match self.engine.network() {
            Some(n) => match &self.eval_file {
                Some((path, f)) if Arc::ptr_eq(f, n) => format!(
                    "network {} ({} inputs, {} wide) from {}",
                    n.variant,
                    n.features,
                    n.hidden,
                    // The whole path (a line of the engine's own, not an echo of bad input).
                    path.chars().map(|c| if c.is_control() { '?' } else { c }).collect::<String>()
                ),
                _ => format!("network {} ({} inputs, {} wide), built in", n.variant, n.features, n.hidden),
            },
            None => format!("{} evaluates with its own evaluation", self.engine.variant()),
        };
        self.send(Reply::Text(format!("evaluation: {}", said)));
        Ok(())
    }
    fn send(&self, r: Reply) {
        Session::send(self, r)
    }
}
