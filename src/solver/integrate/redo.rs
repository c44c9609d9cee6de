//! A step that straddles a crossing is redone to end just before it, or cut short before a
//! crossing foreseen one step ahead: where the loop stands in that (see the module
//! documentation of `integrate`, point 4, and `crossing`).

/// A step that straddled a zero crossing is redone to end short of it by this fraction of the
/// distance: the location on the straddling step's polluted dense output may be off by a little.
pub(super) const REDO_MARGIN: f64 = 1e-3;

/// Where the redo of a step that straddled a crossing stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Redo {
    /// No redo under way: a straddling step is redone.
    None,
    /// The redone step is being tried.
    Stepping,
    /// The redone step ended before the crossing: the next crossing is located as usual.
    BeforeCrossing,
    /// The step was cut to end just before a crossing foreseen by extrapolating g
    /// (`crossing_forecast`); straddling it after all, it is redone as any straddling step.
    Foreseen,
}

impl Redo {
    /// A straddling step is redone (none is under way; a foreseen crossing was misjudged).
    pub(super) fn may_redo(self) -> bool {
        matches!(self, Redo::None | Redo::Foreseen)
    }

    /// After a rejected trial: a foreseen crossing's cut no longer applies (the retry is the
    /// controller's); a redo stays under way.
    pub(super) fn after_rejection(self) -> Self {
        if self == Redo::Foreseen {
            Redo::None
        } else {
            self
        }
    }
}
