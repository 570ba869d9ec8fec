//! The bench's node totals are the search's signature: any change to what the search does (its
//! pruning, ordering, evaluation, or a game's move generation) changes them. A change that means
//! to alter search behaviour updates these numbers in the same commit and says why; a change
//! that does not (a refactoring, a speed-up) must leave them as they are.

use tetrarch::bench;

/// As the engine plays by default: Judkins, Double Mate and Dojo with their built-in networks
/// (nets/judkins.nnue, nets/chaturanga.nnue, nets/dojo.nnue).
const TOTALS: &[(&str, u64)] =
    &[("judkins", 233346), ("dojo", 57566), ("chaturanga", 110021), ("chaturanga-ffa", 874777), ("judtho", 89331)];

/// The variants with a network, each with its own evaluation (`Use NNUE` off, `bench --eval
/// classical`).
const CLASSICAL: &[(&str, u64)] = &[("judkins", 218504), ("dojo", 43204), ("chaturanga", 93242)];

#[test]
fn bench_node_totals_are_the_signature() {
    let r = bench::run(None, 16, None, &bench::Evaluation::BuiltIn, |_| {}).unwrap();
    let got: Vec<(&str, u64)> = r.variants.iter().map(|v| (v.variant, v.nodes)).collect();
    assert_eq!(got, TOTALS);
    assert_eq!(r.nodes, TOTALS.iter().map(|t| t.1).sum::<u64>());
    for &(variant, nodes) in CLASSICAL {
        let classical = bench::run(None, 16, Some(variant), &bench::Evaluation::Classical, |_| {}).unwrap();
        assert_eq!(classical.nodes, nodes, "{} with its own evaluation", variant);
    }
}

#[test]
fn every_variant_has_bench_positions() {
    for v in tetrarch::variants::VARIANTS {
        assert!(!v.bench.positions.is_empty(), "no bench positions for {}", v.name);
    }
}
