//! Each game's rules for players, as the page's Rules panel shows them: a few short sections in
//! the words the page itself uses (its move texts, its status words), each with a picture drawn
//! by the rules library from a position. docs/rules/ holds the complete rules with every ruling;
//! this is the summary a newcomer reads before the first move.

use crate::rules::Game;
use crate::variants::{self, Visitor};
use crate::view::svg;
use serde::Serialize;

/// A section: a heading, paragraphs, and a picture of a position with its caption.
struct Section {
    heading: &'static str,
    text: &'static [&'static str],
    /// A position string of the game (none: no picture), and what the picture shows.
    picture: Option<(&'static str, &'static str)>,
}

struct GuideText {
    variant: &'static str,
    summary: &'static str,
    sections: &'static [Section],
}

/// A section as the page shows it.
#[derive(Serialize)]
pub struct GuideSection {
    pub heading: &'static str,
    pub text: &'static [&'static str],
    /// The picture, as SVG.
    pub picture: Option<String>,
    pub caption: Option<&'static str>,
}

/// A game's Rules panel.
#[derive(Serialize)]
pub struct Guide {
    pub variant: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    pub sections: Vec<GuideSection>,
}

const JUDKINS: GuideText = GuideText {
    variant: "judkins",
    summary: "Shogi on a 6x6 board: checkmate the other king. Captured pieces change sides and come back as drops.",
    sections: &[
        Section {
            heading: "The pieces",
            text: &[
                "Sente (first to move, at the bottom) and gote (at the top) each have a king (K), gold (G), silver (S), knight (N), bishop (B), rook (R) and one pawn (P). Pieces are wedges that point at the opponent: that is how you tell whose they are.",
                "King: one step any way. Gold: one step, but not diagonally backwards. Silver: one step diagonally or straight forward. Knight: two ahead and one aside, jumping. Pawn: one step forward, taking the same way. Bishop and rook slide as in chess.",
            ],
            picture: Some(("rbnsgk/5p/6/6/P5/KGSNBR b - 1", "The start: sente's pieces on rank f, gote's on rank a.")),
        },
        Section {
            heading: "Promotion",
            text: &[
                "The two far ranks are your promotion zone. A silver, knight, pawn, bishop or rook that moves into, out of or within it may promote (a move ending in +, shown red): silver, knight and pawn then move as a gold, the bishop adds the king's straight steps and the rook the king's diagonal steps. The page asks which you want when both are legal.",
            ],
            picture: None,
        },
        Section {
            heading: "Captures and drops",
            text: &[
                "A piece you capture goes to your hand (shown under the board). Instead of moving, you may drop it on any empty square: click the kind in your hand, then the square. A drop written P*5c puts a pawn on 5c.",
                "No pawn drop on a file where you already have a pawn, none that gives checkmate at once, and no pawn or knight where it could never move.",
            ],
            picture: None,
        },
        Section {
            heading: "How it ends",
            text: &[
                "Checkmate wins. A player with no legal move loses. The same position for the fourth time is a draw, unless one side gave check all along: that side loses.",
            ],
            picture: None,
        },
    ],
};

const DOJO: GuideText = GuideText {
    variant: "dojo",
    summary: "Chess in which captured pieces stay on the board, and counters promote, demote and remove pieces by themselves.",
    sections: &[
        Section {
            heading: "Chess, with belts",
            text: &[
                "Chess rules and moves, with the pieces named by belt: yellow belt (pawn), orange (knight), green (bishop), purple (rook), deputy antisensei (queen) and antisensei (king). Checkmate the antisensei to win. The ring round a piece is its belt's colour.",
            ],
            picture: None,
        },
        Section {
            heading: "Captured pieces stay",
            text: &[
                "A captured piece becomes a passive member on its square, drawn small at the foot of the square; the captor stands on it. Passive members block everyone (an orange belt jumps them), never move and cannot be taken. Nobody may enter a square with a passive member except by capturing the piece standing on it.",
            ],
            picture: Some((
                "7k/Q7/8/8/8/8/8/3N3K w - - 0 1 d2:P W9",
                "A white yellow belt lies passive on d2. The deputy on a7 is far from its antisensei: its tag T1 says that treason demotes it at the end of White's next move.",
            )),
        },
        Section {
            heading: "Counters",
            text: &[
                "Tags on a square count down to what happens at the end of the owner's turn. A yellow, orange or green belt goes up one belt after 15 turns near its antisensei (within 2 squares) or 15 turns without moving. A deputy more than 5 squares from its antisensei for 10 turns is demoted to a yellow belt, and you appoint a new deputy. A piece within 3 squares of the enemy antisensei for 15 turns leaves the game.",
                "A yellow belt that reaches the far rank leaves the game, and you may freeze one enemy piece where it stands (it becomes passive): the page lists those choices, written b7b8/c5 (freeze c5).",
            ],
            picture: None,
        },
        Section {
            heading: "How it ends",
            text: &[
                "Checkmate wins. No legal move without check, the same full position three times, or 100 plies without a capture or a yellow-belt move: a draw.",
            ],
            picture: None,
        },
    ],
};

const CHATURANGA: GuideText = GuideText {
    variant: "chaturanga",
    summary: "Four armies on an 8x8 board, two players of two armies each: Yellow with Red against Black with Green. Beat both enemy armies.",
    sections: &[
        Section {
            heading: "Armies and pieces",
            text: &[
                "The armies move in turn: Yellow, Black, Red, Green. If you play two armies you move each in its own turn, and the page says which one is to move.",
                "King: one step any way. Rook: along ranks and files. Knight: the chess knight. Ship: exactly two squares diagonally, jumping. Pawn: one step ahead in its army's direction, taking diagonally ahead; at the far edge it becomes a rook, knight or ship of your choice.",
            ],
            picture: Some(("startpos", "The start: each army in its corner, pawns facing the centre.")),
        },
        Section {
            heading: "Check, mate and passing",
            text: &[
                "Kings are never taken; your move may not leave your own king attacked. An army with no legal move plays Pass. If it is in check then, it is mated, but only for now: it is freed when a move makes room.",
                "Four ships that close a 2x2 square capture the enemy ships in it.",
            ],
            picture: None,
        },
        Section {
            heading: "How it ends",
            text: &[
                "A side wins when both enemy armies are beaten at once, each mated or left with a lone king. No army able to move, the same position three times, or 200 army turns without a capture or pawn move: a draw.",
            ],
            picture: None,
        },
    ],
};

const CHATURANGA_FFA: GuideText = GuideText {
    variant: "chaturanga-ffa",
    summary: "Four armies, four players, each for itself: the last king standing wins.",
    sections: &[
        Section {
            heading: "Armies and pieces",
            text: &[
                "The armies move in turn: Yellow, Black, Red, Green. King: one step any way. Rook: along ranks and files. Knight: the chess knight. Ship: exactly two squares diagonally, jumping. Pawn: one step ahead in its army's direction, taking diagonally ahead; at the far edge it becomes a rook, knight or ship.",
            ],
            picture: Some(("startpos", "The start: each army in its corner, pawns facing the centre.")),
        },
        Section {
            heading: "Kings are taken",
            text: &[
                "There is no check here: any move the pieces allow is legal, and kings are captured like any piece. An army whose king is taken is out: its pieces stay, faded, as obstacles that anyone may capture.",
            ],
            picture: None,
        },
        Section {
            heading: "How it ends",
            text: &[
                "The last army with a king wins; the others are placed by how long they lasted. The same position three times, no army able to move, or 200 turns without a capture or pawn move: a draw among the armies still in.",
            ],
            picture: None,
        },
    ],
};

const JUDTHO: GuideText = GuideText {
    variant: "judtho",
    summary: "Four players on a 12x12 board. First each places his pieces in his corner (the Assembly); then in the Battles every checkmate makes the mater and the mated allies.",
    sections: &[
        Section {
            heading: "The Assembly",
            text: &[
                "The board starts empty. In turn (White, Red, Yellow, Black) each player places one piece from his hand on an empty square of his own Realm: the tinted 4x6 corner of his colour (White's is a1-f4). Click a kind in your hand, then a square. A placement is written K*c2. A King may not be placed where it is attacked.",
                "Each player places twelve pieces: King, Queen, Rook, Knight, Bishop, six Pawns, and only one of Prince (C) and Princess (S). The other stays in your hand: a player who checkmates you will turn one of your pawns into it.",
                "A placement may give check. The player in check must answer with his next placement (rule T6), so then only the placements that answer are offered.",
            ],
            picture: Some((
                "startpos",
                "The empty board: the four Realms, tinted in their owners' colours, and the Neutral Realm between them.",
            )),
        },
        Section {
            heading: "The pieces",
            text: &[
                "King, Queen, Rook and Bishop as in chess (no castling). Knight: the chess leap, or it stays put and takes every Opponent piece it attacks. Princess (S): up to four squares like a Queen, and may take everything on its line. Prince (C): up to three squares along a line, taking what it passes. Pawns march toward the far side of the board.",
            ],
            picture: None,
        },
        Section {
            heading: "Battles and alliances",
            text: &[
                "White and Yellow are Rivals, as are Red and Black: at first everyone plays for himself. The first checkmate makes the mater First Ally and the mated player Second Ally: allies never take each other, and the First Ally may move the Second Ally's pieces too. So an ally may move your pieces: the panel lists who moves whose.",
                "The second checkmate makes a Triple Alliance against the one player left single, or a second pair. The third checkmate ends the game: its side wins.",
            ],
            picture: Some((
                "rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100",
                "White and Red are allied. White's rook mates Yellow on l1, and Yellow's pawn k2 becomes its Prince: Yellow joins as Third Ally, and Black, single, moves next.",
            )),
        },
        Section {
            heading: "How it ends, and the panel's words",
            text: &[
                "The third checkmate wins for its side. The same position three times, the single player stalemated, or 200 turns without a capture, pawn move, promotion or checkmate (the panel counts these quiet turns): a draw. Only a player without allies may resign.",
                "The phases are the Assembly, then ascendancy, control and dominion: the Battles after the first, second and third checkmate. The view menu turns the board to White's side (White and Yellow share it) or Red's (Red and Black).",
            ],
            picture: None,
        },
    ],
};

const GUIDES: [GuideText; 5] = [JUDKINS, DOJO, CHATURANGA, CHATURANGA_FFA, JUDTHO];

/// A position of `variant` drawn, unturned.
fn picture(variant: &str, position: &str) -> Result<String, String> {
    struct Draw<'a>(&'a str);
    impl Visitor for Draw<'_> {
        type Output = Result<String, String>;
        fn visit<G: Game>(self) -> Self::Output {
            let pos = if self.0 == "startpos" { G::startpos() } else { G::from_text(self.0)? };
            Ok(svg::board_svg(&pos.diagram(), &[], 0))
        }
    }
    variants::visit(variant, Draw(position)).map_err(|e| e.to_string())?
}

/// The Rules panel of `variant`.
pub fn guide(variant: &str) -> Result<Guide, String> {
    let spec = variants::find(variant).ok_or_else(|| format!("variant '{}': unknown", variant))?;
    let g = GUIDES.iter().find(|g| g.variant == spec.name).ok_or_else(|| format!("no rules for {}", variant))?;
    let sections = g
        .sections
        .iter()
        .map(|s| {
            let picture = s.picture.map(|(p, _)| picture(spec.name, p)).transpose()?;
            Ok(GuideSection { heading: s.heading, text: s.text, picture, caption: s.picture.map(|(_, c)| c) })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Guide { variant: spec.name, title: spec.title, summary: g.summary, sections })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_playable_variant_has_rules_whose_pictures_draw() {
        for v in crate::variants::VARIANTS {
            let g = guide(v.name).unwrap_or_else(|e| panic!("{}: {}", v.name, e));
            assert!(!g.sections.is_empty() && !g.summary.is_empty(), "{}", v.name);
            assert!(
                g.sections.iter().any(|s| s.picture.as_deref().is_some_and(|p| p.starts_with("<svg"))),
                "{}",
                v.name
            );
        }
    }
}
