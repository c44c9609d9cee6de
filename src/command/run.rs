//! `blockdyn run`: load a model, check every output path, simulate, and commit the outputs (CSV,
//! plot, animation, viewer page) together or not at all.
//!
//! Before the run: every output path is checked ([`crate::output::target`]: no input of the run,
//! no device, FIFO or socket, no trailing `/`), and the run's output volume is projected against
//! the output budget ([`crate::sim::budget`]). During the run the CSV streams into a staged file.
//! After it, the plot and the animation are staged beside it and all are committed at once; when
//! any of them fails (a full disk, an encoder error), none is, and the old files stay.
//!
//! A failed run still commits the rows it recorded; its message ends with a note saying what was
//! really written (or that nothing was, and why).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::diagram::Diagram;
use crate::model::Diagnostic;
use crate::output::stats::{Forecasts, MethodSwitches, RunSummary};
use crate::output::{InputFiles, OutputError, StagedFile};
use crate::plot::PlotError;
use crate::render::AnimationError;
use crate::sim::{FailedRun, RunResult, SimError};

/// What `blockdyn run` is asked to do.
pub struct RunRequest<'a> {
    /// The model file.
    pub model: &'a Path,
    /// `--csv`, `--plot`, `--animate` (each overrides `[output]`).
    pub csv: Option<PathBuf>,
    /// The plot (PNG).
    pub plot: Option<PathBuf>,
    /// The animation (GIF).
    pub animation: Option<PathBuf>,
    /// The viewer page (HTML, `--view`).
    pub view: Option<PathBuf>,
    /// `--stop-time`.
    pub stop_time: Option<f64>,
    /// The `--set PATH=VALUE` overrides, read.
    pub set: &'a [crate::Override],
    /// No progress bar.
    pub quiet: bool,
    /// Set by a signal handler: the run stops at its next step and writes its rows.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Prints a warning (the model's, the CSV size's).
    pub warn: fn(&str),
}

/// Why `blockdyn run` failed.
#[derive(Debug, thiserror::Error)]
pub enum RunCommandError {
    /// `--stop-time` is not a positive number.
    #[error("--stop-time must be a positive number of seconds, not {0}")]
    BadStopTime(f64),
    /// The model cannot be loaded or built.
    #[error("{0}")]
    Model(#[from] Diagnostic),
    /// An animation of a model that has nothing to draw.
    #[error("cannot animate '{}': the model has no mechanism (no Solid, joint or geometry block) to draw", .0.display())]
    NothingToAnimate(PathBuf),
    /// A viewer page of a model that has nothing to draw.
    #[error("cannot write the viewer '{}': the model has no mechanism (no Solid, joint or geometry block) to draw", .0.display())]
    NothingToView(PathBuf),
    /// The viewer page cannot be made.
    #[error(transparent)]
    View(#[from] crate::view::ViewError),
    /// An output path is refused, or an output could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The plot cannot be made.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// The animation cannot be made.
    #[error(transparent)]
    Animation(#[from] AnimationError),
    /// The run failed (or could not start); `note` says what was written.
    #[error("{error}{note}")]
    Run {
        /// Why the run stopped.
        error: Box<SimError>,
        /// Empty, or a line starting with a newline: "  note: ...".
        note: String,
    },
}

/// What a finished run wrote, for its report.
pub struct RunReport {
    /// The model's name.
    pub name: String,
    /// The summary line (steps, time, ...).
    pub line: String,
    /// The files written, as `(kind, path)`: "csv", "plot", "view".
    pub files: Vec<(&'static str, PathBuf)>,
    /// The animation written: path, frames, interval (s).
    pub animation: Option<(PathBuf, usize, f64)>,
}

impl RunReport {
    /// The report's text: the summary line, then each file.
    pub fn text(&self) -> String {
        let mut text = format!("{}: {}\n", self.name, self.line);
        for (what, p) in &self.files {
            text.push_str(&format!("  {what}: {}\n", p.display()));
        }
        if self.files.is_empty() && self.animation.is_none() {
            text.push_str(crate::report::NOTHING_WRITTEN);
        }
        if let Some((p, frames, interval)) = &self.animation {
            text.push_str(&format!(
                "  animation: {} ({frames} frames, one every {interval} s of simulated time)\n",
                p.display(),
            ));
        }
        text
    }
}

/// The output paths of a run: the options', else `[output]`'s.
struct Targets {
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
    animation: Option<PathBuf>,
    view: Option<PathBuf>,
    /// The files the run reads, checked again when the outputs are committed.
    inputs: InputFiles,
}

impl Targets {
    fn list(&self) -> Vec<(&'static str, &Path)> {
        [
            ("CSV", &self.csv),
            ("plot", &self.plot),
            ("animation", &self.animation),
            ("view", &self.view),
        ]
        .into_iter()
        .filter_map(|(what, p)| p.as_deref().map(|p| (what, p)))
        .collect()
    }
}

/// Runs `blockdyn run`; see the module documentation.
pub fn run_model(request: RunRequest<'_>) -> Result<RunReport, RunCommandError> {
    if let Some(t) = request.stop_time {
        if !(t > 0.0 && t.is_finite()) {
            return Err(RunCommandError::BadStopTime(t));
        }
    }
    let d = crate::load_model_drawn(
        request.model,
        request.set,
        request.animation.as_deref(),
        request.view.as_deref(),
    )?;
    for w in &d.warnings {
        (request.warn)(w);
    }
    let out = &d.run.output;
    let spec_path = |p: &Option<String>| p.as_ref().map(PathBuf::from);
    let targets = Targets {
        csv: request.csv.or_else(|| spec_path(&out.csv)),
        plot: request.plot.or_else(|| spec_path(&out.plot)),
        animation: request.animation.or_else(|| spec_path(&out.animation.path)),
        view: request.view.or_else(|| spec_path(&out.animation.view)),
        inputs: InputFiles::new(request.model, &d.input_files),
    };
    if targets.animation.is_some() && d.scene.is_none() {
        return Err(RunCommandError::NothingToAnimate(
            request.model.to_path_buf(),
        ));
    }
    if targets.view.is_some() && d.scene.is_none() {
        return Err(RunCommandError::NothingToView(request.model.to_path_buf()));
    }
    if d.scene.is_some() && (targets.animation.is_some() || targets.view.is_some()) {
        for w in &d.run.output.drawn_frames.unknown {
            (request.warn)(w);
        }
    }
    // Bad output paths are reported before the run, not after it.
    crate::output::check_outputs(&targets.inputs, &targets.list())?;
    if let Some(p) = &targets.plot {
        crate::plot::check_format(p)?;
    }
    let stop = request.stop_time.unwrap_or(d.run.stop_time);
    let progress = (!request.quiet).then(|| {
        crate::progress::reporter(stop, std::io::IsTerminal::is_terminal(&std::io::stderr()))
    });
    let csv_file = targets
        .csv
        .as_deref()
        .map(|p| StagedFile::create(p, "CSV"))
        .transpose()?;
    let warn = request.warn;
    let run = crate::simulate_keeping_rows(
        &d,
        crate::RunOptions {
            stop_time: request.stop_time,
            progress,
            animation_rate: (targets.animation.is_some() || targets.view.is_some())
                .then_some(out.animation.fps),
            stream: Some(crate::sim::StreamTo {
                csv: csv_file,
                // The viewer plots the plot's rows too.
                plot: targets.plot.is_some() || targets.view.is_some(),
                size_warning: Some(crate::sim::SizeWarning::new(
                    crate::sim::CSV_WARNING_BYTES,
                    Box::new(move |message| warn(&message)),
                )),
            }),
            interrupt: request.interrupt,
            ..Default::default()
        },
    );
    match run {
        Ok(result) => {
            for (block, note) in &result.notes {
                (request.warn)(&format!("block '{block}': {note}"));
            }
            if let Some(row) = &result.non_finite_row {
                // Port names and element indices hold no '.': the last '.' ends the block's name.
                let block = row.column.rsplit_once('.').map_or(&*row.column, |(b, _)| b);
                (request.warn)(&format!(
                    "column '{}' is NaN or infinite from t = {} s (its first non-finite row; later rows may be too): block '{block}', which computes it, produced it\n  help: check that block's expression, parameters and inputs near that time (a division by zero, a log or sqrt of a negative number)",
                    row.column, row.time
                ));
            }
            finish_run(&d, result, &targets, request.warn)
        }
        Err(failed) => Err(finish_failed_run(&d, *failed, &targets)),
    }
}

/// Commits a finished run's outputs and reports them.
fn finish_run(
    d: &Diagram,
    result: RunResult,
    targets: &Targets,
    warn: fn(&str),
) -> Result<RunReport, RunCommandError> {
    let line = summary_line(&result, &crate::sim::solver_options(d));
    let drawn = Drawn {
        animation: result.animation,
        events: &result.events,
        events_dropped: result.events_dropped,
    };
    let staged = stage_outputs(d, result.csv, &result.recording, drawn, targets)?;
    crate::output::commit_run_outputs(staged.files, &targets.inputs)?;
    staged.warnings.iter().for_each(|w| warn(w));
    let files = [
        ("csv", &targets.csv),
        ("plot", &targets.plot),
        ("view", &targets.view),
    ]
    .into_iter()
    .filter_map(|(what, p)| p.clone().map(|p| (what, p)))
    .collect();
    Ok(RunReport {
        name: d.run.name.clone(),
        line,
        files,
        animation: targets
            .animation
            .clone()
            .zip(staged.frames)
            .map(|(p, (frames, interval))| (p, frames, interval)),
    })
}

/// A failed run's error, with a note on what was written: its rows when it recorded any and
/// every output could be staged, else nothing (and why).
fn finish_failed_run(d: &Diagram, failed: FailedRun, targets: &Targets) -> RunCommandError {
    let wanted = !targets.list().is_empty();
    let note = |text: String| format!("\n  note: {text}");
    let error = failed.error;
    if let Some(output) = failed.output_error {
        return RunCommandError::Run {
            error: Box::new(error),
            note: note(format!("no output was written: {output}")),
        };
    }
    if let SimError::Output(_) = error {
        return RunCommandError::Run {
            error: Box::new(error),
            note: note(
                "no output was written (a run's outputs are committed together or not at all; the old files are kept)"
                    .into(),
            ),
        };
    }
    if matches!(error, SimError::OutputBudget { .. }) || !wanted {
        return RunCommandError::Run {
            error: Box::new(error),
            note: String::new(),
        };
    }
    if failed.rows == 0 {
        return RunCommandError::Run {
            error: Box::new(error),
            note: note("no output was written: the run recorded no row".into()),
        };
    }
    let (rows, last_time) = (failed.rows, failed.last_time.unwrap_or(0.0));
    let drawn = Drawn {
        animation: failed.animation,
        events: &failed.events,
        events_dropped: 0,
    };
    let committed = stage_outputs(d, failed.csv, &failed.recording, drawn, targets)
        .map_err(|e| e.to_string())
        .and_then(|staged| {
            crate::output::commit_run_outputs(staged.files, &targets.inputs)
                .map(|()| staged.frames)
                .map_err(|e| e.to_string())
        });
    let text = match committed {
        Err(output) => format!("no output was written: {output}"),
        Ok(frames) => {
            let mut written: Vec<String> = Vec::new();
            for (what, p) in [
                ("CSV", &targets.csv),
                ("plot", &targets.plot),
                ("viewer", &targets.view),
            ] {
                if let Some(p) = p {
                    written.push(format!("{what} '{}'", p.display()));
                }
            }
            if let (Some(p), Some((n, _))) = (&targets.animation, frames) {
                written.push(format!("animation '{}' ({n} frames)", p.display()));
            }
            format!(
                "a partial run: the {rows} rows recorded up to t = {} s were written: {}",
                crate::sim::readable_time(&last_time),
                written.join(", ")
            )
        }
    };
    RunCommandError::Run {
        error: Box::new(error),
        note: note(text),
    }
}

/// The summary line of a finished run.
fn summary_line(result: &RunResult, solver: &crate::solver::SolverOptions) -> String {
    let stats = &result.stats;
    let switches = (solver.method == crate::solver::Method::Auto).then(|| MethodSwitches {
        count: stats.method_switches as u64,
        explicit: (
            crate::solver::Method::Dopri5.name(),
            stats.explicit_steps as u64,
        ),
        implicit: (solver.stiff_method().name(), stats.implicit_steps as u64),
    });
    RunSummary {
        simulated_time: stats.final_time,
        steps: stats.steps as u64,
        rejected_steps: stats.rejected_steps as u64,
        function_evaluations: stats.function_evaluations as u64,
        zero_crossings: stats.zero_crossings as u64,
        wall_time: result.wall_time,
        switches,
        forecasts: Forecasts {
            foreseen_steps: stats.foreseen_steps as u64,
            misses: stats.forecast_misses as u64,
        },
    }
    .to_string()
        + &island_line(result.islands.as_ref())
}

/// The summary's line about islands (`[solver] islands = true`): their counts, or why the run
/// integrated globally; empty with islands off.
fn island_line(islands: Option<&Result<crate::sim::IslandStats, crate::sim::NoIslands>>) -> String {
    match islands {
        None => String::new(),
        Some(Err(why)) => format!("\nislands: not used ({why}): integrated globally"),
        Some(Ok(s)) => {
            const SHOWN: usize = 8;
            let mut per: Vec<String> = s
                .steps_per_island
                .iter()
                .take(SHOWN)
                .map(|(body, steps)| format!("{body}: {steps}"))
                .collect();
            if s.steps_per_island.len() > SHOWN {
                per.push(format!("… {} more", s.steps_per_island.len() - SHOWN));
            }
            format!(
                "\nislands: {} at the start, {} at the end (fewest {}, most {}); {} syncs, {} repartitions; {:.0} full-evaluation equivalents; zero-crossing functions per island at most {} of {} ({} shared); steps by lowest body: {}",
                s.initial_islands,
                s.final_islands,
                s.min_islands,
                s.max_islands,
                s.syncs,
                s.repartitions,
                s.evaluation_equivalents,
                s.max_island_crossings,
                s.crossings,
                s.shared_crossings,
                per.join(", ")
            )
        }
    }
}

/// A run's output files, written into temporary files and not yet committed.
struct StagedOutputs {
    files: Vec<StagedFile>,
    /// Warnings about the files (a viewer page over its size budget).
    warnings: Vec<String>,
    /// The animation's frame count and interval, when one was written.
    frames: Option<(usize, f64)>,
}

/// What a run drew: its animation frames (when asked for) and its located events.
struct Drawn<'a> {
    animation: Option<crate::render::Animation>,
    events: &'a [crate::sim::LocatedEvent],
    events_dropped: usize,
}

/// Stages the CSV (streamed during the run), the plot, the animation and the viewer page of a
/// run, or of the rows a failed run recorded. On an error the staged files are dropped: their
/// temporaries removed.
fn stage_outputs(
    d: &Diagram,
    csv: Option<StagedFile>,
    recording: &crate::output::Recording,
    drawn: Drawn<'_>,
    targets: &Targets,
) -> Result<StagedOutputs, RunCommandError> {
    let animation = drawn.animation;
    let mut files: Vec<StagedFile> = csv.into_iter().collect();
    if let Some(path) = &targets.plot {
        let options = crate::plot::PlotOptions {
            title: Some(d.run.name.clone()),
            ..Default::default()
        };
        let image = crate::plot::render_rgb(recording, path, &options)?;
        let mut file = StagedFile::create(path, "plot")?;
        crate::plot::encode_png(&image, file.writer())
            .map_err(|e| file.error("writing failed", e))?;
        files.push(file);
    }
    let mut frames = None;
    let mut warnings = Vec::new();
    if let (Some(path), Some(anim)) = (&targets.animation, &animation) {
        let settings = &d.run.output.animation;
        let options = crate::render::RenderOptions {
            width: settings.size[0],
            height: settings.size[1],
            camera: settings.camera,
            playback_rate: settings.fps,
            time_label: true,
        };
        let bytes =
            crate::render::encode_gif(anim, &options).map_err(|source| AnimationError::Render {
                path: path.clone(),
                source,
            })?;
        let mut file = StagedFile::create(path, "animation")?;
        file.writer()
            .write_all(&bytes)
            .map_err(|e| file.error("writing failed", e))?;
        files.push(file);
        frames = Some((anim.frames.len(), anim.frame_interval));
    }
    if let (Some(path), Some(anim)) = (&targets.view, &animation) {
        let data = crate::view::ViewData {
            title: &d.run.name,
            animation: anim,
            camera: d.run.output.animation.camera,
            recording,
            events: drawn.events,
            events_dropped: drawn.events_dropped,
        };
        let html = crate::view::page_html(&data, path)?;
        warnings.extend(crate::view::size_warning(
            path,
            html.len(),
            anim.frames.len(),
            anim.frame_interval,
        ));
        let mut file = StagedFile::create(path, "viewer")?;
        file.writer()
            .write_all(html.as_bytes())
            .map_err(|e| file.error("writing failed", e))?;
        files.push(file);
    }
    Ok(StagedOutputs {
        files,
        warnings,
        frames,
    })
}
