//! A short Judkins match against Debian's Fairy-Stockfish 11.1 (`apt-get install
//! fairy-stockfish`, or `FAIRY_STOCKFISH_DEBIAN`; skipped with a line without it, unless
//! `TETRARCH_REQUIRE_PEERS=1`). A test binary of its own, so that it does not share the two cores
//! with the other tests' games.

use tetrarch::arbiter::clock::TimeControl;
use tetrarch::arbiter::engine::EngineSpec;
use tetrarch::arbiter::game::Ending;
use tetrarch::arbiter::{MatchConfig, run};

mod common;
use common::peers::{DEBIAN_FAIRY_STOCKFISH, peer};

#[test]
fn short_match_against_fairy_stockfish() {
    let Some(fsf) = peer(&DEBIAN_FAIRY_STOCKFISH) else { return };
    let fsf = fsf.display();
    let ours =
        EngineSpec::parse(&format!("name=tetrarch cmd={} option.USI_Hash=16", env!("CARGO_BIN_EXE_tetrarch"))).unwrap();
    let theirs = EngineSpec::parse(&format!(
        "name=fsf cmd={fsf} variant-option=UCI_Variant go-seats=wb option.Hash=16 \"option.Move Overhead=50\""
    ))
    .unwrap();
    assert_eq!(theirs.options[1], ("Move Overhead".to_string(), "50".to_string()));
    let cfg = MatchConfig {
        variant: "judkins".into(),
        engines: vec![ours, theirs],
        tc: TimeControl::parse_clock("2+0.2", 0.0).unwrap(),
        games: 2,
        concurrency: 1,
        openings: Vec::new(),
        sprt: None,
        pgn: None,
        jsonl: None,
        html: None,
        margin_ms: 200,
        startup_ms: 10_000,
        hang_ms: 60_000,
        max_plies: 400,
        event: "test".into(),
        progress: false,
        shard: None,
    };
    let s = run(&cfg).unwrap();
    assert_eq!(s.games.len(), 2);
    for g in &s.games {
        assert!(g.culprit.is_none(), "{g:?}");
        assert!(matches!(g.ending, Ending::Rules | Ending::Adjudicated), "{g:?}");
    }
}
