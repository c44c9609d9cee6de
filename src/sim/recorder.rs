//! Which signals a run records (every Scope input and every `[output] log` entry) and where they
//! live in the signal buffer.

use super::budget::four_digits;
pub use super::budget::CSV_BYTES_PER_VALUE;
use crate::diagram::Diagram;
use crate::output::{Column, CsvStream, OutputError, PlotRows, Recording, StagedFile};
use crate::output::{OutputRows, SMOOTH_MAX_REFINE, SMOOTH_ROWS};
use crate::sim::SimError;
use crate::solver::RecordKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Columns to record, the signal-buffer offset of each, which rows to take (`[output] refine`,
/// `sample_time`), and where the rows go: all into [`Recorder::recording`] (the library's
/// default, [`Recorder::new`]), or streamed into a CSV with only the plot's decimated rows kept
/// ([`Recorder::streaming`]; see `docs/output.md`).
pub struct Recorder {
    /// Every row ([`Recorder::new`]), or the decimated rows for the plot ([`Recorder::streaming`]
    /// with a plot), or none (streaming without a plot).
    pub recording: Recording,
    offsets: Vec<usize>,
    row: Vec<f64>,
    schedule: RowSchedule,
    keep: Keep,
    csv: Option<CsvStream>,
    size_warning: Option<SizeWarning>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Rows recorded since the run started, and the time of the last.
    rows: usize,
    last_time: Option<f64>,
    /// The first recorded value that was NaN or infinite: (column, time).
    non_finite: Option<(usize, f64)>,
}

/// The first NaN or infinity a run recorded (see [`Recorder::first_non_finite`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NonFiniteRow {
    /// The column's CSV header, e.g. `ratio.out`.
    pub column: String,
    /// The time of its row (s).
    pub time: f64,
}

/// What a [`Recorder`] keeps in memory.
enum Keep {
    All,
    Plot(PlotRows),
    Nothing,
}

/// Which rows a run takes; see [`OutputRows`].
struct RowSchedule {
    rows: OutputRows,
    stop_time: f64,
    /// With `sample_time`: k of the next row at k·dt.
    next_sample: u64,
}

impl RowSchedule {
    fn rows_per_step(&self, h: f64) -> usize {
        match self.rows {
            OutputRows::Refine(n) => n,
            OutputRows::SampleTime(_) => 1,
            OutputRows::Smooth => {
                let gap = self.stop_time / SMOOTH_ROWS as f64;
                let rows = (h / gap).ceil();
                if rows.is_nan() || rows <= 1.0 {
                    1
                } else {
                    (rows as usize).min(SMOOTH_MAX_REFINE)
                }
            }
        }
    }

    /// The time of the next fixed-time row (strictly before the stop time, whose row is the
    /// final one).
    fn next_sample_time(&self) -> Option<f64> {
        match self.rows {
            OutputRows::SampleTime(dt) => {
                Some(self.next_sample as f64 * dt).filter(|&t| t < self.stop_time)
            }
            _ => None,
        }
    }

    /// Whether a row of this kind is recorded (with `sample_time`, steps give none).
    fn takes(&self, kind: RecordKind) -> bool {
        !matches!(
            (self.rows, kind),
            (
                OutputRows::SampleTime(_),
                RecordKind::Step | RecordKind::Refined
            )
        )
    }
}

/// Warns once when the streamed CSV passes a size.
pub struct SizeWarning {
    /// The size, bytes ([`CSV_WARNING_BYTES`] on the command line).
    pub bytes: u64,
    /// Receives the warning's text.
    pub warn: Box<dyn FnMut(String) + Send>,
    done: bool,
}

impl SizeWarning {
    /// A warning at `bytes`, handed to `warn`.
    pub fn new(bytes: u64, warn: Box<dyn FnMut(String) + Send>) -> SizeWarning {
        SizeWarning {
            bytes,
            warn,
            done: false,
        }
    }
}

/// Rows reserved up front for a recording.
pub const RESERVED_ROWS: usize = 4096;
/// The most memory reserved up front for a recording's values (bytes).
pub const RESERVED_BYTES: usize = 64 << 20;
/// A streamed CSV this large gets a warning (once, with the size it is heading for).
pub const CSV_WARNING_BYTES: u64 = 1 << 30;

/// Where [`Recorder::streaming`] sends the rows.
pub struct StreamTo {
    /// The CSV, staged (committed with the run's other outputs).
    pub csv: Option<StagedFile>,
    /// Keep decimated rows for a plot.
    pub plot: bool,
    /// Called once when the CSV passes a size.
    pub size_warning: Option<SizeWarning>,
}

impl Recorder {
    /// The columns of every Scope's inputs (one panel per Scope, in model order), then the logged
    /// signals, with room reserved for [`RESERVED_ROWS`] rows (so that short runs record without
    /// allocating), but never more than [`RESERVED_BYTES`] of values: a recording of a million
    /// columns reserves a few rows, not 32 GB. Every row is kept in memory.
    pub fn new(d: &Diagram) -> Recorder {
        let (panels, columns, offsets) = Self::layout(d);
        let mut recording = Recording::new(panels, columns);
        let row_bytes = std::mem::size_of::<f64>() * offsets.len().max(1);
        let rows = RESERVED_ROWS.min(RESERVED_BYTES / row_bytes).max(1);
        recording.times.reserve(rows);
        recording.values.reserve(rows * offsets.len());
        Self::with(d, recording, offsets, Keep::All)
    }

    /// A recorder that writes each row into `to.csv` as it is recorded and keeps in memory only
    /// the plot's decimated rows (see [`PlotRows`]), or nothing without a plot. Reserves the CSV's
    /// longest line and [`RESERVED_ROWS`] of the plot's rows (fewer when the plot's budget gives
    /// fewer), nothing in proportion to the number of rows.
    pub fn streaming(d: &Diagram, to: StreamTo) -> Result<Recorder, SimError> {
        let (panels, columns, offsets) = Self::layout(d);
        let csv = match to.csv {
            Some(file) => Some(CsvStream::new(file, &columns)?),
            None => None,
        };
        let keep = if to.plot {
            Keep::Plot(PlotRows::new(columns.len(), 0.0, d.run.stop_time))
        } else {
            Keep::Nothing
        };
        let mut recorder = Self::with(d, Recording::new(panels, columns), offsets, keep);
        if let Keep::Plot(plot) = &recorder.keep {
            plot.reserve(&mut recorder.recording, RESERVED_ROWS);
        }
        recorder.csv = csv;
        recorder.size_warning = to.size_warning;
        Ok(recorder)
    }

    /// Panels, columns and the signal-buffer offset of each column, as the build resolved them.
    fn layout(d: &Diagram) -> (Vec<String>, Vec<Column>, Vec<usize>) {
        let r = &d.run.output.recorded;
        (r.panels.clone(), r.columns.clone(), r.offsets.clone())
    }

    fn with(d: &Diagram, recording: Recording, offsets: Vec<usize>, keep: Keep) -> Recorder {
        Recorder {
            recording,
            row: vec![0.0; offsets.len()],
            schedule: RowSchedule {
                rows: recorded_rows(d.run.output.rows, offsets.len()),
                stop_time: d.run.stop_time,
                next_sample: 1,
            },
            offsets,
            keep,
            csv: None,
            size_warning: None,
            interrupt: None,
            rows: 0,
            last_time: None,
            non_finite: None,
        }
    }

    /// Sets the run's stop time (when it overrides the model's): it places the default rows and
    /// the plot's time axis.
    pub fn set_stop_time(&mut self, stop_time: f64) {
        self.schedule.stop_time = stop_time;
        if let Keep::Plot(rows) = &mut self.keep {
            *rows = PlotRows::new(self.offsets.len(), 0.0, stop_time);
            rows.reserve(&mut self.recording, RESERVED_ROWS);
        }
    }

    /// Warns before the run when its rows are known in advance (`sample_time`) and the CSV would
    /// pass the warning's size, estimating [`CSV_BYTES_PER_VALUE`] bytes a value. Other runs are
    /// warned while they go, when the CSV passes it.
    pub fn warn_if_too_large(&mut self) {
        let (Some(warning), Some(_), OutputRows::SampleTime(dt)) =
            (self.size_warning.as_mut(), &self.csv, self.schedule.rows)
        else {
            return;
        };
        // k·dt before the stop time (k = 0, 1, ...), and the final row; events not counted.
        let rows = (self.schedule.stop_time / dt).ceil() + 1.0;
        let bytes = rows * (self.offsets.len() + 1) as f64 * CSV_BYTES_PER_VALUE;
        if bytes > warning.bytes as f64 {
            warning.done = true;
            (warning.warn)(format!(
                "the CSV will be about {} GB: {rows} rows (stop_time / sample_time) × {} columns\n  help: raise [output] sample_time, or log fewer signals",
                four_digits(bytes / 1e9),
                self.offsets.len() + 1
            ));
        }
    }

    /// Stops the run (at its next step) once `flag` is set, e.g. by a signal handler.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// Starts a new run: drops the rows kept in memory (keeping their memory) and the schedule.
    pub fn restart(&mut self) {
        self.recording.clear();
        self.schedule.next_sample = 1;
        self.rows = 0;
        self.last_time = None;
        self.non_finite = None;
    }

    /// Starts a new recording for a run from time `t` (a start time, or a checkpoint): like
    /// [`Recorder::restart`] (which it is at t = 0), with the fixed-time rows (`sample_time`)
    /// from the first k·dt after t (a row at t is the run's first row; a resumed run's earlier
    /// rows belong to the run that reached t).
    pub fn restart_at(&mut self, t: f64) {
        self.restart();
        if let OutputRows::SampleTime(dt) = self.schedule.rows {
            // Past t by more than round-off: a grid time that t itself lies on is t's row.
            let mut k = (t / dt).floor().max(0.0) as u64;
            while k as f64 * dt <= t + 1e-9 * dt {
                k += 1;
            }
            self.schedule.next_sample = k;
        }
    }

    /// Records the point the solver reported (`kind`), unless the schedule skips it.
    pub fn record(&mut self, t: f64, kind: RecordKind, signals: &[f64]) {
        if self.schedule.takes(kind) {
            let event = matches!(kind, RecordKind::EventBefore | RecordKind::EventAfter);
            self.push_row(t, signals, event);
        }
    }

    /// Appends a row read from the signal buffer (every row is kept, as for a step).
    pub fn push(&mut self, t: f64, signals: &[f64]) {
        self.push_row(t, signals, false);
    }

    fn push_row(&mut self, t: f64, signals: &[f64], event: bool) {
        for (v, &o) in self.row.iter_mut().zip(&self.offsets) {
            *v = signals[o];
        }
        self.rows += 1;
        self.last_time = Some(t);
        if self.non_finite.is_none() {
            if let Some(column) = self.row.iter().position(|v| !v.is_finite()) {
                self.non_finite = Some((column, t));
            }
        }
        match &mut self.keep {
            Keep::All => self.recording.push_row(t, &self.row),
            Keep::Plot(plot) => plot.push(&mut self.recording, t, &self.row, event),
            Keep::Nothing => {}
        }
        if let Some(csv) = &mut self.csv {
            csv.push(t, &self.row);
            if let Some(warning) = self.size_warning.as_mut().filter(|w| !w.done) {
                if csv.bytes() > warning.bytes {
                    warning.done = true;
                    let projected = csv.bytes() as f64 * self.schedule.stop_time / t.max(1e-300);
                    (warning.warn)(format!(
                        "the CSV passed {} GB at t = {t} s; at this rate it will be about {} GB at the stop time ({} s)\n  help: set [output] sample_time (rows at fixed times) or refine = 1 (step ends only), or log fewer signals",
                        warning.bytes as f64 / 1e9,
                        four_digits(projected / 1e9),
                        self.schedule.stop_time
                    ));
                }
            }
        }
    }

    /// The first recorded value that was NaN or infinite, by column name and time (s): a signal
    /// that reaches only a Scope or a log stops no run, so the run says it.
    pub fn first_non_finite(&self) -> Option<NonFiniteRow> {
        self.non_finite.map(|(column, time)| NonFiniteRow {
            column: self.recording.columns[column].name.clone(),
            time,
        })
    }

    /// How many rows to record per accepted step of length `h` (see [`OutputRows`]).
    pub fn rows_per_step(&self, h: f64) -> usize {
        self.schedule.rows_per_step(h)
    }

    /// Whether rows are recorded inside steps (refined or smooth rows between step ends, or
    /// fixed-time rows), not only at step ends and events.
    pub fn records_inside_steps(&self) -> bool {
        !matches!(self.schedule.rows, OutputRows::Refine(1))
    }

    /// The time of the next fixed-time row (`[output] sample_time`), if any.
    pub fn next_sample_time(&self) -> Option<f64> {
        self.schedule.next_sample_time()
    }

    /// Records the fixed-time row at `t` (the time [`Recorder::next_sample_time`] gave).
    pub fn sample(&mut self, t: f64, signals: &[f64]) {
        self.schedule.next_sample += 1;
        self.push_row(t, signals, false);
    }

    /// Whether the run was asked to stop.
    pub fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Rows recorded so far (all of them, also those not kept in memory).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The time of the last row recorded.
    pub fn last_time(&self) -> Option<f64> {
        self.last_time
    }

    /// Ends the recording: the plot's last bucket goes into [`Recorder::recording`], and the
    /// streamed CSV is handed back, complete but not yet committed.
    pub fn finish(&mut self) -> Result<Option<StagedFile>, OutputError> {
        if let Keep::Plot(plot) = &mut self.keep {
            plot.flush(&mut self.recording);
        }
        self.csv.take().map(CsvStream::finish).transpose()
    }

    /// Which rows the run records (`[output] refine`, `sample_time`, or the default rows; step
    /// ends only when no column is recorded).
    pub fn row_setting(&self) -> OutputRows {
        self.schedule.rows
    }

    /// Number of recorded columns.
    pub fn num_columns(&self) -> usize {
        self.offsets.len()
    }
}

/// The rows a run with `columns` recorded columns takes for the model's `rows`. The default rows
/// ([`OutputRows::Smooth`]) are there to draw and tabulate the columns: a run that records no
/// column gets step ends only, so that it does not interpolate and evaluate the diagram at ~1000
/// instants for nothing. `[output] refine` and `sample_time` are kept as written.
fn recorded_rows(rows: OutputRows, columns: usize) -> OutputRows {
    match rows {
        OutputRows::Smooth if columns == 0 => OutputRows::Refine(1),
        rows => rows,
    }
}
