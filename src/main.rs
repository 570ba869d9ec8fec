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
    Match(Box<tetrarch::arbiter::cli::MatchArgs>),
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
        /// What the searches evaluate with: `built-in` (each variant's built-in network where it
        /// has one, as the engine does), `classical` (no network), or a network file's path
        /// (for its variant).
        #[arg(long, default_value = "built-in")]
        eval: String,
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
        #[arg(long, default_value = tetrarch::variants::DEFAULT_VARIANT)]
        variant: String,
        /// Positions in the UCI dialect of Fairy-Stockfish and Cute Chess (Judkins: its FEN).
        #[arg(long)]
        uci: bool,
    },
    /// Plays games against itself and stores each searched position with its score and the
    /// game's result, for training an evaluation (docs/datagen.md). Resumes a file it finds;
    /// `--show FILE` prints a file's positions as text.
    Datagen {
        /// The file to make or resume.
        #[arg(long, required_unless_present_any = ["show", "export"])]
        out: Option<std::path::PathBuf>,
        #[arg(long, default_value = tetrarch::variants::DEFAULT_VARIANT)]
        variant: String,
        /// Nodes searched per move.
        #[arg(long, conflicts_with = "depth", required_unless_present_any = ["depth", "show", "export"])]
        nodes: Option<u64>,
        /// Depth searched per move.
        #[arg(long)]
        depth: Option<u32>,
        /// Games over all shards.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Uniformly random legal moves that open each game.
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Each game is a function of the seed and its number.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Make only part K of N: the games whose number g, from 0, has g mod N = K - 1.
        #[arg(long, value_name = "K/N", value_parser = tetrarch::arbiter::cli::parse_shard)]
        shard: Option<(usize, usize)>,
        /// Searched plies after which a game stops as a draw.
        #[arg(long, default_value_t = 400)]
        max_plies: u32,
        /// Games played at once, one search thread each.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table of each thread, in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Prints the positions of a datagen file, one a line, and nothing else.
        #[arg(long, value_name = "FILE", conflicts_with = "out")]
        show: Option<std::path::PathBuf>,
        /// With --show: the positions a trainer passes over too (in check, tactical, seen before).
        #[arg(long, requires = "show")]
        all: bool,
        /// Writes the network inputs of the kept positions of FILES (datagen files of one
        /// variant) to this file, for the trainer (docs/nnue.md), and nothing else.
        #[arg(long, value_name = "OUT", conflicts_with_all = ["out", "show"], requires = "files")]
        export: Option<std::path::PathBuf>,
        /// With --export: the datagen files.
        files: Vec<std::path::PathBuf>,
    },
    /// Fits the evaluation's weights to the results of played games (Texel's method) and prints
    /// the fitted table as Rust, to replace the one in the variant's eval.rs (docs/strength.md,
    /// "Tuning"). Judkins, Dojo and both forms of Chaturanga have weights tables.
    Tune {
        /// JSON lines written by `tetrarch match --jsonl`.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        #[arg(long, default_value = tetrarch::variants::DEFAULT_VARIANT)]
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
            match tetrarch::arbiter::cli::run(*args, tetrarch::view::Site::open) {
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
        Some(Cmd::Bench { depth, variant, hash, eval }) => {
            let r = match tetrarch::bench::Evaluation::parse(&eval)
                .and_then(|e| tetrarch::bench::run(depth, hash, variant.as_deref(), &e, say))
            {
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
        Some(Cmd::Datagen {
            out,
            variant,
            nodes,
            depth,
            games,
            random_plies,
            seed,
            shard,
            max_plies,
            threads,
            hash,
            show,
            all,
            export,
            files,
        }) => {
            let done = match (show, out) {
                _ if export.is_some() => {
                    let to = export.unwrap_or_default();
                    tetrarch::datagen::export(&files, &to).map(|e| {
                        say(&format!(
                            "positions {} (held out {}) passed over {} into {}",
                            e.positions,
                            e.held_out,
                            e.passed_over,
                            to.display()
                        ))
                    })
                }
                (Some(file), _) => tetrarch::datagen::show(&file, all, say).map(|_| ()),
                (None, Some(out)) => {
                    let (k, n) = shard.unwrap_or((1, 1));
                    let settings = tetrarch::datagen::Settings {
                        variant,
                        nodes,
                        depth,
                        random_plies,
                        seed,
                        games,
                        shard: (k as u64, n as u64),
                        max_plies,
                    };
                    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                    // Ctrl-C ends the run at the next move: the games not finished are left out,
                    // and the same command resumes the file.
                    let on_interrupt = stop.clone();
                    let _ = ctrlc::set_handler(move || on_interrupt.store(true, std::sync::atomic::Ordering::SeqCst));
                    let shown = std::cell::Cell::new(false);
                    let progress = |l: &str| {
                        shown.set(true);
                        eprint!("\r{}", l)
                    };
                    let done = tetrarch::datagen::run(&settings, &out, threads, hash, stop, progress);
                    if shown.get() {
                        eprintln!();
                    }
                    done.map(|s| {
                        say(&format!(
                            "games {} (resumed after {}) positions {} kept {} in {:.1} s: {:.0} positions/s",
                            s.played,
                            s.resumed,
                            s.positions,
                            s.kept,
                            s.seconds,
                            s.positions as f64 / s.seconds.max(1e-9)
                        ));
                        if s.interrupted {
                            say("interrupted: the same command resumes the file");
                        }
                    })
                }
                (None, None) => Err("give --out FILE or --show FILE".to_string()),
            };
            if let Err(e) = done {
                eprintln!("{}", e);
                return std::process::ExitCode::FAILURE;
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
