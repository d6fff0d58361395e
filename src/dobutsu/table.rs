//! The solved table: value and distance of every non-terminal position reachable from a root,
//! stored against the ranking function of `index` (a bitmap over the index space marks the
//! positions held, and one byte per held position gives its value).
//!
//! Terminal positions are not stored: their values follow from the rules (`Status`): a side
//! that can capture the opposing Lion wins in 1 ply; a side whose Lion is gone, whose opponent
//! made a safe Try, or with no move, has lost (0 plies).
//!
//! File layout (little endian): magic `SHOMEI-DOBUTSU-2` (16 bytes), `u64` index-space size,
//! `u64` number of held positions, the bitmap (`u64` words), then one value byte per held
//! position in index order: 0 = draw, `d + 1` = the game ends after `d` plies of perfect play
//! (odd `d`: the side to move wins, even `d`: it loses), and last the SHA-256 of every byte
//! before it, so that a damaged table is refused. Tables of format 1 (`SHOMEI-DOBUTSU-1`, the
//! same without the checksum) are still read; their damage cannot be seen.

use super::index::{index_of, SIZE};
use super::movegen::legal_moves;
use super::position::{Move, Position, Status};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// The magic of format 2, the one written: the file ends with a SHA-256 of its bytes.
const MAGIC: &[u8; 16] = b"SHOMEI-DOBUTSU-2";
/// The magic of format 1, without the checksum.
const MAGIC_UNCHECKED: &[u8; 16] = b"SHOMEI-DOBUTSU-1";

/// A writer or reader that hashes the bytes going through it.
struct Hashing<T> {
    /// The writer or reader the bytes go through.
    inner: T,
    /// The SHA-256 of every byte written or read so far.
    hash: crate::sha256::Sha256,
}

impl<T> Hashing<T> {
    /// Wraps `inner`, with nothing hashed yet.
    fn new(inner: T) -> Hashing<T> {
        Hashing { inner, hash: crate::sha256::Sha256::new() }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

/// Whether the table file at `path` is of format 1, whose damage cannot be detected.
pub fn is_unchecked_file(path: &Path) -> bool {
    let mut magic = [0u8; 16];
    File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == MAGIC_UNCHECKED
}

/// The game-theoretic value of a position for the side to move, with perfect play and no
/// repetition rule: the number of plies until the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins, the game ending after this many plies (odd).
    Win(u32),
    /// The side to move loses, the game ending after this many plies (even; 0 = already lost).
    Loss(u32),
    /// Neither side can force a result.
    Draw,
}

impl Value {
    /// The value byte stored in the table.
    pub(crate) fn from_byte(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            b => {
                let d = (b - 1) as u32;
                if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                }
            }
        }
    }

    /// The value of the parent position reached by a move into a position of value `self`.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// An order for choosing moves: higher is better for the side to move (fastest win, then
    /// draw, then slowest loss).
    pub fn preference(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i64,
        }
    }
}

/// Values of the positions of a solved (sub-)game, indexed by the ranking function.
pub struct Table {
    /// Bit `i` is set when index `i` is a held (reachable, non-terminal) position.
    pub(crate) bits: Vec<u64>,
    /// `rank[w]`: held positions in words `0..w`.
    pub(crate) rank: Vec<u32>,
    /// One value byte per held position.
    pub(crate) values: Vec<u8>,
}

impl Table {
    /// Builds the rank directory over `bits`.
    pub(crate) fn new(bits: Vec<u64>, values: Vec<u8>) -> Table {
        let mut rank = Vec::with_capacity(bits.len() + 1);
        let mut acc = 0u32;
        for w in &bits {
            rank.push(acc);
            acc += w.count_ones();
        }
        rank.push(acc);
        assert_eq!(acc as usize, values.len(), "one value per held position");
        Table { bits, rank, values }
    }

    /// Number of positions held (the non-terminal ones).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The dense id of index `i` if it is held.
    #[inline]
    pub(crate) fn id(&self, i: u64) -> Option<usize> {
        let (w, b) = ((i / 64) as usize, i % 64);
        let word = *self.bits.get(w)?;
        if word >> b & 1 == 0 {
            return None;
        }
        Some(self.rank[w] as usize + (word & ((1u64 << b) - 1)).count_ones() as usize)
    }

    /// The value of `pos` for its side to move: from the rules for terminal positions, from the
    /// table for held ones, `None` for a position the table does not cover.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        match terminal_value(pos) {
            Some(v) => Some(v),
            None => self.id(index_of(pos)?).map(|id| Value::from_byte(self.values[id])),
        }
    }

    /// The best move by the table (fastest win, else a draw, else the slowest loss) and the
    /// value it keeps, or `None` when there is no move or a successor is not covered.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Value)> {
        let mut best: Option<(Move, Value)> = None;
        for &m in legal_moves(pos).iter() {
            let v = self.probe(&pos.play(m))?.parent();
            if best.is_none_or(|(_, b)| v.preference() > b.preference()) {
                best = Some((m, v));
            }
        }
        best
    }

    /// Every held position (normalised: Black to move) with its value, in index order.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Value)> + '_ {
        self.bits.iter().enumerate().flat_map(move |(w, &word)| {
            let base = self.rank[w] as usize;
            (0..64u64).filter(move |b| word >> b & 1 == 1).enumerate().map(move |(k, b)| {
                (super::index::position_of(w as u64 * 64 + b), Value::from_byte(self.values[base + k]))
            })
        })
    }

    /// Writes the table (format 2, with its checksum).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut w = Hashing::new(BufWriter::with_capacity(1 << 20, File::create(path)?));
        w.write_all(MAGIC)?;
        w.write_all(&SIZE.to_le_bytes())?;
        w.write_all(&(self.values.len() as u64).to_le_bytes())?;
        for chunk in self.bits.chunks(1 << 16) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            w.write_all(&bytes)?;
        }
        w.write_all(&self.values)?;
        let digest = w.hash.finish();
        w.inner.write_all(&digest)?;
        w.inner.flush()
    }

    /// Reads a table written by `save` (for example by `shomei dobutsu solve --out FILE`).
    pub fn load(path: &Path) -> io::Result<Table> {
        let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("dobutsu table: {what}"));
        let mut r = Hashing::new(BufReader::with_capacity(1 << 20, File::open(path)?));
        let mut magic = [0u8; 16];
        r.read_exact(&mut magic)?;
        let checked = &magic == MAGIC;
        if !checked && &magic != MAGIC_UNCHECKED {
            return Err(bad("not a shomei dobutsu table"));
        }
        let mut word = [0u8; 8];
        r.read_exact(&mut word)?;
        if u64::from_le_bytes(word) != SIZE {
            return Err(bad("index space differs from this build"));
        }
        r.read_exact(&mut word)?;
        let held = u64::from_le_bytes(word) as usize;
        if held as u64 > SIZE {
            return Err(bad("more positions held than the index space has"));
        }
        let words = SIZE.div_ceil(64) as usize;
        let mut raw = vec![0u8; words * 8];
        r.read_exact(&mut raw)?;
        let bits: Vec<u64> =
            raw.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        drop(raw);
        let mut values = vec![0u8; held];
        r.read_exact(&mut values)?;
        if checked {
            let computed = r.hash.finish();
            let mut stored = [0u8; 32];
            r.inner.read_exact(&mut stored)?;
            if stored != computed {
                return Err(bad("damaged: its checksum does not match its contents"));
            }
        }
        if r.inner.read(&mut [0u8; 1])? != 0 {
            return Err(bad("bytes after the end of the table"));
        }
        let total: u64 = bits.iter().map(|w| w.count_ones() as u64).sum();
        if total as usize != held {
            return Err(bad("bitmap and value count disagree"));
        }
        Ok(Table::new(bits, values))
    }
}

/// Where the table lives by default: `$XDG_CACHE_HOME/shomei/dobutsu.tbl`, else
/// `$HOME/.cache/shomei/dobutsu.tbl`; `None` when neither variable is set.
pub fn default_path() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache")))?;
    Some(base.join("shomei").join("dobutsu.tbl"))
}

/// The value of a terminal position (or one won by capturing the Lion), `None` otherwise.
pub fn terminal_value(pos: &Position) -> Option<Value> {
    match pos.status() {
        Status::Lost => Some(Value::Loss(0)),
        Status::CanCatch => Some(Value::Win(1)),
        Status::Ongoing => None,
    }
}
