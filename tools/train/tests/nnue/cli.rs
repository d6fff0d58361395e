//! `shomei-train nnue` end to end on a tiny gensfen file: it writes a network the engine
//! reads, with its checkpoint, CSV and SVG beside it, and a description naming the command and
//! the data; the weights are the same with one thread or two, and after a resume; with
//! `--augment` too, and the network is the epoch of the lowest validation loss in the CSV; bad
//! input gets a clear message and a non-zero exit.

use crate::shared::{temp_dir, tiny_data};
use shomei::eval::nnue::Network;
use std::path::Path;
use std::process::{Command, Output};

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shomei-train")).arg("nnue").args(args).output().unwrap()
}

/// Trains on `data` into `out` with `extra` flags; the network read back.
fn run(data: &Path, out: &Path, extra: &[&str]) -> Network {
    run_logged(data, out, extra).0
}

/// `run`, with the log.
fn run_logged(data: &Path, out: &Path, extra: &[&str]) -> (Network, String) {
    let mut args =
        vec!["--data", data.to_str().unwrap(), "--out", out.to_str().unwrap(), "--batch-size", "64"];
    args.extend_from_slice(&["--validation-share", "0.25", "--no-progress"]);
    args.extend_from_slice(extra);
    let run = train(&args);
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{log}");
    assert!(log.contains("epoch   1") && log.contains("validation loss"), "{log}");
    (Network::from_bytes(&std::fs::read(out).unwrap()).unwrap(), log.into_owned())
}

/// The network's weights, without its description.
fn weights(net: &Network) -> (&[i16], &[i16], &[i16], i32) {
    (&net.ft_bias, &net.ft_weights, &net.out_weights, net.out_bias)
}

#[test]
fn a_tiny_run_writes_a_network_that_does_not_depend_on_threads() {
    let dir = temp_dir("nnue-run");
    let data = tiny_data(&dir);
    let one = run(&data, &dir.join("one.nnue"), &["--epochs", "2", "--threads", "1"]);
    let two = run(&data, &dir.join("two.nnue"), &["--epochs", "2", "--threads", "2"]);
    assert!(weights(&one) == weights(&two), "the thread count changed the network");
    let records = std::fs::metadata(&data).unwrap().len() / 40;
    assert!(one.description.starts_with("shomei-train nnue --data "), "{}", one.description);
    assert!(one.description.contains(&format!("tiny.bin ({records} records)")), "{}", one.description);
    assert!(one.description.contains(" of 2 (lowest validation loss)"), "{}", one.description);
    let csv = std::fs::read_to_string(dir.join("one.nnue.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let svg = std::fs::read_to_string(dir.join("one.nnue.svg")).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2);

    // One epoch, then a resume to two: the same network as two at once.
    let half = dir.join("half.nnue");
    assert!(run(&data, &half, &["--epochs", "1", "--threads", "2"]).description.contains("epoch 1 of 1"));
    let ckpt = dir.join("half.nnue.ckpt");
    let resumed = run(&data, &half, &["--epochs", "2", "--resume", ckpt.to_str().unwrap()]);
    assert!(weights(&resumed) == weights(&one), "the resume changed the network");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_augmented_run_exports_its_best_epoch_whatever_the_threads() {
    let dir = temp_dir("nnue-augment");
    let data = tiny_data(&dir);
    let flags = ["--epochs", "4", "--lr", "0.01", "--augment", "2", "--augment-weight", "0.5"];
    let train = |name: &str, threads: &str| {
        let mut extra = flags.to_vec();
        extra.extend_from_slice(&["--threads", threads]);
        run_logged(&data, &dir.join(name), &extra)
    };
    let (one, log) = train("one.nnue", "1");
    let (two, _) = train("two.nnue", "2");
    assert!(weights(&one) == weights(&two), "the thread count changed the network");
    assert!(log.contains("nnue: augment: deriving up to ") && log.contains(" MB"), "{log}");
    let added: usize = log
        .split("nnue: augment: ")
        .nth(2)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{log}"));
    assert!(added > 0 && one.description.contains(&format!("; {added} positions derived by")), "{log}");
    // The epoch of the lowest validation loss in the CSV, the earliest of equals.
    let csv = std::fs::read_to_string(dir.join("one.nnue.csv")).unwrap();
    let validation: Vec<f64> =
        csv.lines().skip(2).map(|l| l.split(',').nth(3).unwrap().parse().unwrap()).collect();
    let best = (0..validation.len()).fold(0, |b, i| if validation[i] < validation[b] { i } else { b }) + 1;
    let chosen = format!("epoch {best} of 4 (lowest validation loss)");
    assert!(one.description.contains(&chosen), "{chosen}: {}", one.description);
    assert!(log.contains(&format!("nnue: exporting epoch {best} of 4")), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    let dir = temp_dir("nnue-bad");
    let out = dir.join("n.nnue");
    let out = out.to_str().unwrap();
    for (args, code, message) in [
        (vec!["--out", out], 2, "--data is needed"),
        (
            vec!["--data", "x.bin", "--out", out, "--epochs", "ten"],
            2,
            "--epochs: 'ten' is not a valid number",
        ),
        (vec!["--data", "x.bin", "--out", out, "--lr", "-1"], 2, "--lr and --lr-decay must be positive"),
        (vec!["--data", "x.bin", "--out", out, "--k"], 2, "--k needs a value"),
        (vec!["--data", "x.bin", "--out", out, "--bogus"], 2, "unknown argument '--bogus'"),
        (vec!["--data", dir.join("missing.bin").to_str().unwrap(), "--out", out], 1, "cannot open"),
    ] {
        let run = train(&args);
        let log = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(code), "{args:?}: {log}");
        assert!(log.starts_with(&format!("shomei-train: {message}")), "{args:?}: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
