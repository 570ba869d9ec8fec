//! How a game's end stands for each seat: its points, and the places of seats or groups of seats
//! (the rules' ranking breaking ties of points). The arbiter scores matches with these, and the
//! game object (`crate::live`) answers with them.

use super::{Outcome, Rules, Seat, Side};

/// Points when the game ends by the rules.
pub fn points_of_outcome<G: Rules>(pos: &G, o: &Outcome) -> Vec<f64> {
    Seat::all(pos.seats())
        .map(|s| {
            if pos.side_lost(pos.side_of(s)) {
                // Out before the end (C8: a draw is shared by the armies still in).
                0.0
            } else if o.is_draw() {
                0.5
            } else if o.winners.contains(s) {
                1.0
            } else {
                0.0
            }
        })
        .collect()
}

/// Points when `culprit`'s seats forfeit: with two sides the other side wins; with more, the
/// culprit's side loses and every other seat still in draws (as Judtho's T11 treats a
/// resignation); an army already out keeps its loss (C8).
pub fn points_of_forfeit<G: Rules>(pos: &G, culprit_seats: &[Seat]) -> Vec<f64> {
    let n = pos.seats();
    let lost_sides: Vec<Side> = culprit_seats.iter().map(|&s| pos.side_of(s)).collect();
    let mut sides: Vec<Side> = Seat::all(n).map(|s| pos.side_of(s)).collect();
    sides.sort_unstable();
    sides.dedup();
    Seat::all(n)
        .map(|s| {
            if lost_sides.contains(&pos.side_of(s)) || pos.side_lost(pos.side_of(s)) {
                0.0
            } else if sides.len() == 2 {
                1.0
            } else {
                0.5
            }
        })
        .collect()
}

/// The places of groups of seats (a player's seats, or each seat alone) at the end of a game:
/// more points (the mean over the group's seats) first, and among equal points the rules'
/// ranking (all against all: the armies still in, then the last out first, C8). Groups equal on
/// both share their places.
pub fn places<G: Rules>(pos: &G, points: &[f64], groups: &[&[Seat]]) -> Vec<usize> {
    let ranking = pos.ranking();
    let rank_of = |s: Seat| ranking.as_ref().and_then(|r| r.iter().position(|m| m.contains(s))).unwrap_or(0);
    let keys: Vec<(f64, i64)> = groups
        .iter()
        .map(|seats| {
            let pts = seats.iter().map(|&s| points.get(s.index()).copied().unwrap_or(0.0)).sum::<f64>()
                / seats.len().max(1) as f64;
            let rank = seats.iter().map(|&s| rank_of(s)).min().unwrap_or(0);
            (pts, -(rank as i64))
        })
        .collect();
    places_by_key(&keys)
}

/// Places from a sort key per player, higher keys better. Equal keys share a place, written as
/// the best place it covers (`1 2 2 4`), as in sport.
pub fn places_by_key<K: PartialOrd>(keys: &[K]) -> Vec<usize> {
    keys.iter().map(|k| 1 + keys.iter().filter(|o| *o > k).count()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_share_ties() {
        assert_eq!(places_by_key(&[1.0, 0.0, 0.0, 0.0]), vec![1, 2, 2, 2]);
        assert_eq!(places_by_key(&[(0.5, 0), (0.5, 0), (0.0, -1), (0.0, -2)]), vec![1, 1, 3, 4]);
        assert_eq!(places_by_key(&[0.5, 0.5]), vec![1, 1]);
        assert_eq!(places_by_key(&[1.0, 1.0, 0.0, 1.0]), vec![1, 1, 4, 1]);
    }
}
