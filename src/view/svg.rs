//! Any game's `Diagram` as SVG. The picture has two layers: the board itself (squares, Realms,
//! coordinates), which never changes within a game, and what stands on it (pieces, stacks,
//! marks, the seats and the facts below), which changes with every move. A standalone SVG holds
//! both; a game page holds the first once and swaps the second as the user steps through the
//! game. Every piece and every fact carries `data-` attributes naming what it shows in the
//! game's own notation, so that a test can read the picture back and compare it with `d`.

use crate::rules::Seat;
use crate::rules::diagram::{Diagram, Man, Style};
use std::fmt::Write as _;

/// The side of a square, in SVG units.
const S: f64 = 48.0;
/// Room for the rank labels on the left, and above the board.
const LEFT: f64 = 30.0;
const TOP: f64 = 12.0;
const SEAT_ROW: f64 = 26.0;
const HAND_ROW: f64 = 30.0;
const LINE: f64 = 18.0;
/// The first baseline of the panel, in its own units.
const PANEL_TOP: f64 = 20.0;

/// Where things go: the same for every position of a game, so that stepping through it never
/// moves the board.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    board_bottom: f64,
    /// The panel under the board is drawn at this scale, so that its text stays as readable as
    /// the board when a large board is shrunk to a narrow window.
    ui: f64,
    /// Characters of a fact's text per line.
    wrap: usize,
    /// Quarter turns, clockwise, of the board as drawn (a seat's `view`); odd ones only on a
    /// square board.
    turns: u8,
}

/// The layout that has room for each of `diagrams` (of one game).
pub fn layout<'a>(diagrams: impl IntoIterator<Item = &'a Diagram>) -> Layout {
    layout_turned(diagrams, 0)
}

/// The layout of `layout`, with the board turned `turns` quarter turns clockwise: as a player of
/// a seat whose `view` it is sees it.
pub fn layout_turned<'a>(diagrams: impl IntoIterator<Item = &'a Diagram>, turns: u8) -> Layout {
    let mut it = diagrams.into_iter();
    let first = it.next().expect("a diagram");
    let board_bottom = TOP + first.ranks as f64 * S;
    let width = (LEFT + first.files as f64 * S + 14.0).max(340.0);
    let ui = (width / 440.0).max(1.0);
    // DejaVu Sans at 13 units averages about 7.6 units a character.
    let wrap = ((width / ui - LEFT) / 7.6) as usize;
    let lines = |d: &Diagram| {
        d.facts.iter().map(|f| wrap_text(&f.words, wrap).len()).sum::<usize>()
            + d.legend.iter().map(|l| wrap_text(l.1, wrap - 2).len()).sum::<usize>()
    };
    let max_lines = std::iter::once(first).chain(it).map(lines).max().unwrap_or(0);
    let seats: f64 = first.seats.iter().map(|s| SEAT_ROW + if s.hand.is_some() { HAND_ROW } else { 0.0 }).sum();
    let panel = PANEL_TOP + seats + 8.0 + max_lines as f64 * LINE;
    let height = board_bottom + 32.0 + panel * ui;
    let turns = if first.files == first.ranks { turns % 4 } else { (turns % 4) & 2 };
    Layout { width, height, board_bottom, ui, wrap, turns }
}

/// Words in lines of at most `width` characters (a longer word gets a line of its own).
fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for w in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    lines.push(line);
    lines
}

/// Text for SVG and HTML: the five characters that markup reads escaped.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The top left corner of the board as drawn.
fn board_origin(d: &Diagram, lay: &Layout) -> (f64, f64) {
    let board_x = LEFT + ((lay.width - LEFT - 14.0) - d.files as f64 * S).max(0.0) / 2.0;
    (board_x, TOP)
}

/// Where cell `i` (row by row from the top left, unturned) is drawn: its column and row.
fn cell_place(d: &Diagram, lay: &Layout, i: usize) -> (usize, usize) {
    let (col, row) = (i % d.files, i / d.files);
    let (last_col, last_row) = (d.files - 1, d.ranks - 1);
    match lay.turns {
        1 => (last_row - row, col),
        2 => (last_col - col, last_row - row),
        3 => (row, last_col - col),
        _ => (col, row),
    }
}

fn cell_xy(d: &Diagram, lay: &Layout, i: usize) -> (f64, f64) {
    let (x0, y0) = board_origin(d, lay);
    let (col, row) = cell_place(d, lay, i);
    (x0 + col as f64 * S, y0 + row as f64 * S)
}

/// The coordinates along the bottom (left to right) and the left side (top to bottom) of the
/// board as drawn.
fn edge_labels(d: &Diagram, lay: &Layout) -> (Vec<String>, Vec<String>) {
    let rev = |v: &[String]| v.iter().rev().cloned().collect::<Vec<_>>();
    match lay.turns {
        1 => (rev(&d.rank_labels), d.file_labels.clone()),
        2 => (rev(&d.file_labels), rev(&d.rank_labels)),
        3 => (d.rank_labels.clone(), rev(&d.file_labels)),
        _ => (d.file_labels.clone(), d.rank_labels.clone()),
    }
}

/// The whole picture, standalone.
pub fn svg(d: &Diagram, marks: &[usize]) -> String {
    svg_turned(d, marks, 0)
}

/// The whole picture, standalone, with the board turned `turns` quarter turns clockwise.
pub fn svg_turned(d: &Diagram, marks: &[usize], turns: u8) -> String {
    let lay = layout_turned([d], turns);
    let mut s = open(d, &lay);
    s.push_str(&defs([d], &lay));
    s.push_str(&board(d, &lay));
    s.push_str("<g class=\"position\">");
    s.push_str(&position(d, &lay, marks, false));
    s.push_str("</g></svg>\n");
    s
}

/// A piece's drawing is defined once and used wherever it stands: a long game's page holds
/// every position, and a piece written out in full each time would make it many times larger.
/// `upright`: a piece in hand, drawn facing up whoever owns it.
fn man_id(m: &Man, upright: bool) -> String {
    let label: String = m.label.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!(
        "m{}{}{}{}{}{}{}",
        m.seat.0,
        label,
        m.promoted as u8,
        m.king as u8,
        m.inert as u8,
        upright as u8,
        m.ring.map(|r| r.trim_start_matches('#')).unwrap_or("")
    )
}

/// Whether a shogi piece's wedge is drawn pointing down: gote's on a board seen from sente's
/// side, sente's on a board turned round.
fn points_down(m: &Man, upright: bool, lay: &Layout) -> bool {
    !upright && (m.seat != Seat(0)) != (lay.turns == 2)
}

/// The `<defs>` with every piece that `diagrams` show, on the board, in stacks or in hand.
pub fn defs<'a>(diagrams: impl IntoIterator<Item = &'a Diagram>, lay: &Layout) -> String {
    let mut seen = std::collections::BTreeMap::new();
    for d in diagrams {
        for c in &d.cells {
            for m in c.man.iter().chain(&c.stack) {
                seen.entry(man_id(m, false)).or_insert_with(|| man(d, m, points_down(m, false, lay)));
            }
        }
        for (k, seat) in d.seats.iter().enumerate() {
            for (kind, _) in seat.hand.iter().flatten() {
                let m = hand_man(k, kind);
                seen.entry(man_id(&m, true)).or_insert_with(|| man(d, &m, false));
            }
        }
    }
    let mut s = String::from("<defs>");
    for (id, body) in seen {
        let _ = write!(s, "<g id=\"{id}\">{body}</g>");
    }
    s.push_str("</defs>");
    s
}

fn hand_man(seat: usize, kind: &str) -> Man {
    Man {
        seat: Seat(seat as u8),
        token: kind.to_string(),
        label: kind.to_string(),
        promoted: false,
        king: false,
        inert: false,
        ring: None,
    }
}

/// The `<svg>` element's opening tag.
pub fn open(d: &Diagram, lay: &Layout) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" \
         font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" data-files=\"{f}\" data-ranks=\"{r}\">",
        w = lay.width,
        h = lay.height,
        f = d.files,
        r = d.ranks
    )
}

/// The board: squares, Realms and coordinates.
pub fn board(d: &Diagram, lay: &Layout) -> String {
    let mut s = String::new();
    let _ = write!(s, "<rect width=\"{}\" height=\"{}\" fill=\"#fbf8f1\"/>", lay.width, lay.height);
    for (i, c) in d.cells.iter().enumerate() {
        let (x, y) = cell_xy(d, lay, i);
        let dark = (i / d.files + i % d.files) % 2 == 1;
        let fill = match d.style {
            Style::Shogi => "#e9c98b",
            Style::Plain => "#efd8a8",
            Style::Chess if dark => "#b58863",
            Style::Chess => "#f0d9b5",
        };
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"{fill}\" data-cell=\"{}\"/>",
            esc(&c.square)
        );
        if let Some(seat) = c.realm.and_then(|r| d.seats.get(r.index())) {
            let _ = write!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"{}\" fill-opacity=\"0.5\" pointer-events=\"none\" data-realm=\"{}\"/>",
                seat.tint, seat.letter
            );
        }
    }
    let (x0, y0) = board_origin(d, lay);
    let (bw, bh) = (d.files as f64 * S, d.ranks as f64 * S);
    if d.style != Style::Chess {
        for k in 1..d.files {
            let x = x0 + k as f64 * S;
            let _ = write!(s, "<line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{}\" stroke=\"#5a4320\"/>", y0 + bh);
        }
        for k in 1..d.ranks {
            let y = y0 + k as f64 * S;
            let _ = write!(s, "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#5a4320\"/>", x0 + bw);
        }
    }
    let _ = write!(
        s,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{bw}\" height=\"{bh}\" fill=\"none\" stroke=\"#3b2f1e\" stroke-width=\"1.5\"/>"
    );
    let (bottom, left) = edge_labels(d, lay);
    for (k, l) in bottom.iter().enumerate() {
        let x = x0 + (k as f64 + 0.5) * S;
        let _ = write!(
            s,
            "<text x=\"{x}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
            y0 + bh + 27.0,
            esc(l)
        );
    }
    for (k, l) in left.iter().enumerate() {
        let y = y0 + (k as f64 + 0.5) * S + 4.5;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{y}\" font-size=\"13\" text-anchor=\"end\" fill=\"#333\">{}</text>",
            x0 - 12.0,
            esc(l)
        );
    }
    s
}

/// A piece drawn around (0, 0), at the size of a square.
fn man(d: &Diagram, m: &Man, down: bool) -> String {
    let seat = &d.seats[m.seat.index()];
    let opacity = if m.inert { " opacity=\"0.4\"" } else { "" };
    let label = esc(&m.label);
    match d.style {
        Style::Shogi => {
            // The wedge points at the opponent.
            let turn = if down { " transform=\"rotate(180)\"" } else { "" };
            let size = if m.label.len() > 1 { 15 } else { 19 };
            let ink = if m.promoted { "#c1121f" } else { seat.ink };
            format!(
                "<g{turn}{opacity}><path d=\"M0 -20 L13 -13 L16 19 L-16 19 L-13 -13 Z\" fill=\"{}\" stroke=\"#6b4f2a\" stroke-width=\"1.2\"/>\
                 <text y=\"8\" font-size=\"{size}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{label}</text></g>",
                seat.fill
            )
        }
        Style::Chess | Style::Plain => {
            let mut s = format!("<g{opacity}>");
            // A king wears a second ring.
            if m.king {
                let _ = write!(s, "<circle r=\"21\" fill=\"{}\" stroke=\"#222\" stroke-width=\"1\"/>", seat.fill);
            }
            let dash = if m.inert { " stroke-dasharray=\"3 2\"" } else { "" };
            let _ = write!(s, "<circle r=\"17.5\" fill=\"{}\" stroke=\"#222\" stroke-width=\"1.3\"{dash}/>", seat.fill);
            if let Some(ring) = m.ring {
                let _ = write!(s, "<circle r=\"14.5\" fill=\"none\" stroke=\"{ring}\" stroke-width=\"3.5\"/>");
            }
            let _ = write!(
                s,
                "<text y=\"6.5\" font-size=\"18\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{label}</text></g>",
                seat.ink
            );
            s
        }
    }
}

/// What stands on the board, and the panel under it. `marks`: the cells the last move changed.
pub fn position(d: &Diagram, lay: &Layout, marks: &[usize], over: bool) -> String {
    let mut s = men(d, lay, marks);
    let _ = write!(s, "<g transform=\"translate(0 {}) scale({})\">", lay.board_bottom + 32.0, lay.ui);
    s.push_str(&panel(d, lay, over));
    s.push_str("</g>");
    s
}

/// What stands on the board: the turn's frame, the last move's marks, checks, pieces, stacks
/// and badges. Marks and tints never take a click: it goes to the square or piece under them.
pub fn men(d: &Diagram, lay: &Layout, marks: &[usize]) -> String {
    let mut s = String::new();
    // The seat to move frames the board in its colour.
    let (x0, y0) = board_origin(d, lay);
    let mover = &d.seats[d.to_move.index()];
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"5\" data-turn=\"{}\"/>\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#222\" stroke-width=\"1\"/>",
        x0 - 5.5,
        y0 - 5.5,
        d.files as f64 * S + 11.0,
        d.ranks as f64 * S + 11.0,
        mover.fill,
        mover.letter,
        x0 - 8.5,
        y0 - 8.5,
        d.files as f64 * S + 17.0,
        d.ranks as f64 * S + 17.0,
    );
    for &i in marks {
        let (x, y) = cell_xy(d, lay, i);
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"#ffe14d\" fill-opacity=\"0.55\" pointer-events=\"none\" data-mark=\"{}\"/>",
            esc(&d.cells[i].square)
        );
    }
    for (i, c) in d.cells.iter().enumerate() {
        let (x, y) = cell_xy(d, lay, i);
        if let Some(m) = &c.man
            && m.king
            && d.checked.contains(m.seat)
        {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"#e03131\" fill-opacity=\"0.45\" stroke=\"#c92a2a\" stroke-width=\"3\" pointer-events=\"none\" data-check=\"{}\" data-seat=\"{}\"/>",
                x + 1.5,
                y + 1.5,
                S - 3.0,
                S - 3.0,
                esc(&c.square),
                d.seats[m.seat.index()].letter
            );
        }
        if let Some(m) = &c.man {
            let _ = write!(
                s,
                "<use class=\"man\" data-sq=\"{}\" data-man=\"{}\" href=\"#{}\" transform=\"translate({} {})\"/>",
                esc(&c.square),
                esc(&m.token),
                man_id(m, false),
                x + S / 2.0,
                y + S / 2.0,
            );
        }
        if !c.stack.is_empty() {
            let tokens: String = c.stack.iter().map(|m| m.token.as_str()).collect();
            let _ = write!(s, "<g class=\"stack\" data-sq=\"{}\" data-stack=\"{}\">", esc(&c.square), esc(&tokens));
            let shown = c.stack.len().min(4);
            for (k, m) in c.stack.iter().take(shown).enumerate() {
                let _ = write!(
                    s,
                    "<use href=\"#{}\" transform=\"translate({} {}) scale(0.4)\"/>",
                    man_id(m, false),
                    x + 8.0 + k as f64 * 12.0,
                    y + S - 7.0,
                );
            }
            if c.stack.len() > shown {
                let _ = write!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"#000\">+{}</text>",
                    x + 3.0 + shown as f64 * 12.0,
                    y + S - 3.0,
                    c.stack.len() - shown
                );
            }
            s.push_str("</g>");
        }
        for (k, b) in c.badges.iter().enumerate() {
            let bx = x + S - 18.0;
            let by = y + 1.0 + k as f64 * 12.0;
            let _ = write!(
                s,
                "<g class=\"badge\" data-sq=\"{}\" data-badge=\"{}\"><rect x=\"{bx}\" y=\"{by}\" width=\"17\" height=\"11\" rx=\"3\" fill=\"#c92a2a\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">{}</text></g>",
                esc(&c.square),
                esc(b),
                bx + 8.5,
                by + 8.5,
                esc(b)
            );
        }
    }
    s
}

/// The panel under the board, in its own units (`Layout::ui` scales it in a whole picture):
/// the seats with their colour, name, turn, standing and hand, then the facts and the legend.
/// `over`: the game has ended, so nobody is marked to move (the position still names its
/// turn, in `data-to-move`).
pub fn panel(d: &Diagram, lay: &Layout, over: bool) -> String {
    let mut s = String::new();
    let panel_width = lay.width / lay.ui;
    let mut y = PANEL_TOP;
    for (k, seat) in d.seats.iter().enumerate() {
        let to_move = k == d.to_move.index();
        let marked = to_move && !over;
        let hand: String = seat
            .hand
            .as_ref()
            .map(|h| h.iter().flat_map(|(kind, n)| std::iter::repeat_n(kind.as_str(), *n as usize)).collect())
            .unwrap_or_default();
        let _ = write!(
            s,
            "<g class=\"seat\" data-seat=\"{}\" data-to-move=\"{}\" data-standing=\"{}\"{}>",
            seat.letter,
            to_move,
            esc(&seat.standing.join(",")),
            if seat.hand.is_some() { format!(" data-hand=\"{}\"", esc(&hand)) } else { String::new() }
        );
        if marked {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"#fff3bf\" stroke=\"#e8a100\"/>\
                 <path d=\"M{} {} l9 6 l-9 6 z\" fill=\"#c92a2a\"/>",
                LEFT - 20.0,
                y - 17.0,
                panel_width - LEFT + 12.0,
                SEAT_ROW - 2.0 + if seat.hand.is_some() { HAND_ROW } else { 0.0 },
                LEFT - 16.0,
                y - 11.0,
            );
        }
        // Shogi's pieces are all one wood, so its seats are told apart as shogi writes them: a
        // black wedge for sente (who sits at the bottom), a white one for gote.
        let sign = match d.style {
            Style::Shogi => format!(
                "<path d=\"M{x} {} l6 3 l1 9 h-14 l1 -9 z\" fill=\"{}\" stroke=\"#222\"/>",
                y - 14.0,
                if seat.view == 0 { "#222" } else { "#fff" },
                x = LEFT + 6.0,
            ),
            _ => format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"{}\" stroke=\"#222\"/>",
                LEFT + 6.0,
                y - 5.0,
                seat.fill
            ),
        };
        let _ = write!(
            s,
            "{sign}<text x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"{}\" fill=\"#111\">{}{}</text>",
            LEFT + 20.0,
            y,
            if marked { "bold" } else { "normal" },
            esc(seat.name),
            if marked { " \u{2014} to move" } else { "" },
        );
        if !seat.standing.is_empty() {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#a61e1e\">{}</text>",
                LEFT + 190.0,
                y,
                esc(&seat.standing.join(", "))
            );
        }
        y += SEAT_ROW;
        if let Some(h) = &seat.hand {
            let _ =
                write!(s, "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#555\">hand</text>", LEFT + 20.0, y - 2.0);
            if h.is_empty() {
                let _ = write!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#555\">empty</text>",
                    LEFT + 60.0,
                    y - 2.0
                );
            }
            for (j, (kind, n)) in h.iter().enumerate() {
                let cx = LEFT + 72.0 + j as f64 * 46.0;
                let _ = write!(
                    s,
                    "<use class=\"inhand\" data-seat=\"{}\" data-kind=\"{}\" href=\"#{}\" transform=\"translate({cx} {}) scale(0.62)\"/>",
                    seat.letter,
                    esc(kind),
                    man_id(&hand_man(k, kind), true),
                    y - 6.0
                );
                if *n > 1 {
                    let _ = write!(
                        s,
                        "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#111\">\u{d7}{}</text>",
                        cx + 13.0,
                        y - 1.0,
                        n
                    );
                }
            }
            y += HAND_ROW;
        }
        s.push_str("</g>");
    }
    y += 8.0;
    for f in &d.facts {
        let _ = write!(
            s,
            "<text class=\"fact\" font-size=\"13\" fill=\"#222\" data-key=\"{}\" data-value=\"{}\">",
            esc(&f.key),
            esc(&f.value)
        );
        for line in wrap_text(&f.words, lay.wrap) {
            let _ = write!(s, "<tspan x=\"{}\" y=\"{y}\">{}</tspan>", LEFT - 16.0, esc(&line));
            y += LINE;
        }
        s.push_str("</text>");
    }
    for (colour, words) in &d.legend {
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\" stroke=\"#222\"/>",
            LEFT - 16.0,
            y - 10.5,
        );
        for line in wrap_text(words, lay.wrap - 2) {
            let _ =
                write!(s, "<text x=\"{}\" y=\"{y}\" font-size=\"12\" fill=\"#444\">{}</text>", LEFT + 2.0, esc(&line));
            y += LINE;
        }
    }
    s
}

/// The board alone, as a picture of its own: the board and what stands on it (`tetrarch gui`
/// draws the panel beside it, `panel_svg`).
pub fn board_svg(d: &Diagram, marks: &[usize], turns: u8) -> String {
    let lay = layout_turned([d], turns);
    let height = lay.board_bottom + 32.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {w} {height}\" width=\"{w}\" height=\"{height}\" \
         font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" data-files=\"{f}\" data-ranks=\"{r}\">",
        w = lay.width,
        f = d.files,
        r = d.ranks
    );
    s.push_str(&defs([d], &lay));
    s.push_str(&board(d, &lay));
    s.push_str("<g class=\"position\">");
    s.push_str(&men(d, &lay, marks));
    s.push_str("</g></svg>");
    s
}

/// The panel under the board as a picture of its own, at the board's scale.
pub fn panel_svg(d: &Diagram, over: bool) -> String {
    let lay = layout([d]);
    // Room for the longest hand, with its count after the last kind.
    let kinds = d.seats.iter().filter_map(|s| s.hand.as_ref().map(Vec::len)).max().unwrap_or(0);
    let width = (lay.width / lay.ui).max(LEFT + 72.0 + kinds as f64 * 46.0 + 20.0);
    let height = lay.height - lay.board_bottom - 32.0;
    let height = height / lay.ui;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"panel\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" \
         font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">"
    );
    // The drawings of the kinds in hand, the only pieces the panel shows.
    s.push_str("<defs>");
    for (k, seat) in d.seats.iter().enumerate() {
        for (kind, _) in seat.hand.iter().flatten() {
            let m = hand_man(k, kind);
            let _ = write!(s, "<g id=\"{}\">{}</g>", man_id(&m, true), man(d, &m, false));
        }
    }
    s.push_str("</defs>");
    s.push_str(&format!("<rect width=\"{width}\" height=\"{height}\" fill=\"#fbf8f1\"/><g class=\"position\">"));
    s.push_str(&panel(d, &lay, over));
    s.push_str("</g></svg>");
    s
}
