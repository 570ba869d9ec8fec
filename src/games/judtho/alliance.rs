//! The relationships between the players, and what a checkmate does to them: Rivals, Opponents
//! and Allies with their ranks, who may move whose pieces, the checkmate test after every move
//! (T8), the promotion a checkmate gives, the Triple Alliance's turn order (T9) and the end on the
//! third checkmate.

use super::movegen::Any;
use super::*;

/// Who stands with whom.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Relations {
    /// Per seat: the First Ally of its alliance, or `NONE` for a single player.
    first: [u8; 4],
    /// Per seat: 1 for a First Ally, 2 for a Second, 3 for a Third, 0 for a single player.
    rank: [u8; 4],
    /// The Light and Dark Rivalries stand until the first checkmate.
    rivals: bool,
    /// Checkmates so far.
    mates: u8,
    /// After the third checkmate: the seats of the side that gave it.
    winners: u8,
    /// Derived: per seat, its Opponents, and the seats whose pieces it may move.
    opp: [u8; 4],
    movable: [u8; 4],
}

impl Relations {
    pub fn start() -> Relations {
        let mut r = Relations {
            first: [NONE; 4],
            rank: [0; 4],
            rivals: true,
            mates: 0,
            winners: 0,
            opp: [0; 4],
            movable: [0; 4],
        };
        r.derive();
        r
    }

    fn derive(&mut self) {
        for a in 0..4u8 {
            let mut opp = 0;
            let mut movable = 1 << a;
            for b in 0..4u8 {
                if a == b {
                    continue;
                }
                if self.allied(a, b) {
                    // A member moves the pieces of the members ranked below him.
                    if self.rank[b as usize] > self.rank[a as usize] {
                        movable |= 1 << b;
                    }
                } else if !(self.rivals && a ^ b == 2) {
                    opp |= 1 << b;
                }
            }
            self.opp[a as usize] = opp;
            self.movable[a as usize] = movable;
        }
    }

    #[inline(always)]
    pub fn allied(&self, a: u8, b: u8) -> bool {
        a != b && self.first[a as usize] != NONE && self.first[a as usize] == self.first[b as usize]
    }

    /// The seats whose pieces `seat` may capture and whose kings it checks.
    #[inline(always)]
    pub fn opponents(&self, seat: u8) -> u8 {
        self.opp[seat as usize]
    }

    /// The seats whose pieces `seat` may move, its own first among them.
    #[inline(always)]
    pub fn movable(&self, seat: u8) -> u8 {
        self.movable[seat as usize]
    }

    /// The Rival of `seat`, while the Rivalries stand.
    pub fn rival(&self, seat: u8) -> Option<u8> {
        self.rivals.then_some(seat ^ 2)
    }

    pub fn rivals_stand(&self) -> bool {
        self.rivals
    }

    #[inline(always)]
    pub fn side(&self, seat: u8) -> u8 {
        let f = self.first[seat as usize];
        if f == NONE { seat } else { f }
    }

    /// The seats of `seat`'s side.
    pub fn side_mask(&self, seat: u8) -> u8 {
        (0..4).filter(|&s| self.side(s) == self.side(seat)).fold(0, |m, s| m | (1 << s))
    }

    pub fn rank(&self, seat: u8) -> u8 {
        self.rank[seat as usize]
    }

    pub fn mates(&self) -> u8 {
        self.mates
    }

    /// Whether the relationships split the players into exactly two sides.
    pub fn two_sides(&self) -> bool {
        let mut sides = 0u8;
        for s in 0..4 {
            sides |= 1 << self.side(s);
        }
        sides.count_ones() == 2
    }

    /// A Triple Alliance's single player.
    pub fn single_facing_triple(&self) -> Option<u8> {
        // Alliances have two members or more, so three allied seats are one Triple Alliance.
        let mut singles = (0..4u8).filter(|&s| self.first[s as usize] == NONE);
        match (singles.next(), singles.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }

    /// The alliances, each its members from First Ally on, in the order of their First Allies'
    /// seats.
    pub fn alliances(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for f in 0..4u8 {
            if self.first[f as usize] == f {
                let mut members: Vec<u8> = (0..4).filter(|&s| self.first[s as usize] == f).collect();
                members.sort_by_key(|&s| self.rank[s as usize]);
                out.push(members);
            }
        }
        out
    }

    /// Every relationship, as a number for the hash. The winners of the Third Checkmate are
    /// left out: the position string does not say who gave it (the seat checkmated, to move with
    /// no move, says it), so a finished game's string must read back to the same hash without
    /// them; they follow from the board there. The byte they held stays empty, so that every
    /// other position keeps its hash.
    pub fn code(&self) -> u64 {
        let mut c = self.rivals as u64;
        for s in 0..4 {
            c = c << 8 | (self.first[s] as u64) << 2 | self.rank[s] as u64;
        }
        c << 8
    }

    /// The end after the third checkmate: the side that gave it wins.
    pub fn outcome(&self) -> Option<Outcome> {
        (self.mates >= 3).then(|| Outcome::win(SeatMask(self.winners), Termination::Checkmate))
    }

    /// Sets the alliances as the position string gives them (`members` from First Ally on).
    pub fn from_alliances(alliances: &[Vec<u8>]) -> Result<Relations, String> {
        let mut r = Relations::start();
        if alliances.is_empty() {
            return Ok(r);
        }
        r.rivals = false;
        for a in alliances {
            for (i, &s) in a.iter().enumerate() {
                if r.first[s as usize] != NONE {
                    return Err(format!("seat {} is in two alliances", SEAT_LETTERS[s as usize] as char));
                }
                r.first[s as usize] = a[0];
                r.rank[s as usize] = i as u8 + 1;
            }
            r.mates += a.len() as u8 - 1;
        }
        r.derive();
        Ok(r)
    }

    /// The relationships after `mater` checkmates `mated`. Returns whether a Triple Alliance was
    /// formed (its turn order is then the caller's to set, T9).
    pub fn checkmate(&mut self, mater: u8, mated: u8) -> bool {
        self.mates += 1;
        self.rivals = false;
        let (x, v) = (mater as usize, mated as usize);
        let mut triple = false;
        if self.mates >= 3 {
            // The Third Checkmate: the side that gives it wins.
            self.winners = self.side_mask(mater);
        } else if self.first[x] != NONE && self.first[v] == NONE {
            // An Alliance mates a single player: he joins as its lowest member.
            let members = (0..4).filter(|&s| self.first[s] == self.first[x]).count();
            self.first[v] = self.first[x];
            self.rank[v] = members as u8 + 1;
            triple = members + 1 == 3;
        } else if self.first[x] == NONE && self.first[v] != NONE {
            // A single player mates an Alliance king: he leads the alliance, the others step down.
            let f = self.first[v];
            for s in 0..4 {
                if self.first[s] == f {
                    self.first[s] = mater;
                    self.rank[s] += 1;
                }
            }
            self.first[x] = mater;
            self.rank[x] = 1;
            triple = (0..4).filter(|&s| self.first[s] == mater).count() == 3;
        } else {
            // A single player mates another: a (first or second) Double Alliance.
            self.first[x] = mater;
            self.rank[x] = 1;
            self.first[v] = mater;
            self.rank[v] = 2;
        }
        self.derive();
        triple
    }
}

impl Judtho {
    /// The relationships now.
    pub fn relations(&self) -> &Relations {
        &self.rel
    }

    /// The checkmate test of T8 after `mover`'s move (or placement, T6b with `every`, which
    /// tests the mover's own king too): the first king, in turn order after the mover, that is in
    /// check with no legal move for its owner, and who mates it.
    pub(super) fn next_mate(&self, mover: u8, every: bool) -> Option<(u8, u8)> {
        for i in 1..=4u8 {
            let s = (mover + i) % 4;
            if (s == mover && !every) || !self.king_in_check(s) || self.has_legal_move(s) {
                continue;
            }
            let mater = if self.rel.opponents(mover) & (1 << s) != 0 && !every {
                mover
            } else if every {
                self.assembly_mater(s)
            } else {
                self.first_checking_opponent(s)
            };
            return Some((s, mater));
        }
        None
    }

    /// The first Opponent of `seat`, in turn order after it, whose piece gives its king check.
    pub(super) fn first_checking_opponent(&self, seat: u8) -> u8 {
        let k = self.board.kings[seat as usize] as usize;
        (1..4u8)
            .map(|i| (seat + i) % 4)
            .find(|&x| self.rel.opponents(seat) & (1 << x) != 0 && self.board.attacked(k, 1 << x, &self.rel))
            .unwrap_or((seat + 1) % 4)
    }

    /// Whether `seat` has a legal move (the test T8 makes of a checked king's owner).
    pub(super) fn has_legal_move(&self, seat: u8) -> bool {
        let mut any = Any(false);
        self.generate(seat, &mut any, false);
        any.0
    }

    /// T10: the seat to move, without a legal move and not in check, passes, unless it is the
    /// single player facing a Triple Alliance or nobody else can move either (both draws).
    pub(super) fn may_pass(&self, seat: u8) -> bool {
        if self.rel.single_facing_triple() == Some(seat) {
            return false;
        }
        (1..4u8).map(|i| (seat + i) % 4).any(|s| self.has_legal_move(s))
    }

    /// Where `mater` may put the promotion piece of `mated`'s checkmate: `mated`'s pawns, else
    /// the empty squares of `mated`'s Realm, else those of `mater`'s. None for the Third
    /// Checkmate, and none when `mated` has no Prince or Princess left to receive.
    pub(super) fn promotion_squares(&self, mater: u8, mated: u8) -> Set {
        if self.rel.mates() >= 2 || self.promotion_kind(mated).is_none() {
            return Set::EMPTY;
        }
        let t = tables();
        let pawns = self.board.by_seat[mated as usize] & self.board.by_kind[PAWN as usize];
        if pawns.any() {
            return pawns;
        }
        let empty = t.realm[mated as usize].minus(self.board.occ);
        if empty.any() {
            return empty;
        }
        t.realm[mater as usize].minus(self.board.occ)
    }

    /// The one of Prince and Princess that `seat` did not place: the piece its hand keeps.
    pub(super) fn promotion_kind(&self, seat: u8) -> Option<u8> {
        [PRINCE, PRINCESS].into_iter().find(|&k| self.hand[seat as usize][k as usize] > 0)
    }

    /// The consequences of `mater` checkmating `mated`: the promotion on `square` (when the
    /// checkmate gives one), the new relationships, T9's turn order for a Triple Alliance, and
    /// the end of the game on the third.
    pub(super) fn checkmate(&mut self, mater: u8, mated: u8, square: Option<usize>) {
        if let (Some(sq), Some(kind)) = (square, self.promotion_kind(mated)) {
            self.take(sq);
            self.take_from_hand(mated, kind);
            self.put(mated, kind, sq);
        }
        let triple = self.rel.checkmate(mater, mated);
        self.refresh_checked();
        self.quiet = 0;
        if triple {
            // T9: the single player moves next, then the members in the original order from
            // the one after the mater, each turn of theirs alternating with his.
            let single = (0..4u8).find(|&s| !self.rel.allied(s, mater) && s != mater).expect("a single player");
            let mut members = (1..=4u8).map(|i| (mater + i) % 4).filter(|&s| s != single);
            let mut next = || members.next().expect("three members");
            self.cycle = [single, next(), single, next(), single, next()];
            self.cycle_len = 6;
        }
        if self.rel.outcome().is_some() {
            self.over = self.rel.outcome();
        }
    }

    /// After `mover`'s move: every checkmate it gives, in T8's order, each promotion on the
    /// square the move names for it.
    pub(super) fn run_mates(&mut self, mover: u8, m: Move) {
        let mut choices = m.choices();
        while self.over.is_none() {
            let Some((mated, mater)) = self.next_mate(mover, false) else { break };
            let options = self.promotion_squares(mater, mated);
            let square = if options.any() { choices.next() } else { None };
            self.checkmate(mater, mated, square);
        }
    }

    /// Pushes `m` (already played on `self`, mates not yet resolved) once for each way its
    /// checkmates' promotions can be chosen.
    pub(super) fn mate_variants(&self, mover: u8, m: Move, out: &mut impl movegen::Sink) {
        let Some((mated, mater)) = self.next_mate(mover, false) else {
            out.push(m);
            return;
        };
        let options = self.promotion_squares(mater, mated);
        if options.is_empty() {
            let mut p = self.clone();
            p.checkmate(mater, mated, None);
            if p.over.is_some() {
                out.push(m)
            } else {
                p.mate_variants(mover, m, out)
            }
            return;
        }
        // Where the checkmate without its promotion leaves no king in check, a promotion square
        // from which the new piece reaches no king cannot give another checkmate (it replaces a
        // pawn of the same owner, or fills an empty square: either only blocks lines), and
        // needs no position of its own.
        let mut bare = self.clone();
        bare.checkmate(mater, mated, None);
        let quiet = bare.over.is_none() && bare.checked == 0;
        let kings = self.board.by_kind[KING as usize];
        let reach = |sq: usize| match self.promotion_kind(mated) {
            Some(PRINCESS) => tables().ring4[sq],
            _ => tables().orth3[sq],
        };
        for sq in options.iter() {
            let m = m.with_choice(sq);
            if quiet && (reach(sq) & kings).is_empty() {
                out.push(m);
                continue;
            }
            let mut p = self.clone();
            p.checkmate(mater, mated, Some(sq));
            if p.over.is_some() { out.push(m) } else { p.mate_variants(mover, m, out) }
        }
    }
}
