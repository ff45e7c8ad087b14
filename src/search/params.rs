//! Every tunable number of the search, in one place, so tuning touches one file.

/// Search parameters. `SearchParams::default()` is what the engine plays with.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Half-width of the first aspiration window, in centipawns, and what a failed window
    /// grows by (besides half of itself).
    pub aspiration_window: i32,
    pub aspiration_growth: i32,
    /// Reverse futility: the largest depth, and the margin per ply.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Null move: the smallest depth, the base reduction and one more ply per this many.
    pub nmp_depth: i32,
    pub nmp_base: i32,
    pub nmp_divisor: i32,
    /// Null move: one more ply of reduction per this much the evaluation stands above beta
    /// (at most `nmp_eval_max`).
    pub nmp_eval_divisor: i32,
    pub nmp_eval_max: i32,
    /// Futility pruning of quiet moves: the largest depth, the base and per-ply margin.
    pub fp_depth: i32,
    pub fp_base: i32,
    pub fp_margin: i32,
    /// Late-move pruning: quiet moves searched at depth d are at most `lmp_base + d * d`.
    pub lmp_depth: i32,
    pub lmp_base: i32,
    /// Late-move reductions: `base + ln(depth) * ln(moves) / divisor` plies, from this depth
    /// on, after this many moves (one more at PV nodes); history adjusts by one ply per
    /// `lmr_history_divisor`.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    pub lmr_depth: i32,
    pub lmr_first_moves: usize,
    pub lmr_history_divisor: i32,
    /// Late-move reductions: this many plies more at an expected cut node.
    pub lmr_cut_node: i32,
    /// Late-move reductions: one ply more where the hash move is a capture from an entry
    /// searched at most this many plies shallower than the node.
    pub lmr_tt_capture_gap: i32,
    /// History pruning: quiet moves whose history is below minus the margin per ply are
    /// skipped up to this depth.
    pub history_prune_depth: i32,
    pub history_prune_margin: i32,
    /// SEE pruning up to this depth; for captures the margin per ply squared.
    pub see_prune_depth: i32,
    pub see_capture_margin: i32,
    /// SEE pruning of quiet moves: the margin per ply.
    pub see_quiet_margin: i32,
    /// Quiescence delta pruning margin.
    pub delta_margin: i32,
    /// Internal iterative reduction: the smallest depth.
    pub iir_depth: i32,
    /// History bonus for a cutoff at depth d: `per_ply * d - offset`, at most `max` (of the
    /// tables' range of ±16,384).
    pub history_bonus_per_ply: i32,
    pub history_bonus_offset: i32,
    pub history_max_bonus: i32,
    /// Checks are extended while the line is shorter than this many times the root depth.
    pub check_extension_reach: usize,
    /// Lazy SMP: nodes this close to the root take part in the breadcrumbs (another thread
    /// in the same node: late moves reduced one ply more; another thread in a move's child:
    /// the move put off).
    pub breadcrumb_plies: usize,
    /// Time management: extra time per recent best-move change, the score drop (cp) that
    /// earns one more soft limit and the most it can earn, and the share of the soft limit
    /// used when only one move is legal.
    pub tm_instability: f64,
    pub tm_drop_scale: f64,
    pub tm_drop_max: f64,
    pub tm_single_move: f64,
    /// Time management: after this many iterations with the same best move the soft limit
    /// is scaled by `tm_stable_factor`; when the best move took at least `tm_effort_share`
    /// of the nodes the search stops at half the (scaled) soft limit.
    pub tm_stable_depths: i32,
    pub tm_stable_factor: f64,
    pub tm_effort_share: f64,
}

impl SearchParams {
    /// The weights the engine plays with: a constant, so that every use folds into the code
    /// (a division by a power of two becomes a shift, a margin an immediate).
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_window: 35,
        aspiration_growth: 5,
        rfp_depth: 7,
        rfp_margin: 125,
        nmp_depth: 3,
        nmp_base: 3,
        nmp_divisor: 4,
        nmp_eval_divisor: 280,
        nmp_eval_max: 3,
        fp_depth: 6,
        fp_base: 170,
        fp_margin: 125,
        lmp_depth: 7,
        lmp_base: 3,
        lmr_base: 0.75,
        lmr_divisor: 2.25,
        lmr_depth: 3,
        lmr_first_moves: 2,
        lmr_history_divisor: 8192,
        lmr_cut_node: 1,
        lmr_tt_capture_gap: 2,
        history_prune_depth: 4,
        history_prune_margin: 4000,
        see_prune_depth: 6,
        see_capture_margin: 25,
        see_quiet_margin: 60,
        delta_margin: 280,
        iir_depth: 4,
        history_bonus_per_ply: 250,
        history_bonus_offset: 150,
        history_max_bonus: 2000,
        check_extension_reach: 2,
        breadcrumb_plies: 8,
        tm_instability: 1.5,
        tm_drop_scale: 150.0,
        tm_drop_max: 1.7,
        tm_single_move: 0.3,
        tm_stable_depths: 4,
        tm_stable_factor: 0.7,
        tm_effort_share: 0.85,
    };
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}
