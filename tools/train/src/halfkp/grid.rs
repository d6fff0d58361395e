//! The file's integer units, and rounding onto them (see `export` for the whole grid). The
//! model rounds its accumulators here when it trains on the grid, and `export` quantises with
//! the same functions, so both hold the same numbers.

/// Accumulator units per 1.0.
pub(super) const FT_SCALE: f32 = 127.0;
/// Hidden weight units per 1.0 (`2^WEIGHT_SCALE_BITS`).
pub(super) const HIDDEN_SCALE: f32 = 64.0;

/// `x` rounded to an `i16`, saturating.
pub(super) fn to_i16(x: f32) -> i16 {
    x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// `x` rounded to an `i8`, saturating.
pub(super) fn to_i8(x: f32) -> i8 {
    x.round().clamp(-128.0, 127.0) as i8
}

/// `x` rounded to an `i32`, saturating.
pub(super) fn to_i32(x: f32) -> i32 {
    (x as f64).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// `x` (a merged feature row's weight or an accumulator bias) as the file holds it, in floats.
#[inline]
pub fn ft_on_grid(x: f32) -> f32 {
    to_i16(x * FT_SCALE) as f32 / FT_SCALE
}
