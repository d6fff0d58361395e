//! `shomei gensfen`: tiny runs whose records decode to legal, quiet, undecided positions with
//! results consistent across each game; the file is the same bytes whatever the thread count and
//! equals the games played one by one; a run resumed with more games gives the file a single run
//! gives, after cutting off an unfinished game; other settings are refused.

use shomei::search::Searcher;
use shomei::training_data::gensfen::{self, progress, GameConfig, RunConfig};
use shomei::training_data::record::{self, PackedSfenValue, RECORD_SIZE};
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shomei-gensfen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tiny_game() -> GameConfig {
    GameConfig {
        seed: 42,
        depth: Some(2),
        random_plies: (8, 12),
        max_ply: 200,
        hash_mb: 4,
        ..GameConfig::default()
    }
}

fn run_config(out: PathBuf, games: u64, threads: usize) -> RunConfig {
    RunConfig {
        out,
        game: tiny_game(),
        first_game: 0,
        games: Some(games),
        positions: None,
        threads,
        progress: false,
    }
}

fn records(path: &PathBuf) -> Vec<PackedSfenValue> {
    record::read_records(&mut std::fs::read(path).unwrap().as_slice()).unwrap()
}

#[test]
fn records_are_legal_quiet_undecided_and_their_results_agree_with_the_game() {
    let dir = temp_dir("records");
    let out = dir.join("d.bin");
    let summary = gensfen::run(&run_config(out.clone(), 6, 2)).unwrap();
    assert_eq!((summary.games, summary.games_run), (6, 6));
    let file = records(&out);
    assert_eq!(file.len() as u64, summary.positions);
    assert!(!file.is_empty());

    // The file is the games played one by one, in order.
    let config = tiny_game();
    let mut searcher = Searcher::new(config.hash_mb);
    let games: Vec<_> = (0..6).map(|i| gensfen::play_game(&mut searcher, &config, i)).collect();
    let played: Vec<PackedSfenValue> = games.iter().flat_map(|g| g.records.clone()).collect();
    assert_eq!(played, file);

    for g in &games {
        let mut last_ply = 0;
        for rec in &g.records {
            let pos = rec.position().expect("a record decodes");
            assert!(!pos.in_check(), "{}", pos.to_sfen());
            let best = rec.best_move(&pos).unwrap_or_else(|| panic!("{}: best move illegal", pos.to_sfen()));
            assert!(!pos.is_capture(best), "{}: {best} captures", pos.to_sfen());
            assert!(rec.score.abs() as i32 <= config.eval_limit);
            assert!(rec.game_ply as u32 > last_ply && rec.game_ply as u32 > config.random_plies.0);
            last_ply = rec.game_ply as u32;
            // 1 for the winner's positions, -1 for the loser's, 0 in a draw: the sign flips
            // with the side to move.
            let expected = match g.winner {
                None => 0,
                Some(w) if w == pos.side_to_move() => 1,
                Some(_) => -1,
            };
            assert_eq!(rec.game_result, expected);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_file_does_not_depend_on_the_thread_count() {
    let dir = temp_dir("threads");
    for limits in [(Some(2), None), (None, Some(600))] {
        let mut files = Vec::new();
        for threads in [1, 2] {
            let out = dir.join(format!("t{threads}-{:?}.bin", limits.1));
            let mut c = run_config(out.clone(), 5, threads);
            (c.game.depth, c.game.nodes) = limits;
            gensfen::run(&c).unwrap();
            files.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(files[0], files[1], "{limits:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_run_appends_and_matches_a_single_run() {
    let dir = temp_dir("resume");
    let single = dir.join("single.bin");
    gensfen::run(&run_config(single.clone(), 7, 2)).unwrap();
    let single_bytes = std::fs::read(&single).unwrap();

    let out = dir.join("resumed.bin");
    gensfen::run(&run_config(out.clone(), 3, 2)).unwrap();
    let first = std::fs::read(&out).unwrap();
    // A stopped run leaves part of a game behind: the next run cuts it off.
    let mut cut = first.clone();
    cut.extend_from_slice(&[0xab; 57]);
    std::fs::write(&out, &cut).unwrap();
    let again = gensfen::run(&run_config(out.clone(), 3, 2)).unwrap();
    assert_eq!(again.games_run, 0, "the 3 games are there");
    assert_eq!(std::fs::read(&out).unwrap(), first);

    let more = gensfen::run(&run_config(out.clone(), 7, 2)).unwrap();
    assert_eq!((more.games, more.games_run), (7, 4));
    let resumed = std::fs::read(&out).unwrap();
    assert!(resumed.starts_with(&first), "the first run's bytes are kept as they were");
    assert_eq!(resumed, single_bytes, "resuming gives the bytes of a single run");
    let p = progress::Progress::load(&progress::path_for(&out)).unwrap().unwrap();
    assert_eq!((p.games, p.positions), (7, (resumed.len() / RECORD_SIZE) as u64));

    // Other settings, or data without a progress file, are not appended to.
    let mut other = run_config(out.clone(), 9, 2);
    other.game.seed = 43;
    assert!(gensfen::run(&other).unwrap_err().contains("seed"));
    std::fs::remove_file(progress::path_for(&out)).unwrap();
    assert!(gensfen::run(&run_config(out.clone(), 9, 2)).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_position_target_stops_after_the_game_that_reaches_it() {
    let dir = temp_dir("positions");
    let out = dir.join("p.bin");
    let mut c = run_config(out.clone(), 0, 2);
    (c.games, c.positions) = (None, Some(150));
    let s = gensfen::run(&c).unwrap();
    let config = tiny_game();
    let mut searcher = Searcher::new(config.hash_mb);
    let mut total = 0;
    let mut games = 0;
    while total < 150 {
        total += gensfen::play_game(&mut searcher, &config, games).records.len() as u64;
        games += 1;
    }
    assert_eq!((s.games, s.positions), (games, total));
    assert_eq!(std::fs::metadata(&out).unwrap().len(), total * RECORD_SIZE as u64);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_command_line_runs_and_reports_its_rate() {
    let dir = temp_dir("cli");
    let out = dir.join("c.bin");
    let exe = env!("CARGO_BIN_EXE_shomei");
    let args = ["gensfen", "--games", "2", "--depth", "1", "--threads", "2", "--seed", "5", "--out"];
    let run = std::process::Command::new(exe).args(args).arg(&out).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(run.stdout.is_empty(), "gensfen writes to stderr only");
    assert!(stderr.contains("positions/hour") && stderr.contains("2 games"), "{stderr}");
    assert!(std::fs::metadata(&out).unwrap().len().is_multiple_of(RECORD_SIZE as u64));
    let bad =
        std::process::Command::new(exe).args(["gensfen", "--games", "2", "--depth", "x"]).output().unwrap();
    assert!(!bad.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn runs_of_disjoint_game_ranges_join_into_the_file_of_one_run() {
    let dir = temp_dir("ranges");
    let whole = dir.join("whole.bin");
    gensfen::run(&run_config(whole.clone(), 7, 2)).unwrap();
    // Three "machines": games 0..2, 2..5 and 5..7 of the same seed.
    let mut joined = Vec::new();
    for (first, count) in [(0, 2), (2, 3), (5, 2)] {
        let part = dir.join(format!("part-{first}.bin"));
        let config = RunConfig { first_game: first, ..run_config(part.clone(), count, 1) };
        let summary = gensfen::run(&config).unwrap();
        assert_eq!(summary.games, count);
        joined.extend(std::fs::read(&part).unwrap());
        // A range is a setting of the file: resuming with another first game is refused.
        let other = RunConfig { first_game: first + 1, ..run_config(part, count + 1, 1) };
        assert!(gensfen::run(&other).unwrap_err().contains("first_game"), "range {first}");
    }
    assert_eq!(joined, std::fs::read(&whole).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_with_a_manifest_join_into_one_runs_file_and_resume() {
    use shomei::training_data::gensfen::shards::{run_shards, shard_files, Manifest};
    let dir = temp_dir("shards");
    let whole = dir.join("whole.bin");
    gensfen::run(&run_config(whole.clone(), 8, 2)).unwrap();
    // Machine one: games 0..6 in shards of 2; machine two: games 6..8.
    let (one, two) = (dir.join("one"), dir.join("two"));
    let s = run_shards(&run_config(PathBuf::new(), 6, 2), &one, 2, "test one").unwrap();
    assert_eq!((s.written.len(), s.skipped), (3, 0));
    let second = RunConfig { first_game: 6, ..run_config(PathBuf::new(), 2, 1) };
    run_shards(&second, &two, 2, "test two").unwrap();
    let manifest = Manifest::load(&one).unwrap().unwrap();
    assert_eq!(manifest.shards, s.written);
    let mut joined = Vec::new();
    for (i, path) in shard_files(&one).unwrap().into_iter().chain(shard_files(&two).unwrap()).enumerate() {
        let bytes = std::fs::read(&path).unwrap();
        if i < 3 {
            let listed = &manifest.shards[i];
            assert_eq!(listed.first_game, 2 * i as u64);
            assert_eq!(listed.positions * RECORD_SIZE as u64, bytes.len() as u64);
            assert_eq!(listed.sha256, shomei::sha256::hex(&shomei::sha256::digest(&bytes)));
        }
        joined.extend(bytes);
    }
    assert_eq!(joined, std::fs::read(&whole).unwrap());

    // Run again: every shard is found finished; a damaged one is reported.
    let again = run_shards(&run_config(PathBuf::new(), 6, 2), &one, 2, "test one").unwrap();
    assert_eq!((again.written.len(), again.skipped), (0, 3));
    // Another range in the same folder: its command joins the first one's.
    let more = RunConfig { first_game: 6, ..run_config(PathBuf::new(), 2, 1) };
    assert_eq!(run_shards(&more, &one, 2, "test more").unwrap().written.len(), 1);
    assert_eq!(Manifest::load(&one).unwrap().unwrap().commands, ["test one", "test more"]);
    let damaged = &shard_files(&one).unwrap()[1];
    let len = std::fs::metadata(damaged).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(damaged).unwrap().set_len(len - 1).unwrap();
    let e = run_shards(&run_config(PathBuf::new(), 6, 2), &one, 2, "test one").unwrap_err();
    assert!(e.contains("damaged"), "{e}");
    // Other settings in the same folder, and ranges off the shard boundaries, are refused.
    let other =
        RunConfig { game: GameConfig { seed: 43, ..tiny_game() }, ..run_config(PathBuf::new(), 2, 1) };
    assert!(run_shards(&other, &one, 2, "x").unwrap_err().contains("other settings"));
    assert!(run_shards(&run_config(PathBuf::new(), 3, 1), &dir.join("three"), 2, "x").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
