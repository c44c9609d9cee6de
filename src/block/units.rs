//! The units a signal carries, element by element, and the few rules that carry them through
//! the diagram (issue 33, part 3; `docs/model-format.md`, "Units of signals").
//!
//! A unit is free text ("rad", "N·m", "furlong"): the rules compare units as strings and never
//! convert or combine them, except the one documented rule of time integration
//! ([`integrated_unit`]). "No unit" means "not known" (a bare number, or a signal whose unit
//! nobody declared); it never conflicts with a unit.
//!
//! Each block says what its outputs carry with [`crate::block::Block::output_units`], given its
//! inputs' ([`UnitInputs`]); the diagram applies it until nothing changes (`diagram::units`).

use super::{PortDecl, Shape};

/// The unit of each element of one signal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Units {
    /// No element has a known unit.
    #[default]
    Unknown,
    /// Every element has this unit (never empty).
    All(String),
    /// One entry per element (column-major), `None` where unknown; mixed, never uniform (see
    /// [`Units::from_elements`]).
    Each(Vec<Option<String>>),
}

impl Units {
    /// Every element in `unit`; an empty unit is no unit.
    pub fn all(unit: &str) -> Units {
        if unit.is_empty() {
            Units::Unknown
        } else {
            Units::All(unit.to_string())
        }
    }

    /// What a port declares: its per-element units, else its unit, else none.
    pub fn declared(port: &PortDecl) -> Units {
        match (port.element_units, port.unit) {
            (Some(each), _) => Units::from_elements(
                each.iter()
                    .map(|u| Some(u.to_string()).filter(|u| !u.is_empty())),
            ),
            (None, Some(u)) => Units::all(u),
            (None, None) => Units::Unknown,
        }
    }

    /// What output `port` of settled shape `shape` declares: as [`Units::declared`], with
    /// per-row `element_units` repeated down every column of a wider port (a ContactGroup's 6×M
    /// `member_wrench`: N, N, N, N·m, N·m, N·m in each member's column).
    pub fn declared_for(port: &PortDecl, shape: Option<Shape>) -> Units {
        match (port.element_units, shape) {
            (Some(each), Some(shape)) if !each.is_empty() && shape.len() > each.len() => {
                Units::from_elements(
                    (0..shape.len())
                        .map(|k| Some(each[k % each.len()].to_string()).filter(|u| !u.is_empty())),
                )
            }
            _ => Units::declared(port),
        }
    }

    /// From one unit per element, in the simplest form: [`Units::Unknown`] when none is known,
    /// [`Units::All`] when all are the same.
    pub fn from_elements(units: impl IntoIterator<Item = Option<String>>) -> Units {
        let each: Vec<Option<String>> = units.into_iter().collect();
        match each.first() {
            None => Units::Unknown,
            Some(first) if each.iter().all(|u| u == first) => match first {
                Some(u) => Units::all(u),
                None => Units::Unknown,
            },
            Some(_) => Units::Each(each),
        }
    }

    /// The unit of element `k` (column-major), if known.
    pub fn of(&self, k: usize) -> Option<&str> {
        match self {
            Units::Unknown => None,
            Units::All(u) => Some(u),
            Units::Each(each) => each.get(k).and_then(|u| u.as_deref()),
        }
    }

    /// The unit of element `k` of a signal of `len` elements broadcast to a larger shape: a
    /// 1×1 signal gives its one element everywhere.
    pub fn broadcast(&self, len: usize, k: usize) -> Option<&str> {
        self.of(if len == 1 { 0 } else { k })
    }

    /// Element `k` alone (a line that selects `block.port[k]`).
    pub fn element(&self, k: usize) -> Units {
        self.of(k).map_or(Units::Unknown, Units::all)
    }

    /// The elements `indices` in order (a Selector).
    pub fn select(&self, indices: &[usize]) -> Units {
        Units::from_elements(indices.iter().map(|&i| self.of(i).map(str::to_string)))
    }

    /// Elements `start .. start + len` (a Demux part).
    pub fn range(&self, start: usize, len: usize) -> Units {
        Units::from_elements((start..start + len).map(|k| self.of(k).map(str::to_string)))
    }

    /// The parts' elements one after the other, each part `(units, number of elements)`
    /// (a Mux).
    pub fn concat<'a>(parts: impl IntoIterator<Item = (&'a Units, usize)>) -> Units {
        Units::from_elements(
            parts
                .into_iter()
                .flat_map(|(u, n)| (0..n).map(move |k| u.of(k).map(str::to_string))),
        )
    }
}

/// What [`crate::block::Block::output_units`] is given: each input's units and shape, and each
/// output's shape.
#[derive(Clone, Copy, Debug)]
pub struct UnitInputs<'a> {
    /// Each input's units ([`Units::Unknown`] for an unconnected optional input).
    pub units: &'a [Units],
    /// Each input's shape.
    pub shapes: &'a [Shape],
    /// Each output's shape.
    pub outputs: &'a [Shape],
}

impl UnitInputs<'_> {
    /// Output `o`'s elements each in the unit the inputs `inputs` agree on at that element
    /// (1×1 inputs broadcast): the rule of element-wise blocks that add or choose between their
    /// inputs (Sum, Switch, MinMax). Where they disagree or one is unknown, the element has no
    /// unit.
    pub fn agreed(&self, o: usize, inputs: &[usize]) -> Units {
        let n = self.outputs.get(o).map_or(0, Shape::len);
        Units::from_elements((0..n).map(|k| {
            let mut units = inputs
                .iter()
                .map(|&i| self.units[i].broadcast(self.shapes[i].len(), k));
            let first = units.next().flatten()?;
            units.all(|u| u == Some(first)).then(|| first.to_string())
        }))
    }

    /// Input `i`'s units broadcast over output `o`'s elements (Gain, Abs, Saturation, …).
    pub fn passed(&self, i: usize, o: usize) -> Units {
        self.agreed(o, &[i])
    }

    /// Input `i`'s elements reduced to one (a Sum with one sign, a MinMax of one input): the
    /// unit every element shares, else none.
    pub fn reduced(&self, i: usize) -> Units {
        let n = self.shapes.get(i).map_or(0, Shape::len);
        let each = Units::from_elements((0..n).map(|k| self.units[i].of(k).map(str::to_string)));
        match each {
            Units::All(u) => Units::All(u),
            _ => Units::Unknown,
        }
    }

    /// The first two different known units the inputs `inputs` give one element, with the inputs
    /// they come from: `(input, unit, input, unit)`; `None` when they never disagree (an
    /// unknown unit disagrees with nothing).
    pub fn conflict(&self, o: usize, inputs: &[usize]) -> Option<(usize, String, usize, String)> {
        let n = self.outputs.get(o).map_or(0, Shape::len);
        (0..n).find_map(|k| {
            let known: Vec<(usize, &str)> = inputs
                .iter()
                .filter_map(|&i| Some((i, self.units[i].broadcast(self.shapes[i].len(), k)?)))
                .collect();
            let (i, u) = *known.first()?;
            known
                .iter()
                .find(|(_, v)| *v != u)
                .map(|&(j, v)| (i, u.to_string(), j, v.to_string()))
        })
    }
}

/// The unit of the time integral of a signal in `unit`, by the one rule the diagram applies:
/// `X/s` integrates to `X` and `X/s²` to `X/s` (m/s → m, rad/s² → rad/s, N·m/s → N·m); any
/// other unit gives none (N → N·s is not attempted: units are never multiplied).
pub fn integrated_unit(unit: &str) -> Option<String> {
    if let Some(x) = unit
        .strip_suffix("/s²")
        .or_else(|| unit.strip_suffix("/s^2"))
    {
        return (!x.is_empty()).then(|| format!("{x}/s"));
    }
    unit.strip_suffix("/s")
        .filter(|x| !x.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Per-row units repeat down each column of a wider port (6×2: two members' wrenches), and
    /// a port as long as its list keeps it.
    #[test]
    fn per_row_units_repeat_in_every_column() {
        let port = PortDecl::inherited("w").element_units(&["N", "N", "N", "N·m", "N·m", "N·m"]);
        let wide = Units::declared_for(&port, Some(Shape { rows: 6, cols: 2 }));
        for k in 0..12 {
            let want = if k % 6 < 3 { "N" } else { "N·m" };
            assert_eq!(wide.of(k), Some(want), "element {k}");
        }
        let one = Units::declared_for(&port, Some(Shape { rows: 6, cols: 1 }));
        assert_eq!(one, Units::declared(&port));
        assert_eq!(one.of(6), None);
    }

    #[test]
    fn from_elements_is_simplest() {
        assert_eq!(Units::from_elements([]), Units::Unknown);
        assert_eq!(Units::from_elements([None, None]), Units::Unknown);
        assert_eq!(
            Units::from_elements([Some("m".into()), Some("m".into())]),
            Units::all("m")
        );
        let mixed = Units::from_elements([Some("m".into()), None]);
        assert_eq!((mixed.of(0), mixed.of(1)), (Some("m"), None));
        assert_eq!(Units::all(""), Units::Unknown);
    }

    #[test]
    fn concat_select_and_range_keep_each_elements_unit() {
        let (m, rad) = (Units::all("m"), Units::all("rad"));
        let both = Units::concat([(&m, 2), (&rad, 1)]);
        assert_eq!(
            (0..3).map(|k| both.of(k)).collect::<Vec<_>>(),
            [Some("m"), Some("m"), Some("rad")]
        );
        assert_eq!(both.select(&[2, 0]).of(0), Some("rad"));
        assert_eq!(both.range(0, 2), m);
        assert_eq!(both.element(2), rad);
    }

    #[test]
    fn integration_divides_out_one_second_only() {
        assert_eq!(integrated_unit("m/s").as_deref(), Some("m"));
        assert_eq!(integrated_unit("rad/s²").as_deref(), Some("rad/s"));
        assert_eq!(integrated_unit("N·m/s").as_deref(), Some("N·m"));
        assert_eq!(integrated_unit("N"), None);
        assert_eq!(integrated_unit("/s"), None);
    }

    #[test]
    fn agreed_units_broadcast_and_conflicts_are_found() {
        let units = [Units::all("rad"), Units::all("rad"), Units::all("m")];
        let shapes = [Shape::vector(2), Shape::SCALAR, Shape::vector(2)];
        let io = UnitInputs {
            units: &units,
            shapes: &shapes,
            outputs: &[Shape::vector(2)],
        };
        assert_eq!(io.agreed(0, &[0, 1]), Units::all("rad"));
        assert_eq!(io.agreed(0, &[0, 2]), Units::Unknown);
        assert_eq!(io.conflict(0, &[0, 1]), None);
        assert_eq!(
            io.conflict(0, &[0, 1, 2]),
            Some((0, "rad".into(), 2, "m".into()))
        );
    }
}
