//! The xorshift64* generator of the random tsume positions (`tsume.rs`) and of the benches'
//! position sets. Everything else draws from the library's `shomei::rng::Rng`; this one stays
//! because what it drew is on record: `tests/data/mate_problems.txt` says it is reproducible
//! from its seed, and the benches compare timings over the same positions from commit to
//! commit. Another generator would draw other problems and other positions.

// Each crate includes this file and uses a different part of it.
#![allow(dead_code)]

/// xorshift64* over a non-zero 64-bit state.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (> 0); the modulo bias is irrelevant here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An index into a slice of `len` (> 0) items.
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// True with a probability of `percent` per cent.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}
