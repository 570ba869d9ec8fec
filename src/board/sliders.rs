//! Rook and bishop attacks by magic multiplication on the 6x6 and 8x8 boards. The magics and
//! tables are found by `build.rs` at build time, from the same `geometry::slide` that the tests
//! check them against.

/// One square's magic: the occupancy that matters, the multiplier, the shift to an index, and
/// where the square's attack sets start in the table.
#[derive(Clone, Copy)]
pub struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// The slider attacks of one board shape with `N` squares.
pub struct Sliders<const N: usize> {
    rook: [Magic; N],
    bishop: [Magic; N],
    table: &'static [u64],
}

impl<const N: usize> Sliders<N> {
    #[inline(always)]
    fn lookup(&self, e: &Magic, occ: u64) -> u64 {
        let idx = ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        // SAFETY: the shift leaves an index below the square's share of the table (build.rs).
        unsafe { *self.table.get_unchecked(e.offset as usize + idx) }
    }

    /// The squares a rook on `sq` attacks, with `occ` as blockers.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.rook[sq], occ)
    }

    /// The squares a bishop on `sq` attacks, with `occ` as blockers.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.bishop[sq], occ)
    }
}

include!(concat!(env!("OUT_DIR"), "/sliders_6x6.rs"));
include!(concat!(env!("OUT_DIR"), "/sliders_8x8.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{BISHOP_DIRS, ROOK_DIRS, slide};

    fn check<const N: usize>(s: &Sliders<N>, files: usize) {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17) & if N == 64 { u64::MAX } else { (1u64 << N) - 1 };
            let sq = (x >> 40) as usize % N;
            assert_eq!(s.rook(sq, occ), slide(files, files, sq, occ, &ROOK_DIRS));
            assert_eq!(s.bishop(sq, occ), slide(files, files, sq, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn magics_match_the_slow_slides() {
        check(&SLIDERS_6X6, 6);
        check(&SLIDERS_8X8, 8);
    }
}
