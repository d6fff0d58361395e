//! Reading and writing YaneuraOu's text book format.
//!
//! Reading is forgiving: a line that cannot be read (a SFEN that is not a position, a move that
//! is not USI, a number that is not a number, a move before any position) is skipped and
//! counted, and the first one's line number is kept for the report. Legality is checked when a
//! position is looked up, where the position is at hand (`choose`).

use super::{sort_moves, without_ply, BookMove};
use crate::shogi::Position;
use crate::types::Move;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

/// The first line of every book written, as YaneuraOu writes it.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// What one line of a book is.
#[derive(Debug, PartialEq)]
pub(crate) enum Line<'a> {
    /// A comment, the header or a blank line.
    Skip,
    /// `sfen ...`: the SFEN text after the word, trimmed.
    Position(&'a str),
    /// A move of the current position.
    Move(BookMove),
    /// Anything else.
    Malformed,
}

/// A move field: a USI move, or `none` (also `None`, `resign`) for none.
fn parse_move_field(word: &str) -> Result<Option<Move>, ()> {
    match word {
        "none" | "None" | "resign" => Ok(None),
        _ => Move::parse_usi(word).map(Some).ok_or(()),
    }
}

/// Reads one line (its line ending already removed).
pub(crate) fn classify(line: &str) -> Line<'_> {
    let line = line.trim_end();
    if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
        return Line::Skip;
    }
    if let Some(sfen) = line.strip_prefix("sfen ") {
        return Line::Position(sfen.trim());
    }
    let mut words = line.split_ascii_whitespace();
    let Some(Ok(Some(mv))) = words.next().map(parse_move_field) else {
        return Line::Malformed;
    };
    let Ok(ponder) = words.next().map_or(Ok(None), parse_move_field) else {
        return Line::Malformed;
    };
    let mut number = |default: i64| -> Option<i64> { words.next().map_or(Some(default), |w| w.parse().ok()) };
    let (Some(value), Some(depth), Some(count)) = (number(0), number(0), number(1)) else {
        return Line::Malformed;
    };
    let fits = i32::try_from(value).is_ok() && i32::try_from(depth).is_ok() && count >= 0;
    if !fits {
        return Line::Malformed;
    }
    // Anything after the count is ignored, as YaneuraOu ignores it.
    Line::Move(BookMove { mv, ponder, value: value as i32, depth: depth as i32, count: count as u64 })
}

/// The canonical SFEN of a position line's text (hands in the standard order, the ply kept),
/// or `None` when it is not a position.
fn canonical(sfen: &str) -> Option<String> {
    let pos = Position::from_sfen(sfen).ok()?;
    let canonical = pos.to_sfen();
    // A SFEN without a ply reads as ply 1; keep it without one, as it was written.
    if without_ply(sfen) == sfen {
        Some(without_ply(&canonical).to_string())
    } else {
        Some(canonical)
    }
}

/// Adds `m` to a position's moves: a move already there takes the new fields and the two counts
/// add up (as YaneuraOu merges repeated lines).
pub fn add_move(moves: &mut Vec<BookMove>, m: BookMove) {
    match moves.iter_mut().find(|o| o.mv == m.mv) {
        Some(old) => *old = BookMove { count: old.count.saturating_add(m.count), ..m },
        None => moves.push(m),
    }
}

/// What reading a book found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadReport {
    /// Positions read (after merging repeated ones).
    pub positions: usize,
    /// Move lines read.
    pub moves: usize,
    /// Lines skipped because they could not be read.
    pub malformed: usize,
    /// The 1-based number of the first of them.
    pub first_malformed_line: Option<usize>,
}

impl ReadReport {
    /// Counts a malformed line, remembering the first one's number.
    fn malformed_at(&mut self, line: usize) {
        self.malformed += 1;
        self.first_malformed_line.get_or_insert(line);
    }

    /// One line for the GUI: what was read, and what was skipped.
    pub fn summary(&self) -> String {
        let mut s = format!("{} positions, {} moves", self.positions, self.moves);
        if let Some(line) = self.first_malformed_line {
            s.push_str(&format!("; skipped {} malformed lines, the first at line {line}", self.malformed));
        }
        s
    }
}

/// A book read into memory: each position's moves, sorted, by key (the SFEN, without its ply
/// when the book ignores plies).
#[derive(Clone, Debug, Default)]
pub struct BookEntries {
    /// Each position's moves, in `sort_moves` order, by key.
    map: FxHashMap<String, Vec<BookMove>>,
    /// Whether keys leave out the ply (the SFEN's last field).
    ignore_ply: bool,
}

impl BookEntries {
    /// The sorted moves of the position with `key`.
    pub fn get(&self, key: &str) -> Option<&[BookMove]> {
        self.map.get(key).map(Vec::as_slice)
    }

    /// Whether keys leave out the ply.
    pub fn ignores_ply(&self) -> bool {
        self.ignore_ply
    }

    /// How many positions the book has.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every position's key and sorted moves, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[BookMove])> {
        self.map.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }
}

/// Reads a whole book. Positions are keyed by their canonical SFEN (without the ply when
/// `ignore_ply`); a position given twice gets the moves of both.
pub fn read(input: impl BufRead, ignore_ply: bool) -> io::Result<(BookEntries, ReadReport)> {
    let mut map: FxHashMap<String, Vec<BookMove>> = FxHashMap::default();
    let mut report = ReadReport::default();
    let mut current: Option<String> = None;
    for_each_line(input, |number, line| match classify(line) {
        Line::Skip => {}
        Line::Position(sfen) => match canonical(sfen) {
            Some(key) => {
                let key = if ignore_ply { without_ply(&key).to_string() } else { key };
                map.entry(key.clone()).or_default();
                current = Some(key);
            }
            None => {
                report.malformed_at(number);
                current = None;
            }
        },
        Line::Move(m) => match current.as_ref().and_then(|k| map.get_mut(k)) {
            Some(moves) => {
                add_move(moves, m);
                report.moves += 1;
            }
            None => report.malformed_at(number),
        },
        Line::Malformed => report.malformed_at(number),
    })?;
    for moves in map.values_mut() {
        sort_moves(moves);
    }
    report.positions = map.len();
    Ok((BookEntries { map, ignore_ply }, report))
}

/// Calls `f` with each line's 1-based number and text (line ending removed), reading bytes so
/// that a line that is not UTF-8 is passed on (lossily) rather than ending the read.
pub(crate) fn for_each_line(mut input: impl BufRead, mut f: impl FnMut(usize, &str)) -> io::Result<()> {
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        number += 1;
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim_end_matches(['\n', '\r']);
        // A UTF-8 byte order mark some editors write.
        let text = if number == 1 { text.trim_start_matches('\u{feff}') } else { text };
        f(number, text);
    }
}

/// A book being made: positions by their full SFEN (ply included), each with its moves.
pub type BookData = BTreeMap<String, Vec<BookMove>>;

/// Reads a book to make or merge with, keeping each position's SFEN as written (canonical,
/// with its ply).
pub fn read_data(input: impl BufRead) -> io::Result<(BookData, ReadReport)> {
    let (entries, report) = read(input, false)?;
    Ok((entries.map.into_iter().collect(), report))
}

/// Writes `data` as YaneuraOu writes books: the header, then the positions sorted by their
/// SFEN text, each with its moves sorted (most played, then best scored, first). A position
/// given at several plies is written once, at the smallest. Positions without moves are left
/// out. Returns the number of positions written.
pub fn write(data: &BookData, mut out: impl Write) -> io::Result<usize> {
    let mut seen_without_ply: BTreeMap<&str, ()> = BTreeMap::new();
    let mut by_position: Vec<(&str, &Vec<BookMove>)> = Vec::new();
    // Smallest ply first among a position's plies: sort numerically by ply within a position.
    let mut keys: Vec<&String> = data.keys().collect();
    keys.sort_by_key(|k| (without_ply(k), ply_of(k)));
    for key in keys {
        let moves = &data[key];
        if moves.is_empty() || seen_without_ply.insert(without_ply(key), ()).is_some() {
            continue;
        }
        by_position.push((key, moves));
    }
    by_position.sort_by(|a, b| a.0.cmp(b.0));
    writeln!(out, "{HEADER}")?;
    for (sfen, moves) in &by_position {
        writeln!(out, "sfen {sfen}")?;
        let mut moves = moves.to_vec();
        sort_moves(&mut moves);
        for m in moves {
            let ponder = m.ponder.map_or("none".to_string(), |p| p.to_string());
            writeln!(out, "{} {ponder} {} {} {}", m.mv, m.value, m.depth, m.count)?;
        }
    }
    Ok(by_position.len())
}

/// The ply number at the end of a SFEN (0 when it has none).
fn ply_of(sfen: &str) -> u32 {
    let rest = &sfen[without_ply(sfen).len()..];
    rest.trim().parse().unwrap_or(0)
}

/// Tests of the book text format.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_with_every_optional_field_form() {
        let Line::Move(m) = classify("7g7f 3c3d 52 16 7") else { panic!() };
        assert_eq!(
            (m.mv.to_string(), m.ponder.map(|p| p.to_string()), m.value, m.depth, m.count),
            ("7g7f".into(), Some("3c3d".into()), 52, 16, 7)
        );
        let Line::Move(m) = classify("2g2f none") else { panic!() };
        assert_eq!((m.ponder, m.value, m.depth, m.count), (None, 0, 0, 1));
        let Line::Move(m) = classify("P*5e none -30 8 0 extra fields") else { panic!() };
        assert_eq!((m.value, m.depth, m.count), (-30, 8, 0));
        assert_eq!(
            classify("7g7f"),
            Line::Move(BookMove { mv: m_of("7g7f"), ponder: None, value: 0, depth: 0, count: 1 })
        );
        for bad in ["7g7x 3c3d", "7g7f 3c3d x", "7g7f 3c3d 1 2 -3", "none none", "sfe lnsg"] {
            assert_eq!(classify(bad), Line::Malformed, "{bad}");
        }
        assert_eq!(classify("// a comment"), Line::Skip);
        assert_eq!(classify("#YANEURAOU-DB2016 1.00"), Line::Skip);
        assert_eq!(classify("sfen  a b c 1 "), Line::Position("a b c 1"));
    }

    /// The move of a USI text.
    fn m_of(s: &str) -> Move {
        Move::parse_usi(s).unwrap()
    }

    #[test]
    fn without_ply_strips_only_a_number() {
        assert_eq!(without_ply("9/9 b - 12"), "9/9 b -");
        assert_eq!(without_ply("9/9 b -"), "9/9 b -");
        assert_eq!(ply_of("9/9 b - 12"), 12);
    }
}
