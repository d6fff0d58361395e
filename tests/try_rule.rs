//! The try rule in the search: a king next to its try square plays the try as a move (not
//! `bestmove win`), and a try a few plies away is found as a win.

use shomei::search::{BestMove, Limits, Score, SearchEvent, SearchOptions, Searcher};
use shomei::shogi::EnteringKingRule;
use shomei::{Move, Position};
use std::time::Instant;

/// The answer, its ponder move and the last exact score of a depth-limited search.
fn search(sfen: &str, rule: EnteringKingRule, depth: i32) -> (BestMove, Option<Move>, Option<Score>) {
    let p = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let options = SearchOptions { entering_king_rule: rule, ..SearchOptions::default() };
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut searcher = Searcher::new(16);
    searcher.start(p, limits, options, Instant::now(), tx);
    let mut score = None;
    for event in rx.iter() {
        match event {
            SearchEvent::Pv(info) => score = Some(info.score),
            SearchEvent::Done { best, ponder, .. } => {
                searcher.wait();
                return (best, ponder, score);
            }
            _ => {}
        }
    }
    panic!("{sfen}: no Done event");
}

fn mv(s: &str) -> BestMove {
    BestMove::Move(Move::parse_usi(s).unwrap())
}

#[test]
fn a_king_next_to_the_try_square_plays_the_try() {
    let (best, ponder, _) = search("9/4K4/9/9/9/9/9/9/4k4 b - 1", EnteringKingRule::Try, 6);
    assert_eq!((best, ponder), (mv("5b5a"), None));
    let (best, _, _) = search("9/9/9/9/9/9/9/3k5/K8 w - 1", EnteringKingRule::Try, 6);
    assert_eq!(best, mv("6h5i"));
    // Under another rule the same position is an ordinary search, and the answer is no
    // declaration.
    let (best, _, _) = search("9/4K4/9/9/9/9/9/9/4k4 b - 1", EnteringKingRule::Csa27, 4);
    assert!(matches!(best, BestMove::Move(_)), "{best:?}");
}

#[test]
fn a_try_two_moves_away_is_a_win_in_three_plies() {
    let (best, _, score) = search("9/9/4K4/9/9/9/9/9/4k4 b - 1", EnteringKingRule::Try, 6);
    let next_to_5a = ["5c4b", "5c5b", "5c6b"].map(mv);
    assert!(next_to_5a.contains(&best), "{best:?}");
    assert_eq!(score, Some(Score::Mate(3)));
    // A rook on rank a guards the square: no win is seen.
    let (_, _, score) = search("r8/9/4K4/9/9/9/9/9/4k4 b - 1", EnteringKingRule::Try, 6);
    assert!(!matches!(score, Some(Score::Mate(n)) if n > 0), "{score:?}");
}
