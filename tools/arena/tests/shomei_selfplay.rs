//! A short real match: shomei against itself through the runner, every record checked.

use std::path::PathBuf;
use std::process::Command;

const ARENA: &str = env!("CARGO_BIN_EXE_shomei-arena");

/// The engine binary built beside this test by `cargo test --release` at the workspace top:
/// test executables live in `<target>/<profile>/deps/`, binaries one folder up.
fn shomei_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target folder");
    let bin = profile_dir.join(if cfg!(windows) { "shomei.exe" } else { "shomei" });
    assert!(
        bin.exists(),
        "{} not found: run `cargo test --release` at the workspace top, which builds the engine too",
        bin.display()
    );
    bin
}

#[test]
fn shomei_plays_itself_to_a_result_with_records() {
    let engine = shomei_binary();
    let engine = format!("'{}'", engine.display());
    let dir = std::env::temp_dir().join(format!("arena-selfplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(ARENA)
        .args(["--engine1", &engine, "--engine2", &engine, "--name1", "a", "--name2", "b"])
        .args(["--games", "4", "--concurrency", "2", "--tc", "nodes=3000", "--max-moves", "120"])
        .args(["--option", "USI_Hash=16", "--seed", "7", "--out", dir.to_str().unwrap()])
        .output()
        .expect("run shomei-arena");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "arena failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let results = std::fs::read_to_string(dir.join("results.tsv")).expect("results.tsv");
    let rows: Vec<&str> = results.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{results}");
    // Every game ends by a rule, never by a fault of the engine.
    for row in &rows {
        for fault in ["illegal", "crash", "time", "timeout", "false-declaration", "handshake"] {
            assert!(!row.contains(fault), "shomei lost by {fault}: {row}");
        }
    }
    for i in 1..=4 {
        let csa = std::fs::read_to_string(dir.join(format!("games/{i:04}.csa"))).expect("csa record");
        assert!(csa.starts_with("V2.2"), "{csa}");
        assert!(csa.lines().any(|l| l.starts_with('%')), "no end line in game {i}");
    }
    assert!(stdout.contains("Elo"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Dobutsu through the runner: shomei as the second player (its embedded book) against shomei's
/// search as the first player. The book never loses, so engine 1 must win every game, by a
/// rule of the game (a Lion captured, a safe Try, or no move), with a text record each.
#[test]
fn dobutsu_second_player_wins_every_game() {
    let engine = format!("'{}'", shomei_binary().display());
    let dir = std::env::temp_dir().join(format!("arena-dobutsu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(ARENA)
        .args(["--engine1", &engine, "--engine2", &engine, "--name1", "book", "--name2", "search"])
        .args(["--variant", "dobutsu", "--engine1-plays", "white", "--openings", "startpos"])
        .args(["--games", "4", "--concurrency", "2", "--tc", "nodes=2000", "--max-moves", "200"])
        .args(["--option", "DobutsuTable=<empty>", "--seed", "3", "--out", dir.to_str().unwrap()])
        .output()
        .expect("run shomei-arena");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "arena failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let results = std::fs::read_to_string(dir.join("results.tsv")).expect("results.tsv");
    let rows: Vec<Vec<&str>> = results.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 4, "{results}");
    for row in &rows {
        // Columns: game, pair, opening, black, white, result, reason, ...
        assert_eq!((row[3], row[4], row[5]), ("search", "book", "0-1"), "{row:?}");
        assert!(["lion-captured", "try", "no-legal-move"].contains(&row[6]), "{row:?}");
    }
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("games/{i:04}.txt"))).expect("game record");
        assert!(text.contains("position startpos moves "), "{text}");
        assert!(text.contains("# result 0-1"), "{text}");
    }
    assert!(stdout.contains("Dobutsu"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
