//! The network's file and arithmetic (docs/nnue.md): the engine's integers agree with the
//! trainer's, with a plain reference, and bad files are refused with their reason.

mod common;
use serde::Deserialize;
use std::sync::Arc;
use tetrarch::games::chaturanga::{AllAgainstAll, DoubleMate};
use tetrarch::games::dojo::Dojo;
use tetrarch::games::judkins::Judkins;
use tetrarch::games::judtho::Judtho;
use tetrarch::nnue::{MAGIC, Network, NetworkError, QA, QB};
use tetrarch::rules::Record;
use tetrarch::rules::prelude::*;
use tetrarch::search::{Control, Limits, Searcher};

const FIXTURE: &[u8] = include_bytes!("../fixtures/nnue/judkins-h16.nnue");

#[derive(Deserialize)]
struct Check {
    us: Vec<usize>,
    them: Vec<usize>,
    /// The trainer's numpy copy of the integer arithmetic.
    cp: f64,
    /// The trained float network.
    float: f64,
}

/// The engine's integer evaluation of `checks` (written by `trainer/train.py --check-out`:
/// held-out positions with its numpy copy of the integer arithmetic and its float network's
/// output) against the trainer's: the same up to its division, and within `largest` cp of the
/// float network (`mean` on average), as the trainer measured over all its held-out positions.
fn agrees_with_the_trainer(net: &Network, checks: &str, largest: f64, mean: f64) {
    let checks: Vec<Check> = serde_json::from_str(checks).unwrap();
    assert_eq!(checks.len(), 100);
    let mut spread = std::collections::HashSet::new();
    let mut off_float = 0.0;
    for c in &checks {
        let cp = net.evaluate(&c.us, &c.them);
        // The trainer divides in floating point, the engine in integers (toward zero).
        assert!((cp as f64 - c.cp).abs() < 1.0, "engine {} against trainer {}", cp, c.cp);
        assert!((cp as f64 - c.float).abs() <= largest, "engine {} against the float network's {}", cp, c.float);
        off_float += (cp as f64 - c.float).abs() / checks.len() as f64;
        spread.insert(cp);
    }
    assert!(off_float <= mean, "the engine stands {:.1} cp from the float network on average", off_float);
    assert!(spread.len() > 30, "the evaluations hardly differ: {:?}", spread);
}

#[test]
fn the_engine_evaluates_as_the_trainer_does() {
    // Written by trainer/train.py --hidden 16 --check-out: 100 held-out Judkins positions. The
    // trainer measured a mean of 8.3 cp and a largest of 57.6 from the float network over all
    // its held-out positions.
    let net = Network::from_bytes(FIXTURE).unwrap();
    assert_eq!(
        (net.variant.as_str(), net.features, net.max_active, net.hidden, net.layer),
        ("judkins", 888, 14, 16, 32)
    );
    agrees_with_the_trainer(&net, include_str!("../fixtures/nnue/judkins-h16-check.json"), 60.0, 12.0);
}

#[test]
fn the_built_in_networks_evaluate_as_the_trainer_does() {
    // The check files the trainer wrote with nets/chaturanga.nnue and nets/dojo.nnue
    // (docs/strength.md): over their held-out positions (86,846 and 373,793) a mean of 3.1 and
    // 2.5 cp and a largest of 26.2 and 21.9 from the float network.
    let checks = [
        (
            "chaturanga",
            DoubleMate::FEATURES,
            DoubleMate::MAX_ACTIVE,
            include_str!("../fixtures/nnue/chaturanga-check.json"),
        ),
        ("dojo", Dojo::FEATURES, Dojo::MAX_ACTIVE, include_str!("../fixtures/nnue/dojo-check.json")),
    ];
    for (name, features, max_active, check) in checks {
        let net = tetrarch::variants::embedded_network(name).unwrap_or_else(|| panic!("a built-in {} network", name));
        assert_eq!(
            (net.variant.as_str(), net.features, net.max_active, net.hidden, net.layer),
            (name, features, max_active, 32, 32)
        );
        agrees_with_the_trainer(&net, check, 30.0, 6.0);
    }
}

#[test]
fn every_built_in_network_reads_and_fits_its_game() {
    // A searcher takes its variant's built-in network when it is made; one that did not read,
    // or whose inputs are not its game's, would leave the game evaluating classically unseen.
    let names = tetrarch::variants::embedded_networks();
    assert_eq!(names, ["judkins", "chaturanga", "dojo"]);
    for name in names {
        let game = tetrarch::live::open(name, None, &[]).unwrap();
        let net = game.searcher(1, 1).network().unwrap_or_else(|| panic!("{} searches without its network", name));
        assert_eq!(net.variant, name);
    }
    // The other games have none.
    for name in ["chaturanga-ffa", "judtho"] {
        assert!(tetrarch::live::open(name, None, &[]).unwrap().searcher(1, 1).network().is_none());
    }
}

/// A network of the given sizes with weights from a seeded generator, as file bytes.
fn random_network(features: usize, hidden: usize, layer: usize, seed: u64) -> Vec<u8> {
    random_network_of("test", features, 4, hidden, layer, seed)
}

/// A network of random weights for the variant `name`.
fn random_network_of(
    name: &str,
    features: usize,
    max_active: usize,
    hidden: usize,
    layer: usize,
    seed: u64,
) -> Vec<u8> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&(name.len() as u16).to_le_bytes());
    b.extend_from_slice(name.as_bytes());
    for v in [features, max_active, hidden, layer, QA as usize, QB as usize, 0] {
        b.extend_from_slice(&(v as u32).to_le_bytes());
    }
    for _ in 0..features * hidden + hidden {
        b.extend_from_slice(&((next() % 61) as i16 - 30).to_le_bytes());
    }
    for _ in 0..2 * hidden * layer {
        b.push(((next() % 255) as i16 - 127) as i8 as u8);
    }
    for _ in 0..layer {
        b.extend_from_slice(&((next() % 20001) as i32 - 10000).to_le_bytes());
    }
    for _ in 0..layer {
        b.extend_from_slice(&((next() % 2001) as i16 - 1000).to_le_bytes());
    }
    b.extend_from_slice(&((next() % 200001) as i32 - 100000).to_le_bytes());
    b
}

/// docs/nnue.md's arithmetic read straight off the file's arrays, in wide integers.
fn reference(bytes: &[u8], features: usize, hidden: usize, layer: usize, us: &[usize], them: &[usize]) -> i64 {
    let at = 8 + 2 + 4 + 28;
    let i16_at = |i: usize| i16::from_le_bytes([bytes[i], bytes[i + 1]]) as i64;
    let ft_w = |f: usize, k: usize| i16_at(at + 2 * (f * hidden + k));
    let ft_b_at = at + 2 * features * hidden;
    let l1_at = ft_b_at + 2 * hidden;
    let l1b_at = l1_at + 2 * hidden * layer;
    let l2_at = l1b_at + 4 * layer;
    let l2b_at = l2_at + 2 * layer;
    let i32_at = |i: usize| i32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as i64;
    let mut x = Vec::new();
    for active in [us, them] {
        for k in 0..hidden {
            let sum = i16_at(ft_b_at + 2 * k) + active.iter().map(|&f| ft_w(f, k)).sum::<i64>();
            x.push(sum.clamp(0, QA as i64));
        }
    }
    let mut out = i32_at(l2b_at);
    for j in 0..layer {
        let mut s = i32_at(l1b_at + 4 * j);
        for (i, xi) in x.iter().enumerate() {
            s += xi * (bytes[l1_at + i * layer + j] as i8) as i64;
        }
        out += s.div_euclid(QB as i64).clamp(0, QA as i64) * i16_at(l2_at + 2 * j);
    }
    out / (QA * QB) as i64
}

#[test]
fn the_arithmetic_is_the_documented_one() {
    // Widths that the vector path takes (2 x hidden a multiple of 32) and one it leaves to
    // the plain loops.
    for (seed, hidden) in (1..20u64).zip([24, 32, 64].into_iter().cycle()) {
        let (features, layer) = (50, 8);
        let bytes = random_network(features, hidden, layer, seed * 7919);
        let net = Network::from_bytes(&bytes).unwrap();
        let us: Vec<usize> = (0..4).map(|k| (seed as usize * 13 + k * 11) % features).collect();
        let them: Vec<usize> = (0..3).map(|k| (seed as usize * 5 + k * 17) % features).collect();
        assert_eq!(
            net.evaluate(&us, &them) as i64,
            reference(&bytes, features, hidden, layer, &us, &them),
            "seed {}",
            seed
        );
        // Adding and taking away an input leaves the accumulator as it was.
        let mut acc = vec![0i16; hidden];
        net.fresh(&mut acc);
        let before = acc.clone();
        net.add(&mut acc, 7);
        assert_ne!(acc, before);
        net.sub(&mut acc, 7);
        assert_eq!(acc, before);
    }
}

#[test]
fn bad_files_are_refused_with_their_reason() {
    let good = random_network(10, 8, 4, 3);
    assert!(Network::from_bytes(&good).is_ok());
    assert_eq!(Network::from_bytes(b"TNNUE003rest").unwrap_err(), NetworkError::NotANetwork);
    assert_eq!(Network::from_bytes(&good[..20]).unwrap_err(), NetworkError::Truncated);
    let cut = &good[..good.len() - 1];
    assert_eq!(
        Network::from_bytes(cut).unwrap_err(),
        NetworkError::Length { expected: good.len(), found: good.len() - 1 }
    );
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(Network::from_bytes(&long), Err(NetworkError::Length { .. })));
    let mut other_q = good.clone();
    other_q[8 + 2 + 4 + 16..8 + 2 + 4 + 20].copy_from_slice(&255u32.to_le_bytes());
    let e = Network::from_bytes(&other_q).unwrap_err();
    assert!(matches!(e, NetworkError::Shape(_)) && e.to_string().contains("QA 255"), "{}", e);
    assert!(matches!(Network::from_bytes(&vec![0u8; (2 << 20) + 1]), Err(NetworkError::TooLarge(_))));
    let mut other_base = good.clone();
    other_base[8 + 2 + 4 + 24..8 + 2 + 4 + 28].copy_from_slice(&2u32.to_le_bytes());
    assert!(Network::from_bytes(&other_base).unwrap_err().to_string().contains("base 2"));
    let mut adds_own = good.clone();
    adds_own[8 + 2 + 4 + 24] = 1;
    assert!(Network::from_bytes(&adds_own).unwrap().adds_own);
    assert!(!Network::from_bytes(&good).unwrap().adds_own && !fixture().adds_own);
}

fn fixture() -> Arc<Network> {
    Arc::new(Network::from_bytes(FIXTURE).unwrap())
}

fn think(s: &mut Searcher<Judkins>, pos: &Judkins, depth: u32) -> (Option<<Judkins as Rules>::Move>, u64, i32) {
    let r = s.think(
        &Record::new(pos.clone()),
        Limits { depth: Some(depth), ..Limits::default() },
        Control::new(false),
        &mut |_| {},
    );
    (r.best, r.nodes, r.score)
}

#[test]
fn the_search_keeps_each_accumulator_as_it_would_be_made_from_scratch() {
    // Random games reach drops, captures, promotions and checks; every accumulator the search
    // makes from its parent's (root moves, null moves, quiescence) is compared with one made
    // from the position's inputs.
    let mut s: Searcher<Judkins> = Searcher::new(4);
    s.set_network(Some(fixture())).unwrap();
    s.check_accumulators(true);
    let positions = common::random_positions::<Judkins>(50, 8, 70);
    let mut drops = 0;
    for (i, pos) in positions.iter().enumerate().filter(|(i, _)| i % 4 == 0) {
        let mut moves = Default::default();
        pos.legal_moves(&mut moves);
        drops += moves.iter().any(|m| pos.format_move(*m).contains('*')) as usize;
        let (best, _, _) = think(&mut s, pos, 3);
        assert!(best.is_none() || moves.iter().any(|m| Some(*m) == best), "position {}", i);
    }
    let (checked, mismatched) = s.accumulator_checks();
    assert!(drops > 10, "the random games hardly reach drops ({})", drops);
    assert!(checked > 10_000, "only {} accumulators checked", checked);
    assert_eq!(mismatched, 0, "{} of {} accumulators differ from scratch", mismatched, checked);
}

#[test]
fn dojo_accumulators_made_from_the_difference_of_inputs_are_those_made_from_scratch() {
    // Dojo lists no move's changes: each child's accumulators are updated by the difference of
    // its fields with its parent's. Random games reach captures (passive members, several on a
    // square), belt counters near their firing and treason.
    let net = Network::from_bytes(&random_network_of("dojo", Dojo::FEATURES, Dojo::MAX_ACTIVE, 32, 8, 11)).unwrap();
    let mut s: Searcher<Dojo> = Searcher::new(4);
    s.set_network(Some(Arc::new(net))).unwrap();
    s.check_accumulators(true);
    let positions = common::random_positions::<Dojo>(52, 12, 90);
    let mut inputs = std::collections::HashSet::new();
    // Every 10th of 1,080 positions.
    for pos in positions.iter().step_by(10) {
        let mut active = tetrarch::nnue::Active::default();
        pos.features(Side(0), &mut active);
        assert!(active.count() <= Dojo::MAX_ACTIVE);
        assert!(active.as_slice().iter().all(|&f| (f as usize) < Dojo::FEATURES));
        inputs.extend(active.as_slice().iter().map(|&f| f as usize / 768));
        short_search(&mut s, pos);
    }
    // Inputs of active pieces (0), passive members (1) and counters (2) were all seen.
    assert!(inputs.len() >= 3, "the random games reach only input groups {:?}", inputs);
    accumulators_agree(&s);
}

/// A search of depth 3 and at most 30,000 nodes: a random network's scores leave some searches
/// nothing to prune.
fn short_search<G: Game>(s: &mut Searcher<G>, pos: &G) {
    let limits = Limits { depth: Some(3), nodes: Some(30_000), ..Limits::default() };
    let _ = s.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
}

/// Every accumulator the searcher made from its parent's equalled the one made from scratch,
/// and there were many.
fn accumulators_agree<G: Game>(s: &Searcher<G>) {
    let (checked, mismatched) = s.accumulator_checks();
    assert!(checked > 10_000, "only {} accumulators checked", checked);
    assert_eq!(mismatched, 0, "{} of {} accumulators differ from scratch", mismatched, checked);
}

#[test]
fn double_mate_sees_the_start_alike_from_both_sides() {
    use tetrarch::nnue::Active;
    // The start is the same after a quarter turn, Black where Yellow was: Black and Green's
    // perspective, turned, has the inputs of Yellow and Red's.
    let pos = DoubleMate::startpos();
    let (mut a, mut b) = (Active::default(), Active::default());
    pos.features(Side(0), &mut a);
    pos.features(Side(1), &mut b);
    a.sort();
    b.sort();
    assert_eq!(a.count(), 32);
    assert_eq!(a.as_slice(), b.as_slice());
    // A piece's input names its army's place from the perspective's side: Yellow's king (d1)
    // is the first place's for Yellow and Red, the last place's for Black and Green.
    let king = |side: u8| {
        let mut act = Active::default();
        pos.features(Side(side), &mut act);
        act.as_slice().iter().map(|&f| f as usize).filter(|f| f % (5 * 64) / 64 == 0).collect::<Vec<_>>()
    };
    assert!(king(0).contains(&3), "Yellow's king on d1, place 0, kind 0: {:?}", king(0));
    // d1 turned a quarter is h4 (file 3, rank 0 to file 7, rank 3), where Green's king stands.
    assert!(king(1).contains(&(3 * 5 * 64 + 3 * 8 + 7)), "{:?}", king(1));
}

#[test]
fn all_against_all_sees_the_start_alike_from_every_army() {
    use tetrarch::nnue::Active;
    // The start goes round the board a quarter at a time: each army's perspective, turned by its
    // place after Yellow, has the inputs of Yellow's, and the pieces' inputs are Double Mate's.
    let pos = AllAgainstAll::startpos();
    assert_eq!((AllAgainstAll::FEATURES, AllAgainstAll::MAX_ACTIVE), (DoubleMate::FEATURES, DoubleMate::MAX_ACTIVE));
    let seen = |army: u8| {
        let mut a = Active::default();
        pos.features(Side(army), &mut a);
        a.sort();
        a.as_slice().to_vec()
    };
    let mut dm = Active::default();
    DoubleMate::startpos().features(Side(0), &mut dm);
    dm.sort();
    for army in 0..4 {
        assert_eq!(seen(army), dm.as_slice(), "army {}", army);
    }
    // Red's perspective turns the board half round: Yellow's king on d1 (place 2 from Red)
    // stands on e8 (63 - 3 = 60).
    assert!(seen(2).contains(&((2 * 5 * 64 + 60) as u16)), "{:?}", seen(2));
    // The perspectives of an army: its own and the next army's in the turn order.
    let seats = |k: u8| pos.perspectives(tetrarch::rules::Seat(k));
    assert_eq!(seats(0), [Side(0), Side(1)]);
    assert_eq!(seats(3), [Side(3), Side(0)]);
    // Double Mate's: the side's and the other side's, whichever army moves.
    let dm = DoubleMate::startpos();
    assert_eq!(dm.perspectives(tetrarch::rules::Seat(2)), [Side(0), Side(1)]);
    assert_eq!(dm.perspectives(tetrarch::rules::Seat(3)), [Side(1), Side(0)]);
}

#[test]
fn double_mate_differences_turn_a_parents_inputs_into_its_childs() {
    // Every legal move of random positions (captures, promotions, concourses, the pass), both
    // perspectives: the parent's inputs less the removed plus the added are the child's.
    let mut captures = 0;
    let moves_seen = each_exact_difference(
        &common::random_positions::<DoubleMate>(54, 12, 160),
        [Side(0), Side(1)],
        |removed, added| {
            captures += (removed[0].count() > added[0].count()) as usize;
        },
    );
    assert!(moves_seen > 5_000, "only {} moves", moves_seen);
    assert!(captures > 100, "only {} captures", captures);
}

#[test]
fn all_against_all_differences_turn_a_parents_inputs_into_its_childs() {
    // The same from every pair of an army and the next: the four quarter turns.
    let positions = common::random_positions::<AllAgainstAll>(56, 12, 160);
    for army in 0..4u8 {
        let sides = [Side(army), Side((army + 1) % 4)];
        let mut captures = 0;
        let moves_seen = each_exact_difference(&positions, sides, |removed, added| {
            captures += (removed[0].count() > added[0].count()) as usize;
        });
        assert!(moves_seen > 5_000 && captures > 100, "{} moves, {} captures", moves_seen, captures);
    }
}

#[test]
fn double_mate_accumulators_in_the_search_are_those_made_from_scratch() {
    // The search's accumulators over its four seats and two sides, with a network of random
    // weights, each compared with the one made from the position's inputs.
    let net =
        Network::from_bytes(&random_network_of("chaturanga", DoubleMate::FEATURES, DoubleMate::MAX_ACTIVE, 32, 8, 12))
            .unwrap();
    let mut s: Searcher<DoubleMate> = Searcher::new(4);
    s.set_network(Some(Arc::new(net))).unwrap();
    s.check_accumulators(true);
    for pos in common::random_positions::<DoubleMate>(55, 6, 120).iter().step_by(12) {
        short_search(&mut s, pos);
    }
    accumulators_agree(&s);
}

#[test]
fn all_against_all_accumulators_in_the_search_are_those_made_from_scratch() {
    // Best-Reply Search and the paranoid search, each root army's two perspectives; Double
    // Mate's network is refused.
    let positions = common::random_positions::<AllAgainstAll>(57, 6, 120);
    let mut s = four_seat_searches_agree("chaturanga-ffa", positions.iter().step_by(12), 30_000, 13);
    let dm = random_network_of("chaturanga", DoubleMate::FEATURES, DoubleMate::MAX_ACTIVE, 32, 8, 12);
    assert!(s.set_network(Some(Arc::new(Network::from_bytes(&dm).unwrap()))).is_err());
}

/// Each input's count in `active`, as a vector over the game's inputs.
#[test]
fn judtho_sees_the_start_alike_from_every_seat() {
    use tetrarch::nnue::Active;
    use tetrarch::rules::Seat;
    // Before the Assembly every hand is full and every seat single: the same inputs from every
    // seat, as many as a perspective can have.
    let pos = Judtho::startpos();
    let seen = |p: &Judtho, seat: u8| {
        let mut a = Active::default();
        p.features(Side(seat), &mut a);
        a.sort();
        a.as_slice().to_vec()
    };
    for seat in 0..4 {
        assert_eq!(seen(&pos, seat), seen(&pos, 0), "seat {}", seat);
    }
    assert_eq!(seen(&pos, 0).len(), Judtho::MAX_ACTIVE);
    assert_eq!(pos.perspectives(Seat(0)), [Side(0), Side(1)]);
    assert_eq!(pos.perspectives(Seat(3)), [Side(3), Side(0)]);
    // White placed a king on a1: from Black's perspective, White at the place after it and
    // its Opponent, the board turned both ways, it stands on l12 (143).
    let mut placed = pos.clone();
    placed.play(placed.parse_move("K*a1").unwrap());
    let kings = |seat: u8| seen(&placed, seat).into_iter().filter(|&f| (f as usize) < 10 * 8 * 144).collect::<Vec<_>>();
    assert_eq!(kings(0), [0]);
    assert_eq!(kings(3), [((1 + 1) * 8 * 144 + 143) as u16], "White is Black's Opponent at place 1");
    // After the First Checkmate White and Red are allied (the bench's seventh position): from
    // White, the first seat after it in another alliance is Yellow.
    let allied = Judtho::from_text(Judtho::VARIANT.bench.positions[6]).unwrap();
    assert_eq!(allied.perspectives(Seat(0)), [Side(0), Side(2)]);
}

/// Positions of Judtho from the Assembly on and from the bench's positions after checkmates,
/// with random moves.
fn judtho_positions() -> Vec<Judtho> {
    let mut out = common::random_positions::<Judtho>(58, 4, 150);
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    for text in Judtho::VARIANT.bench.positions {
        for _ in 0..6 {
            common::random_walk(Judtho::from_text(text).unwrap(), &mut rng, 40, &mut out);
        }
    }
    out
}

#[test]
fn judtho_differences_turn_a_parents_inputs_into_its_childs() {
    // From every seat and the next: placements, captures, promotions and the checkmates that
    // change the relationships (a checkmate adds an input of the checkmates' count).
    let positions = judtho_positions();
    let mates_input = Judtho::FEATURES - 3;
    for seat in 0..4u8 {
        let (mut placements, mut captures, mut mates) = (0, 0, 0);
        let moves_seen = each_exact_difference(&positions, [Side(seat), Side((seat + 1) % 4)], |removed, added| {
            let hand = |f: &u16| (10 * 8 * 144..10 * 8 * 144 + 52).contains(&(*f as usize));
            placements += removed[0].as_slice().iter().any(hand) as usize;
            captures += (removed[0].count() > added[0].count()) as usize;
            mates += added[0].as_slice().iter().any(|&f| f as usize >= mates_input) as usize;
        });
        assert!(
            moves_seen > 5_000 && placements > 500 && captures > 100 && mates > 10,
            "{} moves, {} placements, {} captures, {} checkmates",
            moves_seen,
            placements,
            captures,
            mates
        );
    }
}

#[test]
fn judtho_accumulators_in_the_search_are_those_made_from_scratch() {
    // Best-Reply Search and the paranoid search from every seat, in the Assembly and in
    // Battles with alliances.
    four_seat_searches_agree::<Judtho>("judtho", judtho_positions().iter().step_by(25), 20_000, 14);
}

/// Searches of a four-seat game with a network of random weights (seed `seed`) from each of
/// `roots`, Best-Reply Search and the paranoid search in turn, every accumulator compared with
/// the one made from scratch; the searcher, for more.
fn four_seat_searches_agree<'a, G: Game>(
    variant: &str,
    roots: impl Iterator<Item = &'a G>,
    nodes: u64,
    seed: u64,
) -> Searcher<G> {
    let net = random_network_of(variant, G::FEATURES, G::MAX_ACTIVE, 32, 8, seed);
    let mut s: Searcher<G> = Searcher::new(4);
    s.set_network(Some(Arc::new(Network::from_bytes(&net).unwrap()))).unwrap();
    s.check_accumulators(true);
    let mut seats = std::collections::HashSet::new();
    for (i, pos) in roots.enumerate() {
        seats.insert(pos.to_move());
        let limits = Limits { depth: Some(3), nodes: Some(nodes), best_reply: i % 2 == 0, ..Limits::default() };
        let _ = s.think(&Record::new(pos.clone()), limits, Control::new(false), &mut |_| {});
    }
    assert_eq!(seats.len(), 4, "every seat at a root");
    accumulators_agree(&s);
    s
}

fn counts(active: &tetrarch::nnue::Active, features: usize) -> Vec<i32> {
    let mut c = vec![0; features];
    for &f in active.as_slice() {
        c[f as usize] += 1;
    }
    c
}

#[test]
fn dojo_differences_of_positions_turn_a_parents_inputs_into_its_childs() {
    // Every legal move of random positions, both perspectives: the parent's inputs less the
    // removed plus the added are the child's, counted input by input.
    let (mut counters_moved, mut stacks_changed) = (0, 0);
    let moves_seen =
        each_exact_difference(&common::random_positions::<Dojo>(53, 12, 120), [Side(0), Side(1)], |removed, added| {
            for (removed, added) in removed.iter().zip(added) {
                counters_moved +=
                    added.as_slice().iter().chain(removed.as_slice()).any(|&f| f as usize >= 2 * 768) as usize;
                stacks_changed += added.as_slice().iter().any(|&f| (768..2 * 768).contains(&(f as usize))) as usize;
            }
        });
    assert!(moves_seen > 5_000, "only {} moves", moves_seen);
    assert!(counters_moved > 100 && stacks_changed > 100, "counters {} stacks {}", counters_moved, stacks_changed);
}

/// `exact_difference` for every legal move of every third of `positions`, each move's two lists
/// handed to `tally`; how many moves.
fn each_exact_difference<G: Game>(
    positions: &[G],
    sides: [Side; 2],
    mut tally: impl FnMut(&[tetrarch::nnue::Active; 2], &[tetrarch::nnue::Active; 2]),
) -> usize {
    let mut n = 0;
    for pos in positions.iter().step_by(3) {
        let mut moves = Default::default();
        pos.legal_moves(&mut moves);
        for &m in moves.iter() {
            n += 1;
            let (removed, added) = exact_difference(pos, m, sides);
            tally(&removed, &added);
        }
    }
    n
}

/// Plays `m` and checks, for perspectives `sides`, that the parent's inputs less what
/// `input_difference` removes plus what it adds are the child's, counted input by input, and
/// within the game's bounds; the two lists, for the caller's tallies.
fn exact_difference<G: Game>(
    pos: &G,
    m: G::Move,
    sides: [Side; 2],
) -> ([tetrarch::nnue::Active; 2], [tetrarch::nnue::Active; 2]) {
    use tetrarch::nnue::Active;
    let mut child = pos.clone();
    child.play(m);
    let (mut removed, mut added) = (<[Active; 2]>::default(), <[Active; 2]>::default());
    pos.input_difference(&child, sides, &mut removed, &mut added);
    for ((removed, added), &side) in removed.iter().zip(&added).zip(&sides) {
        let (mut before, mut after) = (Active::default(), Active::default());
        pos.features(side, &mut before);
        child.features(side, &mut after);
        assert!(after.count() <= G::MAX_ACTIVE);
        assert!(after.as_slice().iter().all(|&f| (f as usize) < G::FEATURES));
        let mut sum = counts(&before, G::FEATURES);
        for &f in removed.as_slice() {
            sum[f as usize] -= 1;
        }
        for &f in added.as_slice() {
            sum[f as usize] += 1;
        }
        assert_eq!(
            sum,
            counts(&after, G::FEATURES),
            "{} then {}: the difference misses inputs",
            pos.to_text(),
            pos.format_move(m)
        );
    }
    (removed, added)
}

#[test]
fn the_network_decides_the_search_and_can_be_turned_off() {
    let pos = Judkins::startpos();
    let mut classical: Searcher<Judkins> = Searcher::new(4);
    let mut learned: Searcher<Judkins> = Searcher::new(4);
    learned.set_network(Some(fixture())).unwrap();
    let (_, n_classical, v_classical) = think(&mut classical, &pos, 6);
    let (_, n_learned, v_learned) = think(&mut learned, &pos, 6);
    assert_ne!((n_classical, v_classical), (n_learned, v_learned), "the network changed nothing");
    // Back to the game's own evaluation: the classical search again, node for node.
    learned.set_network(None).unwrap();
    assert_eq!(think(&mut learned, &pos, 6).1, n_classical);
    // Two threads share the network.
    learned.set_network(Some(fixture())).unwrap();
    learned.set_threads(2);
    assert!(think(&mut learned, &pos, 6).0.is_some());
}

#[test]
fn a_network_for_another_game_is_refused() {
    let mut dojo: Searcher<Dojo> = Searcher::new(1);
    let e = dojo.set_network(Some(fixture())).unwrap_err();
    assert!(e.contains("for judkins, not dojo"), "{}", e);
    assert!(dojo.network().is_none());
}

#[test]
fn an_accumulator_updated_by_a_move_is_the_one_made_from_scratch() {
    let net = fixture();
    let (mut parent, mut child, mut scratch) = (vec![0i16; 16], vec![0i16; 16], vec![0i16; 16]);
    net.refresh(&mut parent, &[1, 5, 9, 700]);
    net.update(&parent, &mut child, &[9], &[2, 800]);
    net.refresh(&mut scratch, &[1, 2, 5, 700, 800]);
    assert_eq!(child, scratch);
    assert_ne!(child, parent);
}

#[test]
fn a_file_of_the_first_format_reads_as_a_network_of_its_own() {
    // TNNUE001 had no base word: the same arrays, read as a network whose output is the
    // evaluation.
    let name_len = u16::from_le_bytes([FIXTURE[8], FIXTURE[9]]) as usize;
    let base_at = 8 + 2 + name_len + 24;
    let mut first = b"TNNUE001".to_vec();
    first.extend_from_slice(&FIXTURE[8..base_at]);
    first.extend_from_slice(&FIXTURE[base_at + 4..]);
    let (old, new) = (Network::from_bytes(&first).unwrap(), fixture());
    assert!(!old.adds_own);
    let (us, them) = ([3, 40, 500], [7, 41, 870]);
    assert_eq!(old.evaluate(&us, &them), new.evaluate(&us, &them));
}
