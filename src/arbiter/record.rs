//! Game records: a PGN-like text for people and tools, and one JSON object per game for
//! scripts. The format is specified in `docs/match.md`.

use super::game::GameReport;
use super::movedata::MoveData;

fn escape_tag(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date as `YYYY.MM.DD` (UTC), from the days since 1970 (Howard Hinnant's algorithm).
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{:04}.{:02}.{:02}", y, m, d)
}

fn seat_list(r: &GameReport) -> String {
    let letters: Vec<char> = r.seat_letters.chars().collect();
    r.players
        .iter()
        .map(|p| {
            let seats: String = p.seats.iter().map(|&s| letters.get(s.index()).copied().unwrap_or('?')).collect();
            format!("{}:{}", seats, p.name)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game as PGN-like text, ended by an empty line.
pub fn pgn(r: &GameReport, event: &str, tc: &str) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| s.push_str(&format!("[{} \"{}\"]\n", k, escape_tag(v)));
    tag("Event", event);
    tag("Site", "tetrarch match");
    tag("Date", &today());
    tag("Round", &(r.index + 1).to_string());
    tag("Variant", r.variant);
    tag("Seats", &seat_list(r));
    let letters: Vec<char> = r.seat_letters.chars().collect();
    for p in &r.players {
        for &seat in &p.seats {
            tag(&letters.get(seat.index()).copied().unwrap_or('?').to_string(), &p.name);
        }
    }
    tag("TimeControl", tc);
    if let Some(sp) = &r.start_position {
        tag("StartPosition", sp);
    }
    if r.opening_plies > 0 {
        tag("OpeningPlies", &r.opening_plies.to_string());
    }
    tag("Result", &r.result());
    tag("Termination", &r.termination);
    if !r.detail.is_empty() {
        tag("TerminationDetail", &r.detail);
    }
    if r.players.len() > 2 {
        tag("Places", &places_text(&r.places));
    }
    tag("PlyCount", &r.moves.len().to_string());
    s.push('\n');
    // A round is as many turns as there are seats, counted from the game's first move.
    let n = r.seat_letters.len().max(1);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in r.moves.iter().enumerate() {
        tokens.push(if i % n == 0 { format!("{}. {}", i / n + 1, m) } else { m.clone() });
        if let Some(Some(d)) = r.move_data.get(i) {
            tokens.push(format!("{{{}}}", d.comment()));
        }
        for (_, c) in r.comments.iter().filter(|c| c.0 == i + 1) {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
    }
    tokens.push(r.result());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// Players' places in player order: `3-2-1-4`; a shared place is each one's best (`1-1-4-1`).
fn places_text(places: &[usize]) -> String {
    places.iter().map(|p| format!("{}", p)).collect::<Vec<_>>().join("-")
}

/// The game as one line of JSON (`jsonl::GameLine`).
pub fn json(r: &GameReport, tc: &str) -> String {
    super::jsonl::GameLine::of_report(r, tc).to_line()
}

/// A game read back from the PGN-like text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// Aligned with `moves`: each move's data comment, if it has one.
    pub move_data: Vec<Option<MoveData>>,
    /// The other `{...}` comments: after how many moves, and the text.
    pub comments: Vec<(usize, String)>,
    pub result: String,
}

impl ParsedGame {
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags.iter().find(|t| t.0 == k).map(|t| t.1.as_str())
    }
}

fn unescape_tag(s: &str) -> String {
    let mut out = String::new();
    let mut esc = false;
    for c in s.chars() {
        if esc {
            out.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits movetext into tokens, a `{...}` comment (which may hold blanks) being one token.
fn movetext_tokens(line: &str, open: &mut Option<String>, out: &mut Vec<String>) {
    let mut rest = line;
    loop {
        if let Some(c) = open.as_mut() {
            match rest.find('}') {
                Some(j) => {
                    if !c.is_empty() {
                        c.push(' ');
                    }
                    c.push_str(&rest[..j]);
                    out.push(format!("{{{}}}", c.trim()));
                    *open = None;
                    rest = &rest[j + 1..];
                }
                None => {
                    if !c.is_empty() {
                        c.push(' ');
                    }
                    c.push_str(rest.trim());
                    return;
                }
            }
        }
        match rest.find('{') {
            Some(j) => {
                out.extend(rest[..j].split_whitespace().map(String::from));
                *open = Some(String::new());
                rest = &rest[j + 1..];
            }
            None => {
                out.extend(rest.split_whitespace().map(String::from));
                return;
            }
        }
    }
}

/// Reads every game of a record file.
pub fn parse_pgn(text: &str) -> Result<Vec<ParsedGame>, String> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut comment: Option<String> = None;
    let mut in_moves = false;
    let flush = |tags: &mut Vec<(String, String)>,
                 tokens: &mut Vec<String>,
                 games: &mut Vec<ParsedGame>|
     -> Result<(), String> {
        if tags.is_empty() && tokens.is_empty() {
            return Ok(());
        }
        let result = tokens.pop().ok_or("a game without movetext")?;
        let mut moves = Vec::new();
        let mut move_data: Vec<Option<MoveData>> = Vec::new();
        let mut comments = Vec::new();
        for t in tokens.drain(..) {
            if let Some(c) = t.strip_prefix('{').and_then(|c| c.strip_suffix('}')) {
                // A move's data comes right after it, before any note on what it changed.
                let noted = comments.iter().any(|(at, _)| *at == moves.len());
                match (MoveData::parse_comment(c), move_data.last_mut()) {
                    (Some(d), Some(slot)) if slot.is_none() && !noted => *slot = Some(d),
                    _ => comments.push((moves.len(), c.to_string())),
                }
            } else if !t.ends_with('.') {
                moves.push(t);
                move_data.push(None);
            }
        }
        games.push(ParsedGame { tags: std::mem::take(tags), moves, move_data, comments, result });
        Ok(())
    };
    for line in text.lines() {
        let line = line.trim();
        if comment.is_some() {
            movetext_tokens(line, &mut comment, &mut tokens);
            continue;
        }
        if line.starts_with('[') {
            if in_moves {
                flush(&mut tags, &mut tokens, &mut games)?;
                in_moves = false;
            }
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (k, v) = inner.split_once(' ').ok_or_else(|| format!("bad tag line '{}'", line))?;
            let v = v.trim();
            if !(v.starts_with('"') && v.ends_with('"') && v.len() >= 2) {
                return Err(format!("bad tag value in '{}'", line));
            }
            tags.push((k.to_string(), unescape_tag(&v[1..v.len() - 1])));
        } else if !line.is_empty() {
            in_moves = true;
            movetext_tokens(line, &mut comment, &mut tokens);
        } else if in_moves {
            flush(&mut tags, &mut tokens, &mut games)?;
            in_moves = false;
        }
    }
    if comment.is_some() {
        return Err("a comment that never closes".into());
    }
    flush(&mut tags, &mut tokens, &mut games)?;
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::game::{Ending, Opening, Player};
    use crate::arbiter::movedata::Score;
    use crate::rules::Seat;

    /// A game whose every field of the JSON line is used, with texts that need escapes.
    fn report() -> GameReport {
        let data = |time_ms, clock_ms, score, depth, nodes| Some(MoveData { time_ms, clock_ms, score, depth, nodes });
        GameReport {
            index: 6,
            variant: "chaturanga-ffa",
            seat_letters: "rbgy",
            players: vec![
                Player { engine: 0, name: "a \"quoted\" \\ name".into(), seats: vec![Seat(0), Seat(2)] },
                Player {
                    engine: 1,
                    name: "ünï\u{1F600}\u{8}\u{c}\u{1}\u{1f}\u{7f}\t\r\n".into(),
                    seats: vec![Seat(1), Seat(3)],
                },
            ],
            opening: Opening { position: None, moves: vec!["b2b3".into()] },
            start_position: Some("8/8 r - 0 1".into()),
            moves: vec!["b2b3".into(), "h7g7".into(), "pass".into(), "a1a2".into()],
            move_data: vec![
                None,
                data(12, Some(99_988), Some(Score::Cp(-35)), Some(7), Some(123_456)),
                data(0, None, Some(Score::Mate(-3)), None, None),
                data(18_446_744_073_709_551_615, Some(0), None, Some(0), Some(0)),
            ],
            movers: vec![None, Some(1), Some(0), Some(1)],
            comments: vec![(2, "Triple Alliance: w, r, y".into()), (4, "\u{0}x".into())],
            opening_plies: 1,
            points: vec![1.0, 0.5, 0.0, 1.0 / 3.0],
            places: vec![1, 2, 4, 3],
            ending: Ending::Rules,
            termination: "checkmate".into(),
            detail: "won \"by\" b".into(),
            culprit: Some(1),
            duration_ms: 4321,
        }
    }

    /// The JSON lines are read by scripts: new lines stay byte-for-byte what they were.
    #[test]
    fn json_lines_are_written_as_before() {
        let r = report();
        assert_eq!(
            json(&r, "10+0.1"),
            concat!(
                r#"{"game":7,"variant":"chaturanga-ffa","players":[{"engine":"a \"quoted\" \\ name","seats":"rg"},"#,
                r#"{"engine":"ünï😀\u0008\u000c\u0001\u001f"#,
                "\u{7f}",
                r#"\t\r\n","seats":"by"}],"time_control":"10+0.1","start_position":"8/8 r - 0 1","opening_plies":1,"#,
                r#""moves":["b2b3","h7g7","pass","a1a2"],"time_ms":[null,12,0,18446744073709551615],"#,
                r#""clock_ms":[null,99988,null,0],"score":[null,{"cp":-35},{"mate":-3},null],"depth":[null,7,null,0],"#,
                r#""nodes":[null,123456,null,0],"comments":[{"ply":2,"text":"Triple Alliance: w, r, y"},{"ply":4,"text":"\u0000x"}],"#,
                r#""result":"1-1/2-0-1/2","points":[1,0.5,0,0.3333333333333333],"places":[1,2,4,3],"#,
                r#""termination":"checkmate","detail":"won \"by\" b","culprit":"ünï😀\u0008\u000c\u0001\u001f"#,
                "\u{7f}",
                r#"\t\r\n","duration_ms":4321}"#
            )
        );
        let unstarted = GameReport { start_position: None, culprit: None, ending: Ending::Unterminated, ..report() };
        let line = json(&unstarted, "");
        assert!(line.contains(r#""time_control":"","start_position":null,"#), "{line}");
        assert!(line.contains(r#""result":"*","#) && line.contains(r#""culprit":null,"#), "{line}");
    }
}
