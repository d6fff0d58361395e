//! The book the options name, opened when it is first needed after a change (at `isready`, or
//! at the next `go` when none came), the lines a book move is answered with, and the protocol's
//! side of it: answering a `go` from the book, at once or at `ponderhit` or `stop`.

use super::{info, options, Engine, State};
use crate::book::{Book, BookChoice, BookPolicy, BookProbe, BookSource};
use crate::rng::Rng;
use crate::search::{BestMove, Limits, Score};
use crate::shogi::Position;
use std::io::Write;
use std::time::Instant;

/// The open book and what it was opened from.
pub struct BookState {
    /// The source last opened, or tried: a file that failed is not tried again at every `go`.
    source: Option<BookSource>,
    /// The book read from `source`; `None` when there is none, or it failed to open.
    book: Option<Book>,
    /// Draws among book moves; seeded from the clock, so games vary.
    rng: Rng,
}

impl BookState {
    /// No book yet.
    pub fn new() -> BookState {
        BookState { source: None, book: None, rng: Rng::new(Rng::seed_from_entropy()) }
    }

    /// Opens `wanted` if it is not what is open; with `retry`, also when the last try at it
    /// failed (an `isready` after the user fixed the file). Returns the lines to print: what
    /// was read, or an error.
    pub fn sync(&mut self, wanted: Option<BookSource>, retry: bool) -> Vec<String> {
        let failed = self.source.is_some() && self.book.is_none();
        if wanted == self.source && !(retry && failed) {
            return Vec::new();
        }
        self.book = None;
        self.source = wanted.clone();
        let Some(source) = wanted else { return Vec::new() };
        match Book::open(&source) {
            Ok((book, report)) => {
                self.book = Some(book);
                vec![format!("info string {}", super::options::printable(&report))]
            }
            Err(e) => vec![format!("info string error: {}; no book", super::options::printable(&e))],
        }
    }

    /// The book's move for `pos`, if it has one under `policy`.
    pub fn probe(&mut self, pos: &Position, policy: &BookPolicy) -> BookProbe {
        match self.book.as_mut() {
            Some(book) => crate::book::choose(book, pos, policy, &mut self.rng),
            None => BookProbe::default(),
        }
    }
}

/// The `info` lines a book move is answered with: its score and depth from the book with the
/// book's line, then `info string book ...` with its count and the number of candidates.
pub fn answer_lines(choice: &BookChoice) -> Vec<String> {
    let m = &choice.chosen;
    let pv: Vec<String> = choice.pv.iter().map(|m| m.to_string()).collect();
    // A book's value is any number the file holds; beyond the mate range it means a mate.
    let mate = crate::search::value::MATE;
    let score = info::score_words(Score::from_value(m.value.clamp(-mate, mate)));
    let share = if choice.total_count > 0 {
        format!(" ({:.1}% of {})", m.count as f64 * 100.0 / choice.total_count as f64, choice.total_count)
    } else {
        String::new()
    };
    vec![
        // The field order of every other `info` line: GUIs and scripts read them alike.
        format!(
            "info depth {d} seldepth {d} score {score} nodes 0 nps 0 hashfull 0 time 0 pv {}",
            pv.join(" "),
            d = m.depth.max(0)
        ),
        format!(
            "info string book {}: value {}, depth {}, count {}{share}, one of {} candidates",
            m.mv, m.value, m.depth, m.count, choice.candidates
        ),
    ]
}

/// The protocol's side of the book: opening it, and answering a `go` from it.
impl<W: Write> Engine<W> {
    /// Opens the book the options name if it changed (`retry`: also one that failed before),
    /// printing what was read or why not.
    pub(super) fn sync_book(&mut self, retry: bool) {
        for line in self.book.sync(self.options.book_source(), retry) {
            self.say(&line);
        }
    }

    /// Answers a `go` from the book when it has a move here: at once, or for `go ponder` at
    /// `ponderhit` or `stop`. Analysis (`go infinite`) and `searchmoves` always search, and so
    /// does a position where a declaration wins.
    pub(super) fn play_from_book(&mut self, limits: &Limits, received: Instant) -> bool {
        if limits.infinite || !limits.searchmoves.is_empty() {
            return false;
        }
        self.sync_book(false);
        let declare = self.position.declaration(self.options.entering_king_rule);
        if declare == crate::shogi::Declaration::Win {
            return false;
        }
        let probe = self.book.probe(&self.position, &self.options.book);
        for note in &probe.notes {
            self.say(&format!("info string {}", options::printable(note)));
        }
        let Some(choice) = probe.choice else { return false };
        for line in answer_lines(&choice) {
            self.say(&line);
        }
        if limits.ponder {
            self.state = State::BookPonder {
                position: Box::new(self.position.clone()),
                best: choice.chosen.mv,
                ponder: choice.ponder,
                go_received: received,
            };
        } else {
            self.answer(self.position.clone(), received, BestMove::Move(choice.chosen.mv), choice.ponder);
        }
        true
    }

    /// The `bestmove` a book move found under `go ponder` owes.
    pub(super) fn answer_book_ponder(&mut self) {
        if !matches!(self.state, State::BookPonder { .. }) {
            return;
        }
        if let State::BookPonder { position, best, ponder, go_received } =
            std::mem::replace(&mut self.state, State::Idle)
        {
            self.answer(*position, go_received, BestMove::Move(best), ponder);
        }
    }
}
