//! Training positions for the network: each record's active features for both perspectives
//! (side to move first), found once and stored flat as `u16`, with its score and result; and
//! positions derived from the training positions by a few random moves, labelled by the
//! engine's hand-written evaluation (`augment`).

use crate::data::{read_blocks, result_label, LoadStats};
use crate::logistic::{sigmoid, target};
use crate::parallel::map_chunks;
use shomei::eval::nnue::{evaluate_from_scratch, Network, View};
use shomei::eval::params::EVAL_LIMIT;
use shomei::rng::{splitmix64, Rng};
use shomei::training_data::record::PackedSfenValue;
use shomei::Position;
use std::path::PathBuf;
use std::time::Instant;

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

    /// Each position's target (`logistic::target`), as f32.
    pub fn targets(&self, k: f64, lambda: f64) -> Vec<f32> {
        self.scores.iter().zip(&self.results).map(|(&s, &r)| target(s, r, k, lambda) as f32).collect()
    }

    /// The targets of positions of which the first `real` are records' (`logistic::target`) and
    /// the rest derived (`augment`): `sigmoid(score / k)` of their hand evaluation, no result.
    pub fn augmented_targets(&self, real: usize, k: f64, lambda: f64) -> Vec<f32> {
        let mut targets = self.targets(k, lambda);
        for (t, &s) in targets.iter_mut().zip(&self.scores).skip(real) {
            *t = sigmoid(s as f64 / k) as f32;
        }
        targets
    }

    /// Bytes held per position, for memory estimates: 80 `u16` features (40 a perspective, at
    /// most), two `u32` offsets, the score and the result.
    pub const BYTES_PER_POSITION: usize = 80 * 2 + 2 * 4 + 2 * 4;
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
    /// The record of each training position, in order, if `load` was asked to keep them
    /// (the sources of `augment`); empty otherwise.
    pub train_records: Vec<PackedSfenValue>,
}

/// How `augment` derives positions from the training positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Augment {
    /// Positions derived from each training position (0: none).
    pub copies: usize,
    /// Each is reached by 1 to `max_plies` random legal moves (at least 1).
    pub max_plies: usize,
    /// At most this many derived positions in all: derivation stops when it is reached.
    pub limit: Option<usize>,
    /// The loss weight of a derived position, a record's being 1.
    pub weight: f64,
}

impl Augment {
    /// No augmentation.
    pub const NONE: Augment = Augment { copies: 0, max_plies: 4, limit: None, weight: 1.0 };

    /// The derived positions there will be at most from `sources` training positions.
    pub fn planned(&self, sources: usize) -> usize {
        let all = sources.saturating_mul(self.copies);
        self.limit.map_or(all, |l| all.min(l))
    }
}

/// What `augment` added.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Augmented {
    /// The training positions before augmenting: the derived ones are `real..` of the set.
    pub real: usize,
    /// For each derived position, the index of the training position it was derived from.
    pub sources: Vec<u32>,
    /// Derivations dropped: the position reached was in check or had no legal move, or one on
    /// the way had none.
    pub skipped: u64,
    /// Derivations not tried because `Augment::limit` was reached.
    pub capped: u64,
    /// Seconds taken.
    pub seconds: f64,
}

impl Augmented {
    /// The number of derived positions.
    pub fn derived(&self) -> usize {
        self.sources.len()
    }
}

/// The seed of the `copy`th derivation from training position `index`: a function of the
/// run's seed, the index and the copy alone, so derivations do not depend on the threads.
pub fn derive_seed(seed: u64, index: u64, copy: u64) -> u64 {
    let (_, run) = splitmix64(seed ^ 0xa096_e17e_d5ce_0001);
    let (_, position) = splitmix64(run ^ index);
    splitmix64(position ^ copy).1
}

/// The position reached from `source` by `k` random legal moves drawn from `seed`, `k` itself
/// drawn uniformly in `1..=max_plies`; `None` when it is in check or has no legal move, or a
/// position on the way had none.
pub fn derive(source: &Position, seed: u64, max_plies: usize) -> Option<Position> {
    let mut rng = Rng::new(seed);
    let plies = 1 + rng.below(max_plies.max(1));
    let mut pos = source.clone();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.do_move(rng.pick(moves.as_slice()));
    }
    (!pos.in_check() && !pos.legal_moves().is_empty()).then_some(pos)
}

/// Sources derived from per step of `augment`: the limit is checked between steps.
const AUGMENT_STEP: usize = 16_384;

/// Appends to `train` the positions derived from its positions, whose records are `sources`
/// (`train`'s first `sources.len()` positions, in order): for training position `i`,
/// `augment.copies` derivations, copy `c` by `derive` from `derive_seed(seed, i, c)` with
/// `augment.max_plies`, each kept with its features, its evaluation by `teacher` if given, else
/// the hand evaluation (`shomei::eval::evaluate`; either from the side to move's view), as
/// score and 0.5 as result (targets: `Positions::augmented_targets`). Found on `threads`
/// threads, appended in the order of `(i, c)`, so the result does not depend on the thread
/// count; stops at `augment.limit`.
pub fn augment(
    train: &mut Positions,
    sources: &[PackedSfenValue],
    augment: &Augment,
    teacher: Option<&Network>,
    seed: u64,
    threads: usize,
) -> Augmented {
    let begun = Instant::now();
    let mut out = Augmented { real: train.len(), ..Augmented::default() };
    let limit = augment.planned(sources.len());
    let mut next = 0;
    while next < sources.len() && out.derived() < limit {
        let step = next..(next + AUGMENT_STEP).min(sources.len());
        let found = map_chunks(step.len(), 256, threads, |range| {
            let mut derived = Vec::new();
            let (first, last) = (range.start + step.start, range.end + step.start);
            for (i, record) in sources.iter().enumerate().take(last).skip(first) {
                let Ok(source) = record.position() else {
                    derived.extend((0..augment.copies).map(|_| None));
                    continue;
                };
                for c in 0..augment.copies {
                    let seed = derive_seed(seed, i as u64, c as u64);
                    derived.push(derive(&source, seed, augment.max_plies).map(|pos| {
                        let score = match teacher {
                            Some(net) => evaluate_from_scratch(net, &pos),
                            None => shomei::eval::evaluate(&pos),
                        } as f32;
                        (i as u32, features_of(&pos), score)
                    }));
                }
            }
            derived
        });
        for d in found.into_iter().flatten() {
            if out.derived() >= limit {
                out.capped += 1;
                continue;
            }
            match d {
                None => out.skipped += 1,
                Some((i, (us, them), score)) => {
                    train.push(&us, &them, score, 0.5);
                    out.sources.push(i);
                }
            }
        }
        next = step.end;
    }
    out.capped += ((sources.len() - next) * augment.copies) as u64;
    out.seconds = begun.elapsed().as_secs_f64();
    out
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
/// a mate score (|score| >= `EVAL_LIMIT`) as `clamped`; neither is kept. With `keep_records`,
/// the training positions' records are kept too (`NnueSplit::train_records`).
pub fn load(
    files: &[PathBuf],
    validation_share: f64,
    seed: u64,
    threads: usize,
    keep_records: bool,
) -> Result<NnueSplit, String> {
    let (mut train, mut validation, mut stats) = (Positions::new(), Positions::new(), LoadStats::default());
    let mut train_records = Vec::new();
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
                    if keep_records && !v {
                        train_records.push(*r);
                    }
                }
            }
        }
    })?;
    stats.records = counts.per_file.iter().sum();
    stats.games = counts.games;
    Ok(NnueSplit { train, validation, stats, per_file: counts.per_file, train_records })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shomei::training_data::record::{self, PackedSfenValue};

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
        let split = load(std::slice::from_ref(&path), 0.0, 0, 2, true).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(split.stats, LoadStats { records: 4, games: 2, bad: 1, clamped: 1 });
        assert_eq!(split.per_file, vec![4]);
        assert_eq!((split.train.len(), split.validation.len()), (2, 0));
        assert_eq!((split.train.scores[0], split.train.results[0]), (30.0, 0.0));
        assert_eq!(split.train_records, vec![good, good]);
        let (us, them) = features_of(&pos);
        let s = split.train.get(1);
        assert_eq!(s.us.iter().map(|&f| f as usize).collect::<Vec<_>>(), us);
        assert_eq!(s.them.iter().map(|&f| f as usize).collect::<Vec<_>>(), them);
    }
}
