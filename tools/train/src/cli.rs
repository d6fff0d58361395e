//! The command line: `shomei-train texel ...`.

use crate::texel::{self, KChoice, TexelConfig, TrainOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// The help text.
pub const USAGE: &str = "usage: shomei-train texel --data FILE[,FILE...] --out FILE [options]
Tunes the weights of src/eval/params.rs on shomei gensfen data (Texel's method).
  --data FILE[,FILE...]   gensfen record files
  --out FILE              the tuned weights as NAME = value lines
  --snippet FILE          the same as Rust declarations for params.rs (default: OUT.rs)
  --lambda L              target = L * sigmoid(score / K) + (1 - L) * result (default 0.5)
  --k K | --fit-k         the sigmoid's scale in centipawns (default 600, YaneuraOu's
                          win-rate scale), or fitted to the results under the current weights
  --epochs N              passes over the training positions (default 30)
  --lr X                  Adam's step, in hundredths of each weight group's size (default 1)
  --lr-decay D            the step is multiplied by D after each epoch (default 0.9)
  --batch-size B          positions per step (default 4096)
  --threads T             threads (default: all cores)
  --validation-share S    share of the games held out (default 0.1)
  --seed S                seed of the split and the shuffles (default 0)
  --freeze NAME[,NAME...] params.rs constants left as they are (e.g. PAWN,KING_RANK)";

/// Runs `shomei-train` with `args` (the program name left out).
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("texel") => match parse_texel(&args[1..]) {
            Ok(config) => match texel::run(&config, &mut std::io::stderr()) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shomei-train: {e}");
                    ExitCode::FAILURE
                }
            },
            Err(e) => {
                eprintln!("shomei-train: {e}");
                ExitCode::from(2)
            }
        },
        Some("-h" | "--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// The run the arguments after `texel` describe.
pub fn parse_texel(args: &[String]) -> Result<TexelConfig, String> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut config = TexelConfig {
        data: Vec::new(),
        lambda: 0.5,
        k: KChoice::Fixed(600.0),
        validation_share: 0.1,
        train: TrainOptions {
            epochs: 30,
            lr: 1.0,
            lr_decay: 0.9,
            batch_size: 4096,
            threads,
            seed: 0,
            frozen: Vec::new(),
        },
        freeze: Vec::new(),
        out: PathBuf::new(),
        snippet: PathBuf::new(),
    };
    let mut snippet = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--data" => config.data.extend(value()?.split(',').filter(|s| !s.is_empty()).map(PathBuf::from)),
            "--out" => config.out = PathBuf::from(value()?),
            "--snippet" => snippet = Some(PathBuf::from(value()?)),
            "--lambda" => config.lambda = number(flag, value()?)?,
            "--k" => config.k = KChoice::Fixed(number(flag, value()?)?),
            "--fit-k" => config.k = KChoice::Fit,
            "--epochs" => config.train.epochs = number(flag, value()?)?,
            "--lr" => config.train.lr = number(flag, value()?)?,
            "--lr-decay" => config.train.lr_decay = number(flag, value()?)?,
            "--batch-size" => config.train.batch_size = number(flag, value()?)?,
            "--threads" => config.train.threads = number(flag, value()?)?,
            "--validation-share" => config.validation_share = number(flag, value()?)?,
            "--seed" => config.train.seed = number(flag, value()?)?,
            "--freeze" => {
                config.freeze.extend(value()?.split(',').filter(|s| !s.is_empty()).map(String::from))
            }
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    if config.data.is_empty() {
        return Err(format!("--data is needed\n{USAGE}"));
    }
    if config.out.as_os_str().is_empty() {
        return Err(format!("--out is needed\n{USAGE}"));
    }
    config.snippet = snippet.unwrap_or_else(|| {
        let mut s = config.out.clone().into_os_string();
        s.push(".rs");
        PathBuf::from(s)
    });
    if !(0.0..=1.0).contains(&config.lambda) {
        return Err("--lambda must be 0 to 1".into());
    }
    if matches!(config.k, KChoice::Fixed(k) if !(k > 0.0 && k.is_finite())) {
        return Err("--k must be positive".into());
    }
    if !(0.0..1.0).contains(&config.validation_share) {
        return Err("--validation-share must be at least 0 and below 1".into());
    }
    if config.train.threads == 0 || config.train.batch_size == 0 {
        return Err("--threads and --batch-size must be positive".into());
    }
    if !(config.train.lr > 0.0 && config.train.lr_decay > 0.0) {
        return Err("--lr and --lr-decay must be positive".into());
    }
    Ok(config)
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{flag}: '{text}' is not a valid number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_set_the_run() {
        let c = parse_texel(&args(
            "--data a.bin,b.bin --out p.txt --fit-k --lambda 1 --epochs 3 --seed 7 --threads 2",
        ))
        .unwrap();
        assert_eq!(c.data, vec![PathBuf::from("a.bin"), PathBuf::from("b.bin")]);
        assert_eq!(c.snippet, PathBuf::from("p.txt.rs"));
        assert_eq!(
            (c.k, c.lambda, c.train.epochs, c.train.seed, c.train.threads),
            (KChoice::Fit, 1.0, 3, 7, 2)
        );
        assert!(parse_texel(&args("--out p.txt")).is_err(), "no data");
        assert!(parse_texel(&args("--data a.bin")).is_err(), "no output");
        assert!(parse_texel(&args("--data a.bin --out p --lambda 2")).is_err());
        assert!(parse_texel(&args("--data a.bin --out p --k 0")).is_err());
        assert!(parse_texel(&args("--data a.bin --out p --bogus")).is_err());
    }
}
