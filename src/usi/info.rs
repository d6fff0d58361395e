//! Formatting search events as USI output lines.

use crate::search::{IterationStats, ProgressInfo, PvInfo};
use std::fmt::Write;

/// `info depth .. seldepth .. [multipv k] score .. [lowerbound|upperbound] nodes .. nps .. hashfull .. time .. pv ..`
pub fn pv_line(info: &PvInfo, show_multipv: bool) -> String {
    let mut s = format!("info depth {} seldepth {}", info.depth, info.seldepth.max(info.depth as usize));
    if show_multipv {
        let _ = write!(s, " multipv {}", info.multipv);
    }
    let _ = write!(s, " score {}", info.score);
    match info.lower_bound {
        Some(true) => s.push_str(" lowerbound"),
        Some(false) => s.push_str(" upperbound"),
        None => {}
    }
    let _ =
        write!(s, " nodes {} nps {} hashfull {} time {}", info.nodes, info.nps, info.hashfull, info.time_ms);
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            let _ = write!(s, " {m}");
        }
    }
    s
}

pub fn progress_line(p: &ProgressInfo) -> String {
    format!(
        "info depth {} seldepth {} nodes {} nps {} hashfull {} time {}",
        p.depth,
        p.seldepth.max(p.depth as usize),
        p.nodes,
        p.nps,
        p.hashfull,
        p.time_ms
    )
}

/// `info string stats key=value ...` after each completed iteration.
pub fn stats_line(it: &IterationStats) -> String {
    let s = &it.stats;
    format!(
        "info string stats depth={} nodes={} qnodes={} cutoffs={} first_move_cutoffs={:.1}% tt_hits={:.1}% \
         tt_cutoffs={} null_tries={} null_cutoffs={} lmr={} lmr_researches={} futility={} reverse_futility={} \
         razoring={} late_move_pruning={} see_pruning={} check_extensions={} ebf={:.2}",
        it.depth,
        s.nodes,
        s.qnodes,
        s.beta_cutoffs,
        s.first_move_cutoff_rate(),
        s.tt_hit_rate(),
        s.tt_cutoffs,
        s.null_tries,
        s.null_cutoffs,
        s.lmr_reductions,
        s.lmr_researches,
        s.futility_prunes,
        s.rfp_prunes,
        s.razor_prunes,
        s.lmp_prunes,
        s.see_prunes,
        s.check_extensions,
        it.branching_factor
    )
}
