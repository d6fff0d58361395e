//! The `shomei-train` binary: see `shomei-train --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    shomei_train::cli::main(&args)
}
