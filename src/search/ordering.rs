//! Move ordering: history scores kept per seat, and the picker that brings the best-scored move
//! forward.

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
    pub(super) fn get(&self, seat: u8, index: usize) -> i32 {
        self.table[seat as usize * self.space + index]
    }

    /// Moves the score of `seat`'s move `index` toward +-HISTORY_MAX by `bonus`.
    #[inline(always)]
    pub(super) fn update(&mut self, seat: u8, index: usize, bonus: i32) {
        let h = &mut self.table[seat as usize * self.space + index];
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
    fn slot(&self, seat: u8, before: usize, now: usize) -> usize {
        (seat as usize * self.space + before) * self.space + now
    }

    #[inline(always)]
    pub(super) fn get(&self, seat: u8, before: usize, now: usize) -> i32 {
        if before == NO_PIECE_TO { 0 } else { self.table[self.slot(seat, before, now)] as i32 }
    }

    /// Moves the score toward +-HISTORY_MAX by `bonus`, as `History::update` does.
    #[inline(always)]
    pub(super) fn update(&mut self, seat: u8, before: usize, now: usize, bonus: i32) {
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
    (depth * depth * 16).min(HISTORY_MAX / 4)
}

/// Brings the best-scored remaining move to `count`: by selection for the first few (most nodes
/// cut off early), then by sorting the rest once.
#[inline]
pub(super) fn pick_next<M: Copy>(list: &mut [(i32, M)], count: usize) {
    const SELECT: usize = 3;
    if count < SELECT {
        let mut bi = count;
        for j in count + 1..list.len() {
            if list[j].0 > list[bi].0 {
                bi = j;
            }
        }
        list.swap(count, bi);
    } else if count == SELECT {
        list[SELECT..].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    }
}
