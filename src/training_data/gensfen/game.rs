//! One self-play game: random opening moves, then the engine's own search at a fixed depth or
//! node count for both sides, and the positions worth learning from, labelled with the result.

use super::GameConfig;
use crate::rng::{splitmix64, Rng};
use crate::search::value::MATE;
use crate::search::{BestMove, Bound, Limits, Score, SearchEvent, SearchOptions, Searcher, Value};
use crate::shogi::{Declaration, EnteringKingRule, Sennichite};
use crate::training_data::record::PackedSfenValue;
use crate::types::{Color, Move};
use crate::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move had no legal move.
    Mate,
    /// A search scored the position beyond the evaluation limit.
    Adjudicated,
    /// The entering-king declaration (27-point rule) was open to the side to move.
    Declaration,
    /// The fourth occurrence of a position, not by perpetual check.
    Repetition,
    /// A repetition in which one side gave check with every move: that side loses.
    PerpetualCheck,
    /// The ply limit was passed.
    MaxPly,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The kept positions, in the order played, their results filled in.
    pub records: Vec<PackedSfenValue>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub ending: Ending,
    /// Moves played, random ones included.
    pub plies: u32,
    /// Positions searched (kept or not): what the game cost, beside what it gave.
    pub searched: u32,
    /// Nodes of all its searches.
    pub nodes: u64,
}

/// The random number generator of game `index` under `seed`: a game's random moves depend on
/// these two numbers only, not on the thread that plays it or the games before it.
pub fn game_rng(seed: u64, index: u64) -> Rng {
    let (_, seed_mix) = splitmix64(seed);
    let (_, state) = splitmix64(seed_mix ^ index);
    Rng::new(state)
}

/// Plays game `index`. Everything in it follows from `config` and `index`: the searcher's table
/// and histories are cleared first, and the search is single-threaded with fixed limits.
pub fn play_game(searcher: &mut Searcher, config: &GameConfig, index: u64) -> Game {
    play_game_until(searcher, config, index, &AtomicBool::new(false)).expect("never stopped")
}

/// `play_game`, abandoned (`None`) as soon as `stop` is set.
pub(crate) fn play_game_until(
    searcher: &mut Searcher,
    config: &GameConfig,
    index: u64,
    stop: &AtomicBool,
) -> Option<Game> {
    searcher.clear();
    let mut rng = game_rng(config.seed, index);
    let (lo, hi) = config.random_plies;
    let random_plies = lo + rng.below((hi - lo + 1) as usize) as u32;
    let mut pos = Position::startpos();
    // Kept positions and their sides to move; the results are known at the end.
    let mut kept: Vec<(PackedSfenValue, Color)> = Vec::new();
    let (mut searched, mut nodes) = (0u32, 0u64);
    let (winner, ending) = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(end) = game_over(&pos, config.max_ply) {
            break end;
        }
        let us = pos.side_to_move();
        if (pos.moves_played() as u32) < random_plies {
            let moves = pos.legal_moves();
            pos.do_move(rng.pick(moves.as_slice()));
            continue;
        }
        let (answer, search_nodes) = search(searcher, &pos, config);
        searched += 1;
        nodes += search_nodes;
        let (best, score) = match answer {
            Searched::Move(m, v) => (m, v),
            Searched::Unscored(m) => {
                pos.do_move(m);
                continue;
            }
            Searched::Declaration => break (Some(us), Ending::Declaration),
            Searched::Resign => break (Some(!us), Ending::Adjudicated),
        };
        if score.abs() > config.eval_limit {
            break (Some(if score > 0 { us } else { !us }), Ending::Adjudicated);
        }
        if !pos.in_check() && !pos.is_capture(best) {
            let score = score.clamp(-(i16::MAX as Value), i16::MAX as Value) as i16;
            let rec = PackedSfenValue::new(&pos, score, best, 0).expect("game positions pack");
            kept.push((rec, us));
        }
        pos.do_move(best);
    };
    let result_for = |side: Color| match winner {
        None => 0,
        Some(w) if w == side => 1,
        Some(_) => -1,
    };
    let records =
        kept.into_iter().map(|(rec, side)| PackedSfenValue { game_result: result_for(side), ..rec });
    let plies = pos.moves_played() as u32;
    Some(Game { records: records.collect(), winner, ending, plies, searched, nodes })
}

/// Whether the game is over before the side to move plays: the winner (`None`: a draw) and why.
fn game_over(pos: &Position, max_ply: u32) -> Option<(Option<Color>, Ending)> {
    let us = pos.side_to_move();
    match pos.sennichite() {
        Sennichite::Draw => return Some((None, Ending::Repetition)),
        Sennichite::PerpetualCheck(c) => return Some((Some(!c), Ending::PerpetualCheck)),
        Sennichite::None => {}
    }
    if pos.legal_moves().is_empty() {
        return Some((Some(!us), Ending::Mate));
    }
    if pos.declaration(EnteringKingRule::Csa27) == Declaration::Win {
        return Some((Some(us), Ending::Declaration));
    }
    // As the search's MaxMovesToDraw: the game is drawn once its ply passes the limit.
    if pos.game_ply() > max_ply {
        return Some((None, Ending::MaxPly));
    }
    None
}

/// What a search of a game position answered.
enum Searched {
    /// The best move and its score for the side to move.
    Move(Move, Value),
    /// A move from a search stopped before its first iteration completed: no score to keep.
    Unscored(Move),
    /// The side to move declared a win (entering kings): the game ends, won by the mover.
    Declaration,
    /// The search resigned before any iteration scored a move: the side to move loses.
    Resign,
}

/// Searches `pos` within the configured limits. The move and score are those of the last
/// completed iteration's principal variation, so that they belong together even when a node
/// limit cuts an iteration short. Also returns the nodes searched.
fn search(searcher: &mut Searcher, pos: &Position, config: &GameConfig) -> (Searched, u64) {
    let limits = Limits { depth: config.depth, nodes: config.nodes, ..Limits::default() };
    let options = SearchOptions {
        max_moves_to_draw: config.max_ply,
        network: config.network.clone(),
        ..SearchOptions::default()
    };
    let (tx, rx) = crossbeam_channel::unbounded();
    searcher.start(pos.clone(), limits, options, Instant::now(), tx);
    let mut last_pv = None;
    let mut answer = BestMove::Resign;
    let mut nodes = 0;
    for event in rx.iter() {
        match event {
            SearchEvent::Pv(info)
                if info.bound == Bound::Exact && info.multipv == 1 && !info.pv.is_empty() =>
            {
                last_pv = Some((info.pv[0], value_of(info.score)))
            }
            SearchEvent::Done { best, nodes: n, .. } => {
                answer = best;
                nodes = n;
                break;
            }
            _ => {}
        }
    }
    searcher.wait();
    let searched = match (answer, last_pv) {
        (BestMove::Win, _) => Searched::Declaration,
        (_, Some((m, v))) => Searched::Move(m, v),
        (BestMove::Move(m), None) => Searched::Unscored(m),
        (BestMove::Resign, None) => Searched::Resign,
    };
    (searched, nodes)
}

/// The search value a reported score stands for.
fn value_of(score: Score) -> Value {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// Tests of the generator's games and scores.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::value::{mate_in, mated_in, MATE_IN_MAX_PLY};

    #[test]
    fn reported_scores_map_back_to_values() {
        for v in [0, 57, -3000, mate_in(5), mated_in(8), MATE_IN_MAX_PLY] {
            assert_eq!(value_of(Score::from_value(v)), v);
        }
    }

    #[test]
    fn games_draw_different_numbers() {
        let a = game_rng(1, 0).next_u64();
        assert_ne!(a, game_rng(1, 1).next_u64());
        assert_ne!(a, game_rng(2, 0).next_u64());
        assert_eq!(a, game_rng(1, 0).next_u64());
    }
}
