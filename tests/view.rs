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

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tetrarch::arbiter::record::parse_pgn;

mod common;
use common::peers::{CHROMIUM, peer};
use common::shown::{Shown, compare, engine_positions, parse_shown};

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
