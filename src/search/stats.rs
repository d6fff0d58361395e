//! Counters that show what the search prunes and how well it orders moves.

/// Pruning and ordering counters of one search thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    /// Nodes visited, quiescence nodes included.
    pub nodes: u64,
    /// Quiescence nodes among them.
    pub qnodes: u64,
    /// Main-search nodes left early because a move reached beta (quiescence not counted).
    pub beta_cutoffs: u64,
    /// Cutoffs by the first move tried: a measure of move ordering.
    pub first_move_cutoffs: u64,
    /// Transposition table lookups.
    pub tt_probes: u64,
    /// Lookups that found an entry.
    pub tt_hits: u64,
    /// Nodes settled by a table entry's bound alone.
    pub tt_cutoffs: u64,
    /// Null-move searches tried.
    pub null_tries: u64,
    /// Null-move searches that failed high.
    pub null_cutoffs: u64,
    /// Late moves searched at reduced depth.
    pub lmr_reductions: u64,
    /// Reduced searches that beat alpha and were searched again at full depth.
    pub lmr_researches: u64,
    /// Moves skipped near the leaves by futility pruning (quiet moves and captures).
    pub futility_prunes: u64,
    /// Nodes cut by reverse futility pruning (static evaluation far above beta).
    pub rfp_prunes: u64,
    /// Nodes cut by razoring: static evaluation far below alpha, confirmed by quiescence.
    pub razor_prunes: u64,
    /// Quiet moves skipped by late move pruning.
    pub lmp_prunes: u64,
    /// Late quiet moves skipped because their history is too poor for the depth.
    pub history_prunes: u64,
    /// Moves skipped because they lose material in the exchange (SEE).
    pub see_prunes: u64,
    /// Checks searched a ply deeper (those that do not simply lose the checking piece).
    pub check_extensions: u64,
    /// Table moves searched a ply deeper because every other move failed well below them.
    pub singular_extensions: u64,
    /// Nodes cut because even without the table move a reduced search failed high.
    pub multi_cuts: u64,
}

impl SearchStats {
    /// Share of beta cutoffs made by the first move tried, in per cent.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        percent(self.first_move_cutoffs, self.beta_cutoffs)
    }

    /// Share of table lookups that found an entry, in per cent.
    pub fn tt_hit_rate(&self) -> f64 {
        percent(self.tt_hits, self.tt_probes)
    }
}

/// `a` as a percentage of `b`; 0 when `b` is 0.
fn percent(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}
