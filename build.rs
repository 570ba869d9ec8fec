//! Finds the magic numbers for rook and bishop slides on the 6x6 and 8x8 boards and writes the
//! attack tables into `OUT_DIR`, so that the engine starts with its tables made (a search for
//! magics at start-up cost 0.24 s for an 8x8 variant). `src/board/sliders.rs` includes them.

#[path = "src/board/geometry.rs"]
#[allow(dead_code)]
mod geometry;

use geometry::{BISHOP_DIRS, ROOK_DIRS, slide};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The squares whose occupancy matters to a slider: its rays without their last square.
fn relevant_mask(files: usize, ranks: usize, sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let (c, r) = ((sq % files) as i32, (sq / files) as i32);
    let mut out = 0u64;
    for &(dc, dr) in dirs {
        let (mut x, mut y) = (c + dc, r + dr);
        while geometry::on_board(files, ranks, x + dc, y + dr) {
            out |= 1u64 << (y as usize * files + x as usize);
            x += dc;
            y += dr;
        }
    }
    out
}

/// xorshift64*: fast, and good enough to find magics.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Finds a magic for one square and appends its attack sets to `table`.
fn find(files: usize, ranks: usize, sq: usize, dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Magic {
    let mask = relevant_mask(files, ranks, sq, dirs);
    let bits = mask.count_ones();
    let mut occs = Vec::new();
    let mut sub = 0u64;
    loop {
        occs.push((sub, slide(files, ranks, sq, sub, dirs)));
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
            let offset = table.len();
            table.resize(offset + size, 0);
            for &(occ, att) in &occs {
                table[offset + ((occ.wrapping_mul(magic) >> shift) as usize & (size - 1))] = att;
            }
            return Magic { mask, magic, shift, offset };
        }
    }
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/board/geometry.rs");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let little = std::env::var("CARGO_CFG_TARGET_ENDIAN").map(|e| e == "little").unwrap_or(true);
    for (files, ranks) in [(6usize, 6usize), (8, 8)] {
        let n = files * ranks;
        let name = format!("{}X{}", files, ranks);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (files as u64) << 8 ^ ranks as u64);
        let mut table = Vec::new();
        let mut src = String::new();
        let _ = writeln!(src, "// Made by build.rs: rook and bishop magics for the {files}x{ranks} board.");
        for (piece, dirs) in [("rook", &ROOK_DIRS), ("bishop", &BISHOP_DIRS)] {
            let _ = writeln!(src, "const {}_{}: [Magic; {}] = [", piece.to_uppercase(), name, n);
            for sq in 0..n {
                let m = find(files, ranks, sq, dirs, &mut rng, &mut table);
                let _ = writeln!(
                    src,
                    "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
                    m.mask, m.magic, m.shift, m.offset
                );
            }
            src.push_str("];\n");
        }
        let bytes: Vec<u8> =
            table.iter().flat_map(|w| if little { w.to_le_bytes() } else { w.to_be_bytes() }).collect();
        let bin = format!("sliders_{}x{}.bin", files, ranks);
        std::fs::write(out.join(&bin), bytes).expect("OUT_DIR is writable");
        let _ = writeln!(
            src,
            "// SAFETY: the file holds exactly {len} u64 in the target's byte order.\n\
             static TABLE_{name}: [u64; {len}] = unsafe {{ std::mem::transmute(*include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{bin}\"))) }};\n\
             pub static SLIDERS_{name}: Sliders<{n}> = Sliders {{ rook: ROOK_{name}, bishop: BISHOP_{name}, table: &TABLE_{name} }};",
            len = table.len()
        );
        std::fs::write(out.join(format!("sliders_{}x{}.rs", files, ranks)), src).expect("OUT_DIR is writable");
    }
}
