//! The numbers a df-pn node carries: a frame on the current path, its children, the result a
//! decided node hands to its parent, and how a table probe fills them in.

use super::super::tt::{Probe, INF, UNLIMITED};
use crate::shogi::Position;
use crate::types::{Hand, Move};

/// "Depends on no ancestor."
pub const NO_DEPENDENCY: u32 = u32::MAX;

/// The ply limit of a child of a node searched with `limit`.
#[inline]
pub fn child_limit(limit: u16) -> u16 {
    if limit == UNLIMITED {
        UNLIMITED
    } else {
        limit - 1
    }
}

/// A child of a frame: its move, the position it leads to (board key and attacker hand) and its
/// current numbers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// The move from the parent.
    pub mv: Move,
    /// Proof number: 0 when proven, `INF` when disproven.
    pub pn: u32,
    /// Disproof number: `INF` when proven, 0 when disproven.
    pub dn: u32,
    /// Proven: mate length; disproven: depth of the disproof.
    pub len: u16,
    /// Board key and attacker hand of the child position.
    pub key: u64,
    /// The attacker's hand in the child position.
    pub hand: Hand,
    /// Proof hand (proven) or disproof hand (disproven).
    pub result_hand: Hand,
    /// Disproven only: ply + 1 of the earliest ancestor the disproof depends on;
    /// `NO_DEPENDENCY` for none, 0 for "cut off by the depth limit".
    pub depends_on: u32,
    /// A drop interposition waiting for the one before it (same square) to be proven; its
    /// numbers are not looked at until then.
    pub delayed: bool,
}

impl Child {
    /// A child of `mv` leading to the position with board key `key` and attacker hand `hand`,
    /// with the numbers of a new node.
    pub fn new(mv: Move, key: u64, hand: Hand) -> Child {
        Child {
            mv,
            pn: 1,
            dn: 1,
            len: 0,
            key,
            hand,
            result_hand: hand,
            depends_on: NO_DEPENDENCY,
            delayed: false,
        }
    }

    /// Whether the child is decided, proven or disproven.
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
        self.result_hand = r.result_hand;
        self.depends_on = r.depends_on;
    }

    /// The attacker's hand before this child's move, given its hand after: a drop gave up a
    /// piece, a capture gained one (counts saturate at the field's bounds).
    pub fn hand_before_move(&self, pos: &Position, after: Hand) -> Hand {
        if self.mv.is_drop() {
            after.plus(self.mv.dropped_kind())
        } else {
            let captured = pos.piece_on(self.mv.to());
            if captured.is_some() {
                after.minus(captured.kind().unpromoted())
            } else {
                after
            }
        }
    }
}

/// The value a finished frame hands back to its parent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult {
    /// Proof number: 0 for a proof.
    pub pn: u32,
    /// Disproof number: 0 for a disproof.
    pub dn: u32,
    /// As `Child::len`.
    pub len: u16,
    /// As `Child::result_hand`.
    pub result_hand: Hand,
    /// As `Child::depends_on`.
    pub depends_on: u32,
}

impl NodeResult {
    /// A proof within `len` plies that needs the attacker hand `result_hand`.
    pub fn proven(len: u16, result_hand: Hand) -> NodeResult {
        NodeResult { pn: 0, dn: INF, len, result_hand, depends_on: NO_DEPENDENCY }
    }
    /// No mate within `depth` plies for any attacker hand `result_hand` covers; `depends_on` as in
    /// `Child::depends_on`.
    pub fn disproven(depth: u16, result_hand: Hand, depends_on: u32) -> NodeResult {
        NodeResult { pn: INF, dn: 0, len: depth, result_hand, depends_on }
    }

    /// The result the table holds for a decided node (a disproof from the table depends on no
    /// ancestor); `None` for an undecided or missing entry.
    pub fn from_table(probe: Probe) -> Option<NodeResult> {
        match probe {
            Probe::Proven { len, hand } => Some(NodeResult::proven(len, hand)),
            Probe::Disproven { depth, hand } => Some(NodeResult::disproven(depth, hand, NO_DEPENDENCY)),
            Probe::Unknown { .. } | Probe::Miss => None,
        }
    }
}

/// One node on the current path.
pub(crate) struct Frame {
    /// Whether the attacker is to move (children: its checks) rather than the defender (children: its
    /// evasions).
    pub or_node: bool,
    /// Distance from the root in plies.
    pub ply: u32,
    /// Plies the search below this node may still use (`UNLIMITED`: no limit).
    pub limit: u16,
    /// The node is left (its result handed up) once its pn or dn reaches these.
    pub pn_threshold: u32,
    /// The disproof number's threshold, as `pn_threshold` is the proof number's.
    pub dn_threshold: u32,
    /// Its children: `start..end` of the solver's child arena.
    pub start: usize,
    /// End (exclusive) of its children in the arena.
    pub end: usize,
    /// Board key of the node's position.
    pub key: u64,
    /// The attacker's hand in the node's position.
    pub hand: Hand,
    /// The solver's node count when the frame was entered: the work below it is the difference.
    pub nodes_at_entry: u64,
    /// The child being searched.
    pub current: usize,
    /// AND nodes: the interposition part of the proof hand.
    pub interposition_hand: Hand,
    /// A result known on entry (terminal position, repetition, table hit).
    pub terminal: Option<NodeResult>,
    /// Whether `terminal` must not be written to the table again.
    pub no_store: bool,
    /// Children were just created (their numbers are fresh from the table).
    pub fresh: bool,
}
