//! Cute Chess's impasse rule for Judkins (its 12-point rule), which tetrarch does not play
//! (ruling J1: no declaration rule unless one is configured) but reads, so that games that Cute
//! Chess ended by it can be checked against it (`tests/cutechess.rs`, docs/rules/judkins.md).
//!
//! Cute Chess applies it after every move, before anything else but mate and repetition: when
//! the king of the side to move stands in that side's promotion zone, not in check, and the
//! other king stands in the same zone (the mover's far two ranks, which is the other side's
//! home: Cute Chess reads both kings against the mover's zone), the game ends. The mover counts
//! 5 for each bishop, rook, horse and dragon and 1 for every other piece, on the board (the king
//! apart) and in hand: under 12 the other side wins, over 16 the mover wins, otherwise it is a
//! draw.

use super::*;
use crate::rules::Rules;

/// How Cute Chess's rule ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impasse {
    /// The seat that wins (`SENTE` or `GOTE`).
    Win(u8),
    Draw,
}

/// Rows of the promotion zone of `color`: sente moves toward row 0.
fn in_zone(color: u8, sq: usize) -> bool {
    let row = sq / FILES;
    if color == SENTE { row < 2 } else { row >= RANKS - 2 }
}

fn points(pt: u8) -> u32 {
    match pt {
        BISHOP | ROOK | HORSE | DRAGON => 5,
        _ => 1,
    }
}

/// The verdict of Cute Chess's 12-point rule in `pos`, or `None` where it does not apply.
pub fn cutechess_impasse(pos: &Judkins) -> Option<Impasse> {
    let side = pos.side;
    let other = side ^ 1;
    if !in_zone(side, pos.king[side as usize] as usize)
        || pos.in_check()
        || !in_zone(side, pos.king[other as usize] as usize)
    {
        return None;
    }
    let mut total = 0;
    for sq in 0..SQUARES {
        if let Some((color, pt)) = pos.piece_at(sq)
            && color == side
            && pt != KING
        {
            total += points(pt);
        }
    }
    for pt in 0..HAND_KINDS as u8 {
        total += points(pt) * pos.hand[side as usize][pt as usize] as u32;
    }
    Some(if total < 12 {
        Impasse::Win(other)
    } else if total > 16 {
        Impasse::Win(side)
    } else {
        Impasse::Draw
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;

    #[test]
    fn both_kings_in_the_movers_zone() {
        // Sente's king on 4b, gote's at home on 1a; sente holds everything but gote's king and
        // pawn: R B G S N on the board or in hand (5+5+1+1+1) and a pawn: 14, a draw.
        let p = Judkins::from_text("5k/2K3/6/6/6/RBGSNP b - 1").unwrap();
        assert_eq!(cutechess_impasse(&p), Some(Impasse::Draw));
        // With gote's pawn taken too, a rook more in hand: 19 points, sente wins.
        let p = Judkins::from_text("5k/2K3/6/6/6/RBGSN1 b RP 1").unwrap();
        assert_eq!(cutechess_impasse(&p), Some(Impasse::Win(SENTE)));
        // Gote to move: its king is not in its zone.
        let p = Judkins::from_text("5k/2K3/6/6/6/RBGSNP w - 1").unwrap();
        assert_eq!(cutechess_impasse(&p), None);
        // Not at the start.
        assert_eq!(cutechess_impasse(&Judkins::startpos()), None);
    }
}
