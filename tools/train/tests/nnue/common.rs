//! Positions and models for the network trainer's tests.

#[path = "../../../../tests/common/random_play.rs"]
mod random_play;

use shomei::eval::nnue::network::{Network, QA, QB};
use shomei::eval::{hand_value, piece_value};
use shomei::rng::Rng;
use shomei::shogi::STARTPOS;
use shomei::{Color, PieceKind, Position};
use shomei_train::nnue::data::Positions;
use shomei_train::nnue::model::{Model, Shape};

/// Positions of seeded random games from the start, half of their moves captures or
/// promotions where there are any (hands fill, pieces promote, kings wander into every bucket).
pub fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    random_play::random_play(STARTPOS, seed, games, plies)
}

/// The material balance of `pos` for the side to move, in engine units.
pub fn material(pos: &Position) -> f32 {
    let us = pos.side_to_move();
    let sign = |c: Color| if c == us { 1.0 } else { -1.0 };
    let mut sum = 0.0;
    let mut occupied = pos.occupied();
    while occupied.is_some() {
        let piece = pos.piece_on(occupied.pop());
        sum += sign(piece.color()) * piece_value(piece.kind()) as f32;
    }
    for c in Color::ALL {
        for k in PieceKind::HAND {
            sum += sign(c) * pos.hand(c).count(k) as f32 * hand_value(k) as f32;
        }
    }
    sum
}

/// `positions` labelled by material: score the balance, result its sign (a draw at 0).
pub fn material_positions(positions: &[Position]) -> Positions {
    let mut data = Positions::new();
    for p in positions {
        let m = material(p);
        data.push_position(
            p,
            m,
            if m > 0.0 {
                1.0
            } else if m < 0.0 {
                0.0
            } else {
                0.5
            },
        );
    }
    data
}

/// A uniform draw in `-range..range`.
pub fn uniform(rng: &mut Rng, range: f32) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * range
}

/// A model of `shape` with parameters drawn in the ranges given: feature rows (real and
/// factor) uniform in +-`ft`, accumulator biases `bias` +- 0.1, output weights uniform in
/// +-`out`, output bias `out_bias`.
pub fn random_model(shape: Shape, seed: u64, ft: f32, bias: f32, out: f32, out_bias: f32) -> Model {
    let mut m = Model::zeroed(shape);
    let mut rng = Rng::new(seed);
    let s = shape;
    for (i, w) in m.params.iter_mut().enumerate() {
        *w = if i < s.bias_offset() {
            uniform(&mut rng, ft)
        } else if i < s.out_offset() {
            bias + uniform(&mut rng, 0.1)
        } else if i < s.out_bias_offset() {
            uniform(&mut rng, out)
        } else {
            out_bias
        };
    }
    m
}

/// The engine's output for two perspectives' feature lists, computed from the network's
/// integer rows as `shomei::eval::nnue::refresh` does for a position.
pub fn integer_eval(net: &Network, us: &[usize], them: &[usize]) -> i32 {
    let acc = |features: &[usize]| {
        let mut a: [i16; 256] = net.ft_bias.as_slice().try_into().unwrap();
        for &f in features {
            a.iter_mut().zip(net.feature(f)).for_each(|(x, w)| *x = x.wrapping_add(*w));
        }
        a
    };
    net.output(&acc(us), &acc(them))
}

/// How far the engine's integer output may be from the float output of a model on the
/// quantisation grid (`Model::snapped`), in engine units. On the grid, the accumulators
/// (times `QA`), the clamps and `sum x^2 w` are exact in integers; the engine then truncates
/// twice: `sum / QA` (less than 1 in units of `QA * QB` of output, so less than
/// `OUTPUT_SCALE / (QA * QB)` = 0.0245 units of evaluation) and the final division (less than
/// 1 unit). The rest is the float model's own f32 rounding, far below 0.005.
pub const GRID_BOUND: f32 = 1.0 + 400.0 / (QA * QB) as f32 + 0.005;
