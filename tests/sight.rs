//! What a learning agent's planes read of a position (`Draw::sight`), for every variant along
//! random games: a game that says it without its diagram (Judtho, for speed) says exactly what
//! its diagram shows.

use tetrarch::rules::Game;
use tetrarch::rules::diagram::Sight;
use tetrarch::variants::{self, Visitor};

mod common;

struct Check;

impl Visitor for Check {
    /// How many pieces, passive members and badges were seen.
    type Output = [usize; 3];
    fn visit<G: Game>(self) -> [usize; 3] {
        let mut positions = common::random_positions::<G>(0x5167, 12, 160);
        // Judtho's Battles come after 48 placements: games that reach them too.
        positions.extend(common::random_positions::<G>(0x7a1d, 4, 400));
        let mut seen = [0; 3];
        for pos in &positions {
            let shown = Sight::of_diagram(&pos.diagram(), G::KINDS, G::VARIANT.seats);
            let sight = pos.sight();
            seen[0] += sight.men.len();
            seen[1] += sight.members.len();
            seen[2] += sight.badges.len();
            assert_eq!(sight.sorted(), shown.sorted(), "{}: {}", G::VARIANT.name, pos.to_text());
        }
        seen
    }
}

#[test]
fn every_game_sees_what_its_diagram_shows() {
    for v in variants::VARIANTS {
        let [men, members, badges] = variants::visit(v.name, Check).expect("a variant");
        assert!(men > 0, "{}: no piece seen", v.name);
        if v.name == "dojo" {
            assert!(members > 0 && badges > 0, "dojo: {members} members and {badges} badges seen");
        }
    }
}
