//! Many short labels kept as one text: the frame network labels every frame port ("block.port"),
//! 220,000 of them in a 20,000-joint URDF chain, where a `String` each (24 bytes inline and an
//! allocation of 32 for ~12 bytes of text) was 12 MB of the build's peak.

use std::fmt;
use std::ops::Index;

/// Labels numbered in the order they were pushed, as one text.
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct Labels {
    /// Every label, one after the other.
    text: String,
    /// Where label k ends in `text` (it starts where label k − 1 ends).
    ends: Vec<u32>,
}

impl Labels {
    /// Appends the label made of `parts` written one after the other; returns its number.
    /// Panics past 4 GiB of text.
    pub(crate) fn push(&mut self, parts: &[&str]) -> usize {
        for part in parts {
            self.text.push_str(part);
        }
        let end = u32::try_from(self.text.len()).expect("labels past 4 GiB");
        self.ends.push(end);
        self.ends.len() - 1
    }

    /// Gives back the unused capacity.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    /// How many labels.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }
}

impl Index<usize> for Labels {
    type Output = str;

    /// Label `k`. Panics if there is none.
    fn index(&self, k: usize) -> &str {
        let start = k.checked_sub(1).map_or(0, |p| self.ends[p] as usize);
        &self.text[start..self.ends[k] as usize]
    }
}

impl fmt::Debug for Labels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..self.len()).map(|k| &self[k]))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Labels;

    /// Each label comes back as pushed, parts joined, an empty one included.
    #[test]
    fn labels_come_back_as_pushed() {
        let mut labels = Labels::default();
        assert_eq!(labels.len(), 0);
        assert_eq!(labels.push(&["arm/l0", ".", "F"]), 0);
        assert_eq!(labels.push(&[]), 1);
        assert_eq!(labels.push(&["world.W"]), 2);
        labels.shrink_to_fit();
        assert_eq!(
            (&labels[0], &labels[1], &labels[2]),
            ("arm/l0.F", "", "world.W")
        );
        assert_eq!(labels.len(), 3);
        assert_eq!(format!("{labels:?}"), r#"["arm/l0.F", "", "world.W"]"#);
    }
}
