//! Sweeps: one model run at every combination of parameter values (`blockdyn sweep`, see
//! `docs/sweep.md`).
//!
//! A [`SweepPlan`] numbers the combinations of the `--vary` lists; a [`Shard`] takes a slice of
//! them. A [`Sweep`] parses the model file once and, for each point, builds the diagram from a
//! clone of the parsed document with the point's overrides applied (the same path as `--set`),
//! then simulates it. Points run on [`RunSettings::jobs`] threads that take the next point from a
//! shared counter. Each point's run is independent of the others and deterministic, so its
//! results do not depend on the number of threads or on which thread ran it (bit for bit).
//!
//! [`Sweep::check`] makes every point's model before any runs (compiling its parameter set when
//! it shares the model built once, building it otherwise), so that a bad `--vary` (an unknown
//! block or parameter, a value out of range, a combination the blocks refuse) is reported before
//! the first run starts. [`Sweep::run_into`] (in [`directory`]) writes each point's CSV and the
//! summary into a directory; [`Sweep::run_in_memory`] keeps each point's rows in memory.

pub mod directory;
pub mod out_dir;
pub mod plan;
pub mod plan_manifest;

pub use directory::{DirectoryRun, PointStatus, PointSummary, SweepReport, LISTED_FAILURES};
pub use out_dir::summary_file_name;
pub use plan::{split_values, PlanError, Shard, SplitError, SweepPlan, VaryAxis, MAX_SWEEP_POINTS};

use crate::diagram::parameters::ParameterSet;
use crate::diagram::Diagram;
use crate::library::Registry;
use crate::model::{Diagnostic, Document, Override};
use crate::output::OutputError;
use crate::sim::{simulate_keeping_rows, FailedRun, RunOptions, RunResult};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};

/// Why a sweep cannot start or finish.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// A `--vary` list or `--shard` that cannot be read.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The model file cannot be read or parsed.
    #[error("{0}")]
    Model(Diagnostic),
    /// Point `index` cannot be built: the message `--set` would give for the same overrides
    /// (with `--vary` named instead of `--set` for the varied ones).
    #[error("{source}\n  note: in sweep point {index} ({})", shown(assignments))]
    Point {
        /// The point's global index.
        index: usize,
        /// The point's overrides (shown `PATH=VALUE, ...`).
        assignments: Vec<Override>,
        /// What building it said.
        source: Box<Diagnostic>,
    },
    /// The output directory cannot be created.
    #[error("cannot create the output directory '{}': {source}", dir.display())]
    OutputDirectory {
        /// The directory.
        dir: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The summary cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// `--out` holds files, and `--overwrite` was not given.
    #[error("--out '{}' is not empty: it holds {}{}\n  help: choose an empty or new directory, or pass --overwrite to replace the outputs of an earlier sweep of the same --vary plan there (a file that is not that sweep's output is never replaced)", dir.display(), entries.iter().map(|e| format!("'{e}'")).collect::<Vec<_>>().join(", "), if *more > 0 { format!(" and {more} more") } else { String::new() })]
    DirectoryNotEmpty {
        /// The directory.
        dir: PathBuf,
        /// The first entries in the way.
        entries: Vec<String>,
        /// How many more there are.
        more: usize,
    },
    /// A file this sweep would write exists and is not a sweep's output.
    #[error("cannot write '{}': the file is there and is not the output of a sweep (a run CSV starts with a 'time,...' header, a summary with this sweep's 'index,...' header), so it is not replaced, even with --overwrite\n  help: move the file away, or choose another --out directory", path.display())]
    NotASweepOutput {
        /// The file.
        path: PathBuf,
    },
    /// `--overwrite` into a directory whose manifest is another plan's.
    #[error("--out '{}' holds the outputs of another sweep plan ({theirs}), not of this one ({ours}): --overwrite replaces only the outputs of the same plan\n  help: choose another --out directory, or move the earlier sweep's files away first", dir.display())]
    OtherPlan {
        /// The directory.
        dir: PathBuf,
        /// The other plan, from its manifest: `<digest>, --vary <lists>`.
        theirs: String,
        /// This plan, the same way.
        ours: String,
    },
    /// `--overwrite` into a directory holding recognised outputs with no manifest.
    #[error("--out '{}' holds {}{} with no {} recording which sweep plan wrote them, so --overwrite does not replace them (a file that merely starts like a sweep's output may be the user's)\n  help: choose another --out directory, or move these files away first", dir.display(), entries.iter().map(|e| format!("'{e}'")).collect::<Vec<_>>().join(", "), if *more > 0 { format!(" and {more} more") } else { String::new() }, plan_manifest::MANIFEST_FILE)]
    UnrecordedOutputs {
        /// The directory.
        dir: PathBuf,
        /// The first such files.
        entries: Vec<String>,
        /// How many more there are.
        more: usize,
    },
    /// Points failed or did not run (see [`SweepReport::failures`]).
    #[error("{}", points_failed(*.failed, *.planned, *.not_run, summary, listed))]
    PointsFailed {
        /// Points whose run failed.
        failed: usize,
        /// Points of the run (the shard's).
        planned: usize,
        /// Points not started because of an interrupt.
        not_run: usize,
        /// The summary file, which has every failure's message.
        summary: PathBuf,
        /// The first failures: (point, the first line of its message).
        listed: Vec<(usize, String)>,
    },
}

/// Overrides as a message quotes them: `PATH=VALUE, ...`, each as the user gave it.
fn shown(overrides: &[Override]) -> String {
    overrides
        .iter()
        .map(Override::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text of [`SweepError::PointsFailed`].
fn points_failed(
    failed: usize,
    planned: usize,
    not_run: usize,
    summary: &Path,
    listed: &[(usize, String)],
) -> String {
    let mut text = format!(
        "{failed} of {planned} sweep points failed (see the message column of {})",
        summary.display()
    );
    if not_run > 0 {
        text.push_str(&format!("; {not_run} did not run (interrupted)"));
    }
    for (index, why) in listed {
        text.push_str(&format!("\n  point {index}: {why}"));
    }
    if failed > listed.len() {
        text.push_str(&format!("\n  and {} more", failed - listed.len()));
    }
    text
}

/// How points are run.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// Threads running points at once (the calling thread alone when 1).
    pub jobs: NonZeroUsize,
    /// Once set, no further point starts, and the runs under way stop at their next step
    /// (each with [`crate::SimError::Interrupted`], its rows kept).
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl RunSettings {
    /// `jobs` threads, no interrupt.
    pub fn with_jobs(jobs: NonZeroUsize) -> RunSettings {
        RunSettings {
            jobs,
            interrupt: None,
        }
    }

    /// The machine's available parallelism (1 when unknown), no interrupt.
    pub fn all_cores() -> RunSettings {
        RunSettings::with_jobs(std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN))
    }

    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// What [`Sweep::check`] learned from making the points' models.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The model's name (`[model] name`, else the file's stem), from point 0.
    pub name: String,
    /// The recorded columns of point 0 (global point 0, whatever the shard): the final-value
    /// columns of the summary, the same in every shard.
    pub columns: Vec<String>,
    /// The distinct build warnings of the points, in point order.
    pub warnings: Vec<String>,
    /// The files point 0 reads (the model, its URDFs and meshes): never an output.
    pub inputs: Vec<PathBuf>,
}

/// One point's run kept in memory ([`Sweep::run_in_memory`]).
pub struct PointRun {
    /// The point's global index.
    pub index: usize,
    /// The run, or the failed run with the rows it recorded.
    pub result: Result<RunResult, Box<FailedRun>>,
}

/// A model parsed once, overrides applied to every point, and the plan of points.
#[derive(Clone)]
pub struct Sweep {
    document: Document,
    fixed: Vec<Override>,
    plan: SweepPlan,
    /// The block types the points are built with (the standard library unless
    /// [`Sweep::with_registry`] says otherwise).
    registry: Registry,
    /// The model built once with the fixed overrides (`None` when that fails: every point is
    /// then built on its own), shared by the points whose varied values a [`ParameterSet`] can
    /// carry.
    base: Arc<OnceLock<Option<Base>>>,
}

impl std::fmt::Debug for Sweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sweep")
            .field("model", &self.document.source.path)
            .field("fixed", &self.fixed)
            .field("plan", &self.plan)
            .finish_non_exhaustive()
    }
}

/// The model built once with the fixed overrides, shared by the points a parameter set carries:
/// the blueprint their sets are made with, and the diagram they run.
type Base = (Arc<crate::Blueprint>, Arc<Diagram>);

/// The model of one point: the shared base diagram with a parameter set, or a diagram built
/// for the point alone.
pub struct PointModel {
    /// The diagram the point runs.
    pub diagram: Arc<Diagram>,
    /// The point's varied values as run-time parameters, when `diagram` is the shared one.
    pub parameters: Option<Arc<ParameterSet>>,
}

impl PointModel {
    /// The warnings of the point's model: those of its parameter set, else its diagram's.
    pub fn warnings(&self) -> &[String] {
        match &self.parameters {
            Some(set) => set.warnings(),
            None => &self.diagram.warnings,
        }
    }

    /// [`RunOptions`] with the point's parameters (everything else default).
    pub fn options(&self) -> RunOptions {
        RunOptions {
            parameters: self.parameters.clone(),
            ..RunOptions::default()
        }
    }
}

// Points are built and run on several threads from one shared `Sweep`.
const _: () = {
    const fn shared_between_threads<T: Send + Sync>() {}
    shared_between_threads::<Sweep>();
    shared_between_threads::<Diagram>();
};

impl Sweep {
    /// A sweep of `document` over `plan`; `fixed` overrides apply to every point, before the
    /// point's own.
    pub fn new(document: Document, fixed: Vec<Override>, plan: SweepPlan) -> Sweep {
        Sweep {
            document,
            fixed,
            plan,
            registry: Registry::standard().clone(),
            base: Arc::new(OnceLock::new()),
        }
    }

    /// The same sweep with the block types of `registry` (a program's own types included).
    pub fn with_registry(mut self, registry: Registry) -> Sweep {
        self.registry = registry;
        self.base = Arc::new(OnceLock::new());
        self
    }

    /// Point `index`'s model. When every value it varies is a block parameter that a
    /// [`ParameterSet`] can carry (see [`crate::diagram::parameters`]), the point shares the
    /// model built once and runs with the set: no parse, no build, no schedule per point. Other
    /// points (a varied solver setting, a geometry's size or place, a value that changes a
    /// block's structure or a port's shape) are built on their own with [`Sweep::build_point`]. Both give the same run,
    /// bit for bit (`tests/parameters.rs`).
    pub fn point_model(&self, index: usize) -> Result<PointModel, SweepError> {
        let base = self.base.get_or_init(|| {
            crate::build_model_parts(self.document.clone(), &self.fixed, &self.registry)
                .ok()
                .map(|(blueprint, diagram)| (Arc::new(blueprint), Arc::new(diagram)))
        });
        if let Some((blueprint, diagram)) = base {
            if let Ok(set) = blueprint.parameters(diagram, &self.plan.overrides(index)) {
                return Ok(PointModel {
                    diagram: diagram.clone(),
                    parameters: Some(Arc::new(set)),
                });
            }
        }
        Ok(PointModel {
            diagram: Arc::new(self.build_point(index)?),
            parameters: None,
        })
    }

    /// Reads and parses the model file `model` (once) for a sweep; see [`Sweep::new`].
    pub fn load(model: &Path, fixed: Vec<Override>, plan: SweepPlan) -> Result<Sweep, SweepError> {
        let document = Document::load(model).map_err(SweepError::Model)?;
        Ok(Sweep::new(document, fixed, plan))
    }

    /// The plan of points.
    pub fn plan(&self) -> &SweepPlan {
        &self.plan
    }

    /// Builds point `index`'s diagram: a clone of the parsed document, the fixed overrides, then
    /// the point's.
    pub fn build_point(&self, index: usize) -> Result<Diagram, SweepError> {
        let varied = self.plan.overrides(index);
        let overrides: Vec<Override> = self.fixed.iter().chain(&varied).cloned().collect();
        crate::build_model_with(self.document.clone(), &overrides, &self.registry).map_err(
            |mut d| {
                name_vary_options(&mut d, &varied);
                SweepError::Point {
                    index,
                    assignments: varied,
                    source: Box::new(d),
                }
            },
        )
    }

    /// Checks every point of `points` (on `settings.jobs` threads) before any runs, and reports
    /// the first that cannot be made, in point order; see [`Checked`]. A point that shares the
    /// model built once is checked by compiling its [`ParameterSet`] (which makes the blocks it
    /// addresses again and checks them), the others by building them: so each point is checked
    /// exactly as [`Sweep::point_model`] will make it, and a sweep over a contact's stiffness
    /// builds the model once, not once per point.
    pub fn check(&self, points: &[usize], settings: &RunSettings) -> Result<Checked, SweepError> {
        let first = self.point_model(0)?;
        let model_error =
            |e: crate::sim::SimError| SweepError::Model(Diagnostic::new(e.to_string()));
        let recorder = crate::sim::Recorder::streaming(
            &first.diagram,
            crate::sim::StreamTo {
                csv: None,
                plot: false,
                size_warning: None,
            },
        )
        .map_err(model_error)?;
        // The output budget, before anything is written: point 0's (a point that varies an
        // `[output]` or `[solver]` setting is checked again when it runs).
        let d = &first.diagram;
        crate::sim::budget::check(
            d,
            recorder.row_setting(),
            recorder.num_columns(),
            d.run.stop_time,
        )
        .map_err(|over| model_error(over.into()))?;
        let columns = (recorder.recording.columns.into_iter())
            .map(|c| c.name)
            .collect();
        let built = parallel_map(
            points.len(),
            &RunSettings::with_jobs(settings.jobs),
            |k| self.point_model(points[k]).map(|m| m.warnings().to_vec()),
            |_| {},
        );
        let mut warnings: Vec<String> = first.warnings().to_vec();
        for result in built.into_iter().flatten() {
            for w in result? {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
        }
        Ok(Checked {
            name: first.diagram.run.name.clone(),
            columns,
            warnings,
            inputs: first.diagram.input_files.clone(),
        })
    }

    /// Runs `points` on `settings.jobs` threads, each with [`RunOptions::default`] (every row
    /// kept in memory), and returns them in the order of `points`. Points not started because of
    /// [`RunSettings::interrupt`] are left out. Call [`Sweep::check`] first: a point that cannot
    /// be built makes the whole call fail, after the others ran.
    pub fn run_in_memory(
        &self,
        points: &[usize],
        settings: &RunSettings,
    ) -> Result<Vec<PointRun>, SweepError> {
        let runs = parallel_map(
            points.len(),
            settings,
            |k| {
                let index = points[k];
                let model = self.point_model(index)?;
                let options = RunOptions {
                    interrupt: settings.interrupt.clone(),
                    ..model.options()
                };
                let result = simulate_keeping_rows(&model.diagram, options);
                Ok(PointRun { index, result })
            },
            |_| {},
        );
        runs.into_iter().flatten().collect()
    }
}

/// Says `--vary` where the message of a point's diagram names one of its varied overrides as
/// `--set '...'` (the words the shared override path uses).
fn name_vary_options(d: &mut Diagnostic, varied: &[Override]) {
    for o in varied {
        d.message = d
            .message
            .replace(&format!("--set '{o}'"), &format!("--vary '{o}'"));
    }
    for more in &mut d.more {
        name_vary_options(more, varied);
    }
}

/// Calls `work(k)` for every k in 0..count on `settings.jobs` threads (on the calling thread
/// alone when that is 1), each thread taking the next k from a shared counter. Each result is
/// handed to `done` on the calling thread, between its own points and after its last; the
/// results are returned in k order. Once [`RunSettings::interrupt`] is set no further k starts;
/// those left are `None`.
///
/// The calling thread is one of the `jobs` threads (`jobs − 1` are spawned): with a thread that
/// only waited for results, `jobs` cores would run `jobs + 1` threads, and each result's wake-up
/// would preempt a worker and move threads between cores (about four context switches per point
/// of the ball-drop sweep, measured with `perf stat`).
fn parallel_map<T: Send>(
    count: usize,
    settings: &RunSettings,
    work: impl Fn(usize) -> T + Sync,
    mut done: impl FnMut(&T),
) -> Vec<Option<T>> {
    let mut results: Vec<Option<T>> = (0..count).map(|_| None).collect();
    let threads = settings.jobs.get().min(count);
    if threads <= 1 {
        for (k, slot) in results.iter_mut().enumerate() {
            if settings.interrupted() {
                break;
            }
            let value = work(k);
            done(&value);
            *slot = Some(value);
        }
        return results;
    }
    let next = AtomicUsize::new(0);
    let take = || {
        let k = next.fetch_add(1, Ordering::Relaxed);
        (k < count && !settings.interrupted()).then_some(k)
    };
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 1..threads {
            let sender = sender.clone();
            let (take, work) = (&take, &work);
            scope.spawn(move || {
                while let Some(k) = take() {
                    if sender.send((k, work(k))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut keep = |(k, value): (usize, T)| {
            done(&value);
            results[k] = Some(value);
        };
        while let Some(k) = take() {
            let value = work(k);
            // The workers' results that ended during this point first: they ended before it.
            receiver.try_iter().for_each(&mut keep);
            keep((k, value));
        }
        receiver.into_iter().for_each(keep);
    });
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_map_returns_every_result_in_order() {
        for jobs in [1, 2, 5] {
            let settings = RunSettings::with_jobs(NonZeroUsize::new(jobs).unwrap());
            let mut seen = 0;
            let squares = parallel_map(10, &settings, |k| k * k, |_| seen += 1);
            assert_eq!(seen, 10);
            let squares: Vec<usize> = squares.into_iter().map(Option::unwrap).collect();
            assert_eq!(squares, (0..10).map(|k| k * k).collect::<Vec<_>>());
        }
    }

    #[test]
    fn an_interrupt_starts_no_further_work() {
        let flag = Arc::new(AtomicBool::new(false));
        let settings = RunSettings {
            jobs: NonZeroUsize::MIN,
            interrupt: Some(flag.clone()),
        };
        let results = parallel_map(
            5,
            &settings,
            |k| {
                if k == 1 {
                    flag.store(true, Ordering::Relaxed);
                }
                k
            },
            |_| {},
        );
        assert_eq!(results, [Some(0), Some(1), None, None, None]);
    }

    /// On 2 threads (the calling thread and one worker): once the flag is set, each thread ends
    /// at most the point it is running, so of 100 points only 0–3 and perhaps 4 ran, each result
    /// in its own slot, and every result was handed to `done` on the calling thread.
    #[test]
    fn an_interrupt_on_two_threads_starts_no_further_work() {
        let flag = Arc::new(AtomicBool::new(false));
        let settings = RunSettings {
            jobs: NonZeroUsize::new(2).unwrap(),
            interrupt: Some(flag.clone()),
        };
        let caller = std::thread::current().id();
        let mut handed = 0;
        let results = parallel_map(
            100,
            &settings,
            |k| {
                if k == 3 {
                    flag.store(true, Ordering::SeqCst);
                }
                // A later point ends only after the flag is set (point 3 was taken before it,
                // so the flag comes), whatever the scheduling.
                while k > 3 && !flag.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
                k
            },
            |_| {
                assert_eq!(std::thread::current().id(), caller);
                handed += 1;
            },
        );
        let ran: Vec<usize> = results.iter().flatten().copied().collect();
        assert!((4..=5).contains(&ran.len()), "{ran:?}");
        assert!(results
            .iter()
            .enumerate()
            .all(|(k, r)| r.is_none_or(|v| v == k)));
        assert!(results[..4].iter().all(Option::is_some), "{results:?}");
        assert_eq!(handed, ran.len());
    }
}
