//! The transposition table: one entry a slot, replaced by depth and age, shared by every search
//! thread (Lazy SMP) without locks.
//!
//! A slot is four 64-bit words written and read one by one: the move, the scores, the depth with
//! bound and age, and the key XORed with the other three. Two threads writing one slot at once
//! can leave a mix of both entries; the XOR no longer gives the key, and the mix reads as an empty
//! slot (Hyatt and Mann's lockless hashing). A move read back is only ever compared with the
//! moves generated in the position, so even a key collision cannot make it played.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

pub use crate::rules::Packed;

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

/// Set in the third word of every slot in use: an all-zero slot is empty.
const USED: u64 = 1 << 32;

/// Aligned to its size, so that a slot never straddles two cache lines.
#[derive(Default)]
#[repr(align(32))]
struct Slot([AtomicU64; 4]);

pub struct Table<M: Packed + Default + PartialEq> {
    slots: Vec<Slot>,
    mask: usize,
    generation: AtomicU8,
    _move: std::marker::PhantomData<M>,
}

fn bound_bits(b: Bound) -> u64 {
    match b {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

impl<M: Packed + Default + PartialEq> Table<M> {
    /// A table of at most `mib` MiB, rounded down to a power of two slots. Every slot is
    /// written here, so the memory is really there when a search starts: no page is first
    /// touched on the clock.
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) * 1024 * 1024;
        let per = std::mem::size_of::<Slot>();
        let mut n = 1usize;
        while n * 2 * per <= bytes {
            n *= 2;
        }
        // A size the machine refuses is halved until it is given (the `MiB` it got say so),
        // rather than ending the process on a failed allocation.
        let mut slots = Vec::new();
        while slots.try_reserve_exact(n).is_err() && n > 1 {
            n /= 2;
        }
        slots.resize_with(n, Slot::default);
        Table { slots, mask: n - 1, generation: AtomicU8::new(0), _move: std::marker::PhantomData }
    }

    /// The table's size in MiB, rounded down.
    pub fn mib(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.0.iter().for_each(|w| w.store(0, Relaxed));
        }
        self.generation.store(0, Relaxed);
    }

    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    #[inline]
    fn read(&self, key: u64) -> Option<Entry<M>> {
        let s = &self.slots[key as usize & self.mask].0;
        let (w1, w2, w3) = (s[1].load(Relaxed), s[2].load(Relaxed), s[3].load(Relaxed));
        let w0 = s[0].load(Relaxed);
        if w3 & USED == 0 {
            return None;
        }
        Some(Entry {
            key: w0 ^ w1 ^ w2 ^ w3,
            mv: M::unpack(w1),
            score: w2 as u32 as i32,
            eval: (w2 >> 32) as u32 as i32,
            depth: w3 as u16 as i16,
            bound: match (w3 >> 16) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            generation: (w3 >> 24) as u8,
        })
    }

    /// Asks the processor to fetch `key`'s slot into the cache: called as soon as a child's
    /// key is known, the fetch runs while the child's accumulators and checks are made, before
    /// `probe` reads it.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.slots[key as usize & self.mask] as *const Slot as *const i8;
            // SAFETY: a prefetch only hints at a coming read, of memory the table owns; it
            // changes nothing and cannot fault.
            unsafe { _mm_prefetch(slot, _MM_HINT_T0) };
        }
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.read(key).filter(|e| e.key == key)
    }

    #[inline]
    pub fn store(&self, key: u64, mv: M, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Relaxed);
        let old = self.read(key);
        let replace = match old {
            None => true,
            Some(old) => {
                old.key == key || old.generation != generation || depth as i16 + 2 >= old.depth || bound == Bound::Exact
            }
        };
        if replace {
            // Keep the old best move when the new result has none (a fail-low).
            let mv = match old {
                Some(old) if old.key == key && mv == M::default() => old.mv,
                _ => mv,
            };
            let w1 = mv.pack();
            let w2 = score as u32 as u64 | (eval as u32 as u64) << 32;
            let w3 = depth as i16 as u16 as u64 | bound_bits(bound) << 16 | (generation as u64) << 24 | USED;
            let s = &self.slots[key as usize & self.mask].0;
            s[1].store(w1, Relaxed);
            s[2].store(w2, Relaxed);
            s[3].store(w3, Relaxed);
            s[0].store(key ^ w1 ^ w2 ^ w3, Relaxed);
        }
    }

    /// Per mille of the first thousand slots used in this search, as USI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let generation = self.generation.load(Relaxed);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let w3 = s.0[3].load(Relaxed);
                w3 & USED != 0 && (w3 >> 24) as u8 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
    struct M(u64);
    impl Packed for M {
        fn pack(self) -> u64 {
            self.0
        }
        fn unpack(bits: u64) -> Self {
            M(bits)
        }
    }

    #[test]
    fn entries_read_back_exactly() {
        let t = Table::<M>::new(1);
        t.store(0xDEAD_BEEF_0000_0001, M(u64::MAX - 5), -29_990, i32::MIN, -3, Bound::Upper);
        let e = t.probe(0xDEAD_BEEF_0000_0001).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound), (M(u64::MAX - 5), -29_990, i32::MIN, -3, Bound::Upper));
        assert!(t.probe(0xDEAD_BEEF_0000_0002).is_none());
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_0000_0001).is_none());
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let t = Table::<M>::new(1);
        t.store(77, M(5), 10, 20, 4, Bound::Exact);
        // Another thread's half-written entry: one word of a different one.
        t.slots[77 & t.mask].0[2].store(12345, Relaxed);
        assert!(t.probe(77).is_none());
    }
}
