//! Judtho texts (protocol-spec.md 5.4): the position string, move texts, and the notes of `d`.

use super::alliance::Relations;
use super::movegen::Count;
use super::*;
use crate::board::geometry::{KNIGHT_STEPS, parse_square as parse_sq, square_name as sq_name};
use crate::rules::Notation;
use crate::rules::PositionError;
use crate::rules::text::{self, number, read_board, write_board};
use std::fmt::Write as _;

pub const START: &str =
    "12/12/12/12/12/12/12/12/12/12/12/12 w w:KQCSRNBPPPPPP,r:KQCSRNBPPPPPP,y:KQCSRNBPPPPPP,b:KQCSRNBPPPPPP - wryb 0 1";

pub fn square_name(sq: usize) -> String {
    sq_name(12, sq)
}

pub fn parse_square(s: &str) -> Option<usize> {
    parse_sq(12, 12, s)
}

fn seat_of(c: char) -> Option<u8> {
    SEAT_LETTERS.iter().position(|&l| l as char == c).map(|s| s as u8)
}

fn letters(seats: impl IntoIterator<Item = u8>) -> String {
    seats.into_iter().map(|s| SEAT_LETTERS[s as usize] as char).collect()
}

/// The one text of a move: `K*c2`, `e11e12q`, `c3g7j`, `c3xd5xe4`, each with `/<square>` for
/// the promotion of each checkmate it gives; `pass`.
pub fn format_move(m: Move) -> String {
    let mut s = match m.kind() {
        PASS_TYPE => "pass".to_string(),
        PLACE => format!("{}*{}", KIND_LETTERS[m.placed() as usize] as char, square_name(m.to())),
        DISTANT => {
            let mut squares: Vec<usize> = KNIGHT_STEPS
                .iter()
                .enumerate()
                .filter(|(i, _)| m.leaps() & (1 << i) != 0)
                .map(|(_, &(df, dr))| {
                    ((m.from() / 12) as i32 + dr) as usize * 12 + ((m.from() % 12) as i32 + df) as usize
                })
                .collect();
            squares.sort_unstable();
            let mut s = square_name(m.from());
            for q in squares {
                s.push('x');
                s.push_str(&square_name(q));
            }
            s
        }
        kind => {
            let mut s = square_name(m.from());
            s.push_str(&square_name(m.to()));
            if let Some(k) = m.promotion() {
                s.push(KIND_LETTERS[k as usize].to_ascii_lowercase() as char);
            }
            if kind == JUMP {
                s.push('j');
            }
            s
        }
    };
    for c in m.choices() {
        s.push('/');
        s.push_str(&square_name(c));
    }
    s
}

/// The turn cycles the rules allow: a rotation of `wryb`, or, with a Triple Alliance whose
/// single player is `single`, six turns alternating him with the members in `wryb` order.
fn valid_cycle(cycle: &[u8], rel: &Relations) -> bool {
    match rel.single_facing_triple() {
        None => cycle.len() == 4 && (0..4).all(|i| cycle[(i + 1) % 4] == (cycle[i] + 1) % 4),
        Some(single) => {
            cycle.len() == 6 && {
                let offset = if cycle[0] == single { 0 } else { 1 };
                let members: Vec<u8> = (0..3).map(|i| cycle[(2 * i + offset + 1) % 6]).collect();
                (0..3).all(|i| cycle[(2 * i + offset) % 6] == single)
                    && members.iter().all(|&m| m != single)
                    && (0..3).all(|i| {
                        let (a, b) = (members[i], members[(i + 1) % 3]);
                        // The next member in `wryb` order, skipping the single player.
                        let mut n = (a + 1) % 4;
                        if n == single {
                            n = (n + 1) % 4;
                        }
                        n == b
                    })
            }
        }
    }
}

impl Judtho {
    pub(super) fn parse(text: &str) -> Result<Judtho, String> {
        let f = text::fields(
            text,
            7,
            8,
            "position needs 7 fields (board, seat to move, hands, relationships, turn cycle, quiet turns, \
             turn number) and during the Assembly an 8th for its checks",
        )?;
        let mut p = Judtho::empty();
        read_board(
            f[0],
            12,
            12,
            |row| (12 - row).to_string(),
            |c| {
                let l = c.next().unwrap_or(' ');
                let seat = seat_of(l).ok_or_else(|| format!("'{}' is not a player (w r y b)", l))?;
                let kind = c
                    .next()
                    .and_then(|k| KIND_LETTERS.iter().position(|&x| x as char == k))
                    .ok_or_else(|| format!("player '{}' without a piece (K Q C S R N B P)", l))?;
                Ok((seat, kind as u8))
            },
            |(seat, kind), row, file| {
                if kind == KING && p.board.kings[seat as usize] != NONE {
                    return Err(format!("player {} has two kings", SEAT_LETTERS[seat as usize] as char));
                }
                p.put(seat, kind, (11 - row) * 12 + file);
                Ok(())
            },
        )?;
        let to_move = match f[1] {
            s if s.len() == 1 => seat_of(s.chars().next().unwrap_or(' ')),
            _ => None,
        }
        .ok_or_else(|| format!("seat to move '{}' is not w, r, y or b", f[1]))?;

        // Hands: w, r, y, b in that order, each its kinds (any order; written KQCSRNBP).
        let hands: Vec<&str> = f[2].split(',').collect();
        if hands.len() != 4 {
            return Err("hands need four entries, w:...,r:...,y:...,b:...".into());
        }
        for (s, h) in hands.iter().enumerate() {
            let want = SEAT_LETTERS[s] as char;
            let rest = h
                .strip_prefix(want)
                .and_then(|r| r.strip_prefix(':'))
                .ok_or_else(|| format!("hand {} must start with '{}:'", s + 1, want))?;
            for c in rest.bytes() {
                let k = KIND_LETTERS
                    .iter()
                    .position(|&l| l == c)
                    .ok_or_else(|| format!("hand of {}: '{}' is not a piece", want, c as char))?;
                if p.hand[s][k] >= FULL_HAND[k] {
                    return Err(format!("hand of {} holds more '{}' than a player has", want, c as char));
                }
                p.put_in_hand(s as u8, k as u8);
            }
        }

        // Relationships: '-' (the Rivalries stand) or the alliances from First Ally on.
        let alliances: Vec<Vec<u8>> = if f[3] == "-" {
            Vec::new()
        } else {
            f[3].split(',')
                .map(|a| {
                    a.chars()
                        .map(|c| seat_of(c).ok_or_else(|| format!("relationships: '{}' is not a player", c)))
                        .collect()
                })
                .collect::<Result<_, String>>()?
        };
        let sizes: Vec<usize> = alliances.iter().map(Vec::len).collect();
        if !matches!(sizes.as_slice(), [] | [2] | [3] | [2, 2]) {
            return Err(format!("relationships '{}': one alliance of two or three, or two of two", f[3]));
        }
        if alliances.len() == 2 && alliances[0][0] > alliances[1][0] {
            return Err("relationships: alliances in the order of their First Allies (w r y b)".into());
        }
        p.rel = Relations::from_alliances(&alliances)?;

        let cycle: Vec<u8> = f[4]
            .chars()
            .map(|c| seat_of(c).ok_or_else(|| format!("turn cycle: '{}' is not a player", c)))
            .collect::<Result<_, _>>()?;
        if cycle.first() != Some(&to_move) {
            return Err("the turn cycle must start with the seat to move".into());
        }
        if !valid_cycle(&cycle, &p.rel) {
            return Err(format!("turn cycle '{}' is not one the relationships allow", f[4]));
        }
        p.cycle[..cycle.len()].copy_from_slice(&cycle);
        p.cycle_len = cycle.len() as u8;

        p.quiet = number(f[5], "quiet turns", 0, QUIET_LIMIT.into())? as u16;
        p.number = number(f[6], "turn number", 1, u64::MAX)?;

        // Where the game stands: the Assembly while any hand holds more than the one piece
        // the Battles keep.
        let on_board = |s: usize| p.board.by_seat[s].count() as u8;
        let in_hand = |s: usize| p.hand[s].iter().sum::<u8>();
        let assembly =
            (0..4).any(|s| in_hand(s) > 1 || p.hand[s][PRINCE as usize] + p.hand[s][PRINCESS as usize] < in_hand(s));
        if assembly {
            let placed: u8 = (0..4).map(on_board).sum();
            p.placed = placed;
            if !alliances.is_empty() || p.quiet != 0 {
                return Err("during the Assembly there are no alliances and no quiet turns".into());
            }
            if to_move != placed % 4 || p.number != placed as u64 + 1 {
                return Err("during the Assembly the seat to move and turn number follow the placements".into());
            }
            for s in 0..4usize {
                let letter = SEAT_LETTERS[s] as char;
                if on_board(s) + in_hand(s) != 13 {
                    return Err(format!("during the Assembly {} has 13 pieces, on the board or in hand", letter));
                }
                if on_board(s) != (placed + 3 - s as u8) / 4 {
                    return Err(format!("{} has placed {} pieces, out of turn", letter, on_board(s)));
                }
                if p.board.by_seat[s].minus(tables().realm[s]).any() {
                    return Err(format!("{} has a piece outside its Realm during the Assembly", letter));
                }
                if p.hand[s][PRINCE as usize] + p.hand[s][PRINCESS as usize] == 0 {
                    return Err(format!("{} has placed both Prince and Princess", letter));
                }
                for k in 0..8 {
                    let n = p.hand[s][k] + (p.board.by_seat[s] & p.board.by_kind[k]).count() as u8;
                    if n != FULL_HAND[k] {
                        return Err(format!("{} has {} of '{}'", letter, n, KIND_LETTERS[k] as char));
                    }
                }
            }
        } else {
            p.placed = ASSEMBLY;
            for s in 0..4usize {
                let letter = SEAT_LETTERS[s] as char;
                if p.board.kings[s] == NONE {
                    return Err(format!("{} has no king on the board", letter));
                }
                if on_board(s) + in_hand(s) > 13 {
                    return Err(format!("{} has more than 13 pieces", letter));
                }
                if (p.board.by_seat[s] & p.board.by_kind[PAWN as usize]).count() > 6 {
                    return Err(format!("{} has more than 6 pawns", letter));
                }
                if (p.board.by_seat[s] & p.board.by_kind[PAWN as usize] & tables().far_rank[pawn_dir(s as u8)]).any() {
                    return Err(format!("{} has a pawn on the rank it promotes on", letter));
                }
            }
        }

        if f.len() == 8 {
            if !assembly {
                return Err("the Assembly's checks field exists only during the Assembly".into());
            }
            p.parse_checks(f[7])?;
        }

        p.hash = p.hash_from_scratch();
        p.refresh_checked();
        p.settle()?;
        let mut count = Count(0);
        if p.over.is_none() && !p.in_assembly() {
            p.generate(to_move, &mut count, true);
            if count.0 > MAX_MOVES {
                return Err(format!(
                    "the position has {} legal moves, more than tetrarch's bound of {}",
                    count.0, MAX_MOVES
                ));
            }
        }
        Ok(p)
    }

    /// The Assembly's checks field: `<seat>:<square>[.<square>...][!]`, comma-separated in
    /// seat order; the squares of the placements that gave the seat's king check, in order, and
    /// `!` while the seat still owes T6's answer.
    fn parse_checks(&mut self, field: &str) -> Result<(), String> {
        let mut last: Option<u8> = None;
        for entry in field.split(',') {
            let (who, rest) =
                entry.split_once(':').ok_or_else(|| format!("checks entry '{}' is not <seat>:<squares>", entry))?;
            let seat = who
                .chars()
                .next()
                .filter(|_| who.len() == 1)
                .and_then(seat_of)
                .ok_or_else(|| format!("checks entry '{}': '{}' is not a player", entry, who))?;
            if last.is_some_and(|l| l >= seat) {
                return Err("checks entries in seat order w r y b, each once".into());
            }
            last = Some(seat);
            let (squares, pending) = match rest.strip_suffix('!') {
                Some(s) => (s, true),
                None => (rest, false),
            };
            for sq in squares.split('.') {
                let q = parse_square(sq).ok_or_else(|| format!("checks entry '{}': bad square '{}'", entry, sq))?;
                match self.board.at(q) {
                    Some((x, _)) if self.rel.opponents(seat) & (1 << x) != 0 => {}
                    _ => return Err(format!("checks entry '{}': no Opponent's piece on {}", entry, sq)),
                }
                let n = self.n_checks[seat as usize] as usize;
                if n >= self.checks[seat as usize].len() {
                    return Err(format!("checks entry '{}' is too long", entry));
                }
                self.checks[seat as usize][n] = q as u8;
                self.n_checks[seat as usize] += 1;
            }
            if pending {
                if self.board.kings[seat as usize] == NONE {
                    return Err(format!("checks entry '{}': an obligation without a king", entry));
                }
                self.pending |= 1 << seat;
            }
        }
        Ok(())
    }

    /// Checks what the rules say of kings in check, and finds the end the position shows. After
    /// the second checkmate the two sides fight on and a king in check without a legal move is
    /// the Third Checkmate: the game is over. Before it, such a king is the one that just moved
    /// (a checkmate it gave ended the Rivalries); any other would already have been mated.
    fn settle(&mut self) -> Result<(), String> {
        if self.in_assembly() {
            self.over = None;
            return Ok(());
        }
        let previous = self.cycle[self.cycle_len as usize - 1];
        for s in 0..4u8 {
            if self.king_in_check(s) && !self.has_legal_move(s) {
                if self.rel.two_sides() {
                    let winners = 0xF & !self.rel.side_mask(s);
                    self.over = Some(Outcome::win(SeatMask(winners), Termination::Checkmate));
                    return Ok(());
                }
                if s != previous {
                    return Err(format!(
                        "{}'s king is in check with no legal move: that checkmate would have been resolved",
                        SEAT_LETTERS[s as usize] as char
                    ));
                }
            }
        }
        self.over = self.compute_over();
        Ok(())
    }

    /// The Battle the game is in, by the source's names; `over` once the position ends the
    /// game, by a third checkmate, T12, or T10's stalemate (no legal move, not even `pass`).
    fn phase(&self) -> &'static str {
        if self.over.is_some() || self.stalemated() {
            "over"
        } else if self.in_assembly() {
            "assembly"
        } else {
            ["ascendancy", "control", "dominion"][self.rel.mates().min(2) as usize]
        }
    }
}

impl Judtho {
    fn stalemated(&self) -> bool {
        use crate::rules::Rules;
        let mut moves = List::default();
        self.legal_moves(&mut moves);
        moves.is_empty()
    }
}

impl Notation for Judtho {
    fn from_text(text: &str) -> Result<Self, PositionError> {
        Self::parse(text).map_err(PositionError)
    }

    fn to_text(&self) -> String {
        let mut s = String::with_capacity(160);
        write_board(&mut s, 12, 12, |row, file, out| {
            if let Some((seat, kind)) = self.board.at((11 - row) * 12 + file) {
                out.push(SEAT_LETTERS[seat as usize] as char);
                out.push(KIND_LETTERS[kind as usize] as char);
            }
        });
        let _ = write!(s, " {} ", SEAT_LETTERS[self.to_move_seat() as usize] as char);
        for seat in 0..4 {
            if seat > 0 {
                s.push(',');
            }
            s.push(SEAT_LETTERS[seat] as char);
            s.push(':');
            for k in 0..8 {
                for _ in 0..self.hand[seat][k] {
                    s.push(KIND_LETTERS[k] as char);
                }
            }
        }
        let alliances = self.rel.alliances();
        let rel = if alliances.is_empty() {
            "-".to_string()
        } else {
            alliances.iter().map(|a| letters(a.iter().copied())).collect::<Vec<_>>().join(",")
        };
        let _ = write!(s, " {} {} {} {}", rel, letters(self.cycle().iter().copied()), self.quiet, self.number);
        if self.n_checks.iter().any(|&n| n > 0) {
            let entries: Vec<String> = (0..4)
                .filter(|&seat| self.n_checks[seat] > 0)
                .map(|seat| {
                    let squares: Vec<String> = self.checks[seat][..self.n_checks[seat] as usize]
                        .iter()
                        .map(|&q| square_name(q as usize))
                        .collect();
                    let bang = if self.pending & (1 << seat) != 0 { "!" } else { "" };
                    format!("{}:{}{}", SEAT_LETTERS[seat] as char, squares.join("."), bang)
                })
                .collect();
            s.push(' ');
            s.push_str(&entries.join(","));
        }
        s
    }

    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn move_number(&self) -> u64 {
        self.number
    }

    fn milestone(&self, before: &Self) -> Option<String> {
        let mut parts = Vec::new();
        if before.in_assembly() && !self.in_assembly() {
            parts.push("assembly complete".to_string());
        }
        if before.rel != self.rel {
            let alliances: Vec<String> = self.rel.alliances().iter().map(|a| letters(a.iter().copied())).collect();
            parts.push(format!("alliances {}", alliances.join(",")));
            parts.push(format!("cycle {}", letters(self.cycle().iter().copied())));
        }
        if before.over.is_none()
            && let Some(o) = self.over
        {
            parts.push(format!(
                "{} {}",
                if o.is_draw() {
                    "draw".to_string()
                } else {
                    format!("won by {}", letters(o.winners.seats().map(|s| s.0)))
                },
                o.reason.as_str()
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        let rel = &self.rel;
        let alliances = rel.alliances();
        let allied = alliances
            .iter()
            .map(|a| {
                a.iter()
                    .enumerate()
                    .map(|(i, &m)| format!("{}{}", SEAT_LETTERS[m as usize] as char, i + 1))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(",");
        let rivals = if rel.rivals_stand() { "wy,rb".to_string() } else { "-".to_string() };
        let movers = (0..4u8)
            .map(|s| {
                format!(
                    "{}:{}",
                    SEAT_LETTERS[s as usize] as char,
                    letters((0..4).filter(|&o| rel.movable(s) & (1 << o) != 0))
                )
            })
            .collect::<Vec<_>>()
            .join(",");
        let hands = (0..4u8)
            .map(|s| {
                let h: String = (0..8)
                    .flat_map(|k| std::iter::repeat_n(KIND_LETTERS[k] as char, self.hand[s as usize][k] as usize))
                    .collect();
                format!("{}:{}", SEAT_LETTERS[s as usize] as char, h)
            })
            .collect::<Vec<_>>()
            .join(",");
        let obligations = letters((0..4u8).filter(|&s| self.pending & (1 << s) != 0));
        vec![
            ("phase", self.phase().to_string()),
            ("alliances", dash(allied)),
            ("rivals", rivals),
            ("moves", movers),
            ("cycle", letters(self.cycle().iter().copied())),
            ("hands", hands),
            ("obligation", dash(obligations)),
            ("quiet", self.quiet.to_string()),
        ]
    }
}
