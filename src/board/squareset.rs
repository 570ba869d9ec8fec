//! Sets of squares for boards of any size: `W` words of 64 squares each, square `s` being bit
//! `s % 64` of word `s / 64`. Boards of up to 64 squares use a plain `u64`; Judtho's 12x12 board
//! (144 squares) is a `SquareSet<3>` on `Grid::<3>::new(12, 12)`.
//!
//! `Grid` adds the board's shape: shifts that do not wrap around files, leaper and slider
//! attacks, and `Rays`, the per-direction rays that give slider attacks by finding the first
//! blocker on each ray.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for SquareSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> std::fmt::Debug for SquareSet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// How `SquareSet::word_by_word` combines two sets.
#[derive(Clone, Copy)]
enum Combine {
    Union,
    Intersect,
    Minus,
}

impl<const W: usize> SquareSet<W> {
    pub const EMPTY: Self = SquareSet([0; W]);

    /// The set of one square.
    #[inline(always)]
    pub const fn square(sq: usize) -> Self {
        let mut w = [0u64; W];
        w[sq / 64] = 1u64 << (sq % 64);
        SquareSet(w)
    }

    #[inline(always)]
    pub const fn has(&self, sq: usize) -> bool {
        self.0[sq / 64] & (1u64 << (sq % 64)) != 0
    }

    #[inline(always)]
    pub const fn with(mut self, sq: usize) -> Self {
        self.0[sq / 64] |= 1u64 << (sq % 64);
        self
    }

    #[inline(always)]
    pub const fn without(mut self, sq: usize) -> Self {
        self.0[sq / 64] &= !(1u64 << (sq % 64));
        self
    }

    #[inline(always)]
    pub fn insert(&mut self, sq: usize) {
        self.0[sq / 64] |= 1u64 << (sq % 64);
    }

    #[inline(always)]
    pub fn remove(&mut self, sq: usize) {
        self.0[sq / 64] &= !(1u64 << (sq % 64));
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: usize) {
        self.0[sq / 64] ^= 1u64 << (sq % 64);
    }

    #[inline(always)]
    pub const fn union(self, o: Self) -> Self {
        self.word_by_word(o, Combine::Union)
    }

    #[inline(always)]
    pub const fn intersect(self, o: Self) -> Self {
        self.word_by_word(o, Combine::Intersect)
    }

    /// The squares of `self` that are not in `o`.
    #[inline(always)]
    pub const fn minus(self, o: Self) -> Self {
        self.word_by_word(o, Combine::Minus)
    }

    /// `self` and `o` combined word by word (a loop, so that it stays a `const fn` for the
    /// tables; `how` is a constant at every call, so each use compiles to its one operation).
    #[inline(always)]
    const fn word_by_word(self, o: Self, how: Combine) -> Self {
        let mut w = self.0;
        let mut i = 0;
        while i < W {
            w[i] = match how {
                Combine::Union => w[i] | o.0[i],
                Combine::Intersect => w[i] & o.0[i],
                Combine::Minus => w[i] & !o.0[i],
            };
            i += 1;
        }
        SquareSet(w)
    }

    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        let mut i = 0;
        while i < W {
            if self.0[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The highest square, if any.
    #[inline(always)]
    pub fn last(&self) -> Option<usize> {
        for i in (0..W).rev() {
            if self.0[i] != 0 {
                return Some(i * 64 + 63 - self.0[i].leading_zeros() as usize);
            }
        }
        None
    }

    /// The lowest square, removed from the set.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<usize> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let s = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(i * 64 + s);
            }
        }
        None
    }

    /// The squares in ascending order.
    #[inline(always)]
    pub fn iter(self) -> Squares<W> {
        Squares(self)
    }

    /// Every square index moved up by `n` (bits leaving the top word are dropped).
    #[inline(always)]
    pub const fn shl(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let mut w = [0u64; W];
        let mut i = W;
        while i > words {
            i -= 1;
            let src = i - words;
            w[i] = self.0[src] << bits;
            if bits > 0 && src > 0 {
                w[i] |= self.0[src - 1] >> (64 - bits);
            }
        }
        SquareSet(w)
    }

    /// Every square index moved down by `n` (squares below 0 are dropped).
    #[inline(always)]
    pub const fn shr(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let mut w = [0u64; W];
        let mut i = 0;
        while i + words < W {
            let src = i + words;
            w[i] = self.0[src] >> bits;
            if bits > 0 && src + 1 < W {
                w[i] |= self.0[src + 1] << (64 - bits);
            }
            i += 1;
        }
        SquareSet(w)
    }
}

/// The squares of a set in ascending order.
pub struct Squares<const W: usize>(SquareSet<W>);

impl<const W: usize> Iterator for Squares<W> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        self.0.pop_first()
    }
}

macro_rules! word_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for SquareSet<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(mut self, o: Self) -> Self {
                for i in 0..W {
                    self.0[i] $op o.0[i];
                }
                self
            }
        }
        impl<const W: usize> $tra for SquareSet<W> {
            #[inline(always)]
            fn $fa(&mut self, o: Self) {
                for i in 0..W {
                    self.0[i] $op o.0[i];
                }
            }
        }
    };
}
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
word_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

/// Every word complemented: the result holds squares off the board too, so intersect it with a
/// set of board squares (`Grid::all`) before counting or iterating.
impl<const W: usize> Not for SquareSet<W> {
    type Output = Self;
    #[inline(always)]
    fn not(mut self) -> Self {
        for w in self.0.iter_mut() {
            *w = !*w;
        }
        self
    }
}

/// The eight queen directions as (file, rank) steps: the four that raise the square index
/// first, then their opposites in the same order (`QUEEN_DIRS[d + 4]` is `-QUEEN_DIRS[d]`).
pub const QUEEN_DIRS: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];

/// A rectangular board of `files` x `ranks` squares held in `W` words.
#[derive(Clone, Copy, Debug)]
pub struct Grid<const W: usize> {
    pub files: usize,
    pub ranks: usize,
    /// Every square of the board.
    pub all: SquareSet<W>,
    /// `files_from[f]`: the squares on file `f` or higher.
    files_from: [SquareSet<W>; 17],
}

impl<const W: usize> Grid<W> {
    pub const fn new(files: usize, ranks: usize) -> Self {
        assert!(files * ranks <= 64 * W && files <= 16);
        let mut all = SquareSet::EMPTY;
        let mut files_from = [SquareSet::EMPTY; 17];
        let mut sq = 0;
        while sq < files * ranks {
            all = all.with(sq);
            let mut f = 0;
            while f <= sq % files {
                files_from[f] = files_from[f].with(sq);
                f += 1;
            }
            sq += 1;
        }
        Grid { files, ranks, all, files_from }
    }

    #[inline(always)]
    pub const fn squares(&self) -> usize {
        self.files * self.ranks
    }

    #[inline(always)]
    pub const fn square(&self, file: usize, rank: usize) -> usize {
        rank * self.files + file
    }

    #[inline(always)]
    pub const fn file_of(&self, sq: usize) -> usize {
        sq % self.files
    }

    #[inline(always)]
    pub const fn rank_of(&self, sq: usize) -> usize {
        sq / self.files
    }

    /// The square `(df, dr)` away from `sq`, if it is on the board.
    #[inline(always)]
    pub const fn step(&self, sq: usize, df: i32, dr: i32) -> Option<usize> {
        let (f, r) = ((sq % self.files) as i32 + df, (sq / self.files) as i32 + dr);
        if f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32 {
            Some(r as usize * self.files + f as usize)
        } else {
            None
        }
    }

    /// The squares on files `lo` to `hi - 1`.
    #[inline(always)]
    const fn file_band(&self, lo: usize, hi: usize) -> SquareSet<W> {
        self.files_from[lo].minus(self.files_from[hi])
    }

    /// Every square of `set` moved by `df` files and `dr` ranks; squares that would leave the
    /// board, across an edge or around it, are dropped.
    #[inline(always)]
    pub const fn shift(&self, set: SquareSet<W>, df: i32, dr: i32) -> SquareSet<W> {
        let f = self.files as i32;
        if df >= f || -df >= f {
            return SquareSet::EMPTY;
        }
        let lo = if df < 0 { -df } else { 0 };
        let hi = if df > 0 { f - df } else { f };
        let src = set.intersect(self.file_band(lo as usize, hi as usize));
        let n = dr * f + df;
        let moved = if n >= 0 { src.shl(n as usize) } else { src.shr((-n) as usize) };
        moved.intersect(self.all)
    }

    /// The squares one step of each of `steps` away from `sq`.
    pub const fn leaps(&self, sq: usize, steps: &[(i32, i32)]) -> SquareSet<W> {
        let mut out = SquareSet::EMPTY;
        let mut i = 0;
        while i < steps.len() {
            if let Some(t) = self.step(sq, steps[i].0, steps[i].1) {
                out = out.with(t);
            }
            i += 1;
        }
        out
    }

    /// Attacks along `dirs` from `sq`, at most `reach` steps along each, stopping at (and
    /// including) the first square of `occ`. Square by square: the reference for `Rays`.
    pub const fn slide(&self, sq: usize, occ: SquareSet<W>, dirs: &[(i32, i32)], reach: usize) -> SquareSet<W> {
        let mut out = SquareSet::EMPTY;
        let mut i = 0;
        while i < dirs.len() {
            let mut at = sq;
            let mut n = 0;
            while n < reach {
                match self.step(at, dirs[i].0, dirs[i].1) {
                    Some(t) => {
                        out = out.with(t);
                        at = t;
                        if occ.has(t) {
                            break;
                        }
                    }
                    None => break,
                }
                n += 1;
            }
            i += 1;
        }
        out
    }
}

/// Per-direction rays from every square of an `N`-square board, in the order of `QUEEN_DIRS`:
/// slider attacks from the first blocker on each ray.
pub struct Rays<const W: usize, const N: usize> {
    pub rays: [[SquareSet<W>; N]; 8],
}

impl<const W: usize, const N: usize> Rays<W, N> {
    pub const fn new(grid: &Grid<W>) -> Self {
        assert!(N == grid.files * grid.ranks);
        let mut rays = [[SquareSet::EMPTY; N]; 8];
        let mut d = 0;
        while d < 8 {
            let mut sq = 0;
            while sq < N {
                rays[d][sq] = grid.slide(sq, SquareSet::EMPTY, &[QUEEN_DIRS[d]], usize::MAX);
                sq += 1;
            }
            d += 1;
        }
        Rays { rays }
    }

    /// The first square of `occ` along direction `d` from `sq`, if any.
    #[inline(always)]
    pub fn blocker(&self, sq: usize, d: usize, occ: SquareSet<W>) -> Option<usize> {
        let hit = self.rays[d][sq] & occ;
        if d < 4 { hit.first() } else { hit.last() }
    }

    /// The squares a slider on `sq` attacks along direction `d`, up to and including the first
    /// square of `occ`.
    #[inline(always)]
    pub fn ray_attacks(&self, sq: usize, d: usize, occ: SquareSet<W>) -> SquareSet<W> {
        let ray = self.rays[d][sq];
        match self.blocker(sq, d, occ) {
            Some(b) => ray ^ self.rays[d][b],
            None => ray,
        }
    }

    /// Rook attacks: the four orthogonal directions.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: SquareSet<W>) -> SquareSet<W> {
        self.along([0, 1, 4, 5], sq, occ)
    }

    /// Bishop attacks: the four diagonal directions.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: SquareSet<W>) -> SquareSet<W> {
        self.along([2, 3, 6, 7], sq, occ)
    }

    /// Attacks along four of the eight directions, written out: a `fold` over the array was
    /// left a call of its own in Judtho's evaluation and move generator (7% of a Battle search's
    /// profile, most of it the rays' own work); written out, each ray inlines where it is used.
    #[inline(always)]
    fn along(&self, [a, b, c, d]: [usize; 4], sq: usize, occ: SquareSet<W>) -> SquareSet<W> {
        self.ray_attacks(sq, a, occ)
            | self.ray_attacks(sq, b, occ)
            | self.ray_attacks(sq, c, occ)
            | self.ray_attacks(sq, d, occ)
    }

    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: SquareSet<W>) -> SquareSet<W> {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// Judtho's board: 12x12, 144 squares in three words.
pub type Set144 = SquareSet<3>;
pub const GRID_12: Grid<3> = Grid::new(12, 12);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{KING_STEPS, KNIGHT_STEPS};

    const G: Grid<3> = GRID_12;
    static RAYS: Rays<3, 144> = Rays::new(&GRID_12);

    fn rng(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    fn random_set(x: &mut u64, density: u32) -> Set144 {
        let mut s = Set144::EMPTY;
        for sq in 0..144 {
            if (rng(x) % 100) < density as u64 {
                s.insert(sq);
            }
        }
        s
    }

    #[test]
    fn the_144_square_set_holds_every_square_once() {
        assert_eq!(G.all.count(), 144);
        let all: Vec<usize> = G.all.iter().collect();
        assert_eq!(all, (0..144).collect::<Vec<_>>());
        let s = Set144::square(0).with(63).with(64).with(127).with(128).with(143);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 127, 128, 143]);
        assert_eq!((s.first(), s.last(), s.count()), (Some(0), Some(143), 6));
        assert!(s.has(64) && !s.has(65));
        assert_eq!(s.without(0).without(143).first(), Some(63));
        assert!(Set144::EMPTY.is_empty() && Set144::EMPTY.first().is_none() && Set144::EMPTY.last().is_none());
    }

    #[test]
    fn shifts_cross_words_and_stop_at_the_edges() {
        // a1 (0) north by one rank is a2 (12); l5 (59) to l6 (71) crosses the first word.
        assert_eq!(G.shift(Set144::square(0), 0, 1), Set144::square(12));
        assert_eq!(G.shift(Set144::square(59), 0, 1), Set144::square(71));
        assert_eq!(G.shift(Set144::square(71), 0, -1), Set144::square(59));
        // The top rank north, the bottom rank south and the side files sideways leave the board.
        let top: Set144 = (132..144).fold(Set144::EMPTY, |s, q| s.with(q));
        assert!(G.shift(top, 0, 1).is_empty());
        assert!(G.shift(Set144::square(5), 0, -1).is_empty());
        assert!(G.shift(Set144::square(11), 1, 0).is_empty(), "l1 east would wrap to a2");
        assert!(G.shift(Set144::square(12), -1, 0).is_empty(), "a2 west would wrap to l1");
        // Every single-square shift agrees with stepping.
        for sq in 0..144 {
            for &(df, dr) in KING_STEPS.iter().chain(KNIGHT_STEPS.iter()).chain([(0, 2), (0, -2), (3, 0)].iter()) {
                let want = G.step(sq, df, dr).map(Set144::square).unwrap_or_default();
                assert_eq!(G.shift(Set144::square(sq), df, dr), want, "{sq} by {df},{dr}");
            }
        }
        // A random set shifts square by square.
        let mut x = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200 {
            let s = random_set(&mut x, 30);
            for &(df, dr) in KING_STEPS.iter() {
                let want = s.iter().filter_map(|q| G.step(q, df, dr)).fold(Set144::EMPTY, |a, q| a.with(q));
                assert_eq!(G.shift(s, df, dr), want);
            }
        }
    }

    #[test]
    fn leaps_on_the_144_board() {
        // A knight in the corner has two leaps, in the middle eight.
        assert_eq!(G.leaps(0, &KNIGHT_STEPS), Set144::square(14).with(25));
        assert_eq!(G.leaps(G.square(5, 5), &KNIGHT_STEPS).count(), 8);
        assert_eq!(G.leaps(143, &KING_STEPS).count(), 3);
    }

    #[test]
    fn ray_attacks_match_square_by_square_slides() {
        let mut x = 0x5151_2323_4545_6767;
        for _ in 0..3000 {
            let density = (rng(&mut x) % 60) as u32;
            let occ = random_set(&mut x, density);
            let sq = (rng(&mut x) % 144) as usize;
            let rook = G.slide(sq, occ, &[(1, 0), (0, 1), (-1, 0), (0, -1)], usize::MAX);
            let bishop = G.slide(sq, occ, &[(1, 1), (-1, 1), (-1, -1), (1, -1)], usize::MAX);
            assert_eq!(RAYS.rook(sq, occ), rook);
            assert_eq!(RAYS.bishop(sq, occ), bishop);
            for d in 0..8 {
                let ray = RAYS.ray_attacks(sq, d, occ);
                assert_eq!(ray, G.slide(sq, occ, &[QUEEN_DIRS[d]], usize::MAX));
                // The blocker is the square of `occ` on the ray nearest to `sq`.
                let b = RAYS.blocker(sq, d, occ);
                assert_eq!(b, (ray & occ).iter().next().filter(|_| (ray & occ).count() == 1));
            }
        }
        // On an empty board a rook always sees 22 squares, a bishop from a corner 11.
        assert_eq!(RAYS.rook(G.square(4, 7), Set144::EMPTY).count(), 22);
        assert_eq!(RAYS.bishop(0, Set144::EMPTY).count(), 11);
        // Reach-limited slides, as Judtho's Princess and Prince move.
        assert_eq!(G.slide(G.square(5, 5), Set144::EMPTY, &QUEEN_DIRS, 4).count(), 32);
        assert_eq!(G.slide(0, Set144::EMPTY, &[(1, 0), (0, 1)], 3).count(), 6);
    }
}
