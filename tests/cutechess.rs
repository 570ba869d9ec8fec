//! tetrarch under Cute Chess, the tournament manager, in Judkins: against Fairy-Stockfish and
//! against itself, over the UCI dialect (protocol-spec.md, section 8), with openings. Cute
//! Chess's own verdicts must show no illegal move, disconnection or time forfeit, and its PGN,
//! replayed through tetrarch's rules, must end every game as Cute Chess says.
//!
//! Needs `cutechess-cli` (with Qt 6's core library) and Fairy-Stockfish, found by
//! `common::peers` (`CUTECHESS_CLI`, `FAIRY_STOCKFISH`); without them the test is skipped with a
//! line, unless `TETRARCH_REQUIRE_PEERS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;
use tetrarch::arbiter::record::parse_pgn;
use tetrarch::games::judkins::{Judkins, uci};
use tetrarch::rules::prelude::*;
use tetrarch::rules::{Seat, Termination};

const ENGINE: &str = env!("CARGO_BIN_EXE_tetrarch");

mod common;
use common::impasse::{Impasse, cutechess_impasse};
use common::peers::{CUTECHESS_CLI, FAIRY_STOCKFISH, peer};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrarch-cutechess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The openings of fixtures/judkins-openings.txt as Cute Chess reads them, one FEN a line, made
/// as the README makes them: `tetrarch openings --uci`.
fn openings_epd() -> PathBuf {
    let out = Command::new(ENGINE)
        .args(["openings", "--variant", "judkins", "--uci"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/judkins-openings.txt"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().count() >= 10 && text.lines().all(|l| l.contains('[')), "{text}");
    let p = tmp("judkins.epd");
    std::fs::write(&p, text).unwrap();
    p
}

/// The piece on each square of an SFEN board, by Fairy-Stockfish's square name (`b2`).
fn board(sfen: &str) -> std::collections::HashMap<String, String> {
    let mut squares = std::collections::HashMap::new();
    for (row, rank) in sfen.split_whitespace().next().unwrap().split('/').enumerate() {
        let (mut col, mut promoted) = (0u8, false);
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                col += d as u8;
            } else if c == '+' {
                promoted = true;
            } else {
                let name = format!("{}{}", (b'a' + col) as char, 6 - row);
                squares.insert(name, format!("{}{}", if promoted { "+" } else { "" }, c.to_ascii_uppercase()));
                col += 1;
                promoted = false;
            }
        }
    }
    squares
}

/// The legal moves that a Cute Chess SAN token (`Rf3`, `+Bxd3`, `Sbc4+`, `P@c3`) can stand for,
/// in tetrarch's own texts. A trailing `+` is a check or a promotion: both readings are kept,
/// the one that promotes first.
fn san_candidates(pos: &Judkins, san: &str) -> Vec<String> {
    let token = san.trim_end_matches(['#', '!', '?']);
    let squares = board(&pos.to_text());
    let mut list = MovesOf::<Judkins>::default();
    pos.legal_moves(&mut list);
    let mut found: Vec<String> = Vec::new();
    for &m in list.iter() {
        let usi = pos.format_move(m);
        let ours = uci::move_out(&usi);
        let fits = if let Some((piece, to)) = ours.split_once('@') {
            token.trim_end_matches('+') == format!("{}@{}", piece, to)
        } else {
            let (from, to, promotes) = (&ours[0..2], &ours[2..4], ours.ends_with('+'));
            let piece = &squares[from];
            let capture = squares.contains_key(to);
            let Some(body) = token.strip_prefix(piece.as_str()) else { continue };
            let Some(at) = body.find(to) else { continue };
            let (between, after) = (&body[..at], &body[at + 2..]);
            let between_ok = between.chars().all(|c| match c {
                'x' => capture,
                'a'..='f' => from.starts_with(c),
                '1'..='6' => from.ends_with(c),
                _ => false,
            }) && capture == between.contains('x');
            let after_ok = after.chars().all(|c| c == '+' || c == '=') && (!promotes || after.contains('+'));
            between_ok && after_ok && !(promotes && after.contains('='))
        };
        if fits {
            found.push(usi);
        }
    }
    found.sort_by_key(|m| !m.ends_with('+'));
    found
}

/// Replays SAN tokens from `record`, trying each reading of an ambiguous token, until the whole
/// game replays with `end` saying nothing before the last move and something after it; what it
/// says then.
fn replay_until<T>(
    record: &Record<Judkins>,
    moves: &[String],
    end: &impl Fn(&Record<Judkins>) -> Option<T>,
) -> Option<T> {
    let verdict = end(record);
    let Some((first, rest)) = moves.split_first() else {
        return verdict;
    };
    if verdict.is_some() {
        return None;
    }
    for usi in san_candidates(&record.current, first) {
        let mut next = record.clone();
        if next.play_text(&usi).is_ok()
            && let Some(v) = replay_until(&next, rest, end)
        {
            return Some(v);
        }
    }
    None
}

/// The game replayed to its end by the rules; the record at the end.
fn replay(record: &Record<Judkins>, moves: &[String]) -> Option<Record<Judkins>> {
    replay_until(record, moves, &|r: &Record<Judkins>| r.outcome().is_some().then(|| r.clone()))
}

/// A game that Cute Chess ended by its impasse rule: replayed, going on by tetrarch's rules and
/// untouched by that rule until the last move, after which the rule applies. The verdict.
fn replay_to_impasse(record: &Record<Judkins>, moves: &[String]) -> Option<Impasse> {
    // A game over by tetrarch's rules says `Some(None)`: it ends the replay, and fails it.
    let end =
        |r: &Record<Judkins>| if r.outcome().is_some() { Some(None) } else { cutechess_impasse(&r.current).map(Some) };
    replay_until(record, moves, &end).flatten()
}

/// Plays a Cute Chess match and returns its PGN file and what it printed.
fn cutechess(cutechess: &Path, second: &str, games: usize, pgn: &Path, epd: &Path) -> String {
    let out = Command::new(cutechess)
        .args(["-variant", "judkins", "-engine", "name=tetrarch", &format!("cmd={ENGINE}"), "proto=uci"])
        .args(["-engine", &format!("name={}", if second == ENGINE { "tetrarch-2" } else { "fsf" })])
        .args([&format!("cmd={second}"), "proto=uci"])
        // Both engines keep 100 ms for the pipes, as a GUI user on a busy machine would; Cute
        // Chess allows the same 100 ms of lateness before it calls a loss on time.
        .args(["-each", "tc=1+0.05", "timemargin=100", "option.Hash=16", "option.Move Overhead=100"])
        .args(["-games", &games.to_string(), "-repeat", "-concurrency", "2"])
        .args(["-openings", &format!("file={}", epd.display()), "format=epd", "order=sequential"])
        .args(["-pgnout", &pgn.display().to_string()])
        .output()
        .expect("cutechess-cli runs (it needs libqt6core6)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "cutechess-cli failed: {}\n{}", text, String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn cute_chess_plays_judkins_against_fairy_stockfish_and_itself() {
    let (Some(cutechess_cli), Some(fsf)) = (peer(&CUTECHESS_CLI), peer(&FAIRY_STOCKFISH)) else { return };
    let epd = openings_epd();
    let (mut total, mut impasses) = (0, 0);
    for (second, games) in [(fsf.display().to_string(), 12), (ENGINE.to_string(), 8)] {
        let pgn = tmp(&format!("games-{games}.pgn"));
        let printed = cutechess(&cutechess_cli, &second, games, &pgn, &epd);
        // Cute Chess's verdicts: every game finished, none by a fault.
        let finished: Vec<&str> = printed.lines().filter(|l| l.starts_with("Finished game")).collect();
        assert_eq!(finished.len(), games, "{printed}");
        for l in &finished {
            let verdict = l.to_lowercase();
            for fault in ["illegal", "disconnect", "on time", "stall", "crash", "connection"] {
                assert!(!verdict.contains(fault), "{l}");
            }
        }
        assert!(printed.contains("Score of tetrarch vs"), "{printed}");
        // Its PGN, replayed through tetrarch's rules, ends every game as it says.
        let parsed = parse_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
        assert_eq!(parsed.len(), games);
        for g in &parsed {
            let start = match g.tag("FEN") {
                Some(fen) => Judkins::from_text(&uci::fen_in(fen).unwrap()).unwrap(),
                None => Judkins::startpos(),
            };
            // Cute Chess ends some games by its own impasse rule (entering kings, a point count),
            // which tetrarch's Judkins does not play (ruling J1) but knows
            // (`tests/common/impasse.rs`): such a game must replay legally, go on by tetrarch's
            // rules, and meet that rule first after its last move, with Cute Chess's result.
            // Every other game must end by tetrarch's rules as Cute Chess says.
            let verdict = g.comments.last().map(|c| c.1.as_str()).unwrap_or("");
            let impasse = verdict.contains("Impasse");
            if impasse {
                let v = replay_to_impasse(&Record::new(start.clone()), &g.moves).unwrap_or_else(|| {
                    panic!(
                        "game {:?} ({verdict}) does not replay to the position where Cute Chess's rule first applies: {:?}",
                        g.tag("Round"),
                        g.moves
                    )
                });
                // Cute Chess's white is sente.
                let ours = match v {
                    Impasse::Draw => "1/2-1/2",
                    Impasse::Win(0) => "1-0",
                    Impasse::Win(_) => "0-1",
                };
                assert_eq!(ours, g.result, "game {:?} ({verdict}): {:?}", g.tag("Round"), g.moves);
                impasses += 1;
                continue;
            }
            let end = replay(&Record::new(start.clone()), &g.moves).unwrap_or_else(|| {
                // Where the first reading of each move goes wrong, for the message.
                let mut r = Record::new(start.clone());
                let mut at = g.moves.len();
                for (i, m) in g.moves.iter().enumerate() {
                    match san_candidates(&r.current, m).first() {
                        Some(u) if r.play_text(u).is_ok() => {}
                        _ => {
                            at = i;
                            break;
                        }
                    }
                }
                panic!(
                    "game {:?} ({} {:?}) does not replay to an end; first stuck at move {} of {}, in {}: {:?}",
                    g.tag("Round"),
                    g.result,
                    g.comments.last(),
                    at,
                    g.moves.len(),
                    r.current.to_text(),
                    g.moves
                )
            });
            let outcome = end.outcome().expect("replay ends in an outcome");
            // Fairy-Stockfish's white is sente, seat 0.
            let ours = if outcome.is_draw() {
                "1/2-1/2"
            } else if outcome.winners.contains(Seat(0)) {
                "1-0"
            } else {
                "0-1"
            };
            assert_eq!(ours, g.result, "game {:?} ({:?}): {:?}", g.tag("Round"), outcome.reason, g.moves);
            assert!(matches!(
                outcome.reason,
                Termination::Checkmate | Termination::Repetition | Termination::PerpetualCheck | Termination::Stalemate
            ));
        }
        total += games;
    }
    assert!(total >= 20);
    // Most games end by the rules both programs share.
    assert!(impasses * 4 <= total, "{impasses} of {total} games ended by Cute Chess's impasse rule");
    eprintln!("{total} games under Cute Chess, {impasses} ended by its impasse rule");
}

#[test]
fn cute_chess_impasse_needs_both_kings_in_the_movers_zone() {
    // Sente's king on 4b, gote's at home on 1a; sente holds everything but gote's king and
    // pawn: R B G S N on the board or in hand (5+5+1+1+1) and a pawn: 14, a draw.
    let p = Judkins::from_text("5k/2K3/6/6/6/RBGSNP b - 1").unwrap();
    assert_eq!(cutechess_impasse(&p), Some(Impasse::Draw));
    // With gote's pawn taken too, a rook more in hand: 19 points, sente wins.
    let p = Judkins::from_text("5k/2K3/6/6/6/RBGSN1 b RP 1").unwrap();
    assert_eq!(cutechess_impasse(&p), Some(Impasse::Win(0)));
    // A dragon (5), G S N and two pawns in hand written as a count: 10, under 12: gote wins.
    let p = Judkins::from_text("5k/2K3/6/6/6/+RGSN2 b 2P 1").unwrap();
    assert_eq!(cutechess_impasse(&p), Some(Impasse::Win(1)));
    // Gote to move: its king is not in its zone.
    let p = Judkins::from_text("5k/2K3/6/6/6/RBGSNP w - 1").unwrap();
    assert_eq!(cutechess_impasse(&p), None);
    // Not at the start.
    assert_eq!(cutechess_impasse(&Judkins::startpos()), None);
}
