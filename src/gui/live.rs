//! The game on the page, for one variant: its record (the rules library's), its positions drawn
//! by `view`'s SVG code, and its legal moves as the mouse enters them (`Draw::gesture`). The
//! server holds one `Live` behind a trait object; everything under it is generic over the game.

use crate::gui::json::{Json, obj};
use crate::rules::diagram::{Diagram, Origin};
use crate::rules::registry::{self, VariantSpec, Visitor};
use crate::rules::{Game, MoveBuffer, MovesOf, Record, mask_letters, seat_letter};
use crate::view::svg;

/// A game as the page sees it.
pub trait Live: Send {
    fn variant(&self) -> &'static VariantSpec;
    /// The start's position string, when it is not the variant's start.
    fn start(&self) -> Option<&str>;
    fn moves(&self) -> &[String];
    /// The game after `moves` (a move played, or a take-back), from the same start.
    fn set_moves(&mut self, moves: &[String]) -> Result<(), String>;
    /// Each seat's view: the quarter turns that put its side at the bottom.
    fn views(&self) -> Vec<u8>;
    /// The seats as the page lists them: letter, name, colour and view.
    fn seats(&self) -> Json;
    /// What the page shows of the position after `ply` moves: its picture (turned `turns`),
    /// position string, turn, checks and outcome. Without `squares`, the picture leaves out
    /// the board under the pieces, which a page already showing the game has.
    fn frame(&self, ply: usize, turns: u8, squares: bool) -> Result<Json, String>;
    /// The legal moves now, each with its gesture.
    fn legal(&self) -> Json;
    /// The picture after one legal move from now, for the chooser.
    fn preview(&self, text: &str, turns: u8) -> Result<Json, String>;
}

pub struct LiveGame<G: Game> {
    start_text: Option<String>,
    start: G,
    moves: Vec<String>,
    record: Record<G>,
}

/// A new `Live` for `variant` from a start (none: the variant's) and moves, all checked.
pub fn open(variant: &str, start: Option<&str>, moves: &[String]) -> Result<Box<dyn Live>, String> {
    struct Open<'a>(Option<&'a str>, &'a [String]);
    impl Visitor for Open<'_> {
        type Output = Result<Box<dyn Live>, String>;
        fn visit<G: Game>(self) -> Self::Output {
            let start = match self.0 {
                Some(t) => G::from_text(t).map_err(|e| format!("position: {}", e))?,
                None => G::startpos(),
            };
            let start_text = self.0.map(|_| start.to_text()).filter(|t| *t != G::startpos().to_text());
            let mut live = LiveGame { start_text, record: Record::new(start.clone()), start, moves: Vec::new() };
            live.set_moves(self.1)?;
            Ok(Box::new(live))
        }
    }
    registry::visit(variant, Open(start, moves)).map_err(|e| e.to_string())?
}

fn origin_json(o: &Origin, letters: &str) -> Json {
    match o {
        Origin::Square(s) => obj([("square", s.as_str().into())]),
        Origin::Hand { seat, kind } => {
            obj([("seat", letters.chars().nth(seat.index()).map(String::from).into()), ("kind", kind.as_str().into())])
        }
    }
}

impl<G: Game> LiveGame<G> {
    fn record_at(&self, ply: usize) -> Result<Record<G>, String> {
        if ply > self.moves.len() {
            return Err(format!("ply {} is past the game's {} moves", ply, self.moves.len()));
        }
        if ply == self.moves.len() {
            return Ok(self.record.clone());
        }
        let mut r = Record::new(self.start.clone());
        for m in &self.moves[..ply] {
            r.play_text(m)?;
        }
        Ok(r)
    }

    /// The board (turned) and the panel of seats, hands and facts, as two pictures; and, for a
    /// page that already shows this game's board, what stands on it and the pieces' drawings
    /// alone, so that the squares need not be drawn again.
    fn picture(d: &Diagram, before: Option<&Diagram>, turns: u8, squares: bool) -> [Json; 4] {
        let marks = before.map(|b| crate::view::changed(b, d)).unwrap_or_default();
        let lay = svg::layout_turned([d], turns);
        let defs = svg::defs([d], &lay);
        let inner = defs.trim_start_matches("<defs>").trim_end_matches("</defs>").to_string();
        let board = if squares { Json::String(svg::board_svg(d, &marks, turns)) } else { Json::Null };
        [board, svg::panel_svg(d).into(), svg::men(d, &lay, &marks).into(), inner.into()]
    }

    fn describe(r: &Record<G>, [board, panel, men, defs]: [Json; 4]) -> Json {
        let pos = &r.current;
        let outcome = r.outcome().map(|o| {
            obj([
                ("winners", mask_letters::<G>(o.winners).into()),
                ("reason", o.reason.as_str().into()),
                ("draw", o.is_draw().into()),
            ])
        });
        obj([
            ("svg", board),
            ("panel", panel),
            ("men", men),
            ("defs", defs),
            ("position", pos.to_text().into()),
            ("turn", seat_letter::<G>(pos.to_move()).to_string().into()),
            ("checks", mask_letters::<G>(pos.checked_seats()).into()),
            ("outcome", outcome.into()),
        ])
    }
}

impl<G: Game> Live for LiveGame<G> {
    fn variant(&self) -> &'static VariantSpec {
        G::VARIANT
    }

    fn start(&self) -> Option<&str> {
        self.start_text.as_deref()
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn set_moves(&mut self, moves: &[String]) -> Result<(), String> {
        // Most calls add one move to the game so far: play just that one.
        let (mut record, from) = if moves.len() >= self.moves.len() && moves[..self.moves.len()] == self.moves[..] {
            (self.record.clone(), self.moves.len())
        } else {
            (Record::new(self.start.clone()), 0)
        };
        record.replay(&moves[from..])?;
        self.record = record;
        self.moves = moves.to_vec();
        Ok(())
    }

    fn views(&self) -> Vec<u8> {
        self.record.current.diagram().seats.iter().map(|s| s.view).collect()
    }

    fn seats(&self) -> Json {
        let d = self.record.current.diagram();
        Json::Array(
            d.seats
                .iter()
                .map(|s| {
                    obj([
                        ("letter", s.letter.to_string().into()),
                        ("name", s.name.into()),
                        ("fill", s.fill.into()),
                        ("view", (s.view as usize).into()),
                    ])
                })
                .collect(),
        )
    }

    fn frame(&self, ply: usize, turns: u8, squares: bool) -> Result<Json, String> {
        // The position before the last move gives the marks and the seat that moved.
        let prev = match ply {
            0 => None,
            _ => Some(self.record_at(ply - 1)?),
        };
        let r = match &prev {
            Some(p) => {
                let mut r = p.clone();
                r.play_text(&self.moves[ply - 1])?;
                r
            }
            None => self.record_at(0)?,
        };
        let d = r.current.diagram();
        let before = prev.as_ref().map(|p| p.current.diagram());
        let mut f = Self::describe(&r, Self::picture(&d, before.as_ref(), turns, squares));
        if let (Json::Object(kv), Some(p)) = (&mut f, &prev) {
            let seat = seat_letter::<G>(p.current.to_move()).to_string();
            kv.insert("last".into(), obj([("seat", seat.into()), ("move", self.moves[ply - 1].as_str().into())]));
        }
        Ok(f)
    }

    fn legal(&self) -> Json {
        let pos = &self.record.current;
        let mut list = MovesOf::<G>::default();
        self.record.legal_moves(&mut list);
        let letters = G::VARIANT.seats;
        let moves: Vec<Json> = list
            .iter()
            .map(|&m| {
                let g = pos.gesture(m);
                obj([
                    ("text", pos.format_move(m).into()),
                    ("from", g.from.as_ref().map_or(Json::Null, |o| origin_json(o, letters))),
                    ("to", g.to.into()),
                    ("marks", g.marks.into()),
                    ("words", g.words.into()),
                ])
            })
            .collect();
        Json::Array(moves)
    }

    fn preview(&self, text: &str, turns: u8) -> Result<Json, String> {
        let mut r = self.record.clone();
        let before = r.current.diagram();
        r.play_text(text)?;
        let d = r.current.diagram();
        Ok(Self::describe(&r, Self::picture(&d, Some(&before), turns, true)))
    }
}
