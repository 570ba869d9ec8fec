//! The crate's seeded generators. The Zobrist key generator: xorshift64 from a fixed seed per
//! game, as a `const fn`, so that keys (and every hash printed by `d`) are the same on every run
//! and every machine; and SplitMix64, for whatever else must be random and the same from its
//! seed (self-play's opening moves, simulated schedules).

/// A stream of keys. Each game draws its keys in a fixed order from its own seed.
#[derive(Clone, Copy)]
pub struct Zobrist(u64);

impl Zobrist {
    pub const fn new(seed: u64) -> Self {
        Zobrist(seed)
    }

    /// The next key of the stream.
    pub const fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next `N` keys.
    pub const fn fill<const N: usize>(&mut self) -> [u64; N] {
        let mut t = [0u64; N];
        let mut i = 0;
        while i < N {
            t[i] = self.next();
            i += 1;
        }
        t
    }
}

/// SplitMix64: a small generator whose every seed, 0 included, gives a good stream.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`, without the bias of a remainder.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
