//! What the search reports, and when: `pv_interval_ms` lets lines out before an iteration ends
//! (the best so far as a lower bound, aspiration fail-high / fail-low lines),
//! `output_fail_lh_pv` switches the fail lines off, and `consideration_mode` shows a line's last
//! complete version instead of a bound. None of them changes the search itself.

use shomei::search::{Bound, Limits, PvInfo, SearchEvent, SearchOptions, Searcher};
use shomei::Position;
use std::time::Instant;

/// Middlegames from the bench set, whose iterations change their minds.
const POSITIONS: &[&str] = &[
    "lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21",
    "ln1gkg3/1r1s1sb2/ppppp4/5+B1p1/5nR2/2P1P2P1/PP1P1P2L/3S1S3/LN1GKG1N1 w L4Pp 46",
    "ln2k3+L/1r1sgg3/ppppp4/6+Bp1/5N2R/4P1pP1/P1NP1P3/1+b1S1S3/L2GKG2+p w SN3Pl2p 66",
    "4kg2l/2sg1s1b1/l1pp1pppn/8p/5+r3/4p2PP/PPPPPPP2/1BGSG2R1/1N1KS2NL w Nl2p 46",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
];

const DEPTH: i32 = 9;

/// What one search reported.
#[derive(Debug)]
struct Report {
    /// Every `Pv` event, in order, with the iteration running when it came (the one its
    /// `Stats` event then closes).
    lines: Vec<(i32, PvInfo)>,
    /// Completed iterations (`Stats` events).
    iterations: usize,
    nodes: u64,
    best: String,
}

impl Report {
    fn count(&self, bound: Bound) -> usize {
        self.lines.iter().filter(|(_, l)| l.bound == bound).count()
    }

    /// The lines sent before their iteration's end: all but the last line of each iteration
    /// (with MultiPV 1, the last is the iteration's own report).
    fn early(&self) -> Vec<&(i32, PvInfo)> {
        let mut early = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            if self.lines.get(i + 1).is_some_and(|next| next.0 == line.0) {
                early.push(line);
            }
        }
        early
    }

    /// The report ending iteration `depth`.
    fn iteration_end(&self, depth: i32) -> Option<&PvInfo> {
        self.lines.iter().rev().find(|(d, _)| *d == depth).map(|(_, l)| l)
    }
}

/// Searches `sfen` to `DEPTH` on one thread: a depth limit, so that every iteration completes
/// and the tree is the same whatever is reported.
fn search(sfen: &str, options: SearchOptions) -> Report {
    let p = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut searcher = Searcher::new(16);
    searcher.start(p.clone(), limits, options, Instant::now(), tx);
    let (mut lines, mut iterations) = (Vec::new(), 0);
    for event in rx.iter() {
        match event {
            SearchEvent::Pv(info) => {
                assert!(info.pv.first().is_some_and(|&m| p.is_legal(m)), "{sfen}: {info:?}");
                lines.push((iterations as i32 + 1, info));
            }
            SearchEvent::Stats(_) => iterations += 1,
            SearchEvent::Done { best, nodes, .. } => {
                searcher.wait();
                return Report { lines, iterations, nodes, best: format!("{best:?}") };
            }
            _ => {}
        }
    }
    panic!("{sfen}: no Done event");
}

fn options(pv_interval_ms: u64, output_fail_lh_pv: bool, consideration_mode: bool) -> SearchOptions {
    SearchOptions { pv_interval_ms, output_fail_lh_pv, consideration_mode, ..SearchOptions::default() }
}

/// Options that let every line out, with the fail lines or not.
fn every_update(output_fail_lh_pv: bool) -> SearchOptions {
    options(0, output_fail_lh_pv, false)
}

#[test]
fn the_end_of_each_iteration_is_reported_exactly_once() {
    for sfen in POSITIONS {
        for opts in [options(1_000_000, true, false), every_update(true), options(0, true, true)] {
            let r = search(sfen, opts);
            assert_eq!(r.iterations, DEPTH as usize, "{sfen}");
            for d in 1..=DEPTH {
                let end = r.iteration_end(d).unwrap_or_else(|| panic!("{sfen}: no line in iteration {d}"));
                assert_eq!((end.depth, end.bound, end.multipv), (d, Bound::Exact, 1), "{sfen}");
            }
        }
    }
}

#[test]
fn a_long_interval_holds_back_every_line_before_an_iteration_ends() {
    for sfen in POSITIONS {
        let r = search(sfen, options(1_000_000, true, false));
        assert_eq!(r.lines.len(), r.iterations, "{sfen}: {:?}", r.early());
    }
}

#[test]
fn a_zero_interval_reports_the_best_line_so_far_as_a_lower_bound() {
    let mut early = 0;
    for sfen in POSITIONS {
        let r = search(sfen, every_update(false));
        assert_eq!(r.count(Bound::Upper), 0, "{sfen}: fail-low lines are off");
        for (d, line) in r.early() {
            assert_eq!((line.depth, line.bound, line.multipv), (*d, Bound::Lower, 1), "{sfen}");
        }
        early += r.early().len();
    }
    assert!(early > 2 * POSITIONS.len(), "{early} lines before iterations ended");
}

#[test]
fn fail_high_and_fail_low_lines_come_only_when_asked_for() {
    let (mut fail_lows, mut extra) = (0, 0);
    for sfen in POSITIONS {
        let on = search(sfen, every_update(true));
        let off = search(sfen, every_update(false));
        // The same iterations and mid-iteration lines; `on` adds the fail lines, all bounds.
        assert_eq!(on.count(Bound::Exact), off.count(Bound::Exact), "{sfen}");
        assert_eq!(off.count(Bound::Upper), 0, "{sfen}");
        assert!(on.count(Bound::Lower) >= off.count(Bound::Lower), "{sfen}");
        fail_lows += on.count(Bound::Upper);
        extra += on.lines.len() - off.lines.len();
    }
    assert!(fail_lows > 0 && extra > fail_lows, "{fail_lows} fail lows, {extra} fail lines in all");
}

#[test]
fn consideration_mode_shows_each_moves_last_complete_line() {
    let mut early = 0;
    for sfen in POSITIONS {
        let r = search(sfen, options(0, true, true));
        assert_eq!(r.lines.len(), r.count(Bound::Exact), "{sfen}: a bound was shown");
        for (d, line) in r.early() {
            // The previous iteration's line: the same as it reported when that move led it.
            assert_eq!(line.depth, d - 1, "{sfen}");
            let previous = r.iteration_end(d - 1).expect("an earlier iteration");
            if previous.pv[0] == line.pv[0] {
                assert_eq!((&line.pv, line.score), (&previous.pv, previous.score), "{sfen}");
            }
        }
        early += r.early().len();
    }
    assert!(early > 2 * POSITIONS.len(), "{early} lines before iterations ended");
}

#[test]
fn multipv_reports_the_line_being_searched_under_its_number() {
    let mut second = 0;
    for sfen in POSITIONS {
        let r = search(sfen, SearchOptions { multipv: 2, ..every_update(false) });
        assert_eq!(r.count(Bound::Upper), 0, "{sfen}");
        for (_, line) in &r.lines {
            assert!((1..=2).contains(&line.multipv), "{sfen}: {line:?}");
        }
        second += r.lines.iter().filter(|(_, l)| l.bound == Bound::Lower && l.multipv == 2).count();
    }
    assert!(second > 0, "no line 2 was reported before its iteration ended");
}

#[test]
fn what_is_reported_does_not_change_the_search() {
    for sfen in POSITIONS {
        let base = search(sfen, SearchOptions::default());
        for opts in [
            every_update(true),
            every_update(false),
            options(0, true, true),
            options(1_000_000, false, false),
        ] {
            let r = search(sfen, opts.clone());
            assert_eq!((r.nodes, &r.best), (base.nodes, &base.best), "{sfen}: {opts:?}");
        }
    }
}
