//! The physical connections of a diagram as written (`block.port -- block.port`), kept for the
//! graph and the API in one text buffer: at 20,000 URDF joints the diagram has 120,000 of them,
//! which as two `String`s each were 12.9 MB of heap in 240,000 allocations.

use std::fmt::{self, Write};

/// The physical connections as written, in order: each a pair of port references
/// (`block.port`, or `block.port[i]`), as the model (or a group's expansion) wrote them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PhysicalConnections {
    /// Every reference, one after the other.
    text: String,
    /// Connection k's first reference is `text[start .. ends[k][0]]` (start = the previous
    /// connection's second end, or 0), its second `text[ends[k][0] .. ends[k][1]]`.
    ends: Vec<[usize; 2]>,
}

impl PhysicalConnections {
    /// Appends the connection `a -- b` (each written with its `Display`, as a `PortRef` is).
    pub(crate) fn push(&mut self, a: &impl fmt::Display, b: &impl fmt::Display) {
        // Writing into a String cannot fail.
        let _ = write!(self.text, "{a}");
        let mid = self.text.len();
        let _ = write!(self.text, "{b}");
        self.ends.push([mid, self.text.len()]);
    }

    /// Gives back the unused capacity (the build's final size is known once every connection
    /// is in).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    /// How many connections.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Connection `k`'s two port references, as written.
    pub fn get(&self, k: usize) -> Option<(&str, &str)> {
        let [mid, end] = *self.ends.get(k)?;
        let start = k.checked_sub(1).map_or(0, |p| self.ends[p][1]);
        Some((&self.text[start..mid], &self.text[mid..end]))
    }

    /// Every connection's two port references, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        (0..self.len()).filter_map(|k| self.get(k))
    }
}

impl fmt::Debug for PhysicalConnections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::PhysicalConnections;

    /// The pairs come back as pushed, in order, whatever their lengths (an empty reference
    /// included), and two lists are equal exactly when their pairs are.
    #[test]
    fn pairs_come_back_as_written() {
        let mut c = PhysicalConnections::default();
        assert!(c.is_empty());
        c.push(&"world.W", &"arm.B");
        c.push(&"a", &"");
        c.push(&"leg[0]/knee.F", &"foot.R");
        c.shrink_to_fit();
        assert_eq!(c.len(), 3);
        let pairs: Vec<(&str, &str)> = c.iter().collect();
        assert_eq!(
            pairs,
            [("world.W", "arm.B"), ("a", ""), ("leg[0]/knee.F", "foot.R")]
        );
        assert_eq!(c.get(3), None);
        let mut d = PhysicalConnections::default();
        d.push(&"world.W", &"arm.B");
        d.push(&"a", &"");
        assert_ne!(c, d);
        d.push(&"leg[0]/knee.F", &"foot.R");
        assert_eq!(c, d);
        // The same text split elsewhere is another list.
        let mut e = PhysicalConnections::default();
        e.push(&"world.Warm", &".B");
        e.push(&"a", &"");
        e.push(&"leg[0]/knee.F", &"foot.R");
        assert_ne!(c, e);
    }
}
