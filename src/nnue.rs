//! A learned evaluation's network (docs/nnue.md): the file read and checked, and its integer
//! arithmetic. It knows nothing of games: a game gives the active inputs of each perspective
//! (`Inputs::features`), and the network sums, clips and multiplies.
//!
//! The search keeps one accumulator per perspective and ply, updated from its parent's by the
//! inputs a move changed (`update`); `evaluate` is the same arithmetic from scratch, which tests
//! and the trainer check against. The loops are written for the compiler to vectorize: SSE2 on
//! any x86-64, and the same loops compiled for AVX2 where the processor has it, chosen at run
//! time, so that no `target-cpu` is needed to build.

use std::fmt;

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"TNNUE002";
/// The first bytes of the first format, which had no `base` word (its networks have none).
pub const MAGIC_1: &[u8; 8] = b"TNNUE001";
/// The transformer's outputs clip to [0, QA]; the later layers' weights are multiples of 1/QB.
pub const QA: i32 = 127;
pub const QB: i32 = 64;
/// The largest network file the engine reads (issue 50 keeps each under 2 MB).
pub const MAX_FILE_BYTES: usize = 2 << 20;
/// The widest feature transformer read: an evaluation's clipped inputs live on the stack.
pub const MAX_HIDDEN: usize = 1024;
/// The most inputs one perspective may have active (`Active`'s capacity).
pub const MAX_ACTIVE: usize = 256;

/// The active inputs of one perspective, as a game lists them (`Inputs::features`): a
/// list on the stack, so that the search lists them without allocating.
#[derive(Clone)]
pub struct Active {
    /// How many were pushed, which may exceed the capacity (a game whose `MAX_ACTIVE` is wrong).
    count: usize,
    list: [u16; MAX_ACTIVE],
}

impl Default for Active {
    fn default() -> Self {
        Active { count: 0, list: [0; MAX_ACTIVE] }
    }
}

impl Active {
    #[inline]
    pub fn push(&mut self, f: usize) {
        if self.count < MAX_ACTIVE {
            self.list[self.count] = f as u16;
        }
        self.count += 1;
    }
    #[inline]
    pub fn clear(&mut self) {
        self.count = 0;
    }
    /// Sorts the inputs, for `difference`, unless a game listed them in order already.
    #[inline]
    pub fn sort(&mut self) {
        self.sort_from(0);
    }

    /// Sorts the inputs pushed from the `from`-th on.
    #[inline]
    pub fn sort_from(&mut self, from: usize) {
        let n = self.count.min(MAX_ACTIVE);
        let tail = &mut self.list[from.min(n)..n];
        if !tail.is_sorted() {
            tail.sort_unstable();
        }
    }

    /// What turns the sorted inputs `before` into the sorted `after`, counting repeats (an
    /// input may stand twice, as two passive members of one kind on one square): pushed onto
    /// `removed` and `added`.
    pub fn difference(before: &Active, after: &Active, removed: &mut Active, added: &mut Active) {
        let (a, b) = (before.as_slice(), after.as_slice());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => {
                    removed.push(a[i] as usize);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    added.push(b[j] as usize);
                    j += 1;
                }
            }
        }
        for &f in &a[i..] {
            removed.push(f as usize);
        }
        for &f in &b[j..] {
            added.push(f as usize);
        }
    }

    /// How many inputs were pushed.
    pub fn count(&self) -> usize {
        self.count
    }
    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        &self.list[..self.count.min(MAX_ACTIVE)]
    }
}

/// Why bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The first bytes are not `TNNUE001`.
    NotANetwork,
    /// The file ends inside its header.
    Truncated,
    /// The file ends before its arrays do, or goes on after them.
    Length {
        expected: usize,
        found: usize,
    },
    /// Sizes out of range, or quantization constants this engine does not use.
    Shape(String),
    TooLarge(usize),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotANetwork => write!(f, "not a network file (its first bytes are not TNNUE002 or TNNUE001)"),
            NetworkError::Truncated => write!(f, "a network file cut short in its header"),
            NetworkError::Length { expected, found } => {
                write!(f, "a network file of {} bytes where its sizes call for {}", found, expected)
            }
            NetworkError::Shape(s) => write!(f, "a network this engine cannot use: {}", s),
            NetworkError::TooLarge(n) => write!(f, "a network file of {} bytes, more than {}", n, MAX_FILE_BYTES),
        }
    }
}

impl std::error::Error for NetworkError {}

/// A quantized network: `features → hidden` (per perspective) `→ 2·hidden → layer → 1`.
#[derive(Clone, Debug)]
pub struct Network {
    pub variant: String,
    pub features: usize,
    pub max_active: usize,
    pub hidden: usize,
    pub layer: usize,
    /// Whether the network's output is a correction added to the game's own evaluation (the
    /// file's `base` word 1), rather than the evaluation itself (0).
    pub adds_own: bool,
    /// Row by input: `ft_w[f * hidden .. (f + 1) * hidden]`.
    ft_w: Vec<i16>,
    ft_b: Vec<i16>,
    /// Row by hidden neuron (the file's order transposed), so that each neuron's sum runs
    /// over one contiguous row.
    l1_w: Vec<i8>,
    l1_b: Vec<i32>,
    l2_w: Vec<i16>,
    l2_b: i32,
}

/// Reads little-endian numbers off the front of a byte slice.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl Network {
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() > MAX_FILE_BYTES {
            return Err(NetworkError::TooLarge(bytes.len()));
        }
        let mut b = Bytes(bytes);
        let short = || NetworkError::Truncated;
        let first = match b.take(8) {
            Some(m) if m == &MAGIC[..] => false,
            Some(m) if m == &MAGIC_1[..] => true,
            _ => return Err(NetworkError::NotANetwork),
        };
        let n = b.u16().ok_or_else(short)? as usize;
        let variant = String::from_utf8(b.take(n).ok_or_else(short)?.to_vec())
            .map_err(|_| NetworkError::Shape("a variant name that is not UTF-8".into()))?;
        let mut dims = [0usize; 6];
        for d in dims.iter_mut() {
            *d = b.u32().ok_or_else(short)? as usize;
        }
        let [features, max_active, hidden, layer, qa, qb] = dims;
        if (qa as i32, qb as i32) != (QA, QB) {
            return Err(NetworkError::Shape(format!("QA {} and QB {}, not {} and {}", qa, qb, QA, QB)));
        }
        let base = if first { 0 } else { b.u32().ok_or_else(short)? };
        if base > 1 {
            return Err(NetworkError::Shape(format!("base {}, not 0 (none) or 1 (the game's own evaluation)", base)));
        }
        if !(1..=1 << 16).contains(&features)
            || !(1..=MAX_HIDDEN).contains(&hidden)
            || !(1..=256).contains(&layer)
            || !(1..=MAX_ACTIVE).contains(&max_active)
        {
            return Err(NetworkError::Shape(format!(
                "{} inputs ({} active), {} hidden, {} in the layer",
                features, max_active, hidden, layer
            )));
        }
        let arrays = features * hidden * 2 + hidden * 2 + 2 * hidden * layer + layer * 4 + layer * 2 + 4;
        let header = bytes.len() - b.0.len();
        if b.0.len() != arrays {
            return Err(NetworkError::Length { expected: header + arrays, found: bytes.len() });
        }
        let i16s = |b: &mut Bytes, n: usize| -> Vec<i16> {
            b.take(2 * n).unwrap_or(&[]).chunks(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
        };
        let ft_w = i16s(&mut b, features * hidden);
        let ft_b = i16s(&mut b, hidden);
        let file_l1: Vec<i8> = b.take(2 * hidden * layer).unwrap_or(&[]).iter().map(|&x| x as i8).collect();
        let mut l1_w = vec![0i8; 2 * hidden * layer];
        for i in 0..2 * hidden {
            for j in 0..layer {
                l1_w[j * 2 * hidden + i] = file_l1[i * layer + j];
            }
        }
        let l1_b =
            b.take(4 * layer).unwrap_or(&[]).chunks(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let l2_w = i16s(&mut b, layer);
        let l2_b = b.u32().unwrap_or(0) as i32;
        Ok(Network {
            variant,
            features,
            max_active,
            hidden,
            layer,
            adds_own: base == 1,
            ft_w,
            ft_b,
            l1_w,
            l1_b,
            l2_w,
            l2_b,
        })
    }

    /// An accumulator set to the biases: the start of a perspective's sum.
    pub fn fresh(&self, acc: &mut [i16]) {
        acc.copy_from_slice(&self.ft_b);
    }

    /// Input `f` becomes active in `acc`.
    #[inline]
    pub fn add(&self, acc: &mut [i16], f: usize) {
        let row = &self.ft_w[f * self.hidden..(f + 1) * self.hidden];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(*w);
        }
    }

    /// Input `f` stops being active in `acc`.
    #[inline]
    pub fn sub(&self, acc: &mut [i16], f: usize) {
        let row = &self.ft_w[f * self.hidden..(f + 1) * self.hidden];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// The accumulator `child`: `parent` with the rows of `removed` taken off and those of
    /// `added` put on, in one pass over the accumulator.
    #[inline]
    pub fn update(&self, parent: &[i16], child: &mut [i16], removed: &[u16], added: &[u16]) {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the processor has AVX2 (checked at run time just above).
            return unsafe { self.update_avx2(parent, child, removed, added) };
        }
        self.update_body(parent, child, removed, added)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(&self, parent: &[i16], child: &mut [i16], removed: &[u16], added: &[u16]) {
        self.update_body(parent, child, removed, added)
    }

    #[inline(always)]
    fn update_body(&self, parent: &[i16], child: &mut [i16], removed: &[u16], added: &[u16]) {
        let h = self.hidden;
        let (child, parent) = (&mut child[..h], &parent[..h]);
        child.copy_from_slice(parent);
        for &f in removed {
            let row = &self.ft_w[f as usize * h..(f as usize + 1) * h];
            for (a, w) in child.iter_mut().zip(row) {
                *a = a.wrapping_sub(*w);
            }
        }
        for &f in added {
            let row = &self.ft_w[f as usize * h..(f as usize + 1) * h];
            for (a, w) in child.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
    }

    /// An accumulator from scratch: the biases and the rows of `active`.
    pub fn refresh(&self, acc: &mut [i16], active: &[u16]) {
        self.fresh(&mut acc[..self.hidden]);
        for &f in active {
            self.add(&mut acc[..self.hidden], f as usize);
        }
    }

    /// The evaluation in centipawns for the side to move, from the accumulators of the side to
    /// move (`us`) and of the other side (`them`).
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the processor has AVX2 (checked at run time just above).
            return unsafe { self.output_avx2(us, them) };
        }
        self.output_body(us, them)
    }

    /// `output_body` with AVX2's byte products: each `maddubs` multiplies 32 clipped inputs
    /// (0..=127, unsigned) by 32 weights (signed) and adds neighbours into i16 without
    /// saturating (|2 x 127 x 128| < 2^15), so the sum is exactly `output_body`'s. Eight neurons
    /// are summed at once and their sums gathered by one tree of `hadd`s, and the clipping packs
    /// sixteen sums at a time: per neuron, the horizontal sum and the clipping loop were most of
    /// this function's time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, us: &[i16], them: &[i16]) -> i32 {
        use std::arch::x86_64::*;
        let h = self.hidden;
        let n = 2 * h;
        if !n.is_multiple_of(32) {
            return self.output_body(us, them);
        }
        // Every byte of `x[..n]` is written below before it is read; zeroing the whole buffer
        // on every call took 3% of a Dojo search with a network.
        let mut buffer = std::mem::MaybeUninit::<[u8; 2 * MAX_HIDDEN]>::uninit();
        let xp = buffer.as_mut_ptr() as *mut u8;
        for (half, acc) in [&us[..h], &them[..h]].into_iter().enumerate() {
            // SAFETY: half * h + h <= n <= 2 * MAX_HIDDEN, the buffer's length.
            let dst = unsafe { xp.add(half * h) };
            if h.is_multiple_of(16) {
                let zero = _mm_setzero_si128();
                for k in (0..h).step_by(16) {
                    // SAFETY: k + 16 <= h, the length of `acc`, and `dst` has h bytes from here.
                    unsafe {
                        let a = _mm_loadu_si128(acc.as_ptr().add(k) as *const __m128i);
                        let b = _mm_loadu_si128(acc.as_ptr().add(k + 8) as *const __m128i);
                        // Saturating to i8 clips at QA = 127 above; the max clips at 0 below.
                        let c = _mm_max_epi8(_mm_packs_epi16(a, b), zero);
                        _mm_storeu_si128(dst.add(k) as *mut __m128i, c);
                    }
                }
            } else {
                for (k, a) in acc.iter().enumerate() {
                    // SAFETY: k < h.
                    unsafe { *dst.add(k) = (*a).clamp(0, QA as i16) as u8 };
                }
            }
        }
        // SAFETY: the n bytes were all written just above.
        let x = unsafe { std::slice::from_raw_parts(xp as *const u8, n) };
        let ones = _mm256_set1_epi16(1);
        let dot = |acc: __m256i, row: &[i8], k: usize| {
            // SAFETY: k + 32 <= n, the length of both `x` and `row`.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(x.as_ptr().add(k) as *const __m256i),
                    _mm256_loadu_si256(row.as_ptr().add(k) as *const __m256i),
                )
            };
            _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), ones))
        };
        const { assert!(QB == 64, "the shift below divides by QB") };
        let mut out = self.l2_b as i64;
        let mut j = 0;
        let mut products = _mm256_setzero_si256();
        while j + 8 <= self.layer {
            let mut accs = [_mm256_setzero_si256(); 8];
            for k in (0..n).step_by(32) {
                for (i, acc) in accs.iter_mut().enumerate() {
                    *acc = dot(*acc, &self.l1_w[(j + i) * n..(j + i + 1) * n], k);
                }
            }
            // Lane i of `sums` is neuron j + i's sum.
            let h01 = _mm256_hadd_epi32(accs[0], accs[1]);
            let h23 = _mm256_hadd_epi32(accs[2], accs[3]);
            let h45 = _mm256_hadd_epi32(accs[4], accs[5]);
            let h67 = _mm256_hadd_epi32(accs[6], accs[7]);
            let (h0123, h4567) = (_mm256_hadd_epi32(h01, h23), _mm256_hadd_epi32(h45, h67));
            let sums = _mm256_add_epi32(
                _mm256_permute2x128_si256::<0x20>(h0123, h4567),
                _mm256_permute2x128_si256::<0x31>(h0123, h4567),
            );
            // SAFETY: j + 8 <= layer, the length of `l1_b` and of `l2_w`.
            let (bias, weights) = unsafe {
                (
                    _mm256_loadu_si256(self.l1_b.as_ptr().add(j) as *const __m256i),
                    _mm256_cvtepi16_epi32(_mm_loadu_si128(self.l2_w.as_ptr().add(j) as *const __m128i)),
                )
            };
            // An arithmetic shift is the floor division, as `div_euclid` by a positive QB.
            let y = _mm256_srai_epi32::<6>(_mm256_add_epi32(sums, bias));
            let y = _mm256_min_epi32(_mm256_max_epi32(y, _mm256_setzero_si256()), _mm256_set1_epi32(QA));
            // |y x w| <= 127 x 2^15, and at most 32 of them per lane (256 neurons): no overflow.
            products = _mm256_add_epi32(products, _mm256_mullo_epi32(y, weights));
            j += 8;
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` holds eight i32.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, products) };
        out += lanes.iter().map(|&v| v as i64).sum::<i64>();
        for j in j..self.layer {
            let row = &self.l1_w[j * n..(j + 1) * n];
            let acc = (0..n).step_by(32).fold(_mm256_setzero_si256(), |acc, k| dot(acc, row, k));
            let half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
            let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
            let sum = _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32::<0b01>(quarter)));
            let y = (self.l1_b[j] + sum).div_euclid(QB).clamp(0, QA);
            out += y as i64 * self.l2_w[j] as i64;
        }
        (out / (QA * QB) as i64) as i32
    }

    /// The same integers as docs/nnue.md's arithmetic: the clipped transformer outputs fit in
    /// an i8, so each neuron's sum is a dot product of two i8 rows that the compiler vectorizes.
    #[inline(always)]
    fn output_body(&self, us: &[i16], them: &[i16]) -> i32 {
        let h = self.hidden;
        let mut clipped = [0i8; 2 * MAX_HIDDEN];
        for (c, a) in clipped[..h].iter_mut().zip(&us[..h]) {
            *c = (*a).clamp(0, QA as i16) as i8;
        }
        for (c, a) in clipped[h..2 * h].iter_mut().zip(&them[..h]) {
            *c = (*a).clamp(0, QA as i16) as i8;
        }
        let x = &clipped[..2 * h];
        let mut out = self.l2_b as i64;
        for j in 0..self.layer {
            let row = &self.l1_w[j * 2 * h..(j + 1) * 2 * h];
            let mut sum = 0i32;
            for (c, w) in x.iter().zip(row) {
                sum += *c as i32 * *w as i32;
            }
            let y = (self.l1_b[j] + sum).div_euclid(QB).clamp(0, QA);
            out += y as i64 * self.l2_w[j] as i64;
        }
        (out / (QA * QB) as i64) as i32
    }

    /// The evaluation from scratch: each perspective's active inputs summed, then `output`.
    pub fn evaluate(&self, us: &[usize], them: &[usize]) -> i32 {
        let mut a = vec![0i16; self.hidden];
        let mut b = vec![0i16; self.hidden];
        self.fresh(&mut a);
        self.fresh(&mut b);
        us.iter().for_each(|&f| self.add(&mut a, f));
        them.iter().for_each(|&f| self.add(&mut b, f));
        self.output(&a, &b)
    }
}

/// Whether this processor runs AVX2 (std caches the answer).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network of the given shape with weights from a small generator, as the file holds them.
    fn network(hidden: usize, layer: usize, seed: u64) -> Network {
        let features = 40;
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut b = MAGIC.to_vec();
        b.extend(4u16.to_le_bytes());
        b.extend(b"test");
        for d in [features, 8, hidden, layer, QA as usize, QB as usize, 1] {
            b.extend((d as u32).to_le_bytes());
        }
        for _ in 0..features * hidden + hidden {
            b.extend(((next() % 200) as i16 - 100).to_le_bytes());
        }
        for _ in 0..2 * hidden * layer {
            b.push(next() as u8);
        }
        for _ in 0..layer {
            b.extend(((next() % 20_000) as i32 - 10_000).to_le_bytes());
        }
        for _ in 0..layer {
            b.extend((next() as i16).to_le_bytes());
        }
        b.extend(((next() % 100_000) as i32 - 50_000).to_le_bytes());
        Network::from_bytes(&b).unwrap()
    }

    /// The vector path gives the integers of the plain one, for every width it takes in full
    /// or in part, with the accumulators past both clips.
    #[test]
    fn the_output_is_the_same_integers_on_every_path() {
        for (hidden, layer) in [(32, 32), (64, 32), (16, 32), (48, 13), (128, 8), (8, 5), (24, 16)] {
            let net = network(hidden, layer, hidden as u64 * 31 + layer as u64);
            let mut state = 0x1234_5678u64 + hidden as u64;
            for _ in 0..200 {
                let mut acc = || {
                    (0..hidden)
                        .map(|_| {
                            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                            ((state >> 33) % 500) as i16 - 150
                        })
                        .collect::<Vec<i16>>()
                };
                let (us, them) = (acc(), acc());
                assert_eq!(net.output(&us, &them), net.output_body(&us, &them), "hidden {hidden}, layer {layer}");
            }
        }
    }
}
