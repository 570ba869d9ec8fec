//! A game from a start position through its moves, with the history that the repetition rules
//! read.

use super::{MoveBuffer, MoveError, MovesOf, Notation, Outcome, Rules, Seat, SeatMask, Side, Termination};

/// One position of a game's history, as the repetition rules need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trace {
    pub hash: u64,
    pub to_move: Seat,
    /// The seats in check in this position; kept only for games with the perpetual-check rule,
    /// the one reader (0 elsewhere, which saves the work in the search).
    pub checks: SeatMask,
}

impl Trace {
    #[inline]
    pub fn of<G: Rules>(pos: &G) -> Self {
        let checks = if G::PERPETUAL_CHECK_LOSES { pos.checked_seats() } else { SeatMask::EMPTY };
        Trace { hash: pos.hash(), to_move: pos.to_move(), checks }
    }
}

/// Applies the repetition rule to a history whose last entry is the current position.
/// Returns the outcome if the current position completes the required number of occurrences.
pub fn repetition_outcome<G: Rules>(pos: &G, traces: &[Trace]) -> Option<Outcome> {
    let last = *traces.last()?;
    let mut count = 1;
    let mut first = traces.len() - 1;
    // Only positions with the same seat to move can be equal; hashes include it.
    for i in (0..traces.len() - 1).rev() {
        if traces[i].hash == last.hash {
            count += 1;
            first = i;
        }
    }
    if count < G::REPETITIONS {
        return None;
    }
    if G::PERPETUAL_CHECK_LOSES
        && let Some(loser) = perpetual_checker(pos, &traces[first..])
    {
        let winners = Seat::all(pos.seats()).filter(|&s| pos.side_of(s) != loser).collect();
        return Some(Outcome::win(winners, Termination::PerpetualCheck));
    }
    Some(Outcome::draw(Termination::Repetition))
}

/// In a repetition cycle (first to last entry inclusive), the side that gave check with every
/// one of its moves there (leaving a seat of another side in check after each), if exactly one
/// side did. If two or more did, the rule cancels out: a draw. Any number of sides.
pub fn perpetual_checker<G: Rules>(pos: &G, cycle: &[Trace]) -> Option<Side> {
    const SIDES: usize = 8;
    let mut moved = [false; SIDES];
    let mut always = [true; SIDES];
    // Entry i + 1 is the position after the move of the seat to move in entry i.
    for pair in cycle.windows(2) {
        let side = pos.side_of(pair[0].to_move);
        let s = side.index() % SIDES;
        moved[s] = true;
        let checked_other = pair[1].checks.seats().any(|v| pos.side_of(v) != side);
        always[s] &= checked_other;
    }
    let mut checker = None;
    for s in 0..SIDES {
        if moved[s] && always[s] {
            if checker.is_some() {
                return None;
            }
            checker = Some(Side(s as u8));
        }
    }
    checker
}

/// A game from a start position through a list of moves: the unit the protocol session and the
/// arbiter keep. It knows the whole history, so it can judge repetition.
#[derive(Clone)]
pub struct Record<G: Rules> {
    pub start: G,
    pub moves: Vec<G::Move>,
    pub current: G,
    pub traces: Vec<Trace>,
}

impl<G: Rules> Record<G> {
    pub fn new(start: G) -> Self {
        let traces = vec![Trace::of(&start)];
        Record { current: start.clone(), start, moves: Vec::new(), traces }
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: G::Move) {
        self.current.play(mv);
        self.moves.push(mv);
        self.traces.push(Trace::of(&self.current));
    }

    /// Takes back the last move, given the position before it: a record keeps no position but
    /// its start and the current one, so whoever takes moves back keeps those before them.
    pub fn take_back(&mut self, before: G) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.traces.pop();
        self.current = before;
        Some(mv)
    }

    pub fn legal_moves(&self, out: &mut MovesOf<G>) {
        // `outcome` without generating the moves twice: no legal move is an empty list anyway.
        out.clear();
        if self.current.static_outcome().is_some() {
            return;
        }
        self.current.legal_moves(out);
        if !out.is_empty() && repetition_outcome(&self.current, &self.traces).is_some() {
            out.clear();
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.current.static_outcome() {
            return Some(o);
        }
        let mut list = MovesOf::<G>::default();
        self.current.legal_moves(&mut list);
        if list.is_empty() {
            return Some(self.current.no_move_outcome());
        }
        repetition_outcome(&self.current, &self.traces)
    }
}

/// A position as the command line gives it (`perft`, `view`): `startpos` (or nothing), `sfen
/// <text>`, `fen <text>` or a bare position string, then optionally `moves <move>...`. The start's
/// text (`None` for the variant's start) and the moves.
pub fn position_words(words: &[&str]) -> Result<(Option<String>, Vec<String>), String> {
    let (head, moves) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &words[..0]),
    };
    let start = match head {
        [] | ["startpos"] => None,
        ["startpos", ..] => return Err("'startpos' takes nothing after it but 'moves ...'".into()),
        ["sfen" | "fen", text @ ..] => Some(text.join(" ")),
        text => Some(text.join(" ")),
    };
    Ok((start, moves.iter().map(|m| m.to_string()).collect()))
}

impl<G: Notation> Record<G> {
    /// Plays a move given as text. Fails, changing nothing, if the game is over or the move is
    /// not the canonical text of a legal move.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        // `outcome` and `parse_move` in one: the legal moves are generated once (replaying a
        // game, as a pickled Python board does, is mostly this).
        let after_the_end = |o: Outcome| MoveError::AfterTheEnd { text: text.to_string(), reason: o.reason.as_str() };
        if let Some(o) = self.current.static_outcome() {
            return Err(after_the_end(o));
        }
        let mut list = MovesOf::<G>::default();
        self.current.legal_moves(&mut list);
        if list.is_empty() {
            return Err(after_the_end(self.current.no_move_outcome()));
        }
        if let Some(o) = repetition_outcome(&self.current, &self.traces) {
            return Err(after_the_end(o));
        }
        let mv = self.current.move_of_text(list.as_slice(), text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays `moves` in order, as `play_text` does. The error names the first move that fails
    /// by its number in the game (`move 3 'x': ...`); the moves before it stay played.
    pub fn replay<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), String> {
        self.replay_each(moves, |_, _, _| ())
    }

    /// `replay`, calling `each` after every move with the game so far, the move's text and the
    /// seat that played it.
    pub fn replay_each<S: AsRef<str>>(
        &mut self,
        moves: &[S],
        mut each: impl FnMut(&Self, &str, Seat),
    ) -> Result<(), String> {
        for m in moves {
            let (text, mover) = (m.as_ref(), self.current.to_move());
            self.play_text(text).map_err(|e| format!("move {} '{}': {}", self.moves.len() + 1, text, e))?;
            each(self, text, mover);
        }
        Ok(())
    }
}
