//! Judtho evaluation, one term list for both phases: material, the reach of each piece, the
//! safety of each king against its Opponents, and the threats of mate. Each seat is scored on
//! its own; a side sums its seats and is compared with the average other side, so that the
//! First Checkmate's alliance counts as the two armies it commands. Before the First
//! Checkmate a seat also weighs its own mating chances against its Rival's: whoever mates first
//! gains an army, and the Rival who does leaves the other facing two.

use super::attacks::ORTH;
use super::movegen;
use super::*;
use crate::board::geometry::with_popcnt;
use crate::rules::Evaluation;
use crate::rules::SearchPolicy;

/// Material values in centipawns, by kind (the king: none).
pub const VALUE: [i32; 8] = [0, 1000, 420, 700, 500, 330, 340, 100];
/// Weight of one square a piece of each kind reaches (its mobility).
const REACH: [i32; 8] = [0, 2, 4, 3, 3, 5, 3, 0];
/// Weight of an attack by a piece of each kind on a king's square or its neighbours.
const PRESSURE: [i32; 8] = [0, 12, 8, 10, 9, 7, 7, 4];

/// The share of its pressure on Opponents' kings that a seat is credited with (1/n).
const ATTACK_CREDIT: i32 = 2;

/// What the evaluation reads of one seat.
#[derive(Clone, Copy, Default)]
struct SeatTerms {
    material: i32,
    /// Reach, pawn advance and placement.
    activity: i32,
    /// How exposed its king is (higher is worse).
    danger: i32,
    /// Its pressure on each other seat's king.
    pressure: [i32; 4],
}

impl Judtho {
    /// Each seat's pieces in one pass, each kind's attacks written out where they are used:
    /// material, reach, pawn advance and the pressure on its Opponents' kings, and the seat's
    /// attack map. Nothing is kept per piece: the one term that needs every seat's map, a piece
    /// left hanging, is read off the maps afterwards (`seat_safety`).
    #[inline(always)]
    fn seat_pieces(&self, s: u8, zones: &[Set; 4], terms: &mut SeatTerms) -> Set {
        let t = tables();
        let board = &self.board;
        let own = board.by_seat[s as usize];
        let occ = board.occ;
        let zone_union = zones[0] | zones[1] | zones[2] | zones[3];
        let mut map = Set::EMPTY;
        let mut piece = |kind: u8, reach: Set, terms: &mut SeatTerms| {
            map |= reach;
            terms.material += VALUE[kind as usize];
            terms.activity += REACH[kind as usize] * reach.minus(own).count() as i32;
            if (reach & zone_union).any() {
                for (pressure, zone) in terms.pressure.iter_mut().zip(zones) {
                    *pressure += (reach & *zone).count() as i32 * PRESSURE[kind as usize];
                }
            }
        };
        let up = pawn_dir(s) == tables::UP;
        for sq in own.iter() {
            let (_, kind) = board.at(sq).expect("a piece");
            match kind {
                QUEEN => piece(QUEEN, t.rays.queen(sq, occ), terms),
                ROOK => piece(ROOK, t.rays.rook(sq, occ), terms),
                BISHOP => piece(BISHOP, t.rays.bishop(sq, occ), terms),
                KNIGHT => piece(KNIGHT, t.knight[sq], terms),
                PRINCESS => piece(PRINCESS, t.ring4[sq], terms),
                PAWN => {
                    piece(PAWN, t.pawn_attacks[pawn_dir(s)][sq], terms);
                    // Twelve ranks to promotion: each step counts, the last ones most.
                    let r = if up { sq / 12 } else { 11 - sq / 12 } as i32;
                    terms.activity += 4 * r + if r >= 8 { 12 * (r - 7) } else { 0 };
                }
                PRINCE => piece(PRINCE, board.attacks_from(PRINCE, s, sq, &self.rel), terms),
                // The king: no material value, and its reach counts toward nothing but the map.
                _ => {}
            }
        }
        let k = board.kings[s as usize];
        if k != NONE {
            map |= t.king[k as usize];
        }
        map
    }

    /// The rest of a seat's terms, given every seat's attack map: its pieces left hanging, what
    /// stays in hand during the Assembly, and its king's safety.
    #[inline(always)]
    fn seat_safety(&self, s: u8, maps: &[Set; 4], terms: &mut SeatTerms) {
        let t = tables();
        let own = self.board.by_seat[s as usize];
        let opp = self.rel.opponents(s);
        let foes = self.board.of(opp);
        let foe_map = (0..4).filter(|&x| opp & (1 << x) != 0).fold(Set::EMPTY, |m, x| m | maps[x]);
        let assembly = self.in_assembly();
        let home_rank = |sq: usize| if pawn_dir(s) == tables::UP { sq / 12 } else { 11 - sq / 12 };
        let k = self.board.kings[s as usize];
        // A piece an Opponent attacks and no own piece defends may be lost.
        let mut hanging = (own & foe_map).minus(maps[s as usize]);
        if k != NONE {
            hanging.remove(k as usize);
        }
        for sq in hanging.iter() {
            let (_, kind) = self.board.at(sq).expect("a piece");
            terms.activity -= VALUE[kind as usize] / if assembly { 6 } else { 4 };
        }
        if assembly {
            for k in 0..8 {
                terms.material += VALUE[k] * self.hand[s as usize][k] as i32;
            }
            // Only one of Prince and Princess is placed: the other is a promotion, not material.
            terms.material -= VALUE[PRINCE as usize].min(VALUE[PRINCESS as usize])
                * (self.hand[s as usize][PRINCE as usize] + self.hand[s as usize][PRINCESS as usize]).min(1) as i32;
        }
        if k == NONE {
            return;
        }
        let k = k as usize;
        // King safety: Opponents' attacks on its square and neighbours, open lines toward it,
        // shelter from its own pieces, and check with few ways out.
        let zone = t.king[k].with(k);
        terms.danger += 6 * (zone & foe_map).count() as i32;
        let shelter = (t.king[k] & own).count() as i32;
        terms.danger -= 8 * shelter.min(4);
        for d in 0..8 {
            // The empty squares from the king to the first piece or the edge.
            let (open, hostile) = match t.rays.blocker(k, d, self.board.occ) {
                Some(b) => (attacks::distance(k, b) as i32 - 1, foes.has(b)),
                None => (attacks::to_edge(k, d) as i32, false),
            };
            if open >= 3 || hostile {
                // A line an Opponent's slider can use (or stands on) toward the king.
                terms.danger += 5 + open + if hostile { 10 } else { 0 };
            }
        }
        for &d in ORTH.iter() {
            // Princes strike along ranks and files through the king's own men.
            if let Some(p) = attacks::step(k, d, 2)
                && (Set::square(p) & self.board.by_kind[PRINCE as usize] & foes).any()
            {
                terms.danger += 15;
            }
        }
        if (t.ring4[k] & self.board.by_kind[PRINCESS as usize] & foes).any() {
            // A Princess checks over everything: only distance keeps her off.
            terms.danger += 40;
        }
        if self.king_in_check(s) {
            let free = t.king[k].minus(own).minus(foe_map).count() as i32;
            terms.danger += 60 + 40 * (3 - free).max(0);
        }
        if assembly {
            // The back rank, away from the Neutral Realm, keeps the King out of the first Battle.
            terms.danger += 10 * home_rank(k) as i32;
        }
    }

    /// The standing of every seat in centipawns, for the side view below.
    #[inline(always)]
    fn seat_scores(&self) -> [i32; 4] {
        let t = tables();
        let mut king_zones = [Set::EMPTY; 4];
        for (zone, &k) in king_zones.iter_mut().zip(&self.board.kings) {
            if k != NONE {
                *zone = t.king[k as usize].with(k as usize);
            }
        }
        // Plain loops, not `array::from_fn`: its closure would not be inlined into the popcnt
        // build of the evaluation, and would count bits in software.
        let mut terms = [SeatTerms::default(); 4];
        let mut maps = [Set::EMPTY; 4];
        for s in 0..4u8 {
            // Pressure counts on the Opponents' kings only.
            let opp = self.rel.opponents(s);
            let mut zones = king_zones;
            for (v, zone) in zones.iter_mut().enumerate() {
                if opp & (1 << v) == 0 {
                    *zone = Set::EMPTY;
                }
            }
            maps[s as usize] = self.seat_pieces(s, &zones, &mut terms[s as usize]);
        }
        for (s, t) in terms.iter_mut().enumerate() {
            self.seat_safety(s as u8, &maps, t);
        }
        let mut scores = [0i32; 4];
        for s in 0..4usize {
            let danger = terms[s].danger + (0..4).map(|x| terms[x].pressure[s]).sum::<i32>();
            // Danger grows faster than linearly: two threats are worse than twice one.
            let danger = danger.max(0);
            scores[s] = terms[s].material + terms[s].activity - danger - danger * danger / 600;
            // Every checkmate given brings an army over to the mater's side: pressure on an
            // Opponent's king is worth something to the attacker itself, not only as the
            // victim's loss.
            let mine: i32 = terms[s].pressure.iter().sum();
            scores[s] += mine / ATTACK_CREDIT;
            if let Some(r) = self.rel.rival(s as u8) {
                // Who mates first gains an army: my mating chances against my Rival's.
                let theirs: i32 = terms[r as usize].pressure.iter().sum();
                scores[s] += (mine - theirs) / 2;
            }
        }
        scores
    }

    #[inline(always)]
    fn evaluate_body(&self, side: Side) -> i32 {
        let scores = self.seat_scores();
        // Each side's total; mine against the average of the others.
        let mut totals = [0i32; 4];
        let mut present = [false; 4];
        for s in 0..4u8 {
            let sd = self.rel.side(s) as usize;
            totals[sd] += scores[s as usize];
            present[sd] = true;
        }
        let mine = totals[side.index()];
        let (mut sum, mut count, mut strongest) = (0, 0, i32::MIN);
        for d in (0..4).filter(|&d| present[d] && d != side.index()) {
            sum += totals[d];
            count += 1;
            strongest = strongest.max(totals[d]);
        }
        if count == 0 {
            return mine;
        }
        mine - (sum / count + strongest) / 2
    }
}

/// How the search treats Judtho (the registry lists it with the variant). Four players: no
/// null move, and no check extension, since checks follow checks and the extension would never
/// end; quiescence answers a check move by move for one ply and runs three, or four armies that
/// take and retake would search every order of every capture on the board. Best-Reply Search
/// measured in tetrarch match against three depth-1 copies, 200 games at 2+0.05 each: 78.5% on
/// the winning side, 78.0% with the paranoid search (docs/rules/judtho.md).
pub const SEARCH: SearchPolicy = SearchPolicy {
    null_move: false,
    extend_checks: false,
    qsearch_evasion_plies: 1,
    qsearch_plies: 3,
    best_reply: true,
};

impl Evaluation for Judtho {
    const MOVE_INDEX_SPACE: usize = 144 * 144 * 2 + 144 + 8 * 144 + 1;

    fn evaluate(&self, side: Side) -> i32 {
        // The evaluation counts the bits of several hundred sets.
        with_popcnt!(p: &Judtho = self, side: Side = side => i32 { p.evaluate_body(side) })
    }

    fn tactical_value(&self, m: Move) -> Option<i32> {
        let capture = |sq: usize| self.board.at(sq).map(|p| VALUE[p.1 as usize]).unwrap_or(0);
        match m.kind() {
            STEP | JUMP => {
                let mover = self.board.at(m.from()).map(|p| VALUE[p.1 as usize]).unwrap_or(0);
                let mut gain = if self.board.occ.has(m.to()) { capture(m.to()) } else { 0 };
                if m.kind() == STEP {
                    // A line capture takes everything on its way.
                    gain += (attacks::between(m.from(), m.to()) & self.board.occ).iter().map(capture).sum::<i32>();
                }
                let promo = m.promotion().map(|k| VALUE[k as usize] - VALUE[PAWN as usize]);
                let mates = m.choices().count() as i32 * 600;
                if gain == 0 && promo.is_none() && mates == 0 {
                    return None;
                }
                Some(gain * 8 - mover / 16 + promo.unwrap_or(0) + mates + 100)
            }
            DISTANT => {
                let from = m.from();
                let gain: i32 = crate::board::geometry::KNIGHT_STEPS
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| m.leaps() & (1 << i) != 0)
                    .map(|(_, &(df, dr))| {
                        capture(((from / 12) as i32 + dr) as usize * 12 + ((from % 12) as i32 + df) as usize)
                    })
                    .sum();
                Some(gain * 8 + 100)
            }
            _ => (m.choices().count() > 0).then_some(600),
        }
    }

    fn move_index(m: Move) -> usize {
        match m.kind() {
            STEP => m.from() * 144 + m.to(),
            JUMP => 144 * 144 + m.from() * 144 + m.to(),
            DISTANT => 2 * 144 * 144 + m.from(),
            PLACE => 2 * 144 * 144 + 144 + m.placed() as usize * 144 + m.to(),
            _ => 2 * 144 * 144 + 144 + 8 * 144,
        }
    }

    // Eight kinds on 144 squares (a placement counts as its kind arriving), and the pass.
    const PIECE_TO_SPACE: usize = 8 * 144 + 1;

    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        match m.kind() {
            PLACE => m.placed() as usize * 144 + m.to(),
            STEP | JUMP | DISTANT => self.board.at(m.from()).map_or(0, |(_, k)| k as usize) * 144 + m.to(),
            _ => 8 * 144,
        }
    }

    fn tactical_moves(&self, out: &mut List<Move>) {
        // The Assembly has no captures: a quiet position for quiescence.
        if self.in_assembly() {
            return;
        }
        if self.must_answer_check() || self.over.is_some() {
            self.legal_moves(out);
            return;
        }
        self.generate_captures(self.to_move_seat(), &mut movegen::All(out));
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.exchange(m) >= threshold
    }

    fn with_turn(&self, seat: Seat) -> Option<Self> {
        // Best-Reply Search skips the turns of the opponents who do not reply. Only without a
        // Triple Alliance: then the turns follow `wryb` and any seat can be made the next.
        if self.in_assembly() || self.over.is_some() || self.cycle_len != 4 || seat > Seat(3) {
            return None;
        }
        let mut p = self.clone();
        let old = p.meta_key();
        let at = p.cycle[..4].iter().position(|&s| s == seat.0)?;
        p.cycle[..4].rotate_left(at);
        p.hash ^= old ^ p.meta_key();
        Some(p)
    }

    fn play_null(&mut self) {
        let old = self.meta_key();
        self.rotate_turn();
        self.hash ^= old ^ self.meta_key();
    }
}
