//! Parsing one USI input line into a command.

use crate::search::{Clock, Limits};
use crate::types::Move;
use std::fmt;

/// A parsed `go` command.
#[derive(Clone, Debug)]
pub enum GoCommand {
    /// `go perft N`: count the leaves of the legal move tree.
    Perft(u32),
    /// `go mate <ms>|infinite`: solve for mate (`None` = no time limit).
    Mate(Option<u64>),
    /// A normal search.
    Search(Limits),
}

/// One line of USI input.
#[derive(Clone, Debug)]
pub enum Command {
    Empty,
    Usi,
    IsReady,
    UsiNewGame,
    SetOption {
        name: String,
        value: String,
    },
    /// The words after `position`.
    Position(Vec<String>),
    Go(GoCommand),
    Stop,
    PonderHit,
    GameOver,
    /// `d`: draw the position.
    Display,
    Bench,
    Quit,
}

/// Why a line is not a command shomei understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    Unknown(String),
    BadArgument(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(w) => write!(f, "unknown command '{w}'"),
            CommandError::BadArgument(s) => write!(f, "{s}"),
        }
    }
}

/// The deepest perft the loop accepts; deeper ones would run for days.
const MAX_PERFT_DEPTH: u32 = 12;

fn number<T: std::str::FromStr>(key: &str, v: Option<&&str>) -> Result<T, CommandError> {
    let v = v.ok_or_else(|| CommandError::BadArgument(format!("go: '{key}' needs a value")))?;
    v.parse::<T>()
        .map_err(|_| CommandError::BadArgument(format!("go: '{key}' value '{v}' is not a valid number")))
}

fn parse_go(args: &[&str]) -> Result<GoCommand, CommandError> {
    match args {
        ["perft", n] => {
            return match n.parse::<u32>() {
                Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(GoCommand::Perft(d)),
                _ => Err(CommandError::BadArgument(format!(
                    "perft depth '{n}' is not a number from 1 to {MAX_PERFT_DEPTH}"
                ))),
            }
        }
        ["perft", ..] => return Err(CommandError::BadArgument("usage: go perft <depth>".into())),
        ["mate"] | ["mate", "infinite"] => return Ok(GoCommand::Mate(None)),
        ["mate", ms] => {
            return ms.parse::<u64>().map(|t| GoCommand::Mate(Some(t))).map_err(|_| {
                CommandError::BadArgument(format!("go mate: '{ms}' is not a time in ms or 'infinite'"))
            })
        }
        _ => {}
    }
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let (mut btime, mut wtime, mut binc, mut winc) = (None, None, 0, 0);
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1);
        match key {
            "btime" => btime = Some(number::<i64>(key, value)?.max(0) as u64),
            "wtime" => wtime = Some(number::<i64>(key, value)?.max(0) as u64),
            "binc" => binc = number::<i64>(key, value)?.max(0) as u64,
            "winc" => winc = number::<i64>(key, value)?.max(0) as u64,
            "byoyomi" => clock.byoyomi = number::<i64>(key, value)?.max(0) as u64,
            "movetime" => clock.movetime = Some(number::<i64>(key, value)?.max(0) as u64),
            "depth" => limits.depth = Some(number::<i32>(key, value)?.max(1)),
            "nodes" => limits.nodes = Some(number::<u64>(key, value)?),
            "movestogo" => {
                number::<u64>(key, value)?;
            }
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                limits.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                // The rest of the line are moves; they are checked against the position later.
                for m in &args[i + 1..] {
                    let mv = Move::parse_usi(m).ok_or_else(|| {
                        CommandError::BadArgument(format!("go searchmoves: '{m}' is not a move"))
                    })?;
                    limits.searchmoves.push(mv);
                }
                break;
            }
            other => return Err(CommandError::BadArgument(format!("go: unknown parameter '{other}'"))),
        }
        i += 2;
    }
    limits.clock = clock;
    // Both sides' clocks are kept; the side to move picks its own when the search starts.
    limits.time_left = [btime, wtime];
    limits.increment = [binc, winc];
    Ok(GoCommand::Search(limits))
}

/// Parses a line (LF or CRLF, any whitespace between tokens).
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [] => Ok(Command::Empty),
        ["usi"] => Ok(Command::Usi),
        ["isready"] => Ok(Command::IsReady),
        ["usinewgame"] => Ok(Command::UsiNewGame),
        ["quit"] => Ok(Command::Quit),
        ["stop"] => Ok(Command::Stop),
        ["ponderhit", ..] => Ok(Command::PonderHit),
        ["gameover", ..] => Ok(Command::GameOver),
        ["d"] => Ok(Command::Display),
        ["bench"] => Ok(Command::Bench),
        ["setoption", "name", name, rest @ ..] => {
            let value = match rest {
                [] => String::new(),
                ["value", v @ ..] => v.join(" "),
                _ => return Err(CommandError::BadArgument("usage: setoption name <id> [value <x>]".into())),
            };
            Ok(Command::SetOption { name: (*name).to_string(), value })
        }
        ["setoption", ..] => Err(CommandError::BadArgument("usage: setoption name <id> [value <x>]".into())),
        ["position", rest @ ..] => Ok(Command::Position(rest.iter().map(|s| s.to_string()).collect())),
        ["go", rest @ ..] => parse_go(rest).map(Command::Go),
        [w, ..] => Err(CommandError::Unknown((*w).to_string())),
    }
}
