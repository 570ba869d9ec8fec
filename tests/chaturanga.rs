//! Four-handed Chaturanga, both forms: the rules checked against a deliberately simple second
//! implementation (`tests/chaturanga_ref`), the perft suites in fixtures/, the source text's
//! scenarios, and random games to the end with invariants at every ply.

mod chaturanga_ref;
mod common;

use chaturanga_ref::RefPos;
use tetrarch::games::chaturanga::{AllAgainstAll, DoubleMate};
use tetrarch::rules::prelude::*;
use tetrarch::rules::{Game, Record, Seat, perft};

fn moves_of<G: Game>(pos: &G) -> Vec<String> {
    let mut list = Default::default();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

/// Compares the legal moves at every node of the tree to `depth`, then the counts.
fn cross_check<G: Game>(pos: &G, r: &RefPos, depth: u32) {
    let mut mine = moves_of(pos);
    let mut theirs = r.moves();
    theirs.sort();
    mine.sort();
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
        let rc = r.play(&text);
        assert_eq!(child.to_text(), rc.to_text(), "after {} from {}", text, pos.to_text());
        cross_check(&child, &rc, depth - 1);
    }
}

fn cross_check_random<G: Game>(ffa: bool, seed: u64) {
    // Positions from random games, thinned out to keep every stage of the game.
    let all = common::random_positions::<G>(seed, 60, 400);
    let step = (all.len() / 500).max(1);
    let picked: Vec<&G> = all.iter().step_by(step).take(500).collect();
    assert!(picked.len() >= 500, "only {} positions", picked.len());
    for pos in picked {
        let r = RefPos::parse(&pos.to_text(), ffa);
        cross_check(pos, &r, 3);
        assert_eq!(perft(pos, 3), r.perft(3), "perft 3 of {}", pos.to_text());
    }
}

#[test]
fn double_mate_matches_the_reference_on_500_random_positions() {
    cross_check_random::<DoubleMate>(false, 0x0D0B_1E11);
}

#[test]
fn all_against_all_matches_the_reference_on_500_random_positions() {
    cross_check_random::<AllAgainstAll>(true, 0xFFA0_4444);
}

/// A position string from a piece list such as `"yK:e3 yR:a1 bK:a8"`, then the other fields.
fn setup(pieces: &str, rest: &str) -> String {
    let mut board: Vec<Vec<Option<String>>> = vec![vec![None; 8]; 8];
    for item in pieces.split_whitespace() {
        let (piece, square) = item.split_once(':').unwrap();
        let b = square.as_bytes();
        board[(b[1] - b'1') as usize][(b[0] - b'a') as usize] = Some(piece.to_string());
    }
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for cell in &board[rank] {
            match cell {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s += p;
                }
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        ranks.push(s);
    }
    format!("{} {}", ranks.join("/"), rest)
}

fn note<G: Game>(pos: &G, key: &str) -> String {
    pos.notes().into_iter().find(|(k, _)| *k == key).map(|(_, v)| v).unwrap_or_default()
}

fn play_all<G: Game>(record: &mut Record<G>, moves: &str) {
    for m in moves.split_whitespace() {
        record.play_text(m).unwrap_or_else(|e| panic!("{m}: {e} in {}", record.current.to_text()));
    }
}

/// Black's king a8 is held by yellow's rooks on a1 and b1; its pawn c3 is blocked by green's
/// pawn d3. Green's rook h1 can take the rook b1.
const HELD_BLACK: &str = "yK:e3 yR:a1 yR:b1 bK:a8 bP:c3 rK:h8 rP:g6 gK:h4 gR:h1 gP:d3";

#[test]
fn a_mated_army_passes_and_is_freed_by_its_partner() {
    let pos = DoubleMate::from_text(&setup(HELD_BLACK, "b - 0 1")).unwrap();
    assert_eq!(moves_of(&pos), vec!["pass"], "black is mated and can only pass");
    assert_eq!(note(&pos, "mated"), "b");
    assert!(pos.static_outcome().is_none(), "one mated army does not end the game");
    let mut record = Record::new(pos);
    // Black passes, red moves, green takes the rook that held b7 and b8, yellow moves.
    play_all(&mut record, "pass h8g8 h1b1 e3e4");
    let freed = moves_of(&record.current);
    assert!(freed.contains(&"a8b8".to_string()) && freed.contains(&"a8b7".to_string()), "{freed:?}");
    assert!(!freed.contains(&"a8a7".to_string()), "a7 is still on the rook's file");
    assert_eq!(note(&record.current, "mated"), "-", "black is in check but no longer mated");
    assert!(record.current.must_answer_check());
}

#[test]
fn a_king_may_not_step_where_a_mated_armys_pawn_attacks() {
    let pos = DoubleMate::from_text(&setup(HELD_BLACK, "y - 0 1")).unwrap();
    assert_eq!(note(&pos, "mated"), "b");
    let moves = moves_of(&pos);
    // The black pawn c3 attacks d4 and d2 although black is mated (C2).
    assert!(!moves.contains(&"e3d4".to_string()) && !moves.contains(&"e3d2".to_string()), "{moves:?}");
    assert!(moves.contains(&"e3e4".to_string()) && moves.contains(&"e3f2".to_string()));
}

#[test]
fn a_partners_piece_may_expose_its_partners_king_but_not_its_own() {
    // Red's ship d4 stands between black's rook d8 and yellow's king d1.
    let red = DoubleMate::from_text(&setup("yK:d1 yP:a2 rS:d4 rK:h7 bR:d8 bK:a5 gK:h4", "r - 0 1")).unwrap();
    let moves = moves_of(&red);
    for m in ["d4b2", "d4f2", "d4b6", "d4f6"] {
        assert!(moves.contains(&m.to_string()), "red may uncover yellow's king: {m} in {moves:?}");
    }
    // The same ship in yellow's army may not move (C1).
    let yellow = DoubleMate::from_text(&setup("yK:d1 yP:a2 yS:d4 rK:h7 bR:d8 bK:a5 gK:h4", "y - 0 1")).unwrap();
    let moves = moves_of(&yellow);
    assert!(moves.iter().all(|m| !m.starts_with("d4")), "{moves:?}");
    // After red uncovers it, yellow is in check and must answer it.
    let mut record = Record::new(red);
    play_all(&mut record, "d4f6 h4h3");
    assert!(record.current.must_answer_check(), "yellow to move, in check from the rook d8");
    assert!(moves_of(&record.current).iter().all(|m| m.starts_with("d1")));
}

#[test]
fn the_concourse_captures_enemy_ships_and_converts_the_partners() {
    // The source's diagram: ships on d4 (black), e4 (red), d5 (green); yellow's ship c3 goes to e5.
    let pieces = "yK:d1 yS:c3 bK:a5 bS:d4 rK:e8 rS:e4 gK:h4 gS:d5";
    let mut dm = Record::new(DoubleMate::from_text(&setup(pieces, "y - 7 1")).unwrap());
    play_all(&mut dm, "c3e5");
    assert_eq!(
        dm.current.to_text(),
        setup("yK:d1 bK:a5 rK:e8 yS:e4 gK:h4 yS:e5", "b - 0 2"),
        "black and green ships captured, red's converted (C6); captures reset the quiet count"
    );
    // All against all: every other ship of the block is captured (C9).
    let mut ffa = Record::new(AllAgainstAll::from_text(&setup(pieces, "y - 7 1")).unwrap());
    play_all(&mut ffa, "c3e5");
    assert_eq!(ffa.current.to_text(), setup("yK:d1 bK:a5 rK:e8 gK:h4 yS:e5", "b - 0 2"));
}

/// The start position with every pawn replaced by a ship: random games from it meet in
/// concourses often, where games from the real start almost never do.
fn ships_start() -> String {
    let start = DoubleMate::startpos().to_text();
    let (board, rest) = start.split_once(' ').unwrap();
    format!("{} {}", board.replace('P', "S"), rest)
}

fn outcome_words<G: Game>(o: Option<tetrarch::rules::Outcome>) -> Option<String> {
    o.map(|o| {
        if o.is_draw() { "draw".to_string() } else { format!("win {}", tetrarch::rules::mask_letters::<G>(o.winners)) }
    })
}

#[derive(Default, Debug)]
struct Seen {
    games: usize,
    plies: usize,
    passes: usize,
    mated: usize,
    concourses: usize,
    kings_captured: usize,
    endings: std::collections::BTreeMap<String, usize>,
}

/// Random games to their end, with the invariants checked at every ply: incremental hash,
/// position text round trip, agreement with the reference on moves and outcome, no king lost
/// in Double Mate, and no legal move exactly when the game is over.
fn random_games<G: Game>(ffa: bool, start: &str, seed: u64, games: usize, check_children: bool) -> Seen {
    let mut rng = common::Rng(seed);
    let mut seen = Seen::default();
    for _ in 0..games {
        // The position before the last move, for what the move did.
        let mut before: Option<String> = None;
        common::walk::walk(G::from_text(start).unwrap(), &mut rng, usize::MAX, |step| {
            let (pos, text) = (&step.record.current, step.text);
            if let (Some(prev), Some(mtext)) = (&before, step.last) {
                let r = RefPos::parse(prev, ffa);
                let board = prev.split(' ').next().unwrap();
                if mtext == "pass" {
                    seen.passes += 1;
                }
                let after_board = text.split(' ').next().unwrap();
                let to = if mtext == "pass" { 0 } else { sq_of(&mtext[2..]) };
                let mover_was_ship = r.board[sq_of(mtext)].is_some_and(|p| p.kind == 'S');
                let took_ship = r.board[to].is_some_and(|p| p.kind == 'S') as usize;
                let ra = RefPos::parse(text, ffa);
                let converted = (0..64).any(|s| {
                    s != to
                        && r.board[s].is_some_and(|p| p.kind == 'S' && ra.board[s].is_some_and(|q| q.army != p.army))
                });
                let (ships_before, ships_after) = (board.matches('S').count(), after_board.matches('S').count());
                if mtext != "pass" && mover_was_ship && (ships_after + took_ship < ships_before || converted) {
                    seen.concourses += 1;
                }
                if after_board.matches('K').count() < board.matches('K').count() {
                    seen.kings_captured += 1;
                }
                seen.plies += 1;
            }
            before = Some(text.to_string());
            let kings = text.split(' ').next().unwrap().matches('K').count();
            if !ffa {
                assert_eq!(kings, 4, "a king was captured in Double Mate: {text}");
            }
            let r = RefPos::parse(text, ffa);
            assert_eq!(outcome_words::<G>(pos.static_outcome()), r.outcome(), "outcome of {text}");
            let outcome = step.record.outcome();
            if check_children && (outcome.is_none() || pos.static_outcome().is_some()) {
                let mut mine = step.moves.to_vec();
                let mut theirs = r.moves();
                mine.sort();
                theirs.sort();
                assert_eq!(mine, theirs, "moves of {text}");
            }
            if let Some(o) = outcome {
                if !o.is_draw() {
                    // The winners are one whole side.
                    let side = pos.side_of(o.winners.seats().next().unwrap());
                    for s in Seat::all(4) {
                        assert_eq!(o.winners.contains(s), pos.side_of(s) == side && !pos.side_lost(side));
                    }
                }
                *seen.endings.entry(format!("{:?}", o.reason)).or_default() += 1;
            } else if note(pos, "mated") != "-" {
                seen.mated += 1;
            }
        });
        seen.games += 1;
    }
    seen
}

fn sq_of(text: &str) -> usize {
    let b = text.as_bytes();
    if text == "pass" {
        return 0;
    }
    (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
}

#[test]
fn double_mate_random_games_keep_every_invariant() {
    let start = DoubleMate::startpos().to_text();
    let seen = random_games::<DoubleMate>(false, &start, 0xDEAD_BEEF, 200, false);
    eprintln!("{seen:?}");
    assert_eq!(seen.games, 200);
    assert!(seen.passes > 0 && seen.mated > 0, "random games reach mated armies and passes: {seen:?}");
    let ships = random_games::<DoubleMate>(false, &ships_start(), 0x5415, 60, true);
    eprintln!("{ships:?}");
    assert!(ships.concourses > 0, "concourses happen from the ships start: {ships:?}");
}

#[test]
fn all_against_all_random_games_keep_every_invariant() {
    let start = AllAgainstAll::startpos().to_text();
    let seen = random_games::<AllAgainstAll>(true, &start, 0xFEED_FACE, 200, false);
    eprintln!("{seen:?}");
    assert_eq!(seen.games, 200);
    assert!(seen.kings_captured >= 3 * 150, "most games run to the last king: {seen:?}");
    let ships = random_games::<AllAgainstAll>(true, &ships_start(), 0x5416, 60, true);
    eprintln!("{ships:?}");
    assert!(ships.concourses > 0, "{ships:?}");
}

fn perft_suite<G: Game>(file: &str, ffa: bool, expected_counts: usize) {
    let path = format!("{}/fixtures/{}", env!("CARGO_MANIFEST_DIR"), file);
    let cases = common::read_perft_suite(&path);
    let mut checked = 0;
    for case in &cases {
        let pos = G::from_text(&case.position).unwrap_or_else(|e| panic!("{}: {e}", case.label));
        assert_eq!(pos.to_text(), case.position, "{}: the suite's text is canonical", case.label);
        let r = RefPos::parse(&case.position, ffa);
        cross_check(&pos, &r, 3);
        for &(depth, expected) in &case.counts {
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.label);
            assert_eq!(r.perft(depth), expected, "{} depth {depth}, reference", case.label);
            checked += 1;
        }
    }
    assert_eq!(checked, expected_counts, "every count in {file}");
}

#[test]
fn double_mate_perft_suite() {
    perft_suite::<DoubleMate>("chaturanga.perft", false, 36);
}

#[test]
fn all_against_all_perft_suite() {
    perft_suite::<AllAgainstAll>("chaturanga-ffa.perft", true, 18);
}

#[test]
fn position_strings_are_checked() {
    let bad = [
        ("", "5 fields"),
        ("8/8/8/8/8/8/8/8 y - 0 1", "exactly one king"),
        ("bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS x - 0 1", "army to move"),
        ("bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y b 0 1", "Double Mate"),
        ("bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 0", "turn number"),
        ("bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 201 1", "quiet"),
        ("bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK3gPgS y - 0 1", "squares"),
        ("yPbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1", "promotion edge"),
        ("bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgQ y - 0 1", "not a piece"),
    ];
    for (text, why) in bad {
        let e = DoubleMate::from_text(text).expect_err(text);
        assert!(e.0.contains(why), "{text}: {e}");
    }
    // All against all: an army out must have lost its king, and is never the one to move.
    let e = AllAgainstAll::from_text(&AllAgainstAll::startpos().to_text().replace(" - ", " b ")).unwrap_err();
    assert!(e.0.contains("out but has a king"), "{e}");
    let e = AllAgainstAll::from_text(&setup("yK:d1 rK:e8 gK:h4 bR:a5", "b b 0 1")).unwrap_err();
    assert!(e.0.contains("to move is out"), "{e}");
    let ok = setup("yK:d1 rK:e8 gK:h4 bR:a5", "y b 0 1");
    assert_eq!(AllAgainstAll::from_text(&ok).unwrap().to_text(), ok);
}
