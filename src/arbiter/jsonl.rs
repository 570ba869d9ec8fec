//! The match's JSON lines (`--jsonl`, docs/match.md): one object per game, typed both ways by
//! `GameLine`. Lines written before a field existed still read: such fields are optional.

use super::game::GameReport;
use super::movedata::{MoveData, Score};
use serde::{Deserialize, Serialize, Serializer};
use std::io;

/// A player: its engine's name and the letters of its seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerLine {
    pub engine: String,
    pub seats: String,
}

/// A note on what a move changed (`Notation::milestone`), after `ply` moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommentLine {
    pub ply: usize,
    pub text: String,
}

/// One game, its fields in the order they are written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's number in the schedule, from 1.
    pub game: u64,
    pub variant: String,
    pub players: Vec<PlayerLine>,
    #[serde(default)]
    pub time_control: String,
    /// The start, when it is not the variant's start position.
    #[serde(default)]
    pub start_position: Option<String>,
    /// How many of the moves came from the opening.
    #[serde(default)]
    pub opening_plies: u64,
    pub moves: Vec<String>,
    // What was measured of each move, aligned with the moves (null for the opening's).
    #[serde(default)]
    pub time_ms: Vec<Option<u64>>,
    #[serde(default)]
    pub clock_ms: Vec<Option<u64>>,
    #[serde(default)]
    pub score: Vec<Option<Score>>,
    #[serde(default)]
    pub depth: Vec<Option<u32>>,
    #[serde(default)]
    pub nodes: Vec<Option<u64>>,
    #[serde(default)]
    pub comments: Vec<CommentLine>,
    pub result: String,
    /// Each seat's points: 1, 1/2 or 0 (1/3 when three share a win), whole ones written as
    /// integers.
    #[serde(default, serialize_with = "points")]
    pub points: Vec<f64>,
    #[serde(default)]
    pub places: Vec<u64>,
    pub termination: String,
    #[serde(default)]
    pub detail: String,
    /// The engine whose fault ended the game.
    #[serde(default)]
    pub culprit: Option<String>,
    #[serde(default)]
    pub duration_ms: u64,
}

/// Whole numbers as integers (`1`, not `1.0`), as the lines were written before serde.
fn points<S: Serializer>(points: &[f64], s: S) -> Result<S::Ok, S::Error> {
    struct Point(f64);
    impl Serialize for Point {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if self.0.fract() == 0.0 && self.0.abs() < 9e15 {
                s.serialize_i64(self.0 as i64)
            } else {
                s.serialize_f64(self.0)
            }
        }
    }
    s.collect_seq(points.iter().map(|&p| Point(p)))
}

impl GameLine {
    pub fn of_report(r: &GameReport, time_control: &str) -> GameLine {
        let letters: Vec<char> = r.seat_letters.chars().collect();
        let d = &r.move_data;
        let each = |f: &dyn Fn(&MoveData) -> Option<u64>| d.iter().map(|m| m.as_ref().and_then(f)).collect();
        GameLine {
            game: r.index as u64 + 1,
            variant: r.variant.to_string(),
            players: r
                .players
                .iter()
                .map(|p| PlayerLine {
                    engine: p.name.clone(),
                    seats: p.seats.iter().map(|&s| letters.get(s.index()).copied().unwrap_or('?')).collect(),
                })
                .collect(),
            time_control: time_control.to_string(),
            start_position: r.start_position.clone(),
            opening_plies: r.opening_plies as u64,
            moves: r.moves.clone(),
            time_ms: each(&|m| Some(m.time_ms)),
            clock_ms: each(&|m| m.clock_ms),
            score: d.iter().map(|m| m.as_ref().and_then(|m| m.score)).collect(),
            depth: d.iter().map(|m| m.as_ref().and_then(|m| m.depth)).collect(),
            nodes: each(&|m| m.nodes),
            comments: r.comments.iter().map(|(ply, text)| CommentLine { ply: *ply, text: text.clone() }).collect(),
            result: r.result(),
            points: r.points.clone(),
            places: r.places.iter().map(|&p| p as u64).collect(),
            termination: r.termination.clone(),
            detail: r.detail.clone(),
            culprit: r.culprit.map(|c| r.players[c].name.clone()),
            duration_ms: r.duration_ms,
        }
    }

    /// The line's text, without its line end.
    pub fn to_line(&self) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, LineFormatter);
        // Writing into memory fails only on a value that cannot be JSON, and none of ours is.
        if self.serialize(&mut ser).is_err() {
            return String::new();
        }
        String::from_utf8(out).unwrap_or_default()
    }

    pub fn parse(line: &str) -> Result<GameLine, String> {
        serde_json::from_str(line).map_err(|e| format!("JSON: {}", e))
    }

    /// Each move's data, aligned with the moves: a move has data when its time was measured.
    pub fn move_data(&self) -> Vec<Option<MoveData>> {
        let at = |list: &[Option<u64>], i: usize| list.get(i).copied().flatten();
        (0..self.moves.len())
            .map(|i| {
                at(&self.time_ms, i).map(|time_ms| MoveData {
                    time_ms,
                    clock_ms: at(&self.clock_ms, i),
                    score: self.score.get(i).copied().flatten(),
                    depth: self.depth.get(i).copied().flatten(),
                    nodes: at(&self.nodes, i),
                })
            })
            .collect()
    }
}

/// Compact JSON, with every control character but `\t`, `\n` and `\r` as `\u00XX` (serde_json
/// writes `\b` and `\f`): the lines stay byte-for-byte what they were.
struct LineFormatter;

impl serde_json::ser::Formatter for LineFormatter {
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        use serde_json::ser::CharEscape;
        match char_escape {
            CharEscape::Backspace => writer.write_all(b"\\u0008"),
            CharEscape::FormFeed => writer.write_all(b"\\u000c"),
            other => serde_json::ser::CompactFormatter.write_char_escape(writer, other),
        }
    }
}

/// The "evals" list of a game's JSON line, if it has one: an evaluation in centipawns of the
/// position before each move, from the side to move's view (`fixtures/engine-evals.py`
/// writes a USI engine's: Fairy-Stockfish's for Judkins, tetrarch's own deeper search for Dojo).
pub fn evals_of_line(line: &str) -> Result<Option<Vec<i32>>, String> {
    #[derive(Deserialize)]
    struct Evals {
        #[serde(default)]
        evals: Option<Vec<i32>>,
    }
    let e: Evals = serde_json::from_str(line).map_err(|e| format!("JSON: {}", e))?;
    match e.evals {
        Some(list) if list.iter().any(|v| v.abs() > 100_000) => {
            Err("an eval that is not a whole number of centipawns".to_string())
        }
        evals => Ok(evals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_surrogate_pairs_read_as_their_character() {
        let line = r#"{"game":1,"variant":"judkins","players":[{"engine":"\ud83d\ude00","seats":"b"}],"moves":[],"result":"*","termination":"unterminated"}"#;
        let g = GameLine::parse(line).unwrap();
        assert_eq!(g.players[0].engine, "😀");
        assert_eq!(g.opening_plies, 0);
        assert!(g.time_ms.is_empty() && g.detail.is_empty());
    }

    #[test]
    fn written_lines_read_back_the_same() {
        let line = r#"{"game":3,"variant":"dojo","players":[{"engine":"a","seats":"w"},{"engine":"b","seats":"b"}],"time_control":"1+0.1","start_position":null,"opening_plies":1,"moves":["e2e4","e7e5"],"time_ms":[null,10],"clock_ms":[null,990],"score":[null,{"mate":-2}],"depth":[null,3],"nodes":[null,77],"comments":[],"result":"1/2-1/2","points":[0.5,0.5],"places":[1,1],"termination":"repetition","detail":"","culprit":null,"duration_ms":5}"#;
        let g = GameLine::parse(line).unwrap();
        assert_eq!(g.to_line(), line);
        assert_eq!(g.move_data()[1].unwrap().score, Some(Score::Mate(-2)));
    }
}
