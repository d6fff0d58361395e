//! The search with a network: it evaluates through its accumulators exactly as from scratch
//! (same tree, node for node), it is reproducible (no state left from an earlier search), its
//! minimax is negamax over the network's evaluation, and its answers are legal.

use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::eval::nnue::{evaluate_from_scratch, random_network, AnyNetwork, Network};
use shomei::eval::params::EVAL_LIMIT;
use shomei::search::value::{mated_in, INFINITE};
use shomei::search::{
    search_value_with, BestMove, Limits, Score, SearchAlgorithm, SearchEvent, SearchOptions, Searcher,
};
use shomei::Position;
use std::sync::Arc;
use std::time::Instant;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Middlegames with pieces in hand, promoted pieces and kings on the move.
const POSITIONS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21",
    "ln1gkg3/1r1s1sb2/ppppp4/5+B1p1/5nR2/2P1P2P1/PP1P1P2L/3S1S3/LN1GKG1N1 w L4Pp 46",
    "ln2k3+L/1r1sgg3/ppppp4/6+Bp1/5N2R/4P1pP1/P1NP1P3/1+b1S1S3/L2GKG2+p w SN3Pl2p 66",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
];

/// What a search answered: the move, the last exact score, the nodes.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    best: BestMove,
    score: Option<Score>,
    pv: Vec<String>,
    nodes: u64,
}

fn search(searcher: &mut Searcher, p: &Position, depth: i32, options: &SearchOptions) -> Answer {
    let (tx, rx) = crossbeam_channel::unbounded();
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    searcher.start(p.clone(), limits, options.clone(), Instant::now(), tx);
    let (mut score, mut pv) = (None, Vec::new());
    for event in rx.iter() {
        match event {
            SearchEvent::Pv(info) => {
                score = Some(info.score);
                pv = info.pv.iter().map(|m| m.to_string()).collect();
            }
            SearchEvent::Done { best, nodes, .. } => {
                searcher.wait();
                return Answer { best, score, pv, nodes };
            }
            _ => {}
        }
    }
    panic!("the search ended without an answer");
}

fn with_net(net: &Arc<Network>) -> SearchOptions {
    with_any(AnyNetwork::Shomei(Arc::clone(net)))
}

fn with_any(net: AnyNetwork) -> SearchOptions {
    SearchOptions { network: Some(net), ..SearchOptions::default() }
}

/// The incremental and the from-scratch searches of `net` give the same answers, node for node.
fn assert_same_trees(net: AnyNetwork, depth: i32) {
    let incremental = with_any(net.clone());
    let scratch = SearchOptions { incremental: false, ..with_any(net) };
    for sfen in POSITIONS {
        let p = pos(sfen);
        let a = search(&mut Searcher::new(16), &p, depth, &incremental);
        let b = search(&mut Searcher::new(16), &p, depth, &scratch);
        assert_eq!(a, b, "{sfen}");
        assert!(a.nodes > 1000, "{sfen}: {a:?}");
    }
}

#[test]
fn the_incremental_search_walks_the_same_tree_as_the_one_evaluating_from_scratch() {
    assert_same_trees(AnyNetwork::Shomei(Arc::new(random_network(21))), 7);
}

#[test]
fn the_incremental_search_with_a_halfkp_net_walks_the_same_tree_as_from_scratch() {
    let net = AnyHalfKp::random(Arch::K256x2_32_32, 24);
    assert_same_trees(AnyNetwork::HalfKp { net, fv_scale: 16 }, 6);
}

#[test]
fn a_search_with_a_network_is_reproducible_and_answers_a_legal_move() {
    let net = Arc::new(random_network(22));
    let options = with_net(&net);
    let mut searcher = Searcher::new(16);
    for (i, sfen) in POSITIONS.iter().enumerate() {
        let p = pos(sfen);
        let first = search(&mut Searcher::new(16), &p, 6, &options);
        // The same searcher after another search, its tables cleared: the same answer.
        let other = pos(POSITIONS[(i + 1) % POSITIONS.len()]);
        search(&mut searcher, &other, 5, &options);
        searcher.clear();
        let again = search(&mut searcher, &p, 6, &options);
        assert_eq!(first, again, "{sfen}");
        match first.best {
            BestMove::Move(m) => assert!(p.is_legal(m), "{sfen}: {m}"),
            other => panic!("{sfen}: {other:?}"),
        }
    }
}

#[test]
fn the_network_is_what_the_search_evaluates_with() {
    // Two different nets, and the hand-written evaluation, search different trees.
    let p = pos(POSITIONS[1]);
    let hand = search(&mut Searcher::new(16), &p, 6, &SearchOptions { network: None, ..Default::default() });
    let a = search(&mut Searcher::new(16), &p, 6, &with_net(&Arc::new(random_network(1))));
    let b = search(&mut Searcher::new(16), &p, 6, &with_net(&Arc::new(random_network(2))));
    assert_ne!(hand.nodes, a.nodes);
    assert_ne!(a.nodes, b.nodes);
}

/// Plain negamax over the legal moves with the network's evaluation (bounded as the search
/// bounds it) at the leaves.
fn negamax(p: &mut Position, net: &Network, depth: i32, ply: usize) -> i32 {
    if depth == 0 {
        return evaluate_from_scratch(net, p).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    }
    let moves = p.legal_moves();
    if moves.is_empty() {
        return mated_in(ply);
    }
    let mut best = -INFINITE;
    for &m in moves.iter() {
        p.do_move(m);
        best = best.max(-negamax(p, net, depth - 1, ply + 1));
        p.undo_move();
    }
    best
}

#[test]
fn minimax_and_alpha_beta_with_a_network_agree_with_negamax_over_its_evaluation() {
    let net = Arc::new(random_network(23));
    for sfen in POSITIONS {
        let mut p = pos(sfen);
        let reference = negamax(&mut p, &net, 2, 0);
        let options = |algorithm| SearchOptions { algorithm, ..with_net(&net) };
        let minimax = search_value_with(&p, 2, -INFINITE, INFINITE, options(SearchAlgorithm::Minimax));
        assert_eq!(minimax, reference, "{sfen}");
        let deeper = search_value_with(&p, 3, -INFINITE, INFINITE, options(SearchAlgorithm::Minimax));
        let alphabeta = search_value_with(&p, 3, -INFINITE, INFINITE, options(SearchAlgorithm::AlphaBeta));
        assert_eq!(alphabeta, deeper, "{sfen}");
    }
}

/// The search's evaluations run from a copy compiled for AVX2 where the processor has it, and
/// from the portable loops with `SHOMEI_NO_AVX2` set: the two give the same tree, position by
/// position (on a processor without AVX2 both runs take the portable loops).
#[test]
fn the_avx2_and_portable_evaluations_search_the_same_tree() {
    let bench = |portable: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_shomei"));
        command.args(["bench", "7"]);
        if portable {
            command.env("SHOMEI_NO_AVX2", "1");
        } else {
            command.env_remove("SHOMEI_NO_AVX2");
        }
        let out = command.output().expect("shomei bench runs");
        assert!(out.status.success(), "shomei bench failed: {out:?}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let lines: Vec<String> =
            text.lines().filter(|l| l.starts_with("position")).map(String::from).collect();
        assert!(lines.len() >= 20, "bench printed too few positions:\n{text}");
        lines
    };
    assert_eq!(bench(false), bench(true));
}
