//! Judtho: rules, position strings, random games, perft suites and the reference generator.

mod common;
use common::Rng;
use tetrarch::games::judtho::Judtho;
use tetrarch::rules::perft;
use tetrarch::rules::prelude::*;

fn moves(p: &Judtho) -> Vec<<Judtho as Rules>::Move> {
    let mut l = MovesOf::<Judtho>::default();
    p.legal_moves(&mut l);
    l.iter().copied().collect()
}

/// The kings on the board, per seat.
fn kings(p: &Judtho) -> [usize; 4] {
    let mut k = [0; 4];
    for sq in 0..144 {
        if let Some((s, 0)) = p.piece_at(sq) {
            k[s as usize] += 1;
        }
    }
    k
}

#[test]
fn random_games_keep_hash_text_kings_and_alliances() {
    let mut rng = Rng(0x4A55_4454_484F_0001);
    let mut lengths = Vec::new();
    let mut alliance_changes = 0;
    for game in 0..20 {
        let mut r = Record::new(Judtho::startpos());
        let mut ply = 0;
        while r.outcome().is_none() && ply < 1500 {
            let p = r.current.clone();
            assert_eq!(p.hash(), p.hash_from_scratch(), "game {game} ply {ply}");
            let text = p.to_text();
            let back = Judtho::from_text(&text).unwrap_or_else(|e| panic!("game {game} ply {ply}: {e}\n{text}"));
            assert_eq!(back.to_text(), text);
            assert_eq!(back.hash(), p.hash(), "{text}");
            let ms = moves(&p);
            let m = ms[rng.below(ms.len())];
            let t = p.format_move(m);
            assert_eq!(p.parse_move(&t), Ok(m), "{t}");
            r.play(m);
            ply += 1;
            let q = &r.current;
            // No king is ever taken: once placed, every seat keeps exactly one.
            if !q.in_assembly() {
                assert_eq!(kings(q), [1, 1, 1, 1], "game {game} ply {ply} after {t}");
            }
            // Alliances change only on checkmate: when they change, the mated player is a seat
            // whose king stood in check with no legal move right after the move, and the
            // number of checkmates grows by as many as the alliances show.
            let (before, after) = (p.relations(), q.relations());
            if before != after {
                alliance_changes += 1;
                assert!(after.mates() > before.mates(), "game {game} ply {ply}: {t}");
                assert!(
                    RefPos::parse(&text).checkmates(&t),
                    "game {game} ply {ply}: {t} changed the alliances\n{text}"
                );
            } else {
                assert_eq!(after.mates(), before.mates());
            }
        }
        lengths.push((ply, r.outcome().map(|o| o.reason.as_str())));
    }
    eprintln!("{lengths:?}, alliance changes {alliance_changes}");
    assert!(alliance_changes >= 10, "{alliance_changes}");
}

#[test]
fn random_games_agree_with_the_reference_move_by_move() {
    // Every position of a few whole random games, both phases and every alliance the games
    // reach: the same moves and the same positions after them.
    let mut rng = Rng(0x4A55_4454_484F_0003);
    let mut positions = 0;
    for _ in 0..3 {
        common::walk::walk(Judtho::startpos(), &mut rng, 399, |step| {
            agree(&step.record.current, 1);
            positions += 1;
        });
    }
    assert!(positions > 300);
}

#[test]
fn mangled_position_strings_and_move_texts_are_refused_or_round_trip() {
    let mut rng = Rng(0x4A55_4454_484F_0004);
    let mut sources: Vec<String> =
        common::read_perft_suite(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/judtho.perft"))
            .into_iter()
            .map(|c| c.position)
            .collect();
    sources.push(Judtho::startpos().to_text());
    let pieces: Vec<char> = "wrybKQCSRNBP0123456789/:,-! .xj*".chars().collect();
    let (mut refused, mut accepted) = (0, 0);
    for i in 0..20000 {
        let src = &sources[rng.below(sources.len())];
        let mut chars: Vec<char> = src.chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len() + 1);
            match rng.below(3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 => chars.insert(at, pieces[rng.below(pieces.len())]),
                _ if at < chars.len() => chars[at] = pieces[rng.below(pieces.len())],
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        match Judtho::from_text(&text) {
            Err(_) => refused += 1,
            Ok(p) => {
                accepted += 1;
                let canon = p.to_text();
                let again = Judtho::from_text(&canon).unwrap_or_else(|e| panic!("{i}: {text} -> {canon}: {e}"));
                assert_eq!(again.to_text(), canon);
                assert_eq!(again.hash(), p.hash());
                // Move texts: every mangled one is refused unless it is the canonical text of a
                // legal move.
                let ms = moves(&p);
                if let Some(&m) = ms.get(rng.below(ms.len().max(1))) {
                    let t = p.format_move(m);
                    let mut mc: Vec<char> = t.chars().collect();
                    let at = rng.below(mc.len());
                    mc[at] = pieces[rng.below(pieces.len())];
                    let mangled: String = mc.into_iter().collect();
                    if let Ok(found) = p.parse_move(&mangled) {
                        assert_eq!(p.format_move(found), mangled);
                    }
                }
            }
        }
    }
    assert!(refused > 1000 && accepted > 100, "refused {refused}, accepted {accepted}");
}

mod judtho_ref;
use judtho_ref::RefPos;

/// Every legal move with the position after it, as texts, sorted.
fn ours(p: &Judtho) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = moves(p)
        .into_iter()
        .map(|m| {
            let mut c = p.clone();
            c.play(m);
            (p.format_move(m), c.to_text())
        })
        .collect();
    v.sort();
    v
}

fn theirs(r: &RefPos) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = r.moves().into_iter().map(|(t, p)| (t, p.to_text())).collect();
    v.sort();
    v
}

/// Our moves and positions after them against the reference's, and perft to `depth`. Returns
/// the moves compared.
fn agree(p: &Judtho, depth: u32) -> Vec<String> {
    let text = p.to_text();
    let r = RefPos::parse(&text);
    assert_eq!(r.to_text(), text, "the reference reads and writes the same string");
    let (a, b) = (ours(p), theirs(&r));
    if a != b {
        let only_a: Vec<_> = a.iter().filter(|x| !b.contains(x)).take(5).collect();
        let only_b: Vec<_> = b.iter().filter(|x| !a.contains(x)).take(5).collect();
        panic!("{text}\nours only: {only_a:#?}\nreference only: {only_b:#?}");
    }
    if depth >= 2 {
        assert_eq!(perft(p, depth), r.perft(depth), "{text}");
    }
    a.into_iter().map(|x| x.0).collect()
}

#[test]
fn the_start_agrees_with_the_reference() {
    agree(&Judtho::startpos(), 2);
}

/// Positions along random games: every `stride`-th ply, through the Assembly and the Battles.
fn random_game_positions(rng: &mut Rng, games: usize, stride: usize, max_plies: usize) -> Vec<Judtho> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Judtho::startpos();
        for ply in 0..max_plies {
            if ply % stride == rng.below(stride) {
                out.push(p.clone());
            }
            let ms = moves(&p);
            if ms.is_empty() {
                break;
            }
            p.play(ms[rng.below(ms.len())]);
        }
    }
    out
}

/// The relationships a Battle position can have, each with a turn cycle that starts with the
/// seat to move: none, one Double Alliance, a Triple Alliance, two Double Alliances.
fn relationship_variants(to_move: u8) -> Vec<(String, String)> {
    let l = |s: u8| b"wryb"[s as usize] as char;
    let rotation = |start: u8| (0..4).map(|i| l((start + i) % 4)).collect::<String>();
    let mut v = vec![("-".to_string(), rotation(to_move))];
    for a in 0..4u8 {
        for b in 0..4u8 {
            if a != b {
                v.push((format!("{}{}", l(a), l(b)), rotation(to_move)));
            }
        }
    }
    for single in 0..4u8 {
        let members: Vec<u8> = (0..4).filter(|&s| s != single).collect();
        for first in &members {
            for second in &members {
                if first == second {
                    continue;
                }
                let third = *members.iter().find(|&&m| m != *first && m != *second).unwrap();
                // The members' turns in wryb order from some member on, alternating with the
                // single player's, turned to start with the seat to move.
                for start in &members {
                    let mut order = Vec::new();
                    let mut s = *start;
                    while order.len() < 3 {
                        if s != single {
                            order.push(s);
                        }
                        s = (s + 1) % 4;
                    }
                    let mut cycle: Vec<u8> = order.iter().flat_map(|&m| [single, m]).collect();
                    let Some(i) = cycle.iter().position(|&c| c == to_move) else { continue };
                    cycle.rotate_left(i);
                    let text: String = cycle.iter().map(|&c| l(c)).collect();
                    v.push((format!("{}{}{}", l(*first), l(*second), l(third)), text));
                }
            }
        }
    }
    for (a, b, c, d) in [(0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)] {
        for (p, q) in [((a, b), (c, d)), ((b, a), (c, d)), ((a, b), (d, c)), ((b, a), (d, c))] {
            let (mut x, mut y) = (p, q);
            if x.0 > y.0 {
                std::mem::swap(&mut x, &mut y);
            }
            v.push((format!("{}{},{}{}", l(x.0), l(x.1), l(y.0), l(y.1)), rotation(to_move)));
        }
    }
    v
}

/// The same Battle position under other relationships (those the position string accepts).
fn with_relationships(p: &Judtho, rng: &mut Rng, n: usize) -> Vec<Judtho> {
    let text = p.to_text();
    let f: Vec<&str> = text.split_whitespace().collect();
    let to_move = b"wryb".iter().position(|&c| c as char == f[1].chars().next().unwrap()).unwrap() as u8;
    let variants = relationship_variants(to_move);
    let mut out = Vec::new();
    for _ in 0..n * 4 {
        let (rel, cycle) = &variants[rng.below(variants.len())];
        let t = format!("{} {} {} {} {} {} {}", f[0], f[1], f[2], rel, cycle, f[5], f[6]);
        if let Ok(q) = Judtho::from_text(&t) {
            out.push(q);
            if out.len() == n {
                break;
            }
        }
    }
    out
}

/// Which relationships a position has: 0 none (Assembly or first Battle), 1 one Double
/// Alliance, 2 a Triple Alliance, 3 two Double Alliances.
fn state_of(p: &Judtho) -> usize {
    let text = p.to_text();
    let rel = text.split_whitespace().nth(3).unwrap().to_string();
    match rel.len() {
        1 => 0,
        2 => 1,
        3 => 2,
        _ => 3,
    }
}

/// Assemblies that give check whenever they can, half the time: positions with T6's obligations.
fn checking_assemblies(rng: &mut Rng, games: usize) -> Vec<Judtho> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Judtho::startpos();
        while p.in_assembly() {
            let ms = moves(&p);
            let checking: Vec<_> = ms
                .iter()
                .copied()
                .filter(|&m| {
                    let mut c = p.clone();
                    c.play(m);
                    c.to_text().contains('!') && !p.to_text().contains('!')
                })
                .collect();
            let m = if !checking.is_empty() && rng.below(2) == 0 {
                checking[rng.below(checking.len())]
            } else {
                ms[rng.below(ms.len())]
            };
            p.play(m);
            if p.to_text().contains('!') || rng.below(8) == 0 {
                out.push(p.clone());
            }
        }
        out.push(p.clone());
    }
    out
}

#[test]
fn five_hundred_random_positions_agree_with_the_reference() {
    let mut rng = Rng(0x4A55_4454_484F_0002);
    let mut positions = random_game_positions(&mut rng, 12, 9, 260);
    positions.extend(checking_assemblies(&mut rng, 6));
    let battles: Vec<Judtho> = positions.iter().filter(|p| !p.in_assembly()).cloned().collect();
    for (i, p) in battles.iter().enumerate() {
        if i % 2 == 0 {
            positions.extend(with_relationships(p, &mut rng, 3));
        }
    }
    let mut coverage = [0usize; 6];
    let mut obligations = 0;
    // Moves of each special form seen: promotion suffixes, jumps, distant captures, passes,
    // pawn promotions.
    let mut forms = [0usize; 5];
    for (i, p) in positions.iter().enumerate() {
        let assembly = p.in_assembly();
        coverage[if assembly { 4 } else { state_of(p) }] += 1;
        if assembly && p.to_text().contains('!') {
            obligations += 1;
        }
        for m in agree(p, if i % 3 == 0 { 2 } else { 1 }) {
            let last = m.split('/').next().unwrap().chars().last().unwrap();
            forms[0] += m.contains('/') as usize;
            forms[1] += (last == 'j') as usize;
            forms[2] += m.contains('x') as usize;
            forms[3] += (m == "pass") as usize;
            forms[4] += "qcsrnb".contains(last) as usize;
        }
    }
    eprintln!(
        "positions {} by state (none, double, triple, two doubles, assembly): {coverage:?}, T6 obligations {obligations}, \
         moves with promotion suffixes, jumps, distant captures, passes, pawn promotions: {forms:?}",
        positions.len()
    );
    // Passes are rare in random play; the perft suite has them (T10).
    assert!(forms.iter().enumerate().all(|(i, &n)| i == 3 || n > 0), "{forms:?}");
    assert!(positions.len() >= 500);
    assert!(coverage[..5].iter().all(|&n| n >= 40), "{coverage:?}");
    assert!(obligations >= 10, "{obligations}");
}

#[test]
fn perft_suite_counts_hold_and_agree_with_the_reference() {
    let suite = common::read_perft_suite(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/judtho.perft"));
    assert!(suite.len() >= 25);
    for case in &suite {
        let p = Judtho::from_text(&case.position).unwrap_or_else(|e| panic!("{}: {e}", case.label));
        assert_eq!(p.to_text(), case.position, "{}", case.label);
        for &(d, n) in &case.counts {
            assert_eq!(perft(&p, d), n, "{} depth {d}", case.label);
        }
        agree(&p, 2);
    }
    // Every ruling has its position.
    for r in [
        "T1", "T2", "T3", "T4", "T5", "T5a", "T6", "T6b", "T7", "T8", "T9", "T10", "T12", "Third", "Assembly", "Pieces",
    ] {
        assert!(suite.iter().any(|c| c.label.split_whitespace().next() == Some(r)), "no position for {r}");
    }
}

/// T11: an unallied player may resign, an allied one may not (the arbiter and the GUI ask the
/// rules, `Rules::may_resign`).
#[test]
fn only_an_unallied_player_may_resign() {
    // White and red allied against yellow and blue.
    let pos = Judtho::from_text("rK6wR3bK/rCrP10/2rP9/12/12/12/12/12/12/12/12/wK10yK r w:S,r:,y:S,b:S wr rybw 0 101")
        .unwrap();
    for (seat, allowed) in [(0, false), (1, false), (2, true), (3, true)] {
        assert_eq!(pos.may_resign(Seat(seat)).is_ok(), allowed, "seat {seat}");
    }
    assert!(pos.may_resign(Seat(0)).unwrap_err().contains("T11"));
}
