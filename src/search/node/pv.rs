//! The principal variation of every ply of the line being searched. Kept apart from the search
//! because it is plain bookkeeping: each node empties its line as it starts and, when a move
//! raises alpha, takes that move followed by the child's line, so the root ends with the whole.

use crate::search::value::MAX_PLY;
use crate::types::Move;

/// The triangular table of lines: the line of `ply` lies in row `ply`, from index `ply` to
/// `len[ply]` (exclusive).
pub(super) struct PvTable {
    /// Row `ply` holds the line of the node at `ply` from index `ply` on.
    lines: Vec<[Move; MAX_PLY + 1]>,
    /// Where each row's line ends (exclusive); equal to `ply` when the line is empty.
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    /// Every line empty.
    pub(super) fn new() -> PvTable {
        PvTable { lines: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1], len: [0; MAX_PLY + 1] }
    }

    /// Empties the line of `ply`, as a node there starts.
    #[inline]
    pub(super) fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// Makes `m` followed by the child's line the line of `ply`.
    #[inline]
    pub(super) fn update(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY { self.len[ply + 1] } else { 0 };
        self.lines[ply][ply] = m;
        for i in ply + 1..child_len {
            self.lines[ply][i] = self.lines[ply + 1][i];
        }
        self.len[ply] = child_len.max(ply + 1);
    }

    /// The line below the root move just searched (without that move).
    pub(super) fn root_child(&self) -> &[Move] {
        &self.lines[1][1..self.len[1]]
    }
}
