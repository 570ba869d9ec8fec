//! The one game object of the front ends: a game of any variant behind one trait object, from its
//! start through its moves. The protocol session, `tetrarch gui` and the Python package each hold
//! a `Box<dyn Live>`, chosen once by the list of variants (`open`); every request after that is
//! one call on it. Under it, `Played<G>` is generic over the game, and so is the search that
//! `Think` runs: nothing in a search is dispatched dynamically.

use crate::nnue::Network;
use crate::rules::diagram::{Diagram, Gesture, Sight};
use crate::rules::{
    Game, MoveBuffer, MoveError, MovesOf, Outcome, Packed, PositionError, Record, Seat, SeatMask, Side, UciDialect,
    VariantSpec, perft_split, places, points_of_outcome, seat_letter,
};
use crate::search::{Control, Info, Limits, Score, SearchResult, Searcher};
use crate::variants::{self, VariantError, Visitor};
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// A game of one variant, from its start through its moves.
pub trait Live: Send + Sync {
    fn variant(&self) -> &'static VariantSpec;
    /// A copy, as its own game.
    fn boxed(&self) -> Box<dyn Live>;
    /// The start's position string, when it is not the variant's start.
    fn start(&self) -> Option<&str>;
    /// The moves played, as their canonical texts.
    fn moves(&self) -> &[String];
    /// Plays a move given as its canonical text; on an error nothing changes.
    fn push(&mut self, text: &str) -> Result<(), MoveError>;
    /// The moves played, packed in words (`Packed`): with their texts, a cheap replay.
    fn packed_moves(&self) -> Vec<u64>;
    /// `push(text)` where `bits` is the packed move of that text, without looking for the text
    /// among the legal moves' (a copy or a pickle replays its game so); other bits fall back
    /// to `push(text)`.
    fn push_packed(&mut self, bits: u64, text: &str) -> Result<(), MoveError>;
    /// Takes back the last move; its text.
    fn pop(&mut self) -> Option<String>;
    /// The game after `moves` from the same start (a move played, or a take-back); the moves
    /// they share with the game now are not played again. On an error nothing changes.
    fn set_moves(&mut self, moves: &[String]) -> Result<(), ReplayError>;
    /// The game cut after `ply` moves.
    fn at(&self, ply: usize) -> Result<Box<dyn Live>, String>;
    /// The legal moves now, as texts (none once the game is over).
    fn legal(&self) -> Vec<String>;
    /// The legal moves now, each with how a person enters it.
    fn gestures(&self) -> Vec<(String, Gesture)>;
    /// The position string now.
    fn position(&self) -> String;
    fn hash(&self) -> u64;
    /// The game's own (classical) evaluation of the position, in centipawns for the side to
    /// move.
    fn evaluate(&self) -> i32;
    /// The seat to move.
    fn to_move(&self) -> Seat;
    /// The seats of each side, as letters, sides in the order of their first seat.
    fn sides(&self) -> Vec<String>;
    fn checked_seats(&self) -> SeatMask;
    fn must_answer_check(&self) -> bool;
    /// `d`'s notes after the turn and the checks (`phase`, `hands`...).
    fn notes(&self) -> Vec<(&'static str, String)>;
    /// How the game ended by the rules, if it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The rules' ranking of the seats, best first, where the game has one.
    fn ranking(&self) -> Option<Vec<SeatMask>>;
    /// Each seat's points and place once the game is over (each seat alone; a side's seats
    /// share theirs).
    fn standing(&self) -> Option<Standing>;
    /// The position as a picture.
    fn diagram(&self) -> Diagram;
    /// `d`'s board picture.
    fn picture(&self) -> String;
    /// Texts as the UCI dialect writes them.
    fn uci(&self) -> UciDialect;
    /// Perft from now, split by root move; `None` when `stop` was set.
    fn perft(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(String, u64)) -> Option<u64>;
    /// How many actions a learning agent has (the moves' numbering, and `END`).
    fn num_actions(&self) -> u32;
    /// A legal move's actions, ending with `END` where a longer legal move begins with them.
    fn move_actions(&self, text: &str) -> Result<Vec<u32>, MoveError>;
    /// The legal move that actions spell.
    fn actions_move(&self, actions: &[u32]) -> Result<String, String>;
    /// Which actions may follow `prefix` in a legal move, ascending: the sparse form of
    /// `action_mask`, made without a pass over every action (Judtho has 79,498).
    fn next_actions(&self, prefix: &[u32]) -> Vec<u32>;
    /// Which actions may follow `prefix` in a legal move.
    fn action_mask(&self, prefix: &[u32]) -> Vec<bool> {
        let mut mask = vec![false; self.num_actions() as usize];
        for a in self.next_actions(prefix) {
            mask[a as usize] = true;
        }
        mask
    }
    /// Plays the legal move that `actions` spell, and gives its text; `None` (nothing played)
    /// where they only begin a legal move, which needs more actions.
    fn push_actions(&mut self, actions: &[u32]) -> Result<Option<String>, String>;
    /// The position as planes, from `seat`'s view.
    fn observation(&self, seat: Seat) -> Observation;
    /// The kinds of the variant's pieces as its pictures label them: the order of the planes.
    fn kinds(&self) -> &'static [&'static str];
    /// A searcher for this variant, evaluating with its built-in network where it has one.
    fn searcher(&self, hash_mib: usize, threads: usize) -> Box<dyn Think>;
    /// Why this variant's search cannot evaluate with `net`, if it cannot.
    fn network_fits(&self, net: &Network) -> Result<(), String>;
    fn as_any(&self) -> &dyn Any;

    /// The letter of a seat.
    fn letter(&self, seat: Seat) -> char {
        self.variant().seats.chars().nth(seat.index()).unwrap_or('?')
    }
    /// The letters of a set of seats (`-` for none).
    fn letters(&self, mask: SeatMask) -> String {
        let s: String = mask.seats().map(|s| self.letter(s)).collect();
        if s.is_empty() { "-".into() } else { s }
    }
    /// The outcome as the protocol writes it: `none`, `draw <reason>` or `win <seats> <reason>`,
    /// and ` ranking <seats>,<seats>...` where the rules rank the seats.
    fn outcome_text(&self) -> String {
        let mut s = match self.outcome() {
            None => return "none".to_string(),
            Some(o) if o.is_draw() => format!("draw {}", o.reason.as_str()),
            Some(o) => format!("win {} {}", self.letters(o.winners), o.reason.as_str()),
        };
        if let Some(places) = self.ranking() {
            let places: Vec<String> = places.iter().map(|&m| self.letters(m)).collect();
            s.push_str(" ranking ");
            s.push_str(&places.join(","));
        }
        s
    }
    /// The protocol's `status` line: turn, checks, notes and outcome.
    fn status(&self) -> String {
        let notes: String = self.notes().iter().map(|(k, v)| format!(" {} {}", k, v)).collect();
        format!(
            "turn {} checks {}{} outcome {}",
            self.letter(self.to_move()),
            self.letters(self.checked_seats()),
            notes,
            self.outcome_text()
        )
    }
    /// The protocol's `d`: the picture, then the position, hash, turn, checks, notes and
    /// outcome, a line each (the position in the UCI dialect's text when `uci`).
    fn display(&self, uci: bool) -> String {
        let mut s = self.picture();
        let text = if uci { (self.uci().position_out)(&self.position()) } else { self.position() };
        s.push_str(&format!("position {}\n", text));
        s.push_str(&format!("hash {:016x}\n", self.hash()));
        s.push_str(&format!("turn {}\n", self.letter(self.to_move())));
        s.push_str(&format!("checks {}\n", self.letters(self.checked_seats())));
        for (k, v) in self.notes() {
            s.push_str(&format!("{} {}\n", k, v));
        }
        s.push_str(&format!("outcome {}", self.outcome_text()));
        s
    }
}

/// How a game ended for each seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub outcome: Outcome,
    /// 1 won, 0.5 drawn, 0 lost, per seat.
    pub points: Vec<f64>,
    /// 1 the best, per seat; seats equal on points and the rules' ranking share a place.
    pub places: Vec<usize>,
}

/// A position as planes of `ranks` x `files` cells, row by row from the top of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    pub planes: usize,
    pub ranks: usize,
    pub files: usize,
    pub values: Vec<f32>,
}

/// A search of one variant: its hash table and histories, kept across searches.
pub trait Think: Send {
    /// Searches the game's position now, its history included, reporting each finished
    /// iteration with its line walked for legality.
    fn think(
        &mut self,
        game: &dyn Live,
        limits: Limits,
        control: Arc<Control>,
        report: &mut dyn FnMut(&Line),
    ) -> Result<Found, String>;
    fn clear(&mut self);
    /// Resizes the hash table; the MiB it got.
    fn resize(&mut self, mib: usize) -> usize;
    fn set_threads(&mut self, n: usize);
    /// Evaluates with `net` from the next search on, or with the game's own evaluation
    /// (`None`); a network of another game is refused and nothing changes.
    fn set_network(&mut self, net: Option<Arc<Network>>) -> Result<(), String>;
    /// The network in use, if any.
    fn network(&self) -> Option<Arc<Network>>;
}

/// One iteration's report, its principal variation as texts: each move checked against the
/// rules before it is written, so that a line that went wrong is cut, never shown with an
/// illegal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's rank among its iteration's lines, from 1, when more than one was asked
    /// (`MultiPV`); 0 when one was, which the protocol then does not write.
    pub multipv: usize,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// `None` when there is no legal move.
    pub best: Option<String>,
    pub ponder: Option<String>,
    /// The last iteration's score, else the search's own.
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<String>,
    /// The best line of each rank, best first: one, or as many as `Limits::multipv` asked
    /// (fewer where the position has fewer moves).
    pub lines: Vec<Line>,
}

/// What a list of actions spells in a position (`Played::spell`).
enum Spelled<M> {
    Move(M),
    Begun,
    Nothing,
}

/// A game of `G`: its record, the positions before each move (so that a move is taken back
/// without a replay) and the moves' texts.
#[derive(Clone)]
pub struct Played<G: Game> {
    start_text: Option<String>,
    record: Record<G>,
    before: Vec<G>,
    texts: Vec<String>,
    /// The legal moves now, once asked for: a learning agent asks for them (as actions) and
    /// then plays one of them, and Judtho's cost as much as the rest of its step.
    legal: OnceLock<Vec<G::Move>>,
}

impl<G: Game> Played<G> {
    /// The game from a start (none: the variant's) and moves, all checked.
    pub fn open(start: Option<&str>, moves: &[String]) -> Result<Self, OpenError> {
        let pos = match start {
            None => G::startpos(),
            Some(t) => G::from_text(t).map_err(OpenError::Position)?,
        };
        let start_text = Some(pos.to_text()).filter(|t| *t != G::startpos().to_text());
        let mut game = Played {
            start_text,
            record: Record::new(pos),
            before: Vec::new(),
            texts: Vec::new(),
            legal: OnceLock::new(),
        };
        game.set_moves(moves).map_err(OpenError::Move)?;
        Ok(game)
    }

    fn legal_moves(&self) -> &[G::Move] {
        self.legal.get_or_init(|| {
            let mut list = MovesOf::<G>::default();
            self.record.legal_moves(&mut list);
            list.iter().copied().collect()
        })
    }

    fn tokens(mv: G::Move) -> Vec<u32> {
        let mut t = Vec::new();
        G::action_tokens(mv, &mut t);
        t
    }

    /// Plays a legal move whose text is `text`, keeping the position before it for `pop`.
    fn commit(&mut self, mv: G::Move, text: String) {
        self.before.push(self.record.current.clone());
        self.record.play(mv);
        self.texts.push(text);
        self.legal = OnceLock::new();
    }

    /// Calls `each` with every legal move and its actions (one buffer for all of them: this
    /// runs at every step of a learning agent).
    fn each_with_tokens(&self, mut each: impl FnMut(G::Move, &[u32])) {
        let mut t = Vec::with_capacity(4);
        for &m in self.legal_moves().iter() {
            t.clear();
            G::action_tokens(m, &mut t);
            each(m, &t);
        }
    }

    /// The moves of a line that are legal, in order, as texts, up to the first that is not.
    pub fn walk(&self, line: &[G::Move]) -> Vec<String> {
        let mut pos = self.record.current.clone();
        let mut out = Vec::with_capacity(line.len());
        for &m in line {
            let mut legal = MovesOf::<G>::default();
            pos.legal_moves(&mut legal);
            if !legal.iter().any(|&l| l == m) {
                break;
            }
            out.push(pos.format_move(m));
            pos.play(m);
        }
        out
    }

    /// What `actions` spell here: a legal move (a list that also begins a longer legal move
    /// spells it only closed by `END`), the beginning of one, or nothing legal.
    fn spell(&self, actions: &[u32]) -> Spelled<G::Move> {
        let end = crate::rules::actions::end::<G>();
        let (body, closed) = match actions.split_last() {
            Some((&last, init)) if last == end => (init, true),
            _ => (actions, false),
        };
        let (mut exact, mut longer) = (None, false);
        self.each_with_tokens(|m, t| {
            if t == body {
                exact = Some(m);
            } else if t.len() > body.len() && t.starts_with(body) {
                longer = true;
            }
        });
        match exact.filter(|_| closed == longer) {
            Some(m) => Spelled::Move(m),
            None if longer && !closed && !actions.is_empty() => Spelled::Begun,
            None => Spelled::Nothing,
        }
    }
}

impl<G: Game> Live for Played<G> {
    fn variant(&self) -> &'static VariantSpec {
        G::VARIANT
    }

    fn boxed(&self) -> Box<dyn Live> {
        Box::new(self.clone())
    }

    fn start(&self) -> Option<&str> {
        self.start_text.as_deref()
    }

    fn moves(&self) -> &[String] {
        &self.texts
    }

    fn push(&mut self, text: &str) -> Result<(), MoveError> {
        let before = self.record.current.clone();
        self.record.play_text(text)?;
        self.before.push(before);
        self.texts.push(text.to_string());
        self.legal = OnceLock::new();
        Ok(())
    }

    fn packed_moves(&self) -> Vec<u64> {
        self.record.moves.iter().map(|&m| m.pack()).collect()
    }

    fn push_packed(&mut self, bits: u64, text: &str) -> Result<(), MoveError> {
        let mv = G::Move::unpack(bits);
        if !self.legal_moves().contains(&mv) || self.record.current.format_move(mv) != text {
            return self.push(text);
        }
        self.commit(mv, text.to_string());
        Ok(())
    }

    fn pop(&mut self) -> Option<String> {
        self.record.take_back(self.before.pop()?);
        self.legal = OnceLock::new();
        self.texts.pop()
    }

    fn set_moves(&mut self, moves: &[String]) -> Result<(), ReplayError> {
        let shared = self.texts.iter().zip(moves).take_while(|(a, b)| a == b).count();
        let mut next = self.clone();
        while next.texts.len() > shared {
            next.pop();
        }
        for (i, m) in moves[shared..].iter().enumerate() {
            next.push(m).map_err(|error| ReplayError { number: shared + i + 1, error })?;
        }
        *self = next;
        Ok(())
    }

    fn at(&self, ply: usize) -> Result<Box<dyn Live>, String> {
        if ply > self.texts.len() {
            return Err(format!("ply {} is past the game's {} moves", ply, self.texts.len()));
        }
        let mut cut = self.clone();
        while cut.texts.len() > ply {
            cut.pop();
        }
        Ok(Box::new(cut))
    }

    fn legal(&self) -> Vec<String> {
        self.legal_moves().iter().map(|&m| self.record.current.format_move(m)).collect()
    }

    fn gestures(&self) -> Vec<(String, Gesture)> {
        let pos = &self.record.current;
        self.legal_moves().iter().map(|&m| (pos.format_move(m), pos.gesture(m))).collect()
    }

    fn position(&self) -> String {
        self.record.current.to_text()
    }

    fn hash(&self) -> u64 {
        self.record.current.hash()
    }

    fn evaluate(&self) -> i32 {
        let pos = &self.record.current;
        pos.evaluate(pos.side_of(pos.to_move()))
    }

    fn to_move(&self) -> Seat {
        self.record.current.to_move()
    }

    fn sides(&self) -> Vec<String> {
        let pos = &self.record.current;
        let mut sides: Vec<(Side, String)> = Vec::new();
        for s in Seat::all(pos.seats()) {
            let side = pos.side_of(s);
            match sides.iter_mut().find(|(k, _)| *k == side) {
                Some((_, letters)) => letters.push(seat_letter::<G>(s)),
                None => sides.push((side, seat_letter::<G>(s).to_string())),
            }
        }
        sides.into_iter().map(|(_, l)| l).collect()
    }

    fn checked_seats(&self) -> SeatMask {
        self.record.current.checked_seats()
    }

    fn must_answer_check(&self) -> bool {
        self.record.current.must_answer_check()
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        self.record.current.notes()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.record.outcome()
    }

    fn ranking(&self) -> Option<Vec<SeatMask>> {
        self.record.current.ranking()
    }

    fn standing(&self) -> Option<Standing> {
        let outcome = self.record.outcome()?;
        let pos = &self.record.current;
        let points = points_of_outcome(pos, &outcome);
        let seats: Vec<[Seat; 1]> = Seat::all(pos.seats()).map(|s| [s]).collect();
        let groups: Vec<&[Seat]> = seats.iter().map(|s| s.as_slice()).collect();
        let places = places(pos, &points, &groups);
        Some(Standing { outcome, points, places })
    }

    fn diagram(&self) -> Diagram {
        self.record.current.diagram()
    }

    fn picture(&self) -> String {
        self.record.current.picture()
    }

    fn uci(&self) -> UciDialect {
        G::UCI
    }

    fn perft(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(String, u64)) -> Option<u64> {
        let pos = &self.record.current;
        perft_split(pos, depth, stop, |m, n| each(pos.format_move(m), n))
    }

    fn num_actions(&self) -> u32 {
        G::ACTIONS + 1
    }

    fn move_actions(&self, text: &str) -> Result<Vec<u32>, MoveError> {
        let mv = self.record.current.parse_move(text)?;
        let mut t = Self::tokens(mv);
        let mut longer = false;
        self.each_with_tokens(|_, o| longer |= o.len() > t.len() && o.starts_with(&t));
        if longer {
            t.push(crate::rules::actions::end::<G>());
        }
        Ok(t)
    }

    fn actions_move(&self, actions: &[u32]) -> Result<String, String> {
        match self.spell(actions) {
            Spelled::Move(m) => Some(self.record.current.format_move(m)),
            _ => None,
        }
        .ok_or_else(|| format!("actions {:?} are not a legal move here", actions))
    }

    fn next_actions(&self, prefix: &[u32]) -> Vec<u32> {
        let end = crate::rules::actions::end::<G>();
        let mut next = Vec::new();
        self.each_with_tokens(|_, t| {
            if t.len() > prefix.len() && t.starts_with(prefix) {
                next.push(t[prefix.len()]);
            } else if t == prefix {
                next.push(end);
            }
        });
        next.sort_unstable();
        next.dedup();
        // A move that nothing extends needs no `END`: its last action plays it.
        if next == [end] {
            next.clear();
        }
        next
    }

    fn push_actions(&mut self, actions: &[u32]) -> Result<Option<String>, String> {
        match self.spell(actions) {
            Spelled::Move(mv) => {
                let text = self.record.current.format_move(mv);
                self.commit(mv, text.clone());
                Ok(Some(text))
            }
            Spelled::Begun => Ok(None),
            Spelled::Nothing => Err(format!("actions {:?} are not a legal move here", actions)),
        }
    }

    fn observation(&self, seat: Seat) -> Observation {
        observe::<G>(&self.record.current, seat)
    }

    fn kinds(&self) -> &'static [&'static str] {
        G::KINDS
    }

    fn searcher(&self, hash_mib: usize, threads: usize) -> Box<dyn Think> {
        let mut s = Box::new(Searcher::<G>::new(hash_mib));
        s.set_threads(threads);
        // The built-in network is the default wherever there is one (it fits: tests/nnue.rs).
        let _ = s.set_network(variants::embedded_network(G::VARIANT.name));
        Box::new(s)
    }

    fn network_fits(&self, net: &Network) -> Result<(), String> {
        crate::search::network_fits::<G>(net)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The planes of a position from `seat`'s view, seats counted from the observer (its own are
/// group 0): each seat's pieces by kind (`Draw::KINDS`); in games with passive members, each
/// seat's members by kind and the three belt counters (1 / moves left); in games with hands,
/// each seat's pieces in hand by kind (count / 8 over the whole plane); then each seat's side (1
/// where it is the observer's), each seat out or mated, each seat's place in the turn order (1
/// for the next to move, falling), and the observer to move.
fn observe<G: Game>(pos: &G, seat: Seat) -> Observation {
    let sight = pos.sight();
    let n = G::VARIANT.seats.len();
    let seat = seat.index() % n.max(1);
    let kinds = G::KINDS;
    let (files, ranks) = (G::VARIANT.files as usize, G::VARIANT.ranks as usize);
    let cells = files * ranks;
    let rel = |s: Seat| (s.index() + n - seat) % n;
    let has_stacks = G::TEXT.stacks;
    let pieces = n * kinds.len();
    let stacks = if has_stacks { n * kinds.len() } else { 0 };
    let hands = if sight.hands.is_some() { n * kinds.len() } else { 0 };
    let counters = if has_stacks { Sight::BADGES.len() } else { 0 };
    let base = pieces + stacks + hands + counters;
    let planes = base + 3 * n + 1;
    let mut v = vec![0f32; planes * cells];
    for &(i, s, k) in &sight.men {
        v[(rel(s) * kinds.len() + k) * cells + i] += 1.0;
    }
    for &(i, s, k) in &sight.members {
        v[(pieces + rel(s) * kinds.len() + k) * cells + i] += 1.0;
    }
    for &(i, j, left) in &sight.badges {
        v[(pieces + stacks + hands + j) * cells + i] += 1.0 / left.max(1.0);
    }
    let fill = |v: &mut Vec<f32>, plane: usize, x: f32| v[plane * cells..(plane + 1) * cells].fill(x);
    for &(s, k, count) in sight.hands.iter().flatten() {
        fill(&mut v, pieces + stacks + rel(s) * kinds.len() + k, count as f32 / 8.0);
    }
    let mine = pos.side_of(Seat(seat as u8));
    let cycle = sight.cycle.unwrap_or_else(|| (0..n).map(|k| Seat(((pos.to_move().index() + k) % n) as u8)).collect());
    for s in (0..n).map(|s| Seat(s as u8)) {
        if pos.side_of(s) == mine {
            fill(&mut v, base + rel(s), 1.0);
        }
        if sight.gone.contains(s) {
            fill(&mut v, base + n + rel(s), 1.0);
        }
        if let Some(k) = cycle.iter().position(|&c| c == s) {
            fill(&mut v, base + 2 * n + rel(s), 1.0 - k as f32 / cycle.len() as f32);
        }
    }
    if pos.to_move().index() == seat {
        fill(&mut v, base + 3 * n, 1.0);
    }
    Observation { planes, ranks, files, values: v }
}

impl<G: Game> Think for Box<Searcher<G>> {
    fn think(
        &mut self,
        game: &dyn Live,
        limits: Limits,
        control: Arc<Control>,
        report: &mut dyn FnMut(&Line),
    ) -> Result<Found, String> {
        // The game is the searcher's own variant's: its record is searched as it stands.
        let played = game
            .as_any()
            .downcast_ref::<Played<G>>()
            .ok_or_else(|| format!("a search of {} was given a game of {}", G::VARIANT.name, game.variant().name))?;
        let many = limits.multipv > 1;
        // The latest line of each rank (MultiPV): a rank that the last iteration did not reach
        // keeps the one before's.
        let mut lines: Vec<Line> = Vec::new();
        let r: SearchResult<G::Move> =
            Searcher::think(self, &played.record, limits, control, &mut |i: &Info<G::Move>| {
                let line = Line {
                    multipv: if many { i.multipv } else { 0 },
                    depth: i.depth,
                    seldepth: i.seldepth,
                    score: i.score,
                    nodes: i.nodes,
                    nps: i.nps(),
                    time_ms: i.time_ms,
                    hashfull: i.hashfull,
                    pv: played.walk(&i.pv),
                };
                report(&line);
                let rank = i.multipv.max(1) - 1;
                if rank < lines.len() {
                    lines[rank] = line;
                } else {
                    lines.push(line);
                }
            });
        let last = lines.first();
        let root = &played.record.current;
        let (best, ponder) = match r.best {
            None => (None, None),
            Some(m) => {
                let mut after = root.clone();
                after.play(m);
                (Some(root.format_move(m)), r.ponder.map(|p| after.format_move(p)))
            }
        };
        Ok(Found {
            best,
            ponder,
            score: last.map(|l| l.score).unwrap_or(Score::from_internal(r.score)),
            depth: r.depth,
            nodes: r.nodes,
            pv: last.map(|l| l.pv.clone()).unwrap_or_default(),
            lines,
        })
    }

    fn clear(&mut self) {
        Searcher::clear(self)
    }

    fn resize(&mut self, mib: usize) -> usize {
        Searcher::resize(self, mib);
        self.hash_mib()
    }

    fn set_threads(&mut self, n: usize) {
        Searcher::set_threads(self, n)
    }

    fn set_network(&mut self, net: Option<Arc<Network>>) -> Result<(), String> {
        Searcher::set_network(self, net)
    }

    fn network(&self) -> Option<Arc<Network>> {
        Searcher::network(self).cloned()
    }
}

/// The game of `variant` from a start (none: the variant's) and moves, all checked: the one
/// dispatch from a variant's name to its game.
pub fn open(variant: &str, start: Option<&str>, moves: &[String]) -> Result<Box<dyn Live>, OpenError> {
    struct Open<'a>(Option<&'a str>, &'a [String]);
    impl Visitor for Open<'_> {
        type Output = Result<Box<dyn Live>, OpenError>;
        fn visit<G: Game>(self) -> Self::Output {
            Ok(Box::new(Played::<G>::open(self.0, self.1)?))
        }
    }
    variants::visit(variant, Open(start, moves)).map_err(OpenError::Variant)?
}

/// Why `open` made no game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    Variant(VariantError),
    Position(PositionError),
    Move(ReplayError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Variant(e) => e.fmt(f),
            OpenError::Position(e) => write!(f, "position: {}", e),
            OpenError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<OpenError> for String {
    fn from(e: OpenError) -> String {
        e.to_string()
    }
}

/// A move of a list that the game refused, numbered in the game (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub number: usize,
    pub error: MoveError,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "move {} '{}': {}", self.number, self.error.text(), self.error)
    }
}

impl std::error::Error for ReplayError {}
