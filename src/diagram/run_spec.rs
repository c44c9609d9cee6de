//! What a run needs from the model, settled when the diagram is built (issue 29, part 2): the
//! name, the stop time, the solver's options (the method an enum), and the outputs, with the
//! recorded signals resolved to signal-buffer offsets. A run reads these, never the model.

use crate::model::ModelSpec;
use crate::output::Column;
use crate::output::{AnimationSettings, OutputRows};
use crate::solver::SolverOptions;

/// The settings of a run of a built diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// `[model] name`, else the file's stem.
    pub name: String,
    /// The model's path as messages show it (`model.toml`; `<string>` or a name for a model
    /// read from text or built in code).
    pub path: String,
    /// `[model] stop_time`, s.
    pub stop_time: f64,
    /// `[solver]`, read and checked (an unknown method was the reader's located error).
    pub solver: SolverOptions,
    /// `[output]`.
    pub output: RunOutput,
}

/// The outputs of a run: files, rows, budget, animation and the recorded signals.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutput {
    /// The CSV to write, if any.
    pub csv: Option<String>,
    /// The plot (PNG) to write, if any.
    pub plot: Option<String>,
    /// Which rows are recorded (`refine`, `sample_time`).
    pub rows: OutputRows,
    /// `max_bytes`: the output budget, bytes (`None`: [`crate::output::DEFAULT_MAX_OUTPUT_BYTES`]).
    pub max_bytes: Option<f64>,
    /// The animation: its paths, size, frame rate, camera and drawn frames.
    pub animation: AnimationSettings,
    /// `[output] log` as written (each name checked when the diagram was built), in order.
    pub log: Vec<String>,
    /// The recorded signals, resolved: every Scope's inputs, then the logged signals.
    pub recorded: RecordedSignals,
    /// The frames an animation draws (`[output] draw_frames`), resolved against the physical
    /// scene's frames.
    pub drawn_frames: DrawnFrames,
}

/// The frames whose axes an animation draws, resolved when the diagram is built from
/// `[output] draw_frames` (a run reads indices, never a frame's name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawnFrames {
    /// Which frames.
    pub frames: FrameChoice,
    /// One warning per name of `draw_frames = [...]` that is no frame of the model, with the
    /// frames it might have meant (a run with an animation or a view gives them).
    pub unknown: Vec<String>,
}

/// Which of the physical scene's frames an animation draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum FrameChoice {
    /// None (`draw_frames = false`, and a model without a mechanism).
    #[default]
    None,
    /// Every frame port of every physical block (`draw_frames = true`).
    All,
    /// The frames named, as indices into [`crate::diagram::physical::PhysicalScene::frames`], in
    /// the scene's order, each once.
    Listed(Vec<usize>),
}

impl FrameChoice {
    /// Whether frame `i` of the scene is drawn (`Listed` is in increasing order).
    pub fn draws(&self, i: usize) -> bool {
        match self {
            FrameChoice::None => false,
            FrameChoice::All => true,
            FrameChoice::Listed(listed) => listed.binary_search(&i).is_ok(),
        }
    }
}

/// The recorded signals, resolved to where they live: one panel per Scope (its name), one
/// column per recorded element (CSV header, unit, panel), and each column's offset in the flat
/// signal buffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordedSignals {
    /// Panel titles: the Scopes' names, in model order.
    pub panels: Vec<String>,
    /// The columns: each Scope input's elements (in its panel), then the logged signals'
    /// elements not already recorded (no panel).
    pub columns: Vec<Column>,
    /// The signal-buffer offset of each column.
    pub offsets: Vec<usize>,
    /// The block of each logged signal (`[output] log`, in its order, one entry per name, its
    /// columns already recorded or not): the fusion of linear blocks keeps these blocks' outputs.
    pub logged_blocks: Vec<usize>,
}

impl RunSpec {
    /// The run settings of `spec` (read from `path`), with no signal resolved yet
    /// ([`RunOutput::recorded`] is filled once the blocks are placed).
    pub(crate) fn of(spec: &ModelSpec, path: &str) -> RunSpec {
        let o = &spec.output;
        RunSpec {
            name: spec.name.clone(),
            path: path.to_string(),
            stop_time: spec.stop_time,
            solver: spec.solver.clone(),
            output: RunOutput {
                csv: o.csv.clone(),
                plot: o.plot.clone(),
                rows: o.rows,
                max_bytes: o.max_bytes,
                animation: o.animation.clone(),
                log: o.log.iter().map(|(name, _)| name.clone()).collect(),
                recorded: RecordedSignals::default(),
                drawn_frames: DrawnFrames::default(),
            },
        }
    }
}
