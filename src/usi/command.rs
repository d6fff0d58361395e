//! Parsing one USI input line into a command.

use crate::search::{Clock, Limits, TimeControl};
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
    /// A blank line: ignored.
    Empty,
    /// `usi`: name the engine, declare its options, then `usiok`.
    Usi,
    /// `isready`: size the tables if nothing is thinking, then `readyok`.
    IsReady,
    /// `usinewgame`: forget what the last game's searches learnt.
    UsiNewGame,
    /// `setoption name <id> [value <x>]`.
    SetOption {
        /// The option's name: the one word after `name`.
        name: String,
        /// The words after `value`, joined by single spaces; empty without `value`.
        value: String,
    },
    /// The words after `position`.
    Position(Vec<String>),
    /// `go` with its arguments.
    Go(GoCommand),
    /// `stop`: end the thinking and answer.
    Stop,
    /// `ponderhit`, with the clock when the GUI sends one.
    PonderHit(Option<TimeControl>),
    /// `gameover` (any result): whatever is thinking stops and answers.
    GameOver,
    /// `d`: draw the position.
    Display,
    /// `eval` or `e` (YaneuraOu's spelling): print the static evaluation as `eval = N`.
    Eval,
    /// `bench`: search the benchmark positions and report nodes and speed.
    Bench,
    /// `getoption [name]`: print option values (YaneuraOu's command).
    GetOption(Option<String>),
    /// `quit`: stop everything and exit.
    Quit,
}

/// Why a line is not a command shomei understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command; holds that word.
    Unknown(String),
    /// A known command with arguments it cannot take; holds the message to show.
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

/// The value after the `go` argument `key`, parsed; an error naming `key` when it is missing or
/// not a number.
fn number<T: std::str::FromStr>(key: &str, v: Option<&&str>) -> Result<T, CommandError> {
    let v = v.ok_or_else(|| CommandError::BadArgument(format!("go: '{key}' needs a value")))?;
    v.parse::<T>()
        .map_err(|_| CommandError::BadArgument(format!("go: '{key}' value '{v}' is not a valid number")))
}

/// The time fields of a `go` (or `ponderhit`) line, as given.
#[derive(Default)]
struct TimeFields {
    /// `btime`, `wtime`: main time left in ms, black's first.
    time_left: [Option<u64>; 2],
    /// `binc`, `winc`: the increment in ms, black's first.
    increment: [Option<u64>; 2],
    /// `byoyomi`: the byoyomi in ms, the same for both sides.
    byoyomi: Option<u64>,
    /// `movestogo`: moves until the next time control.
    moves_to_go: Option<u32>,
    /// `movetime`: the time for this move in ms.
    movetime: Option<u64>,
    /// `rtime`: a random time for this move from this to three times it, in ms (`random_time`).
    rtime: Option<u64>,
}

impl TimeFields {
    /// Reads `key value` if `key` is a time field; `Ok(false)` when it is not one.
    fn read(&mut self, key: &str, value: Option<&&str>) -> Result<bool, CommandError> {
        // Negative times happen (a GUI whose clock overran): they mean no time left.
        let millis = || number::<i64>(key, value).map(|v| v.max(0) as u64);
        match key {
            "btime" => self.time_left[0] = Some(millis()?),
            "wtime" => self.time_left[1] = Some(millis()?),
            "binc" => self.increment[0] = Some(millis()?),
            "winc" => self.increment[1] = Some(millis()?),
            "byoyomi" => self.byoyomi = Some(millis()?),
            "movetime" => self.movetime = Some(millis()?),
            "rtime" => self.rtime = Some(millis()?),
            "movestogo" => self.moves_to_go = Some(number::<u32>(key, value)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The time control these fields describe. Any main time, increment or byoyomi field makes
    /// a game clock, a missing side's fields counting as 0; only no time field at all is unbounded.
    fn control(&self) -> TimeControl {
        if let Some(t) = self.movetime {
            return TimeControl::MoveTime(t);
        }
        if let Some(t) = self.rtime {
            return TimeControl::MoveTime(random_time(t));
        }
        let clock_given =
            self.time_left.iter().chain(&self.increment).any(Option::is_some) || self.byoyomi.is_some();
        if !clock_given {
            return TimeControl::Unbounded;
        }
        // An increment without any main time is the time for this move (and every move after).
        let time_left = if self.time_left == [None, None] && self.byoyomi.is_none() {
            self.increment
        } else {
            self.time_left
        };
        TimeControl::Clock(Clock {
            time_left: time_left.map(|t| t.unwrap_or(0)),
            increment: self.increment.map(|t| t.unwrap_or(0)),
            byoyomi: self.byoyomi.unwrap_or(0),
            moves_to_go: self.moves_to_go,
        })
    }
}

/// YaneuraOu's `rtime T`: a time chosen at random from T to 3T, so that test games vary.
fn random_time(t: u64) -> u64 {
    let x = crate::rng::Rng::seed_from_entropy();
    t.saturating_add(x % t.saturating_mul(2).max(1))
}

/// The arguments of `go`: `perft N`, `mate <ms>|infinite`, or a search's limits and clock.
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
    let mut time = TimeFields::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1);
        match key {
            "infinite" | "ponder" => {
                if key == "infinite" {
                    limits.infinite = true;
                } else {
                    limits.ponder = true;
                }
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
            "depth" => limits.depth = Some(number::<i32>(key, value)?.max(1)),
            "nodes" => limits.nodes = Some(number::<u64>(key, value)?),
            other if time.read(other, value)? => {}
            other => return Err(CommandError::BadArgument(format!("go: unknown parameter '{other}'"))),
        }
        i += 2;
    }
    limits.time = if limits.infinite { TimeControl::Unbounded } else { time.control() };
    Ok(GoCommand::Search(limits))
}

/// `ponderhit`, optionally with the clock as it stands now (an extension: ShogiHome's early
/// ponder sends `go ponder` without times and the times with `ponderhit`).
fn parse_ponderhit(args: &[&str]) -> Result<Option<TimeControl>, CommandError> {
    let mut time = TimeFields::default();
    let mut i = 0;
    while i < args.len() {
        if !time.read(args[i], args.get(i + 1))? {
            return Err(CommandError::BadArgument(format!("ponderhit: unknown parameter '{}'", args[i])));
        }
        i += 2;
    }
    Ok(match time.control() {
        TimeControl::Unbounded => None,
        tc => Some(tc),
    })
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
        ["ponderhit", rest @ ..] => parse_ponderhit(rest).map(Command::PonderHit),
        ["gameover", ..] => Ok(Command::GameOver),
        ["d"] => Ok(Command::Display),
        ["eval"] | ["e"] => Ok(Command::Eval),
        ["bench"] => Ok(Command::Bench),
        ["getoption"] => Ok(Command::GetOption(None)),
        ["getoption", name] => Ok(Command::GetOption(Some((*name).to_string()))),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn time_of(line: &str) -> TimeControl {
        match parse_command(line) {
            Ok(Command::Go(GoCommand::Search(l))) => l.time,
            other => panic!("'{line}' parsed as {other:?}"),
        }
    }

    fn clock(btime: u64, wtime: u64, binc: u64, winc: u64, byoyomi: u64) -> TimeControl {
        TimeControl::Clock(Clock {
            time_left: [btime, wtime],
            increment: [binc, winc],
            byoyomi,
            moves_to_go: None,
        })
    }

    #[test]
    fn every_go_form_has_a_defined_time_control() {
        let table = [
            ("go", TimeControl::Unbounded),
            ("go infinite", TimeControl::Unbounded),
            ("go depth 5", TimeControl::Unbounded),
            ("go nodes 1000", TimeControl::Unbounded),
            ("go ponder", TimeControl::Unbounded),
            ("go infinite btime 10 wtime 10 byoyomi 10", TimeControl::Unbounded),
            ("go byoyomi 300", clock(0, 0, 0, 0, 300)),
            ("go btime 0 wtime 0 byoyomi 300", clock(0, 0, 0, 0, 300)),
            ("go ponder btime 5 wtime 6 byoyomi 300", clock(5, 6, 0, 0, 300)),
            ("go btime 1000 wtime 2000", clock(1000, 2000, 0, 0, 0)),
            ("go btime 1000 wtime 2000 byoyomi 0", clock(1000, 2000, 0, 0, 0)),
            ("go btime 1000 wtime 2000 binc 10 winc 20", clock(1000, 2000, 10, 20, 0)),
            ("go btime 1000", clock(1000, 0, 0, 0, 0)),
            ("go wtime 1000", clock(0, 1000, 0, 0, 0)),
            ("go btime -5 wtime 1000", clock(0, 1000, 0, 0, 0)),
            ("go binc 100 winc 200", clock(100, 200, 100, 200, 0)),
            ("go winc 200", clock(0, 200, 0, 200, 0)),
            ("go byoyomi 0", clock(0, 0, 0, 0, 0)),
            ("go depth 30 byoyomi 200", clock(0, 0, 0, 0, 200)),
            ("go movetime 500", TimeControl::MoveTime(500)),
            ("go movetime 500 btime 10 wtime 10", TimeControl::MoveTime(500)),
        ];
        for (line, expected) in table {
            assert_eq!(time_of(line), expected, "{line}");
        }
        let TimeControl::Clock(c) = time_of("go btime 1 wtime 1 movestogo 7") else { panic!() };
        assert_eq!(c.moves_to_go, Some(7));
    }

    #[test]
    fn rtime_is_a_random_time_from_t_to_three_t() {
        for _ in 0..50 {
            let TimeControl::MoveTime(t) = time_of("go rtime 100") else { panic!("rtime is a move time") };
            assert!((100..300).contains(&t), "{t}");
        }
    }

    #[test]
    fn ponderhit_takes_an_optional_clock() {
        assert!(matches!(parse_command("ponderhit"), Ok(Command::PonderHit(None))));
        match parse_command("ponderhit btime 0 wtime 0 byoyomi 300") {
            Ok(Command::PonderHit(Some(tc))) => assert_eq!(tc, clock(0, 0, 0, 0, 300)),
            other => panic!("{other:?}"),
        }
        assert!(parse_command("ponderhit btime soon").is_err());
        assert!(parse_command("ponderhit depth 3").is_err());
    }

    #[test]
    fn bad_go_arguments_are_errors() {
        for line in
            ["go byoyomi", "go btime x", "go movestogo -1", "go wibble 3", "go perft 0", "go mate soon"]
        {
            assert!(parse_command(line).is_err(), "{line}");
        }
    }
}
