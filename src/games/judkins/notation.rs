//! Judkins texts: SFEN positions and USI move texts.

use super::*;
use crate::rules::PositionError;
use crate::rules::text::{self, read_board, write_board};
use crate::rules::{Notation, UciDialect};
use std::fmt::Write as _;

pub const START_SFEN: &str = "rbnsgk/5p/6/6/P5/KGSNBR b - 1";

pub fn square_name(sq: usize) -> String {
    let col = sq % FILES;
    let row = sq / FILES;
    format!("{}{}", FILES - col, (b'a' + row as u8) as char)
}

pub(super) fn format_move(m: Move) -> String {
    if m.is_drop() {
        format!("{}*{}", LETTERS[m.drop_type() as usize] as char, square_name(m.to()))
    } else {
        format!("{}{}{}", square_name(m.from()), square_name(m.to()), if m.is_promotion() { "+" } else { "" })
    }
}

impl Judkins {
    /// Parses an SFEN position: board, side, hand and an optional move number.
    pub(super) fn parse_sfen(text: &str) -> Result<Judkins, String> {
        let fields = text::fields(text, 3, 4, "SFEN needs 3 or 4 fields (board, side, hand, move number)")?;
        let mut pos = Judkins::empty();
        let mut counts = [0u8; 7];
        let mut kings = [0u8; 2];
        read_board(
            fields[0],
            FILES,
            RANKS,
            |row| ((b'a' + row as u8) as char).to_string(),
            |c| {
                let mut ch = c.next().unwrap_or(' ');
                let promoted = ch == '+';
                if promoted {
                    ch = c.next().filter(char::is_ascii_alphabetic).ok_or("'+' must precede a piece letter")?;
                }
                let color = if ch.is_ascii_uppercase() { SENTE } else { GOTE };
                let base = LETTERS[..7]
                    .iter()
                    .position(|&l| l as char == ch.to_ascii_uppercase())
                    .ok_or_else(|| format!("unknown piece letter '{}'", ch))? as u8;
                if promoted && !CAN_PROMOTE[base as usize] {
                    return Err(format!("piece '{}' cannot be promoted", ch));
                }
                Ok((color, base, if promoted { PROMOTED[base as usize] } else { base }))
            },
            |(color, base, pt), row, col| {
                let sq = row * FILES + col;
                if pt == KING {
                    kings[color as usize] += 1;
                    pos.king[color as usize] = sq as u8;
                }
                counts[base as usize] += 1;
                pos.put(color, pt, sq);
                Ok(())
            },
        )
        .map_err(|e| format!("SFEN {}", e))?;
        if kings != [1, 1] {
            return Err("SFEN needs exactly one king of each side".into());
        }
        pos.side = match fields[1] {
            "b" => SENTE,
            "w" => GOTE,
            s => return Err(format!("SFEN side to move must be 'b' or 'w', got '{}'", s)),
        };
        if fields[2] != "-" {
            let mut seen = [[false; HAND_KINDS]; 2];
            let mut n: Option<u32> = None;
            for ch in fields[2].chars() {
                if let Some(d) = ch.to_digit(10) {
                    if n.is_none() && d == 0 {
                        return Err("SFEN hand count with a leading zero".into());
                    }
                    let v = n.unwrap_or(0) * 10 + d;
                    if v > 99 {
                        return Err("SFEN hand count too large".into());
                    }
                    n = Some(v);
                    continue;
                }
                let color = if ch.is_ascii_uppercase() { SENTE } else { GOTE };
                let pt = LETTERS[..HAND_KINDS]
                    .iter()
                    .position(|&l| l as char == ch.to_ascii_uppercase())
                    .ok_or_else(|| format!("SFEN hand has bad piece '{}'", ch))?;
                let count = n.take().unwrap_or(1);
                if count < 1 {
                    return Err("SFEN hand count must be at least 1".into());
                }
                if seen[color as usize][pt] {
                    return Err(format!("SFEN hand names '{}' twice", ch));
                }
                seen[color as usize][pt] = true;
                if count > 2 {
                    return Err(format!("SFEN hand has {} of '{}'; only 2 exist", count, ch));
                }
                counts[pt] += count as u8;
                for _ in 0..count {
                    let have = pos.hand[color as usize][pt] as usize;
                    pos.hand[color as usize][pt] += 1;
                    pos.hash ^= tables().zobrist_hand[color as usize][pt][have];
                }
            }
            if n.is_some() {
                return Err("SFEN hand ends with a number".into());
            }
        }
        for (pt, &c) in counts.iter().enumerate() {
            if c > 2 {
                return Err(format!("SFEN has {} pieces of kind '{}'; only 2 exist", c, LETTERS[pt] as char));
            }
        }
        if fields.len() == 4 {
            pos.move_number = crate::rules::text::decimal(fields[3])
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("SFEN move number must be a positive integer, got '{}'", fields[3]))?;
        }
        if pos.side == GOTE {
            pos.hash ^= tables().zobrist_gote;
        }
        let t = tables();
        for color in 0..2u8 {
            let c = color as usize;
            let mine = pos.by_color[c];
            if mine & pos.by_type[PAWN as usize] & t.last_rank[c] != 0
                || mine & pos.by_type[KNIGHT as usize] & t.last_two[c] != 0
            {
                return Err("SFEN has a pawn or knight on a square it can never leave".into());
            }
            for f in 0..FILES {
                if (mine & pos.by_type[PAWN as usize] & t.file_mask[f]).count_ones() > 1 {
                    return Err("SFEN has two unpromoted pawns of one side on a file (nifu)".into());
                }
            }
        }
        let waiting = pos.side ^ 1;
        if pos.attackers(t, pos.side, pos.king[waiting as usize] as usize, pos.occupied()) != 0 {
            return Err("SFEN: the side not to move is in check".into());
        }
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }
}

impl Judkins {}

impl Notation for Judkins {
    fn from_text(text: &str) -> Result<Self, PositionError> {
        Self::parse_sfen(text).map_err(PositionError)
    }

    const UCI: UciDialect = super::uci::DIALECT;

    fn to_text(&self) -> String {
        let mut s = String::with_capacity(48);
        write_board(&mut s, FILES, RANKS, |row, col, out| {
            let c = self.board[row * FILES + col];
            if c != 0 {
                let pt = cell_type(c);
                if pt >= TOKIN {
                    out.push('+');
                }
                let l = LETTERS[pt as usize] as char;
                out.push(if cell_color(c) == SENTE { l } else { l.to_ascii_lowercase() });
            }
        });
        s.push_str(if self.side == SENTE { " b " } else { " w " });
        let mut hand = String::new();
        for color in 0..2 {
            // USI order: rook, bishop, gold, silver, knight, pawn.
            for pt in [ROOK, BISHOP, GOLD, SILVER, KNIGHT, PAWN] {
                let n = self.hand[color][pt as usize];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    let _ = write!(hand, "{}", n);
                }
                let l = LETTERS[pt as usize] as char;
                hand.push(if color == 0 { l } else { l.to_ascii_lowercase() });
            }
        }
        s.push_str(if hand.is_empty() { "-" } else { &hand });
        let _ = write!(s, " {}", self.move_number);
        s
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn move_number(&self) -> u64 {
        self.move_number
    }
}
