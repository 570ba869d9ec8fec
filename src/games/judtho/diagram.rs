//! Judtho as a picture: the four Realms tinted in their owners' colours, the hands while the
//! Assembly lasts (and the Prince or Princess a checkmate will give), the alliances with their
//! ranks and the turn cycle.

use super::notation::square_name;
use super::*;
use crate::board::geometry::{KNIGHT_STEPS, picture_cell};
use crate::rules::MovesOf;
use crate::rules::Notation;
use crate::rules::diagram::{
    Cell, Diagram, Draw, Fact, Gesture, Man, Origin, SeatView, Sight, Style, TextGrid, and_list, chess_labels,
};

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
        "obligation" if value == "-" => "nobody owes an answer to a placement's check".into(),
        "obligation" => format!("must answer a placement's check with the next placement: {}", list(value)),
        "quiet" => format!("{} quiet turns (no capture, pawn move, promotion or checkmate); 200 is a draw", value),
        _ => format!("{} {}", key, value),
    }
}

impl Draw for Judtho {
    const KINDS: &'static [&'static str] = &["K", "Q", "C", "S", "R", "N", "B", "P"];
    // The hands are among the notes (`hands`), not under the board.
    const TEXT: TextGrid =
        TextGrid { key: Some("(. marks a Realm's empty square; ranks 5-8 are the Neutral Realm)"), ..TextGrid::CHESS };

    fn diagram(&self) -> Diagram {
        let t = tables();
        let cells = (0..SQUARES)
            .map(|i| {
                let sq = picture_cell(12, 12, i);
                Cell {
                    square: square_name(sq),
                    realm: (0..4u8).find(|&s| t.realm[s as usize].has(sq)).map(Seat),
                    man: self.piece_at(sq).map(|(seat, kind)| {
                        let letter = KIND_LETTERS[kind as usize] as char;
                        let token = [SEAT_LETTERS[seat as usize] as char, letter].iter().collect();
                        Man::new(Seat(seat), token, letter.to_string(), kind == KING)
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
                if checked.contains(Seat(s)) {
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
                    // White and Yellow hold the lower corners, Red and Black the upper ones.
                    view: if s == W || s == Y { 0 } else { 2 },
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
            to_move: Seat(self.to_move_seat()),
            checked,
            facts,
            legend: vec![("#ffffff", "K King, Q Queen, C Prince, S Princess, R Rook, N Knight, B Bishop, P Pawn")],
        }
    }

    // The diagram's pieces, hands and cycle, read off the board (an agent's every step asks);
    // no standing of Judtho's is `out` or `mated`: a mated king leaves the board.
    fn sight(&self) -> Sight {
        let mut men = Vec::with_capacity(48);
        for seat in 0..4u8 {
            for sq in self.board.by_seat[seat as usize].iter() {
                if let Some((_, kind)) = self.piece_at(sq) {
                    men.push((picture_cell(12, 12, sq), Seat(seat), kind as usize));
                }
            }
        }
        let mut hands = Vec::new();
        for seat in 0..4u8 {
            for (kind, &count) in self.hand[seat as usize].iter().enumerate() {
                if count > 0 {
                    hands.push((Seat(seat), kind, count));
                }
            }
        }
        Sight {
            men,
            hands: Some(hands),
            cycle: Some(self.cycle().iter().map(|&s| Seat(s)).collect()),
            ..Sight::default()
        }
    }

    fn gesture(&self, mv: Move) -> Gesture {
        let mut g = match mv.kind() {
            PASS_TYPE => Gesture { from: None, to: Vec::new(), marks: Vec::new(), words: String::new() },
            PLACE => Gesture {
                from: Some(Origin::Hand {
                    seat: Seat(self.to_move_seat()),
                    kind: (KIND_LETTERS[mv.placed() as usize] as char).to_string(),
                }),
                to: vec![square_name(mv.to())],
                marks: Vec::new(),
                words: String::new(),
            },
            DISTANT => {
                let (f, r) = ((mv.from() % 12) as i32, (mv.from() / 12) as i32);
                let mut taken: Vec<usize> = KNIGHT_STEPS
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mv.leaps() & (1 << i) != 0)
                    .map(|(_, &(df, dr))| ((r + dr) * 12 + f + df) as usize)
                    .collect();
                taken.sort_unstable();
                let names: Vec<String> = taken.iter().map(|&q| square_name(q)).collect();
                Gesture {
                    from: Some(Origin::Square(square_name(mv.from()))),
                    words: format!("stays on {} and takes {}", square_name(mv.from()), names.join(", ")),
                    to: names.clone(),
                    marks: names,
                }
            }
            kind => {
                let mut g = Gesture::step(square_name(mv.from()), square_name(mv.to()));
                if let Some(k) = mv.promotion() {
                    g.words = format!("promotes to a {}", KIND_NAMES[k as usize]);
                } else if kind == JUMP {
                    g.words = format!("jumps and takes {} only", square_name(mv.to()));
                } else if let Some((_, k)) = self.board.at(mv.from())
                    && (k == PRINCE || k == PRINCESS)
                {
                    // A line capture takes every piece on its way; it is told from the jump to
                    // the same square by those.
                    let on_way = self.squares_between(mv.from(), mv.to());
                    let taken: Vec<usize> = on_way.into_iter().filter(|&q| self.board.at(q).is_some()).collect();
                    let jump_too = {
                        let mut legal = MovesOf::<Judtho>::default();
                        self.legal_moves(&mut legal);
                        legal.iter().any(|m| m.kind() == JUMP && m.from() == mv.from() && m.to() == mv.to())
                    };
                    if !taken.is_empty() || jump_too {
                        let mut names: Vec<String> = taken.iter().map(|&q| square_name(q)).collect();
                        if self.board.at(mv.to()).is_some() {
                            names.push(square_name(mv.to()));
                        }
                        g.marks = taken.iter().map(|&q| square_name(q)).collect();
                        g.words = format!(
                            "line capture: takes {}",
                            and_list(&names.iter().map(String::as_str).collect::<Vec<_>>())
                        );
                    }
                }
                g
            }
        };
        let choices: Vec<String> = mv.choices().map(square_name).collect();
        if !choices.is_empty() {
            let said = if choices.len() == 1 {
                format!("promotion on {}", choices[0])
            } else {
                format!("promotions on {}", choices.join(", then "))
            };
            g.words = if g.words.is_empty() { said } else { format!("{}; {}", g.words, said) };
            g.marks.extend(choices);
        }
        g
    }
}

const KIND_NAMES: [&str; 8] = ["king", "queen", "prince", "princess", "rook", "knight", "bishop", "pawn"];

impl Judtho {
    /// The squares strictly between two squares of one line.
    fn squares_between(&self, from: usize, to: usize) -> Vec<usize> {
        let (f0, r0, f1, r1) = ((from % 12) as i32, (from / 12) as i32, (to % 12) as i32, (to / 12) as i32);
        let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
        let mut out = Vec::new();
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (f, r) != (f1, r1) && (0..12).contains(&f) && (0..12).contains(&r) {
            out.push((r * 12 + f) as usize);
            f += df;
            r += dr;
        }
        out
    }
}
