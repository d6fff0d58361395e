//! The book the options name, opened when it is first needed after a change (at `isready`, or
//! at the next `go` when none came), and the lines a book move is answered with.

use super::info;
use crate::book::{Book, BookChoice, BookPolicy, BookProbe, BookSource};
use crate::rng::Rng;
use crate::search::Score;
use crate::shogi::Position;

/// The open book and what it was opened from.
pub struct BookState {
    /// The source last opened, or tried: a file that failed is not tried again at every `go`.
    source: Option<BookSource>,
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
