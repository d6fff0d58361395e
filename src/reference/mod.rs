//! What a two-player board game offers a search, so that the reference searches — plain
//! minimax, alpha-beta and iterative deepening in [`search`] — are written once and run on both
//! games this crate plays: shogi ([`crate::Position`], adapter in [`shogi`]) and Dobutsu shogi
//! ([`crate::dobutsu::Position`], adapter in `dobutsu::play`).
//!
//! The shogi engine's own search (`crate::search`) is specialised far beyond this (make/unmake,
//! a transposition table, pruning); these generic searches are the small, obviously correct
//! ones: they play Dobutsu without a table and serve as references in the tests of both games.

pub mod search;
pub mod shogi;

/// How a position stands for the side to move, before any move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Play goes on.
    Ongoing,
    /// The side to move wins with its next move whatever it is answered with (Dobutsu: it can
    /// capture the opposing Lion). A game without such a rule never reports it.
    WinsNext,
    /// The side to move has lost (checkmated, Lion captured, a safe Try against, no move).
    Lost,
}

/// A two-player, zero-sum game without chance, seen from the side to move.
pub trait Game: Sized {
    /// A move of the game.
    type Move: Copy + Eq + std::fmt::Debug;
    /// The legal moves of a position, as a slice.
    type Moves: AsRef<[Self::Move]>;

    /// The score of a game won now; a win `d` plies away scores `WIN - d`, a loss `-(WIN - d)`.
    /// Every evaluation stays below `WIN - 1000`.
    const WIN: i32;

    /// Every legal move of the side to move.
    fn legal_moves(&self) -> Self::Moves;
    /// The position after the legal move `m` (copy-make: `self` is unchanged).
    fn after(&self, m: Self::Move) -> Self;
    /// Whether the game is over, or won with the next move, for the side to move.
    fn status(&self) -> Status;
    /// A heuristic score for the side to move, within ±(`WIN` − 1000).
    fn evaluate(&self) -> i32;
    /// Where `m` goes in the search order: smaller first (captures before quiet moves, say).
    fn order_key(&self, m: Self::Move) -> u32;
}
