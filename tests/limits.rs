//! Every number the protocol takes, at 0, at 1 and at its largest accepted value: each `go`
//! parameter and each numeric option. The answer must be a `bestmove` within what the spec
//! promises (protocol-spec.md, section 3, "Time use"), a search that runs until `stop` where the
//! number allows no earlier end, or an error line; never a panic, an "internal error" or a
//! budget that wrapped around.
//!
//! `.ci/run` also runs this file in a debug build (`cargo test --test limits`), where integer
//! overflow panics: a wrapped sum in the clock arithmetic would show there as the search's
//! internal error.

use std::time::{Duration, Instant};

mod common;
use common::Engine;

const MAX: &str = "18446744073709551615";

/// What a line may be answered with.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// `bestmove` within this many milliseconds.
    Within(u64),
    /// No `bestmove` until `stop`: the number allows the search to go on (for longer than any
    /// test waits).
    UntilStop,
    /// An `info string error` line, and the engine as it was.
    Refused,
}

/// What the engine may take beyond the spec's limit to be heard: pipes, the thread's start and,
/// in a debug build, a slower first iteration.
fn slack() -> u64 {
    if cfg!(debug_assertions) { 3000 } else { 500 }
}

fn engine() -> Engine {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos");
    e
}

/// Sends `go` and checks the answer.
fn go(e: &mut Engine, line: &str, expect: Expect) {
    let t = Instant::now();
    e.send(line);
    match expect {
        Expect::Within(ms) => {
            let got = e.until(Duration::from_millis(ms + slack() + 60_000), |l| l.starts_with("bestmove"));
            let took = t.elapsed().as_millis() as u64;
            assert!(took <= ms + slack(), "{line}: bestmove after {took} ms, {ms} promised: {got:?}");
            assert_no_error(line, &got);
        }
        Expect::UntilStop => {
            let early = e.drain(Duration::from_millis(400));
            assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{line}: the search ended by itself: {early:?}");
            assert_no_error(line, &early);
            let t = Instant::now();
            e.send("stop");
            let got =
                e.until(Duration::from_secs(30), |l| l.starts_with("bestmove") || l == "info string perft stopped");
            assert!(t.elapsed() <= Duration::from_millis(slack() + 500), "{line}: stop took {:?}", t.elapsed());
            assert_no_error(line, &got);
        }
        Expect::Refused => {
            let got = e.ask("");
            assert!(got.iter().any(|l| l.starts_with("info string error")), "{line}: not refused: {got:?}");
            assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{line}: searched anyway: {got:?}");
        }
    }
    // Still answering, in the same position.
    let status = e.ask("status");
    assert!(status.iter().any(|l| l.starts_with("status turn b")), "{line}: after it {status:?}");
}

fn assert_no_error(line: &str, got: &[String]) {
    assert!(!got.iter().any(|l| l.contains("error")), "{line}: {got:?}");
}

#[test]
fn clocks_increments_and_byoyomi_at_their_extremes() {
    use Expect::*;
    let mut e = engine();
    for (line, expect) in [
        // Main time: none, a millisecond, and more than any move will take.
        ("go btime 0 wtime 0".to_string(), Within(1)),
        ("go btime 1 wtime 1".to_string(), Within(1)),
        (format!("go btime {MAX} wtime {MAX}"), UntilStop),
        // The line: it wrapped to a few milliseconds.
        (format!("go btime {MAX} wtime {MAX} byoyomi 1"), UntilStop),
        // Increments are spent only after the move: a third of a second's clock bounds the move.
        ("go btime 1000 wtime 1000 binc 0 winc 0".to_string(), Within(950)),
        ("go btime 1000 wtime 1000 binc 1 winc 1".to_string(), Within(950)),
        (format!("go btime 1000 wtime 1000 binc {MAX} winc {MAX}"), Within(950)),
        // Byoyomi alone.
        ("go byoyomi 0".to_string(), Within(1)),
        ("go byoyomi 1".to_string(), Within(1)),
        (format!("go byoyomi {MAX}"), UntilStop),
        (format!("go btime 0 byoyomi {MAX}"), UntilStop),
        // Moves to go: at least 1; one move left may use the whole clock.
        ("go btime 1000 movestogo 0".to_string(), Refused),
        ("go btime 1000 movestogo 1".to_string(), Within(950)),
        (format!("go btime 1000 movestogo {MAX}"), Within(950)),
        (format!("go btime {MAX} movestogo 1"), UntilStop),
    ] {
        go(&mut e, &line, expect);
    }
}

#[test]
fn movetime_nodes_depth_and_mate_at_their_extremes() {
    use Expect::*;
    let mut e = engine();
    for (line, expect) in [
        ("go movetime 0".to_string(), Within(1)),
        ("go movetime 1".to_string(), Within(1)),
        (format!("go movetime {MAX}"), UntilStop),
        ("go nodes 0".to_string(), Refused),
        // The node count is read every 1024 nodes.
        ("go nodes 1".to_string(), Within(0)),
        (format!("go nodes {MAX}"), UntilStop),
        ("go depth 0".to_string(), Refused),
        ("go depth 1".to_string(), Within(0)),
        (format!("go depth {MAX}"), UntilStop),
        ("go mate 0".to_string(), Refused),
        ("go mate 1".to_string(), Within(0)),
        (format!("go mate {MAX}"), UntilStop),
        ("go perft 0".to_string(), Refused),
        ("go perft 1".to_string(), Within(0)),
        ("go perft 64".to_string(), UntilStop),
        ("go perft 65".to_string(), Refused),
        // One past the largest: not a number the protocol takes.
        ("go movetime 18446744073709551616".to_string(), Refused),
    ] {
        let expect = match (&expect, line.contains("perft")) {
            // A perft's answer is its total, not a bestmove.
            (Within(_), true) => {
                e.send(&line);
                let got = e.until(Duration::from_secs(10), |l| l.starts_with("Nodes searched"));
                assert_no_error(&line, &got);
                continue;
            }
            _ => expect,
        };
        go(&mut e, &line, expect);
    }
}

#[test]
fn options_at_their_extremes() {
    let mut e = engine();
    for (option, values) in [
        ("USI_Hash", ["0", "1", "8192", "8193"]),
        ("Threads", ["0", "1", "256", "257"]),
        ("MoveOverhead", ["0", "1", "5000", "5001"]),
        ("MultiPV", ["0", "1", "500", "501"]),
    ] {
        for v in values {
            // The table is written whole when it is made (src/search/tt.rs), and the first
            // touch of 8 GiB took 36 s on a freshly started 2-core VM: its wait is a hang guard.
            let wait = Duration::from_secs(if option == "USI_Hash" { 300 } else { 30 });
            let got = e.ask_within(&format!("setoption name {option} value {v}"), wait);
            let refused = got.iter().any(|l| l.starts_with("info string error"));
            let in_range = match option {
                "USI_Hash" => v == "1" || v == "8192",
                "Threads" => v == "1" || v == "256",
                "MultiPV" => v == "1" || v == "500",
                _ => v != "5001",
            };
            assert_eq!(refused, !in_range, "{option} = {v}: {got:?}");
            // Every accepted value searches.
            go(&mut e, "go depth 1", Expect::Within(0));
        }
        // Back to a small table, one thread and one line, for the next option's searches.
        e.ask("setoption name USI_Hash value 1");
        e.ask("setoption name Threads value 1");
        e.ask("setoption name MultiPV value 1");
    }
    // The largest overhead leaves a fixed move time half of itself (section 3's movetime).
    e.ask("setoption name MoveOverhead value 5000");
    go(&mut e, "go movetime 200", Expect::Within(200));
    go(&mut e, "go btime 100 wtime 100", Expect::Within(100));
    let got = e.ask(&format!("setoption name MoveOverhead value {MAX}"));
    assert!(got.iter().any(|l| l.starts_with("info string error")), "{got:?}");
}
