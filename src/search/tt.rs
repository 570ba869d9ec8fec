//! The transposition table: one entry a slot, replaced by depth and age.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
pub struct Entry<M: Copy> {
    pub key: u64,
    pub mv: M,
    pub score: i32,
    /// The static evaluation, from the mover's team's view; `NO_EVAL` when in check.
    pub eval: i32,
    pub depth: i16,
    pub bound: Bound,
    pub generation: u8,
}

pub struct Table<M: Copy + Default + PartialEq> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy + Default + PartialEq> Table<M> {
    /// A table of at most `mib` MiB, rounded down to a power of two slots. Every slot is
    /// written here (an empty slot is not all zero bits), so the memory is really there when
    /// a search starts: no page is first touched on the clock.
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) * 1024 * 1024;
        let per = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let mut n = 1usize;
        while n * 2 * per <= bytes {
            n *= 2;
        }
        Table { slots: vec![None; n], mask: n - 1, generation: 0 }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.generation = 0;
    }

    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        match self.slots[key as usize & self.mask] {
            Some(e) if e.key == key => Some(e),
            _ => None,
        }
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: M, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let slot = &mut self.slots[key as usize & self.mask];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.key == key || old.generation != generation || depth as i16 + 2 >= old.depth || bound == Bound::Exact
            }
        };
        if replace {
            // Keep the old best move when the new result has none (a fail-low).
            let mv = match slot {
                Some(old) if old.key == key && mv == M::default() => old.mv,
                _ => mv,
            };
            *slot = Some(Entry { key, mv, score, eval, depth: depth as i16, bound, generation });
        }
    }

    /// Per mille of the first thousand slots used in this search, as USI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n].iter().filter(|s| matches!(s, Some(e) if e.generation == self.generation)).count();
        (used * 1000 / n.max(1)) as u32
    }
}
