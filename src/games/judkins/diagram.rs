//! Judkins as a picture: shogi's wedges on one board, gote's pointing down, and both hands.

use super::*;
use crate::rules::diagram::{Cell, Diagram, Draw, Gesture, Man, Origin, RankLabels, SeatView, Style, TextGrid};

/// The promoted kinds as shogi writes them in Latin letters: `+P` is a tokin, `+B` a horse.
fn label(pt: u8) -> String {
    let base = LETTERS[UNPROMOTED[pt as usize] as usize] as char;
    if pt >= TOKIN { format!("+{}", base) } else { base.to_string() }
}

impl Draw for Judkins {
    const KINDS: &'static [&'static str] = &["P", "S", "G", "N", "B", "R", "K", "+P", "+S", "+N", "+B", "+R"];
    const TEXT: TextGrid = TextGrid {
        square_width: 2,
        stacks: false,
        file_label_at: 1,
        files_above: true,
        ranks: RankLabels::Right,
        hands: true,
        key: None,
    };

    fn diagram(&self) -> Diagram {
        let cells = (0..SQUARES)
            .map(|sq| Cell {
                square: square_name(sq),
                man: self.piece_at(sq).map(|(color, pt)| {
                    let l = label(pt);
                    let token = if color == SENTE { l.clone() } else { l.to_ascii_lowercase() };
                    Man { promoted: pt >= TOKIN, ..Man::new(Seat(color), token, l, pt == KING) }
                }),
                ..Cell::default()
            })
            .collect();
        let checked = self.checked_seats();
        let seat = |color: u8, name: &'static str| SeatView {
            letter: if color == SENTE { 'b' } else { 'w' },
            name,
            fill: "#f3d9a4",
            ink: "#1b1b1b",
            tint: "",
            hand: Some(
                [ROOK, BISHOP, GOLD, SILVER, KNIGHT, PAWN]
                    .iter()
                    .filter(|&&pt| self.hand[color as usize][pt as usize] > 0)
                    .map(|&pt| ((LETTERS[pt as usize] as char).to_string(), self.hand[color as usize][pt as usize]))
                    .collect(),
            ),
            standing: if checked.contains(Seat(color)) { vec!["in check".into()] } else { Vec::new() },
            view: if color == SENTE { 0 } else { 2 },
        };
        Diagram {
            style: Style::Shogi,
            files: FILES,
            ranks: RANKS,
            file_labels: (1..=FILES).rev().map(|f| f.to_string()).collect(),
            rank_labels: (0..RANKS).map(|r| ((b'a' + r as u8) as char).to_string()).collect(),
            cells,
            seats: vec![seat(SENTE, "sente"), seat(GOTE, "gote")],
            to_move: Seat(self.side),
            checked,
            facts: Vec::new(),
            legend: Vec::new(),
        }
    }

    fn gesture(&self, mv: Move) -> Gesture {
        let to = vec![square_name(mv.to())];
        if mv.is_drop() {
            let kind = (LETTERS[mv.drop_type() as usize] as char).to_string();
            return Gesture {
                from: Some(Origin::Hand { seat: Seat(self.side), kind }),
                to,
                marks: Vec::new(),
                words: String::new(),
            };
        }
        // A move that may promote has a twin that does not, and each says which it is.
        let twin = Move::normal(mv.from(), mv.to(), !mv.is_promotion());
        let mut legal = crate::rules::MovesOf::<Judkins>::default();
        self.legal_moves(&mut legal);
        let words = match (mv.is_promotion(), legal.iter().any(|&m| m == twin)) {
            (true, _) => "promotes",
            (false, true) => "does not promote",
            (false, false) => "",
        };
        Gesture { from: Some(Origin::Square(square_name(mv.from()))), to, marks: Vec::new(), words: words.into() }
    }
}
