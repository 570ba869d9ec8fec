//! Fixed-capacity move buffers on the stack: move generation never allocates. Each game sizes
//! its buffers to its own most-moves bound (`Rules::Moves`).

use std::mem::MaybeUninit;

/// At most `N` moves (or scored moves, or anything `Copy`).
pub struct MoveList<M: Copy, const N: usize> {
    len: usize,
    moves: [MaybeUninit<M>; N],
}

impl<M: Copy, const N: usize> Default for MoveList<M, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

#[cold]
#[inline(never)]
fn overflow(n: usize) -> ! {
    panic!("move list overflow: more than {} moves, above the game's stated bound (Rules::MAX_MOVES)", n)
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    pub const CAPACITY: usize = N;

    #[inline(always)]
    pub fn new() -> Self {
        // Uninitialised storage: only the first `len` slots are ever read.
        MoveList { len: 0, moves: [const { MaybeUninit::uninit() }; N] }
    }
    /// Appends a move. A full buffer means a game broke its stated bound: that is a bug, and it
    /// fails loudly instead of dropping the move.
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        if self.len >= N {
            overflow(N);
        }
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: slots below `len` were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const M, self.len) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut M, self.len) }
    }
    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

/// What generic code (perft, the search, the session) uses of a game's move buffers.
pub trait MoveBuffer<M: Copy>: Default {
    const CAPACITY: usize;
    fn push(&mut self, m: M);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn clear(&mut self);
    fn truncate(&mut self, n: usize);
    fn as_slice(&self) -> &[M];
    fn as_mut_slice(&mut self) -> &mut [M];
    fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<M: Copy, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    const CAPACITY: usize = N;
    #[inline(always)]
    fn push(&mut self, m: M) {
        MoveList::push(self, m)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    fn truncate(&mut self, n: usize) {
        MoveList::truncate(self, n)
    }
    #[inline(always)]
    fn as_slice(&self) -> &[M] {
        MoveList::as_slice(self)
    }
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [M] {
        MoveList::as_mut_slice(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "move list overflow")]
    fn a_full_move_list_fails_loudly() {
        let mut l: MoveList<u8, 2> = MoveList::new();
        l.push(1);
        l.push(2);
        l.push(3);
    }
}
