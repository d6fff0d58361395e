//! Learning from shomei's own games: the training-data format and the self-play generator.
//!
//! - `packed`: a position in 32 bytes, bit-packed as YaneuraOu's `PackedSfen` is, so that
//!   trainers written for YaneuraOu's data read ours.
//! - `move16`: YaneuraOu's 16-bit move encoding (it differs from `types::Move` in two bits).
//! - `record`: the 40-byte training record (YaneuraOu's `PackedSfenValue`): packed position,
//!   search score, best move, game ply and game result.
//! - `gensfen`: `shomei gensfen`, self-play that writes those records, seeded and resumable,
//!   in shards with a manifest for data made on many machines.
//! - the shard manifest records each shard's SHA-256 (`crate::sha256`).

pub mod gensfen;
pub mod move16;
pub mod packed;
pub mod record;
