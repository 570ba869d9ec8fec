//! The search: mates are found and proven, terminal positions give no move, and every move it
//! returns is legal.

mod common;
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::prelude::*;
use tetrarch::rules::{Game, Record};
use tetrarch::search::{Control, Limits, Score, Searcher};

type Move = <Judkins as Rules>::Move;

fn moves(p: &Judkins) -> Vec<Move> {
    let mut l = Default::default();
    p.legal_moves(&mut l);
    l.iter().copied().collect()
}

/// Brute force, no search tricks: whether the side to move mates within `n` of its moves.
fn mates_within(p: &Judkins, n: u32) -> bool {
    moves(p).into_iter().any(|m| forces_mate(p, m, n))
}

/// Whether `m` mates at once or leaves every reply mated within `n - 1` more moves.
fn forces_mate(p: &Judkins, m: Move, n: u32) -> bool {
    let mut c = p.clone();
    c.play(m);
    let replies = moves(&c);
    replies.is_empty()
        || (n > 1
            && replies.iter().all(|&r| {
                let mut d = c.clone();
                d.play(r);
                mates_within(&d, n - 1)
            }))
}

fn search(p: &Judkins, depth: u32) -> (Option<Move>, i32, Score) {
    let mut s: Searcher<Judkins> = Searcher::new(16);
    let mut last = None;
    let r = s.think(
        &Record::new(p.clone()),
        Limits { depth: Some(depth), ..Limits::default() },
        Control::new(false),
        &mut |i| last = Some(i.score),
    );
    (r.best, r.score, last.unwrap_or(Score::Cp(0)))
}

fn mate_fixtures() -> Vec<(u32, Judkins)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/judkins-mates.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (n, sfen) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), Judkins::from_text(sfen).unwrap())
        })
        .collect()
}

#[test]
fn mates_in_one_and_two_are_found() {
    let cases = mate_fixtures();
    assert!(cases.iter().filter(|c| c.0 == 1).count() >= 5);
    assert!(cases.iter().filter(|c| c.0 == 2).count() >= 5);
    for (n, p) in cases {
        // The fixture is right: a mate in n and none faster.
        assert!(mates_within(&p, n), "{}", p.to_text());
        assert!(n == 1 || !mates_within(&p, n - 1), "{}", p.to_text());
        let (best, _, score) = search(&p, 2 * n + 2);
        assert_eq!(score, Score::Mate(2 * n as i32 - 1), "{}", p.to_text());
        let best = best.expect("a move");
        assert!(forces_mate(&p, best, n), "{} does not mate in {n} in {}", p.format_move(best), p.to_text());
    }
}

#[test]
fn the_mated_side_sees_its_mate_coming() {
    // After a mate-in-2 key move the defender, to move, is mated in 2 more plies.
    for (n, p) in mate_fixtures().into_iter().filter(|c| c.0 == 2) {
        let (best, _, _) = search(&p, 6);
        let mut c = p.clone();
        c.play(best.unwrap());
        let (_, _, score) = search(&c, 6);
        assert_eq!(score, Score::Mate(-(2 * n as i32 - 2)), "{}", c.to_text());
    }
}

#[test]
fn no_move_when_the_game_is_over() {
    // Checkmated: sente to move has no legal move.
    let mut r = Record::new(Judkins::from_text("5k/6/4G1/6/6/K5 b G 1").unwrap());
    r.play_text("G*1b").unwrap();
    let mut s: Searcher<Judkins> = Searcher::new(1);
    let res = s.think(&r, Limits { depth: Some(5), ..Limits::default() }, Control::new(false), &mut |_| {});
    assert!(res.best.is_none());
    // Drawn by repetition: the game is over although moves exist on the board.
    let mut r = Record::new(Judkins::startpos());
    for _ in 0..3 {
        for m in ["5f5e", "2a2b", "5e5f", "2b2a"] {
            r.play_text(m).unwrap();
        }
    }
    assert!(r.outcome().is_some());
    let res = s.think(&r, Limits { depth: Some(5), ..Limits::default() }, Control::new(false), &mut |_| {});
    assert!(res.best.is_none());
}

#[test]
fn returned_moves_are_legal_and_limits_hold() {
    let mut s: Searcher<Judkins> = Searcher::new(4);
    for (i, p) in common::random_positions::<Judkins>(5, 20, 60).into_iter().enumerate().step_by(17) {
        let r = Record::new(p.clone());
        if r.outcome().is_some() {
            continue;
        }
        let res =
            s.think(&r, Limits { nodes: Some(2000 + i as u64), ..Limits::default() }, Control::new(false), &mut |_| {});
        let best = res.best.expect("a move");
        assert!(moves(&p).contains(&best), "illegal {:?} in {}", best, p.to_text());
        // The node limit is checked every 1024 nodes.
        assert!(res.nodes <= 2000 + i as u64 + 1024, "{} nodes", res.nodes);
        if let Some(pm) = res.ponder {
            let mut c = p.clone();
            c.play(best);
            assert!(moves(&c).contains(&pm), "illegal ponder move");
        }
    }
}

#[test]
fn search_is_deterministic() {
    let p = Judkins::startpos();
    let a = search(&p, 7);
    let b = search(&p, 7);
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
}

/// A fixed-depth search of the record's position: the best move's text and the last score.
fn think<G: Game>(record: &Record<G>, depth: u32, best_reply: bool) -> (String, Score) {
    let mut s: Searcher<G> = Searcher::new(16);
    let mut last = None;
    let r = s.think(
        record,
        Limits { depth: Some(depth), best_reply, ..Limits::default() },
        Control::new(false),
        &mut |i| last = Some(i.score),
    );
    (record.current.format_move(r.best.unwrap()), last.unwrap())
}

/// Double Mate: with green already a lone king, the one move that mates black wins at once
/// (C4), and the search knows it; a mated army's only move is a pass.
#[test]
fn chaturanga_search_finds_the_double_mate_and_passes() {
    use tetrarch::games::chaturanga::{AllAgainstAll, DoubleMate};
    fn run<G: Game>(text: &str, depth: u32, best_reply: bool) -> (String, Score) {
        think(&Record::new(G::from_text(text).unwrap()), depth, best_reply)
    }
    // Yellow's rook c1 to b1 shuts b7 and b8; black's pawn c3 is blocked by red's d3.
    let (mv, score) = run::<DoubleMate>("bK6rK/8/6rP1/8/7gK/2bPrPyK3/8/yR1yR5 y - 0 1", 4, false);
    assert_eq!((mv.as_str(), score), ("c1b1", Score::Mate(1)));
    let (mv, _) = run::<DoubleMate>("bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1", 4, false);
    assert_eq!(mv, "pass");
    // All against all, both searches: take the last other king.
    for brs in [false, true] {
        let (mv, score) = run::<AllAgainstAll>("gK7/8/8/4rN2gP/yR2bR4/8/8/3yK4 y br 0 1", 4, brs);
        assert_eq!((mv.as_str(), score), ("a4a8", Score::Mate(1)), "best reply {brs}");
    }
    // A king that cannot run from a rook is not left to be taken: green's king h4 is attacked
    // by yellow's rook a4 along the rank, and green moves next.
    let (mv, _) = run::<AllAgainstAll>("rK7/8/8/bK7/yR6gK/8/8/3yK4 g - 0 1", 5, false);
    assert!(mv.starts_with("h4") && !mv.ends_with('4'), "green's king steps off the rank: {mv}");
}

/// All against all: at the symmetric start every army stands level with the field, and a score
/// is what the army to move can expect, so it is near 0 at every depth, in both searches (the
/// evaluation once counted the army's own material twice and said +14 pawns here).
#[test]
fn all_against_all_scores_the_symmetric_start_near_zero() {
    use tetrarch::games::chaturanga::AllAgainstAll;
    let record = Record::new(AllAgainstAll::startpos());
    for best_reply in [false, true] {
        for depth in [1, 2, 4, 6] {
            let (_, score) = think(&record, depth, best_reply);
            let Score::Cp(cp) = score else { panic!("a mate score from the start: {score:?}") };
            assert!(cp.abs() <= 100, "depth {depth}, best reply {best_reply}: {cp}");
        }
    }
}

#[test]
fn all_against_all_searches_see_a_repetition_the_root_move_makes() {
    use tetrarch::games::chaturanga::AllAgainstAll;
    use tetrarch::search::DRAW_CONTEMPT;
    // Yellow's king a1 has two moves: b2, where black's knight d3 takes it at once, and b1,
    // which (after the shuffle below) makes a position for the second time. Both searches must
    // score that as the shared draw, not as the position it is.
    let start = AllAgainstAll::from_text("4gK2bK/8/8/7rK/8/rR2bN4/yP7/yK7 y - 0 1").unwrap();
    let mut record = Record::new(start);
    for m in "a1b1 h8g8 h5h4 e8d8 b1a1 g8h8 h4h5 d8e8".split(' ') {
        record.play_text(m).unwrap();
    }
    for best_reply in [false, true] {
        let (mv, score) = think(&record, 4, best_reply);
        assert_eq!((mv.as_str(), score), ("a1b1", Score::Cp(-DRAW_CONTEMPT)), "best reply {best_reply}");
    }
}

#[test]
fn best_reply_search_keeps_the_other_opponents_turns() {
    use tetrarch::games::chaturanga::AllAgainstAll;
    // Yellow's rook h2 can take green's rook h5, but black's knight a4 only has to step off the
    // a-file for red's rook a8 to take yellow's king on a1 in the same round. Best-Reply Search
    // that lets black alone answer misses red's capture; BRS+ gives red its turn (its best
    // capture), as the paranoid search does.
    let pos = AllAgainstAll::from_text("rR2rK4/6bK1/8/7gR/bN7/8/7yR/yK3gK3 y - 0 1").unwrap();
    for best_reply in [false, true] {
        let (mv, score) = think(&Record::new(pos.clone()), 3, best_reply);
        assert!(mv != "h2h5" && matches!(score, Score::Cp(_)), "best reply {best_reply}: {mv} {score:?}");
    }
}
