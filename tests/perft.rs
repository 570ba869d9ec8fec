//! The Judkins perft suite: every count in fixtures/judkins.perft, which comes from an
//! independent implementation (pawn-drop mates excluded, as real shogi rules demand).

mod common;
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::prelude::*;
use tetrarch::rules::{perft, perft_divide};

#[test]
fn judkins_perft_suite() {
    let cases = common::read_perft_suite(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/judkins.perft"));
    assert!(cases.len() >= 9);
    let mut checked = 0;
    for case in &cases {
        let pos = Judkins::from_text(&case.position).unwrap_or_else(|e| panic!("{}: {e}", case.label));
        for &(depth, expected) in &case.counts {
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.label);
            checked += 1;
        }
    }
    assert_eq!(checked, 38, "every count in the suite");
}

#[test]
fn divide_sums_to_perft() {
    let pos = Judkins::startpos();
    let split = perft_divide(&pos, 4);
    assert_eq!(split.len(), 20);
    assert_eq!(split.iter().map(|s| s.1).sum::<u64>(), 118345);
}

/// `tetrarch perft` from the command line: positions as `position` gives them, with moves; the
/// protocol's depth limit; a clear word for a name that is no variant.
#[test]
fn perft_on_the_command_line() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tetrarch")).arg("perft").args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let total = |s: &str| s.lines().find_map(|l| l.strip_prefix("Nodes searched: ")).map(|n| n.parse::<u64>().unwrap());
    let after = {
        let mut r = Record::new(Judkins::startpos());
        r.play_text("6e6d").unwrap();
        perft(&r.current, 2)
    };
    for args in [
        &["judkins", "2", "startpos", "moves", "6e6d"][..],
        &["judkins", "2", "sfen", "rbnsgk/5p/6/6/P5/KGSNBR", "b", "-", "1", "moves", "6e6d"],
        &["judkins", "2", "rbnsgk/5p/6/6/P5/KGSNBR", "b", "-", "1", "moves", "6e6d"],
        &["judkins", "2", "rbnsgk/5p/6/P5/6/KGSNBR w - 2"],
    ] {
        let (ok, out, err) = run(args);
        assert!(ok, "{args:?}: {err}");
        assert_eq!(total(&out), Some(after), "{args:?}");
    }
    let (ok, out, _) = run(&["judkins", "1"]);
    assert!(ok && total(&out) == Some(perft(&Judkins::startpos(), 1)));
    for (args, says) in [
        (&["judkins", "65"][..], "1 to 64"),
        (&["judkins", "0"], "1 to 64"),
        (&["judkins", "2", "startpos", "moves", "6e6x"], "move 1 '6e6x'"),
        (&["judkins", "2", "startpos", "6e6d"], "startpos"),
        (&["shogi", "2"], "unknown variant 'shogi'"),
    ] {
        let (ok, _, err) = run(args);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
}
