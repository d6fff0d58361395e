//! The static evaluation as the search uses it: clamped to the evaluation's bounds, taken from
//! the table when stored there, corrected by what the correction history learnt, refined by a
//! table bound, and compared with earlier plies (`improving`). Apart from the search so that its
//! steps read as decisions, not as arithmetic on evaluations.

use super::Worker;
use crate::eval::params::EVAL_LIMIT;
use crate::search::tt::{Bound, TtData};
use crate::search::value::*;

/// A static evaluation refined by the table: a stored value whose bound says the position is at
/// least (or at most) that value is the better guess where it lies on that side of `eval`.
#[inline]
pub(super) fn refined_by_table(eval: Value, tt_hit: Option<TtData>, ply: usize) -> Value {
    match tt_hit {
        Some(e) if !is_mate_score(e.value) => {
            let v = from_tt(e.value, ply);
            let wanted = if v > eval { Bound::Lower } else { Bound::Upper };
            if e.bound == Bound::Exact || e.bound == wanted {
                v
            } else {
                eval
            }
        }
        _ => eval,
    }
}

impl Worker<'_> {
    /// The static evaluation of the current position, from the side to move's point of view,
    /// within the hand-written evaluation's bounds (a network's may reach beyond them).
    #[inline]
    pub(super) fn evaluate(&mut self) -> Value {
        self.evaluator.evaluate(&self.pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The static evaluation of the current position, from the table entry when it has one.
    #[inline]
    pub(super) fn static_eval(&mut self, tt_hit: Option<TtData>) -> Value {
        match tt_hit {
            Some(e) if e.eval != VALUE_NONE => e.eval,
            _ => self.evaluate(),
        }
    }

    /// `raw`, a static evaluation of the current position, plus what the correction history has
    /// learnt about such positions (in the full search only: the reference searches evaluate
    /// plainly).
    #[inline]
    pub(super) fn corrected(&self, raw: Value) -> Value {
        if self.features.pruning {
            (raw + self.history.correction.correction(&self.pos)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            raw
        }
    }

    /// Whether `eval` at `ply` is better than at our previous move, or at the one before it when
    /// we were in check then; with neither known, it counts as improving.
    #[inline]
    pub(super) fn improving(&self, ply: usize, eval: Value) -> bool {
        [2, 4]
            .into_iter()
            .filter(|&back| ply >= back)
            .map(|back| self.static_evals[ply - back])
            .find(|&e| e != -INFINITE)
            .is_none_or(|e| eval > e)
    }
}
