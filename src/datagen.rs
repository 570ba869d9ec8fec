//! `tetrarch datagen`: self-play games for training an evaluation (docs/datagen.md).
//!
//! Each game is a pure function of the seed and its number: random opening plies from a
//! generator seeded by both, then moves searched to fixed nodes or depth by a searcher cleared
//! at the start of the game. A file therefore grows the same whether it is made in one run or
//! resumed after an interrupt, with one thread or many, and shards (`--shard K/N`, game g in
//! shard g mod N + 1) made on different machines are the parts of one whole.
//!
//! A file holds games, not positions: the position after the random plies, then each move with
//! the search's score and flags. Moves are the games' canonical move texts, which the protocol
//! spec fixes, so any reader with the rules (this crate, the Python package) replays them.

use crate::board::zobrist::SplitMix64;
use crate::rules::{Game, MoveBuffer, MovesOf, Record, Seat, points_of_outcome};
use crate::search::{Control, Limits, Searcher};
use crate::variants::{self, Visitor};
use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

/// The first bytes of a datagen file.
pub const MAGIC: &[u8; 8] = b"TDGDATA1";
/// The first bytes of each game.
const GAME_MARK: &[u8; 4] = b"GAME";

/// The side to move was in check: its best move answers the check, a poor target for a static
/// evaluation.
pub const IN_CHECK: u8 = 1;
/// The search's best move was tactical (a capture or a promotion): the position is not quiet,
/// and its static evaluation would have to see the exchange.
pub const TACTICAL: u8 = 2;
/// The position came up before in this file (the same hash).
pub const DUPLICATE: u8 = 4;
/// The score is a mate (or a game decided by the rules) found by the search.
pub const MATE_SCORE: u8 = 8;
/// The flags that make a trainer pass over a position.
pub const SKIP: u8 = IN_CHECK | TACTICAL | DUPLICATE;

/// How the game ended.
pub const ENDED_BY_RULES: u8 = 0;
/// Stopped at `max_plies` and counted a draw for every seat still in.
pub const ENDED_AT_PLY_LIMIT: u8 = 1;

/// What a run of datagen makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: String,
    /// Nodes per move, or depth per move (one of the two).
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Uniformly random legal moves before the first searched one.
    pub random_plies: u32,
    pub seed: u64,
    /// Games over all shards.
    pub games: u64,
    /// This run's part: games g with g mod n = k - 1.
    pub shard: (u64, u64),
    /// Plies of searched moves after which a game stops as a draw.
    pub max_plies: u32,
}

impl Settings {
    /// The words the file's header keeps: a resumed run must be made with the same ones.
    fn header_words(&self) -> String {
        let limit = match (self.nodes, self.depth) {
            (Some(n), _) => format!("nodes={}", n),
            (_, Some(d)) => format!("depth={}", d),
            _ => String::new(),
        };
        format!(
            "variant={} {} random-plies={} seed={} games={} shard={}/{} max-plies={}",
            self.variant, limit, self.random_plies, self.seed, self.games, self.shard.0, self.shard.1, self.max_plies
        )
    }

    fn check(&self) -> Result<(), String> {
        match (self.nodes, self.depth) {
            (Some(0), _) => return Err("--nodes must be at least 1".into()),
            (_, Some(d)) if !(1..=64).contains(&d) => return Err("--depth must be from 1 to 64".into()),
            (None, None) | (Some(_), Some(_)) => return Err("give one of --nodes and --depth".into()),
            _ => {}
        }
        if self.shard.0 == 0 || self.shard.0 > self.shard.1 {
            return Err("--shard is K/N with 1 <= K <= N".into());
        }
        if self.max_plies == 0 || self.max_plies > u16::MAX as u32 {
            return Err(format!("--max-plies must be from 1 to {}", u16::MAX));
        }
        Ok(())
    }

    /// The games of this shard, in order.
    fn my_games(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.games).filter(move |g| g % self.shard.1 == self.shard.0 - 1)
    }
}

/// One move of a game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: String,
    /// The search's score of the position before the move, from the point of view of the side
    /// (team) to move, as the search scores it: centipawns, or beyond ±29,000 a mate.
    pub score: i16,
    pub flags: u8,
}

/// One game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    pub number: u64,
    /// The position after the random plies: the first searched position.
    pub start: String,
    /// Each seat's points times two: 2 a win, 1 a draw, 0 a loss.
    pub points: Vec<u8>,
    pub ended: u8,
    pub plies: Vec<Ply>,
}

impl GameData {
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(GAME_MARK)?;
        out.write_all(&self.number.to_le_bytes())?;
        out.write_all(&(self.start.len() as u16).to_le_bytes())?;
        out.write_all(self.start.as_bytes())?;
        out.write_all(&[self.points.len() as u8])?;
        out.write_all(&self.points)?;
        out.write_all(&[self.ended])?;
        out.write_all(&(self.plies.len() as u16).to_le_bytes())?;
        for p in &self.plies {
            out.write_all(&[p.mv.len() as u8])?;
            out.write_all(p.mv.as_bytes())?;
            out.write_all(&p.score.to_le_bytes())?;
            out.write_all(&[p.flags])?;
        }
        Ok(())
    }

    /// The next game of `input`; `None` at a clean end of the file, an error for a game cut
    /// short or bytes that are not one.
    fn read(input: &mut impl Read) -> Result<Option<GameData>, String> {
        let mut mark = [0u8; 4];
        match input.read(&mut mark[..1]) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(e.to_string()),
        }
        let cut = |e: std::io::Error| format!("a game cut short ({})", e);
        input.read_exact(&mut mark[1..]).map_err(cut)?;
        if &mark != GAME_MARK {
            return Err("not the start of a game".into());
        }
        let mut b8 = [0u8; 8];
        let mut b2 = [0u8; 2];
        let mut b1 = [0u8; 1];
        input.read_exact(&mut b8).map_err(cut)?;
        let number = u64::from_le_bytes(b8);
        let text = |input: &mut dyn Read, len: usize| -> Result<String, String> {
            let mut buf = vec![0u8; len];
            input.read_exact(&mut buf).map_err(cut)?;
            String::from_utf8(buf).map_err(|_| "a text that is not UTF-8".to_string())
        };
        input.read_exact(&mut b2).map_err(cut)?;
        let start = text(input, u16::from_le_bytes(b2) as usize)?;
        input.read_exact(&mut b1).map_err(cut)?;
        let mut points = vec![0u8; b1[0] as usize];
        input.read_exact(&mut points).map_err(cut)?;
        input.read_exact(&mut b1).map_err(cut)?;
        let ended = b1[0];
        input.read_exact(&mut b2).map_err(cut)?;
        let n = u16::from_le_bytes(b2) as usize;
        let mut plies = Vec::with_capacity(n);
        for _ in 0..n {
            input.read_exact(&mut b1).map_err(cut)?;
            let mv = text(input, b1[0] as usize)?;
            input.read_exact(&mut b2).map_err(cut)?;
            let score = i16::from_le_bytes(b2);
            input.read_exact(&mut b1).map_err(cut)?;
            plies.push(Ply { mv, score, flags: b1[0] });
        }
        Ok(Some(GameData { number, start, points, ended, plies }))
    }
}

/// A datagen file's header: the variant and the settings it was made with.
fn write_header(out: &mut impl Write, s: &Settings) -> std::io::Result<()> {
    out.write_all(MAGIC)?;
    let words = s.header_words();
    out.write_all(&(words.len() as u16).to_le_bytes())?;
    out.write_all(words.as_bytes())
}

fn read_header(input: &mut impl Read) -> Result<String, String> {
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic).map_err(|_| "too short for a datagen file".to_string())?;
    if &magic != MAGIC {
        return Err("not a datagen file (its first bytes are not TDGDATA1)".into());
    }
    let mut b2 = [0u8; 2];
    input.read_exact(&mut b2).map_err(|_| "a header cut short".to_string())?;
    let mut words = vec![0u8; u16::from_le_bytes(b2) as usize];
    input.read_exact(&mut words).map_err(|_| "a header cut short".to_string())?;
    String::from_utf8(words).map_err(|_| "a header that is not UTF-8".to_string())
}

/// The header's words and the whole games of a datagen file, and the length of the file they
/// fill (a game cut short by an interrupt lies beyond it).
pub fn read_file(path: &Path) -> Result<(String, Vec<GameData>, u64), String> {
    let file = File::open(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    let mut input = Counted { inner: BufReader::new(file), at: 0 };
    let words = read_header(&mut input).map_err(|e| format!("{}: {}", path.display(), e))?;
    let mut games = Vec::new();
    let mut whole = input.at;
    loop {
        match GameData::read(&mut input) {
            Ok(Some(g)) => {
                games.push(g);
                whole = input.at;
            }
            Ok(None) => break,
            // Only the last game can be cut short: the writer appends whole games.
            Err(_) => break,
        }
    }
    Ok((words, games, whole))
}

/// A reader that counts the bytes it has given.
struct Counted<R> {
    inner: R,
    at: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// How a run went.
#[derive(Debug, Default)]
pub struct Summary {
    /// Games in the file before this run (resumed) and games this run added.
    pub resumed: u64,
    pub played: u64,
    /// Positions this run added, and of them those a trainer keeps (no `SKIP` flag).
    pub positions: u64,
    pub kept: u64,
    pub seconds: f64,
    /// Stopped before the last game (`stop`): the same settings resume the file.
    pub interrupted: bool,
}

/// Makes (or resumes) `out` with `threads` threads; `progress` gets a line now and then, and
/// `stop` ends the run after the games under way (whole games only reach the file).
pub fn run(
    settings: &Settings,
    out: &Path,
    threads: usize,
    hash_mib: usize,
    stop: Arc<AtomicBool>,
    progress: impl FnMut(&str),
) -> Result<Summary, String> {
    settings.check()?;
    struct Run<'a, F>(&'a Settings, &'a Path, usize, usize, Arc<AtomicBool>, F);
    impl<F: FnMut(&str)> Visitor for Run<'_, F> {
        type Output = Result<Summary, String>;
        fn visit<G: Game>(self) -> Self::Output {
            run_game::<G>(self.0, self.1, self.2.max(1), self.3, self.4, self.5)
        }
    }
    variants::visit(&settings.variant, Run(settings, out, threads, hash_mib, stop, progress))
        .map_err(|e| e.to_string())?
}

fn run_game<G: Game>(
    settings: &Settings,
    path: &Path,
    threads: usize,
    hash_mib: usize,
    stop: Arc<AtomicBool>,
    mut progress: impl FnMut(&str),
) -> Result<Summary, String> {
    let shown = path.display();
    // What the file holds already: its games' positions join the set that marks duplicates.
    let mut seen: HashSet<u64> = HashSet::new();
    let mut done = 0u64;
    let mut file = if path.exists() && std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false) {
        let (words, games, whole) = read_file(path)?;
        if words != settings.header_words() {
            return Err(format!(
                "{} was made with other settings ({}); give the same ones to resume it, or another file",
                shown, words
            ));
        }
        for g in &games {
            for_each_position::<G>(g, |pos, i| {
                if i < g.plies.len() {
                    seen.insert(pos.hash());
                }
            })
            .map_err(|e| format!("{}: game {}: {}", shown, g.number, e))?;
        }
        done = games.len() as u64;
        let mut f = OpenOptions::new().write(true).open(path).map_err(|e| format!("{}: {}", shown, e))?;
        // A game cut short by the interrupt is dropped and made again.
        f.set_len(whole).map_err(|e| format!("{}: {}", shown, e))?;
        f.seek(SeekFrom::End(0)).map_err(|e| format!("{}: {}", shown, e))?;
        f
    } else {
        let mut f = File::create(path).map_err(|e| format!("{}: {}", shown, e))?;
        write_header(&mut f, settings).map_err(|e| format!("{}: {}", shown, e))?;
        f
    };
    let todo: Vec<u64> = settings.my_games().skip(done as usize).collect();
    let total = done + todo.len() as u64;
    let start = Instant::now();
    let mut summary = Summary { resumed: done, ..Summary::default() };
    if todo.is_empty() {
        return Ok(summary);
    }

    let next = Arc::new(AtomicU64::new(0));
    let todo = Arc::new(todo);
    let (tx, rx) = mpsc::channel::<Result<GameData, String>>();
    let mut workers = Vec::new();
    for _ in 0..threads.min(todo.len()) {
        let (next, todo, tx, stop, settings) = (next.clone(), todo.clone(), tx.clone(), stop.clone(), settings.clone());
        let worker = std::thread::Builder::new()
            .stack_size(crate::search::SEARCH_STACK)
            .spawn(move || {
                let mut searcher: Searcher<G> = Searcher::new(hash_mib);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst) as usize;
                    if i >= todo.len() || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let game = play::<G>(&settings, todo[i], &mut searcher, &stop);
                    if tx.send(game).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("datagen: cannot start a thread: {}", e))?;
        workers.push(worker);
    }
    drop(tx);

    // Games reach the file in their order, whichever thread ends first, so that the file and
    // its duplicate flags do not depend on the threads.
    let mut writer = BufWriter::new(&mut file);
    let mut pending: BTreeMap<u64, GameData> = BTreeMap::new();
    let mut order = settings.my_games().skip(done as usize);
    let mut want = order.next();
    let mut last_line = Instant::now();
    let mut failure = None;
    for game in rx {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                failure = Some(e);
                break;
            }
        };
        if stop.load(Ordering::SeqCst) && game.plies.is_empty() && game.ended == u8::MAX {
            // Interrupted before it was done: not written.
            continue;
        }
        pending.insert(game.number, game);
        while let Some(mut g) = want.and_then(|w| pending.remove(&w)) {
            let mut hashes = Vec::with_capacity(g.plies.len() + 1);
            for_each_position::<G>(&g, |pos, _| hashes.push(pos.hash()))?;
            for (p, h) in g.plies.iter_mut().zip(hashes) {
                if !seen.insert(h) {
                    p.flags |= DUPLICATE;
                }
            }
            g.write(&mut writer).map_err(|e| format!("{}: {}", shown, e))?;
            writer.flush().map_err(|e| format!("{}: {}", shown, e))?;
            summary.played += 1;
            summary.positions += g.plies.len() as u64;
            summary.kept += g.plies.iter().filter(|p| p.flags & SKIP == 0).count() as u64;
            want = order.next();
        }
        if last_line.elapsed().as_millis() >= 500 {
            last_line = Instant::now();
            progress(&progress_line(&summary, done, total, start));
        }
    }
    for w in workers {
        let _ = w.join();
    }
    progress(&progress_line(&summary, done, total, start));
    summary.seconds = start.elapsed().as_secs_f64();
    summary.interrupted = summary.resumed + summary.played < total;
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

fn progress_line(s: &Summary, done: u64, total: u64, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let rate = s.positions as f64 / secs;
    let games_rate = s.played as f64 / secs;
    let left = total - done - s.played;
    let eta = if games_rate > 0.0 { left as f64 / games_rate } else { 0.0 };
    let width = 30;
    let filled = ((done + s.played) as f64 / total.max(1) as f64 * width as f64) as usize;
    format!(
        "[{}{}] games {}/{} positions {} (kept {}) {:.0} positions/s eta {}m{:02}s",
        "#".repeat(filled),
        ".".repeat(width - filled),
        done + s.played,
        total,
        s.positions,
        s.kept,
        rate,
        (eta as u64) / 60,
        (eta as u64) % 60
    )
}

/// Calls `f` with each position of `game` that a move was searched in, and its ply index, then
/// with the final position (index `plies.len()`).
pub fn for_each_position<G: Game>(game: &GameData, mut f: impl FnMut(&G, usize)) -> Result<(), String> {
    let mut pos = G::from_text(&game.start).map_err(|e| e.to_string())?;
    for (i, p) in game.plies.iter().enumerate() {
        f(&pos, i);
        let m = pos.parse_move(&p.mv).map_err(|e| format!("ply {}: {}", i + 1, e))?;
        pos.play(m);
    }
    f(&pos, game.plies.len());
    Ok(())
}

/// Plays game `number`: its random plies, then searched moves to the end or the ply limit.
fn play<G: Game>(s: &Settings, number: u64, searcher: &mut Searcher<G>, stop: &AtomicBool) -> Result<GameData, String> {
    let mut rng = SplitMix64(s.seed ^ number.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut list = MovesOf::<G>::default();
    // Random plies that end the game are drawn again: the searched part starts in play. So
    // many plies that no draw stays in play is an error, not a hang.
    let mut tries = 0;
    let mut record = loop {
        tries += 1;
        if tries > 1000 {
            return Err(format!("game {}: 1000 draws of {} random plies all ended the game", number, s.random_plies));
        }
        let mut record = Record::new(G::startpos());
        let mut ok = true;
        for _ in 0..s.random_plies {
            record.legal_moves(&mut list);
            if list.is_empty() {
                ok = false;
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            record.play(m);
        }
        if ok && record.outcome().is_none() {
            break Record::new(record.current);
        }
    };
    let start = record.current.to_text();
    searcher.clear();
    let limits = Limits { depth: s.depth, nodes: s.nodes, ..Limits::default() };
    let mut plies = Vec::new();
    let outcome = loop {
        if let Some(o) = record.outcome() {
            break Some(o);
        }
        if plies.len() >= s.max_plies as usize {
            break None;
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(GameData { number, start, points: Vec::new(), ended: u8::MAX, plies: Vec::new() });
        }
        let r = searcher.think(&record, limits, Control::new(false), &mut |_| {});
        let Some(best) = r.best else {
            return Err(format!("game {}: the search found no move in {}", number, record.current.to_text()));
        };
        let pos = &record.current;
        let mut flags = 0;
        if pos.must_answer_check() {
            flags |= IN_CHECK;
        }
        if pos.tactical_value(best).is_some() {
            flags |= TACTICAL;
        }
        if r.score.abs() >= crate::search::WON {
            flags |= MATE_SCORE;
        }
        let score = r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        plies.push(Ply { mv: pos.format_move(best), score, flags });
        record.play(best);
    };
    let pos = &record.current;
    let (points, ended) = match outcome {
        Some(o) => (points_of_outcome(pos, &o), ENDED_BY_RULES),
        None => (
            Seat::all(pos.seats()).map(|seat| if pos.side_lost(pos.side_of(seat)) { 0.0 } else { 0.5 }).collect(),
            ENDED_AT_PLY_LIMIT,
        ),
    };
    let points = points.iter().map(|p| (p * 2.0).round() as u8).collect();
    Ok(GameData { number, start, points, ended, plies })
}

/// The positions of datagen files as text lines, one a position: the position string, the
/// search's score from the side to move's view, the points of the seat to move times two
/// (2 won, 1 drawn, 0 lost), the flags, and the move played. `all` keeps the positions a
/// trainer passes over (`SKIP`).
pub fn show(path: &Path, all: bool, mut line: impl FnMut(&str)) -> Result<(), String> {
    let (words, games, _) = read_file(path)?;
    let variant = words
        .split_whitespace()
        .find_map(|w| w.strip_prefix("variant="))
        .ok_or_else(|| format!("{}: no variant in the header", path.display()))?
        .to_string();
    struct Show<'a, F>(&'a [GameData], bool, &'a mut F);
    impl<F: FnMut(&str)> Visitor for Show<'_, F> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self) -> Self::Output {
            for g in self.0 {
                for_each_position::<G>(g, |pos, i| {
                    if let Some(p) = g.plies.get(i)
                        && (self.1 || p.flags & SKIP == 0)
                    {
                        let seat = pos.to_move().index();
                        (self.2)(&format!(
                            "{} | {} | {} | {} | {}",
                            pos.to_text(),
                            p.score,
                            g.points.get(seat).copied().unwrap_or(1),
                            p.flags,
                            p.mv
                        ));
                    }
                })?;
            }
            Ok(())
        }
    }
    variants::visit(&variant, Show(&games, all, &mut line)).map_err(|e| e.to_string())?
}

/// The first bytes of a file of network inputs (`export`).
pub const INPUTS_MAGIC: &[u8; 8] = b"TNNUEIN2";
/// An input slot left empty.
pub const NO_FEATURE: u16 = u16::MAX;

/// What `export` wrote.
#[derive(Debug, Default)]
pub struct Exported {
    pub positions: u64,
    pub held_out: u64,
    /// Positions passed over: flagged (`SKIP`), scored as mates, or seen in an earlier file.
    pub passed_over: u64,
}

/// Turns datagen files of one variant into the network's inputs, one fixed-size record a kept
/// position (docs/nnue.md): the active inputs of the side to move's perspective and of the
/// other's, the score, the result of the seat to move and whether the position is held out
/// for validation (the games whose number is 9 mod 10).
pub fn export(inputs: &[std::path::PathBuf], out: &Path) -> Result<Exported, String> {
    let mut variant = None;
    let mut files = Vec::new();
    for p in inputs {
        let (words, games, _) = read_file(p)?;
        let v = words.split_whitespace().find_map(|w| w.strip_prefix("variant=")).unwrap_or("").to_string();
        if variant.get_or_insert_with(|| v.clone()) != &v {
            return Err(format!("{}: a {} file among {} files", p.display(), v, variant.unwrap_or_default()));
        }
        files.push(games);
    }
    let variant = variant.ok_or("export: no input files")?;
    struct Export<'a>(&'a [Vec<GameData>], &'a Path);
    impl Visitor for Export<'_> {
        type Output = Result<Exported, String>;
        fn visit<G: Game>(self) -> Self::Output {
            export_game::<G>(self.0, self.1)
        }
    }
    variants::visit(&variant, Export(&files, out)).map_err(|e| e.to_string())?
}

fn export_game<G: Game>(files: &[Vec<GameData>], path: &Path) -> Result<Exported, String> {
    if G::FEATURES == 0 {
        return Err(format!("{} has no inputs for a learned evaluation yet", G::VARIANT.name));
    }
    let shown = path.display();
    let io = |e: std::io::Error| format!("{}: {}", shown, e);
    let mut w = BufWriter::new(File::create(path).map_err(io)?);
    w.write_all(INPUTS_MAGIC).map_err(io)?;
    let name = G::VARIANT.name.as_bytes();
    w.write_all(&(name.len() as u16).to_le_bytes()).map_err(io)?;
    w.write_all(name).map_err(io)?;
    w.write_all(&(G::FEATURES as u32).to_le_bytes()).map_err(io)?;
    w.write_all(&(G::MAX_ACTIVE as u32).to_le_bytes()).map_err(io)?;
    let mut seen = HashSet::new();
    let mut done = Exported::default();
    let mut slots = vec![NO_FEATURE; 2 * G::MAX_ACTIVE];
    let mut active = crate::nnue::Active::default();
    let mut failure = None;
    for games in files {
        for g in games {
            for_each_position::<G>(g, |pos, i| {
                let Some(p) = g.plies.get(i) else { return };
                if p.flags & (SKIP | MATE_SCORE) != 0 || !seen.insert(pos.hash()) {
                    done.passed_over += 1;
                    return;
                }
                let seat = pos.to_move();
                // The search's: the side to move's and the next Opponent's (the same as the
                // engine's with two sides, and its root army's in all against all).
                let [us, them] = pos.perspectives(seat);
                slots.fill(NO_FEATURE);
                for (half, side) in [us, them].into_iter().enumerate() {
                    active.clear();
                    pos.features(side, &mut active);
                    if active.count() > G::MAX_ACTIVE && failure.is_none() {
                        failure = Some(format!("{} inputs active, more than {}", active.count(), G::MAX_ACTIVE));
                    }
                    for (slot, &f) in
                        slots[half * G::MAX_ACTIVE..].iter_mut().zip(active.as_slice()).take(G::MAX_ACTIVE)
                    {
                        *slot = f;
                    }
                }
                let held = g.number % 10 == 9;
                let mut rec = Vec::with_capacity(4 * G::MAX_ACTIVE + 6);
                slots.iter().for_each(|s| rec.extend_from_slice(&s.to_le_bytes()));
                rec.extend_from_slice(&p.score.to_le_bytes());
                // The game's own evaluation, for a network that corrects it (docs/nnue.md) and
                // for the trainer's comparison with it.
                let own = pos.evaluate(pos.side_of(seat)).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                rec.extend_from_slice(&own.to_le_bytes());
                rec.push(g.points.get(seat.index()).copied().unwrap_or(1));
                rec.push(held as u8);
                if let Err(e) = w.write_all(&rec) {
                    failure.get_or_insert(e.to_string());
                }
                done.positions += 1;
                done.held_out += held as u64;
            })?;
        }
    }
    if let Some(e) = failure {
        return Err(format!("{}: {}", shown, e));
    }
    w.flush().map_err(io)?;
    Ok(done)
}
