//! How moves are entered with the mouse (`Draw::gesture`), for every variant along random
//! games: every legal move has a gesture that names squares and hand kinds the picture shows,
//! and no two legal moves share one, so that the GUI's clicks and chooser can always name
//! exactly one move.

use std::collections::HashSet;
use tetrarch::rules::Game;
use tetrarch::rules::diagram::Origin;
use tetrarch::rules::prelude::*;
use tetrarch::variants::{self, Visitor};

mod common;

struct Check;

impl Visitor for Check {
    type Output = (usize, usize);
    fn visit<G: Game>(self) -> (usize, usize) {
        let mut positions = common::random_positions::<G>(0x9e57, 12, 160);
        // Judtho's Battles come after 48 placements: games that reach them too.
        positions.extend(common::random_positions::<G>(0x51ab, 3, 400));
        let (mut moves, mut shared) = (0, 0);
        for pos in &positions {
            let d = pos.diagram();
            let squares: HashSet<&str> = d.cells.iter().map(|c| c.square.as_str()).collect();
            let mut list = MovesOf::<G>::default();
            pos.legal_moves(&mut list);
            let mut seen = HashSet::new();
            let mut by_click: std::collections::HashMap<(Option<Origin>, String), usize> = Default::default();
            for &m in list.iter() {
                let g = pos.gesture(m);
                let text = pos.format_move(m);
                match &g.from {
                    None => assert!(g.to.is_empty(), "{}: {text}: a pass names no square", G::VARIANT.name),
                    Some(Origin::Square(s)) => {
                        assert!(squares.contains(s.as_str()), "{text}: {s}");
                        assert!(!g.to.is_empty(), "{}: {text} names no target", G::VARIANT.name);
                    }
                    Some(Origin::Hand { seat, kind }) => {
                        let hand = d.seats[(*seat).index()].hand.as_ref().expect("a game with hands");
                        assert!(hand.iter().any(|(k, n)| k == kind && *n > 0), "{text}: {kind} is not in hand");
                        assert_eq!(*seat, pos.to_move(), "{text}");
                    }
                }
                for s in g.to.iter().chain(&g.marks) {
                    assert!(squares.contains(s.as_str()), "{}: {text}: no square {s}", G::VARIANT.name);
                }
                assert!(
                    seen.insert((g.from.clone(), g.to.clone(), g.marks.clone(), g.words.clone())),
                    "{}: two moves with the gesture of {text} in {}",
                    G::VARIANT.name,
                    pos.to_text()
                );
                for t in &g.to {
                    *by_click.entry((g.from.clone(), t.clone())).or_default() += 1;
                }
                moves += 1;
            }
            shared += by_click.values().filter(|&&n| n > 1).count();
        }
        (moves, shared)
    }
}

#[test]
fn every_legal_move_has_one_gesture_of_its_own() {
    for v in ["judkins", "dojo", "chaturanga", "chaturanga-ffa", "judtho"] {
        let (moves, shared) = variants::visit(v, Check).unwrap();
        assert!(moves > 1000, "{v}: {moves} moves");
        eprintln!("{v}: {moves} moves, {shared} clicks that leave a choice");
    }
}

struct Numbered;

impl Visitor for Numbered {
    type Output = usize;
    fn visit<G: Game>(self) -> usize {
        let mut positions = common::random_positions::<G>(0x0ac7, 12, 160);
        positions.extend(common::random_positions::<G>(0x51ab, 3, 400));
        let mut compound = 0;
        for pos in &positions {
            let mut list = MovesOf::<G>::default();
            pos.legal_moves(&mut list);
            let mut seen = HashSet::new();
            for &m in list.iter() {
                let mut tokens = Vec::new();
                G::action_tokens(m, &mut tokens);
                assert!(!tokens.is_empty() && tokens.iter().all(|&t| t < G::ACTIONS), "{}", pos.format_move(m));
                compound += usize::from(tokens.len() > 1);
                assert!(
                    seen.insert(tokens),
                    "{}: two moves share the actions of {}",
                    G::VARIANT.name,
                    pos.format_move(m)
                );
            }
        }
        compound
    }
}

/// Every legal move has its own list of actions, within the variant's numbering.
#[test]
fn every_legal_move_has_actions_of_its_own() {
    use tetrarch::rules::Actions;
    for v in ["judkins", "dojo", "chaturanga", "chaturanga-ffa", "judtho"] {
        let compound = variants::visit(v, Numbered).unwrap();
        eprintln!("{v}: {compound} moves of more than one action");
    }
    assert_eq!(<tetrarch::games::judkins::Judkins as Actions>::ACTIONS, 2808);
}
