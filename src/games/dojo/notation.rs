//! Dojo texts: the extended FEN with passive stacks and counters, move texts with the D6 and D9
//! choices, and the notes of `d`.

use super::*;
use crate::rules::Notation;
use crate::rules::PositionError;
use crate::rules::text::{self, read_board_8x8, write_board_8x8};
use std::fmt::Write as _;

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -";

pub fn square_name(sq: usize) -> String {
    crate::board::geometry::square_name(8, sq)
}

pub fn parse_square(s: &str) -> Option<usize> {
    crate::board::geometry::parse_square(8, 8, s)
}

pub(super) fn format_move(m: Move) -> String {
    let mut s = square_name(m.from());
    s.push_str(&square_name(m.to()));
    if let Some(t) = m.target() {
        s.push('/');
        s.push_str(&square_name(t));
    }
    if let Some(a) = m.appointee() {
        s.push('@');
        s.push_str(&square_name(a));
    }
    s
}

impl Dojo {
    // ---- text ----

    pub(super) fn parse(text: &str) -> Result<Self, String> {
        let fields = text::fields(
            text,
            8,
            8,
            "position needs 8 fields (board, side, castling, en passant, halfmove clock, fullmove number, \
             passive members, counters)",
        )?;
        let mut p = Self::empty();
        read_board_8x8(
            fields[0],
            |c| {
                let l = c.next().unwrap_or(' ');
                piece_letter(l).ok_or_else(|| format!("'{}' is not a piece", l))
            },
            |(col, k), sq| {
                p.put(col, k, sq);
                Ok(())
            },
        )?;
        p.turn = match fields[1] {
            "w" => WHITE as u8,
            "b" => BLACK as u8,
            s => return Err(format!("side to move '{}' is not w or b", s)),
        };
        if p.turn as usize == BLACK {
            p.hash ^= tables().z_black;
        }
        for c in 0..2 {
            let kings = (p.color[c] & p.kind[KING]).count_ones();
            if kings != 1 {
                return Err(format!("{} needs exactly one antisensei (K), has {}", COLOR_NAMES[c], kings));
            }
            if (p.color[c] & p.kind[QUEEN]).count_ones() > 1 {
                return Err(format!("{} has more than one active deputy (Q)", COLOR_NAMES[c]));
            }
        }
        // Castling: KQkq in that order, each needing the antisensei and the purple belt at home.
        let mut rights = 0u8;
        if fields[2] != "-" {
            let mut rest = fields[2];
            for (bit, ch, king, rook) in
                [(CASTLE_WK, 'K', 4, 7), (CASTLE_WQ, 'Q', 4, 0), (CASTLE_BK, 'k', 60, 63), (CASTLE_BQ, 'q', 60, 56)]
            {
                if let Some(r) = rest.strip_prefix(ch) {
                    rest = r;
                    let c = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
                    if p.piece_at(king) != Some((c, KING)) || p.piece_at(rook) != Some((c, ROOK)) {
                        return Err(format!(
                            "castling right '{}' needs the antisensei on {} and a purple belt on {}",
                            ch,
                            square_name(king),
                            square_name(rook)
                        ));
                    }
                    rights |= bit;
                }
            }
            if !rest.is_empty() || rights == 0 {
                return Err(format!("castling '{}' is not '-' or a subset of KQkq in that order", fields[2]));
            }
        }
        p.set_castling(rights);
        p.halfmove = parse_number(fields[4], "halfmove clock", 0, 100)? as u16;
        p.fullmove = parse_number(fields[5], "fullmove number", 1, 1_000_000)?;
        // Passive members, then the counters: they need the board to check against.
        if fields[6] != "-" {
            let mut prev = None;
            for entry in fields[6].split('/') {
                let (sq, letters) = square_entry(entry, "passive", &mut prev)?;
                if letters.is_empty() {
                    return Err(format!("passive entry '{}' has no members", entry));
                }
                for c in letters.chars() {
                    let (col, k) = piece_letter(c)
                        .filter(|&(_, k)| k != KING)
                        .ok_or_else(|| format!("passive entry '{}': '{}' is not a belt (P N B R Q)", entry, c))?;
                    if p.n_stack as usize >= MAX_PASSIVE {
                        return Err(format!("more than {} passive members", MAX_PASSIVE));
                    }
                    let m = Member::new(sq, col, k);
                    let depth = p.members().filter(|x| x.square() == sq).count();
                    p.hash ^= passive_key(m, depth);
                    p.stack[p.n_stack as usize] = m;
                    p.n_stack += 1;
                    p.passive |= 1u64 << sq;
                }
            }
        }
        for c in 0..2 {
            let n = p.color[c].count_ones() as usize + p.members().filter(|m| m.color() == c).count();
            if n > 16 {
                return Err(format!("{} has {} pieces, more than the 16 of the start", COLOR_NAMES[c], n));
            }
        }
        if fields[7] != "-" {
            let mut prev: Option<usize> = None;
            let mut treason_seen = 0u8;
            for entry in fields[7].split('/') {
                let tr = entry.strip_prefix('W').map(|n| (WHITE, n)).or(entry.strip_prefix('b').map(|n| (BLACK, n)));
                if let Some((c, n)) = tr {
                    // `b8:...` starts with 'b' too: a treason entry has no colon.
                    if !n.contains(':') {
                        if treason_seen >> c != 0 {
                            return Err(format!("treason entry '{}' is out of order or repeated", entry));
                        }
                        treason_seen |= 1 << c;
                        let v = parse_number(n, "treason counter", 1, TREASON_LIMIT as u32 - 1)? as u8;
                        if p.deputy(c).is_none() {
                            return Err(format!("treason counter for {} without an active deputy", COLOR_NAMES[c]));
                        }
                        p.set_treason(c, v);
                        continue;
                    }
                }
                if treason_seen != 0 {
                    return Err(format!("counter entry '{}' after a treason entry", entry));
                }
                let (sq, nums) = square_entry(entry, "counter", &mut prev)?;
                let nums: Vec<&str> = nums.split('.').collect();
                if nums.len() != 3 {
                    return Err(format!("counter entry '{}' needs three numbers", entry));
                }
                let Some((_, k)) = p.piece_at(sq) else {
                    return Err(format!("counter entry '{}': no active piece there", entry));
                };
                let mut vals = [0u8; 3];
                for i in 0..3 {
                    vals[i] = parse_number(nums[i], "counter", 0, BELT_LIMIT as u32 - 1)? as u8;
                }
                if vals == [0; 3] {
                    return Err(format!("counter entry '{}' is all zero (leave it out)", entry));
                }
                if k == KING {
                    return Err(format!("counter entry '{}': the antisensei has no counters", entry));
                }
                if k >= ROOK && (vals[OBEDIENT] != 0 || vals[STAGNATION] != 0) {
                    return Err(format!("counter entry '{}': only P, N and B have promotion counters", entry));
                }
                for (i, &v) in vals.iter().enumerate() {
                    p.set_counter(sq, i, v);
                }
            }
        }
        if fields[3] != "-" {
            let sq =
                parse_square(fields[3]).ok_or_else(|| format!("en passant square '{}' is not a square", fields[3]))?;
            let (rank, step): (usize, i32) = if p.turn as usize == WHITE { (5, -8) } else { (2, 8) };
            let pawn = (sq as i32 + step) as usize;
            let origin = (sq as i32 - step) as usize;
            let them = p.turn as usize ^ 1;
            if sq / 8 != rank
                || p.blocked() & ((1u64 << sq) | (1u64 << origin)) != 0
                || p.piece_at(pawn) != Some((them, PAWN))
            {
                return Err(format!(
                    "en passant square '{}' does not follow a double step of the side that just moved",
                    fields[3]
                ));
            }
            p.set_ep(sq as u8);
        }
        if p.king_attacked(p.turn as usize ^ 1) {
            return Err("the side not to move is in check".into());
        }
        debug_assert_eq!(p.hash, p.hash_from_scratch());
        Ok(p)
    }

    /// Counters that fire within `SOON` of their owner's moves, for `d` and `status`.
    pub(super) fn soon(&self) -> [String; 3] {
        let mut out = [String::new(), String::new(), String::new()];
        self.each_soon(|i, sq, left| {
            if !out[i].is_empty() {
                out[i].push(',');
            }
            let _ = write!(out[i], "{}:{}", square_name(sq), left);
        });
        out
    }

    /// Each counter about to fire (within `SOON` turns): which (0 promotion or demotion, 1 the
    /// deputy's treason, 2 defection), its square and the turns left.
    pub(super) fn each_soon(&self, mut each: impl FnMut(usize, usize, u8)) {
        let t = tables();
        let mut add = |i: usize, sq: usize, left: u8| {
            if left <= SOON {
                each(i, sq, left);
            }
        };
        let mut b = self.active() & !self.kind[KING];
        while b != 0 {
            let sq = pop(&mut b);
            let c = self.counters[sq];
            let (owner, _) = self.piece_at(sq).expect("active");
            let m = c[OBEDIENT].max(c[STAGNATION]);
            if m > 0 {
                add(0, sq, BELT_LIMIT - m);
            }
            if c[DEFECTION] > 0 && t.distance[sq][self.king_sq(owner ^ 1)] <= 3 {
                add(2, sq, BELT_LIMIT - c[DEFECTION]);
            }
        }
        for c in 0..2 {
            if let (Some(q), true) = (self.deputy(c), self.treason[c] > 0) {
                add(1, q, TREASON_LIMIT - self.treason[c]);
            }
        }
    }
}

pub(super) const COLOR_NAMES: [&str; 2] = ["white", "black"];

pub(super) fn letter(c: usize, k: usize) -> char {
    let l = LETTERS[k] as char;
    if c == WHITE { l } else { l.to_ascii_lowercase() }
}

pub(super) fn piece_letter(ch: char) -> Option<(usize, usize)> {
    let k = LETTERS.iter().position(|&l| l as char == ch.to_ascii_uppercase())?;
    Some((if ch.is_ascii_uppercase() { WHITE } else { BLACK }, k))
}

/// One `<square>:<rest>` entry of the passive or counter field, which must come in square order
/// a1, b1, ..., h8 after the entry before it (`prev`).
pub(super) fn square_entry<'a>(
    entry: &'a str,
    what: &str,
    prev: &mut Option<usize>,
) -> Result<(usize, &'a str), String> {
    let (sq, rest) = entry.split_once(':').ok_or_else(|| format!("{} entry '{}' is not <square>:...", what, entry))?;
    let sq = parse_square(sq).ok_or_else(|| format!("{} entry '{}': bad square", what, entry))?;
    if prev.is_some_and(|p| p >= sq) {
        return Err(format!("{} entries must be in square order a1, b1, ..., h8 ('{}')", what, entry));
    }
    *prev = Some(sq);
    Ok((sq, rest))
}

pub(super) fn parse_number(s: &str, what: &str, min: u32, max: u32) -> Result<u32, String> {
    crate::rules::text::number(s, what, min.into(), max.into()).map(|v| v as u32)
}

impl Notation for Dojo {
    fn from_text(text: &str) -> Result<Self, PositionError> {
        Self::parse(text).map_err(PositionError)
    }

    fn to_text(&self) -> String {
        let mut s = String::new();
        write_board_8x8(&mut s, |sq, out| {
            if let Some((c, k)) = self.piece_at(sq) {
                out.push(letter(c, k));
            }
        });
        s.push_str(if self.turn as usize == WHITE { " w " } else { " b " });
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, ch) in [(CASTLE_WK, 'K'), (CASTLE_WQ, 'Q'), (CASTLE_BK, 'k'), (CASTLE_BQ, 'q')] {
            if self.castling & bit != 0 {
                s.push(ch);
            }
        }
        let ep = if self.ep == NO_SQUARE { "-".to_string() } else { square_name(self.ep as usize) };
        let _ = write!(s, " {} {} {} ", ep, self.halfmove, self.fullmove);
        let mut entries = Vec::new();
        let mut b = self.passive;
        while b != 0 {
            let sq = pop(&mut b);
            let letters: String = self.stack_at(sq).into_iter().map(|(c, k)| letter(c, k)).collect();
            entries.push(format!("{}:{}", square_name(sq), letters));
        }
        s.push_str(&if entries.is_empty() { "-".to_string() } else { entries.join("/") });
        s.push(' ');
        let mut entries = Vec::new();
        for sq in 0..64 {
            let c = self.counters[sq];
            if c != [0; 3] {
                entries.push(format!("{}:{}.{}.{}", square_name(sq), c[0], c[1], c[2]));
            }
        }
        for (c, l) in [(WHITE, 'W'), (BLACK, 'b')] {
            if self.treason[c] != 0 {
                entries.push(format!("{}{}", l, self.treason[c]));
            }
        }
        s.push_str(&if entries.is_empty() { "-".to_string() } else { entries.join("/") });
        s
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let [p, t, d] = self.soon();
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        vec![
            ("promotion", dash(p)),
            ("treason", dash(t)),
            ("defection", dash(d)),
            ("halfmove", self.halfmove.to_string()),
        ]
    }

    fn move_number(&self) -> u64 {
        self.fullmove.into()
    }
}
