//! The real binary, spoken to through pipes, as a GUI or a script would.

mod common;
use common::Engine;
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(20);

fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

#[test]
fn handshake_lists_options_and_ends_with_usiok() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.until(T, |l| l == "usiok");
    assert!(lines[0].starts_with("id name tetrarch"));
    for opt in ["USI_Hash", "Threads", "USI_Variant", "MoveOverhead", "USI_Ponder", "MultiPV"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} "))), "{opt} missing: {lines:?}");
    }
    e.send("uci");
    e.until(T, |l| l == "uciok");
    e.send("isready");
    e.until(T, |l| l == "readyok");
}

#[test]
fn go_gives_one_legal_bestmove() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos moves 6e6d");
    e.send("go depth 6");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");
    let info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    for field in ["seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"] {
        assert!(info.contains(&format!(" {field} ")), "{field} missing in {info}");
    }
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let legal = e.ask("legalmoves");
    assert!(legal[0].split_whitespace().skip(1).any(|m| m == mv), "{mv} not in {legal:?}");
    assert!(e.drain(Duration::from_millis(200)).is_empty());
}

#[test]
fn multipv_reports_the_best_moves_in_order_and_the_first_is_played() {
    for (variant, depth) in [("judkins", 5), ("dojo", 4), ("chaturanga", 4), ("judtho", 2)] {
        let mut e = Engine::start();
        e.handshake();
        e.send(&format!("setoption name USI_Variant value {variant}"));
        e.send("setoption name MultiPV value 3");
        e.send("position startpos");
        e.send(&format!("go depth {depth}"));
        let lines = e.until(T, |l| l.starts_with("bestmove"));
        let last: Vec<&String> = lines.iter().filter(|l| l.starts_with(&format!("info depth {depth} "))).collect();
        assert_eq!(last.len(), 3, "{variant}: {lines:?}");
        let word = |l: &str, w: &str| -> String {
            let t: Vec<&str> = l.split_whitespace().collect();
            t[t.iter().position(|x| *x == w).unwrap() + 1].to_string()
        };
        let ranks: Vec<String> = last.iter().map(|l| word(l, "multipv")).collect();
        assert_eq!(ranks, ["1", "2", "3"], "{variant}");
        let firsts: Vec<String> = last.iter().map(|l| word(l, "pv")).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{variant}: {last:?}");
        let cps: Vec<i64> =
            last.iter().filter(|l| l.contains(" score cp ")).map(|l| word(l, "cp").parse().unwrap()).collect();
        assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{variant}: best first: {last:?}");
        assert_eq!(word(lines.last().unwrap(), "bestmove"), firsts[0], "{variant}");
        // Back to one line: no `multipv` word.
        e.send("setoption name MultiPV value 1");
        e.send("go depth 2");
        let lines = e.until(T, |l| l.starts_with("bestmove"));
        assert!(lines.iter().all(|l| !l.contains("multipv")), "{variant}: {lines:?}");
        assert_eq!(bestmoves(&lines), 1);
    }
}

#[test]
fn clocks_byoyomi_and_increment_give_a_move_in_time() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name MoveOverhead value 30");
    e.send("position startpos");
    for go in [
        "go btime 0 wtime 0 byoyomi 300",
        "go btime 2000 wtime 2000 binc 100 winc 100",
        "go btime 1000 wtime 1000",
        "go btime 500 wtime 500 movestogo 1",
        "go movetime 200",
        "go nodes 5000",
        "go mate 2",
    ] {
        let start = Instant::now();
        e.send(go);
        let lines = e.until(T, |l| l.starts_with("bestmove"));
        let took = start.elapsed();
        assert_eq!(bestmoves(&lines), 1);
        assert!(took < Duration::from_secs(5), "{go} took {took:?}");
    }
}

/// `movetime` is thought for, less `MoveOverhead`: unused time would be lost, so the search does
/// not stop early at an iteration it expects not to finish (protocol-spec.md 3, "Time use").
#[test]
fn movetime_is_used() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name MoveOverhead value 50");
    for variant in ["judkins", "judtho"] {
        e.ask(&format!("setoption name USI_Variant value {variant}"));
        e.send("position startpos");
        let start = Instant::now();
        e.send("go movetime 800");
        e.until(T, |l| l.starts_with("bestmove"));
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(700), "{variant}: go movetime 800 answered after {took:?}");
    }
}

#[test]
fn isready_and_stop_during_go_infinite() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until(T, |l| l == "readyok");
    assert_eq!(bestmoves(&lines), 0, "no bestmove before stop: {lines:?}");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines), 1);
    assert!(e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
    // A stop with no search running prints nothing.
    e.send("stop");
    assert!(e.drain(Duration::from_millis(200)).is_empty());
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name USI_Ponder value true");
    e.send("position startpos moves 6e6d");
    e.send("go ponder btime 1000 wtime 1000 byoyomi 500");
    std::thread::sleep(Duration::from_millis(1500));
    // Pondering never ends by itself, whatever the clock says.
    assert_eq!(bestmoves(&e.drain(Duration::from_millis(10))), 0);
    e.send("ponderhit");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines), 1);
    e.send("go ponder btime 1000 wtime 1000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines), 1);
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos moves 6e6d 1b1c");
    let before = e.ask("d");
    for bad in [
        "position startpos moves 6e6d 1b1c 6d6x",
        "position startpos moves 6e6d 6e6d",
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 1 garbage",
        "position sfen rbnsgk/5p/6/6/P5 b - 1",
        "position fen",
        "position",
        "position nonsense",
        "go depth",
        "go depth -1",
        "go depth 0",
        "go wibble 7",
        "go ytime 1000",
        "go ponder infinite",
        "setoption name USI_Hash value 0",
        "setoption name USI_Hash value 99999999",
        "setoption name USI_Hash value lots",
        "setoption name USI_Ponder value maybe",
        "setoption name USI_Variant value shogi",
        "setoption name NoSuchOption value 1",
        "setoption",
        "gameover maybe",
        "usi please",
        "xyzzy",
        "go perft 0",
        "go depth 18446744073709551616",
        "go depth +5",
        "quit now",
        // Position strings are read exactly: one spelling of each number and each count.
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - +1",
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 01",
        "position sfen rbnsgk/5p/33/6/P5/KGSNBR b - 1",
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b 01P 1",
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 18446744073709551616",
    ] {
        let lines = e.ask(bad);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string error "), "{bad}: {lines:?}");
        assert_eq!(e.ask("d"), before, "{bad} changed the state");
    }
}

#[test]
fn junk_and_long_lines_do_not_hurt() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos moves 6e6d");
    let before = e.ask("d");
    e.send_bytes(b"\xff\xfe\x00\x01binary\x80junk\n");
    e.send_bytes(&vec![b'x'; 3 << 20]);
    e.send_bytes(b"\n");
    e.send_bytes(format!("position startpos moves {}\n", "6e6d ".repeat(300_000)).as_bytes());
    e.send_bytes(b"\r\n\t \n");
    let lines: Vec<String> = e.ask("d").into_iter().filter(|l| !l.starts_with("info string error")).collect();
    let errors = e.log.iter().filter(|l| l.starts_with("info string error")).count();
    assert_eq!(errors, 3, "{:?}", e.log);
    assert_eq!(lines, before);
}

#[test]
fn perft_uses_fairy_stockfish_format() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(T, |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 6183");
    let per_move: Vec<_> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(per_move.len(), 20);
    let sum: u64 = per_move.iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 6183);
}

#[test]
fn d_status_legalmoves_and_mate() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position sfen 5k/6/4G1/6/6/K5 b G 1");
    let status = e.ask("status");
    assert_eq!(status, vec!["status turn b checks - outcome none"]);
    e.send("go depth 4");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains("score mate 1 ")), "{lines:?}");
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    e.send(&format!("position sfen 5k/6/4G1/6/6/K5 b G 1 moves {mv}"));
    assert_eq!(e.ask("status"), vec!["status turn w checks w outcome win b checkmate"]);
    assert_eq!(e.ask("legalmoves"), vec!["legalmoves"]);
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("position ")));
    assert!(d.iter().any(|l| l == "outcome win b checkmate"));
    // Nothing to play: resign.
    e.send("go depth 3");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove resign");
}

#[test]
fn variant_option_announces_and_keeps_state_on_error() {
    let mut e = Engine::start();
    e.handshake();
    let lines = e.ask("setoption name UCI_Variant value judkins");
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with(
            "info string variant judkins files 6 ranks 6 seats b,w startpos rbnsgk/5p/6/6/P5/KGSNBR b - 1"
        )
    );
    let lines = e.ask("setoption name USI_Variant value judtho");
    assert!(lines[0].starts_with("info string variant judtho files 12 ranks 12 seats w,r,y,b"), "{lines:?}");
    let lines = e.ask("setoption name USI_Variant value shatranj");
    assert!(lines[0].starts_with("info string error setoption USI_Variant: unknown variant 'shatranj'"), "{lines:?}");
    assert!(e.ask("status")[0].starts_with("status turn w checks - phase assembly"), "the variant stays judtho");
}

/// Control characters in input that an error line echoes come out escaped, never raw; and
/// `RUST_LOG=debug` logs both what the engine reads and what it writes, on stderr.
#[test]
fn errors_escape_control_characters_and_debug_logs_both_ways() {
    let mut e = Engine::start();
    e.handshake();
    e.send_bytes(b"xy\x00z\x1b[31m\n");
    e.send_bytes(b"position startpos moves 6e6d\x00\n");
    let lines = e.ask("status");
    assert!(lines.iter().all(|l| !l.chars().any(|c| c.is_control())), "{lines:?}");
    assert!(lines[0].contains("'xy\\u{0}z\\u{1b}[31m'"), "{lines:?}");
    assert!(lines[1].contains("6e6d\\u{0}"), "{lines:?}");

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tetrarch"))
        .env("RUST_LOG", "debug")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"isready\nbad\x00\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("<< isready") && log.contains(">> readyok"), "{log}");
    assert!(log.contains("<< bad\\u{0}") && !log.contains('\0'), "{log}");
}

/// Numbers in commands and position strings go up to 64 bits, as section 3 promises.
#[test]
fn sixty_four_bit_numbers_are_taken() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 18446744073709551615");
    assert!(e.ask("d").iter().any(|l| l == "position rbnsgk/5p/6/6/P5/KGSNBR b - 18446744073709551615"));
    for go in [
        "go depth 18446744073709551615 nodes 2000",
        "go mate 18446744073709551615 nodes 2000",
        "go movestogo 18446744073709551615 btime 300 wtime 300",
    ] {
        e.send(go);
        let lines = e.until(T, |l| l.starts_with("bestmove") || l.starts_with("info string error"));
        assert!(lines.last().unwrap().starts_with("bestmove"), "{go}: {lines:?}");
    }
    e.send("setoption name USI_Variant value chaturanga");
    let start = "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0";
    e.send(&format!("position fen {start} 4294967296"));
    assert!(e.ask("d").iter().any(|l| *l == format!("position {start} 4294967296")));
    let lines = e.ask(&format!("position fen {} 1", start.replacen("bSbP2rK", "bSbP11rK", 1)));
    assert!(lines[0].starts_with("info string error"), "{lines:?}");
}

/// A line of exactly 1 MiB is a line; one byte more is refused.
#[test]
fn the_line_limit_is_exactly_one_mebibyte() {
    let mut e = Engine::start();
    e.handshake();
    let head = "position startpos moves 6e6d";
    let mut line = head.to_string();
    line.push_str(&" ".repeat((1 << 20) - head.len()));
    assert_eq!(line.len(), 1 << 20);
    e.send(&line);
    assert!(e.ask("status")[0].starts_with("status turn w "), "{:?}", e.log.last());
    line.push(' ');
    let lines = e.ask(&line);
    assert!(lines[0].starts_with("info string error input line of 1048577 bytes"), "{lines:?}");
}

/// Every command but the five that act at once is answered in the order it was sent, also when
/// it arrives during a search: section 7's script gets `status` after the `bestmove`.
#[test]
fn replies_come_in_the_order_of_the_commands() {
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos");
    // `go infinite` rather than a depth: a depth-limited search can end before `isready` is
    // read, and then `readyok` would rightly come after the queued replies.
    e.send("go infinite");
    for cmd in ["status", "legalmoves", "d", "position startpos moves 6e6d", "status", "xyzzy"] {
        e.send(cmd);
    }
    e.send("isready");
    let first = e.until(T, |l| l == "readyok");
    assert_eq!(bestmoves(&first), 0, "isready is answered at once: {first:?}");
    assert!(!first.iter().any(|l| l.starts_with("status")), "status waits for the search: {first:?}");
    e.send("stop");
    let lines = e.until(T, |l| l.starts_with("info string error"));
    let at = |p: &str| lines.iter().position(|l| l.starts_with(p)).unwrap_or_else(|| panic!("{p}: {lines:?}"));
    let best = at("bestmove");
    assert_eq!(bestmoves(&lines), 1, "{lines:?}");
    assert!(best < at("status turn b"), "{lines:?}");
    assert!(at("status turn b") < at("legalmoves"));
    assert!(at("legalmoves") < at("position rbnsgk"));
    assert!(at("position rbnsgk") < at("status turn w"));
    assert!(at("status turn w") < at("info string error unknown command 'xyzzy'"));
    assert!(!lines[best..].iter().any(|l| l.starts_with("info depth")), "{lines:?}");
}

#[test]
fn commands_after_a_search_wait_for_it_in_order() {
    let mut e = Engine::start();
    e.handshake();
    // A script that does not wait for bestmove: the second search runs after the first,
    // on the position given between them.
    e.send("position startpos");
    e.send("go depth 5");
    e.send("position startpos moves 6e6d");
    e.send("go depth 3");
    e.send("status");
    let mut lines = e.until(T, |l| l.starts_with("bestmove"));
    lines.extend(e.until(T, |l| l.starts_with("bestmove")));
    assert_eq!(bestmoves(&lines), 2);
    // `status` was sent after the second `go`: it is answered after that search's bestmove.
    assert_eq!(e.until(T, |l| l.starts_with("status")), vec!["status turn w checks - outcome none".to_string()]);
    // The second search ran on the second position: gote's move.
    let second = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    e.send("position startpos moves 6e6d");
    assert!(e.ask("legalmoves")[0].split_whitespace().any(|m| m == second));
}

#[test]
fn end_of_input_quits_after_a_bounded_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go movetime 300");
    e.close_stdin();
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines), 1);
    assert!(e.wait_exit(T));
    // An unbounded search is stopped at end of input, with its bestmove.
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    e.until(T, |l| l.starts_with("bestmove"));
    assert!(e.wait_exit(T));
    // quit ends a search at once.
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("quit");
    assert!(e.wait_exit(T));
}

#[test]
fn new_game_and_gameover() {
    let mut e = Engine::start();
    e.handshake();
    e.send("usinewgame");
    e.send("position startpos");
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(50));
    e.send("gameover draw");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines), 1);
    e.send("setoption name USI_Hash value 1");
    assert_eq!(e.ask("usinewgame"), Vec::<String>::new());
}

#[test]
fn chaturanga_four_seat_clocks_states_and_ranking() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name USI_Variant value chaturanga");
    let v = e.until(T, |l| l.starts_with("info string variant"));
    assert!(v.last().unwrap().contains("seats y,b,r,g"), "{v:?}");
    // Black mated: it can only pass, and status says so.
    e.send("position fen bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1");
    assert_eq!(e.ask("legalmoves"), vec!["legalmoves pass"]);
    assert_eq!(e.ask("status"), vec!["status turn b checks b mated b lone - quiet 0 outcome none"]);
    e.send("go btime 1000 ytime 1000 rtime 1000 gtime 1000 binc 10 yinc 10 rinc 10 ginc 10");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove pass");
    // Freed by its partner, black has moves and gets a clocked search of its own.
    e.send("position fen bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1 moves pass h8g8 h1b1 e3e4");
    let d = e.ask("d");
    assert!(d.iter().any(|l| l == "mated -") && d.iter().any(|l| l == "checks b"), "{d:?}");
    e.send("go ytime 5000 btime 300 rtime 5000 gtime 5000");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(["a8b8", "a8b7"].contains(&mv.as_str()), "{mv}");
    // C4: black mated and green a lone king.
    e.send("position fen bK6rK/8/6rP1/8/7gK/2bPrPyK3/8/yRyR6 y - 0 1");
    assert_eq!(e.ask("status"), vec!["status turn y checks b mated b lone g quiet 0 outcome win yr checkmate"]);
    assert_eq!(e.ask("legalmoves"), vec!["legalmoves"]);
    e.send("go depth 3");
    assert_eq!(e.until(T, |l| l.starts_with("bestmove")).last().unwrap(), "bestmove resign");
    // All against all: the ranking follows the outcome.
    e.send("setoption name USI_Variant value chaturanga-ffa");
    e.until(T, |l| l.starts_with("info string variant chaturanga-ffa"));
    e.send("position fen gK7/8/8/4rN2gP/yR2bR4/8/8/3yK4 y br 0 1 moves a4a8");
    assert_eq!(
        e.ask("status"),
        vec!["status turn y checks - out brg quiet 0 outcome win y king-capture ranking y,g,r,b"]
    );
    // A bad move keeps the position.
    e.send("position fen gK7/8/8/4rN2gP/yR2bR4/8/8/3yK4 y br 0 1 moves a4a9");
    let err = e.until(T, |l| l.starts_with("info string error"));
    assert!(err.last().unwrap().contains("a4a9"), "{err:?}");
    assert!(e.ask("status")[0].ends_with("ranking y,g,r,b"));
    // Both searches find the king capture.
    for search in ["paranoid", "brs"] {
        e.send(&format!("setoption name MultiSearch value {search}"));
        e.send("position fen gK7/8/8/4rN2gP/yR2bR4/8/8/3yK4 y br 0 1");
        e.send("go depth 4");
        assert_eq!(e.until(T, |l| l.starts_with("bestmove")).last().unwrap().split(' ').nth(1), Some("a4a8"));
    }
}

#[test]
fn dojo_positions_moves_counters_and_clocks() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name UCI_Variant value dojo");
    let v = e.until(T, |l| l.starts_with("info string variant"));
    assert_eq!(
        v.last().unwrap(),
        "info string variant dojo files 8 ranks 8 seats w,b startpos rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -"
    );
    // A capture leaves a passive member; the text carries it and the counters.
    e.send("position startpos moves e2e4 d7d5 e4d5 d8d5");
    let d = e.ask("d");
    let pos = d.iter().find(|l| l.starts_with("position ")).unwrap();
    assert!(pos.starts_with("position rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 d5:pP "), "{pos}");
    // Counters about to fire are named: the deputy's treason in 1, a belt's promotion in 2.
    e.send("position fen 7k/Q7/8/8/8/8/P7/3N3K w - - 0 1 d2:P a2:0.13.0/W9");
    assert_eq!(
        e.ask("status"),
        vec!["status turn w checks - promotion a2:2 treason a7:1 defection - halfmove 0 outcome none"]
    );
    let moves = e.ask("legalmoves");
    assert!(moves[0].contains(" h1g1@d2 ") && !moves[0].contains(" h1g1 "), "{moves:?}");
    // The white clock is the one used; the move carries its appointee.
    e.send("go wtime 2000 btime 100 winc 10 binc 10");
    let lines = e.until(T, |l| l.starts_with("bestmove"));
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(moves[0].split_whitespace().any(|m| m == mv), "{mv} not in {moves:?}");
    // Bad input is refused with a reason and keeps the position.
    e.send("position fen 7k/Q7/8/8/8/8/P7/3N3K w - - 0 1 d2:P a2:0.13.0/W9 moves h1g1");
    let err = e.until(T, |l| l.starts_with("info string error"));
    assert!(err.last().unwrap().contains("h1g1"), "{err:?}");
    e.send("position fen 7k/8/8/8/8/8/8/7K w - - 0 1 - W3");
    let err = e.until(T, |l| l.starts_with("info string error"));
    assert!(err.last().unwrap().contains("deputy"), "{err:?}");
    assert!(e.ask("status")[0].contains("treason a7:1"));
    // Stalemate by passive members is a draw (D1).
    e.send("position fen k7/8/8/8/8/8/8/7K b - - 0 1 a7:P/b7:P/b8:P -");
    assert_eq!(
        e.ask("status"),
        vec!["status turn b checks - promotion - treason - defection - halfmove 0 outcome draw stalemate"]
    );
    e.send("go depth 2");
    assert_eq!(e.until(T, |l| l.starts_with("bestmove")).last().unwrap(), "bestmove resign");
}

/// Lazy SMP: with several threads every variant still answers each `go` with exactly one legal
/// move, `stop` ends the helpers with the main search, and the option refuses what it cannot take.
#[test]
fn threads_search_together_and_answer_once() {
    let mut e = Engine::start();
    e.handshake();
    for bad in ["setoption name Threads value 0", "setoption name Threads value 257", "setoption name Threads value x"]
    {
        let r = e.ask(bad);
        assert!(r.len() == 1 && r[0].starts_with("info string error setoption Threads"), "{bad}: {r:?}");
    }
    assert!(e.ask("setoption name Threads value 3").is_empty());
    for variant in ["judkins", "dojo", "chaturanga", "chaturanga-ffa", "judtho"] {
        e.ask(&format!("setoption name USI_Variant value {variant}"));
        e.send("position startpos");
        for go in ["go depth 5", "go nodes 20000", "go movetime 150"] {
            e.send(go);
            let lines = e.until(T, |l| l.starts_with("bestmove"));
            let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
            let legal = e.ask("legalmoves");
            assert!(legal[0].split_whitespace().skip(1).any(|m| m == mv), "{variant} {go}: {mv} not in {legal:?}");
        }
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let r = e.ask("setoption name Threads value 1");
        assert!(r.iter().all(|l| !l.starts_with("bestmove")), "the option waits for the search: {r:?}");
        e.send("stop");
        let lines = e.until(T, |l| l.starts_with("bestmove"));
        assert_eq!(bestmoves(&lines), 1);
        assert!(e.ask("setoption name Threads value 3").is_empty());
    }
    assert!(e.drain(Duration::from_millis(300)).is_empty());
}

/// Every position the engine prints, in either dialect, is one that `position` takes back in
/// that dialect: `d`'s `position` line at every ply of a random game, and the start position of
/// the variant's announcement. The UCI dialect's names are the ones its errors list.
#[test]
fn printed_positions_read_back_in_both_dialects() {
    let variants = ["judkins", "dojo", "chaturanga", "chaturanga-ffa", "judtho"];
    for uci in [false, true] {
        let mut e = Engine::start();
        e.send(if uci { "uci" } else { "usi" });
        e.until(T, |l| l == if uci { "uciok" } else { "usiok" });
        let option = if uci { "UCI_Variant" } else { "USI_Variant" };
        let refused = e.ask(&format!("setoption name {option} value nosuchgame"));
        let known = if uci {
            "(known: judkins, dojo, chaturanga4, chaturanga4-ffa, judtho)"
        } else {
            "(known: judkins, dojo, chaturanga, chaturanga-ffa, judtho)"
        };
        assert!(refused.iter().any(|l| l.contains(known)), "{uci}: {refused:?}");
        let mut rng = common::Rng(0x5eed);
        for v in variants {
            let name = match (uci, v) {
                (true, "chaturanga") => "chaturanga4",
                (true, "chaturanga-ffa") => "chaturanga4-ffa",
                _ => v,
            };
            let said = e.ask(&format!("setoption name {option} value {name}"));
            let announced = said
                .iter()
                .find_map(|l| l.strip_prefix("info string variant "))
                .unwrap_or_else(|| panic!("{name}: {said:?}"));
            assert!(announced.starts_with(&format!("{name} ")), "{uci}: {announced}");
            let start = announced.split(" startpos ").nth(1).unwrap().to_string();
            let mut moves: Vec<String> = Vec::new();
            for ply in 0..60 {
                let position = format!("position fen {start} moves {}", moves.join(" "));
                let d = e.ask(&position);
                assert!(d.is_empty(), "{name} ({uci}): {position}: {d:?}");
                let d = e.ask("d");
                let printed = d.iter().find_map(|l| l.strip_prefix("position ")).unwrap().to_string();
                // The printed position, read back, prints the same, and has the same moves.
                let again = e.ask(&format!("position fen {printed}"));
                assert!(again.is_empty(), "{name} ({uci}) ply {ply}: `d` printed '{printed}', refused: {again:?}");
                let d2 = e.ask("d");
                assert_eq!(d2.iter().find_map(|l| l.strip_prefix("position ")), Some(printed.as_str()), "{name}");
                let legal = |e: &mut Engine| e.ask("legalmoves")[0].clone();
                let here = legal(&mut e);
                e.ask(&position);
                assert_eq!(legal(&mut e), here, "{name} ({uci}) ply {ply}: the same moves from '{printed}'");
                let list: Vec<String> = here.split_whitespace().skip(1).map(String::from).collect();
                if list.is_empty() {
                    break;
                }
                moves.push(list[rng.below(list.len())].clone());
            }
        }
    }
}

#[test]
fn evalfile_and_use_nnue_choose_the_evaluation_in_both_dialects() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/nnue/judkins-h16.nnue");
    for (hello, ok, use_nnue) in [("usi", "usiok", "UseNNUE"), ("uci", "uciok", "Use NNUE")] {
        let mut e = Engine::start();
        e.send(hello);
        let lines = e.until(T, |l| l == ok);
        assert!(lines.iter().any(|l| l == "option name EvalFile type string default built-in"), "{lines:?}");
        assert!(lines.iter().any(|l| l == &format!("option name {use_nnue} type check default true")), "{lines:?}");
        e.send(&format!("setoption name EvalFile value {fixture}"));
        let said = e.until(T, |l| l.starts_with("info string"));
        assert_eq!(
            said.last().unwrap(),
            &format!("info string evaluation: network judkins (888 inputs, 16 wide) from {fixture}")
        );
        // A file that is no network is refused with its reason, and the network stays.
        e.send("setoption name EvalFile value Cargo.toml");
        let said = e.until(T, |l| l.starts_with("info string"));
        assert!(said.last().unwrap().starts_with("info string error setoption EvalFile: 'Cargo.toml': not a network"));
        e.send(&format!("setoption name {use_nnue} value false"));
        assert_eq!(
            e.until(T, |l| l.starts_with("info string")).last().unwrap(),
            "info string evaluation: judkins evaluates with its own evaluation"
        );
        e.send(&format!("setoption name {use_nnue} value true"));
        assert!(e.until(T, |l| l.starts_with("info string")).last().unwrap().ends_with(fixture));
        e.send("position startpos");
        e.send("go depth 5");
        let lines = e.until(T, |l| l.starts_with("bestmove"));
        assert_eq!(bestmoves(&lines), 1);
        // Another variant keeps its own evaluation, here its built-in network; the file waits for
        // its variant.
        let dojo = if hello == "usi" { "USI_Variant" } else { "UCI_Variant" };
        e.send(&format!("setoption name {dojo} value dojo"));
        e.until(T, |l| l.starts_with("info string variant dojo"));
        e.send(&format!("setoption name EvalFile value {fixture}"));
        let said = e.until(T, |l| l.starts_with("info string evaluation"));
        assert!(said.iter().any(|l| l == "info string EvalFile: a network for judkins, used when judkins is played"));
        assert_eq!(said.last().unwrap(), "info string evaluation: network dojo (1650 inputs, 32 wide), built in");
        e.send("quit");
        assert!(e.wait_exit(T));
    }
}
