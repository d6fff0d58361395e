//! The `shomei-arena` binary end to end: whole matches with fake engines, the files it writes,
//! early stops, and clear errors for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ARENA: &str = env!("CARGO_BIN_EXE_shomei-arena");
const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn fake(args: &str) -> String {
    format!("'{FAKE}' {args}")
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arena-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn arena(args: &[&str]) -> Output {
    Command::new(ARENA).args(args).output().expect("run shomei-arena")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Data rows of results.tsv.
fn rows(dir: &Path) -> Vec<Vec<String>> {
    read(dir, "results.tsv").lines().skip(1).map(|l| l.split('\t').map(str::to_string).collect()).collect()
}

#[test]
fn concurrent_match_writes_every_record() {
    let dir = out_dir("match");
    let (e1, e2) = (fake("random"), fake("random"));
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--name1",
        "one",
        "--name2",
        "two",
        "--games",
        "8",
        "--concurrency",
        "3",
        "--max-moves",
        "60",
        "--tc",
        "byoyomi=1000",
        "--out",
        dir.to_str().unwrap(),
        "--seed",
        "11",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    // One line per game, then the summary.
    assert_eq!(stdout.lines().filter(|l| l.starts_with("game ")).count(), 8, "{stdout}");
    assert!(stdout.contains("Score of one vs two:"));
    assert!(stdout.contains("[trinomial: per game, 8 games]"), "{stdout}");
    assert!(stdout.contains("LOS: "));
    assert!(stdout.contains("Outside the engines' clocks, per game:"), "{stdout}");

    let rows = rows(&dir);
    assert_eq!(rows.len(), 8);
    let mut numbers: Vec<usize> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
    for r in &rows {
        let g: usize = r[0].parse().unwrap();
        // Games 2k-1 and 2k share an opening, colours swapped.
        let (black, white) = if g % 2 == 1 { ("one", "two") } else { ("two", "one") };
        assert_eq!((r[3].as_str(), r[4].as_str()), (black, white), "game {g}");
        let partner = if g % 2 == 1 { g + 1 } else { g - 1 };
        let other = rows.iter().find(|x| x[0] == partner.to_string()).unwrap();
        assert_eq!((&r[1], &r[2]), (&other[1], &other[2]), "games {g} and {partner}: pair and opening");
        assert!(r[2].starts_with("openings.txt:"));
        let csa = read(&dir, &r[10]);
        assert!(csa.starts_with("V2.2\n"));
        assert!(csa.contains(&format!("'result {}", r[5])), "{csa}");
        assert!(r[12].starts_with("position startpos moves "));
    }
    assert_eq!(read(&dir, "games.usi").lines().count(), 8);
    let summary = read(&dir, "summary.txt");
    assert!(summary.contains("8 of 8 games played (finished)"), "{summary}");
    let penta_line = summary.lines().find(|l| l.starts_with("Pentanomial")).unwrap();
    let penta: u32 =
        penta_line.rsplit(':').next().unwrap().split_whitespace().map(|n| n.parse::<u32>().unwrap()).sum();
    assert_eq!(penta, 4, "{penta_line}");
    assert!(dir.join("logs/engine1.stderr.log").exists());
    assert!(read(&dir, "arena.log").contains("Score of one vs two"));

    // The folder now holds a match: a second run must not overwrite it by accident.
    let o = arena(&["--engine1", &e1, "--engine2", &e2, "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--overwrite"), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_the_match_early() {
    let dir = out_dir("sprt");
    let (e1, e2) = (fake("random"), fake("resign"));
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--games",
        "400",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.05",
        "beta=0.05",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let played = rows(&dir).len();
    // Engine 1 wins every game; the SPRT waits for 10 complete pairs, then stops.
    assert!((20..40).contains(&played), "{played} games");
    let summary = read(&dir, "summary.txt");
    assert!(summary.contains("stopped by the SPRT"), "{summary}");
    assert!(summary.contains(&format!("{played} of 400 games played")), "{summary}");
    assert!(summary.contains("Endings: resign"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failure_mid_match_keeps_finished_games() {
    let dir = out_dir("midfail");
    std::fs::create_dir_all(&dir).unwrap();
    // Each engine starts normally three times (the probe and games 1 and 2), then never
    // answers `usiok` again: game 3 has nobody to blame and the match stops.
    let c1 = dir.join("count1");
    let c2 = dir.join("count2");
    let e1 = fake(&format!("random fail-after=3 countfile='{}'", c1.display()));
    let e2 = fake(&format!("random fail-after=3 countfile='{}'", c2.display()));
    let out = dir.join("out");
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--games",
        "10",
        "--usi-timeout",
        "300",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    let stderr = text(&o.stderr);
    assert!(stderr.contains("stopped early") && stderr.contains("game 3"), "{stderr}");
    assert!(stderr.contains("usiok"), "{stderr}");
    assert_eq!(rows(&out).len(), 2);
    assert!(out.join("games/0001.csa").exists() && out.join("games/0002.csa").exists());
    let summary = read(&out, "summary.txt");
    assert!(summary.contains("2 of 10 games played (stopped by an error"), "{summary}");
    assert!(summary.contains("Pentanomial"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_openings_are_shared_by_each_pair() {
    let dir = out_dir("random-openings");
    let (e1, e2) = (fake("random"), fake("random"));
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--games",
        "4",
        "--random-opening",
        "8",
        "--max-moves",
        "12",
        "--seed",
        "5",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut rows = rows(&dir);
    rows.sort_by_key(|r| r[0].parse::<usize>().unwrap());
    let opening = |r: &Vec<String>| r[12].split_whitespace().skip(3).take(8).collect::<Vec<_>>().join(" ");
    assert_eq!(opening(&rows[0]), opening(&rows[1]));
    assert_eq!(opening(&rows[2]), opening(&rows[3]));
    assert_ne!(opening(&rows[0]), opening(&rows[2]));
    assert!(rows[0][2].starts_with("random #1"), "{}", rows[0][2]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = out_dir("bad");
    let out = dir.to_str().unwrap();
    let good = fake("random");

    // A missing engine.
    let o = arena(&["--engine1", "/nonexistent/engine --x", "--engine2", &good, "--out", out]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("engine 1 (`/nonexistent/engine --x`) cannot be started"), "{e}");
    assert!(e.contains("No such file"), "{e}");

    // An engine that never answers `usiok`.
    let silent = fake("no-usiok");
    let o = arena(&["--engine1", &good, "--engine2", &silent, "--usi-timeout", "300", "--out", out]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("engine 2") && e.contains("did not answer `usiok` within 300 ms"), "{e}");

    // An engine that exits at once: its stderr is quoted.
    let o = arena(&["--engine1", &fake("exit-at-start"), "--engine2", &good, "--out", out]);
    let e = text(&o.stderr);
    assert!(e.contains("exited before answering `usiok` (exit status 1)"), "{e}");
    assert!(e.contains("exiting at start as asked"), "{e}");

    // An unreadable opening line.
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, "startpos moves 7g7f 3c3d\n# fine so far\nstartpos moves 7g7f 3c3d 8h2b 2b3c\n")
        .unwrap();
    let o =
        arena(&["--engine1", &good, "--engine2", &good, "--openings", book.to_str().unwrap(), "--out", out]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("book.txt line 3: move 4 '2b3c' is illegal in that position"), "{e}");
    let o =
        arena(&["--engine1", &good, "--engine2", &good, "--openings", "/nonexistent/book.txt", "--out", out]);
    assert!(text(&o.stderr).contains("cannot read openings file '/nonexistent/book.txt'"));

    // Bad arguments: exit status 2 and the offending flag named.
    let o = arena(&["--engine1", &good, "--engine2", &good, "--tc", "soon"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--tc"), "{}", text(&o.stderr));
    let o = arena(&["--engine1", &good]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--engine2 is missing"));
    let o = arena(&["--help"]);
    assert!(o.status.success() && text(&o.stdout).contains("--engine1 CMD"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The number just before `word` in `text`: `count_before("6 go ponder, 2 stop", "stop")` is 2.
fn count_before(text: &str, word: &str) -> u64 {
    let at = text.find(&format!(" {word}")).unwrap_or_else(|| panic!("no '{word}' in {text}"));
    text[..at].rsplit(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

/// The summary line starting with `prefix`.
fn summary_line(summary: &str, prefix: &str) -> String {
    summary
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in {summary}"))
        .into()
}

#[test]
fn pondering_match_counts_ponder_searches_and_slowest_answers() {
    let dir = out_dir("ponder");
    // Both offer a random reply as their ponder move; engine 2 takes 20 ms a move.
    let (e1, e2) = (fake("random ponders=random"), fake("slow delay=20 ponders=random"));
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--name1",
        "one",
        "--name2",
        "two",
        "--ponder",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        "startpos",
        "--max-moves",
        "40",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    assert!(stdout.contains("engine 1 ponders (USI_Ponder true"), "{stdout}");
    assert!(stdout.lines().filter(|l| l.starts_with("game ")).all(|l| l.contains(", slowest ")), "{stdout}");
    let summary = read(&dir, "summary.txt");
    let endings = summary_line(&summary, "Endings: ");
    for fault in ["hang", "protocol-error", "time", "crash", "illegal"] {
        assert!(!endings.contains(fault), "{endings}");
    }
    // Every `go ponder` ended by `ponderhit`, `stop` or the end of its game.
    let ponder = summary_line(&summary, "Ponder: ");
    for part in ponder.trim_start_matches("Ponder: ").split("; ") {
        let gos = count_before(part, "go ponder");
        assert!(gos > 0, "{ponder}");
        let ended =
            count_before(part, "ponderhit") + count_before(part, "stop") + count_before(part, "at game end");
        assert_eq!(gos, ended, "{ponder}");
    }
    for e in ["engine1", "engine2"] {
        let log = read(&dir, &format!("logs/{e}.stderr.log"));
        assert!(log.contains("got setoption name USI_Ponder value true"), "{e}");
        assert!(log.contains("got go ponder btime 0 wtime 0 byoyomi 1000"), "{e}");
    }
    // Engine 2's slowest answer took its 20 ms at least, of byoyomi 1000 + tolerance 100.
    let slow2 = summary_line(&summary, "Slowest answer: engine 2 (two): ");
    let took = count_before(&slow2, "ms of 1100 allowed");
    assert!((20..1100).contains(&took), "{slow2}");
    assert!(slow2.contains("over the clock without the tolerance: 0 of "), "{slow2}");
    assert!(summary.contains("Slowest answer: engine 1 (one): "), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_hanging_on_stop_while_pondering_loses_and_the_match_goes_on() {
    let dir = out_dir("ponder-hang");
    // Engine 1 ignores `stop` while pondering: at its first wrong guess it never answers.
    let (e1, e2) = (fake("random ponders=random ponder-mode=deaf"), fake("random"));
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--name1",
        "deaf",
        "--name2",
        "fine",
        "--ponder1",
        "--stop-timeout",
        "200",
        "--games",
        "2",
        "--openings",
        "startpos",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    let rows = rows(&dir);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r[6], "hang", "{r:?}");
        let deaf_lost = if r[3] == "deaf" { "0-1" } else { "1-0" };
        assert_eq!(r[5], deaf_lost, "{r:?}");
        assert!(r[11].contains("gave no bestmove within 300 ms after stop while pondering"), "{r:?}");
    }
    let summary = read(&dir, "summary.txt");
    assert!(summary.contains("2 of 2 games played (finished)"), "{summary}");
    assert!(summary.contains("Endings: hang 2"), "{summary}");
    let ponder = summary_line(&summary, "Ponder: ");
    assert!(ponder.ends_with("engine 2 (fine): off"), "{ponder}");
    assert!(count_before(&ponder, "stop") >= 2, "{ponder}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The CSA records keep each move's time in milliseconds, and `tools/move_times.py` reads them
/// back: every move an engine played is counted, at least the time the slow engine waited.
#[test]
fn move_times_reach_the_records_and_the_plot_script() {
    let dir = out_dir("move-times");
    let (e1, e2) = (fake("random"), fake("slow delay=25"));
    let o = arena(&[
        "--engine1",
        &e1,
        "--engine2",
        &e2,
        "--name1",
        "quick",
        "--name2",
        "slow",
        "--games",
        "2",
        "--max-moves",
        "30",
        "--tc",
        "byoyomi=1000",
        "--openings",
        "startpos",
        "--out",
        dir.to_str().unwrap(),
        "--seed",
        "5",
    ]);
    assert!(o.status.success(), "{}\n{}", text(&o.stdout), text(&o.stderr));
    // Plies each engine played, from the records' own move lines.
    let mut plies = std::collections::HashMap::<String, usize>::new();
    for g in ["0001.csa", "0002.csa"] {
        let csa = read(&dir.join("games"), g);
        let names: Vec<&str> =
            csa.lines().filter_map(|l| l.strip_prefix("N+").or(l.strip_prefix("N-"))).collect();
        let moves =
            csa.lines().filter(|l| l.len() == 7 && (l.starts_with('+') || l.starts_with('-'))).count();
        let times =
            csa.lines().find_map(|l| l.strip_prefix("'move times (ms): ")).expect("a move times line");
        let times: Vec<u64> = times.split(' ').map(|t| t.parse().expect("a number of ms")).collect();
        assert_eq!(times.len(), moves, "{csa}");
        for (ply, t) in times.iter().enumerate() {
            let mover = names[ply % 2];
            *plies.entry(mover.to_string()).or_default() += 1;
            if mover == "slow" {
                assert!(*t >= 25, "ply {ply} of {g}: {t} ms\n{csa}");
            }
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../move_times.py");
    let o = Command::new("python3").arg(&script).arg(&dir).output().expect("run python3");
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    for name in ["quick", "slow"] {
        let summary = stdout.lines().find(|l| l.starts_with(&format!("{name}: "))).expect(&stdout);
        assert!(summary.starts_with(&format!("{name}: {} moves, mean ", plies[name])), "{summary}\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
