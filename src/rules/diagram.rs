//! What a picture of a position shows, in words every game shares: squares with their pieces,
//! passive stacks and counters, seats with their hands and standing, and the facts `d` prints
//! under the board. Each game fills a `Diagram` from its position (`Draw`); `view` draws any of
//! them and `TextGrid` writes any of them as `d`'s board, so that a new game needs no drawing
//! code of its own.

use super::{Rules, Seat, SeatMask};

/// How a game's pieces look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Shogi: wedge-shaped pieces of one wood, pointing at the opponent; one board colour.
    Shogi,
    /// Chess-like: round pieces in their owner's colour on a chequered board.
    Chess,
    /// Round pieces on an unchequered board with lines (the ashtapada of Chaturanga).
    Plain,
}

/// A piece as a picture shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Man {
    pub seat: Seat,
    /// The piece as the game's position string or `d` writes it (`+r`, `yK`, `n`): what a test
    /// compares with the engine's own picture.
    pub token: String,
    /// The letters drawn on the piece.
    pub label: String,
    pub promoted: bool,
    /// The king, whose square is marked when it stands in check.
    pub king: bool,
    /// A piece that no longer plays (an army that is out of an all-against-all game).
    pub inert: bool,
    /// A colour for the ring around the piece (Dojo's belts), or none.
    pub ring: Option<&'static str>,
}

impl Man {
    /// A piece that plays, unpromoted and without a ring: what the games change from.
    pub fn new(seat: Seat, token: String, label: String, king: bool) -> Man {
        Man { seat, token, label, promoted: false, king, inert: false, ring: None }
    }
}

/// One square of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// The square's name in the game's notation.
    pub square: String,
    /// The seat whose Realm the square is in (Judtho), for its tint.
    pub realm: Option<Seat>,
    pub man: Option<Man>,
    /// Passive members under the active piece, first made passive first (Dojo).
    pub stack: Vec<Man>,
    /// Short marks in the square's corner: counters about to fire (`P2`: promotion in 2).
    pub badges: Vec<String>,
}

/// One seat: its colour, its hand and its standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    pub letter: char,
    /// The seat's name for people (`sente`, `Yellow`).
    pub name: &'static str,
    /// The fill of its pieces and the ink on them.
    pub fill: &'static str,
    pub ink: &'static str,
    /// The tint of the seat's Realm, in games that have Realms.
    pub tint: &'static str,
    /// The pieces in hand, each kind once with its count, in the order the game lists them;
    /// `None` in a game without hands.
    pub hand: Option<Vec<(String, u8)>>,
    /// What sets the seat apart now: `out`, `mated`, `lone king`, `in check`, `single`.
    pub standing: Vec<String>,
    /// How the board is turned for a player of this seat: the quarter turns, clockwise, that
    /// bring the seat's own side of the board to the bottom (gote 2, Chaturanga's green 1).
    pub view: u8,
}

/// A fact under the board: the key and value of `d`'s note, and the same in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub key: String,
    pub value: String,
    pub words: String,
}

/// A position as a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub style: Style,
    pub files: usize,
    pub ranks: usize,
    /// Column labels from left to right and row labels from top to bottom, as drawn.
    pub file_labels: Vec<String>,
    pub rank_labels: Vec<String>,
    /// `files * ranks` cells, row by row from the top left.
    pub cells: Vec<Cell>,
    /// Every seat, in seat order.
    pub seats: Vec<SeatView>,
    pub to_move: Seat,
    /// The seats whose kings stand in check.
    pub checked: SeatMask,
    pub facts: Vec<Fact>,
    /// What colours and marks mean, where the game needs it said: (colour, words).
    pub legend: Vec<(&'static str, &'static str)>,
}

/// Where the mouse takes a move from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The square of the piece that moves (or that stays and takes, as Judtho's knight does).
    Square(String),
    /// A kind in a seat's hand, as the seat's `hand` lists it: a drop or a placement.
    Hand { seat: Seat, kind: String },
}

/// A legal move as a person enters it with the mouse: the piece (or hand kind) picked first,
/// then one of the squares in `to`; moves that share both are told apart by their `marks` and
/// `words` (promotions, Dojo's choices, Judtho's promotions on checkmate and knight captures).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gesture {
    /// What the mouse picks first; none for `pass`, which is a button.
    pub from: Option<Origin>,
    /// The squares a click may name this move by: where the piece goes, or each square that a
    /// piece that stays takes on.
    pub to: Vec<String>,
    /// The other squares the move decides: the piece made passive, the deputy appointed, the
    /// squares of promotion on checkmate, the squares a line capture takes on its way.
    pub marks: Vec<String>,
    /// What sets the move apart, in words (`promotes`, `appoints c3 deputy`); empty when
    /// nothing needs saying.
    pub words: String,
}

impl Gesture {
    /// A piece from a square to a square, with nothing more to say.
    pub fn step(from: String, to: String) -> Gesture {
        Gesture { from: Some(Origin::Square(from)), to: vec![to], marks: Vec::new(), words: String::new() }
    }
}

/// A game that can be drawn.
pub trait Draw: Rules {
    /// How `d` draws the diagram in text.
    const TEXT: TextGrid;
    /// Every kind of piece, as the diagram labels it: the order of a learning agent's planes
    /// (`crate::live`'s observation).
    const KINDS: &'static [&'static str];
    /// The position as a picture. Facts include every note of `d`, with the same keys and
    /// values.
    fn diagram(&self) -> Diagram;
    /// The board picture `d` prints above its notes: the diagram in text, so that `d` and the
    /// viewer can never show two different boards.
    fn picture(&self) -> String {
        Self::TEXT.draw(&self.diagram())
    }
    /// How a legal move of this position is entered with the mouse. Every legal move has one,
    /// and two legal moves never have the same gesture.
    fn gesture(&self, mv: Self::Move) -> Gesture;
    /// What a learning agent's planes read of the position: by default read off the diagram.
    /// A game may say it without the diagram's strings, for speed (a learning loop asks at
    /// every step); tests/sight.rs holds every game's answer to the diagram's.
    fn sight(&self) -> Sight {
        Sight::of_diagram(&self.diagram(), Self::KINDS, Self::VARIANT.seats)
    }
}

/// The part of a diagram that a learning agent's planes read (`crate::live`'s observation),
/// with kinds as indices into `Draw::KINDS` and cells numbered as `Diagram::cells` are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sight {
    /// Each active piece: (cell, seat, kind).
    pub men: Vec<(usize, Seat, usize)>,
    /// Each passive member (Dojo), the same way.
    pub members: Vec<(usize, Seat, usize)>,
    /// Each counter about to fire: (cell, which of `Sight::BADGES`, the turns left).
    pub badges: Vec<(usize, usize, f32)>,
    /// The pieces in hand, (seat, kind, count) with a count above 0; `None` in a game without
    /// hands.
    pub hands: Option<Vec<(Seat, usize, u8)>>,
    /// The seats whose standing is `out` or `mated`.
    pub gone: SeatMask,
    /// The turn cycle, the seat to move first, where the game keeps one of its own (Judtho's
    /// `cycle` note); otherwise the seats in turn from the seat to move.
    pub cycle: Option<Vec<Seat>>,
}

impl Sight {
    /// The badges' first letters: promotion, stagnation (turning), defection.
    pub const BADGES: [&'static str; 3] = ["P", "T", "D"];

    /// What a diagram shows of it: pieces whose label is not among `kinds` are left out, as
    /// are badges of other letters.
    pub fn of_diagram(d: &Diagram, kinds: &[&str], seat_letters: &str) -> Sight {
        let kind_of = |label: &str| kinds.iter().position(|k| *k == label);
        let mut s = Sight::default();
        for (i, c) in d.cells.iter().enumerate() {
            if let Some(m) = &c.man
                && let Some(k) = kind_of(&m.label)
            {
                s.men.push((i, m.seat, k));
            }
            for m in &c.stack {
                if let Some(k) = kind_of(&m.label) {
                    s.members.push((i, m.seat, k));
                }
            }
            for b in &c.badges {
                if let Some(j) = Self::BADGES.iter().position(|p| b.starts_with(p)) {
                    s.badges.push((i, j, b[1..].parse().unwrap_or(0.0)));
                }
            }
        }
        if d.seats.iter().any(|v| v.hand.is_some()) {
            let mut hands = Vec::new();
            for (i, v) in d.seats.iter().enumerate() {
                for (kind, count) in v.hand.iter().flatten() {
                    if let Some(k) = kind_of(kind)
                        && *count > 0
                    {
                        hands.push((Seat(i as u8), k, *count));
                    }
                }
            }
            s.hands = Some(hands);
        }
        for (i, v) in d.seats.iter().enumerate() {
            if v.standing.iter().any(|w| w == "out" || w == "mated") {
                s.gone |= Seat(i as u8).mask();
            }
        }
        s.cycle = d
            .facts
            .iter()
            .find(|f| f.key == "cycle")
            .map(|f| f.value.chars().filter_map(|l| seat_letters.find(l)).map(|i| Seat(i as u8)).collect());
        s
    }

    /// The same sight with its lists in one order, for comparing two ways of making it.
    pub fn sorted(mut self) -> Sight {
        self.men.sort_by_key(|&(c, s, k)| (c, s.index(), k));
        self.members.sort_by_key(|&(c, s, k)| (c, s.index(), k));
        self.badges.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
        if let Some(h) = &mut self.hands {
            h.sort_by_key(|&(s, k, n)| (s.index(), k, n));
        }
        self
    }
}

/// Where a text picture writes the rank labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankLabels {
    /// In a column of their own left of the board, right-aligned (`8 |`, `12 |`).
    Left,
    /// After each row (`| a`), as shogi diagrams do; the board is then indented by one blank.
    Right,
}

/// How `d` draws a diagram in text: each square a fixed number of characters between bars,
/// rows of `+--+` between the ranks. What a square shows follows from its cell alone: the
/// piece's token, right-aligned; on an empty square of a Realm, `.`; and, in games with
/// passive stacks, `*n` for the members under the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextGrid {
    /// The characters of a square between its two bars.
    pub square_width: usize,
    /// Each square ends with `*n` (or two blanks): how many passive members it holds, up to 9.
    pub stacks: bool,
    /// The column, within its square, of a file label.
    pub file_label_at: usize,
    /// The file labels stand above the board rather than below it.
    pub files_above: bool,
    pub ranks: RankLabels,
    /// Each seat's hand is listed under the board, the far seat's first (` hand gote (w): R Bx2`).
    pub hands: bool,
    /// A last line that says what the marks mean, where the game has marks.
    pub key: Option<&'static str>,
}

impl TextGrid {
    /// A chess-like board: two characters a square (a seat's letter and a piece's), rank numbers
    /// at the left and file letters under the board, no hands.
    pub const CHESS: TextGrid = TextGrid {
        square_width: 2,
        stacks: false,
        file_label_at: 0,
        files_above: false,
        ranks: RankLabels::Left,
        hands: false,
        key: None,
    };

    /// The diagram in text, one line per row and border, each ending with a newline.
    pub fn draw(&self, d: &Diagram) -> String {
        let margin = match self.ranks {
            RankLabels::Left => 1 + d.rank_labels.iter().map(|l| l.chars().count()).max().unwrap_or(0),
            RankLabels::Right => 1,
        };
        let token_width = self.square_width - if self.stacks { 2 } else { 0 };
        let border =
            format!("{}+{}\n", " ".repeat(margin), format!("{}+", "-".repeat(self.square_width)).repeat(d.files));
        let mut file_line = String::new();
        for (f, label) in d.file_labels.iter().enumerate() {
            let column = margin + 1 + f * (self.square_width + 1) + self.file_label_at;
            while file_line.chars().count() < column {
                file_line.push(' ');
            }
            file_line.push_str(label);
        }
        file_line.push('\n');

        let mut s = String::new();
        if self.files_above {
            s.push_str(&file_line);
        }
        for (r, row) in d.cells.chunks(d.files).enumerate() {
            s.push_str(&border);
            let label = d.rank_labels.get(r).map_or("", String::as_str);
            match self.ranks {
                RankLabels::Left => s.push_str(&format!("{:>w$} ", label, w = margin - 1)),
                RankLabels::Right => s.push(' '),
            }
            for cell in row {
                s.push('|');
                let token = match (&cell.man, cell.realm) {
                    (Some(man), _) => man.token.as_str(),
                    (None, Some(_)) => ".",
                    (None, None) => "",
                };
                s.push_str(&format!("{:>w$}", token, w = token_width));
                if self.stacks {
                    match cell.stack.len() {
                        0 => s.push_str("  "),
                        n => s.push_str(&format!("*{}", n.min(9))),
                    }
                }
            }
            s.push('|');
            if self.ranks == RankLabels::Right {
                s.push(' ');
                s.push_str(label);
            }
            s.push('\n');
        }
        s.push_str(&border);
        if !self.files_above {
            s.push_str(&file_line);
        }
        if self.hands {
            for seat in d.seats.iter().rev() {
                s.push_str(&format!(" hand {} ({}):", seat.name, seat.letter));
                for (kind, n) in seat.hand.iter().flatten() {
                    s.push(' ');
                    s.push_str(kind);
                    if *n > 1 {
                        s.push_str(&format!("x{}", n));
                    }
                }
                s.push('\n');
            }
        }
        if let Some(key) = self.key {
            s.push_str(&" ".repeat(margin));
            s.push_str(key);
            s.push('\n');
        }
        s
    }
}

/// The coordinates of a chess-like board as drawn: files `a`... from the left, ranks from the
/// top (the highest first).
pub fn chess_labels(files: usize, ranks: usize) -> (Vec<String>, Vec<String>) {
    (
        (0..files).map(|f| ((b'a' + f as u8) as char).to_string()).collect(),
        (1..=ranks).rev().map(|r| r.to_string()).collect(),
    )
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}
