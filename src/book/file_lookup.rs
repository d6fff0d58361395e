//! `BookOnTheFly`: a position's moves found by binary search in the book file itself, so that
//! books far larger than memory can be used. The file must be sorted by SFEN text, as every
//! book `shomei book` and YaneuraOu write is (`shomei book sort` sorts one that is not).

use super::text::{classify, Line};
use super::{sort_moves, without_ply, BookMove};
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A book file whose positions are looked up as they are needed.
pub struct FileBook {
    /// The book file, opened afresh by each lookup so that `FileBook` holds no file handle.
    path: PathBuf,
    /// The file's size in bytes when opened: the upper end of the binary search.
    len: u64,
    /// Whether keys leave out the ply, so that a position matches at any ply.
    ignore_ply: bool,
}

/// A position line found in the file: where it starts and ends, and its key.
struct Found {
    /// The byte offset of the line's first byte.
    start: u64,
    /// The byte offset just past the line's newline, where its moves start.
    end: u64,
    /// The line's SFEN, without its ply when the book ignores plies.
    key: String,
}

impl FileBook {
    /// Opens `path` for lookups (nothing is read yet).
    pub fn open(path: &Path, ignore_ply: bool) -> Result<FileBook, String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("book {}: {e}", path.display()))?;
        if !meta.is_file() {
            return Err(format!("book {}: not a file", path.display()));
        }
        Ok(FileBook { path: path.to_path_buf(), len: meta.len(), ignore_ply })
    }

    /// The file's size in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether positions match whatever their ply.
    pub fn ignores_ply(&self) -> bool {
        self.ignore_ply
    }

    /// The sorted moves of the position with `key`, if the file has it. A file that cannot be
    /// read any more counts as not having it.
    pub fn lookup(&self, key: &str) -> Option<Vec<BookMove>> {
        let mut reader = BufReader::new(File::open(&self.path).ok()?);
        let found = self.search(&mut reader, key).ok()??;
        reader.seek(SeekFrom::Start(found.end)).ok()?;
        let mut moves = Vec::new();
        let mut line = Vec::new();
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).ok()? == 0 {
                break;
            }
            let text = String::from_utf8_lossy(&line);
            match classify(text.trim_end_matches(['\n', '\r'])) {
                Line::Position(_) => break,
                Line::Move(m) => super::text::add_move(&mut moves, m),
                Line::Skip | Line::Malformed => {}
            }
        }
        sort_moves(&mut moves);
        Some(moves)
    }

    /// Binary search over byte offsets. Invariant: every position line starting before `lo`
    /// has a smaller key than `key`, and every one starting at or after `hi` a greater one.
    fn search(&self, reader: &mut BufReader<File>, key: &str) -> std::io::Result<Option<Found>> {
        let (mut lo, mut hi) = (0u64, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.position_line_from(reader, mid)? {
                Some(found) if found.start < hi => match found.key.as_str().cmp(key) {
                    std::cmp::Ordering::Equal => return Ok(Some(found)),
                    std::cmp::Ordering::Less => lo = found.end,
                    std::cmp::Ordering::Greater => hi = mid,
                },
                // No position line starts in [mid, hi): the answer is below mid, if anywhere.
                _ => hi = mid,
            }
        }
        Ok(None)
    }

    /// The first position line that starts at or after `offset`.
    fn position_line_from(
        &self,
        reader: &mut BufReader<File>,
        offset: u64,
    ) -> std::io::Result<Option<Found>> {
        // Step back one byte and drop the rest of that line: a line starting exactly at
        // `offset` follows the newline just before it, so it is kept.
        let mut at = offset.saturating_sub(1);
        reader.seek(SeekFrom::Start(at))?;
        let mut line = Vec::new();
        if offset > 0 {
            at += reader.read_until(b'\n', &mut line)? as u64;
        }
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line)? as u64;
            if n == 0 {
                return Ok(None);
            }
            let text = String::from_utf8_lossy(&line);
            if let Line::Position(sfen) = classify(text.trim_end_matches(['\n', '\r'])) {
                let key = if self.ignore_ply { without_ply(sfen) } else { sfen };
                return Ok(Some(Found { start: at, end: at + n, key: key.to_string() }));
            }
            at += n;
        }
    }
}
