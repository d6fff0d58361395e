//! The `shomei` binary: a USI engine on stdin/stdout, or a one-shot command from the arguments.

#![deny(clippy::missing_docs_in_private_items)]

use shomei::shogi::perft::divide_listing;
use shomei::shogi::SfenMode;
use shomei::Position;
use std::io::{self, BufWriter};
use std::process::ExitCode;
use std::time::Instant;

/// `shomei perft <depth> [sfen]`: the perft of each legal move of the position (the start position
/// by default) and the total, with the time taken on stderr.
fn perft_command(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: shomei perft <depth> [sfen]");
        return ExitCode::FAILURE;
    };
    let sfen = if args.len() > 1 { args[1..].join(" ") } else { "startpos".to_string() };
    let mut pos = match Position::from_sfen_mode(&sfen, SfenMode::Composed) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("invalid sfen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let (text, total) = divide_listing(&mut pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!("{text}");
    eprintln!("time {:.3} s, {:.1} M nodes/s", secs, total as f64 / secs.max(1e-9) / 1e6);
    ExitCode::SUCCESS
}

/// `shomei nnue random <arch> <seed> <file>`: writes a seeded random network of YaneuraOu's
/// HalfKP format (`halfkp_256x2-32-32` and its siblings), for tests, fixtures and speed
/// measurements that another engine must read too.
fn nnue_command(args: &[String]) -> ExitCode {
    use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
    let usage =
        "usage: shomei nnue random <arch> <seed> <file>   (arch: halfkp_256x2-32-32, halfkp_512x2-16-32, \
                 halfkp_1024x2-8-32 or halfkp_1024x2-8-64)\n       shomei nnue upgrade <in> <out>   \
                 (a shomei network rewritten in the current format, with its checksum)";
    if let [verb, input, output] = args {
        if verb == "upgrade" {
            return upgrade_network(input, output);
        }
    }
    let parsed = match args {
        [verb, arch, seed, file] if verb == "random" => {
            Arch::from_name(arch).zip(seed.parse::<u64>().ok()).map(|(arch, seed)| (arch, seed, file))
        }
        _ => None,
    };
    let Some((arch, seed, file)) = parsed else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let write = |path: &str| -> std::io::Result<()> {
        let mut out = BufWriter::new(std::fs::File::create(path)?);
        AnyHalfKp::random(arch, seed).write_to(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    };
    match write(file) {
        Ok(()) => {
            eprintln!("wrote {file}: {arch}, seed {seed}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {file}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `shomei nnue upgrade IN OUT`: a shomei network of any format this build reads, written in
/// the current one (format 2, which ends with a checksum). The weights are the same bytes.
fn upgrade_network(input: &str, output: &str) -> ExitCode {
    let net = match shomei::eval::nnue::load_shomei(std::path::Path::new(input)) {
        Ok(net) => net,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match std::fs::write(output, net.to_bytes()) {
        Ok(()) => {
            eprintln!("wrote {output}: format {}", shomei::eval::nnue::network::VERSION);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {output}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some("book") => shomei::book::cli::run(&args[1..]),
        Some("dobutsu") => shomei::dobutsu::cli::run(&args[1..]),
        Some("gensfen") => shomei::training_data::gensfen::cli::main(&args[1..]),
        Some("nnue") => nnue_command(&args[1..]),
        Some("bench") => match shomei::bench::BenchConfig::from_args(&args[1..]) {
            Ok(config) => {
                print!("{}", shomei::bench::run(&config));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("bench: {e}");
                ExitCode::FAILURE
            }
        },
        Some(other) => {
            eprintln!("unknown command '{other}'; run without arguments for the USI loop");
            ExitCode::FAILURE
        }
        None => {
            shomei::usi::run(io::BufReader::new(io::stdin()), BufWriter::new(io::stdout()));
            ExitCode::SUCCESS
        }
    }
}
