//! Formatting the events of whatever thinks (the search, `go mate`, the Dobutsu player) as USI
//! output lines.

use crate::dobutsu::play::{MATE as DOBUTSU_MATE, MATE_BOUND as DOBUTSU_MATE_BOUND};
use crate::dobutsu::player::{Checkmate, DobutsuEvent, TableNews};
use crate::dobutsu::{move_to_usi, Value as DobutsuValue};
use crate::mate::{MateProgress, MateResult, MateStats};
use crate::search::{Bound, IterationStats, ProgressInfo, PvInfo, Score};
use std::fmt::Write;

/// Nodes per second, as every `info` line reports it.
pub fn nps(nodes: u64, time_ms: u64) -> u64 {
    nodes * 1000 / time_ms.max(1)
}

/// A score in USI words: `cp N` or `mate N`.
pub fn score_words(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("cp {v}"),
        // Mated right now is written `mate -0` by some engines; GUIs misread it, so use -1.
        Score::Mate(0) => "mate -1".to_string(),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// `info depth .. seldepth .. [multipv k] score .. [lowerbound|upperbound] nodes .. nps .. hashfull ..
/// time .. pv ..`
pub fn pv_line(info: &PvInfo, show_multipv: bool) -> String {
    let mut s = format!("info depth {} seldepth {}", info.depth, info.seldepth.max(info.depth as usize));
    if show_multipv {
        let _ = write!(s, " multipv {}", info.multipv);
    }
    let _ = write!(s, " score {}", score_words(info.score));
    match info.bound {
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
        Bound::Exact | Bound::None => {}
    }
    let nps = nps(info.nodes, info.time_ms);
    let _ = write!(s, " nodes {} nps {nps} hashfull {} time {}", info.nodes, info.hashfull, info.time_ms);
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            let _ = write!(s, " {m}");
        }
    }
    s
}

/// The periodic `info` line without a principal variation: depth, seldepth (at least the depth),
/// nodes, nps, hashfull and time.
pub fn progress_line(p: &ProgressInfo) -> String {
    format!(
        "info depth {} seldepth {} nodes {} nps {} hashfull {} time {}",
        p.depth,
        p.seldepth.max(p.depth as usize),
        p.nodes,
        nps(p.nodes, p.time_ms),
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
         razoring={} late_move_pruning={} history_pruning={} see_pruning={} check_extensions={} singular_extensions={} multi_cuts={} ebf={:.2}",
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
        s.history_prunes,
        s.see_prunes,
        s.check_extensions,
        s.singular_extensions,
        s.multi_cuts,
        it.branching_factor
    )
}

/// A proof or disproof number, `inf` for infinity.
fn proof_number(n: u32) -> String {
    if n == u32::MAX {
        "inf".to_string()
    } else {
        n.to_string()
    }
}

/// `info nodes .. nps .. time .. hashfull .. string proof number .. disproof number ..` while a
/// `go mate` solves.
pub fn mate_progress_line(p: &MateProgress) -> String {
    format!(
        "info nodes {} nps {} time {} hashfull {} string proof number {} disproof number {}",
        p.nodes,
        nps(p.nodes, p.time_ms),
        p.time_ms,
        p.hashfull,
        proof_number(p.root_pn),
        proof_number(p.root_dn)
    )
}

/// `info nodes .. nps .. time ..` for a finished `go mate`, before its `checkmate` line.
pub fn mate_summary_line(stats: &MateStats) -> String {
    let ms = stats.time.as_millis() as u64;
    format!("info nodes {} nps {} time {}", stats.nodes, nps(stats.nodes, ms), ms)
}

/// The `checkmate` reply: the mating line, `nomate` or `timeout`.
pub fn checkmate_line(result: &MateResult) -> String {
    match result {
        MateResult::Mate(line) => {
            let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            format!("checkmate {}", moves.join(" "))
        }
        MateResult::NoMate => "checkmate nomate".to_string(),
        MateResult::Timeout => "checkmate timeout".to_string(),
    }
}

/// The USI score of a Dobutsu table value for the side to move.
fn dobutsu_value_words(v: DobutsuValue) -> String {
    match v {
        DobutsuValue::Win(d) => format!("mate {d}"),
        DobutsuValue::Loss(d) => format!("mate -{d}"),
        DobutsuValue::Draw => "cp 0".to_string(),
    }
}

/// The USI score of a Dobutsu search score (see `dobutsu::play`).
fn dobutsu_score_words(s: i32) -> String {
    if s >= DOBUTSU_MATE_BOUND {
        format!("mate {}", DOBUTSU_MATE - s)
    } else if s <= -DOBUTSU_MATE_BOUND {
        format!("mate -{}", DOBUTSU_MATE + s)
    } else {
        format!("cp {s}")
    }
}

/// The line a Dobutsu event is written as: `info ...`, `bestmove ...` or `checkmate ...`.
pub fn dobutsu_line(event: &DobutsuEvent) -> String {
    match event {
        DobutsuEvent::Exact { depth, time_ms, value, mv } => format!(
            "info depth {depth} nodes 1 time {time_ms} score {} pv {}",
            dobutsu_value_words(*value),
            move_to_usi(*mv)
        ),
        DobutsuEvent::Iteration { depth, nodes, time_ms, score, mv } => format!(
            "info depth {depth} nodes {nodes} nps {} time {time_ms} score {} pv {}",
            nodes * 1000 / (*time_ms).max(1),
            dobutsu_score_words(*score),
            move_to_usi(*mv)
        ),
        DobutsuEvent::BestMove(Some(m)) => format!("bestmove {}", move_to_usi(*m)),
        DobutsuEvent::BestMove(None) => "bestmove resign".to_string(),
        DobutsuEvent::Checkmate(Checkmate::Line(line)) => {
            let moves: Vec<String> = line.iter().map(|&m| move_to_usi(m)).collect();
            format!("checkmate {}", moves.join(" "))
        }
        DobutsuEvent::Checkmate(Checkmate::NoMate) => "checkmate nomate".to_string(),
        DobutsuEvent::Checkmate(Checkmate::Timeout) => "checkmate timeout".to_string(),
    }
}

/// The line that says which Dobutsu table is in use, or why none is.
pub fn dobutsu_table_line(news: &TableNews) -> String {
    match news {
        TableNews::Loaded { path, unchecked } => {
            let warning = if *unchecked {
                "; warning: a table of format 1 has no checksum, so damage to it cannot be detected \
                 (`shomei dobutsu solve` writes format 2)"
            } else {
                ""
            };
            format!("info string Dobutsu table {path} loaded: perfect play{warning}")
        }
        TableNews::NoneAtDefault { path } => {
            format!("info string no Dobutsu table at {path}: playing by search, and by the embedded book as the second player")
        }
        TableNews::Failed { path, error } => {
            format!("info string error: cannot read Dobutsu table {path}: {error}; keeping the previous one")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_speeds_in_usi_words() {
        assert_eq!(score_words(Score::Cp(77)), "cp 77");
        assert_eq!(score_words(Score::Mate(3)), "mate 3");
        assert_eq!(score_words(Score::Mate(-4)), "mate -4");
        assert_eq!(score_words(Score::Mate(0)), "mate -1");
        assert_eq!(nps(5000, 0), 5_000_000);
        assert_eq!(nps(5000, 2000), 2500);
    }
}
