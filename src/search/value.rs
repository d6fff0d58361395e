//! Search scores: centipawn-like values, mate scores, and how they are reported over USI.

/// Search scores share the evaluation's unit; mate scores live above `EVAL_LIMIT`.
pub use crate::eval::Value;

/// Beyond every real score.
pub const INFINITE: Value = 32_001;
/// Marks a table entry with no static evaluation (stored in check or at a mate in one).
pub const VALUE_NONE: Value = 32_002;
/// Mate at the root; a mate found `n` plies from the root scores `MATE - n`.
pub const MATE: Value = 32_000;
/// Deepest ply the search may reach (bounds PV arrays and mate scores).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_IN_MAX_PLY: Value = MATE - MAX_PLY as Value;

/// The score of delivering mate `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Whether `v` is a mate score (for either side) rather than an evaluation.
#[inline]
pub const fn is_mate_score(v: Value) -> bool {
    v >= MATE_IN_MAX_PLY || v <= -MATE_IN_MAX_PLY
}

/// A mate score counts plies from the root; the table stores it counting from the node.
#[inline]
pub fn to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v + ply as Value
    } else if v <= -MATE_IN_MAX_PLY {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of `to_tt`: a stored mate score made to count plies from the root again.
#[inline]
pub fn from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v - ply as Value
    } else if v <= -MATE_IN_MAX_PLY {
        v + ply as Value
    } else {
        v
    }
}

/// A score as the protocol reports it (`usi::info` writes it out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(Value),
    /// Mate in this many plies; negative when the side to move is being mated.
    Mate(i32),
}

impl Score {
    /// The protocol form of a search value: mates as plies to mate, the rest as centipawns.
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_IN_MAX_PLY {
            Score::Mate(MATE - v)
        } else if v <= -MATE_IN_MAX_PLY {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in 0..20 {
            for v in [mate_in(7), mated_in(9), 123, -456] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(3));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-4));
        assert_eq!(Score::from_value(77), Score::Cp(77));
    }
}
