//! Seats and sides in games of more than two sides, on the stand-in game of four seats in both
//! groupings (two sides of two, four sides of one), independent of any real game's rules: the
//! rules core's perpetual checker among four sides, and the match runner's rotation and who
//! scores what after a fault.

mod common;

use common::stand_in::Stand;
use tetrarch::arbiter::game::{Player, player_places, points_of_forfeit};
use tetrarch::arbiter::{cycle, schedule};
use tetrarch::rules::{Seat, SeatMask, Side, Termination, Trace, perpetual_checker, repetition_outcome};

/// Two rounds of seats 0, 1, 2, 3; `checks[i]` is who is in check after the i-th move.
fn rounds(checks: [u8; 8]) -> Vec<Trace> {
    let mut t = vec![Trace { hash: 1, to_move: Seat(0), checks: SeatMask::EMPTY }];
    for (i, &c) in checks.iter().enumerate() {
        t.push(Trace { hash: 2 + i as u64 % 4, to_move: Seat(((i + 1) % 4) as u8), checks: SeatMask(c) });
    }
    t
}

#[test]
fn a_perpetual_checker_among_four_sides_is_found() {
    // Seat 1 checks seat 3 after each of its moves (moves 2 and 6); nobody else checks.
    let only_b = rounds([0, 0b1000, 0, 0, 0, 0b1000, 0, 0]);
    assert_eq!(perpetual_checker(&Stand::<false>, &only_b), Some(Side(1)));
    // Seat 2 also checks on each of its moves: the rule cancels out.
    let two = rounds([0, 0b1000, 0b0001, 0, 0, 0b1000, 0b0001, 0]);
    assert_eq!(perpetual_checker(&Stand::<false>, &two), None);
    // Seat 1 missed once.
    let missed = rounds([0, 0b1000, 0, 0, 0, 0, 0, 0]);
    assert_eq!(perpetual_checker(&Stand::<false>, &missed), None);
}

#[test]
fn a_side_of_two_seats_checks_perpetually_only_if_both_do() {
    // Seats 0 and 2 (one side) check an enemy seat after every one of their moves.
    let both = rounds([0b0010, 0, 0b1000, 0, 0b0010, 0, 0b1000, 0]);
    assert_eq!(perpetual_checker(&Stand::<true>, &both), Some(Side(0)));
    let one = rounds([0b0010, 0, 0, 0, 0b0010, 0, 0, 0]);
    assert_eq!(perpetual_checker(&Stand::<true>, &one), None);
    // Two rounds that return to the first position, for the third time: the other side wins.
    let mut traces = vec![Trace { hash: 10, to_move: Seat(0), checks: SeatMask::EMPTY }];
    for i in 0..8 {
        let next = Seat(((i + 1) % 4) as u8);
        traces.push(Trace { hash: 10 + next.0 as u64, to_move: next, checks: SeatMask([0b0010, 0, 0b1000, 0][i % 4]) });
    }
    let o = repetition_outcome(&Stand::<true>, &traces).unwrap();
    assert_eq!((o.reason, o.winners), (Termination::PerpetualCheck, SeatMask(0b1010)));
}

#[test]
fn a_fault_with_two_sides_gives_the_other_side_the_win() {
    // Double Mate: yellow's engine (seats y and r) faults.
    assert_eq!(points_of_forfeit(&Stand::<true>, &[Seat(0), Seat(2)]), vec![0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn a_fault_with_four_sides_loses_for_the_culprit_and_draws_the_rest() {
    assert_eq!(points_of_forfeit(&Stand::<false>, &[Seat(1)]), vec![0.5, 0.0, 0.5, 0.5]);
}

#[test]
fn a_fault_leaves_armies_already_out_with_their_loss() {
    // Green (3) faults; red (2) and yellow (0) went out before, red last.
    let pos = Stand::<false, 0b0101>;
    let points = points_of_forfeit(&pos, &[Seat(3)]);
    assert_eq!(points, vec![0.0, 0.5, 0.0, 0.0]);
    // Places: blue alone first; green, in until its fault, second; then red, then yellow.
    let players: Vec<Player> =
        (0..4).map(|s| Player { engine: s as usize, name: s.to_string(), seats: vec![Seat(s)] }).collect();
    assert_eq!(player_places(&pos, &points, &players), vec![4, 1, 3, 2]);
    // Double Mate: the side's two armies share its place.
    let pairs = vec![
        Player { engine: 0, name: "a".into(), seats: vec![Seat(0), Seat(2)] },
        Player { engine: 1, name: "b".into(), seats: vec![Seat(1), Seat(3)] },
    ];
    assert_eq!(
        player_places(&Stand::<true>, &points_of_forfeit(&Stand::<true>, &[Seat(1), Seat(3)]), &pairs),
        vec![1, 2]
    );
    assert_eq!(player_places(&Stand::<true>, &[0.5; 4], &pairs), vec![1, 1]);
}

#[test]
fn every_engine_plays_every_seat_group_equally_often() {
    // Four players, four engines, two openings: each engine sits in each slot once per opening.
    let mut seen = [[0; 4]; 4];
    for g in 0..8 {
        let (engines, opening) = schedule(g, 4, 4, 2);
        assert_eq!(opening, g / 4);
        for (slot, &e) in engines.iter().enumerate() {
            seen[e][slot] += 1;
        }
    }
    assert!(seen.iter().flatten().all(|&n| n == 2), "{seen:?}");
    // Two engines in a four-player game take two slots each, rotating.
    let (engines, _) = schedule(1, 4, 2, 1);
    assert_eq!(engines, vec![1, 0, 1, 0]);
}

/// With more engines than players, every engine meets every other equally often over a cycle,
/// in every seat, and the game counts stay close after any number of meetings.
#[test]
fn more_engines_than_players_all_meet_each_other_equally() {
    for (players, engines) in [(2, 3), (2, 4), (2, 5), (2, 8), (4, 5), (4, 6), (4, 7), (3, 5)] {
        let n = cycle(players, engines);
        let mut met = vec![vec![0; engines]; engines];
        let mut seat = vec![vec![0; players]; engines];
        let mut played = vec![0; engines];
        for g in 0..n {
            let (who, _) = schedule(g, players, engines, 1);
            for (k, &e) in who.iter().enumerate() {
                seat[e][k] += 1;
                played[e] += 1;
                for &o in &who {
                    if o != e {
                        met[e][o] += 1;
                    }
                }
            }
            // A meeting is `players` games; after each, no engine is more than two meetings
            // ahead of another (one, with two players).
            let (lo, hi) = (played.iter().min().unwrap(), played.iter().max().unwrap());
            let slack = if players == 2 { 1 } else { 2 };
            if (g + 1) % players == 0 {
                assert!(hi - lo <= slack * players, "{players}/{engines}, after {} games: {played:?}", g + 1);
            }
        }
        let m = met[0][1];
        assert!(m > 0 && (0..engines).all(|a| (0..engines).all(|b| a == b || met[a][b] == m)), "{met:?}");
        let s = seat[0][0];
        assert!(seat.iter().flatten().all(|&x| x == s), "{seat:?}");
    }
    // Three engines in Judkins: A-B both ways, then A-C, then B-C.
    let firsts: Vec<Vec<usize>> = (0..6).map(|g| schedule(g, 2, 3, 1).0).collect();
    assert_eq!(firsts, vec![vec![0, 1], vec![1, 0], vec![0, 2], vec![2, 0], vec![1, 2], vec![2, 1]]);
    // Four engines and four games of Judkins: every engine plays.
    let mut played = [0; 4];
    for g in 0..4 {
        for e in schedule(g, 2, 4, 1).0 {
            played[e] += 1;
        }
    }
    assert_eq!(played, [2; 4]);
}
