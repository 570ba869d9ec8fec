//! Judkins rules: text round trips, hashing, and the rules that perft alone does not pin down.

mod common;
use common::random_positions;
use tetrarch::games::judkins::{Judkins, START_SFEN};
use tetrarch::rules::prelude::*;
use tetrarch::rules::{Record, Termination};

fn legal(pos: &Judkins) -> Vec<String> {
    let mut list = Default::default();
    pos.legal_moves(&mut list);
    list.iter().map(|&m| pos.format_move(m)).collect()
}

fn pos(sfen: &str) -> Judkins {
    Judkins::from_text(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

#[test]
fn sfen_round_trips_along_random_games() {
    let positions = random_positions::<Judkins>(7, 200, 120);
    assert!(positions.len() > 10_000);
    for p in &positions {
        let text = p.to_text();
        let back = Judkins::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.to_text(), text);
        assert_eq!(back.hash(), p.hash(), "{text}");
    }
}

#[test]
fn move_text_round_trips_and_is_unique() {
    for p in random_positions::<Judkins>(11, 100, 100) {
        let mut list = Default::default();
        p.legal_moves(&mut list);
        let mut texts = std::collections::HashSet::new();
        for &m in list.iter() {
            let t = p.format_move(m);
            assert!(texts.insert(t.clone()), "two moves spelt {t}");
            assert_eq!(p.parse_move(&t), Ok(m), "{t} in {}", p.to_text());
        }
    }
}

#[test]
fn incremental_hash_equals_hash_from_scratch() {
    for p in random_positions::<Judkins>(3, 300, 150) {
        assert_eq!(p.hash(), p.hash_from_scratch(), "{}", p.to_text());
    }
}

#[test]
fn hand_order_is_free_on_input_and_canonical_on_output() {
    let a = pos("2r3/1P4/2N2k/3s2/1G2p1/2KN2 w SR2Bg 30");
    let b = pos("2r3/1P4/2N2k/3s2/1G2p1/2KN2 w g2BRS 30");
    assert_eq!(a.to_text(), "2r3/1P4/2N2k/3s2/1G2p1/2KN2 w R2BSg 30");
    assert_eq!(a.to_text(), b.to_text());
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn malformed_and_illegal_sfens_are_refused() {
    for bad in [
        "",
        "rbnsgk/5p/6/6/P5/KGSNBR",
        "rbnsgk/5p/6/6/P5/KGSNBR x - 1",
        "rbnsgk/5p/6/6/P5 b - 1",
        "rbnsgk/5p/7/6/P5/KGSNBR b - 1",
        "rbnsgk/5p/5/6/P5/KGSNBR b - 1",
        "rbnsgq/5p/6/6/P5/KGSNBR b - 1",
        "rbnsg1/5p/6/6/P5/KGSNBR b - 1",
        "rbnsgk/5p/6/6/P5/KGSNBR b - 0",
        "rbnsgk/5p/6/6/P5/KGSNBR b - x",
        "rbnsgk/5p/6/6/P5/KGSNBR b K 1",
        "rbnsgk/5p/6/6/P5/KGSNBR b 3P 1",
        "rbnsgk/5p/6/6/P5/KGSNBR b PP 1",
        "rbnsgk/5p/6/6/P5/KGSNBR b P2 1",
        "rbnsgk/5p/6/6/P5/KGSNBR b - 1 extra",
        "rbnsgk+/5p/6/6/P5/KGSNBR b - 1",
        "r+Knsgk/5p/6/6/P5/KGSNBR b - 1",
        "rbnsgk/5p/6/6/P4P/KGSNB1 b - 1",
        "Pbnsgk/5p/6/6/P5/KGSNBR b - 1",
        "rbnsgk/5p/6/6/P5/KGSNBR b RRB 1",
        "k5/6/6/6/6/K4r w - 1",
    ] {
        assert!(Judkins::from_text(bad).is_err(), "accepted {bad:?}");
    }
    assert_eq!(pos(START_SFEN).to_text(), START_SFEN);
    // The move number may be left out; it is then 1.
    assert_eq!(pos("rbnsgk/5p/6/6/P5/KGSNBR b -").to_text(), START_SFEN);
}

#[test]
fn non_canonical_move_texts_are_refused() {
    let p = Judkins::startpos();
    for bad in ["", "6e6d+", "6E6D", "6e6d ", "6e6", "6e6c", "P*3c", "7e6d", "6e6d=", "pass", "resign", "0000"] {
        assert!(p.parse_move(bad).is_err(), "accepted {bad:?}");
    }
    assert!(p.parse_move("6e6d").is_ok());
}

#[test]
fn promotion_is_optional_in_the_zone_and_forced_on_the_last_ranks() {
    // Sente pawn on 6b must promote on 6a; silver on 5c may promote entering 5b or 4b.
    let p = pos("3k2/P5/1S4/6/6/5K b - 1");
    let moves = legal(&p);
    assert!(moves.contains(&"6b6a+".to_string()));
    assert!(!moves.contains(&"6b6a".to_string()));
    assert!(moves.contains(&"5c5b+".to_string()) && moves.contains(&"5c5b".to_string()));
    // A gote silver entering its zone (ranks e and f) may promote or not.
    let p = pos("1K4/6/6/4s1/6/5k w - 1");
    let moves = legal(&p);
    assert!(moves.contains(&"2d2e+".to_string()) && moves.contains(&"2d2e".to_string()));
    // A knight may not stop on the last two ranks unpromoted, nor be dropped there.
    let p = pos("5k/6/6/N5/6/K5 b N 1");
    let moves = legal(&p);
    assert!(moves.contains(&"6d5b+".to_string()) && !moves.contains(&"6d5b".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("N*") && (m.ends_with('a') || m.ends_with('b'))));
    assert!(moves.contains(&"N*3c".to_string()));
}

#[test]
fn nifu_forbids_a_second_pawn_on_a_file() {
    let p = pos("5k/6/6/6/P5/5K b P 1");
    let moves = legal(&p);
    assert!(!moves.iter().any(|m| m.starts_with("P*6")));
    assert!(moves.contains(&"P*5c".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("P*") && m.ends_with('a')), "no pawn drop on the last rank");
    // A promoted pawn does not count.
    let p = pos("5k/6/6/6/+P5/5K b P 1");
    assert!(legal(&p).contains(&"P*6c".to_string()));
}

#[test]
fn pawn_drop_mate_is_illegal_but_other_drop_mates_are_not() {
    // Gote king 1a boxed in by its own pieces; sente gold on 2c guards 1b.
    let p = pos("4rk/4b1/4G1/6/6/1K4 b PG 1");
    let moves = legal(&p);
    assert!(!moves.contains(&"P*1b".to_string()), "uchifuzume");
    assert!(moves.contains(&"G*1b".to_string()));
    let mut after = p.clone();
    after.play(p.parse_move("G*1b").unwrap());
    assert!(legal(&after).is_empty(), "G*1b mates");
    // A pawn drop check that is not mate stays legal.
    let p = pos("5k/6/6/6/6/K5 b P 1");
    assert!(legal(&p).contains(&"P*1b".to_string()));
}

#[test]
fn check_must_be_answered() {
    // Sente king 6f in check from a gote rook on 6a: every answer must end the check.
    let p = pos("r4k/6/6/6/6/K5 b G 1");
    assert!(p.must_answer_check());
    for m in legal(&p) {
        let mut c = p.clone();
        c.play(c.parse_move(&m).unwrap());
        assert!(!c.checked_seats().contains(Seat(0)), "{m} leaves sente in check");
    }
    let moves = legal(&p);
    assert!(moves.contains(&"G*6c".to_string()), "interposing drop");
    assert!(!moves.contains(&"G*3c".to_string()), "drop that does not interpose");
}

#[test]
fn checkmate_ends_the_game_for_the_mated_side() {
    let mut r = Record::new(pos("5k/6/4G1/6/6/K5 b G 1"));
    r.play_text("G*1b").unwrap();
    let o = r.outcome().expect("mate");
    assert_eq!(o.reason, Termination::Checkmate);
    assert_eq!(o.winners, SeatMask(1), "sente wins");
    assert!(r.play_text("6f5f").is_err(), "no move after the end");
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut r = Record::new(Judkins::startpos());
    let cycle = ["5f5e", "2a2b", "5e5f", "2b2a"];
    for i in 0..3 {
        for m in cycle {
            assert!(r.outcome().is_none(), "ended early at cycle {i}");
            r.play_text(m).unwrap();
        }
    }
    let o = r.outcome().expect("fourth occurrence");
    assert_eq!(o.reason, Termination::Repetition);
    assert!(o.is_draw());
}

#[test]
fn perpetual_check_loses() {
    // Sente's rook checks from files 1 and 2 in turn; gote's king runs between 1a and 2a.
    let start = pos("5k/6/6/6/6/K3R1 b - 1");
    let mut r = Record::new(start);
    let cycle = ["2f1f", "1a2a", "1f2f", "2a1a"];
    let line: Vec<&str> = cycle.iter().cycle().take(16).copied().collect();
    let mut ended = None;
    for m in line {
        if r.outcome().is_some() {
            break;
        }
        r.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        ended = r.outcome();
    }
    let o = ended.expect("repetition reached");
    assert_eq!(o.reason, Termination::PerpetualCheck);
    assert_eq!(o.winners, SeatMask(2), "gote wins: sente checked on every move");
}

#[test]
fn tactical_moves_are_exactly_the_scored_legal_moves() {
    for p in random_positions::<Judkins>(13, 150, 120) {
        let mut all = Default::default();
        p.legal_moves(&mut all);
        let mut tac = Default::default();
        p.tactical_moves(&mut tac);
        let mut want: Vec<_> =
            all.iter().copied().filter(|&m| p.must_answer_check() || p.tactical_value(m).is_some()).collect();
        let mut got: Vec<_> = tac.iter().copied().collect();
        want.sort_by_key(|m| format!("{m:?}"));
        got.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(got, want, "{}", p.to_text());
    }
}

#[test]
fn static_exchange_evaluation() {
    // Sente rook takes a pawn defended by a gold: loses the rook for a pawn.
    let p = pos("k5/6/2gp2/6/3R2/K5 b - 1");
    let m = p.parse_move("3e3c").unwrap();
    assert!(!p.see_ge(m, 0));
    // An undefended pawn is free.
    let p = pos("k5/6/3p2/6/3R2/K5 b - 1");
    let m = p.parse_move("3e3c").unwrap();
    assert!(p.see_ge(m, 0) && p.see_ge(m, 150) && !p.see_ge(m, 1000));
    // Dropping a gold where a pawn takes it loses it; on a safe square it loses nothing.
    let p = pos("k5/6/3p2/6/6/K5 b G 1");
    assert!(!p.see_ge(p.parse_move("G*3d").unwrap(), 0));
    assert!(p.see_ge(p.parse_move("G*5d").unwrap(), 0));
}
