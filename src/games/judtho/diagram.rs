//! Judtho as a picture: the four Realms tinted in their owners' colours, the hands while the
//! Assembly lasts (and the Prince or Princess a checkmate will give), the alliances with their
//! ranks and the turn cycle.

use super::notation::square_name;
use super::*;
use crate::rules::Notation;
use crate::rules::diagram::{Cell, Diagram, Draw, Fact, Man, SeatView, Style, and_list, chess_labels};

const NAMES: [&str; 4] = ["White", "Red", "Yellow", "Black"];
const FILLS: [&str; 4] = ["#fafafa", "#d63a2f", "#f5c518", "#2b2b2b"];
const INKS: [&str; 4] = ["#111111", "#ffffff", "#1b1b1b", "#f5f5f5"];
const TINTS: [&str; 4] = ["#b9c8e0", "#f1a39b", "#f7dc6f", "#8a8a8a"];
const RANKS: [&str; 3] = ["First Ally", "Second Ally", "Third Ally"];

fn seat_names(letters: &str) -> Vec<&'static str> {
    letters.bytes().filter_map(|l| SEAT_LETTERS.iter().position(|&s| s == l)).map(|s| NAMES[s]).collect()
}

/// A note of `d` in words.
fn words(key: &str, value: &str) -> String {
    let list = |v: &str| {
        let n = seat_names(v);
        if n.is_empty() { "none".to_string() } else { and_list(&n) }
    };
    match key {
        "phase" => format!("phase: {}", value),
        "alliances" if value == "-" => "alliances: none yet".into(),
        "alliances" => {
            let each: Vec<String> = value
                .split(',')
                .map(|a| {
                    let members: Vec<String> = a
                        .as_bytes()
                        .chunks(2)
                        .filter_map(|c| {
                            let s = SEAT_LETTERS.iter().position(|&l| l == c[0])?;
                            let r = (c.get(1)? - b'1') as usize;
                            Some(format!("{} ({})", NAMES[s], RANKS.get(r).copied().unwrap_or("?")))
                        })
                        .collect();
                    members.join(" + ")
                })
                .collect();
            format!("alliances: {}", each.join("; "))
        }
        "rivals" if value == "-" => "rivalries: broken".into(),
        "rivals" => "rivalries: White and Yellow, Red and Black".into(),
        "moves" => {
            let each: Vec<String> = value
                .split(',')
                .filter_map(|e| {
                    let (s, seats) = e.split_once(':')?;
                    (seats.len() > 1).then(|| format!("{} moves {}", list(s), list(seats)))
                })
                .collect();
            if each.is_empty() { "each moves only their own pieces".into() } else { each.join("; ") }
        }
        "cycle" => format!("turn cycle: {}", seat_names(value).join(", ")),
        "hands" => format!("hands: {}", value.replace(',', " ")),
        "obligation" if value == "-" => "no Assembly check to answer".into(),
        "obligation" => format!("owes T6's answer to a check: {}", list(value)),
        "quiet" => format!("{} quiet turns (T12: 200 draw)", value),
        _ => format!("{} {}", key, value),
    }
}

impl Draw for Judtho {
    fn diagram(&self) -> Diagram {
        let t = tables();
        let cells = (0..SQUARES)
            .map(|i| {
                let sq = (11 - i / 12) * 12 + i % 12;
                Cell {
                    square: square_name(sq),
                    realm: (0..4u8).find(|&s| t.realm[s as usize].has(sq)),
                    man: self.piece_at(sq).map(|(seat, kind)| Man {
                        seat,
                        token: format!(
                            "{}{}",
                            SEAT_LETTERS[seat as usize] as char, KIND_LETTERS[kind as usize] as char
                        ),
                        label: (KIND_LETTERS[kind as usize] as char).to_string(),
                        promoted: false,
                        king: kind == KING,
                        inert: false,
                        ring: None,
                    }),
                    ..Cell::default()
                }
            })
            .collect();
        let checked = self.checked_seats();
        let rel = &self.rel;
        let seats = (0..4u8)
            .map(|s| {
                let mut standing = Vec::new();
                if let Some(r) = RANKS.get((rel.rank(s) as usize).wrapping_sub(1)) {
                    standing.push(r.to_string());
                }
                if rel.single_facing_triple() == Some(s) {
                    standing.push("single".into());
                }
                if checked & (1 << s) != 0 {
                    standing.push("in check".into());
                }
                if self.pending & (1 << s) != 0 {
                    standing.push("owes T6's answer".into());
                }
                let hand = self.hand[s as usize];
                SeatView {
                    letter: SEAT_LETTERS[s as usize] as char,
                    name: NAMES[s as usize],
                    fill: FILLS[s as usize],
                    ink: INKS[s as usize],
                    tint: TINTS[s as usize],
                    hand: Some(
                        (0..8)
                            .filter(|&k| hand[k] > 0)
                            .map(|k| ((KIND_LETTERS[k] as char).to_string(), hand[k]))
                            .collect(),
                    ),
                    standing,
                }
            })
            .collect();
        let facts = self
            .notes()
            .into_iter()
            .map(|(key, value)| Fact { key: key.into(), words: words(key, &value), value })
            .collect();
        let (file_labels, rank_labels) = chess_labels(12, 12);
        Diagram {
            style: Style::Chess,
            files: 12,
            ranks: 12,
            file_labels,
            rank_labels,
            cells,
            seats,
            to_move: self.to_move_seat(),
            checked,
            facts,
            legend: vec![("#ffffff", "K King, Q Queen, C Prince, S Princess, R Rook, N Knight, B Bishop, P Pawn")],
        }
    }
}
