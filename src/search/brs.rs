//! Best-Reply Search (BRS+) for games of more than two sides: the turns of the opponents between
//! two turns of the root side collapse into the one best reply.

use super::node::{Offer, ReSearch, Window};
use super::ordering::{Order, Picker, band, cutoff_bonus, order};
use super::params::{BRS_LATE_MOVES, BRS_LATE_REPLIES, LMR_DEPTH};
use super::*;

/// The most turns between two turns of the root side: three opponents in Chaturanga, and in a
/// Judtho Triple Alliance's cycle (`bwbrby`) five for the Alliance's members.
const MAX_ROUND: usize = 8;

/// How many ordered moves Best-Reply Search remembers (a power of two).
const ORDERED_SLOTS: usize = 1 << 14;

impl<G: Game> Searcher<G> {
    /// Best-Reply Search, the root side's turn: every legal move, alpha-beta with the table.
    pub(super) fn brs_max(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if let Some(v) = self.open(pos, depth, ply, alpha, beta) {
            return v;
        }
        self.seldepth = self.seldepth.max(ply);
        let tt = match self.probe(pos, depth, ply, alpha, beta, false) {
            Ok(tt) => tt,
            Err(v) => return v,
        };
        let how = Order::BestReply { hash: Some(tt.mv) };
        let mut scored = G::Moves::<(i32, G::Move)>::default();
        self.score_legal_moves(pos, &how, &mut scored);
        if scored.is_empty() {
            return self.outcome_score(pos, pos.no_move_outcome(), ply);
        }
        let seat = pos.to_move();
        let my_team = self.team(pos);
        let mut w = Window::new(alpha, beta, -INF, G::Move::default());
        for (count, (score, m)) in Picker::new(scored.as_mut_slice()).enumerate() {
            let quiet = band::is_quiet(score);
            let alpha = w.alpha;
            let v = self.descend(pos, Some(m), my_team, ply, |s, child, flip| {
                if count == 0 {
                    return s.value(child, flip, depth - 1, ply + 1, alpha, beta, true);
                }
                let r = (depth >= LMR_DEPTH && count >= BRS_LATE_MOVES && quiet) as i32;
                let search = |s: &mut Self, d: i32, a: i32, b: i32| s.value(child, flip, d, ply + 1, a, b, true);
                s.re_search(ReSearch::Full, depth - 1, r, alpha, beta, search)
            });
            if self.stopped {
                return 0;
            }
            match w.offer(v, m) {
                Offer::Raised => self.set_pv(ply, m),
                Offer::Cut => {
                    self.set_pv(ply, m);
                    if quiet {
                        self.history.update(seat, G::move_index(m), cutoff_bonus(depth));
                    }
                    break;
                }
                Offer::NoBetter | Offer::Best => {}
            }
        }
        self.store_window(tt.key, &w, NO_EVAL, depth, ply);
        w.best
    }

    /// The move an opponent that does not give the best reply is assumed to play (BRS+): its
    /// most valuable capture that does not lose material, or none (it waits).
    pub(super) fn ordered_move(pos: &G) -> Option<G::Move> {
        let mut list = MovesOf::<G>::default();
        pos.tactical_moves(&mut list);
        let mut best: Option<(i32, G::Move)> = None;
        for &m in list.iter() {
            if let Some(t) = pos.tactical_value(m)
                && best.is_none_or(|(b, _)| t > b)
                && pos.see_ge(m, 0)
            {
                best = Some((t, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// One turn of an opponent that does not give the best reply: its ordered move, or a wait.
    pub(super) fn play_ordered_turn(&mut self, pos: &mut G) {
        match self.ordered_move_of(pos) {
            Some(m) => pos.play(m),
            None => pos.play_null(),
        }
    }

    /// `ordered_move`, remembered by the position's key: a move generation each time it is not.
    fn ordered_move_of(&mut self, pos: &G) -> Option<G::Move> {
        if self.ordered.is_empty() {
            self.ordered = vec![None; ORDERED_SLOTS];
        }
        let key = pos.hash();
        let slot = key as usize & (ORDERED_SLOTS - 1);
        if let Some((k, m)) = self.ordered[slot]
            && k == key
        {
            return m;
        }
        let m = Self::ordered_move(pos);
        self.ordered[slot] = Some((key, m));
        m
    }

    /// Whether the turns of the opponents between two turns of the root side are over.
    pub(super) fn round_done(&self, pos: &G) -> bool {
        pos.side_of(pos.to_move()) == self.root_side(pos)
            || pos.static_outcome().is_some()
            || pos.side_lost(self.root_side(pos))
    }

    /// Best-Reply Search (BRS+, Esser et al. 2014), the layer between two turns of the root
    /// side: the moves of every opponent compete and only the best of them is searched; the
    /// other opponents keep their turns and play their ordered move (`ordered_move`), so the
    /// turn order stays the game's and a capture another opponent would make is not missed.
    /// Scores are the opponents' view (the team not the root's).
    pub(super) fn best_replies(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if let Some(v) = self.open(pos, depth, ply, alpha, beta) {
            return v;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = match self.probe(pos, depth, ply, alpha, beta, false) {
            Ok(tt) => tt.key,
            Err(v) => return v,
        };
        // The opponents' turns in order, each in the position it comes in when those before it
        // played their ordered moves; then all their moves, captures first. A move is tagged
        // with its turn, not its seat: a seat may have two turns in one round (Judtho).
        let mut scored = std::mem::take(&mut self.brs_lists[ply]);
        scored.clear();
        let mut movers: [Option<G>; MAX_ROUND] = Default::default();
        let mut turn = pos.clone();
        for (t, mover) in movers.iter_mut().enumerate() {
            if self.round_done(&turn) {
                break;
            }
            self.generated.clear();
            turn.legal_moves(&mut self.generated);
            for &m in self.generated.iter() {
                let how = Order::BestReply { hash: None };
                scored.push((order(&self.history, &self.continuation, &turn, m, &how), m, t as u8));
            }
            let mut next = turn.clone();
            self.play_ordered_turn(&mut next);
            *mover = Some(std::mem::replace(&mut turn, next));
        }
        let v = self.best_of_replies(pos, key, &mut scored, &movers, depth, ply, alpha, beta);
        self.brs_lists[ply] = scored;
        v
    }

    /// The best of the opponents' replies in `scored` (score, move, turn), each played in its
    /// turn's position from `movers`, with the round finished by ordered moves.
    // The window, depth and ply of a node travel together through every search function;
    // bundling them would build and take apart a struct at every node.
    #[allow(clippy::too_many_arguments)]
    fn best_of_replies(
        &mut self,
        pos: &G,
        key: u64,
        scored: &mut [(i32, G::Move, u8)],
        movers: &[Option<G>; MAX_ROUND],
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if scored.is_empty() {
            // No opponent can move: the root side moves again.
            let Some(next) = pos.with_turn(self.root_seat) else { return self.eval(pos, ply) };
            self.accumulate_turns(pos, &next, ply + 1);
            return -self.brs_max(&next, depth - 1, ply + 1, -beta, -alpha);
        }
        let mut w = Window::new(alpha, beta, -INF, G::Move::default());
        for (count, (score, m, t)) in Picker::sorted(scored).enumerate() {
            // A reply costs several move generations before any node is entered: the limits are
            // polled here too, or hundreds of replies that settle at once would outlast them.
            if count % 64 == 63 {
                self.check_limits();
                if self.stopped {
                    return 0;
                }
            }
            let Some(p) = movers[t as usize].as_ref() else { continue };
            let mut child = p.clone();
            child.play(m);
            for _ in 0..MAX_ROUND {
                if self.round_done(&child) {
                    break;
                }
                self.play_ordered_turn(&mut child);
            }
            let v = match self.settled(&child, ply + 1) {
                Some(v) => {
                    if self.team(&child) {
                        -v
                    } else {
                        v
                    }
                }
                None => {
                    if !self.team(&child) {
                        continue;
                    }
                    self.accumulate_turns(pos, &child, ply + 1);
                    self.push_trace(Trace::of(&child));
                    let r = (depth >= LMR_DEPTH && count >= BRS_LATE_REPLIES && band::is_quiet(score)) as i32;
                    let search = |s: &mut Self, d: i32, a: i32, b: i32| -s.brs_max(&child, d, ply + 1, -b, -a);
                    let v = self.re_search(ReSearch::FullIfReducedOrWide, depth - 1, r, w.alpha, beta, search);
                    self.pop_trace();
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            // The replies' moves are not stored: a move of one turn means nothing in another.
            if w.offer(v, G::Move::default()) == Offer::Cut {
                if band::is_quiet(score) {
                    self.history.update(p.to_move(), G::move_index(m), cutoff_bonus(depth));
                }
                break;
            }
        }
        self.store_window(key, &w, NO_EVAL, depth, ply);
        w.best
    }
}
