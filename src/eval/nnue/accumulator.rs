//! The accumulators of the search's current line, one entry per ply, updated move by move.
//!
//! The first layer's output (the *accumulator*, `L` values per perspective) is the sum of the
//! weights of the active features, and a move switches few of them on or off. So instead of
//! computing it from scratch at every node, the search keeps a stack parallel to its line of
//! moves: `push` before each `do_move`, `pop` after each `undo_move`.
//!
//! Updates are lazy, as in Stockfish: `push` only records what the move changes (the pieces
//! that leave and reach a square or a hand, and where the kings stand after it), which costs a
//! few instructions, and `evaluate` brings the top entry up to date from its nearest computed
//! ancestor, computing every entry in between on the way (so that the siblings of a node find
//! their parent computed). Nodes that never evaluate (table cutoffs, repetitions, nodes in
//! check, mate-in-one hits, nodes cut before their static evaluation) cost nothing else. When the
//! own king's move changes a perspective's `View` (bucket or mirror), that perspective's
//! accumulator is computed from scratch instead, at the top, and the entries between the top and
//! that king move are then computed backwards from it (undoing each move's changes), so that
//! their other children are updated rather than refreshed again. The other perspective is still
//! updated.
//!
//! Each perspective is updated on its own: after a king move, the mover's may need a refresh
//! while the opponent's only moves one feature (or none: HalfKP has no king features). Sums
//! wrap (`i16`), as YaneuraOu's do: the result is the sum computed from scratch modulo 2^16,
//! whatever the order of the rows. One stack serves every architecture (`Architecture`): the
//! views, features and rows are the network's, the bookkeeping is shared.

use super::architecture::{refresh, Architecture, CHUNK};
use crate::eval::Value;
use crate::types::{Color, Move, Piece, PieceKind, Square};
use crate::Position;

/// Both perspectives' accumulators, indexed by `Color::index()`, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator<const L: usize>(pub [[i16; L]; 2]);

impl<const L: usize> Accumulator<L> {
    /// Both perspectives computed from scratch.
    pub fn refreshed<N: Architecture<L>>(net: &N, pos: &Position) -> Accumulator<L> {
        Accumulator([refresh(net, pos, Color::Black), refresh(net, pos, Color::White)])
    }
}

/// A feature a move switches on or off, before it is placed in a perspective's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// A piece on a square.
    Board(Piece, Square),
    /// The `nth` (1-based) piece of a kind in a side's hand.
    Hand(Color, PieceKind, u32),
}

impl Change {
    /// The feature this change switches in `view`; `None` where the network has none for it.
    #[inline]
    fn feature<const L: usize, N: Architecture<L>>(self, view: N::View) -> Option<usize> {
        match self {
            Change::Board(piece, sq) => N::board_feature(view, piece, sq),
            Change::Hand(owner, kind, nth) => N::hand_feature(view, owner, kind, nth),
        }
    }
}

/// The most features a move switches off, and on: a capture removes the mover from its square
/// and the captured piece from the destination, and adds the mover on the destination and the
/// captured piece in the hand.
const MAX_CHANGES: usize = 2;

/// One ply: the accumulators (valid per perspective when `computed`) and how this position
/// differs from the one below it in the stack.
#[derive(Clone, Copy, Debug)]
struct Entry<const L: usize> {
    /// The accumulators of this ply's position; a perspective's is stale until `computed` says so.
    acc: Accumulator<L>,
    /// Per perspective, whether `acc` is up to date.
    computed: [bool; 2],
    /// Where the kings stand here (`Square::NO_KING` for none): a perspective whose own king
    /// changes `View` from the entry below needs a refresh.
    kings: [Square; 2],
    /// The features the move to this ply switches off (the first `n_removed`).
    removed: [Change; MAX_CHANGES],
    /// The features the move to this ply switches on (the first `n_added`).
    added: [Change; MAX_CHANGES],
    /// How many of `removed` are used.
    n_removed: u8,
    /// How many of `added` are used.
    n_added: u8,
}

impl<const L: usize> Entry<L> {
    /// An entry with nothing computed and no changes, to fill the stack with.
    const EMPTY: Entry<L> = Entry {
        acc: Accumulator([[0; L]; 2]),
        computed: [false; 2],
        kings: [Square::NO_KING; 2],
        removed: [Change::Hand(Color::Black, PieceKind::Pawn, 1); MAX_CHANGES],
        added: [Change::Hand(Color::Black, PieceKind::Pawn, 1); MAX_CHANGES],
        n_removed: 0,
        n_added: 0,
    };

    /// Records a feature the move switches off.
    #[inline]
    fn remove(&mut self, c: Change) {
        self.removed[self.n_removed as usize] = c;
        self.n_removed += 1;
    }

    /// Records a feature the move switches on.
    #[inline]
    fn add(&mut self, c: Change) {
        self.added[self.n_added as usize] = c;
        self.n_added += 1;
    }
}

/// The accumulators along the search's current line: entry 0 is the root. `L` is the
/// network's accumulator width per perspective.
#[derive(Clone, Debug)]
pub struct AccumulatorStack<const L: usize> {
    /// One entry per ply, allocated ahead; only `0..=top` are in use.
    entries: Vec<Entry<L>>,
    /// The entry of the current position (the line's depth).
    top: usize,
}

impl<const L: usize> Default for AccumulatorStack<L> {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

/// Plies the stack holds before it grows (the search's longest line and a little more).
const INITIAL_PLIES: usize = 160;

impl<const L: usize> AccumulatorStack<L> {
    /// An empty stack; `reset` it at the root before use.
    pub fn new() -> AccumulatorStack<L> {
        AccumulatorStack { entries: vec![Entry::EMPTY; INITIAL_PLIES], top: 0 }
    }

    /// Starts a new line at `pos`: both perspectives computed from scratch.
    pub fn reset<N: Architecture<L>>(&mut self, net: &N, pos: &Position) {
        self.top = 0;
        let root = &mut self.entries[0];
        root.acc = Accumulator::refreshed(net, pos);
        root.computed = [true; 2];
        root.kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        root.n_removed = 0;
        root.n_added = 0;
    }

    /// How many moves (null moves included) the current line is deep.
    pub fn ply(&self) -> usize {
        self.top
    }

    /// Records the changes of the legal move `m`; call it with the position *before*
    /// `pos.do_move(m)`.
    #[inline(always)]
    pub fn push(&mut self, pos: &Position, m: Move) {
        let e = self.next_entry();
        let us = pos.side_to_move();
        e.computed = [false; 2];
        e.kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        e.n_removed = 0;
        e.n_added = 0;
        let to = m.to();
        let hand = pos.hand(us);
        if m.is_drop() {
            let kind = m.dropped_kind();
            // The dropped piece was the last of its kind in the hand: its feature goes off,
            // unless a composed position held more than the set (those have none).
            let n = hand.count(kind);
            if n <= kind.set_count() {
                e.remove(Change::Hand(us, kind, n));
            }
            e.add(Change::Board(Piece::new(us, kind), to));
            return;
        }
        let from = m.from();
        let piece = pos.piece_on(from);
        let captured = pos.piece_on(to);
        e.remove(Change::Board(piece, from));
        if captured.is_some() {
            e.remove(Change::Board(captured, to));
            let kind = captured.kind().unpromoted();
            let n = hand.count(kind) + 1;
            if n <= kind.set_count() {
                e.add(Change::Hand(us, kind, n));
            }
        }
        let moved = if m.is_promotion() { Piece::new(us, piece.kind().promoted()) } else { piece };
        e.add(Change::Board(moved, to));
        if piece.kind() == PieceKind::King {
            e.kings[us.index()] = to;
        }
    }

    /// Records a null move (nothing changes but the side to move).
    #[inline]
    pub fn push_null(&mut self) {
        let kings = self.entries[self.top].kings;
        let e = self.next_entry();
        e.computed = [false; 2];
        e.kings = kings;
        e.n_removed = 0;
        e.n_added = 0;
    }

    /// Goes back one ply (after `undo_move` or `undo_null_move`).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top -= 1;
    }

    /// The next entry, made the top; the stack grows if the line is longer than ever before.
    #[inline]
    fn next_entry(&mut self) -> &mut Entry<L> {
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(Entry::EMPTY);
        }
        &mut self.entries[self.top]
    }

    /// The network's evaluation of `pos`, the position at the top of the stack, from the side to
    /// move's point of view: equal to `evaluate_from_scratch`.
    #[inline]
    #[allow(unsafe_code)] // Calling the AVX2 copy, only where the processor has it.
    pub fn evaluate<N: Architecture<L>>(&mut self, net: &N, pos: &Position) -> Value {
        #[cfg(target_arch = "x86_64")]
        if super::simd::has_avx2() {
            // SAFETY: this processor has AVX2.
            return unsafe { self.evaluate_avx2(net, pos) };
        }
        self.evaluate_inlined(net, pos)
    }

    /// `evaluate` with its loops (inlined below) compiled for AVX2: twice as wide as the
    /// baseline build's SSE2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2<N: Architecture<L>>(&mut self, net: &N, pos: &Position) -> Value {
        self.evaluate_inlined(net, pos)
    }

    /// `evaluate`'s body, inlined into each copy so that each is compiled for its own instruction set.
    #[inline(always)]
    fn evaluate_inlined<N: Architecture<L>>(&mut self, net: &N, pos: &Position) -> Value {
        let acc = self.accumulator(net, pos);
        let us = pos.side_to_move().index();
        net.output(&acc.0[us], &acc.0[1 - us])
    }

    /// The accumulators of `pos`, the position at the top of the stack, brought up to date.
    #[inline(always)]
    pub fn accumulator<N: Architecture<L>>(&mut self, net: &N, pos: &Position) -> &Accumulator<L> {
        debug_assert_eq!(
            self.entries[self.top].kings,
            [pos.king_square(Color::Black), pos.king_square(Color::White)],
            "the stack is out of step with the position"
        );
        for c in Color::ALL {
            if !self.entries[self.top].computed[c.index()] {
                self.update(net, pos, c);
            }
        }
        &self.entries[self.top].acc
    }

    /// Brings the top entry's accumulator of `perspective` up to date: from the nearest computed
    /// entry below it, entry by entry. If the own king changed view on the way, the top is
    /// computed from scratch instead, and the entries down to that king move (which share the
    /// top's view) are computed backwards from it, so that their other children need no
    /// refresh of their own.
    #[inline(always)]
    fn update<N: Architecture<L>>(&mut self, net: &N, pos: &Position, perspective: Color) {
        let p = perspective.index();
        let mut i = self.top;
        while !self.entries[i].computed[p] {
            let (below, here) = (self.entries[i - 1].kings[p], self.entries[i].kings[p]);
            if below != here && N::view(perspective, below) != N::view(perspective, here) {
                let top = &mut self.entries[self.top];
                top.acc.0[p] = refresh(net, pos, perspective);
                top.computed[p] = true;
                for j in (i..self.top).rev() {
                    self.step(net, perspective, j + 1, j);
                }
                return;
            }
            i -= 1;
        }
        for j in i + 1..=self.top {
            self.step(net, perspective, j - 1, j);
        }
    }

    /// Computes entry `dst`'s accumulator of `perspective` from its neighbour `src`'s, by the
    /// changes of the upper one of the two: forward (`src` below `dst`) or backward. Both must
    /// share the perspective's view.
    #[inline(always)]
    fn step<N: Architecture<L>>(&mut self, net: &N, perspective: Color, src: usize, dst: usize) {
        let p = perspective.index();
        let upper = src.max(dst);
        let (lower_entries, upper_entries) = self.entries.split_at_mut(upper);
        let (src_entry, dst_entry) = if src < dst {
            (&lower_entries[src], &mut upper_entries[0])
        } else {
            (&upper_entries[0], &mut lower_entries[dst])
        };
        let changes = if src < dst { &*dst_entry } else { src_entry };
        let view = N::view(perspective, changes.kings[p]);
        // Pieces without a feature in this view (HalfKP's kings) change nothing.
        let mut added = [0usize; MAX_CHANGES];
        let mut removed = [0usize; MAX_CHANGES];
        let (mut n_added, mut n_removed) = (0, 0);
        for c in &changes.added[..changes.n_added as usize] {
            if let Some(f) = c.feature::<L, N>(view) {
                added[n_added] = f;
                n_added += 1;
            }
        }
        for c in &changes.removed[..changes.n_removed as usize] {
            if let Some(f) = c.feature::<L, N>(view) {
                removed[n_removed] = f;
                n_removed += 1;
            }
        }
        let (added, removed) = (&added[..n_added], &removed[..n_removed]);
        let (plus, minus) = if src < dst { (added, removed) } else { (removed, added) };
        apply(&src_entry.acc.0[p], &mut dst_entry.acc.0[p], net, plus, minus);
        dst_entry.computed[p] = true;
    }
}

/// `dst = src + sum of the added rows - sum of the removed rows` (at most `MAX_CHANGES` each),
/// chunk by chunk so that each chunk stays in vector registers while every row is applied.
#[inline(always)]
fn apply<const L: usize, N: Architecture<L>>(
    src: &[i16; L],
    dst: &mut [i16; L],
    net: &N,
    added: &[usize],
    removed: &[usize],
) {
    let r = |f: usize| net.row(f);
    match (added, removed) {
        (&[a], &[s]) => apply_rows(src, dst, [r(a)], [r(s)]),
        (&[a0, a1], &[s0, s1]) => apply_rows(src, dst, [r(a0), r(a1)], [r(s0), r(s1)]),
        (&[a], &[s0, s1]) => apply_rows(src, dst, [r(a)], [r(s0), r(s1)]),
        (&[a0, a1], &[s]) => apply_rows(src, dst, [r(a0), r(a1)], [r(s)]),
        (&[a], &[]) => apply_rows(src, dst, [r(a)], []),
        (&[], &[s]) => apply_rows(src, dst, [], [r(s)]),
        (&[a0, a1], &[]) => apply_rows(src, dst, [r(a0), r(a1)], []),
        (&[], &[s0, s1]) => apply_rows(src, dst, [], [r(s0), r(s1)]),
        // A null move (or a king move seen by a view without king features) changes nothing.
        _ => *dst = *src,
    }
}

/// `apply` for a fixed number of rows: the compiler unrolls the inner loops and vectorises them.
#[inline(always)]
fn apply_rows<const L: usize, const A: usize, const R: usize>(
    src: &[i16; L],
    dst: &mut [i16; L],
    added: [&[i16; L]; A],
    removed: [&[i16; L]; R],
) {
    for c in (0..L).step_by(CHUNK) {
        let mut v: [i16; CHUNK] = src[c..c + CHUNK].try_into().expect("chunk");
        for a in added {
            for (x, w) in v.iter_mut().zip(&a[c..c + CHUNK]) {
                *x = x.wrapping_add(*w);
            }
        }
        for r in removed {
            for (x, w) in v.iter_mut().zip(&r[c..c + CHUNK]) {
                *x = x.wrapping_sub(*w);
            }
        }
        dst[c..c + CHUNK].copy_from_slice(&v);
    }
}

/// Tests of the lazy updates against accumulators computed from scratch.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{evaluate_from_scratch, random_network};

    /// Plays `moves` through the stack, evaluating only at the end (the lazy path over several
    /// plies), and compares with the accumulators computed from scratch.
    fn check_line(sfen: &str, moves: &[&str]) {
        let net = random_network(7);
        let mut pos = Position::from_sfen(sfen).unwrap();
        let mut stack = AccumulatorStack::new();
        stack.reset(&net, &pos);
        for text in moves {
            let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == *text).expect(text);
            stack.push(&pos, m);
            pos.do_move(m);
        }
        assert_eq!(*stack.accumulator(&net, &pos), Accumulator::refreshed(&net, &pos), "{sfen} {moves:?}");
        assert_eq!(stack.evaluate(&net, &pos), evaluate_from_scratch(&net, &pos));
        for _ in moves {
            pos.undo_move();
            stack.pop();
            assert_eq!(*stack.accumulator(&net, &pos), Accumulator::refreshed(&net, &pos));
        }
    }

    #[test]
    fn a_line_of_quiet_moves_captures_and_drops_updates_lazily() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        check_line(start, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*6e", "4e3d", "6e7f", "3d2c+"]);
        // King moves: 5i5h changes Black's rank zone; 5a4b mirrors nothing but changes White's.
        check_line(start, &["5i5h", "5a4b", "5h4h", "4b5b", "4h3h"]);
    }

    #[test]
    fn a_null_move_changes_nothing_but_the_side() {
        let net = random_network(3);
        let mut pos = Position::startpos();
        let mut stack = AccumulatorStack::new();
        stack.reset(&net, &pos);
        stack.push_null();
        pos.do_null_move();
        assert_eq!(*stack.accumulator(&net, &pos), Accumulator::refreshed(&net, &pos));
        assert_eq!(stack.evaluate(&net, &pos), evaluate_from_scratch(&net, &pos));
    }
}
