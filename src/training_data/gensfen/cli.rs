//! `shomei gensfen ...`: the command line of the generator. It writes only to stderr.

use super::shards::{self, run_shards};
use super::{run, GameConfig, RunConfig};
use crate::eval::nnue;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `shomei gensfen` prints when its command line is wrong.
const USAGE: &str = "usage: shomei gensfen (--games N | --positions N) [--out FILE] [--depth D] [--nodes N]
         [--seed S] [--threads T] [--random-plies MIN-MAX] [--eval-limit CP] [--max-ply P] [--hash MB]
         [--eval-file NET] [--first-game G] [--shards DIR [--shard-games N]]
defaults: --out data/gensfen.bin --depth 6 (unless --nodes) --seed 0 --threads (all cores)
          --random-plies 8-16 --eval-limit 3000 --max-ply 320 --hash 16
          and the engine's default evaluation (the built-in network, if any; NET: a network file)
--first-game G: the file holds games G, G+1, ... of the seed (0 by default); runs of one seed
          with disjoint game ranges, on many machines, join by `cat` into one run's file
--shards DIR: write the range as files of --shard-games N games (1000) in DIR, each listed in
          DIR/MANIFEST.txt with its games, records and SHA-256 (needs --games, a multiple of N)
Run again with the same settings to resume; FILE.progress records what FILE holds.";

/// Runs `shomei gensfen`; `args` follow the word `gensfen`.
pub fn main(args: &[String]) -> ExitCode {
    let result = parse_all(args).and_then(|(config, shards)| {
        eprintln!(
            "gensfen: writing {} with {} threads, settings: {}",
            config.out.display(),
            config.threads,
            {
                let params = config.params();
                params.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
            }
        );
        match shards {
            None => run(&config).map(drop),
            Some((dir, shard_games)) => {
                let command = format!("shomei gensfen {}", args.join(" "));
                run_shards(&config, &dir, shard_games, &command).map(|s| {
                    eprintln!(
                        "gensfen: {} shards written, {} found finished; {} lists them",
                        s.written.len(),
                        s.skipped,
                        dir.join(shards::MANIFEST).display()
                    )
                })
            }
        }
    });
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gensfen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The run `args` describe, and the shard folder and shard size if it writes shards.
pub fn parse_all(args: &[String]) -> Result<(RunConfig, Option<(PathBuf, u64)>), String> {
    let (mut dir, mut shard_games, mut rest) = (None, 1000, Vec::new());
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--shards" => dir = Some(PathBuf::from(it.next().ok_or("--shards needs a folder")?)),
            "--shard-games" => {
                shard_games = number(flag, it.next().ok_or("--shard-games needs a value")?)?;
            }
            _ => rest.push(flag.clone()),
        }
    }
    if dir.is_none() && args.iter().any(|a| a == "--shard-games") {
        return Err("--shard-games goes with --shards DIR".into());
    }
    let mut config = parse(&rest)?;
    if let Some(dir) = &dir {
        config.out = dir.clone();
    }
    Ok((config, dir.map(|d| (d, shard_games))))
}

/// The run `args` describe.
pub fn parse(args: &[String]) -> Result<RunConfig, String> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut config = RunConfig {
        out: PathBuf::from("data/gensfen.bin"),
        game: GameConfig { depth: None, ..GameConfig::default() },
        first_game: 0,
        games: None,
        positions: None,
        threads,
        progress: true,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--out" => config.out = PathBuf::from(value()?),
            "--games" => config.games = Some(number(flag, value()?)?),
            "--positions" => config.positions = Some(number(flag, value()?)?),
            "--depth" => config.game.depth = Some(number(flag, value()?)?),
            "--nodes" => config.game.nodes = Some(number(flag, value()?)?),
            "--seed" => config.game.seed = number(flag, value()?)?,
            "--threads" => config.threads = number(flag, value()?)?,
            "--random-plies" => config.game.random_plies = range(value()?)?,
            "--eval-limit" => config.game.eval_limit = number(flag, value()?)?,
            "--max-ply" => config.game.max_ply = number(flag, value()?)?,
            "--hash" => config.game.hash_mb = number(flag, value()?)?,
            "--first-game" => config.first_game = number(flag, value()?)?,
            "--eval-file" => config.game.network = Some(nnue::load(Path::new(value()?))?),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    if config.game.depth.is_none() && config.game.nodes.is_none() {
        config.game.depth = GameConfig::default().depth;
    }
    if config.games.is_none() && config.positions.is_none() {
        return Err(format!("say how much: --games N or --positions N\n{USAGE}"));
    }
    if config.threads == 0 {
        return Err("--threads must be positive".into());
    }
    config.game.validate()?;
    Ok(config)
}

/// `text` parsed as a number; the error names `flag`.
fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{flag}: '{text}' is not a valid number"))
}

/// `MIN-MAX` or a single number.
fn range(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    Ok((number("--random-plies", lo)?, number("--random-plies", hi)?))
}

/// Tests of the `gensfen` command line.
#[cfg(test)]
mod tests {
    use super::*;

    /// A command line split into words.
    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_fill_the_config() {
        let c = parse(&args("--games 5 --nodes 2000 --seed 9 --threads 2 --random-plies 4-6 --out x.bin"))
            .unwrap();
        assert_eq!((c.games, c.game.nodes, c.game.depth, c.game.seed), (Some(5), Some(2000), None, 9));
        assert_eq!((c.threads, c.game.random_plies, c.out), (2, (4, 6), PathBuf::from("x.bin")));
        assert_eq!(parse(&args("--positions 10")).unwrap().game.depth, Some(6));
        assert_eq!(parse(&args("--games 1 --random-plies 12")).unwrap().game.random_plies, (12, 12));
        let (c, shards) =
            parse_all(&args("--games 4000 --first-game 2000 --shards d --shard-games 500")).unwrap();
        assert_eq!((c.first_game, c.games, shards), (2000, Some(4000), Some((PathBuf::from("d"), 500))));
        assert_eq!(parse_all(&args("--games 5")).unwrap().1, None);
        assert!(parse_all(&args("--games 5 --shard-games 5")).is_err());
        for bad in
            ["", "--games", "--games x", "--games 1 --depth 0", "--games 1 --random-plies 9-3", "--bogus"]
        {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn eval_file_loads_a_network_that_the_settings_record() {
        let dir = std::env::temp_dir().join(format!("shomei-gensfen-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.nnue");
        let net = crate::eval::nnue::random_network(4);
        std::fs::write(&path, net.to_bytes()).unwrap();
        let c = parse(&args(&format!("--games 1 --eval-file {}", path.display()))).unwrap();
        assert_eq!(
            c.game.network,
            Some(crate::eval::nnue::AnyNetwork::Shomei(std::sync::Arc::new(net.clone())))
        );
        let fingerprint = format!("{:016x}", crate::eval::nnue::fingerprint(&net));
        assert!(c.game.params().contains(&("network".to_string(), fingerprint)));
        // Without a network the recorded settings are those of files written before networks.
        let hand = parse(&args("--games 1")).unwrap();
        if hand.game.network.is_none() {
            assert!(hand.game.params().iter().all(|(k, _)| k != "network"));
        }
        assert!(parse(&args("--games 1 --eval-file /nonexistent/net.nnue")).is_err());
        assert!(parse(&args("--games 1 --eval-file")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
