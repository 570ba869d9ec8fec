//! Four-handed Chaturanga as a picture: four armies in four colours, the armies that are out
//! (their pieces stay, inert), mated armies and lone kings.

use super::*;
use crate::board::geometry::picture_cell;
use crate::rules::Notation;
use crate::rules::diagram::{
    Cell, Diagram, Draw, Fact, Gesture, Man, Origin, SeatView, Style, TextGrid, and_list, chess_labels,
};

const NAMES: [&str; 4] = ["Yellow", "Black", "Red", "Green"];
const FILLS: [&str; 4] = ["#f5c518", "#2b2b2b", "#d63a2f", "#2f9e44"];
const INKS: [&str; 4] = ["#1b1b1b", "#f5f5f5", "#ffffff", "#ffffff"];
const KINDS: [u8; 5] = *b"KRNSP";

fn names(armies: &str) -> String {
    let v: Vec<&str> =
        armies.bytes().filter_map(|l| ARMY_LETTERS.iter().position(|&a| a == l)).map(|a| NAMES[a]).collect();
    if v.is_empty() { "none".into() } else { and_list(&v) }
}

impl<const FFA: bool> Draw for Chaturanga<FFA> {
    const KINDS: &'static [&'static str] = &["K", "R", "N", "S", "P"];
    const TEXT: TextGrid = TextGrid::CHESS;

    fn diagram(&self) -> Diagram {
        let states: Vec<ArmyState> = (0..4).map(|a| self.army_state(a)).collect();
        let cells = (0..64)
            .map(|i| {
                let sq = picture_cell(8, 8, i);
                Cell {
                    square: square_name(sq),
                    man: self.piece_at(sq).map(|(a, k)| {
                        let token = format!("{}{}", ARMY_LETTERS[a as usize] as char, KINDS[k] as char);
                        let man = Man::new(Seat(a), token, (KINDS[k] as char).to_string(), k == KING);
                        Man { inert: states[a as usize] == ArmyState::Out, ..man }
                    }),
                    ..Cell::default()
                }
            })
            .collect();
        let checked = self.checked_seats();
        let seats = (0..4)
            .map(|a| {
                let mut standing = Vec::new();
                match states[a] {
                    ArmyState::Out => standing.push("out".to_string()),
                    ArmyState::Mated => standing.push("mated".to_string()),
                    ArmyState::LoneKing => standing.push("lone king".to_string()),
                    ArmyState::Playing => {}
                }
                if checked.contains(Seat(a as u8)) && states[a] != ArmyState::Mated {
                    standing.push("in check".into());
                }
                SeatView {
                    letter: ARMY_LETTERS[a] as char,
                    name: NAMES[a],
                    fill: FILLS[a],
                    ink: INKS[a],
                    tint: "",
                    hand: None,
                    standing,
                    // Yellow sits at the bottom, Black on the left, Red at the top, Green on the
                    // right.
                    view: [0, 3, 2, 1][a],
                }
            })
            .collect();
        let mut facts = Vec::new();
        if !FFA {
            facts.push(Fact {
                key: "sides".into(),
                value: "yr,bg".into(),
                words: "Yellow and Red against Black and Green".into(),
            });
        }
        for (key, value) in self.notes() {
            let words = match key {
                "mated" => format!("mated: {}", names(&value)),
                "lone" => format!("lone kings: {}", names(&value)),
                "out" => format!("out, in the order they went out: {}", names(&value)),
                "quiet" => format!("{} army turns without capture or pawn move", value),
                _ => format!("{} {}", key, value),
            };
            facts.push(Fact { key: key.into(), value, words });
        }
        let (file_labels, rank_labels) = chess_labels(8, 8);
        Diagram {
            style: Style::Plain,
            files: 8,
            ranks: 8,
            file_labels,
            rank_labels,
            cells,
            seats,
            to_move: Seat(self.turn),
            checked,
            facts,
            legend: Vec::new(),
        }
    }

    fn gesture(&self, mv: Move) -> Gesture {
        if mv == PASS {
            return Gesture { from: None, to: Vec::new(), marks: Vec::new(), words: String::new() };
        }
        let words = match mv.promotion() {
            Some(ROOK) => "promotes to a rook",
            Some(KNIGHT) => "promotes to a knight",
            Some(_) => "promotes to a ship",
            None => "",
        };
        Gesture {
            from: Some(Origin::Square(square_name(mv.from()))),
            to: vec![square_name(mv.to())],
            marks: Vec::new(),
            words: words.into(),
        }
    }
}
