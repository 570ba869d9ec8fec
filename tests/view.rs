//! `tetrarch view` in a real browser. For every variant a game is played with `tetrarch match
//! --html` (and a few positions of the spec's worked examples are drawn with `tetrarch view
//! --variant`); headless Chromium (Debian's `chromium`, installed by `.ci/run`) opens each page
//! in `tests/view/harness.html`, which steps through the whole game with the page's own
//! controls and writes what the board shows after each step. Each position must equal the
//! engine's own `d` at that ply: every piece, hand, stack, army out, alliance and note, the turn
//! and the checks. The pages must load nothing from outside.
//!
//! Chromium is found by `common::peers` (`CHROMIUM`); without it the pages are still written and
//! checked as text, and the browser's part is skipped with a line, unless
//! `TETRARCH_REQUIRE_PEERS=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tetrarch::arbiter::record::parse_pgn;

mod common;
use common::Engine;
use common::peers::{CHROMIUM, peer};

const TETRARCH: &str = env!("CARGO_BIN_EXE_tetrarch");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrarch-view-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a command to its end, or kills it after `limit`.
fn run(cmd: &mut Command, limit: Duration) -> String {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{:?} failed: {}", cmd, status);
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{:?} took longer than {:?}", cmd, limit);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    reader.join().unwrap()
}

/// What the harness read from the page after one step.
#[derive(Debug, Default)]
struct Shown {
    how: String,
    ply: usize,
    address: String,
    men: BTreeMap<String, String>,
    stacks: BTreeMap<String, String>,
    turn: String,
    checks: BTreeSet<String>,
    marks: Vec<String>,
    /// Seat letter: (to move, hand or "-", standing).
    seats: BTreeMap<String, (bool, String, String)>,
    facts: BTreeMap<String, String>,
    caption: String,
}

fn parse_shown(line: &str) -> Shown {
    let mut s = Shown::default();
    for field in line.split('\t') {
        let (k, v) = field.split_once('=').unwrap_or((field, ""));
        let pair = || {
            let (a, b) = v.split_once(':').unwrap();
            (a.to_string(), b.to_string())
        };
        match k {
            "how" => s.how = v.into(),
            "ply" => s.ply = v.parse().unwrap(),
            "address" => s.address = v.into(),
            "man" => {
                let (a, b) = pair();
                assert!(s.men.insert(a, b).is_none(), "two pieces on one square: {}", line);
            }
            "stack" => {
                let (a, b) = pair();
                s.stacks.insert(a, b);
            }
            "turn" => s.turn = v.into(),
            "check" => {
                s.checks.insert(pair().0);
            }
            "mark" => s.marks.push(v.into()),
            "seat" => {
                let p: Vec<&str> = v.splitn(4, ':').collect();
                s.seats.insert(p[0].into(), (p[1] == "true", p[2].into(), p[3].into()));
            }
            "fact" => {
                let (a, b) = pair();
                s.facts.insert(a, b);
            }
            "caption" => s.caption = v.into(),
            "broken" => panic!("a piece refers to a drawing the page does not define: {}", v),
            _ => panic!("unknown field {}", field),
        }
    }
    s
}

/// What the engine's `d` says of one position.
#[derive(Debug, Default)]
struct Engined {
    men: BTreeMap<String, String>,
    /// Dojo: the number of passive members the picture shows per square.
    stack_counts: BTreeMap<String, usize>,
    position: String,
    turn: String,
    checks: BTreeSet<String>,
    notes: BTreeMap<String, String>,
    /// Judkins: each hand as the picture lists it, letters repeated.
    hands: BTreeMap<String, String>,
}

/// The square at a row and column of `d`'s picture.
fn square(variant: &str, row: usize, col: usize, ranks: usize) -> String {
    if variant == "judkins" {
        format!("{}{}", 6 - col, (b'a' + row as u8) as char)
    } else {
        format!("{}{}", (b'a' + col as u8) as char, ranks - row)
    }
}

fn parse_d(variant: &str, lines: &[String]) -> Engined {
    let mut e = Engined::default();
    let rows: Vec<&String> = lines.iter().filter(|l| l.contains('|') && !l.contains("+--")).collect();
    let ranks = rows.len();
    for (r, line) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split('|').collect();
        for (c, cell) in cells[1..cells.len() - 1].iter().enumerate() {
            let sq = square(variant, r, c, ranks);
            let mut text = cell.trim().trim_start_matches('.').to_string();
            if let Some(i) = text.find('*') {
                e.stack_counts.insert(sq.clone(), text[i + 1..].parse().unwrap());
                text.truncate(i);
            }
            if !text.is_empty() {
                e.men.insert(sq, text);
            }
        }
    }
    for l in lines {
        if let Some(rest) = l.strip_prefix(" hand ") {
            let (who, list) = rest.split_once(':').unwrap();
            let seat = &who[who.find('(').unwrap() + 1..who.find(')').unwrap()];
            let mut hand = String::new();
            for w in list.split_whitespace() {
                let (kind, n) = match w.split_once('x') {
                    Some((k, n)) => (k, n.parse().unwrap()),
                    None => (w, 1),
                };
                hand.push_str(&kind.repeat(n));
            }
            e.hands.insert(seat.to_string(), hand);
            continue;
        }
        let Some((key, value)) = l.split_once(' ') else { continue };
        match key {
            "position" => e.position = value.into(),
            "turn" => e.turn = value.into(),
            "checks" if value != "-" => e.checks = value.chars().map(|c| c.to_string()).collect(),
            "checks" | "hash" | "outcome" => {}
            // After the position line every other line is a note.
            _ if !e.position.is_empty() => {
                e.notes.insert(key.into(), value.into());
            }
            _ => {}
        }
    }
    e
}

/// Every position of a game as `d` shows it, from one engine process.
fn engine_positions(variant: &str, start: Option<&str>, moves: &[String]) -> Vec<Engined> {
    let mut eng = Engine::start();
    eng.handshake();
    eng.ask(&format!("setoption name USI_Variant value {}", variant));
    let keyword = if variant == "judkins" { "sfen" } else { "fen" };
    let head = match start {
        Some(t) => format!("position {} {}", keyword, t),
        None => "position startpos".to_string(),
    };
    (0..=moves.len())
        .map(|k| {
            let cmd = if k == 0 { head.clone() } else { format!("{} moves {}", head, moves[..k].join(" ")) };
            let errors = eng.ask(&cmd);
            assert!(errors.is_empty(), "{}: {:?}", cmd, errors);
            eng.send("d");
            let lines = eng.until(Duration::from_secs(10), |l| l.starts_with("outcome "));
            parse_d(variant, &lines)
        })
        .collect()
}

/// Checks one position the page showed against `d`.
fn compare(variant: &str, k: usize, moves: &[String], page: &Shown, d: &Engined) {
    let at = format!("{} ply {} ({})", variant, k, page.how);
    assert_eq!(page.men, d.men, "{}: pieces", at);
    assert_eq!(page.turn, d.turn, "{}: the seat to move", at);
    let movers: Vec<&String> = page.seats.iter().filter(|s| s.1.0).map(|s| s.0).collect();
    assert_eq!(movers, vec![&d.turn], "{}: the seat marked to move", at);
    assert_eq!(page.checks, d.checks, "{}: checks", at);
    for (key, value) in &d.notes {
        assert_eq!(page.facts.get(key), Some(value), "{}: note {}", at, key);
    }
    match variant {
        "judkins" => {
            for (seat, hand) in &d.hands {
                assert_eq!(&page.seats[seat].1, hand, "{}: hand of {}", at, seat);
            }
            assert_eq!(d.hands.len(), 2, "{}", at);
        }
        "dojo" => {
            // Stacks, members in order, against the position string's passive field.
            let passive = d.position.split(' ').nth(6).unwrap();
            let mut stacks = BTreeMap::new();
            if passive != "-" {
                for entry in passive.split('/') {
                    let (sq, members) = entry.split_once(':').unwrap();
                    stacks.insert(sq.to_string(), members.to_string());
                }
            }
            assert_eq!(page.stacks, stacks, "{}: passive stacks", at);
            let counts: BTreeMap<String, usize> = stacks.iter().map(|(s, m)| (s.clone(), m.len().min(9))).collect();
            assert_eq!(counts, d.stack_counts, "{}: stack sizes in d's picture", at);
            assert_eq!(page.facts.get("passive").map(String::as_str), Some(passive), "{}", at);
        }
        "chaturanga" | "chaturanga-ffa" => {
            // All against all notes the armies out, Double Mate the mated armies and lone kings.
            for (note, word) in [("out", "out"), ("mated", "mated"), ("lone", "lone king")] {
                let Some(armies) = d.notes.get(note) else { continue };
                for (seat, (_, _, standing)) in &page.seats {
                    let listed = armies.contains(seat.as_str());
                    assert_eq!(
                        standing.split(',').any(|s| s == word),
                        listed,
                        "{}: {} {} ({})",
                        at,
                        seat,
                        word,
                        armies
                    );
                }
            }
        }
        "judtho" => {
            for entry in d.notes["hands"].split(',') {
                let (seat, hand) = entry.split_once(':').unwrap();
                assert_eq!(&page.seats[seat].1, hand, "{}: hand of {}", at, seat);
            }
            // Each member of an alliance shows its rank.
            let ranks = ["First Ally", "Second Ally", "Third Ally"];
            for alliance in d.notes["alliances"].split(',').filter(|a| *a != "-") {
                for member in alliance.as_bytes().chunks(2) {
                    let seat = (member[0] as char).to_string();
                    let rank = ranks[(member[1] - b'1') as usize];
                    assert!(page.seats[&seat].2.split(',').any(|s| s == rank), "{}: {} is {}", at, seat, rank);
                }
            }
        }
        _ => unreachable!(),
    }
    if k > 0 {
        let mv = &moves[k - 1];
        assert!(
            page.caption.contains(if mv == "pass" { "passed" } else { mv.as_str() }),
            "{}: caption {:?}",
            at,
            page.caption
        );
        if mv != "pass" {
            assert!(!page.marks.is_empty(), "{}: the last move is marked", at);
        }
    }
}

/// Nothing in a page can load anything: no external reference of any kind.
fn assert_self_contained(html: &str, what: &str) {
    for bad in ["src=", "<link", "url(", "@import", "<iframe", "<object", "<embed", "<img"] {
        assert!(!html.contains(bad), "{}: contains {}", what, bad);
    }
    let without_ns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!without_ns.contains("http:") && !without_ns.contains("https:"), "{}: an address", what);
    for (i, _) in html.match_indices("href=\"") {
        let target = &html[i + 6..];
        let target = &target[..target.find('"').unwrap()];
        assert!(
            target.starts_with('#') || (target.ends_with(".html") && !target.contains('/') && !target.contains(':')),
            "{}: link to {}",
            what,
            target
        );
    }
    assert!(!what.ends_with(".html") || html.contains("Content-Security-Policy"), "{}: no policy", what);
}

/// Opens `page` (a file in `dir`) in Chromium through the harness, at `#ply=open_at`, and
/// returns what it read.
fn browse(chromium: &Path, dir: &Path, page: &str, open_at: usize) -> (Vec<Shown>, String) {
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/view/harness.html"), dir.join("harness.html")).unwrap();
    let profile = dir.join("chromium-profile");
    let url = format!("file://{}/harness.html?page={}%23ply%3D{}", dir.display(), page, open_at);
    let out = run(
        Command::new(chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(["--virtual-time-budget=60000", "--dump-dom"])
            .arg(&url),
        Duration::from_secs(240),
    );
    let start = out.find("<pre id=\"out\">").expect("the harness wrote its output") + "<pre id=\"out\">".len();
    let text = &out[start..start + out[start..].find("</pre>").unwrap()];
    let text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"");
    assert!(text.ends_with("done"), "the harness did not finish: {}", &text[text.len().saturating_sub(500)..]);
    let mut shown = Vec::new();
    let mut resources = String::new();
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("resources=") {
            resources = r.to_string();
        } else if line.starts_with("error=") {
            panic!("harness: {}", line);
        } else if line != "done" {
            shown.push(parse_shown(line));
        }
    }
    (shown, resources)
}

/// Walks one page and checks every position it showed against `d`.
fn check_page(dir: &Path, page: &str, variant: &str, start: Option<&str>, moves: &[String]) {
    let html = std::fs::read_to_string(dir.join(page)).unwrap();
    assert_self_contained(&html, page);
    let Some(chromium) = peer(&CHROMIUM) else { return };
    let engine = engine_positions(variant, start, moves);
    let last = moves.len();
    let open_at = last.min(3);
    let (shown, resources) = browse(&chromium, dir, page, open_at);
    assert_eq!(resources, "", "{}: the page loaded {}", page, resources);
    // The harness: open, home, `last` steps right, one more right, first, last, prev, left,
    // next, a click in the move list, an address.
    assert_eq!(shown.len(), last + 10, "{}: steps", page);
    let expect_ply = |how: &str| -> usize {
        match how {
            "open" => open_at,
            "home" | "first" => 0,
            "right-at-end" | "last" => last,
            "prev" => last.saturating_sub(1),
            "next" => (last.saturating_sub(2) + 1).min(last),
            "left" => last.saturating_sub(2),
            "hash-1" => 1.min(last),
            h if h.starts_with("click-") => h[6..].parse().unwrap(),
            _ => unreachable!(),
        }
    };
    let mut right = 0;
    for s in &shown {
        let want = if s.how == "right" {
            right += 1;
            right
        } else {
            expect_ply(&s.how)
        };
        assert_eq!(s.ply, want, "{}: after {}", page, s.how);
        // The address follows once stepping pauses: the harness waits after everything but
        // the walk with the arrow key.
        if s.how != "right" && s.how != "home" {
            assert_eq!(s.address, format!("#ply={}", s.ply), "{}: the address follows the board after {}", page, s.how);
        }
        compare(variant, s.ply, moves, s, &engine[s.ply]);
    }
    assert_eq!(right, last);
}

/// Plays one game of `variant` with `tetrarch match --html` and checks its page and index.
fn played(variant: &str) {
    let dir = scratch(variant);
    let seats = match variant {
        "chaturanga-ffa" | "judtho" => 4,
        _ => 2,
    };
    let mut cmd = Command::new(TETRARCH);
    cmd.args(["match", "--variant", variant, "--games", "1", "--quiet"]);
    for i in 0..seats {
        // Judkins with real clocks, so that the page shows them; the others at depth 1.
        if variant == "judkins" {
            cmd.args(["--engine", &format!("name=e{} cmd={}", i + 1, TETRARCH)]);
        } else {
            cmd.args(["--engine", &format!("name=e{} cmd={} \"go=depth 1\"", i + 1, TETRARCH)]);
        }
    }
    cmd.args(["--tc", "1+0.02", "--pgn"]).arg(dir.join("games.pgn")).arg("--html").arg(dir.join("site"));
    run(&mut cmd, Duration::from_secs(300));
    let record = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let games = parse_pgn(&record).unwrap();
    let game = &games[0];
    let site = dir.join("site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert_self_contained(&index, "index.html");
    assert!(index.contains("href=\"game-001.html\""), "the index links the game");
    let html = std::fs::read_to_string(site.join("game-001.html")).unwrap();
    for e in 1..=seats {
        assert!(html.contains(&format!("<td>e{}</td>", e)), "{}: player e{} named", variant, e);
    }
    assert!(html.contains(&format!("result {}", game.result)), "{}: the result", variant);
    if variant == "judkins" {
        assert!(html.contains("clock left"), "the clocks of a game under a time control");
    }
    if game.move_data.iter().flatten().any(|d| d.score.is_some()) {
        assert!(html.contains("score "), "{}: scores", variant);
    }
    // The same pages from the record file, by `tetrarch view`.
    let again = dir.join("again");
    run(
        Command::new(TETRARCH).arg("view").arg(dir.join("games.pgn")).arg("--out").arg(&again),
        Duration::from_secs(60),
    );
    assert_eq!(std::fs::read_to_string(again.join("game-001.html")).unwrap(), html, "view and match --html agree");
    check_page(&site, "game-001.html", variant, game.tag("StartPosition"), &game.moves);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A position and moves drawn with `tetrarch view --variant`.
fn drawn(name: &str, variant: &str, position: &str, moves: &[&str]) {
    let dir = scratch(name);
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let mut cmd = Command::new(TETRARCH);
    cmd.args(["view", "--variant", variant, "--out"]).arg(dir.join("page.html"));
    cmd.args(["fen", position]);
    if !moves.is_empty() {
        cmd.arg("moves").args(&moves);
    }
    run(&mut cmd, Duration::from_secs(60));
    check_page(&dir, "page.html", variant, Some(position), &moves);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn judkins_game_in_the_browser() {
    played("judkins");
}

#[test]
fn dojo_game_in_the_browser() {
    played("dojo");
}

#[test]
fn double_mate_game_in_the_browser() {
    played("chaturanga");
}

#[test]
fn all_against_all_game_in_the_browser() {
    played("chaturanga-ffa");
}

#[test]
fn judtho_game_in_the_browser() {
    played("judtho");
}

/// The spec's worked examples: a Dojo stack and treason, a Chaturanga army that passes and is
/// freed, armies out of all against all, Judtho's Assembly check and its alliances.
#[test]
fn worked_examples_in_the_browser() {
    drawn("dojo-treason", "dojo", "7k/Q7/8/8/8/8/8/3N3K w - - 0 1 d2:P W9", &["h1g1@d2"]);
    drawn(
        "dojo-stack",
        "dojo",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -",
        &["e2e4", "d7d5", "e4d5", "d8d5"],
    );
    drawn(
        "chaturanga-pass",
        "chaturanga",
        "bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1",
        &["pass", "h8g8", "h1b1", "e3e4"],
    );
    drawn("chaturanga-out", "chaturanga-ffa", "gK7/8/8/4rN2gP/yR2bR4/8/8/3yK4 y br 0 1", &["a4a8"]);
    drawn(
        "judtho-assembly",
        "judtho",
        "3rR7bP/12/12/12/12/12/12/12/12/12/12/3wK2yP5 w w:QCSRNBPPPPPP,r:KQCSNBPPPPPP,y:KQCSRNBPPPPP,b:KQCSRNBPPPPP - wryb 0 5 w:d12!",
        &["Q*d2"],
    );
    drawn(
        "judtho-triple",
        "judtho",
        "rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100",
        &["h6h1/k2"],
    );
    drawn(
        "judtho-two-doubles",
        "judtho",
        "rK10bK/10bPbP/12/12/12/12/7yR4/12/12/12/12/wK10yK y w:S,r:,y:C,b:S wr ybwr 0 100",
        &["h6h12/k11"],
    );
}

/// The pictures in the README and docs/rules: each made by `tetrarch view --svg` from the
/// variant and position words given here. `TETRARCH_WRITE_PICTURES=1 cargo test --release
/// --test view pictures` remakes them after a change of the drawing.
const PICTURES: &[(&str, &str, &str)] = &[
    ("judkins-start.svg", "judkins", "startpos"),
    ("judkins-example.svg", "judkins", "startpos moves 2f6b+ 1a2b 6e6d 6a6b 1f1b+"),
    ("dojo-start.svg", "dojo", "startpos"),
    ("dojo-example.svg", "dojo", "fen 7k/Q7/8/8/8/8/8/3N3K w - - 0 1 d2:P W9"),
    ("chaturanga-start.svg", "chaturanga", "startpos"),
    ("chaturanga-example.svg", "chaturanga", "fen bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1"),
    ("chaturanga-ffa-example.svg", "chaturanga-ffa", "fen gK7/8/8/4rN2gP/yR2bR4/8/8/3yK4 y br 0 1"),
    ("judtho-start.svg", "judtho", "startpos"),
    (
        "judtho-example.svg",
        "judtho",
        "fen rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100 moves h6h1/k2",
    ),
];

#[test]
fn pictures_in_the_docs_are_the_tools_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let write = std::env::var_os("TETRARCH_WRITE_PICTURES").is_some();
    let mut docs = std::fs::read_to_string(root.join("README.md")).unwrap();
    for f in ["judkins", "dojo", "chaturanga", "judtho"] {
        docs.push_str(&std::fs::read_to_string(root.join(format!("docs/rules/{}.md", f))).unwrap());
    }
    for (file, variant, words) in PICTURES {
        let mut cmd = Command::new(TETRARCH);
        cmd.args(["view", "--svg", "--variant", variant]).args(words.split(' '));
        let svg = run(&mut cmd, Duration::from_secs(30));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"), "{}", file);
        assert_self_contained(&svg, file);
        let path = root.join("docs/img").join(file);
        if write {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &svg).unwrap();
        }
        let stored = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            stored == svg,
            "docs/img/{} is not what `tetrarch view --svg --variant {} {}` draws",
            file,
            variant,
            words
        );
        assert!(docs.contains(&format!("img/{}", file)), "no document shows docs/img/{}", file);
    }
}
