//! The USI protocol loop: reads commands from a line source and writes replies.
//!
//! Nothing read from stdin may panic the engine or leave it blocked: every malformed line gets an
//! `info string` reply and the previous state is kept.

mod command;

pub use command::{parse_command, Command, GoCommand};

use crate::shogi::perft::divide;
use crate::shogi::Position;
use std::io::{BufRead, Write};

/// Engine identity, as printed for `usi`.
pub const ENGINE_NAME: &str = concat!("shomei ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the shomei developers";

/// The protocol state: the position set by the last `position` command.
pub struct Engine<W: Write> {
    out: W,
    position: Position,
}

impl<W: Write> Engine<W> {
    pub fn new(out: W) -> Engine<W> {
        Engine { out, position: Position::startpos() }
    }

    fn say(&mut self, line: &str) {
        // A closed stdout means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Handles one line. Returns false when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        match parse_command(line) {
            Ok(Command::Empty) => {}
            Ok(Command::Usi) => {
                self.say(&format!("id name {ENGINE_NAME}"));
                self.say(&format!("id author {ENGINE_AUTHOR}"));
                self.say("usiok");
            }
            Ok(Command::IsReady) => self.say("readyok"),
            Ok(Command::UsiNewGame) => {}
            Ok(Command::Position(args)) => {
                let words: Vec<&str> = args.iter().map(String::as_str).collect();
                match Position::from_usi_args(&words) {
                    Ok(p) => self.position = p,
                    Err(e) => self.say(&format!("info string error: {e}; position unchanged")),
                }
            }
            Ok(Command::Go(GoCommand::Perft(depth))) => self.go_perft(depth),
            Ok(Command::Display) => {
                let d = self.position.diagram();
                self.say(&d);
            }
            Ok(Command::Quit) => return false,
            Err(e) => self.say(&format!("info string error: {e}")),
        }
        true
    }

    fn go_perft(&mut self, depth: u32) {
        let start = std::time::Instant::now();
        let counts = divide(&mut self.position, depth);
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        let mut text = String::new();
        for (m, n) in &counts {
            text.push_str(&format!("{m}: {n}\n"));
        }
        text.push_str(&format!("\nNodes searched: {total}"));
        self.say(&text);
        log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
    }
}

/// Runs the loop until `quit` or end of input.
pub fn run<R: BufRead, W: Write>(input: R, out: W) {
    let mut engine = Engine::new(out);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !engine.handle_line(&line) {
            break;
        }
    }
}
