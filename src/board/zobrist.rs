//! The Zobrist key generator: xorshift64 from a fixed seed per game, as a `const fn`, so that
//! keys (and every hash printed by `d`) are the same on every run and every machine.

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
