//! The `unit` key of the blocks whose output is a number the model chooses (Constant, Step,
//! Ramp, Sine, PulseGenerator, FromTable, Fcn, Gain): free text such as `unit = "rad"` that
//! labels the output for plots and legends (`docs/model-format.md`, "Units of signals").

use super::common::param;
use crate::block::{ParamDoc, Units};
use crate::model::reader::ParamResult;
use crate::model::TableReader;

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
    /// Reads `unit` (a string when written).
    pub(crate) fn read(r: &TableReader) -> ParamResult<UnitKey> {
        Ok(UnitKey(r.string("unit")?.map(str::to_string)))
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
