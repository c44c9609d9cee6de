//! The sparsity pattern of a Jacobian as a [`System`](super::System) declares it: a list of
//! (row, column) entries, written into a buffer the solver keeps and reuses, so that declaring a
//! pattern costs O(entries), not O(n²) (an n × n table of booleans at n = 3,328 states was
//! 11·10⁶ byte writes per Jacobian while the pattern varied).

use std::ops::Range;

/// The entries (i, j) of an n × n Jacobian J = ∂f/∂x that may be non-zero: ẋᵢ may read xⱼ.
/// Entries may come in any order and more than once; the diagonal is always taken as present,
/// declared or not. [`Self::clear`] keeps the buffer's capacity, so a pattern written again
/// allocates only when it has more entries than any before.
#[derive(Clone, Debug, Default)]
pub struct SparsityPattern {
    n: usize,
    /// (row, column), in the order written. u32 halves the memory of a large pattern; the
    /// state count is checked against it in [`Self::new`].
    entries: Vec<(u32, u32)>,
    /// The most entries kept (`usize::MAX` unless [`Self::set_limit`] set one).
    limit: usize,
    /// An entry was declared past `limit` (and dropped) since the last [`Self::clear`].
    overflowed: bool,
}

impl SparsityPattern {
    /// An empty pattern of an n × n Jacobian with room for `capacity` entries.
    ///
    /// # Panics
    /// When n does not fit in a u32 (more than 4·10⁹ states).
    pub fn with_capacity(n: usize, capacity: usize) -> Self {
        assert!(
            u32::try_from(n).is_ok(),
            "{n} states: too many for a pattern"
        );
        Self {
            n,
            entries: Vec::with_capacity(capacity),
            limit: usize::MAX,
            overflowed: false,
        }
    }

    /// Keeps at most `limit` entries: past it, declared entries are dropped and the pattern is
    /// [`Self::overflowed`]. The solver sets it above `MAX_IMPLICIT_STATES` states, where a
    /// pattern that dense would be refused anyway, so that declaring one costs a bounded buffer
    /// instead of n² entries (a 40,000-state chain's 1.6·10⁹).
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// True when entries past the limit were declared since the last [`Self::clear`] (the kept
    /// entries are then not the pattern: treat it as dense).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// An empty pattern of an n × n Jacobian.
    pub fn new(n: usize) -> Self {
        Self::with_capacity(n, 0)
    }

    /// The number of states n.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Declares that ẋᵢ may read xⱼ.
    #[inline]
    pub fn depends(&mut self, i: usize, j: usize) {
        debug_assert!(
            i < self.n && j < self.n,
            "({i}, {j}) outside {0}×{0}",
            self.n
        );
        if self.entries.len() < self.limit {
            self.entries.push((i as u32, j as u32));
        } else {
            self.overflowed = true;
        }
    }

    /// Declares that ẋᵢ may read every xⱼ with j in `columns`.
    #[inline]
    pub fn depends_on_range(&mut self, i: usize, columns: Range<usize>) {
        debug_assert!(i < self.n && columns.end <= self.n);
        let room = self.limit.saturating_sub(self.entries.len());
        self.overflowed |= columns.len() > room;
        self.entries
            .extend(columns.take(room).map(|j| (i as u32, j as u32)));
    }

    /// Forgets every entry (keeps the capacity and the limit).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.overflowed = false;
    }

    /// The entries (row, column) as written, duplicates included.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (usize, usize)> + '_ {
        self.entries.iter().map(|&(i, j)| (i as usize, j as usize))
    }

    /// The number of entries written (duplicates counted).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no entry was written.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when (i, j) was written (a linear scan: for tests and checks).
    pub fn contains(&self, i: usize, j: usize) -> bool {
        self.entries.contains(&(i as u32, j as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_written_and_clear_keeps_the_room() {
        let mut p = SparsityPattern::with_capacity(4, 8);
        p.depends(0, 3);
        p.depends_on_range(2, 1..3);
        p.depends(0, 3);
        assert_eq!(
            p.entries().collect::<Vec<_>>(),
            [(0, 3), (2, 1), (2, 2), (0, 3)]
        );
        assert!(p.contains(2, 1) && !p.contains(1, 2));
        assert_eq!((p.len(), p.dim()), (4, 4));
        p.clear();
        assert!(p.is_empty());
        assert!(p.entries.capacity() >= 8);
    }

    /// Past its limit a pattern keeps the first `limit` entries and says it overflowed, for
    /// single entries and ranges alike; `clear` forgets the overflow, not the limit.
    #[test]
    fn a_pattern_past_its_limit_overflows() {
        let mut p = SparsityPattern::new(10);
        p.set_limit(5);
        p.depends_on_range(0, 0..4);
        assert!(!p.overflowed());
        p.depends(1, 1);
        assert!(!p.overflowed() && p.len() == 5);
        p.depends(2, 2);
        assert!(p.overflowed() && p.len() == 5);
        p.clear();
        assert!(!p.overflowed());
        p.depends_on_range(3, 0..10);
        assert!(p.overflowed());
        assert_eq!(
            p.entries().collect::<Vec<_>>(),
            [(3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]
        );
    }
}
