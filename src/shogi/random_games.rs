//! Positions from seeded random games, for tests and tools: moves drawn from the legal ones, so
//! hands fill up, pieces promote and kings get exposed as the games go on. The same seed gives
//! the same positions on every machine, so a test's positions are fixed by its seed.

use super::Position;
use crate::rng::Rng;
use crate::types::Move;

/// How a random game draws its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveDraw {
    /// Every legal move as likely (one draw a move).
    Uniform,
    /// On a coin toss, one of the captures and promotions, when there are any; otherwise any
    /// legal move. Material changes hands and pieces promote sooner than in uniform play.
    Sharp,
}

impl MoveDraw {
    /// The move to play in `pos`, drawn from its legal `moves` (not empty).
    fn draw(self, pos: &Position, moves: &[Move], rng: &mut Rng) -> Move {
        match self {
            MoveDraw::Uniform => rng.pick(moves),
            MoveDraw::Sharp => {
                let sharp: Vec<Move> =
                    moves.iter().copied().filter(|&m| pos.is_capture(m) || m.is_promotion()).collect();
                // The coin is tossed only when there is a sharp move: the draws of a seed stay
                // what they were.
                if !sharp.is_empty() && rng.next_u64() & 1 == 0 {
                    rng.pick(&sharp)
                } else {
                    rng.pick(moves)
                }
            }
        }
    }
}

/// One random game from `start`: at most `plies` moves drawn by `draw` from `rng`, ending early
/// when the side to move has no legal move. Returns every position of the game, `start` first.
pub fn random_game(start: &Position, rng: &mut Rng, plies: usize, draw: MoveDraw) -> Vec<Position> {
    let mut pos = start.clone();
    let mut game = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.do_move(draw.draw(&pos, moves.as_slice(), rng));
        game.push(pos.clone());
    }
    game
}

/// Every position after each move of `games` random games from the start position, seeded by
/// `seed`, moves drawn uniformly, at most `plies` moves a game (see [`random_game`]).
pub fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let start = Position::startpos();
    let mut out = Vec::new();
    for _ in 0..games {
        out.extend(random_game(&start, &mut rng, plies, MoveDraw::Uniform).into_iter().skip(1));
    }
    out
}
