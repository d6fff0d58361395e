//! A fixed-capacity move list on the stack, shared by both games' generators.

use std::mem::MaybeUninit;

/// At most `N` moves of type `M`, stored inline.
///
/// The storage is left uninitialised: a list is made at every node of a search or a perft, and
/// filling 600 slots each time cost more than generating the moves did. Only the first `len`
/// slots are ever read, and `push` writes each of them first.
#[derive(Clone)]
pub struct MoveList<M: Copy, const N: usize> {
    /// The slots; only the first `len` are initialised.
    moves: [MaybeUninit<M>; N],
    /// The number of moves in the list.
    len: usize,
}

impl<M: Copy, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList { moves: [MaybeUninit::uninit(); N], len: 0 }
    }
}

impl<M: Copy + PartialEq, const N: usize> MoveList<M, N> {
    /// Appends `m`; `N` is above the most moves any position of the game has.
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// How many moves the list holds.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list, keeping its storage.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves, in the order they were pushed.
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        initialised(&self.moves[..self.len])
    }

    /// The moves, to sort or reorder in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        initialised_mut(&mut self.moves[..self.len])
    }

    /// The moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: M) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<M: Copy, const N: usize> AsRef<[M]> for MoveList<M, N> {
    fn as_ref(&self) -> &[M] {
        initialised(&self.moves[..self.len])
    }
}

impl<M: Copy, const N: usize> std::ops::Deref for MoveList<M, N> {
    type Target = [M];
    #[inline(always)]
    fn deref(&self) -> &[M] {
        initialised(&self.moves[..self.len])
    }
}

impl<'a, M: Copy, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_ref().iter()
    }
}

/// The moves of slots that `push` has written.
#[inline(always)]
#[allow(unsafe_code)]
fn initialised<M>(slots: &[MaybeUninit<M>]) -> &[M] {
    // SAFETY: callers pass only the first `len` slots, each written by `push`; `MaybeUninit<M>`
    // has the layout of `M`.
    unsafe { &*(slots as *const [MaybeUninit<M>] as *const [M]) }
}

/// The moves of slots that `push` has written, mutably.
#[inline(always)]
#[allow(unsafe_code)]
fn initialised_mut<M>(slots: &mut [MaybeUninit<M>]) -> &mut [M] {
    // SAFETY: as for `initialised`.
    unsafe { &mut *(slots as *mut [MaybeUninit<M>] as *mut [M]) }
}
