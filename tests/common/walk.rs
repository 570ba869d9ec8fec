//! The one random walk that the rules tests take against their reference generators.

use super::Rng;
use tetrarch::rules::Game;
use tetrarch::rules::prelude::*;

/// One position of a walk, as `walk` shows it to a test.
pub struct Step<'a, G: Game> {
    pub record: &'a Record<G>,
    /// The position string.
    pub text: &'a str,
    /// The legal moves, as texts in generation order (none once the game is over).
    pub moves: &'a [String],
    /// The move that led here, if any.
    pub last: Option<&'a str>,
}

/// A random game from `start`, the walk every rules test takes against its reference: at every
/// position, the invariants every game owes (the incremental hash equals one from scratch, the
/// position string reads back to itself with the same hash, and there are legal moves exactly
/// while the game is on); then `check`, where the test holds the position to its reference and
/// counts what it sees; then a move chosen by `rng`, until the game ends or `max_plies` are
/// played. Returns the game.
pub fn walk<G: Game>(start: G, rng: &mut Rng, max_plies: usize, mut check: impl FnMut(&Step<G>)) -> Record<G> {
    let mut record = Record::new(start);
    let mut last: Option<String> = None;
    loop {
        let pos = &record.current;
        let text = pos.to_text();
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash of {text}");
        let back = G::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.to_text(), text, "the position string reads back to itself");
        assert_eq!(back.hash(), pos.hash(), "the position string reads back to the same hash: {text}");
        let mut list = MovesOf::<G>::default();
        record.legal_moves(&mut list);
        assert_eq!(list.is_empty(), record.outcome().is_some(), "moves exactly while the game is on: {text}");
        let moves: Vec<String> = list.iter().map(|&m| pos.format_move(m)).collect();
        check(&Step { record: &record, text: &text, moves: &moves, last: last.as_deref() });
        if moves.is_empty() || record.moves.len() >= max_plies {
            return record;
        }
        let k = rng.below(moves.len());
        record.play(list.as_slice()[k]);
        last = Some(moves[k].clone());
    }
}
