//! `tetrarch match`: real games, misbehaving engines, clocks, and records read back.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use tetrarch::arbiter::clock::TimeControl;
use tetrarch::arbiter::engine::EngineSpec;
use tetrarch::arbiter::game::{Ending, GameReport, Opening};
use tetrarch::arbiter::movedata::Score;
use tetrarch::arbiter::record::parse_pgn;
use tetrarch::arbiter::rescore::from_records;
use tetrarch::arbiter::{MatchConfig, Summary, run};
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::prelude::*;
use tetrarch::rules::{Game, Record};

mod common;
use common::peers::{PYTHON, peer};

const ENGINE: &str = env!("CARGO_BIN_EXE_tetrarch");

/// Python, which runs the misbehaving engine: `None` (and the test skipped) without it.
fn python() -> Option<String> {
    peer(&PYTHON).map(|p| p.display().to_string())
}

fn fake(mode: &str, arg: Option<&str>) -> EngineSpec {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fake_engine.py");
    // The relaying modes find the real engine through the environment.
    unsafe { std::env::set_var("TETRARCH_ENGINE", ENGINE) };
    let python = common::peers::locate(&PYTHON).expect("the test checked for Python first");
    let mut text = format!("name=fake-{mode} cmd={} arg={script} arg={mode}", python.display());
    if let Some(a) = arg {
        text.push_str(&format!(" arg={a}"));
    }
    EngineSpec::parse(&text).unwrap()
}

fn tetrarch(name: &str) -> EngineSpec {
    EngineSpec::parse(&format!("name={name} cmd={ENGINE} option.USI_Hash=4")).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrarch-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The first `n` openings of the variant's openings file.
fn openings(variant: &str, n: usize) -> Vec<Opening> {
    let path = format!("{}/fixtures/{}-openings.txt", env!("CARGO_MANIFEST_DIR"), variant);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).take(n).map(Opening::parse).collect()
}

fn config(engines: Vec<EngineSpec>, tc: TimeControl, games: usize) -> MatchConfig {
    MatchConfig {
        variant: "judkins".into(),
        engines,
        tc,
        games,
        concurrency: 1,
        openings: Vec::new(),
        sprt: None,
        pgn: None,
        jsonl: None,
        html: None,
        margin_ms: 100,
        startup_ms: 5000,
        hang_ms: 2000,
        max_plies: 400,
        event: "test".into(),
        progress: false,
        shard: None,
    }
}

/// One game against a fake, which plays the given seat.
fn against_fake(mode: &str, arg: Option<&str>, tc: TimeControl) -> Summary {
    run(&config(vec![fake(mode, arg), tetrarch("tetrarch")], tc, 1)).unwrap()
}

fn the_game(s: &Summary) -> &GameReport {
    assert_eq!(s.games.len(), 1);
    &s.games[0]
}

fn assert_fake_lost(s: &Summary, ending: Ending, termination: &str) {
    let g = the_game(s);
    assert_eq!(g.ending, ending, "{g:?}");
    assert_eq!(g.termination, termination);
    assert_eq!(g.culprit, Some(0), "{g:?}");
    assert_eq!(g.result(), "0-1", "the fake played sente and lost: {g:?}");
    assert_eq!(s.engines[0].1.losses, 1);
    assert_eq!(s.engines[1].1.wins, 1);
}

#[test]
fn self_play_games_with_records_read_back() {
    let mut cfg = config(vec![tetrarch("a"), tetrarch("b")], TimeControl::Depth(3), 4);
    cfg.concurrency = 2;
    cfg.openings = vec![Opening::parse("startpos moves 6e6d 1b1c"), Opening::parse("2f4d 5a3c")];
    cfg.pgn = Some(tmp("self.pgn"));
    cfg.jsonl = Some(tmp("self.jsonl"));
    let s = run(&cfg).unwrap();
    assert_eq!(s.games.len(), 4);
    for g in &s.games {
        assert!(matches!(g.ending, Ending::Rules | Ending::Adjudicated), "{g:?}");
        assert!(g.culprit.is_none());
    }
    // Each opening is played with the seats both ways round.
    assert_eq!(s.games[0].players[0].name, "a");
    assert_eq!(s.games[1].players[0].name, "b");
    assert_eq!(s.games[0].opening, s.games[1].opening);
    assert_ne!(s.games[0].opening, s.games[2].opening);
    assert_eq!(s.engines[0].1.games() + s.engines[1].1.games(), 8);

    let pgn = std::fs::read_to_string(cfg.pgn.as_ref().unwrap()).unwrap();
    let games = parse_pgn(&pgn).unwrap();
    assert_eq!(games.len(), 4);
    let jsonl = std::fs::read_to_string(cfg.jsonl.as_ref().unwrap()).unwrap();
    let objects: Vec<serde_json::Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objects.len(), 4);
    for (p, j) in games.iter().zip(&objects) {
        assert_eq!(p.tag("Variant"), Some("judkins"));
        assert_eq!(p.tag("Result"), Some(p.result.as_str()));
        assert_eq!(j["result"].as_str(), Some(p.result.as_str()));
        let jmoves: Vec<String> =
            j["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(jmoves, p.moves);
        assert_eq!(p.tag("PlyCount").unwrap().parse::<usize>().unwrap(), p.moves.len());
        // The record replays under the rules and ends as it says.
        let mut r = Record::new(Judkins::startpos());
        for m in &p.moves {
            r.play_text(m).unwrap();
        }
        match p.tag("Termination").unwrap() {
            "adjudication" => assert_eq!(p.result, "1/2-1/2"),
            t => assert_eq!(r.outcome().unwrap().reason.as_str(), t),
        }
        // Every move the engines chose carries its data, read back from the record; the
        // opening's moves carry none. In JSON, the same data in arrays aligned with the moves.
        let opening = p.tag("OpeningPlies").map_or(0, |n| n.parse().unwrap());
        assert_eq!(p.move_data.len(), p.moves.len());
        for (k, d) in p.move_data.iter().enumerate() {
            if k < opening {
                assert!(d.is_none());
                continue;
            }
            let d = d.unwrap_or_else(|| panic!("move {k} has no data"));
            assert!(d.score.is_some() && d.nodes.is_some_and(|n| n > 0), "{d:?}");
            assert!(d.depth.is_some_and(|x| (1..=3).contains(&x)), "{d:?}");
            assert_eq!(d.clock_ms, None, "no clock under --depth");
        }
        for key in ["time_ms", "clock_ms", "score", "depth", "nodes"] {
            assert_eq!(j[key].as_array().unwrap().len(), p.moves.len(), "{key}");
        }
        for (k, d) in p.move_data.iter().enumerate() {
            let (js, jd) = (&j["score"][k], &j["depth"][k]);
            match d.and_then(|d| d.score) {
                None => assert!(js.is_null()),
                Some(Score::Cp(v)) => assert_eq!(js["cp"].as_i64(), Some(v)),
                Some(Score::Mate(v)) => assert_eq!(js["mate"].as_i64(), Some(v)),
            }
            assert_eq!(jd.as_u64(), d.and_then(|d| d.depth).map(u64::from));
            assert_eq!(j["time_ms"][k].as_u64(), d.map(|d| d.time_ms));
        }
    }
    // Rescoring the records gives the match's own figures.
    let again = from_records(&pgn).unwrap();
    assert_same_figures(&again, &s);
    assert_eq!(again.moves, s.moves);
}

/// Two summaries of the same games: the same tables (per-move times aside).
fn assert_same_figures(a: &Summary, b: &Summary) {
    assert_eq!(a.engines, b.engines);
    assert_eq!(a.ratings, b.ratings);
    assert_eq!(a.places, b.places);
    assert_eq!(a.seats, b.seats);
    assert_eq!(a.terminations, b.terminations);
}

/// A match split into four shards, each played on its own, and pooled by `match merge`, gives
/// the figures of the same schedule played whole.
#[test]
fn four_shards_merge_into_the_whole_match() {
    let mut cfg = config(vec![tetrarch("a"), tetrarch("b")], TimeControl::Depth(3), 8);
    cfg.openings = openings("judkins", 4);
    cfg.concurrency = 2;
    cfg.jsonl = Some(tmp("whole.jsonl"));
    let whole = run(&cfg).unwrap();
    let mut parts = Vec::new();
    for k in 1..=4 {
        let mut c = cfg.clone();
        c.shard = Some((k, 4));
        c.concurrency = 1;
        c.jsonl = Some(tmp(&format!("shard{k}.jsonl")));
        let s = run(&c).unwrap();
        // The k-th shard plays games k-1 and k+3 of the schedule, with their own seats and openings.
        assert_eq!(s.games.iter().map(|g| g.index).collect::<Vec<_>>(), vec![k - 1, k + 3]);
        parts.push((format!("shard{k}"), std::fs::read_to_string(c.jsonl.as_ref().unwrap()).unwrap()));
    }
    let merged = tetrarch::arbiter::rescore::merge(&parts).unwrap();
    assert_eq!(merged.games.len(), 8);
    for (m, w) in merged.games.iter().zip(&whole.games) {
        assert_eq!((m.index, &m.moves, &m.points, &m.places), (w.index, &w.moves, &w.points, &w.places));
        assert_eq!(m.players, w.players);
    }
    assert_same_figures(&merged, &whole);
    assert_eq!(
        merged.moves.iter().map(|m| (m.moves, m.depth_sum)).collect::<Vec<_>>(),
        whole.moves.iter().map(|m| (m.moves, m.depth_sum)).collect::<Vec<_>>()
    );
    // The same game in two shards is refused.
    parts.push(parts[0].clone());
    assert!(tetrarch::arbiter::rescore::merge(&parts).unwrap_err().contains("disjoint"));
}

/// A clock game's records carry the clock left after each move, never more than the time the
/// clock can have held.
#[test]
fn clock_games_record_the_clock_left() {
    let mut cfg = config(vec![tetrarch("a"), tetrarch("b")], TimeControl::parse_clock("1+0.05", 0.0).unwrap(), 1);
    cfg.max_plies = 30;
    cfg.pgn = Some(tmp("clock.pgn"));
    let s = run(&cfg).unwrap();
    let g = &parse_pgn(&std::fs::read_to_string(cfg.pgn.as_ref().unwrap()).unwrap()).unwrap()[0];
    assert_eq!(g.moves.len(), s.games[0].moves.len());
    let mut before = [1000u64, 1000];
    for (k, d) in g.move_data.iter().enumerate() {
        let d = d.unwrap();
        let left = d.clock_ms.unwrap();
        // Charged the time taken, then given the increment.
        assert_eq!(left, before[k % 2].saturating_sub(d.time_ms) + 50, "move {k}: {d:?}");
        before[k % 2] = left;
    }
}

/// Four copies of one engine, at a fixed depth, over a schedule that seats each in every seat
/// of every opening: they rate equal, within each other's intervals and 0's.
#[test]
fn four_identical_engines_rate_equal_in_all_against_all() {
    let engines = ["a", "b", "c", "d"].iter().map(|n| tetrarch(n)).collect();
    let mut cfg = config(engines, TimeControl::Depth(2), 16);
    cfg.variant = "chaturanga-ffa".into();
    cfg.openings = openings("chaturanga-ffa", 4);
    cfg.concurrency = 2;
    cfg.max_plies = 300;
    let s = run(&cfg).unwrap();
    assert_eq!(s.games.len(), 16);
    for a in &s.ratings {
        assert!(a.lo < 0.0 && 0.0 < a.hi, "{:?}", s.ratings);
        for b in &s.ratings {
            assert!(a.lo < b.elo && b.elo < a.hi, "{:?}", s.ratings);
        }
    }
    assert!(s.table().contains("1st"), "{}", s.table());
}

/// A full-strength copy among three depth-1 copies, all against all: its rating is clearly
/// above theirs (its interval's low end above each of their high ends).
#[test]
fn a_full_strength_engine_rates_above_depth_one_copies() {
    let weak = |n: &str| EngineSpec::parse(&format!("name={n} cmd={ENGINE} option.USI_Hash=4 \"go=depth 1\"")).unwrap();
    let mut cfg = config(vec![tetrarch("full"), weak("d1a"), weak("d1b"), weak("d1c")], TimeControl::Depth(4), 32);
    cfg.variant = "chaturanga-ffa".into();
    cfg.openings = openings("chaturanga-ffa", 8);
    cfg.concurrency = 2;
    cfg.max_plies = 300;
    let s = run(&cfg).unwrap();
    let full = s.ratings[0];
    for (r, (name, _)) in s.ratings[1..].iter().zip(&s.engines[1..]) {
        assert!(full.lo > r.hi, "full {full:?}, {name} {r:?}\n{}", s.table());
    }
}

/// Two engines in all against all, each holding two armies: the SPRT counts a game by the
/// first engine's share of the points the two won, so a game that one of its armies wins alone
/// is its win (the mean of its armies' points, the engine's row, is at most 1/2 there).
#[test]
fn two_engines_of_two_armies_each_are_tested_head_to_head() {
    let weak = EngineSpec::parse(&format!("name=d1 cmd={ENGINE} option.USI_Hash=4 \"go=depth 1\"")).unwrap();
    let mut cfg = config(vec![tetrarch("full"), weak], TimeControl::Depth(4), 8);
    cfg.variant = "chaturanga-ffa".into();
    cfg.openings = openings("chaturanga-ffa", 2);
    cfg.concurrency = 2;
    cfg.max_plies = 300;
    cfg.sprt = Some(tetrarch::arbiter::stats::Sprt::parse(&["elo0=0 elo1=10 alpha=0.05 beta=0.05".into()]).unwrap());
    let s = run(&cfg).unwrap();
    let mut expected = [0u32; 3];
    for g in &s.games {
        let points = |e: usize| {
            (0..g.players.len()).filter(|&q| g.players[q].engine == e).map(|q| g.player_points(q)).sum::<f64>()
        };
        let share = points(0) / (points(0) + points(1));
        expected[if share >= 0.75 {
            0
        } else if share <= 0.25 {
            2
        } else {
            1
        }] += 1;
    }
    let h = s.head_to_head;
    assert_eq!([h.wins, h.draws, h.losses], expected, "\n{}", s.table());
    assert!(h.wins > h.losses && s.sprt.unwrap().1 > 0.0, "\n{}", s.table());
    assert!(s.table().contains("head to head: full"), "{}", s.table());
}

/// Records written before per-move data and places existed still read and rescore.
#[test]
fn records_from_before_move_data_still_rescore() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/records/judtho-before-move-data.pgn"))
            .unwrap();
    let games = parse_pgn(&text).unwrap();
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.move_data.iter().all(Option::is_none)));
    assert!(games[0].comments.iter().any(|(_, c)| c == "assembly complete"), "{:?}", games[0].comments);
    let s = from_records(&text).unwrap();
    assert_eq!(s.games.len(), 4);
    let names: Vec<&str> = s.engines.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names, ["full", "d1a", "d1b", "d1c"]);
    // Game 1 ended 1-1-0-1: white, red and black won together, yellow lost alone.
    assert_eq!(s.games[0].places, vec![1, 1, 4, 1]);
    assert!(s.moves.iter().all(|m| m.moves == 0));
    // A record whose moves the rules refuse, or whose result they contradict, is an error.
    let broken = text.replacen("1. P*c4", "1. P*c5", 1);
    assert!(from_records(&broken).unwrap_err().contains("game 1"), "{}", from_records(&broken).unwrap_err());
    let wrong = text.replacen("[Result \"1-1-0-1\"]", "[Result \"1-1-1-0\"]", 1).replacen("} 1-1-0-1", "} 1-1-1-0", 1);
    assert!(from_records(&wrong).is_err());
}

#[test]
fn a_crash_loses() {
    if python().is_none() {
        return;
    }
    let s = against_fake("crash", None, TimeControl::parse_clock("5", 0.0).unwrap());
    assert_fake_lost(&s, Ending::Crash, "crash");
}

#[test]
fn an_engine_that_exits_mid_game_loses() {
    if python().is_none() {
        return;
    }
    let s = against_fake("exit-after", Some("3"), TimeControl::Depth(2));
    assert_fake_lost(&s, Ending::Crash, "crash");
    assert_eq!(the_game(&s).moves.len(), 6, "three moves each, then the fake exits");
}

#[test]
fn a_hang_loses_on_time_or_as_no_response() {
    if python().is_none() {
        return;
    }
    let t = Instant::now();
    let s = against_fake("hang", None, TimeControl::parse_clock("1", 0.0).unwrap());
    assert_fake_lost(&s, Ending::TimeForfeit, "time forfeit");
    let s = against_fake("hang", None, TimeControl::Depth(4));
    assert_fake_lost(&s, Ending::Hang, "no response");
    assert!(t.elapsed() < Duration::from_secs(30));
}

#[test]
fn illegal_and_garbage_moves_lose() {
    if python().is_none() {
        return;
    }
    let s = against_fake("illegal", None, TimeControl::Depth(2));
    assert_fake_lost(&s, Ending::IllegalMove, "illegal move");
    assert!(the_game(&s).detail.contains("1a1a"));
    let s = against_fake("garbage", None, TimeControl::Depth(2));
    assert_fake_lost(&s, Ending::IllegalMove, "illegal move");
}

#[test]
fn resignation_loses() {
    if python().is_none() {
        return;
    }
    let s = against_fake("resign", None, TimeControl::Depth(2));
    assert_fake_lost(&s, Ending::Resigned, "resignation");
}

#[test]
fn a_missing_or_broken_engine_stops_the_match_at_once() {
    let t = Instant::now();
    let missing = EngineSpec::parse("name=ghost cmd=/nonexistent/engine").unwrap();
    let e = run(&config(vec![missing, tetrarch("t")], TimeControl::Depth(2), 10)).unwrap_err();
    assert!(e.contains("ghost") && e.contains("/nonexistent/engine"), "{e}");
    let broken = EngineSpec::parse("name=broken cmd=false").unwrap();
    let e = run(&config(vec![tetrarch("t"), broken], TimeControl::Depth(2), 10)).unwrap_err();
    assert!(e.contains("broken") && e.contains("exited"), "{e}");
    assert!(t.elapsed() < Duration::from_secs(4), "no game was played: {:?}", t.elapsed());
    // And from the command line: a message and a non-zero exit.
    let out = Command::new(ENGINE)
        .args(["match", "--engine", "self", "--engine", "cmd=/nonexistent/engine", "--depth", "1", "--quiet"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/engine"));
}

#[test]
fn start_up_slow_or_never() {
    if python().is_none() {
        return;
    }
    let mut cfg = config(vec![fake("nousiok", None), tetrarch("tetrarch")], TimeControl::Depth(2), 1);
    cfg.startup_ms = 500;
    let s = run(&cfg).unwrap();
    assert_fake_lost(&s, Ending::StartupFailure, "start-up failure");
    // A slow start within the allowance plays normally.
    let mut cfg = config(vec![fake("slowstart", Some("1")), tetrarch("tetrarch")], TimeControl::Depth(2), 1);
    cfg.startup_ms = 5000;
    let s = run(&cfg).unwrap();
    assert!(the_game(&s).culprit.is_none(), "{:?}", the_game(&s));
}

#[test]
fn clock_accounting_against_a_sleeper() {
    if python().is_none() {
        return;
    }
    // Sudden death 2.75 s, 500 ms a move: five moves fit (2.5 s, with 60 ms a move to spare for
    // the relay), the sixth does not (3 s, over the 2.8 s the margin allows).
    let mut cfg = config(
        vec![fake("sleep", Some("500")), tetrarch("tetrarch")],
        TimeControl::parse_clock("2.75", 0.0).unwrap(),
        1,
    );
    cfg.margin_ms = 50;
    let s = run(&cfg).unwrap();
    assert_fake_lost(&s, Ending::TimeForfeit, "time forfeit");
    let g = the_game(&s);
    assert_eq!(g.moves.len(), 10, "five moves each: {g:?}");
    // With an increment of 0.3 s the same sleeper never runs out.
    let mut cfg = config(
        vec![fake("sleep", Some("300")), tetrarch("tetrarch")],
        TimeControl::parse_clock("1+0.3", 0.0).unwrap(),
        1,
    );
    cfg.max_plies = 24;
    let s = run(&cfg).unwrap();
    assert_on_time(the_game(&s));
    // Byoyomi alone: 300 ms fits in a 500 ms byoyomi.
    let mut cfg =
        config(vec![fake("sleep", Some("300")), tetrarch("tetrarch")], TimeControl::parse_clock("0", 0.5).unwrap(), 1);
    cfg.max_plies = 16;
    let s = run(&cfg).unwrap();
    assert_on_time(the_game(&s));
}

/// The sleeper kept to its clock: the game ran to the ply limit or ended by the rules (tetrarch
/// may mate the depth-1 sleeper before the limit), never by a forfeit or a fault.
fn assert_on_time(g: &GameReport) {
    assert!(matches!(g.ending, Ending::Adjudicated | Ending::Rules), "{g:?}");
    assert!(g.culprit.is_none(), "{g:?}");
    assert!(g.move_data.iter().step_by(2).all(|d| d.as_ref().is_some_and(|d| d.clock_ms.is_some())), "{g:?}");
}

#[test]
fn ctrl_c_kills_every_engine() {
    let Some(python) = python() else { return };
    let pidfile = tmp("pids");
    let _ = std::fs::remove_file(&pidfile);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fake_engine.py");
    let mut child = Command::new(ENGINE)
        .args(["match", "--depth", "5", "--games", "2", "--hang", "60000", "--quiet"])
        .arg("--engine")
        .arg(format!("name=h1 cmd={python} arg={script} arg=hang"))
        .arg("--engine")
        .arg(format!("name=h2 cmd={python} arg={script} arg=hang"))
        .env("FAKE_PIDFILE", &pidfile)
        .spawn()
        .unwrap();
    // Wait for both fakes to be up.
    let t = Instant::now();
    while std::fs::read_to_string(&pidfile).map(|s| s.lines().count()).unwrap_or(0) < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "fakes did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "arbiter did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    for pid in std::fs::read_to_string(&pidfile).unwrap().lines() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Gone, or a zombie waiting for init to reap it.
        assert!(stat.is_empty() || stat.split_whitespace().nth(2) == Some("Z"), "engine {pid} survived: {stat}");
    }
}

/// Real four-army games: Double Mate with two engines of two armies each, and all against all
/// with four engines, on clocks, with records that replay under the rules.
#[test]
fn chaturanga_games_in_both_forms() {
    use tetrarch::games::chaturanga::{AllAgainstAll, DoubleMate};
    fn replay<G: Game>(pgn: &str, expected: usize) {
        let games = parse_pgn(pgn).unwrap();
        assert_eq!(games.len(), expected);
        for p in &games {
            assert_eq!(p.tag("Variant"), Some(G::VARIANT.name));
            let mut r = Record::new(G::startpos());
            for m in &p.moves {
                r.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            }
            assert_eq!(p.result.split('-').count(), 4, "one result per army: {}", p.result);
            match p.tag("Termination").unwrap() {
                "adjudication" => {}
                t => assert_eq!(r.outcome().unwrap().reason.as_str(), t),
            }
        }
    }
    let mut cfg = config(vec![tetrarch("a"), tetrarch("b")], TimeControl::parse_clock("2+0.05", 0.0).unwrap(), 2);
    cfg.variant = "chaturanga".into();
    cfg.pgn = Some(tmp("dm.pgn"));
    cfg.max_plies = 120;
    let s = run(&cfg).unwrap();
    for g in &s.games {
        assert!(matches!(g.ending, Ending::Rules | Ending::Adjudicated), "{g:?}");
        // One engine process per side: yellow and red together, black and green together.
        assert_eq!(
            g.players.iter().map(|p| p.seats.iter().map(|s| s.0).collect::<Vec<_>>()).collect::<Vec<_>>(),
            vec![vec![0, 2], vec![1, 3]]
        );
        assert_eq!(g.points[0], g.points[2]);
        assert_eq!(g.points[1], g.points[3]);
    }
    replay::<DoubleMate>(&std::fs::read_to_string(cfg.pgn.as_ref().unwrap()).unwrap(), 2);

    let engines = ["a", "b", "c", "d"].iter().map(|n| tetrarch(n)).collect();
    let mut cfg = config(engines, TimeControl::Depth(2), 4);
    cfg.variant = "chaturanga-ffa".into();
    cfg.pgn = Some(tmp("ffa.pgn"));
    cfg.concurrency = 2;
    cfg.max_plies = 200;
    let s = run(&cfg).unwrap();
    assert_eq!(s.games.len(), 4);
    for (i, g) in s.games.iter().enumerate() {
        assert!(matches!(g.ending, Ending::Rules | Ending::Adjudicated), "{g:?}");
        assert_eq!(g.players.len(), 4, "four players");
        // Every engine sits in every seat once over the four games.
        assert_eq!(g.players[0].name, ["a", "b", "c", "d"][i]);
    }
    replay::<AllAgainstAll>(&std::fs::read_to_string(cfg.pgn.as_ref().unwrap()).unwrap(), 4);
}

/// Real Dojo games on a clock: the records carry the D6 and D9 suffixes as the engines sent
/// them and replay under the rules.
#[test]
fn dojo_games_replay_under_the_rules() {
    use tetrarch::games::dojo::Dojo;
    let mut cfg = config(vec![tetrarch("a"), tetrarch("b")], TimeControl::parse_clock("2+0.05", 0.0).unwrap(), 2);
    cfg.variant = "dojo".into();
    cfg.pgn = Some(tmp("dojo.pgn"));
    cfg.concurrency = 2;
    cfg.openings = vec![Opening::parse("startpos moves e2e4 d7d5 e4d5")];
    let s = run(&cfg).unwrap();
    assert_eq!(s.games.len(), 2);
    let games = parse_pgn(&std::fs::read_to_string(cfg.pgn.as_ref().unwrap()).unwrap()).unwrap();
    for (g, p) in s.games.iter().zip(&games) {
        assert!(matches!(g.ending, Ending::Rules | Ending::Adjudicated), "{g:?}");
        assert!(g.culprit.is_none(), "{g:?}");
        assert_eq!(p.tag("Variant"), Some("dojo"));
        let mut r = Record::new(Dojo::startpos());
        for m in &p.moves {
            r.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        match p.tag("Termination").unwrap() {
            "adjudication" => {}
            t => assert_eq!(r.outcome().unwrap().reason.as_str(), t),
        }
    }
}

/// The table counts games, not players: one engine in every seat of four-player games played
/// four games, not sixteen; and an engine that no game seated is said not to have played.
#[test]
fn the_table_counts_each_engines_games_once() {
    let table = |args: &[&str]| {
        let out = Command::new(ENGINE)
            .args(["match", "--depth", "1", "--max-plies", "40", "--quiet"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let t = table(&["--variant", "judtho", "--engine", "self"]);
    let row = t.lines().find(|l| l.starts_with("tetrarch ")).unwrap();
    assert_eq!(row.split_whitespace().nth(1), Some("4"), "{t}");
    let seats: Vec<&str> =
        t.lines().filter(|l| l.len() > 2 && "wryb".contains(&l[..1]) && l.as_bytes()[1] == b' ').collect();
    assert_eq!(seats.len(), 4, "{t}");
    assert!(seats.iter().all(|l| l.split_whitespace().nth(1) == Some("4")), "{t}");
    let t = table(&["--engine", "self", "--engine", "self", "--engine", "self", "--games", "1"]);
    let row = t.lines().find(|l| l.starts_with("tetrarch-3 ")).unwrap();
    assert!(row.contains("did not play"), "{t}");
    assert!(!row.contains("+0.0"), "{t}");
}
