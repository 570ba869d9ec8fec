//! Thousands of random and mutated lines into one session: it must never panic, must answer
//! every bad line with an error, and a bad line must leave the state exactly as it was.

mod common;
use common::Rng;
use std::io::Write;
use std::sync::{Arc, Mutex};
use tetrarch::protocol::{Output, Session};

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn take(&self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut *self.0.lock().unwrap())).into_owned()
    }
}

const SEEDS: &[&str] = &[
    "usi",
    "uci",
    "isready",
    "usinewgame",
    "ucinewgame",
    "position startpos",
    "position startpos moves 6e6d 1b1c 6d6c",
    "position startpos moves 2f4d 5a3c 4d3c+",
    "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 1",
    "position sfen 2r3/1P4/2N2k/3s2/1G2p1/2KN2 w SR2Bg 30 moves S*3c",
    "position fen 5k/6/4G1/6/6/K5 b G 1 moves G*1b",
    "go depth 2",
    "go nodes 300",
    "go movetime 5",
    "go btime 50 wtime 50 byoyomi 10",
    "go infinite",
    "go ponder btime 100 wtime 100",
    "go perft 2",
    "go mate 1",
    "stop",
    "ponderhit",
    "gameover win",
    "setoption name USI_Hash value 2",
    "setoption name USI_Variant value judkins",
    "setoption name MoveOverhead value 10",
    "setoption name USI_Ponder value true",
    "d",
    "legalmoves",
    "status",
];

const WORDS: &[&str] = &[
    "go",
    "position",
    "moves",
    "startpos",
    "sfen",
    "fen",
    "depth",
    "nodes",
    "btime",
    "wtime",
    "binc",
    "byoyomi",
    "movestogo",
    "infinite",
    "ponder",
    "perft",
    "mate",
    "setoption",
    "name",
    "value",
    "-1",
    "0",
    "1",
    "18446744073709551616",
    "6e6d",
    "P*3c",
    "5a1e+",
    "+",
    "*",
    "/",
    "b",
    "w",
    "-",
    "\u{0}",
    "\u{7f}",
    "é",
    "🀄",
    "\t",
    "quitx",
    "e2e4",
    "b7b8/c5",
    "h1g1@d2",
    "d5:pP",
    "a2:0.14.0",
    "W9",
    "b9",
    ":",
    "@",
    ".",
    "KQkq",
    "K*c2",
    "h6h12/a11",
    "e5g7j",
    "e5xc4xg4",
    "pass",
    "wryb",
    "bwbrby",
    "wr,yb",
    "w:d12!",
    "w:KQCSRNBPPPPPP,r:,y:C,b:S",
    "rtime",
    "ytime",
    "12/12",
];

/// Dojo lines: stacks, counters and the suffixed moves of D6 and D9.
const DOJO_SEEDS: &[&str] = &[
    "setoption name UCI_Variant value dojo",
    "position startpos moves e2e4 d7d5 e4d5 d8d5",
    "position fen 7k/Q7/8/8/8/8/8/3N3K w - - 0 1 d2:P W9 moves h1g1@d2 h8g8",
    "position fen 4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - - moves b7b8/c5",
    "position fen r3k2r/8/8/8/8/8/1P2P3/R3K2R w KQkq - 0 1 c1:p/b3:n - moves e1g1",
    "position fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2 - - moves e5d6",
    "position fen 6k1/8/5R2/8/8/8/8/K7 w - - 0 1 - f6:0.0.13 moves a1b1 g8h8",
    "go depth 2",
    "go wtime 50 btime 50 winc 5",
    "go perft 2",
    "d",
    "legalmoves",
    "status",
];

/// Judtho lines: placements, the Assembly's checks field, suffixed, jump and distant captures,
/// alliances and turn cycles, four clocks.
const JUDTHO_SEEDS: &[&str] = &[
    "setoption name UCI_Variant value judtho",
    "position startpos moves K*c2 Q*d12 P*g2 R*h10 S*e4",
    "position fen 3rR7bP/12/12/12/12/12/12/12/12/12/12/3wK2yP5 w w:QCSRNBPPPPPP,r:KQCSNBPPPPPP,y:KQCSRNBPPPPP,b:KQCSRNBPPPPP - wryb 0 5 w:d12! moves Q*d3",
    "position fen rK10bK/rPrP10/2rP9/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:C,y:S,b:S - wryb 0 100 moves h6h12/a11 a12b12",
    "position fen rK10bK/12/12/12/12/2bP1wP1rP5/5rP6/4wS7/12/12/12/wK10yK w w:S,r:S,y:S,b:S - wryb 0 100 moves e5g7j",
    "position fen rK10bK/12/12/12/12/3rP1bN6/6yP5/4wN7/2rB3bR5/12/12/wK10yK w w:S,r:S,y:S,b:S - wryb 0 100 moves e5xc4xg4",
    "position fen rK10bK/10bPbP/12/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:,y:,b:C wry wbrbyb 0 100 moves h6h12",
    "position fen rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100",
    "position fen rK11/11wR/10bK1/12/12/12/12/12/12/12/1wR10/wK10yK r w:S,r:S,y:S,b:S - rybw 0 100 moves pass",
    "go depth 2",
    "go wtime 50 rtime 50 ytime 50 btime 50 winc 5 rinc 5",
    "go perft 1",
    "d",
    "legalmoves",
    "status",
];

fn mutate(rng: &mut Rng, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    match rng.below(6) {
        0 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.remove(i);
        }
        1 => {
            let i = rng.below(chars.len() + 1);
            chars.insert(i, char::from_u32(rng.below(0x300) as u32).unwrap_or('?'));
        }
        2 if !chars.is_empty() => {
            chars.truncate(rng.below(chars.len()));
        }
        3 => {
            let mut words: Vec<&str> = line.split(' ').collect();
            let i = rng.below(words.len() + 1);
            words.insert(i, WORDS[rng.below(WORDS.len())]);
            return words.join(" ");
        }
        4 => {
            let n = 1 + rng.below(8);
            return (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect::<Vec<_>>().join(" ");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

#[test]
fn random_and_mutated_lines_never_break_the_session() {
    fuzz(SEEDS, &[], 0x5EED, 20000, 4000);
}

#[test]
fn random_and_mutated_dojo_lines_never_break_the_session() {
    fuzz(DOJO_SEEDS, &["setoption name UCI_Variant value dojo"], 0xD070, 8000, 1500);
}

#[test]
fn random_and_mutated_judtho_lines_never_break_the_session() {
    fuzz(JUDTHO_SEEDS, &["setoption name UCI_Variant value judtho"], 0x1D7, 6000, 1000);
}

fn fuzz(seeds: &[&str], setup: &[&str], seed: u64, lines: usize, min_errors: usize) {
    let buf = Buf::default();
    let mut session = Session::new(Arc::new(Output::new(Box::new(buf.clone()))));
    for l in setup {
        session.input(l);
    }
    buf.take();
    let mut rng = Rng(seed);
    let mut errors = 0;
    for i in 0..lines {
        let seed = seeds[rng.below(seeds.len())];
        let line = if rng.below(3) == 0 { seed.to_string() } else { mutate(&mut rng, seed) };
        if line.trim() == "quit" {
            continue;
        }
        session.input("d");
        session.input("stop");
        let before = buf.take();
        session.input(&line);
        session.input("stop");
        let out = buf.take();
        // A go always ends in exactly one bestmove once stopped.
        let go_like = out.lines().filter(|l| l.starts_with("bestmove")).count();
        assert!(go_like <= 1, "line {i} {line:?}: {out}");
        if out.lines().any(|l| l.starts_with("info string error")) {
            errors += 1;
            session.input("d");
            session.input("stop");
            assert_eq!(buf.take(), before, "line {i} {line:?} was refused but changed the state");
        }
        assert!(!session.has_pending(), "line {i} {line:?} left commands waiting");
    }
    assert!(errors > min_errors, "only {errors} lines were refused: the mutations are too tame");
    session.shutdown();
}
