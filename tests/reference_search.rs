//! The reference searches of `shomei::reference`, run on shogi through its `Game` adapter (Dobutsu's
//! are checked against the solved table in `dobutsu_solve.rs`): alpha-beta returns the plain
//! minimax value, iterative deepening finds the published length of tsume problems, and the
//! engine's own minimax agrees with the generic one where no leaf is a checkmate.

use shomei::reference::search::{alphabeta, minimax, search};
use shomei::reference::{Game, Status};
use shomei::rng::Rng;
use shomei::search::value::INFINITE;
use shomei::search::{search_value_with, SearchAlgorithm, SearchOptions};
use shomei::shogi::{random_game, MoveDraw, SfenMode};
use shomei::Position;

const WIN: i32 = <Position as Game>::WIN;

/// A position `plies` seeded random moves from the start or a middlegame.
fn random_position(seed: u64, plies: usize) -> Position {
    const STARTS: [&str; 2] =
        ["startpos", "lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21"];
    let mut rng = Rng::new(seed);
    let start = Position::from_sfen_mode(STARTS[rng.below(2)], SfenMode::Composed).unwrap();
    random_game(&start, &mut rng, plies, MoveDraw::Uniform).pop().expect("a game holds its start")
}

#[test]
fn alphabeta_equals_minimax_on_shogi() {
    for i in 0..60u64 {
        let pos = random_position(i + 1, (i % 30) as usize);
        let depth = 1 + (i % 2) as u32;
        let reference = minimax(&pos, depth, 0);
        let pruned = alphabeta(&pos, depth, 0, -WIN - 1, WIN + 1);
        assert_eq!(pruned, reference, "depth {depth} in {}", pos.to_sfen());
    }
}

/// Whether some position `depth` plies below `pos` (or fewer, along any line) is a checkmate:
/// there the engine's minimax evaluates a leaf that the generic one scores as mated.
fn mate_within(pos: &Position, depth: u32) -> bool {
    if pos.status() == Status::Lost {
        return true;
    }
    depth > 0 && pos.legal_moves().iter().any(|&m| mate_within(&pos.after(m), depth - 1))
}

#[test]
fn engine_minimax_agrees_with_the_generic_one() {
    let mut compared = 0;
    for i in 0..40u64 {
        let pos = random_position(1000 + i, 10 + (i % 30) as usize);
        let depth = 1 + (i % 2) as u32;
        if mate_within(&pos, depth) {
            continue;
        }
        let generic = minimax(&pos, depth, 0);
        // The generic game evaluates with the hand-written evaluation: so does the engine here.
        let hand =
            SearchOptions { algorithm: SearchAlgorithm::Minimax, network: None, ..SearchOptions::default() };
        let engine = search_value_with(&pos, depth as i32, -INFINITE, INFINITE, hand);
        assert_eq!(engine, generic, "depth {depth} in {}", pos.to_sfen());
        compared += 1;
    }
    assert!(compared >= 30, "only {compared} positions compared");
}

#[test]
fn iterative_deepening_finds_tsume_lengths() {
    let text = include_str!("data/mate_problems.txt");
    let mut solved = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let length: i32 = fields[1].parse().unwrap();
        if length > 3 {
            continue;
        }
        let pos = Position::from_sfen_mode(fields[0], SfenMode::Composed).unwrap();
        let (m, score) = search(&pos, 3).expect("the attacker has moves");
        assert_eq!(score, WIN - length, "{}", fields[0]);
        // The move leads to a position lost for the defender in length - 1 plies.
        assert_eq!(minimax(&pos.after(m), (length - 1) as u32, 0), -(WIN - (length - 1)));
        solved += 1;
    }
    assert_eq!(solved, 14, "the set has 14 mates in three");
}
