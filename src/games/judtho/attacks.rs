//! T5, attack and check: a piece attacks every square it could capture on (or through) if an
//! Opponent piece stood there. A Princess attacks every square up to 4 away on a queen line,
//! whatever stands between; a Prince's line capture runs through its owner's Opponents' pieces,
//! so they do not shield from it; a king blocks every line (T5a), though an attack on it is check.

use super::alliance::Relations;
use super::tables::{DOWN, UP};
use super::*;

/// The four orthogonal directions, as indices into `QUEEN_DIRS`.
pub const ORTH: [usize; 4] = [0, 1, 4, 5];
/// Whether direction `d` (an index into `QUEEN_DIRS`) is along a rank or file.
#[inline(always)]
pub fn orthogonal(d: usize) -> bool {
    d % 4 < 2
}

/// The square `n` steps from `sq` in direction `d`, if on the board.
#[inline(always)]
pub fn step(sq: usize, d: usize, n: usize) -> Option<usize> {
    let (df, dr) = crate::board::squareset::QUEEN_DIRS[d];
    let f = (sq % 12) as i32 + df * n as i32;
    let r = (sq / 12) as i32 + dr * n as i32;
    if (0..12).contains(&f) && (0..12).contains(&r) { Some(r as usize * 12 + f as usize) } else { None }
}

/// The number of king steps from `a` to `b`.
#[inline(always)]
pub fn distance(a: usize, b: usize) -> usize {
    (a % 12).abs_diff(b % 12).max((a / 12).abs_diff(b / 12))
}

/// How many squares lie beyond `sq` in direction `d`, to the edge.
#[inline(always)]
pub fn to_edge(sq: usize, d: usize) -> usize {
    let (df, dr) = crate::board::squareset::QUEEN_DIRS[d];
    let room = |at: usize, delta: i32| match delta {
        1 => 11 - at,
        -1 => at,
        _ => 11,
    };
    room(sq % 12, df).min(room(sq / 12, dr))
}

/// The squares strictly between two squares of one queen line (empty if they share none).
#[inline(always)]
pub fn between(a: usize, b: usize) -> Set {
    let t = tables();
    let d = t.dir[a][b];
    if d == tables::NO_DIR {
        return Set::EMPTY;
    }
    t.rays.rays[d as usize][a] & t.rays.rays[(d as usize + 4) % 8][b]
}

impl Board {
    /// The pieces of the seats in `seats`.
    #[inline(always)]
    pub fn of(&self, seats: u8) -> Set {
        let mut s = Set::EMPTY;
        for i in 0..4 {
            if seats & (1 << i) != 0 {
                s |= self.by_seat[i];
            }
        }
        s
    }

    /// Whether a piece of a seat in `by` attacks `sq`.
    #[inline]
    pub fn attacked(&self, sq: usize, by: u8, rel: &Relations) -> bool {
        self.attacked_through(sq, by, rel, self.occ)
    }

    /// Whether a piece of a seat in `by` attacks `sq` when the Queens, Rooks and Bishops are
    /// blocked by `occ` only (a king stepping away empties its square; Princes still read the
    /// board).
    pub fn attacked_through(&self, sq: usize, by: u8, rel: &Relations, occ: Set) -> bool {
        by != 0 && self.attacked_by(sq, self.of(by), rel, occ)
    }

    /// Whether one of the pieces `atk` attacks `sq`, the Queens, Rooks and Bishops blocked by
    /// `occ` (a move's change read without playing it: its captures left out of `atk` and out
    /// of `occ`, where it lands put into `occ`; the Princes read the board as it stands).
    pub fn attacked_by(&self, sq: usize, atk: Set, rel: &Relations, occ: Set) -> bool {
        let t = tables();
        let k = &self.by_kind;
        if (t.knight[sq] & k[KNIGHT as usize] & atk).any()
            || (t.king[sq] & k[KING as usize] & atk).any()
            || (t.ring4[sq] & k[PRINCESS as usize] & atk).any()
        {
            return true;
        }
        let pawns = k[PAWN as usize] & atk;
        if pawns.any() {
            let up = pawns & (self.by_seat[W as usize] | self.by_seat[Y as usize]);
            let down = pawns & (self.by_seat[R as usize] | self.by_seat[B as usize]);
            if (t.pawn_from[UP][sq] & up).any() || (t.pawn_from[DOWN][sq] & down).any() {
                return true;
            }
        }
        let orth = (k[QUEEN as usize] | k[ROOK as usize]) & atk;
        let diag = (k[QUEEN as usize] | k[BISHOP as usize]) & atk;
        for d in 0..8 {
            let sliders = if orthogonal(d) { orth } else { diag };
            if (t.rays.rays[d][sq] & sliders).any()
                && let Some(b) = t.rays.blocker(sq, d, occ)
                && sliders.has(b)
            {
                return true;
            }
        }
        let princes = k[PRINCE as usize] & atk & t.orth3[sq];
        princes.any() && self.prince_reaches(sq, princes, rel)
    }

    /// The pieces of the seats in `by` that attack `sq`.
    pub fn attackers(&self, sq: usize, by: u8, rel: &Relations) -> Set {
        let t = tables();
        let atk = self.of(by);
        let k = &self.by_kind;
        let mut out = (t.knight[sq] & k[KNIGHT as usize])
            | (t.king[sq] & k[KING as usize])
            | (t.ring4[sq] & k[PRINCESS as usize])
            | (t.pawn_from[UP][sq] & k[PAWN as usize] & (self.by_seat[W as usize] | self.by_seat[Y as usize]))
            | (t.pawn_from[DOWN][sq] & k[PAWN as usize] & (self.by_seat[R as usize] | self.by_seat[B as usize]));
        out &= atk;
        let orth = (k[QUEEN as usize] | k[ROOK as usize]) & atk;
        let diag = (k[QUEEN as usize] | k[BISHOP as usize]) & atk;
        for d in 0..8 {
            let sliders = if orthogonal(d) { orth } else { diag };
            if let Some(b) = t.rays.blocker(sq, d, self.occ)
                && sliders.has(b)
            {
                out.insert(b);
            }
        }
        for p in (k[PRINCE as usize] & atk & t.orth3[sq]).iter() {
            if self.prince_reaches(sq, Set::square(p), rel) {
                out.insert(p);
            }
        }
        out
    }

    /// Whether one of `princes` attacks `sq`: on its rank or file within 3, with nothing between
    /// but empty squares and its owner's Opponents' pieces, none of them a king.
    fn prince_reaches(&self, sq: usize, princes: Set, rel: &Relations) -> bool {
        for d in ORTH {
            let mut path = [(NONE, NONE); 2];
            for n in 1..=3 {
                let Some(t) = step(sq, d, n) else { break };
                let Some((seat, kind)) = self.at(t) else { continue };
                if princes.has(t) {
                    let opp = rel.opponents(seat);
                    let clear = path[..n - 1].iter().all(|&(s, k)| s == NONE || (k != KING && opp & (1 << s) != 0));
                    if clear {
                        return true;
                    }
                }
                if kind == KING {
                    break;
                }
                if n < 3 {
                    path[n - 1] = (seat, kind);
                }
            }
        }
        false
    }

    /// The squares a piece of `owner` of this kind on `sq` attacks, on this board.
    pub fn attacks_from(&self, kind: u8, owner: u8, sq: usize, rel: &Relations) -> Set {
        let t = tables();
        match kind {
            KING => t.king[sq],
            KNIGHT => t.knight[sq],
            PAWN => t.pawn_attacks[pawn_dir(owner)][sq],
            PRINCESS => t.ring4[sq],
            QUEEN => t.rays.queen(sq, self.occ),
            ROOK => t.rays.rook(sq, self.occ),
            BISHOP => t.rays.bishop(sq, self.occ),
            _ => {
                let opp = rel.opponents(owner);
                let mut out = Set::EMPTY;
                for d in ORTH {
                    for n in 1..=3 {
                        let Some(s) = step(sq, d, n) else { break };
                        out.insert(s);
                        match self.at(s) {
                            None => {}
                            Some((o, k)) if k != KING && opp & (1 << o) != 0 => {}
                            Some(_) => break,
                        }
                    }
                }
                out
            }
        }
    }

    /// Where a piece of this kind on `sq` could go without capturing, on this board: the
    /// squares T6 asks about when a placement must prepare to interpose.
    pub fn quiet_reach(&self, kind: u8, owner: u8, sq: usize) -> Set {
        let t = tables();
        let empty = !self.occ;
        match kind {
            KING => t.king[sq] & empty,
            KNIGHT => t.knight[sq] & empty,
            QUEEN => t.rays.queen(sq, self.occ) & empty,
            ROOK => t.rays.rook(sq, self.occ) & empty,
            BISHOP => t.rays.bishop(sq, self.occ) & empty,
            PAWN => {
                let d = if pawn_dir(owner) == UP { 1 } else { 5 };
                let mut out = Set::EMPTY;
                for n in 1..=2 {
                    match step(sq, d, n) {
                        Some(s) if empty.has(s) => out.insert(s),
                        _ => break,
                    }
                }
                out
            }
            _ => {
                let (dirs, reach): (&[usize], usize) =
                    if kind == PRINCESS { (&[0, 1, 2, 3, 4, 5, 6, 7], 4) } else { (&ORTH, 3) };
                let mut out = Set::EMPTY;
                for &d in dirs {
                    for n in 1..=reach {
                        match step(sq, d, n) {
                            Some(s) if empty.has(s) => out.insert(s),
                            _ => break,
                        }
                    }
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_room_to_the_edge_count_the_rays() {
        let t = tables();
        for sq in 0..SQUARES {
            for d in 0..8 {
                let ray = t.rays.rays[d][sq];
                assert_eq!(to_edge(sq, d), ray.count() as usize, "square {sq} direction {d}");
                for b in ray.iter() {
                    assert_eq!(distance(sq, b), between(sq, b).count() as usize + 1);
                    assert_eq!(distance(sq, b), distance(b, sq));
                }
            }
        }
        // Off the lines too: a knight's leap is two steps.
        assert_eq!(distance(0, 12 + 2), 2);
    }
}
