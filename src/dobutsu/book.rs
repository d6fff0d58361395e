//! The second player's book: what the second player (White) needs to play perfectly from the
//! start against any first-player moves, built once from the full solved table and embedded in
//! the binary, so the engine plays the second player perfectly with no set-up step.
//!
//! # What it holds
//!
//! [`build`] walks the game from the start: where Black (the first player) is to move it
//! follows every legal move; where White is to move it plays one move, the fastest win, and
//! follows that move only. A line ends where the game is over. Every White position met is a
//! win (the start is lost for the first player in 78 plies). The book stores, for each of them
//! won in more than [`SHORT`] plies, the table's best move (ties broken by the first move in
//! generation order on the position as the ranking function orients it) and the distance. A
//! win within [`SHORT`] plies is not stored: [`Book::best_move`] finds it by an alpha-beta
//! search to that depth, which is exact for forced wins within its depth (checked against the
//! table in `tests/dobutsu_solve.rs`, and by [`build`] on every such position it meets), and
//! which takes about a millisecond. Positions are identified by their index in the ranking
//! function of `index` (side to move and left–right mirror normalised), so a position met
//! again, mirrored, is stored once; and a Black-to-move position whose rotation is in the book
//! is covered too (same value, the move mapped back).
//!
//! The walk from the full table meets 315,631 first-player positions and 512,272 second-player
//! positions (not counting 1,327,268 more where the first player has left its Lion to be
//! captured); 403,469 of them are won within 5 plies, and the other 108,803 are stored, in
//! 652,854 bytes. (The best-known earlier player of this kind, "どうぶつしょうぎ名人", stores
//! about 126,000 positions in about 200 KB.)
//!
//! The embedded book, `second_player.book` next to this file, is rebuilt with (the solve takes
//! about ten minutes and 5.4 GB, the book a minute or two):
//!
//! ```text
//! cargo run --release -- dobutsu solve --out dobutsu.tbl
//! cargo run --release -- dobutsu book --table dobutsu.tbl --out src/dobutsu/second_player.book
//! ```
//!
//! The build is deterministic: the same table gives the same bytes (`tests/dobutsu_book.rs`
//! checks it when `SHOMEI_DOBUTSU_TABLE` names the table).
//!
//! # File format (version 1, little endian)
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `SHMDBOOK` |
//! | 8 | 4 | `u32` version, 1 |
//! | 12 | 4 | `u32` count `n` of positions |
//! | 16 | 8 | `u64` size of the ranking function's index space (`index::SIZE`): a book made for another index is refused |
//! | 24 | 4 | `u32` the search depth `s` that replaces entries: wins within `s` plies are not stored (odd, at most 7) |
//! | 28 | 4n | `u32` position indices (`index::index_of`), strictly ascending |
//! | 28 + 4n | n | `u8` the move: its place in `legal_moves` of `index::position_of(index)` (the normalised, Black-to-move orientation) |
//! | 28 + 5n | n | `u8` plies to the end of the game with that move and perfect play (odd, above `s`: the side to move wins) |
//! | 28 + 6n | 8 | `u64` FNV-1a 64 checksum of all the bytes before it |

use super::index::{index_of, normalised, position_of, SIZE};
use super::movegen::legal_moves;
use super::play::{search, MATE};
use super::position::{col_of, rank_of, Move, Position, Status, FILES, SQUARES};
use super::table::{Table, Value};
use crate::types::Color;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

/// The book embedded in the binary (see the module docs for how to rebuild it).
pub static EMBEDDED_BYTES: &[u8] = include_bytes!("second_player.book");

/// Wins within this many plies are left to a search of this depth, not stored.
pub const SHORT: u32 = 5;

/// The file's first 8 bytes.
const MAGIC: &[u8; 8] = b"SHMDBOOK";
/// The format version this build writes and reads.
const VERSION: u32 = 1;
/// Bytes before the indices: magic, version, count, index-space size and short-win depth.
const HEADER: usize = 28;
/// Bytes of the FNV-1a checksum that ends the file.
const CHECKSUM: usize = 8;
/// The deepest search a book may leave its short wins to (a few milliseconds at most).
const MAX_SHORT: u32 = 7;

/// Why bytes are not a valid book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Too short, or the length disagrees with the count.
    Length,
    /// Not a shomei Dobutsu book.
    Magic,
    /// A format version this build does not read.
    Version(u32),
    /// Made for another ranking function.
    IndexSpace(u64),
    /// The search depth for short wins is even or too deep.
    Short(u32),
    /// The checksum does not match the contents.
    Checksum,
    /// The indices are not strictly ascending, or one is outside the index space.
    Order,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Length => write!(f, "length disagrees with the header"),
            BookError::Magic => write!(f, "not a shomei dobutsu book"),
            BookError::Version(v) => write!(f, "format version {v}, this build reads {VERSION}"),
            BookError::IndexSpace(s) => write!(f, "made for an index space of {s}, this build has {SIZE}"),
            BookError::Short(s) => write!(f, "short-win depth {s} (odd, at most {MAX_SHORT})"),
            BookError::Checksum => write!(f, "checksum mismatch"),
            BookError::Order => write!(f, "position indices out of order"),
        }
    }
}

impl std::error::Error for BookError {}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One book position: its index, the move's place in the canonical position's legal moves,
/// and the plies to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The canonical position's index (`dobutsu::index`), the book's sort key.
    pub key: u32,
    /// The best move's place in the canonical position's list of legal moves.
    pub move_index: u8,
    /// Plies to the second player's win with that move.
    pub distance: u8,
}

/// A book read from bytes (borrowed: the embedded one is used in place).
pub struct Book<'a> {
    /// Wins within this many plies are found by search, not stored.
    short: u32,
    /// The position indices, 4 little-endian bytes each, strictly ascending.
    keys: &'a [u8],
    /// Each position's move, as its place in the canonical position's legal moves.
    moves: &'a [u8],
    /// Each position's plies to the end of the game with its move.
    distances: &'a [u8],
}

impl<'a> Book<'a> {
    /// Checks and reads `bytes` written by [`encode`].
    pub fn parse(bytes: &'a [u8]) -> Result<Book<'a>, BookError> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(BookError::Length);
        }
        if &bytes[0..8] != MAGIC {
            return Err(BookError::Magic);
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let n = u32_at(12) as usize;
        if bytes.len() as u64 != HEADER as u64 + 6 * n as u64 + CHECKSUM as u64 {
            return Err(BookError::Length);
        }
        let body = bytes.len() - CHECKSUM;
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        if fnv1a64(&bytes[..body]) != stored {
            return Err(BookError::Checksum);
        }
        let space = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        if space != SIZE {
            return Err(BookError::IndexSpace(space));
        }
        let short = u32_at(24);
        if short % 2 == 0 || short > MAX_SHORT {
            return Err(BookError::Short(short));
        }
        let book = Book {
            short,
            keys: &bytes[HEADER..HEADER + 4 * n],
            moves: &bytes[HEADER + 4 * n..HEADER + 5 * n],
            distances: &bytes[HEADER + 5 * n..HEADER + 6 * n],
        };
        let mut prev: Option<u32> = None;
        for i in 0..n {
            let k = book.key(i);
            if prev.is_some_and(|p| p >= k) || k as u64 >= SIZE {
                return Err(BookError::Order);
            }
            prev = Some(k);
        }
        Ok(book)
    }

    /// Number of positions stored.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the book stores no position.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The depth of the search that finds the wins not stored.
    pub fn short(&self) -> u32 {
        self.short
    }

    /// The `i`-th position index.
    fn key(&self, i: usize) -> u32 {
        u32::from_le_bytes(self.keys[4 * i..4 * i + 4].try_into().expect("4 bytes"))
    }

    /// The `i`-th entry in index order.
    pub fn entry(&self, i: usize) -> Entry {
        Entry { key: self.key(i), move_index: self.moves[i], distance: self.distances[i] }
    }

    /// Every entry, in index order.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.len()).map(|i| self.entry(i))
    }

    /// The entry of a position index, by binary search.
    pub fn get(&self, key: u32) -> Option<Entry> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.key(mid).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(self.entry(mid)),
            }
        }
        None
    }

    /// The stored move of `pos` and the value it keeps, if `pos` (or its mirror or rotation)
    /// is stored.
    pub fn stored_move(&self, pos: &Position) -> Option<(Move, Value)> {
        if pos.status() != Status::Ongoing {
            return None;
        }
        let key = u32::try_from(index_of(pos)?).ok()?;
        let e = self.get(key)?;
        let (canonical, rotate, mirror) = orientation(pos, key);
        let m = *legal_moves(&canonical).as_slice().get(e.move_index as usize)?;
        let mapped = map_move(m, rotate, mirror);
        let legal = legal_moves(pos).iter().copied().find(|&l| l == mapped)?;
        let d = e.distance as u32;
        let v = if d % 2 == 1 { Value::Win(d) } else { Value::Loss(d) };
        Some((legal, v))
    }

    /// The book's move in `pos` and the value it keeps for the side to move: the stored move,
    /// else a win within [`Book::short`] plies found by search (the fastest), else `None`.
    /// Every position the second player meets from the start, playing these moves, is
    /// answered.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Value)> {
        self.stored_move(pos).or_else(|| short_win(pos, self.short))
    }
}

/// The fastest win within `depth` plies by the alpha-beta search of `play`, if there is one.
pub fn short_win(pos: &Position, depth: u32) -> Option<(Move, Value)> {
    if pos.status() == Status::Lost {
        return None;
    }
    let (m, s) = search(pos, depth)?;
    let plies = MATE - s;
    (1..=depth as i32).contains(&plies).then_some((m, Value::Win(plies as u32)))
}

/// The embedded book, checked (checksum included) on first use.
pub fn embedded() -> Result<&'static Book<'static>, BookError> {
    static BOOK: OnceLock<Result<Book<'static>, BookError>> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(EMBEDDED_BYTES)).as_ref().map_err(Clone::clone)
}

/// The canonical (Black-to-move, as `position_of(key)` gives it) form of `pos`, and whether
/// `pos` is rotated (White to move) and mirrored relative to it.
fn orientation(pos: &Position, key: u32) -> (Position, bool, bool) {
    let canonical = position_of(key as u64);
    let n = normalised(pos);
    let mirror = n.board != canonical.board;
    debug_assert!(!mirror || n.mirrored().board == canonical.board);
    (canonical, pos.side_to_move() == Color::White, mirror)
}

/// A square under the mirror (left–right) and the rotation (180°).
fn map_square(sq: u8, rotate: bool, mirror: bool) -> u8 {
    let mut s = sq as usize;
    if mirror {
        s = rank_of(s) * FILES + (FILES - 1 - col_of(s));
    }
    if rotate {
        s = SQUARES - 1 - s;
    }
    s as u8
}

/// A move of the canonical position carried over to the position it was normalised from.
fn map_move(m: Move, rotate: bool, mirror: bool) -> Move {
    Move {
        from: if m.is_drop() { m.from } else { map_square(m.from, rotate, mirror) },
        to: map_square(m.to, rotate, mirror),
        ..m
    }
}

/// What [`build`] found.
#[derive(Clone, Debug, Default)]
pub struct BuildStats {
    /// Distinct first-player (Black-to-move) positions expanded.
    pub first_player_positions: u64,
    /// Distinct second-player positions where Black's Lion can be captured (left to the search).
    pub catches: u64,
    /// Distinct other second-player positions met (stored or left to the search).
    pub second_player_positions: u64,
    /// Of those, the ones left to the search: won within [`SHORT`] plies.
    pub short_wins: u64,
    /// The longest win stored, in plies.
    pub longest: u32,
}

/// Walks the game from the start with the full solved table (see the module docs) and
/// returns the entries to store, in index order. Fails if the table does not cover a position
/// met, the second player's win is not kept (a wrong table), or the search misses a short win.
pub fn build(table: &Table) -> Result<(Vec<Entry>, BuildStats), String> {
    let start = Position::startpos();
    match table.probe(&start) {
        Some(Value::Loss(_)) => {}
        v => return Err(format!("the table says the start is {v:?}, not lost for the first player")),
    }
    let mut book: HashMap<u32, Entry> = HashMap::new();
    let mut seen_white: HashSet<u32> = HashSet::new();
    let mut seen_black: HashSet<u64> = HashSet::new();
    let mut stats = BuildStats::default();
    seen_black.insert(index_of(&start).ok_or("the start has no index")?);
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        stats.first_player_positions += 1;
        for &m in legal_moves(&p).iter() {
            let q = p.play(m);
            let status = q.status();
            if status == Status::Lost {
                return Err(format!("the second player loses in {}", q.to_sfen()));
            }
            let key = index_of(&q).ok_or_else(|| format!("no index for {}", q.to_sfen()))?;
            let key = u32::try_from(key).map_err(|_| "index beyond 32 bits")?;
            if !seen_white.insert(key) {
                continue;
            }
            if status == Status::CanCatch {
                // Black left its Lion en prise: the capture ends the game.
                stats.catches += 1;
                continue;
            }
            stats.second_player_positions += 1;
            let Some(Value::Win(d)) = table.probe(&q) else {
                return Err(format!("{} is {:?} for the second player", q.to_sfen(), table.probe(&q)));
            };
            let reply = if d <= SHORT {
                stats.short_wins += 1;
                match short_win(&q, SHORT) {
                    Some((r, Value::Win(found))) if found == d => r,
                    other => {
                        return Err(format!(
                            "the search finds {other:?}, not a win in {d}, in {}",
                            q.to_sfen()
                        ))
                    }
                }
            } else {
                let (canonical, rotate, mirror) = orientation(&q, key);
                let (best, v) =
                    table.best_move(&canonical).ok_or_else(|| format!("table misses {}", q.to_sfen()))?;
                if v != Value::Win(d) {
                    return Err(format!("best move of {} keeps {v:?}, not a win in {d}", q.to_sfen()));
                }
                let k =
                    legal_moves(&canonical).iter().position(|&l| l == best).expect("the best move is legal");
                book.insert(
                    key,
                    Entry {
                        key,
                        move_index: u8::try_from(k).map_err(|_| "more than 256 moves")?,
                        distance: u8::try_from(d).map_err(|_| "a win beyond 255 plies")?,
                    },
                );
                stats.longest = stats.longest.max(d);
                map_move(best, rotate, mirror)
            };
            if !legal_moves(&q).iter().any(|&l| l == reply) {
                return Err(format!("mapped move illegal in {}", q.to_sfen()));
            }
            let r = q.play(reply);
            if r.status() == Status::Lost {
                continue;
            }
            if table.probe(&r) != Some(Value::Loss(d - 1)) {
                return Err(format!("the reply in {} does not keep the win in {d}", q.to_sfen()));
            }
            let rk = index_of(&r).ok_or_else(|| format!("no index for {}", r.to_sfen()))?;
            if seen_black.insert(rk) {
                stack.push(r);
            }
        }
    }
    let mut entries: Vec<Entry> = book.into_values().collect();
    entries.sort_unstable_by_key(|e| e.key);
    Ok((entries, stats))
}

/// The file bytes of a book whose wins within `short` plies are left to the search (see the
/// module docs for the format); `entries` in index order.
pub fn encode(entries: &[Entry], short: u32) -> Vec<u8> {
    let n = entries.len();
    let mut out = Vec::with_capacity(HEADER + 6 * n + CHECKSUM);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(n as u32).to_le_bytes());
    out.extend_from_slice(&SIZE.to_le_bytes());
    out.extend_from_slice(&short.to_le_bytes());
    for e in entries {
        out.extend_from_slice(&e.key.to_le_bytes());
    }
    out.extend(entries.iter().map(|e| e.move_index));
    out.extend(entries.iter().map(|e| e.distance));
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}
