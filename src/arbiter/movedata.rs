//! What the arbiter learns about each move besides its text: how long it took, the clock left,
//! and what the engine last said about its search (score, depth, nodes). Written after each
//! move of a record as a comment in Cute Chess's form, extended (`docs/match.md`), and read back.

use std::fmt;

/// A score as the engine reported it, from the mover's side: `score cp N` or `score mate N`.
/// In JSON: `{"cp":35}` or `{"mate":-3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

impl fmt::Display for Score {
    /// Cute Chess's spelling: pawns with two decimals and a sign (`+0.35`, `-1.20`), mates as
    /// `+M5` / `-M3` (moves to mate, as the engine counted them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{}{}.{:02}", sign, a / 100, a % 100)
            }
            Score::Mate(m) => write!(f, "{}M{}", if m < 0 { '-' } else { '+' }, m.unsigned_abs()),
        }
    }
}

impl Score {
    fn parse(text: &str) -> Option<Score> {
        let (negative, body) = match text.as_bytes().first()? {
            b'+' => (false, &text[1..]),
            b'-' => (true, &text[1..]),
            _ => return None,
        };
        if let Some(m) = body.strip_prefix('M') {
            let m: i64 = digits(m)?.try_into().ok()?;
            return Some(Score::Mate(if negative { -m } else { m }));
        }
        let (whole, frac) = body.split_once('.')?;
        if frac.len() != 2 {
            return None;
        }
        let cp = digits(whole)?.checked_mul(100)?.checked_add(digits(frac)?)?;
        let cp: i64 = cp.try_into().ok()?;
        Some(Score::Cp(if negative { -cp } else { cp }))
    }
}

/// Only ASCII digits, at least one: what `u64::from_str` would take without its `+`.
fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// One move's data. Every field is optional: an engine may print no `info`, and a match on
/// depth or nodes has no clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveData {
    /// From the `go` line written to the `bestmove` line read, in milliseconds.
    pub time_ms: u64,
    /// The mover's clock after the move (increment added), in milliseconds.
    pub clock_ms: Option<u64>,
    /// The last score the engine reported for this move.
    pub score: Option<Score>,
    /// The depth of that report (or the last depth reported, when no line had a score).
    pub depth: Option<u32>,
    /// The last node count the engine reported.
    pub nodes: Option<u64>,
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

fn parse_seconds(s: &str) -> Option<u64> {
    let body = s.strip_suffix('s')?;
    let (whole, frac) = body.split_once('.')?;
    if frac.len() != 3 {
        return None;
    }
    digits(whole)?.checked_mul(1000)?.checked_add(digits(frac)?)
}

impl MoveData {
    /// The comment text (without braces): `+0.35/12 0.512s clock=59.488s nodes=123456`. The
    /// first two words are Cute Chess's `{+0.35/12 0.51s}`, with milliseconds kept; a move
    /// without a reported score starts at the time.
    pub fn comment(&self) -> String {
        let mut s = String::new();
        if let Some(score) = self.score {
            s.push_str(&score.to_string());
            s.push('/');
            s.push_str(&self.depth.map(|d| d.to_string()).unwrap_or_else(|| "-".into()));
            s.push(' ');
        } else if let Some(d) = self.depth {
            s.push_str(&format!("-/{} ", d));
        }
        s.push_str(&seconds(self.time_ms));
        if let Some(c) = self.clock_ms {
            s.push_str(" clock=");
            s.push_str(&seconds(c));
        }
        if let Some(n) = self.nodes {
            s.push_str(&format!(" nodes={}", n));
        }
        s
    }

    /// Reads a comment written by `comment`; `None` for any other comment (a milestone note).
    pub fn parse_comment(text: &str) -> Option<MoveData> {
        let mut words = text.split(' ').peekable();
        let mut d = MoveData::default();
        let first = *words.peek()?;
        if let Some((score, depth)) = first.split_once('/') {
            words.next();
            d.score = if score == "-" { None } else { Some(Score::parse(score)?) };
            d.depth = if depth == "-" { None } else { Some(digits(depth)?.try_into().ok()?) };
            if d.score.is_none() && d.depth.is_none() {
                return None;
            }
        }
        d.time_ms = parse_seconds(words.next()?)?;
        for w in words {
            if let Some(c) = w.strip_prefix("clock=") {
                d.clock_ms = Some(parse_seconds(c)?);
            } else if let Some(n) = w.strip_prefix("nodes=") {
                d.nodes = Some(digits(n)?);
            } else {
                return None;
            }
        }
        Some(d)
    }
}

/// Follows an engine's `info` lines during one move and keeps what `MoveData` records.
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoWatch {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    scored_depth: bool,
}

/// What one `info` line says, for a watcher (the arbiter's move data, `tetrarch gui`'s
/// thinking column): only the fields a watcher shows; `info string` lines and lines without a
/// depth or score say nothing here. In JSON the score is Cute Chess's text (`"+0.35"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct InfoLine {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "score_text")]
    pub score: Option<Score>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashfull: Option<u64>,
    /// The principal variation: the rest of the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<String>,
}

fn score_text<S: serde::Serializer>(score: &Option<Score>, s: S) -> Result<S::Ok, S::Error> {
    match score {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

impl InfoLine {
    /// The line's fields, or none for a line that is not `info`, is `info string`, or carries
    /// neither a depth nor a score. A field whose value does not parse is left out.
    pub fn parse(line: &str) -> Option<InfoLine> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut i = InfoLine::default();
        while let Some(w) = words.next() {
            match w {
                // Free text follows: nothing after it is data.
                "string" => return None,
                // A principal variation runs to the end of the line.
                "pv" => {
                    i.pv = Some(words.collect::<Vec<_>>().join(" "));
                    break;
                }
                "depth" => i.depth = words.next().and_then(|v| v.parse().ok()),
                "seldepth" => i.seldepth = words.next().and_then(|v| v.parse().ok()),
                "nodes" => i.nodes = words.next().and_then(|v| v.parse().ok()),
                "nps" => i.nps = words.next().and_then(|v| v.parse().ok()),
                "time" => i.time = words.next().and_then(|v| v.parse().ok()),
                "hashfull" => i.hashfull = words.next().and_then(|v| v.parse().ok()),
                "score" => {
                    i.score = match (words.next(), words.next().and_then(|v| v.parse::<i64>().ok())) {
                        (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                        (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => None,
                    }
                }
                _ => {}
            }
        }
        Some(i)
    }

    /// Worth showing: it says how deep the search is.
    pub fn has_depth(&self) -> bool {
        self.depth.is_some()
    }
}

impl InfoWatch {
    pub fn read(&mut self, line: &str) {
        let Some(InfoLine { score, depth, nodes, .. }) = InfoLine::parse(line) else { return };
        if let Some(n) = nodes {
            self.nodes = Some(n);
        }
        if let Some(s) = score {
            self.score = Some(s);
            self.depth = depth.or(self.depth);
            self.scored_depth = depth.is_some();
        } else if depth.is_some() && !self.scored_depth {
            self.depth = depth;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_round_trip() {
        let cases = [
            MoveData {
                time_ms: 512,
                clock_ms: Some(59_488),
                score: Some(Score::Cp(35)),
                depth: Some(12),
                nodes: Some(123_456),
            },
            MoveData { time_ms: 0, clock_ms: None, score: Some(Score::Cp(-120)), depth: Some(1), nodes: None },
            MoveData { time_ms: 20_001, clock_ms: Some(0), score: Some(Score::Mate(-3)), depth: None, nodes: Some(0) },
            MoveData { time_ms: 7, clock_ms: None, score: Some(Score::Mate(5)), depth: Some(30), nodes: None },
            MoveData { time_ms: 7, clock_ms: None, score: None, depth: Some(4), nodes: None },
            MoveData { time_ms: 7, clock_ms: None, score: Some(Score::Cp(-5)), depth: Some(2), nodes: None },
            MoveData::default(),
        ];
        for d in cases {
            let c = d.comment();
            assert_eq!(MoveData::parse_comment(&c), Some(d), "{c}");
        }
        assert_eq!(
            MoveData { score: Some(Score::Cp(35)), depth: Some(12), time_ms: 510, ..Default::default() }.comment(),
            "+0.35/12 0.510s"
        );
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Mate(-3).to_string(), "-M3");
        for other in
            ["assembly complete", "alliances wr; cycle rybw", "", "+0.35/12", "1.5s", "0.100s clock=1s", "-/- 0.100s"]
        {
            assert_eq!(MoveData::parse_comment(other), None, "{other}");
        }
    }

    #[test]
    fn info_lines_give_the_last_score_depth_and_nodes() {
        let mut w = InfoWatch::default();
        w.read("info depth 3 seldepth 7 score cp 10 nodes 834 pv 2f4d 3a2b");
        w.read("info depth 4 currmove 4f5e currmovenumber 1");
        w.read("info string depth 99 score cp 5000");
        assert_eq!((w.score, w.depth, w.nodes), (Some(Score::Cp(10)), Some(3), Some(834)));
        w.read("info depth 5 seldepth 9 multipv 1 score mate -2 upperbound nodes 9000 nps 1 pv 1a1b");
        assert_eq!((w.score, w.depth, w.nodes), (Some(Score::Mate(-2)), Some(5), Some(9000)));
        w.read("info nodes 9500 time 30");
        assert_eq!(w.nodes, Some(9500));
        let mut w = InfoWatch::default();
        w.read("info depth 2 nodes 10");
        assert_eq!((w.score, w.depth), (None, Some(2)));
    }

    #[test]
    fn an_info_line_as_a_watcher_shows_it() {
        let i = InfoLine::parse("info depth 7 seldepth 12 score cp -35 nodes 9000 nps 450000 time 20 pv 2f4d 3a2b")
            .unwrap();
        assert_eq!(
            serde_json::to_string(&i).unwrap(),
            r#"{"depth":7,"seldepth":12,"score":"-0.35","nodes":9000,"nps":450000,"time":20,"pv":"2f4d 3a2b"}"#
        );
        assert_eq!(InfoLine::parse("info string depth 3"), None);
        assert_eq!(InfoLine::parse("bestmove 1a1b"), None);
        assert!(!InfoLine::parse("info currmove 1a1b").unwrap().has_depth());
        assert_eq!(InfoLine::parse("info depth x score mate 3").unwrap().score, Some(Score::Mate(3)));
    }
}
