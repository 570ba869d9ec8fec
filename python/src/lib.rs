//! `tetrarch._tetrarch`: the Python module over the tetrarch library. Every rule, text, action
//! number and search is the library's; this crate only holds a game behind one trait object per
//! `Board` and `Engine` and turns the answers into Python values.

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tetrarch::arbiter::game::{Player, player_places, points_of_outcome};
use tetrarch::rules::VariantSpec;
use tetrarch::rules::{Game, MoveBuffer, MovesOf, Record, Seat, Side, mask_letters, perft, seat_letter};
use tetrarch::search::{Control, Info, Limits, Score, Searcher};
use tetrarch::variants::Visitor;

fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A whole number the protocol takes as `word value` (`go depth 5`, `go perft 3`), refused with
/// the protocol's own error text when it is not one it would read.
fn go_number(word: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(v) = value else { return Ok(None) };
    match v.extract::<u64>() {
        Ok(n) if !v.is_instance_of::<pyo3::types::PyBool>() => Ok(Some(n)),
        _ => Err(err(format!(
            "go: malformed parameter at '{word} {}'",
            v.str().map(|s| s.to_string()).unwrap_or_default()
        ))),
    }
}

/// `Engine`'s sizes, refused as `setoption` refuses them.
fn option_number(name: &str, value: &Bound<'_, PyAny>, max: u64) -> PyResult<usize> {
    let text = value.str().map(|s| s.to_string()).unwrap_or_default();
    match value.extract::<u64>() {
        Ok(n) if (1..=max).contains(&n) && !value.is_instance_of::<pyo3::types::PyBool>() => Ok(n as usize),
        Ok(n) => Err(err(format!("setoption {name}: {n} is out of range 1..{max}"))),
        Err(_) => Err(err(format!("setoption {name}: '{text}' is not a non-negative integer"))),
    }
}

/// The kinds of each variant's pieces, as its pictures label them: the order of the planes of
/// `Board.observation`.
fn kinds(variant: &str) -> &'static [&'static str] {
    match variant {
        "judkins" => &["P", "S", "G", "N", "B", "R", "K", "+P", "+S", "+N", "+B", "+R"],
        "dojo" => &["P", "N", "B", "R", "Q", "K"],
        "chaturanga" | "chaturanga-ffa" => &["K", "R", "N", "S", "P"],
        _ => &["K", "Q", "C", "S", "R", "N", "B", "P"],
    }
}

/// A game as the module holds it: its record, and the positions before each move so that a
/// move can be taken back.
trait Live: Send + Sync {
    fn spec(&self) -> &'static VariantSpec;
    fn boxed(&self) -> Box<dyn Live>;
    fn start(&self) -> Option<String>;
    fn moves(&self) -> Vec<String>;
    fn push(&mut self, text: &str) -> Result<(), String>;
    fn pop(&mut self) -> Option<String>;
    fn legal(&self) -> Vec<String>;
    fn position(&self) -> String;
    fn turn(&self) -> char;
    fn sides(&self) -> Vec<String>;
    fn must_answer_check(&self) -> bool;
    /// Winners, losers, places (per seat, in seat order) and the reason, once over.
    fn outcome(&self) -> Option<(String, String, Vec<usize>, String)>;
    fn status(&self) -> Vec<(String, String)>;
    fn perft(&self, depth: u32) -> u64;
    fn num_actions(&self) -> u32;
    fn move_actions(&self, text: &str) -> Result<Vec<u32>, String>;
    fn actions_move(&self, actions: &[u32]) -> Result<String, String>;
    fn mask(&self, prefix: &[u32]) -> Vec<bool>;
    fn observation(&self, seat: usize) -> (usize, usize, usize, Vec<f32>);
    fn searcher(&self, hash_mib: usize, threads: usize) -> Box<dyn Think>;
}

/// A searcher for one variant.
trait Think: Send {
    fn think(&mut self, game: &dyn Live, limits: Limits) -> Result<Found, String>;
    fn clear(&mut self);
}

struct Found {
    best: Option<String>,
    score: Score,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
}

#[derive(Clone)]
struct LiveGame<G: Game> {
    start_text: Option<String>,
    record: Record<G>,
    before: Vec<G>,
    texts: Vec<String>,
}

impl<G: Game> LiveGame<G> {
    fn open(start: Option<&str>) -> Result<Self, String> {
        let pos = match start {
            None => G::startpos(),
            Some(t) => G::from_text(t)?,
        };
        let start_text = start.map(|_| pos.to_text()).filter(|t| *t != G::startpos().to_text());
        Ok(LiveGame { start_text, record: Record::new(pos), before: Vec::new(), texts: Vec::new() })
    }

    fn legal_moves(&self) -> Vec<G::Move> {
        let mut list = MovesOf::<G>::default();
        self.record.legal_moves(&mut list);
        list.iter().copied().collect()
    }

    fn tokens(mv: G::Move) -> Vec<u32> {
        let mut t = Vec::new();
        G::action_tokens(mv, &mut t);
        t
    }

    /// A legal move by its actions: its own, or its own and `END` when they begin another's.
    fn by_actions(&self, actions: &[u32]) -> Option<G::Move> {
        let end = tetrarch::rules::actions::end::<G>();
        let (body, closed) = match actions.split_last() {
            Some((&last, init)) if last == end => (init, true),
            _ => (actions, false),
        };
        let moves = self.legal_moves();
        let exact = moves.iter().copied().find(|&m| Self::tokens(m) == body)?;
        let longer = moves.iter().any(|&m| {
            let t = Self::tokens(m);
            t.len() > body.len() && t.starts_with(body)
        });
        (closed == longer).then_some(exact)
    }
}

impl<G: Game> Live for LiveGame<G> {
    fn spec(&self) -> &'static VariantSpec {
        G::VARIANT
    }

    fn boxed(&self) -> Box<dyn Live> {
        Box::new(self.clone())
    }

    fn start(&self) -> Option<String> {
        self.start_text.clone()
    }

    fn moves(&self) -> Vec<String> {
        self.texts.clone()
    }

    fn push(&mut self, text: &str) -> Result<(), String> {
        let before = self.record.current.clone();
        self.record.play_text(text)?;
        self.before.push(before);
        self.texts.push(text.to_string());
        Ok(())
    }

    fn pop(&mut self) -> Option<String> {
        self.record.take_back(self.before.pop()?);
        self.texts.pop()
    }

    fn legal(&self) -> Vec<String> {
        self.legal_moves().into_iter().map(|m| self.record.current.format_move(m)).collect()
    }

    fn position(&self) -> String {
        self.record.current.to_text()
    }

    fn turn(&self) -> char {
        seat_letter::<G>(self.record.current.to_move())
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

    fn must_answer_check(&self) -> bool {
        self.record.current.must_answer_check()
    }

    fn outcome(&self) -> Option<(String, String, Vec<usize>, String)> {
        let o = self.record.outcome()?;
        let pos = &self.record.current;
        let points = points_of_outcome(pos, &o);
        let seats: Vec<Player> =
            (0..pos.seats()).map(|s| Player { engine: s, name: String::new(), seats: vec![Seat(s as u8)] }).collect();
        let places = player_places(pos, &points, &seats);
        let mask = |f: &dyn Fn(f64) -> bool| -> String {
            points.iter().enumerate().filter(|(_, p)| f(**p)).map(|(s, _)| seat_letter::<G>(Seat(s as u8))).collect()
        };
        Some((mask(&|p| p >= 0.75), mask(&|p| p <= 0.25), places, o.reason.as_str().to_string()))
    }

    fn status(&self) -> Vec<(String, String)> {
        let pos = &self.record.current;
        let mut s = vec![
            ("turn".to_string(), seat_letter::<G>(pos.to_move()).to_string()),
            ("checks".to_string(), mask_letters::<G>(pos.checked_seats())),
        ];
        s.extend(pos.notes().into_iter().map(|(k, v)| (k.to_string(), v)));
        let outcome = match self.record.outcome() {
            None => "none".to_string(),
            Some(o) if o.is_draw() => format!("draw {}", o.reason.as_str()),
            Some(o) => format!("win {} {}", mask_letters::<G>(o.winners), o.reason.as_str()),
        };
        s.push(("outcome".to_string(), outcome));
        s
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(&self.record.current, depth)
    }

    fn num_actions(&self) -> u32 {
        G::ACTIONS + 1
    }

    fn move_actions(&self, text: &str) -> Result<Vec<u32>, String> {
        let mv = self.record.current.parse_move(text)?;
        let mut t = Self::tokens(mv);
        let longer = self.legal_moves().into_iter().any(|m| {
            let o = Self::tokens(m);
            o.len() > t.len() && o.starts_with(&t)
        });
        if longer {
            t.push(tetrarch::rules::actions::end::<G>());
        }
        Ok(t)
    }

    fn actions_move(&self, actions: &[u32]) -> Result<String, String> {
        self.by_actions(actions)
            .map(|m| self.record.current.format_move(m))
            .ok_or_else(|| format!("actions {:?} are not a legal move here", actions))
    }

    fn mask(&self, prefix: &[u32]) -> Vec<bool> {
        let end = tetrarch::rules::actions::end::<G>();
        let mut mask = vec![false; (G::ACTIONS + 1) as usize];
        for m in self.legal_moves() {
            let t = Self::tokens(m);
            if t.len() > prefix.len() && t.starts_with(prefix) {
                mask[t[prefix.len()] as usize] = true;
            } else if t == prefix {
                mask[end as usize] = true;
            }
        }
        // A move that nothing extends needs no `END`: its last action plays it.
        if mask[end as usize] && mask.iter().filter(|&&b| b).count() == 1 {
            mask[end as usize] = false;
        }
        mask
    }

    fn observation(&self, seat: usize) -> (usize, usize, usize, Vec<f32>) {
        let pos = &self.record.current;
        let d = pos.diagram();
        let n = d.seats.len();
        let kinds = kinds(G::VARIANT.name);
        let (files, ranks) = (d.files, d.ranks);
        let cells = files * ranks;
        // Seats are counted from the observer: plane group 0 is its own.
        let rel = |s: usize| (s + n - seat % n) % n;
        let hand = |s: usize| d.seats[s].hand.is_some();
        let has_hands = (0..n).any(hand);
        let has_stacks = G::VARIANT.name == "dojo";
        let badges = ["P", "T", "D"];
        let pieces = n * kinds.len();
        let stacks = if has_stacks { n * kinds.len() } else { 0 };
        let hands = if has_hands { n * kinds.len() } else { 0 };
        let counters = if has_stacks { badges.len() } else { 0 };
        // Then: each seat's side (1 where it is the observer's), each seat out or mated, each
        // seat's place in the turn order (1 for the next to move, falling), the seat to move.
        let base = pieces + stacks + hands + counters;
        let planes = base + 3 * n + 1;
        let mut v = vec![0f32; planes * cells];
        let mut put = |plane: usize, cell: usize, x: f32| v[plane * cells + cell] += x;
        let fill = |v: &mut Vec<f32>, plane: usize, x: f32| v[plane * cells..(plane + 1) * cells].fill(x);
        let kind_of = |label: &str| kinds.iter().position(|k| *k == label);
        for (i, c) in d.cells.iter().enumerate() {
            if let Some(m) = &c.man
                && let Some(k) = kind_of(&m.label)
            {
                put(rel(m.seat.index()) * kinds.len() + k, i, 1.0);
            }
            for m in &c.stack {
                if let Some(k) = kind_of(&m.label) {
                    put(pieces + rel(m.seat.index()) * kinds.len() + k, i, 1.0);
                }
            }
            for b in &c.badges {
                if let Some(j) = badges.iter().position(|p| b.starts_with(p)) {
                    let left: f32 = b[1..].parse().unwrap_or(0.0);
                    put(pieces + stacks + hands + j, i, 1.0 / left.max(1.0));
                }
            }
        }
        for (s, view) in d.seats.iter().enumerate() {
            for (kind, count) in view.hand.iter().flatten() {
                if let Some(k) = kind_of(kind) {
                    fill(&mut v, pieces + stacks + rel(s) * kinds.len() + k, *count as f32 / 8.0);
                }
            }
        }
        let mine = pos.side_of(Seat(seat as u8));
        let cycle: Vec<usize> = pos
            .notes()
            .iter()
            .find(|(k, _)| *k == "cycle")
            .map(|(_, c)| c.chars().filter_map(|l| G::VARIANT.seats.find(l)).collect())
            .unwrap_or_else(|| (0..n).map(|k| (pos.to_move().index() + k) % n).collect());
        for s in 0..n {
            if pos.side_of(Seat(s as u8)) == mine {
                fill(&mut v, base + rel(s), 1.0);
            }
            let standing = &d.seats[s].standing;
            if standing.iter().any(|w| w == "out" || w == "mated") {
                fill(&mut v, base + n + rel(s), 1.0);
            }
            if let Some(k) = cycle.iter().position(|&c| c == s) {
                fill(&mut v, base + 2 * n + rel(s), 1.0 - k as f32 / cycle.len() as f32);
            }
        }
        if pos.to_move().index() == seat {
            fill(&mut v, base + 3 * n, 1.0);
        }
        (planes, ranks, files, v)
    }

    fn searcher(&self, hash_mib: usize, threads: usize) -> Box<dyn Think> {
        let mut s = Box::new(Searcher::<G>::new(hash_mib));
        s.set_threads(threads);
        Box::new(s)
    }
}

impl<G: Game> Think for Box<Searcher<G>> {
    fn think(&mut self, game: &dyn Live, limits: Limits) -> Result<Found, String> {
        // The game is replayed into this variant's record: the same game, by its texts.
        let mut live = LiveGame::<G>::open(game.start().as_deref())?;
        for m in game.moves() {
            live.push(&m)?;
        }
        let root = live.record.current.clone();
        let mut last: Option<Info<G::Move>> = None;
        let limits = Limits { best_reply: G::VARIANT.search.best_reply, ..limits };
        let r = Searcher::think(self, &live.record, limits, Control::new(false), &mut |i| last = Some(i.clone()));
        let mut pv = Vec::new();
        let mut pos = root.clone();
        for &m in last.as_ref().map(|i| i.pv.as_slice()).unwrap_or(&[]) {
            let mut legal = MovesOf::<G>::default();
            pos.legal_moves(&mut legal);
            if !legal.iter().any(|&l| l == m) {
                break;
            }
            pv.push(pos.format_move(m));
            pos.play(m);
        }
        Ok(Found {
            best: r.best.map(|m| root.format_move(m)),
            score: last.as_ref().map(|i| i.score).unwrap_or(Score::from_internal(r.score)),
            depth: r.depth,
            nodes: r.nodes,
            pv,
        })
    }

    fn clear(&mut self) {
        Searcher::clear(self)
    }
}

fn open(variant: &str, start: Option<&str>) -> PyResult<Box<dyn Live>> {
    struct Open<'a>(Option<&'a str>);
    impl Visitor for Open<'_> {
        type Output = Result<Box<dyn Live>, String>;
        fn visit<G: Game>(self) -> Self::Output {
            Ok(Box::new(LiveGame::<G>::open(self.0)?))
        }
    }
    tetrarch::variants::visit(variant, Open(start)).map_err(err)?.map_err(err)
}

/// A position of one variant and the game that led to it: moves are pushed and popped as
/// their canonical texts (protocol-spec.md, section 5).
#[pyclass(module = "tetrarch._tetrarch")]
struct Board {
    live: Box<dyn Live>,
}

/// Splits `position` as `position` takes it: `startpos`, `fen ...`/`sfen ...` or the bare
/// string, then optionally `moves ...`.
fn split_position(text: Option<&str>) -> PyResult<(Option<String>, Vec<String>)> {
    let words: Vec<&str> = text.unwrap_or("startpos").split_whitespace().collect();
    tetrarch::rules::position_words(&words).map_err(err)
}

#[pymethods]
impl Board {
    /// `Board(variant, position=None)`: the variant's start, or a position string (optionally
    /// `startpos`/`fen ...` and then `moves ...`).
    #[new]
    #[pyo3(signature = (variant, position=None))]
    fn new(variant: &str, position: Option<&str>) -> PyResult<Self> {
        let (start, moves) = split_position(position)?;
        let mut live = open(variant, start.as_deref())?;
        for m in moves {
            live.push(&m).map_err(err)?;
        }
        Ok(Board { live })
    }

    /// The game of a record file of `tetrarch match` (game `game`, from 1).
    #[staticmethod]
    #[pyo3(signature = (text, game=1))]
    fn from_record(text: &str, game: usize) -> PyResult<Self> {
        let games = tetrarch::arbiter::record::parse_pgn(text).map_err(err)?;
        let g = games
            .get(game.wrapping_sub(1))
            .ok_or_else(|| PyIndexError::new_err(format!("game {} of {}", game, games.len())))?;
        let variant = g.tag("Variant").ok_or_else(|| err("the record has no Variant tag"))?;
        let mut live = open(variant, g.tag("StartPosition"))?;
        for m in &g.moves {
            live.push(m).map_err(err)?;
        }
        Ok(Board { live })
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.live.spec().name
    }

    /// The seat letters, in seat order.
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.live.spec().seats.chars().map(String::from).collect()
    }

    /// The seat to move.
    #[getter]
    fn turn(&self) -> String {
        self.live.turn().to_string()
    }

    /// The moves played from the start position.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.live.moves()
    }

    /// The start position's string, or None for the variant's start.
    #[getter]
    fn start(&self) -> Option<String> {
        self.live.start()
    }

    /// Plays a legal move given as its canonical text.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.live.push(r#move).map_err(err)
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<String> {
        self.live.pop().ok_or_else(|| PyIndexError::new_err("pop from a game without moves"))
    }

    /// The legal moves, as canonical texts (none once the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.live.legal()
    }

    /// The position string.
    fn position(&self) -> String {
        self.live.position()
    }

    /// The sides now: each a string of the seat letters whose interests coincide.
    fn sides(&self) -> Vec<String> {
        self.live.sides()
    }

    /// The sides of more than one seat (Double Mate's pairs, Judtho's alliances).
    fn alliances(&self) -> Vec<String> {
        self.live.sides().into_iter().filter(|s| s.len() > 1).collect()
    }

    /// Whether the seat to move must answer a check.
    fn in_check(&self) -> bool {
        self.live.must_answer_check()
    }

    fn is_game_over(&self) -> bool {
        self.live.outcome().is_some()
    }

    /// None while the game goes on; else a dict: `winners` and `losers` (seat letters, a draw
    /// has neither), `places` (seat letter to place, 1 the best) and `reason`.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some((winners, losers, places, reason)) = self.live.outcome() else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("winners", winners.chars().map(String::from).collect::<Vec<_>>())?;
        d.set_item("losers", losers.chars().map(String::from).collect::<Vec<_>>())?;
        let p = PyDict::new(py);
        for (letter, place) in self.live.spec().seats.chars().zip(places) {
            p.set_item(letter.to_string(), place)?;
        }
        d.set_item("places", p)?;
        d.set_item("reason", reason)?;
        Ok(Some(d))
    }

    /// What the engine's `status` says, as a dict.
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.live.status() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The number of leaves of the legal move tree `depth` plies deep.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = go_number("perft", Some(depth))?.unwrap_or(0).min(u32::MAX as u64) as u32;
        let live = self.live.boxed();
        Ok(py.detach(move || live.perft(depth)))
    }

    fn copy(&self) -> Board {
        Board { live: self.live.boxed() }
    }

    fn __copy__(&self) -> Board {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.copy()
    }

    /// The size of the variant's action space (`END` included, the last action).
    #[getter]
    fn num_actions(&self) -> u32 {
        self.live.num_actions()
    }

    /// The action of a legal move that is one action; see `move_to_actions`.
    fn move_to_action(&self, r#move: &str) -> PyResult<u32> {
        match self.live.move_actions(r#move).map_err(err)?.as_slice() {
            [a] => Ok(*a),
            many => Err(err(format!("'{}' is {} actions: use move_to_actions", r#move, many.len()))),
        }
    }

    /// The actions that enter a legal move here: the move's own, and `END` where they are
    /// also the start of another legal move's.
    fn move_to_actions(&self, r#move: &str) -> PyResult<Vec<u32>> {
        self.live.move_actions(r#move).map_err(err)
    }

    /// The legal move that an action, or a list of actions, enters here.
    fn action_to_move(&self, actions: &Bound<'_, PyAny>) -> PyResult<String> {
        let list: Vec<u32> = match actions.extract::<u32>() {
            Ok(a) => vec![a],
            Err(_) => actions.extract()?,
        };
        self.live.actions_move(&list).map_err(err)
    }

    /// Which actions may come next, after the actions `prefix` of a move begun: a bool array
    /// of `num_actions`.
    #[pyo3(signature = (prefix=Vec::new()))]
    fn legal_action_mask<'py>(&self, py: Python<'py>, prefix: Vec<u32>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_vec(py, self.live.mask(&prefix))
    }

    /// The position as float32 planes (planes, ranks, files) seen by `seat` (a letter or an
    /// index; default the seat to move); the planes are listed in the package's README.
    #[pyo3(signature = (seat=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let seats = self.live.spec().seats;
        let s = match seat {
            None => seats.find(self.live.turn()).unwrap_or(0),
            Some(v) => match v.extract::<usize>() {
                Ok(i) if i < seats.len() => i,
                Ok(i) => return Err(PyIndexError::new_err(format!("seat {} of {}", i, seats.len()))),
                Err(_) => {
                    let l: String = v.extract()?;
                    seats.find(l.as_str()).filter(|_| l.len() == 1).ok_or_else(|| err(format!("no seat '{}'", l)))?
                }
            },
        };
        let (p, r, f, v) = self.live.observation(s);
        let a = Array3::from_shape_vec((p, r, f), v).map_err(err)?;
        Ok(a.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!("Board({:?}, {:?})", self.live.spec().name, self.live.position())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("tetrarch._tetrarch")?.getattr("_rebuild")?;
        let args = PyTuple::new(
            py,
            [
                self.live.spec().name.into_pyobject(py)?.into_any(),
                self.live.start().into_pyobject(py)?.into_any(),
                self.live.moves().into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((rebuild, args))
    }
}

/// Unpickles a `Board`.
#[pyfunction]
fn _rebuild(variant: &str, start: Option<String>, moves: Vec<String>) -> PyResult<Board> {
    let mut live = open(variant, start.as_deref())?;
    for m in moves {
        live.push(&m).map_err(err)?;
    }
    Ok(Board { live })
}

/// tetrarch's search for one variant, with its own hash table.
#[pyclass(module = "tetrarch._tetrarch")]
struct Engine {
    variant: &'static str,
    /// Out while a search runs (without the interpreter's lock), back after it.
    think: std::sync::Mutex<Option<Box<dyn Think>>>,
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (variant, hash_mib=None, threads=None), text_signature = "(variant, hash_mib=64, threads=1)")]
    fn new(variant: &str, hash_mib: Option<&Bound<'_, PyAny>>, threads: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let live = open(variant, None)?;
        let hash_mib = match hash_mib {
            Some(v) => option_number("USI_Hash", v, tetrarch::search::MAX_HASH_MIB as u64)?,
            None => 64,
        };
        let threads = match threads {
            Some(v) => option_number("Threads", v, tetrarch::search::MAX_THREADS as u64)?,
            None => 1,
        };
        Ok(Engine { variant: live.spec().name, think: std::sync::Mutex::new(Some(live.searcher(hash_mib, threads))) })
    }

    /// Searches `board` to a depth, a node count or a time in milliseconds (at least one);
    /// returns a dict: `move` (None when there is none), `score` (`("cp", n)` or `("mate",
    /// n)`, from the side to move), `depth`, `nodes` and `pv`. Other Python threads run
    /// meanwhile.
    #[pyo3(signature = (board, depth=None, nodes=None, movetime=None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: &Board,
        depth: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        movetime: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = go_number("depth", depth)?.map(|d| d.min(u32::MAX as u64) as u32);
        let nodes = go_number("nodes", nodes)?;
        let movetime = go_number("movetime", movetime)?;
        if board.live.spec().name != self.variant {
            return Err(err(format!("an engine for {} given a {} board", self.variant, board.live.spec().name)));
        }
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(err("give depth, nodes or movetime"));
        }
        let limits = Limits {
            depth: depth.map(|d| d.max(1)),
            nodes: nodes.map(|n| n.max(1)),
            budget: movetime.map(|ms| tetrarch::search::time::fixed(ms, 0)),
            ..Limits::default()
        };
        let game = board.live.boxed();
        let taken = self.think.lock().map_err(err)?.take();
        let mut think = taken.ok_or_else(|| err("this engine is searching in another thread"))?;
        // The search runs on a thread with the stack the engine's own search thread has (a
        // Python thread's is too small for its deepest lines), the interpreter free meanwhile.
        let (found, think) = py.detach(move || {
            let searched = std::thread::scope(|s| {
                std::thread::Builder::new()
                    .name("tetrarch-search".into())
                    .stack_size(tetrarch::search::SEARCH_STACK)
                    .spawn_scoped(s, || think.think(game.as_ref(), limits))
                    .map(|h| h.join().unwrap_or_else(|_| Err("the search failed".into())))
            });
            (searched.unwrap_or_else(|e| Err(e.to_string())), think)
        });
        *self.think.lock().map_err(err)? = Some(think);
        let f = found.map_err(err)?;
        let d = PyDict::new(py);
        d.set_item("move", f.best)?;
        d.set_item(
            "score",
            match f.score {
                Score::Cp(v) => ("cp", v),
                Score::Mate(v) => ("mate", v),
            },
        )?;
        d.set_item("depth", f.depth)?;
        d.set_item("nodes", f.nodes)?;
        d.set_item("pv", f.pv)?;
        Ok(d)
    }

    /// Forgets the hash table and the move-ordering history (a new game).
    fn clear(&self) {
        if let Ok(mut guard) = self.think.lock()
            && let Some(t) = guard.as_mut()
        {
            t.clear();
        }
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.variant
    }
}

/// The variants the package plays.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    tetrarch::variants::names()
}

#[pymodule]
fn _tetrarch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Engine>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(_rebuild, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
