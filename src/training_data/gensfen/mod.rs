//! `shomei gensfen`: training data from self-play.
//!
//! Each game starts with a number of random legal moves from the initial position (for
//! variety), then both sides play the best move of the engine's own search at a fixed depth or
//! node count. Each searched position is kept unless it is in check, its best move is a capture
//! (a noisy position: its score depends on the exchange) or its score is beyond the evaluation
//! limit; a score beyond the limit also ends the game, won by the side it favours. Games end too
//! at mate, at a win by declaration (27-point rule), at repetition (a draw, or a loss for the
//! side giving perpetual check) and at the ply limit (a draw). The kept positions are written as
//! 40-byte records (`training_data::record`) with the game's result for their side to move.
//!
//! Game `i` depends only on the settings in `GameConfig` and on `i`: its random moves are drawn
//! from (seed, i) and the search is single-threaded on cleared tables. Threads take games by
//! number and the writer puts them in the file in that order, so the data is the same bytes
//! whatever the thread count, and the file of a run of N games is the start of the file of a run
//! of more. A run stopped and started again with the same settings carries on where the file
//! ends (see `progress` for how it knows).

pub mod cli;
mod game;
pub mod progress;
pub mod shards;

pub use game::{game_rng, play_game, Ending, Game};

use crate::eval::nnue::AnyNetwork;
use crate::search::{Searcher, Value};
use crate::training_data::record::{self, RECORD_SIZE};
use progress::Progress;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The settings that decide what each game is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// The seed of the random opening moves.
    pub seed: u64,
    /// Search depth per move (with `nodes`, whichever ends the search first).
    pub depth: Option<i32>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// The number of random opening plies, drawn per game from this range (inclusive).
    pub random_plies: (u32, u32),
    /// Scores beyond this (centipawns, either sign) are not kept and end the game.
    pub eval_limit: Value,
    /// The game is drawn once its ply passes this.
    pub max_ply: u32,
    /// The search table of each thread, in MB (its size changes what the search finds).
    pub hash_mb: usize,
    /// The network the search evaluates with (`None`: the hand-written evaluation). By default
    /// the engine's default evaluator: the network built in, if any.
    pub network: Option<AnyNetwork>,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            seed: 0,
            depth: Some(6),
            nodes: None,
            random_plies: (8, 16),
            eval_limit: 3000,
            max_ply: 320,
            hash_mb: 16,
            network: crate::search::SearchOptions::default().network,
        }
    }
}

impl GameConfig {
    /// Whether the settings make sense.
    pub fn validate(&self) -> Result<(), String> {
        if self.depth.is_none() && self.nodes.is_none() {
            return Err("a depth or a node count per move is needed".into());
        }
        if self.depth.is_some_and(|d| !(1..=64).contains(&d)) {
            return Err("the depth must be 1 to 64".into());
        }
        if self.nodes == Some(0) {
            return Err("the node count must be positive".into());
        }
        let (lo, hi) = self.random_plies;
        if lo > hi || hi > 1000 {
            return Err(format!("random plies {lo}-{hi}: expected MIN-MAX with MIN <= MAX <= 1000"));
        }
        if !(1..=30_000).contains(&self.eval_limit) {
            return Err("the evaluation limit must be 1 to 30000 centipawns".into());
        }
        if self.max_ply == 0 || self.max_ply > u16::MAX as u32 {
            return Err("the ply limit must be 1 to 65535".into());
        }
        if !(1..=4096).contains(&self.hash_mb) {
            return Err("the hash size must be 1 to 4096 MB".into());
        }
        Ok(())
    }

    /// The settings as the progress file records them. A network is recorded by its weights'
    /// fingerprint; the hand-written evaluation is not recorded, so files written before networks
    /// existed resume as they did.
    pub fn params(&self) -> Vec<(String, String)> {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        let network = self.network.as_ref().map(|net| ("network", format!("{:016x}", net.fingerprint())));
        [
            ("seed", self.seed.to_string()),
            ("depth", opt(self.depth.map(|d| d.to_string()))),
            ("nodes", opt(self.nodes.map(|n| n.to_string()))),
            ("random_plies", format!("{}-{}", self.random_plies.0, self.random_plies.1)),
            ("eval_limit", self.eval_limit.to_string()),
            ("max_ply", self.max_ply.to_string()),
            ("hash_mb", self.hash_mb.to_string()),
        ]
        .into_iter()
        .chain(network)
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// A run: where, how much, how many threads.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// The data file (records are appended; `FILE.progress` beside it).
    pub out: PathBuf,
    /// What the games are.
    pub game: GameConfig,
    /// The number of the file's first game: the file holds games `first_game..first_game + N`.
    /// Runs of one seed with disjoint ranges, on as many machines, make files that `cat` joins
    /// into the file one run of the whole range writes.
    pub first_game: u64,
    /// Stop once the file holds this many games.
    pub games: Option<u64>,
    /// Stop once the file holds at least this many positions (after the game that reaches it).
    pub positions: Option<u64>,
    /// Threads, each playing its own games.
    pub threads: usize,
    /// Print progress to stderr.
    pub progress: bool,
}

impl RunConfig {
    /// The settings its progress file records: the game settings, and the first game's number
    /// where it is not 0 (files that start at game 0 record what they did before ranges).
    pub fn params(&self) -> Vec<(String, String)> {
        let mut params = self.game.params();
        if self.first_game != 0 {
            params.push(("first_game".into(), self.first_game.to_string()));
        }
        params
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// Games in the file now.
    pub games: u64,
    /// Positions in the file now.
    pub positions: u64,
    /// Games written by this run.
    pub games_run: u64,
    /// Positions written by this run.
    pub positions_run: u64,
    /// Games of this run won by Black, won by White, drawn.
    pub outcomes: [u64; 3],
    /// Positions this run searched, kept or not.
    pub searched_run: u64,
    /// Nodes this run searched.
    pub nodes_run: u64,
    /// Seconds this run took.
    pub seconds: f64,
}

impl RunSummary {
    /// Positions written per hour by this run.
    pub fn positions_per_hour(&self) -> f64 {
        self.positions_run as f64 * 3600.0 / self.seconds.max(1e-9)
    }

    /// The one-line report printed to stderr now and then during a run, and at its end.
    fn line(&self) -> String {
        let [b, w, d] = self.outcomes;
        let kept_share = self.positions_run as f64 / self.searched_run.max(1) as f64;
        let nodes_per_position = self.nodes_run as f64 / self.searched_run.max(1) as f64;
        format!(
            "gensfen: {} games, {} positions in the file; this run {} games (Black {b}, White {w}, \
             draws {d}), {} positions in {:.1} s, {:.0} positions/hour; {} searched ({:.1}% kept), \
             {:.0} nodes per search",
            self.games,
            self.positions,
            self.games_run,
            self.positions_run,
            self.seconds,
            self.positions_per_hour(),
            self.searched_run,
            100.0 * kept_share,
            nodes_per_position,
        )
    }
}

/// How often progress is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Runs self-play until the file holds `games` games or `positions` positions (at least one
/// must be set), resuming a file written before with the same game settings.
pub fn run(config: &RunConfig) -> Result<RunSummary, String> {
    config.game.validate()?;
    if config.games.is_none() && config.positions.is_none() {
        return Err("say how much to generate: a number of games or of positions".into());
    }
    let progress_path = progress::path_for(&config.out);
    let (file, mut progress) = open_output(config)?;
    let start = Instant::now();
    let mut summary =
        RunSummary { games: progress.games, positions: progress.positions, ..Default::default() };
    let done = |p: &Progress| {
        config.games.is_some_and(|g| p.games >= g) || config.positions.is_some_and(|n| p.positions >= n)
    };
    if done(&progress) {
        if config.progress {
            eprintln!("gensfen: {} already holds what was asked; nothing to do", config.out.display());
        }
        return Ok(summary);
    }

    let next_game = AtomicU64::new(progress.games);
    let stop = AtomicBool::new(false);
    let game_limit = config.games.unwrap_or(u64::MAX);
    let first_game = config.first_game;
    let (tx, rx) = crossbeam_channel::unbounded::<(u64, Game)>();
    let result = std::thread::scope(|scope| {
        for t in 0..config.threads.max(1) {
            let (tx, next_game, stop, game) = (tx.clone(), &next_game, &stop, &config.game);
            let worker = move || {
                let mut searcher = Searcher::new(game.hash_mb);
                while !stop.load(Ordering::Relaxed) {
                    let i = next_game.fetch_add(1, Ordering::Relaxed);
                    if i >= game_limit {
                        break;
                    }
                    let Some(g) = game::play_game_until(&mut searcher, game, first_game + i, stop) else {
                        break;
                    };
                    if tx.send((i, g)).is_err() {
                        break;
                    }
                }
            };
            let builder = std::thread::Builder::new().name(format!("gensfen-{t}"));
            if let Err(e) = builder.spawn_scoped(scope, worker) {
                stop.store(true, Ordering::Relaxed);
                return Err(format!("cannot start a thread: {e}"));
            }
        }
        drop(tx);
        let mut file = file;
        let mut pending = BTreeMap::new();
        let mut last_print = Instant::now();
        let result = (|| {
            for (i, g) in rx.iter() {
                pending.insert(i, g);
                // Games go to the file in number order only.
                while let Some(g) = pending.remove(&progress.games) {
                    record::write_records(&mut file, &g.records)
                        .map_err(|e| format!("cannot write {}: {e}", config.out.display()))?;
                    progress.games += 1;
                    progress.positions += g.records.len() as u64;
                    progress.save(&progress_path)?;
                    summary.games_run += 1;
                    summary.positions_run += g.records.len() as u64;
                    summary.searched_run += g.searched as u64;
                    summary.nodes_run += g.nodes;
                    summary.outcomes[match g.winner {
                        Some(crate::types::Color::Black) => 0,
                        Some(crate::types::Color::White) => 1,
                        None => 2,
                    }] += 1;
                    if done(&progress) {
                        return Ok(());
                    }
                }
                if config.progress && last_print.elapsed() >= PROGRESS_EVERY {
                    last_print = Instant::now();
                    summary.games = progress.games;
                    summary.positions = progress.positions;
                    summary.seconds = start.elapsed().as_secs_f64();
                    eprintln!("{}", summary.line());
                }
            }
            Ok(())
        })();
        // Abandon the games in play; they are played again by the next run.
        stop.store(true, Ordering::Relaxed);
        drop(rx);
        result
    });
    summary.games = progress.games;
    summary.positions = progress.positions;
    summary.seconds = start.elapsed().as_secs_f64();
    if config.progress {
        eprintln!("{}", summary.line());
    }
    result.map(|()| summary)
}

/// Opens the data file for appending after the games its progress file records, cutting off
/// what a stopped run wrote beyond them; or starts a new file with a new progress file.
fn open_output(config: &RunConfig) -> Result<(File, Progress), String> {
    let out = &config.out;
    let shown = out.display();
    let progress_path = progress::path_for(out);
    let params = config.params();
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let existing = Progress::load(&progress_path)?;
    let Some(progress) = existing else {
        if fs::metadata(out).is_ok_and(|m| m.len() > 0) {
            return Err(format!(
                "{shown} exists but {} does not: not appending to data of unknown settings",
                progress_path.display()
            ));
        }
        let file = File::create(out).map_err(|e| format!("cannot create {shown}: {e}"))?;
        let progress = Progress::new(params);
        progress.save(&progress_path)?;
        return Ok((file, progress));
    };
    progress.check_params(&params, &progress_path)?;
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(out)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    let len = file.metadata().map_err(|e| format!("cannot read {shown}: {e}"))?.len();
    let committed = progress.positions * RECORD_SIZE as u64;
    if len < committed {
        return Err(format!(
            "{shown} holds {len} bytes but {} records {} positions ({committed} bytes): the data was cut",
            progress_path.display(),
            progress.positions
        ));
    }
    if len > committed {
        if config.progress {
            eprintln!(
                "gensfen: dropping the {} bytes of an unfinished game at the end of {shown}",
                len - committed
            );
        }
        file.set_len(committed).map_err(|e| format!("cannot cut {shown}: {e}"))?;
    }
    file.seek(SeekFrom::End(0)).map_err(|e| format!("cannot seek in {shown}: {e}"))?;
    Ok((file, progress))
}
