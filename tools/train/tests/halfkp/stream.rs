//! `--stream`: the positions read from disk epoch by epoch are those a full load keeps, each
//! once an epoch, held-out games the same, memory bounded by the buffer; and a streamed run
//! trains.

use crate::shared::{temp_dir, tiny_data};
use shomei::eval::nnue::{self, AnyNetwork};
use shomei::training_data::gensfen::{shards, GameConfig, RunConfig};
use shomei::training_data::record::PackedSfenValue;
use shomei_train::cli::parse_nnue;
use shomei_train::halfkp::model::Samples;
use shomei_train::halfkp::stream::{RecordSet, Stream};
use shomei_train::halfkp::train;
use std::path::Path;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// Six depth-1 games as three shards of two in `dir/shards`.
fn shard_folder(dir: &Path) -> std::path::PathBuf {
    let folder = dir.join("shards");
    let game = GameConfig { seed: 11, depth: Some(1), hash_mb: 4, ..GameConfig::default() };
    let config = RunConfig {
        out: folder.clone(),
        game,
        first_game: 0,
        games: Some(6),
        positions: None,
        threads: 1,
        progress: false,
    };
    shards::run_shards(&config, &folder, 2, "test").unwrap();
    folder
}

/// The records and targets of `set`, sorted: what it holds, whatever the order.
fn sorted(set: &RecordSet) -> Vec<([u8; 40], u32)> {
    let mut all: Vec<_> =
        set.records.iter().zip(&set.targets).map(|(r, t)| (r.to_bytes(), t.to_bits())).collect();
    all.sort();
    all
}

#[test]
fn a_streamed_epoch_reads_each_training_position_once_and_holds_out_the_same_games() {
    let dir = temp_dir("halfkp-stream");
    let folder = shard_folder(&dir);
    let line = format!(
        "--arch halfkp_256x2-32-32 --data {} --out {} --validation-share 0.3 --seed 9 --stream 40",
        folder.display(),
        dir.join("x.bin").display()
    );
    let config = parse_nnue(&args(&line)).unwrap();
    let loaded = train::load(&config).unwrap();
    assert!(loaded.train.len() > 100 && !loaded.validation.records.is_empty(), "{}", loaded.train.len());

    // Blocks of 16 records: games run across blocks and files hold several blocks.
    let scanned = Stream::scan(&config, 40, 16).unwrap();
    assert_eq!(scanned.stats, loaded.stats);
    assert_eq!(scanned.validation.records, loaded.validation.records);
    assert_eq!(scanned.validation.targets, loaded.validation.targets);
    let stream = scanned.stream;
    assert_eq!(stream.train_positions, loaded.train.len());

    let epoch = |seed: u64| {
        let mut buffers = Vec::new();
        stream
            .for_each_buffer(seed, |set| {
                buffers.push(set);
                Ok(())
            })
            .unwrap();
        buffers
    };
    let first = epoch(1);
    assert!(first.len() > 2, "{} buffers", first.len());
    for set in &first {
        assert!(set.len() < 40 + 16, "a buffer of {} positions", set.len());
    }
    let mut all = RecordSet::default();
    for set in &first {
        all.records.extend_from_slice(&set.records);
        all.targets.extend_from_slice(&set.targets);
    }
    assert_eq!(sorted(&all), sorted(&loaded.train), "each training position once");

    // The order is drawn from the seed: again the same, another seed another.
    let records = |buffers: &[RecordSet]| -> Vec<PackedSfenValue> {
        buffers.iter().flat_map(|s| s.records.iter().copied()).collect()
    };
    assert_eq!(records(&epoch(1)), records(&first));
    assert_ne!(records(&epoch(2)), records(&first));
    // The sample is the first buffer in file order.
    let sample = stream.sample().unwrap();
    assert!(sample.len() >= 40 && sample.records[..10] == loaded.train.records[..10]);
    // An error of the fitting stops the epoch.
    let mut calls = 0;
    let stopped = stream.for_each_buffer(1, |_| {
        calls += 1;
        Err("full".into())
    });
    assert_eq!((stopped, calls), (Err("full".to_string()), 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_streamed_run_trains_and_writes_the_same_net_for_any_thread_count() {
    let dir = temp_dir("halfkp-stream-run");
    let data = tiny_data(&dir);
    let run = |threads: usize, out: &str| {
        let line = format!(
            "--arch halfkp_256x2-32-32 --data {} --out {} --epochs 3 --batch-size 32 --lr 1e-3 \
             --validation-share 0 --threads {threads} --no-progress --stream 64 --augment 1",
            data.display(),
            dir.join(out).display()
        );
        let config = parse_nnue(&args(&line)).unwrap();
        train::run(&config, config.arch.unwrap(), &mut std::io::sink()).unwrap()
    };
    let one = run(1, "one.bin");
    let losses: Vec<f64> = one.history.iter().map(|e| e.train).collect();
    assert!(losses[3] < losses[2] && losses[2] < losses[1], "{losses:?}");
    run(2, "two.bin");
    assert_eq!(std::fs::read(dir.join("one.bin")).unwrap(), std::fs::read(dir.join("two.bin")).unwrap());
    let Ok(AnyNetwork::HalfKp { .. }) = nnue::load(&dir.join("one.bin")) else { panic!("not a HalfKP net") };
    // --stream is for HalfKP nets only.
    let own = format!("--data {} --out {} --stream 64", data.display(), dir.join("own.nnue").display());
    assert!(parse_nnue(&args(&own)).unwrap_err().contains("HalfKP"));
    let _ = std::fs::remove_dir_all(&dir);
}
