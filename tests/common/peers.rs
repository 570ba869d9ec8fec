//! The outside programs that some tests play against or drive (the peers), found in one way:
//! the peer's environment variable, then `PATH` and the places its package installs to, then
//! `../shared/tools` beside the project (where the project's CI keeps the two it builds from
//! source).
//!
//! A test asks for its peer with `peer(&P)`. When the peer is missing, the test prints one line
//! on stderr, `skipped: <tool> not found (set <VAR> or install <package>)`, and passes; with
//! `TETRARCH_REQUIRE_PEERS=1` (as `.ci/run` sets it) it fails instead, so that CI never skips.
//! The benches find the same peers through this file.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One outside program.
pub struct Peer {
    /// What the skip line calls it.
    pub tool: &'static str,
    /// The environment variable that names its path.
    pub var: &'static str,
    /// Its names on `PATH`.
    pub names: &'static [&'static str],
    /// Where its packages put it, for when that place is not on `PATH` (Debian's games).
    pub places: &'static [&'static str],
    /// Its file in `../shared/tools`, if CI keeps it there.
    pub shared: Option<&'static str>,
    /// How to get it, for the skip line.
    pub install: &'static str,
    /// Arguments it must run with and exit 0 to count as found (a program that is there but
    /// cannot start, such as Cute Chess without Qt, is as good as missing).
    pub probe: Option<&'static [&'static str]>,
}

/// Cute Chess's tournament manager (Cute Chess 1.5; it needs Qt 6's core library).
pub const CUTECHESS_CLI: Peer = Peer {
    tool: "cutechess-cli",
    var: "CUTECHESS_CLI",
    names: &["cutechess-cli"],
    places: &[],
    shared: Some("cutechess-cli"),
    install: "cutechess-cli, built from https://github.com/cutechess/cutechess, with libqt6core6",
    probe: Some(&["--version"]),
};

/// Fairy-Stockfish from its latest source (it plays Judkins under Cute Chess).
pub const FAIRY_STOCKFISH: Peer = Peer {
    tool: "fairy-stockfish",
    var: "FAIRY_STOCKFISH",
    names: &["fairy-stockfish"],
    places: &["/usr/games/fairy-stockfish"],
    shared: Some("fairy-stockfish"),
    install: "fairy-stockfish, built from https://github.com/fairy-stockfish/Fairy-Stockfish",
    probe: None,
};

/// Debian's Fairy-Stockfish 11.1, with its older USI clock convention.
pub const DEBIAN_FAIRY_STOCKFISH: Peer = Peer {
    tool: "Debian's fairy-stockfish",
    var: "FAIRY_STOCKFISH_DEBIAN",
    names: &[],
    places: &["/usr/games/fairy-stockfish"],
    shared: None,
    install: "the Debian package fairy-stockfish",
    probe: None,
};

/// Chromium, headless, for the pages of `tetrarch view` and `tetrarch gui`.
pub const CHROMIUM: Peer = Peer {
    tool: "chromium",
    var: "CHROMIUM",
    names: &["chromium", "chromium-browser"],
    places: &["/usr/bin/chromium", "/snap/bin/chromium"],
    shared: None,
    install: "the Debian package chromium",
    probe: Some(&["--version"]),
};

/// Chromium's WebDriver server, through which the GUI's tests click.
pub const CHROMEDRIVER: Peer = Peer {
    tool: "chromedriver",
    var: "CHROMEDRIVER",
    names: &["chromedriver"],
    places: &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
    shared: None,
    install: "the Debian package chromium-driver",
    probe: Some(&["--version"]),
};

/// Python 3, which runs the misbehaving engine of the match runner's tests.
pub const PYTHON: Peer = Peer {
    tool: "python3",
    var: "PYTHON",
    names: &["python3"],
    places: &["/usr/bin/python3"],
    shared: None,
    install: "the Debian package python3",
    probe: Some(&["-c", "pass"]),
};

/// Whether missing peers fail their tests (`TETRARCH_REQUIRE_PEERS=1`, as in CI).
pub fn required() -> bool {
    std::env::var("TETRARCH_REQUIRE_PEERS").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn runs(path: &Path, probe: Option<&[&str]>) -> bool {
    let Some(args) = probe else { return path.is_file() };
    Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Where the peer is, if anywhere.
pub fn locate(p: &Peer) -> Option<PathBuf> {
    if let Some(v) = std::env::var_os(p.var).filter(|v| !v.is_empty()) {
        // A variable that is set is the user's word: it is used or the peer is missing.
        let path = PathBuf::from(v);
        return runs(&path, p.probe).then_some(path);
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .flat_map(|dir| p.names.iter().map(move |n| dir.join(n)));
    let places = p.places.iter().map(PathBuf::from);
    let shared = p.shared.map(|f| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools").join(f));
    on_path.chain(places).chain(shared).find(|path| path.is_file() && runs(path, p.probe))
}

/// The peer's path; or, when it is missing, the skip line and `None` (a failure under
/// `TETRARCH_REQUIRE_PEERS=1`).
pub fn peer(p: &Peer) -> Option<PathBuf> {
    if let Some(path) = locate(p) {
        return Some(path);
    }
    let why = format!("{} not found (set {} or install {})", p.tool, p.var, p.install);
    assert!(!required(), "{why}; TETRARCH_REQUIRE_PEERS=1 requires every peer");
    // Straight to the stream, past the test harness's capture, so that `cargo test` shows it.
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
    None
}
