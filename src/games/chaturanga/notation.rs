//! Chaturanga texts: position strings, move texts, and the notes of `d`.

use super::*;
use crate::rules::Notation;
use crate::rules::PositionError;
use crate::rules::text::{self, number, read_board_8x8, write_board_8x8};
use std::fmt::Write as _;

pub const START: &str = "bSbP2rKrRrNrS/bNbP2rPrPrPrP/bRbP6/bKbP6/6gPgK/6gPgR/yPyPyPyP2gPgN/ySyNyRyK2gPgS y - 0 1";

pub fn square_name(sq: usize) -> String {
    crate::board::geometry::square_name(8, sq)
}

pub(super) fn format_move(m: Move) -> String {
    if m == PASS {
        return "pass".into();
    }
    let mut s = square_name(m.from());
    s.push_str(&square_name(m.to()));
    if let Some(k) = m.promotion() {
        s.push(KIND_LETTERS[k].to_ascii_lowercase() as char);
    }
    s
}

impl<const FFA: bool> Chaturanga<FFA> {
    pub(super) fn parse(text: &str) -> Result<Self, String> {
        let fields = text::fields(
            text,
            5,
            5,
            "position needs 5 fields (board, army to move, armies out, quiet turns, turn number)",
        )?;
        let mut p = Self::empty();
        read_board_8x8(
            fields[0],
            |c| {
                let l = c.next().unwrap_or(' ');
                let a = ARMY_LETTERS
                    .iter()
                    .position(|&x| x as char == l)
                    .ok_or_else(|| format!("'{}' is not an army (y b r g)", l))?;
                let kc = c.next().ok_or_else(|| format!("army '{}' without a piece", l))?;
                let k = KIND_LETTERS
                    .iter()
                    .position(|&x| x as char == kc)
                    .ok_or_else(|| format!("'{}' is not a piece (K R N S P)", kc))?;
                Ok((a, k))
            },
            |(a, k), sq| {
                p.put(a, k, sq);
                Ok(())
            },
        )?;
        p.turn = match fields[1] {
            "y" => YELLOW,
            "b" => BLACK,
            "r" => RED,
            "g" => GREEN,
            s => return Err(format!("army to move '{}' is not y, b, r or g", s)),
        };
        if fields[2] != "-" {
            if !FFA {
                return Err("armies out: only all against all has them; Double Mate needs '-'".into());
            }
            for c in fields[2].chars() {
                let a = ARMY_LETTERS
                    .iter()
                    .position(|&l| l as char == c)
                    .ok_or_else(|| format!("armies out: '{}' is not an army", c))?;
                if p.out & (1 << a) != 0 {
                    return Err(format!("armies out: '{}' twice", c));
                }
                p.go_out(a);
            }
        }
        for a in 0..4 {
            let kings = (p.army[a] & p.kind[KING]).count_ones();
            let l = ARMY_LETTERS[a] as char;
            if p.out & (1 << a) != 0 {
                if kings != 0 {
                    return Err(format!("army {} is out but has a king", l));
                }
            } else if kings != 1 {
                return Err(format!("army {} needs exactly one king, has {}", l, kings));
            }
            if p.army[a] & p.kind[PAWN] & tables().last[a] != 0 {
                return Err(format!("army {} has a pawn on its promotion edge", l));
            }
        }
        if p.out & (1 << p.turn) != 0 {
            return Err("the army to move is out".into());
        }
        if p.out.count_ones() > 3 {
            return Err("at least one army must be in".into());
        }
        p.quiet = number(fields[3], "quiet turns", 0, QUIET_LIMIT.into())? as _;
        p.number = number(fields[4], "turn number", 1, u64::MAX)?;
        p.hash ^= tables().z_turn[p.turn as usize];
        p.over = p.compute_over();
        Ok(p)
    }
}

impl<const FFA: bool> Notation for Chaturanga<FFA> {
    fn from_text(text: &str) -> Result<Self, PositionError> {
        Self::parse(text).map_err(PositionError)
    }

    fn to_text(&self) -> String {
        let mut s = String::new();
        write_board_8x8(&mut s, |sq, out| {
            if let Some((a, k)) = self.piece_at(sq) {
                out.push(ARMY_LETTERS[a as usize] as char);
                out.push(KIND_LETTERS[k] as char);
            }
        });
        let out: String =
            self.out_order[..self.n_out as usize].iter().map(|&a| ARMY_LETTERS[a as usize] as char).collect();
        let _ = write!(
            s,
            " {} {} {} {}",
            ARMY_LETTERS[self.turn as usize] as char,
            if out.is_empty() { "-" } else { &out },
            self.quiet,
            self.number
        );
        s
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let mut mated = String::new();
        let mut lone = String::new();
        for a in 0..4 {
            match self.army_state(a) {
                ArmyState::Mated => mated.push(ARMY_LETTERS[a] as char),
                ArmyState::LoneKing => lone.push(ARMY_LETTERS[a] as char),
                _ => {}
            }
        }
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        let mut notes = Vec::new();
        if !FFA {
            notes.push(("mated", dash(mated)));
            notes.push(("lone", dash(lone)));
        } else {
            let out: String =
                self.out_order[..self.n_out as usize].iter().map(|&a| ARMY_LETTERS[a as usize] as char).collect();
            notes.push(("out", dash(out)));
        }
        notes.push(("quiet", self.quiet.to_string()));
        notes
    }

    fn move_number(&self) -> u64 {
        self.number
    }
}
