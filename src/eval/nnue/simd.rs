//! Which vector instructions the network's loops may use on this processor.
//!
//! The release build targets baseline x86-64 (SSE2), so that one binary runs everywhere. The
//! loops are written for the compiler to vectorise; where the processor has AVX2, the search
//! runs a copy of them compiled for it (`AccumulatorStack::evaluate`), chosen at run time.

/// Whether this processor has AVX2 (detected once, on first use). `SHOMEI_NO_AVX2` set in the
/// environment at start-up turns it off, to measure or test the portable loops on a processor
/// that has it.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    use std::sync::OnceLock;
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2
        .get_or_init(|| std::is_x86_feature_detected!("avx2") && std::env::var_os("SHOMEI_NO_AVX2").is_none())
}
