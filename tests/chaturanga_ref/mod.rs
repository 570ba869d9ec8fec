#![allow(dead_code)]
//! A deliberately simple Chaturanga rules implementation for the tests only: a 64-square
//! mailbox, every rule written out square by square, no tables, no bitboards, no incremental
//! anything. It shares no code with `src/`, so perft agreement between the two means something.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub army: usize,
    /// 'K' king, 'R' rook, 'N' knight, 'S' ship, 'P' pawn.
    pub kind: char,
}

#[derive(Clone, Debug)]
pub struct RefPos {
    pub ffa: bool,
    pub board: [Option<Piece>; 64],
    pub turn: usize,
    /// Armies whose king was captured, in order.
    pub out: Vec<usize>,
    pub quiet: u32,
    pub number: u32,
}

const ARMIES: [char; 4] = ['y', 'b', 'r', 'g'];

fn sq(file: i32, rank: i32) -> Option<usize> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

fn name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

/// The step forward of each army's pawns: yellow up, black right, red down, green left.
fn forward(army: usize) -> (i32, i32) {
    [(0, 1), (1, 0), (0, -1), (-1, 0)][army]
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefMove {
    pub from: usize,
    pub to: usize,
    pub promo: Option<char>,
}

impl RefMove {
    pub fn text(&self) -> String {
        let mut s = name(self.from) + &name(self.to);
        if let Some(p) = self.promo {
            s.push(p.to_ascii_lowercase());
        }
        s
    }
}

impl RefPos {
    pub fn parse(text: &str, ffa: bool) -> RefPos {
        let f: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{text}");
        let mut board = [None; 64];
        for (i, row) in f[0].split('/').enumerate() {
            let rank = 7 - i as i32;
            let mut file = 0;
            let cs: Vec<char> = row.chars().collect();
            let mut j = 0;
            while j < cs.len() {
                if let Some(d) = cs[j].to_digit(10) {
                    file += d as i32;
                    j += 1;
                } else {
                    let army = ARMIES.iter().position(|&c| c == cs[j]).unwrap();
                    board[sq(file, rank).unwrap()] = Some(Piece { army, kind: cs[j + 1] });
                    file += 1;
                    j += 2;
                }
            }
        }
        let turn = ARMIES.iter().position(|&c| c.to_string() == f[1]).unwrap();
        let out = if f[2] == "-" {
            Vec::new()
        } else {
            f[2].chars().map(|c| ARMIES.iter().position(|&a| a == c).unwrap()).collect()
        };
        RefPos { ffa, board, turn, out, quiet: f[3].parse().unwrap(), number: f[4].parse().unwrap() }
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[sq(file, rank).unwrap()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(ARMIES[p.army]);
                        s.push(p.kind);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let out: String = self.out.iter().map(|&a| ARMIES[a]).collect();
        format!(
            "{} {} {} {} {}",
            s,
            ARMIES[self.turn],
            if out.is_empty() { "-".to_string() } else { out },
            self.quiet,
            self.number
        )
    }

    pub fn is_in(&self, a: usize) -> bool {
        !self.out.contains(&a)
    }

    /// Whether armies `a` and `b` fight each other.
    fn enemies(&self, a: usize, b: usize) -> bool {
        a != b && (self.ffa || a % 2 != b % 2)
    }

    /// The squares the piece on `s` attacks (for a pawn: its two diagonal captures).
    fn attacks(&self, s: usize) -> Vec<usize> {
        let p = self.board[s].unwrap();
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut out = Vec::new();
        let mut leap = |steps: &[(i32, i32)]| {
            for &(df, dr) in steps {
                if let Some(t) = sq(f + df, r + dr) {
                    out.push(t);
                }
            }
        };
        match p.kind {
            'K' => leap(&[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]),
            'N' => leap(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]),
            'S' => leap(&[(2, 2), (2, -2), (-2, 2), (-2, -2)]),
            'P' => {
                let (df, dr) = forward(p.army);
                // Forward plus one step to either side across the direction of travel.
                if df == 0 {
                    leap(&[(-1, dr), (1, dr)]);
                } else {
                    leap(&[(df, -1), (df, 1)]);
                }
            }
            'R' => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(t) = sq(x, y) {
                        out.push(t);
                        if self.board[t].is_some() {
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
            k => panic!("unknown kind {k}"),
        }
        out
    }

    /// Whether a piece that still acts (its army is in) and fights `a` attacks `target`.
    fn attacked(&self, target: usize, a: usize) -> bool {
        (0..64).any(|s| match self.board[s] {
            Some(p) if self.enemies(a, p.army) && (!self.ffa || self.is_in(p.army)) => {
                self.attacks(s).contains(&target)
            }
            _ => false,
        })
    }

    pub fn king(&self, a: usize) -> Option<usize> {
        (0..64).find(|&s| self.board[s] == Some(Piece { army: a, kind: 'K' }))
    }

    pub fn in_check(&self, a: usize) -> bool {
        self.king(a).is_some_and(|k| self.attacked(k, a))
    }

    fn lone(&self, a: usize) -> bool {
        (0..64).filter(|&s| self.board[s].is_some_and(|p| p.army == a)).count() == 1 && self.king(a).is_some()
    }

    fn may_take(&self, a: usize, victim: Piece) -> bool {
        if self.ffa { victim.army != a } else { self.enemies(a, victim.army) && victim.kind != 'K' }
    }

    fn on_edge(a: usize, s: usize) -> bool {
        let (f, r) = (s % 8, s / 8);
        match a {
            0 => r == 7,
            1 => f == 7,
            2 => r == 0,
            _ => f == 0,
        }
    }

    fn pseudo(&self, a: usize) -> Vec<RefMove> {
        let mut out = Vec::new();
        if self.ffa && !self.is_in(a) {
            return out;
        }
        for s in 0..64 {
            let Some(p) = self.board[s] else { continue };
            if p.army != a {
                continue;
            }
            let mut add = |to: usize| {
                if p.kind == 'P' && Self::on_edge(a, to) {
                    for k in ['R', 'N', 'S'] {
                        out.push(RefMove { from: s, to, promo: Some(k) });
                    }
                } else {
                    out.push(RefMove { from: s, to, promo: None });
                }
            };
            if p.kind == 'P' {
                let (df, dr) = forward(a);
                if let Some(t) = sq((s % 8) as i32 + df, (s / 8) as i32 + dr)
                    && self.board[t].is_none()
                {
                    add(t);
                }
            }
            for t in self.attacks(s) {
                match self.board[t] {
                    None if p.kind != 'P' => add(t),
                    Some(v) if self.may_take(a, v) => add(t),
                    _ => {}
                }
            }
        }
        out
    }

    /// The board after army `a` plays `m`, with captures, the concourse and armies going out;
    /// also whether the move resets the quiet-turn count.
    fn after(&self, a: usize, m: &RefMove) -> (RefPos, bool) {
        let mut n = self.clone();
        let mover = n.board[m.from].unwrap();
        let mut reset = mover.kind == 'P';
        if let Some(v) = n.board[m.to] {
            reset = true;
            if v.kind == 'K' {
                n.out.push(v.army);
            }
        }
        n.board[m.from] = None;
        n.board[m.to] = Some(Piece { army: a, kind: m.promo.unwrap_or(mover.kind) });
        if mover.kind == 'S' {
            let (f, r) = ((m.to % 8) as i32, (m.to / 8) as i32);
            let mut block_squares = Vec::new();
            for (x, y) in [(f, r), (f - 1, r), (f, r - 1), (f - 1, r - 1)] {
                let squares: Vec<Option<usize>> = vec![sq(x, y), sq(x + 1, y), sq(x, y + 1), sq(x + 1, y + 1)];
                if squares.iter().all(|s| s.is_some_and(|s| n.board[s].is_some_and(|p| p.kind == 'S'))) {
                    block_squares.extend(squares.into_iter().flatten());
                }
            }
            for s in block_squares {
                // A square of two blocks comes twice; the first visit settled it.
                let Some(p) = n.board[s] else { continue };
                if p.army == a {
                    continue;
                }
                if !self.ffa && p.army % 2 == a % 2 {
                    n.board[s] = Some(Piece { army: a, kind: 'S' });
                } else {
                    n.board[s] = None;
                    reset = true;
                }
            }
        }
        (n, reset)
    }

    pub fn legal(&self, a: usize) -> Vec<RefMove> {
        self.pseudo(a).into_iter().filter(|m| self.ffa || !self.after(a, m).0.in_check(a)).collect()
    }

    /// `Some("win yr")`, `Some("draw")`, or none while the game goes on (without repetition,
    /// which needs a history).
    pub fn outcome(&self) -> Option<String> {
        if self.ffa {
            let left: Vec<usize> = (0..4).filter(|&a| self.is_in(a)).collect();
            if left.len() == 1 {
                return Some(format!("win {}", ARMIES[left[0]]));
            }
        } else {
            let down: Vec<bool> =
                (0..4).map(|a| self.lone(a) || (self.in_check(a) && self.legal(a).is_empty())).collect();
            let yr = down[1] && down[3];
            let bg = down[0] && down[2];
            if yr && bg {
                return Some("draw".into());
            }
            if yr {
                return Some("win yr".into());
            }
            if bg {
                return Some("win bg".into());
            }
        }
        if self.quiet >= 200 {
            return Some("draw".into());
        }
        None
    }

    /// Legal moves as text: none once the game is over, `pass` for an army with no move while
    /// another army can move.
    pub fn moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let list: Vec<String> = self.legal(self.turn).iter().map(|m| m.text()).collect();
        if !list.is_empty() {
            return list;
        }
        let others_move = (0..4).any(|a| a != self.turn && self.is_in(a) && !self.legal(a).is_empty());
        if others_move { vec!["pass".into()] } else { Vec::new() }
    }

    pub fn play(&self, text: &str) -> RefPos {
        let a = self.turn;
        let (mut n, reset) = if text == "pass" {
            (self.clone(), false)
        } else {
            let m =
                self.legal(a).into_iter().find(|m| m.text() == text).unwrap_or_else(|| panic!("{text} is not legal"));
            self.after(a, &m)
        };
        n.quiet = if reset { 0 } else { self.quiet + 1 };
        n.number = self.number + 1;
        let mut t = (a + 1) % 4;
        while !n.is_in(t) && t != a {
            t = (t + 1) % 4;
        }
        n.turn = t;
        n
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
