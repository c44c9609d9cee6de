//! The `unit` key of the blocks whose output is a number the model chooses (Constant, Step,
//! Ramp, Sine, PulseGenerator, FromTable, Fcn, Gain): free text such as `unit = "rad"` that
//! labels the output for plots and legends (`docs/model-format.md`, "Units of signals").

use super::common::param;
use crate::block::{ParamDoc, Units};
use crate::params::ParamResult;
use crate::params::Params;

/// The `unit` key's documentation.
pub(crate) const UNIT_DOC: ParamDoc = param(
    "unit",
    "",
    "none",
    "the output's unit, any text (e.g. \"rad\", \"N·m\"): plot panels group by it and legends say it",
);

/// A block's `unit` key as written: absent, or its text (possibly empty, which gets a warning).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct UnitKey(Option<String>);

impl UnitKey {
    /// Reads `unit` (a string when written), with `^2` and `^3` written as `²` and `³`, the way
    /// the library's own outputs spell their units (so "m/s^2" and a body's "m/s²" are one unit).
    pub(crate) fn read(r: &Params) -> ParamResult<UnitKey> {
        Ok(UnitKey(r.string("unit")?.map(normalized)))
    }

    /// Whether the model wrote the key (an empty unit counts as written).
    pub(crate) fn written(&self) -> bool {
        self.0.is_some()
    }

    /// Every element in the unit written; unknown without one (or with an empty one).
    pub(crate) fn units(&self) -> Units {
        self.0.as_deref().map_or(Units::Unknown, Units::all)
    }

    /// The warning an empty unit gets, located at the key by its leading `unit`.
    pub(crate) fn warnings(&self) -> Vec<String> {
        match self.0.as_deref() {
            Some("") => vec![
                "unit = \"\" is empty, so the output has no unit: write one (e.g. unit = \"rad\") or remove the key"
                    .to_string(),
            ],
            _ => Vec::new(),
        }
    }
}

/// `unit` with the powers `^2` and `^3` as superscripts.
fn normalized(unit: &str) -> String {
    unit.replace("^2", "²").replace("^3", "³")
}

#[cfg(test)]
mod tests {
    #[test]
    fn powers_are_written_as_superscripts() {
        assert_eq!(super::normalized("m/s^2"), "m/s²");
        assert_eq!(super::normalized("kg*m^2"), "kg*m²");
        assert_eq!(super::normalized("m^3/s"), "m³/s");
        assert_eq!(super::normalized("rad"), "rad");
    }
}
