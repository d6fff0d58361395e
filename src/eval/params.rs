//! Every number the evaluation uses, in one place, each with the reason it has that size.
//!
//! Units are centipawn-like. Tables indexed "by kind" use `PieceKind::index()` (1 = pawn .. 14 =
//! dragon); slot 0 is unused.
//!
//! The values were first set by hand (the comments give the reasons); the tunable ones were then
//! fitted by Texel's method (`shomei-train texel`, `docs/training.md`) and accepted
//! by matches against the hand-set values (shomei-arena, 10,000 nodes per move, random 8-ply
//! openings, concurrency 2): SPRT elo0=0 elo1=15 accepted after 42 games (36-6), then a fixed
//! 200 games 114-86, +49 ± 49 Elo. The king's own square (`KING_RANK`, `KING_FILE`) is kept as
//! set by hand: a fit that tuned it too put the best king squares in the enemy camp and the worst
//! on the own back rank (such kings are rare in 1,243 games and mostly winning); it scored
//! +124 ± 53 against the hand-set values in 172 games and +37 ± 47 against this one in 200, not
//! enough to trust a king that leaves its castle on so little data. Recipe, exactly (the data
//! file is the same bytes for the same settings):
//!
//! ```text
//! shomei gensfen --positions 5000000 --out data/d6-s1.bin --depth 6 --seed 1 --threads 2
//!     (stopped after 1,374 games; only the first 81,500 records are used:)
//! head -c 3260000 data/d6-s1.bin > data/snap1.bin        # 81,500 records, 1,243 games
//! shomei-train texel --data data/snap1.bin --fit-k --lambda 0.75 --epochs 40 \
//!     --batch-size 1024 --threads 1 --seed 1 --freeze KING_RANK,KING_FILE --out data/tuned2.txt
//!     (K fitted 1121.5; validation error 0.017995 -> 0.016730 at epoch 3, the lowest, kept)
//! ```
//! then `data/tuned2.txt.rs` pasted over these declarations. Some directions are flat (a shift
//! of a whole guard table against the piece's material value, for one), so single values there
//! mean little on their own.

use super::Value;

// ---- material ----
// The piece values on the board and in hand live with the rules (`shogi::material`), since the
// position keeps their sum move by move; they are tuned with the rest and named here as well.
pub use crate::shogi::material::{
    BISHOP, DRAGON, GOLD, HAND_BISHOP, HAND_GOLD, HAND_KNIGHT, HAND_LANCE, HAND_PAWN, HAND_ROOK, HAND_SILVER,
    HORSE, KNIGHT, LANCE, PAWN, PRO_KNIGHT, PRO_LANCE, PRO_PAWN, PRO_SILVER, ROOK, SILVER,
};

// ---- general ----

/// The side to move acts first; a small bonus damps the odd-even swing of the search.
pub const TEMPO: Value = 12;
/// The evaluation is clamped to this size so that mate scores (which live far above) are never reached,
/// even in composed positions with more pieces than one set.
pub const EVAL_LIMIT: Value = 20_000;

// ---- placement relative to the own king (defence), by Chebyshev distance 0..8 ----

/// A gold next to its king is the core of every castle; the bonus fades within three squares.
pub const GOLD_GUARD: [Value; 9] = [0, 69, 32, 25, -27, 3, -1, 1, -57];
/// Silvers guard the king too, a little less than golds (they leave side squares open).
pub const SILVER_GUARD: [Value; 9] = [0, 40, 12, 15, -8, 6, 12, 9, -32];
/// Percentage of the gold guard a promoted small piece earns: it defends like a gold but is
/// usually better spent attacking.
pub const PROMOTED_GUARD_PERCENT: Value = 141;
/// A horse near its own king is said to be worth three generals as a defender.
pub const HORSE_GUARD: [Value; 9] = [0, 27, 61, 37, -1, 8, -14, -13, -13];
/// A rook next to its own king invites double attacks on both (a proverb: keep king and rook apart).
pub const ROOK_NEAR_KING: [Value; 9] = [0, -42, -44, -34, -9, 40, 8, 28, 20];
/// Guard squares behind the king (toward the own camp) protect less than those beside or in front.
pub const GUARD_BEHIND_PERCENT: Value = 150;
/// Pawns one to three ranks in front of the king, on its file or the next, keep pieces from landing
/// on its head. Indexed by how many ranks ahead (0 unused).
pub const PAWN_SHIELD: [Value; 4] = [0, 10, 7, 12];
/// The pawn shield two files away counts this percentage.
pub const PAWN_SHIELD_WIDE_PERCENT: Value = 48;

// ---- placement relative to the enemy king (attack) ----

/// How much being close to the enemy king is worth, by Chebyshev distance, before the kind weight.
pub const ATTACK_BY_DISTANCE: [Value; 9] = [0, 12, 22, 15, 4, 5, -7, -9, -4];
/// Attack weight by kind, in quarters (the bonus is weight * distance term / 4). Promoted pieces and
/// silvers attack, golds mostly defend, long-range pieces attack from afar anyway.
pub const ATTACK_WEIGHT: [Value; 15] = [
    0,  // unused
    0,  // pawn
    3,  // lance
    -2, // knight
    9,  // silver
    10, // bishop
    17, // rook
    -2, // gold
    0,  // king
    22, // tokin
    21, // promoted lance
    16, // promoted knight
    15, // promoted silver
    12, // horse
    22, // dragon
];
/// Divisor of the attack weight (the weights are in quarters).
pub const ATTACK_WEIGHT_DIV: Value = 4;
/// A knight one jump from the squares around the enemy king (1-3 ranks in front of it, within
/// two files) threatens to join the mating net.
pub const KNIGHT_JUMP: Value = 15;
/// A rook on the enemy king's file (index 0) or the next one (1) presses on its castle.
pub const ROOK_ON_KING_FILE: [Value; 2] = [-2, -9];
/// A lance aimed up the enemy king's file (index 0) or the next one (1).
pub const LANCE_ON_KING_FILE: [Value; 2] = [20, 19];

// ---- the king's own square, from the owner's point of view ----

/// By rank counted from the enemy's back rank (0) to the own back rank (8). The king belongs in its
/// own camp; in the middle of the board it is caught between both sides' pieces. Deep in the enemy
/// camp (an entering king) it becomes hard to mate again, so the penalty shrinks there.
pub const KING_RANK: [Value; 9] = [-30, -45, -60, -90, -100, -80, -30, 0, 0];
/// By distance of the file from the centre file (0) to the edge (4): castles sit two or three files
/// from the edge, away from the centre where the opening fight starts.
pub const KING_FILE: [Value; 5] = [0, 4, 10, 15, 12];

// ---- king safety ----
// Each king gets a danger count from what the enemy aims at the squares around it; a table turns
// danger into a penalty that grows quadratically, so it stays small for a safe king and dominates
// when the king is about to be mated.

/// Danger added by each enemy piece that attacks a square adjacent to the king, by kind.
pub const ATTACKER_UNITS: [i32; 15] = [
    0, // unused
    2, // pawn
    2, // lance
    5, // knight
    3, // silver
    3, // bishop
    5, // rook
    5, // gold
    0, // king
    6, // tokin
    4, // promoted lance
    7, // promoted knight
    6, // promoted silver
    4, // horse
    6, // dragon
];
/// Each square next to the king the enemy attacks is an escape square lost or a check square.
pub const ATTACKED_SQUARE_UNITS: i32 = 4;
/// Each enemy piece within two squares of the king, attacking or not, is material for an attack.
pub const ZONE_PIECE_UNITS: i32 = 1;
/// Each own gold-mover or silver next to the king takes away this much danger.
pub const DEFENDER_UNITS: i32 = 1;
/// How much each kind of piece in the enemy's hand feeds an attack (drops attack at once).
pub const HAND_ATTACK_UNITS: [i32; 15] = [0, 1, 1, 2, 3, 4, 6, 2, 0, 0, 0, 0, 0, 0, 0];
/// Pieces of one kind beyond this many in hand add no further attacking power.
pub const HAND_COUNT_CAP: u32 = 2;
/// The attack pressure is multiplied by (HAND_BASE + hand power) / HAND_BASE: with an empty enemy
/// hand the pieces on the board must do all the work.
pub const HAND_BASE: i32 = 8;
/// Empty squares next to the king are drop squares: each adds hand power / EMPTY_SQUARE_DIV.
pub const EMPTY_SQUARE_DIV: i32 = 4;
/// Danger beyond this is treated as this; the penalty table ends here.
pub const DANGER_MAX: usize = 63;
/// Penalty = danger^2 * DANGER_SCALE / 8, capped by DANGER_MAX (63^2 * 3 / 8 = 1488 centipawns).
pub const DANGER_SCALE: i32 = 3;
