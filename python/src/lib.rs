//! `tetrarch._tetrarch`: the Python module over the tetrarch library. Every rule, text, action
//! number and search is the library's; this crate only holds a game behind one trait object per
//! `Board` and `Engine` and turns the answers into Python values.

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use tetrarch::live::{Live, OpenError, Think};
use tetrarch::rules::Seat;
use tetrarch::search::{Control, Limits, Score};

pyo3::create_exception!(
    _tetrarch,
    InvalidPositionError,
    PyValueError,
    "A position string that is not one of the variant's."
);
pyo3::create_exception!(_tetrarch, InvalidMoveError, PyValueError, "Actions that no move of the variant spells.");
pyo3::create_exception!(
    _tetrarch,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal here, or any move once the game is over."
);

fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A whole number argument of a search or perft, named as Python names it: `TypeError` for
/// another type (`bool`, `float` and `str` included), `ValueError` outside `min..=max`.
fn whole(name: &str, value: Option<&Bound<'_, PyAny>>, min: u64, max: u64) -> PyResult<Option<u64>> {
    let Some(v) = value else { return Ok(None) };
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        let kind = v.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!("{name} must be an int, not {kind}")));
    }
    match v.extract::<i128>() {
        Ok(n) if (min as i128..=max as i128).contains(&n) => Ok(Some(n as u64)),
        Ok(n) => Err(PyValueError::new_err(format!("{name} must be from {min} to {max}, not {n}"))),
        Err(e) => Err(e),
    }
}

/// `Engine`'s sizes, named by their Python argument.
fn option_number(name: &str, value: &Bound<'_, PyAny>, max: u64) -> PyResult<usize> {
    Ok(whole(name, Some(value), 1, max)?.unwrap_or(1) as usize)
}

/// Runs `work` on a thread of its own with the engine's search stack while the interpreter runs
/// other Python threads, and watches for Ctrl-C every 10 ms: a `KeyboardInterrupt` (or any
/// signal handler's error) calls `stop` and waits for `work` to end. Gives what `work` gave (an
/// error if its thread failed) and the signal's error, which the caller raises once it has put
/// back what `work` returned.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &(dyn Fn() + Sync),
    work: impl FnOnce() -> T + Send,
) -> (PyResult<T>, Option<PyErr>) {
    let mut raised: Option<PyErr> = None;
    let out = py.detach(|| {
        std::thread::scope(|s| {
            let h = std::thread::Builder::new()
                .name("tetrarch-search".into())
                .stack_size(tetrarch::search::SEARCH_STACK)
                .spawn_scoped(s, work)
                .map_err(|e| e.to_string())?;
            while !h.is_finished() {
                std::thread::park_timeout(std::time::Duration::from_millis(10));
                if raised.is_none()
                    && let Err(e) = Python::attach(|py| py.check_signals())
                {
                    raised = Some(e);
                    stop();
                }
            }
            h.join().map_err(|_| "the search failed".to_string())
        })
    });
    (out.map_err(err), raised)
}

fn score_tuple(score: Score) -> (&'static str, i32) {
    match score {
        Score::Cp(v) => ("cp", v),
        Score::Mate(v) => ("mate", v),
    }
}

fn open(variant: &str, start: Option<&str>) -> PyResult<Box<dyn Live>> {
    tetrarch::live::open(variant, start, &[]).map_err(|e| match e {
        OpenError::Position(_) => InvalidPositionError::new_err(e.to_string()),
        OpenError::Move(_) => IllegalMoveError::new_err(e.to_string()),
        OpenError::Variant(v) => PyValueError::new_err(v.to_string()),
    })
}

/// A move that the game refuses: not the canonical text of a legal move here, or any move once
/// the game is over.
fn illegal(e: impl std::fmt::Display) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

/// A position of one variant and the game that led to it: moves are pushed and popped as
/// their canonical texts (protocol-spec.md, section 5).
#[pyclass(module = "tetrarch._tetrarch")]
struct Board {
    live: Box<dyn Live>,
}

impl Board {
    /// Which actions may follow `prefix`, each of whose actions must be in the numbering.
    /// An action or a sequence of actions, each one of the variant's.
    fn actions_of(&self, actions: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let list: Vec<u32> = match actions.extract::<u32>() {
            Ok(a) => vec![a],
            Err(_) => actions.extract().map_err(|_| {
                PyTypeError::new_err("actions must be an action (a non-negative int) or a sequence of them")
            })?,
        };
        self.within_actions(&list)?;
        Ok(list)
    }

    fn within_actions(&self, list: &[u32]) -> PyResult<()> {
        match list.iter().find(|&&a| a >= self.live.num_actions()) {
            Some(a) => Err(InvalidMoveError::new_err(format!(
                "action {} is outside the {} actions of {}",
                a,
                self.live.num_actions(),
                self.live.variant().name
            ))),
            None => Ok(()),
        }
    }

    fn mask(&self, prefix: &[u32]) -> PyResult<Vec<bool>> {
        self.within_actions(prefix)?;
        Ok(self.live.action_mask(prefix))
    }
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
        if position.is_some_and(|p| p.trim().is_empty()) {
            return Err(InvalidPositionError::new_err("an empty position string (None gives the start)"));
        }
        let (start, moves) = split_position(position)?;
        let mut live = open(variant, start.as_deref())?;
        for m in moves {
            live.push(&m).map_err(illegal)?;
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
            live.push(m).map_err(illegal)?;
        }
        Ok(Board { live })
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.live.variant().name
    }

    /// The seat letters, in seat order.
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.live.variant().seats.chars().map(String::from).collect()
    }

    /// The seat to move.
    #[getter]
    fn turn(&self) -> String {
        self.live.letter(self.live.to_move()).to_string()
    }

    /// The moves played from the start position.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.live.moves().to_vec()
    }

    /// The start position's string, or None for the variant's start.
    #[getter]
    fn start(&self) -> Option<String> {
        self.live.start().map(String::from)
    }

    /// Plays a legal move given as its canonical text.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.live.push(r#move).map_err(illegal)
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<String> {
        self.live.pop().ok_or_else(|| PyIndexError::new_err("pop from a game without moves"))
    }

    /// The legal moves, as canonical texts (none once the game is over): a view that answers
    /// `move in board.legal_moves` and `len()`, iterates, and gives a list when called
    /// (`board.legal_moves()`). It holds the moves of the position it was read in.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves { moves: self.live.legal() }
    }

    /// The moves played from the start position, first first (python-chess's name for `moves`).
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.live.moves().to_vec()
    }

    /// A legal move here in the UCI dialect's text (Judkins: Fairy-Stockfish's `a2a3`, `B@c4`,
    /// `e4e5+`; the other variants write their own texts).
    fn uci(&self, r#move: &str) -> PyResult<String> {
        if !self.live.legal().iter().any(|m| m == r#move) {
            return Err(illegal(format!("'{}' is not a legal move here", r#move)));
        }
        Ok((self.live.uci().move_out)(r#move))
    }

    /// The canonical text of the legal move that `text`, in the UCI dialect, names here.
    fn parse_uci(&self, text: &str) -> PyResult<String> {
        let m = (self.live.uci().move_in)(text).map_err(|e| InvalidMoveError::new_err(e.to_string()))?;
        if !self.live.legal().contains(&m) {
            return Err(illegal(format!("'{}' ({}) is not a legal move here", text, m)));
        }
        Ok(m)
    }

    /// The position string in the UCI dialect (Judkins: Fairy-Stockfish's FEN).
    fn uci_position(&self) -> String {
        (self.live.uci().position_out)(&self.live.position())
    }

    /// A board from a position string of the UCI dialect (Judkins: Fairy-Stockfish's FEN).
    #[staticmethod]
    fn from_uci(variant: &str, position: &str) -> PyResult<Self> {
        let live = open(variant, None)?;
        let own = (live.uci().position_in)(position).map_err(|e| InvalidPositionError::new_err(e.to_string()))?;
        Ok(Board { live: open(variant, Some(&own))? })
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

    /// None while the game goes on; else its `Outcome`.
    fn outcome(&self) -> Option<Outcome> {
        let st = self.live.standing()?;
        let letters: Vec<String> = self.live.variant().seats.chars().map(String::from).collect();
        let pick = |f: &dyn Fn(f64) -> bool| -> Vec<String> {
            st.points.iter().zip(&letters).filter(|(p, _)| f(**p)).map(|(_, l)| l.clone()).collect()
        };
        let result = self
            .live
            .variant()
            .players
            .iter()
            .map(|player| {
                // A player's seats share their points (a side's seats do).
                let seat = letters.iter().position(|l| player.starts_with(l.as_str())).unwrap_or(0);
                points_text(st.points[seat])
            })
            .collect::<Vec<_>>()
            .join("-");
        Some(Outcome {
            winners: pick(&|p| p >= 0.75),
            losers: pick(&|p| p <= 0.25),
            places: letters.iter().cloned().zip(st.places.iter().copied()).collect(),
            points: letters.iter().cloned().zip(st.points.iter().copied()).collect(),
            reason: st.outcome.reason.as_str().to_string(),
            result,
        })
    }

    /// The result as python-chess writes it, a player's points each in `players(variant)`'s
    /// order: `1-0`, `0-1`, `1/2-1/2`, `0-1-0-0` for four players; `*` while the game goes on.
    fn result(&self) -> String {
        self.outcome().map_or_else(|| "*".to_string(), |o| o.result)
    }

    /// Whether the game ended in checkmate (the rules' last checkmate: Judtho's Third, Double
    /// Mate's second army's).
    fn is_checkmate(&self) -> bool {
        self.live.standing().is_some_and(|st| st.outcome.reason == tetrarch::rules::Termination::Checkmate)
    }

    /// What the engine's `status` says, as a dict: `turn`, `checks`, the game's notes, and
    /// `outcome` as the protocol writes it, with the ranking where the rules rank the seats.
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("turn", self.live.letter(self.live.to_move()).to_string())?;
        d.set_item("checks", self.live.letters(self.live.checked_seats()))?;
        for (k, v) in self.live.notes() {
            d.set_item(k, v)?;
        }
        d.set_item("outcome", self.live.outcome_text())?;
        Ok(d)
    }

    /// The number of leaves of the legal move tree `depth` plies deep.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        // The command line's range (tetrarch perft, go perft).
        let depth = whole("depth", Some(depth), 1, 64)?.unwrap_or(1) as u32;
        let live = self.live.boxed();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let halt = || stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let (count, raised) = interruptible(py, &halt, || live.perft(depth, &stop, &mut |_, _| ()));
        if let Some(e) = raised {
            return Err(e);
        }
        count?.ok_or_else(|| err("perft stopped"))
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
        match self.live.move_actions(r#move).map_err(illegal)?.as_slice() {
            [a] => Ok(*a),
            many => Err(err(format!("'{}' is {} actions: use move_to_actions", r#move, many.len()))),
        }
    }

    /// The actions that enter a legal move here: the move's own, and `END` where they are
    /// also the start of another legal move's.
    fn move_to_actions(&self, r#move: &str) -> PyResult<Vec<u32>> {
        self.live.move_actions(r#move).map_err(illegal)
    }

    /// The legal move that an action, or a list of actions, enters here.
    fn action_to_move(&self, actions: &Bound<'_, PyAny>) -> PyResult<String> {
        let list = self.actions_of(actions)?;
        self.live.actions_move(&list).map_err(illegal)
    }

    /// Plays the legal move that an action, or a list of actions, enters here, and gives its
    /// text; `None`, playing nothing, where the actions only begin a move (more must follow:
    /// `legal_action_mask(actions)` says which). One call for `action_to_move` and `push`.
    fn push_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let list = self.actions_of(actions)?;
        self.live.push_actions(&list).map_err(illegal)
    }

    /// Which actions may come next, after the actions `prefix` of a move begun: a bool array
    /// of `num_actions`.
    #[pyo3(signature = (prefix=Vec::new()))]
    fn legal_action_mask<'py>(&self, py: Python<'py>, prefix: Vec<u32>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        Ok(PyArray1::from_vec(py, self.mask(&prefix)?))
    }

    /// The kinds of the variant's pieces, as its pictures label them: the order of the planes
    /// of `observation`.
    #[getter]
    fn kinds(&self) -> Vec<&'static str> {
        self.live.kinds().to_vec()
    }

    /// The position as float32 planes (planes, ranks, files) seen by `seat` (a letter or an
    /// index; default the seat to move); the planes are listed in the package's README. With
    /// `clip`, counts above 1 (a Dojo stack of two alike members) are cut to 1, as an
    /// observation space of [0, 1] wants.
    #[pyo3(signature = (seat=None, clip=false))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
        clip: bool,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let seats = self.live.variant().seats;
        let s = match seat {
            None => self.live.to_move().index(),
            Some(v) => match v.extract::<usize>() {
                Ok(i) if i < seats.len() => i,
                Ok(i) => return Err(PyIndexError::new_err(format!("seat {} of {}", i, seats.len()))),
                Err(_) => {
                    let l: String = v.extract().map_err(|_| {
                        PyTypeError::new_err("seat must be a seat's letter or its index (a non-negative int)")
                    })?;
                    seats.find(l.as_str()).filter(|_| l.len() == 1).ok_or_else(|| err(format!("no seat '{}'", l)))?
                }
            },
        };
        let mut o = self.live.observation(Seat(s as u8));
        if clip {
            o.values.iter_mut().for_each(|x| *x = x.min(1.0));
        }
        let a = Array3::from_shape_vec((o.planes, o.ranks, o.files), o.values).map_err(err)?;
        Ok(a.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!("Board({:?}, {:?})", self.live.variant().name, self.live.position())
    }

    /// The position drawn as text, as the engine's `d` command draws it.
    fn __str__(&self) -> String {
        self.live.display(false)
    }

    /// Boards are equal when they hold the same variant and position (their move stacks may
    /// differ). A board changes as moves are pushed, so it is not hashable: `position_hash`
    /// is the position's key.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Board>().is_ok_and(|o| {
            let o = o.borrow();
            o.live.variant().name == self.live.variant().name && o.live.position() == self.live.position()
        })
    }

    /// The position's 64-bit Zobrist key: equal positions have equal keys.
    #[getter]
    fn position_hash(&self) -> u64 {
        self.live.hash()
    }

    /// How many moves have been pushed since the start.
    #[getter]
    fn ply(&self) -> usize {
        self.live.moves().len()
    }

    /// The game's own (classical) evaluation in centipawns for the side to move, without a
    /// search: a value for training targets beside `Engine.search`'s scores.
    fn evaluate(&self) -> i32 {
        self.live.evaluate()
    }

    /// The legal actions after `prefix` (the actions of a move begun), as a sorted array of
    /// ids: the sparse form of `legal_action_mask`, which Judtho's 79,498 actions make costly.
    #[pyo3(signature = (prefix=Vec::new()))]
    fn legal_actions<'py>(&self, py: Python<'py>, prefix: Vec<u32>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        self.within_actions(&prefix)?;
        Ok(PyArray1::from_vec(py, self.live.next_actions(&prefix)))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("tetrarch._tetrarch")?.getattr("_rebuild")?;
        let args = PyTuple::new(
            py,
            [
                self.live.variant().name.into_pyobject(py)?.into_any(),
                self.live.start().into_pyobject(py)?.into_any(),
                self.live.moves().into_pyobject(py)?.into_any(),
                self.live.packed_moves().into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((rebuild, args))
    }
}

/// Unpickles a `Board`: its moves' texts, and their packed words where the pickle has them
/// (which spare the search of each text among the legal moves' texts; the texts decide).
#[pyfunction]
#[pyo3(signature = (variant, start, moves, packed=None))]
fn _rebuild(variant: &str, start: Option<String>, moves: Vec<String>, packed: Option<Vec<u64>>) -> PyResult<Board> {
    let mut live = open(variant, start.as_deref())?;
    let packed = packed.filter(|p| p.len() == moves.len());
    for (i, m) in moves.iter().enumerate() {
        match &packed {
            Some(p) => live.push_packed(p[i], m),
            None => live.push(m),
        }
        .map_err(illegal)?;
    }
    Ok(Board { live })
}

/// tetrarch's search for one variant, with its own hash table.
#[pyclass(module = "tetrarch._tetrarch")]
struct Engine {
    variant: &'static str,
    /// Out while a search runs (without the interpreter's lock), back after it.
    think: std::sync::Mutex<Option<Box<dyn Think>>>,
    /// The running search's control, for `stop` from another thread.
    control: std::sync::Mutex<Option<std::sync::Arc<Control>>>,
}

#[pymethods]
impl Engine {
    #[new]
    /// `eval_file`: a network file (docs/nnue.md) for the variant, in place of its built-in
    /// network; `use_nnue=False`: the game's own evaluation, as the engine's `Use NNUE` option.
    #[pyo3(
        signature = (variant, hash_mib=None, threads=None, eval_file=None, use_nnue=true),
        text_signature = "(variant, hash_mib=64, threads=1, eval_file=None, use_nnue=True)"
    )]
    fn new(
        variant: &str,
        hash_mib: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        eval_file: Option<std::path::PathBuf>,
        use_nnue: bool,
    ) -> PyResult<Self> {
        let live = open(variant, None)?;
        let hash_mib = match hash_mib {
            Some(v) => option_number("hash_mib", v, tetrarch::search::MAX_HASH_MIB as u64)?,
            None => 64,
        };
        let threads = match threads {
            Some(v) => option_number("threads", v, tetrarch::search::MAX_THREADS as u64)?,
            None => 1,
        };
        let mut think = live.searcher(hash_mib, threads);
        let network = match (&eval_file, use_nnue) {
            (_, false) => None,
            (None, true) => think.network(),
            (Some(path), true) => {
                let refuse = |e: String| PyValueError::new_err(format!("eval_file '{}': {}", path.display(), e));
                let bytes = std::fs::read(path).map_err(|e| refuse(e.to_string()))?;
                let net = tetrarch::nnue::Network::from_bytes(&bytes).map_err(|e| refuse(e.to_string()))?;
                live.network_fits(&net).map_err(refuse)?;
                Some(std::sync::Arc::new(net))
            }
        };
        think.set_network(network).map_err(PyValueError::new_err)?;
        Ok(Engine {
            variant: live.variant().name,
            think: std::sync::Mutex::new(Some(think)),
            control: std::sync::Mutex::new(None),
        })
    }

    /// The network the search evaluates with, as `(variant, inputs, width)`, or None where it
    /// evaluates with the game's own evaluation.
    #[getter]
    fn network(&self) -> PyResult<Option<(String, usize, usize)>> {
        let guard = self.think.lock().map_err(|_| PyValueError::new_err("the engine's lock is poisoned"))?;
        let think =
            guard.as_ref().ok_or_else(|| PyValueError::new_err("this engine is searching in another thread"))?;
        Ok(think.network().map(|n| (n.variant.clone(), n.features, n.hidden)))
    }

    /// Searches `board` to a depth, a node count or a time in milliseconds (at least one, each
    /// at least 1); returns a dict: `move` (None when there is none), `score` (`("cp", n)` or
    /// `("mate", n)`, from the side to move), `depth`, `nodes` and `pv`. Other Python threads
    /// run meanwhile. The node limit is looked at every 1,024 nodes, so a search passes it by
    /// up to 1,023; `movetime` is kept within a few milliseconds. `callback`, if given, is
    /// called after each finished iteration with a dict of `depth`, `seldepth`, `score`,
    /// `nodes`, `nps`, `time_ms` and `pv`; an exception it raises stops the search and is
    /// raised here. `stop()` from another thread, or Ctrl-C, ends the search within
    /// milliseconds: `stop()` with its best move so far, Ctrl-C with `KeyboardInterrupt`.
    /// `multipv` (1 to 500) searches that many best root moves, each line the best of the
    /// moves the lines before it left, as the engine's `MultiPV` option does: `lines` in the
    /// result holds each rank's `move`, `score`, `depth` and `pv`, best first (one line without
    /// it), and the callback hears each line with its rank as `multipv`.
    #[pyo3(signature = (board, depth=None, nodes=None, movetime=None, callback=None, multipv=None))]
    // Python's keyword arguments, each checked by its name.
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: &Board,
        depth: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        movetime: Option<&Bound<'py, PyAny>>,
        callback: Option<Py<PyAny>>,
        multipv: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let multipv = whole("multipv", multipv, 1, 500)?.unwrap_or(1) as usize;
        let depth = whole("depth", depth, 1, tetrarch::search::MAX_PLY as u64)?.map(|d| d as u32);
        let nodes = whole("nodes", nodes, 1, u64::MAX)?;
        let movetime = whole("movetime", movetime, 1, u32::MAX as u64)?;
        if let Some(cb) = &callback
            && !cb.bind(py).is_callable()
        {
            return Err(PyTypeError::new_err("callback must be callable"));
        }
        if board.live.variant().name != self.variant {
            return Err(err(format!("an engine for {} given a {} board", self.variant, board.live.variant().name)));
        }
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(err("give depth, nodes or movetime"));
        }
        let limits = Limits {
            depth,
            nodes,
            budget: movetime.map(|ms| tetrarch::search::time::fixed(ms, 0)),
            best_reply: board.live.variant().search.best_reply,
            multipv,
            ..Limits::default()
        };
        let game = board.live.boxed();
        let taken = self.think.lock().map_err(err)?.take();
        let mut think = taken.ok_or_else(|| err("this engine is searching in another thread"))?;
        let control = Control::new(false);
        *self.control.lock().map_err(err)? = Some(std::sync::Arc::clone(&control));
        let failed: std::sync::Mutex<Option<PyErr>> = std::sync::Mutex::new(None);
        let halt = || control.stop();
        let (ran, raised) = interruptible(py, &halt, || {
            let mut report = |line: &tetrarch::live::Line| {
                let Some(cb) = &callback else { return };
                let called = Python::attach(|py| -> PyResult<()> {
                    let d = PyDict::new(py);
                    d.set_item("multipv", line.multipv.max(1))?;
                    d.set_item("depth", line.depth)?;
                    d.set_item("seldepth", line.seldepth)?;
                    d.set_item("score", score_tuple(line.score))?;
                    d.set_item("nodes", line.nodes)?;
                    d.set_item("nps", line.nps)?;
                    d.set_item("time_ms", line.time_ms)?;
                    d.set_item("pv", line.pv.clone())?;
                    cb.call1(py, (d,))?;
                    Ok(())
                });
                if let Err(e) = called {
                    if let Ok(mut f) = failed.lock() {
                        f.get_or_insert(e);
                    }
                    control.stop();
                }
            };
            let found = think.think(game.as_ref(), limits, std::sync::Arc::clone(&control), &mut report);
            (found, think)
        });
        *self.control.lock().map_err(err)? = None;
        // The searcher goes back before any error is raised; only a search thread that failed
        // (a panic, which the search never means to raise) loses it, and this engine then says
        // it is searching elsewhere: a new Engine is needed.
        let (found, think) = ran?;
        *self.think.lock().map_err(err)? = Some(think);
        if let Some(e) = raised.or(failed.lock().map_err(err)?.take()) {
            return Err(e);
        }
        let f = found.map_err(err)?;
        let d = PyDict::new(py);
        d.set_item("move", f.best)?;
        d.set_item("score", score_tuple(f.score))?;
        d.set_item("depth", f.depth)?;
        d.set_item("nodes", f.nodes)?;
        d.set_item("pv", f.pv)?;
        let lines = PyList::empty(py);
        for l in &f.lines {
            let one = PyDict::new(py);
            one.set_item("move", l.pv.first())?;
            one.set_item("score", score_tuple(l.score))?;
            one.set_item("depth", l.depth)?;
            one.set_item("pv", l.pv.clone())?;
            lines.append(one)?;
        }
        d.set_item("lines", lines)?;
        Ok(d)
    }

    /// Ends the search running in another thread as soon as it sees it (within milliseconds);
    /// that search returns its best move so far. Without a running search it does nothing.
    fn stop(&self) {
        if let Ok(guard) = self.control.lock()
            && let Some(c) = guard.as_ref()
        {
            c.stop();
        }
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

/// `1`, `0`, `1/2`, or the decimal for other shares of a point.
fn points_text(p: f64) -> String {
    if p == 1.0 {
        "1".into()
    } else if p == 0.0 {
        "0".into()
    } else if p == 0.5 {
        "1/2".into()
    } else {
        format!("{p}")
    }
}

/// How a game ended: `winners` and `losers` (seat letters; a draw has neither), `places` and
/// `points` (seat letter to place, 1 the best, and to points, 1 won, 1/2 drawn, 0 lost),
/// `reason` (`checkmate`, `stalemate`, `repetition`, `perpetual-check`, `move-limit`,
/// `lone-kings`, `king-capture`) and `result()`. `outcome["winners"]` and the other keys read
/// as the dict that `Board.outcome()` gave before.
#[pyclass(module = "tetrarch._tetrarch", frozen, eq)]
#[derive(Clone, PartialEq)]
struct Outcome {
    #[pyo3(get)]
    winners: Vec<String>,
    #[pyo3(get)]
    losers: Vec<String>,
    #[pyo3(get)]
    places: std::collections::BTreeMap<String, usize>,
    #[pyo3(get)]
    points: std::collections::BTreeMap<String, f64>,
    #[pyo3(get)]
    reason: String,
    result: String,
}

#[pymethods]
impl Outcome {
    /// As `Board.result()`: `1-0`, `1/2-1/2`, `0-1-0-0`.
    fn result(&self) -> String {
        self.result.clone()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        match key {
            "winners" => self.winners.clone().into_pyobject(py).map(|v| v.into_any()),
            "losers" => self.losers.clone().into_pyobject(py).map(|v| v.into_any()),
            "places" => self.places.clone().into_pyobject(py).map(|v| v.into_any()),
            "points" => self.points.clone().into_pyobject(py).map(|v| v.into_any()),
            "reason" => Ok(self.reason.clone().into_pyobject(py)?.into_any()),
            _ => Err(pyo3::exceptions::PyKeyError::new_err(key.to_string())),
        }
    }

    fn __repr__(&self) -> String {
        format!("Outcome(reason={:?}, result={:?}, winners={:?})", self.reason, self.result, self.winners)
    }
}

/// The legal moves of a position as canonical texts: `in`, `len()`, iteration, and a call
/// for a list.
#[pyclass(module = "tetrarch._tetrarch", frozen, sequence)]
struct LegalMoves {
    moves: Vec<String>,
}

#[pymethods]
impl LegalMoves {
    fn __call__(&self) -> Vec<String> {
        self.moves.clone()
    }

    fn __contains__(&self, r#move: &Bound<'_, PyAny>) -> bool {
        r#move.extract::<String>().is_ok_and(|m| self.moves.contains(&m))
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.moves.clone().into_pyobject(py)?.try_iter().map(|i| i.into_any())
    }

    fn __repr__(&self) -> String {
        format!("LegalMoves({:?})", self.moves)
    }
}

/// The variants the package plays.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    tetrarch::variants::names()
}

fn spec(variant: &str) -> PyResult<&'static tetrarch::rules::VariantSpec> {
    tetrarch::variants::find(variant).ok_or_else(|| err(tetrarch::variants::VariantError::Unknown(variant.into())))
}

/// The players of a variant, each as the string of the seat letters it commands (as a match
/// seats them: Double Mate has two players of two armies each).
#[pyfunction]
fn players(variant: &str) -> PyResult<Vec<&'static str>> {
    Ok(spec(variant)?.players.to_vec())
}

#[pymodule]
fn _tetrarch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Engine>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<LegalMoves>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(players, m)?)?;
    m.add_function(wrap_pyfunction!(_rebuild, m)?)?;
    m.add("InvalidPositionError", m.py().get_type::<InvalidPositionError>())?;
    m.add("InvalidMoveError", m.py().get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
