//! `tetrarch match` on the command line: its arguments, checked by clap as far as one argument
//! and the sets of them allow (value parsers, conflicts, the one limit of a move), and the
//! set-up of a match from them (engines told apart, the clock, the openings, the schedule).

use super::clock::TimeControl;
use super::engine::EngineSpec;
use super::stats::Sprt;
use super::{MatchConfig, Summary};
use clap::{ArgGroup, Args, Subcommand};
use std::path::PathBuf;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
// Exactly one limit of a move: a clock (--tc, --byoyomi or both), or a fixed time, depth or
// node count; the conflicts below allow only the clock's two together. A match replayed from
// its records plays no move.
#[command(group(
    ArgGroup::new("limit")
        .args(["tc", "byoyomi", "movetime", "depth", "nodes", "from_records"])
        .multiple(true)
        .required(true)
))]
pub struct MatchArgs {
    #[command(subcommand)]
    pub pooled: Option<MatchCmd>,
    /// Variant name.
    #[arg(long, default_value = crate::variants::DEFAULT_VARIANT)]
    pub variant: String,
    /// An engine, as key=value words: name=N cmd=PATH [arg=A]... [option.K=V]...
    /// [variant-option=USI_Variant|UCI_Variant] [go-seats=LETTERS] ["go=depth 1"]; double quotes
    /// group words with blanks. "self" is this tetrarch binary. Give it once per engine
    /// (docs/match.md, "Engines").
    #[arg(long = "engine", required_unless_present = "from_records", value_parser = parse_engine)]
    pub engines: Vec<EngineSpec>,
    /// Plays nothing: replays the PGN-like records of a finished match against the rules and
    /// prints its figures, as the match would have.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engines", "pgn", "jsonl", "html", "sprt", "openings", "tc", "byoyomi", "movetime", "depth", "nodes"])]
    pub from_records: Option<PathBuf>,
    /// Clock: seconds, "base+inc", or "moves/base[+inc]".
    #[arg(long)]
    pub tc: Option<String>,
    /// Byoyomi in seconds, added to --tc [default: 0].
    #[arg(long, value_parser = parse_byoyomi)]
    pub byoyomi: Option<f64>,
    /// Fixed time per move, in seconds.
    #[arg(long, value_parser = parse_movetime, conflicts_with_all = ["tc", "byoyomi", "depth", "nodes"])]
    pub movetime: Option<f64>,
    /// Fixed depth per move.
    #[arg(long, conflicts_with_all = ["tc", "byoyomi", "nodes"])]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, conflicts_with_all = ["tc", "byoyomi"])]
    pub nodes: Option<u64>,
    /// Number of games [default: one round].
    #[arg(long, conflicts_with = "rounds")]
    pub games: Option<usize>,
    /// Number of rounds; a round plays every rotation of the seats of every meeting of the
    /// engines once (with more engines than players, every set of them meets).
    #[arg(long)]
    pub rounds: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// File of openings: one position or move list a line.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Stop when decided: elo0=.. elo1=.. alpha=.. beta=.. (two engines only).
    #[arg(long, num_args = 1..)]
    pub sprt: Vec<String>,
    /// Write the games as PGN-like records.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Write one JSON object per game.
    #[arg(long)]
    pub jsonl: Option<PathBuf>,
    /// Write each game as a page (`tetrarch view`) into this directory as it ends, with an
    /// index of the games so far.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// Milliseconds a move may overrun its time before it loses.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Milliseconds an engine may take to start (usiok, readyok).
    #[arg(long, default_value_t = 10_000)]
    pub startup: u64,
    /// Milliseconds a depth- or node-limited move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60_000)]
    pub hang: u64,
    /// Plies after which the arbiter adjudicates a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// The Event tag of the records.
    #[arg(long, default_value = "tetrarch match")]
    pub event: String,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Play only part K of N of the schedule (the games whose number g, from 0, has
    /// g mod N = K - 1), for matches spread over machines; pool the parts with `match merge`.
    /// A shard alone decides no SPRT: give --sprt to `match merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, conflicts_with = "sprt")]
    pub shard: Option<(usize, usize)>,
}

#[derive(Subcommand)]
pub enum MatchCmd {
    /// Pools the JSON lines of a match's shards (--shard K/N --jsonl FILE) into one table, each
    /// game replayed against the rules, with Elo and the SPRT's log-likelihood ratio.
    Merge {
        /// The shards' JSON lines files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The SPRT's hypotheses for the log-likelihood ratio: elo0=.. elo1=.. alpha=.. beta=..
        #[arg(long, num_args = 1.., default_values_t = ["elo0=0 elo1=5 alpha=0.05 beta=0.05".to_string()])]
        sprt: Vec<String>,
    },
}

/// An `--engine`: its key=value words, or `self` for this tetrarch binary.
fn parse_engine(text: &str) -> Result<EngineSpec, String> {
    if text == "self" {
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        return EngineSpec::parse(&format!("name=tetrarch cmd={}", me.to_string_lossy()));
    }
    EngineSpec::parse(text)
}

/// `--shard K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((k, n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => Err("not K/N with 1 <= K <= N".into()),
    }
}

/// Seconds from 0 to a day.
fn parse_movetime(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=86400.0).contains(&s) => Ok(s),
        _ => Err("not a number of seconds from 0 to 86400".into()),
    }
}

/// Seconds, not negative.
fn parse_byoyomi(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err("not a number of seconds, 0 or more".into()),
    }
}

/// Reads each of `files` whole, named by its path for the errors that follow.
fn read_all(files: &[PathBuf]) -> Result<Vec<(String, String)>, String> {
    files
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .map(|t| (p.display().to_string(), t))
                .map_err(|e| format!("{}: {}", p.display(), e))
        })
        .collect()
}

/// Runs `tetrarch match` as its arguments say: a match, `match merge`, or `--from-records`.
pub fn run(a: MatchArgs, pages: super::Pages) -> Result<Summary, String> {
    if let Some(MatchCmd::Merge { files, sprt }) = &a.pooled {
        let mut summary = super::rescore::merge(&read_all(files)?)?;
        let sprt = Sprt::parse(sprt)?;
        if let [_, _] = summary.engines.as_slice() {
            let t = &summary.head_to_head;
            summary.sprt = Some((sprt.state(t), sprt.llr(t)));
            summary.sprt_bounds = Some(sprt);
        }
        return Ok(summary);
    }
    if let Some(p) = &a.from_records {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {}", p.display(), e))?;
        return super::rescore::from_records(&text).map_err(|e| format!("{}: {}", p.display(), e));
    }
    super::run(&config(a, pages)?)
}

/// The match the arguments describe.
pub fn config(a: MatchArgs, pages: super::Pages) -> Result<MatchConfig, String> {
    let mut engines = a.engines;
    let mut names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    if names.len() < engines.len() {
        // Same names (self-play): number them so that the tables tell them apart.
        for (i, e) in engines.iter_mut().enumerate() {
            e.name = format!("{}-{}", e.name, i + 1);
        }
    }
    let tc = if let Some(m) = a.movetime {
        TimeControl::MoveTime((m * 1000.0).round() as u64)
    } else if let Some(d) = a.depth {
        TimeControl::Depth(d.max(1))
    } else if let Some(n) = a.nodes {
        TimeControl::Nodes(n.max(1))
    } else {
        TimeControl::parse_clock(a.tc.as_deref().unwrap_or("0"), a.byoyomi.unwrap_or(0.0))?
    };
    let openings = match &a.openings {
        None => Vec::new(),
        Some(p) => super::openings::read(p)?,
    };
    let players = crate::variants::find(&a.variant).map(|v| v.players.len()).unwrap_or(2);
    let cycle = super::cycle(players, engines.len());
    let games = match (a.games, a.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => r * cycle,
        (None, None) => cycle,
    };
    let sprt = if a.sprt.is_empty() { None } else { Some(Sprt::parse(&a.sprt)?) };
    if sprt.is_some() && engines.len() != 2 {
        return Err("match: --sprt needs exactly two engines".into());
    }
    Ok(MatchConfig {
        variant: a.variant,
        engines,
        tc,
        games,
        concurrency: a.concurrency.max(1),
        openings,
        sprt,
        pgn: a.pgn,
        jsonl: a.jsonl,
        html: a.html.map(|dir| (dir, pages)),
        margin_ms: a.margin,
        startup_ms: a.startup,
        hang_ms: a.hang,
        max_plies: a.max_plies.max(1),
        event: a.event,
        progress: !a.quiet,
        shard: a.shard,
    })
}
