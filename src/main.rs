use clap::{Parser, Subcommand};

/// tetrarch: an engine for Judkins shogi, Dojo chess, four-handed Chaturanga and Judtho.
/// Without a subcommand it speaks the extended USI protocol on stdin and stdout
/// (see protocol-spec.md).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Counts the leaf nodes of the legal move tree, split by first move.
    Perft {
        /// Variant name, as USI_Variant takes it (protocol-spec.md, section 2).
        variant: String,
        /// Depth in plies.
        depth: u32,
        /// The position: `startpos` (the default), `sfen <text>`, `fen <text>` or a bare position
        /// string, each optionally followed by `moves <move>...`.
        position: Vec<String>,
    },
    /// Plays engines against each other, refereed by tetrarch's rules (docs/match.md).
    Match(Box<MatchArgs>),
    /// Draws positions and games: a match's record file becomes one HTML page per game and an
    /// index (`--out DIR`); `--variant` with a position (and moves) becomes one page, or with
    /// `--svg` one picture. Pages are self-contained and open from disk.
    View {
        /// A record file of `tetrarch match` (PGN-like); or, with --variant, the position:
        /// `startpos` (the default), `sfen <text>`, `fen <text>` or a bare position string, each
        /// optionally followed by `moves <move>...`.
        input: Vec<String>,
        /// The variant of a position given on the command line.
        #[arg(long)]
        variant: Option<String>,
        /// Where to write: a directory for a record's pages, a file otherwise (default: standard
        /// output).
        #[arg(long, short)]
        out: Option<std::path::PathBuf>,
        /// One position as SVG instead of a page: the last, or the one after --ply moves.
        #[arg(long)]
        svg: bool,
        /// With --svg: the position after this many moves.
        #[arg(long, requires = "svg")]
        ply: Option<usize>,
        /// With --svg and a record file: which game, from 1.
        #[arg(long, default_value_t = 1, requires = "svg")]
        game: usize,
    },
    /// Searches a fixed set of positions of every playable variant, each to a fixed depth, and
    /// prints the node totals (a signature of the search) and nodes/s.
    Bench {
        /// Depth of every search (default: each variant's own).
        #[arg(long)]
        depth: Option<u32>,
        /// Only this variant's positions.
        #[arg(long)]
        variant: Option<String>,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Serves a page to play every variant in a browser, a person or an engine in each
    /// player's place, refereed as `match` referees (README, "Playing in your browser").
    Gui {
        /// Where to listen: this machine only unless another address is given.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port; any free one when not given.
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Open the system's browser at the address.
        #[arg(long)]
        open: bool,
        /// An engine the page may seat, as `match --engine` takes it (`name=fsf cmd=PATH ...`);
        /// give it once per engine. tetrarch itself is always there.
        #[arg(long = "engine")]
        engines: Vec<String>,
    },
    /// Prints the position each line of an openings file reaches (the file `match --openings`
    /// reads), one a line: with `--uci` in the UCI dialect, as Cute Chess's `-openings
    /// format=epd` reads them.
    Openings {
        /// The openings file.
        file: std::path::PathBuf,
        #[arg(long, default_value = "judkins")]
        variant: String,
        /// Positions in the UCI dialect of Fairy-Stockfish and Cute Chess (Judkins: its FEN).
        #[arg(long)]
        uci: bool,
    },
    /// Fits the evaluation's weights to the results of played games (Texel's method) and prints
    /// the fitted table as Rust, to replace the one in the variant's eval.rs (docs/strength.md,
    /// "Tuning"). Judkins, Dojo and both forms of Chaturanga have weights tables.
    Tune {
        /// JSON lines written by `tetrarch match --jsonl`.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        #[arg(long, default_value = "judkins")]
        variant: String,
        /// Passes over the weights at each step size, at most.
        #[arg(long, default_value_t = 6)]
        passes: usize,
        /// Threads that share out the positions.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The first step a weight is moved by; it halves down to 1.
        #[arg(long, default_value_t = 8)]
        step: i32,
        /// In games whose lines carry "evals" (another engine's evaluation of each position):
        /// the share of the game's result in each position's target, from 0 to 1; the rest is
        /// the predicted score of the evaluation given.
        #[arg(long, default_value_t = 0.5)]
        result_share: f64,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct MatchArgs {
    #[command(subcommand)]
    pooled: Option<MatchCmd>,
    /// Variant name.
    #[arg(long, default_value = "judkins")]
    variant: String,
    /// An engine, as key=value words: name=N cmd=PATH [arg=A]... [option.K=V]...
    /// [variant-option=USI_Variant|UCI_Variant] [go-seats=LETTERS] ["go=depth 1"]; double quotes
    /// group words with blanks. "self" is this tetrarch binary. Give it once per engine
    /// (docs/match.md, "Engines").
    #[arg(long = "engine", required_unless_present = "from_records")]
    engines: Vec<String>,
    /// Plays nothing: replays the PGN-like records of a finished match against the rules and
    /// prints its figures, as the match would have.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engines", "pgn", "jsonl", "html", "sprt", "openings"])]
    from_records: Option<std::path::PathBuf>,
    /// Clock: seconds, "base+inc", or "moves/base[+inc]".
    #[arg(long)]
    tc: Option<String>,
    /// Byoyomi in seconds, added to --tc.
    #[arg(long, default_value_t = 0.0)]
    byoyomi: f64,
    /// Fixed time per move, in seconds.
    #[arg(long)]
    movetime: Option<f64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Number of games [default: one round].
    #[arg(long)]
    games: Option<usize>,
    /// Number of rounds; a round plays every rotation of the seats of every meeting of the
    /// engines once (with more engines than players, every set of them meets).
    #[arg(long)]
    rounds: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// File of openings: one position or move list a line.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Stop when decided: elo0=.. elo1=.. alpha=.. beta=.. (two engines only).
    #[arg(long, num_args = 1..)]
    sprt: Vec<String>,
    /// Write the games as PGN-like records.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Write one JSON object per game.
    #[arg(long)]
    jsonl: Option<std::path::PathBuf>,
    /// Write each game as a page (`tetrarch view`) into this directory as it ends, with an
    /// index of the games so far.
    #[arg(long, value_name = "DIR")]
    html: Option<std::path::PathBuf>,
    /// Milliseconds a move may overrun its time before it loses.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// Milliseconds an engine may take to start (usiok, readyok).
    #[arg(long, default_value_t = 10_000)]
    startup: u64,
    /// Milliseconds a depth- or node-limited move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60_000)]
    hang: u64,
    /// Plies after which the arbiter adjudicates a draw.
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// The Event tag of the records.
    #[arg(long, default_value = "tetrarch match")]
    event: String,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
    /// Play only part K of N of the schedule (the games whose number g, from 0, has
    /// g mod N = K - 1), for matches spread over machines; pool the parts with `match merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
}

#[derive(Subcommand)]
enum MatchCmd {
    /// Pools the JSON lines of a match's shards (--shard K/N --jsonl FILE) into one table, each
    /// game replayed against the rules, with Elo and the SPRT's log-likelihood ratio.
    Merge {
        /// The shards' JSON lines files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// The SPRT's hypotheses for the log-likelihood ratio: elo0=.. elo1=.. alpha=.. beta=..
        #[arg(long, num_args = 1.., default_values_t = ["elo0=0 elo1=5 alpha=0.05 beta=0.05".to_string()])]
        sprt: Vec<String>,
    },
}

fn run_match(a: MatchArgs) -> Result<tetrarch::arbiter::Summary, String> {
    use tetrarch::arbiter::{MatchConfig, clock::TimeControl, engine::EngineSpec, stats::Sprt};
    if let Some(MatchCmd::Merge { files, sprt }) = &a.pooled {
        let texts = files
            .iter()
            .map(|p| {
                std::fs::read_to_string(p)
                    .map(|t| (p.display().to_string(), t))
                    .map_err(|e| format!("{}: {}", p.display(), e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut summary = tetrarch::arbiter::rescore::merge(&texts)?;
        let sprt = Sprt::parse(sprt)?;
        if let [(_, t), _] = summary.engines.as_slice() {
            summary.sprt = Some((sprt.state(t), sprt.llr(t)));
            summary.sprt_bounds = Some(sprt);
        }
        return Ok(summary);
    }
    if let Some(p) = &a.from_records {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {}", p.display(), e))?;
        return tetrarch::arbiter::rescore::from_records(&text).map_err(|e| format!("{}: {}", p.display(), e));
    }
    let me = std::env::current_exe().map_err(|e| e.to_string())?.to_string_lossy().into_owned();
    let engines =
        a.engines
            .iter()
            .map(|e| {
                if e == "self" { EngineSpec::parse(&format!("name=tetrarch cmd={}", me)) } else { EngineSpec::parse(e) }
            })
            .collect::<Result<Vec<_>, _>>()?;
    let mut names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut engines = engines.clone();
    if names.len() < engines.len() {
        // Same names (self-play): number them so that the tables tell them apart.
        for (i, e) in engines.iter_mut().enumerate() {
            e.name = format!("{}-{}", e.name, i + 1);
        }
    }
    let limits = [a.tc.is_some() || a.byoyomi > 0.0, a.movetime.is_some(), a.depth.is_some(), a.nodes.is_some()];
    if limits.iter().filter(|&&x| x).count() != 1 {
        return Err("match: give exactly one of --tc (with or without --byoyomi), --movetime, --depth, --nodes".into());
    }
    let tc = if let Some(m) = a.movetime {
        if !(0.0..=86400.0).contains(&m) {
            return Err("match: --movetime out of range".into());
        }
        TimeControl::MoveTime((m * 1000.0).round() as u64)
    } else if let Some(d) = a.depth {
        TimeControl::Depth(d.max(1))
    } else if let Some(n) = a.nodes {
        TimeControl::Nodes(n.max(1))
    } else {
        TimeControl::parse_clock(a.tc.as_deref().unwrap_or("0"), a.byoyomi)?
    };
    let openings = match &a.openings {
        None => Vec::new(),
        Some(p) => tetrarch::arbiter::openings::read(p)?,
    };
    let players = tetrarch::rules::registry::find(&a.variant).map(|v| v.players.len()).unwrap_or(2);
    let cycle = tetrarch::arbiter::cycle(players, engines.len());
    let games = match (a.games, a.rounds) {
        (Some(g), None) => g,
        (None, Some(r)) => r * cycle,
        (None, None) => cycle,
        (Some(_), Some(_)) => return Err("match: give --games or --rounds, not both".into()),
    };
    let sprt = if a.sprt.is_empty() { None } else { Some(Sprt::parse(&a.sprt)?) };
    let shard = match &a.shard {
        None => None,
        Some(text) => {
            let parsed =
                text.split_once('/').and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
            match parsed {
                Some((k, n)) if 1 <= k && k <= n => Some((k, n)),
                _ => return Err(format!("match: --shard '{}' is not K/N with 1 <= K <= N", text)),
            }
        }
    };
    if shard.is_some() && sprt.is_some() {
        return Err("match: a shard cannot decide an SPRT alone; give --sprt to `match merge`".into());
    }
    if sprt.is_some() && engines.len() != 2 {
        return Err("match: --sprt needs exactly two engines".into());
    }
    let cfg = MatchConfig {
        variant: a.variant,
        engines,
        tc,
        games,
        concurrency: a.concurrency.max(1),
        openings,
        sprt,
        pgn: a.pgn,
        jsonl: a.jsonl,
        html: a.html,
        margin_ms: a.margin,
        startup_ms: a.startup,
        hang_ms: a.hang,
        max_plies: a.max_plies.max(1),
        event: a.event,
        progress: !a.quiet,
        shard,
    };
    tetrarch::arbiter::run(&cfg)
}

/// Writes a line of a subcommand's output. A reader that went away (`| head`) ends the program
/// quietly, as it would a pipeline's other tools, instead of a panic.
fn say(line: &str) {
    use std::io::Write;
    if writeln!(std::io::stdout().lock(), "{}", line).is_err() {
        std::process::exit(0);
    }
}

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => tetrarch::protocol::run_stdio(),
        Some(Cmd::Perft { variant, depth, position }) => {
            if let Err(e) = tetrarch::bench::perft(&variant, depth, &position.join(" "), say) {
                eprintln!("perft: {}", e);
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Cmd::Match(args)) => {
            let _ = ctrlc::set_handler(|| {
                tetrarch::arbiter::INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
                tetrarch::arbiter::engine::kill_all();
            });
            match run_match(*args) {
                Ok(summary) => {
                    say(summary.table().trim_end());
                    if summary.interrupted {
                        return std::process::ExitCode::from(130);
                    }
                }
                Err(e) => {
                    eprintln!("{}", e);
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
        Some(Cmd::View { input, variant, out, svg, ply, game }) => {
            let args = tetrarch::view::ViewArgs { input, variant, out, svg, ply, game };
            if let Err(e) = tetrarch::view::run(&args) {
                eprintln!("{}", e);
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Cmd::Bench { depth, variant, hash }) => {
            let r = match tetrarch::bench::run(depth, hash, variant.as_deref(), say) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{}", e);
                    return std::process::ExitCode::FAILURE;
                }
            };
            say(&format!("Total nodes: {}", r.nodes));
            say(&format!("Time: {} ms", r.millis));
            say(&format!("Nodes/second: {}", r.nodes as u128 * 1000 / r.millis.max(1)));
        }
        Some(Cmd::Gui { host, port, open, engines }) => {
            let args = tetrarch::gui::GuiArgs { host, port, open, engines };
            if let Err(e) = tetrarch::gui::run(&args) {
                eprintln!("{}", e);
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Cmd::Openings { file, variant, uci }) => {
            let positions = tetrarch::arbiter::openings::read(&file)
                .and_then(|o| tetrarch::arbiter::openings::positions(&variant, &o, uci));
            match positions {
                Ok(p) => p.iter().for_each(|l| say(l)),
                Err(e) => {
                    eprintln!("{}", e);
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
        Some(Cmd::Tune { files, variant, passes, threads, step, result_share }) => {
            if !(0.0..=1.0).contains(&result_share) {
                eprintln!("--result-share {}: give a share from 0 to 1", result_share);
                return std::process::ExitCode::FAILURE;
            }
            let mut texts = Vec::new();
            for f in files {
                match std::fs::read_to_string(&f) {
                    Ok(t) => texts.push((f.display().to_string(), t)),
                    Err(e) => {
                        eprintln!("{}: {}", f.display(), e);
                        return std::process::ExitCode::FAILURE;
                    }
                }
            }
            let cfg = tetrarch::tune::TuneConfig { files: texts, passes, threads, step, result_share };
            match tetrarch::tune::run(&variant, &cfg, &mut |l| eprintln!("{}", l)) {
                Ok(table) => say(table.trim_end()),
                Err(e) => {
                    eprintln!("{}", e);
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
    }
    std::process::ExitCode::SUCCESS
}
