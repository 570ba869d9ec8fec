//! The Assembly: each player in turn places one piece from hand on an empty square of his own
//! Realm, 12 of his 13 with exactly one of Prince and Princess, until all 48 stand. A King may
//! not be placed where an Opponent or the Rival attacks it. A player given check must answer it
//! on his next placement (T6), and when the last piece is placed every king in check is tested
//! for checkmate (T6b).

use super::attacks::between;
use super::*;

impl Judtho {
    /// The kinds `seat` may place now: those in hand, but only one of Prince and Princess.
    fn placeable(&self, seat: u8) -> impl Iterator<Item = u8> + '_ {
        let hand = &self.hand[seat as usize];
        // The hand starts with one of each: once one of the two is on the board, the other is
        // kept for the checkmate promotion.
        let both = hand[PRINCE as usize] > 0 && hand[PRINCESS as usize] > 0;
        (0..8u8).filter(move |&k| hand[k as usize] > 0 && (both || (k != PRINCE && k != PRINCESS)))
    }

    /// The squares where `seat` may place its King: none attacked by an Opponent or the Rival.
    /// When every empty square of the Realm is attacked and the King is the last piece left to
    /// place, any of them (tetrarch's ruling: the Assembly must complete).
    fn king_squares(&self, seat: u8, empty: Set) -> Set {
        let enemies = self.rel.opponents(seat) | self.rel.rival(seat).map(|r| 1 << r).unwrap_or(0);
        let mut safe = Set::EMPTY;
        for sq in empty.iter() {
            if !self.board.attacked(sq, enemies, &self.rel) {
                safe.insert(sq);
            }
        }
        let last = self.placeable(seat).all(|k| k == KING);
        if safe.is_empty() && last { empty } else { safe }
    }

    /// Every legal placement of the seat to move.
    pub(super) fn placements(&self, out: &mut List<Move>) {
        let us = self.to_move_seat();
        let empty = tables().realm[us as usize].minus(self.board.occ);
        let mut all = List::<(u8, usize)>::new();
        for k in self.placeable(us) {
            let squares = if k == KING { self.king_squares(us, empty) } else { empty };
            for sq in squares.iter() {
                all.push((k, sq));
            }
        }
        let obliged = self.pending & (1 << us) != 0 && self.king_in_check(us);
        if obliged {
            let king = self.board.kings[us as usize] as usize;
            let checkers = self.checkers(us);
            // T6: a placement that ends every check by interposition, if there is one;
            let shield = self.shield_squares(king, checkers);
            if all.iter().any(|&(_, sq)| shield.has(sq)) {
                for &(k, sq) in all.iter().filter(|&&(_, sq)| shield.has(sq)) {
                    out.push(Move::place(k, sq));
                }
                return;
            }
            // else a piece that could relieve every check on the first move of the Battles;
            // else (the rule asks the impossible) any placement.
            let ready: Vec<(u8, usize)> =
                all.iter().copied().filter(|&(k, sq)| self.prepares_relief(us, k, sq, king, checkers)).collect();
            if !ready.is_empty() {
                for (k, sq) in ready {
                    out.push(Move::place(k, sq));
                }
                return;
            }
        }
        for &(k, sq) in all.iter() {
            out.push(Move::place(k, sq));
        }
    }

    /// The pieces giving check to `seat`'s king.
    pub(super) fn checkers(&self, seat: u8) -> Set {
        let king = self.board.kings[seat as usize] as usize;
        let mut out = Set::EMPTY;
        for x in 0..4u8 {
            if self.rel.opponents(seat) & (1 << x) == 0 {
                continue;
            }
            for sq in self.board.by_seat[x as usize].iter() {
                let (_, kind) = self.board.at(sq).expect("a piece");
                if self.board.attacks_from(kind, x, sq, &self.rel).has(king) {
                    out.insert(sq);
                }
            }
        }
        out
    }

    /// The empty squares where one placed piece ends every check: squares between each checker
    /// and the king. Only a Queen's, Rook's or Bishop's check can be interposed: a Princess's
    /// cannot (T6), nor a Prince's, which runs through its Opponents' pieces, nor a leaper's.
    fn shield_squares(&self, king: usize, checkers: Set) -> Set {
        let mut squares = !Set::EMPTY;
        for c in checkers.iter() {
            let (_, kind) = self.board.at(c).expect("a checker");
            if !matches!(kind, QUEEN | ROOK | BISHOP) {
                return Set::EMPTY;
            }
            squares &= between(c, king);
        }
        squares
    }

    /// T6's second clause, judged on the board with the piece placed: for every checker, the
    /// placed piece attacks it, or could move to a square between it and the king.
    fn prepares_relief(&self, us: u8, kind: u8, sq: usize, king: usize, checkers: Set) -> bool {
        let mut b = self.board.clone();
        b.put(us, kind, sq);
        let attacks = b.attacks_from(kind, us, sq, &self.rel);
        let reach = b.quiet_reach(kind, us, sq);
        checkers.iter().all(|c| {
            let (_, ck) = b.at(c).expect("a checker");
            attacks.has(c) || (matches!(ck, QUEEN | ROOK | BISHOP) && (reach & between(c, king)).any())
        })
    }

    /// Places a piece: the obligation of the placer is met, and each king the piece checks is
    /// given one (T6) and records the check (T6b).
    pub(super) fn place(&mut self, us: u8, kind: u8, sq: usize) {
        self.take_from_hand(us, kind);
        self.put(us, kind, sq);
        self.placed += 1;
        self.pending &= !(1 << us);
        self.refresh_checked();
        let attacks = self.board.attacks_from(kind, us, sq, &self.rel);
        for v in 0..4u8 {
            let k = self.board.kings[v as usize];
            if self.rel.opponents(us) & (1 << v) != 0 && k != NONE && attacks.has(k as usize) {
                self.pending |= 1 << v;
                let n = self.n_checks[v as usize] as usize;
                if n < self.checks[v as usize].len() {
                    self.checks[v as usize][n] = sq as u8;
                    self.n_checks[v as usize] += 1;
                }
            }
        }
    }

    /// T6b: the last piece is placed. Every king in check is tested as if that placement were a
    /// move, in turn order after the placer (his own last); a checkmate's promotion is the
    /// mated player's pawn nearest his king, or the nearest empty square of his Realm, or of the
    /// mater's. The Assembly's records are then cleared.
    pub(super) fn end_assembly(&mut self, placer: u8) {
        while self.over.is_none() {
            let Some((mated, mater)) = self.next_mate(placer, true) else { break };
            let options = self.promotion_squares(mater, mated);
            let king = self.board.kings[mated as usize] as usize;
            let nearest = options.iter().min_by_key(|&sq| {
                let d = (sq % 12).abs_diff(king % 12).max((sq / 12).abs_diff(king / 12));
                (d, sq % 12, sq / 12)
            });
            self.checkmate(mater, mated, nearest);
        }
        self.pending = 0;
        self.n_checks = [0; 4];
    }

    /// T6b's mater of `seat`: of the Opponents whose pieces check its king, the one who placed a
    /// checking piece last. A piece that checks only because a checkmate ended the Rivalries was
    /// placed without giving check; if no checker was, T8's rule decides.
    pub(super) fn assembly_mater(&self, seat: u8) -> u8 {
        let king = self.board.kings[seat as usize] as usize;
        for i in (0..self.n_checks[seat as usize] as usize).rev() {
            let sq = self.checks[seat as usize][i] as usize;
            if let Some((x, kind)) = self.board.at(sq)
                && self.rel.opponents(seat) & (1 << x) != 0
                && self.board.attacks_from(kind, x, sq, &self.rel).has(king)
            {
                return x;
            }
        }
        self.first_checking_opponent(seat)
    }
}
