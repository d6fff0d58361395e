//! Every number the evaluation uses, in one place, each with the reason it has that size.
//!
//! Units are centipawn-like: a pawn on the board is 90. Tables indexed "by kind" use
//! `PieceKind::index()` (1 = pawn .. 14 = dragon); slot 0 is unused.

use super::Value;

// ---- material on the board ----

/// The unit: the weakest piece, and the one every side has most of.
pub const PAWN: Value = 90;
/// Slides forward only; strong on an open file, stuck once blocked.
pub const LANCE: Value = 315;
/// Jumps forward only and can never retreat, so it is often lost when it advances.
pub const KNIGHT: Value = 405;
/// Attacks well (retreats diagonally) but leaves holes beside itself.
pub const SILVER: Value = 495;
/// The best defender next to a king; cannot retreat diagonally.
pub const GOLD: Value = 540;
/// Long diagonal range, but covers only half the board's squares.
pub const BISHOP: Value = 855;
/// The strongest unpromoted piece: ranks and files.
pub const ROOK: Value = 990;
/// A tokin moves like a gold, and when captured the opponent only gets a pawn back.
pub const PRO_PAWN: Value = 540;
/// Promoted lance, knight and silver all move like a gold.
pub const PRO_LANCE: Value = 540;
/// Promoted knight: as a gold (see `PRO_LANCE`).
pub const PRO_KNIGHT: Value = 540;
/// Promoted silver: as a gold (see `PRO_LANCE`).
pub const PRO_SILVER: Value = 540;
/// A bishop that can also step one square orthogonally: a strong defender and attacker.
pub const HORSE: Value = 945;
/// A rook that can also step diagonally: usually decisive near the enemy king.
pub const DRAGON: Value = 1395;

// ---- material in hand ----
// A piece in hand can be dropped on almost any empty square, so it is worth more than the same
// piece committed to one square. Small pieces gain the most: their value on the board depends on
// where they stand, and drops of them (pawn taps, knight forks, silver and gold drops next to the
// king) are the typical attacking and defending moves.

/// A pawn in hand can tap a piece, block a check or start an attack anywhere.
pub const HAND_PAWN: Value = 100;
/// A lance dropped on a file is at full range at once.
pub const HAND_LANCE: Value = 350;
/// A dropped knight can fork, and can be placed where it is safe from pawns.
pub const HAND_KNIGHT: Value = 450;
/// A dropped silver defends or attacks diagonally as well as straight ahead.
pub const HAND_SILVER: Value = 550;
/// Gold drops are the standard mating and defending move.
pub const HAND_GOLD: Value = 600;
/// Majors gain less relative to their size: they already reach far from wherever they stand.
pub const HAND_BISHOP: Value = 900;
/// A dropped rook reaches a whole rank and file behind the enemy's lines at once.
pub const HAND_ROOK: Value = 1040;

// ---- general ----

/// The side to move acts first; a small bonus damps the odd-even swing of the search.
pub const TEMPO: Value = 20;
/// The evaluation is clamped to this size so that mate scores (which live far above) are never reached,
/// even in composed positions with more pieces than one set.
pub const EVAL_LIMIT: Value = 20_000;

// ---- placement relative to the own king (defence), by Chebyshev distance 0..8 ----

/// A gold next to its king is the core of every castle; the bonus fades within three squares.
pub const GOLD_GUARD: [Value; 9] = [0, 40, 26, 10, 0, 0, 0, 0, 0];
/// Silvers guard the king too, a little less than golds (they leave side squares open).
pub const SILVER_GUARD: [Value; 9] = [0, 30, 22, 8, 0, 0, 0, 0, 0];
/// Percentage of the gold guard a promoted small piece earns: it defends like a gold but is
/// usually better spent attacking.
pub const PROMOTED_GUARD_PERCENT: Value = 50;
/// A horse near its own king is said to be worth three generals as a defender.
pub const HORSE_GUARD: [Value; 9] = [0, 32, 26, 16, 6, 0, 0, 0, 0];
/// A rook next to its own king invites double attacks on both (a proverb: keep king and rook apart).
pub const ROOK_NEAR_KING: [Value; 9] = [0, -30, -20, -8, 0, 0, 0, 0, 0];
/// Guard squares behind the king (toward the own camp) protect less than those beside or in front.
pub const GUARD_BEHIND_PERCENT: Value = 70;
/// Pawns one to three ranks in front of the king, on its file or the next, keep pieces from landing
/// on its head. Indexed by how many ranks ahead (0 unused).
pub const PAWN_SHIELD: [Value; 4] = [0, 12, 10, 4];
/// The pawn shield two files away counts this percentage.
pub const PAWN_SHIELD_WIDE_PERCENT: Value = 40;

// ---- placement relative to the enemy king (attack) ----

/// How much being close to the enemy king is worth, by Chebyshev distance, before the kind weight.
pub const ATTACK_BY_DISTANCE: [Value; 9] = [0, 12, 9, 6, 3, 1, 0, 0, 0];
/// Attack weight by kind, in quarters (the bonus is weight * distance term / 4). Promoted pieces and
/// silvers attack, golds mostly defend, long-range pieces attack from afar anyway.
pub const ATTACK_WEIGHT: [Value; 15] = [
    0,  // unused
    2,  // pawn: a spearhead, cheap to give up
    3,  // lance
    3,  // knight (see also KNIGHT_JUMP)
    6,  // silver: the attacking general
    3,  // bishop: attacks from a distance
    3,  // rook: attacks from a distance (see also ROOK_ON_KING_FILE)
    4,  // gold
    0,  // king: its own placement is the king-square table
    8,  // tokin: a free attacker, the opponent gains only a pawn for it
    7,  // promoted lance
    7,  // promoted knight
    6,  // promoted silver
    10, // horse
    14, // dragon: next to the king it usually decides the game
];
/// Divisor of the attack weight (the weights are in quarters).
pub const ATTACK_WEIGHT_DIV: Value = 4;
/// A knight one jump from the squares around the enemy king (1-3 ranks in front of it, within
/// two files) threatens to join the mating net.
pub const KNIGHT_JUMP: Value = 14;
/// A rook on the enemy king's file (index 0) or the next one (1) presses on its castle.
pub const ROOK_ON_KING_FILE: [Value; 2] = [14, 8];
/// A lance aimed up the enemy king's file (index 0) or the next one (1).
pub const LANCE_ON_KING_FILE: [Value; 2] = [16, 6];

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
    1, // pawn
    2, // lance
    2, // knight
    3, // silver
    3, // bishop
    3, // rook
    3, // gold
    0, // king: cannot give check, only takes escape squares (counted as attacked squares)
    3, // tokin
    3, // promoted lance
    3, // promoted knight
    3, // promoted silver
    5, // horse
    6, // dragon
];
/// Each square next to the king the enemy attacks is an escape square lost or a check square.
pub const ATTACKED_SQUARE_UNITS: i32 = 3;
/// Each enemy piece within two squares of the king, attacking or not, is material for an attack.
pub const ZONE_PIECE_UNITS: i32 = 1;
/// Each own gold-mover or silver next to the king takes away this much danger.
pub const DEFENDER_UNITS: i32 = 2;
/// How much each kind of piece in the enemy's hand feeds an attack (drops attack at once).
pub const HAND_ATTACK_UNITS: [i32; 15] = [0, 1, 2, 2, 3, 3, 4, 3, 0, 0, 0, 0, 0, 0, 0];
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
