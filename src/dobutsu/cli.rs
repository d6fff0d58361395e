//! `shomei dobutsu …`: one-shot commands for the Dobutsu solver and rules.
//!
//! - `shomei dobutsu solve [--out FILE] [--threads N]`: solve from the start, print the counts,
//!   write the table (default `table::default_path()`, else `dobutsu.tbl` here).
//! - `shomei dobutsu perft DEPTH [SFEN]`: per-move leaf counts.
//! - `shomei dobutsu probe FILE [SFEN]`: a position's value and best move from a table.
//! - `shomei dobutsu book --table FILE --out FILE`: the second player's book (see `book`) from a
//!   full table.

use super::book;
use super::sfen::move_to_usi;
use super::solve::{solve, SolveOptions};
use super::table::Table;
use super::Position;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// What `shomei dobutsu` prints when its command line is wrong.
const USAGE: &str = "usage: shomei dobutsu solve [--out FILE] [--threads N]\n       \
                     shomei dobutsu perft DEPTH [SFEN]\n       shomei dobutsu probe FILE [SFEN]\n       \
                     shomei dobutsu book --table FILE --out FILE";

/// Runs a `dobutsu` sub-command; `args` follow the word `dobutsu`.
pub fn run(args: &[String]) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("solve") => solve_command(&args[1..]),
        Some("perft") => perft_command(&args[1..]),
        Some("probe") => probe_command(&args[1..]),
        Some("book") => book_command(&args[1..]),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The position given by the SFEN words of `args`, or the start position when there are none.
fn position_arg(args: &[String]) -> Result<Position, String> {
    if args.is_empty() {
        return Ok(Position::startpos());
    }
    Position::from_sfen(&args.join(" ")).map_err(|e| format!("invalid sfen: {e}"))
}

/// `shomei dobutsu solve`: solves the game from the start, prints the counts and saves the table.
fn solve_command(args: &[String]) -> Result<(), String> {
    let mut out = super::table::default_path().unwrap_or_else(|| PathBuf::from("dobutsu.tbl"));
    let mut opts = SolveOptions { progress: true, ..Default::default() };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = it.next().ok_or("--out needs a file name")?.into(),
            "--threads" => {
                opts.threads = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--threads needs a positive number")?
            }
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    let start = Instant::now();
    let root = Position::startpos();
    let (table, s) = solve(&root, opts);
    println!("reachable {}", s.reachable);
    println!("catch {}", s.catch);
    println!("tried {}", s.tried);
    println!("other {}", s.other);
    println!("edges {}", s.edges);
    println!("win {}", s.wins);
    println!("loss {}", s.losses);
    println!("draw {}", s.draws);
    println!("longest_win {}", s.longest_win());
    for (d, n) in s.by_distance.iter().enumerate() {
        println!("distance {d} {} {n}", if d % 2 == 1 { "win" } else { "loss" });
    }
    println!("start {:?}", table.probe(&root));
    for &m in super::legal_moves(&root).iter() {
        println!("start {} -> {:?}", move_to_usi(m), table.probe(&root.play(m)));
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    table.save(&out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let size = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    println!("table {} ({} bytes)", out.display(), size);
    eprintln!("total {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// `shomei dobutsu perft`: leaf counts per root move.
fn perft_command(args: &[String]) -> Result<(), String> {
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).ok_or(USAGE)?;
    let pos = position_arg(&args[1..])?;
    let (rows, total) = super::perft::divide(&pos, depth);
    for (m, n) in rows {
        println!("{m}: {n}");
    }
    println!("\nNodes searched: {total}");
    Ok(())
}

/// `shomei dobutsu probe`: a position's value and best move, from a saved table.
fn probe_command(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or(USAGE)?;
    let start = Instant::now();
    let table = Table::load(path.as_ref()).map_err(|e| format!("cannot load {path}: {e}"))?;
    eprintln!("loaded {path} in {:.1} s", start.elapsed().as_secs_f64());
    let pos = position_arg(&args[1..])?;
    println!("{pos}");
    println!("value {:?}", table.probe(&pos));
    match table.best_move(&pos) {
        Some((m, v)) => println!("best {} {v:?}", move_to_usi(m)),
        None => println!("best none"),
    }
    Ok(())
}

/// `shomei dobutsu book`: builds the second player's book from a full table and writes it.
fn book_command(args: &[String]) -> Result<(), String> {
    let (mut table_path, mut out) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--table" => table_path = Some(PathBuf::from(it.next().ok_or("--table needs a file name")?)),
            "--out" => out = Some(PathBuf::from(it.next().ok_or("--out needs a file name")?)),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    let table_path = table_path.ok_or(USAGE)?;
    let out = out.ok_or(USAGE)?;
    let start = Instant::now();
    let table = Table::load(&table_path).map_err(|e| format!("cannot load {}: {e}", table_path.display()))?;
    eprintln!("loaded {} in {:.1} s", table_path.display(), start.elapsed().as_secs_f64());
    let walk = Instant::now();
    let (entries, stats) = book::build(&table)?;
    println!("first_player_positions {}", stats.first_player_positions);
    println!("second_player_positions {}", stats.second_player_positions);
    println!("second_player_catches {}", stats.catches);
    println!("short_wins {} (within {} plies, left to the search)", stats.short_wins, book::SHORT);
    println!("stored {}", entries.len());
    println!("longest_win {}", stats.longest);
    let bytes = book::encode(&entries, book::SHORT);
    std::fs::write(&out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("book {} ({} bytes)", out.display(), bytes.len());
    eprintln!("walk {:.1} s, total {:.1} s", walk.elapsed().as_secs_f64(), start.elapsed().as_secs_f64());
    Ok(())
}
