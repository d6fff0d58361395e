//! `shomei book`: making, growing, merging and sorting books from the command line. Progress
//! goes to stderr; books are written to a temporary file and renamed, so an interrupted run
//! leaves the last complete book, which the same command extends when run again.

use super::make::{self, Analysis, Analyst, Growth};
use super::text::{self, BookData};
use crate::shogi::Position;
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What `shomei book` prints when its command line is wrong.
const USAGE: &str = "usage:
  shomei book make <out.db> <games>... [--plies N] [search options]
      every position of the games up to game ply N (default 16) searched and written, sorted;
      games: CSA records (.csa) or lines of USI position arguments (startpos moves ...)
  shomei book think <out.db> [--root \"startpos moves ...\"] [--positions N] [--plies N]
      [--eval-diff CP] [search options]
      grows a book from the root (default startpos) along the replies within CP (default 30)
      of each position's best, N new positions at most (default 100)
  shomei book merge <out.db> <in.db>...
  shomei book sort <in.db> <out.db>
search options: --depth D (default 16) | --movetime MS, --multipv K (default 1; think: 3),
  --threads T (default: every core), --hash MB (default 256), --eval-file FILE
an existing <out.db> is read first and extended: positions it has at the depth asked for are kept";

/// How often a long run writes what it has.
const SAVE_EVERY: Duration = Duration::from_secs(60);

/// Runs `shomei book <args>`.
pub fn run(args: &[String]) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("make") => make_command(&args[1..]),
        Some("think") => think_command(&args[1..]),
        Some("merge") => merge_command(&args[1..]),
        Some("sort") => sort_command(&args[1..]),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("book: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The flags and plain arguments of a command line.
struct Args {
    /// The arguments that are not flags, in order.
    plain: Vec<String>,
    /// Each `--name value` pair as (name, value), in order; a later one overrides an earlier one.
    flags: Vec<(String, String)>,
}

impl Args {
    /// Splits `args` into flags and plain arguments; every `--name` takes the next argument as its value.
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut plain = Vec::new();
        let mut flags = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                flags.push((name.to_string(), value.clone()));
            } else {
                plain.push(a.clone());
            }
        }
        Ok(Args { plain, flags })
    }

    /// The value of the last `--name`, if given.
    fn text(&self, name: &str) -> Option<&str> {
        self.flags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The value of `--name` parsed, or `default` when it is not given.
    fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.text(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("--{name}: '{v}' is not a number")),
        }
    }

    /// Fails on a flag the command does not know.
    fn only(&self, known: &[&str]) -> Result<(), String> {
        match self.flags.iter().find(|(n, _)| !known.contains(&n.as_str())) {
            Some((n, _)) => Err(format!("unknown option --{n}\n{USAGE}")),
            None => Ok(()),
        }
    }

    /// The search settings of the command line, with `default_multipv` where `--multipv` is not given.
    fn analysis(&self, default_multipv: usize) -> Result<Analysis, String> {
        let mut a = Analysis { multipv: default_multipv, ..Analysis::default() };
        a.movetime_ms = self.text("movetime").map(|_| self.number("movetime", 0u64)).transpose()?;
        a.depth = Some(self.number("depth", 16i32)?.clamp(1, 64));
        a.multipv = self.number("multipv", default_multipv)?.clamp(1, 600);
        a.threads = self.number("threads", a.threads)?.clamp(1, 256);
        a.hash_mb = self.number("hash", a.hash_mb)?.clamp(1, 32_768);
        if let Some(file) = self.text("eval-file") {
            a.network = Some(crate::eval::nnue::load(Path::new(file))?);
        }
        Ok(a)
    }
}

/// The flags every searching command takes (read by `Args::analysis`).
const SEARCH_FLAGS: [&str; 6] = ["depth", "movetime", "multipv", "threads", "hash", "eval-file"];

/// The book at `path`, or an empty one when there is no file yet.
fn read_book(path: &Path) -> Result<BookData, String> {
    if !path.exists() {
        return Ok(BookData::new());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (data, report) =
        text::read_data(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("read {}: {}", path.display(), report.summary());
    Ok(data)
}

/// Writes `data` to `path` through a temporary file, so a reader never sees half a book.
fn write_book(data: &BookData, path: &Path) -> Result<usize, String> {
    let tmp = path.with_extension("db.tmp");
    let write = || -> std::io::Result<usize> {
        let mut out = BufWriter::new(std::fs::File::create(&tmp)?);
        let n = text::write(data, &mut out)?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(n)
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Saves `data` when `SAVE_EVERY` has passed since `last`.
fn save_now_and_then(data: &BookData, path: &Path, last: &mut Instant) {
    if last.elapsed() >= SAVE_EVERY {
        if let Err(e) = write_book(data, path) {
            eprintln!("{e}");
        }
        *last = Instant::now();
    }
}

/// `shomei book make`: searches every position of the games up to `--plies` into the book.
fn make_command(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args)?;
    let mut known = SEARCH_FLAGS.to_vec();
    known.push("plies");
    a.only(&known)?;
    let [out, inputs @ ..] = a.plain.as_slice() else { return Err(USAGE.to_string()) };
    if inputs.is_empty() {
        return Err(format!("no games given\n{USAGE}"));
    }
    let plies = a.number("plies", 16u32)?;
    let mut games = Vec::new();
    for input in inputs {
        let (read, bad) = make::read_games(Path::new(input))?;
        eprintln!(
            "{input}: {} games{}",
            read.len(),
            if bad > 0 { format!(", {bad} lines skipped") } else { String::new() }
        );
        games.extend(read);
    }
    let out = Path::new(out);
    let mut data = read_book(out)?;
    let mut analyst = Analyst::new(a.analysis(1)?);
    let start = Instant::now();
    let mut last_save = Instant::now();
    let searched = make::add_games(&mut data, &games, plies, &mut analyst, |data, done, todo| {
        eprintln!("{done}/{todo} positions, {:.0} s", start.elapsed().as_secs_f64());
        save_now_and_then(data, out, &mut last_save);
    });
    let written = write_book(&data, out)?;
    eprintln!("searched {searched} positions; wrote {written} positions to {}", out.display());
    Ok(())
}

/// `shomei book think`: grows the book from `--root` along the replies close to each best move.
fn think_command(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args)?;
    let mut known = SEARCH_FLAGS.to_vec();
    known.extend(["root", "positions", "plies", "eval-diff"]);
    a.only(&known)?;
    let [out] = a.plain.as_slice() else { return Err(USAGE.to_string()) };
    let root_text = a.text("root").unwrap_or("startpos");
    let words: Vec<&str> = root_text.split_whitespace().skip_while(|&w| w == "position").collect();
    let root = Position::from_usi_args(&words).map_err(|e| format!("--root: {e}"))?;
    let growth = Growth {
        positions: a.number("positions", 100usize)?,
        max_ply: a.number("plies", 16u32)?,
        eval_diff: a.number("eval-diff", 30i32)?,
    };
    let out = Path::new(out);
    let mut data = read_book(out)?;
    let mut analyst = Analyst::new(a.analysis(3)?);
    let start = Instant::now();
    let mut last_save = Instant::now();
    let searched = make::think(&mut data, &root, &growth, &mut analyst, |data, done| {
        eprintln!("{done}/{} new positions, {:.0} s", growth.positions, start.elapsed().as_secs_f64());
        save_now_and_then(data, out, &mut last_save);
    });
    let written = write_book(&data, out)?;
    eprintln!("searched {searched} positions; wrote {written} positions to {}", out.display());
    Ok(())
}

/// `shomei book merge`: the union of the input books (`make::merge` decides between copies of a move).
fn merge_command(args: &[String]) -> Result<(), String> {
    let [out, inputs @ ..] = args else { return Err(USAGE.to_string()) };
    if inputs.is_empty() {
        return Err(USAGE.to_string());
    }
    let mut data = BookData::new();
    for input in inputs {
        make::merge(&mut data, read_book(Path::new(input))?);
    }
    let written = write_book(&data, Path::new(out))?;
    eprintln!("wrote {written} positions to {out}");
    Ok(())
}

/// `shomei book sort`: rewrites a book sorted, as lookups in the file itself need.
fn sort_command(args: &[String]) -> Result<(), String> {
    let [input, out] = args else { return Err(USAGE.to_string()) };
    let data = read_book(Path::new(input))?;
    let written = write_book(&data, Path::new(out))?;
    eprintln!("wrote {written} positions to {out}");
    Ok(())
}
