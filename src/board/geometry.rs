//! Squares, steps and lines on any rectangular board of up to 64 squares, as `const fn`s, so
//! that every game's tables are made by the compiler instead of at start-up.
//!
//! A square is `rank * files + file`, both counted from 0. Each game decides what rank 0 is
//! (White's first rank in the chess games, gote's back rank in Judkins); the tables here do not
//! care. Boards larger than 64 squares use `squareset::SquareSet` and its own tables.

/// (file, rank) steps of the four orthogonal directions.
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// (file, rank) steps of the four diagonal directions.
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The eight neighbours.
pub const KING_STEPS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The eight knight leaps.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Whether (file, rank) lies on a `files` x `ranks` board.
#[inline(always)]
pub const fn on_board(files: usize, ranks: usize, file: i32, rank: i32) -> bool {
    file >= 0 && rank >= 0 && file < files as i32 && rank < ranks as i32
}

/// The squares one step of each of `steps` away from `sq`.
pub const fn leaps(files: usize, ranks: usize, sq: usize, steps: &[(i32, i32)]) -> u64 {
    reach(files, ranks, sq, 0, steps, 1)
}

/// `leaps` for every square: a step table.
pub const fn leap_table<const N: usize>(files: usize, ranks: usize, steps: &[(i32, i32)]) -> [u64; N] {
    reach_table(files, ranks, steps, 1)
}

/// Attacks along `dirs` from `sq` given blockers `occ`, square by square: each ray runs to the
/// first occupied square, which it includes. The reference that the magic tables are built from
/// and checked against.
pub const fn slide(files: usize, ranks: usize, sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    reach(files, ranks, sq, occ, dirs, usize::MAX)
}

/// `slide` on an empty board for every square.
pub const fn ray_table<const N: usize>(files: usize, ranks: usize, dirs: &[(i32, i32)]) -> [u64; N] {
    reach_table(files, ranks, dirs, usize::MAX)
}

/// The squares along each of `dirs` from `sq`, at most `most` steps, each ray stopping at the
/// first square in `occ` (included): a leap is a slide of one step.
const fn reach(files: usize, ranks: usize, sq: usize, occ: u64, dirs: &[(i32, i32)], most: usize) -> u64 {
    let (c, r) = ((sq % files) as i32, (sq / files) as i32);
    let mut out = 0u64;
    let mut i = 0;
    while i < dirs.len() {
        let (dc, dr) = dirs[i];
        let (mut x, mut y) = (c + dc, r + dr);
        let mut n = 0;
        while n < most && on_board(files, ranks, x, y) {
            let b = 1u64 << (y as usize * files + x as usize);
            out |= b;
            if occ & b != 0 {
                break;
            }
            x += dc;
            y += dr;
            n += 1;
        }
        i += 1;
    }
    out
}

/// `reach` on an empty board for every square.
const fn reach_table<const N: usize>(files: usize, ranks: usize, dirs: &[(i32, i32)], most: usize) -> [u64; N] {
    assert!(N == files * ranks && N <= 64);
    let mut t = [0u64; N];
    let mut sq = 0;
    while sq < N {
        t[sq] = reach(files, ranks, sq, 0, dirs, most);
        sq += 1;
    }
    t
}

/// What `pair_table` keeps for two squares on one line.
#[derive(Clone, Copy)]
enum OnLine {
    /// The squares strictly between them.
    Between,
    /// The whole line through both, edge to edge.
    Line,
}

/// For every pair of squares on one line along `dirs`, what `keep` asks for; 0 for squares that
/// share no such line.
const fn pair_table<const N: usize>(files: usize, ranks: usize, dirs: &[(i32, i32)], keep: OnLine) -> [[u64; N]; N] {
    assert!(N == files * ranks && N <= 64);
    let mut t = [[0u64; N]; N];
    let mut a = 0;
    while a < N {
        let mut i = 0;
        while i < dirs.len() {
            let d = dirs[i];
            let ray = slide(files, ranks, a, 0, &[d]);
            let back = slide(files, ranks, a, 0, &[(-d.0, -d.1)]);
            let mut rest = ray;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                t[a][b] = match keep {
                    OnLine::Between => ray & slide(files, ranks, b, 0, &[(-d.0, -d.1)]),
                    OnLine::Line => ray | back | (1u64 << a),
                };
            }
            i += 1;
        }
        a += 1;
    }
    t
}

/// For every pair of squares on one line along `dirs`, the squares strictly between them (0 for
/// squares that share no such line).
pub const fn between_table<const N: usize>(files: usize, ranks: usize, dirs: &[(i32, i32)]) -> [[u64; N]; N] {
    pair_table(files, ranks, dirs, OnLine::Between)
}

/// For every pair of squares on one line along `dirs`, the whole line through both, edge to
/// edge (0 for squares that share no such line).
pub const fn line_table<const N: usize>(files: usize, ranks: usize, dirs: &[(i32, i32)]) -> [[u64; N]; N] {
    pair_table(files, ranks, dirs, OnLine::Line)
}

/// King distance, max(|dfile|, |drank|), between every pair of squares.
pub const fn distance_table<const N: usize>(files: usize) -> [[u8; N]; N] {
    let mut t = [[0u8; N]; N];
    let mut a = 0;
    while a < N {
        let mut b = 0;
        while b < N {
            let df = (a % files).abs_diff(b % files);
            let dr = (a / files).abs_diff(b / files);
            t[a][b] = if df > dr { df as u8 } else { dr as u8 };
            b += 1;
        }
        a += 1;
    }
    t
}

/// How central each square is: its steps from the nearest edge, 0 on the edge. On 8x8 this is
/// 0 to 3, the middle four being 3.
pub const fn centre_table<const N: usize>(files: usize, ranks: usize) -> [i32; N] {
    let mut t = [0i32; N];
    let mut sq = 0;
    while sq < N {
        let (f, r) = (sq % files, sq / files);
        let df = if f < files - 1 - f { f } else { files - 1 - f };
        let dr = if r < ranks - 1 - r { r } else { ranks - 1 - r };
        t[sq] = if df < dr { df as i32 } else { dr as i32 };
        sq += 1;
    }
    t
}

/// `centre_table` for the 8x8 board that Dojo and Chaturanga share.
pub const CENTRE_8X8: [i32; 64] = centre_table::<64>(8, 8);

/// Every square of one rank.
pub const fn rank_mask(files: usize, rank: usize) -> u64 {
    (((1u128 << files) - 1) as u64) << (rank * files)
}

/// Every square of one file.
pub const fn file_mask(files: usize, ranks: usize, file: usize) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < ranks {
        m |= 1u64 << (r * files + file);
        r += 1;
    }
    m
}

/// The kind of the piece on the one-square set `b`, given a set per kind: the first kind of
/// `order` whose set holds it, the last without a look. Callers list the commonest kinds first;
/// the array is fixed, so the loop unrolls.
#[inline(always)]
pub fn kind_on<const K: usize>(kinds: &[u64; K], order: [usize; K], b: u64) -> usize {
    let mut i = 0;
    while i + 1 < K && kinds[order[i]] & b == 0 {
        i += 1;
    }
    order[i]
}

/// Puts a piece on the empty square `sq` or lifts it from there: the square flips in its
/// owner's set and in its kind's set.
#[inline(always)]
pub fn flip(owner: &mut u64, kind: &mut u64, sq: usize) {
    *owner ^= 1u64 << sq;
    *kind ^= 1u64 << sq;
}

/// The lowest square of a set, removed from it.
#[inline(always)]
pub fn pop(b: &mut u64) -> usize {
    let s = b.trailing_zeros() as usize;
    *b &= *b - 1;
    s
}

/// The squares of a set, lowest first.
#[inline(always)]
pub fn squares(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || (b != 0).then(|| pop(&mut b)))
}

/// `$body`, with its arguments bound, compiled twice and chosen at run time: once with the
/// processor's one-instruction bit count, once without. The default build for any x86-64 counts
/// bits in software, and an evaluation counts the bits of many sets. The body and what it inlines
/// (mark the evaluation `#[inline(always)]`) take the instruction; a closure would not, as it is
/// not inlined into a function of other target features.
///
/// `with_popcnt!(p: &Dojo = self => i32 { p.eval_white_with(&WEIGHTS) })`; a generic game names
/// its parameters first, in brackets: `with_popcnt!([const F: bool] p: &Chaturanga<F> = self ...)`.
// build.rs reads this file for its tables and has no evaluation to compile twice.
#[allow(unused_macros)]
macro_rules! with_popcnt {
    ($([$($generics:tt)*])? $($arg:ident: $ty:ty = $val:expr),+ => $ret:ty $body:block) => {{
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt")]
        unsafe fn fast$(<$($generics)*>)?($($arg: $ty),+) -> $ret $body
        #[allow(dead_code)]
        fn plain$(<$($generics)*>)?($($arg: $ty),+) -> $ret $body
        #[cfg(target_arch = "x86_64")]
        let value = if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor counts bits in one instruction (checked just above).
            unsafe { fast($($val),+) }
        } else {
            plain($($val),+)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let value = plain($($val),+);
        value
    }};
}
#[allow(unused_imports)]
pub(crate) use with_popcnt;

/// Where a square stands in a picture drawn from above, row 0 being the last rank, as a cell
/// index row by row; the same map takes a cell back to its square.
pub const fn picture_cell(files: usize, ranks: usize, sq: usize) -> usize {
    (ranks - 1 - sq / files) * files + sq % files
}

/// A square's name in the chess style: the file as a letter from `a`, then the rank from 1
/// (`a1`, `h8`, `l12`), with rank 0 first.
pub fn square_name(files: usize, sq: usize) -> String {
    // Pushed, not `format!`ted: pictures name every square of a board each time they are drawn.
    let mut name = String::with_capacity(3);
    name.push((b'a' + (sq % files) as u8) as char);
    let rank = sq / files + 1;
    if rank >= 10 {
        name.push((b'0' + (rank / 10) as u8) as char);
    }
    name.push((b'0' + (rank % 10) as u8) as char);
    name
}

/// Parses a chess-style square name exactly as `square_name` writes it (no leading zero).
pub fn parse_square(files: usize, ranks: usize, s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let (&f, digits) = b.split_first()?;
    if !(b'a'..b'a' + files as u8).contains(&f) || digits.is_empty() || digits.len() > 2 || digits[0] == b'0' {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let rank = digits.iter().fold(0usize, |n, d| n * 10 + (d - b'0') as usize);
    (1..=ranks).contains(&rank).then(|| (rank - 1) * files + (f - b'a') as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_on_every_board() {
        for (files, ranks) in [(6, 6), (8, 8), (12, 12)] {
            for sq in 0..files * ranks {
                let name = square_name(files, sq);
                assert_eq!(parse_square(files, ranks, &name), Some(sq), "{name}");
            }
        }
        for bad in ["a0", "a01", "m1", "a13", "a", "", "1a", "a1x", "A1"] {
            assert_eq!(parse_square(12, 12, bad), None, "{bad}");
        }
    }

    #[test]
    fn centrality_counts_steps_from_the_nearest_edge() {
        const J: [i32; 36] = centre_table::<36>(6, 6);
        const T: [i32; 144] = centre_table::<144>(12, 12);
        assert_eq!((CENTRE_8X8[0], CENTRE_8X8[27], CENTRE_8X8[36], CENTRE_8X8[49]), (0, 3, 3, 1));
        assert_eq!((J[0], J[14], J[21], J[35]), (0, 2, 2, 0));
        assert_eq!((T[0], T[5 * 12 + 6], T[11 * 12 + 6], T[12 + 1]), (0, 5, 0, 1));
        // Symmetric under both mirrors.
        for sq in 0..64 {
            let (f, r) = (sq % 8, sq / 8);
            assert_eq!(CENTRE_8X8[sq], CENTRE_8X8[r * 8 + 7 - f]);
            assert_eq!(CENTRE_8X8[sq], CENTRE_8X8[(7 - r) * 8 + f]);
        }
    }

    #[test]
    fn lines_and_betweens_agree() {
        static B: [[u64; 64]; 64] = between_table::<64>(8, 8, &KING_STEPS);
        static L: [[u64; 64]; 64] = line_table::<64>(8, 8, &KING_STEPS);
        // a1-h8: six squares between, the long diagonal as the line.
        assert_eq!(B[0][63].count_ones(), 6);
        assert_eq!(L[0][63], 0x8040_2010_0804_0201);
        assert_eq!(B[0][10], 0); // a knight's leap apart: no line
        for a in 0..64 {
            for b in 0..64 {
                assert_eq!(B[a][b], B[b][a]);
                if B[a][b] != 0 {
                    assert_eq!(L[a][b] & B[a][b], B[a][b]);
                }
            }
        }
    }
}
