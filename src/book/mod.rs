//! Opening books in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`), the common currency of
//! shogi books: reading them (into memory, or looking positions up in the file itself), choosing
//! a move the way YaneuraOu's options describe, and making, merging and growing them.
//!
//! A book is a list of positions, each a line `sfen <board> <side> <hands> <ply>`, followed by
//! its moves, one a line: `move ponder value depth count` (`none` for no ponder move; value,
//! depth and count may be left off, and default to 0, 0 and 1). Lines starting with `#` or `//`
//! are comments. Written books are sorted by their SFEN text, so that a position can be found by
//! binary search in the file (`BookOnTheFly`).
//!
//! `text` reads and writes the format, `file_lookup` finds a position in a sorted file, `flip`
//! turns a position and its moves around for `FlippedBook`, `choose` picks the move to play,
//! and `make` builds books from games or by searching from the start position.

pub mod choose;
pub mod cli;
mod file_lookup;
mod flip;
pub mod make;
pub mod text;

pub use choose::{choose, BookChoice, BookPolicy, BookProbe};
pub use text::{BookEntries, ReadReport};

use crate::shogi::Position;
use crate::types::Move;
use file_lookup::FileBook;
use std::path::Path;

/// One move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The expected reply, if the book gives one.
    pub ponder: Option<Move>,
    /// The score in centipawns for the side to move in the book position.
    pub value: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// How often the move was played, or a weight: the higher, the more it is chosen when
    /// `ConsiderBookMoveCount` is on.
    pub count: u64,
}

/// Sorts a position's moves as YaneuraOu does: the most played first, then the best scored;
/// equal ones keep their order. The first move is the one the book's filters measure from.
pub fn sort_moves(moves: &mut [BookMove]) {
    moves.sort_by(|a, b| b.count.cmp(&a.count).then(b.value.cmp(&a.value)));
}

/// The text of a SFEN without its trailing ply number (`IgnoreBookPly`).
pub fn without_ply(sfen: &str) -> &str {
    let sfen = sfen.trim_end();
    match sfen.rsplit_once(' ') {
        Some((head, ply)) if !ply.is_empty() && ply.bytes().all(|b| b.is_ascii_digit()) => head.trim_end(),
        _ => sfen,
    }
}

/// The key a position is looked up by: its SFEN, with or without the game ply.
pub fn key_of(pos: &Position, ignore_ply: bool) -> String {
    let sfen = pos.to_sfen();
    if ignore_ply {
        without_ply(&sfen).to_string()
    } else {
        sfen
    }
}

/// How a book file is used: the file, and the two options that change how it is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSource {
    /// The book file.
    pub path: String,
    /// `BookOnTheFly`: look positions up in the file instead of reading it all.
    pub on_the_fly: bool,
    /// `IgnoreBookPly`: positions match whatever their ply.
    pub ignore_ply: bool,
}

/// An open book: held in memory, or looked up in its file.
pub enum Book {
    /// Read whole: a position's moves, sorted, by key.
    Memory(BookEntries),
    /// Looked up by binary search in the sorted file.
    OnTheFly(FileBook),
}

impl Book {
    /// Opens the book `source` names. Returns it with a line for the GUI saying what was read
    /// (positions, moves, skipped malformed lines) or how the file will be used.
    pub fn open(source: &BookSource) -> Result<(Book, String), String> {
        let path = Path::new(&source.path);
        let start = std::time::Instant::now();
        if source.on_the_fly {
            let book = FileBook::open(path, source.ignore_ply)?;
            let report = format!("book {}: looked up in the file ({} bytes)", source.path, book.len());
            return Ok((Book::OnTheFly(book), report));
        }
        let file = std::fs::File::open(path).map_err(|e| format!("book {}: {e}", source.path))?;
        let (entries, read) = text::read(std::io::BufReader::new(file), source.ignore_ply)
            .map_err(|e| format!("book {}: {e}", source.path))?;
        let ms = start.elapsed().as_millis();
        let report = format!("book {}: {}, read in {ms} ms", source.path, read.summary());
        Ok((Book::Memory(entries), report))
    }

    /// The moves of the position with `key` (see `key_of`), sorted, if the book has it.
    pub fn lookup(&mut self, key: &str) -> Option<Vec<BookMove>> {
        match self {
            Book::Memory(entries) => entries.get(key).map(<[BookMove]>::to_vec),
            Book::OnTheFly(file) => file.lookup(key),
        }
    }

    /// Whether positions match whatever their ply.
    pub fn ignores_ply(&self) -> bool {
        match self {
            Book::Memory(entries) => entries.ignores_ply(),
            Book::OnTheFly(file) => file.ignores_ply(),
        }
    }

    /// The moves the book has for `pos`, sorted, in `pos`'s own terms: from its entry, or, with
    /// `flipped`, from the colour-flipped position's entry when `pos` has none.
    pub fn moves_for(&mut self, pos: &Position, flipped: bool) -> Option<Vec<BookMove>> {
        let ignore_ply = self.ignores_ply();
        if let Some(moves) = self.lookup(&key_of(pos, ignore_ply)) {
            return Some(moves);
        }
        if !flipped {
            return None;
        }
        let mirror = flip::flipped_position(pos)?;
        let moves = self.lookup(&key_of(&mirror, ignore_ply))?;
        Some(moves.iter().map(flip::flip_book_move).collect())
    }
}
