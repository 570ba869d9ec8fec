//! `tetrarch datagen`: a file is the same made at once, with threads, resumed after an
//! interrupt, or pooled from shards; every stored move is legal and every flag says what the
//! position shows.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tetrarch::datagen::{self, DUPLICATE, GameData, IN_CHECK, SKIP, Settings, TACTICAL};
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::{Evaluation, Inputs, Notation, Record, Rules};

fn settings(variant: &str, games: u64) -> Settings {
    Settings {
        variant: variant.into(),
        nodes: Some(800),
        depth: None,
        random_plies: 6,
        seed: 11,
        games,
        shard: (1, 1),
        max_plies: 120,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrarch-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn make(s: &Settings, path: &Path, threads: usize) -> datagen::Summary {
    datagen::run(s, path, threads, 4, Arc::new(AtomicBool::new(false)), |_| {}).unwrap()
}

#[test]
fn a_file_is_the_same_with_threads_and_after_an_interrupt() {
    let s = settings("judkins", 12);
    let one = temp("one.tdg");
    let two = temp("two.tdg");
    let cut = temp("cut.tdg");
    make(&s, &one, 1);
    make(&s, &two, 2);
    let whole = std::fs::read(&one).unwrap();
    assert_eq!(whole, std::fs::read(&two).unwrap(), "two threads wrote another file");

    // An interrupt leaves whole games and part of the next: cut the file in the middle of a
    // game and resume it.
    let (_, games, _) = datagen::read_file(&one).unwrap();
    assert_eq!(games.len(), 12);
    let mut at = whole.len();
    for g in games.iter().rev().take(5) {
        at -= encoded_len(g);
    }
    std::fs::write(&cut, &whole[..at + 9]).unwrap();
    let resumed = make(&s, &cut, 1);
    assert_eq!(resumed.resumed, 7);
    assert_eq!(resumed.played, 5);
    assert_eq!(whole, std::fs::read(&cut).unwrap(), "a resumed file differs");

    // Done already: nothing more.
    let again = make(&s, &cut, 1);
    assert_eq!((again.resumed, again.played), (12, 0));
}

fn encoded_len(g: &GameData) -> usize {
    4 + 8
        + 2
        + g.start.len()
        + 1
        + g.points.len()
        + 1
        + 2
        + g.plies.iter().map(|p| 1 + p.mv.len() + 2 + 1).sum::<usize>()
}

#[test]
fn other_settings_do_not_resume_a_file() {
    let s = settings("judkins", 2);
    let path = temp("settings.tdg");
    make(&s, &path, 1);
    let other = Settings { seed: 12, ..s };
    let e = datagen::run(&other, &path, 1, 4, Arc::new(AtomicBool::new(false)), |_| {}).unwrap_err();
    assert!(e.contains("other settings") && e.contains("seed=11"), "{}", e);
}

#[test]
fn shards_hold_the_games_of_the_whole() {
    let whole = settings("dojo", 6);
    let path = temp("whole.tdg");
    make(&whole, &path, 1);
    let (_, all, _) = datagen::read_file(&path).unwrap();
    let mut pooled = Vec::new();
    for k in 1..=3 {
        let part = Settings { shard: (k, 3), ..whole.clone() };
        let p = temp(&format!("shard{}.tdg", k));
        make(&part, &p, 1);
        pooled.extend(datagen::read_file(&p).unwrap().1);
    }
    pooled.sort_by_key(|g| g.number);
    // Duplicates are marked within a file, so they are left out of the comparison.
    let plain = |gs: &[GameData]| -> Vec<GameData> {
        gs.iter()
            .cloned()
            .map(|mut g| {
                g.plies.iter_mut().for_each(|p| p.flags &= !DUPLICATE);
                g
            })
            .collect()
    };
    assert_eq!(plain(&all), plain(&pooled));
    assert_eq!(all.iter().map(|g| g.number).collect::<Vec<_>>(), (0..6).collect::<Vec<_>>());
}

#[test]
fn every_move_is_legal_and_every_flag_true() {
    let s = settings("judkins", 8);
    let path = temp("flags.tdg");
    let summary = make(&s, &path, 1);
    let (_, games, _) = datagen::read_file(&path).unwrap();
    let mut seen = std::collections::HashSet::new();
    let (mut positions, mut kept, mut checks, mut tactical) = (0, 0, 0, 0);
    for g in &games {
        let mut record = Record::new(Judkins::from_text(&g.start).unwrap());
        assert_eq!(g.points.len(), 2);
        assert_eq!(g.points.iter().map(|&p| p as u32).sum::<u32>(), 2, "points of game {}", g.number);
        for p in &g.plies {
            let pos = &record.current;
            let m = pos.parse_move(&p.mv).unwrap();
            assert_eq!(p.flags & IN_CHECK != 0, pos.must_answer_check());
            assert_eq!(p.flags & TACTICAL != 0, pos.tactical_value(m).is_some());
            assert_eq!(p.flags & DUPLICATE != 0, !seen.insert(pos.hash()));
            positions += 1;
            kept += (p.flags & SKIP == 0) as u64;
            checks += (p.flags & IN_CHECK != 0) as u64;
            tactical += (p.flags & TACTICAL != 0) as u64;
            record.play(m);
        }
        // A game ends by the rules, or at the ply limit as a draw.
        match g.ended {
            datagen::ENDED_AT_PLY_LIMIT => assert_eq!((g.plies.len(), &g.points[..]), (120, &[1, 1][..])),
            _ => assert!(record.outcome().is_some(), "game {} stopped before its end", g.number),
        }
    }
    assert_eq!((summary.positions, summary.kept), (positions, kept));
    assert!(checks > 0 && tactical > 0, "the games had no check ({}) or no tactical move ({})", checks, tactical);
}

#[test]
fn every_variant_makes_games_that_replay() {
    for v in ["dojo", "chaturanga", "chaturanga-ffa", "judtho"] {
        let s = Settings { max_plies: 60, nodes: Some(300), ..settings(v, 2) };
        let path = temp(&format!("{}.tdg", v));
        make(&s, &path, 1);
        let mut lines = Vec::new();
        datagen::show(&path, true, |l| lines.push(l.to_string())).unwrap();
        let (_, games, _) = datagen::read_file(&path).unwrap();
        assert_eq!(lines.len(), games.iter().map(|g| g.plies.len()).sum::<usize>(), "{}", v);
        let seats = tetrarch::variants::VARIANTS.iter().find(|x| x.name == v).unwrap().seats.len();
        for g in &games {
            assert_eq!(g.points.len(), seats, "{}", v);
        }
    }
}

fn features_of(pos: &Judkins, side: u8) -> Vec<usize> {
    let mut active = tetrarch::nnue::Active::default();
    pos.features(tetrarch::rules::Side(side), &mut active);
    let mut v: Vec<usize> = active.as_slice().iter().map(|&f| f as usize).collect();
    v.sort();
    v
}

#[test]
fn judkins_inputs_are_the_pieces_seen_from_each_side() {
    // The start is the same turned about: both perspectives see the same inputs.
    let start = Judkins::startpos();
    assert_eq!(features_of(&start, 0).len(), 14);
    assert_eq!(features_of(&start, 0), features_of(&start, 1));
    // Hand-placed: sente's king on 6f (square 30 from sente's side), gote's on 1a (square 5),
    // a gold in sente's hand and two pawns in gote's.
    let pos = Judkins::from_text("5k/6/6/6/6/K5 b G2p 1").unwrap();
    let (kinds, squares) = (12, 36);
    let king = 6;
    let (gold, pawn) = (2, 0);
    let board = |theirs: usize, kind: usize, sq: usize| (theirs * kinds + kind) * squares + sq;
    let hand = |theirs: usize, kind: usize, i: usize| 2 * kinds * squares + (theirs * 6 + kind) * 2 + i;
    let mut sente = vec![board(0, king, 30), board(1, king, 5), hand(0, gold, 0), hand(1, pawn, 0), hand(1, pawn, 1)];
    sente.sort();
    assert_eq!(features_of(&pos, 0), sente);
    // Gote sees the board turned: its king on its own square 30, sente's on 5.
    let mut gote = vec![board(0, king, 30), board(1, king, 5), hand(1, gold, 0), hand(0, pawn, 0), hand(0, pawn, 1)];
    gote.sort();
    assert_eq!(features_of(&pos, 1), gote);
    assert!(features_of(&pos, 0).iter().all(|&f| f < Judkins::FEATURES));
}

#[test]
fn the_export_holds_the_kept_positions_with_their_inputs() {
    let s = settings("judkins", 6);
    let path = temp("export.tdg");
    make(&s, &path, 1);
    let out = temp("export.nnin");
    let e = datagen::export(&[path.clone(), path.clone()], &out).unwrap();
    let (_, games, _) = datagen::read_file(&path).unwrap();
    let kept: u64 =
        games.iter().flat_map(|g| &g.plies).filter(|p| p.flags & (SKIP | datagen::MATE_SCORE) == 0).count() as u64;
    // The second copy of the file is all seen before.
    assert_eq!(e.positions, kept);
    let bytes = std::fs::read(&out).unwrap();
    let header = 8 + 2 + "judkins".len() + 8;
    let record = 2 * 2 * 14 + 6;
    assert_eq!(bytes.len(), header + record * kept as usize);
    // The first record: the first kept position's inputs, side to move first.
    let first = games
        .iter()
        .find_map(|g| {
            let mut found = None;
            datagen::for_each_position::<Judkins>(g, |pos, i| {
                if found.is_none() && g.plies.get(i).is_some_and(|p| p.flags & (SKIP | datagen::MATE_SCORE) == 0) {
                    found = Some((pos.clone(), g.plies[i].score));
                }
            })
            .unwrap();
            found
        })
        .unwrap();
    let slots: Vec<usize> =
        bytes[header..header + 56].chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as usize).collect();
    let stm = first.0.to_move().index() as u8;
    let mut us = slots[..14].to_vec();
    us.sort();
    let mut them = slots[14..].to_vec();
    them.sort();
    assert_eq!(us, features_of(&first.0, stm));
    assert_eq!(them, features_of(&first.0, 1 - stm));
    assert_eq!(i16::from_le_bytes([bytes[header + 56], bytes[header + 57]]), first.1);
    // The game's own evaluation of the side to move, which a network may correct.
    let own = first.0.evaluate(first.0.side_of(first.0.to_move()));
    assert_eq!(i16::from_le_bytes([bytes[header + 58], bytes[header + 59]]) as i32, own);
}

#[test]
fn a_stopped_run_leaves_whole_games_and_resumes() {
    let s = settings("judkins", 30);
    let whole = temp("unstopped.tdg");
    make(&s, &whole, 1);
    let path = temp("stopped.tdg");
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(150));
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        })
    };
    let first = datagen::run(&s, &path, 2, 4, stop, |_| {}).unwrap();
    stopper.join().unwrap();
    // Whatever the moment of the stop, the file holds whole games only, in order.
    let (_, games, whole_len) = datagen::read_file(&path).unwrap();
    assert_eq!(whole_len, std::fs::metadata(&path).unwrap().len());
    assert_eq!(games.len() as u64, first.played);
    assert_eq!(first.interrupted, first.played < 30);
    let rest = make(&s, &path, 1);
    assert_eq!(rest.resumed + rest.played, 30);
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&path).unwrap());
}
