//! The position: board, hands, side to move, and a stack of per-move state for unmaking moves.
//! `from_scratch` recomputes what the position keeps move by move, to check it.

mod from_scratch;

use super::attacks::{self, between, line};
use super::material::{hand_value, piece_value};
use super::zobrist;
use crate::types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square, Value};

/// What each ply remembers so the move can be unmade and the search can ask cheap questions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateInfo {
    /// Board pieces and side to move.
    pub board_key: u64,
    /// Both hands (wrapping sum of per-piece keys).
    pub hand_key: u64,
    /// Board and hand material from Black's point of view, by the evaluation's piece values:
    /// kept move by move, as YaneuraOu does, so the `material` build's evaluation is one load.
    pub material: Value,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Pieces of either colour that alone stand between the king of colour `c` and an enemy slider.
    pub blockers: [Bitboard; 2],
    /// The move that led here (`Move::NONE` at the root).
    pub last_move: Move,
    /// What that move captured (`Piece::NONE` when nothing).
    pub captured: Piece,
    /// Consecutive moves by each side, ending at this ply, that gave check.
    pub checks_in_row: [u16; 2],
    /// Plies since the last null move (or since the position was set up): repetitions are only
    /// looked for within them, since a null move breaks the chain of real moves.
    pub plies_from_null: u16,
}

/// A shogi position with its move history.
#[derive(Clone)]
pub struct Position {
    /// Pieces by square, `Piece::NONE` where empty.
    board: [Piece; 81],
    /// Each colour's pieces.
    by_color: [Bitboard; 2],
    /// Pieces of each kind, both colours, by `PieceKind::index()` (slot 0 unused).
    by_kind: [Bitboard; 15],
    /// Gold and the four pieces that move like gold, both colours.
    golds: Bitboard,
    /// Pieces in hand, by colour.
    hands: [Hand; 2],
    /// The side to move.
    side: Color,
    /// Each colour's king square, `Square::NO_KING` for a side without one.
    king_sq: [Square; 2],
    /// Ply number of the root position as given by the SFEN move number (1 = first move).
    start_ply: u32,
    /// One state per ply from the root, the current position's last; `undo_move` pops one.
    states: Vec<StateInfo>,
}

impl Position {
    /// Builds a position from its parts and computes the derived state. The caller (the SFEN
    /// parser) has already checked the parts are a valid position, kings included.
    pub(crate) fn from_parts(board: [Piece; 81], hands: [Hand; 2], side: Color, start_ply: u32) -> Position {
        let mut pos = Position {
            board: [Piece::NONE; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 15],
            golds: Bitboard::EMPTY,
            hands,
            side,
            king_sq: [Square::NO_KING; 2],
            start_ply,
            states: Vec::with_capacity(256),
        };
        for sq in Square::all() {
            let p = board[sq.index()];
            if p.is_some() {
                pos.put_piece(p, sq);
                if p.kind() == PieceKind::King {
                    pos.king_sq[p.color().index()] = sq;
                }
            }
        }
        let (board_key, hand_key) = pos.compute_keys();
        let mut st = StateInfo {
            board_key,
            hand_key,
            material: pos.compute_material(),
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            last_move: Move::NONE,
            captured: Piece::NONE,
            checks_in_row: [0; 2],
            plies_from_null: 0,
        };
        pos.fill_check_info(&mut st);
        pos.states.push(st);
        pos
    }

    /// The initial position.
    pub fn startpos() -> Position {
        Position::from_sfen(super::sfen::STARTPOS).expect("the start position is valid")
    }

    // ---- queries ----

    /// The side whose turn it is.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, or `Piece::NONE`.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// `c`'s pieces in hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of all pieces of `c`.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Pieces of kind `k` of colour `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()] & self.by_color[c.index()]
    }

    /// Pieces of colour `c` that move like a gold.
    #[inline(always)]
    pub fn golds(&self, c: Color) -> Bitboard {
        self.golds & self.by_color[c.index()]
    }

    /// The king's square; `Square::NO_KING` for a side without a king (composed problems).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.king_sq[c.index()]
    }

    /// Whether `c` has a king on the board (a composed problem may leave the attacker without).
    #[inline(always)]
    pub fn has_king(&self, c: Color) -> bool {
        self.king_sq[c.index()] != Square::NO_KING
    }

    /// The current ply's state.
    #[inline(always)]
    pub(crate) fn state(&self) -> &StateInfo {
        // There is always at least the root state.
        &self.states[self.states.len() - 1]
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.is_some()
    }

    /// Pieces of colour `c` pinned against their own king.
    #[inline(always)]
    pub fn pinned(&self, c: Color) -> Bitboard {
        self.state().blockers[c.index()] & self.by_color[c.index()]
    }

    /// Pieces of either colour that alone shield `c`'s king from an enemy slider.
    #[inline(always)]
    pub fn blockers(&self, c: Color) -> Bitboard {
        self.state().blockers[c.index()]
    }

    /// The position's hash key: board, both hands and the side to move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        let st = self.state();
        st.board_key ^ st.hand_key
    }

    /// The key `do_move(m)` would give, without making the move: the search prefetches the
    /// child's table entry with it, so the memory fetch overlaps the work of making the move.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (board_key, hand_key) = self.keys_after(m);
        board_key ^ hand_key
    }

    /// The board and hand keys after legal move `m`, from this position's: the one place that
    /// says how a move changes the key, for `do_move` and `key_after` alike.
    #[inline(always)]
    fn keys_after(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let st = self.state();
        let mut board_key = st.board_key ^ zobrist::side();
        let mut hand_key = st.hand_key;
        let to = m.to();
        if m.is_drop() {
            hand_key = hand_key.wrapping_sub(zobrist::hand_piece(us, m.dropped_kind()));
        } else {
            let from = m.from();
            let captured = self.board[to.index()];
            if captured.is_some() {
                board_key ^= zobrist::piece_square(captured, to);
                hand_key = hand_key.wrapping_add(zobrist::hand_piece(us, captured.kind().unpromoted()));
            }
            board_key ^= zobrist::piece_square(self.board[from.index()], from);
        }
        board_key ^= zobrist::piece_square(self.moved_piece_after(m), to);
        (board_key, hand_key)
    }

    /// The key of board and side to move only, without hands.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.state().board_key
    }

    /// Board and hand material from Black's point of view, by the evaluation's piece values.
    #[inline]
    pub fn material(&self) -> Value {
        self.state().material
    }

    /// Moves made since the root (the position given to `from_sfen`).
    #[inline(always)]
    pub fn moves_played(&self) -> usize {
        self.states.len() - 1
    }

    /// The game ply of the current position: the SFEN move number plus the moves made since.
    pub fn game_ply(&self) -> u32 {
        self.start_ply + self.moves_played() as u32
    }

    /// The SFEN move number the root position was given with.
    pub fn start_ply(&self) -> u32 {
        self.start_ply
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        let m = self.state().last_move;
        (!m.is_none()).then_some(m)
    }

    /// The piece the last move captured, `Piece::NONE` when it captured nothing or at the root.
    #[inline]
    pub fn last_captured(&self) -> Piece {
        self.state().captured
    }

    /// The side to move's own previous move (two plies back) and the piece it put on its
    /// destination, even if the opponent has captured that piece since; `None` near the root or
    /// when either of the last two plies was a null move.
    pub fn own_previous_move(&self) -> Option<(Move, Piece)> {
        let n = self.states.len();
        if n < 3 {
            return None;
        }
        let (earlier, last) = (&self.states[n - 2], &self.states[n - 1]);
        if earlier.last_move.is_none() || last.last_move.is_none() {
            return None;
        }
        let to = earlier.last_move.to();
        let piece = if last.last_move.to() == to { last.captured } else { self.board[to.index()] };
        Some((earlier.last_move, piece))
    }

    /// The moves made since the root, oldest first.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.states[1..].iter().map(|s| s.last_move)
    }

    /// Consecutive checking moves by `c` ending at the current ply.
    pub fn checks_in_row(&self, c: Color) -> u32 {
        self.state().checks_in_row[c.index()] as u32
    }

    /// The key of the position `back` plies before the current one (`1..=history_len()`).
    #[inline]
    pub(crate) fn key_plies_back(&self, back: usize) -> u64 {
        let s = &self.states[self.states.len() - 1 - back];
        s.board_key ^ s.hand_key
    }

    /// How many earlier positions `key_plies_back` can reach.
    #[inline]
    pub(crate) fn history_len(&self) -> usize {
        self.states.len() - 1
    }

    /// Keys of earlier positions, newest first, paired with how many plies back each lies.
    pub(crate) fn key_history(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let n = self.states.len() - 1;
        self.states[..n].iter().rev().enumerate().map(|(i, s)| (i + 1, s.board_key ^ s.hand_key))
    }

    // ---- attacks ----

    /// Pieces of colour `c` attacking `sq`, given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let opp = !c;
        let own = self.by_color[c.index()];
        let kinglike = self.by_kind[PieceKind::King.index()]
            | self.by_kind[PieceKind::Horse.index()]
            | self.by_kind[PieceKind::Dragon.index()];
        let steppers = (attacks::pawn_attacks(opp, sq) & self.by_kind[PieceKind::Pawn.index()])
            | (attacks::knight_attacks(opp, sq) & self.by_kind[PieceKind::Knight.index()])
            | (attacks::silver_attacks(opp, sq) & self.by_kind[PieceKind::Silver.index()])
            | (attacks::gold_attacks(opp, sq) & self.golds)
            | (attacks::king_attacks(sq) & kinglike);
        (steppers & own) | self.slider_attackers(c, sq, occ)
    }

    /// Pieces of both colours attacking `sq` given occupancy `occ` (occupied or not: callers
    /// mask with `occ` when removed pieces must not count). One pass: the sliders' rays are
    /// computed once for both colours.
    #[inline]
    pub fn all_attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let kinglike = self.by_kind[PieceKind::King.index()]
            | self.by_kind[PieceKind::Horse.index()]
            | self.by_kind[PieceKind::Dragon.index()];
        // The pieces of colour `c` that attack `sq` by a step.
        let steppers = |c: Color| {
            let opp = !c;
            ((attacks::pawn_attacks(opp, sq) & self.by_kind[PieceKind::Pawn.index()])
                | (attacks::knight_attacks(opp, sq) & self.by_kind[PieceKind::Knight.index()])
                | (attacks::silver_attacks(opp, sq) & self.by_kind[PieceKind::Silver.index()])
                | (attacks::gold_attacks(opp, sq) & self.golds))
                & self.by_color[c.index()]
        };
        steppers(Color::Black)
            | steppers(Color::White)
            | (attacks::king_attacks(sq) & kinglike)
            | self.slider_attackers_to(sq, occ)
    }

    /// Sliding pieces of both colours (lances, bishops, rooks and their promotions) attacking
    /// `sq` through occupancy `occ`: all that can newly appear behind a piece leaving the line,
    /// which is what a static exchange adds after each capture.
    #[inline]
    pub fn slider_attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rooks = self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Dragon.index()];
        let bishops = self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Horse.index()];
        let lances = self.by_kind[PieceKind::Lance.index()];
        // A lance of colour `c` attacks `sq` when a lance of the other colour on `sq` would attack it.
        let lance_of = |c: Color| attacks::lance_attacks(!c, sq, occ) & lances & self.by_color[c.index()];
        (attacks::rook_attacks(sq, occ) & rooks)
            | (attacks::bishop_attacks(sq, occ) & bishops)
            | lance_of(Color::Black)
            | lance_of(Color::White)
    }

    /// Whether any piece of colour `c` attacks `sq` with occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square, occ: Bitboard) -> bool {
        // The same test as `attackers_to(..).is_some()`, cheapest first: the steps, then each
        // slider's rays only when such a slider of `c` stands on one of them.
        let opp = !c;
        let own = self.by_color[c.index()];
        let kind = |k: PieceKind| self.by_kind[k.index()];
        let kinglike = kind(PieceKind::King) | kind(PieceKind::Horse) | kind(PieceKind::Dragon);
        let steppers = (attacks::pawn_attacks(opp, sq) & kind(PieceKind::Pawn))
            | (attacks::knight_attacks(opp, sq) & kind(PieceKind::Knight))
            | (attacks::silver_attacks(opp, sq) & kind(PieceKind::Silver))
            | (attacks::gold_attacks(opp, sq) & self.golds)
            | (attacks::king_attacks(sq) & kinglike);
        if (steppers & own).is_some() {
            return true;
        }
        let rooks = (kind(PieceKind::Rook) | kind(PieceKind::Dragon)) & own;
        if (attacks::rook_pseudo(sq) & rooks).is_some() && (attacks::rook_attacks(sq, occ) & rooks).is_some()
        {
            return true;
        }
        let bishops = (kind(PieceKind::Bishop) | kind(PieceKind::Horse)) & own;
        if (attacks::bishop_pseudo(sq) & bishops).is_some()
            && (attacks::bishop_attacks(sq, occ) & bishops).is_some()
        {
            return true;
        }
        let lances = kind(PieceKind::Lance) & own;
        (attacks::lance_pseudo(opp, sq) & lances).is_some()
            && (attacks::lance_attacks(opp, sq, occ) & lances).is_some()
    }

    /// Pieces of `c`'s enemy that could reach `c`'s king along a line if nothing stood between.
    #[inline]
    fn snipers_of(&self, c: Color) -> Bitboard {
        let ksq = self.king_sq[c.index()];
        let enemy = self.by_color[(!c).index()];
        let rooks = self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Dragon.index()];
        let bishops = self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Horse.index()];
        ((attacks::rook_pseudo(ksq) & rooks)
            | (attacks::bishop_pseudo(ksq) & bishops)
            | (attacks::lance_pseudo(c, ksq) & self.by_kind[PieceKind::Lance.index()]))
            & enemy
    }

    /// The pieces of either colour alone between `c`'s king and an enemy slider aimed at it.
    fn compute_blockers(&self, c: Color) -> Bitboard {
        let ksq = self.king_sq[c.index()];
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in self.snipers_of(c) {
            let b = between(ksq, s) & occ;
            if b.is_some() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Sets `st`'s checkers and blockers for the position as it stands.
    fn fill_check_info(&self, st: &mut StateInfo) {
        let us = self.side;
        st.checkers = self.attackers_to(!us, self.king_sq[us.index()], self.occupied());
        st.blockers = self.both_blockers();
    }

    /// The blockers of `c`'s king after a move that changed the squares `changed`, given those
    /// `before` it. Blockers depend only on the pieces on the lines through the king, so a move
    /// that touched none of those squares (about half the calls, by the cost saved) leaves them as
    /// they were; a king move always touches its own lines (it leaves a square next to its new one).
    #[inline]
    fn blockers_after(&self, c: Color, before: Bitboard, changed: Bitboard) -> Bitboard {
        let ksq = self.king_sq[c.index()];
        if ((attacks::rook_pseudo(ksq) | attacks::bishop_pseudo(ksq)) & changed).is_empty() {
            before
        } else {
            self.compute_blockers(c)
        }
    }

    /// The blockers of each king, Black's first.
    #[inline]
    fn both_blockers(&self) -> [Bitboard; 2] {
        [self.compute_blockers(Color::Black), self.compute_blockers(Color::White)]
    }

    /// The pieces checking the side to move right after `m`, found from the move alone (as
    /// Stockfish does) rather than by a full attack scan of the king: the moved or dropped piece
    /// itself, and a slider uncovered by the square it left. `enemy_king_blockers` are the
    /// blockers of the checked king before the move.
    fn checkers_after(&self, m: Move, enemy_king_blockers: Bitboard) -> Bitboard {
        let checked = self.side;
        let mover = !checked;
        if !self.has_king(checked) {
            return Bitboard::EMPTY;
        }
        let ksq = self.king_sq[checked.index()];
        let to = m.to();
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        if attacks::attacks(mover, self.board[to.index()].kind(), to, occ).contains(ksq) {
            checkers = checkers.with(to);
        }
        if !m.is_drop() {
            let from = m.from();
            if enemy_king_blockers.contains(from) && !line(ksq, from).contains(to) {
                checkers |= self.slider_attackers(mover, ksq, occ);
            }
        }
        checkers
    }

    /// The rooks, bishops, lances and their promotions of colour `c` that attack `sq`.
    #[inline]
    fn slider_attackers(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let kind = |k: PieceKind| self.by_kind[k.index()];
        let rooks = kind(PieceKind::Rook) | kind(PieceKind::Dragon);
        let bishops = kind(PieceKind::Bishop) | kind(PieceKind::Horse);
        ((attacks::rook_attacks(sq, occ) & rooks)
            | (attacks::bishop_attacks(sq, occ) & bishops)
            | (attacks::lance_attacks(!c, sq, occ) & kind(PieceKind::Lance)))
            & self.by_color[c.index()]
    }

    // ---- making moves ----

    /// Puts `p` on the empty square `sq`, in the board and every bitboard.
    #[inline(always)]
    fn put_piece(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = p;
        self.by_color[p.color().index()] |= b;
        self.by_kind[p.kind().index()] |= b;
        if p.kind().moves_like_gold() {
            self.golds |= b;
        }
    }

    /// Takes `p` off `sq`, where it stands, from the board and every bitboard.
    #[inline(always)]
    fn remove_piece(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = Piece::NONE;
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
        if p.kind().moves_like_gold() {
            self.golds ^= b;
        }
    }

    /// Plays a legal move. The move must be legal in this position (see `is_legal`).
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let prev = *self.state();
        let (board_key, hand_key) = self.keys_after(m);
        // Material gained by the mover (a drop loses the difference between hand and board).
        let mut gain;
        let mut captured = Piece::NONE;
        let to = m.to();
        if m.is_drop() {
            let k = m.dropped_kind();
            self.hands[us.index()].remove(k);
            self.put_piece(Piece::new(us, k), to);
            gain = piece_value(k) - hand_value(k);
        } else {
            let from = m.from();
            let p = self.board[from.index()];
            let moved = self.moved_piece_after(m);
            gain = 0;
            captured = self.board[to.index()];
            if captured.is_some() {
                self.remove_piece(captured, to);
                let k = captured.kind().unpromoted();
                self.hands[us.index()].add(k);
                gain = piece_value(captured.kind()) + hand_value(k);
            }
            self.remove_piece(p, from);
            // A promotion gains the difference in value (nothing otherwise).
            gain += piece_value(moved.kind()) - piece_value(p.kind());
            self.put_piece(moved, to);
            if p.kind() == PieceKind::King {
                self.king_sq[us.index()] = to;
            }
        }
        self.side = !us;
        let mut st = StateInfo {
            board_key,
            hand_key,
            material: prev.material + if us == Color::Black { gain } else { -gain },
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            last_move: m,
            captured,
            checks_in_row: prev.checks_in_row,
            plies_from_null: prev.plies_from_null.saturating_add(1),
        };
        let changed =
            if m.is_drop() { Bitboard::from_square(to) } else { Bitboard::from_square(m.from()).with(to) };
        st.blockers = [
            self.blockers_after(Color::Black, prev.blockers[0], changed),
            self.blockers_after(Color::White, prev.blockers[1], changed),
        ];
        st.checkers = self.checkers_after(m, prev.blockers[(!us).index()]);
        st.checks_in_row[us.index()] =
            if st.checkers.is_some() { prev.checks_in_row[us.index()] + 1 } else { 0 };
        self.states.push(st);
    }

    /// Takes back the last move made with `do_move`. Does nothing at the root.
    pub fn undo_move(&mut self) {
        if self.states.len() < 2 {
            return;
        }
        let st = self.states.pop().expect("checked above");
        let m = st.last_move;
        let us = !self.side;
        self.side = us;
        let to = m.to();
        if m.is_drop() {
            let p = self.board[to.index()];
            self.remove_piece(p, to);
            self.hands[us.index()].add(m.dropped_kind());
        } else {
            let from = m.from();
            let moved = self.board[to.index()];
            self.remove_piece(moved, to);
            let original = if m.is_promotion() { Piece::new(us, moved.kind().unpromoted()) } else { moved };
            self.put_piece(original, from);
            if original.kind() == PieceKind::King {
                self.king_sq[us.index()] = from;
            }
            if st.captured.is_some() {
                self.put_piece(st.captured, to);
                self.hands[us.index()].remove(st.captured.kind().unpromoted());
            }
        }
    }

    /// Passes the turn (for null-move search). Must not be called in check.
    pub fn do_null_move(&mut self) {
        let prev = *self.state();
        self.side = !self.side;
        let mut st = prev;
        st.board_key ^= zobrist::side();
        st.last_move = Move::NONE;
        st.captured = Piece::NONE;
        // Passing is not a check, and no repetition reaches back across it.
        st.checks_in_row[(!self.side).index()] = 0;
        st.plies_from_null = 0;
        self.fill_check_info(&mut st);
        self.states.push(st);
    }

    /// Takes back `do_null_move`.
    pub fn undo_null_move(&mut self) {
        self.states.pop();
        self.side = !self.side;
    }

    // ---- move properties ----

    /// The piece a move would place on its destination.
    #[inline]
    pub fn moved_piece_after(&self, m: Move) -> Piece {
        if m.is_drop() {
            Piece::new(self.side, m.dropped_kind())
        } else {
            let p = self.board[m.from().index()];
            if m.is_promotion() {
                Piece::new(p.color(), p.kind().promoted())
            } else {
                p
            }
        }
    }

    /// Whether a legal move is a capture.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && self.board[m.to().index()].is_some()
    }

    /// Whether a legal move is quiet: it neither captures nor promotes (the moves the quiet
    /// histories score).
    #[inline(always)]
    pub fn is_quiet(&self, m: Move) -> bool {
        !self.is_capture(m) && !m.is_promotion()
    }

    /// Whether a legal move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        if self.discovers_check(m) {
            return true;
        }
        let us = self.side;
        let to = m.to();
        let occ =
            if m.is_drop() { self.occupied().with(to) } else { self.occupied().without(m.from()).with(to) };
        attacks::attacks(us, self.moved_piece_after(m).kind(), to, occ).contains(self.king_sq[(!us).index()])
    }

    /// Whether a legal (board) move uncovers a line from one of our pieces to the enemy king.
    #[inline]
    fn discovers_check(&self, m: Move) -> bool {
        if m.is_drop() {
            return false;
        }
        let ksq = self.king_sq[(!self.side).index()];
        self.blockers(!self.side).contains(m.from()) && !line(ksq, m.from()).contains(m.to())
    }

    /// For each piece kind (by `PieceKind::index()`), the squares from which a piece of that kind
    /// of the side to move would attack the enemy king (`attacks::check_squares_with`):
    /// `gives_check` for a whole move list at the cost of three slider lookups
    /// (`gives_check_from`).
    pub fn check_squares(&self) -> [Bitboard; 15] {
        let them = !self.side;
        let ksq = self.king_sq[them.index()];
        let occ = self.occupied();
        let lance = attacks::lance_attacks(them, ksq, occ);
        attacks::check_squares_with(
            self.side,
            ksq,
            lance,
            attacks::bishop_attacks(ksq, occ),
            attacks::rook_attacks(ksq, occ),
        )
    }

    /// `gives_check` with the side to move's `check_squares`. The same answer in every legal
    /// position: the squares ignore that a slider leaves its square, which matters only where
    /// it already attacked the enemy king, and then the enemy would be in check on our move.
    #[inline]
    pub fn gives_check_from(&self, m: Move, check_squares: &[Bitboard; 15]) -> bool {
        check_squares[self.moved_piece_after(m).kind().index()].contains(m.to()) || self.discovers_check(m)
    }

    /// Whether our king would be safe on `to` after leaving its square.
    #[inline]
    pub(crate) fn king_safe_at(&self, us: Color, to: Square) -> bool {
        let occ = self.occupied().without(self.king_sq[us.index()]);
        !self.is_attacked(!us, to, occ)
    }
}

impl PartialEq for Position {
    /// Same board, hands and side to move (history is not compared).
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board && self.hands == o.hands && self.side == o.side
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}
