//! `shomei-train texel` end to end: on a tiny gensfen file it runs, writes weights that parse
//! and name every weight, and a Rust snippet; the output is the same whatever the thread count;
//! bad input is refused.

use crate::shared::{temp_dir, tiny_data};
use shomei::eval::trace::names;
use shomei_train::output::parse_params;
use std::process::{Command, Output};

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shomei-train")).arg("texel").args(args).output().unwrap()
}

#[test]
fn a_tiny_run_writes_weights_that_parse_and_do_not_depend_on_threads() {
    let dir = temp_dir("run");
    let data = tiny_data(&dir);
    let mut texts = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("params-{threads}.txt"));
        let run = train(&[
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--fit-k",
            "--epochs",
            "3",
            "--batch-size",
            "64",
            "--validation-share",
            "0.25",
            "--threads",
            threads,
        ]);
        let log = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{log}");
        assert!(log.contains("epoch   3"), "{log}");
        assert!(log.contains("K = "), "{log}");
        assert!(log.contains("keeping the weights of epoch"), "{log}");
        let text = std::fs::read_to_string(&out).unwrap();
        let parsed = parse_params(&text).unwrap();
        let parsed_names: Vec<String> = parsed.iter().map(|(n, _)| n.clone()).collect();
        assert_eq!(parsed_names, names());
        let snippet = std::fs::read_to_string(dir.join(format!("params-{threads}.txt.rs"))).unwrap();
        assert!(snippet.contains("pub const PAWN: Value = "), "{snippet}");
        texts.push((text, snippet));
    }
    assert_eq!(texts[0], texts[1], "the thread count changed the result");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused() {
    let dir = temp_dir("bad");
    let missing = dir.join("missing.bin");
    let run = train(&["--data", missing.to_str().unwrap(), "--out", dir.join("p.txt").to_str().unwrap()]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot open"));
    let run = train(&["--out", "p.txt"]);
    assert_eq!(run.status.code(), Some(2));
    // A file cut inside a record.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, [0u8; 50]).unwrap();
    let run = train(&["--data", cut.to_str().unwrap(), "--out", dir.join("p.txt").to_str().unwrap()]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("record"));
    let _ = std::fs::remove_dir_all(&dir);
}
