//! `tetrarch tune`: the weights table, the positions it is fitted on, and a fitting run.

use tetrarch::arbiter::rescore::game_of_json;
use tetrarch::games::judkins::{Judkins, SENTE, WEIGHTS, Weights};
use tetrarch::rules::{Evaluation, Notation, Rules};
use tetrarch::tune::{TuneConfig, error, run, samples_of};

const GAMES: &str = include_str!("../fixtures/judkins-tuning.jsonl");

#[test]
fn the_weights_list_round_trips_and_plays_as_the_engine_evaluates() {
    let (list, fixed) = WEIGHTS.to_list();
    assert_eq!(list.len(), fixed.len());
    assert_eq!(Weights::from_list(&list), WEIGHTS);
    // Each weight has a place of its own in the list.
    for i in 0..list.len() {
        let mut l = list.clone();
        l[i] += 1;
        assert_ne!(Weights::from_list(&l), WEIGHTS, "weight {i}");
    }
    let g = game_of_json(GAMES.lines().next().unwrap()).unwrap();
    let mut pos = Judkins::startpos();
    for text in &g.moves {
        assert_eq!(pos.eval_sente_with(&WEIGHTS), pos.evaluate(SENTE), "{}", pos.to_text());
        let m = pos.parse_move(text).unwrap();
        pos.play(m);
    }
}

#[test]
fn only_quiet_positions_past_the_opening_are_fitted() {
    let mut total = 0;
    for line in GAMES.lines().take(50) {
        let g = game_of_json(line).unwrap();
        let samples = samples_of::<Judkins>(&g).unwrap();
        let want = match g.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        assert!(!samples.is_empty() && samples.len() < g.moves.len());
        for s in &samples {
            assert!(!s.pos.in_check());
            assert_eq!(s.result, want);
        }
        total += samples.len();
    }
    assert!(total > 1000, "{total}");
}

#[test]
fn a_fit_lowers_the_error_and_prints_a_table() {
    let files = vec![("games".to_string(), GAMES.lines().take(300).collect::<Vec<_>>().join("\n"))];
    let cfg = TuneConfig { files, passes: 1, threads: 2 };
    let mut log = Vec::new();
    let table = run("judkins", &cfg, &mut |l| log.push(l)).unwrap();
    assert!(table.starts_with("pub const WEIGHTS: Weights = Weights {"), "{table}");
    // The errors the run reports: before and after, fitted and held out.
    let num = |line: &str, key: &str| -> f64 {
        let at = line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len();
        line[at..].split(|c: char| c == ',' || c.is_whitespace()).find(|w| !w.is_empty()).unwrap().parse().unwrap()
    };
    let before = log.iter().find(|l| l.contains("error before")).expect("the error before");
    let after = log.iter().find(|l| l.contains("error after")).expect("the error after");
    assert!(num(after, "fitted") < num(before, "fitted"), "{log:?}");
    assert!(run("dojo", &TuneConfig { files: vec![], passes: 1, threads: 1 }, &mut |_| ()).is_err());
    // The error function itself: a perfect predictor scores 0, a coin 0.25.
    let samples = samples_of::<Judkins>(&game_of_json(GAMES.lines().next().unwrap()).unwrap()).unwrap();
    let coin = error(&samples, 100.0, |_| 0, 2);
    assert!((coin - 0.25).abs() < 1e-12, "{coin}");
}
