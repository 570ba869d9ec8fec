//! The game on the page: `crate::live`'s game object as the page sees it, its positions drawn by
//! `view`'s SVG code and its legal moves with the gestures that enter them (`Draw::gesture`).

use super::api::{Frame, FrameOutcome, From, LastMove, LegalMove, SeatInfo};
use crate::live::Live;
use crate::rules::Outcome;
use crate::rules::diagram::{Diagram, Origin, Style, and_list};
use crate::view::svg;

/// What the page shows of a game.
pub trait Shown {
    /// Each seat's view: the quarter turns that put its side at the bottom.
    fn views(&self) -> Vec<u8>;
    /// The seats as the page lists them: letter, name, colour and view.
    fn seats(&self) -> Vec<SeatInfo>;
    /// What the page shows of the position after `ply` moves: its picture (turned `turns`),
    /// position string, turn, checks, outcome and hints. Without `squares`, the picture leaves
    /// out the board under the pieces, which a page already showing the game has.
    fn frame(&self, ply: usize, turns: u8, squares: bool) -> Result<Frame, String>;
    /// The legal moves now, each with its gesture.
    fn choices(&self) -> Vec<LegalMove>;
    /// The picture after one legal move from now, for the chooser.
    fn preview(&self, text: &str, turns: u8) -> Result<Frame, String>;
    /// How the game now ended by the rules, in people's words ("won by gote: checkmate").
    fn outcome_words(&self) -> Option<String>;
}

fn from_of(o: &Origin, letters: &str) -> From {
    match o {
        Origin::Square(s) => From::Square { square: s.clone() },
        Origin::Hand { seat, kind } => From::Hand {
            seat: letters.chars().nth(seat.index()).map(String::from).unwrap_or_default(),
            kind: kind.clone(),
        },
    }
}

/// An outcome in people's words, with the seats' names.
fn outcome_words(d: &Diagram, o: &Outcome) -> String {
    if o.is_draw() {
        return format!("drawn: {}", o.reason.as_str());
    }
    let names: Vec<&str> = o.winners.seats().filter_map(|s| d.seats.get(s.index()).map(|v| v.name)).collect();
    format!("won by {}: {}", and_list(&names), o.reason.as_str())
}

/// The squares a seat's Realm covers, as its corners: `a1-f4`.
fn realm_corners(d: &Diagram, seat: usize) -> Option<String> {
    let cells: Vec<usize> =
        (0..d.cells.len()).filter(|&i| d.cells[i].realm.is_some_and(|s| s.index() == seat)).collect();
    let row = |i: &usize| i / d.files;
    let col = |i: &usize| i % d.files;
    let (top, bottom) = (cells.iter().map(row).min()?, cells.iter().map(row).max()?);
    let (left, right) = (cells.iter().map(col).min()?, cells.iter().map(col).max()?);
    let at = |r: usize, c: usize| d.cells.get(r * d.files + c).map(|c| c.square.clone());
    // From the corner nearest a1 to the one farthest from it, as a player names a rectangle.
    Some(format!("{}-{}", at(bottom, left)?, at(top, right)?))
}

/// What a person needs told about the position now, in words: the Assembly's task and where
/// it happens, the piece that stays in hand, the allies who move one's pieces.
fn hints(d: &Diagram, over: bool) -> Vec<String> {
    let mut out = Vec::new();
    if over {
        return out;
    }
    let fact = |key: &str| d.facts.iter().find(|f| f.key == key).map(|f| f.value.as_str());
    let mover = &d.seats[d.to_move.index()];
    match fact("phase") {
        Some("assembly") => {
            let realm = realm_corners(d, d.to_move.index()).unwrap_or_default();
            out.push(format!(
                "Assembly: {} places one piece from the hand on an empty square of the {} Realm ({}, tinted); nothing \
                 moves until all 48 pieces stand. A King may not be placed where it is attacked.",
                mover.name, mover.name, realm
            ));
            // Once one of the pair stands, the other can no longer be placed.
            let has = |k: &str| mover.hand.as_ref().is_some_and(|h| h.iter().any(|(kind, n)| kind == k && *n > 0));
            if has("C") != has("S") {
                let kept = if has("S") { "Princess (S)" } else { "Prince (C)" };
                out.push(format!(
                    "The {} stays in {}'s hand: each player places only one of Prince and Princess, and the one \
                     left is what a checkmate of {} turns a pawn into.",
                    kept, mover.name, mover.name
                ));
            }
            if fact("obligation").is_some_and(|v| v != "-") {
                out.push(
                    "A placement gave check: the player in check must answer it with the next placement (T6), \
                     so only such placements are offered."
                        .into(),
                );
            }
        }
        Some(_) => {
            let kept: Vec<String> = d
                .seats
                .iter()
                .filter_map(|s| {
                    let hand = s.hand.as_ref()?;
                    let kinds: Vec<&str> = hand
                        .iter()
                        .filter(|(_, n)| *n > 0)
                        .map(|(k, _)| match k.as_str() {
                            "S" => "Princess",
                            "C" => "Prince",
                            other => other,
                        })
                        .collect();
                    (!kinds.is_empty()).then(|| format!("{}'s {}", s.name, kinds.join(" and ")))
                })
                .collect();
            if !kept.is_empty() {
                out.push(format!(
                    "In hand: {}. Each player places only one of Prince and Princess; the other stays in hand, \
                     and the player who checkmates you turns one of your pawns into it.",
                    and_list(&kept.iter().map(String::as_str).collect::<Vec<_>>())
                ));
            }
            // `w:wr,r:r,...`: a seat that moves more than its own pieces has allies.
            let allied = |v: &str| v.split(',').any(|e| e.split_once(':').is_some_and(|(_, seats)| seats.len() > 1));
            if let Some(f) = d.facts.iter().find(|f| f.key == "moves" && allied(&f.value)) {
                out.push(format!("Allies move each other's pieces: {}.", f.words));
            }
        }
        None => {}
    }
    out
}

/// What the page shows of one position: the board (turned) and the panel of seats, hands and
/// facts; and, for a page that already shows this game's board, what stands on it and the
/// pieces' drawings alone, so that the squares need not be drawn again.
fn describe(game: &dyn Live, before: Option<&Diagram>, turns: u8, squares: bool) -> Frame {
    let d = game.diagram();
    let marks = before.map(|b| crate::view::changed(b, &d)).unwrap_or_default();
    let lay = svg::layout_turned([&d], turns);
    let defs = svg::defs([&d], &lay);
    let outcome = game.outcome();
    Frame {
        svg: squares.then(|| svg::board_svg(&d, &marks, turns)),
        panel: svg::panel_svg(&d, outcome.is_some()),
        men: svg::men(&d, &lay, &marks),
        defs: defs.trim_start_matches("<defs>").trim_end_matches("</defs>").to_string(),
        position: game.position(),
        turn: game.letter(game.to_move()).to_string(),
        checks: game.letters(game.checked_seats()),
        outcome: outcome.map(|o| FrameOutcome {
            winners: game.letters(o.winners).replace('-', ""),
            reason: o.reason.as_str(),
            draw: o.is_draw(),
            words: outcome_words(&d, &o),
        }),
        last: None,
        hints: hints(&d, outcome.is_some()),
    }
}

impl Shown for dyn Live + '_ {
    fn views(&self) -> Vec<u8> {
        self.diagram().seats.iter().map(|s| s.view).collect()
    }

    fn seats(&self) -> Vec<SeatInfo> {
        let d = self.diagram();
        d.seats
            .iter()
            .map(|s| SeatInfo {
                letter: s.letter.to_string(),
                name: s.name,
                fill: s.fill,
                view: s.view,
                symbol: (d.style == Style::Shogi).then_some(if s.view == 0 { "\u{2617}" } else { "\u{2616}" }),
            })
            .collect()
    }

    fn frame(&self, ply: usize, turns: u8, squares: bool) -> Result<Frame, String> {
        let now = self.at(ply)?;
        // The position before the last move gives the marks and the seat that moved.
        let Some(last) = ply.checked_sub(1) else {
            return Ok(describe(now.as_ref(), None, turns, squares));
        };
        let prev = self.at(last)?;
        let mut f = describe(now.as_ref(), Some(&prev.diagram()), turns, squares);
        f.last = Some(LastMove { seat: prev.letter(prev.to_move()).to_string(), text: self.moves()[last].clone() });
        Ok(f)
    }

    fn choices(&self) -> Vec<LegalMove> {
        let letters = self.variant().seats;
        self.gestures()
            .into_iter()
            .map(|(text, g)| LegalMove {
                text,
                from: g.from.as_ref().map(|o| from_of(o, letters)),
                to: g.to,
                marks: g.marks,
                words: g.words,
            })
            .collect()
    }

    fn preview(&self, text: &str, turns: u8) -> Result<Frame, String> {
        let mut after = self.boxed();
        after.push(text)?;
        Ok(describe(after.as_ref(), Some(&self.diagram()), turns, true))
    }

    fn outcome_words(&self) -> Option<String> {
        let o = self.outcome()?;
        Some(outcome_words(&self.diagram(), &o))
    }
}
