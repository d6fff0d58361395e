//! Search claims a user can see through the real binary: SearchAlgorithm, MultiPV and bench.
//!
//! Timeouts are generous because the machine is shared; no test asserts how fast the engine is.
//! Latencies worth knowing are printed to stderr (`--nocapture` shows them).

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{run_command, Engine, SEARCH};
use common::usi_lines::{
    assert_legal, assert_legal_sequence, bench_numbers, is_bestmove, parse_bestmove, pv_infos, PvInfo,
};

#[test]
fn alphabeta_and_minimax_agree_on_the_score_and_minimax_searches_more_nodes() {
    let positions = [
        "startpos",
        "startpos moves 7g7f 3c3d",
        "sfen lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21",
    ];
    let mut e = Engine::spawn();
    for args in positions {
        e.send(&format!("position {args}"));
        let mut finals = Vec::new();
        for algorithm in ["AlphaBeta", "Minimax", "Full"] {
            e.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
            e.send("go depth 3");
            let lines = e.collect_until(is_bestmove, SEARCH);
            let (best, _) = parse_bestmove(&e, lines.last().unwrap());
            assert_legal(&e, args, &best);
            let last = pv_infos(&e, &lines).into_iter().rfind(|i| !i.bound && i.depth == 3);
            let Some(last) = last else { e.fail(&format!("{algorithm}: no depth 3 info line")) };
            finals.push((algorithm, last));
        }
        let (ab, mm) = (&finals[0].1, &finals[1].1);
        eprintln!(
            "{args}: depth 3 AlphaBeta {:?} {} nodes, Minimax {:?} {} nodes, Full {:?} {} nodes",
            ab.score, ab.nodes, mm.score, mm.nodes, finals[2].1.score, finals[2].1.nodes
        );
        if ab.score != mm.score {
            e.fail(&format!("{args}: AlphaBeta score {:?} != Minimax score {:?}", ab.score, mm.score));
        }
        if mm.nodes <= ab.nodes {
            e.fail(&format!("{args}: Minimax searched {} nodes, AlphaBeta {}", mm.nodes, ab.nodes));
        }
    }
    e.quit();
}

#[test]
fn multipv_3_reports_three_lines_per_depth_with_non_increasing_scores() {
    let mut e = Engine::spawn();
    let args = "startpos moves 7g7f 3c3d";
    e.send("setoption name MultiPV value 3");
    e.send(&format!("position {args}"));
    e.send("go depth 5");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let (best, _) = parse_bestmove(&e, lines.last().unwrap());
    assert_legal(&e, args, &best);
    let infos: Vec<PvInfo> = pv_infos(&e, &lines).into_iter().filter(|i| !i.bound).collect();
    for depth in 1..=5 {
        let at: Vec<&PvInfo> = infos.iter().filter(|i| i.depth == depth).collect();
        let k: Vec<Option<u32>> = at.iter().map(|i| i.multipv).collect();
        if k != [Some(1), Some(2), Some(3)] {
            e.fail(&format!("depth {depth}: multipv fields {k:?}, expected 1, 2, 3"));
        }
        if at.windows(2).any(|w| w[0].score.rank() < w[1].score.rank()) {
            e.fail(&format!("depth {depth}: multipv scores increase"));
        }
        let firsts: Vec<&String> = at.iter().map(|i| &i.pv[0]).collect();
        if firsts[0] == firsts[1] || firsts[1] == firsts[2] || firsts[0] == firsts[2] {
            e.fail(&format!("depth {depth}: multipv lines share a first move {firsts:?}"));
        }
        for i in &at {
            assert_legal_sequence(&e, args, &i.pv);
        }
    }
    if infos.iter().rfind(|i| i.multipv == Some(1)).map(|i| &i.pv[0]) != Some(&best) {
        e.fail("the bestmove is not the first move of the last multipv 1 line");
    }
    e.quit();
}

#[test]
fn bench_prints_nodes_and_speed_with_a_reproducible_node_count() {
    // The USI `bench` command searches to depth 9 and takes minutes on a shared machine, so the
    // reproducibility is checked through the command line at a small depth.
    let first = run_command(&["bench", "5"], SEARCH);
    let second = run_command(&["bench", "5"], SEARCH);
    let (Some((n1, nps1)), Some((n2, _))) = (bench_numbers(&first), bench_numbers(&second)) else {
        panic!("bench output lacks 'Nodes searched:' or 'Nodes/second:':\n{first}\n---\n{second}");
    };
    assert!(n1 > 0 && nps1 > 0, "bench reported nothing:\n{first}");
    assert_eq!(n1, n2, "bench node counts differ between runs:\n{first}\n---\n{second}");
    let shallower = run_command(&["bench", "3"], SEARCH);
    let (n3, _) = bench_numbers(&shallower).expect("bench 3 reports its numbers");
    assert!(n3 < n1, "bench 3 searched {n3} nodes, bench 5 {n1}");
}
