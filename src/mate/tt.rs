//! The mate search's transposition table.
//!
//! Positions are stored by board (board + side to move, `Position::board_key`) and the attacker's
//! hand. All hands of one board share a bucket of `WAYS` entries, so a probe sees every stored
//! hand of the board at once and can use hand dominance:
//!
//! - a **proven** entry holds the *proof hand*: the position is a mate (within the stored length)
//!   for every attacker hand that covers it;
//! - a **disproven** entry holds the *disproof hand*: no mate (within the stored depth, or at all)
//!   for every attacker hand it covers;
//! - an **unknown** entry holds the proof and disproof numbers of exactly one hand.
//!
//! Dominance relies on piece conservation: on one board the attacker's hand grows exactly as the
//! defender's shrinks. That holds inside one solve; every solve starts a new table generation, and
//! entries of other generations read as empty.
//!
//! Replacement and garbage collection: every entry carries the number of search nodes spent below
//! it (`work`, 8 bits on a log scale, accumulated over visits). A full bucket drops its least
//! valuable entry; when the table is `GC_TRIGGER` full a sweep drops the least valuable entries
//! of the whole table until about `GC_KEEP` remain (the cut is taken from a histogram of sampled
//! values). The value of an unknown entry is its work; a proven or disproven entry counts as if
//! it had four times its work (`FINAL_BONUS`), so results outlive search state of the same cost.
//! Entries a new proof or disproof makes redundant (dominated hands) are dropped at once.

use crate::types::Hand;

/// Entries per bucket.
pub const WAYS: usize = 8;
/// Words per entry: 16 bytes, so a bucket is 128 bytes, aligned to 128 (two cache lines that
/// the hardware fetches together).
const WORDS: usize = 2;
/// 64-bit words per bucket.
const BUCKET_WORDS: usize = WAYS * WORDS;
/// Bytes per bucket.
pub const BUCKET_BYTES: usize = BUCKET_WORDS * 8;

/// Proof or disproof number of a decided position ("infinite").
pub const INF: u32 = u32::MAX;
/// Largest proof or disproof number of an undecided position.
pub const PN_MAX: u32 = INF - 1;
/// Depth of an unconditional disproof; also "no length limit" for searches.
pub const UNLIMITED: u16 = u16::MAX;

/// Start a sweep when this fraction of the entries is in use.
const GC_TRIGGER: f64 = 0.80;
/// A sweep keeps about this fraction of the table in use.
const GC_KEEP: f64 = 0.45;
/// A decided entry is worth as much as an undecided one with 2^(FINAL_BONUS / 8) times its work.
const FINAL_BONUS: u32 = 16;

/// What an entry holds: the 2-bit code in its first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Nothing stored, or an entry of another generation.
    Empty = 0,
    /// The proof and disproof numbers of one exact hand.
    Unknown = 1,
    /// A mate within the stored length, for every hand that covers the stored one.
    Proven = 2,
    /// No mate within the stored depth, for every hand that the stored one covers.
    Disproven = 3,
}

/// What a probe found for one board and hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Nothing usable.
    Miss,
    /// Undecided, with these numbers.
    Unknown {
        /// Proof number: how hard a mate still looks to prove.
        pn: u32,
        /// Disproof number: how hard it still looks to show there is none.
        dn: u32,
    },
    /// A mate within `len` plies, for every hand that covers `hand`.
    Proven {
        /// The mate's length in plies, at most.
        len: u16,
        /// The proof hand: the least attacker hand the stored proof needs.
        hand: Hand,
    },
    /// No mate within `depth` plies (`UNLIMITED`: no mate at all) for every hand `hand` covers.
    Disproven {
        /// Plies within which there is no mate.
        depth: u16,
        /// The disproof hand: the largest attacker hand the stored disproof holds for.
        hand: Hand,
    },
}

/// Work (nodes) on a logarithmic scale in 8 bits: 8 steps per doubling.
#[inline]
fn work_to_log(work: u64) -> u8 {
    let w = work.max(1);
    let top = 63 - w.leading_zeros();
    let frac = if top >= 3 { (w >> (top - 3)) & 7 } else { (w << (3 - top)) & 7 };
    (top * 8 + frac as u32).min(255) as u8
}

/// The smallest work that `work_to_log` maps to `l`: its inverse, rounding down.
#[inline]
fn log_to_work(l: u8) -> u64 {
    let top = (l / 8) as u32;
    let frac = (l % 8) as u64;
    ((8 + frac) << top) >> 3
}

/// One entry, unpacked.
///
/// ```text
/// word 0: check (24) | hand (23, no guard bits) | generation (7) | kind (2) | work (8, log scale)
/// word 1: unknown: pn (32) | dn (32)
///         decided: length or depth (16)
/// ```
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The key's 24 check bits (`Table::check_of`), telling apart the boards that share a bucket.
    check: u32,
    /// The attacker's hand: the proof or disproof hand of a decided entry, the exact hand of an
    /// unknown one.
    hand: Hand,
    /// Proof number: `INF` when disproven, 0 when proven.
    pn: u32,
    /// Disproof number: `INF` when proven, 0 when disproven.
    dn: u32,
    /// Nodes spent below this entry, on the log scale of `work_to_log`.
    work: u8,
    /// The mate's length of a proven entry, the depth of a disproven one; 0 for an unknown one.
    len: u16,
    /// Whether the entry is empty, undecided or decided, and which way.
    kind: Kind,
}

impl Entry {
    /// The garbage-collection value, on the log scale of `work`.
    #[inline(always)]
    fn value(&self) -> u32 {
        match self.kind {
            Kind::Empty => 0,
            Kind::Unknown => self.work as u32,
            _ => self.work as u32 + FINAL_BONUS,
        }
    }
}

/// Statistics for `hashfull` and the bench.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableStats {
    /// Entries the table holds: buckets times `WAYS`.
    pub capacity: u64,
    /// Entries in use in the current generation.
    pub used: u64,
    /// Sweeps run (`Table::gc`) since the table was made.
    pub gc_runs: u64,
    /// Entries those sweeps dropped.
    pub gc_removed: u64,
}

/// The mate search's transposition table: buckets of `WAYS` two-word entries, one bucket per board,
/// in one zeroed allocation aligned to the bucket size.
pub struct Table {
    /// The entries, two words each, from `base` on; one spare bucket's words leave room to align.
    words: Vec<u64>,
    /// Index of the first word of bucket 0 (aligns buckets to 128 bytes).
    base: usize,
    /// How many buckets; a key picks its bucket by multiply-shift (`bucket_of`).
    buckets: usize,
    /// The current generation, 1 to 127; entries of the others read as empty.
    gen: u8,
    /// Entries in use in the current generation.
    used: u64,
    /// `used` at which the next sweep runs.
    gc_at: u64,
    /// The capacity and the sweep counts (`used` is filled in from `Table::used` by `stats`).
    stats: TableStats,
}

/// `n` zero words straight from the allocator, or `None` when it refuses. Zeroed memory comes
/// as untouched pages that cost nothing, so a large table is paid for only as it fills (writing
/// the zeros, as `Vec::resize` would, makes the whole table resident at once).
#[allow(unsafe_code)]
fn zeroed_words(n: usize) -> Option<Vec<u64>> {
    let layout = std::alloc::Layout::array::<u64>(n.max(1)).ok()?;
    // SAFETY: the layout has a non-zero size; a non-null result is `n.max(1)` zeroed, aligned
    // u64s allocated by the global allocator with exactly the layout `Vec<u64>` frees with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut u64;
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, n.max(1), n.max(1)))
    }
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), or `None` when that much memory
    /// cannot be had.
    pub fn try_new(mb: usize) -> Option<Table> {
        let bytes = mb.max(1).checked_mul(1024 * 1024)?;
        let buckets = (bytes / BUCKET_BYTES).max(1);
        let n = buckets.checked_mul(BUCKET_WORDS)?.checked_add(BUCKET_WORDS)?;
        let words = zeroed_words(n)?;
        crate::large_pages::advise_large_pages(&words);
        let addr = words.as_ptr() as usize;
        let base = ((BUCKET_BYTES - addr % BUCKET_BYTES) % BUCKET_BYTES) / 8;
        let capacity = (buckets * WAYS) as u64;
        Some(Table {
            words,
            base,
            buckets,
            gen: 1,
            used: 0,
            gc_at: (capacity as f64 * GC_TRIGGER) as u64,
            stats: TableStats { capacity, ..TableStats::default() },
        })
    }

    /// Forgets every entry (cheaply: by moving to the next generation).
    pub fn new_search(&mut self) {
        self.gen = (self.gen + 1) & 0x7f;
        if self.gen == 0 {
            self.words.fill(0);
            self.gen = 1;
        }
        self.used = 0;
        self.stats.used = 0;
        self.gc_at = (self.stats.capacity as f64 * GC_TRIGGER) as u64;
    }

    /// The table's size and use, and what the sweeps have done.
    pub fn stats(&self) -> TableStats {
        TableStats { used: self.used, ..self.stats }
    }

    /// Permille of entries in use.
    pub fn hashfull(&self) -> u32 {
        ((self.used * 1000) / self.stats.capacity.max(1)) as u32
    }

    /// Index of the first word of the bucket of the board `key`.
    #[inline(always)]
    fn bucket_of(&self, key: u64) -> usize {
        self.base + (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET_WORDS
    }

    /// The 24 check bits stored for `key`: its low bits, never 0 so that an empty slot cannot match.
    #[inline(always)]
    fn check_of(key: u64) -> u32 {
        // Never 0, so a zeroed slot cannot match.
        ((key as u32) & 0x00ff_ffff) | 1
    }

    /// The check bits of the entry at word `at`.
    #[inline(always)]
    fn check_at(&self, at: usize) -> u32 {
        (self.words[at] as u32) & 0x00ff_ffff
    }

    /// Unpacks the entry at word `at`; one of another generation reads as empty.
    #[inline(always)]
    fn read(&self, at: usize) -> Entry {
        let w0 = self.words[at];
        let w1 = self.words[at + 1];
        let gen = ((w0 >> 47) & 0x7f) as u8;
        let kind = if gen != self.gen {
            Kind::Empty
        } else {
            match (w0 >> 54) & 3 {
                1 => Kind::Unknown,
                2 => Kind::Proven,
                3 => Kind::Disproven,
                _ => Kind::Empty,
            }
        };
        let (pn, dn, len) = match kind {
            Kind::Unknown => (w1 as u32, (w1 >> 32) as u32, 0),
            Kind::Proven => (0, INF, w1 as u16),
            Kind::Disproven => (INF, 0, w1 as u16),
            Kind::Empty => (0, 0, 0),
        };
        Entry {
            check: (w0 as u32) & 0x00ff_ffff,
            hand: Hand::unpack(((w0 >> 24) & 0x7f_ffff) as u32),
            pn,
            dn,
            work: (w0 >> 56) as u8,
            len,
            kind,
        }
    }

    /// Packs `e` into the entry at word `at`, in the current generation.
    #[inline(always)]
    fn write(&mut self, at: usize, e: &Entry) {
        self.words[at] = e.check as u64
            | ((e.hand.pack() as u64) << 24)
            | ((self.gen as u64) << 47)
            | ((e.kind as u64) << 54)
            | ((e.work as u64) << 56);
        self.words[at + 1] = match e.kind {
            Kind::Unknown => (e.pn as u64) | ((e.dn as u64) << 32),
            _ => e.len as u64,
        };
    }

    /// Empties the entry at word `at`, which was in use.
    #[inline(always)]
    fn clear(&mut self, at: usize) {
        self.words[at] = 0;
        self.used -= 1;
    }

    /// Adds `work` nodes to an entry's log-scale work.
    #[inline]
    fn add_work(log: u8, work: u64) -> u8 {
        work_to_log(log_to_work(log).saturating_add(work))
    }

    /// What the table knows about the board `key` with attacker hand `hand`, for a search that
    /// may use at most `limit` more plies. Proofs longer than `limit` and disproofs shallower
    /// than `limit` are not usable and read as undecided.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, limit: u16) -> Probe {
        let base = self.bucket_of(key);
        let check = Table::check_of(key);
        let mut best_proof: Option<(u16, Hand)> = None;
        let mut disproof: Option<(u16, Hand)> = None;
        let mut unknown: Option<(u32, u32)> = None;
        for i in 0..WAYS {
            let at = base + i * WORDS;
            if self.check_at(at) != check {
                continue;
            }
            let e = self.read(at);
            match e.kind {
                Kind::Empty => {}
                Kind::Proven => {
                    if e.len <= limit && hand.covers(e.hand) && best_proof.is_none_or(|(l, _)| e.len < l) {
                        best_proof = Some((e.len, e.hand));
                    }
                }
                Kind::Disproven => {
                    if e.len >= limit && e.hand.covers(hand) && disproof.is_none_or(|(d, _)| e.len > d) {
                        disproof = Some((e.len, e.hand));
                    }
                }
                Kind::Unknown => {
                    if e.hand == hand {
                        unknown = Some((e.pn, e.dn));
                    }
                }
            }
        }
        if let Some((len, hand)) = best_proof {
            Probe::Proven { len, hand }
        } else if let Some((depth, hand)) = disproof {
            Probe::Disproven { depth, hand }
        } else if let Some((pn, dn)) = unknown {
            Probe::Unknown { pn, dn }
        } else {
            Probe::Miss
        }
    }

    /// Finds a slot in the bucket for a new entry: an empty one, else the least valuable one.
    fn slot(&mut self, base: usize) -> usize {
        let mut victim = base;
        let mut victim_value = u32::MAX;
        for i in 0..WAYS {
            let at = base + i * WORDS;
            let e = self.read(at);
            if e.kind == Kind::Empty {
                self.used += 1;
                return at;
            }
            let v = e.value();
            if v < victim_value {
                victim_value = v;
                victim = at;
            }
        }
        victim
    }

    /// Records the undecided numbers of one hand; `work` nodes were spent on it this time.
    pub fn store_unknown(&mut self, key: u64, hand: Hand, pn: u32, dn: u32, work: u64) {
        let base = self.bucket_of(key);
        let check = Table::check_of(key);
        for i in 0..WAYS {
            let at = base + i * WORDS;
            if self.check_at(at) != check {
                continue;
            }
            let mut e = self.read(at);
            if e.kind == Kind::Unknown && e.hand == hand {
                e.pn = pn;
                e.dn = dn;
                e.work = Table::add_work(e.work, work);
                self.write(at, &e);
                return;
            }
        }
        let at = self.slot(base);
        let e = Entry { check, hand, pn, dn, work: work_to_log(work), len: 0, kind: Kind::Unknown };
        self.write(at, &e);
    }

    /// Records a mate within `len` plies for every hand covering `hand`. Entries it makes
    /// redundant (unknown hands it covers, longer proofs with larger hands) are dropped, and
    /// their work is credited to it.
    pub fn store_proven(&mut self, key: u64, hand: Hand, len: u16, work: u64) {
        self.store_decided(Kind::Proven, key, hand, len, work);
    }

    /// Records that no mate exists within `depth` plies (`UNLIMITED`: at all) for every hand
    /// `hand` covers. Entries it makes redundant (shallower disproofs of smaller hands; unknown
    /// hands it covers, when it is unconditional) are dropped, and their work is credited to it.
    pub fn store_disproven(&mut self, key: u64, hand: Hand, depth: u16, work: u64) {
        self.store_decided(Kind::Disproven, key, hand, depth, work);
    }

    /// Whether a `kind` result (proven or disproven) for `hand` within `len` plies also decides
    /// `other` within `other_len`: a proof holds for every larger hand and every longer limit, a
    /// disproof for every smaller hand and every shallower depth.
    #[inline(always)]
    fn decides(kind: Kind, hand: Hand, len: u16, other: Hand, other_len: u16) -> bool {
        if kind == Kind::Proven {
            other.covers(hand) && len <= other_len
        } else {
            hand.covers(other) && len >= other_len
        }
    }

    /// [`Table::store_proven`] (`kind` `Proven`, `bound` the length) and
    /// [`Table::store_disproven`] (`kind` `Disproven`, `bound` the depth): one walk of the bucket
    /// drops the entries the new result decides, or credits the work to an entry of the same
    /// kind that already decides it.
    #[inline(always)]
    fn store_decided(&mut self, kind: Kind, key: u64, hand: Hand, bound: u16, work: u64) {
        let base = self.bucket_of(key);
        let check = Table::check_of(key);
        let mut work = work;
        let mut keep: Option<usize> = None;
        for i in 0..WAYS {
            let at = base + i * WORDS;
            if self.check_at(at) != check {
                continue;
            }
            let e = self.read(at);
            match e.kind {
                // An unknown entry is compared as a search without a limit: every proof decides
                // it, a disproof only when it is unconditional.
                Kind::Unknown if Table::decides(kind, hand, bound, e.hand, UNLIMITED) => {
                    work = work.saturating_add(log_to_work(e.work));
                    self.clear(at);
                }
                k if k == kind && Table::decides(kind, hand, bound, e.hand, e.len) => {
                    work = work.saturating_add(log_to_work(e.work));
                    if keep.is_none() {
                        keep = Some(at);
                    } else {
                        self.clear(at);
                    }
                }
                k if k == kind && Table::decides(kind, e.hand, e.len, hand, bound) => {
                    // An existing entry already says as much.
                    let mut e = e;
                    e.work = Table::add_work(e.work, work);
                    self.write(at, &e);
                    if let Some(k) = keep {
                        self.clear(k);
                    }
                    return;
                }
                _ => {}
            }
        }
        let at = match keep {
            Some(at) => at,
            None => self.slot(base),
        };
        let (pn, dn) = if kind == Kind::Proven { (0, INF) } else { (INF, 0) };
        let e = Entry { check, hand, pn, dn, work: work_to_log(work), len: bound, kind };
        self.write(at, &e);
    }

    /// Runs a garbage-collection sweep if the table is full enough. Returns whether it did.
    pub fn maybe_gc(&mut self) -> bool {
        if self.used < self.gc_at {
            return false;
        }
        self.gc();
        true
    }

    /// Drops the least valuable entries until about `GC_KEEP` of the table is in use. The cut
    /// value comes from a histogram of the (logarithmic) values of sampled entries.
    pub fn gc(&mut self) {
        let capacity = self.stats.capacity;
        let target_keep = (capacity as f64 * GC_KEEP) as u64;
        if self.used <= target_keep {
            return;
        }
        let mut hist = [0u64; 256 + FINAL_BONUS as usize];
        let total_slots = self.buckets * WAYS;
        let sample = total_slots.min(1 << 18);
        let stride = (total_slots / sample).max(1);
        let mut seen = 0u64;
        let mut slot = 0usize;
        while slot < total_slots {
            let e = self.read(self.base + slot * WORDS);
            if e.kind != Kind::Empty {
                hist[e.value() as usize] += 1;
                seen += 1;
            }
            slot += stride;
        }
        if seen == 0 {
            return;
        }
        // Remove values from the bottom until the expected number left is at most the target.
        let remove_fraction = 1.0 - target_keep as f64 / self.used as f64;
        let want_removed = (seen as f64 * remove_fraction) as u64;
        let mut acc = 0u64;
        let mut cut = 0u32; // remove every value < cut
        while (cut as usize) < hist.len() && acc < want_removed {
            acc += hist[cut as usize];
            cut += 1;
        }
        let mut removed = 0u64;
        for slot in 0..total_slots {
            let at = self.base + slot * WORDS;
            let e = self.read(at);
            if e.kind != Kind::Empty && e.value() < cut {
                self.words[at] = 0;
                removed += 1;
            }
        }
        self.used -= removed.min(self.used);
        self.stats.gc_runs += 1;
        self.stats.gc_removed += removed;
        // If the sweep freed too little (one value holds most entries), do not sweep again at
        // once: move the trigger halfway between use and capacity.
        let trigger = (capacity as f64 * GC_TRIGGER) as u64;
        self.gc_at = if self.used < trigger { trigger } else { self.used + (capacity - self.used) / 2 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    fn hand(p: u32, g: u32) -> Hand {
        let mut h = Hand::EMPTY;
        h.set(PieceKind::Pawn, p);
        h.set(PieceKind::Gold, g);
        h
    }

    #[test]
    fn dominance_and_limits() {
        let mut t = Table::try_new(1).unwrap();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(t.probe(key, hand(1, 1), UNLIMITED), Probe::Miss);
        t.store_unknown(key, hand(1, 1), 3, 4, 10);
        assert_eq!(t.probe(key, hand(1, 1), UNLIMITED), Probe::Unknown { pn: 3, dn: 4 });
        assert_eq!(t.probe(key, hand(2, 1), UNLIMITED), Probe::Miss);
        t.store_proven(key, hand(1, 0), 7, 5);
        // The unknown entry is covered and gone.
        assert_eq!(t.probe(key, hand(1, 1), UNLIMITED), Probe::Proven { len: 7, hand: hand(1, 0) });
        assert_eq!(t.probe(key, hand(1, 1), 5), Probe::Miss);
        assert_eq!(t.probe(key, hand(0, 3), UNLIMITED), Probe::Miss);
        t.store_disproven(key, hand(0, 3), UNLIMITED, 5);
        assert_eq!(t.probe(key, hand(0, 2), 9), Probe::Disproven { depth: UNLIMITED, hand: hand(0, 3) });
        t.store_disproven(key, hand(3, 3), 5, 1);
        assert_eq!(t.probe(key, hand(2, 0), 5), Probe::Disproven { depth: 5, hand: hand(3, 3) });
        // A proof of that hand outranks a shallow disproof only within its length.
        assert_eq!(t.probe(key, hand(2, 0), 7), Probe::Proven { len: 7, hand: hand(1, 0) });
        t.new_search();
        assert_eq!(t.probe(key, hand(1, 1), UNLIMITED), Probe::Miss);
    }

    #[test]
    fn gc_keeps_valuable_entries() {
        let mut t = Table::try_new(1).unwrap();
        let cap = t.stats().capacity;
        let mut k = 0x9e37_79b9_7f4a_7c15u64;
        let mut keys = Vec::new();
        for i in 0..cap {
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            keys.push(k);
            let work = if i % 10 == 0 { 1000 } else { 1 };
            t.store_unknown(k, Hand::EMPTY, 1, 1, work);
        }
        let before = t.stats().used;
        t.gc();
        let after = t.stats().used;
        assert!(after < before, "{before} -> {after}");
        // Heavy entries survive the sweep (some were evicted from full buckets before it).
        let mut heavy_left = 0;
        for (i, &k) in keys.iter().enumerate() {
            if i % 10 == 0 && t.probe(k, Hand::EMPTY, UNLIMITED) != Probe::Miss {
                heavy_left += 1;
            }
        }
        assert!(heavy_left as u64 > cap / 20, "{heavy_left}");
    }
}
