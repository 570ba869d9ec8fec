//! What a page shows of a position, read from its pictures' `data-` attributes, and the same
//! position as the engine's `d` prints it: `tests/view.rs` and `tests/gui.rs` hold every page
//! to the engine with `compare`.
#![allow(dead_code)]

use super::Engine;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The script that reads a page's position, one tab-separated line of `key=value` fields that
/// `parse_shown` reads: the board's pieces, stacks, turn, checks and marks, the seats and the
/// facts. `root` is the element that holds the pictures.
pub const READ_POSITION: &str = r#"
function readPosition(root, how, ply, caption) {
  const parts = ["how=" + how, "ply=" + ply, "address="];
  for (const m of root.querySelectorAll(".position .man")) parts.push("man=" + m.dataset.sq + ":" + m.dataset.man);
  for (const m of root.querySelectorAll(".position .stack")) parts.push("stack=" + m.dataset.sq + ":" + m.dataset.stack);
  for (const m of root.querySelectorAll(".position [data-turn]")) parts.push("turn=" + m.dataset.turn);
  for (const m of root.querySelectorAll(".position [data-check]")) parts.push("check=" + m.dataset.seat + ":" + m.dataset.check);
  for (const m of root.querySelectorAll(".position [data-mark]")) parts.push("mark=" + m.dataset.mark);
  for (const m of root.querySelectorAll(".position .seat")) {
    parts.push("seat=" + m.dataset.seat + ":" + m.dataset.toMove + ":" + (m.dataset.hand === undefined ? "-" : m.dataset.hand) + ":" + m.dataset.standing);
  }
  for (const m of root.querySelectorAll(".position .fact")) parts.push("fact=" + m.dataset.key + ":" + m.dataset.value);
  for (const u of root.querySelectorAll(".position use.man")) {
    const id = u.getAttribute("href").slice(1);
    if (!u.ownerSVGElement.querySelector("[id='" + id + "']")) parts.push("broken=" + id);
  }
  parts.push("caption=" + caption);
  return parts.join("	");
}
"#;

/// What the harness read from the page after one step.
#[derive(Debug, Default)]
pub struct Shown {
    pub how: String,
    pub ply: usize,
    pub address: String,
    pub men: BTreeMap<String, String>,
    pub stacks: BTreeMap<String, String>,
    pub turn: String,
    pub checks: BTreeSet<String>,
    pub marks: Vec<String>,
    /// Seat letter: (to move, hand or "-", standing).
    pub seats: BTreeMap<String, (bool, String, String)>,
    pub facts: BTreeMap<String, String>,
    pub caption: String,
}

pub fn parse_shown(line: &str) -> Shown {
    let mut s = Shown::default();
    for field in line.split('\t') {
        let (k, v) = field.split_once('=').unwrap_or((field, ""));
        let pair = || {
            let (a, b) = v.split_once(':').unwrap();
            (a.to_string(), b.to_string())
        };
        match k {
            "how" => s.how = v.into(),
            "ply" => s.ply = v.parse().unwrap(),
            "address" => s.address = v.into(),
            "man" => {
                let (a, b) = pair();
                assert!(s.men.insert(a, b).is_none(), "two pieces on one square: {}", line);
            }
            "stack" => {
                let (a, b) = pair();
                s.stacks.insert(a, b);
            }
            "turn" => s.turn = v.into(),
            "check" => {
                s.checks.insert(pair().0);
            }
            "mark" => s.marks.push(v.into()),
            "seat" => {
                let p: Vec<&str> = v.splitn(4, ':').collect();
                s.seats.insert(p[0].into(), (p[1] == "true", p[2].into(), p[3].into()));
            }
            "fact" => {
                let (a, b) = pair();
                s.facts.insert(a, b);
            }
            "caption" => s.caption = v.into(),
            "broken" => panic!("a piece refers to a drawing the page does not define: {}", v),
            _ => panic!("unknown field {}", field),
        }
    }
    s
}

/// What the engine's `d` says of one position.
#[derive(Debug, Default)]
pub struct Engined {
    pub men: BTreeMap<String, String>,
    /// Dojo: the number of passive members the picture shows per square.
    pub stack_counts: BTreeMap<String, usize>,
    pub position: String,
    pub turn: String,
    pub checks: BTreeSet<String>,
    pub notes: BTreeMap<String, String>,
    /// Judkins: each hand as the picture lists it, letters repeated.
    pub hands: BTreeMap<String, String>,
}

/// The square at a row and column of `d`'s picture.
pub fn square(variant: &str, row: usize, col: usize, ranks: usize) -> String {
    if variant == "judkins" {
        format!("{}{}", 6 - col, (b'a' + row as u8) as char)
    } else {
        format!("{}{}", (b'a' + col as u8) as char, ranks - row)
    }
}

pub fn parse_d(variant: &str, lines: &[String]) -> Engined {
    let mut e = Engined::default();
    let rows: Vec<&String> = lines.iter().filter(|l| l.contains('|') && !l.contains("+--")).collect();
    let ranks = rows.len();
    for (r, line) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split('|').collect();
        for (c, cell) in cells[1..cells.len() - 1].iter().enumerate() {
            let sq = square(variant, r, c, ranks);
            let mut text = cell.trim().trim_start_matches('.').to_string();
            if let Some(i) = text.find('*') {
                e.stack_counts.insert(sq.clone(), text[i + 1..].parse().unwrap());
                text.truncate(i);
            }
            if !text.is_empty() {
                e.men.insert(sq, text);
            }
        }
    }
    for l in lines {
        if let Some(rest) = l.strip_prefix(" hand ") {
            let (who, list) = rest.split_once(':').unwrap();
            let seat = &who[who.find('(').unwrap() + 1..who.find(')').unwrap()];
            let mut hand = String::new();
            for w in list.split_whitespace() {
                let (kind, n) = match w.split_once('x') {
                    Some((k, n)) => (k, n.parse().unwrap()),
                    None => (w, 1),
                };
                hand.push_str(&kind.repeat(n));
            }
            e.hands.insert(seat.to_string(), hand);
            continue;
        }
        let Some((key, value)) = l.split_once(' ') else { continue };
        match key {
            "position" => e.position = value.into(),
            "turn" => e.turn = value.into(),
            "checks" if value != "-" => e.checks = value.chars().map(|c| c.to_string()).collect(),
            "checks" | "hash" | "outcome" => {}
            // After the position line every other line is a note.
            _ if !e.position.is_empty() => {
                e.notes.insert(key.into(), value.into());
            }
            _ => {}
        }
    }
    e
}

/// Every position of a game as `d` shows it, from one engine process.
pub fn engine_positions(variant: &str, start: Option<&str>, moves: &[String]) -> Vec<Engined> {
    let mut eng = Engine::start();
    eng.handshake();
    eng.ask(&format!("setoption name USI_Variant value {}", variant));
    let keyword = if variant == "judkins" { "sfen" } else { "fen" };
    let head = match start {
        Some(t) => format!("position {} {}", keyword, t),
        None => "position startpos".to_string(),
    };
    (0..=moves.len())
        .map(|k| {
            let cmd = if k == 0 { head.clone() } else { format!("{} moves {}", head, moves[..k].join(" ")) };
            let errors = eng.ask(&cmd);
            assert!(errors.is_empty(), "{}: {:?}", cmd, errors);
            eng.send("d");
            let lines = eng.until(Duration::from_secs(10), |l| l.starts_with("outcome "));
            parse_d(variant, &lines)
        })
        .collect()
}

/// Checks one position the page showed against `d`.
pub fn compare(variant: &str, k: usize, moves: &[String], page: &Shown, d: &Engined) {
    let at = format!("{} ply {} ({})", variant, k, page.how);
    assert_eq!(page.men, d.men, "{}: pieces", at);
    assert_eq!(page.turn, d.turn, "{}: the seat to move", at);
    let movers: Vec<&String> = page.seats.iter().filter(|s| s.1.0).map(|s| s.0).collect();
    assert_eq!(movers, vec![&d.turn], "{}: the seat marked to move", at);
    assert_eq!(page.checks, d.checks, "{}: checks", at);
    for (key, value) in &d.notes {
        assert_eq!(page.facts.get(key), Some(value), "{}: note {}", at, key);
    }
    match variant {
        "judkins" => {
            for (seat, hand) in &d.hands {
                assert_eq!(&page.seats[seat].1, hand, "{}: hand of {}", at, seat);
            }
            assert_eq!(d.hands.len(), 2, "{}", at);
        }
        "dojo" => {
            // Stacks, members in order, against the position string's passive field.
            let passive = d.position.split(' ').nth(6).unwrap();
            let mut stacks = BTreeMap::new();
            if passive != "-" {
                for entry in passive.split('/') {
                    let (sq, members) = entry.split_once(':').unwrap();
                    stacks.insert(sq.to_string(), members.to_string());
                }
            }
            assert_eq!(page.stacks, stacks, "{}: passive stacks", at);
            let counts: BTreeMap<String, usize> = stacks.iter().map(|(s, m)| (s.clone(), m.len().min(9))).collect();
            assert_eq!(counts, d.stack_counts, "{}: stack sizes in d's picture", at);
            assert_eq!(page.facts.get("passive").map(String::as_str), Some(passive), "{}", at);
        }
        "chaturanga" | "chaturanga-ffa" => {
            // All against all notes the armies out, Double Mate the mated armies and lone kings.
            for (note, word) in [("out", "out"), ("mated", "mated"), ("lone", "lone king")] {
                let Some(armies) = d.notes.get(note) else { continue };
                for (seat, (_, _, standing)) in &page.seats {
                    let listed = armies.contains(seat.as_str());
                    assert_eq!(
                        standing.split(',').any(|s| s == word),
                        listed,
                        "{}: {} {} ({})",
                        at,
                        seat,
                        word,
                        armies
                    );
                }
            }
        }
        "judtho" => {
            for entry in d.notes["hands"].split(',') {
                let (seat, hand) = entry.split_once(':').unwrap();
                assert_eq!(&page.seats[seat].1, hand, "{}: hand of {}", at, seat);
            }
            // Each member of an alliance shows its rank.
            let ranks = ["First Ally", "Second Ally", "Third Ally"];
            for alliance in d.notes["alliances"].split(',').filter(|a| *a != "-") {
                for member in alliance.as_bytes().chunks(2) {
                    let seat = (member[0] as char).to_string();
                    let rank = ranks[(member[1] - b'1') as usize];
                    assert!(page.seats[&seat].2.split(',').any(|s| s == rank), "{}: {} is {}", at, seat, rank);
                }
            }
        }
        _ => unreachable!(),
    }
    if k > 0 {
        let mv = &moves[k - 1];
        assert!(
            page.caption.contains(if mv == "pass" { "passed" } else { mv.as_str() }),
            "{}: caption {:?}",
            at,
            page.caption
        );
        if mv != "pass" {
            assert!(!page.marks.is_empty(), "{}: the last move is marked", at);
        }
    }
}
