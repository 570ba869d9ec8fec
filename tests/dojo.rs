//! Dojo chess: the orthodox core against shakmaty, the rules against a deliberately simple
//! second implementation (`tests/dojo_ref`), the perft suite in fixtures/, every counter driven
//! to the move on which it fires, and random games to the end with invariants at every ply.

mod common;
mod dojo_ref;

use dojo_ref::RefPos;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Role};
use std::collections::BTreeSet;
use tetrarch::games::dojo::Dojo;
use tetrarch::rules::prelude::*;
use tetrarch::rules::{Record, Termination, perft};

fn moves_of(pos: &Dojo) -> Vec<String> {
    let mut list = Default::default();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

fn dojo(text: &str) -> Dojo {
    Dojo::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(pos: &Dojo, mv: &str) -> Dojo {
    let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv} in {}: {e}; legal {:?}", pos.to_text(), moves_of(pos)));
    let mut p = pos.clone();
    p.play(m);
    assert_eq!(p.hash(), p.hash_from_scratch(), "hash after {mv}");
    p
}

// ---- the orthodox core ----

/// Well-known perft positions (Chess Programming Wiki), all with one deputy a side at most.
const ORTHODOX: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
];

/// Our legal moves split as shakmaty's are: plain moves, and the (from, to) of moves onto the
/// last rank (promotions there, D6 moves here).
fn split(
    moves: impl Iterator<Item = String>,
    last_rank: &dyn Fn(&str) -> bool,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut plain = BTreeSet::new();
    let mut last = BTreeSet::new();
    for m in moves {
        if last_rank(&m) {
            last.insert(m[..4].to_string());
        } else {
            plain.insert(m);
        }
    }
    (plain, last)
}

fn compare_with_chess(chess: &Chess) -> bool {
    let fen = Fen::from_position(chess.clone(), EnPassantMode::Legal).to_string();
    if chess.board().queens().intersect(chess.board().white()).count() > 1
        || chess.board().queens().intersect(chess.board().black()).count() > 1
    {
        // Dojo has at most one active deputy a side; orthodox positions with two are not Dojo's.
        assert!(Dojo::from_text(&format!("{fen} - -")).is_err());
        return false;
    }
    let pos = dojo(&format!("{fen} - -"));
    assert_eq!(pos.to_text(), format!("{fen} - -"), "FEN round trip");
    let pawns = chess.board().pawns();
    let is_last = |m: &str| {
        let from = shakmaty::Square::from_ascii(&m.as_bytes()[..2]).unwrap();
        let rank = m.as_bytes()[3];
        pawns.contains(from) && (rank == b'8' || rank == b'1')
    };
    let theirs = chess.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect::<Vec<_>>();
    let (tp, tl) = split(theirs.into_iter(), &|m: &str| m.len() == 5);
    let mine = moves_of(&pos);
    let (mp, ml) = split(mine.iter().cloned(), &is_last);
    assert_eq!(mp, tp, "plain moves differ in {fen}");
    // Every promotion of chess is a D6 move here. D6 adds moves where freezing the checker is
    // what answers a check; those exist only with that choice.
    assert!(tl.is_subset(&ml), "last-rank moves missing in {fen}: {tl:?} vs {ml:?}");
    for extra in ml.difference(&tl) {
        assert!(chess.is_check(), "{extra} in {fen}");
        assert!(!mine.iter().any(|m| m == extra), "bare {extra} cannot answer the check in {fen}");
    }
    // D6: each move onto the last rank comes at most once per active enemy piece but the
    // antisensei, and once without a choice. (The bare move may be missing where the yellow belt
    // blocked a check on the last rank: it leaves the game on arrival.)
    let targets = chess.board().by_color(!chess.turn()).count() - 1;
    for base in &ml {
        let n = mine.iter().filter(|m| m.starts_with(base.as_str())).count();
        assert!(n >= 1 && n <= targets + 1, "{base} has {n} versions in {fen}");
    }
    true
}

#[test]
fn orthodox_positions_give_orthodox_moves_except_d6() {
    let mut checked = 0;
    for fen in ORTHODOX {
        let chess: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        assert!(compare_with_chess(&chess), "{fen} should be a Dojo position");
        checked += 1;
    }
    // Random games from the start and from each well-known position.
    let mut rng = common::Rng(0xD_070C_4E55);
    let mut game = 0;
    while checked < 1200 {
        let fen = ORTHODOX[game % ORTHODOX.len()];
        game += 1;
        let mut chess: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        for _ in 0..60 {
            let moves = chess.legal_moves();
            if moves.is_empty() || chess.halfmoves() >= 100 {
                break;
            }
            let m = moves[rng.below(moves.len())].clone();
            if m.promotion() == Some(Role::Queen) && rng.below(2) == 0 {
                continue;
            }
            chess.play_unchecked(&m);
            if compare_with_chess(&chess) {
                checked += 1;
            }
        }
    }
    assert!(checked >= 1000);
}

/// D6 and D11 where orthodox chess differs: the pawn that leaves a rank can expose its own
/// antisensei, and making the checker passive is then the only way.
#[test]
fn last_rank_removal_can_expose_and_the_choice_can_save() {
    // The rook h8 checks the antisensei a8 along the last rank. In chess e7-e8 would block;
    // here the yellow belt leaves the game on arrival, so only freezing the rook helps.
    let pos = dojo("K6r/4P3/8/8/8/8/8/k7 w - - 0 1 - -");
    assert_eq!(moves_of(&pos), ["a8a7", "a8b7", "e7e8/h8"]);
}

// ---- the reference generator ----

/// Compares the legal moves and the positions after them at every node of the tree.
fn cross_check(pos: &Dojo, r: &RefPos, depth: u32) {
    let mine = moves_of(pos);
    let mut theirs_full = r.legal();
    theirs_full.sort_by(|a, b| a.0.cmp(&b.0));
    let theirs: Vec<String> = theirs_full.iter().map(|x| x.0.clone()).collect();
    assert_eq!(mine, theirs, "legal moves differ in {}", pos.to_text());
    if depth <= 1 {
        return;
    }
    let mut list = Default::default();
    pos.legal_moves(&mut list);
    for &m in list.iter() {
        let text = pos.format_move(m);
        assert_eq!(pos.parse_move(&text), Ok(m), "move text round trip");
        let mut child = pos.clone();
        child.play(m);
        let rc = &theirs_full.iter().find(|x| x.0 == text).unwrap().1;
        assert_eq!(child.to_text(), rc.to_text(), "after {} from {}", text, pos.to_text());
        cross_check(&child, rc, depth - 1);
    }
}

#[test]
fn matches_the_reference_on_500_random_positions_to_depth_3() {
    // Random games from the start reach passive members, D6 and the stagnation promotions;
    // games from the counter positions below reach treason, appointments and defection.
    let mut all: Vec<Dojo> = common::random_positions::<Dojo>(0x0D0_7011, 40, 160);
    let mut rng = common::Rng(0x5EED_D070);
    for start in COUNTER_STARTS {
        for _ in 0..6 {
            common::random_walk(dojo(start), &mut rng, 60, &mut all);
        }
    }
    let step = (all.len() / 500).max(1);
    let picked: Vec<&Dojo> = all.iter().step_by(step).take(500).collect();
    assert!(picked.len() >= 500, "only {} positions", picked.len());
    for pos in picked {
        let r = RefPos::parse(&pos.to_text());
        assert_eq!(r.to_text(), pos.to_text());
        cross_check(pos, &r, 3);
    }
}

/// Positions with counters close to firing, for random play and the reference.
const COUNTER_STARTS: &[&str] = &[
    // Treason one move away for both sides, with passive members to appoint.
    "7k/Q4ppp/8/8/8/8/q4PPP/7K w - - 0 20 c2:P/d7:p W9/b9",
    "4k3/pp3ppp/8/3q4/8/8/PPP2PPP/Q3K3 w - - 0 20 d2:p/e2:P W8/b9",
    // Defection: white's knight e6 and rook h6 linger near the black antisensei.
    "6k1/5p1p/4N2R/8/8/8/5PPP/6K1 w - - 0 30 - e6:0.0.13/h6:0.0.14",
    // Obedient friends and stagnating belts next to their antisenseis.
    "4k3/3pnb2/8/8/8/8/3PNB2/4K3 w - - 0 12 - d2:14.13.0/e2:13.14.0/f2:12.12.0/d7:13.14.0/e7:14.12.0/f7:11.13.0",
    // Last rank: pawns one step from the far rank with many pieces to freeze.
    "1n2k1r1/P5P1/8/3q4/2Q5/8/p5p1/1N2K1R1 w - - 0 30 - -",
];

// ---- the perft suite ----

#[test]
fn perft_suite_matches_counts_and_the_reference() {
    let cases = common::read_perft_suite(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/dojo.perft"));
    assert!(cases.len() >= 12, "suite too small");
    let mut labels = BTreeSet::new();
    for c in &cases {
        let pos = dojo(&c.position);
        assert_eq!(pos.to_text(), c.position, "canonical text of {}", c.label);
        let r = RefPos::parse(&c.position);
        for &(d, n) in &c.counts {
            assert_eq!(perft(&pos, d), n, "{} depth {}", c.label, d);
            if d <= 3 {
                assert_eq!(r.perft(d), n, "reference, {} depth {}", c.label, d);
            }
        }
        assert!(c.counts.iter().any(|&(d, _)| d == 1) && c.counts.iter().any(|&(d, _)| d == 2));
        labels.insert(c.label.split_whitespace().next().unwrap_or("").to_string());
    }
    for rule in ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D12"] {
        assert!(labels.contains(rule), "no suite position for {rule}");
    }
}

// ---- the counters, to the move before and the move on which they fire ----

#[test]
fn obedient_friend_promotes_on_the_fifteenth_move() {
    // The orange belt d2 stands next to its antisensei with 13 moves counted; white shuffles
    // its king between e1 and f1, staying within 2.
    let p = dojo("4k3/8/8/8/8/8/3N4/4K3 w - - 0 1 - d2:13.0.0");
    let p = play(&p, "e1f1");
    assert!(p.to_text().contains("d2:14.1.0"), "{}", p.to_text());
    assert!(p.to_text().starts_with("4k3/8/8/8/8/8/3N4/5K2 b"), "still an orange belt the move before");
    let p = play(&p, "e8d8");
    let p = play(&p, "f1e1");
    assert!(p.to_text().starts_with("3k4/8/8/8/8/8/3B4/4K3 b"), "promoted: {}", p.to_text());
    // The obedient counter fired and restarts; the stagnation counter runs on.
    assert!(p.to_text().ends_with("d2:0.2.0"), "{}", p.to_text());
}

#[test]
fn obedience_breaks_when_the_belt_strays() {
    let p = dojo("4k3/8/8/8/8/8/3N4/4K3 w - - 0 1 - d2:14.0.0");
    let p = play(&p, "d2b3"); // distance 3 from e1
    assert!(p.to_text().starts_with("4k3/8/8/8/8/1N6/8/4K3 b"), "{}", p.to_text());
    assert!(p.to_text().ends_with(" - -"), "counter restarts: {}", p.to_text());
}

#[test]
fn stagnation_promotes_an_unmoved_belt() {
    let p = dojo("4k3/8/8/8/8/8/P7/4K3 w - - 0 1 - a2:0.13.0");
    let p = play(&p, "e1d1");
    assert!(p.to_text().starts_with("4k3/8/8/8/8/8/P7/3K4 b") && p.to_text().ends_with("a2:0.14.0"));
    let p = play(&p, "e8d8");
    let p = play(&p, "d1e1");
    assert!(p.to_text().starts_with("3k4/8/8/8/8/8/N7/4K3 b"), "yellow to orange: {}", p.to_text());
    assert!(p.to_text().ends_with(" - -"), "{}", p.to_text());
    // A green belt becomes purple, with no promotion counters left.
    let p = dojo("4k3/8/8/8/8/8/B7/4K3 w - - 0 1 - a2:0.14.0");
    let p = play(&p, "e1d1");
    assert!(p.to_text().starts_with("4k3/8/8/8/8/8/R7/3K4 b"), "{}", p.to_text());
    // Moving the belt restarts stagnation instead.
    let p = dojo("4k3/8/8/8/8/8/P7/4K3 w - - 0 1 - a2:0.14.0");
    let p = play(&p, "a2a3");
    assert_eq!(p.to_text(), "4k3/8/8/8/8/P7/8/4K3 b - - 0 1 - -");
}

#[test]
fn both_promotion_counters_firing_together_give_one_step() {
    let p = dojo("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 - d2:14.14.0");
    let p = play(&p, "e1f1");
    assert!(p.to_text().starts_with("4k3/8/8/8/8/8/3N4/5K2 b"), "one step only: {}", p.to_text());
    assert!(p.to_text().ends_with(" - -"));
}

#[test]
fn treason_demotes_and_the_move_appoints() {
    // The deputy a7 is 7 squares from its antisensei h1; eight moves counted.
    let p = dojo("7k/Q7/8/8/8/8/8/3N3K w - - 0 1 d2:P W8");
    let p = play(&p, "h1g1");
    assert_eq!(p.to_text(), "7k/Q7/8/8/8/8/8/3N2K1 b - - 1 1 d2:P d1:0.1.0/W9", "the move before");
    let p = play(&p, "h8g8");
    let moves = moves_of(&p);
    // Every move that keeps the deputy more than 5 away fires treason and names an appointee:
    // the orange belt d1 or the passive yellow belt d2 (its square is free), not the antisensei
    // and not the demoted deputy.
    assert!(moves.contains(&"g1h1@d1".to_string()) && moves.contains(&"g1h1@d2".to_string()), "{moves:?}");
    assert_eq!(moves.iter().filter(|m| m.starts_with("g1h1")).count(), 2, "{moves:?}");
    assert!(!moves.contains(&"g1h1".to_string()), "appointing is not optional");
    assert!(moves.contains(&"a7b6".to_string()), "a deputy back within 5 breaks the counter");
    assert_eq!(play(&p, "g1h1@d2").to_text(), "6k1/P7/8/8/8/8/3Q4/3N3K b - - 3 2 - d1:0.2.0/a7:0.1.0");
    assert_eq!(play(&p, "g1h1@d1").to_text(), "6k1/P7/8/8/8/8/8/3Q3K b - - 3 2 d2:P a7:0.1.0");
    assert_eq!(play(&p, "a7b6").to_text(), "6k1/8/1Q6/8/8/8/8/3N2K1 b - - 3 2 d2:P d1:0.2.0");
}

#[test]
fn treason_without_a_candidate_leaves_no_deputy() {
    let p = dojo("7k/Q7/8/8/8/8/8/7K w - - 0 1 - W9");
    assert!(!moves_of(&p).iter().any(|m| m.contains('@')));
    assert_eq!(play(&p, "h1g1").to_text(), "7k/P7/8/8/8/8/8/6K1 b - - 1 1 - a7:0.1.0");
}

#[test]
fn defection_removes_a_lingering_belt() {
    // The purple belt f6 is within 2 of the black antisensei g8; 13 moves counted.
    let p = dojo("6k1/8/5R2/8/8/8/8/K7 w - - 0 1 - f6:0.0.13");
    let p = play(&p, "a1b1");
    assert!(p.to_text().ends_with("f6:0.0.14"), "the move before: {}", p.to_text());
    let p = play(&p, "g8h8");
    let p = play(&p, "b1a1");
    assert_eq!(p.to_text(), "7k/8/8/8/8/8/8/K7 b - - 3 2 - -", "removed, not passive");
}

#[test]
fn defection_is_judged_before_legality() {
    // D11: the purple belt e2 shields its antisensei e1 from the rook e8 and is about to defect
    // (within 3 of the black antisensei g3). Ending the move within 3 of g3 removes it and
    // uncovers the king, so e2e3..e2e6 and the king's moves off the file are judged after that.
    let p = dojo("4r3/8/8/8/8/6k1/4R3/4K3 w - - 0 1 - e2:0.0.14");
    assert_eq!(moves_of(&p), ["e1d1", "e1d2", "e1f1", "e2e7", "e2e8"]);
}

#[test]
fn last_rank_freezes_an_enemy_piece() {
    let p = dojo("4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - -");
    let moves = moves_of(&p);
    assert!(moves.contains(&"b7b8".to_string()) && moves.contains(&"b7b8/c5".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.contains("/e8")), "never the antisensei");
    let q = play(&p, "b7b8/c5");
    assert_eq!(q.to_text(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1 c5:q -");
    let q = play(&p, "b7b8");
    assert_eq!(q.to_text(), "4k3/8/8/2q5/8/8/8/4K3 b - - 0 1 - -");
}

#[test]
fn demoted_yellow_belts_on_any_rank() {
    // D12: a yellow belt on the far rank has no move; one on its own first rank steps once.
    let p = dojo("P3k3/8/8/8/8/8/8/1P2K3 w - - 0 1 - -");
    let moves = moves_of(&p);
    assert!(!moves.iter().any(|m| m.starts_with("a8")), "{moves:?}");
    assert!(moves.contains(&"b1b2".to_string()) && !moves.contains(&"b1b3".to_string()), "{moves:?}");
}

#[test]
fn passive_members_block_and_are_never_entered() {
    // The passive black orange belt d4 blocks the rook d1 and cannot be captured; the white
    // bishop b2 stops there too; the black queen standing on e5's stack can be captured.
    let p = dojo("4k3/8/8/4q3/8/8/1B6/3R2K1 w - - 0 1 d4:n/e5:P -");
    let moves = moves_of(&p);
    assert!(moves.contains(&"d1d3".to_string()) && !moves.iter().any(|m| m.starts_with("d1d4") || m == "d1d5"));
    assert!(moves.contains(&"b2c3".to_string()) && !moves.contains(&"b2d4".to_string()));
    let q = play(&dojo("4k3/8/8/4q3/8/8/8/4RK2 w - - 0 1 e5:P -"), "e1e5");
    assert_eq!(q.to_text(), "4k3/8/8/4R3/8/8/8/5K2 b - - 0 1 e5:Pq e5:0.0.1");
    let r = play(&q, "e8d8");
    let r = play(&r, "e5a5");
    let r = play(&r, "d8d7");
    let moves = moves_of(&r);
    assert!(moves.contains(&"a5d5".to_string()) && !moves.iter().any(|m| m.starts_with("a5e5") || m == "a5f5"));
}

#[test]
fn castling_is_blocked_by_a_passive_member() {
    let p = dojo("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 b1:p -");
    let moves = moves_of(&p);
    assert!(moves.contains(&"e1g1".to_string()) && !moves.contains(&"e1c1".to_string()), "{moves:?}");
}

#[test]
fn en_passant_leaves_the_pawn_passive() {
    let p = play(&dojo("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 - -"), "d7d5");
    assert_eq!(p.to_text(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2 - -");
    let q = play(&p, "e5d6");
    // The white pawn now stands within 3 of the black antisensei: its defection count starts.
    assert_eq!(q.to_text(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2 d5:p d6:0.0.1");
}

// ---- text ----

#[test]
fn position_strings_are_refused_with_reasons() {
    for (text, why) in [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1 - -", "antisensei"),
        ("4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1 - -", "deputy"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 d4:k -", "belt"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e4:P/d4:p -", "order"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - e1:1.0.0", "antisensei has no counters"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 - a1:1.0.0", "only P, N and B"),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1 - a2:15.0.0", "out of range"),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1 - a2:0.0.0", "all zero"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - W3", "without an active deputy"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1 - -", "castling"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1 - -", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -", "8 fields"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1 - -", "not to move is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - b2:1.0.0", "no active piece"),
    ] {
        let e = Dojo::from_text(text).expect_err(text);
        assert!(e.0.contains(why), "{text}: '{e}' should mention '{why}'");
    }
}

// ---- random games ----

#[test]
fn random_games_keep_hash_text_and_reference_in_step() {
    let mut rng = common::Rng(0x000D_0706_A3E5);
    let mut ends = std::collections::BTreeMap::new();
    let (mut appointed, mut frozen, mut plies) = (0, 0, 0);
    let starts: Vec<&str> =
        std::iter::repeat_n(tetrarch::games::dojo::START, 30).chain(COUNTER_STARTS.iter().copied()).collect();
    for start in starts {
        // The reference is kept in step by playing each move in it too.
        let mut r = RefPos::parse(start);
        let rec = common::walk::walk(dojo(start), &mut rng, 2000, |step| {
            if let Some(mv) = step.last {
                appointed += mv.contains('@') as u32;
                frozen += mv.contains('/') as u32;
                plies += 1;
                r = r.play(mv);
            }
            assert_eq!(r.to_text(), step.text);
            let mut mine = step.moves.to_vec();
            let mut theirs = if step.record.outcome().is_none() { r.moves() } else { Vec::new() };
            mine.sort();
            theirs.sort();
            assert_eq!(mine, theirs, "moves in {}", step.text);
        });
        let o = rec.outcome().expect("the game ends within 2000 plies");
        let mut list = Default::default();
        rec.current.legal_moves(&mut list);
        match o.reason {
            Termination::Checkmate => assert!(list.is_empty() && rec.current.must_answer_check() && !o.is_draw()),
            Termination::Stalemate => assert!(list.is_empty() && !rec.current.must_answer_check() && o.is_draw()),
            Termination::MoveLimit | Termination::Repetition => assert!(o.is_draw()),
            other => panic!("unexpected end {:?}", other),
        }
        *ends.entry(o.reason.as_str()).or_insert(0) += 1;
    }
    assert!(ends.len() >= 2, "{ends:?}");
    // The games reach the choices of D6 and D9.
    assert!(appointed > 0 && frozen > 0, "appointed {appointed}, frozen {frozen} in {plies} plies");
    eprintln!("{plies} plies, {appointed} appointments, {frozen} D6 freezes, ends {ends:?}");
}

// ---- evaluation and search ----

fn eval_white(text: &str) -> i32 {
    dojo(text).evaluate(Side(0))
}

fn best_move(text: &str, depth: u32) -> String {
    use tetrarch::search::{Control, Limits, Searcher};
    let pos = dojo(text);
    let mut s: Searcher<Dojo> = Searcher::new(16);
    let r = s.think(
        &Record::new(pos.clone()),
        Limits { depth: Some(depth), ..Limits::default() },
        Control::new(false),
        &mut |_| {},
    );
    pos.format_move(r.best.expect("a move"))
}

#[test]
fn eval_counts_counters_about_to_fire() {
    // A promotion one move away is nearly banked: most of what the orange belt is worth over
    // the yellow.
    let base = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1 - ";
    let gain = tetrarch::games::dojo::WEIGHTS.value[1] - tetrarch::games::dojo::WEIGHTS.value[0];
    let (soon, none) = (eval_white(&format!("{base}a2:0.14.0")), eval_white(&format!("{base}-")));
    assert!(soon > none + gain * 3 / 4, "{soon} {none} {gain}");
    // A belt about to defect is nearly lost.
    let base = "6k1/8/5R2/8/8/8/8/K7 w - - 0 1 - ";
    assert!(eval_white(&format!("{base}f6:0.0.13")) < eval_white(&format!("{base}-")) - 250);
    // Treason with nobody to appoint throws the deputy away; with a passive member to appoint it
    // brings a piece back.
    let lone = "7k/Q7/8/8/8/8/8/7K w - - 0 1 - ";
    assert!(eval_white(&format!("{lone}W9")) < eval_white(&format!("{lone}-")) - 400);
    let helped = "7k/Q7/8/8/8/8/8/7K w - - 0 1 d2:N ";
    assert!(eval_white(&format!("{helped}W9")) > eval_white(&format!("{helped}-")));
}

#[test]
fn eval_drives_a_bare_antisensei_into_the_stacks() {
    // A purple belt up against a bare antisensei: the stronger side prefers it cornered and
    // shut in by stacks, with its own antisensei near; the same for Black, mirrored.
    let free = eval_white("8/8/8/3k4/8/8/8/R3K3 w - - 0 1 - -");
    let edge = eval_white("3k4/8/8/8/8/8/8/R3K3 w - - 0 1 - -");
    let walled = eval_white("3k4/8/8/8/8/8/8/R3K3 w - - 0 1 a7:p/b7:p/c7:p/d7:p/e7:p/f7:p/g7:p/h7:p -");
    let near = eval_white("3k4/8/3K4/8/8/8/8/R7 w - - 0 1 - -");
    assert!(edge > free, "{edge} {free}");
    assert!(walled > edge + 50, "{walled} {edge}");
    assert!(near > edge, "{near} {edge}");
    assert_eq!(eval_white("r3k3/8/8/8/8/8/8/3K4 b - - 0 1 - -"), -eval_white("3k4/8/8/8/8/8/8/R3K3 w - - 0 1 - -"));
    // With a piece left on each side the term is off: the ending is not yet a mop-up.
    let a = eval_white("3k4/7n/8/8/8/8/8/R3K3 w - - 0 1 - -");
    let b = eval_white("8/7n/8/3k4/8/8/8/R3K3 w - - 0 1 - -");
    assert!((a - b).abs() < 50, "{a} {b}");
}

#[test]
fn eval_sees_passive_stacks_as_obstacles() {
    // A white green belt walled in by passive members is worth less than a free one; so is a
    // yellow belt with a passive member in front of it.
    let open = eval_white("4k3/8/8/8/3B4/8/8/4K3 w - - 0 1 - -");
    let walled = eval_white("4k3/8/8/8/3B4/8/8/4K3 w - - 0 1 c3:p/e3:p/c5:p/e5:p -");
    assert!(walled < open - 20, "{walled} vs {open}");
    let free = eval_white("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 - -");
    let stuck = eval_white("4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1 - -");
    assert!(stuck < free, "{stuck} vs {free}");
}

#[test]
fn eval_knows_the_last_rank_weapon() {
    // A yellow belt one step from the far rank threatens to freeze the enemy deputy.
    let near = eval_white("4k3/1P6/8/8/8/8/2q5/4K3 w - - 0 1 - -");
    let far = eval_white("4k3/8/8/8/8/1P6/2q5/4K3 w - - 0 1 - -");
    assert!(near > far + 200, "{near} vs {far}");
}

#[test]
fn search_uses_the_rules() {
    // Freeze the deputy with the yellow belt's arrival.
    assert_eq!(best_move("4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - -", 4), "b7b8/c5");
    // Take the rook off the square where it would defect: a purple belt is worth keeping.
    let m = best_move("6k1/8/5R2/8/8/8/8/K7 w - - 0 1 - f6:0.0.14", 4);
    let to = tetrarch::games::dojo::parse_square(&m[2..4]).unwrap();
    let distance = ((to % 8) as i32 - 6).abs().max(((to / 8) as i32 - 7).abs());
    assert!(m.starts_with("f6") && distance > 3, "{m}");
    // Mate through a passive wall: the black antisensei h8 cannot step onto g7's and h7's
    // passive members; the rook mates on the eighth rank.
    assert_eq!(best_move("7k/8/8/8/8/8/8/R5K1 w - - 0 1 g7:P/h7:P -", 3), "a1a8");
}
