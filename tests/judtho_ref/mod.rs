#![allow(dead_code)]
//! A deliberately simple Judtho rules implementation for the tests only: a 144-square mailbox,
//! every rule written out square by square from docs/rules/judtho.md, legality by playing the
//! move and looking at every piece on the board, no tables, no incremental anything. It shares no
//! code with `src/`, so agreement between the two means something.

/// A piece: its owner (0 w, 1 r, 2 y, 3 b) and kind letter (K Q C S R N B P).
pub type Piece = (u8, char);

const SEATS: [char; 4] = ['w', 'r', 'y', 'b'];
const KINDS: [char; 8] = ['K', 'Q', 'C', 'S', 'R', 'N', 'B', 'P'];
const QUEEN_LINES: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
const ROOK_LINES: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_LINES: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_JUMPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

fn at(file: i32, rank: i32) -> Option<usize> {
    ((0..12).contains(&file) && (0..12).contains(&rank)).then(|| (rank * 12 + file) as usize)
}

fn fr(s: usize) -> (i32, i32) {
    ((s % 12) as i32, (s / 12) as i32)
}

pub fn name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 12) as u8) as char, s / 12 + 1)
}

/// Whether square `s` is in `seat`'s Realm: White a1-f4, Red a9-f12, Yellow g1-l4, Black g9-l12.
fn in_realm(seat: u8, s: usize) -> bool {
    let (f, r) = fr(s);
    let west = f < 6;
    let south = r < 4;
    let north = r >= 8;
    match seat {
        0 => west && south,
        1 => west && north,
        2 => !west && south,
        _ => !west && north,
    }
}

/// +1 for White's and Yellow's pawns (toward rank 12), -1 for Red's and Black's.
fn forward(seat: u8) -> i32 {
    if seat == 0 || seat == 2 { 1 } else { -1 }
}

#[derive(Clone, Debug, PartialEq)]
pub struct RefMove {
    pub text: String,
    /// The squares whose pieces are removed, the piece moved (from, to, kind placed on `to`).
    captures: Vec<usize>,
    from: usize,
    to: usize,
    stays: bool,
    kind: char,
    place: bool,
    pass: bool,
}

#[derive(Clone, Debug)]
pub struct RefPos {
    pub board: Vec<Option<Piece>>,
    pub hands: [Vec<char>; 4],
    /// Each alliance from First Ally on.
    pub alliances: Vec<Vec<u8>>,
    pub cycle: Vec<u8>,
    pub quiet: u32,
    pub number: u32,
    /// The Assembly's records: the squares of the placements that checked each king, and who
    /// still owes T6's answer.
    pub checks: [Vec<usize>; 4],
    pub pending: [bool; 4],
    /// After the third checkmate, the winners.
    pub over: Option<u8>,
    pub draw: bool,
}

impl RefPos {
    pub fn parse(text: &str) -> RefPos {
        let f: Vec<&str> = text.split_whitespace().collect();
        let mut board = vec![None; 144];
        for (i, rank) in f[0].split('/').enumerate() {
            let r = 11 - i as i32;
            let mut file = 0;
            let cs: Vec<char> = rank.chars().collect();
            let mut j = 0;
            while j < cs.len() {
                if cs[j].is_ascii_digit() {
                    let mut n = cs[j].to_digit(10).unwrap();
                    if j + 1 < cs.len() && cs[j + 1].is_ascii_digit() {
                        n = n * 10 + cs[j + 1].to_digit(10).unwrap();
                        j += 1;
                    }
                    file += n as i32;
                    j += 1;
                } else {
                    let seat = SEATS.iter().position(|&c| c == cs[j]).unwrap() as u8;
                    board[at(file, r).unwrap()] = Some((seat, cs[j + 1]));
                    file += 1;
                    j += 2;
                }
            }
        }
        let mut hands: [Vec<char>; 4] = Default::default();
        for (i, h) in f[2].split(',').enumerate() {
            hands[i] = h[2..].chars().collect();
        }
        let seat = |c: char| SEATS.iter().position(|&x| x == c).unwrap() as u8;
        let alliances =
            if f[3] == "-" { Vec::new() } else { f[3].split(',').map(|a| a.chars().map(seat).collect()).collect() };
        let mut checks: [Vec<usize>; 4] = Default::default();
        let mut pending = [false; 4];
        if f.len() == 8 {
            for e in f[7].split(',') {
                let s = seat(e.chars().next().unwrap()) as usize;
                let rest = &e[2..];
                let (sq, bang) = match rest.strip_suffix('!') {
                    Some(x) => (x, true),
                    None => (rest, false),
                };
                pending[s] = bang;
                for q in sq.split('.') {
                    let b = q.as_bytes();
                    let file = (b[0] - b'a') as i32;
                    let rank: i32 = q[1..].parse::<i32>().unwrap() - 1;
                    checks[s].push(at(file, rank).unwrap());
                }
            }
        }
        let mut p = RefPos {
            board,
            hands,
            alliances,
            cycle: f[4].chars().map(seat).collect(),
            quiet: f[5].parse().unwrap(),
            number: f[6].parse().unwrap(),
            checks,
            pending,
            over: None,
            draw: false,
        };
        if !p.assembly() {
            for s in 0..4u8 {
                if p.mates() == 2 && p.in_check(s) && p.legal(s, false).is_empty() {
                    let side = p.side(s);
                    p.over = Some((0..4).filter(|&x| !side.contains(&x)).fold(0, |m, x| m | (1 << x)));
                }
            }
            if p.quiet >= 200 && p.over.is_none() {
                p.draw = true;
            }
        }
        p
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for r in (0..12).rev() {
            let mut empty = 0;
            for f in 0..12 {
                match self.board[at(f, r).unwrap()] {
                    None => empty += 1,
                    Some((seat, k)) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(SEATS[seat as usize]);
                        s.push(k);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(SEATS[self.cycle[0] as usize]);
        s.push(' ');
        let hands: Vec<String> = (0..4)
            .map(|i| {
                let mut h = self.hands[i].clone();
                h.sort_by_key(|c| KINDS.iter().position(|k| k == c));
                format!("{}:{}", SEATS[i], h.iter().collect::<String>())
            })
            .collect();
        s += &hands.join(",");
        s.push(' ');
        if self.alliances.is_empty() {
            s.push('-');
        } else {
            let mut a = self.alliances.clone();
            a.sort_by_key(|x| x[0]);
            s += &a
                .iter()
                .map(|x| x.iter().map(|&m| SEATS[m as usize]).collect::<String>())
                .collect::<Vec<_>>()
                .join(",");
        }
        s += &format!(
            " {} {} {}",
            self.cycle.iter().map(|&c| SEATS[c as usize]).collect::<String>(),
            self.quiet,
            self.number
        );
        let entries: Vec<String> = (0..4)
            .filter(|&i| !self.checks[i].is_empty())
            .map(|i| {
                format!(
                    "{}:{}{}",
                    SEATS[i],
                    self.checks[i].iter().map(|&q| name(q)).collect::<Vec<_>>().join("."),
                    if self.pending[i] { "!" } else { "" }
                )
            })
            .collect();
        if !entries.is_empty() {
            s.push(' ');
            s += &entries.join(",");
        }
        s
    }

    fn placed(&self) -> usize {
        self.board.iter().filter(|p| p.is_some()).count()
    }

    pub fn assembly(&self) -> bool {
        self.hands.iter().any(|h| h.len() > 1 || h.iter().any(|&c| c != 'C' && c != 'S'))
    }

    fn mates(&self) -> usize {
        self.alliances.iter().map(|a| a.len() - 1).sum()
    }

    fn alliance_of(&self, s: u8) -> Option<&Vec<u8>> {
        self.alliances.iter().find(|a| a.contains(&s))
    }

    fn side(&self, s: u8) -> Vec<u8> {
        self.alliance_of(s).cloned().unwrap_or_else(|| vec![s])
    }

    fn opponents(&self, a: u8, b: u8) -> bool {
        if a == b || self.alliance_of(a).is_some_and(|al| al.contains(&b)) {
            return false;
        }
        !(self.alliances.is_empty() && (a + 2) % 4 == b)
    }

    /// Whether `mover` may move the pieces of `owner`: his own, or an ally's ranked below him.
    fn may_move(&self, mover: u8, owner: u8) -> bool {
        if mover == owner {
            return true;
        }
        match self.alliance_of(mover) {
            Some(a) if a.contains(&owner) => {
                a.iter().position(|&x| x == owner).unwrap() > a.iter().position(|&x| x == mover).unwrap()
            }
            _ => false,
        }
    }

    fn king(&self, s: u8) -> Option<usize> {
        (0..144).find(|&q| self.board[q] == Some((s, 'K')))
    }

    /// Whether the piece on `from` attacks `target` (T5).
    fn attacks(&self, from: usize, target: usize) -> bool {
        let Some((x, k)) = self.board[from] else { return false };
        let (f, r) = fr(from);
        let (tf, tr) = fr(target);
        let (df, dr) = (tf - f, tr - r);
        match k {
            'K' => from != target && df.abs() <= 1 && dr.abs() <= 1,
            'N' => (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1),
            'P' => df.abs() == 1 && dr == forward(x),
            'S' => (df == 0 || dr == 0 || df.abs() == dr.abs()) && from != target && df.abs().max(dr.abs()) <= 4,
            'C' => {
                if (df == 0) == (dr == 0) || df.abs().max(dr.abs()) > 3 {
                    return false;
                }
                let (sf, sr) = (df.signum(), dr.signum());
                let n = df.abs().max(dr.abs());
                (1..n).all(|i| match self.board[at(f + sf * i, r + sr * i).unwrap()] {
                    None => true,
                    Some((o, kk)) => kk != 'K' && self.opponents(x, o),
                })
            }
            _ => {
                let lines: &[(i32, i32)] = match k {
                    'Q' => &QUEEN_LINES,
                    'R' => &ROOK_LINES,
                    _ => &BISHOP_LINES,
                };
                let n = df.abs().max(dr.abs());
                if n == 0
                    || !(df == 0 || dr == 0 || df.abs() == dr.abs())
                    || !lines.contains(&(df.signum(), dr.signum()))
                {
                    return false;
                }
                (1..n).all(|i| self.board[at(f + df.signum() * i, r + dr.signum() * i).unwrap()].is_none())
            }
        }
    }

    fn attacked_by(&self, target: usize, by: impl Fn(u8) -> bool) -> bool {
        (0..144).any(|q| matches!(self.board[q], Some((x, _)) if by(x)) && self.attacks(q, target))
    }

    pub fn in_check(&self, s: u8) -> bool {
        match self.king(s) {
            Some(k) => self.attacked_by(k, |x| self.opponents(s, x)),
            None => false,
        }
    }

    fn capturable(&self, owner: u8, q: usize) -> bool {
        matches!(self.board[q], Some((o, k)) if k != 'K' && self.opponents(owner, o))
    }

    fn mv(text: String, from: usize, to: usize, kind: char, captures: Vec<usize>) -> RefMove {
        RefMove { text, captures, from, to, stays: false, kind, place: false, pass: false }
    }

    /// The moves of the piece on `s` owned by `o`, before legality.
    fn piece_moves(&self, s: usize, out: &mut Vec<RefMove>) {
        let Some((o, k)) = self.board[s] else { return };
        let (f, r) = fr(s);
        let plain = |t: usize| name(s) + &name(t);
        let take = |t: usize| if self.board[t].is_some() { vec![t] } else { vec![] };
        match k {
            'K' | 'N' => {
                let steps: &[(i32, i32)] = if k == 'K' { &QUEEN_LINES } else { &KNIGHT_JUMPS };
                for &(a, b) in steps {
                    if let Some(t) = at(f + a, r + b)
                        && (self.board[t].is_none() || self.capturable(o, t))
                    {
                        out.push(Self::mv(plain(t), s, t, k, take(t)));
                    }
                }
                if k == 'N' {
                    let victims: Vec<usize> = KNIGHT_JUMPS
                        .iter()
                        .filter_map(|&(a, b)| at(f + a, r + b))
                        .filter(|&t| self.capturable(o, t))
                        .collect();
                    for mask in 1u32..(1 << victims.len()) {
                        let mut chosen: Vec<usize> =
                            victims.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, &t)| t).collect();
                        chosen.sort();
                        let text = name(s) + &chosen.iter().map(|&t| format!("x{}", name(t))).collect::<String>();
                        out.push(RefMove {
                            text,
                            captures: chosen,
                            from: s,
                            to: s,
                            stays: true,
                            kind: 'N',
                            place: false,
                            pass: false,
                        });
                    }
                }
            }
            'P' => {
                let fw = forward(o);
                let far = |t: usize| (t / 12) as i32 == if fw > 0 { 11 } else { 0 };
                let mut dests = Vec::new();
                if let Some(t1) = at(f, r + fw)
                    && self.board[t1].is_none()
                {
                    dests.push(t1);
                    if let Some(t2) = at(f, r + 2 * fw)
                        && self.board[t2].is_none()
                    {
                        dests.push(t2);
                    }
                }
                for a in [-1, 1] {
                    if let Some(t) = at(f + a, r + fw)
                        && self.capturable(o, t)
                    {
                        dests.push(t);
                    }
                }
                for t in dests {
                    if far(t) {
                        for pk in ['Q', 'C', 'S', 'R', 'N', 'B'] {
                            out.push(Self::mv(plain(t) + &pk.to_ascii_lowercase().to_string(), s, t, pk, take(t)));
                        }
                    } else {
                        out.push(Self::mv(plain(t), s, t, 'P', take(t)));
                    }
                }
            }
            'Q' | 'R' | 'B' => {
                let lines: &[(i32, i32)] = match k {
                    'Q' => &QUEEN_LINES,
                    'R' => &ROOK_LINES,
                    _ => &BISHOP_LINES,
                };
                for &(a, b) in lines {
                    let mut i = 1;
                    while let Some(t) = at(f + a * i, r + b * i) {
                        if self.board[t].is_none() {
                            out.push(Self::mv(plain(t), s, t, k, vec![]));
                        } else {
                            if self.capturable(o, t) {
                                out.push(Self::mv(plain(t), s, t, k, vec![t]));
                            }
                            break;
                        }
                        i += 1;
                    }
                }
            }
            _ => {
                let (lines, reach): (&[(i32, i32)], i32) = if k == 'S' { (&QUEEN_LINES, 4) } else { (&ROOK_LINES, 3) };
                for &(a, b) in lines {
                    for n in 1..=reach {
                        let Some(t) = at(f + a * n, r + b * n) else { break };
                        let path: Vec<usize> = (1..n).map(|i| at(f + a * i, r + b * i).unwrap()).collect();
                        let empty_path = path.iter().all(|&q| self.board[q].is_none());
                        let passable = path.iter().all(|&q| self.board[q].is_none() || self.capturable(o, q));
                        if self.board[t].is_none() {
                            if empty_path {
                                out.push(Self::mv(plain(t), s, t, k, vec![]));
                            }
                        } else if self.capturable(o, t) {
                            if passable {
                                let mut caps: Vec<usize> =
                                    path.iter().copied().filter(|&q| self.board[q].is_some()).collect();
                                caps.push(t);
                                out.push(Self::mv(plain(t), s, t, k, caps));
                            }
                            if k == 'S' && !empty_path {
                                out.push(Self::mv(plain(t) + "j", s, t, k, vec![t]));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The board after a move's pieces have moved.
    fn moved(&self, m: &RefMove) -> RefPos {
        let mut p = self.clone();
        let owner = self.board[m.from].map(|x| x.0);
        for &c in &m.captures {
            p.board[c] = None;
        }
        if !m.stays {
            p.board[m.from] = None;
            p.board[m.to] = Some((owner.unwrap(), m.kind));
        }
        p
    }

    /// The legal moves of the Battles for `s` (T7), each checkmate's promotions spelled out when
    /// `variants`; no pass.
    pub fn legal(&self, s: u8, variants: bool) -> Vec<(RefMove, RefPos)> {
        let mut pseudo = Vec::new();
        for q in 0..144 {
            if let Some((o, _)) = self.board[q]
                && self.may_move(s, o)
            {
                self.piece_moves(q, &mut pseudo);
            }
        }
        let mut out = Vec::new();
        for m in pseudo {
            let owner = self.board[m.from].unwrap().0;
            let after = self.moved(&m);
            if after.in_check(s) || after.in_check(owner) {
                continue;
            }
            if !variants {
                out.push((m, after));
                continue;
            }
            let mut next = after.clone();
            next.cycle.rotate_left(1);
            next.number += 1;
            let reset = !m.captures.is_empty() || self.board[m.from].unwrap().1 == 'P';
            next.quiet = if reset { 0 } else { next.quiet + 1 };
            for (p, choices) in next.resolve(s, false) {
                let mut mm = m.clone();
                for c in choices {
                    mm.text += &format!("/{}", name(c));
                }
                out.push((mm, p));
            }
        }
        out
    }

    /// T8 (and T6b with `assembly_end`): every checkmate the last move gives, in order, each way
    /// its promotion can be chosen.
    fn resolve(&self, mover: u8, assembly_end: bool) -> Vec<(RefPos, Vec<usize>)> {
        if self.over.is_some() {
            return vec![(self.clone(), vec![])];
        }
        let order: Vec<u8> = (1..=4).map(|i| (mover + i) % 4).filter(|&x| assembly_end || x != mover).collect();
        let Some(v) = order.iter().copied().find(|&x| self.in_check(x) && self.legal(x, false).is_empty()) else {
            return vec![(self.clone(), vec![])];
        };
        let k = self.king(v).unwrap();
        let checking = |x: u8| self.opponents(v, x) && self.attacked_by(k, |y| y == x);
        let t8 = || (1..4).map(|i| (v + i) % 4).find(|&x| checking(x)).unwrap();
        let mater = if assembly_end {
            self.checks[v as usize]
                .iter()
                .rev()
                .find(|&&q| matches!(self.board[q], Some((x, _)) if self.opponents(v, x)) && self.attacks(q, k))
                .map(|&q| self.board[q].unwrap().0)
                .unwrap_or_else(t8)
        } else if self.opponents(mover, v) {
            mover
        } else {
            t8()
        };
        let third = self.mates() == 2;
        let piece = self.hands[v as usize].iter().copied().find(|&c| c == 'C' || c == 'S');
        let mut squares: Vec<usize> = Vec::new();
        if !third && piece.is_some() {
            squares = (0..144).filter(|&q| self.board[q] == Some((v, 'P'))).collect();
            if squares.is_empty() {
                squares = (0..144).filter(|&q| in_realm(v, q) && self.board[q].is_none()).collect();
            }
            if squares.is_empty() {
                squares = (0..144).filter(|&q| in_realm(mater, q) && self.board[q].is_none()).collect();
            }
        }
        if assembly_end && !squares.is_empty() {
            let (kf, kr) = fr(k);
            let best = *squares
                .iter()
                .min_by_key(|&&q| {
                    let (f, r) = fr(q);
                    ((f - kf).abs().max((r - kr).abs()), f, r)
                })
                .unwrap();
            squares = vec![best];
        }
        let options: Vec<Option<usize>> =
            if squares.is_empty() { vec![None] } else { squares.into_iter().map(Some).collect() };
        let mut out = Vec::new();
        for o in options {
            let mut p = self.clone();
            if let (Some(q), Some(c)) = (o, piece) {
                p.board[q] = Some((v, c));
                let i = p.hands[v as usize].iter().position(|&x| x == c).unwrap();
                p.hands[v as usize].remove(i);
            }
            p.quiet = 0;
            p.forge(mater, v);
            let assembly_choice = assembly_end;
            for (q, mut rest) in p.resolve(mover, assembly_end) {
                let mut choices = Vec::new();
                if let Some(sq) = o
                    && !assembly_choice
                {
                    choices.push(sq);
                }
                choices.append(&mut rest);
                out.push((q, choices));
            }
        }
        out
    }

    /// The relationships after `x` checkmates `v`, and T9's turn order.
    fn forge(&mut self, x: u8, v: u8) {
        if self.mates() == 2 {
            let side = self.side(x);
            self.over = Some(side.iter().fold(0, |m, &s| m | (1 << s)));
            return;
        }
        let ax = self.alliances.iter().position(|a| a.contains(&x));
        let av = self.alliances.iter().position(|a| a.contains(&v));
        match (ax, av) {
            (Some(i), None) => self.alliances[i].push(v),
            (None, Some(i)) => self.alliances[i].insert(0, x),
            _ => self.alliances.push(vec![x, v]),
        }
        if let Some(a) = self.alliances.iter().find(|a| a.len() == 3) {
            let single = (0..4).find(|s| !a.contains(s)).unwrap();
            let members: Vec<u8> = (1..=4).map(|i| (x + i) % 4).filter(|&s| s != single).collect();
            self.cycle = vec![single, members[0], single, members[1], single, members[2]];
        }
    }

    /// The placements of the seat to move, with T6.
    fn placements(&self) -> Vec<(RefMove, RefPos)> {
        let s = self.cycle[0];
        let hand = &self.hands[s as usize];
        let mut kinds: Vec<char> = Vec::new();
        for &c in hand {
            if !kinds.contains(&c) {
                kinds.push(c);
            }
        }
        let both = hand.contains(&'C') && hand.contains(&'S');
        kinds.retain(|&c| both || (c != 'C' && c != 'S'));
        let empty: Vec<usize> = (0..144).filter(|&q| in_realm(s, q) && self.board[q].is_none()).collect();
        let hostile = |x: u8| self.opponents(s, x) || (x + 2) % 4 == s;
        let mut all = Vec::new();
        for &k in &kinds {
            let mut squares: Vec<usize> = empty.clone();
            if k == 'K' {
                squares.retain(|&q| !self.attacked_by(q, hostile));
                if squares.is_empty() && kinds.iter().all(|&c| c == 'K') {
                    squares = empty.clone();
                }
            }
            for q in squares {
                all.push((k, q));
            }
        }
        if self.pending[s as usize] && self.in_check(s) {
            let king = self.king(s).unwrap();
            let checkers: Vec<usize> = (0..144)
                .filter(|&q| matches!(self.board[q], Some((x, _)) if self.opponents(s, x)) && self.attacks(q, king))
                .collect();
            let with = |k: char, q: usize| {
                let mut p = self.clone();
                p.board[q] = Some((s, k));
                p
            };
            let ends: Vec<(char, usize)> = all.iter().copied().filter(|&(k, q)| !with(k, q).in_check(s)).collect();
            let chosen = if !ends.is_empty() {
                ends
            } else {
                let ready: Vec<(char, usize)> = all
                    .iter()
                    .copied()
                    .filter(|&(k, q)| {
                        let p = with(k, q);
                        let mut quiet = Vec::new();
                        p.piece_moves(q, &mut quiet);
                        quiet.retain(|m| m.captures.is_empty() && !m.stays);
                        checkers.iter().all(|&c| {
                            // It attacks the checker, or one of its moves would stop the check
                            // from the checker's side (a Princess's cannot be interposed).
                            p.attacks(q, c)
                                || (p.board[c].unwrap().1 != 'S'
                                    && quiet.iter().any(|m| {
                                        let b = p.moved(m);
                                        !b.attacks(c, king)
                                    }))
                        })
                    })
                    .collect();
                if ready.is_empty() { all } else { ready }
            };
            return chosen.into_iter().map(|(k, q)| self.placement(s, k, q)).collect();
        }
        all.into_iter().map(|(k, q)| self.placement(s, k, q)).collect()
    }

    fn placement(&self, s: u8, k: char, q: usize) -> (RefMove, RefPos) {
        let mut p = self.clone();
        let i = p.hands[s as usize].iter().position(|&c| c == k).unwrap();
        p.hands[s as usize].remove(i);
        p.board[q] = Some((s, k));
        p.pending[s as usize] = false;
        for v in 0..4u8 {
            if let Some(kv) = p.king(v)
                && p.opponents(s, v)
                && p.attacks(q, kv)
            {
                p.pending[v as usize] = true;
                p.checks[v as usize].push(q);
            }
        }
        p.cycle.rotate_left(1);
        p.number += 1;
        if p.placed() == 48 {
            let (mut end, _) = p.resolve(s, true).remove(0);
            end.checks = Default::default();
            end.pending = [false; 4];
            p = end;
        }
        let m = RefMove {
            text: format!("{}*{}", k, name(q)),
            captures: vec![],
            from: q,
            to: q,
            stays: true,
            kind: k,
            place: true,
            pass: false,
        };
        (m, p)
    }

    /// Every legal move of the seat to move, with the position after it.
    pub fn moves(&self) -> Vec<(String, RefPos)> {
        if self.over.is_some() || self.draw {
            return Vec::new();
        }
        if self.assembly() {
            return self.placements().into_iter().map(|(m, p)| (m.text, p)).collect();
        }
        let s = self.cycle[0];
        let legal = self.legal(s, true);
        if !legal.is_empty() {
            return legal
                .into_iter()
                .map(|(m, mut p)| {
                    if p.quiet >= 200 && p.over.is_none() {
                        p.draw = true;
                    }
                    (m.text, p)
                })
                .collect();
        }
        if self.in_check(s) {
            return Vec::new();
        }
        let triple_single = self.alliances.iter().any(|a| a.len() == 3) && self.alliance_of(s).is_none();
        let others = (1..4).map(|i| (s + i) % 4).any(|x| !self.legal(x, false).is_empty());
        if triple_single || !others {
            return Vec::new();
        }
        let mut p = self.clone();
        p.cycle.rotate_left(1);
        p.number += 1;
        p.quiet += 1;
        let (mut after, _) = p.resolve(s, false).remove(0);
        if after.quiet >= 200 && after.over.is_none() {
            after.draw = true;
        }
        vec![("pass".to_string(), after)]
    }

    /// Whether the move `text` (without its promotion suffixes) leaves a king other than the
    /// mover's in check with no legal move for its owner; at the end of the Assembly, any king.
    pub fn checkmates(&self, text: &str) -> bool {
        let base = text.split('/').next().unwrap();
        let s = self.cycle[0];
        let (after, every) = if self.assembly() {
            let k = base.chars().next().unwrap();
            let q = &base[2..];
            let sq = at((q.as_bytes()[0] - b'a') as i32, q[1..].parse::<i32>().unwrap() - 1).unwrap();
            let mut p = self.clone();
            p.board[sq] = Some((s, k));
            (p.clone(), p.placed() == 48)
        } else if base == "pass" {
            (self.clone(), false)
        } else {
            match self.legal(s, false).into_iter().find(|(m, _)| m.text == base) {
                Some((_, p)) => (p, false),
                None => return false,
            }
        };
        (0..4u8).any(|v| {
            (every || v != s) && after.king(v).is_some() && after.in_check(v) && after.legal(v, false).is_empty()
        })
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let ms = self.moves();
        if depth == 1 {
            return ms.len() as u64;
        }
        ms.iter().map(|(_, p)| p.perft(depth - 1)).sum()
    }
}
