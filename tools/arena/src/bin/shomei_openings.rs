//! `shomei-openings`: writes random quiet openings, one `position startpos moves ...` line each,
//! the same the arena plays with `--random-opening` (for tools that read openings from a file,
//! such as ShogiArena's SPSA). Distinct lines only, in the order drawn; reproducible by seed.
//!
//! Usage: `shomei-openings --count N --plies P --seed S`

use shomei::rng::Rng;
use shomei_arena::openings::random_opening;
use std::collections::HashSet;
use std::process::ExitCode;

const USAGE: &str = "usage: shomei-openings --count N --plies P --seed S\n";

fn parse(args: &[String]) -> Result<(usize, u32, u64), String> {
    let (mut count, mut plies, mut seed) = (None, None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = || format!("{flag}: '{value}' is not a number");
        match flag.as_str() {
            "--count" => count = Some(value.parse().map_err(|_| bad())?),
            "--plies" => plies = Some(value.parse().map_err(|_| bad())?),
            "--seed" => seed = Some(value.parse().map_err(|_| bad())?),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    match (count, plies, seed) {
        (Some(c), Some(p), Some(s)) if p <= 60 => Ok((c, p, s)),
        (Some(_), Some(_), Some(_)) => Err("--plies: at most 60".into()),
        _ => Err("--count, --plies and --seed are all needed".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (count, plies, seed) = match parse(&args) {
        Ok(p) => p,
        Err(e) => {
            eprint!("shomei-openings: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    // Short openings have few distinct lines: give up after many repeats in a row.
    let mut repeats = 0;
    while seen.len() < count && repeats < 10_000 {
        let line = format!("position {}", random_opening(plies, &mut rng).to_line());
        if seen.insert(line.clone()) {
            println!("{line}");
            repeats = 0;
        } else {
            repeats += 1;
        }
    }
    if seen.len() < count {
        eprintln!("shomei-openings: only {} distinct openings of {plies} plies found", seen.len());
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
