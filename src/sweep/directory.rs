//! A sweep written into a directory: `run_<index>.csv` per point and one summary row per point.
//!
//! **Files.** Point k's CSV is `run_<k>.csv`, k zero-padded to the width of the largest index of
//! the whole plan (`run_07.csv` in a sweep of 64 points), so that the names sort in point order
//! and are the same in every shard. The CSV is the one `blockdyn run --csv` writes, streamed
//! into a staged file and committed when the point ends: a crash never leaves a half file. A
//! failed point's CSV holds the rows recorded until the failure (none is written when it failed
//! before its first row).
//!
//! **Summary.** `summary.csv`, or `summary_<I>_of_<N>.csv` for `--shard I/N` with N > 1 (so that
//! the shards of an array job writing into one directory never overwrite each other's), written
//! atomically once every point of the shard ended. Columns:
//! `index,<each --vary path>,status,steps,rejected_steps,function_evaluations,zero_crossings,method_switches,rows,final_time,<final value of each recorded column>,message`:
//! - `status` is `ok` or `failed`; `message` is empty, or why the point failed;
//! - `steps` … `method_switches` are the solver's counts (empty for a failed point;
//!   `method_switches` is 0 unless `[solver] method = "auto"`);
//! - `rows` is the number of CSV rows; `final_time` (s) is the time of the last row;
//! - the final values are those of the last row, for the columns of point 0 (a point whose
//!   recorded columns differ, say a point cloud with another number of points, leaves the
//!   columns it does not have empty);
//! - the message's lines are joined with `; ` so that every row is one line;
//! - rows are in point order; every shard writes the same header, so the shards' summaries merge
//!   by concatenating them without their first lines (`docs/sweep.md`).

use super::out_dir::summary_file_name;
use super::{parallel_map, Checked, RunSettings, Shard, Sweep, SweepError};
use crate::output::csv::write_field;
use crate::output::{commit_run_outputs, write_atomically, CsvNumber, InputFiles, StagedFile};
use crate::sim::{simulate_keeping_rows, RunOptions, StreamTo};
use crate::solver::SolverStats;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where and how [`Sweep::run_into`] runs.
#[derive(Clone, Debug)]
pub struct DirectoryRun {
    /// The output directory (created when missing).
    pub dir: PathBuf,
    /// The slice of the points to run.
    pub shard: Shard,
    /// Threads and interrupt.
    pub settings: RunSettings,
    /// `--overwrite`: replace an earlier sweep's outputs in `dir` and remove its stale ones
    /// (see [`super::out_dir`]); without it, a directory holding anything but this plan's other
    /// shards' outputs is refused.
    pub overwrite: bool,
}

/// How a point ended.
#[derive(Clone, Debug, PartialEq)]
pub enum PointStatus {
    /// The run reached its stop time (and its CSV was written).
    Ok,
    /// The run failed (or its CSV could not be written): the message.
    Failed(String),
}

/// One row of the summary.
#[derive(Clone, Debug)]
pub struct PointSummary {
    /// The point's global index.
    pub index: usize,
    /// The point's value of each `--vary`, as written.
    pub values: Vec<String>,
    /// How it ended.
    pub status: PointStatus,
    /// The solver's counts (`None` for a failed point).
    pub stats: Option<SolverStats>,
    /// Rows recorded (and written to the CSV).
    pub rows: usize,
    /// The time of the last row, s.
    pub final_time: Option<f64>,
    /// The last row's values, by column name (empty without rows).
    pub final_values: Vec<(String, f64)>,
    /// The CSV written, if any.
    pub csv: Option<PathBuf>,
    /// Wall-clock time of the point (build, run and CSV).
    pub wall_time: Duration,
}

/// What [`Sweep::run_into`] did.
#[derive(Debug)]
pub struct SweepReport {
    /// The summary file written.
    pub summary: PathBuf,
    /// The points run, in point order.
    pub points: Vec<PointSummary>,
    /// The points of the shard (also those not run because of an interrupt).
    pub planned: usize,
    /// The stale outputs of an earlier sweep removed (with [`DirectoryRun::overwrite`]).
    pub removed: Vec<PathBuf>,
}

impl SweepReport {
    /// The number of failed points.
    pub fn failed(&self) -> usize {
        self.points
            .iter()
            .filter(|p| p.status != PointStatus::Ok)
            .count()
    }

    /// [`SweepError::PointsFailed`] when a point failed or did not run (an interrupt), listing
    /// the first [`LISTED_FAILURES`] failures by the first line of their message.
    pub fn failures(&self) -> Option<SweepError> {
        let not_run = self.planned - self.points.len();
        let failed = self.failed();
        if failed == 0 && not_run == 0 {
            return None;
        }
        let listed = self
            .points
            .iter()
            .filter_map(|p| match &p.status {
                PointStatus::Failed(why) => {
                    Some((p.index, why.lines().next().unwrap_or_default().to_string()))
                }
                PointStatus::Ok => None,
            })
            .take(LISTED_FAILURES)
            .collect();
        Some(SweepError::PointsFailed {
            failed,
            planned: self.planned,
            not_run,
            summary: self.summary.clone(),
            listed,
        })
    }
}

/// The failures [`SweepReport::failures`] lists (the summary has them all).
pub const LISTED_FAILURES: usize = 5;

impl Sweep {
    /// Runs the shard's points into `run.dir` (created when missing) and writes the summary; see
    /// the module documentation. `checked` is what [`Sweep::check`] returned for these points
    /// (call it first: a bad `--vary` is then reported before anything is written). `progress`
    /// is called on the calling thread for each point that ended, between the points it runs
    /// itself (the calling thread is one of the jobs). A failed point does not stop the others:
    /// it is in the report and the summary with its message.
    pub fn run_into(
        &self,
        run: &DirectoryRun,
        checked: &Checked,
        progress: impl FnMut(&PointSummary),
    ) -> Result<SweepReport, SweepError> {
        let points = run.shard.points(self.plan().len());
        // The model file first (read from a file), then the URDFs and meshes.
        let inputs = match checked.inputs.split_first() {
            Some((model, read)) => InputFiles::new(model, read),
            None => InputFiles::default(),
        };
        let prepared = self.prepare_directory(&run.dir, run.shard, run.overwrite, &inputs)?;
        let summaries = parallel_map(
            points.len(),
            &run.settings,
            |k| self.run_point(points[k], &run.dir, &run.settings, &inputs),
            progress,
        );
        let points_run: Vec<PointSummary> = summaries.into_iter().flatten().collect();
        let summary = run.dir.join(summary_file_name(run.shard));
        write_atomically(&summary, "summary", |w| {
            self.write_summary(w, &checked.columns, &points_run)
        })?;
        // Best effort: a shard beside this one may have removed one first.
        let removed = (prepared.stale.into_iter())
            .filter(|stale| std::fs::remove_file(stale).is_ok())
            .collect();
        Ok(SweepReport {
            summary,
            points: points_run,
            planned: points.len(),
            removed,
        })
    }

    /// Builds and runs point `index`, streaming its CSV into `dir`, and commits the CSV (also the
    /// rows of a failed run), checking again that it replaces none of the sweep's `inputs`.
    fn run_point(
        &self,
        index: usize,
        dir: &Path,
        settings: &RunSettings,
        inputs: &InputFiles,
    ) -> PointSummary {
        let started = Instant::now();
        let values = self.plan().values(index);
        let mut summary = PointSummary {
            index,
            values: values.into_iter().map(str::to_string).collect(),
            status: PointStatus::Ok,
            stats: None,
            rows: 0,
            final_time: None,
            final_values: Vec::new(),
            csv: None,
            wall_time: Duration::ZERO,
        };
        if let Err(message) = self.simulate_point(index, dir, settings, inputs, &mut summary) {
            summary.status = PointStatus::Failed(message);
        }
        summary.wall_time = started.elapsed();
        summary
    }

    /// [`Sweep::run_point`]'s work: fills in `summary`'s counts, rows, final values and CSV;
    /// `Err` with the message when the point failed (its CSV is still written when it has rows).
    fn simulate_point(
        &self,
        index: usize,
        dir: &Path,
        settings: &RunSettings,
        inputs: &InputFiles,
        summary: &mut PointSummary,
    ) -> Result<(), String> {
        let model = self.point_model(index).map_err(|e| e.to_string())?;
        let path = dir.join(self.csv_file_name(index));
        let csv = StagedFile::create(&path, "CSV").map_err(|e| e.to_string())?;
        let options = RunOptions {
            // The plot's rows are kept only for their last row, which they keep exactly (see
            // `output::plot_rows`): the final values, in bounded memory.
            stream: Some(StreamTo {
                csv: Some(csv),
                plot: true,
                size_warning: None,
            }),
            interrupt: settings.interrupt.clone(),
            ..model.options()
        };
        let (recording, staged, error) = match simulate_keeping_rows(&model.diagram, options) {
            Ok(result) => {
                summary.stats = Some(result.stats);
                summary.rows = result.rows;
                summary.final_time = result.last_time;
                (result.recording, result.csv, None)
            }
            Err(failed) => {
                summary.rows = failed.rows;
                summary.final_time = failed.last_time;
                if let Some(output) = failed.output_error {
                    // The CSV could not be written either (a full disk): say so, not its rows.
                    summary.rows = 0;
                    return Err(format!(
                        "{}\n  note: no CSV was written: {output}",
                        failed.error
                    ));
                }
                (failed.recording, failed.csv, Some(failed.error))
            }
        };
        if let Some(last) = recording.len().checked_sub(1) {
            summary.final_values = (recording.columns.iter().map(|c| c.name.clone()))
                .zip(recording.row(last).iter().copied())
                .collect();
        }
        let committed = match staged {
            Some(file) if summary.rows > 0 || error.is_none() => {
                commit_run_outputs(vec![file], inputs).map(|()| Some(path))
            }
            _ => Ok(None),
        };
        match (committed, error) {
            (Ok(csv), error) => {
                summary.csv = csv;
                error.map_or(Ok(()), |e| Err(e.to_string()))
            }
            (Err(output), None) => Err(output.to_string()),
            (Err(output), Some(error)) => {
                Err(format!("{error}\n  note: no CSV was written: {output}"))
            }
        }
    }

    /// Writes the summary's header and one row per point (see the module documentation).
    fn write_summary(
        &self,
        w: &mut dyn Write,
        columns: &[String],
        points: &[PointSummary],
    ) -> io::Result<()> {
        let fixed = [
            "status",
            "steps",
            "rejected_steps",
            "function_evaluations",
            "zero_crossings",
            "method_switches",
            "rows",
            "final_time",
        ];
        let paths = self.plan().axes().iter().map(|a| a.path.as_str());
        let header = std::iter::once("index")
            .chain(paths)
            .chain(fixed)
            .chain(columns.iter().map(String::as_str))
            .chain(["message"]);
        write_fields(w, header)?;
        for point in points {
            write_fields(w, summary_row(point, columns).iter().map(String::as_str))?;
        }
        Ok(())
    }
}

/// One summary row's fields, in the header's order.
fn summary_row(point: &PointSummary, columns: &[String]) -> Vec<String> {
    let mut fields = vec![point.index.to_string()];
    fields.extend(point.values.iter().cloned());
    let (status, message) = match &point.status {
        PointStatus::Ok => ("ok", ""),
        PointStatus::Failed(message) => ("failed", message.as_str()),
    };
    fields.push(status.to_string());
    match &point.stats {
        Some(s) => fields.extend(
            [
                s.steps,
                s.rejected_steps,
                s.function_evaluations,
                s.zero_crossings,
                s.method_switches,
            ]
            .map(|n| n.to_string()),
        ),
        None => fields.extend(std::iter::repeat_n(String::new(), 5)),
    }
    fields.push(point.rows.to_string());
    let number = |x: Option<f64>| x.map(|x| CsvNumber(x).to_string()).unwrap_or_default();
    fields.push(number(point.final_time));
    for column in columns {
        let value = point.final_values.iter().find(|(name, _)| name == column);
        fields.push(number(value.map(|&(_, v)| v)));
    }
    // One line per row, so that shell tools (sort, grep, tail) see one point per line.
    let one_line: Vec<&str> = message.lines().map(str::trim).collect();
    fields.push(one_line.join("; "));
    fields
}

/// Writes one CSV line of text fields (quoted where they need it).
fn write_fields<'a>(w: &mut dyn Write, fields: impl Iterator<Item = &'a str>) -> io::Result<()> {
    for (k, field) in fields.enumerate() {
        if k > 0 {
            w.write_all(b",")?;
        }
        write_field(w, field)?;
    }
    w.write_all(b"\n")
}
