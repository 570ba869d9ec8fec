//! Cute Chess's impasse rule for Judkins (its 12-point rule), which tetrarch does not play
//! (ruling J1: no declaration rule, docs/rules/judkins.md) but which `tests/cutechess.rs` must
//! know, since Cute Chess ends games by it: such games are checked against it. It reads the
//! position string, so it shares nothing with the engine's rules but `in_check`.
//!
//! Cute Chess applies it after every move, before anything else but mate and repetition: when
//! the king of the side to move stands in that side's promotion zone, not in check, and the
//! other king stands in the same zone (the mover's far two ranks, which is the other side's
//! home: Cute Chess reads both kings against the mover's zone), the game ends. The mover counts
//! 5 for each bishop, rook, horse and dragon and 1 for every other piece, on the board (the king
//! apart) and in hand: under 12 the other side wins, over 16 the mover wins, otherwise it is a
//! draw.

use tetrarch::games::judkins::Judkins;
use tetrarch::rules::prelude::*;

/// How Cute Chess's rule ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impasse {
    /// The seat that wins: 0 for sente (Cute Chess's white), 1 for gote.
    Win(u8),
    Draw,
}

/// Bishops and rooks count 5, promoted (horse, dragon) or not; every other piece 1.
fn points(letter: char) -> u32 {
    if matches!(letter.to_ascii_uppercase(), 'B' | 'R') { 5 } else { 1 }
}

/// The verdict of Cute Chess's 12-point rule in `pos`, or `None` where it does not apply.
pub fn cutechess_impasse(pos: &Judkins) -> Option<Impasse> {
    let text = pos.to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let (board, side, hand) = (fields[0], fields[1], fields[2]);
    // Sente (`b`, upper case) moves toward the first row the string writes.
    let mover_is_sente = side == "b";
    let mine = |c: char| c.is_ascii_uppercase() == mover_is_sente;
    let zone = |row: usize| if mover_is_sente { row < 2 } else { row >= 4 };
    let mut kings_in_zone = 0;
    let mut total = 0;
    for (row, line) in board.split('/').enumerate() {
        for c in line.chars().filter(char::is_ascii_alphabetic) {
            if c.eq_ignore_ascii_case(&'K') {
                kings_in_zone += usize::from(zone(row));
            } else if mine(c) {
                total += points(c);
            }
        }
    }
    if kings_in_zone < 2 || pos.must_answer_check() {
        return None;
    }
    let mut count = 0;
    for c in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
        } else {
            if mine(c) {
                total += points(c) * count.max(1);
            }
            count = 0;
        }
    }
    let (mover, other) = if mover_is_sente { (0, 1) } else { (1, 0) };
    Some(if total < 12 {
        Impasse::Win(other)
    } else if total > 16 {
        Impasse::Win(mover)
    } else {
        Impasse::Draw
    })
}
