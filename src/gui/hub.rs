//! The server's shared state, and what keeps its promises: one lock under which a game or an
//! analysis is stopped and the next started, the pages listening for events, and the watchdog
//! that ends every engine once no page has listened for a while.

use super::api::State;
use super::http::Guard;
use super::table::Table;
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::game::Order;
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the server waits with no page listening before it stops the engines: long enough
/// for a page to reload.
pub const PAGE_GONE: Duration = Duration::from_secs(2);
/// A page that stopped listening is noticed within two of these: a comment is sent this often,
/// and the write after the page's connection closed fails.
const HEARTBEAT: Duration = Duration::from_millis(500);
/// How long a stopped game may take to end its engines (a search is called off, then each
/// engine has its grace before it is killed).
const GAME_ENDS: Duration = Duration::from_secs(5);
const ANALYSIS_ENDS: Duration = Duration::from_secs(3);

pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A request that panicked midway is answered as an error and its state is reset by
    // `Hub::recover`; the lock itself stays usable.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A thread that says when it has ended, so that it is waited for without polling.
pub struct Worker {
    thread: JoinHandle<()>,
    done: Receiver<()>,
}

impl Worker {
    pub fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> std::io::Result<Worker> {
        let (tx, done) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new().name(name.into()).spawn(move || {
            // Dropped when the thread ends, even by a panic: that is the signal.
            let _ended = tx;
            f()
        })?;
        Ok(Worker { thread, done })
    }

    /// Waits up to `limit` for the thread to end; true if it did (it is then joined).
    pub fn reap(self, limit: Duration) -> bool {
        match self.done.recv_timeout(limit) {
            Err(RecvTimeoutError::Disconnected) | Ok(()) => {
                let _ = self.thread.join();
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
        }
    }
}

/// Which pages listen, and since when none has.
struct Pages {
    open: usize,
    /// When the last page left (or the server started, or something started with no page).
    since: Instant,
    /// Something may be running that must end if no page comes back.
    armed: bool,
}

/// Proof that the caller holds the control lock: only under it is a game or an analysis
/// stopped or started.
pub struct Control<'a>(#[allow(dead_code)] MutexGuard<'a, ()>);

pub struct Hub {
    pub guard: Guard,
    /// This binary, for the engine `self`.
    pub me: String,
    /// The engines given on the command line.
    pub engines: Vec<EngineSpec>,
    /// Held from a stop to the start that follows it, so that two requests at once can never
    /// leave a game or an analysis running that the table no longer holds.
    control: Mutex<()>,
    pub table: Mutex<Table>,
    listeners: Mutex<Vec<Sender<String>>>,
    pages: Mutex<Pages>,
    pages_changed: Condvar,
}

/// The most pages listening at once; more are refused (a page reloads with one stream).
pub const MAX_PAGES: usize = 32;

/// One Server-Sent Event.
pub fn sse(event: &str, data: &impl Serialize) -> String {
    format!("event: {}\ndata: {}\n\n", event, serde_json::to_string(data).unwrap_or_else(|_| "null".into()))
}

impl Hub {
    pub fn new(guard: Guard, me: String, engines: Vec<EngineSpec>) -> Hub {
        Hub {
            guard,
            me,
            engines,
            control: Mutex::new(()),
            table: Mutex::new(Table::new()),
            listeners: Mutex::new(Vec::new()),
            pages: Mutex::new(Pages { open: 0, since: Instant::now(), armed: false }),
            pages_changed: Condvar::new(),
        }
    }

    pub fn control(&self) -> Control<'_> {
        Control(lock(&self.control))
    }

    pub fn state(&self) -> State {
        lock(&self.table).state(&self.engines)
    }

    pub fn broadcast(&self, message: String) {
        lock(&self.listeners).retain(|tx| tx.send(message.clone()).is_ok());
    }

    /// Tells every page the state now.
    pub fn broadcast_state(&self, t: &Table) {
        self.broadcast(sse("state", &t.state(&self.engines)));
    }

    /// Something started that holds engines: with no page listening, it ends after `PAGE_GONE`.
    pub fn arm(&self) {
        let mut p = lock(&self.pages);
        if p.open == 0 {
            p.since = Instant::now();
        }
        p.armed = true;
        self.pages_changed.notify_all();
    }

    /// Ends the game under way, if any, and waits (briefly) for its engines to quit. The table
    /// is not held meanwhile: the game's last events need it.
    pub fn stop_game(&self, _: &Control) {
        let referee = lock(&self.table).referee.take();
        if let Some(r) = referee {
            let _ = r.orders.send((Order::Abort, None));
            if !r.worker.reap(GAME_ENDS) {
                log::warn!("gui: the game did not end within {:?}", GAME_ENDS);
            }
        }
    }

    /// Ends the analysis, if any, likewise.
    pub fn stop_analysis(&self, _: &Control) {
        let analysis = lock(&self.table).analysis.take();
        if let Some(a) = analysis {
            a.stop.store(true, Ordering::SeqCst);
            if !a.worker.reap(ANALYSIS_ENDS) {
                log::warn!("gui: the analysis did not end within {:?}", ANALYSIS_ENDS);
            }
        }
    }

    /// After a request panicked: whatever it left half done, the game and the analysis are
    /// stopped and the table shows the game as it stood, over.
    pub fn recover(&self) {
        let c = self.control();
        self.stop_game(&c);
        self.stop_analysis(&c);
        let mut t = lock(&self.table);
        if t.status == super::table::Status::Running {
            t.status = super::table::Status::Over;
        }
        t.turn = None;
        self.broadcast_state(&t);
    }

    /// The event stream of one page: the state at once, then every change, and a comment every
    /// `HEARTBEAT`, whose write fails once the page has gone. Returns when it has.
    pub fn events(&self, req: tiny_http::Request) {
        use std::io::Write;
        let (tx, rx) = mpsc::channel::<String>();
        {
            let mut p = lock(&self.pages);
            if p.open >= MAX_PAGES {
                drop(p);
                return super::http::respond(
                    req,
                    super::http::Answer::error(429, format!("more than {} pages are open", MAX_PAGES)),
                );
            }
            p.open += 1;
            self.pages_changed.notify_all();
        }
        let first = sse("state", &self.state());
        lock(&self.listeners).push(tx);
        let mut w = req.into_writer();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
        let mut open = w.write_all(head.as_bytes()).and_then(|_| w.write_all(first.as_bytes())).and_then(|_| w.flush());
        while open.is_ok() {
            let msg = match rx.recv_timeout(HEARTBEAT) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
                Err(RecvTimeoutError::Disconnected) => break,
            };
            open = w.write_all(msg.as_bytes()).and_then(|_| w.flush());
        }
        drop(rx);
        let mut p = lock(&self.pages);
        p.open -= 1;
        if p.open == 0 {
            p.since = Instant::now();
            p.armed = true;
        }
        self.pages_changed.notify_all();
    }

    /// Stops the game and the analysis when no page has listened for `PAGE_GONE`: the page was
    /// closed. Waits on the pages' changes, never polls.
    pub fn watchdog(&self) {
        loop {
            {
                let mut p = lock(&self.pages);
                loop {
                    if p.open > 0 || !p.armed {
                        p = self.pages_changed.wait(p).unwrap_or_else(|e| e.into_inner());
                        continue;
                    }
                    let gone = p.since.elapsed();
                    if gone >= PAGE_GONE {
                        p.armed = false;
                        break;
                    }
                    p = self.pages_changed.wait_timeout(p, PAGE_GONE - gone).unwrap_or_else(|e| e.into_inner()).0;
                }
            }
            let busy = {
                let t = lock(&self.table);
                t.referee.is_some() || t.analysis.is_some()
            };
            if busy {
                log::info!("no page is open: stopping the game and the analysis");
                let c = self.control();
                // A page may have come back while the lock was awaited.
                if lock(&self.pages).open == 0 {
                    self.stop_game(&c);
                    self.stop_analysis(&c);
                }
            }
        }
    }
}
