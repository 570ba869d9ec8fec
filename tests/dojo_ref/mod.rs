#![allow(dead_code)]
//! A deliberately simple Dojo chess implementation for the tests: a mailbox of 64 squares, a
//! vector stack per square, rays walked one square at a time, and every move played out on a
//! copy with all its effects before its legality is judged. It shares no code with the engine;
//! only the text formats (protocol-spec.md 5.2) are common.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub white: bool,
    /// 'P', 'N', 'B', 'R', 'Q' or 'K'.
    pub kind: char,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub board: Vec<Option<Piece>>,
    /// Passive members with their squares, first made passive first.
    pub passive: Vec<(usize, Piece)>,
    /// Obedient, stagnation, defection per square (of the active piece there).
    pub counters: Vec<[u32; 3]>,
    pub treason: [u32; 2],
    pub white_to_move: bool,
    /// K, Q, k, q.
    pub castling: [bool; 4],
    pub ep: Option<usize>,
    pub halfmove: u32,
    pub fullmove: u32,
}

fn sq_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

fn sq_parse(s: &str) -> usize {
    let b = s.as_bytes();
    (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
}

fn at(f: i32, r: i32) -> Option<usize> {
    if (0..8).contains(&f) && (0..8).contains(&r) { Some((r * 8 + f) as usize) } else { None }
}

fn dist(a: usize, b: usize) -> u32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    df.abs().max(dr.abs()) as u32
}

fn piece_char(p: Piece) -> char {
    if p.white { p.kind } else { p.kind.to_ascii_lowercase() }
}

fn char_piece(c: char) -> Piece {
    Piece { white: c.is_ascii_uppercase(), kind: c.to_ascii_uppercase() }
}

const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A candidate move with its choices, before the legality test.
#[derive(Clone, Copy, Debug)]
struct Cand {
    from: usize,
    to: usize,
    target: Option<usize>,
    appointee: Option<usize>,
}

impl RefPos {
    pub fn parse(text: &str) -> RefPos {
        let f: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(f.len(), 8, "{}", text);
        let mut board = vec![None; 64];
        for (i, rank) in f[0].split('/').enumerate() {
            let r = 7 - i;
            let mut file = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    board[r * 8 + file] = Some(char_piece(c));
                    file += 1;
                }
            }
        }
        let castling = [f[2].contains('K'), f[2].contains('Q'), f[2].contains('k'), f[2].contains('q')];
        let mut passive = Vec::new();
        if f[6] != "-" {
            for e in f[6].split('/') {
                let (s, l) = e.split_once(':').unwrap();
                passive.extend(l.chars().map(|c| (sq_parse(s), char_piece(c))));
            }
        }
        let mut counters = vec![[0; 3]; 64];
        let mut treason = [0; 2];
        if f[7] != "-" {
            for e in f[7].split('/') {
                if let Some((s, n)) = e.split_once(':') {
                    let v: Vec<u32> = n.split('.').map(|x| x.parse().unwrap()).collect();
                    counters[sq_parse(s)] = [v[0], v[1], v[2]];
                } else if let Some(n) = e.strip_prefix('W') {
                    treason[0] = n.parse().unwrap();
                } else {
                    treason[1] = e[1..].parse().unwrap();
                }
            }
        }
        RefPos {
            board,
            passive,
            counters,
            treason,
            white_to_move: f[1] == "w",
            castling,
            ep: if f[3] == "-" { None } else { Some(sq_parse(f[3])) },
            halfmove: f[4].parse().unwrap(),
            fullmove: f[5].parse().unwrap(),
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[r * 8 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(piece_char(p));
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
        s += if self.white_to_move { " w " } else { " b " };
        let c: String = "KQkq".chars().zip(self.castling).filter(|x| x.1).map(|x| x.0).collect();
        s += if c.is_empty() { "-" } else { &c };
        s += &format!(" {} {} {} ", self.ep.map(sq_name).unwrap_or("-".into()), self.halfmove, self.fullmove);
        let pass: Vec<String> = (0..64)
            .filter(|&q| self.has_passive(q))
            .map(|q| {
                let l: String = self.passive.iter().filter(|x| x.0 == q).map(|x| piece_char(x.1)).collect();
                format!("{}:{}", sq_name(q), l)
            })
            .collect();
        s += &if pass.is_empty() { "-".to_string() } else { pass.join("/") };
        s.push(' ');
        let mut cnt: Vec<String> = (0..64)
            .filter(|&q| self.counters[q] != [0; 3])
            .map(|q| format!("{}:{}.{}.{}", sq_name(q), self.counters[q][0], self.counters[q][1], self.counters[q][2]))
            .collect();
        if self.treason[0] > 0 {
            cnt.push(format!("W{}", self.treason[0]));
        }
        if self.treason[1] > 0 {
            cnt.push(format!("b{}", self.treason[1]));
        }
        s += &if cnt.is_empty() { "-".to_string() } else { cnt.join("/") };
        s
    }

    fn has_passive(&self, sq: usize) -> bool {
        self.passive.iter().any(|x| x.0 == sq)
    }

    fn free(&self, sq: usize) -> bool {
        self.board[sq].is_none() && !self.has_passive(sq)
    }

    fn king_of(&self, white: bool) -> usize {
        (0..64).find(|&q| self.board[q] == Some(Piece { white, kind: 'K' })).expect("king")
    }

    /// Whether a piece of colour `white` attacks `sq`, walking every ray.
    fn attacked_by(&self, sq: usize, white: bool) -> bool {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let is = |q: Option<usize>, kinds: &str| {
            q.and_then(|q| self.board[q]).is_some_and(|p| p.white == white && kinds.contains(p.kind))
        };
        let pr = if white { -1 } else { 1 };
        if is(at(f - 1, r + pr), "P") || is(at(f + 1, r + pr), "P") {
            return true;
        }
        if KNIGHT.iter().any(|&(a, b)| is(at(f + a, r + b), "N")) {
            return true;
        }
        if KING.iter().any(|&(a, b)| is(at(f + a, r + b), "K")) {
            return true;
        }
        for (dirs, kinds) in [(&ROOK, "RQ"), (&BISHOP, "BQ")] {
            for &(a, b) in dirs.iter() {
                let (mut x, mut y) = (f + a, r + b);
                while let Some(q) = at(x, y) {
                    if !self.free(q) {
                        if is(Some(q), kinds) {
                            return true;
                        }
                        break;
                    }
                    x += a;
                    y += b;
                }
            }
        }
        false
    }

    /// Moves by the rules of movement alone.
    fn pseudo(&self) -> Vec<(usize, usize)> {
        let white = self.white_to_move;
        let mut out = Vec::new();
        let enemy_at = |q: usize| self.board[q].is_some_and(|p| p.white != white);
        let can_land = |q: usize| self.free(q) || enemy_at(q);
        for from in 0..64 {
            let Some(p) = self.board[from] else { continue };
            if p.white != white {
                continue;
            }
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            match p.kind {
                'P' => {
                    let d = if white { 1 } else { -1 };
                    let far = if white { 7 } else { 0 };
                    if r == far {
                        continue;
                    }
                    if let Some(q) = at(f, r + d)
                        && self.free(q)
                    {
                        out.push((from, q));
                        let second = if white { 1 } else { 6 };
                        if r == second
                            && let Some(q2) = at(f, r + 2 * d)
                            && self.free(q2)
                        {
                            out.push((from, q2));
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(q) = at(f + df, r + d)
                            && (enemy_at(q) || self.ep == Some(q))
                        {
                            out.push((from, q));
                        }
                    }
                }
                'N' | 'K' => {
                    let steps = if p.kind == 'N' { &KNIGHT } else { &KING };
                    for &(a, b) in steps.iter() {
                        if let Some(q) = at(f + a, r + b)
                            && can_land(q)
                        {
                            out.push((from, q));
                        }
                    }
                    if p.kind == 'K' && !self.attacked_by(from, !white) {
                        let base = if white { 0 } else { 56 };
                        let (ki, qi) = if white { (0, 1) } else { (2, 3) };
                        if self.castling[ki]
                            && self.free(base + 5)
                            && self.free(base + 6)
                            && !self.attacked_by(base + 5, !white)
                            && !self.attacked_by(base + 6, !white)
                        {
                            out.push((from, base + 6));
                        }
                        if self.castling[qi]
                            && self.free(base + 1)
                            && self.free(base + 2)
                            && self.free(base + 3)
                            && !self.attacked_by(base + 3, !white)
                            && !self.attacked_by(base + 2, !white)
                        {
                            out.push((from, base + 2));
                        }
                    }
                }
                _ => {
                    let mut dirs: Vec<(i32, i32)> = Vec::new();
                    if "RQ".contains(p.kind) {
                        dirs.extend(ROOK);
                    }
                    if "BQ".contains(p.kind) {
                        dirs.extend(BISHOP);
                    }
                    for (a, b) in dirs {
                        let (mut x, mut y) = (f + a, r + b);
                        while let Some(q) = at(x, y) {
                            if self.free(q) {
                                out.push((from, q));
                            } else {
                                if enemy_at(q) {
                                    out.push((from, q));
                                }
                                break;
                            }
                            x += a;
                            y += b;
                        }
                    }
                }
            }
        }
        out
    }

    fn make_passive(&mut self, sq: usize) {
        let p = self.board[sq].take().unwrap();
        if p.kind == 'Q' {
            self.treason[if p.white { 0 } else { 1 }] = 0;
        }
        self.passive.push((sq, p));
        self.counters[sq] = [0; 3];
    }

    /// The move and its captures, castling, en passant and D6. Returns the destination of the
    /// piece that moved if it is still on the board.
    fn step(&mut self, c: Cand) -> Option<usize> {
        let white = self.white_to_move;
        let p = self.board[c.from].unwrap();
        let mut reset = p.kind == 'P';
        if self.board[c.to].is_some() {
            self.make_passive(c.to);
            reset = true;
        } else if p.kind == 'P' && Some(c.to) == self.ep {
            let victim = if white { c.to - 8 } else { c.to + 8 };
            self.make_passive(victim);
        }
        self.board[c.to] = self.board[c.from].take();
        self.counters[c.to] = self.counters[c.from];
        self.counters[c.from] = [0; 3];
        if p.kind == 'K' && c.from.abs_diff(c.to) == 2 {
            let (rf, rt) = if c.to > c.from { (c.from + 3, c.from + 1) } else { (c.from - 4, c.from - 1) };
            self.board[rt] = self.board[rf].take();
            self.counters[rt] = self.counters[rf];
            self.counters[rf] = [0; 3];
        }
        self.ep = None;
        if p.kind == 'P' && c.from.abs_diff(c.to) == 16 {
            let f = (c.to % 8) as i32;
            let r = (c.to / 8) as i32;
            let beside = [f - 1, f + 1]
                .iter()
                .filter_map(|&x| at(x, r))
                .any(|q| self.board[q] == Some(Piece { white: !white, kind: 'P' }));
            if beside {
                self.ep = Some((c.from + c.to) / 2);
            }
        }
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        for (i, (k, r)) in [(4, 7), (4, 0), (60, 63), (60, 56)].into_iter().enumerate() {
            if [k, r].contains(&c.from) || [k, r].contains(&c.to) {
                self.castling[i] = false;
            }
        }
        let far = if white { 7 } else { 0 };
        if p.kind == 'P' && c.to / 8 == far {
            self.board[c.to] = None;
            self.counters[c.to] = [0; 3];
            if let Some(t) = c.target {
                self.make_passive(t);
            }
            return None;
        }
        Some(c.to)
    }

    fn defection(&mut self) {
        let white = self.white_to_move;
        let ek = self.king_of(!white);
        for q in 0..64 {
            let Some(p) = self.board[q] else { continue };
            if p.white != white || p.kind == 'K' {
                continue;
            }
            if dist(q, ek) <= 3 {
                self.counters[q][2] += 1;
                if self.counters[q][2] == 15 {
                    self.board[q] = None;
                    self.counters[q] = [0; 3];
                }
            } else {
                self.counters[q][2] = 0;
            }
        }
    }

    /// D9 up to the demotion: the deputy's square if treason fires.
    fn demote(&mut self) -> Option<usize> {
        let white = self.white_to_move;
        let i = if white { 0 } else { 1 };
        let k = self.king_of(white);
        let q = (0..64).find(|&q| self.board[q] == Some(Piece { white, kind: 'Q' }));
        match q {
            Some(q) if dist(q, k) > 5 => {
                self.treason[i] += 1;
                if self.treason[i] == 10 {
                    self.treason[i] = 0;
                    self.board[q] = Some(Piece { white, kind: 'P' });
                    return Some(q);
                }
            }
            _ => self.treason[i] = 0,
        }
        None
    }

    fn appointees(&self, demoted: usize) -> Vec<usize> {
        let white = self.white_to_move;
        (0..64)
            .filter(|&q| q != demoted)
            .filter(|&q| match self.board[q] {
                Some(p) => p.white == white && p.kind != 'K',
                None => self.passive.iter().any(|x| x.0 == q && x.1.white == white),
            })
            .collect()
    }

    fn appoint(&mut self, q: usize) {
        let white = self.white_to_move;
        if self.board[q].is_some() {
            self.board[q] = Some(Piece { white, kind: 'Q' });
            self.counters[q][0] = 0;
            self.counters[q][1] = 0;
        } else {
            let i = self.passive.iter().rposition(|x| x.0 == q && x.1.white == white).unwrap();
            self.passive.remove(i);
            self.board[q] = Some(Piece { white, kind: 'Q' });
        }
    }

    fn promotions(&mut self, moved: Option<usize>) {
        let white = self.white_to_move;
        let k = self.king_of(white);
        for q in 0..64 {
            let Some(p) = self.board[q] else { continue };
            if p.white != white {
                continue;
            }
            if !"PNB".contains(p.kind) {
                self.counters[q][0] = 0;
                self.counters[q][1] = 0;
                continue;
            }
            let c = &mut self.counters[q];
            c[0] = if dist(q, k) <= 2 { c[0] + 1 } else { 0 };
            c[1] = if moved == Some(q) { 0 } else { c[1] + 1 };
            let mut fire = false;
            for v in c[0..2].iter_mut() {
                if *v == 15 {
                    *v = 0;
                    fire = true;
                }
            }
            if fire {
                let next = match p.kind {
                    'P' => 'N',
                    'N' => 'B',
                    _ => 'R',
                };
                self.board[q] = Some(Piece { white, kind: next });
                if next == 'R' {
                    self.counters[q][0] = 0;
                    self.counters[q][1] = 0;
                }
            }
        }
    }

    fn finish(&mut self) {
        for (i, (k, r, w)) in [(4, 7, true), (4, 0, true), (60, 63, false), (60, 56, false)].into_iter().enumerate() {
            if self.board[k] != Some(Piece { white: w, kind: 'K' })
                || self.board[r] != Some(Piece { white: w, kind: 'R' })
            {
                self.castling[i] = false;
            }
        }
        if !self.white_to_move {
            self.fullmove += 1;
        }
        self.white_to_move = !self.white_to_move;
    }

    /// Every legal move as text, each with the position it leads to.
    pub fn legal(&self) -> Vec<(String, RefPos)> {
        let white = self.white_to_move;
        let mut out = Vec::new();
        for (from, to) in self.pseudo() {
            let base = Cand { from, to, target: None, appointee: None };
            let mut after = self.clone();
            let moved = after.step(base);
            let d6 = self.board[from].unwrap().kind == 'P' && moved.is_none();
            let mut targets = vec![None];
            if d6 {
                targets.extend(
                    (0..64).filter(|&q| after.board[q].is_some_and(|p| p.white != white && p.kind != 'K')).map(Some),
                );
            }
            for t in targets {
                let mut p = self.clone();
                let c = Cand { target: t, ..base };
                let moved = p.step(c);
                p.defection();
                if p.attacked_by(p.king_of(white), !white) {
                    continue;
                }
                let mut name = format!("{}{}", sq_name(from), sq_name(to));
                if let Some(t) = t {
                    name += &format!("/{}", sq_name(t));
                }
                match p.demote() {
                    Some(q) => {
                        let cands = p.appointees(q);
                        if cands.is_empty() {
                            let mut p = p.clone();
                            p.promotions(moved);
                            p.finish();
                            out.push((name.clone(), p));
                        }
                        for a in cands {
                            let mut p = p.clone();
                            p.appoint(a);
                            p.promotions(moved);
                            p.finish();
                            out.push((format!("{}@{}", name, sq_name(a)), p));
                        }
                    }
                    None => {
                        p.promotions(moved);
                        p.finish();
                        out.push((name, p));
                    }
                }
            }
        }
        out
    }

    pub fn moves(&self) -> Vec<String> {
        self.legal().into_iter().map(|x| x.0).collect()
    }

    pub fn play(&self, text: &str) -> RefPos {
        self.legal().into_iter().find(|x| x.0 == text).unwrap_or_else(|| panic!("{} not legal", text)).1
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let l = self.legal();
        if depth == 1 {
            return l.len() as u64;
        }
        l.iter().map(|(_, p)| p.perft(depth - 1)).sum()
    }
}
