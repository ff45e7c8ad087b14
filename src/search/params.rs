//! Every tunable number of the search, in one place, so tuning touches one file.
//!
//! A normal build plays `SearchParams::DEFAULT`, a constant the code folds. A build with the
//! `tune` feature (`cargo build --release --features tune`) plays the values the tuner sets
//! through engine options named as the fields (`setoption name rfp_margin value 130`), read
//! once per search: `TUNABLES` says which fields those are, their ranges and the step the
//! tuner starts its perturbations at (`scripts/spsa.py`).

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
    /// A reduced move that beats alpha is searched again a ply deeper when its value stands
    /// more than `lmr_deeper_margin + lmr_deeper_per_ply * depth` above the best so far, and
    /// a ply shallower when it stands less than `depth` (one centipawn a ply) above it.
    pub lmr_deeper_margin: i32,
    pub lmr_deeper_per_ply: i32,
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
        lmr_deeper_margin: 50,
        lmr_deeper_per_ply: 2,
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

/// A field the tuner may set: its name (the field's and the option's), range and the SPSA
/// perturbation it ends at (`step`, in the field's units).
pub struct Tunable {
    pub name: &'static str,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// Whether the field holds a whole number (the value is rounded).
    pub integer: bool,
    get: fn(&SearchParams) -> f64,
    set: fn(&mut SearchParams, f64),
}

impl Tunable {
    /// The field's value in `params`.
    pub fn get(&self, params: &SearchParams) -> f64 {
        (self.get)(params)
    }

    /// Sets the field in `params` to `value`, brought into range (and rounded for a whole
    /// number).
    pub fn set(&self, params: &mut SearchParams, value: f64) {
        (self.set)(params, value.clamp(self.min, self.max))
    }
}

/// A field's type as the tuner sets it.
trait Tuned: Copy {
    const INTEGER: bool;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl Tuned for i32 {
    const INTEGER: bool = true;
    fn from_f64(v: f64) -> i32 {
        v.round() as i32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Tuned for usize {
    const INTEGER: bool = true;
    fn from_f64(v: f64) -> usize {
        v.round().max(0.0) as usize
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Tuned for f64 {
    const INTEGER: bool = false;
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
}

/// The integer-ness of a field, from its type.
const fn is_integer<T: Tuned>(_: fn(&SearchParams) -> T) -> bool {
    T::INTEGER
}

macro_rules! tunables {
    ($(($field:ident, $min:expr, $max:expr, $step:expr)),* $(,)?) => {
        /// The fields the tuner may set, with their ranges and steps.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($field),
            min: $min as f64,
            max: $max as f64,
            step: $step as f64,
            integer: is_integer(|p: &SearchParams| p.$field),
            get: |p| Tuned::to_f64(p.$field),
            set: |p, v| p.$field = Tuned::from_f64(v),
        }),*];
    };
}

tunables![
    (aspiration_window, 10, 100, 5),
    (aspiration_growth, 0, 40, 3),
    (rfp_depth, 3, 12, 1),
    (rfp_margin, 40, 300, 12),
    (nmp_depth, 1, 6, 1),
    (nmp_base, 1, 6, 1),
    (nmp_divisor, 2, 8, 1),
    (nmp_eval_divisor, 80, 600, 25),
    (nmp_eval_max, 0, 6, 1),
    (fp_depth, 2, 12, 1),
    (fp_base, 40, 400, 15),
    (fp_margin, 40, 300, 12),
    (lmp_depth, 2, 12, 1),
    (lmp_base, 0, 10, 1),
    (lmr_base, 0.0, 2.0, 0.1),
    (lmr_divisor, 1.0, 4.0, 0.15),
    (lmr_depth, 1, 6, 1),
    (lmr_first_moves, 0, 6, 1),
    (lmr_deeper_margin, 0, 200, 10),
    (lmr_deeper_per_ply, 0, 10, 1),
    (lmr_history_divisor, 2000, 20000, 800),
    (lmr_cut_node, 0, 3, 1),
    (lmr_tt_capture_gap, 0, 6, 1),
    (history_prune_depth, 1, 10, 1),
    (history_prune_margin, 500, 12000, 400),
    (see_prune_depth, 2, 12, 1),
    (see_capture_margin, 5, 80, 4),
    (see_quiet_margin, 15, 200, 6),
    (delta_margin, 80, 600, 20),
    (iir_depth, 2, 10, 1),
    (history_bonus_per_ply, 50, 600, 20),
    (history_bonus_offset, 0, 500, 20),
    (history_max_bonus, 500, 8000, 150),
    (check_extension_reach, 1, 4, 1),
    (tm_instability, 0.0, 4.0, 0.15),
    (tm_drop_scale, 40.0, 500.0, 15.0),
    (tm_drop_max, 1.0, 3.0, 0.08),
    (tm_single_move, 0.05, 1.0, 0.03),
    (tm_stable_depths, 1, 10, 1),
    (tm_stable_factor, 0.3, 1.0, 0.03),
    (tm_effort_share, 0.5, 1.0, 0.02),
];

/// The tunable named `name` (as engines match option names: case, spaces and underscores
/// ignored).
pub fn tunable(name: &str) -> Option<&'static Tunable> {
    let key = |s: &str| {
        s.chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let wanted = key(name);
    TUNABLES.iter().find(|t| key(t.name) == wanted)
}

/// The parameters a `tune` build plays: the defaults until the tuner sets one. Each change
/// leaks one copy of the parameters (a few hundred bytes), so that a search can hold them as
/// a plain reference with no lock.
#[cfg(feature = "tune")]
static TUNED: std::sync::RwLock<&'static SearchParams> =
    std::sync::RwLock::new(&SearchParams::DEFAULT);

/// The parameters a `tune` build plays now.
#[cfg(feature = "tune")]
pub fn tuned() -> &'static SearchParams {
    *TUNED.read().unwrap_or_else(|e| e.into_inner())
}

/// Sets one tunable in what a `tune` build plays; an error names an unknown field.
#[cfg(feature = "tune")]
pub fn set_tuned(name: &str, value: f64) -> Result<(), String> {
    let tunable = tunable(name).ok_or_else(|| format!("no tunable parameter {name}"))?;
    let mut guard = TUNED.write().unwrap_or_else(|e| e.into_inner());
    let mut params = (*guard).clone();
    tunable.set(&mut params, value);
    *guard = Box::leak(Box::new(params));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_are_distinct_fields_with_defaults_in_range() {
        let defaults = SearchParams::DEFAULT;
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(TUNABLES[..i].iter().all(|u| u.name != t.name), "{}", t.name);
            let v = t.get(&defaults);
            assert!(
                t.min <= v && v <= t.max,
                "{} = {v} outside {}..{}",
                t.name,
                t.min,
                t.max
            );
            assert!(t.step > 0.0 && t.step < t.max - t.min, "{}", t.name);
        }
    }

    #[test]
    fn setting_a_tunable_changes_that_field_only_rounded_and_clamped() {
        let mut params = SearchParams::DEFAULT;
        let rfp = tunable("RFP Margin").expect("found by option-style name");
        assert!(rfp.integer);
        rfp.set(&mut params, 131.6);
        assert_eq!(params.rfp_margin, 132);
        rfp.set(&mut params, 1e9);
        assert_eq!(params.rfp_margin, 300);
        let lmr = tunable("lmr_base").unwrap();
        assert!(!lmr.integer);
        lmr.set(&mut params, 0.9);
        assert_eq!(params.lmr_base, 0.9);
        for t in TUNABLES
            .iter()
            .filter(|t| !["rfp_margin", "lmr_base"].contains(&t.name))
        {
            assert_eq!(t.get(&params), t.get(&SearchParams::DEFAULT), "{}", t.name);
        }
        assert!(tunable("no_such_field").is_none());
    }
}
