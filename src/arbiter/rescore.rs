//! `tetrarch match --from-records FILE`: a finished match's records replayed against the rules
//! and scored as if the games had just been played, so that old matches can be rescored when the
//! figures improve. `tetrarch match merge`: the JSON lines of a match's shards, pooled the same
//! way.

use super::game::{self, Ending, GameReport, Opening, Player};
use super::jsonl::GameLine;
use super::record::{ParsedGame, parse_pgn};
use super::{Summary, player_seats};
use crate::rules::{Game, Record};
use crate::variants::{self, Visitor};

/// Reads a record file of one variant and returns the match's figures.
pub fn from_records(text: &str) -> Result<Summary, String> {
    if text.trim_start().starts_with('{') {
        return Err("this is JSON lines; --from-records reads the PGN-like records that --pgn writes".into());
    }
    rescore_games(&parse_pgn(text)?)
}

/// Pools the JSON lines of the shards of one match (`--shard K/N`) into its figures. Each game
/// is replayed against the rules as `from_records` does; a game number found twice is an error,
/// since shards are disjoint.
pub fn merge(files: &[(String, String)]) -> Result<Summary, String> {
    let mut games = Vec::new();
    let mut seen = std::collections::BTreeMap::new();
    for (name, text) in files {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = || format!("{} line {}", name, n + 1);
            let g = game_of_json(line).map_err(|e| format!("{}: {}", at(), e))?;
            let round = g.tag("Round").unwrap_or("").to_string();
            if let Some(first) = seen.insert(round.clone(), at()) {
                return Err(format!("{}: game {} is also at {}: shards must be disjoint", at(), round, first));
            }
            games.push(g);
        }
    }
    rescore_games(&games)
}

/// One JSON line of `record::json` as the record it stands for.
pub fn game_of_json(line: &str) -> Result<ParsedGame, String> {
    let g = GameLine::parse(line)?;
    let spec = variants::find(&g.variant).ok_or_else(|| format!("unknown variant '{}'", g.variant))?;
    let mut tags = vec![("Variant".to_string(), g.variant.clone())];
    tags.push(("Round".into(), g.game.to_string()));
    for p in &g.players {
        for letter in p.seats.chars() {
            if !spec.seats.contains(letter) {
                return Err(format!("{} has no seat '{}'", g.variant, letter));
            }
            tags.push((letter.to_string(), p.engine.clone()));
        }
    }
    if let Some(sp) = &g.start_position {
        tags.push(("StartPosition".into(), sp.clone()));
    }
    if g.opening_plies > 0 {
        tags.push(("OpeningPlies".into(), g.opening_plies.to_string()));
    }
    tags.push(("Result".into(), g.result.clone()));
    tags.push(("Termination".into(), g.termination.clone()));
    tags.push(("TerminationDetail".into(), g.detail.clone()));
    if g.places.len() > 2 {
        let p: Vec<String> = g.places.iter().map(u64::to_string).collect();
        tags.push(("Places".into(), p.join("-")));
    }
    let move_data = g.move_data();
    let comments = g.comments.into_iter().map(|c| (c.ply, c.text)).collect();
    Ok(ParsedGame { tags, moves: g.moves, move_data, comments, result: g.result })
}

/// The figures of a list of games of one variant, each replayed against the rules.
pub fn rescore_games(games: &[ParsedGame]) -> Result<Summary, String> {
    let Some(first) = games.first() else {
        return Err("the records hold no game".into());
    };
    let variant = first.tag("Variant").ok_or("game 1: no Variant tag")?.to_string();
    for (i, g) in games.iter().enumerate() {
        if g.tag("Variant") != Some(variant.as_str()) {
            return Err(format!("game {}: variant {:?}, where game 1 is {}", i + 1, g.tag("Variant"), variant));
        }
    }
    struct Rescore<'a>(&'a [ParsedGame]);
    impl Visitor for Rescore<'_> {
        type Output = Result<Summary, String>;
        fn visit<G: Game>(self) -> Self::Output {
            rescore::<G>(self.0)
        }
    }
    variants::visit(&variant, Rescore(games)).map_err(|e| e.to_string())?
}

fn rescore<G: Game>(games: &[ParsedGame]) -> Result<Summary, String> {
    let letters: Vec<char> = G::VARIANT.seats.chars().collect();
    let groups = player_seats::<G>();
    // In schedule order (the Round tag), engines are numbered as the match numbered them: by
    // first appearance, the first game seating engine k as player k.
    let mut order: Vec<(usize, &ParsedGame)> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.tag("Round").and_then(|r| r.parse::<usize>().ok()).map_or(i, |r| r.saturating_sub(1)), g))
        .collect();
    order.sort_by_key(|(i, _)| *i);
    let mut names: Vec<String> = Vec::new();
    let mut reports = Vec::new();
    for (i, g) in order {
        let report = replay::<G>(i, g, &groups, &letters, &mut names).map_err(|e| format!("game {}: {}", i + 1, e))?;
        reports.push(report);
    }
    let mut summary = Summary::new(&names, G::VARIANT.seats, groups.len());
    for r in reports {
        summary.add(r);
    }
    summary.finish();
    Ok(summary)
}

/// Seat points from a `Result` tag: `1-0`, `1/2-1/2`, `1-0-0-0`.
pub(crate) fn result_points(text: &str, seats: usize) -> Result<Vec<f64>, String> {
    let points: Vec<f64> = text
        .split('-')
        .map(|p| match p {
            "1" => Ok(1.0),
            "0" => Ok(0.0),
            "1/2" => Ok(0.5),
            _ => Err(format!("result '{}' is not {} seats' 1, 1/2 or 0", text, seats)),
        })
        .collect::<Result<_, _>>()?;
    if points.len() != seats {
        return Err(format!("result '{}' is not {} seats' 1, 1/2 or 0", text, seats));
    }
    Ok(points)
}

fn replay<G: Game>(
    index: usize,
    g: &ParsedGame,
    groups: &[Vec<crate::rules::Seat>],
    letters: &[char],
    names: &mut Vec<String>,
) -> Result<GameReport, String> {
    // Each player's engine, from the one-tag-per-seat-letter tags (quoted, so any name reads back).
    let mut players = Vec::new();
    for seats in groups {
        let mut name = None;
        for &s in seats {
            let l = letters[s.index()].to_string();
            let n = g.tag(&l).ok_or_else(|| format!("no [{} \"...\"] tag", l))?;
            if name.is_some_and(|m| m != n) {
                return Err(format!("the seats of one player name two engines, {:?} and {}", name, n));
            }
            name = Some(n);
        }
        let name = name.ok_or("a player without seats")?.to_string();
        let engine = match names.iter().position(|n| *n == name) {
            Some(e) => e,
            None => {
                names.push(name.clone());
                names.len() - 1
            }
        };
        players.push(Player { engine, name, seats: seats.clone() });
    }
    let start_text = g.tag("StartPosition").map(str::to_string);
    let start = match &start_text {
        Some(t) => G::from_text(t).map_err(|e| format!("StartPosition: {}", e))?,
        None => G::startpos(),
    };
    let opening_plies: usize = match g.tag("OpeningPlies") {
        Some(n) => n.parse().map_err(|_| format!("OpeningPlies '{}'", n))?,
        None => 0,
    };
    let mut record = Record::new(start);
    let mut movers = Vec::new();
    record.replay_each(&g.moves, |_, _, seat| {
        let p = players.iter().position(|p| p.seats.contains(&seat));
        movers.push(if movers.len() < opening_plies { None } else { p });
    })?;
    // A game saved before its end (`*`, `unterminated`) is replayed and checked, not scored.
    let points = if g.result == "*" { vec![0.5; letters.len()] } else { result_points(&g.result, letters.len())? };
    if g.tag("Result").is_some_and(|r| r != g.result) {
        return Err(format!("the Result tag says {:?}, the movetext {}", g.tag("Result"), g.result));
    }
    let termination = g.tag("Termination").ok_or("no Termination tag")?.to_string();
    let ending = match (record.outcome(), Ending::of_termination(&termination)) {
        (Some(o), _) => {
            let by_rules = game::points_of_outcome(&record.current, &o);
            if termination != o.reason.as_str() || by_rules != points {
                return Err(format!(
                    "the record ends in {} {}, the rules in {} {:?}",
                    termination,
                    g.result,
                    o.reason.as_str(),
                    by_rules
                ));
            }
            Ending::Rules
        }
        (None, Some(e)) => e,
        (None, None) => return Err(format!("the record ends in {}, but the rules see no end", termination)),
    };
    let places = game::player_places(&record.current, &points, &players);
    let opening = Opening { position: start_text.clone(), moves: g.moves[..opening_plies.min(g.moves.len())].to_vec() };
    let mut report = GameReport::unplayed::<G>(index, &opening, &players);
    if let Some(tagged) = g.tag("Places") {
        let ours = places.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("-");
        if tagged != ours {
            return Err(format!("the Places tag says {}, the rules {}", tagged, ours));
        }
    }
    report.moves = g.moves.clone();
    report.move_data = g.move_data.clone();
    report.movers = movers;
    report.comments = g.comments.clone();
    report.points = points;
    report.places = places;
    report.ending = ending;
    report.termination = termination;
    report.detail = g.tag("TerminationDetail").unwrap_or("").to_string();
    Ok(report)
}
