//! `tetrarch view`: positions and whole games as pictures. A game is replayed through the
//! rules, each position drawn from its `Diagram` (`svg.rs`), and the pictures put into one
//! self-contained page per game with its controls (`page.rs`); a match's records also get an
//! index page. `tetrarch match --html` writes the same pages as its games end.

pub mod page;
pub mod svg;

use crate::arbiter::record::{ParsedGame, parse_pgn};
use crate::rules::VariantSpec;
use crate::rules::diagram::{Diagram, and_list};
use crate::rules::{Game, Record, position_words};
use crate::variants::{self, Visitor};
use std::path::Path;

/// One position of a game, drawn.
#[derive(Clone, Debug)]
pub struct Frame {
    pub diagram: Diagram,
    /// The cells the move leading here changed (none for the start and for a pass).
    pub marks: Vec<usize>,
    /// The move that led here, in the game's notation, and the seat that played it.
    pub last_move: Option<(String, usize)>,
    /// The position string.
    pub text: String,
    /// How the game stands: whose turn, or how it ended.
    pub headline: String,
    /// The game ended here: nobody is marked to move.
    pub over: bool,
}

/// A game replayed through the rules.
#[derive(Clone, Debug)]
pub struct Replay {
    pub variant: &'static VariantSpec,
    /// `frames[k]` is the position after `k` moves.
    pub frames: Vec<Frame>,
}

/// The cells whose content differs between two pictures of one game.
pub(crate) fn changed(a: &Diagram, b: &Diagram) -> Vec<usize> {
    (0..b.cells.len())
        .filter(|&i| a.cells.get(i).is_none_or(|c| c.man != b.cells[i].man || c.stack != b.cells[i].stack))
        .collect()
}

fn frame<G: Game>(record: &Record<G>, before: Option<&Diagram>, last_move: Option<(String, usize)>) -> Frame {
    let pos = &record.current;
    let diagram = pos.diagram();
    let names: Vec<&str> = diagram.seats.iter().map(|s| s.name).collect();
    let outcome = record.outcome();
    let headline = match outcome {
        None => {
            format!("move {}: {} to move", pos.move_number(), names.get(pos.to_move().index()).copied().unwrap_or("?"))
        }
        Some(o) if o.is_draw() => format!("drawn: {}", o.reason.as_str()),
        Some(o) => {
            let w: Vec<&str> = o.winners.seats().filter_map(|s| names.get(s.index()).copied()).collect();
            format!("won by {}: {}", and_list(&w), o.reason.as_str())
        }
    };
    Frame {
        marks: before.map(|b| changed(b, &diagram)).unwrap_or_default(),
        diagram,
        last_move,
        text: pos.to_text(),
        headline,
        over: outcome.is_some(),
    }
}

/// Replays `moves` from `start` (the variant's start when `None`), checking each against the
/// rules.
pub fn replay(variant: &str, start: Option<&str>, moves: &[String]) -> Result<Replay, String> {
    struct V<'a>(Option<&'a str>, &'a [String]);
    impl Visitor for V<'_> {
        type Output = Result<Replay, String>;
        fn visit<G: Game>(self) -> Self::Output {
            let start = match self.0 {
                Some(t) => G::from_text(t).map_err(|e| format!("position: {}", e))?,
                None => G::startpos(),
            };
            let mut record = Record::new(start);
            let mut frames = vec![frame(&record, None, None)];
            record.replay_each(self.1, |record, m, seat| {
                let f = frame(record, frames.last().map(|f| &f.diagram), Some((m.to_string(), seat.index())));
                frames.push(f);
            })?;
            Ok(Replay { variant: G::VARIANT, frames })
        }
    }
    variants::visit(variant, V(start, moves)).map_err(|e| e.to_string())?
}

/// A position given as on `perft`'s command line: `startpos`, `sfen <text>`, `fen <text>` or
/// a bare position string, then optionally `moves <move>...`.
pub fn replay_words(variant: &str, words: &[String]) -> Result<Replay, String> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let (start, moves) = position_words(&words)?;
    replay(variant, start.as_deref(), &moves)
}

/// A game of a record file, replayed.
pub fn replay_game(g: &ParsedGame) -> Result<Replay, String> {
    let variant = g.tag("Variant").ok_or("no Variant tag")?;
    replay(variant, g.tag("StartPosition"), &g.moves)
}

/// What `tetrarch view` was asked for.
pub struct ViewArgs {
    /// A record file; or, with `variant`, the position words.
    pub input: Vec<String>,
    pub variant: Option<String>,
    pub out: Option<std::path::PathBuf>,
    pub svg: bool,
    /// The position to draw with `svg`: after this many moves (default: the last).
    pub ply: Option<usize>,
    /// The game of a record file to draw with `svg`, from 1.
    pub game: usize,
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {}", path.display(), e))
}

fn write_or_print(out: Option<&Path>, text: &str) -> Result<(), String> {
    match out {
        Some(p) => write(p, text),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(text.as_bytes()).map_err(|e| e.to_string())
        }
    }
}

fn pick(replay: &Replay, ply: Option<usize>) -> Result<&Frame, String> {
    let last = replay.frames.len() - 1;
    let k = ply.unwrap_or(last);
    replay.frames.get(k).ok_or_else(|| format!("ply {} is past the game's end ({} moves)", k, last))
}

/// The file name of a record's game page: `game-001.html`, by the game's place in the file.
pub fn page_name(index: usize) -> String {
    format!("game-{:03}.html", index + 1)
}

/// Writes the pages of a record's games and its index into `dir`.
pub fn write_site(dir: &Path, games: &[ParsedGame], title: &str) -> Result<(), String> {
    let mut site = Site::create(dir, title)?;
    for (i, g) in games.iter().enumerate() {
        site.page(i, g.clone())?;
    }
    site.write_index()
}

/// A match's pages: each game's page, and the index of the games so far (`tetrarch match
/// --html` adds each game as it ends; `tetrarch view` a record's games).
pub struct Site {
    dir: std::path::PathBuf,
    title: String,
    games: std::collections::BTreeMap<usize, ParsedGame>,
}

impl Site {
    pub fn create(dir: &Path, title: &str) -> Result<Site, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
        let site = Site { dir: dir.to_path_buf(), title: title.to_string(), games: Default::default() };
        site.write_index()?;
        Ok(site)
    }

    /// `create` as the match runner opens its pages (`match --html`).
    pub fn open(dir: &Path, title: &str) -> Result<Box<dyn crate::arbiter::GamePages>, String> {
        Ok(Box::new(Site::create(dir, title)?))
    }

    /// Adds the game numbered `index` (from 0), given as its record text, and writes the index.
    pub fn add(&mut self, index: usize, record: &str) -> Result<(), String> {
        let game = parse_pgn(record)?.into_iter().next().ok_or("a record without a game")?;
        self.page(index, game)?;
        self.write_index()
    }

    /// Writes the page of the game numbered `index`.
    fn page(&mut self, index: usize, game: ParsedGame) -> Result<(), String> {
        let replay = replay_game(&game).map_err(|e| format!("game {}: {}", index + 1, e))?;
        write(&self.dir.join(page_name(index)), &page::game(&replay, Some(&game), Some("index.html")))?;
        self.games.insert(index, game);
        Ok(())
    }

    fn write_index(&self) -> Result<(), String> {
        let rows: Vec<page::IndexRow> =
            self.games.iter().map(|(&i, g)| page::IndexRow { file: page_name(i), game: g.clone() }).collect();
        write(&self.dir.join("index.html"), &page::index(&self.title, &rows))
    }
}

/// `tetrarch view`.
pub fn run(a: &ViewArgs) -> Result<(), String> {
    match (a.input.as_slice(), &a.variant) {
        ([] | [_, _, ..], None) => Err("view: give one record file, or --variant and a position".into()),
        (words, Some(v)) => {
            let replay = replay_words(v, words)?;
            if a.svg {
                let f = pick(&replay, a.ply)?;
                write_or_print(a.out.as_deref(), &svg::svg(&f.diagram, &f.marks))
            } else {
                write_or_print(a.out.as_deref(), &page::game(&replay, None, None))
            }
        }
        ([path], None) => {
            let path = Path::new(path);
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), e))?;
            let games = parse_pgn(&text)?;
            if games.is_empty() {
                return Err(format!("{}: no games", path.display()));
            }
            if a.svg {
                let g = games
                    .get(a.game.wrapping_sub(1))
                    .ok_or_else(|| format!("game {} of {} games", a.game, games.len()))?;
                let replay = replay_game(g)?;
                let f = pick(&replay, a.ply)?;
                return write_or_print(a.out.as_deref(), &svg::svg(&f.diagram, &f.marks));
            }
            let dir = a.out.as_deref().ok_or("view: a record needs --out DIR for its pages")?;
            let title = games[0].tag("Event").unwrap_or("tetrarch match").to_string();
            write_site(dir, &games, &title)?;
            eprintln!("view: {} game pages and index.html written to {}", games.len(), dir.display());
            Ok(())
        }
    }
}

impl crate::arbiter::GamePages for Site {
    fn add(&mut self, index: usize, record: &str) -> Result<(), String> {
        Site::add(self, index, record)
    }
}
