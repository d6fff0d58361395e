//! The progress file beside a data file (`FILE.progress` for `FILE`), which makes a run
//! resumable.
//!
//! Games are written to the data file whole and in the order of their numbers, so the file
//! always holds the records of games `0..games`, nothing else, and `positions` records. After
//! each game the progress file is replaced (written aside, then renamed over) with the new
//! counts. It is text, one `key value` per line:
//!
//! ```text
//! # shomei gensfen: the data file holds games 0..games, positions records of 40 bytes
//! version 1
//! seed 0
//! depth 6
//! nodes -
//! random_plies 8-16
//! eval_limit 3000
//! max_ply 320
//! hash_mb 16
//! games 12
//! positions 1180
//! ```
//!
//! The lines between `version` and `games` are the settings that decide what game `i` is; a
//! run with other settings refuses to append to the file. A data file longer than the counts
//! say (a run stopped between writing a game and recording it) is cut back to them; a shorter
//! one is an error.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The progress file format's version, written on its `version` line.
const VERSION: &str = "1";
/// The comment line that opens a progress file.
const HEADER: &str = "# shomei gensfen: the data file holds games 0..games, positions records of 40 bytes";

/// What a data file holds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The settings that decide the games, as `(key, value)`.
    pub params: Vec<(String, String)>,
    /// Games complete: `0..games`.
    pub games: u64,
    /// Records written for them.
    pub positions: u64,
}

/// The progress file of the data file `out`.
pub fn path_for(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

impl Progress {
    /// Nothing written yet, with these settings.
    pub fn new(params: Vec<(String, String)>) -> Progress {
        Progress { params, games: 0, positions: 0 }
    }

    /// Reads a progress file; `None` if there is none.
    pub fn load(path: &Path) -> Result<Option<Progress>, String> {
        let text = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let bad = |why: &str| format!("{} is not a gensfen progress file: {why}", path.display());
        let mut params = Vec::new();
        let (mut version, mut games, mut positions) = (None, None, None);
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let (key, value) = line.split_once(' ').ok_or_else(|| bad(&format!("line '{line}'")))?;
            let number = || value.parse::<u64>().map_err(|_| bad(&format!("{key} '{value}'")));
            match key {
                "version" => version = Some(value.to_string()),
                "games" => games = Some(number()?),
                "positions" => positions = Some(number()?),
                _ => params.push((key.to_string(), value.to_string())),
            }
        }
        if version.as_deref() != Some(VERSION) {
            return Err(bad(&format!("version {version:?}, expected {VERSION}")));
        }
        match (games, positions) {
            (Some(games), Some(positions)) => Ok(Some(Progress { params, games, positions })),
            _ => Err(bad("games or positions missing")),
        }
    }

    /// Writes the progress file: aside first, then renamed over the old one, so that a reader
    /// finds the old counts or the new, never half a file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut text = format!("{HEADER}\nversion {VERSION}\n");
        for (k, v) in &self.params {
            text.push_str(&format!("{k} {v}\n"));
        }
        text.push_str(&format!("games {}\npositions {}\n", self.games, self.positions));
        let mut aside = path.as_os_str().to_owned();
        aside.push(".tmp");
        let aside = PathBuf::from(aside);
        fs::write(&aside, text).map_err(|e| format!("cannot write {}: {e}", aside.display()))?;
        fs::rename(&aside, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
    }

    /// An error naming the first setting that differs from `params`, if one does.
    pub fn check_params(&self, params: &[(String, String)], path: &Path) -> Result<(), String> {
        for (key, value) in params {
            let recorded = self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
            if recorded != Some(value.as_str()) {
                return Err(format!(
                    "{} records {key} {}, this run has {key} {value}: resume with the settings it \
                     records, or write to another file",
                    path.display(),
                    recorded.unwrap_or("(none)")
                ));
            }
        }
        if let Some((k, _)) = self.params.iter().find(|(k, _)| !params.iter().any(|(p, _)| p == k)) {
            return Err(format!(
                "{} records a setting '{k}' this run does not have (an option left out, or one this \
                 version does not know)",
                path.display()
            ));
        }
        Ok(())
    }
}

/// Tests of the progress file.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_loads_and_checks_settings() {
        let dir = std::env::temp_dir().join(format!("shomei-progress-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = path_for(&dir.join("x.bin"));
        assert_eq!(Progress::load(&path).unwrap(), None);
        let params = vec![("seed".to_string(), "3".to_string()), ("depth".to_string(), "2".to_string())];
        let p = Progress { params: params.clone(), games: 4, positions: 77 };
        p.save(&path).unwrap();
        let q = Progress::load(&path).unwrap().unwrap();
        assert_eq!(q, p);
        assert!(q.check_params(&params, &path).is_ok());
        let other = vec![("seed".to_string(), "4".to_string()), ("depth".to_string(), "2".to_string())];
        assert!(q.check_params(&other, &path).unwrap_err().contains("seed 3"));
        fs::write(&path, "version 1\ngames x\n").unwrap();
        assert!(Progress::load(&path).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
