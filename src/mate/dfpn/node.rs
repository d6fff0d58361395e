//! The numbers a df-pn node carries: a frame on the current path, its children, the result a
//! decided node hands to its parent, and how a table probe fills them in.

use super::super::tt::{Probe, INF, UNLIMITED};
use crate::shogi::Position;
use crate::types::{Hand, Move};

/// "Depends on no ancestor."
pub const NO_DEP: u32 = u32::MAX;

/// The ply limit of a child of a node searched with `limit`.
#[inline]
pub fn child_limit(limit: u16) -> u16 {
    if limit == UNLIMITED {
        UNLIMITED
    } else {
        limit - 1
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub mv: Move,
    pub pn: u32,
    pub dn: u32,
    /// Proven: mate length; disproven: depth of the disproof.
    pub len: u16,
    /// Board key and attacker hand of the child position.
    pub key: u64,
    pub hand: Hand,
    /// Proof hand (proven) or disproof hand (disproven).
    pub res: Hand,
    /// Disproven only: ply + 1 of the earliest ancestor the disproof depends on; `NO_DEP` for
    /// none, 0 for "cut off by the depth limit".
    pub dep: u32,
    /// A drop interposition waiting for the one before it (same square) to be proven; its
    /// numbers are not looked at until then.
    pub delayed: bool,
}

impl Child {
    /// A child of `mv` leading to the position with board key `key` and attacker hand `hand`,
    /// with the numbers of a new node.
    pub fn new(mv: Move, key: u64, hand: Hand) -> Child {
        Child { mv, pn: 1, dn: 1, len: 0, key, hand, res: hand, dep: NO_DEP, delayed: false }
    }

    #[inline(always)]
    pub fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Takes over what the table knows of this child; false on a miss (nothing changed).
    #[inline]
    pub fn absorb(&mut self, probe: Probe) -> bool {
        if let Some(r) = NodeResult::from_table(probe) {
            self.set(r);
        } else if let Probe::Unknown { pn, dn } = probe {
            self.pn = pn;
            self.dn = dn;
        } else {
            return false;
        }
        true
    }

    /// Takes over a result computed for this child.
    #[inline]
    pub fn set(&mut self, r: NodeResult) {
        self.pn = r.pn;
        self.dn = r.dn;
        self.len = r.len;
        self.res = r.res;
        self.dep = r.dep;
    }

    /// The attacker's hand before this child's move, given its hand after: a drop gave up a
    /// piece, a capture gained one (counts saturate at the field's bounds).
    pub fn hand_before_move(&self, pos: &Position, after: Hand) -> Hand {
        if self.mv.is_drop() {
            after.plus(self.mv.dropped_kind())
        } else {
            let cap = pos.piece_on(self.mv.to());
            if cap.is_some() {
                after.minus(cap.kind().unpromoted())
            } else {
                after
            }
        }
    }
}

/// The value a finished frame hands back to its parent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    pub res: Hand,
    pub dep: u32,
}

impl NodeResult {
    pub fn proven(len: u16, res: Hand) -> NodeResult {
        NodeResult { pn: 0, dn: INF, len, res, dep: NO_DEP }
    }
    pub fn disproven(depth: u16, res: Hand, dep: u32) -> NodeResult {
        NodeResult { pn: INF, dn: 0, len: depth, res, dep }
    }

    /// The result the table holds for a decided node (a disproof from the table depends on no
    /// ancestor); `None` for an undecided or missing entry.
    pub fn from_table(probe: Probe) -> Option<NodeResult> {
        match probe {
            Probe::Proven { len, hand } => Some(NodeResult::proven(len, hand)),
            Probe::Disproven { depth, hand } => Some(NodeResult::disproven(depth, hand, NO_DEP)),
            Probe::Unknown { .. } | Probe::Miss => None,
        }
    }
}

/// One node on the current path.
pub(crate) struct Frame {
    pub or_node: bool,
    pub ply: u32,
    pub limit: u16,
    pub th_pn: u32,
    pub th_dn: u32,
    pub start: usize,
    pub end: usize,
    pub key: u64,
    pub hand: Hand,
    pub nodes0: u64,
    pub current: usize,
    /// AND nodes: the interposition part of the proof hand.
    pub req: Hand,
    /// A result known on entry (terminal position, repetition, table hit).
    pub terminal: Option<NodeResult>,
    /// Whether `terminal` must not be written to the table again.
    pub no_store: bool,
    /// Children were just created (their numbers are fresh from the table).
    pub fresh: bool,
}
