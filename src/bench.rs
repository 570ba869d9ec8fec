//! `tetrarch bench`: a fixed search workload over every playable variant. Each variant's node
//! total, and their sum, are a signature of the search: they change only when search behaviour
//! changes (tests/bench.rs holds them).

use crate::nnue::Network;
use crate::rules::{BenchPositions, VariantSpec};
use crate::rules::{Game, Record, perft_divide};
use crate::search::{Control, Limits, Searcher};
use crate::variants::{self, Visitor};
use std::sync::Arc;
use std::time::Instant;

/// The start, openings, middlegames and endgames of each playable variant (the registry lists each
/// variant's with it); the non-Judkins positions come from the openings files played on by short
/// searches.
/// One variant's figures.
pub struct VariantBench {
    pub variant: &'static str,
    pub nodes: u64,
    pub millis: u128,
}

pub struct BenchResult {
    pub variants: Vec<VariantBench>,
    pub nodes: u64,
    pub millis: u128,
}

/// What the bench's searches evaluate with.
#[derive(Clone, Default)]
pub enum Evaluation {
    /// As the engine does by default: each variant's built-in network where it has one.
    #[default]
    BuiltIn,
    /// Each game's own evaluation, no network.
    Classical,
    /// This network for its variant (the others as by default).
    Network(Arc<Network>),
}

impl Evaluation {
    /// `built-in`, `classical`, or the path of a network file.
    pub fn parse(word: &str) -> Result<Evaluation, String> {
        Ok(match word {
            "built-in" => Evaluation::BuiltIn,
            "classical" => Evaluation::Classical,
            path => {
                let bytes = std::fs::read(path).map_err(|e| format!("{}: {}", path, e))?;
                Evaluation::Network(Arc::new(Network::from_bytes(&bytes).map_err(|e| format!("{}: {}", path, e))?))
            }
        })
    }

    fn network_for(&self, variant: &str) -> Option<Arc<Network>> {
        match self {
            Evaluation::Classical => None,
            Evaluation::Network(n) if n.variant == variant => Some(Arc::clone(n)),
            _ => variants::embedded_network(variant),
        }
    }
}

/// Searches every set (or only `only`) to its depth, or to `depth` when given.
pub fn run(
    depth: Option<u32>,
    hash_mib: usize,
    only: Option<&str>,
    eval: &Evaluation,
    mut line: impl FnMut(&str),
) -> Result<BenchResult, String> {
    let sets = variants::VARIANTS.iter().map(|v| (v, v.bench));
    let sets: Vec<(&VariantSpec, &BenchPositions)> = sets.filter(|(v, _)| only.is_none_or(|o| o == v.name)).collect();
    if let Some(v) = only
        && sets.is_empty()
    {
        return Err(format!("bench: no positions for variant '{}'", v));
    }
    let mut result = BenchResult { variants: Vec::new(), nodes: 0, millis: 0 };
    for (spec, set) in sets {
        let d = depth.unwrap_or(set.depth);
        struct Bench<'a, F>(&'a BenchPositions, u32, usize, Option<Arc<Network>>, &'a mut F);
        impl<F: FnMut(&str)> Visitor for Bench<'_, F> {
            type Output = Result<VariantBench, String>;
            fn visit<G: Game>(self) -> Self::Output {
                bench_set::<G>(self.0, self.1, self.2, self.3, self.4)
            }
        }
        let net = eval.network_for(spec.name);
        let evaluation = match &net {
            Some(n) => format!("network {}x{}", n.features, n.hidden),
            None => "classical".to_string(),
        };
        let r = variants::visit(spec.name, Bench(set, d, hash_mib, net, &mut line)).map_err(|e| e.to_string())??;
        line(&format!(
            "variant {} depth {} nodes {} time {} ms nps {} eval {}",
            spec.name,
            d,
            r.nodes,
            r.millis,
            r.nodes as u128 * 1000 / r.millis.max(1),
            evaluation
        ));
        result.nodes += r.nodes;
        result.millis += r.millis;
        result.variants.push(r);
    }
    Ok(result)
}

fn bench_set<G: Game>(
    set: &BenchPositions,
    depth: u32,
    hash_mib: usize,
    net: Option<Arc<Network>>,
    line: &mut impl FnMut(&str),
) -> Result<VariantBench, String> {
    let mut searcher: Searcher<G> = Searcher::new(hash_mib);
    searcher.set_network(net)?;
    let start = Instant::now();
    let mut nodes = 0;
    for (i, text) in set.positions.iter().enumerate() {
        let pos = G::from_text(text).map_err(|e| format!("bench position {} of {}: {}", i + 1, G::VARIANT.name, e))?;
        searcher.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let r = searcher.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
        nodes += r.nodes;
        let best = r.best.map(|m| pos.format_move(m)).unwrap_or_else(|| "resign".into());
        line(&format!("{} {:2} nodes {:10} bestmove {}", G::VARIANT.name, i + 1, r.nodes, best));
    }
    Ok(VariantBench { variant: G::VARIANT.name, nodes, millis: start.elapsed().as_millis() })
}

/// `tetrarch perft`: the count split by first move, the total, and the speed.
/// `tetrarch perft <variant> <depth> [position]`: the position is `startpos`, `sfen|fen <text>`
/// or a bare position string, each optionally followed by `moves ...`; the depth is limited as
/// `go perft` limits it.
pub fn perft(variant: &str, depth: u32, position: &str, line: impl FnMut(&str)) -> Result<(), String> {
    if !(1..=64).contains(&depth) {
        return Err(format!("depth {} is out of range: from 1 to 64, as for go perft", depth));
    }
    struct Perft<'a, F>(u32, &'a str, F);
    impl<F: FnMut(&str)> Visitor for Perft<'_, F> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self) -> Self::Output {
            perft_of::<G>(self.0, self.1, self.2)
        }
    }
    variants::visit(variant, Perft(depth, position, line)).map_err(|e| e.to_string())?
}

fn perft_of<G: Game>(depth: u32, position: &str, mut line: impl FnMut(&str)) -> Result<(), String> {
    let words: Vec<&str> = position.split_whitespace().collect();
    let (start, moves) = crate::rules::position_words(&words)?;
    let start = match start {
        None => G::startpos(),
        Some(text) => G::from_text(&text)?,
    };
    let mut record = crate::rules::Record::new(start);
    record.replay(&moves)?;
    let pos = record.current;
    let start = Instant::now();
    let split = perft_divide(&pos, depth.max(1));
    let total: u64 = split.iter().map(|s| s.1).sum();
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in &split {
        line(&format!("{}: {}", pos.format_move(*m), n));
    }
    line("");
    line(&format!("Nodes searched: {}", total));
    line(&format!("Time: {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9)));
    Ok(())
}
