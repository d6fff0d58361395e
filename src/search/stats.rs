//! Counters that show what the search prunes and how well it orders moves.

/// Pruning and ordering counters of one search thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub nodes: u64,
    pub qnodes: u64,
    pub beta_cutoffs: u64,
    pub first_move_cutoffs: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub null_tries: u64,
    pub null_cutoffs: u64,
    pub lmr_reductions: u64,
    pub lmr_researches: u64,
    pub futility_prunes: u64,
    pub rfp_prunes: u64,
    pub razor_prunes: u64,
    pub lmp_prunes: u64,
    pub see_prunes: u64,
    pub check_extensions: u64,
}

impl SearchStats {
    /// Share of beta cutoffs made by the first move tried, in per cent.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        percent(self.first_move_cutoffs, self.beta_cutoffs)
    }

    pub fn tt_hit_rate(&self) -> f64 {
        percent(self.tt_hits, self.tt_probes)
    }
}

fn percent(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}
