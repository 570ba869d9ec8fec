//! The match runner's seat bookkeeping for games of more than two sides, on a stand-in game with
//! four seats in both groupings (two sides of two, four sides of one), independent of any real
//! game's rules: rotation, and who scores what after a fault.

use tetrarch::arbiter::game::points_of_forfeit;
use tetrarch::arbiter::schedule;
use tetrarch::rules::{Game, MoveList, Outcome, Seat, SeatMask, Side, Termination, VariantInfo};

/// Four seats; `pairs` puts seats 0+2 and 1+3 on two sides (Double Mate), else each alone.
#[derive(Clone)]
struct Stand<const PAIRS: bool>;

impl<const PAIRS: bool> Game for Stand<PAIRS> {
    type Move = u8;
    const INFO: VariantInfo = VariantInfo { name: "stand-in", files: 1, ranks: 1, seat_letters: "ybrg" };
    const REPETITIONS: usize = 3;
    const PERPETUAL_CHECK_LOSES: bool = false;
    const MOVE_INDEX_SPACE: usize = 1;
    const NULL_MOVE: bool = false;
    fn startpos() -> Self {
        Stand
    }
    fn from_text(_: &str) -> Result<Self, String> {
        Ok(Stand)
    }
    fn to_text(&self) -> String {
        String::new()
    }
    fn to_move(&self) -> Seat {
        0
    }
    fn side_of(&self, seat: Seat) -> Side {
        if PAIRS { seat % 2 } else { seat }
    }
    fn legal_moves(&self, _: &mut MoveList<u8>) {}
    fn play(&mut self, _: u8) {}
    fn play_null(&mut self) {}
    fn hash(&self) -> u64 {
        0
    }
    fn hash_from_scratch(&self) -> u64 {
        0
    }
    fn in_check(&self) -> bool {
        false
    }
    fn checked_seats(&self) -> SeatMask {
        0
    }
    fn no_move_outcome(&self) -> Outcome {
        Outcome::draw(Termination::Stalemate)
    }
    fn format_move(&self, _: u8) -> String {
        String::new()
    }
    fn evaluate(&self, _: Side) -> i32 {
        0
    }
    fn tactical_value(&self, _: u8) -> Option<i32> {
        None
    }
    fn move_index(_: u8) -> usize {
        0
    }
    fn picture(&self) -> String {
        String::new()
    }
    fn move_number(&self) -> u32 {
        1
    }
}

#[test]
fn a_fault_with_two_sides_gives_the_other_side_the_win() {
    // Double Mate: yellow's engine (seats y and r) faults.
    assert_eq!(points_of_forfeit(&Stand::<true>, &[0, 2]), vec![0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn a_fault_with_four_sides_loses_for_the_culprit_and_draws_the_rest() {
    assert_eq!(points_of_forfeit(&Stand::<false>, &[1]), vec![0.5, 0.0, 0.5, 0.5]);
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
