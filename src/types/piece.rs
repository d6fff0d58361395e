//! Piece kinds (with promoted forms) and coloured pieces.

use super::Color;

/// A kind of piece. The numbering follows the common engine layout: the six promotable kinds
/// come first, and promoting adds 8 (`Pawn` 1 -> `ProPawn` 9, ..., `Rook` 6 -> `Dragon` 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// Fu: one step forward.
    Pawn = 1,
    /// Kyo: any distance forward.
    Lance = 2,
    /// Kei: two forward and one sideways, jumping.
    Knight = 3,
    /// Gin: one step forward or diagonally.
    Silver = 4,
    /// Kaku: any distance diagonally.
    Bishop = 5,
    /// Hisha: any distance orthogonally.
    Rook = 6,
    /// Kin: one step orthogonally, or diagonally forward; never promotes.
    Gold = 7,
    /// Gyoku / ou: one step in any direction; never promotes, never in hand.
    King = 8,
    /// Tokin, a promoted pawn: moves as a gold.
    ProPawn = 9,
    /// A promoted lance: moves as a gold.
    ProLance = 10,
    /// A promoted knight: moves as a gold.
    ProKnight = 11,
    /// A promoted silver: moves as a gold.
    ProSilver = 12,
    /// Uma, a promoted bishop: a bishop that also steps one square orthogonally.
    Horse = 13,
    /// Ryu, a promoted rook: a rook that also steps one square diagonally.
    Dragon = 14,
}

use PieceKind::*;

impl PieceKind {
    /// Every kind, in numbering order.
    pub const ALL: [PieceKind; 14] = [
        Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, King, ProPawn, ProLance, ProKnight, ProSilver,
        Horse, Dragon,
    ];
    /// The kinds a hand can hold, in SFEN's canonical order (R B G S N L P).
    pub const HAND_SFEN_ORDER: [PieceKind; 7] = [Rook, Bishop, Gold, Silver, Knight, Lance, Pawn];
    /// The kinds a hand can hold, in numbering order.
    pub const HAND: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];

    /// Index for tables laid out per kind (1..=14; 0 unused).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind numbered `v`, if `v` is 1..=14.
    #[inline(always)]
    pub const fn from_u8(v: u8) -> Option<PieceKind> {
        if v >= 1 && v <= 14 {
            Some(PieceKind::ALL[(v - 1) as usize])
        } else {
            None
        }
    }

    /// Whether this kind has a promoted form (pawn, lance, knight, silver, bishop, rook).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    /// Whether this is a promoted kind (tokin to dragon).
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// The promoted form; only meaningful when `can_promote()`.
    #[inline(always)]
    pub const fn promoted(self) -> PieceKind {
        match self {
            Pawn => ProPawn,
            Lance => ProLance,
            Knight => ProKnight,
            Silver => ProSilver,
            Bishop => Horse,
            Rook => Dragon,
            other => other,
        }
    }

    /// The unpromoted form: what the piece becomes when captured into a hand.
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            ProPawn => Pawn,
            ProLance => Lance,
            ProKnight => Knight,
            ProSilver => Silver,
            Horse => Bishop,
            Dragon => Rook,
            other => other,
        }
    }

    /// Whether this kind moves like a gold (gold and the four small promoted pieces).
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(self, Gold | ProPawn | ProLance | ProKnight | ProSilver)
    }

    /// The upper-case SFEN letter of the unpromoted kind.
    pub const fn base_letter(self) -> char {
        match self.unpromoted() {
            Pawn => 'P',
            Lance => 'L',
            Knight => 'N',
            Silver => 'S',
            Gold => 'G',
            Bishop => 'B',
            Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind named by an SFEN letter (either case).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Pawn,
            'L' => Lance,
            'N' => Knight,
            'S' => Silver,
            'G' => Gold,
            'B' => Bishop,
            'R' => Rook,
            'K' => King,
            _ => return None,
        })
    }

    /// How many pieces of this (unpromoted) kind the full set holds, for both sides together.
    pub const fn set_count(self) -> u32 {
        match self.unpromoted() {
            Pawn => 18,
            Lance | Knight | Silver | Gold => 4,
            Bishop | Rook | King => 2,
            _ => 0,
        }
    }
}

/// A piece of a colour, packed as `kind + 16 * colour`; 0 is reserved for "no piece".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// No piece: the content of an empty square.
    pub const NONE: Piece = Piece(0);
    /// Upper bound of the packed value, for tables indexed by piece.
    pub const COUNT: usize = 32;

    /// The piece of kind `k` belonging to `c`.
    #[inline(always)]
    pub const fn new(c: Color, k: PieceKind) -> Piece {
        Piece(k as u8 + ((c as u8) << 4))
    }

    /// Whether this is `Piece::NONE`.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether this is a real piece.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The kind; callers guarantee the piece is not `NONE`.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        // A table over the whole nibble: no range test on the hottest accessor of the board.
        const KIND_OF_NIBBLE: [PieceKind; 16] = [
            Pawn, Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, King, ProPawn, ProLance, ProKnight,
            ProSilver, Horse, Dragon, Pawn,
        ];
        KIND_OF_NIBBLE[(self.0 & 15) as usize]
    }

    /// The side the piece belongs to; callers guarantee it is not `NONE`.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The packed value, for tables indexed by piece (below `Piece::COUNT`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The SFEN text of the piece (`+p`, `K`, ...).
    pub fn sfen(self) -> String {
        let k = self.kind();
        let mut s = String::new();
        if k.is_promoted() {
            s.push('+');
        }
        let l = k.base_letter();
        s.push(if self.color() == Color::Black { l } else { l.to_ascii_lowercase() });
        s
    }
}
