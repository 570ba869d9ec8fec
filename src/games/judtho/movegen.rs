//! The Battles' moves. A player moves his own pieces or those of the allies ranked below him; a
//! move may not leave in check his own king nor the king of the player whose piece moved (T7).
//! Each move that checkmates carries the promotion squares its checkmates need (T8).

use super::attacks::{ORTH, between, step};
use super::*;
use crate::board::geometry::KNIGHT_STEPS;

/// Where generated moves go: a list, or a test that stops at the first.
pub trait Sink {
    fn push(&mut self, m: Move);
    /// Whether generation may stop.
    fn full(&self) -> bool {
        false
    }
}

/// Every move into a list.
pub struct All<'a>(pub &'a mut List<Move>);

impl Sink for All<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Whether there is any move.
pub struct Any(pub bool);

impl Sink for Any {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline(always)]
    fn full(&self) -> bool {
        self.0
    }
}

/// How many moves, without keeping them.
pub struct Count(pub usize);

impl Sink for Count {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// What a move does to the board.
#[derive(Clone, Copy)]
struct Change {
    owner: u8,
    /// The kind that stands on `to` afterwards (a pawn's promotion).
    kind: u8,
    from: usize,
    to: usize,
    /// The squares the move empties of the pieces standing there before: its origin (unless a
    /// distant capture, where the knight stays) and every square it captures on.
    vacated: Set,
    /// Whether the piece moves at all (not a distant capture).
    moves: bool,
}

/// What the legality tests need to know about the position before any move.
struct Ctx {
    us: u8,
    /// The seats whose kings are in check now.
    checked: u8,
}

impl Judtho {
    /// The moves of `us` in the Battles (no pass). With `variants`, a checkmating move is pushed
    /// once per choice of promotion squares; without, once (for the existence tests of T8).
    pub(super) fn generate(&self, us: u8, out: &mut impl Sink, variants: bool) {
        if self.board.kings[us as usize] == NONE {
            return;
        }
        let checked = (0..4u8).filter(|&s| self.king_in_check(s)).fold(0, |m, s| m | (1 << s));
        let cx = Ctx { us, checked };
        let movable = self.rel.movable(us);
        for owner in std::iter::once(us).chain((0..4).filter(|&s| s != us && movable & (1 << s) != 0)) {
            let capturable = self.board.of(self.rel.opponents(owner)).minus(self.board.by_kind[KING as usize]);
            for sq in self.board.by_seat[owner as usize].iter() {
                let (_, kind) = self.board.at(sq).expect("a piece of the seat");
                match kind {
                    KING => self.leaper_moves(&cx, owner, kind, sq, tables().king[sq], capturable, out, variants),
                    KNIGHT => {
                        self.leaper_moves(&cx, owner, kind, sq, tables().knight[sq], capturable, out, variants);
                        self.distant_captures(&cx, owner, sq, capturable, out, variants);
                    }
                    PAWN => self.pawn_moves(&cx, owner, sq, capturable, out, variants),
                    QUEEN | ROOK | BISHOP => self.slider_moves(&cx, owner, kind, sq, capturable, out, variants),
                    _ => self.line_moves(&cx, owner, kind, sq, capturable, out, variants),
                }
                if out.full() {
                    return;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn leaper_moves(
        &self,
        cx: &Ctx,
        owner: u8,
        kind: u8,
        sq: usize,
        reach: Set,
        capturable: Set,
        out: &mut impl Sink,
        variants: bool,
    ) {
        for to in (reach & (capturable | !self.board.occ)).iter() {
            self.emit_step(cx, owner, kind, sq, to, None, out, variants);
        }
    }

    /// The knight stays and captures any non-empty subset of the Opponents' pieces it attacks.
    fn distant_captures(&self, cx: &Ctx, owner: u8, sq: usize, capturable: Set, out: &mut impl Sink, variants: bool) {
        let mut targets = [(0u8, 0usize); 8];
        let mut n = 0;
        for (i, &(df, dr)) in KNIGHT_STEPS.iter().enumerate() {
            let (f, r) = ((sq % 12) as i32 + df, (sq / 12) as i32 + dr);
            if (0..12).contains(&f) && (0..12).contains(&r) {
                let t = r as usize * 12 + f as usize;
                if capturable.has(t) {
                    targets[n] = (i as u8, t);
                    n += 1;
                }
            }
        }
        for subset in 1u32..(1 << n) {
            let mut leaps = 0u8;
            let mut vacated = Set::EMPTY;
            for (j, &(i, t)) in targets[..n].iter().enumerate() {
                if subset & (1 << j) != 0 {
                    leaps |= 1 << i;
                    vacated.insert(t);
                }
            }
            let ch = Change { owner, kind: KNIGHT, from: sq, to: sq, vacated, moves: false };
            self.emit(cx, &ch, Move::distant(sq, leaps), out, variants);
            if out.full() {
                return;
            }
        }
    }

    fn pawn_moves(&self, cx: &Ctx, owner: u8, sq: usize, capturable: Set, out: &mut impl Sink, variants: bool) {
        let t = tables();
        let dir = pawn_dir(owner);
        let far = t.far_rank[dir];
        let forward = if dir == tables::UP { 1 } else { 5 };
        let mut dest = t.pawn_attacks[dir][sq] & capturable;
        for n in 1..=2 {
            match step(sq, forward, n) {
                Some(s) if !self.board.occ.has(s) => dest.insert(s),
                _ => break,
            }
        }
        for to in dest.iter() {
            if far.has(to) {
                for k in [QUEEN, PRINCE, PRINCESS, ROOK, KNIGHT, BISHOP] {
                    self.emit_step(cx, owner, k, sq, to, Some(k), out, variants);
                }
            } else {
                self.emit_step(cx, owner, PAWN, sq, to, None, out, variants);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn slider_moves(&self, cx: &Ctx, owner: u8, kind: u8, sq: usize, capturable: Set, out: &mut impl Sink, variants: bool) {
        let t = tables();
        let reach = match kind {
            QUEEN => t.rays.queen(sq, self.board.occ),
            ROOK => t.rays.rook(sq, self.board.occ),
            _ => t.rays.bishop(sq, self.board.occ),
        };
        for to in (reach & (capturable | !self.board.occ)).iter() {
            self.emit_step(cx, owner, kind, sq, to, None, out, variants);
        }
    }

    /// The Princess (queen lines, 4 squares) and the Prince (ranks and files, 3 squares): plain
    /// moves through empty squares, line captures through empty squares and Opponents' pieces
    /// ending on the last one taken, and (the Princess) jump captures over anything.
    #[allow(clippy::too_many_arguments)]
    fn line_moves(&self, cx: &Ctx, owner: u8, kind: u8, sq: usize, capturable: Set, out: &mut impl Sink, variants: bool) {
        let princess = kind == PRINCESS;
        let (dirs, reach): (&[usize], usize) = if princess { (&[0, 1, 2, 3, 4, 5, 6, 7], 4) } else { (&ORTH, 3) };
        for &d in dirs {
            // `clear`: nothing between `sq` and here; `line`: only Opponents' pieces between.
            let (mut clear, mut line) = (true, true);
            let mut taken = Set::square(sq);
            for n in 1..=reach {
                let Some(to) = step(sq, d, n) else { break };
                if !self.board.occ.has(to) {
                    if clear {
                        self.emit_step(cx, owner, kind, sq, to, None, out, variants);
                    }
                    continue;
                }
                if capturable.has(to) {
                    taken.insert(to);
                    if line {
                        let ch = Change { owner, kind, from: sq, to, vacated: taken, moves: true };
                        self.emit(cx, &ch, Move::step(sq, to, None), out, variants);
                    }
                    if princess && !clear {
                        let ch = Change { owner, kind, from: sq, to, vacated: Set::square(sq).with(to), moves: true };
                        self.emit(cx, &ch, Move::jump(sq, to), out, variants);
                    }
                } else {
                    line = false;
                }
                clear = false;
                if !line && !princess {
                    break;
                }
            }
        }
    }

    /// A move of one piece from `from` to `to`, capturing what stands there.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn emit_step(
        &self,
        cx: &Ctx,
        owner: u8,
        kind: u8,
        from: usize,
        to: usize,
        promotion: Option<u8>,
        out: &mut impl Sink,
        variants: bool,
    ) {
        let mut vacated = Set::square(from);
        if self.board.occ.has(to) {
            vacated.insert(to);
        }
        let ch = Change { owner, kind, from, to, vacated, moves: true };
        self.emit(cx, &ch, Move::step(from, to, promotion), out, variants);
    }

    /// Pushes `m` if it is legal (T7), once per promotion choice of the checkmates it gives.
    fn emit(&self, cx: &Ctx, ch: &Change, m: Move, out: &mut impl Sink, variants: bool) {
        if out.full() {
            return;
        }
        let mut after: Option<Board> = None;
        for r in [cx.us, ch.owner] {
            if !self.safe_for(cx, ch, r, &mut after) {
                return;
            }
            if ch.owner == cx.us {
                break;
            }
        }
        if variants && self.may_check_others(cx, ch) {
            let mut p = self.clone();
            p.apply_change(ch);
            p.mate_variants(cx.us, m, out);
        } else {
            out.push(m);
        }
    }

    /// The board after `ch`.
    fn board_after(&self, ch: &Change) -> Board {
        let mut b = self.board.clone();
        for s in ch.vacated.iter() {
            b.take(s);
        }
        if ch.moves {
            b.put(ch.owner, ch.kind, ch.to);
        }
        b
    }

    /// Whether seat `r`'s king is out of check after `ch`. Only a king that moves, a king in
    /// check, or a king on a line through a square the move empties can be in check afterwards.
    fn safe_for(&self, cx: &Ctx, ch: &Change, r: u8, after: &mut Option<Board>) -> bool {
        let moved_king = ch.moves && ch.kind == KING && ch.owner == r;
        let k = if moved_king { ch.to } else { self.board.kings[r as usize] as usize };
        if !moved_king && cx.checked & (1 << r) == 0 && (ch.vacated & tables().lines[k]).is_empty() {
            return true;
        }
        let b = after.get_or_insert_with(|| self.board_after(ch));
        !b.attacked(k, self.rel.opponents(r), &self.rel)
    }

    /// Whether any king but the mover's might be in check after `ch` (then the move may give
    /// checkmate, and T8 must look).
    fn may_check_others(&self, cx: &Ctx, ch: &Change) -> bool {
        let t = tables();
        let opp = self.rel.opponents(ch.owner);
        let reach = if !ch.moves {
            Set::EMPTY
        } else {
            match ch.kind {
                KING => t.king[ch.to],
                KNIGHT => t.knight[ch.to],
                PAWN => t.pawn_attacks[pawn_dir(ch.owner)][ch.to],
                PRINCESS => t.ring4[ch.to],
                PRINCE => t.orth3[ch.to],
                _ => t.lines[ch.to],
            }
        };
        (0..4u8).any(|s| {
            let k = self.board.kings[s as usize];
            s != cx.us
                && k != NONE
                && (cx.checked & (1 << s) != 0
                    || (ch.vacated & t.lines[k as usize]).any()
                    || (opp & (1 << s) != 0 && reach.has(k as usize)))
        })
    }

    /// Plays `ch` on the position: captures, the move itself, and the hash (the turn and
    /// checkmates are the caller's).
    fn apply_change(&mut self, ch: &Change) {
        for s in ch.vacated.iter() {
            self.take(s);
        }
        if ch.moves {
            self.put(ch.owner, ch.kind, ch.to);
        }
    }

    /// Plays a legal move: a placement (`assembly.rs`), a pass, or a move of the Battles with
    /// the checkmates it gives.
    pub(super) fn make(&mut self, m: Move) {
        let old_meta = self.meta_key();
        let us = self.to_move_seat();
        match m.kind() {
            PLACE => {
                self.place(us, m.placed(), m.to());
                self.rotate_turn();
                if !self.in_assembly() {
                    self.end_assembly(us);
                }
            }
            PASS_TYPE => {
                self.quiet += 1;
                self.rotate_turn();
                self.run_mates(us, m);
            }
            _ => {
                let ch = self.change_of(m);
                let pawn = self.board.at(ch.from).map(|p| p.1) == Some(PAWN);
                let capture = ch.vacated.count() > ch.moves as u32;
                self.apply_change(&ch);
                self.quiet = if pawn || capture { 0 } else { self.quiet + 1 };
                self.rotate_turn();
                self.run_mates(us, m);
            }
        }
        self.number += 1;
        if self.over.is_none() && self.quiet >= QUIET_LIMIT {
            self.over = Some(Outcome::draw(Termination::MoveLimit));
        }
        self.hash ^= old_meta ^ self.meta_key();
    }

    /// What a legal move of the Battles does to the board.
    fn change_of(&self, m: Move) -> Change {
        let (owner, kind) = self.board.at(m.from()).expect("a legal move starts on a piece");
        match m.kind() {
            DISTANT => {
                let mut vacated = Set::EMPTY;
                for (i, &(df, dr)) in KNIGHT_STEPS.iter().enumerate() {
                    if m.leaps() & (1 << i) != 0 {
                        let (f, r) = ((m.from() % 12) as i32 + df, (m.from() / 12) as i32 + dr);
                        vacated.insert(r as usize * 12 + f as usize);
                    }
                }
                Change { owner, kind, from: m.from(), to: m.from(), vacated, moves: false }
            }
            JUMP => Change {
                owner,
                kind,
                from: m.from(),
                to: m.to(),
                vacated: Set::square(m.from()).with(m.to()),
                moves: true,
            },
            _ => {
                // A step, a slide, or a line capture: everything on the way is taken (a legal
                // slide has nothing between).
                let mut vacated = (between(m.from(), m.to()) & self.board.occ).with(m.from());
                if self.board.occ.has(m.to()) {
                    vacated.insert(m.to());
                }
                Change { owner, kind: m.promotion().unwrap_or(kind), from: m.from(), to: m.to(), vacated, moves: true }
            }
        }
    }
}
