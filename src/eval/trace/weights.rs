//! The evaluation's numbers as one vector of weights: every tuned constant of `params.rs`, a
//! scalar as one weight and an array as one weight per entry, in `params.rs` order.

use crate::eval::params::*;

/// A named scalar or array of `params.rs`.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// Its name in `params.rs`.
    pub name: &'static str,
    /// Its values in `params.rs` (one for a scalar).
    pub values: &'static [i32],
    /// Whether it is an array (its weights are named `NAME[i]`).
    pub array: bool,
    /// The element type `params.rs` declares (`Value` or `i32`).
    pub rust_type: &'static str,
}

/// The values of a group: the constant itself for an array, a one-element slice for a scalar.
macro_rules! values {
    (scalar $c:ident) => {
        &[$c]
    };
    (array $c:ident) => {
        &$c
    };
}

/// Whether a group's shape is `array`.
macro_rules! is_array {
    (scalar) => {
        false
    };
    (array) => {
        true
    };
}

/// Declares `GroupId` and `GROUPS` from one list of `params.rs` constants, each with its
/// shape and element type.
macro_rules! groups {
    ($($id:ident = $shape:ident $c:ident: $ty:literal;)*) => {
        /// The groups of weights, one per constant of `params.rs` that is tuned.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum GroupId {
            $(
                #[doc = concat!("`", stringify!($c), "`.")]
                $id,
            )*
        }

        /// Every group, indexed by `GroupId`.
        pub const GROUPS: &[Group] = &[
            $(Group {
                name: stringify!($c),
                values: values!($shape $c),
                array: is_array!($shape),
                rust_type: $ty,
            },)*
        ];
    };
}

groups! {
    Pawn = scalar PAWN: "Value";
    Lance = scalar LANCE: "Value";
    Knight = scalar KNIGHT: "Value";
    Silver = scalar SILVER: "Value";
    Gold = scalar GOLD: "Value";
    Bishop = scalar BISHOP: "Value";
    Rook = scalar ROOK: "Value";
    ProPawn = scalar PRO_PAWN: "Value";
    ProLance = scalar PRO_LANCE: "Value";
    ProKnight = scalar PRO_KNIGHT: "Value";
    ProSilver = scalar PRO_SILVER: "Value";
    Horse = scalar HORSE: "Value";
    Dragon = scalar DRAGON: "Value";
    HandPawn = scalar HAND_PAWN: "Value";
    HandLance = scalar HAND_LANCE: "Value";
    HandKnight = scalar HAND_KNIGHT: "Value";
    HandSilver = scalar HAND_SILVER: "Value";
    HandGold = scalar HAND_GOLD: "Value";
    HandBishop = scalar HAND_BISHOP: "Value";
    HandRook = scalar HAND_ROOK: "Value";
    Tempo = scalar TEMPO: "Value";
    GoldGuard = array GOLD_GUARD: "Value";
    SilverGuard = array SILVER_GUARD: "Value";
    PromotedGuardPercent = scalar PROMOTED_GUARD_PERCENT: "Value";
    HorseGuard = array HORSE_GUARD: "Value";
    RookNearKing = array ROOK_NEAR_KING: "Value";
    GuardBehindPercent = scalar GUARD_BEHIND_PERCENT: "Value";
    PawnShield = array PAWN_SHIELD: "Value";
    PawnShieldWidePercent = scalar PAWN_SHIELD_WIDE_PERCENT: "Value";
    AttackByDistance = array ATTACK_BY_DISTANCE: "Value";
    AttackWeight = array ATTACK_WEIGHT: "Value";
    KnightJump = scalar KNIGHT_JUMP: "Value";
    RookOnKingFile = array ROOK_ON_KING_FILE: "Value";
    LanceOnKingFile = array LANCE_ON_KING_FILE: "Value";
    KingRank = array KING_RANK: "Value";
    KingFile = array KING_FILE: "Value";
    AttackerUnits = array ATTACKER_UNITS: "i32";
    AttackedSquareUnits = scalar ATTACKED_SQUARE_UNITS: "i32";
    ZonePieceUnits = scalar ZONE_PIECE_UNITS: "i32";
    DefenderUnits = scalar DEFENDER_UNITS: "i32";
    HandAttackUnits = array HAND_ATTACK_UNITS: "i32";
    DangerScale = scalar DANGER_SCALE: "i32";
}

/// Where each group's weights start in the vector; the last entry is the vector's length.
const OFFSETS: [usize; GROUPS.len() + 1] = {
    let mut o = [0; GROUPS.len() + 1];
    let mut i = 0;
    while i < GROUPS.len() {
        o[i + 1] = o[i] + GROUPS[i].values.len();
        i += 1;
    }
    o
};

/// The number of weights.
pub const WEIGHT_COUNT: usize = OFFSETS[GROUPS.len()];

/// The index of entry `i` of group `g` (0 for a scalar) in the weight vector.
#[inline]
pub const fn weight(g: GroupId, i: usize) -> usize {
    debug_assert!(i < GROUPS[g as usize].values.len());
    OFFSETS[g as usize] + i
}

/// The indices of the weights of `GROUPS[g]`.
pub fn group_weights(g: usize) -> std::ops::Range<usize> {
    OFFSETS[g]..OFFSETS[g + 1]
}

/// The weights `params.rs` holds now.
pub fn current() -> Vec<f64> {
    GROUPS.iter().flat_map(|g| g.values.iter().map(|&v| v as f64)).collect()
}

/// The name of every weight, as `params.rs` spells it: `PAWN`, `GOLD_GUARD[1]`.
pub fn names() -> Vec<String> {
    let mut out = Vec::with_capacity(WEIGHT_COUNT);
    for g in GROUPS {
        if g.array {
            out.extend((0..g.values.len()).map(|i| format!("{}[{i}]", g.name)));
        } else {
            out.push(g.name.to_string());
        }
    }
    out
}

/// The group of each weight, by weight index.
pub fn group_of(index: usize) -> &'static Group {
    let g = OFFSETS.partition_point(|&o| o <= index) - 1;
    &GROUPS[g]
}

/// Tests of the weight vector's layout.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_lays_the_groups_end_to_end() {
        let names = names();
        assert_eq!(names.len(), WEIGHT_COUNT);
        assert_eq!(current().len(), WEIGHT_COUNT);
        assert_eq!(names[weight(GroupId::Pawn, 0)], "PAWN");
        assert_eq!(names[weight(GroupId::GoldGuard, 1)], "GOLD_GUARD[1]");
        assert_eq!(names[weight(GroupId::DangerScale, 0)], "DANGER_SCALE");
        assert_eq!(current()[weight(GroupId::AttackWeight, 14)], ATTACK_WEIGHT[14] as f64);
        assert_eq!(group_of(weight(GroupId::KingFile, 4)).name, "KING_FILE");
        assert_eq!(group_of(0).name, "PAWN");
        assert_eq!(group_of(WEIGHT_COUNT - 1).name, "DANGER_SCALE");
    }
}
