//! Training positions read from disk epoch by epoch (`--stream N`), for data larger than memory.
//!
//! A first pass reads every file once: it keeps the held-out games in memory (the validation
//! set is a tenth of the data by default), counts the training positions, and notes where each
//! block of records starts (file, record, and where the telling apart of games stands there), so
//! a block can later be read alone with the same games, and so the same split, as a full read
//! gives. Each epoch then reads the blocks in an order drawn from the epoch's seed and hands
//! the training positions on in buffers of about `N`, which the run shuffles and fits: memory
//! holds one buffer and one block, whatever the size of the data.
//!
//! The positions travel as their packed records ([`RecordSet`]); which records are usable, and
//! their targets, is decided here ([`keep_usable`]) for the stream and the in-memory run alike.

use super::model::{Features, Samples};
use crate::data::{
    expand_folders, is_validation_game, read_file_blocks, result_label, GameCursor, LoadStats,
};
use crate::logistic::target;
use crate::nnue::train::NnueConfig;
use crate::parallel::map_chunks;
use shomei::eval::params::EVAL_LIMIT;
use shomei::rng::Rng;
use shomei::training_data::record::PackedSfenValue;
use std::path::PathBuf;

/// Records per block read at once, at most (fewer when the buffer is smaller).
pub const BLOCK_RECORDS: usize = 1 << 16;

/// Positions kept as their packed records, with their targets.
#[derive(Clone, Debug, Default)]
pub struct RecordSet {
    /// The records (decoded when a batch needs them).
    pub records: Vec<PackedSfenValue>,
    /// Each position's target.
    pub targets: Vec<f32>,
}

impl Samples for RecordSet {
    fn len(&self) -> usize {
        self.records.len()
    }

    fn features(&self, i: usize) -> Features {
        Features::of(&self.records[i].position().expect("loaded records unpack"))
    }

    fn target(&self, i: usize) -> f32 {
        self.targets[i]
    }
}

/// Calls `keep(record, target, held_out)` for each record of `block` that unpacks, carries a
/// result and a score below `EVAL_LIMIT`, in order; counts the others in `stats`.
pub fn keep_usable(
    block: &[PackedSfenValue],
    held_out: &[bool],
    k: f64,
    lambda: f64,
    threads: usize,
    stats: &mut LoadStats,
    mut keep: impl FnMut(&PackedSfenValue, f32, bool),
) {
    let checked = map_chunks(block.len(), 4096, threads, |range| {
        block[range].iter().map(|r| r.position().is_ok() && result_label(r).is_some()).collect::<Vec<_>>()
    });
    for ((r, ok), &v) in block.iter().zip(checked.into_iter().flatten()).zip(held_out) {
        if !ok {
            stats.bad += 1;
        } else if i32::from(r.score).abs() >= EVAL_LIMIT {
            stats.clamped += 1;
        } else {
            let t = target(r.score as f32, result_label(r).expect("checked"), k, lambda) as f32;
            keep(r, t, v);
        }
    }
}

/// A run of records of one file, read as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    file: usize,
    first: u64,
    len: u64,
    /// Where the telling apart of games stands before the block's first record.
    cursor: GameCursor,
}

/// The training positions of a set of files, read from disk a block at a time.
#[derive(Clone, Debug)]
pub struct Stream {
    files: Vec<PathBuf>,
    blocks: Vec<Block>,
    buffer: usize,
    validation_share: f64,
    seed: u64,
    k: f64,
    lambda: f64,
    threads: usize,
    /// Training positions an epoch hands on.
    pub train_positions: usize,
}

/// What the first pass found: the stream, the held-out positions and the counts.
pub struct Scanned {
    /// The training positions, to be read epoch by epoch.
    pub stream: Stream,
    /// The held-out games' positions, in memory.
    pub validation: RecordSet,
    /// What reading found.
    pub stats: LoadStats,
}

impl Stream {
    /// Reads `config.data` once, with buffers of `buffer` positions and blocks of at most
    /// `block_records` records (`BLOCK_RECORDS` outside tests).
    pub fn scan(config: &NnueConfig, buffer: usize, block_records: usize) -> Result<Scanned, String> {
        let (share, seed) = (config.validation_share, config.train.seed);
        let block_records = block_records.min(buffer).max(1);
        let files = expand_folders(&config.data)?;
        let mut stream = Stream {
            files: files.clone(),
            blocks: Vec::new(),
            buffer,
            validation_share: share,
            seed,
            k: config.k,
            lambda: config.lambda,
            threads: config.train.threads,
            train_positions: 0,
        };
        let mut validation = RecordSet::default();
        let mut stats = LoadStats::default();
        let mut cursor = GameCursor::default();
        for (file, path) in files.iter().enumerate() {
            cursor.last_ply = None;
            let mut first = 0;
            let mut train_positions = 0;
            read_file_blocks(path, 0, u64::MAX, block_records, &mut cursor, |block, before, games| {
                stream.blocks.push(Block { file, first, len: block.len() as u64, cursor: before });
                first += block.len() as u64;
                stream.sort(block, games, &mut stats, |r, t, v| {
                    if v {
                        validation.records.push(*r);
                        validation.targets.push(t);
                    } else {
                        train_positions += 1;
                    }
                });
            })?;
            stats.records += first;
            stream.train_positions += train_positions;
        }
        stats.games = cursor.games;
        Ok(Scanned { stream, validation, stats })
    }

    /// Reads the training positions in the order drawn from `order_seed`, handing them to
    /// `fit` in buffers of `buffer` positions or a little more (the last one fewer); stops at
    /// the first error `fit` returns.
    pub fn for_each_buffer(
        &self,
        order_seed: u64,
        mut fit: impl FnMut(RecordSet) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut order: Vec<usize> = (0..self.blocks.len()).collect();
        Rng::new(order_seed).shuffle(&mut order);
        self.read_in(&order, false, &mut fit)
    }

    /// The first buffer of training positions in file order (for the loss before training).
    pub fn sample(&self) -> Result<RecordSet, String> {
        let order: Vec<usize> = (0..self.blocks.len()).collect();
        let mut first = RecordSet::default();
        self.read_in(&order, true, &mut |set| {
            first = set;
            Ok(())
        })?;
        Ok(first)
    }

    /// Calls `keep(record, target, held_out)` for the usable records of a block, `games` giving
    /// each record's game; counts the others in `stats`.
    fn sort(
        &self,
        records: &[PackedSfenValue],
        games: &[u64],
        stats: &mut LoadStats,
        keep: impl FnMut(&PackedSfenValue, f32, bool),
    ) {
        let (share, seed) = (self.validation_share, self.seed);
        let held_out: Vec<bool> = games.iter().map(|&g| is_validation_game(seed, g, share)).collect();
        keep_usable(records, &held_out, self.k, self.lambda, self.threads, stats, keep);
    }

    /// Reads the blocks `order` names, in that order, handing buffers to `fit`; only the first
    /// buffer if `just_one`.
    fn read_in(
        &self,
        order: &[usize],
        just_one: bool,
        fit: &mut impl FnMut(RecordSet) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut buffer = RecordSet::default();
        let mut ignored = LoadStats::default();
        for &b in order {
            let block = self.blocks[b];
            let mut cursor = block.cursor;
            let path = &self.files[block.file];
            read_file_blocks(
                path,
                block.first,
                block.len,
                block.len as usize,
                &mut cursor,
                |records, _, games| {
                    self.sort(records, games, &mut ignored, |r, t, v| {
                        if !v {
                            buffer.records.push(*r);
                            buffer.targets.push(t);
                        }
                    })
                },
            )?;
            if buffer.records.len() >= self.buffer {
                fit(std::mem::take(&mut buffer))?;
                if just_one {
                    return Ok(());
                }
            }
        }
        if !buffer.records.is_empty() {
            fit(buffer)?;
        }
        Ok(())
    }
}
