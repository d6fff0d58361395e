//! Command-line arguments into a match configuration, with errors that name the bad argument.

use crate::clock::TimeControl;
use crate::config::{
    Engine1Plays, EngineConfig, MatchConfig, OpeningOrder, OpeningSource, Repetition, Variant,
};
use crate::stats::SprtConfig;
use shomei::shogi::EnteringKingRule;
use std::path::PathBuf;
use std::time::Duration;

pub enum Parsed {
    Run(Box<MatchConfig>),
    Help,
}

pub const USAGE: &str = "\
shomei-arena: matches between two USI shogi engines

usage: shomei-arena --engine1 CMD --engine2 CMD [options]

Engines (N is 1 or 2):
  --engineN CMD            command line of engine N (split like a shell: quotes, backslashes)
  --nameN NAME             name in output and records (default: the engine's `id name`)
  --dirN DIR               working directory of engine N
  --optionN NAME=VALUE     `setoption` for engine N after `usiok` (repeatable; NAME alone: button)
  --option NAME=VALUE      `setoption` for both engines (repeatable)
  --ponderN                engine N ponders: it gets `setoption name USI_Ponder value true`;
                           after `bestmove M ponder P` it is sent the position after M and P
                           and `go ponder` with the clock as it stands; on its turn `ponderhit`
                           if P was played (its clock runs from then), else `stop` (its answer
                           is discarded) and a normal `go`
  --ponder                 both engines ponder

Games:
  --games N                number of games (default 2); games 2k-1 and 2k share an opening,
                           engine 1 playing Black in the first and White in the second
  --tc TC                  time control (default byoyomi=1000):
                             byoyomi=MS             byoyomi only
                             BASE+INC               Fischer, seconds (10+0.1); BASE+0 or BASE: sudden death
                             time=S,byoyomi=MS      main time then byoyomi (also time=S,inc=S)
                             nodes=N | depth=N      fixed search per move
  --tolerance MS           extra time allowed per move before a loss on time (default 100)
  --max-move-time MS       limit per move under nodes= or depth= (default 60000)
  --openings SRC           FILE, `builtin` (tools/openings.txt, the default) or `startpos`
  --opening-order ORDER    sequential (default) or random (shuffled with the seed)
  --random-opening PLIES   a random quiet opening of PLIES plies per pair instead of a file
  --seed N                 seed for opening order and random openings (default: from the clock)
  --max-moves N            draw when N moves have been played (default 320)
  --entering-king RULE     csa27 (default), csa24, csa27h, csa24h (handicap: White needs less by
                           the material missing), try (a king move onto 5a / 5i wins) or none:
                           how `bestmove win` and tries are judged
  --variant GAME           shogi (default) or dobutsu: engines get `setoption name UCI_Variant
                           value dobutsu`, the shomei Dobutsu rules adjudicate, openings are the
                           start position (or --random-opening / a file of Dobutsu lines)
  --repetition N           Dobutsu: a position occurring the Nth time draws (default 4, as
                           Fairy-Stockfish; 3 as the official rules; 0: not counted)
  --engine1-plays SIDE     both (default: colours alternate), black or white (every game)
  --concurrency N          games played at once (default 1)
  --sprt elo0=A elo1=B [alpha=0.05] [beta=0.05]
                           sequential test on pentanomial pairs; stops when a bound is crossed

Output:
  --out DIR                records, results and logs (default arena-out)
  --overwrite              reuse a DIR that already holds match results

Engine handling:
  --usi-timeout MS         wait for `usiok` (default 10000)
  --ready-timeout MS       wait for `readyok` (default 30000)
  --quit-timeout MS        wait for an engine to exit after `quit` before killing it (default 2000)
  --stop-timeout MS        wait for a pondering engine's bestmove after `stop`, on top of the
                           tolerance (default 5000); no answer in time loses (`hang`)
  --stderr-limit MB        cap of each engine's stderr log (default 64)
";

fn parse_num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim().parse().map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

fn parse_option(flag: &str, v: &str) -> Result<(String, Option<String>), String> {
    let (name, value) = match v.split_once('=') {
        Some((n, val)) => (n.trim(), Some(val.to_string())),
        None => (v.trim(), None),
    };
    // Engines of UCI descent declare names with spaces (Fairy-Stockfish's `Skill Level`), which
    // `setoption name Skill Level value 0` sends as they are; only the word `value` would be
    // read as the end of the name.
    if name.is_empty() || name.split_whitespace().any(|w| w == "value") {
        return Err(format!("{flag}: option name '{name}' is empty or holds the word 'value'"));
    }
    Ok((name.to_string(), value))
}

fn parse_sprt(words: &[String]) -> Result<SprtConfig, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let parts: Vec<&str> = words.iter().flat_map(|w| w.split(',')).filter(|p| !p.is_empty()).collect();
    for part in parts {
        let (k, v) = part.split_once('=').ok_or_else(|| format!("--sprt: '{part}' is not key=value"))?;
        let x: f64 = parse_num("--sprt", v)?;
        if !x.is_finite() {
            return Err(format!("--sprt: {k} must be finite"));
        }
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => return Err(format!("--sprt: unknown key '{k}' (expected elo0, elo1, alpha, beta)")),
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0=... and elo1=...".into());
    };
    if elo0 >= elo1 {
        return Err(format!("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"));
    }
    if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
        return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
    }
    Ok(SprtConfig { elo0, elo1, alpha, beta })
}

/// The engines a pondering switch names (a switch takes no value): both, or engine 1 or 2.
fn ponder_switch(flag: &str) -> Option<&'static [usize]> {
    match flag {
        "--ponder" => Some(&[0, 1]),
        "--ponder1" => Some(&[0]),
        "--ponder2" => Some(&[1]),
        _ => None,
    }
}

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Parsed, String> {
    // `--flag=value` is the same as `--flag value`.
    let mut argv: Vec<String> = Vec::new();
    for a in args {
        match a.split_once('=') {
            Some((flag, value)) if a.starts_with("--") && !flag.contains(' ') => {
                argv.push(flag.to_string());
                argv.push(value.to_string());
            }
            _ => argv.push(a.clone()),
        }
    }
    let mut commands: [Option<String>; 2] = [None, None];
    let mut names: [Option<String>; 2] = [None, None];
    let mut dirs: [Option<PathBuf>; 2] = [None, None];
    let mut options: [Vec<(String, Option<String>)>; 2] = [Vec::new(), Vec::new()];
    let mut both_options = Vec::new();
    let mut cfg_games = 2usize;
    let mut tc = TimeControl::parse("byoyomi=1000").expect("valid default");
    let mut tolerance = 100u64;
    let mut max_move_time = 60_000u64;
    let mut openings = OpeningSource::Builtin;
    let mut random_opening = None;
    let mut opening_order = OpeningOrder::Sequential;
    let mut seed = None;
    let mut max_moves = 320u32;
    let mut entering_king = EnteringKingRule::Csa27;
    let mut variant = Variant::Shogi;
    let mut repetition = Repetition { draw_at: 4 };
    let mut engine1_plays = Engine1Plays::Both;
    let mut concurrency = 1usize;
    let mut out = PathBuf::from("arena-out");
    let mut overwrite = false;
    let mut sprt = None;
    let mut usi_timeout = 10_000u64;
    let mut ready_timeout = 30_000u64;
    let mut quit_timeout = 2_000u64;
    let mut stop_timeout = 5_000u64;
    let mut ponder = [false; 2];
    let mut stderr_limit_mb = 64u64;

    let mut i = 0;
    while i < argv.len() {
        let flag = argv[i].as_str();
        i += 1;
        if flag == "--help" || flag == "-h" {
            return Ok(Parsed::Help);
        }
        if flag == "--overwrite" {
            overwrite = true;
            continue;
        }
        if let Some(engines) = ponder_switch(flag) {
            for &e in engines {
                ponder[e] = true;
            }
            continue;
        }
        if flag == "--sprt" {
            let start = i;
            while i < argv.len() && !argv[i].starts_with("--") {
                i += 1;
            }
            sprt = Some(parse_sprt(&argv[start..i])?);
            continue;
        }
        if !flag.starts_with("--") {
            return Err(format!("unexpected argument '{flag}' (options start with --; see --help)"));
        }
        let Some(value) = argv.get(i).cloned() else {
            return Err(format!("{flag} needs a value"));
        };
        i += 1;
        // Per-engine flags end in 1 or 2.
        let (base, which) = match flag.strip_suffix('1') {
            Some(b) => (b, Some(0)),
            None => match flag.strip_suffix('2') {
                Some(b) => (b, Some(1)),
                None => (flag, None),
            },
        };
        match (base, which) {
            ("--engine", Some(e)) => commands[e] = Some(value),
            ("--name", Some(e)) => {
                if value.trim().is_empty() {
                    return Err(format!("{flag}: empty name"));
                }
                names[e] = Some(value.trim().to_string())
            }
            ("--dir", Some(e)) => dirs[e] = Some(PathBuf::from(value)),
            ("--option", Some(e)) => options[e].push(parse_option(flag, &value)?),
            ("--option", None) => both_options.push(parse_option(flag, &value)?),
            _ => match flag {
                "--games" => cfg_games = parse_num(flag, &value)?,
                "--tc" => tc = TimeControl::parse(&value).map_err(|e| format!("--tc: {e}"))?,
                "--tolerance" => tolerance = parse_num(flag, &value)?,
                "--max-move-time" => max_move_time = parse_num(flag, &value)?,
                "--openings" => {
                    openings = match value.as_str() {
                        "builtin" => OpeningSource::Builtin,
                        "startpos" => OpeningSource::Startpos,
                        path => OpeningSource::File(PathBuf::from(path)),
                    }
                }
                "--random-opening" => random_opening = Some(parse_num::<u32>(flag, &value)?),
                "--opening-order" => {
                    opening_order = match value.as_str() {
                        "sequential" => OpeningOrder::Sequential,
                        "random" => OpeningOrder::Random,
                        v => return Err(format!("--opening-order: '{v}' is not sequential or random")),
                    }
                }
                "--seed" => seed = Some(parse_num(flag, &value)?),
                "--max-moves" => max_moves = parse_num(flag, &value)?,
                "--entering-king" => {
                    entering_king = match value.to_ascii_lowercase().as_str() {
                        "csa27" | "27" => EnteringKingRule::Csa27,
                        "csa24" | "24" => EnteringKingRule::Csa24,
                        "csa27h" | "27h" => EnteringKingRule::Csa27H,
                        "csa24h" | "24h" => EnteringKingRule::Csa24H,
                        "try" => EnteringKingRule::Try,
                        "none" => EnteringKingRule::None,
                        v => {
                            return Err(format!(
                                "--entering-king: '{v}' is not csa27, csa24, csa27h, csa24h, try or none"
                            ))
                        }
                    }
                }
                "--variant" => {
                    variant = match value.to_ascii_lowercase().as_str() {
                        "shogi" => Variant::Shogi,
                        "dobutsu" => Variant::Dobutsu,
                        v => return Err(format!("--variant: '{v}' is not shogi or dobutsu")),
                    }
                }
                "--repetition" => {
                    let n: u32 = parse_num(flag, &value)?;
                    if n == 1 || n == 2 || n > 9 {
                        return Err(format!("--repetition: {n} is not 0 (off) or 3 to 9"));
                    }
                    repetition = Repetition { draw_at: n };
                }
                "--engine1-plays" => {
                    engine1_plays = match value.to_ascii_lowercase().as_str() {
                        "both" => Engine1Plays::Both,
                        "black" => Engine1Plays::Black,
                        "white" => Engine1Plays::White,
                        v => return Err(format!("--engine1-plays: '{v}' is not both, black or white")),
                    }
                }
                "--concurrency" => concurrency = parse_num(flag, &value)?,
                "--out" => out = PathBuf::from(value),
                "--usi-timeout" => usi_timeout = parse_num(flag, &value)?,
                "--ready-timeout" => ready_timeout = parse_num(flag, &value)?,
                "--quit-timeout" => quit_timeout = parse_num(flag, &value)?,
                "--stop-timeout" => stop_timeout = parse_num(flag, &value)?,
                "--stderr-limit" => stderr_limit_mb = parse_num(flag, &value)?,
                _ => return Err(format!("unknown option {flag} (see --help)")),
            },
        }
    }

    let mut engines = Vec::new();
    for e in 0..2 {
        let Some(cmd) = commands[e].take() else {
            return Err(format!("--engine{} is missing: give the command line of each engine", e + 1));
        };
        let mut ec = EngineConfig::from_command(&cmd).map_err(|err| format!("--engine{}: {err}", e + 1))?;
        ec.name = names[e].take();
        ec.dir = dirs[e].take();
        if let Some(dir) = &ec.dir {
            if !dir.is_dir() {
                return Err(format!("--dir{}: '{}' is not a directory", e + 1, dir.display()));
            }
        }
        ec.options = both_options.iter().cloned().chain(options[e].drain(..)).collect();
        ec.ponder = ponder[e];
        engines.push(ec);
    }
    if cfg_games == 0 {
        return Err("--games must be at least 1".into());
    }
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if max_moves == 0 {
        return Err("--max-moves must be at least 1".into());
    }
    if let Some(plies) = random_opening {
        if openings != OpeningSource::Builtin {
            return Err("--random-opening and --openings exclude each other".into());
        }
        if plies > 60 {
            return Err("--random-opening: at most 60 plies".into());
        }
        openings = OpeningSource::Random(plies);
    }
    let seed = seed.unwrap_or_else(shomei::rng::Rng::seed_from_entropy);
    let [e1, e2]: [EngineConfig; 2] = engines.try_into().expect("two engines");
    Ok(Parsed::Run(Box::new(MatchConfig {
        engines: [e1, e2],
        games: cfg_games,
        tc,
        tolerance: Duration::from_millis(tolerance),
        max_move_time: Duration::from_millis(max_move_time),
        openings,
        opening_order,
        seed,
        max_moves,
        entering_king,
        variant,
        repetition,
        engine1_plays,
        concurrency,
        out,
        overwrite,
        sprt,
        usi_timeout: Duration::from_millis(usi_timeout),
        ready_timeout: Duration::from_millis(ready_timeout),
        quit_timeout: Duration::from_millis(quit_timeout),
        stop_timeout: Duration::from_millis(stop_timeout),
        stderr_limit: stderr_limit_mb.saturating_mul(1024 * 1024),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn run(s: &[&str]) -> MatchConfig {
        match parse_args(&args(s)).unwrap() {
            Parsed::Run(c) => *c,
            Parsed::Help => panic!("help"),
        }
    }

    #[test]
    fn full_command_line() {
        let c = run(&[
            "--engine1",
            "/bin/eng --fast",
            "--engine2=/bin/other",
            "--name1",
            "new",
            "--option",
            "USI_Hash=64",
            "--option2",
            "Threads=1",
            "--option1",
            "ClearHash",
            "--games",
            "10",
            "--tc",
            "10+0.1",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "alpha=0.05",
            "beta=0.1",
            "--concurrency",
            "2",
            "--seed",
            "7",
        ]);
        assert_eq!(c.engines[0].program, PathBuf::from("/bin/eng"));
        assert_eq!(c.engines[0].args, ["--fast"]);
        assert_eq!(c.engines[0].name.as_deref(), Some("new"));
        assert_eq!(
            c.engines[0].options,
            [("USI_Hash".to_string(), Some("64".to_string())), ("ClearHash".to_string(), None)]
        );
        assert_eq!(
            c.engines[1].options,
            [
                ("USI_Hash".to_string(), Some("64".to_string())),
                ("Threads".to_string(), Some("1".to_string()))
            ]
        );
        assert_eq!(c.games, 10);
        assert_eq!(c.tc, TimeControl::parse("10+0.1").unwrap());
        assert_eq!(c.sprt, Some(SprtConfig { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.1 }));
        assert_eq!(c.concurrency, 2);
        assert_eq!(c.seed, 7);
        assert_eq!(c.openings, OpeningSource::Builtin);
        assert!(!c.engines[0].ponder && !c.engines[1].ponder);
        assert_eq!(c.stop_timeout, Duration::from_millis(5000));
    }

    #[test]
    fn ponder_switches_take_no_value() {
        let c = run(&["--ponder2", "--engine1", "a", "--engine2", "b", "--stop-timeout", "800"]);
        assert_eq!([c.engines[0].ponder, c.engines[1].ponder], [false, true]);
        assert_eq!(c.stop_timeout, Duration::from_millis(800));
        let c = run(&["--engine1", "a", "--ponder1", "--engine2", "b"]);
        assert_eq!([c.engines[0].ponder, c.engines[1].ponder], [true, false]);
        let c = run(&["--engine1", "a", "--engine2", "b", "--ponder"]);
        assert_eq!([c.engines[0].ponder, c.engines[1].ponder], [true, true]);
    }

    #[test]
    fn errors_name_the_argument() {
        let err = |s: &[&str]| match parse_args(&args(s)) {
            Err(e) => e,
            Ok(_) => panic!("{s:?} accepted"),
        };
        assert!(err(&["--engine1", "a"]).contains("--engine2"));
        assert!(err(&["--engine1", "a", "--engine2", "b", "--games", "x"]).contains("--games"));
        assert!(err(&["--engine1", "a", "--engine2", "b", "--tc", "fast"]).contains("--tc"));
        assert!(err(&["--engine1", "a", "--engine2", "b", "--bogus", "1"]).contains("--bogus"));
        assert!(err(&["--engine1", "a", "--engine2", "b", "--sprt", "elo0=5", "elo1=0"]).contains("elo0"));
        assert!(err(&["--engine1", "a", "--engine2", "b", "--option1", "My value=1"]).contains("'value'"));
        assert!(err(&["--engine1", "a", "--engine2", "b", "--option1", "=1"]).contains("empty"));
        // Names with spaces, as Fairy-Stockfish's `Skill Level`, are kept whole.
        let parsed = parse_args(&args(&["--engine1", "a", "--engine2", "b", "--option2", "Skill Level=3"]));
        assert!(parsed.is_ok(), "{:?}", parsed.err());
        assert!(err(&["--engine1", "a", "--engine2", "b", "--dir1", "/nonexistent/dir"]).contains("--dir1"));
    }
}
