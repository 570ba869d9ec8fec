//! Move ordering: history scores kept per seat, the one scale of ordering scores every node
//! kind uses, and the picker that hands out moves best first.

use super::params::{CUTOFF_BONUS_MAX_DIVISOR, CUTOFF_BONUS_PER_DEPTH2, Policy};
use crate::rules::{Game, MoveBuffer, Seat};

/// History scores stay within +-HISTORY_MAX: each update moves a score toward the bound by a
/// share of the distance (so old results fade).
pub(super) const HISTORY_MAX: i32 = 16_384;

/// How often each quiet move caused a cutoff, per seat: a seat that moves twice in a round (a
/// Judtho alliance's turn cycle) keeps one table, and no seat shares another's.
pub(super) struct History {
    table: Vec<i32>,
    space: usize,
}

impl History {
    pub(super) fn new(seats: usize, space: usize) -> Self {
        History { table: vec![0; seats.max(1) * space], space }
    }

    #[inline(always)]
    pub(super) fn get(&self, seat: Seat, index: usize) -> i32 {
        self.table[seat.index() * self.space + index]
    }

    /// Moves the score of `seat`'s move `index` toward +-HISTORY_MAX by `bonus`.
    #[inline(always)]
    pub(super) fn update(&mut self, seat: Seat, index: usize, bonus: i32) {
        let h = &mut self.table[seat.index() * self.space + index];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// What an earlier search learnt counts for less in the next.
    pub(super) fn age(&mut self) {
        self.table.iter_mut().for_each(|h| *h /= 8);
    }

    pub(super) fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
    }
}

/// Continuation histories: how often a quiet move caused a cutoff right after a given move one
/// or two plies earlier, both named by `piece_to`, per seat. Unlike `History` they are not aged
/// between searches: they hold pairs of moves, which stay good answers as the game goes on.
pub(super) struct ContinuationHistory {
    table: Vec<i16>,
    space: usize,
}

/// No move to continue: the root, or a null move.
pub(super) const NO_PIECE_TO: usize = usize::MAX;

impl ContinuationHistory {
    pub(super) fn new(seats: usize, space: usize) -> Self {
        ContinuationHistory { table: vec![0; seats.max(1) * space * space], space }
    }

    #[inline(always)]
    fn slot(&self, seat: Seat, before: usize, now: usize) -> usize {
        (seat.index() * self.space + before) * self.space + now
    }

    #[inline(always)]
    pub(super) fn get(&self, seat: Seat, before: usize, now: usize) -> i32 {
        if before == NO_PIECE_TO { 0 } else { self.table[self.slot(seat, before, now)] as i32 }
    }

    /// Moves the score toward +-HISTORY_MAX by `bonus`, as `History::update` does.
    #[inline(always)]
    pub(super) fn update(&mut self, seat: Seat, before: usize, now: usize, bonus: i32) {
        if before == NO_PIECE_TO {
            return;
        }
        let i = self.slot(seat, before, now);
        let h = self.table[i] as i32;
        self.table[i] = (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16;
    }

    pub(super) fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
    }
}

/// The bonus for a quiet move that caused a cutoff at `depth`.
#[inline(always)]
pub(super) fn cutoff_bonus(depth: i32) -> i32 {
    (depth * depth * CUTOFF_BONUS_PER_DEPTH2).min(HISTORY_MAX / CUTOFF_BONUS_MAX_DIVISOR)
}

/// The bands of ordering scores, best first. Every node kind scores its moves on this one scale,
/// and whether a move is quiet is read back from its band (`is_quiet`).
pub(super) mod band {
    /// The move the hash table remembers.
    pub const HASH_MOVE: i32 = 1 << 30;
    /// Captures and promotions, plus their tactical value (in the full-width search only those
    /// that do not lose material).
    pub const GOOD_TACTICAL: i32 = 1 << 20;
    /// The two killers of the ply: `KILLER + 1` and `KILLER`.
    pub const KILLER: i32 = 1 << 19;
    // Quiet moves score their histories, within three times `HISTORY_MAX` of zero: well inside
    // `-KILLER..KILLER`.
    /// Captures that lose material, plus their tactical value: after every quiet move.
    pub const BAD_TACTICAL: i32 = -GOOD_TACTICAL;

    /// Whether `score` is a quiet move's: neither the hash move, nor tactical, nor a killer.
    #[inline(always)]
    pub fn is_quiet(score: i32) -> bool {
        score > -KILLER && score < KILLER
    }
}

/// How a node kind orders its moves.
#[derive(Clone, Copy)]
pub(super) enum Order<M> {
    /// The full-width search: the hash move, tactical moves (those that lose material last),
    /// the killers, then quiet moves by their history (and continuation histories of the moves
    /// one and two plies up, `before`, where the policy has them).
    FullWidth { hash: M, killers: [M; 2], before: [usize; 2], policy: Policy },
    /// Best-Reply Search: the hash move, if the node stores one; tactical moves by value; quiet
    /// moves by history.
    BestReply { hash: Option<M> },
    /// Quiescence: the hash move, then tactical moves by their value, and a check's quiet
    /// evasions at zero.
    Quiescence { hash: M },
}

/// The ordering score of `m` in `pos`, on the scale of `band`.
#[inline(always)]
pub(super) fn order<G: Game>(
    history: &History,
    continuation: &ContinuationHistory,
    pos: &G,
    m: G::Move,
    how: &Order<G::Move>,
) -> i32 {
    match *how {
        Order::FullWidth { hash, killers, before, policy } => {
            if m == hash {
                band::HASH_MOVE
            } else if let Some(t) = pos.tactical_value(m) {
                if pos.see_ge(m, 0) { band::GOOD_TACTICAL + t } else { band::BAD_TACTICAL + t }
            } else if m == killers[0] {
                band::KILLER + 1
            } else if m == killers[1] {
                band::KILLER
            } else {
                let seat = pos.to_move();
                let h = history.get(seat, G::move_index(m));
                if policy.continuation {
                    let pt = pos.piece_to(m);
                    h + continuation.get(seat, before[0], pt) + continuation.get(seat, before[1], pt)
                } else {
                    // On the scale of the three tables together, as the reductions read it.
                    2 * h
                }
            }
        }
        Order::BestReply { hash } => {
            if Some(m) == hash {
                band::HASH_MOVE
            } else if let Some(t) = pos.tactical_value(m) {
                band::GOOD_TACTICAL + t
            } else {
                history.get(pos.to_move(), G::move_index(m))
            }
        }
        Order::Quiescence { hash } => {
            if m == hash {
                band::HASH_MOVE
            } else {
                pos.tactical_value(m).unwrap_or(0)
            }
        }
    }
}

impl<G: Game> super::Searcher<G> {
    /// The legal moves of `pos` with their scores as `how` orders them, into `out`: generated
    /// into the searcher's one scratch list, so that a node's frame holds one full-size list.
    #[inline(always)]
    pub(super) fn score_legal_moves(&mut self, pos: &G, how: &Order<G::Move>, out: &mut G::Moves<(i32, G::Move)>) {
        self.generated.clear();
        pos.legal_moves(&mut self.generated);
        for &m in self.generated.iter() {
            out.push((order(&self.history, &self.continuation, pos, m, how), m));
        }
    }
}

/// A move with its ordering score (and what else a node kind keeps beside it).
pub(super) trait Scored: Copy {
    fn score(&self) -> i32;
}

impl<M: Copy> Scored for (i32, M) {
    #[inline(always)]
    fn score(&self) -> i32 {
        self.0
    }
}

/// Best-Reply Search's replies carry the turn they belong to.
impl<M: Copy> Scored for (i32, M, u8) {
    #[inline(always)]
    fn score(&self) -> i32 {
        self.0
    }
}

/// Hands out scored moves best first, ordering them in place as it goes: by selection for the
/// first few (most nodes cut off early), then by sorting the rest once.
pub(super) struct Picker<'a, T> {
    list: &'a mut [T],
    next: usize,
    /// How many moves are found by selection before the rest is sorted.
    select: usize,
}

impl<'a, T: Scored> Picker<'a, T> {
    #[inline(always)]
    pub(super) fn new(list: &'a mut [T]) -> Self {
        Picker { list, next: 0, select: 3 }
    }

    /// Sorts the whole list at the first move: for moves that are expensive to try, so that a
    /// node that tries many wins nothing by selection (Best-Reply Search's replies).
    #[inline(always)]
    pub(super) fn sorted(list: &'a mut [T]) -> Self {
        Picker { list, next: 0, select: 0 }
    }
}

impl<T: Scored> Iterator for Picker<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        let (list, count) = (&mut *self.list, self.next);
        if count >= list.len() {
            return None;
        }
        if count < self.select {
            let mut bi = count;
            for j in count + 1..list.len() {
                if list[j].score() > list[bi].score() {
                    bi = j;
                }
            }
            list.swap(count, bi);
        } else if count == self.select {
            list[count..].sort_unstable_by_key(|m| std::cmp::Reverse(m.score()));
        }
        self.next += 1;
        Some(list[count])
    }
}
