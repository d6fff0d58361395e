//! What the position keeps move by move (keys, material, bitboards, checkers and pins),
//! recomputed from the board array alone: the tests and the debug checks compare the two.

use super::super::material::{hand_value, piece_value};
use super::super::zobrist;
use super::Position;
use crate::types::{Bitboard, Color, PieceKind, Square, Value};

impl Position {
    /// Both key parts computed from scratch; equal to the incremental ones in a correct position.
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut board_key = 0u64;
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_some() {
                board_key ^= zobrist::piece_square(p, sq);
            }
        }
        if self.side == Color::White {
            board_key ^= zobrist::side();
        }
        let mut hand_key = 0u64;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                let n = self.hands[c.index()].count(k) as u64;
                hand_key = hand_key.wrapping_add(zobrist::hand_piece(c, k).wrapping_mul(n));
            }
        }
        (board_key, hand_key)
    }

    /// Board and hand material from Black's point of view, computed from scratch; equal to
    /// `material()` in a correct position.
    pub fn compute_material(&self) -> Value {
        let mut v = 0;
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_some() {
                v += if p.color() == Color::Black { piece_value(p.kind()) } else { -piece_value(p.kind()) };
            }
        }
        for k in PieceKind::HAND {
            let black = self.hands[Color::Black.index()].count(k) as Value;
            let white = self.hands[Color::White.index()].count(k) as Value;
            v += (black - white) * hand_value(k);
        }
        v
    }

    /// Checks that every derived structure agrees with the board array: bitboards, king squares,
    /// keys, material, checkers and pins. For tests; returns what disagrees.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; 15];
        let mut golds = Bitboard::EMPTY;
        let mut kings = [Square::NO_KING; 2];
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_none() {
                continue;
            }
            by_color[p.color().index()] |= Bitboard::from_square(sq);
            by_kind[p.kind().index()] |= Bitboard::from_square(sq);
            if p.kind().moves_like_gold() {
                golds |= Bitboard::from_square(sq);
            }
            if p.kind() == PieceKind::King {
                kings[p.color().index()] = sq;
            }
        }
        if by_color != self.by_color || by_kind != self.by_kind || golds != self.golds {
            return Err("bitboards disagree with the board".into());
        }
        if kings != self.king_sq {
            return Err("king squares disagree with the board".into());
        }
        if self.compute_keys() != (self.state().board_key, self.state().hand_key) {
            return Err("incremental key differs from the key computed from scratch".into());
        }
        if self.compute_material() != self.state().material {
            return Err("incremental material differs from the material counted from scratch".into());
        }
        let mut fresh = *self.state();
        self.fill_check_info(&mut fresh);
        if fresh.checkers != self.state().checkers || fresh.blockers != self.state().blockers {
            return Err("checkers or pins are stale".into());
        }
        Ok(())
    }

    /// The full key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let (b, h) = self.compute_keys();
        b ^ h
    }
}
