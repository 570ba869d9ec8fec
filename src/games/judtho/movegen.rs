//! The Battles' moves. A player moves his own pieces or those of the allies ranked below him; a
//! move may not leave in check his own king nor the king of the player whose piece moved (T7).
//! Each move that checkmates carries the promotion squares its checkmates need (T8).

use super::attacks::{ORTH, between, distance, step};
use super::*;
use crate::board::geometry::KNIGHT_STEPS;
use std::cell::Cell;

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
    /// `vacated` as at most two squares (`NONE` for none), when it has no more: the common
    /// case, whose tests are single bits.
    few: Option<[u8; 2]>,
}

impl Change {
    fn new(owner: u8, kind: u8, from: usize, to: usize, vacated: Set, moves: bool) -> Change {
        let few = (vacated.count() <= 2).then(|| {
            let mut v = [NONE; 2];
            for (i, s) in vacated.iter().enumerate() {
                v[i] = s as u8;
            }
            v
        });
        Change { owner, kind, from, to, vacated, moves, few }
    }

    /// How many of the vacated squares lie in `set`, and whether one of them lies in `also`.
    #[inline(always)]
    fn hits(&self, set: &Set, also: &Set) -> (u32, bool) {
        match self.few {
            Some(v) => {
                let (mut n, mut hit) = (0, false);
                for &s in &v {
                    if s != NONE && set.has(s as usize) {
                        n += 1;
                        hit |= also.has(s as usize);
                    }
                }
                (n, hit)
            }
            None => {
                let on = self.vacated & *set;
                (on.count(), (on & *also).any())
            }
        }
    }
}

/// What the legality tests need to know about the position before any move.
struct Ctx {
    us: u8,
    /// Whether moves that take nothing are wanted (not in quiescence).
    quiet: bool,
    /// The seats whose kings are in check now.
    checked: u8,
    /// Per seat: the squares whose piece alone shields its king from an Opponent's Queen, Rook
    /// or Bishop behind it, and the squares near the king where a Prince's line might open.
    /// A move that empties none of them, and no two squares of one line through the king,
    /// cannot uncover the king.
    shields: [Set; 4],
    /// Per seat and kind: the squares from which a piece of that kind attacks the seat's king
    /// on the board as it is (a pawn's by its owner's direction: `PAWN` up, `KING` down, a
    /// king's own squares being its neighbours anyway).
    check_squares: [[Set; 8]; 4],
    /// Per seat in check: the pieces giving it, and where a move that is not the king's must
    /// land to answer them all: on a checker, or between it and the king.
    checkers: [Set; 4],
    evasions: [Set; 4],
    /// The seats but the mover whose kings stand on the board.
    others: u8,
    /// The union of what shields the other seats' kings (the first piece on each line from
    /// the king, and `shields`), and of where each kind checks one of the mover's Opponents: a
    /// move that empties no square of the first and lands outside the second checks nobody (an
    /// ally's piece too: allies have the same Opponents). Emptying a square behind the first
    /// piece of a line changes no attack along it, and a Prince's line behind it is in `shields`.
    blockers_union: Set,
    check_union: [Set; 9],
    /// Per seat in check but the mover: a square its king can step to now (`NONE` if none).
    /// After a move that leaves it in check, the step usually still answers: then the move
    /// cannot mate it, and T8 need not generate its moves.
    escapes: [u8; 4],
    /// Per seat, found on the first check a move gives it: a square its king may step to on
    /// the board as it stands (`steps`, `NONE` if none), and the squares whose emptying might
    /// change that: the step itself and the first piece on each line from it (`guards`). A
    /// check that empties no guard, and neither lands on nor attacks the step, leaves the king
    /// that step out. One step is kept: finding more cost more than the checks they answered.
    steps: Cell<[u8; 4]>,
    guards: Cell<[Set; 4]>,
    steps_known: Cell<u8>,
    /// Whether a checkmating move is pushed once per choice it carries (`generate`'s
    /// `variants`), not once alone.
    variants: bool,
    /// Where a step, slide or leap of any piece but the mover's king may land: with the
    /// mover in check, on a checker or a square that answers every check (`safe_for` decides
    /// the rest); else anywhere. Moves elsewhere are not generated at all.
    answers: Set,
}

impl Judtho {
    /// The moves of `us` in the Battles (no pass). With `variants`, a checkmating move is pushed
    /// once per choice of promotion squares; without, once (for the existence tests of T8).
    pub(super) fn generate(&self, us: u8, out: &mut impl Sink, variants: bool) {
        self.generate_some(us, out, variants, true);
    }

    /// The captures and promotions of `us` only (quiescence), each with its checkmates'
    /// promotion choices.
    pub(super) fn generate_captures(&self, us: u8, out: &mut impl Sink) {
        self.generate_some(us, out, true, false);
    }

    fn generate_some(&self, us: u8, out: &mut impl Sink, variants: bool, quiet: bool) {
        if self.board.kings[us as usize] == NONE {
            return;
        }
        // The legality tests read the shields of the kings whose pieces move; the checkmate
        // tests (only wanted with `variants`) those of every king, and where each can be checked.
        let movable = self.rel.movable(us);
        let mut shields = [Set::EMPTY; 4];
        for (s, shield) in shields.iter_mut().enumerate() {
            if variants || movable & (1 << s) != 0 {
                *shield = self.shields(s as u8);
            }
        }
        let mut check_squares = [[Set::EMPTY; 8]; 4];
        let t = tables();
        for (s, sq) in check_squares.iter_mut().enumerate() {
            let k = self.board.kings[s];
            if !variants || s as u8 == us || k == NONE {
                continue;
            }
            let (k, occ) = (k as usize, self.board.occ);
            sq[KNIGHT as usize] = t.knight[k];
            sq[PRINCESS as usize] = t.ring4[k];
            sq[PRINCE as usize] = t.orth3[k];
            sq[ROOK as usize] = t.rays.rook(k, occ);
            sq[BISHOP as usize] = t.rays.bishop(k, occ);
            sq[QUEEN as usize] = sq[ROOK as usize] | sq[BISHOP as usize];
            sq[PAWN as usize] = t.pawn_from[tables::UP][k];
            sq[KING as usize] = t.pawn_from[tables::DOWN][k];
        }
        let mut checkers = [Set::EMPTY; 4];
        let mut evasions = [Set::EMPTY; 4];
        for s in 0..4usize {
            if self.checked & (1 << s) == 0 {
                continue;
            }
            let k = self.board.kings[s] as usize;
            checkers[s] = self.board.attackers(k, self.rel.opponents(s as u8), &self.rel);
            let mut ev = !Set::EMPTY;
            for c in checkers[s].iter() {
                ev &= between(c, k).with(c);
            }
            evasions[s] = ev;
        }
        let others = (0..4u8).filter(|&s| s != us && self.board.kings[s as usize] != NONE).fold(0, |m, s| m | (1 << s));
        let mut escapes = [NONE; 4];
        if variants {
            for s in 0..4u8 {
                if s != us && others & self.checked & (1 << s) != 0 {
                    escapes[s as usize] = self.escape(&self.board, s).map(|e| e as u8).unwrap_or(NONE);
                }
            }
        }
        let mut blockers_union = Set::EMPTY;
        let mut check_union = [Set::EMPTY; 9];
        if variants {
            let opp = self.rel.opponents(us);
            for s in 0..4usize {
                if others & (1 << s) == 0 {
                    continue;
                }
                let k = self.board.kings[s] as usize;
                blockers_union |= (check_squares[s][QUEEN as usize] & self.board.occ) | shields[s];
                if opp & (1 << s) != 0 {
                    for kind in 0..8 {
                        check_union[kind] |= check_squares[s][kind];
                    }
                    check_union[8] |= t.king[k];
                }
            }
        }
        let cx = Ctx {
            us,
            quiet,
            checked: self.checked,
            shields,
            check_squares,
            checkers,
            evasions,
            others,
            blockers_union,
            check_union,
            escapes,
            steps: Cell::new([NONE; 4]),
            guards: Cell::new([Set::EMPTY; 4]),
            steps_known: Cell::new(0),
            variants,
            answers: if self.checked & (1 << us) != 0 {
                evasions[us as usize] | checkers[us as usize]
            } else {
                !Set::EMPTY
            },
        };
        // The existence test (T8's "no legal move") looks at the king's steps first: when in
        // check they are the likeliest answer.
        let king_first = !cx.variants;
        let ksq = self.board.kings[us as usize] as usize;
        if king_first {
            let capturable = self.board.of(self.rel.opponents(us)).minus(self.board.by_kind[KING as usize]);
            self.leaper_moves(&cx, us, KING, ksq, tables().king[ksq], capturable, out);
            if out.full() {
                return;
            }
        }
        for owner in std::iter::once(us).chain((0..4).filter(|&s| s != us && movable & (1 << s) != 0)) {
            let capturable = self.board.of(self.rel.opponents(owner)).minus(self.board.by_kind[KING as usize]);
            for sq in self.board.by_seat[owner as usize].iter() {
                let (_, kind) = self.board.at(sq).expect("a piece of the seat");
                match kind {
                    KING if king_first && sq == ksq => {}
                    KING => self.leaper_moves(&cx, owner, kind, sq, tables().king[sq], capturable, out),
                    KNIGHT => {
                        self.leaper_moves(&cx, owner, kind, sq, tables().knight[sq], capturable, out);
                        self.distant_captures(&cx, owner, sq, capturable, out);
                    }
                    PAWN => self.pawn_moves(&cx, owner, sq, capturable, out),
                    QUEEN | ROOK | BISHOP => self.slider_moves(&cx, owner, kind, sq, capturable, out),
                    _ => self.line_moves(&cx, owner, kind, sq, capturable, out),
                }
                if out.full() {
                    return;
                }
            }
        }
    }

    /// Moves to the squares of `reach`: the captures, and the empty squares unless only captures
    /// are wanted. Sliders come here with their reach on the board as it stands.
    #[allow(clippy::too_many_arguments)]
    fn leaper_moves(&self, cx: &Ctx, owner: u8, kind: u8, sq: usize, reach: Set, capturable: Set, out: &mut impl Sink) {
        let empty = if cx.quiet { !self.board.occ } else { Set::EMPTY };
        let answers = if kind == KING && owner == cx.us { !Set::EMPTY } else { cx.answers };
        for to in (reach & (capturable | empty) & answers).iter() {
            self.emit_step(cx, owner, kind, sq, to, None, out);
        }
    }

    /// The knight stays and captures any non-empty subset of the Opponents' pieces it attacks.
    fn distant_captures(&self, cx: &Ctx, owner: u8, sq: usize, capturable: Set, out: &mut impl Sink) {
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
            let ch = Change::new(owner, KNIGHT, sq, sq, vacated, false);
            self.emit(cx, &ch, Move::distant(sq, leaps), out);
            if out.full() {
                return;
            }
        }
    }

    fn pawn_moves(&self, cx: &Ctx, owner: u8, sq: usize, capturable: Set, out: &mut impl Sink) {
        let t = tables();
        let dir = pawn_dir(owner);
        let far = t.far_rank[dir];
        let forward = if dir == tables::UP { 1 } else { 5 };
        let mut dest = t.pawn_attacks[dir][sq] & capturable;
        for n in 1..=2 {
            match step(sq, forward, n) {
                // Out of quiescence every step; in it, only the steps that promote.
                Some(s) if !self.board.occ.has(s) && (cx.quiet || far.has(s)) => dest.insert(s),
                Some(s) if !self.board.occ.has(s) => {}
                _ => break,
            }
        }
        for to in (dest & cx.answers).iter() {
            if far.has(to) {
                for k in [QUEEN, PRINCE, PRINCESS, ROOK, KNIGHT, BISHOP] {
                    self.emit_step(cx, owner, k, sq, to, Some(k), out);
                }
            } else {
                self.emit_step(cx, owner, PAWN, sq, to, None, out);
            }
        }
    }

    fn slider_moves(&self, cx: &Ctx, owner: u8, kind: u8, sq: usize, capturable: Set, out: &mut impl Sink) {
        let t = tables();
        let reach = match kind {
            QUEEN => t.rays.queen(sq, self.board.occ),
            ROOK => t.rays.rook(sq, self.board.occ),
            _ => t.rays.bishop(sq, self.board.occ),
        };
        self.leaper_moves(cx, owner, kind, sq, reach, capturable, out);
    }

    /// The Princess (queen lines, 4 squares) and the Prince (ranks and files, 3 squares): plain
    /// moves through empty squares, line captures through empty squares and Opponents' pieces
    /// ending on the last one taken, and (the Princess) jump captures over anything.
    fn line_moves(&self, cx: &Ctx, owner: u8, kind: u8, sq: usize, capturable: Set, out: &mut impl Sink) {
        let princess = kind == PRINCESS;
        let (dirs, reach): (&[usize], usize) = if princess { (&[0, 1, 2, 3, 4, 5, 6, 7], 4) } else { (&ORTH, 3) };
        for &d in dirs {
            // `clear`: nothing between `sq` and here; `line`: only Opponents' pieces between.
            let (mut clear, mut line) = (true, true);
            let mut taken = Set::square(sq);
            for n in 1..=reach {
                let Some(to) = step(sq, d, n) else { break };
                if !self.board.occ.has(to) {
                    if clear && cx.quiet {
                        self.emit_step(cx, owner, kind, sq, to, None, out);
                    }
                    continue;
                }
                if capturable.has(to) {
                    taken.insert(to);
                    if line {
                        let ch = Change::new(owner, kind, sq, to, taken, true);
                        self.emit(cx, &ch, Move::step(sq, to, None), out);
                    }
                    if princess && !clear {
                        let ch = Change::new(owner, kind, sq, to, Set::square(sq).with(to), true);
                        self.emit(cx, &ch, Move::jump(sq, to), out);
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
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn emit_step(
        &self,
        cx: &Ctx,
        owner: u8,
        kind: u8,
        from: usize,
        to: usize,
        promotion: Option<u8>,
        out: &mut impl Sink,
    ) {
        let mut vacated = Set::square(from);
        let mut few = [from as u8, NONE];
        if self.board.occ.has(to) {
            vacated.insert(to);
            few[1] = to as u8;
        }
        let ch = Change { owner, kind, from, to, vacated, moves: true, few: Some(few) };
        self.emit(cx, &ch, Move::step(from, to, promotion), out);
    }

    /// Pushes `m` if it is legal (T7), once per promotion choice of the checkmates it gives.
    fn emit(&self, cx: &Ctx, ch: &Change, m: Move, out: &mut impl Sink) {
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
        if cx.variants
            && let suspects = self.may_check_others(cx, ch)
            && suspects != 0
            && self.checks_others(cx, ch, suspects, &mut after)
        {
            let mut p = self.clone();
            p.apply_change(ch);
            p.mate_variants(cx.us, m, out);
        } else {
            out.push(m);
        }
    }

    /// The board after `ch`.
    fn board_after(&self, ch: &Change) -> Board {
        self.board.after(ch.vacated, ch.moves.then_some((ch.owner, ch.kind, ch.to)))
    }

    /// The shield squares of `seat`'s king (see `Ctx::shields`).
    fn shields(&self, seat: u8) -> Set {
        let k = self.board.kings[seat as usize];
        if k == NONE {
            return Set::EMPTY;
        }
        let (k, t) = (k as usize, tables());
        let foes = self.board.of(self.rel.opponents(seat));
        let kinds = &self.board.by_kind;
        let orth = (kinds[QUEEN as usize] | kinds[ROOK as usize]) & foes;
        let diag = (kinds[QUEEN as usize] | kinds[BISHOP as usize]) & foes;
        let mut out = Set::EMPTY;
        if (t.lines[k] & (orth | diag)).any() {
            for d in 0..8 {
                let sliders = if d % 4 < 2 { orth } else { diag };
                if (t.rays.rays[d][k] & sliders).is_empty() {
                    continue;
                }
                if let Some(p1) = t.rays.blocker(k, d, self.board.occ)
                    && !sliders.has(p1)
                    && let Some(p2) = t.rays.blocker(p1, d, self.board.occ)
                    && sliders.has(p2)
                {
                    out.insert(p1);
                }
            }
        }
        // A Prince's line depends on whose pieces stand on it: near an Opponent's Prince every
        // square of the king's ranks and files within 3 counts.
        if (t.orth3[k] & kinds[PRINCE as usize] & foes).any() {
            out |= t.orth3[k];
        }
        out
    }

    /// Whether emptying `vacated` might uncover the king of `seat` on `k`: it empties a shield
    /// square, or two squares of the lines through the king.
    #[inline(always)]
    fn may_uncover(cx: &Ctx, ch: &Change, seat: u8, k: usize) -> bool {
        let (n, shield) = ch.hits(&tables().lines[k], &cx.shields[seat as usize]);
        n > 0 && (shield || n > 1)
    }

    /// Whether seat `r`'s king is out of check after `ch`. Only a king that moves, a king in
    /// check, or a king the move may uncover needs the full test.
    fn safe_for(&self, cx: &Ctx, ch: &Change, r: u8, after: &mut Option<Board>) -> bool {
        let moved_king = ch.moves && ch.kind == KING && ch.owner == r;
        if moved_king {
            // A king's step changes the board only by the square it leaves (what it takes
            // attacks nothing from the square it stood on): no copy of the board unless a
            // Prince's line is near.
            return self.step_holds(&self.board, r, ch.to as u8);
        }
        let k = self.board.kings[r as usize] as usize;
        let in_check = cx.checked & (1 << r) != 0;
        if !in_check && !Self::may_uncover(cx, ch, r, k) {
            return true;
        }
        // In check, a move that is not the king's must take a checker or land on a square that
        // answers every check (a Prince's line is stopped by nothing but a king, a Princess's
        // by nothing: landing between is only necessary, not enough).
        if in_check
            && !(ch.moves && cx.evasions[r as usize].has(ch.to))
            && (ch.vacated & cx.checkers[r as usize]).is_empty()
        {
            return false;
        }
        let opp = self.rel.opponents(r);
        let foes = self.board.of(opp);
        if after.is_none() && (tables().orth3[k] & self.board.by_kind[PRINCE as usize] & foes).is_empty() {
            // Read on the board as it stands: what the move takes attacks no more, and the
            // moved piece is no Opponent's. Only a Prince near the king reads whose pieces
            // stand on its line and needs the board after the move.
            let mut occ = self.board.occ.minus(ch.vacated);
            if ch.moves {
                occ.insert(ch.to);
            }
            return !self.board.attacked_by(k, foes.minus(ch.vacated), &self.rel, occ);
        }
        let b = after.get_or_insert_with(|| self.board_after(ch));
        !b.attacked(k, opp, &self.rel)
    }

    /// The kings but the mover's that might be in check after `ch` without their known step out
    /// (then the move may give checkmate, and T8 must look), as a mask of seats: one in check
    /// already whose step the move may take away, one the move may uncover, or one the moved
    /// piece attacks from where it lands. The others are surely not: `checks_others` tests
    /// only these.
    fn may_check_others(&self, cx: &Ctx, ch: &Change) -> u8 {
        let t = tables();
        let mut others = cx.others;
        let mut suspects = 0;
        let mut checked = others & cx.checked;
        while checked != 0 {
            let s = checked.trailing_zeros() as usize;
            checked &= checked - 1;
            // A king in check whose known step out the move leaves alone is not mated by it.
            if !Self::escape_stands(cx, ch, s) {
                suspects |= 1 << s;
            }
            others &= !(1 << s);
        }
        if ch.hits(&cx.blockers_union, &Set::EMPTY).0 == 0 {
            // Nothing that shields any other king moves away: only the moved piece can check
            // (an ally's piece as well as the mover's: allies have the same Opponents).
            let checks = ch.moves
                && match ch.kind {
                    KING => cx.check_union[8].has(ch.to),
                    PAWN => {
                        cx.check_union[if pawn_dir(ch.owner) == tables::UP { PAWN } else { KING } as usize].has(ch.to)
                    }
                    kind => cx.check_union[kind as usize].has(ch.to),
                };
            if !checks {
                return suspects;
            }
        }
        let opp = if ch.moves { self.rel.opponents(ch.owner) } else { 0 };
        while others != 0 {
            let s = others.trailing_zeros() as usize;
            others &= others - 1;
            let k = self.board.kings[s] as usize;
            let (n, shield) = ch.hits(&t.lines[k], &cx.shields[s]);
            if n > 0 && (shield || n > 1) {
                suspects |= 1 << s;
                continue;
            }
            if opp & (1 << s) == 0 {
                continue;
            }
            let attacks = if n == 0 {
                // Nothing on the king's lines moves away: the board's lines stand.
                let sq = &cx.check_squares[s];
                match ch.kind {
                    KING => t.king[ch.to].has(k),
                    PAWN => sq[if pawn_dir(ch.owner) == tables::UP { PAWN } else { KING } as usize].has(ch.to),
                    kind => sq[kind as usize].has(ch.to),
                }
            } else {
                // The line from where it lands to the king, on the board after the move.
                Self::lands_attacking(ch, k, self.board.occ.minus(ch.vacated))
            };
            if attacks {
                suspects |= 1 << s;
            }
        }
        suspects
    }

    /// Whether seat `s`'s known step out of check (`Ctx::escapes`) still holds after `ch`, seen
    /// without playing it: the move empties no square of the queen lines through the step's
    /// square (which carry every line attack on it, a Prince's included, and the square itself
    /// is the line's start), lands nowhere it could attack it from, and moves neither that
    /// king nor onto the square. False when unsure.
    #[inline]
    fn escape_stands(cx: &Ctx, ch: &Change, s: usize) -> bool {
        let e = cx.escapes[s];
        if e == NONE {
            return false;
        }
        let (e, t) = (e as usize, tables());
        if ch.vacated.has(e) || ch.hits(&t.lines[e], &Set::EMPTY).0 > 0 {
            return false;
        }
        if !ch.moves {
            return true;
        }
        if ch.to == e || (ch.kind == KING && ch.owner as usize == s) {
            return false;
        }
        let reaches = match ch.kind {
            KING => t.king[ch.to].has(e),
            KNIGHT => t.knight[ch.to].has(e),
            PAWN => t.pawn_attacks[pawn_dir(ch.owner)][ch.to].has(e),
            _ => t.lines[e].has(ch.to),
        };
        !reaches
    }

    /// Whether, on the board after `ch`, one of the `suspects` (`may_check_others`) stands in
    /// check without a step out of it (the precise test; if so, T8 must look).
    fn checks_others(&self, cx: &Ctx, ch: &Change, mut suspects: u8, after: &mut Option<Board>) -> bool {
        let mut rest = suspects;
        while rest != 0 {
            let s = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            if self.step_stays(cx, ch, s) {
                suspects &= !(1 << s);
            }
        }
        if suspects == 0 {
            return false;
        }
        if after.is_none()
            && let Some(mates) = self.checks_others_in_place(cx, ch, suspects)
        {
            return mates;
        }
        let b = after.get_or_insert_with(|| self.board_after(ch));
        while suspects != 0 {
            let s = suspects.trailing_zeros() as u8;
            suspects &= suspects - 1;
            let k = b.kings[s as usize] as usize;
            if b.attacked(k, self.rel.opponents(s), &self.rel)
                && !self.step_holds(b, s, cx.escapes[s as usize])
                && self.escape(b, s).is_none()
            {
                return true;
            }
        }
        false
    }

    /// Whether a step of seat `s`'s king that is safe now (`Ctx::steps`) surely stays safe
    /// after `ch`. False when unsure.
    fn step_stays(&self, cx: &Ctx, ch: &Change, s: u8) -> bool {
        let t = tables();
        if ch.kind == KING && ch.owner == s {
            return false;
        }
        if cx.steps_known.get() & (1 << s) == 0 {
            let k = self.board.kings[s as usize] as usize;
            let opp_princes = self.board.by_kind[PRINCE as usize] & self.board.of(self.rel.opponents(s));
            let occ = self.board.occ.without(k);
            // Near an Opponent's Prince a step's safety reads whose pieces stand near: left out.
            let step = t.king[k]
                .iter()
                .find(|&e| (t.orth3[e] & opp_princes).is_empty() && self.step_holds(&self.board, s, e as u8));
            let (mut steps, mut guards) = (cx.steps.get(), cx.guards.get());
            steps[s as usize] = step.map_or(NONE, |e| e as u8);
            guards[s as usize] = step.map_or(Set::EMPTY, |e| (t.rays.queen(e, occ) & occ).with(e));
            cx.steps.set(steps);
            cx.guards.set(guards);
            cx.steps_known.set(cx.steps_known.get() | 1 << s);
        }
        let e = cx.steps.get()[s as usize];
        if e == NONE || ch.hits(&cx.guards.get()[s as usize], &Set::EMPTY).0 > 0 {
            return false;
        }
        let e = e as usize;
        // Whether the moved piece might attack the step from where it lands: its lines read
        // as if nothing stood on them.
        !ch.moves || (ch.to != e && !Self::lands_attacking(ch, e, Set::EMPTY))
    }

    /// `checks_others` read on the board as it stands, the move's change taken from its sets:
    /// no copy of the board, which most of these tests (a check with a step out) would
    /// otherwise make for nothing. `None` where it cannot tell: a Prince near a suspect's king
    /// (its line reads whose pieces stand on it), or a suspect's king that moves.
    fn checks_others_in_place(&self, cx: &Ctx, ch: &Change, mut suspects: u8) -> Option<bool> {
        let t = tables();
        let mut princes = self.board.by_kind[PRINCE as usize].minus(ch.vacated);
        let mut occ = self.board.occ.minus(ch.vacated);
        if ch.moves {
            occ.insert(ch.to);
            if ch.kind == PRINCE {
                princes.insert(ch.to);
            }
        }
        while suspects != 0 {
            let s = suspects.trailing_zeros() as u8;
            suspects &= suspects - 1;
            let k = self.board.kings[s as usize] as usize;
            let opp = self.rel.opponents(s);
            let atk = self.board.of(opp).minus(ch.vacated);
            let moved = ch.moves && opp & (1 << ch.owner) != 0;
            let their_princes = princes & (atk | if moved { Set::square(ch.to) } else { Set::EMPTY });
            if (ch.kind == KING && ch.owner == s) || their_princes.iter().any(|p| distance(p, k) <= 4) {
                return None;
            }
            let attacked = |sq: usize, occ: Set| {
                self.board.attacked_by(sq, atk, &self.rel, occ) || (moved && Self::lands_attacking(ch, sq, occ))
            };
            if !attacked(k, occ) {
                continue;
            }
            let occ = occ.without(k);
            let stands = |e: usize| {
                let on = if ch.moves && e == ch.to {
                    Some((ch.owner, ch.kind))
                } else if ch.vacated.has(e) {
                    None
                } else {
                    self.board.at(e)
                };
                let enterable = match on {
                    None => true,
                    Some((o, kind)) => kind != KING && opp & (1 << o) != 0,
                };
                // Where the king captures the piece that landed, that piece attacks no more.
                enterable
                    && !(self.board.attacked_by(e, atk, &self.rel, occ)
                        || (moved && e != ch.to && Self::lands_attacking(ch, e, occ)))
            };
            let known = cx.escapes[s as usize];
            if known != NONE && t.king[k].has(known as usize) && stands(known as usize) {
                continue;
            }
            if !t.king[k].iter().any(stands) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether the piece `ch` moves attacks `sq` from where it lands, the lines blocked by
    /// `occ`; for a Prince, whose line reads whose pieces stand on it, whether it might.
    #[inline]
    fn lands_attacking(ch: &Change, sq: usize, occ: Set) -> bool {
        let t = tables();
        match ch.kind {
            KING => t.king[ch.to].has(sq),
            KNIGHT => t.knight[ch.to].has(sq),
            PAWN => t.pawn_attacks[pawn_dir(ch.owner)][ch.to].has(sq),
            PRINCESS => t.ring4[ch.to].has(sq),
            PRINCE => t.orth3[ch.to].has(sq),
            kind => {
                let d = t.dir[ch.to][sq];
                let fits = match kind {
                    QUEEN => true,
                    ROOK => d % 4 < 2,
                    _ => d % 4 >= 2,
                };
                d != tables::NO_DIR && fits && (between(ch.to, sq) & occ).is_empty()
            }
        }
    }

    /// A square `seat`'s king can step to on `board` without being attacked.
    fn escape(&self, board: &Board, seat: u8) -> Option<usize> {
        let k = board.kings[seat as usize] as usize;
        (tables().king[k]).iter().find(|&e| self.step_holds(board, seat, e as u8))
    }

    /// Whether `seat`'s king may step to `e` on `board`: the square is empty or holds an
    /// Opponent's piece (not a king), and nothing attacks it once the king has left its square.
    fn step_holds(&self, board: &Board, seat: u8, e: u8) -> bool {
        if e == NONE {
            return false;
        }
        let (e, k) = (e as usize, board.kings[seat as usize] as usize);
        if !tables().king[k].has(e) {
            return false;
        }
        let opp = self.rel.opponents(seat);
        match board.at(e) {
            None => {}
            Some((o, kind)) if kind != KING && opp & (1 << o) != 0 => {}
            Some(_) => return false,
        }
        let t = tables();
        if (t.orth3[e] & board.by_kind[PRINCE as usize] & board.of(opp)).any() {
            // A Prince's line reads who stands on it: play the step out.
            let b = board.after(Set::square(e).with(k), Some((seat, KING, e)));
            return !b.attacked(e, opp, &self.rel);
        }
        !board.attacked_through(e, opp, &self.rel, board.occ.without(k))
    }

    /// Plays `ch` on the position: captures, the move itself, the hash, and which kings stand
    /// in check (the turn and checkmates are the caller's).
    fn apply_change(&mut self, ch: &Change) {
        for s in ch.vacated.iter() {
            self.take(s);
        }
        if ch.moves {
            self.put(ch.owner, ch.kind, ch.to);
        }
        // A king out of check stays out unless the move empties a square of its lines, moves
        // it, or lands attacking it: only those kings are tested (a Prince's line loses no
        // opening to a piece landing on it, whoever owns the piece, and gains one only by a
        // piece leaving it).
        let t = tables();
        let mut checked = 0;
        for s in 0..4u8 {
            let k = self.board.kings[s as usize];
            if k == NONE {
                continue;
            }
            let (k, opp) = (k as usize, self.rel.opponents(s));
            let unchanged = self.checked & (1 << s) == 0
                && !(ch.moves && ch.kind == KING && ch.owner == s)
                && ch.hits(&t.lines[k], &Set::EMPTY).0 == 0
                && !(ch.moves && opp & (1 << ch.owner) != 0 && Self::lands_attacking(ch, k, self.board.occ));
            if !unchanged && self.board.attacked(k, opp, &self.rel) {
                checked |= 1 << s;
            }
        }
        self.checked = checked;
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
        self.number = self.number.saturating_add(1);
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
                Change::new(owner, kind, m.from(), m.from(), vacated, false)
            }
            JUMP => Change::new(owner, kind, m.from(), m.to(), Set::square(m.from()).with(m.to()), true),
            _ => {
                // A step, a slide, or a line capture: everything on the way is taken (a legal
                // slide has nothing between).
                let mut vacated = (between(m.from(), m.to()) & self.board.occ).with(m.from());
                if self.board.occ.has(m.to()) {
                    vacated.insert(m.to());
                }
                Change::new(owner, m.promotion().unwrap_or(kind), m.from(), m.to(), vacated, true)
            }
        }
    }
}
