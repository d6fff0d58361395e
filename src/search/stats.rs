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
    pub fn add(&mut self, o: &SearchStats) {
        self.nodes += o.nodes;
        self.qnodes += o.qnodes;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.null_tries += o.null_tries;
        self.null_cutoffs += o.null_cutoffs;
        self.lmr_reductions += o.lmr_reductions;
        self.lmr_researches += o.lmr_researches;
        self.futility_prunes += o.futility_prunes;
        self.rfp_prunes += o.rfp_prunes;
        self.razor_prunes += o.razor_prunes;
        self.lmp_prunes += o.lmp_prunes;
        self.see_prunes += o.see_prunes;
        self.check_extensions += o.check_extensions;
    }

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
