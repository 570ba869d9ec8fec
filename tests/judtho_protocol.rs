//! Judtho through the protocol, as a front end or a script would play it: a full Assembly, the
//! First Checkmate with its promotion, an ally moving the partner's pieces, each of the three
//! outcomes of the Second Checkmate with the turn order the rules give, and the Third
//! Checkmate ending the game.

mod common;
use common::Engine;
use std::time::Duration;

/// An engine playing Judtho.
fn judtho() -> Engine {
    let mut e = Engine::start();
    e.handshake();
    let v = e.ask("setoption name USI_Variant value judtho");
    assert!(v.iter().any(|l| l.starts_with("info string variant judtho files 12 ranks 12 seats w,r,y,b")), "{v:?}");
    e
}

/// `status` for the position given, as a map of its keys (the `outcome` value whole).
fn status(e: &mut Engine, position: &str) -> std::collections::HashMap<String, String> {
    let out = e.ask(&format!("position {position}"));
    assert!(out.iter().all(|l| !l.contains("error")), "{position}: {out:?}");
    let line = e.ask("status").into_iter().find(|l| l.starts_with("status ")).expect("a status line");
    let (head, outcome) = line.split_once(" outcome ").expect("an outcome");
    let words: Vec<&str> = head.split_whitespace().skip(1).collect();
    let mut map: std::collections::HashMap<String, String> =
        words.chunks(2).map(|c| (c[0].to_string(), c.get(1).unwrap_or(&"").to_string())).collect();
    map.insert("outcome".into(), outcome.to_string());
    map
}

fn legal(e: &mut Engine, position: &str) -> Vec<String> {
    e.ask(&format!("position {position}"));
    let line = e.ask("legalmoves").into_iter().find(|l| l.starts_with("legalmoves")).unwrap();
    line.split_whitespace().skip(1).map(String::from).collect()
}

/// Plays `turns` more turns from `position moves ...`, each the first legal move that does
/// not change the relationships, and checks that the seats move in `order`.
fn follow(e: &mut Engine, start: &str, mut moves: Vec<String>, order: &str) -> Vec<String> {
    for want in order.chars() {
        let here = if moves.is_empty() { start.to_string() } else { format!("{start} {}", moves.join(" ")) };
        let st = status(e, &here);
        assert_eq!(st["turn"], want.to_string(), "{here}");
        let before = st["alliances"].clone();
        let choice = legal(e, &here)
            .into_iter()
            .find(|m| status(e, &format!("{here} {m}"))["alliances"] == before)
            .expect("a quiet move");
        moves.push(choice);
    }
    moves
}

const ASSEMBLY: &str = "P*c4 B*c12 P*k4 Q*k12 P*a4 S*f9 P*l3 S*h9 S*f1 Q*e9 S*h3 R*g10 Q*f4 N*f10 Q*j2 B*i9 R*d2 \
    P*a9 N*g4 P*l9 B*e4 R*b11 B*k2 N*j9 N*b4 P*a10 P*l4 P*h11 P*b3 P*d10 R*i1 P*l11 P*a3 P*a11 P*g3 P*l10 P*c3 \
    P*a12 P*k3 P*k10 P*e3 K*e11 P*j4 P*k9 K*e1 P*d9 K*k1 K*k11";

#[test]
fn a_full_assembly_then_the_first_battle() {
    let mut e = judtho();
    let placements: Vec<&str> = ASSEMBLY.split_whitespace().collect();
    assert_eq!(placements.len(), 48);
    for i in 0..48 {
        let st = status(&mut e, &format!("startpos moves {}", placements[..i].join(" ")));
        assert_eq!(st["phase"], "assembly");
        assert_eq!(st["turn"], ["w", "r", "y", "b"][i % 4], "placement {}", i + 1);
    }
    let done = format!("startpos moves {ASSEMBLY}");
    let st = status(&mut e, &done);
    assert_eq!((st["phase"].as_str(), st["turn"].as_str(), st["cycle"].as_str()), ("ascendancy", "w", "wryb"));
    assert_eq!(st["hands"], "w:C,r:C,y:C,b:C", "each hand keeps the one of Prince and Princess not placed");
    // A placement is no longer legal; a move is, and the engine finds one on four clocks.
    let bad = e.ask(&format!("{} P*a1", done.replacen("startpos", "position startpos", 1)));
    assert!(bad.iter().any(|l| l.starts_with("info string error position: move 49 'P*a1'")), "{bad:?}");
    e.send(&format!("position {done}"));
    e.send("go wtime 3000 rtime 3000 ytime 3000 btime 3000 winc 100 rinc 100 yinc 100 binc 100");
    let best = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let mv = best.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(legal(&mut e, &done).contains(&mv), "{mv}");
}

#[test]
fn the_first_checkmate_promotes_and_the_first_ally_moves_the_second_allys_pieces() {
    let mut e = judtho();
    let start = "fen rK10bK/rPrP10/2rP9/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:C,y:S,b:S - wryb 0 100";
    let moves = legal(&mut e, start);
    for suffix in ["/a11", "/b11", "/c10"] {
        assert!(moves.contains(&format!("h6h12{suffix}")), "{moves:?}");
    }
    assert!(!moves.contains(&"h6h12".to_string()), "a checkmate that gives a promotion always names it");
    let mate = format!("{start} moves h6h12/a11");
    let st = status(&mut e, &mate);
    assert_eq!(st["alliances"], "w1r2");
    assert_eq!(st["rivals"], "-");
    assert_eq!(st["moves"], "w:wr,r:r,y:y,b:b");
    assert_eq!((st["turn"].as_str(), st["cycle"].as_str()), ("r", "rybw"), "the turn order is unchanged");
    e.ask(&format!("position {mate}"));
    let d = e.ask("d");
    assert!(
        d.iter().any(|l| l == "position rK6wR3bK/rCrP10/2rP9/12/12/12/12/12/12/12/12/wK10yK r w:S,r:,y:S,b:S wr rybw 0 101"),
        "Red's pawn a11 became its Prince: {d:?}"
    );
    // Red, Yellow and Black move; then White may move Red's pieces, Red may not move White's.
    let moves = follow(&mut e, &mate, Vec::new(), "ryb");
    let here = format!("{mate} {}", moves.join(" "));
    let white = legal(&mut e, &here);
    assert!(white.iter().any(|m| m.starts_with("a11")), "White moves Red's Prince: {white:?}");
    assert!(white.iter().any(|m| m.starts_with("a12")), "and Red's king: {white:?}");
    let m = white.iter().find(|m| m.starts_with("a11")).unwrap().clone();
    let next = format!("{here} {m}");
    assert_eq!(status(&mut e, &next)["turn"], "r");
    let red = legal(&mut e, &next);
    assert!(!red.is_empty());
    for m in &red {
        assert!(!["h12", "a1"].contains(&origin(m)), "Red may not move White's rook or king: {m}");
    }
}

/// The square a move starts from.
fn origin(m: &str) -> &str {
    let digits = m[1..].find(|c: char| !c.is_ascii_digit()).map(|i| i + 1).unwrap_or(m.len());
    &m[..digits]
}

#[test]
fn second_checkmate_the_alliance_mates_a_single_player() {
    let mut e = judtho();
    let start = "fen rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100";
    let mate = format!("{start} moves h6h1/k2");
    let st = status(&mut e, &mate);
    assert_eq!(st["alliances"], "w1r2y3", "Yellow joins as Third Ally");
    assert_eq!(st["moves"], "w:wry,r:ry,y:y,b:b");
    // T9: Black, single, moves right after; then the members from the one after the mater
    // (White): Red, Yellow, White, each turn of theirs alternating with Black's.
    assert_eq!(st["cycle"], "brbybw");
    follow(&mut e, &mate, Vec::new(), "brbybwbrbybw");
}

#[test]
fn second_checkmate_a_single_player_mates_an_alliance_king() {
    let mut e = judtho();
    let start = "fen rK10bK/rPrP10/12/12/12/12/7yR4/12/12/2wN9/12/wK10yK y w:S,r:,y:C,b:S wr ybwr 0 100";
    let mate = format!("{start} moves h6h12");
    let st = status(&mut e, &mate);
    assert_eq!(st["alliances"], "y1w2r3", "Yellow leads; White and Red step down");
    assert_eq!(st["moves"], "w:wr,r:r,y:wry,b:b");
    // Black is single and moves next; the members from the one after Yellow: White, Red, Yellow.
    assert_eq!(st["cycle"], "bwbrby");
    follow(&mut e, &mate, Vec::new(), "bwbrbybwbrby");
}

#[test]
fn second_checkmate_a_single_player_mates_the_other() {
    let mut e = judtho();
    let start = "fen rK10bK/10bPbP/12/12/12/12/7yR4/12/12/12/12/wK10yK y w:S,r:,y:C,b:S wr ybwr 0 100";
    let mate = format!("{start} moves h6h12/k11");
    let st = status(&mut e, &mate);
    assert_eq!(st["alliances"], "w1r2,y1b2");
    assert_eq!(st["moves"], "w:wr,r:r,y:yb,b:b");
    // A second Double Alliance leaves the turn order as it was.
    assert_eq!(st["cycle"], "bwry");
    follow(&mut e, &mate, Vec::new(), "bwrybwry");
}

#[test]
fn the_third_checkmate_ends_the_game() {
    let mut e = judtho();
    let start = "fen rK10bK/10bPbP/12/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:,y:,b:C wry wbrbyb 0 100";
    let mate = format!("{start} moves h6h12");
    let st = status(&mut e, &mate);
    assert_eq!(st["outcome"], "win wry checkmate");
    assert_eq!(st["phase"], "over");
    assert!(legal(&mut e, &mate).is_empty());
    e.send(&format!("position {mate}"));
    e.send("go depth 3");
    let best = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    assert_eq!(best.last().unwrap(), "bestmove resign");
    let after = e.ask(&format!("position {mate} l12k11"));
    assert!(after.iter().any(|l| l.contains("after the game ended")), "{after:?}");
}

/// T10's stalemate ends the game as a third checkmate does: the phase says `over` for both
/// (the page and `d` showed `dominion` after a stalemate).
#[test]
fn a_stalemate_is_over_like_a_third_checkmate() {
    let mut e = judtho();
    // Black, single against the Triple Alliance, has no move and is not in check: White's
    // queen on j11 guards k12, k11 and l11.
    let st = status(&mut e, "fen rK10bK/9wQ2/12/12/12/12/12/12/12/12/12/wK10yK b w:S,r:C,y:,b:S wry brbybw 0 100");
    assert_eq!(st["outcome"], "draw stalemate", "{st:?}");
    assert_eq!(st["phase"], "over", "{st:?}");
    assert!(
        legal(&mut e, "fen rK10bK/9wQ2/12/12/12/12/12/12/12/12/12/wK10yK b w:S,r:C,y:,b:S wry brbybw 0 100").is_empty()
    );
    // One move earlier Black still had k12: the Battles go on.
    let st = status(&mut e, "fen rK10bK/12/12/12/12/12/12/12/12/12/12/wK10yK b w:S,r:C,y:,b:S wry brbybw 0 100");
    assert_eq!(st["phase"], "dominion", "{st:?}");
}
