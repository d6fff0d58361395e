//! The Dobutsu board: 3 files × 4 ranks, pieces, hands, copy-make and the game-ending rules.
//!
//! Squares are numbered `rank * 3 + col`: rank 0 is rank `a` (White's back rank, Black's far
//! rank), rank 3 is rank `d`; col 0 is file 3 (the left file from Black's side), col 2 is file 1.
//! The board is so small that moves are applied by copying the position (`play` returns a new
//! one); there is no undo stack.

use crate::types::Color;

/// Number of squares on the board.
pub const SQUARES: usize = 12;
/// Board width (files).
pub const FILES: usize = 3;
/// Board height (ranks).
pub const RANKS: usize = 4;

/// A piece kind. The discriminants are the low three bits of a board cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Kind {
    /// Hiyoko: one step forward; promotes to a Hen on the far rank.
    #[default]
    Chick = 1,
    /// Zou: one step diagonally.
    Elephant = 2,
    /// Kirin: one step orthogonally.
    Giraffe = 3,
    /// Niwatori: a promoted Chick, moves like a gold general.
    Hen = 4,
    /// Raion: moves like a king; capturing it wins.
    Lion = 5,
}

impl Kind {
    /// Kinds that can be held in hand, in hand-array order.
    pub const HAND: [Kind; 3] = [Kind::Chick, Kind::Elephant, Kind::Giraffe];

    /// Index into a hand array (Chick 0, Elephant 1, Giraffe 2); `None` for Hen and Lion.
    #[inline(always)]
    pub const fn hand_index(self) -> Option<usize> {
        match self {
            Kind::Chick => Some(0),
            Kind::Elephant => Some(1),
            Kind::Giraffe => Some(2),
            _ => None,
        }
    }

    /// The kind a captured piece of this kind becomes in hand (a Hen goes back as a Chick).
    #[inline(always)]
    pub const fn unpromoted(self) -> Kind {
        match self {
            Kind::Hen => Kind::Chick,
            k => k,
        }
    }

    /// The SFEN letter (upper case), without the `+` of a Hen.
    pub const fn letter(self) -> char {
        match self {
            Kind::Chick | Kind::Hen => 'C',
            Kind::Elephant => 'E',
            Kind::Giraffe => 'G',
            Kind::Lion => 'L',
        }
    }

    /// The kind of a cell's low three bits (Lion for any other value).
    const fn from_bits(b: u8) -> Kind {
        match b {
            1 => Kind::Chick,
            2 => Kind::Elephant,
            3 => Kind::Giraffe,
            4 => Kind::Hen,
            _ => Kind::Lion,
        }
    }
}

/// A board cell: 0 for empty, else kind bits (1..=5) plus `WHITE_BIT` for White's pieces.
pub type Cell = u8;
/// The bit set in a cell holding a White piece.
pub const WHITE_BIT: u8 = 8;

/// The cell for a piece of `kind` owned by `color`.
#[inline(always)]
pub const fn cell(kind: Kind, color: Color) -> Cell {
    kind as u8 | if matches!(color, Color::White) { WHITE_BIT } else { 0 }
}

/// The owner and kind of a non-empty cell.
#[inline(always)]
pub const fn cell_piece(c: Cell) -> Option<(Color, Kind)> {
    if c == 0 {
        None
    } else {
        let color = if c & WHITE_BIT != 0 { Color::White } else { Color::Black };
        Some((color, Kind::from_bits(c & 7)))
    }
}

/// Rank (0 = `a` .. 3 = `d`) of a square.
#[inline(always)]
pub const fn rank_of(sq: usize) -> usize {
    sq / FILES
}

/// Column (0 = file 3 .. 2 = file 1) of a square.
#[inline(always)]
pub const fn col_of(sq: usize) -> usize {
    sq % FILES
}

/// The far rank of `color`: where its Chicks promote and its Lion makes a Try.
#[inline(always)]
pub const fn far_rank(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => RANKS - 1,
    }
}

/// Step targets, `STEPS[cell & 15][sq]`, as a 12-bit mask (indexed by cell so colour is built in).
pub static STEPS: [[u16; SQUARES]; 16] = build_steps();

/// The steps of a kind (by its cell bits) as `(d_rank, d_col)` for Black; none for 0 and unused
/// values.
const fn kind_dirs(kind: u8) -> &'static [(i32, i32)] {
    // (d_rank, d_col) for Black; White mirrors d_rank. Forward for Black is d_rank = -1.
    match kind {
        1 => &[(-1, 0)],
        2 => &[(-1, -1), (-1, 1), (1, -1), (1, 1)],
        3 => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
        4 => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
        5 => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
        _ => &[],
    }
}

/// Builds `STEPS`: for each cell value and square, the squares one step of that piece reaches.
const fn build_steps() -> [[u16; SQUARES]; 16] {
    let mut t = [[0u16; SQUARES]; 16];
    let mut c = 0;
    while c < 16 {
        let kind = (c & 7) as u8;
        let white = c & 8 != 0;
        let dirs = kind_dirs(kind);
        let mut sq = 0;
        while sq < SQUARES {
            let r = (sq / FILES) as i32;
            let f = (sq % FILES) as i32;
            let mut mask = 0u16;
            let mut i = 0;
            while i < dirs.len() {
                let dr = if white { -dirs[i].0 } else { dirs[i].0 };
                let (nr, nf) = (r + dr, f + dirs[i].1);
                if nr >= 0 && nr < RANKS as i32 && nf >= 0 && nf < FILES as i32 {
                    mask |= 1 << (nr as usize * FILES + nf as usize);
                }
                i += 1;
            }
            t[c][sq] = mask;
            sq += 1;
        }
        c += 1;
    }
    t
}

/// A move: a board move (`from` < 12) or a drop (`from == DROP`), with the kind dropped.
/// The default (a Chick from square 0 to 0) only fills empty move-list slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Origin square, or `Move::DROP`.
    pub from: u8,
    /// Destination square.
    pub to: u8,
    /// For a drop, the kind dropped; for a board move, the kind that moves.
    pub kind: Kind,
    /// Whether a Chick promotes with this move (it always does on reaching the far rank).
    pub promote: bool,
}

impl Move {
    /// The `from` value marking a drop.
    pub const DROP: u8 = 0xff;

    /// Whether this move is a drop from the hand.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.from == Self::DROP
    }
}

/// How a position stands under the rules, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on, and the side to move cannot capture the opposing Lion.
    Ongoing,
    /// The side to move can capture the opposing Lion: a win in one ply.
    CanCatch,
    /// The side to move has lost: its Lion was captured, the opposing Lion made a safe Try, or
    /// it has no legal move.
    Lost,
}

/// A Dobutsu position: board, hands, side to move and the ply number (for SFEN only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Cells by square (`rank * 3 + col`), 0 where empty.
    pub(crate) board: [Cell; SQUARES],
    /// Hand counts `[color][Chick, Elephant, Giraffe]`.
    pub(crate) hands: [[u8; 3]; 2],
    /// The side to move.
    pub(crate) side: Color,
    /// The move number written in SFEN, 1 at the start; the rules do not use it.
    pub(crate) ply: u32,
}

impl Position {
    /// The start position `gle/1c1/1C1/ELG b - 1`.
    pub fn startpos() -> Position {
        let mut board = [0; SQUARES];
        board[0] = cell(Kind::Giraffe, Color::White);
        board[1] = cell(Kind::Lion, Color::White);
        board[2] = cell(Kind::Elephant, Color::White);
        board[4] = cell(Kind::Chick, Color::White);
        board[7] = cell(Kind::Chick, Color::Black);
        board[9] = cell(Kind::Elephant, Color::Black);
        board[10] = cell(Kind::Lion, Color::Black);
        board[11] = cell(Kind::Giraffe, Color::Black);
        Position { board, hands: [[0; 3]; 2], side: Color::Black, ply: 1 }
    }

    /// An empty board with Black to move: the start point for building positions by hand.
    pub fn empty() -> Position {
        Position { board: [0; SQUARES], hands: [[0; 3]; 2], side: Color::Black, ply: 1 }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The ply number written in SFEN (1 at the start).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The piece on `sq` (0..12), if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: usize) -> Option<(Color, Kind)> {
        cell_piece(self.board[sq])
    }

    /// How many pieces of `kind` (Chick, Elephant or Giraffe) `color` holds in hand.
    pub fn hand_count(&self, color: Color, kind: Kind) -> u8 {
        kind.hand_index().map_or(0, |i| self.hands[color.index()][i])
    }

    /// Puts a piece on a square (or clears it with `None`); for building positions.
    pub fn set_piece(&mut self, sq: usize, piece: Option<(Color, Kind)>) {
        self.board[sq] = piece.map_or(0, |(c, k)| cell(k, c));
    }

    /// Sets a hand count; `kind` must be Chick, Elephant or Giraffe.
    pub fn set_hand(&mut self, color: Color, kind: Kind, count: u8) {
        if let Some(i) = kind.hand_index() {
            self.hands[color.index()][i] = count;
        }
    }

    /// Sets the ply number written in SFEN.
    pub fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// The square of `color`'s Lion, or `None` once it has been captured.
    #[inline(always)]
    pub fn lion(&self, color: Color) -> Option<usize> {
        let want = cell(Kind::Lion, color);
        self.board.iter().position(|&c| c == want)
    }

    /// Squares attacked by `color`'s pieces, as a 12-bit mask.
    #[inline]
    pub fn attacks(&self, color: Color) -> u16 {
        let mut mask = 0;
        for (sq, &c) in self.board.iter().enumerate() {
            if c != 0 && (c & WHITE_BIT != 0) == (color == Color::White) {
                mask |= STEPS[c as usize][sq];
            }
        }
        mask
    }

    /// `(can_catch, lost_to_try)` in one pass over the board (see those two methods).
    #[inline]
    pub fn catch_and_try(&self) -> (bool, bool) {
        let us_white = self.side == Color::White;
        let their_lion = cell(Kind::Lion, !self.side);
        let mut attacks = 0u16;
        let mut lion = usize::MAX;
        for (sq, &c) in self.board.iter().enumerate() {
            if c == their_lion {
                lion = sq;
            } else if c != 0 && (c & WHITE_BIT != 0) == us_white {
                attacks |= STEPS[c as usize][sq];
            }
        }
        if lion == usize::MAX {
            return (false, false);
        }
        let caught = attacks & (1 << lion) != 0;
        (caught, !caught && rank_of(lion) == far_rank(!self.side))
    }

    /// Whether the side to move can capture the opposing Lion right now.
    #[inline]
    pub fn can_catch(&self) -> bool {
        match self.lion(!self.side) {
            Some(sq) => self.attacks(self.side) & (1 << sq) != 0,
            None => false,
        }
    }

    /// Whether the opposing Lion stands on its far rank (the side to move's back rank) and the
    /// side to move cannot capture it: a successful Try, lost for the side to move.
    #[inline]
    pub fn lost_to_try(&self) -> bool {
        let them = !self.side;
        match self.lion(them) {
            Some(sq) => rank_of(sq) == far_rank(them) && self.attacks(self.side) & (1 << sq) == 0,
            None => false,
        }
    }

    /// The position after `m`, which must be legal here (see `movegen::legal_moves`).
    ///
    /// A captured Lion simply leaves the board; a captured Hen goes to the hand as a Chick; a
    /// Chick that moves onto its far rank becomes a Hen (a dropped one does not).
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        let us = self.side;
        let to = m.to as usize;
        if m.is_drop() {
            let hi = m.kind.hand_index().expect("drops are Chick, Elephant or Giraffe");
            next.hands[us.index()][hi] -= 1;
            next.board[to] = cell(m.kind, us);
        } else {
            let from = m.from as usize;
            let moving = self.board[from];
            if let Some((_, captured)) = cell_piece(self.board[to]) {
                if let Some(hi) = captured.unpromoted().hand_index() {
                    next.hands[us.index()][hi] += 1;
                }
            }
            let promotes = moving & 7 == Kind::Chick as u8 && rank_of(to) == far_rank(us);
            next.board[to] = if promotes { cell(Kind::Hen, us) } else { moving };
            next.board[from] = 0;
        }
        next.side = !us;
        next.ply = self.ply + 1;
        next
    }

    /// The same position seen from the other side: rotated 180° with colours swapped.
    #[inline]
    pub fn rotated(&self) -> Position {
        let mut next = *self;
        for sq in 0..SQUARES {
            let c = self.board[SQUARES - 1 - sq];
            next.board[sq] = if c == 0 { 0 } else { c ^ WHITE_BIT };
        }
        next.hands = [self.hands[1], self.hands[0]];
        next.side = !self.side;
        next
    }

    /// The position reflected left to right.
    #[inline]
    pub fn mirrored(&self) -> Position {
        let mut next = *self;
        for r in 0..RANKS {
            for f in 0..FILES {
                next.board[r * FILES + f] = self.board[r * FILES + FILES - 1 - f];
            }
        }
        next
    }
}
