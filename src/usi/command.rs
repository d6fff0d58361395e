//! Parsing one USI input line into a command.

use std::fmt;

/// A parsed `go` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// `go perft N`: count the leaves of the legal move tree.
    Perft(u32),
}

/// One line of USI input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Empty,
    Usi,
    IsReady,
    UsiNewGame,
    /// The words after `position`.
    Position(Vec<String>),
    Go(GoCommand),
    /// `d`: draw the position.
    Display,
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

/// Parses a line (LF or CRLF, any whitespace between tokens).
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [] => Ok(Command::Empty),
        ["usi"] => Ok(Command::Usi),
        ["isready"] => Ok(Command::IsReady),
        ["usinewgame"] => Ok(Command::UsiNewGame),
        ["quit"] => Ok(Command::Quit),
        ["d"] => Ok(Command::Display),
        ["position", rest @ ..] => Ok(Command::Position(rest.iter().map(|s| s.to_string()).collect())),
        ["go", "perft", n] => match n.parse::<u32>() {
            Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(Command::Go(GoCommand::Perft(d))),
            _ => Err(CommandError::BadArgument(format!(
                "perft depth '{n}' is not a number from 1 to {MAX_PERFT_DEPTH}"
            ))),
        },
        ["go", "perft", ..] => Err(CommandError::BadArgument("usage: go perft <depth>".into())),
        [w, ..] => Err(CommandError::Unknown((*w).to_string())),
    }
}
