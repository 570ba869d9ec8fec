//! Dojo move generation and a whole turn: the move, then defection, treason and promotions.

use super::*;

/// What a side's move list needs to know about the position before its moves.
pub(super) struct Ctx {
    us: usize,
    them: usize,
    occ: u64,
    king: usize,
    checkers: u64,
    pinned: u64,
    /// Every move must be played out on a copy: in check, or a counter may fire with effects
    /// that bear on legality or need a choice (defection, treason).
    slow: bool,
}

impl Dojo {
    // ---- a turn ----

    /// The move itself: captures (the captured piece turns passive), castling, en passant, the
    /// double step and D6. Returns the destination of the piece that moved, if it is still on
    /// the board.
    pub(super) fn apply_move(&mut self, m: Move) -> Option<usize> {
        let us = self.turn as usize;
        let them = us ^ 1;
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let k = self.kind_at(fb);
        let mut reset = k == PAWN;
        if self.color[them] & tb != 0 {
            let ck = self.kind_at(tb);
            self.make_passive(them, ck, to);
            reset = true;
        } else if k == PAWN && to as u8 == self.ep {
            // D5: the pawn passed by turns passive on its own square.
            let victim = if us == WHITE { to - 8 } else { to + 8 };
            self.make_passive(them, PAWN, victim);
        }
        self.shift(us, k, from, to);
        let mut ep = NO_SQUARE;
        if k == KING && from.abs_diff(to) == 2 {
            let (rf, rt) = if to > from { (from + 3, from + 1) } else { (from - 4, from - 1) };
            self.shift(us, ROOK, rf, rt);
        } else if k == PAWN && from.abs_diff(to) == 16 {
            // Written only when an enemy pawn stands beside the arrival square, ready to take.
            let beside = tables().pawn_attacks[us][(from + to) / 2] & self.color[them] & self.kind[PAWN];
            if beside != 0 {
                ep = ((from + to) / 2) as u8;
            }
        }
        self.set_ep(ep);
        let rights = self.castling & tables().castle_keep[from] & tables().castle_keep[to];
        self.set_castling(rights);
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        let far = if us == WHITE { 7 } else { 0 };
        if k == PAWN && to / 8 == far {
            // D6: the yellow belt leaves the game; the chosen enemy piece turns passive.
            self.remove(us, PAWN, to);
            if let Some(t) = m.target() {
                let tk = self.kind_at(1u64 << t);
                self.make_passive(them, tk, t);
            }
            return None;
        }
        Some(to)
    }

    /// D10 for the side that just moved: pieces near the enemy antisensei for 15 of their
    /// owner's moves leave the game.
    pub(super) fn defection(&mut self, us: usize) {
        let near = tables().ring3[self.king_sq(us ^ 1)];
        let pieces = self.color[us] & !self.kind[KING];
        let mut within = pieces & near;
        while within != 0 {
            let sq = pop(&mut within);
            let v = self.counters[sq][DEFECTION] + 1;
            if v >= BELT_LIMIT {
                let k = self.kind_at(1u64 << sq);
                self.remove(us, k, sq);
            } else {
                self.set_counter(sq, DEFECTION, v);
            }
        }
        let mut away = pieces & !near;
        while away != 0 {
            self.set_counter(pop(&mut away), DEFECTION, 0);
        }
    }

    /// Whether D9 fires at the end of this turn: the deputy's square if so.
    pub(super) fn treason_fires(&self, us: usize) -> Option<usize> {
        let q = self.deputy(us)?;
        (self.treason[us] + 1 >= TREASON_LIMIT && tables().distance[q][self.king_sq(us)] > 5).then_some(q)
    }

    /// D9's candidates after the deputy on `demoted` became a yellow belt: every other own
    /// active piece but the antisensei, and every square with an own passive member and no
    /// active piece.
    pub(super) fn candidates(&self, us: usize, demoted: usize) -> u64 {
        let mut c = self.color[us] & !self.kind[KING] & !(1u64 << demoted);
        let mut free = self.passive & !self.active();
        while free != 0 {
            let sq = pop(&mut free);
            if self.members().any(|m| m.square() == sq && m.color() == us) {
                c |= 1u64 << sq;
            }
        }
        c
    }

    /// D9 for the side that just moved, with the appointee the move names.
    pub(super) fn treason(&mut self, us: usize, appointee: Option<usize>) {
        let Some(q) = self.deputy(us) else {
            self.set_treason(us, 0);
            return;
        };
        if tables().distance[q][self.king_sq(us)] <= 5 {
            self.set_treason(us, 0);
            return;
        }
        let v = self.treason[us] + 1;
        if v < TREASON_LIMIT {
            self.set_treason(us, v);
            return;
        }
        self.set_treason(us, 0);
        self.rebelt(us, QUEEN, PAWN, q);
        if let Some(a) = appointee {
            let b = 1u64 << a;
            if self.color[us] & b != 0 {
                let k = self.kind_at(b);
                self.rebelt(us, k, QUEEN, a);
                self.set_counter(a, OBEDIENT, 0);
                self.set_counter(a, STAGNATION, 0);
            } else if let Some(k) = self.take_passive(us, a) {
                debug_assert!(k != KING);
                self.put(us, QUEEN, a);
            }
            // Appointing a rook standing on its corner ends its castling right.
            let rights = self.castling & tables().castle_keep[a];
            self.set_castling(rights);
        }
    }

    /// D7 and D8 for the side that just moved; `moved` is where its moving piece now stands.
    pub(super) fn promotions(&mut self, us: usize, moved: Option<usize>) {
        let t = tables();
        let own_king = self.king_sq(us);
        let mut belts = self.color[us] & (self.kind[PAWN] | self.kind[KNIGHT] | self.kind[BISHOP]);
        while belts != 0 {
            let sq = pop(&mut belts);
            let c = self.counters[sq];
            let mut ob = if t.distance[sq][own_king] <= 2 { c[OBEDIENT] + 1 } else { 0 };
            let mut st = if moved == Some(sq) { 0 } else { c[STAGNATION] + 1 };
            let fire = ob >= BELT_LIMIT || st >= BELT_LIMIT;
            if ob >= BELT_LIMIT {
                ob = 0;
            }
            if st >= BELT_LIMIT {
                st = 0;
            }
            if fire {
                let k = self.kind_at(1u64 << sq);
                self.rebelt(us, k, k + 1, sq);
                if k + 1 == ROOK {
                    // Purple belts have no promotion counters.
                    ob = 0;
                    st = 0;
                }
            }
            self.set_counter(sq, OBEDIENT, ob);
            self.set_counter(sq, STAGNATION, st);
        }
    }

    pub(super) fn finish_turn(&mut self) {
        if self.turn as usize == BLACK {
            self.fullmove += 1;
        }
        self.turn ^= 1;
        self.hash ^= tables().z_black;
    }

    // ---- move generation ----

    pub(super) fn context(&self) -> Ctx {
        let us = self.turn as usize;
        let them = us ^ 1;
        let occ = self.blocked();
        let king = self.king_sq(us);
        let checkers = self.attackers(king, them, occ);
        let due_defection = self.color[us] & !self.kind[KING] & self.defection_due(us) != 0;
        let slow = checkers != 0 || due_defection || self.treason[us] + 1 >= TREASON_LIMIT;
        Ctx { us, them, occ, king, checkers, pinned: self.pinned(us, king), slow }
    }

    /// Own pieces whose defection counter fires if they stay within reach this turn.
    pub(super) fn defection_due(&self, us: usize) -> u64 {
        let mut b = self.color[us] & !self.kind[KING];
        let mut due = 0;
        while b != 0 {
            let sq = pop(&mut b);
            if self.counters[sq][DEFECTION] + 1 >= BELT_LIMIT {
                due |= 1u64 << sq;
            }
        }
        due
    }

    /// The moves of the side to move, each with every choice it may carry. `tactical` keeps
    /// captures and D6 moves only, unless in check (then every move answers it).
    pub(super) fn generate(&self, out: &mut List<Move>, tactical: bool) {
        let t = tables();
        let cx = self.context();
        // The check test is part of the context: quiescence need not compute it twice.
        let tactical = tactical && cx.checkers == 0;
        let (us, them) = (cx.us, cx.them);
        let own = self.color[us];
        let enemy = self.color[them];
        // An empty square, or an enemy piece to capture (passive members only with it, D3).
        let targets = !own & (!cx.occ | enemy);
        let filter = if tactical { enemy } else { !0 };
        let k = &self.kind;

        let mut pieces = own & k[KNIGHT];
        while pieces != 0 {
            let from = pop(&mut pieces);
            self.emit_all(&cx, from, t.knight[from] & targets & filter, out);
        }
        let mut pieces = own & (k[BISHOP] | k[QUEEN]);
        while pieces != 0 {
            let from = pop(&mut pieces);
            self.emit_all(&cx, from, SLIDERS.bishop(from, cx.occ) & targets & filter, out);
        }
        let mut pieces = own & (k[ROOK] | k[QUEEN]);
        while pieces != 0 {
            let from = pop(&mut pieces);
            self.emit_all(&cx, from, SLIDERS.rook(from, cx.occ) & targets & filter, out);
        }

        // Pawns, with the double step from the own second rank and D6 on the far rank.
        let (second, far) = if us == WHITE { (1, 7) } else { (6, 0) };
        let mut pawns = own & k[PAWN];
        while pawns != 0 {
            let from = pop(&mut pawns);
            let r = from / 8;
            if r == far {
                continue; // D12: no move from the far rank
            }
            let step = if us == WHITE { from + 8 } else { from - 8 };
            let mut dest = t.pawn_attacks[us][from] & enemy;
            if cx.occ & (1u64 << step) == 0 {
                dest |= 1u64 << step;
                if r == second {
                    let two = if us == WHITE { from + 16 } else { from - 16 };
                    if cx.occ & (1u64 << two) == 0 {
                        dest |= 1u64 << two;
                    }
                }
            }
            if self.ep != NO_SQUARE && t.pawn_attacks[us][from] & (1u64 << self.ep) != 0 {
                dest |= 1u64 << self.ep;
            }
            while dest != 0 {
                let to = pop(&mut dest);
                let capture = enemy & (1u64 << to) != 0 || to as u8 == self.ep;
                if to / 8 == far {
                    self.emit_slow(&cx, Move::new(from, to), out);
                } else if tactical && !capture {
                    continue;
                } else if to as u8 == self.ep {
                    self.emit_slow(&cx, Move::new(from, to), out);
                } else {
                    self.emit(&cx, from, to, out);
                }
            }
        }

        // The antisensei: its steps, then castling.
        let from = cx.king;
        let mut dest = t.king[from] & targets & filter;
        while dest != 0 {
            let to = pop(&mut dest);
            if cx.slow {
                self.emit_slow(&cx, Move::new(from, to), out);
            } else {
                let occ = (cx.occ & !(1u64 << from)) | self.passive | (1u64 << to);
                if self.attackers(to, them, occ) == 0 {
                    out.push(Move::new(from, to));
                }
            }
        }
        if !tactical && cx.checkers == 0 {
            let rights = self.castling >> (2 * us);
            let base = if us == WHITE { 0 } else { 56 };
            // (right, rook square, squares that must be empty, squares the king crosses)
            for (bit, rook, empty, cross) in [(1u8, base + 7, [5, 6, 6], [5, 6]), (2u8, base, [1, 2, 3], [3, 2])] {
                if rights & bit == 0 || own & k[ROOK] & (1u64 << rook) == 0 {
                    continue;
                }
                if empty.iter().any(|&e| cx.occ & (1u64 << (base + e)) != 0) {
                    continue;
                }
                if cross.iter().any(|&c| self.attackers(base + c, them, cx.occ) != 0) {
                    continue;
                }
                let m = Move::new(from, base + cross[1]);
                if cx.slow {
                    self.emit_slow(&cx, m, out);
                } else {
                    out.push(m);
                }
            }
        }
    }

    #[inline(always)]
    pub(super) fn emit_all(&self, cx: &Ctx, from: usize, mut dest: u64, out: &mut List<Move>) {
        while dest != 0 {
            let to = pop(&mut dest);
            self.emit(cx, from, to, out);
        }
    }

    /// A plain move of a piece other than the antisensei.
    #[inline(always)]
    pub(super) fn emit(&self, cx: &Ctx, from: usize, to: usize, out: &mut List<Move>) {
        if cx.slow || cx.pinned & (1u64 << from) != 0 {
            self.emit_slow(cx, Move::new(from, to), out);
        } else {
            out.push(Move::new(from, to));
        }
    }

    /// Plays the move out on a copy, once per D6 choice, and keeps the versions after which
    /// the own antisensei is safe (D11), each with every D9 appointment it allows.
    pub(super) fn emit_slow(&self, cx: &Ctx, base: Move, out: &mut List<Move>) {
        let us = cx.us;
        let mut after = self.clone();
        // The move without a D6 target: the choices are the enemy pieces still active after it.
        let moved = after.apply_move(base);
        let d6 = self.kind[PAWN] & (1u64 << base.from()) != 0 && moved.is_none();
        let mut choices = if d6 { after.color[cx.them] & !after.kind[KING] } else { 0 };
        let mut target = None;
        loop {
            let mut p = after.clone();
            if let Some(t) = target {
                let tk = p.kind_at(1u64 << t);
                p.make_passive(cx.them, tk, t);
            }
            p.defection(us);
            if !p.king_attacked(us) {
                let m = base.with_target(target);
                match p.treason_fires(us) {
                    Some(q) => {
                        p.rebelt(us, QUEEN, PAWN, q);
                        let mut cands = p.candidates(us, q);
                        if cands == 0 {
                            out.push(m);
                        }
                        while cands != 0 {
                            out.push(m.with_appointee(pop(&mut cands)));
                        }
                    }
                    None => out.push(m),
                }
            }
            if choices == 0 {
                break;
            }
            target = Some(pop(&mut choices));
        }
    }

    /// Plays a legal move and the end of the mover's turn.
    pub(super) fn make(&mut self, m: Move) {
        let us = self.turn as usize;
        let moved = self.apply_move(m);
        self.defection(us);
        self.treason(us, m.appointee());
        self.promotions(us, moved);
        // Effects can change the belt on a corner (a purple belt appointed deputy or frozen by
        // D6): castling needs the original purple belt there.
        let mut rights = self.castling;
        for (bit, king, rook) in [(CASTLE_WK, 4, 7), (CASTLE_WQ, 4, 0), (CASTLE_BK, 60, 63), (CASTLE_BQ, 60, 56)] {
            let c = if bit <= CASTLE_WQ { WHITE } else { BLACK };
            if rights & bit != 0
                && (self.color[c] & self.kind[ROOK] & (1u64 << rook) == 0
                    || self.color[c] & self.kind[KING] & (1u64 << king) == 0)
            {
                rights &= !bit;
            }
        }
        self.set_castling(rights);
        self.finish_turn();
    }
}
