//! Data in shards: `shomei gensfen --shards DIR --shard-games G` writes the games of its range
//! as files of `G` games each, `DIR/g<first game>.bin` (nine digits, so that names sort in game
//! order), and records each finished shard in `DIR/MANIFEST.txt` with its game range, record
//! count and SHA-256, under the settings that made them (seed, search limits, network
//! fingerprint) and the command of each run that wrote there. A shard is an ordinary gensfen file with its own `.progress`, so a
//! stopped run resumes inside the shard it was writing; shards already in the manifest are
//! skipped.
//!
//! Game `i` depends only on the settings and `i`, so machines given disjoint ranges of one
//! seed (`--first-game`, `--games`, multiples of `G`) write shards that fit together: copied
//! into one folder, `cat DIR/g*.bin` is the file one run of all their games writes, and their
//! manifests' `shard` lines list every piece with its checksum.
//!
//! ```text
//! # shomei gensfen shards: `cat g*.bin` in name order is one run's file of their games
//! version 1
//! command shomei gensfen --shards data/s9 --shard-games 1000 --games 4000 --seed 9
//! seed 9
//! depth 6
//! ...
//! shard_games 1000
//! shard g000000000.bin games 0-999 positions 66871 sha256 4f4a...
//! ```

use super::{run, RunConfig, RunSummary};
use crate::sha256;
use crate::training_data::record::RECORD_SIZE;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The manifest format's version, written on its `version` line.
const VERSION: &str = "1";
/// The comment line that opens a manifest.
const HEADER: &str = "# shomei gensfen shards: `cat g*.bin` in name order is one run's file of their games";
/// The manifest's name in a shard folder.
pub const MANIFEST: &str = "MANIFEST.txt";

/// A finished shard, as its manifest line records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Its file name in the folder.
    pub file: String,
    /// Its first game.
    pub first_game: u64,
    /// Games in it.
    pub games: u64,
    /// Records in it.
    pub positions: u64,
    /// The SHA-256 of the file, in hex.
    pub sha256: String,
}

impl Shard {
    /// The shard's manifest line (`shard FILE games FIRST-LAST positions N sha256 HEX`).
    fn line(&self) -> String {
        format!(
            "shard {} games {}-{} positions {} sha256 {}",
            self.file,
            self.first_game,
            self.first_game + self.games - 1,
            self.positions,
            self.sha256
        )
    }

    /// A shard from its manifest line; `None` if the line is not one.
    fn parse(line: &str) -> Option<Shard> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() != 8 || w[0] != "shard" || w[2] != "games" || w[4] != "positions" || w[6] != "sha256" {
            return None;
        }
        let (first, last) = w[3].split_once('-')?;
        let (first_game, last): (u64, u64) = (first.parse().ok()?, last.parse().ok()?);
        Some(Shard {
            file: w[1].to_string(),
            first_game,
            games: last.checked_sub(first_game)? + 1,
            positions: w[5].parse().ok()?,
            sha256: w[7].to_string(),
        })
    }
}

/// The name of the shard whose first game is `first`.
pub fn shard_name(first: u64) -> String {
    format!("g{first:09}.bin")
}

/// A shard folder's manifest: the settings of its games and the shards finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The game settings (`GameConfig::params`) and `shard_games`.
    pub params: Vec<(String, String)>,
    /// The command of each run that wrote to the folder, first to last.
    pub commands: Vec<String>,
    /// Finished shards, in the order they were finished.
    pub shards: Vec<Shard>,
}

impl Manifest {
    /// Reads `dir`'s manifest; `None` if it has none.
    pub fn load(dir: &Path) -> Result<Option<Manifest>, String> {
        let path = dir.join(MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let bad = |why: String| format!("{} is not a shard manifest: {why}", path.display());
        let (mut params, mut shards, mut commands, mut version) = (Vec::new(), Vec::new(), Vec::new(), None);
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let (key, value) = line.split_once(' ').ok_or_else(|| bad(format!("line '{line}'")))?;
            match key {
                "version" => version = Some(value.to_string()),
                "command" => commands.push(value.to_string()),
                "shard" => shards.push(Shard::parse(line).ok_or_else(|| bad(format!("line '{line}'")))?),
                _ => params.push((key.to_string(), value.to_string())),
            }
        }
        if version.as_deref() != Some(VERSION) {
            return Err(bad(format!("version {version:?}, expected {VERSION}")));
        }
        Ok(Some(Manifest { params, commands, shards }))
    }

    /// A new manifest's text up to its first shard.
    fn header(params: &[(String, String)], command: &str) -> String {
        let mut text = format!("{HEADER}\nversion {VERSION}\ncommand {command}\n");
        for (k, v) in params {
            text.push_str(&format!("{k} {v}\n"));
        }
        text
    }
}

/// What a shard run did: the shards written by it, and the summary of each shard's run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShardSummary {
    /// Shards finished by this run.
    pub written: Vec<Shard>,
    /// Shards of the range found finished already.
    pub skipped: usize,
    /// Each shard run's summary, in order.
    pub runs: Vec<RunSummary>,
}

/// Writes the games `config.first_game..config.first_game + config.games` as shards of
/// `shard_games` games in `dir`, recording `command` in a new manifest. The range must start
/// and end on shard boundaries.
pub fn run_shards(
    config: &RunConfig,
    dir: &Path,
    shard_games: u64,
    command: &str,
) -> Result<ShardSummary, String> {
    let games = config.games.ok_or("shards need --games N (a whole number of shards)")?;
    if config.positions.is_some() {
        return Err("shards are counted in games: give --games, not --positions".into());
    }
    if shard_games == 0
        || !config.first_game.is_multiple_of(shard_games)
        || !games.is_multiple_of(shard_games)
    {
        return Err(format!(
            "the range {}..{} must start and end on a multiple of --shard-games {shard_games}",
            config.first_game,
            config.first_game + games
        ));
    }
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut params = config.game.params();
    params.push(("shard_games".into(), shard_games.to_string()));
    let manifest_path = dir.join(MANIFEST);
    let manifest = match Manifest::load(dir)? {
        Some(m) => {
            if m.params != params {
                let differs = params.iter().find(|p| !m.params.contains(p)).or(m.params.first());
                return Err(format!(
                    "{} was made with other settings ({differs:?} differs): use another folder",
                    manifest_path.display()
                ));
            }
            if !m.commands.iter().any(|c| c == command) {
                // Another range or machine's command: the recipe keeps every one.
                append_line(&manifest_path, &format!("command {command}"))?;
            }
            m
        }
        None => {
            fs::write(&manifest_path, Manifest::header(&params, command))
                .map_err(|e| format!("cannot write {}: {e}", manifest_path.display()))?;
            Manifest { params, commands: vec![command.to_string()], shards: Vec::new() }
        }
    };
    let mut summary = ShardSummary::default();
    for first in (config.first_game..config.first_game + games).step_by(shard_games as usize) {
        let name = shard_name(first);
        let path = dir.join(&name);
        if let Some(done) = manifest.shards.iter().find(|s| s.file == name) {
            check_finished(&path, done)?;
            summary.skipped += 1;
            continue;
        }
        let shard = RunConfig {
            out: path.clone(),
            first_game: first,
            games: Some(shard_games),
            positions: None,
            ..config.clone()
        };
        let run_summary = run(&shard)?;
        let sha256 = sha256::file_hex(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let done = Shard {
            file: name,
            first_game: first,
            games: run_summary.games,
            positions: run_summary.positions,
            sha256,
        };
        append_line(&manifest_path, &done.line())?;
        summary.written.push(done);
        summary.runs.push(run_summary);
    }
    Ok(summary)
}

/// Appends `line` to the manifest at `path`.
fn append_line(path: &Path, line: &str) -> Result<(), String> {
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    writeln!(file, "{line}").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// An error if the shard file at `path` is not the size its manifest line says.
fn check_finished(path: &Path, shard: &Shard) -> Result<(), String> {
    let len =
        fs::metadata(path).map_err(|e| format!("{} is in the manifest but: {e}", path.display()))?.len();
    if len != shard.positions * RECORD_SIZE as u64 {
        return Err(format!(
            "{} holds {len} bytes, its manifest line {} records: damaged",
            path.display(),
            shard.positions
        ));
    }
    Ok(())
}

/// The shard files of `dir` in game order (the names sort so).
pub fn shard_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with('g') && name.ends_with(".bin")
        })
        .collect();
    files.sort();
    Ok(files)
}
