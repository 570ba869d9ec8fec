//! Dojo as a picture: each active piece in its owner's colour with its belt as a ring, the
//! passive members of each stack in order beneath it, and the counters about to fire.

use super::notation::letter;
use super::*;
use crate::board::geometry::picture_cell;
use crate::rules::MovesOf;
use crate::rules::Notation;
use crate::rules::diagram::{
    Cell, Diagram, Draw, Fact, Gesture, Man, Origin, SeatView, Sight, Style, TextGrid, chess_labels,
};

/// Each belt's colour: yellow, orange, green and purple belts; the deputy and the antisensei.
const BELTS: [&str; 6] = ["#e8c400", "#f08a00", "#2f9e44", "#8e44ad", "#1c7ed6", "#c92a2a"];
const BELT_NAMES: [&str; 6] = ["yellow belt", "orange belt", "green belt", "purple belt", "deputy", "antisensei"];

fn man(c: usize, k: usize) -> Man {
    let label = (b"PNBRQK"[k] as char).to_string();
    Man { ring: Some(BELTS[k]), ..Man::new(Seat(c as u8), letter(c, k).to_string(), label, k == KING) }
}

impl Draw for Dojo {
    const KINDS: &'static [&'static str] = &["P", "N", "B", "R", "Q", "K"];
    // One letter a piece, then its stack.
    const TEXT: TextGrid = TextGrid {
        square_width: 3,
        stacks: true,
        file_label_at: 1,
        key: Some("(*n: passive members on the square)"),
        ..TextGrid::CHESS
    };

    // What the planes read, off the board rather than through the diagram's strings (an
    // agent's every step asks).
    fn sight(&self) -> Sight {
        let cell = |sq| picture_cell(8, 8, sq);
        let mut s = Sight::default();
        let mut b = self.active();
        while b != 0 {
            let sq = crate::board::geometry::pop(&mut b);
            if let Some((c, k)) = self.piece_at(sq) {
                s.men.push((cell(sq), Seat(c as u8), k));
            }
        }
        s.members = self.members().map(|m| (cell(m.square()), Seat(m.color() as u8), m.kind())).collect();
        self.each_soon(|i, sq, left| s.badges.push((cell(sq), i, left as f32)));
        s
    }

    fn diagram(&self) -> Diagram {
        let [promotion, treason, defection] = self.soon();
        let mut cells: Vec<Cell> = (0..64)
            .map(|i| {
                // Row 0 of the picture is rank 8.
                let sq = picture_cell(8, 8, i);
                Cell {
                    square: square_name(sq),
                    man: self.piece_at(sq).map(|(c, k)| man(c, k)),
                    stack: self.stack_at(sq).into_iter().map(|(c, k)| man(c, k)).collect(),
                    ..Cell::default()
                }
            })
            .collect();
        let mut facts = Vec::new();
        for (key, list, mark, what) in [
            ("promotion", &promotion, 'P', "promotes or demotes"),
            ("treason", &treason, 'T', "the deputy's treason fires"),
            ("defection", &defection, 'D', "defects"),
        ] {
            let mut words = Vec::new();
            for entry in list.split(',').filter(|e| !e.is_empty()) {
                let Some((sq, left)) = entry.split_once(':') else { continue };
                if let Some(cell) = cells.iter_mut().find(|c| c.square == sq) {
                    cell.badges.push(format!("{}{}", mark, left));
                }
                words.push(format!("{} in {}", sq, left));
            }
            facts.push(Fact {
                key: key.into(),
                value: if list.is_empty() { "-".into() } else { list.clone() },
                words: if words.is_empty() {
                    format!("{}: none soon", key)
                } else {
                    format!("{} ({}): {}", key, what, words.join(", "))
                },
            });
        }
        let stacks: Vec<String> = (0..64)
            .filter(|&sq| self.passive & (1u64 << sq) != 0)
            .map(|sq| {
                let members: String = self.stack_at(sq).iter().map(|&(c, k)| letter(c, k)).collect();
                format!("{}:{}", square_name(sq), members)
            })
            .collect();
        facts.push(Fact {
            key: "passive".into(),
            value: if stacks.is_empty() { "-".into() } else { stacks.join("/") },
            words: if stacks.is_empty() {
                "passive members: none".into()
            } else {
                format!("passive members, first made passive first: {}", stacks.join(" "))
            },
        });
        for (key, value) in self.notes().into_iter().filter(|(k, _)| *k == "halfmove") {
            facts.push(Fact {
                key: key.into(),
                value: value.clone(),
                words: format!("{} plies without capture or yellow-belt move", value),
            });
        }
        let checked = self.checked_seats();
        let seat = |c: usize| {
            let mut standing = Vec::new();
            if checked.contains(Seat(c as u8)) {
                standing.push("in check".into());
            }
            if let Some(q) = self.deputy(c) {
                standing.push(format!("deputy {}", square_name(q)));
            }
            SeatView {
                letter: if c == WHITE { 'w' } else { 'b' },
                name: if c == WHITE { "White" } else { "Black" },
                fill: if c == WHITE { "#fafafa" } else { "#262626" },
                ink: if c == WHITE { "#111111" } else { "#f5f5f5" },
                tint: "",
                hand: None,
                standing,
                view: if c == WHITE { 0 } else { 2 },
            }
        };
        let (file_labels, rank_labels) = chess_labels(8, 8);
        Diagram {
            style: Style::Chess,
            files: 8,
            ranks: 8,
            file_labels,
            rank_labels,
            cells,
            seats: vec![seat(WHITE), seat(BLACK)],
            to_move: Seat(self.turn),
            checked,
            facts,
            legend: BELTS.iter().copied().zip(BELT_NAMES).collect(),
        }
    }

    fn gesture(&self, mv: Move) -> Gesture {
        let mut marks = Vec::new();
        let mut words = Vec::new();
        match mv.target() {
            Some(t) => {
                marks.push(square_name(t));
                words.push(format!("makes {} passive", square_name(t)));
            }
            None => {
                // D6 may choose no piece: said only where choosing one was possible.
                let mut legal = MovesOf::<Dojo>::default();
                self.legal_moves(&mut legal);
                if legal.iter().any(|m| m.from() == mv.from() && m.to() == mv.to() && m.target().is_some()) {
                    words.push("makes no piece passive".to_string());
                }
            }
        }
        if let Some(a) = mv.appointee() {
            marks.push(square_name(a));
            words.push(format!("appoints {} deputy", square_name(a)));
        }
        Gesture {
            from: Some(Origin::Square(square_name(mv.from()))),
            to: vec![square_name(mv.to())],
            marks,
            words: words.join(", "),
        }
    }
}
