//! `blockdyn sweep`: parse the plan (refused past [`crate::sweep::MAX_SWEEP_POINTS`] before
//! anything is allocated), make every point, check the `--out` directory
//! ([`crate::sweep::out_dir`]), run the points and write the summary.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::output::stats::WallTime;
use crate::sweep::{
    DirectoryRun, PointStatus, PointSummary, RunSettings, Shard, Sweep, SweepError, SweepPlan,
};

/// What `blockdyn sweep` is asked to do.
pub struct SweepRequest<'a> {
    /// The model file.
    pub model: &'a Path,
    /// The `--vary` options.
    pub vary: &'a [String],
    /// The `--set` options, read, for every point.
    pub set: Vec<crate::Override>,
    /// `--jobs` (default: the available cores).
    pub jobs: Option<NonZeroUsize>,
    /// `--shard` (default: the whole sweep).
    pub shard: Option<Shard>,
    /// `--out`.
    pub out: PathBuf,
    /// `--overwrite`.
    pub overwrite: bool,
    /// No progress lines.
    pub quiet: bool,
    /// Installs the signal handler once every point is made; its flag stops the sweep.
    pub interrupt: fn() -> Option<Arc<AtomicBool>>,
    /// Prints a warning.
    pub warn: fn(&str),
    /// Prints a point's progress line.
    pub progress: fn(&str),
}

/// What a sweep that ran says.
pub struct SweepOutcome {
    /// The report: points run, failures, time, the summary's path, the stale files removed.
    pub report: String,
    /// [`SweepError::PointsFailed`] when a point failed or did not run.
    pub failures: Option<SweepError>,
}

/// Runs `blockdyn sweep`; see the module documentation.
pub fn run_sweep(request: SweepRequest<'_>) -> Result<SweepOutcome, SweepError> {
    let plan = SweepPlan::parse(request.vary)?;
    let sweep = Sweep::load(request.model, request.set, plan)?;
    let mut settings = RunSettings::all_cores();
    settings.jobs = request.jobs.unwrap_or(settings.jobs);
    let shard = request.shard.unwrap_or(Shard::WHOLE);
    let points = shard.points(sweep.plan().len());
    let checked = sweep.check(&points, &settings)?;
    for w in &checked.warnings {
        (request.warn)(w);
    }
    settings.interrupt = (request.interrupt)();
    let run = DirectoryRun {
        dir: request.out,
        shard,
        settings,
        overwrite: request.overwrite,
    };
    let started = std::time::Instant::now();
    let mut finished = 0;
    let report = sweep.run_into(&run, &checked, |point| {
        finished += 1;
        if !request.quiet {
            let name = sweep.csv_file_name(point.index);
            (request.progress)(&format!(
                "[{finished}/{}] {name}: {}",
                points.len(),
                point_outcome(point)
            ));
        }
    })?;
    let jobs = run.settings.jobs.get();
    let mut text = format!(
        "{}: {} of {} points ran ({} failed) in {} on {jobs} thread{}\n  summary: {}\n",
        checked.name,
        report.points.len(),
        report.planned,
        report.failed(),
        WallTime(started.elapsed()),
        if jobs == 1 { "" } else { "s" },
        report.summary.display()
    );
    if !report.removed.is_empty() {
        let names: Vec<String> = (report.removed.iter())
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        text.push_str(&format!(
            "  removed {} stale output{} of an earlier sweep: {}\n",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        ));
    }
    Ok(SweepOutcome {
        report: text,
        failures: report.failures(),
    })
}

/// How a point ended, for its progress line.
fn point_outcome(point: &PointSummary) -> String {
    match (&point.status, &point.stats) {
        (PointStatus::Ok, Some(stats)) => {
            format!("ok, {} steps, {}", stats.steps, WallTime(point.wall_time))
        }
        (PointStatus::Ok, None) => "ok".to_string(),
        (PointStatus::Failed(message), _) => {
            format!("FAILED: {}", message.lines().next().unwrap_or_default())
        }
    }
}
