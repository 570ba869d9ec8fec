//! The search's numbers in one place: its pruning margins, reductions and depths, and the
//! `Policy` that says which of its features apply to the search at hand. Each number was
//! measured in matches (docs/strength.md); a change to one changes the bench signature.

/// What a shared draw costs the root in games of more than two sides.
pub const DRAW_CONTEMPT: i32 = 500;

/// A quiet move that causes a cutoff at `depth` gains `CUTOFF_BONUS_PER_DEPTH2 * depth²` of
/// history, at most `HISTORY_MAX / CUTOFF_BONUS_MAX_DIVISOR`.
pub(super) const CUTOFF_BONUS_PER_DEPTH2: i32 = 16;
pub(super) const CUTOFF_BONUS_MAX_DIVISOR: i32 = 4;

/// How much longer the next iteration is taken to last than the last, at least and at most, as
/// the last two iterations' ratio; before two are known, `ITERATION_GROWTH_UNKNOWN`.
pub(super) const ITERATION_GROWTH: (f64, f64) = (1.5, 8.0);
pub(super) const ITERATION_GROWTH_UNKNOWN: f64 = 2.0;

/// Reverse futility pruning: a node whose static evaluation stands this much per ply of depth
/// above beta is cut, up to `RFP_DEPTH`.
pub(super) const RFP_MARGIN: i32 = 110;
pub(super) const RFP_DEPTH: i32 = 4;

/// Razoring: a node this much per ply below alpha, up to `RAZOR_DEPTH`, is tested by
/// quiescence before it is searched.
pub(super) const RAZOR_MARGIN: i32 = 250;
pub(super) const RAZOR_DEPTH: i32 = 2;

/// Null-move pruning from `NULL_MOVE_DEPTH`, reduced by `NULL_MOVE_REDUCTION` plus one ply per
/// `NULL_MOVE_DEPTH_DIVISOR` of depth.
pub(super) const NULL_MOVE_DEPTH: i32 = 3;
pub(super) const NULL_MOVE_REDUCTION: i32 = 3;
pub(super) const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;

/// Internal iterative reduction: a node from this depth that the table knows nothing of is
/// searched a ply shallower.
pub(super) const IIR_DEPTH: i32 = 4;

/// Quiet-move pruning near the leaves (up to `QUIET_PRUNING_DEPTH`): late moves beyond
/// `LATE_MOVES_BASE + LATE_MOVES_FACTOR * depth²`, moves whose history is below
/// `-HISTORY_PRUNING_MARGIN * depth`, and moves that cannot lift an evaluation
/// `FUTILITY_BASE + FUTILITY_MARGIN * depth` below alpha.
pub(super) const QUIET_PRUNING_DEPTH: i32 = 3;
pub(super) const LATE_MOVES_BASE: i32 = 3;
pub(super) const LATE_MOVES_FACTOR: i32 = 2;
pub(super) const HISTORY_PRUNING_MARGIN: i32 = 3000;
pub(super) const FUTILITY_BASE: i32 = 150;
pub(super) const FUTILITY_MARGIN: i32 = 120;

/// Quiet moves that lose more than `SEE_QUIET_MARGIN * depth²` in the exchange on their square
/// are not searched, up to `SEE_QUIET_DEPTH`.
pub(super) const SEE_QUIET_DEPTH: i32 = 6;
pub(super) const SEE_QUIET_MARGIN: i32 = 60;

/// Late move reductions: `LMR_BASE + ln(depth)·ln(move number) / LMR_DIVISOR` plies, from
/// `LMR_DEPTH` and the `LMR_MOVES`-th move on.
pub(super) const LMR_BASE: f64 = 0.75;
pub(super) const LMR_DIVISOR: f64 = 2.25;
pub(super) const LMR_DEPTH: i32 = 3;
pub(super) const LMR_MOVES: usize = 3;

/// Best-Reply Search reduces late quiet moves by one ply: from the `BRS_LATE_MOVES`-th move of
/// the root side and the `BRS_LATE_REPLIES`-th reply of the opponents, from `LMR_DEPTH`.
pub(super) const BRS_LATE_MOVES: usize = 4;
pub(super) const BRS_LATE_REPLIES: usize = 6;

/// Aspiration windows: from `ASPIRATION_DEPTH`, this wide around the last score, doubled at
/// each failure.
pub(super) const ASPIRATION_DEPTH: u32 = 5;
pub(super) const ASPIRATION_DELTA: i32 = 30;

/// Which features the search at hand uses. Continuation histories, the improving test,
/// internal iterative reduction, razoring, history pruning and the reduction of late root
/// moves were measured in two-sided games (docs/strength.md); the paranoid search of more
/// than two sides keeps the pruning its own figures were measured with, and there a shared
/// draw costs the root a contempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Policy {
    /// Quiet moves are ordered by what answered the moves one and two plies up too.
    pub continuation: bool,
    /// A side whose evaluation improved on its own turn before is pruned less.
    pub improving: bool,
    pub internal_reduction: bool,
    pub razoring: bool,
    /// Quiet moves whose histories keep failing are pruned near the leaves.
    pub history_pruning: bool,
    /// Late quiet root moves are reduced as moves are everywhere else.
    pub root_reductions: bool,
    /// A draw is worth `DRAW_CONTEMPT` less than nothing to the root.
    pub draw_contempt: bool,
}

impl Policy {
    pub(super) const TWO_SIDES: Policy = Policy {
        continuation: true,
        improving: true,
        internal_reduction: true,
        razoring: true,
        history_pruning: true,
        root_reductions: true,
        draw_contempt: false,
    };
    pub(super) const MANY_SIDES: Policy = Policy {
        continuation: false,
        improving: false,
        internal_reduction: false,
        razoring: false,
        history_pruning: false,
        root_reductions: false,
        draw_contempt: true,
    };

    pub(super) fn for_sides(sides: usize) -> Policy {
        if sides <= 2 { Policy::TWO_SIDES } else { Policy::MANY_SIDES }
    }
}
