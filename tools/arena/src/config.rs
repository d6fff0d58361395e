//! What a match is configured with: the engines and how to start them, the openings, the game
//! and its rules' options, and the limits. The command line (`cli`) fills a [`MatchConfig`]; the
//! other modules take the parts they need from here.

use crate::clock::TimeControl;
use crate::stats::SprtConfig;
use shomei::shogi::EnteringKingRule;
use std::path::PathBuf;
use std::time::Duration;

/// How to start one engine and what to tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The command line as given.
    pub command: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Name for output and records; the engine's `id name` when not given.
    pub name: Option<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent after `usiok`; no value means a button.
    pub options: Vec<(String, Option<String>)>,
    /// Ponder as GUIs do: `USI_Ponder true`, then `go ponder` on the move its `bestmove` names
    /// after `ponder`, and `ponderhit` or `stop` when its turn comes.
    pub ponder: bool,
}

impl EngineConfig {
    /// An engine from a command line, split as a shell would split it (quotes, backslashes).
    /// A relative program path with a `/` is taken from the runner's working directory, also
    /// when the engine gets another working directory.
    pub fn from_command(command: &str) -> Result<EngineConfig, String> {
        let words = split_command(command)?;
        let Some((program, args)) = words.split_first() else {
            return Err("empty engine command".into());
        };
        let mut program = PathBuf::from(program);
        if program.is_relative() && program.components().count() > 1 {
            if let Ok(cwd) = std::env::current_dir() {
                program = cwd.join(program);
            }
        }
        Ok(EngineConfig {
            command: command.to_string(),
            program,
            args: args.to_vec(),
            name: None,
            dir: None,
            options: Vec::new(),
            ponder: false,
        })
    }
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// `tools/openings.txt`, built into the binary.
    Builtin,
    /// Every game from the initial position.
    Startpos,
    File(PathBuf),
    /// A random quiet opening of this many plies for each pair of games.
    Random(u32),
}

/// Which colours engine 1 plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine1Plays {
    /// Black in the first game of each pair, White in the second (the default).
    Both,
    /// Black (the first player) in every game.
    Black,
    /// White (the second player) in every game.
    White,
}

impl Engine1Plays {
    /// Whether engine 1 plays Black in game `g` (0-based).
    pub fn black_in(self, g: usize) -> bool {
        match self {
            Engine1Plays::Both => g.is_multiple_of(2),
            Engine1Plays::Black => true,
            Engine1Plays::White => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    Sequential,
    Random,
}

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Shogi, 9×9.
    Shogi,
    /// Dobutsu shogi, 3×4; engines are told `setoption name UCI_Variant value dobutsu`.
    Dobutsu,
}

impl Variant {
    /// The `UCI_Variant` value engines are given, or `None` for standard shogi.
    pub fn uci_variant(self) -> Option<&'static str> {
        match self {
            Variant::Shogi => None,
            Variant::Dobutsu => Some("dobutsu"),
        }
    }
}

/// Dobutsu's repetition rule: the game is drawn when a position (board, hands, side to move)
/// occurs for the `draw_at`-th time; 0 means repetition is not counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The occurrence that draws (4 as Fairy-Stockfish, 3 as the official rules), or 0.
    pub draw_at: u32,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineConfig; 2],
    pub games: usize,
    pub tc: TimeControl,
    pub tolerance: Duration,
    pub max_move_time: Duration,
    pub openings: OpeningSource,
    pub opening_order: OpeningOrder,
    pub seed: u64,
    pub max_moves: u32,
    pub entering_king: EnteringKingRule,
    /// The game played.
    pub variant: Variant,
    /// Dobutsu's repetition rule.
    pub repetition: Repetition,
    /// Which colours engine 1 plays.
    pub engine1_plays: Engine1Plays,
    pub concurrency: usize,
    pub out: PathBuf,
    pub overwrite: bool,
    pub sprt: Option<SprtConfig>,
    pub usi_timeout: Duration,
    pub ready_timeout: Duration,
    pub quit_timeout: Duration,
    /// How long a pondering engine may take to answer `stop` (the tolerance comes on top).
    pub stop_timeout: Duration,
    /// Cap on each engine's stderr log, bytes.
    pub stderr_limit: u64,
}

/// Splits a command line into words: whitespace separates, `'...'` is literal, `\"...\"` allows
/// `\\\"` and `\\\\`, and a backslash outside quotes escapes the next character.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed ' in command '{s}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(format!("unclosed \" in command '{s}'")),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed \" in command '{s}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => cur.push(c),
                    None => return Err(format!("command '{s}' ends with a backslash")),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(split_command("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(split_command(r#"'x y' "p \"q\"" z\ w"#).unwrap(), ["x y", r#"p "q""#, "z w"]);
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("'open").is_err());
        assert!(split_command("").unwrap().is_empty());
    }
}
