//! Training positions: the records of `shomei gensfen` files, each position traced once and
//! stored compactly, split into a training set and a held-out validation set by game.

use crate::logistic::target;
use crate::parallel::map_chunks;
use shomei::eval::params::EVAL_LIMIT;
use shomei::eval::trace::{self, KingDanger, Trace};
use shomei::rng::splitmix64;
use shomei::training_data::record::{self, PackedSfenValue};
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Traced positions with their labels, stored flat: the terms of position `i` are
/// `terms[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    start: Vec<usize>,
    terms: Vec<(u16, i16)>,
    kings: Vec<[KingDanger; 2]>,
    rounding: Vec<f32>,
    /// The search score for the side to move, in centipawns.
    pub scores: Vec<f32>,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub results: Vec<f32>,
}

/// One traced position, borrowed from a `Dataset`.
#[derive(Clone, Copy, Debug)]
pub struct Traced<'a> {
    /// (term id, count), as in `Trace::terms`.
    pub terms: &'a [(u16, i16)],
    /// King safety of both kings.
    pub kings: &'a [KingDanger; 2],
    /// The integer tables' rounding.
    pub rounding: f64,
}

impl Dataset {
    /// No positions.
    pub fn new() -> Dataset {
        Dataset { start: vec![0], ..Default::default() }
    }

    /// Adds a position's trace with its score (centipawns, side to move) and result (1, 0.5, 0).
    pub fn push(&mut self, trace: &Trace, score: f32, result: f32) {
        self.terms.extend_from_slice(&trace.terms);
        self.start.push(self.terms.len());
        self.kings.push(trace.kings);
        self.rounding.push(trace.rounding as f32);
        self.scores.push(score);
        self.results.push(result);
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Position `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Traced<'_> {
        Traced {
            terms: &self.terms[self.start[i]..self.start[i + 1]],
            kings: &self.kings[i],
            rounding: self.rounding[i] as f64,
        }
    }

    /// The target of each position: `lambda` parts the sigmoid of its score, the rest its
    /// result; `k` scales scores as the model's evaluation (`logistic::sigmoid`).
    pub fn targets(&self, k: f64, lambda: f64) -> Vec<f64> {
        let blend = |(&s, &r): (&f32, &f32)| target(s, r, k, lambda);
        self.scores.iter().zip(&self.results).map(blend).collect()
    }
}

/// What reading the data found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Records read.
    pub records: u64,
    /// Games told apart (a game starts where the ply does not increase).
    pub games: u64,
    /// Records whose position would not unpack or whose result was not -1, 0 or 1.
    pub bad: u64,
    /// Positions left out at `EVAL_LIMIT`: Texel's, whose evaluation is clamped there (no slope
    /// to fit); the network trainer's, whose search score is a mate score.
    pub clamped: u64,
}

impl LoadStats {
    /// What loading found, in a line: records, games, positions kept for training and
    /// validation, and those left out (the `clamped` ones called `clamped_as`), in `seconds`.
    pub fn describe(&self, train: usize, validation: usize, clamped_as: &str, seconds: f64) -> String {
        format!(
            "{} records in {} games: {train} training and {validation} validation positions ({} unreadable, \
             {} {clamped_as}) in {seconds:.1} s",
            self.records, self.games, self.bad, self.clamped
        )
    }
}

/// Training and validation positions.
#[derive(Debug)]
pub struct Split {
    /// The positions fitted.
    pub train: Dataset,
    /// The positions held out, whole games of them.
    pub validation: Dataset,
    /// What reading found.
    pub stats: LoadStats,
}

/// Records traced per block: bounds the memory of records read but not yet traced.
const BLOCK: usize = 1 << 16;

/// Whether game `game` goes to validation: a draw from (seed, game) below `share`.
pub fn is_validation_game(seed: u64, game: u64, share: f64) -> bool {
    let (_, mix) = splitmix64(seed ^ 0x7e1e_7a11);
    let (_, draw) = splitmix64(mix ^ game);
    ((draw >> 11) as f64 / (1u64 << 53) as f64) < share
}

/// What `read_blocks` read: the records of each file, and the games told apart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    /// Records read from each file, in the order of the files.
    pub per_file: Vec<u64>,
    /// Games told apart over all files.
    pub games: u64,
}

/// Where the telling apart of games stands before a record: the games begun so far and the
/// ply of the record before in the same file (a game starts where the ply does not increase,
/// and with each file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCursor {
    /// Games begun before this record.
    pub games: u64,
    /// The ply of the record before, if it is in the same file.
    pub last_ply: Option<u16>,
}

impl GameCursor {
    /// Moves past `r`, returning the number of its game (counted from 1).
    pub fn step(&mut self, r: &PackedSfenValue) -> u64 {
        // A game's plies increase: where they do not, the next game has begun.
        if self.last_ply.is_none_or(|p| r.game_ply <= p) {
            self.games += 1;
        }
        self.last_ply = Some(r.game_ply);
        self.games
    }
}

/// Reads the records of `files` (a folder standing for its shards) in blocks of at most `BLOCK` (bounding the memory of records
/// read but not yet processed), telling games apart (`GameCursor`) and drawing for each game
/// whether it is held out (`is_validation_game` with `validation_share` and `seed`);
/// `f(block, held_out)` gets each block with, for each record, whether its game is held out.
pub fn read_blocks(
    files: &[PathBuf],
    validation_share: f64,
    seed: u64,
    mut f: impl FnMut(&[PackedSfenValue], &[bool]),
) -> Result<ReadCounts, String> {
    let mut counts = ReadCounts::default();
    let mut cursor = GameCursor::default();
    for path in &expand_folders(files)? {
        cursor.last_ply = None;
        let records = read_file_blocks(path, 0, u64::MAX, BLOCK, &mut cursor, |block, _, games| {
            let held_out: Vec<bool> =
                games.iter().map(|&g| is_validation_game(seed, g, validation_share)).collect();
            f(block, &held_out)
        })?;
        counts.per_file.push(records);
    }
    counts.games = cursor.games;
    Ok(counts)
}

/// Reads at most `count` records of the file at `path` from record `first`, in blocks of at most
/// `block_len`; `cursor` is where the telling apart of games stands before record `first`, and
/// is moved past the records read. `f(block, cursor_before_block, game_of_each_record)` gets
/// each block. Returns the number of records read.
pub fn read_file_blocks(
    path: &Path,
    first: u64,
    count: u64,
    block_len: usize,
    cursor: &mut GameCursor,
    mut f: impl FnMut(&[PackedSfenValue], GameCursor, &[u64]),
) -> Result<u64, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    if first > 0 {
        file.seek(SeekFrom::Start(first * record::RECORD_SIZE as u64))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut records = 0;
    while records < count {
        let want = (count - records).min(block_len.max(1) as u64) as usize;
        let mut block = Vec::with_capacity(want);
        while block.len() < want {
            match record::read_record(&mut reader).map_err(|e| format!("{}: {e}", path.display()))? {
                Some(r) => block.push(r),
                None => break,
            }
        }
        if block.is_empty() {
            break;
        }
        let before = *cursor;
        let games: Vec<u64> = block.iter().map(|r| cursor.step(r)).collect();
        records += block.len() as u64;
        let short = block.len() < want;
        f(&block, before, &games);
        if short {
            break;
        }
    }
    Ok(records)
}

/// `files` with each folder replaced by the shards in it (`g*.bin`, in game order: what
/// `shomei gensfen --shards` writes).
pub fn expand_folders(files: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in files {
        if path.is_dir() {
            let shards = shomei::training_data::gensfen::shards::shard_files(path)?;
            if shards.is_empty() {
                return Err(format!("{} holds no shards (g*.bin)", path.display()));
            }
            out.extend(shards);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// A record's game result for its side to move as a training label: 1 won, 0.5 drawn, 0 lost;
/// `None` for a result other than -1, 0 or 1.
pub fn result_label(r: &PackedSfenValue) -> Option<f32> {
    (-1..=1).contains(&r.game_result).then(|| (r.game_result as f32 + 1.0) / 2.0)
}

/// Reads `files` (gensfen records), traces every position on `threads` threads and holds out
/// `validation_share` of the games (drawn from `seed`).
pub fn load(files: &[PathBuf], validation_share: f64, seed: u64, threads: usize) -> Result<Split, String> {
    let mut split = Split { train: Dataset::new(), validation: Dataset::new(), stats: LoadStats::default() };
    let counts = read_blocks(files, validation_share, seed, |block, held_out| {
        add_block(&mut split, block, held_out, threads)
    })?;
    split.stats.records = counts.per_file.iter().sum();
    split.stats.games = counts.games;
    Ok(split)
}

/// What became of a record.
enum Outcome {
    Bad,
    Clamped,
    Good(Trace),
}

/// Traces a block of records in parallel and adds them, in order, to their sets.
fn add_block(split: &mut Split, block: &[PackedSfenValue], held_out: &[bool], threads: usize) {
    let w = trace::current();
    let values = trace::term_values(&trace::terms(), &w);
    let traced = map_chunks(block.len(), 1024, threads, |range| {
        block[range]
            .iter()
            .map(|r| {
                let Ok(pos) = r.position() else { return Outcome::Bad };
                if result_label(r).is_none() {
                    return Outcome::Bad;
                }
                let t = trace::trace(&pos);
                if t.value(&w, &values).abs() >= EVAL_LIMIT as f64 {
                    return Outcome::Clamped;
                }
                Outcome::Good(t)
            })
            .collect::<Vec<_>>()
    });
    for ((t, r), &v) in traced.into_iter().flatten().zip(block).zip(held_out) {
        match t {
            Outcome::Bad => split.stats.bad += 1,
            Outcome::Clamped => split.stats.clamped += 1,
            Outcome::Good(t) => {
                let set = if v { &mut split.validation } else { &mut split.train };
                set.push(&t, r.score as f32, result_label(r).expect("checked"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shomei::Position;

    #[test]
    fn a_folder_stands_for_its_shards_in_game_order() {
        let dir = std::env::temp_dir().join(format!("shomei-train-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert!(expand_folders(std::slice::from_ref(&dir)).unwrap_err().contains("no shards"));
        for name in ["g000002000.bin", "g000000000.bin", "MANIFEST.txt", "g000001000.bin.progress"] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let other = PathBuf::from("x.bin");
        let files = expand_folders(&[other.clone(), dir.clone()]).unwrap();
        assert_eq!(files, vec![other, dir.join("g000000000.bin"), dir.join("g000002000.bin")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_validation_share_is_drawn_per_game() {
        let held = (0..10_000).filter(|&g| is_validation_game(4, g, 0.1)).count();
        assert!((900..1100).contains(&held), "{held}");
        assert!((0..100).any(|g| is_validation_game(4, g, 0.1) != is_validation_game(5, g, 0.1)));
        assert!(!(0..1000).any(|g| is_validation_game(4, g, 0.0)));
    }

    #[test]
    fn unreadable_records_are_skipped_and_games_told_apart() {
        let pos = Position::startpos();
        let good = PackedSfenValue::new(&pos, 30, pos.legal_moves().as_slice()[0], 1).unwrap();
        let garbage = PackedSfenValue { sfen: [0xff; 32], ..good };
        let bad_result = PackedSfenValue { game_result: 5, ..good };
        let later = PackedSfenValue { game_ply: 9, ..good };
        let path = std::env::temp_dir().join(format!("shomei-train-data-{}.bin", std::process::id()));
        let mut bytes = Vec::new();
        // Games: [good, later], [garbage], [bad_result, later], [good]
        record::write_records(&mut bytes, &[good, later, garbage, bad_result, later, good]).unwrap();
        std::fs::write(&path, bytes).unwrap();
        let split = load(std::slice::from_ref(&path), 0.0, 0, 2).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(split.stats, LoadStats { records: 6, games: 4, bad: 2, clamped: 0 });
        assert_eq!((split.train.len(), split.validation.len()), (4, 0));
        assert_eq!(split.train.results, vec![1.0; 4]);
        assert_eq!(split.train.scores, vec![30.0; 4]);
    }
}
