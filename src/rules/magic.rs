//! Slider attacks by magic multiplication for any board of up to 64 squares.
//!
//! Square `s` is `row * files + column`. The tables are found once per board shape at start-up
//! with a fixed-seed generator, so they are the same on every run; a 6x6 board needs under a
//! millisecond.

#[derive(Clone, Copy, Default)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

pub struct SliderTables {
    rook: Vec<Entry>,
    bishop: Vec<Entry>,
    table: Vec<u64>,
}

pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks along `dirs` from `sq` given blockers `occ`, square by square. The reference the
/// magic tables are built from (and checked against in tests).
pub fn slow_attacks(files: i32, ranks: i32, sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let (c, r) = ((sq as i32) % files, (sq as i32) / files);
    let mut out = 0u64;
    for &(dc, dr) in dirs {
        let (mut x, mut y) = (c + dc, r + dr);
        while x >= 0 && x < files && y >= 0 && y < ranks {
            let b = 1u64 << (y * files + x);
            out |= b;
            if occ & b != 0 {
                break;
            }
            x += dc;
            y += dr;
        }
    }
    out
}

/// The squares whose occupancy matters: the rays without their last square.
fn relevant_mask(files: i32, ranks: i32, sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let (c, r) = ((sq as i32) % files, (sq as i32) / files);
    let mut out = 0u64;
    for &(dc, dr) in dirs {
        let (mut x, mut y) = (c + dc, r + dr);
        while x + dc >= 0 && x + dc < files && y + dr >= 0 && y + dr < ranks {
            out |= 1u64 << (y * files + x);
            x += dc;
            y += dr;
        }
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: fast and good enough to find magics.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

impl SliderTables {
    pub fn new(files: usize, ranks: usize) -> Self {
        assert!(files * ranks <= 64);
        let mut tables = SliderTables { rook: Vec::new(), bishop: Vec::new(), table: Vec::new() };
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (files as u64) << 8 ^ ranks as u64);
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            for sq in 0..files * ranks {
                let e = tables.find(files as i32, ranks as i32, sq, dirs, &mut rng);
                if dirs == &ROOK_DIRS { tables.rook.push(e) } else { tables.bishop.push(e) }
            }
        }
        tables
    }

    fn find(&mut self, files: i32, ranks: i32, sq: usize, dirs: &[(i32, i32)], rng: &mut Rng) -> Entry {
        let mask = relevant_mask(files, ranks, sq, dirs);
        let bits = mask.count_ones();
        let mut occs = Vec::new();
        let mut sub = 0u64;
        loop {
            occs.push((sub, slow_attacks(files, ranks, sq, sub, dirs)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let shift = 64 - bits.max(1);
        let mut slots = vec![(u32::MAX, 0u64); size];
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let magic = rng.sparse();
            let ok = occs.iter().all(|&(occ, att)| {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize & (size - 1);
                let slot = &mut slots[idx];
                if slot.0 != attempt {
                    *slot = (attempt, att);
                    true
                } else {
                    slot.1 == att
                }
            });
            if ok {
                let offset = self.table.len() as u32;
                self.table.resize(self.table.len() + size, 0);
                for &(occ, att) in &occs {
                    let idx = (occ.wrapping_mul(magic) >> shift) as usize & (size - 1);
                    self.table[offset as usize + idx] = att;
                }
                return Entry { mask, magic, shift, offset };
            }
        }
    }

    #[inline(always)]
    fn lookup(&self, e: &Entry, occ: u64) -> u64 {
        let idx = ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        // The index is below the entry's size by construction of the shift.
        unsafe { *self.table.get_unchecked(e.offset as usize + idx) }
    }

    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.rook[sq], occ)
    }

    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.bishop[sq], occ)
    }
}
