//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two 64-bit words: the data, and the key XORed with the data. A reader accepts an
//! entry only if the XOR gives back its key, so a torn write by another thread (one word new, the
//! other old) reads as a miss instead of a wrong result. Locks would cost more than the rare
//! lost entry.

use super::value::Value;
use crate::types::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What the stored value says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored (an empty entry).
    None = 0,
    /// The true score is at most the value (fail low).
    Upper = 1,
    /// The true score is at least the value (fail high).
    Lower = 2,
    /// The value is the true score.
    Exact = 3,
}

impl Bound {
    /// Whether a stored value `v` with this bound settles a search in the window (alpha, beta).
    #[inline]
    pub fn cuts(self, v: Value, alpha: Value, beta: Value) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
            Bound::None => false,
        }
    }

    /// The bound in the low two bits of `b` (`pack` puts it there).
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A table hit, decoded.
#[derive(Clone, Copy, Debug)]
pub struct TtData {
    /// The best move found, or `Move::NONE`.
    pub mv: Move,
    /// The search's value, mate scores counted from the node (`value::to_tt`; `from_tt` reverses it).
    pub value: Value,
    /// The raw static evaluation (before correction), or `VALUE_NONE` where none was computed (in check).
    pub eval: Value,
    /// The depth searched; negative for quiescence.
    pub depth: i32,
    /// What `value` says about the true score.
    pub bound: Bound,
}

/// Entries that share a bucket and compete for it.
const ENTRIES_PER_BUCKET: usize = 4;
/// Each entry is a check word (key XOR data) and a data word.
const WORDS_PER_ENTRY: usize = 2;
/// 64-bit words in a bucket.
const BUCKET_WORDS: usize = ENTRIES_PER_BUCKET * WORDS_PER_ENTRY;
/// A bucket's size: one 64-byte cache line.
const BUCKET_BYTES: usize = BUCKET_WORDS * 8;
/// Depths are stored biased so that quiescence depths (down to -DEPTH_BIAS) fit in a byte.
const DEPTH_BIAS: i32 = 16;

// data layout: move 16 | value 16 | eval 16 | depth 8 | bound 2 | generation 6
/// Packs an entry's data word. Value and evaluation are kept in 16 bits (they fit), the depth
/// biased and clamped to a byte, the generation modulo 64.
fn pack(mv: Move, value: Value, eval: Value, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.raw() as u64)
        | ((value as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + DEPTH_BIAS).clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((generation & 63) as u64) << 58)
}

/// Decodes a data word (its generation aside).
fn unpack(data: u64) -> TtData {
    TtData {
        mv: Move::from_raw(data as u16),
        value: (data >> 16) as u16 as i16 as Value,
        eval: (data >> 32) as u16 as i16 as Value,
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_BIAS,
        bound: Bound::from_bits(data >> 56),
    }
}

/// The search generation that wrote a data word (6 bits).
fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// One bucket, aligned to a cache line so that a probe loads a single line (the allocator alone
/// would place buckets 16 bytes off a line, each straddling two).
#[repr(C, align(64))]
struct Bucket([AtomicU64; BUCKET_WORDS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// The transposition table: buckets of `ENTRIES_PER_BUCKET` entries, written and read by all
/// search threads at once.
pub struct TranspositionTable {
    /// The buckets; a key picks its bucket by multiply-shift (`bucket`).
    table: Vec<Bucket>,
    /// Counts searches (`new_search`); entries keep its low six bits to tell the current ones.
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Panics if memory runs out; use
    /// `try_new` for sizes a user chose.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("memory for the transposition table")
    }

    /// A table of about `mb` megabytes (one bucket for 0), or `None` when that much memory
    /// cannot be had.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        // 0 MB gives a single bucket: the placeholder while the memory is lent to `go mate`.
        let buckets = (mb.checked_mul(1024 * 1024)? / BUCKET_BYTES).max(1);
        let mut table = Vec::new();
        table.try_reserve_exact(buckets).ok()?;
        // Large pages before the zeros are written: the pages are backed as they are touched.
        crate::large_pages::advise_large_pages(table.spare_capacity_mut());
        table.extend(
            std::iter::repeat_with(|| Bucket(std::array::from_fn(|_| AtomicU64::new(0)))).take(buckets),
        );
        Some(TranspositionTable { table, generation: AtomicU8::new(0) })
    }

    /// Empties the table.
    pub fn clear(&self) {
        for w in self.table.iter().flat_map(|b| &b.0) {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called at the start of each search, so entries from older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The current generation, as stored in entries (6 bits).
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 63
    }

    /// The bucket of `key`.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; BUCKET_WORDS] {
        // Multiply-shift maps the key onto the bucket count without a division.
        &self.table[(((key as u128) * (self.table.len() as u128)) >> 64) as usize].0
    }

    /// Asks the CPU to start loading the bucket of `key`, so the probe at the child node finds it
    /// in cache. A hint only: it changes nothing and cannot fault.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: `_mm_prefetch` only hints the cache; it never dereferences in a way that can
            // fault or alter memory, and `ptr` points into this table.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    pub fn probe(&self, key: u64) -> Option<TtData> {
        let bucket = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let w = i * WORDS_PER_ENTRY;
            let check = bucket[w].load(Ordering::Relaxed);
            let data = bucket[w + 1].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result. Replaces, in order: the same position, an empty slot, then the entry
    /// that is shallowest once age is counted against it.
    pub fn store(&self, key: u64, mv: Move, value: Value, eval: Value, depth: i32, bound: Bound) {
        let bucket = self.bucket(key);
        let gen = self.generation();
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let w = i * WORDS_PER_ENTRY;
            let data = bucket[w + 1].load(Ordering::Relaxed);
            let check = bucket[w].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = w;
                if data != 0 && check ^ data == key {
                    let old = unpack(data);
                    // Keep a deeper exact result of this position unless the new one is exact.
                    if bound != Bound::Exact && old.depth > depth + 4 && generation_of(data) == gen {
                        return;
                    }
                    // Keep the old move if the new result has none.
                    let mv = if mv.is_none() { old.mv } else { mv };
                    let new = pack(mv, value, eval, depth, bound, gen);
                    bucket[w].store(key ^ new, Ordering::Relaxed);
                    bucket[w + 1].store(new, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let age = (gen.wrapping_sub(generation_of(data)) & 63) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = w;
            }
        }
        let new = pack(mv, value, eval, depth, bound, gen);
        bucket[victim].store(key ^ new, Ordering::Relaxed);
        bucket[victim + 1].store(new, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation();
        let sample = (1000 / ENTRIES_PER_BUCKET).min(self.table.len());
        let mut used = 0;
        for b in 0..sample {
            for i in 0..ENTRIES_PER_BUCKET {
                let data = self.table[b].0[i * WORDS_PER_ENTRY + 1].load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Square::parse("7g").unwrap(), Square::parse("7f").unwrap());
        tt.store(0x1234_5678_9abc_def0, m, -321, 45, 7, Bound::Lower);
        let hit = tt.probe(0x1234_5678_9abc_def0).expect("hit");
        assert_eq!((hit.mv, hit.value, hit.eval, hit.depth, hit.bound), (m, -321, 45, 7, Bound::Lower));
        assert!(tt.probe(0x1234_5678_9abc_def2).is_none());
        tt.store(0x55, Move::NONE, 10, 0, -3, Bound::Upper);
        assert_eq!(tt.probe(0x55).unwrap().depth, -3);
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn buckets_start_on_cache_lines() {
        let tt = TranspositionTable::new(2);
        for key in [0u64, 0x1234_5678_9abc_def0, u64::MAX] {
            assert_eq!(tt.bucket(key).as_ptr() as usize % 64, 0);
        }
    }

    #[test]
    fn hashfull_counts_current_entries() {
        let tt = TranspositionTable::new(1);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 2, Move::NONE, 0, 0, 1, Bound::Exact);
        }
        assert!(tt.hashfull() > 900);
    }
}
