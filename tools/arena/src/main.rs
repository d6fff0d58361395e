//! `shomei-arena`: plays a match between two USI engines. See `--help` and README.md.
//!
//! Exit status: 0 when the match ran to its end (or the SPRT stopped it), 1 when it could not
//! start or stopped on an error, 2 for bad arguments.

use shomei_arena::cli::{parse_args, Parsed, USAGE};
use shomei_arena::runner;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse_args(&args) {
        Ok(Parsed::Help) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shomei-arena: {e}");
            eprintln!("run `shomei-arena --help` for the options");
            ExitCode::from(2)
        }
        Ok(Parsed::Run(cfg)) => match runner::run(&cfg) {
            Ok(r) => match r.error {
                None => ExitCode::SUCCESS,
                Some(e) => {
                    eprintln!("shomei-arena: the match stopped early: {e}");
                    ExitCode::from(1)
                }
            },
            Err(e) => {
                eprintln!("shomei-arena: {e}");
                ExitCode::from(1)
            }
        },
    }
}
