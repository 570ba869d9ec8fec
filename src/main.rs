use clap::{Parser, Subcommand};
use std::time::Instant;
use tetrarch::rules::judkins::Judkins;
use tetrarch::rules::{Game, perft_divide};

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
        /// Variant name (judkins).
        variant: String,
        /// Depth in plies.
        depth: u32,
        /// Position string (default: the start position).
        position: Vec<String>,
    },
    /// Searches a fixed set of positions to a fixed depth and prints nodes and nodes/s.
    Bench {
        /// Depth of each search.
        #[arg(long, default_value_t = 9)]
        depth: u32,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
}

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => tetrarch::protocol::run_stdio(),
        Some(Cmd::Perft { variant, depth, position }) => {
            if variant != "judkins" {
                eprintln!("perft: variant '{}' is not playable yet (playable: judkins)", variant);
                return std::process::ExitCode::FAILURE;
            }
            let pos = if position.is_empty() {
                Judkins::startpos()
            } else {
                match Judkins::from_text(&position.join(" ")) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("perft: {}", e);
                        return std::process::ExitCode::FAILURE;
                    }
                }
            };
            let start = Instant::now();
            let split = perft_divide(&pos, depth.max(1));
            let total: u64 = split.iter().map(|s| s.1).sum();
            let secs = start.elapsed().as_secs_f64();
            for (m, n) in &split {
                println!("{}: {}", pos.format_move(*m), n);
            }
            println!("\nNodes searched: {}", total);
            println!("Time: {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
        }
        Some(Cmd::Bench { depth, hash }) => {
            let r = tetrarch::bench::run(depth, hash, |l| println!("{}", l));
            println!("Total nodes: {}", r.nodes);
            println!("Time: {} ms", r.millis);
            println!("Nodes/second: {}", r.nodes as u128 * 1000 / r.millis.max(1));
        }
    }
    std::process::ExitCode::SUCCESS
}
