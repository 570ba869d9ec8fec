//! `tetrarch datagen`: a file is the same made at once, with threads, resumed after an
//! interrupt, or pooled from shards; every stored move is legal and every flag says what the
//! position shows.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tetrarch::datagen::{self, DUPLICATE, GameData, IN_CHECK, SKIP, Settings, TACTICAL};
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::{Evaluation, Notation, Record, Rules};

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
