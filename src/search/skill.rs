//! Strength levels (`SkillLevel` 0-19; 20 is full strength and never comes here): a search
//! bounded by depth and nodes, then a choice among its best few lines that gives away at most a level's
//! margin, drawn with seeded randomness.
//!
//! A weak level should play like a weaker player, not like a broken engine: its search still
//! sees what a short look sees (captures are settled by quiescence, so a piece left hanging in
//! one move is noticed), it picks among moves that its own search rates close to the best, and
//! it never lets a forced mate go when it has found one. The bounds keep the weak levels' answers
//! prompt whatever the clock.
//!
//! The Elo of each level was measured in matches (`docs/strength.md`, "Strength levels"); the
//! scale's zero is Fairy-Stockfish's `Skill Level 0` at the same time control.

use super::value::{is_mate_score, Value};
use crate::rng::Rng;
use crate::types::Move;

/// The full-strength level: no limit, no choice.
pub const MAX_LEVEL: u32 = 20;

/// How many of the best lines a weakened search looks at to choose from.
pub const CANDIDATES: usize = 4;

/// The measured Elo of the levels the ladder played, in increasing level order; the odd levels
/// are interpolated. Level 0 against Fairy-Stockfish's `Skill Level 0`, each level above against
/// the one two below it, 100 games each at byoyomi 200 ms (`tools/ladder.sh`, `tools/ladder.py`;
/// `docs/strength.md`). The chain is self-play, which stretches the upper levels: measured
/// against Fairy-Stockfish at full strength, level 10 to full strength spans about 600 Elo, not
/// the 1,400 this table gives.
pub const MEASURED_ELO: [(u32, i32); 11] = [
    (0, 56),
    (2, 320),
    (4, 769),
    (6, 1051),
    (8, 1397),
    (10, 1698),
    (12, 2061),
    (14, 2407),
    (16, 2683),
    (18, 2856),
    (20, 3096),
];

/// The Elo of level 0, the bottom of `UCI_Elo`'s range.
pub const ELO_MIN: i32 = MEASURED_ELO[0].1;
/// The Elo of full strength, the top of `UCI_Elo`'s range.
pub const ELO_MAX: i32 = MEASURED_ELO[MEASURED_ELO.len() - 1].1;

/// A strength level below full strength, and the seed its choices are drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 (weakest) to 19.
    level: u32,
    /// Mixed with the position's key for each choice, so that a seed replays a game exactly.
    seed: u64,
}

impl Skill {
    /// The limit of `level` with choices drawn from `seed`; `None` at full strength (20 and up).
    pub fn new(level: u32, seed: u64) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill { level, seed })
    }

    /// The level, 0 to 19.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// Iterations searched at most: 1 at levels 0 and 1 (every move and the captures after it),
    /// one more every second level, 10 at level 19.
    pub fn depth_limit(&self) -> i32 {
        1 + self.level as i32 / 2
    }

    /// Nodes searched per move at most: 1,024 at level 0 (the search checks its limits every
    /// 1,024 nodes), 1.6 times more a level, so that a level stays prompt where its depth would
    /// take long.
    pub fn node_limit(&self) -> u64 {
        (1024.0 * 1.6f64.powi(self.level as i32)).round() as u64
    }

    /// The most a chosen move may score below the best one, in centipawns: 220 at level 0 (less
    /// than a silver, so no piece is thrown away on purpose), 30 at level 19.
    pub fn margin(&self) -> Value {
        30 + 10 * (MAX_LEVEL - 1 - self.level) as Value
    }

    /// How sharply the choice prefers the better moves: a move `d` centipawns below the best is
    /// drawn `exp(-d / temperature)` times as often.
    fn temperature(&self) -> f64 {
        10.0 + 5.0 * (MAX_LEVEL - 1 - self.level) as f64
    }

    /// The index in `candidates` (moves with their scores) of the move to play in the
    /// position whose key is `key`. A winning mate is always played; otherwise a move within the
    /// margin of the best, drawn at random with a preference for the better ones.
    pub fn choose(&self, key: u64, candidates: &[(Move, Value)]) -> usize {
        let Some((best_index, best)) =
            candidates.iter().map(|&(_, v)| v).enumerate().max_by_key(|&(i, v)| (v, std::cmp::Reverse(i)))
        else {
            return 0;
        };
        if is_mate_score(best) && best > 0 {
            return best_index;
        }
        let weights: Vec<f64> = candidates
            .iter()
            .map(|&(_, v)| {
                let loss = best - v;
                if loss <= self.margin() {
                    (-(loss as f64) / self.temperature()).exp()
                } else {
                    0.0
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut rng = Rng::new(self.seed ^ key);
        // 53 random bits make a uniform draw in [0, total).
        let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                return i;
            }
            draw -= w;
        }
        0
    }
}

/// The Elo of `level` on the ladder's scale, interpolated between the measured levels.
pub fn elo_of_level(level: u32) -> i32 {
    let level = level.min(MAX_LEVEL);
    for pair in MEASURED_ELO.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if level <= l1 {
            let t = (level - l0) as f64 / (l1 - l0) as f64;
            return (e0 as f64 + t * (e1 - e0) as f64).round() as i32;
        }
    }
    MEASURED_ELO[MEASURED_ELO.len() - 1].1
}

/// The strongest level whose Elo does not exceed `elo` (level 0 below the scale), for
/// `UCI_LimitStrength` with `UCI_Elo`.
pub fn level_for_elo(elo: i32) -> u32 {
    (0..=MAX_LEVEL).rev().find(|&l| elo_of_level(l) <= elo).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    fn moves(n: usize) -> Vec<Move> {
        (0..n).map(|i| Move::normal(Square::new(i as u8 % 9, 6), Square::new(i as u8 % 9, 5))).collect()
    }

    #[test]
    fn full_strength_has_no_skill_and_levels_grow_in_nodes() {
        assert_eq!(Skill::new(20, 1), None);
        let nodes: Vec<u64> = (0..20).map(|l| Skill::new(l, 1).unwrap().node_limit()).collect();
        assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
        let depths: Vec<i32> = (0..20).map(|l| Skill::new(l, 1).unwrap().depth_limit()).collect();
        assert!(depths.windows(2).all(|w| w[0] <= w[1]) && depths[0] == 1, "{depths:?}");
    }

    #[test]
    fn choices_stay_within_the_margin_and_replay_for_a_seed() {
        let m = moves(4);
        let candidates = [(m[0], 100), (m[1], 90), (m[2], 60), (m[3], -400)];
        for level in 0..20 {
            let skill = Skill::new(level, 7).unwrap();
            for key in 0..200u64 {
                let i = skill.choose(key, &candidates);
                assert!(candidates[0].1 - candidates[i].1 <= skill.margin(), "level {level}");
                assert_eq!(i, skill.choose(key, &candidates), "the same seed and key choose alike");
            }
        }
        // Low levels vary their play; some key draws the second move.
        let low = Skill::new(0, 7).unwrap();
        assert!((0..200u64).any(|k| low.choose(k, &candidates) != 0));
    }

    #[test]
    fn a_found_mate_is_always_played() {
        let m = moves(3);
        let candidates = [(m[0], super::super::value::mate_in(3)), (m[1], 50), (m[2], 40)];
        for key in 0..100 {
            assert_eq!(Skill::new(0, 3).unwrap().choose(key, &candidates), 0);
        }
    }

    #[test]
    fn elo_maps_monotonically_onto_levels() {
        let (low, high) = (ELO_MIN, ELO_MAX);
        assert_eq!((elo_of_level(0), elo_of_level(MAX_LEVEL)), (low, high));
        let mut last = 0;
        for elo in low - 100..=high + 100 {
            let level = level_for_elo(elo);
            assert!(level >= last, "UCI_Elo {elo} gives level {level} below {last}");
            assert!(elo < low || elo_of_level(level) <= elo);
            last = level;
        }
        assert_eq!(level_for_elo(high), MAX_LEVEL);
        assert!((0..MAX_LEVEL).all(|l| elo_of_level(l) <= elo_of_level(l + 1)));
    }
}
