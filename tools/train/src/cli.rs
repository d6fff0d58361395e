//! The command line: `shomei-train texel ...` and `shomei-train nnue ...`.

use crate::adam::TrainOptions;
use crate::halfkp::train as halfkp;
use crate::nnue::data::Augment;
use crate::nnue::train::{self as nnue, NnueConfig};
use crate::texel::{self, KChoice, TexelConfig};
use shomei::eval::nnue::halfkp::Arch;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// The help text of `shomei-train texel`.
pub const TEXEL_USAGE: &str = "usage: shomei-train texel --data FILE[,FILE...] --out FILE [options]
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

/// The help text of `shomei-train nnue`.
pub const NNUE_USAGE: &str = "usage: shomei-train nnue --data FILE[,FILE...] --out NET.nnue [options]
Trains the engine's network (src/eval/nnue) on shomei gensfen data.
  --data FILE[,FILE...]   gensfen record files
  --out NET.nnue          the quantised network; beside it NET.nnue.ckpt (the float state,
                          saved after every epoch), NET.nnue.csv and NET.nnue.svg (loss curve)
  --lambda L              target = L * sigmoid(score / K) + (1 - L) * result (default 0.75)
  --k K                   the sigmoid's scale in centipawns (default 600)
  --epochs N              total passes over the training positions (default 30)
  --lr X                  Adam's learning rate (default 0.001)
  --lr-decay D            the rate is multiplied by D after each epoch (default 0.92)
  --batch-size B          positions per step (default 16384)
  --threads T             threads (default: all cores); the result does not depend on it
  --validation-share S    share of the games held out (default 0.1)
  --seed S                seed of the first weights, the split and the shuffles (default 0)
  --weight-decay W        feature weights shrink by lr * W a step (decoupled; default 0)
  --augment N             derive N more positions from each training position, each by 1 to
                          --augment-plies random legal moves (not in check, not ended),
                          labelled sigmoid(hand evaluation / K) (default 0)
  --augment-plies P       the most random moves of a derivation (default 4)
  --augment-limit M       at most M derived positions in all (default: no limit)
  --augment-weight W      a derived position's loss weight, a record's being 1 (default 1)
  --augment-teacher NET   label the derived positions by that network, not the hand evaluation
  --resume NET.ckpt       go on from a checkpoint up to --epochs (same data and options)
  --init NET.nnue         start from that network's weights instead of fresh ones
  --no-progress           no progress bar (it is drawn when stderr is a terminal)
  --arch A                shomei (default): the engine's own net; or one of YaneuraOu's HalfKP
                          sizes, halfkp_256x2-32-32, halfkp_512x2-16-32, halfkp_1024x2-8-32,
                          halfkp_1024x2-8-64: a float net with factorised inputs, written as
                          the nn.bin YaneuraOu loads (--out NET.bin; no .ckpt: go on with
                          --init NET.bin, which also fine-tunes any published net of that size;
                          --augment-teacher takes either format)
  --stream N              HalfKP: read the training positions from disk every epoch, N at a
                          time in memory, shuffled (blocks of files in random order), instead
                          of holding them all; derived positions are made afresh per batch of N
  --grid-epochs N         HalfKP: the last N epochs compute on the weights rounded as the file
                          holds them, the gradient moving the float weights (straight-through),
                          and every loss is measured on them (default 0)
The network written is the epoch with the lowest validation loss (the last without validation
positions); the checkpoint is the last epoch's, and keeps the best one's weights too.";

/// Runs `shomei-train` with `args` (the program name left out).
pub fn main(args: &[String]) -> ExitCode {
    let usage = format!("{TEXEL_USAGE}\n\n{NNUE_USAGE}");
    let outcome = match args.first().map(String::as_str) {
        Some("texel") => parse_texel(&args[1..]).map(|c| texel::run(&c, &mut std::io::stderr()).map(drop)),
        Some("nnue") => parse_nnue(&args[1..]).map(|c| match c.arch {
            Some(arch) => halfkp::run(&c, arch, &mut std::io::stderr()).map(drop),
            None => nnue::run(&c, &mut std::io::stderr()).map(drop),
        }),
        Some("-h" | "--help") => {
            println!("{usage}");
            return ExitCode::SUCCESS;
        }
        _ => Err(usage),
    };
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("shomei-train: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("shomei-train: {e}");
            ExitCode::from(2)
        }
    }
}

/// What both subcommands take from the same flags.
#[derive(Clone, Debug, PartialEq)]
struct Common {
    data: Vec<PathBuf>,
    out: PathBuf,
    lambda: f64,
    validation_share: f64,
    train: TrainOptions,
}

/// The next argument, as the value of `flag`.
type Value<'a> = dyn FnMut() -> Result<String, String> + 'a;

/// Reads `args` into `common`; flags it does not know go to `own(flag, value)`, which says
/// whether it knew them. Checks the common settings.
fn parse(
    args: &[String],
    usage: &str,
    common: &mut Common,
    mut own: impl FnMut(&str, &mut Value) -> Result<bool, String>,
) -> Result<(), String> {
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value\n{usage}"));
        let train = &mut common.train;
        match flag.as_str() {
            "--data" => common.data.extend(value()?.split(',').filter(|s| !s.is_empty()).map(PathBuf::from)),
            "--out" => common.out = PathBuf::from(value()?),
            "--lambda" => common.lambda = number(flag, &value()?)?,
            "--epochs" => train.epochs = number(flag, &value()?)?,
            "--lr" => train.lr = number(flag, &value()?)?,
            "--lr-decay" => train.lr_decay = number(flag, &value()?)?,
            "--batch-size" => train.batch_size = number(flag, &value()?)?,
            "--threads" => train.threads = number(flag, &value()?)?,
            "--validation-share" => common.validation_share = number(flag, &value()?)?,
            "--seed" => train.seed = number(flag, &value()?)?,
            "-h" | "--help" => return Err(usage.into()),
            other => {
                if !own(other, &mut value)? {
                    return Err(format!("unknown argument '{other}'\n{usage}"));
                }
            }
        }
    }
    if common.data.is_empty() {
        return Err(format!("--data is needed\n{usage}"));
    }
    if common.out.as_os_str().is_empty() {
        return Err(format!("--out is needed\n{usage}"));
    }
    if !(0.0..=1.0).contains(&common.lambda) {
        return Err("--lambda must be 0 to 1".into());
    }
    if !(0.0..1.0).contains(&common.validation_share) {
        return Err("--validation-share must be at least 0 and below 1".into());
    }
    if common.train.threads == 0 || common.train.batch_size == 0 {
        return Err("--threads and --batch-size must be positive".into());
    }
    if !(common.train.lr > 0.0 && common.train.lr_decay > 0.0) {
        return Err("--lr and --lr-decay must be positive".into());
    }
    Ok(())
}

/// The common settings with their defaults for a subcommand.
fn defaults(lambda: f64, epochs: usize, lr: f64, lr_decay: f64, batch_size: usize) -> Common {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    Common {
        data: Vec::new(),
        out: PathBuf::new(),
        lambda,
        validation_share: 0.1,
        train: TrainOptions { epochs, lr, lr_decay, batch_size, threads, seed: 0 },
    }
}

/// Checks `--k`'s value.
fn positive_k(flag: &str, text: &str) -> Result<f64, String> {
    let k: f64 = number(flag, text)?;
    if !(k > 0.0 && k.is_finite()) {
        return Err("--k must be positive".into());
    }
    Ok(k)
}

/// The run the arguments after `texel` describe.
pub fn parse_texel(args: &[String]) -> Result<TexelConfig, String> {
    let mut common = defaults(0.5, 30, 1.0, 0.9, 4096);
    let (mut k, mut snippet, mut freeze) = (KChoice::Fixed(600.0), None, Vec::new());
    parse(args, TEXEL_USAGE, &mut common, |flag, value| {
        match flag {
            "--k" => k = KChoice::Fixed(positive_k(flag, &value()?)?),
            "--fit-k" => k = KChoice::Fit,
            "--snippet" => snippet = Some(PathBuf::from(value()?)),
            "--freeze" => freeze.extend(value()?.split(',').filter(|s| !s.is_empty()).map(String::from)),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    let snippet = snippet.unwrap_or_else(|| {
        let mut s = common.out.clone().into_os_string();
        s.push(".rs");
        PathBuf::from(s)
    });
    let Common { data, out, lambda, validation_share, train } = common;
    Ok(TexelConfig { data, lambda, k, validation_share, train, freeze, out, snippet })
}

/// The run the arguments after `nnue` describe.
pub fn parse_nnue(args: &[String]) -> Result<NnueConfig, String> {
    let mut common = defaults(0.75, 30, 1e-3, 0.92, 16_384);
    let (mut k, mut resume, mut progress) = (600.0, None, std::io::stderr().is_terminal());
    let (mut weight_decay, mut augment, mut init, mut augment_teacher) = (0.0, Augment::NONE, None, None);
    let (mut arch, mut stream, mut grid_epochs) = (None, None, 0);
    parse(args, NNUE_USAGE, &mut common, |flag, value| {
        match flag {
            "--k" => k = positive_k(flag, &value()?)?,
            "--resume" => resume = Some(PathBuf::from(value()?)),
            "--init" => init = Some(PathBuf::from(value()?)),
            "--augment-teacher" => augment_teacher = Some(PathBuf::from(value()?)),
            "--weight-decay" => weight_decay = number(flag, &value()?)?,
            "--augment" => augment.copies = number(flag, &value()?)?,
            "--augment-plies" => augment.max_plies = number(flag, &value()?)?,
            "--augment-limit" => augment.limit = Some(number(flag, &value()?)?),
            "--augment-weight" => augment.weight = number(flag, &value()?)?,
            "--no-progress" => progress = false,
            "--stream" => stream = Some(number(flag, &value()?)?),
            "--grid-epochs" => grid_epochs = number(flag, &value()?)?,
            "--arch" => {
                let name = value()?;
                arch = match name.as_str() {
                    "shomei" => None,
                    _ => Some(Arch::from_name(&name).ok_or_else(|| {
                        let known: Vec<String> = Arch::ALL.iter().map(|a| a.name()).collect();
                        format!("--arch: '{name}' is not shomei or one of {}", known.join(", "))
                    })?),
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    if augment.max_plies == 0 {
        return Err("--augment-plies must be positive".into());
    }
    if init.is_some() && resume.is_some() {
        return Err("--init and --resume both say where to start: give one".into());
    }
    if !(augment.weight >= 0.0 && augment.weight.is_finite()) {
        return Err("--augment-weight must be 0 or more".into());
    }
    match stream {
        Some(_) if arch.is_none() => return Err("--stream is for HalfKP nets (--arch halfkp_...)".into()),
        Some(0) => return Err("--stream needs a positive number of positions".into()),
        _ => {}
    }
    if grid_epochs > 0 && arch.is_none() {
        return Err("--grid-epochs is for HalfKP nets (--arch halfkp_...)".into());
    }
    let command =
        std::iter::once("shomei-train nnue").chain(args.iter().map(String::as_str)).collect::<Vec<_>>();
    let Common { data, out, lambda, validation_share, train } = common;
    Ok(NnueConfig {
        data,
        out,
        lambda,
        k,
        validation_share,
        train,
        weight_decay,
        augment,
        resume,
        augment_teacher,
        init,
        progress,
        arch,
        stream,
        grid_epochs,
        command: command.join(" "),
    })
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
        assert!(parse_texel(&args("--data a.bin --out p --resume x")).is_err(), "nnue's flag");
    }

    #[test]
    fn nnue_flags_and_defaults() {
        let c = parse_nnue(&args("--data a.bin --out n.nnue --k 400 --resume n.nnue.ckpt --no-progress"))
            .unwrap();
        assert_eq!(
            (c.k, c.lambda, c.train.lr, c.train.batch_size, c.progress),
            (400.0, 0.75, 1e-3, 16_384, false)
        );
        assert_eq!(c.resume, Some(PathBuf::from("n.nnue.ckpt")));
        assert_eq!(c.init, None);
        assert_eq!(c.augment, Augment::NONE);
        let i = parse_nnue(&args("--data a.bin --out n --init nets/net3.nnue")).unwrap();
        assert_eq!(i.init, Some(PathBuf::from("nets/net3.nnue")));
        let t = parse_nnue(&args("--data a.bin --out n --augment 2 --augment-teacher t.nnue")).unwrap();
        assert_eq!(t.augment_teacher, Some(PathBuf::from("t.nnue")));
        assert!(
            parse_nnue(&args("--data a.bin --out n --init a.nnue --resume n.ckpt")).is_err(),
            "two starts"
        );
        let a = parse_nnue(&args(
            "--data a.bin --out n --augment 8 --augment-plies 2 --augment-limit 1000 --augment-weight 0.5",
        ))
        .unwrap()
        .augment;
        assert_eq!(a, Augment { copies: 8, max_plies: 2, limit: Some(1000), weight: 0.5 });
        assert!(parse_nnue(&args("--data a.bin --out n --augment-plies 0")).is_err());
        assert!(parse_nnue(&args("--data a.bin --out n --augment-weight -1")).is_err());
        assert_eq!(c.beside_out(".svg"), PathBuf::from("n.nnue.svg"));
        assert_eq!(
            c.command,
            "shomei-train nnue --data a.bin --out n.nnue --k 400 --resume n.nnue.ckpt --no-progress"
        );
        let e = parse_nnue(&args("--data a.bin --out n --epochs x")).unwrap_err();
        assert!(e.starts_with("--epochs: 'x' is not a valid number"), "{e}");
        assert!(parse_nnue(&args("--out n")).unwrap_err().starts_with("--data is needed"));
        assert!(parse_nnue(&args("--data a.bin --out n --freeze PAWN")).is_err(), "texel's flag");
        assert!(parse_nnue(&args("--data a.bin --out n --lr"))
            .unwrap_err()
            .starts_with("--lr needs a value"));
    }
}
