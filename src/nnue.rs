//! A learned evaluation's network (docs/nnue.md): the file read and checked, and its integer
//! arithmetic. It knows nothing of games: a game gives the active inputs of each perspective
//! (`Evaluation::features`), and the network sums, clips and multiplies.
//!
//! Not yet used by the search: the accumulators the games will keep, updated on each move, call
//! `add` and `sub`; `evaluate` is the same arithmetic from scratch, which tests and the trainer
//! check against.

use std::fmt;

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"TNNUE001";
/// The transformer's outputs clip to [0, QA]; the later layers' weights are multiples of 1/QB.
pub const QA: i32 = 127;
pub const QB: i32 = 64;
/// The largest network file the engine reads (issue 50 keeps each under 2 MB).
pub const MAX_FILE_BYTES: usize = 2 << 20;

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
            NetworkError::NotANetwork => write!(f, "not a network file (its first bytes are not TNNUE001)"),
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
        if b.take(8) != Some(&MAGIC[..]) {
            return Err(NetworkError::NotANetwork);
        }
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
        if !(1..=1 << 16).contains(&features) || !(1..=4096).contains(&hidden) || !(1..=256).contains(&layer) {
            return Err(NetworkError::Shape(format!("{} inputs, {} hidden, {} in the layer", features, hidden, layer)));
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
        Ok(Network { variant, features, max_active, hidden, layer, ft_w, ft_b, l1_w, l1_b, l2_w, l2_b })
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

    /// The evaluation in centipawns for the side to move, from the accumulators of the side to
    /// move (`us`) and of the other side (`them`).
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let h = self.hidden;
        let mut out = self.l2_b as i64;
        for j in 0..self.layer {
            let row = &self.l1_w[j * 2 * h..(j + 1) * 2 * h];
            let mut sum = self.l1_b[j];
            for (half, acc) in [us, them].into_iter().enumerate() {
                for (a, w) in acc.iter().zip(&row[half * h..(half + 1) * h]) {
                    sum += (*a as i32).clamp(0, QA) * *w as i32;
                }
            }
            let x = sum.div_euclid(QB).clamp(0, QA);
            out += x as i64 * self.l2_w[j] as i64;
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
