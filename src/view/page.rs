//! The HTML pages: one per game, with the board, its controls and the move list, and an index
//! of a match's games. Every page is one file that loads nothing: styles and script are inline,
//! the pictures are inline SVG, and a Content-Security-Policy forbids any load, so a page opens
//! from disk, offline, the same everywhere.

use super::svg::{self, esc};
use super::{Frame, Replay};
use crate::arbiter::movedata::MoveData;
use crate::arbiter::record::ParsedGame;
use std::fmt::Write as _;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/// A value as JSON (and so a JavaScript literal) that is safe inside `<script>`: no `<` (no
/// `</script>`, no `<!--`), and no line separators, which JavaScript before ES2019 did not allow
/// in strings. Both pages, `tetrarch view`'s and `tetrarch gui`'s, write their data so. JSON
/// has these characters only inside strings, where the escapes mean the same.
pub fn script_json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v)
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

fn js_string(s: &str) -> String {
    script_json(s)
}

fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n",
        esc(title)
    )
}

fn seconds(ms: u64) -> String {
    if ms >= 60_000 {
        format!("{}:{:02}.{}", ms / 60_000, ms / 1000 % 60, ms / 100 % 10)
    } else {
        format!("{}.{:01}s", ms / 1000, ms / 100 % 10)
    }
}

/// One move's engine data, for people.
fn data_words(d: &MoveData) -> String {
    let mut parts = Vec::new();
    if let Some(s) = d.score {
        parts.push(match d.depth {
            Some(depth) => format!("score {} at depth {}", s, depth),
            None => format!("score {}", s),
        });
    } else if let Some(depth) = d.depth {
        parts.push(format!("depth {}", depth));
    }
    parts.push(format!("{} s to move", seconds(d.time_ms).trim_end_matches('s')));
    if let Some(c) = d.clock_ms {
        parts.push(format!("clock left {}", seconds(c)));
    }
    if let Some(n) = d.nodes {
        parts.push(format!("{} nodes", n));
    }
    parts.join(" \u{b7} ")
}

/// The caption of a position: the move that led to it, then how the game stands.
fn caption(k: usize, f: &Frame) -> String {
    let seats = &f.diagram.seats;
    match &f.last_move {
        None => format!("Start \u{2014} {}", f.headline),
        Some((mv, seat)) => {
            let name = seats.get(*seat).map(|s| s.name).unwrap_or("?");
            let verb = if mv == "pass" { "passed".to_string() } else { format!("played {}", mv) };
            format!("{}. {} {} \u{2014} {}", k, name, verb, f.headline)
        }
    }
}

/// A game's page. `record` gives players, clocks, result and per-move data when the game comes
/// from a record; `index` links back to the match.
pub fn game(replay: &Replay, record: Option<&ParsedGame>, index: Option<&str>) -> String {
    let spec = replay.variant;
    let first = &replay.frames[0];
    let seats = &first.diagram.seats;
    let n = seats.len().max(1);
    let plies = replay.frames.len() - 1;
    let tag = |k: &str| record.and_then(|r| r.tag(k));
    let opening = tag("OpeningPlies").and_then(|p| p.parse::<usize>().ok()).unwrap_or(0);
    let data: Vec<Option<MoveData>> =
        (0..plies).map(|k| record.and_then(|r| r.move_data.get(k).copied().flatten())).collect();

    let title = match record {
        Some(r) => format!(
            "{} \u{2014} {} round {}",
            spec.title,
            r.tag("Event").unwrap_or("game"),
            r.tag("Round").unwrap_or("?")
        ),
        None => format!("{} \u{2014} {} moves", spec.title, plies),
    };
    let mut s = head(&title);
    s.push_str("<body>\n<header>\n");
    if let Some(i) = index {
        let _ = writeln!(s, "<p class=\"back\"><a href=\"{}\">\u{2190} all games</a></p>", esc(i));
    }
    let _ = writeln!(s, "<h1>{}</h1>", esc(&title));
    let mut meta = vec![format!("variant {}", spec.name)];
    for k in ["Date", "TimeControl", "Termination", "TerminationDetail"] {
        if let Some(v) = tag(k) {
            meta.push(format!("{} {}", k.to_lowercase(), v));
        }
    }
    if opening > 0 {
        meta.push(format!("{} opening moves", opening));
    }
    if let Some(sp) = tag("StartPosition") {
        meta.push(format!("from {}", sp));
    }
    let _ = writeln!(s, "<p class=\"meta\">{}</p>", esc(&meta.join(" \u{b7} ")));

    // Players: one row per seat, with its clock (filled in per position by the script).
    let points: Vec<&str> = record.map(|r| r.result.split('-').collect()).unwrap_or_default();
    let places: Vec<&str> = tag("Places").map(|p| p.split('-').collect()).unwrap_or_default();
    s.push_str(
        "<table class=\"players\"><thead><tr><th></th><th>seat</th><th>player</th><th>clock</th><th>points</th>",
    );
    if !places.is_empty() {
        s.push_str("<th>place</th>");
    }
    s.push_str("</tr></thead><tbody>\n");
    // Places are per player, in the order of the Seats tag's players.
    let seat_players: Vec<String> = tag("Seats")
        .map(|t| t.split(' ').map(|p| p.split(':').next().unwrap_or("").to_string()).collect())
        .unwrap_or_default();
    for (i, seat) in seats.iter().enumerate() {
        let letter = seat.letter.to_string();
        let player = tag(&letter).unwrap_or("");
        let place = seat_players
            .iter()
            .position(|p| p.contains(seat.letter))
            .and_then(|p| places.get(p))
            .copied()
            .unwrap_or("");
        let _ = write!(
            s,
            "<tr data-seat=\"{}\"><td><span class=\"swatch\" style=\"background:{}\"></span></td><td>{} ({})</td><td>{}</td><td class=\"clock\" id=\"clock-{}\"></td><td>{}</td>",
            esc(&letter),
            seat.fill,
            esc(seat.name),
            esc(&letter),
            esc(player),
            i,
            esc(points.get(i).copied().filter(|_| points.len() == n).unwrap_or(""))
        );
        if !places.is_empty() {
            let _ = write!(s, "<td>{}</td>", esc(place));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    if let Some(r) = record {
        let _ = writeln!(
            s,
            "<p class=\"result\">result {} ({})</p>",
            esc(&r.result),
            esc(tag("Termination").unwrap_or("?"))
        );
    }
    s.push_str("</header>\n<main>\n<section class=\"boardcol\">\n<div id=\"board\">");
    let lay = svg::layout(replay.frames.iter().map(|f| &f.diagram));
    s.push_str(&svg::open(&first.diagram, &lay));
    s.push_str(&svg::defs(replay.frames.iter().map(|f| &f.diagram), &lay));
    s.push_str(&svg::board(&first.diagram, &lay));
    // The start position is drawn in the page itself, so that it shows before the script runs.
    s.push_str("<g id=\"position\" class=\"position\">");
    s.push_str(&svg::position(&first.diagram, &lay, &first.marks, first.over));
    s.push_str("</g></svg></div>\n");
    s.push_str(
        "<nav class=\"controls\"><button id=\"first\" title=\"first (Home)\">|\u{25c0}</button>\
         <button id=\"prev\" title=\"previous (\u{2190})\">\u{25c0}</button>\
         <span id=\"plyinfo\"></span>\
         <button id=\"next\" title=\"next (\u{2192})\">\u{25b6}</button>\
         <button id=\"last\" title=\"last (End)\">\u{25b6}|</button></nav>\n",
    );
    let _ = writeln!(s, "<p id=\"caption\" class=\"caption\">{}</p>", esc(&caption(0, first)));
    s.push_str("<p id=\"movedata\" class=\"movedata\"></p>\n<p id=\"fen\" class=\"fen\"></p>\n</section>\n");

    // The move list, a round (one turn of each seat, counted from the first move) per line.
    s.push_str("<section class=\"movelist\"><h2>moves</h2>\n<div id=\"moves\">\n");
    let _ = writeln!(s, "<div class=\"round\"><a class=\"mv\" href=\"#ply=0\" data-ply=\"0\">start</a></div>");
    let comments = record.map(|r| r.comments.clone()).unwrap_or_default();
    for (k, f) in replay.frames.iter().enumerate().skip(1) {
        let (mv, seat) = f.last_move.clone().unwrap_or_default();
        if (k - 1) % n == 0 {
            if k > 1 {
                s.push_str("</div>\n");
            }
            let _ = write!(s, "<div class=\"round\"><span class=\"num\">{}.</span>", (k - 1) / n + 1);
        }
        let extra = match data.get(k - 1).copied().flatten() {
            Some(d) => match d.score {
                Some(sc) => format!("<small>{}{}</small>", sc, d.depth.map(|x| format!("/{}", x)).unwrap_or_default()),
                None => String::new(),
            },
            None if k <= opening => "<small>book</small>".to_string(),
            None => String::new(),
        };
        let fill = seats.get(seat).map(|x| x.fill).unwrap_or("#888");
        let _ = write!(
            s,
            "<a class=\"mv{}\" href=\"#ply={k}\" data-ply=\"{k}\"><i style=\"background:{fill}\"></i>{}{extra}</a>",
            if k <= opening { " book" } else { "" },
            esc(&mv)
        );
        for (_, c) in comments.iter().filter(|c| c.0 == k) {
            let _ = write!(
                s,
                "</div>\n<div class=\"note\">{}</div>\n<div class=\"round\"><span class=\"num\"></span>",
                esc(c)
            );
        }
    }
    if plies > 0 {
        s.push_str("</div>\n");
    }
    if let Some(r) = record {
        let _ = writeln!(s, "<div class=\"round result\">{}</div>", esc(&r.result));
    }
    s.push_str("</div>\n</section>\n</main>\n");

    // The positions, as the script shows them.
    let mut clocks: Vec<Option<u64>> = vec![None; n];
    s.push_str("<script>\nconst GAME = {\nstart: ");
    s.push_str(if record.is_some() { "0" } else { "-1" });
    s.push_str(",\nframes: [\n");
    for (k, f) in replay.frames.iter().enumerate() {
        if k > 0
            && let (Some((_, seat)), Some(Some(d))) = (&f.last_move, data.get(k - 1))
            && let Some(c) = d.clock_ms
            && let Some(slot) = clocks.get_mut(*seat)
        {
            *slot = Some(c);
        }
        let clock_text: Vec<String> = clocks.iter().map(|c| js_string(&c.map(seconds).unwrap_or_default())).collect();
        let words = match (k, data.get(k.wrapping_sub(1)).copied().flatten()) {
            (0, _) => String::new(),
            (_, Some(d)) => data_words(&d),
            (_, None) if k <= opening => "opening move".into(),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "{{svg:{},cap:{},data:{},fen:{},clocks:[{}]}},",
            js_string(&svg::position(&f.diagram, &lay, &f.marks, f.over)),
            js_string(&caption(k, f)),
            js_string(&words),
            js_string(&f.text),
            clock_text.join(",")
        );
    }
    s.push_str("]};\n");
    s.push_str(SCRIPT);
    s.push_str("</script>\n</body>\n</html>\n");
    s
}

/// A game in the index of a match.
pub struct IndexRow {
    pub file: String,
    pub game: ParsedGame,
}

/// The index of a match's games.
pub fn index(title: &str, rows: &[IndexRow]) -> String {
    let mut s = head(title);
    let _ = writeln!(s, "<body>\n<header>\n<h1>{}</h1>", esc(title));
    if let Some(first) = rows.first() {
        let g = &first.game;
        let _ = writeln!(
            s,
            "<p class=\"meta\">{}</p>",
            esc(&format!(
                "variant {} \u{b7} time control {} \u{b7} {} games",
                g.tag("Variant").unwrap_or("?"),
                g.tag("TimeControl").unwrap_or("?"),
                rows.len()
            ))
        );
    }
    s.push_str("</header>\n<main class=\"index\">\n<table class=\"games\"><thead><tr><th>round</th><th>seats</th><th>result</th><th>termination</th><th>places</th><th>moves</th><th></th></tr></thead><tbody>\n");
    for r in rows {
        let g = &r.game;
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><a href=\"{}\">view</a></td></tr>",
            esc(g.tag("Round").unwrap_or("?")),
            esc(g.tag("Seats").unwrap_or("")),
            esc(&g.result),
            esc(g.tag("Termination").unwrap_or("")),
            esc(g.tag("Places").unwrap_or("")),
            g.moves.len(),
            esc(&r.file)
        );
    }
    s.push_str("</tbody></table>\n</main>\n</body>\n</html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_strings_cannot_end_the_script() {
        let s = js_string("</script><!-- \"quoted\" \\ \n\u{2028}");
        assert!(!s.contains('<') && !s.contains('\n') && !s.contains('\u{2028}'));
        assert_eq!(js_string("a\"b"), "\"a\\\"b\"");
    }
}
