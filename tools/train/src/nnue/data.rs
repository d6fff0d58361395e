//! Training positions for the network: each record's active features for both perspectives
//! (side to move first), found once and stored flat as `u16`, with its score and result.

use crate::data::{read_blocks, result_label, LoadStats};
use crate::model::{map_chunks, target};
use shomei::eval::nnue::View;
use shomei::eval::params::EVAL_LIMIT;
use shomei::learn::record::PackedSfenValue;
use shomei::Position;
use std::path::PathBuf;

/// Positions as feature lists: position `i`'s side-to-move features are
/// `features[start[2i]..start[2i + 1]]`, the other side's `features[start[2i + 1]..start[2i + 2]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Positions {
    start: Vec<u32>,
    features: Vec<u16>,
    /// The search score for the side to move, in engine units (centipawns).
    pub scores: Vec<f32>,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub results: Vec<f32>,
}

/// One position's active features, borrowed from `Positions`.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// The side to move's features.
    pub us: &'a [u16],
    /// The other side's features.
    pub them: &'a [u16],
}

impl Default for Positions {
    fn default() -> Positions {
        Positions { start: vec![0], features: Vec::new(), scores: Vec::new(), results: Vec::new() }
    }
}

impl Positions {
    /// No positions.
    pub fn new() -> Positions {
        Positions::default()
    }

    /// Adds a position by its feature lists (each feature below 65,536), score and result.
    pub fn push(&mut self, us: &[usize], them: &[usize], score: f32, result: f32) {
        for list in [us, them] {
            self.features.extend(list.iter().map(|&f| u16::try_from(f).expect("feature index fits u16")));
            self.start.push(u32::try_from(self.features.len()).expect("fewer than 2^32 features"));
        }
        self.scores.push(score);
        self.results.push(result);
    }

    /// Adds `pos` with the engine's features (`View`), side to move first.
    pub fn push_position(&mut self, pos: &Position, score: f32, result: f32) {
        let (us, them) = features_of(pos);
        self.push(&us, &them, score, result);
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Position `i`'s features.
    #[inline]
    pub fn get(&self, i: usize) -> Sample<'_> {
        let s = &self.start[2 * i..2 * i + 3];
        Sample {
            us: &self.features[s[0] as usize..s[1] as usize],
            them: &self.features[s[1] as usize..s[2] as usize],
        }
    }

    /// Each position's target (`model::target`), as f32.
    pub fn targets(&self, k: f64, lambda: f64) -> Vec<f32> {
        self.scores.iter().zip(&self.results).map(|(&s, &r)| target(s, r, k, lambda) as f32).collect()
    }
}

/// The active features of `pos`: the side to move's, then the other side's.
pub fn features_of(pos: &Position) -> (Vec<usize>, Vec<usize>) {
    let us = pos.side_to_move();
    let list = |c| View::of(pos, c).active(pos).as_slice().to_vec();
    (list(us), list(!us))
}

/// Training and validation positions, and what reading found.
#[derive(Debug)]
pub struct NnueSplit {
    /// The positions fitted.
    pub train: Positions,
    /// The positions held out, whole games of them.
    pub validation: Positions,
    /// What reading found (`clamped`: records with |score| at `EVAL_LIMIT` or more).
    pub stats: LoadStats,
    /// Records read from each file.
    pub per_file: Vec<u64>,
}

/// What became of a record.
enum Outcome {
    Bad,
    Clamped,
    Good((Vec<usize>, Vec<usize>), f32),
}

/// Reads `files` (gensfen records), finds the features of every position on `threads`
/// threads and holds out `validation_share` of the games (drawn from `seed`, as the Texel
/// tuner does). Records that do not unpack or carry no valid result count as `bad`, those with
/// a mate score (|score| >= `EVAL_LIMIT`) as `clamped`; neither is kept.
pub fn load(
    files: &[PathBuf],
    validation_share: f64,
    seed: u64,
    threads: usize,
) -> Result<NnueSplit, String> {
    let (mut train, mut validation, mut stats) = (Positions::new(), Positions::new(), LoadStats::default());
    let counts = read_blocks(files, validation_share, seed, |block: &[PackedSfenValue], held_out| {
        let found = map_chunks(block.len(), 1024, threads, |range| {
            block[range]
                .iter()
                .map(|r| match (r.position(), result_label(r)) {
                    (Ok(_), Some(_)) if i32::from(r.score).abs() >= EVAL_LIMIT => Outcome::Clamped,
                    (Ok(pos), Some(result)) => Outcome::Good(features_of(&pos), result),
                    _ => Outcome::Bad,
                })
                .collect::<Vec<_>>()
        });
        for ((outcome, r), &v) in found.into_iter().flatten().zip(block).zip(held_out) {
            match outcome {
                Outcome::Bad => stats.bad += 1,
                Outcome::Clamped => stats.clamped += 1,
                Outcome::Good((us, them), result) => {
                    let set = if v { &mut validation } else { &mut train };
                    set.push(&us, &them, r.score as f32, result);
                }
            }
        }
    })?;
    stats.records = counts.per_file.iter().sum();
    stats.games = counts.games;
    Ok(NnueSplit { train, validation, stats, per_file: counts.per_file })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shomei::learn::record::{self, PackedSfenValue};

    #[test]
    fn positions_store_both_perspectives_in_order() {
        let mut p = Positions::new();
        p.push(&[1, 2, 3], &[4, 5], 10.0, 1.0);
        p.push(&[], &[65_535], -3.0, 0.0);
        assert_eq!(p.len(), 2);
        assert_eq!((p.get(0).us, p.get(0).them), (&[1u16, 2, 3][..], &[4u16, 5][..]));
        assert_eq!((p.get(1).us, p.get(1).them), (&[][..], &[65_535u16][..]));
        assert_eq!(p.targets(600.0, 0.0), vec![1.0, 0.0]);
    }

    #[test]
    fn mate_scores_and_bad_records_are_counted_and_skipped() {
        let pos = Position::startpos();
        let good = PackedSfenValue::new(&pos, 30, pos.legal_moves().as_slice()[0], -1).unwrap();
        let mate = PackedSfenValue { score: EVAL_LIMIT as i16, game_ply: 2, ..good };
        let garbage = PackedSfenValue { sfen: [0xff; 32], game_ply: 3, ..good };
        let path = std::env::temp_dir().join(format!("shomei-train-nnue-data-{}.bin", std::process::id()));
        let mut bytes = Vec::new();
        record::write_records(&mut bytes, &[good, mate, garbage, good]).unwrap();
        std::fs::write(&path, bytes).unwrap();
        let split = load(std::slice::from_ref(&path), 0.0, 0, 2).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(split.stats, LoadStats { records: 4, games: 2, bad: 1, clamped: 1 });
        assert_eq!(split.per_file, vec![4]);
        assert_eq!((split.train.len(), split.validation.len()), (2, 0));
        assert_eq!((split.train.scores[0], split.train.results[0]), (30.0, 0.0));
        let (us, them) = features_of(&pos);
        let s = split.train.get(1);
        assert_eq!(s.us.iter().map(|&f| f as usize).collect::<Vec<_>>(), us);
        assert_eq!(s.them.iter().map(|&f| f as usize).collect::<Vec<_>>(), them);
    }
}
