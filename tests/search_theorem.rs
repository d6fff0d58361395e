//! The alpha-beta theorem, checked on the real search: with ordering but no pruning,
//! `AlphaBeta` returns exactly the plain `Minimax` value, and a fail-soft search in any window
//! (a, b) satisfies v <= a => v' <= a, a < v < b => v' = v, v >= b => v' >= b.

use proptest::prelude::*;
use shomei::rng::Rng;
use shomei::search::value::{Value, INFINITE};
use shomei::search::{search_value, SearchAlgorithm};
use shomei::shogi::{random_game, MoveDraw, SfenMode};
use shomei::Position;

const STARTS: [&str; 4] = [
    "startpos",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21",
];

/// A position reached from one of the starts by `plies` seeded random legal moves.
fn random_position(seed: u64, plies: usize) -> Position {
    let mut rng = Rng::new(seed);
    let start = STARTS[rng.below(STARTS.len())];
    let start = Position::from_sfen_mode(start, SfenMode::Composed).unwrap();
    random_game(&start, &mut rng, plies, MoveDraw::Uniform).pop().expect("a game holds its start")
}

/// Keeps depth-3 trees small enough for a test: fewer root moves, deeper search.
fn depth_for(pos: &Position, wanted: i32) -> i32 {
    let n = pos.legal_moves().len();
    if wanted == 3 && n > 60 {
        2
    } else {
        wanted
    }
}

#[test]
fn alphabeta_equals_minimax_on_300_positions() {
    let mut checked = [0usize; 4];
    for i in 0..300u64 {
        let pos = random_position(i + 1, (i % 40) as usize);
        let depth = depth_for(&pos, 1 + (i % 3) as i32);
        let minimax = search_value(&pos, depth, SearchAlgorithm::Minimax, -INFINITE, INFINITE);
        let alphabeta = search_value(&pos, depth, SearchAlgorithm::AlphaBeta, -INFINITE, INFINITE);
        assert_eq!(alphabeta, minimax, "depth {depth} in {}", pos.to_sfen());
        checked[depth as usize] += 1;
    }
    assert_eq!(checked.iter().sum::<usize>(), 300);
    assert!(checked[1] > 50 && checked[2] > 50 && checked[3] > 50, "{checked:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn fail_soft_window_bounds(seed in 1u64..1_000_000, plies in 0usize..40, depth in 1i32..=2,
                               a in -800i32..800, width in 1i32..600) {
        let pos = random_position(seed, plies);
        let b: Value = a + width;
        let v = search_value(&pos, depth, SearchAlgorithm::Minimax, -INFINITE, INFINITE);
        let w = search_value(&pos, depth, SearchAlgorithm::AlphaBeta, a, b);
        if v <= a {
            prop_assert!(w <= a, "v={v} w={w} window ({a},{b})");
        } else if v >= b {
            prop_assert!(w >= b, "v={v} w={w} window ({a},{b})");
        } else {
            prop_assert_eq!(w, v);
        }
    }
}
