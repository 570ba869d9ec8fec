//! The one stand-in for a game of four seats, independent of any real game's rules: the tests of
//! what the rules core and the match runner do with seats and sides use it.

use tetrarch::rules::{
    BenchPositions, MoveList, Outcome, Rules, SearchPolicy, Seat, SeatMask, Side, Termination, VariantSpec,
};

pub const STAND_IN: VariantSpec = VariantSpec {
    name: "stand-in",
    title: "a stand-in with four seats",
    seats: "ybrg",
    players: &["y", "b", "r", "g"],
    files: 1,
    ranks: 1,
    keyword: "fen",
    search: SearchPolicy::DEFAULT,
    bench: &BenchPositions { depth: 1, positions: &[] },
};

/// Four seats; `PAIRS` puts seats 0+2 and 1+3 on two sides (Double Mate), else each alone.
/// `OUT` is the mask of armies already out, the higher seat having gone out later. It implements
/// the rules part of a game only, with the perpetual-check rule: no texts, no evaluation.
#[derive(Clone)]
pub struct Stand<const PAIRS: bool, const OUT: u8 = 0>;

impl<const PAIRS: bool, const OUT: u8> Rules for Stand<PAIRS, OUT> {
    type Move = u8;
    type Moves<T: Copy + Send> = MoveList<T, 1>;
    const VARIANT: &'static VariantSpec = &STAND_IN;
    const MAX_MOVES: usize = 1;
    const REPETITIONS: usize = 3;
    const PERPETUAL_CHECK_LOSES: bool = true;
    fn startpos() -> Self {
        Stand
    }
    fn to_move(&self) -> Seat {
        Seat(0)
    }
    fn side_of(&self, seat: Seat) -> Side {
        Side(if PAIRS { seat.0 % 2 } else { seat.0 })
    }
    fn legal_moves(&self, _: &mut MoveList<u8, 1>) {}
    fn play(&mut self, _: u8) {}
    fn hash(&self) -> u64 {
        0
    }
    fn hash_from_scratch(&self) -> u64 {
        0
    }
    fn must_answer_check(&self) -> bool {
        false
    }
    fn checked_seats(&self) -> SeatMask {
        SeatMask::EMPTY
    }
    fn no_move_outcome(&self) -> Outcome {
        Outcome::draw(Termination::Stalemate)
    }
    fn side_lost(&self, side: Side) -> bool {
        OUT & (1 << side.0) != 0
    }
    fn ranking(&self) -> Option<Vec<SeatMask>> {
        (OUT != 0).then(|| {
            let mut r = vec![SeatMask(0xF & !OUT)];
            r.extend((0..4u8).rev().filter(|s| OUT & (1 << s) != 0).map(|s| Seat(s).mask()));
            r
        })
    }
}
