//! `tetrarch gui`: its server spoken to over HTTP, and its page driven in headless Chromium
//! through WebDriver (Debian's `chromium` and `chromium-driver`, found by `common::peers`; the
//! browser tests are skipped with a line without them, unless `TETRARCH_REQUIRE_PEERS=1`).
//!
//! In the browser, a person's seat plays a whole game of every variant by clicking, against
//! tetrarch at depth 1: it picks a piece or a kind in hand, clicks one of the targets the page
//! highlights (or drags to it), and picks from the chooser where a click leaves several moves.
//! The moves the page offers must be the engine's `legalmoves`; every position the page showed
//! must be the engine's `d`; the saved record must replay in `tetrarch match --from-records`.
//! Between them the games enter a drop, a Dojo choice move, a whole Judtho Assembly, a Judtho
//! promotion on checkmate and a pass. The page's own timings (click to highlighted targets, a
//! person's move to its display) are printed.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod common;
use common::Engine;
use common::peers::{CHROMEDRIVER, CHROMIUM, peer};
use common::shown::{READ_POSITION, compare, engine_positions, parse_d, parse_shown};
use common::webdriver::{Browser, http, http_full};

const TETRARCH: &str = env!("CARGO_BIN_EXE_tetrarch");

/// The browser tests share the two cores one at a time, so that no clock or timing suffers.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// A `tetrarch gui` server.
struct Gui {
    child: Child,
    port: u16,
    token: String,
    url: String,
}

impl Gui {
    fn start(extra: &[&str]) -> Gui {
        Gui::start_logged(extra, None)
    }

    /// A server whose standard error (its log, and any panic's message) goes to `log`.
    fn start_logged(extra: &[&str], log: Option<&Path>) -> Gui {
        let stderr = match log {
            Some(p) => Stdio::from(std::fs::File::create(p).unwrap()),
            None => Stdio::null(),
        };
        // TETRARCH_GUI_BIN serves the page from another build (an older one, to see these tests
        // fail on the defects they guard against).
        let bin = std::env::var("TETRARCH_GUI_BIN").unwrap_or_else(|_| TETRARCH.to_string());
        let mut child = Command::new(bin)
            .arg("gui")
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("tetrarch gui starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        // The rest of its output is read and dropped, so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in out.lines() {});
        let url =
            line.trim().strip_prefix("tetrarch gui: open ").unwrap_or_else(|| panic!("no address: {line}")).to_string();
        let port = url.split(':').nth(2).unwrap().split('/').next().unwrap().parse().unwrap();
        let token = url.split("token=").nth(1).unwrap().to_string();
        Gui { child, port, token, url }
    }

    fn get(&self, path: &str) -> (u16, String) {
        let sep = if path.contains('?') { '&' } else { '?' };
        http(self.port, "GET", &format!("{path}{sep}token={}", self.token), &[], "").unwrap()
    }

    fn post_with(&self, path: &str, body: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        let (status, text) = http(self.port, "POST", path, headers, body).unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_with(
            path,
            &body.to_string(),
            &[("X-Tetrarch-Token", &self.token), ("Content-Type", "application/json")],
        )
    }

    fn state(&self) -> Value {
        serde_json::from_str(&self.get("/api/state").1).unwrap()
    }

    /// Keeps an event stream open, as a page does (without one the server stops its engines).
    fn listen(&self) -> std::sync::mpsc::Receiver<Value> {
        let (tx, rx) = std::sync::mpsc::channel();
        let (port, token) = (self.port, self.token.clone());
        std::thread::spawn(move || {
            use std::io::Write;
            let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else { return };
            let _ = write!(s, "GET /events?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
            let mut event = String::new();
            for line in BufReader::new(s).lines() {
                let Ok(line) = line else { return };
                if let Some(e) = line.strip_prefix("event: ") {
                    event = e.to_string();
                } else if let Some(d) = line.strip_prefix("data: ")
                    && event == "state"
                    && tx.send(serde_json::from_str(d).unwrap_or(Value::Null)).is_err()
                {
                    return;
                }
            }
        });
        rx
    }

    /// An event stream, as a page holds one, that the test can close as a page closes.
    fn page(&self) -> Listener {
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut w = stream.try_clone().unwrap();
        use std::io::Write;
        write!(w, "GET /events?token={} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", self.token, self.port).unwrap();
        let reader = stream.try_clone().unwrap();
        // Read and dropped, as a page reads its events.
        std::thread::spawn(move || for _ in BufReader::new(reader).lines().map_while(Result::ok) {});
        Listener(stream)
    }

    /// Waits until the state satisfies `done`; that state.
    fn wait_state(&self, what: &str, limit: Duration, done: &dyn Fn(&Value) -> bool) -> Value {
        let t = Instant::now();
        loop {
            let st = self.state();
            if done(&st) {
                return st;
            }
            assert!(t.elapsed() < limit, "{what}: {st}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The processes this server started that are alive (not zombies).
    fn children(&self) -> Vec<u32> {
        children_of(self.child.id())
    }

    /// Ctrl-C; true once it has exited.
    fn interrupt(&mut self) -> bool {
        let _ = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

/// A page's event stream; closed when dropped, as when the page closes.
struct Listener(std::net::TcpStream);

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.0.shutdown(std::net::Shutdown::Both);
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The live (not zombie) processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else { continue };
        // The command may hold blanks: the fields after its closing parenthesis.
        let rest: Vec<&str> = stat.rsplit_once(')').map(|r| r.1).unwrap_or("").split_whitespace().collect();
        if rest.get(1).and_then(|pp| pp.parse::<u32>().ok()) == Some(pid) && rest.first() != Some(&"Z") {
            out.push(p);
        }
    }
    out
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.rsplit_once(')').map(|r| r.1.split_whitespace().next() != Some("Z")).unwrap_or(false))
        .unwrap_or(false)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrarch-gui-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The saved record of the game at the table replays to the same game in `tetrarch match
/// --from-records`.
fn record_replays(gui: &Gui, moves: &[String], name: &str) -> String {
    let (status, text) = gui.get("/api/record");
    assert_eq!(status, 200, "{text}");
    let games = tetrarch::arbiter::record::parse_pgn(&text).unwrap();
    assert_eq!(games.len(), 1, "{text}");
    assert_eq!(&games[0].moves, moves, "the record holds the game's moves");
    let file = scratch(name).join("game.pgn");
    std::fs::write(&file, &text).unwrap();
    let out = Command::new(TETRARCH).args(["match", "--from-records"]).arg(&file).output().unwrap();
    assert!(
        out.status.success(),
        "--from-records refused the record: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn requests_without_the_token_or_from_elsewhere_are_refused_and_bad_ones_change_nothing() {
    let _one = serial();
    let gui = Gui::start(&[]);
    let _events = gui.listen();
    // The page itself: with the token only, self-contained.
    let (status, _) = http(gui.port, "GET", "/", &[], "").unwrap();
    assert_eq!(status, 403);
    let (status, _) = http(gui.port, "GET", "/?token=0123456789abcdef0123456789abcdef", &[], "").unwrap();
    assert_eq!(status, 403);
    let (status, head, page) = http_full(gui.port, "GET", &format!("/?token={}", gui.token), &[], "").unwrap();
    assert_eq!(status, 200);
    for bad in ["src=", "<link", "url(", "@import", "<iframe", "https:"] {
        assert!(!page.contains(bad), "the page holds {bad}");
    }
    // The policy comes as a header, where `frame-ancestors` counts; a <meta> would ignore it
    // and the browser would say so in its console.
    let policy = head.lines().find_map(|l| l.strip_prefix("Content-Security-Policy: ")).expect("a policy header");
    assert!(policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(!page.contains("Content-Security-Policy"), "no policy in a <meta>");
    let new = json!({"variant": "judkins", "players": [{"who": "human", "time": "none"}, {"who": "engine", "engine": "self", "time": "depth 1"}]});
    // A change without the token, with a wrong one, from another origin, for another host.
    let body = new.to_string();
    for headers in [
        vec![],
        vec![("X-Tetrarch-Token", "nope")],
        vec![("X-Tetrarch-Token", gui.token.as_str()), ("Origin", "http://example.com")],
        vec![("X-Tetrarch-Token", gui.token.as_str()), ("Host", "example.com")],
    ] {
        let (status, v) = gui.post_with("/api/new", &body, &headers);
        assert_eq!(status, 403, "{headers:?}: {v}");
        assert!(v["error"].as_str().unwrap().starts_with("refused"), "{v}");
    }
    // The token in the address is not enough for a change: it must be the page's header.
    let (status, _) = http(gui.port, "POST", &format!("/api/new?token={}", gui.token), &[], &body).unwrap();
    assert_eq!(status, 403);
    assert_eq!(gui.state()["status"], "idle", "nothing started");
    // A game, then malformed and illegal requests: each a 4xx with its reason, nothing changed.
    let (status, v) = gui.post("/api/new", &new);
    assert_eq!(status, 200, "{v}");
    let before = Instant::now();
    let st = loop {
        let st = gui.state();
        if st["person"] == 0 {
            break st;
        }
        assert!(before.elapsed() < Duration::from_secs(10), "{st}");
        std::thread::sleep(Duration::from_millis(20));
    };
    for (path, body, code) in [
        ("/api/move", "{not json", 400),
        ("/api/move", "[1,2]", 400),
        ("/api/move", r#"{"move": "6e6e"}"#, 409),
        ("/api/move", r#"{"move": "P*5c"}"#, 409),
        ("/api/move", r#"{"move": 7}"#, 400),
        ("/api/move", r#"{"move": "6e6d", "player": 1}"#, 400),
        ("/api/move", r#"{"move": "6e6d", "player": 99}"#, 400),
        ("/api/resign", r#"{"player": 1}"#, 400),
        ("/api/new", r#"{"variant": "nosuchgame", "players": []}"#, 400),
        ("/api/new", r#"{"variant": "dojo", "players": [{"who": "human"}]}"#, 400),
        (
            "/api/new",
            r#"{"variant": "dojo", "players": [{"who": "human"}, {"who": "engine", "engine": "rm -rf /"}]}"#,
            400,
        ),
        ("/api/new", r#"{"variant": "dojo", "players": [{"who": "human", "time": "depth 3"}, {"who": "human"}]}"#, 400),
        (
            "/api/new",
            r#"{"variant": "dojo", "start": "startpos moves e2e5", "players": [{"who": "human"}, {"who": "human"}]}"#,
            400,
        ),
        ("/api/load", r#"{"text": "[Variant \"judkins\"]\n\n1. 9z9z *\n"}"#, 400),
        ("/api/analyse", r#"{"ply": 99}"#, 400),
        ("/api/nothing", "{}", 404),
    ] {
        let (status, v) = gui.post_with(path, body, &[("X-Tetrarch-Token", &gui.token)]);
        assert_eq!(status, code, "{path} {body}: {v}");
        assert!(v["error"].is_string(), "{path} {body}: {v}");
        let now = gui.state();
        for key in ["status", "moves", "person", "generation", "legal"] {
            assert_eq!(now[key], st[key], "{path} {body} changed {key}");
        }
    }
    let (status, _) = http(gui.port, "DELETE", "/api/state", &[("X-Tetrarch-Token", &gui.token)], "").unwrap();
    assert_eq!(status, 405);
    // A clocked game refuses a take-back; one without clocks takes back to the person's move.
    let (status, v) = gui.post("/api/move", &json!({"move": "6e6d"}));
    assert_eq!(status, 200, "{v}");
    let t = Instant::now();
    while gui.state()["moves"].as_array().unwrap().len() < 2 {
        assert!(t.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, v) = gui.post("/api/takeback", &json!({}));
    assert_eq!(status, 200, "{v}");
    let t = Instant::now();
    while !gui.state()["moves"].as_array().unwrap().is_empty() || gui.state()["person"] != 0 {
        assert!(t.elapsed() < Duration::from_secs(10), "{}", gui.state());
        std::thread::sleep(Duration::from_millis(20));
    }
    // The record of a game in progress is saved unterminated, and reads back.
    let text = record_replays(&gui, &[], "unterminated");
    assert!(text.contains("[Result \"*\"]") && text.contains("[Termination \"unterminated\"]"), "{text}");
    let clocked = json!({"variant": "judkins", "players": [{"who": "human", "time": "300+5"}, {"who": "engine", "time": "depth 1"}]});
    assert_eq!(gui.post("/api/new", &clocked).0, 200);
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = gui.post("/api/takeback", &json!({"player": 0}));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("without clocks"), "{v}");
    // Resigning ends the game as a match's resignation does.
    let (status, v) = gui.post("/api/resign", &json!({"player": 0}));
    assert_eq!(status, 200, "{v}");
    let t = Instant::now();
    while gui.state()["status"] != "over" {
        assert!(t.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(20));
    }
    let st = gui.state();
    assert_eq!(st["result"]["result"], "0-1", "{st}");
    assert_eq!(st["result"]["termination"], "resignation", "{st}");
}

/// Seats as engines: four-engine Judtho games refereed by the GUI's referee at 1+0.1, two
/// servers at once, with no loss on time, no forfeit and records that replay.
/// A person's orders while the engine thinks: the engine is called off for a take-back or a
/// resignation, and a move out of turn is refused without stopping it.
#[test]
fn orders_while_the_engine_thinks() {
    let _one = serial();
    let gui = Gui::start(&[]);
    let _events = gui.listen();
    let wait_for = |what: &str, done: &dyn Fn(&Value) -> bool| {
        let t = Instant::now();
        loop {
            let st = gui.state();
            if done(&st) {
                return st;
            }
            assert!(t.elapsed() < Duration::from_secs(10), "{what}: {st}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let moves = |st: &Value| st["moves"].as_array().map_or(0, Vec::len);
    // An engine that would think for a minute.
    let new = json!({"variant": "judkins", "players": [{"who": "human", "time": "none"}, {"who": "engine", "engine": "self", "time": "movetime 60000"}]});
    assert_eq!(gui.post("/api/new", &new).0, 200);
    wait_for("the person's turn", &|st| st["person"] == 0);
    let (status, v) = gui.post("/api/move", &json!({"move": "6e6d"}));
    assert_eq!(status, 200, "{v}");
    wait_for("the engine's turn", &|st| moves(st) == 1 && st["person"] != 0);
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = gui.post("/api/move", &json!({"move": "5e5d", "player": 0}));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("turn"), "{v}");
    let st = gui.state();
    assert_eq!((moves(&st), &st["status"]), (1, &json!("running")), "a refused move changes nothing: {st}");
    // A take-back stops the engine and gives the person the turn again, well before its minute.
    let t = Instant::now();
    let (status, v) = gui.post("/api/takeback", &json!({"player": 0}));
    assert_eq!(status, 200, "{v}");
    wait_for("the take-back", &|st| moves(st) == 0 && st["person"] == 0);
    assert!(t.elapsed() < Duration::from_secs(10));
    // The game goes on; a resignation while the engine thinks ends it.
    let (status, v) = gui.post("/api/move", &json!({"move": "6e6d"}));
    assert_eq!(status, 200, "{v}");
    wait_for("the engine's turn again", &|st| moves(st) == 1 && st["person"] != 0);
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = gui.post("/api/resign", &json!({"player": 0}));
    assert_eq!(status, 200, "{v}");
    let st = wait_for("the end", &|st| st["status"] == "over");
    assert_eq!(st["result"]["result"], "0-1", "{st}");
    assert_eq!(st["result"]["termination"], "resignation", "{st}");
    assert_eq!(moves(&st), 1, "{st}");
}

#[test]
fn four_engines_play_judtho_through_the_gui() {
    let games: usize = std::env::var("TETRARCH_GUI_ENGINE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let _one = serial();
    let started = Instant::now();
    let halves: Vec<usize> = vec![games.div_ceil(2), games / 2];
    let results: Vec<Vec<(String, String, usize)>> = std::thread::scope(|s| {
        let handles: Vec<_> = halves
            .iter()
            .enumerate()
            .map(|(k, &n)| {
                s.spawn(move || {
                    let gui = Gui::start(&[]);
                    let events = gui.listen();
                    let mut out = Vec::new();
                    for g in 0..n {
                        let engine = json!({"who": "engine", "engine": "self", "time": "1+0.1"});
                        let (status, v) = gui.post(
                            "/api/new",
                            &json!({"variant": "judtho", "players": [engine, engine, engine, engine]}),
                        );
                        assert_eq!(status, 200, "{v}");
                        let generation = gui.state()["generation"].clone();
                        let end = loop {
                            let st = events.recv_timeout(Duration::from_secs(300)).expect("the game goes on");
                            if st["generation"] == generation && st["status"] == "over" {
                                break st;
                            }
                        };
                        let moves: Vec<String> =
                            end["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
                        record_replays(&gui, &moves, &format!("engines-{k}-{g}"));
                        out.push((
                            end["result"]["termination"].as_str().unwrap().to_string(),
                            end["result"]["detail"].as_str().unwrap().to_string(),
                            moves.len(),
                        ));
                    }
                    assert!(gui.children().is_empty(), "engines left after the games: {:?}", gui.children());
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let all: Vec<&(String, String, usize)> = results.iter().flatten().collect();
    assert_eq!(all.len(), games);
    for (termination, detail, plies) in &all {
        assert!(
            ["checkmate", "repetition", "stalemate", "move-limit", "adjudication", "perpetual-check"]
                .contains(&termination.as_str()),
            "a game ended by {termination} ({detail}) after {plies} plies"
        );
    }
    let mut by: std::collections::BTreeMap<&str, usize> = Default::default();
    for (t, _, _) in &all {
        *by.entry(t.as_str()).or_default() += 1;
    }
    let plies: usize = all.iter().map(|g| g.2).sum();
    eprintln!(
        "{games} four-engine Judtho games through the GUI at 1+0.1 in {:.0} s: {by:?}, {} plies on average, no forfeit",
        started.elapsed().as_secs_f64(),
        plies / games.max(1)
    );
}

/// The page in a browser, for one test.
struct Page {
    gui: Gui,
    b: Browser,
    /// Every timing the page measured, over its games.
    select: Vec<f64>,
    display: Vec<f64>,
}

fn browser() -> Option<(PathBuf, PathBuf)> {
    Some((peer(&CHROMEDRIVER)?, peer(&CHROMIUM)?))
}

/// A small deterministic generator for the person's choices.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// What a person entered, by kind.
#[derive(Default, Debug)]
struct Entered {
    /// Moves from a hand: Judkins's drops and Judtho's placements.
    drops: usize,
    passes: usize,
    /// The moves picked in the chooser.
    chooser: Vec<String>,
    drags: usize,
}

impl Page {
    fn open(drivers: &(PathBuf, PathBuf), width: u32, height: u32) -> Page {
        let gui = Gui::start(&[]);
        let b = Browser::start(&drivers.0, &drivers.1, width, height);
        b.goto(&gui.url);
        b.wait("return typeof S !== 'undefined' && S !== null", Duration::from_secs(20), "the page's first state");
        Page { gui, b, select: Vec::new(), display: Vec::new() }
    }

    /// Starts a game through the New game dialog: each player a person or tetrarch at a level.
    fn new_game(&self, variant: &str, players: &[(&str, &str)], start: &str, max_plies: usize) {
        self.b.run("if (!document.getElementById('newgame').open) document.getElementById('new').click();", json!([]));
        self.b.wait("return document.getElementById('newgame').open", Duration::from_secs(5), "the dialog");
        let generation = self.b.run("return S.generation", json!([]));
        self.b.run(
            "const [variant, players, start, max] = arguments;
             const v = document.getElementById('ng-variant'); v.value = variant; v.dispatchEvent(new Event('change'));
             document.getElementById('ng-start').value = start;
             document.getElementById('ng-max').value = max;
             const rows = [...document.querySelectorAll('#ng-players .player')];
             if (rows.length !== players.length) throw new Error(rows.length + ' players in the dialog');
             rows.forEach((r, i) => {
               const who = r.querySelector('.who'); who.value = players[i][0]; who.dispatchEvent(new Event('change'));
               r.querySelector('.time').value = players[i][1];
             });",
            json!([variant, players.iter().map(|p| json!([p.0, p.1])).collect::<Vec<_>>(), start, max_plies]),
        );
        self.b.click("#ng-start-game");
        self.b.wait(
            &format!("return S.generation !== {generation} && !document.getElementById('newgame').open"),
            Duration::from_secs(20),
            "the new game",
        );
        assert_eq!(self.b.run("return document.getElementById('ng-error').textContent", json!([])), "");
    }

    /// The page's state once it is up to date: the game over, or a person to move with the
    /// board drawn for the position now, after more than `after` moves.
    fn settled(&self, after: i64) -> Value {
        self.b.wait(
            &format!(
                "if (queued !== null || !S || !S.variant) return null;
                 const drawn = drawnKey.startsWith(S.generation + ':' + S.moves.length + ':');
                 const ready = S.status !== 'running' || (S.person !== null && S.moves.length > {after} && drawn && follow);
                 return ready ? {{status: S.status, person: S.person, moves: S.moves, legal: S.legal, start: S.start, result: S.result, generation: S.generation}} : null;"
            ),
            Duration::from_secs(120),
            "the person's turn or the end",
        )
    }

    /// Enters `m` (a legal move of the state) with the mouse; checks the targets and the
    /// chooser the page offers on the way.
    fn enter(&self, st: &Value, m: &Value, rng: &mut Rng, entered: &mut Entered) {
        let legal = st["legal"].as_array().unwrap();
        let text = m["text"].as_str().unwrap();
        let from = &m["from"];
        if from.is_null() {
            self.b.click("#pass");
            entered.passes += 1;
        } else {
            let (origin, key) = match from["square"].as_str() {
                Some(sq) => (format!("#board [data-cell='{sq}']"), json!({"square": sq})),
                None => {
                    entered.drops += 1;
                    (
                        format!(
                            "#panel .inhand[data-seat='{}'][data-kind='{}']",
                            from["seat"].as_str().unwrap(),
                            from["kind"].as_str().unwrap()
                        ),
                        from.clone(),
                    )
                }
            };
            let same_origin: Vec<&Value> = legal.iter().filter(|l| l["from"] == key).collect();
            let mut expect: Vec<String> = same_origin
                .iter()
                .flat_map(|l| l["to"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()))
                .collect();
            expect.sort();
            expect.dedup();
            let to = m["to"].as_array().unwrap();
            let target = to[rng.below(to.len())].as_str().unwrap().to_string();
            let drag = rng.below(4) == 0 && from["square"].is_string();
            // The board and the hands fit the window: seen from the top, both ends of the move
            // are in view at once.
            self.b.run("window.scrollTo(0, 0)", json!([]));
            let at = self.b.centre(&origin).unwrap_or_else(|| panic!("no {origin}"));
            let dest = self.b.centre(&format!("#board [data-cell='{target}']")).unwrap();
            if drag {
                // Press on the piece, and see its targets before letting go.
                self.b.pointer(&[at, ((at.0 + dest.0) / 2.0, (at.1 + dest.1) / 2.0), dest]);
                entered.drags += 1;
            } else {
                self.b.click_at(at.0, at.1);
                let mut shown: Vec<String> = serde_json::from_value(self.b.run(
                    "return [...document.querySelectorAll('#board [data-hl=target]')].map((e) => e.dataset.sq)",
                    json!([]),
                ))
                .unwrap();
                shown.sort();
                shown.dedup();
                assert_eq!(shown, expect, "the targets of {origin} (for {text})");
                self.b.click_at(dest.0, dest.1);
            }
            let sharing: Vec<String> = same_origin
                .iter()
                .filter(|l| l["to"].as_array().unwrap().iter().any(|t| t == target.as_str()))
                .map(|l| l["text"].as_str().unwrap().to_string())
                .collect();
            if sharing.len() > 1 {
                let t = Instant::now();
                let listed = loop {
                    let v = self.b.run(
                        "return !document.getElementById('chooser').hidden && [...document.querySelectorAll('#chooser-list button')].map((b) => b.dataset.move)",
                        json!([]),
                    );
                    if v.is_array() {
                        break v;
                    }
                    let why = self.b.run(
                        "return [selected, document.getElementById('message').textContent, S.moves.length, downAt]",
                        json!([]),
                    );
                    assert!(
                        t.elapsed() < Duration::from_secs(5),
                        "no chooser for {text} (drag {drag}, target {target}): {why}"
                    );
                    std::thread::sleep(Duration::from_millis(20));
                };
                let mut offered: Vec<String> = serde_json::from_value(listed).unwrap();
                offered.sort();
                let mut want = sharing.clone();
                want.sort();
                assert_eq!(offered, want, "the chooser for {target} lists exactly the moves that share the click");
                self.b.click(&format!("#chooser-list button[data-move='{text}']"));
                entered.chooser.push(text.to_string());
            }
        }
    }

    /// A person plays the seats of `player` by clicking until the game ends; `prefer` picks
    /// among the legal moves. Returns the game's moves and start, and checks every position the
    /// page showed against `d` and the moves it offered against `legalmoves`.
    fn play(
        &mut self,
        variant: &str,
        seed: u64,
        prefer: &dyn Fn(&Value, &Value) -> bool,
        entered: &mut Entered,
    ) -> (Vec<String>, Option<String>) {
        let mut rng = Rng(seed | 1);
        let mut checker = Engine::start();
        checker.handshake();
        checker.ask(&format!("setoption name USI_Variant value {variant}"));
        let keyword = if variant == "judkins" { "sfen" } else { "fen" };
        let mut after = -1i64;
        loop {
            let mut st = self.settled(after);
            if st["status"] != "running" {
                let moves: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
                self.check_every_ply(variant, st["start"].as_str(), &moves);
                return (moves, st["start"].as_str().map(String::from));
            }
            let moves: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
            after = moves.len() as i64;
            // The page offers exactly the engine's legal moves.
            let head = match st["start"].as_str() {
                Some(p) => format!("position {keyword} {p}"),
                None => "position startpos".into(),
            };
            let cmd = if moves.is_empty() { head } else { format!("{head} moves {}", moves.join(" ")) };
            assert!(checker.ask(&cmd).is_empty());
            let mut engine: Vec<String> =
                checker.ask("legalmoves")[0].split_whitespace().skip(1).map(String::from).collect();
            // What stands where, for a preference for captures.
            st["occupied"] = self.b.run(
                "return [...document.querySelectorAll('#board .position .man')].map((e) => e.dataset.sq)",
                json!([]),
            );
            let legal = st["legal"].as_array().unwrap();
            let mut offered: Vec<String> = legal.iter().map(|m| m["text"].as_str().unwrap().to_string()).collect();
            engine.sort();
            offered.sort();
            assert_eq!(offered, engine, "{variant} after {moves:?}: the page offers the legal moves");
            let preferred: Vec<&Value> = legal.iter().filter(|m| prefer(&st, m)).collect();
            let pool: Vec<&Value> = if preferred.is_empty() { legal.iter().collect() } else { preferred };
            let m = pool[rng.below(pool.len())];
            self.check_now(variant, &moves, &mut checker);
            self.enter(&st, m, &mut rng, entered);
        }
    }

    /// The board the page shows now equals `d` of `checker`, which holds the same position.
    fn check_now(&self, variant: &str, moves: &[String], checker: &mut Engine) {
        let shown = parse_shown(&self.read("now"));
        checker.send("d");
        let lines = checker.until(Duration::from_secs(10), |l| l.starts_with("outcome "));
        compare(variant, moves.len(), moves, &shown, &parse_d(variant, &lines));
    }

    fn read(&self, how: &str) -> String {
        self.b
            .run(
                &format!(
                    "{READ_POSITION}
                     return readPosition(document.querySelector('main'), arguments[0], shown, document.getElementById('caption').textContent);"
                ),
                json!([how]),
            )
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Steps through the whole game with the page's controls, from the start: every position
    /// equals `d`. A click on a past move shows it without changing the game.
    fn check_every_ply(&self, variant: &str, start: Option<&str>, moves: &[String]) {
        let engine = engine_positions(variant, start, moves);
        self.b.click("#first");
        for (k, d) in engine.iter().enumerate() {
            if k > 0 {
                self.b.click("#next");
            }
            self.b.wait(
                &format!("return shown === {k} && drawnKey.split(':')[1] === '{k}'"),
                Duration::from_secs(10),
                "the ply",
            );
            let shown = parse_shown(&self.read("step"));
            compare(variant, k, moves, &shown, d);
        }
        let middle = moves.len() / 2;
        self.b.click(&format!("#moves .mv[data-ply='{middle}']"));
        self.b.wait(
            &format!("return shown === {middle} && drawnKey.split(':')[1] === '{middle}'"),
            Duration::from_secs(10),
            "a past move",
        );
        compare(variant, middle, moves, &parse_shown(&self.read("click")), &engine[middle]);
        assert_eq!(self.b.run("return S.moves.length", json!([])), moves.len(), "looking back changes nothing");
    }

    fn collect_timings(&mut self) {
        let t = self.b.run("const t = window.tetrarchTimings; const v = [t.select, t.display]; t.select = []; t.display = []; return v;", json!([]));
        self.select.extend(t[0].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()));
        self.display.extend(t[1].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()));
        // Not a line in the console: no script error, no policy warning, no failed load.
        let said = self.b.console();
        assert!(said.is_empty(), "the console: {said:?}");
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

/// Every variant, from its start, a person against tetrarch at depth 1; and the prepared
/// positions for a Dojo choice, a Double Mate pass and a Judtho promotion on checkmate.
#[test]
fn a_person_plays_every_variant_by_clicking() {
    let Some(drivers) = browser() else { return };
    let _one = serial();
    let mut p = Page::open(&drivers, 1280, 900);
    let mut entered = Entered::default();
    let depth1 = ("self", "depth 1");
    let anything = |_: &Value, _: &Value| false;

    // Judkins: sente by clicking; a drop whenever one is legal, else a capture, to have a
    // piece in hand.
    p.new_game("judkins", &[("human", "none"), depth1], "", 400);
    let drops = |st: &Value, m: &Value| {
        let takes = m["to"].as_array().unwrap().iter().any(|t| st["occupied"].as_array().unwrap().contains(t));
        m["from"]["kind"].is_string()
            || (takes && !st["legal"].as_array().unwrap().iter().any(|l| l["from"]["kind"].is_string()))
    };
    let (moves, _) = p.play("judkins", 1, &drops, &mut entered);
    assert!(entered.drops > 0, "a drop by clicking: {moves:?}");
    record_replays(&p.gui, &moves, "judkins");
    p.collect_timings();

    // Dojo: from the start, then a choice move (D6, `b7b8/c5`) from the spec's position.
    p.new_game("dojo", &[("human", "none"), depth1], "", 300);
    let (moves, _) = p.play("dojo", 2, &anything, &mut entered);
    record_replays(&p.gui, &moves, "dojo");
    p.new_game("dojo", &[("human", "none"), depth1], "fen 4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - -", 300);
    let choice = |_: &Value, m: &Value| m["text"] == "b7b8/c5";
    let before = entered.chooser.len();
    let (moves, _) = p.play_until_choice("dojo", &choice, &mut entered);
    assert_eq!(entered.chooser[before..], ["b7b8/c5".to_string()], "the Dojo choice came through the chooser");
    let _ = moves;
    // Resigning takes two clicks; the game ends as a match's resignation does.
    p.b.click("#resign");
    p.b.click("#resign");
    let end = p.settled(i64::MAX);
    assert_eq!(end["result"]["termination"], "resignation", "{end}");
    let moves: Vec<String> = serde_json::from_value(end["moves"].clone()).unwrap();
    record_replays(&p.gui, &moves, "dojo-choice");
    p.collect_timings();

    // Double Mate: Black (with Green) mated must pass; then on to the end.
    p.new_game("chaturanga", &[depth1, ("human", "none")], "fen bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1", 400);
    let passes = entered.passes;
    let (moves, _) = p.play("chaturanga", 3, &anything, &mut entered);
    assert!(entered.passes > passes && moves.first().map(String::as_str) == Some("pass"), "a pass: {moves:?}");
    record_replays(&p.gui, &moves, "chaturanga");
    p.collect_timings();

    // All against all: Green, with the board turned to Green's side.
    p.new_game("chaturanga-ffa", &[depth1, depth1, depth1, ("human", "none")], "", 400);
    assert_eq!(p.b.run("return turns()", json!([])), 1, "the board is turned to Green");
    let (moves, _) = p.play("chaturanga-ffa", 4, &anything, &mut entered);
    record_replays(&p.gui, &moves, "chaturanga-ffa");
    p.collect_timings();

    // Judtho: White through the whole Assembly and the Battles.
    p.new_game("judtho", &[("human", "none"), depth1, depth1, depth1], "", 500);
    let placed = entered.drops;
    let (moves, _) = p.play("judtho", 5, &anything, &mut entered);
    assert!(moves.len() > 48 && moves[..48].iter().all(|m| m.contains('*')), "the whole Assembly: {moves:?}");
    assert_eq!(entered.drops - placed, 12, "White placed its twelve pieces by clicking");
    record_replays(&p.gui, &moves, "judtho");
    p.collect_timings();

    // Judtho: a checkmate that promotes, its square picked in the chooser; an allied player
    // may not resign (T11).
    let mate = "fen rK10bK/rPrP10/2rP9/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:C,y:S,b:S - wryb 0 100";
    p.new_game("judtho", &[("human", "none"), depth1, depth1, depth1], mate, 500);
    let promotes = |_: &Value, m: &Value| m["text"].as_str().is_some_and(|t| t.starts_with("h6h12/"));
    let before = entered.chooser.len();
    p.play_until_choice("judtho", &promotes, &mut entered);
    let chosen = &entered.chooser[before..];
    assert!(chosen.len() == 1 && chosen[0].starts_with("h6h12/"), "a promotion square from the chooser: {chosen:?}");
    let (status, v) = p.gui.post("/api/resign", &json!({"player": 0}));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("T11"), "{v}");
    let (moves, _) = p.play("judtho", 6, &anything, &mut entered);
    record_replays(&p.gui, &moves, "judtho-mate");
    p.collect_timings();

    eprintln!(
        "entered by clicking: {} drops and placements, {} passes, {} drags, chooser moves {:?}",
        entered.drops, entered.passes, entered.drags, entered.chooser
    );
    let (select, display) = (median(&p.select), median(&p.display));
    eprintln!(
        "page timings, medians over {} clicks and {} moves: click to highlighted targets {select:.1} ms, move to its display {display:.1} ms",
        p.select.len(),
        p.display.len()
    );
    // Printed, not asserted: a test holds correctness, and these figures are the machine's. How
    // many there are follows the games' lengths, which follow the engines' play (94 clicks and
    // 97 moves once Dojo's network was built in, over 100 before): the page timed most of them.
    assert!(p.select.len() > 50 && p.display.len() > 50, "the page measured its clicks and moves");
}

impl Page {
    /// Plays the person's moves by clicking until one that `want` picks has been entered.
    fn play_until_choice(
        &mut self,
        variant: &str,
        want: &dyn Fn(&Value, &Value) -> bool,
        entered: &mut Entered,
    ) -> (Vec<String>, Option<String>) {
        let mut rng = Rng(7);
        let st = self.settled(-1);
        let legal = st["legal"].as_array().unwrap();
        let m = legal.iter().find(|m| want(&st, m)).unwrap_or_else(|| panic!("{variant}: no such move in {legal:?}"));
        let moves: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
        let mut checker = Engine::start();
        checker.handshake();
        checker.ask(&format!("setoption name USI_Variant value {variant}"));
        let keyword = if variant == "judkins" { "sfen" } else { "fen" };
        let head = match st["start"].as_str() {
            Some(p) => format!("position {keyword} {p}"),
            None => "position startpos".into(),
        };
        let cmd = if moves.is_empty() { head } else { format!("{head} moves {}", moves.join(" ")) };
        assert!(checker.ask(&cmd).is_empty());
        self.check_now(variant, &moves, &mut checker);
        self.enter(&st, m, &mut rng, entered);
        let after = moves.len() as i64;
        self.b.wait(&format!("return S.moves.length > {after}"), Duration::from_secs(20), "the move");
        (moves, st["start"].as_str().map(String::from))
    }
}

/// When the page closes, the engines it had started end; and Ctrl-C ends the server and every
/// engine.
#[test]
fn closing_the_page_or_ctrl_c_leaves_no_engine_running() {
    let Some(drivers) = browser() else { return };
    let _one = serial();
    let mut p = Page::open(&drivers, 1000, 800);
    let slow = ("self", "60+1");
    p.new_game("judtho", &[slow, slow, slow, slow], "", 1000);
    let t = Instant::now();
    while p.gui.children().len() < 4 {
        assert!(t.elapsed() < Duration::from_secs(20), "four engines start: {:?}", p.gui.children());
        std::thread::sleep(Duration::from_millis(50));
    }
    let engines = p.gui.children();
    // An analysis engine too.
    p.b.click("#analyse");
    let t = Instant::now();
    while p.gui.children().len() < 5 {
        assert!(t.elapsed() < Duration::from_secs(20), "the analysis engine starts");
        std::thread::sleep(Duration::from_millis(50));
    }
    p.b.goto("about:blank");
    let t = Instant::now();
    while !p.gui.children().is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "engines still running after the page closed: {:?}",
            p.gui.children()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(engines.iter().all(|&e| !alive(e)));
    eprintln!("page closed: its {} engines ended after {:.1} s", engines.len() + 1, t.elapsed().as_secs_f64());
    // Ctrl-C during a game: the server exits and leaves no engine behind.
    p.b.goto(&p.gui.url);
    p.b.wait("return typeof S !== 'undefined' && S !== null", Duration::from_secs(20), "the page again");
    p.new_game("dojo", &[slow, slow], "", 1000);
    let t = Instant::now();
    while p.gui.children().len() < 2 {
        assert!(t.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(50));
    }
    let engines = p.gui.children();
    assert!(p.gui.interrupt(), "the server ends on Ctrl-C");
    let t = Instant::now();
    while engines.iter().any(|&e| alive(e)) {
        assert!(t.elapsed() < Duration::from_secs(5), "engines survived Ctrl-C");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Loads a record and a position, looks through them, saves, and plays on from a past ply;
/// the analysis thinks on the position shown. And the pictures for the README, in a wide and a
/// narrow window.
#[test]
fn load_look_back_play_on_analyse_and_pictures() {
    let Some(drivers) = browser() else { return };
    let _one = serial();
    let mut p = Page::open(&drivers, 1280, 900);
    // A record of tetrarch match, loaded and saved unchanged, and played on from its ply 4.
    let dir = scratch("load");
    let out = Command::new(TETRARCH)
        .args([
            "match",
            "--variant",
            "dojo",
            "--engine",
            "self",
            "--engine",
            "self",
            "--depth",
            "1",
            "--games",
            "1",
            "--max-plies",
            "12",
            "--quiet",
            "--pgn",
        ])
        .arg(dir.join("m.pgn"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let record = std::fs::read_to_string(dir.join("m.pgn")).unwrap();
    let (status, v) = p.gui.post("/api/load", &json!({"text": record}));
    assert_eq!(status, 200, "{v}");
    p.b.wait("return S.status === 'review' && S.moves.length === 12", Duration::from_secs(10), "the loaded record");
    assert_eq!(p.gui.get("/api/record").1.trim(), record.trim(), "a loaded record is saved as it was");
    p.b.click("#moves .mv[data-ply='4']");
    p.b.wait("return shown === 4 && drawnKey.split(':')[1] === '4'", Duration::from_secs(10), "ply 4");
    // Analysis on the position shown.
    p.b.click("#analyse");
    p.b.wait(
        "return /depth \\d+/.test(document.getElementById('analysis-line').textContent)",
        Duration::from_secs(20),
        "the analysis",
    );
    p.b.click("#analyse");
    p.b.click("#playon");
    p.b.wait("return document.getElementById('newgame').open", Duration::from_secs(5), "the dialog");
    let start = p.b.run("return document.getElementById('ng-start').value", json!([]));
    let moves = tetrarch::arbiter::record::parse_pgn(&record).unwrap()[0].moves.clone();
    assert_eq!(start, format!("startpos moves {}", moves[..4].join(" ")), "the game so far");
    p.b.click("#ng-cancel");
    // A position pasted in, played on by clicking from the dialog.
    let (status, v) =
        p.gui.post("/api/load", &json!({"text": "fen 4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - -", "variant": "dojo"}));
    assert_eq!(status, 200, "{v}");
    p.b.wait("return S.status === 'review' && S.variant.name === 'dojo'", Duration::from_secs(10), "the position");
    // The pictures: a Dojo choice open, and a Judtho game in progress.
    p.new_game("dojo", &[("human", "none"), ("self", "depth 1")], "fen 4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - -", 300);
    p.settled(-1);
    p.b.click("#board [data-cell='b7']");
    p.b.click("#board [data-cell='b8']");
    p.b.wait("return !document.getElementById('chooser').hidden", Duration::from_secs(5), "the chooser");
    p.b.run("document.querySelector('#chooser-list button[data-move=\"b7b8/c5\"]').focus()", json!([]));
    std::thread::sleep(Duration::from_millis(300));
    let choice = p.b.screenshot();
    p.new_game("judtho", &[("human", "none"), ("self", "depth 1"), ("self", "depth 1"), ("self", "depth 1")], "", 600);
    let mut entered = Entered::default();
    let mut rng = Rng(11);
    let mut after = -1;
    // The Assembly, a few placements in: its hint, the Realm outlined, a kind in hand picked
    // and its squares marked.
    for _ in 0..4 {
        let st = p.settled(after);
        after = st["moves"].as_array().unwrap().len() as i64;
        let legal = st["legal"].as_array().unwrap();
        p.enter(&st, &legal[rng.below(legal.len())], &mut rng, &mut entered);
    }
    let st = p.settled(after);
    let m = st["legal"].as_array().unwrap().iter().find(|m| m["from"]["kind"].is_string()).unwrap().clone();
    p.b.run("window.scrollTo(0, 0)", json!([]));
    p.b.click(&format!(
        "#panel .inhand[data-seat='{}'][data-kind='{}']",
        m["from"]["seat"].as_str().unwrap(),
        m["from"]["kind"].as_str().unwrap()
    ));
    p.b.run("window.scrollTo(0, 0)", json!([]));
    std::thread::sleep(Duration::from_millis(200));
    let judtho = p.b.screenshot();
    assert!(
        p.b.run("return document.getElementById('hints').textContent", json!([]))
            .as_str()
            .unwrap()
            .contains("Assembly")
    );
    // The Rules panel of the game at the table.
    p.b.click("#rules");
    p.b.wait(
        "return document.querySelectorAll('#rules-body figure svg').length > 0",
        Duration::from_secs(10),
        "the rules",
    );
    std::thread::sleep(Duration::from_millis(300));
    let rules = p.b.screenshot();
    p.b.run("document.getElementById('rulesdlg').close()", json!([]));
    p.b.resize(420, 900);
    std::thread::sleep(Duration::from_millis(300));
    let narrow = p.b.screenshot();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = [("gui-judtho.png", &judtho), ("gui-dojo-choice.png", &choice), ("gui-rules.png", &rules)];
    for (name, png) in shots {
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
        if std::env::var_os("TETRARCH_WRITE_PICTURES").is_some() {
            std::fs::write(root.join("docs/img").join(name), png).unwrap();
        }
        assert!(root.join("docs/img").join(name).exists(), "docs/img/{name}");
    }
    let scratchdir = scratch("pictures");
    std::fs::write(scratchdir.join("narrow.png"), &narrow).unwrap();
    std::fs::write(scratchdir.join("judtho.png"), &judtho).unwrap();
    std::fs::write(scratchdir.join("choice.png"), &choice).unwrap();
    eprintln!("screenshots in {}", scratchdir.display());
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("img/gui-judtho.png")
            && readme.contains("img/gui-dojo-choice.png")
            && readme.contains("img/gui-rules.png"),
        "the README shows the GUI"
    );
    p.collect_timings();
}

/// A query value as a browser sends it: every byte but letters, digits and `-._~` as `%XX`
/// (a `%` already there is kept, so that malformed escapes reach the server too).
fn escape(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'%' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A number from the environment, for the tests whose size CI's fresh clone makes smaller.
fn env_count(var: &str, default: usize) -> usize {
    std::env::var(var).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The ply asked for is checked before anything is read at it: past the end, the answer names
/// that ply, and no ply makes the server fail.
#[test]
fn a_frame_past_the_game_is_refused_and_named() {
    let _one = serial();
    let gui = Gui::start(&[]);
    let _page = gui.page();
    let new = json!({"variant": "judkins", "players": [{"who": "human"}, {"who": "engine", "time": "depth 1"}]});
    assert_eq!(gui.post("/api/new", &new).0, 200);
    gui.wait_state("the person's turn", Duration::from_secs(10), &|st| st["person"] == 0);
    assert_eq!(gui.post("/api/move", &json!({"move": "6e6d"})).0, 200);
    let st = gui.wait_state("the reply", Duration::from_secs(10), &|st| {
        st["person"] == 0 && st["moves"].as_array().unwrap().len() == 2
    });
    let n = st["moves"].as_array().unwrap().len();
    for ply in 0..=n {
        let (status, _) = gui.get(&format!("/api/frame?ply={ply}"));
        assert_eq!(status, 200, "ply {ply}");
    }
    for ply in [n + 1, n + 3, 1 << 40] {
        let (status, body) = gui.get(&format!("/api/frame?ply={ply}"));
        assert_eq!(status, 400, "ply {ply}: {body}");
        assert!(body.contains(&format!("ply {ply} is past the game's {n} moves")), "ply {ply}: {body}");
    }
    for bad in ["-1", "99999999999999999999999", "x", ""] {
        let (status, body) = gui.get(&format!("/api/frame?ply={bad}"));
        assert_eq!(status, 400, "ply={bad}: {body}");
    }
}

/// Five New game requests at once, twenty times: afterwards exactly one game runs, with exactly
/// its own engines; no game goes on unseen.
#[test]
fn new_games_at_once_leave_one_game_with_its_own_engines() {
    let _one = serial();
    let gui = Gui::start(&[]);
    let _page = gui.page();
    let rounds = env_count("TETRARCH_GUI_RACE_ROUNDS", 20);
    let engine = json!({"who": "engine", "engine": "self", "time": "movetime 60000"});
    let body = json!({"variant": "dojo", "players": [engine, engine]});
    for round in 0..rounds {
        let go = std::sync::Barrier::new(5);
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let hands: Vec<_> = (0..5)
                .map(|_| {
                    s.spawn(|| {
                        go.wait();
                        gui.post("/api/new", &body).0
                    })
                })
                .collect();
            hands.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(statuses.iter().all(|&s| s == 200), "round {round}: {statuses:?}");
        let st = gui.state();
        assert_eq!(st["status"], "running", "round {round}: {st}");
        // Every stopped game ended its engines before its successor started: the one game's
        // two engines are all there are.
        let t = Instant::now();
        let engines = loop {
            let c = gui.children();
            if c.len() == 2 || t.elapsed() > Duration::from_secs(3) {
                break c;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(engines.len(), 2, "round {round}: engines {engines:?}");
        assert_eq!(gui.state()["generation"], st["generation"], "round {round}: no later game started");
    }
    eprintln!("{rounds} rounds of 5 simultaneous new games: each left one game with its 2 engines");
}

/// Pages closed, half on the person's turn and half while an engine thinks: 5 s after each
/// close, no engine is left.
#[test]
fn closing_the_page_ends_the_engines_whoever_is_to_move() {
    let _one = serial();
    let cycles = env_count("TETRARCH_GUI_SOAK_CYCLES", 50);
    let lanes = 5.min(cycles.max(1));
    let started = Instant::now();
    let worst: Vec<f64> = std::thread::scope(|s| {
        let hands: Vec<_> = (0..lanes)
            .map(|lane| {
                s.spawn(move || {
                    let gui = Gui::start(&[]);
                    let mut worst = 0.0f64;
                    for k in (lane..cycles).step_by(lanes) {
                        let page = gui.page();
                        let engine = json!({"who": "engine", "engine": "self", "time": "movetime 60000"});
                        let person = json!({"who": "human"});
                        // Even cycles: the person moves first and is left to think; odd: the
                        // engine moves first and thinks for a minute.
                        let persons_turn = k % 2 == 0;
                        let players = if persons_turn { json!([person, engine]) } else { json!([engine, person]) };
                        let (status, v) = gui.post("/api/new", &json!({"variant": "judkins", "players": players}));
                        assert_eq!(status, 200, "{v}");
                        gui.wait_state("the turn", Duration::from_secs(10), &|st| {
                            st["turn"].is_object() && (st["person"] == 0) == persons_turn
                        });
                        let t = Instant::now();
                        while gui.children().is_empty() {
                            assert!(t.elapsed() < Duration::from_secs(10), "the engine starts");
                            std::thread::sleep(Duration::from_millis(20));
                        }
                        let closed = Instant::now();
                        drop(page);
                        while !gui.children().is_empty() && closed.elapsed() < Duration::from_secs(5) {
                            std::thread::sleep(Duration::from_millis(50));
                        }
                        let left = gui.children();
                        assert!(
                            left.is_empty(),
                            "cycle {k} ({}): engines {left:?} still run 5 s after the page closed",
                            if persons_turn { "the person's turn" } else { "the engine thinking" }
                        );
                        worst = worst.max(closed.elapsed().as_secs_f64());
                    }
                    worst
                })
            })
            .collect();
        hands.into_iter().map(|h| h.join().unwrap()).collect()
    });
    eprintln!(
        "{cycles} pages closed ({} on the person's turn), no engine left 5 s after any; the slowest ended after {:.1} s; {:.0} s in all",
        cycles.div_ceil(2),
        worst.iter().cloned().fold(0.0, f64::max),
        started.elapsed().as_secs_f64()
    );
}

/// Random requests over every route, with good and bad tokens, methods, bodies and query values,
/// eight at a time: no answer is a server error, nothing panics, and afterwards the game at the
/// table is the one its record replays to.
#[test]
fn random_requests_never_fail_the_server() {
    let _one = serial();
    let count = env_count("TETRARCH_GUI_FUZZ", 10_000);
    let log = scratch("fuzz").join("gui.log");
    let gui = Gui::start_logged(&[], Some(&log));
    let _page = gui.page();
    let paths = [
        "/",
        "/events",
        "/api/state",
        "/api/frame",
        "/api/preview",
        "/api/record",
        "/api/guide",
        "/api/new",
        "/api/move",
        "/api/resign",
        "/api/takeback",
        "/api/stop",
        "/api/load",
        "/api/analyse",
        "/api/analyse/stop",
        "/api/nothing",
        "/favicon.ico",
        "/%zz",
    ];
    let methods = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "BREW"];
    let numbers = ["0", "1", "2", "3", "7", "48", "-1", "1e3", "4294967296", "18446744073709551616", "", "x", "%00"];
    let words = [
        "judkins",
        "dojo",
        "chaturanga",
        "chaturanga-ffa",
        "judtho",
        "chess",
        "",
        "6e6d",
        "e2e4",
        "K*c2",
        "pass",
        "b7b8/c5",
        "startpos",
        "none",
        "depth 1",
        "nodes 100",
        "movetime 50",
        "1+0.1",
        "300+5",
        "self",
        "rm -rf /",
        "name=x cmd=/nonexistent",
        "\u{2028}",
        "</script>",
        "[Variant \"judkins\"]\n\n1. 6e6d *\n",
    ];
    let served = std::sync::atomic::AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<String>::new());
    let answered = Mutex::new(std::collections::BTreeMap::<(&str, u16), usize>::new());
    std::thread::scope(|s| {
        for lane in 0..8u64 {
            let (gui, served, failures, answered) = (&gui, &served, &failures, &answered);
            let (paths, methods, numbers, words) = (&paths, &methods, &numbers, &words);
            s.spawn(move || {
                let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ((lane + 1) * 0x1000_0001));
                let mut pick = |n: usize| rng.below(n);
                for _ in 0..count.div_ceil(8) {
                    let path = paths[pick(paths.len())];
                    let method = if pick(3) == 0 { methods[pick(methods.len())] } else if path == "/" || path.ends_with("state") || path.ends_with("frame") || path.ends_with("preview") || path.ends_with("record") || path.ends_with("guide") { "GET" } else { "POST" };
                    // The event stream stays open: it is asked for with a bad token only.
                    let token = match (path, pick(8)) {
                        ("/events", _) | (_, 0) => "0123456789abcdef0123456789abcdef".to_string(),
                        (_, 1) => String::new(),
                        _ => gui.token.clone(),
                    };
                    let mut query = format!("?token={token}");
                    for key in ["ply", "turns", "move", "variant"] {
                        if pick(2) == 0 {
                            let v = if pick(2) == 0 { numbers[pick(numbers.len())] } else { words[pick(words.len())] };
                            query.push_str(&format!("&{key}={}", escape(v)));
                        }
                    }
                    let word = |p: &mut dyn FnMut(usize) -> usize| Value::String(words[p(words.len())].to_string());
                    let one = |p: &mut dyn FnMut(usize) -> usize, from: &[Value]| from[p(from.len())].clone();
                    let body = match pick(6) {
                        0 => "{not json".to_string(),
                        1 => "[1,2]".to_string(),
                        2 => {
                            let players: Vec<Value> = (0..pick(5))
                                .map(|_| {
                                    let who = one(&mut pick, &[json!("human"), json!("engine"), json!("robot")]);
                                    let time = one(
                                        &mut pick,
                                        &[json!("none"), json!("depth 1"), json!("nodes 50"), json!("movetime 20"), json!("1+0.1"), json!("0"), json!("x")],
                                    );
                                    json!({"who": who, "time": time, "engine": "self"})
                                })
                                .collect();
                            let max = one(&mut pick, &[json!(1), json!(-5), json!("x"), json!(1e300), json!(40)]);
                            json!({"variant": word(&mut pick), "start": word(&mut pick), "players": players, "max_plies": max}).to_string()
                        }
                        3 => {
                            let player = one(&mut pick, &[json!(0), json!(1), json!(-1), json!(99), json!("0"), json!(null)]);
                            json!({"move": word(&mut pick), "player": player}).to_string()
                        }
                        4 => {
                            let game = one(&mut pick, &[json!(0), json!(1), json!(2), json!(-3)]);
                            let ply = one(&mut pick, &[json!(0), json!(1), json!(500), json!(-1)]);
                            json!({"text": word(&mut pick), "game": game, "variant": word(&mut pick), "ply": ply, "engine": word(&mut pick)})
                                .to_string()
                        }
                        _ => String::new(),
                    };
                    // A third of the requests are well formed, so that every route also does
                    // what it is for: games start, people move, resign and take back, records
                    // and positions load, previews and frames are drawn.
                    let (query, body) = if pick(3) == 0 {
                        let st = gui.state();
                        let legal: Vec<String> = st["legal"].as_array().map_or(Vec::new(), |l| {
                            l.iter().filter_map(|m| m["text"].as_str().map(String::from)).collect()
                        });
                        let a_move = legal.get(pick(legal.len().max(1))).cloned().unwrap_or_default();
                        let n = st["moves"].as_array().map_or(0, Vec::len);
                        let good = match path {
                            "/api/new" => {
                                let (variant, players) =
                                    [("judkins", 2), ("dojo", 2), ("chaturanga", 2), ("chaturanga-ffa", 4), ("judtho", 4)][pick(5)];
                                let seats: Vec<Value> = (0..players)
                                    .map(|i| {
                                        if i == 0 || pick(2) == 0 {
                                            json!({"who": "human"})
                                        } else {
                                            json!({"who": "engine", "time": (["depth 1", "nodes 200", "movetime 30"][pick(3)])})
                                        }
                                    })
                                    .collect();
                                Some((String::new(), json!({"variant": variant, "players": seats}).to_string()))
                            }
                            "/api/move" => Some((String::new(), json!({"move": a_move}).to_string())),
                            "/api/resign" | "/api/takeback" => Some((String::new(), "{}".to_string())),
                            "/api/load" => Some((String::new(), json!({"text": "startpos", "variant": (["judkins", "dojo", "judtho"][pick(3)])}).to_string())),
                            "/api/analyse" => Some((String::new(), json!({"ply": pick(n + 1)}).to_string())),
                            "/api/preview" => Some((format!("&move={}", escape(&a_move)), String::new())),
                            "/api/frame" => Some((format!("&ply={}&turns={}", pick(n + 2), pick(4)), String::new())),
                            "/api/guide" => Some(("&variant=judtho".to_string(), String::new())),
                            _ => None,
                        };
                        match good {
                            Some((q, b)) => (format!("?token={}{q}", gui.token), b),
                            None => (query, body),
                        }
                    } else {
                        (query, body)
                    };
                    let token = if query.contains(&gui.token) { gui.token.clone() } else { token };
                    let headers = [("X-Tetrarch-Token", token.as_str()), ("Content-Type", "application/json")];
                    match http(gui.port, method, &format!("{path}{query}"), &headers, &body) {
                        Ok((status, text)) if status >= 500 => {
                            failures.lock().unwrap().push(format!("{status} for {method} {path}{query} {body}: {text}"))
                        }
                        Ok((status, _)) => *answered.lock().unwrap().entry((path, status)).or_insert(0) += 1,
                        Err(e) => failures.lock().unwrap().push(format!("no answer to {method} {path}{query} {body}: {e}")),
                    }
                    served.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let answered = answered.into_inner().unwrap();
    // Every route that needs no particular game took requests it could carry out, not only
    // refusals; the routes of a person's orders are toured after the storm, below.
    let orders = ["/api/nothing", "/api/move", "/api/takeback", "/api/resign", "/api/preview"];
    for path in paths.iter().filter(|p| p.starts_with("/api/") && !orders.contains(p)) {
        assert!(answered.keys().any(|(p, s)| p == path && *s == 200), "{path} never answered 200: {answered:?}");
    }
    eprintln!("answers by route and status: {answered:?}");
    assert!(failures.is_empty(), "{} failures, the first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!text.contains("panicked"), "the server's log: {text}");
    // The table is still the game its record replays to, as `d` shows it.
    let st = gui.state();
    if st["variant"].is_object() {
        let variant = st["variant"]["name"].as_str().unwrap();
        let moves: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
        let d = &engine_positions(variant, st["start"].as_str(), &moves)[moves.len()];
        assert_eq!(st["frame"]["position"].as_str().unwrap(), d.position, "{st}");
    }
    // After the storm the server still serves a game from start to end: a person moves, looks
    // ahead at a move, takes back and resigns.
    let people = json!({"variant": "judkins", "players": [{"who": "human"}, {"who": "human"}]});
    assert_eq!(gui.post("/api/new", &people).0, 200);
    let st = gui.wait_state("the game", Duration::from_secs(10), &|st| st["person"] == 0);
    let generation = st["generation"].as_u64().unwrap();
    assert_eq!(gui.get("/api/preview?move=6e6d").0, 200);
    assert_eq!(gui.get(&format!("/api/preview?move=6e6d&ply=0&generation={generation}")).0, 200);
    assert_eq!(gui.post("/api/move", &json!({"move": "6e6d"})).0, 200);
    gui.wait_state("the move", Duration::from_secs(10), &|st| st["person"] == 1);
    // A preview asked of the position before the move came too late: nothing, not a refusal, so
    // that a click that sends a move and hovers it at once leaves no error in the page's console.
    assert_eq!(gui.get(&format!("/api/preview?move=6e6d&ply=0&generation={generation}")).0, 204);
    assert_eq!(gui.get(&format!("/api/preview?move=6e6d&ply=1&generation={}", generation + 1)).0, 204);
    // Of the position now, the same move is not gote's to play.
    assert_eq!(gui.get(&format!("/api/preview?move=6e6d&ply=1&generation={generation}")).0, 400);
    assert_eq!(gui.post("/api/takeback", &json!({"player": 0})).0, 200);
    gui.wait_state("the take-back", Duration::from_secs(10), &|st| st["person"] == 0 && st["moves"] == json!([]));
    assert_eq!(gui.post("/api/resign", &json!({"player": 0})).0, 200);
    let end = gui.wait_state("the end", Duration::from_secs(10), &|st| st["status"] == "over");
    assert_eq!(end["result"]["words"], "resignation: human-1 resigned", "{end}");
    eprintln!(
        "{} random requests, 8 at a time: no server error, no panic; the table ended {} with {} moves",
        served.into_inner(),
        st["status"],
        st["moves"].as_array().map_or(0, Vec::len)
    );
}

/// The browser's console: no message at all (no error, no policy warning, no failed load).
fn console_is_clean(p: &Page, when: &str) {
    let said = p.b.console();
    assert!(said.is_empty(), "the console {when}: {said:?}");
}

/// Each of the page's former silences and misnamings, seen in the browser: results in the
/// players' names, nobody to move after the end, distinct shogi markers, no "(you)" for a
/// record's players, no undone thinking after a take-back, a take-back in a clocked game and a
/// click on a past position that say why, a dialog in one font, and a console that stays empty.
#[test]
fn the_page_says_what_happened_in_words() {
    let Some(drivers) = browser() else { return };
    let _one = serial();
    let p = Page::open(&drivers, 1280, 900);
    console_is_clean(&p, "on load");
    let text = |id: &str| p.b.run("return document.getElementById(arguments[0]).textContent", json!([id]));
    let text = |id: &str| text(id).as_str().unwrap().to_string();

    // The dialog's menus use the dialog's font.
    p.b.run("if (!document.getElementById('newgame').open) document.getElementById('new').click();", json!([]));
    let fonts = p.b.run(
        "const f = (e) => getComputedStyle(e).fontSize;
         return [f(document.getElementById('ng-variant')), f(document.querySelector('#ng-players .time')), f(document.getElementById('ng-start'))];",
        json!([]),
    );
    assert_eq!(fonts[0], fonts[1], "the Game menu and the time field: {fonts}");

    // Sente (tetrarch) mates gote (the person) at once: the result names sente, and the panel
    // marks nobody to move.
    p.new_game("judkins", &[("self", "depth 1"), ("human", "none")], "sfen k5/6/G5/6/6/5K b G 1", 100);
    let end = p.settled(i64::MAX);
    assert_eq!(end["status"], "over", "{end}");
    p.b.wait(
        "return drawnKey.startsWith(S.generation + ':' + S.moves.length + ':')",
        Duration::from_secs(10),
        "the end drawn",
    );
    assert_eq!(end["result"]["words"], "won by sente: checkmate", "{end}");
    for id in ["headline", "result", "caption"] {
        let t = text(id);
        assert!(t.contains("won by sente") && !t.contains("won by b"), "{id}: {t}");
    }
    let panel = text("panel");
    assert!(!panel.contains("to move"), "after the end the panel marks nobody to move: {panel}");
    let signs = p.b.run("return S.seats.map((s) => s.symbol)", json!([]));
    assert_eq!(signs, json!(["\u{2617}", "\u{2616}"]), "sente and gote are told apart");
    let swatches =
        p.b.run("return [...document.querySelectorAll('#players .symbol')].map((e) => e.textContent)", json!([]));
    assert_eq!(swatches, json!(["\u{2617}", "\u{2616}"]));

    // Its record, loaded: nobody at this page plays it.
    let (_, record) = p.gui.get("/api/record");
    assert_eq!(p.gui.post("/api/load", &json!({"text": record})).0, 200);
    p.b.wait("return S.status === 'review'", Duration::from_secs(10), "the record");
    let players = text("players");
    assert!(!players.contains("(you)"), "a loaded record's players: {players}");

    // A take-back clears what the engine said about the move it undid.
    p.new_game("judkins", &[("human", "none"), ("self", "depth 3")], "", 100);
    p.settled(-1);
    assert_eq!(p.gui.post("/api/move", &json!({"move": "6e6d"})).0, 200);
    p.settled(1);
    p.b.wait(
        "return [...document.querySelectorAll('#players .info')].some((e) => e.textContent.includes('depth'))",
        Duration::from_secs(10),
        "the engine's line",
    );
    p.b.click("#takeback");
    p.b.wait("return S.moves.length === 0 && S.person === 0", Duration::from_secs(10), "the take-back");
    let infos = p
        .b
        .run("return [...document.querySelectorAll('#players .info')].map((e) => e.textContent).join('')", json!([]));
    assert_eq!(infos, "", "the thinking column after a take-back");

    // Looking back and clicking a piece says why nothing moves.
    assert_eq!(p.gui.post("/api/move", &json!({"move": "6e6d"})).0, 200);
    p.settled(1);
    p.b.click("#first");
    p.b.wait("return shown === 0 && drawnKey.split(':')[1] === '0'", Duration::from_secs(10), "the start shown");
    p.b.click("#board [data-cell='5f']");
    let said = text("message");
    assert!(said.contains("looking at move 0 of 2"), "a click on a past position: {said}");
    p.b.click("#last");

    // A clocked game: Take back says why it does nothing.
    p.new_game("judkins", &[("human", "300+5"), ("self", "depth 1")], "", 100);
    p.settled(-1);
    assert_eq!(p.gui.post("/api/move", &json!({"move": "6e6d"})).0, 200);
    p.settled(1);
    let title = p.b.run("return document.getElementById('takeback').title", json!([]));
    assert!(title.as_str().unwrap().contains("clocks"), "{title}");
    p.b.click("#takeback");
    let said = text("message");
    assert!(said.contains("only for games without clocks"), "Take back in a clocked game: {said}");

    // Judtho at 1280x900: the move list starts in view.
    p.new_game("judtho", &[("human", "none"), ("self", "depth 1"), ("self", "depth 1"), ("self", "depth 1")], "", 200);
    p.settled(-1);
    let top = p.b.run(
        "window.scrollTo(0, 0); return document.getElementById('moves').getBoundingClientRect().top < innerHeight - 40",
        json!([]),
    );
    std::fs::write("/tmp/layout.png", p.b.screenshot()).unwrap();
    assert_eq!(top, true, "the Judtho move list at 1280x900");
    console_is_clean(&p, "after the games");
}

/// A newcomer starts Judtho, finishes the Assembly and makes a Battle move knowing only what
/// the page says: the dialog's labels, the hints, and the Rules panel. No square name comes from
/// the test: the Realm is read from the hint, and the squares are those the page marks.
#[test]
fn a_newcomer_plays_judtho_from_what_the_page_says() {
    let Some(drivers) = browser() else { return };
    let _one = serial();
    let p = Page::open(&drivers, 1280, 900);
    // The Rules panel explains the Assembly.
    p.b.click("#rules");
    p.b.run("const s = document.getElementById('rules-variant'); s.value = [...s.options].find((o) => o.textContent === 'Judtho').value; s.dispatchEvent(new Event('change'));", json!([]));
    let rules = p.b.wait(
        "const t = document.getElementById('rules-body').textContent; return t.includes('Assembly') ? t : null",
        Duration::from_secs(10),
        "Judtho's rules",
    );
    assert!(rules.as_str().unwrap().contains("Realm"), "{rules}");
    assert!(
        p.b.run("return document.querySelectorAll('#rules-body figure svg').length", json!([])).as_u64().unwrap() >= 2
    );
    p.b.run("document.getElementById('rulesdlg').close()", json!([]));
    // New game, by the labels: Judtho, a person first, tetrarch at depth 1 for the others.
    p.b.run(
        "if (!document.getElementById('newgame').open) document.getElementById('new').click();
         const v = document.getElementById('ng-variant');
         v.value = [...v.options].find((o) => o.textContent === 'Judtho').value; v.dispatchEvent(new Event('change'));
         const rows = [...document.querySelectorAll('#ng-players .player')];
         rows.forEach((r, i) => {
           const who = r.querySelector('.who');
           who.value = [...who.options].find((o) => o.textContent === (i === 0 ? 'a person (you)' : 'tetrarch')).value;
           who.dispatchEvent(new Event('change'));
           if (i > 0) r.querySelector('.time').value = 'depth 1';
         });",
        json!([]),
    );
    let generation = p.b.run("return S.generation", json!([]));
    p.b.click("#ng-start-game");
    p.b.wait(&format!("return S.generation !== {generation}"), Duration::from_secs(20), "the game");
    let mut placed = 0;
    let mut battle_moves = 0;
    for _ in 0..200 {
        let st = p.settled(-1);
        if st["status"] != "running" || battle_moves > 0 {
            break;
        }
        let hints = p.b.run("return [...document.querySelectorAll('#hints li')].map((l) => l.textContent)", json!([]));
        let hints: Vec<String> = serde_json::from_value(hints).unwrap();
        if let Some(h) = hints.iter().find(|h| h.starts_with("Assembly:")) {
            // "... the White Realm (a1-f4, tinted)": the squares between the corners.
            let corners = h.split('(').nth(1).unwrap().split(',').next().unwrap();
            let (a, b) = corners.split_once('-').unwrap();
            let (f0, r0) = (a.as_bytes()[0], a[1..].parse::<u32>().unwrap());
            let (f1, r1) = (b.as_bytes()[0], b[1..].parse::<u32>().unwrap());
            let inside = |sq: &str| {
                let (f, r) = (sq.as_bytes()[0], sq[1..].parse::<u32>().unwrap_or(0));
                (f0..=f1).contains(&f) && (r0..=r1).contains(&r)
            };
            assert_eq!(
                p.b.run("return document.querySelector('#board [data-hl=realm]') !== null", json!([])),
                true,
                "the Realm is outlined"
            );
            // As a newcomer does: pick each kind in the hand until the page marks squares for
            // it (a Princess once the Prince stands, say, has none).
            let me =
                p.b.run("return S.seats.find((s) => S.players[S.person].seats.includes(s.letter)).letter", json!([]));
            let me = me.as_str().unwrap().to_string();
            let kinds: Vec<String> = serde_json::from_value(p.b.run(
                "return [...document.querySelectorAll('#panel .inhand[data-seat=\"' + arguments[0] + '\"]')].map((e) => e.dataset.kind)",
                json!([me]),
            ))
            .unwrap();
            let mut target = None;
            for kind in &kinds {
                p.b.run("window.scrollTo(0, 0)", json!([]));
                p.b.click(&format!("#panel .inhand[data-seat='{me}'][data-kind='{kind}']"));
                let targets: Vec<String> = serde_json::from_value(p.b.run(
                    "return [...document.querySelectorAll('#board [data-hl=target]')].map((e) => e.dataset.sq)",
                    json!([]),
                ))
                .unwrap();
                assert!(
                    targets.iter().all(|t| inside(t)),
                    "{kind}: marked squares {targets:?} outside the Realm {corners}"
                );
                if let Some(t) = targets.first() {
                    target = Some(t.clone());
                    break;
                }
            }
            let target = target.unwrap_or_else(|| panic!("no kind of {kinds:?} has a square in {corners}"));
            let n = st["moves"].as_array().unwrap().len();
            p.b.click(&format!("#board [data-cell='{target}']"));
            p.b.wait(&format!("return S.moves.length > {n}"), Duration::from_secs(10), "the placement");
            placed += 1;
        } else {
            assert_eq!(placed, 12, "the Assembly's hint stood until the person's last placement");
            // A Battle move: a piece the page offers, then a square it marks.
            let from = p.b.run(
                "const m = S.legal.find((m) => m.from && m.from.square); return m ? m.from.square : null",
                json!([]),
            );
            let from = from.as_str().expect("a piece to move").to_string();
            p.b.click(&format!("#board [data-cell='{from}']"));
            let target = p.b.run(
                "const t = document.querySelector('#board [data-hl=target]'); return t ? t.dataset.sq : null",
                json!([]),
            );
            let n = st["moves"].as_array().unwrap().len();
            p.b.click(&format!("#board [data-cell='{}']", target.as_str().unwrap()));
            if p.b.run("return !document.getElementById('chooser').hidden", json!([])) == true {
                p.b.click("#chooser-list button");
            }
            p.b.wait(&format!("return S.moves.length > {n}"), Duration::from_secs(10), "the Battle move");
            battle_moves += 1;
        }
    }
    assert_eq!((placed, battle_moves), (12, 1), "the Assembly and a Battle move");
    // Double Mate: before the first move, the page says which armies the person plays.
    p.new_game("chaturanga", &[("human", "none"), ("self", "depth 1")], "", 100);
    p.settled(-1);
    let hints = p.b.run("return document.getElementById('hints').textContent", json!([]));
    assert!(hints.as_str().unwrap().contains("You play Yellow and Red"), "{hints}");
    console_is_clean(&p, "after the newcomer's games");
}

/// Closing the page on the person's turn, by navigating away or closing the tab, ends the
/// engines as closing it while an engine thinks does: within 5 s.
#[test]
fn closing_the_page_on_the_persons_turn_ends_the_engines() {
    let Some(drivers) = browser() else { return };
    let _one = serial();
    let p = Page::open(&drivers, 1000, 800);
    for how in ["navigate away", "close the tab"] {
        p.new_game("dojo", &[("human", "none"), ("self", "movetime 60000")], "", 100);
        p.settled(-1);
        let t = Instant::now();
        while p.gui.children().is_empty() {
            assert!(t.elapsed() < Duration::from_secs(10), "the engine starts");
            std::thread::sleep(Duration::from_millis(20));
        }
        let closed = Instant::now();
        if how == "navigate away" {
            p.b.goto("about:blank");
        } else {
            p.b.close_window();
        }
        while !p.gui.children().is_empty() {
            assert!(closed.elapsed() < Duration::from_secs(5), "{how}: engines {:?} still run", p.gui.children());
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("{how} on the person's turn: the engine ended after {:.1} s", closed.elapsed().as_secs_f64());
        if how == "navigate away" {
            p.b.goto(&p.gui.url);
            p.b.wait("return typeof S !== 'undefined' && S !== null", Duration::from_secs(20), "the page again");
        }
    }
}
