//! The `blockdyn` command line: run, sweep, check, blocks, import, graph. Everything here is a library call;
//! this file only parses arguments and formats results and errors.

use blockdyn::library::Registry;
use blockdyn::output::stats::{MethodSwitches, RunSummary};
use blockdyn::output::StagedFile;
use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "blockdyn",
    version,
    about = "Block-diagram simulation of rigid-body mechanisms in contact"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate a model; write its recorded signals as CSV and PNG.
    Run {
        /// The model file (TOML).
        model: PathBuf,
        /// Write the recorded signals as CSV here (overrides [output] csv).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Plot the recorded signals as PNG here (overrides [output] plot).
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Write an animated GIF of the mechanism here (overrides [output] animation).
        #[arg(long, value_name = "PATH.gif")]
        animate: Option<PathBuf>,
        /// Simulated duration in seconds (overrides [model] stop_time).
        #[arg(long, allow_negative_numbers = true)]
        stop_time: Option<f64>,
        /// Override a parameter: --set block.param=value, --set solver.rel_tol=1e-8 (repeatable).
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Run a model at every combination of parameter values; write each run's CSV and a summary
    /// (no plots).
    #[command(long_about = SWEEP_HELP)]
    Sweep {
        /// The model file (TOML), parsed once.
        model: PathBuf,
        /// A parameter and its values: --vary block.param=V1,V2,... (repeatable; every
        /// combination runs, the last --vary varying fastest). Values are TOML values as --set
        /// takes them; an array or table is one value: --vary 'free.position=[0,0,1],[0,0,2]'.
        #[arg(long = "vary", value_name = "PATH=V1,V2,...", required = true)]
        vary: Vec<String>,
        /// Override a parameter for every point, as `run --set` does (repeatable).
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Points run at once, one thread each (default: the available cores).
        #[arg(long, value_name = "N")]
        jobs: Option<std::num::NonZeroUsize>,
        /// Run only the I-th (1-based) of N round-robin slices of the points: the points k with
        /// k mod N = I - 1 (for a cluster's array job).
        #[arg(long, value_name = "I/N")]
        shard: Option<blockdyn::sweep::Shard>,
        /// The directory of the CSVs and the summary (created when missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Validate a model and print the compiled diagram and advice.
    Check {
        model: PathBuf,
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
    },
    /// List the block library, or describe one block type.
    Blocks {
        /// A block type, e.g. Integrator.
        name: Option<String>,
        /// Print the whole library as Markdown (docs/blocks.md).
        #[arg(long)]
        markdown: bool,
    },
    /// Print the blocks a URDF robot expands to, as a model (TOML) on standard output.
    #[command(long_about = IMPORT_HELP)]
    Import {
        /// The URDF file.
        urdf: PathBuf,
        /// The Urdf block's name: the prefix of every block (`robot/base_link`).
        #[arg(long, default_value = "robot")]
        name: String,
        /// How the root link is attached to the World: "fixed" or "floating".
        #[arg(long, default_value = "fixed", value_parser = ["fixed", "floating"])]
        base: String,
        /// "input": the revolute, continuous and prismatic joints take their torque/force at input t.
        #[arg(long, default_value = "none", value_parser = ["none", "input"])]
        actuation: String,
    },
    /// Print the diagram as Graphviz DOT.
    Graph {
        model: PathBuf,
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Also show the hidden wiring: the mechanism block the physical connections compile to,
        /// and its signal lines to the joints and contact blocks.
        #[arg(long)]
        all: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes to standard output. A closed pipe (`blockdyn blocks | head -1`) ends the output
/// quietly instead of panicking: there is no one left to tell.
fn say(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().write_all(text.as_bytes());
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Run {
            model,
            csv,
            plot,
            animate,
            stop_time,
            set,
            quiet,
        } => run_model(
            &model,
            Outputs {
                csv,
                plot,
                animation: animate,
            },
            stop_time,
            &set,
            quiet,
        ),
        Command::Sweep {
            model,
            vary,
            set,
            jobs,
            shard,
            out,
            quiet,
        } => run_sweep(&model, &vary, set, jobs, shard, out, quiet),
        Command::Check { model, set } => {
            let d = blockdyn::load_model(&model, &set).map_err(|e| e.to_string())?;
            say(&blockdyn::report::check_report(&d));
            Ok(())
        }
        Command::Blocks { name, markdown } => {
            if markdown {
                say(&blockdyn::report::library_markdown(Registry::standard()));
                return Ok(());
            }
            match name {
                None => say(&blockdyn::report::library_list(Registry::standard())),
                Some(n) => say(&blockdyn::report::block_help(Registry::standard(), &n)?),
            }
            Ok(())
        }
        Command::Import {
            urdf,
            name,
            base,
            actuation,
        } => {
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
            if !valid {
                return Err(format!(
                    "--name '{name}' is not a block name: write letters, digits, '_' and '-'"
                ));
            }
            let mut options = blockdyn::urdf::default_options(&name);
            if base == "floating" {
                options.base = blockdyn::urdf::expand::Base::Floating;
            }
            options.actuation = actuation == "input";
            let (toml, warnings) =
                blockdyn::urdf::import(&urdf, &options).map_err(|e| e.to_string())?;
            for w in &warnings {
                eprintln!("warning: {w}");
            }
            say(&toml);
            Ok(())
        }
        Command::Graph { model, set, all } => {
            let d = blockdyn::load_model(&model, &set).map_err(|e| e.to_string())?;
            say(&blockdyn::diagram::dot::to_dot(&d, all));
            Ok(())
        }
    }
}

/// The files a run writes (from the command line, else from `[output]`).
struct Outputs {
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
    animation: Option<PathBuf>,
}

fn run_model(
    model: &Path,
    outputs: Outputs,
    stop_time: Option<f64>,
    set: &[String],
    quiet: bool,
) -> Result<(), String> {
    if let Some(t) = stop_time {
        if !(t > 0.0 && t.is_finite()) {
            return Err(format!(
                "--stop-time must be a positive number of seconds, not {t}"
            ));
        }
    }
    let d = blockdyn::load_model_animated(model, set, outputs.animation.as_deref())
        .map_err(|e| e.to_string())?;
    for w in &d.warnings {
        eprintln!("warning: {w}");
    }
    let spec_path = |p: &Option<String>| p.as_ref().map(PathBuf::from);
    let out = &d.spec.output;
    let csv = outputs.csv.or_else(|| spec_path(&out.csv));
    let plot = outputs.plot.or_else(|| spec_path(&out.plot));
    let animation = outputs.animation.or_else(|| spec_path(&out.animation.path));
    if animation.is_some() && d.scene.is_none() {
        return Err(format!(
            "cannot animate '{}': the model has no mechanism (no Solid, joint or geometry block) to draw",
            model.display()
        ));
    }
    // Bad output paths are reported before the run, not after it.
    let targets: Vec<(&'static str, &Path)> =
        [("CSV", &csv), ("plot", &plot), ("animation", &animation)]
            .into_iter()
            .filter_map(|(what, p)| p.as_deref().map(|p| (what, p)))
            .collect();
    blockdyn::output::check_outputs(model, &targets).map_err(|e| e.to_string())?;
    if let Some(p) = &plot {
        blockdyn::plot::check_format(p).map_err(|e| e.to_string())?;
    }
    let stop = stop_time.unwrap_or(d.spec.stop_time);
    let terminal = std::io::stderr().is_terminal();
    let progress = (!quiet).then(|| blockdyn::progress::reporter(stop, terminal));
    let interrupt = stop_on_signals();
    let csv_file = csv
        .as_deref()
        .map(|p| StagedFile::create(p, "CSV"))
        .transpose()
        .map_err(|e| e.to_string())?;
    let run = blockdyn::simulate_keeping_rows(
        &d,
        blockdyn::RunOptions {
            stop_time,
            progress,
            animation_rate: animation.is_some().then_some(out.animation.fps),
            stream: Some(blockdyn::sim::StreamTo {
                csv: csv_file,
                plot: plot.is_some(),
                size_warning: Some(blockdyn::sim::SizeWarning::new(
                    blockdyn::sim::CSV_WARNING_BYTES,
                    Box::new(|message| eprintln!("warning: {message}")),
                )),
            }),
            interrupt,
            ..Default::default()
        },
    );
    let (result, failure) = match run {
        Ok(result) => (result, None),
        Err(failed) => {
            // A failed run still writes the rows it recorded, then exits non-zero.
            let partial = blockdyn::RunResult {
                recording: failed.recording,
                csv: failed.csv,
                rows: failed.rows,
                last_time: failed.last_time,
                stats: Default::default(),
                wall_time: Default::default(),
                final_state: Vec::new(),
                animation: failed.animation,
                checkpoint: None,
                events: failed.events,
                events_dropped: 0,
            };
            (partial, Some(failed.error))
        }
    };
    let summary = run_summary(&result, &blockdyn::sim::solver_options(&d));
    if result.rows > 0 || failure.is_none() {
        // All outputs together or none: a failed plot never leaves a CSV of another run.
        let committed =
            stage_outputs(&d, result, plot.as_deref(), animation.as_deref()).and_then(|staged| {
                blockdyn::output::commit_all(staged.files)
                    .map(|()| staged.frames)
                    .map_err(|e| e.to_string())
            });
        let frames = match (committed, &failure) {
            (Ok(frames), _) => frames,
            (Err(output), None) => return Err(output),
            (Err(output), Some(error)) => {
                return Err(format!("{error}\n  note: no output was written: {output}"))
            }
        };
        if let Some(error) = failure {
            let mut message = error.to_string();
            if csv.is_some() || plot.is_some() {
                message.push_str(&format!(
                    "\n  note: a partial run: the {} rows recorded up to t = {} s were written",
                    summary.rows,
                    blockdyn::sim::readable_time(&summary.last_time.unwrap_or(0.0))
                ));
            }
            return Err(message);
        }
        if !quiet {
            say(&format!("{}: {}\n", d.spec.name, summary.line));
            for (what, p) in [("csv", &csv), ("plot", &plot)] {
                if let Some(p) = p {
                    say(&format!("  {what}: {}\n", p.display()));
                }
            }
            if csv.is_none() && plot.is_none() && animation.is_none() {
                say(blockdyn::report::NOTHING_WRITTEN);
            }
            if let (Some(p), Some((frames, interval))) = (&animation, frames) {
                say(&format!(
                    "  animation: {} ({frames} frames, one every {interval} s of simulated time)\n",
                    p.display(),
                ));
            }
        }
        return Ok(());
    }
    Err(failure.map_or_else(String::new, |e| e.to_string()))
}

/// The long help of `blockdyn import`.
const IMPORT_HELP: &str = "Print the blocks a URDF robot expands to, as a model (TOML).

The model printed has a World frame `world` and the robot's blocks, named NAME/LINK, \
NAME/JOINT, …, its root link attached to world.W: loaded, it builds the same diagram as a model \
with the block [blocks.NAME] type = \"Urdf\", file = \"FILE.urdf\" and the connection \
\"world.W -- NAME.B\". Collision meshes are written as the points of their convex hulls. \
Elements that are not simulated (visuals, transmissions, …) are warned about on stderr.

Example: blockdyn import models/urdf/quadruped.urdf --name dog --base floating > dog.toml
See docs/urdf.md.";

/// The long help of `blockdyn sweep`.
const SWEEP_HELP: &str = "Run a model at every combination of parameter values.

The model file is parsed once; each point is the model with the point's values set as --set sets \
them. Points are numbered 0..N-1 in the order of the combinations, the last --vary varying fastest. \
Every point is built before any runs, so a bad --vary is reported before anything is written.

Writes into DIR: run_<index>.csv per point (the CSV of `blockdyn run --csv`; a failed point's \
holds the rows recorded until it failed), and summary.csv (summary_<I>_of_<N>.csv with --shard \
I/N) with one row per point: index, the values, status (ok | failed), the solver's counts, rows, \
final_time, the final value of each recorded column, and the failure's message. No plots or \
animations are written. Exits non-zero when a point failed, after every point ran.

Example: blockdyn sweep models/ball_drop.toml --vary contact.normal.stiffness=5e4,1e5,2e5 \
--vary contact.normal.damping=50,100 --out results/
On a cluster (Slurm): --shard $((SLURM_ARRAY_TASK_ID+1))/$SLURM_ARRAY_TASK_COUNT --out results/
See docs/sweep.md.";

/// Runs `blockdyn sweep`: checks every point, runs them, prints one line per point on stderr.
fn run_sweep(
    model: &Path,
    vary: &[String],
    set: Vec<String>,
    jobs: Option<std::num::NonZeroUsize>,
    shard: Option<blockdyn::sweep::Shard>,
    out: PathBuf,
    quiet: bool,
) -> Result<(), String> {
    use blockdyn::sweep::{DirectoryRun, RunSettings, Shard, Sweep, SweepPlan};
    let plan = SweepPlan::parse(vary).map_err(|e| e.to_string())?;
    let sweep = Sweep::load(model, set, plan).map_err(|e| e.to_string())?;
    let mut settings = RunSettings::all_cores();
    settings.jobs = jobs.unwrap_or(settings.jobs);
    let shard = shard.unwrap_or(Shard::WHOLE);
    let points = shard.points(sweep.plan().len());
    let checked = sweep.check(&points, &settings).map_err(|e| e.to_string())?;
    for w in &checked.warnings {
        eprintln!("warning: {w}");
    }
    settings.interrupt = stop_on_signals();
    let run = DirectoryRun {
        dir: out,
        shard,
        settings,
    };
    let started = std::time::Instant::now();
    let mut finished = 0;
    let report = sweep
        .run_into(&run, &checked, |point| {
            finished += 1;
            if !quiet {
                let name = sweep.csv_file_name(point.index);
                eprintln!(
                    "[{finished}/{}] {name}: {}",
                    points.len(),
                    point_outcome(point)
                );
            }
        })
        .map_err(|e| e.to_string())?;
    if !quiet {
        let jobs = run.settings.jobs.get();
        say(&format!(
            "{}: {} of {} points ran ({} failed) in {} on {jobs} thread{}\n  summary: {}\n",
            checked.name,
            report.points.len(),
            report.planned,
            report.failed(),
            blockdyn::output::stats::WallTime(started.elapsed()),
            if jobs == 1 { "" } else { "s" },
            report.summary.display()
        ));
    }
    match report.failures() {
        Some(error) => Err(error.to_string()),
        None => Ok(()),
    }
}

/// How a point ended, for its progress line.
fn point_outcome(point: &blockdyn::sweep::PointSummary) -> String {
    use blockdyn::sweep::PointStatus;
    match (&point.status, &point.stats) {
        (PointStatus::Ok, Some(stats)) => format!(
            "ok, {} steps, {}",
            stats.steps,
            blockdyn::output::stats::WallTime(point.wall_time)
        ),
        (PointStatus::Ok, None) => "ok".to_string(),
        (PointStatus::Failed(message), _) => {
            format!("FAILED: {}", message.lines().next().unwrap_or_default())
        }
    }
}

/// What the summary line says about a run.
struct Summary {
    line: String,
    rows: usize,
    last_time: Option<f64>,
}

fn run_summary(result: &blockdyn::RunResult, solver: &blockdyn::solver::SolverOptions) -> Summary {
    let stats = &result.stats;
    let switches = (solver.method == blockdyn::solver::Method::Auto).then(|| MethodSwitches {
        count: stats.method_switches as u64,
        explicit: (
            blockdyn::solver::Method::Dopri5.name(),
            stats.explicit_steps as u64,
        ),
        implicit: (solver.stiff_method().name(), stats.implicit_steps as u64),
    });
    let line = RunSummary {
        simulated_time: result.stats.final_time,
        steps: result.stats.steps as u64,
        rejected_steps: result.stats.rejected_steps as u64,
        function_evaluations: result.stats.function_evaluations as u64,
        zero_crossings: result.stats.zero_crossings as u64,
        wall_time: result.wall_time,
        switches,
    }
    .to_string();
    Summary {
        line,
        rows: result.rows,
        last_time: result.last_time,
    }
}

/// A run's output files, written into temporary files and not yet committed.
struct StagedOutputs {
    files: Vec<StagedFile>,
    /// The animation's frame count and interval, when one was written.
    frames: Option<(usize, f64)>,
}

/// Stages the CSV (streamed during the run), the plot and the animation of a run, or of the rows
/// a failed run recorded. On an error the staged files are dropped: their temporaries removed.
fn stage_outputs(
    d: &blockdyn::diagram::Diagram,
    result: blockdyn::RunResult,
    plot: Option<&Path>,
    animation: Option<&Path>,
) -> Result<StagedOutputs, String> {
    let mut files: Vec<StagedFile> = result.csv.into_iter().collect();
    if let Some(path) = plot {
        let options = blockdyn::plot::PlotOptions {
            title: Some(d.spec.name.clone()),
            ..Default::default()
        };
        let image = blockdyn::plot::render_rgb(&result.recording, path, &options)
            .map_err(|e| e.to_string())?;
        let mut file = StagedFile::create(path, "plot").map_err(|e| e.to_string())?;
        blockdyn::plot::encode_png(&image, file.writer())
            .map_err(|e| file.error("writing failed", e).to_string())?;
        files.push(file);
    }
    let mut frames = None;
    if let (Some(path), Some(anim)) = (animation, &result.animation) {
        let settings = &d.spec.output.animation;
        let options = blockdyn::render::RenderOptions {
            width: settings.size[0],
            height: settings.size[1],
            camera: settings.camera,
            playback_rate: settings.fps,
            time_label: true,
        };
        let bytes = blockdyn::render::encode_gif(anim, &options).map_err(|source| {
            blockdyn::render::AnimationError::Render {
                path: path.to_path_buf(),
                source,
            }
            .to_string()
        })?;
        let mut file = StagedFile::create(path, "animation").map_err(|e| e.to_string())?;
        file.writer()
            .write_all(&bytes)
            .map_err(|e| file.error("writing failed", e).to_string())?;
        files.push(file);
        frames = Some((anim.frames.len(), anim.frame_interval));
    }
    Ok(StagedOutputs { files, frames })
}

/// The first SIGINT or SIGTERM sets the returned flag: the run stops at its next step and its rows
/// are written (a partial run). A second one removes this process's temporary output files and
/// exits at once with status 130. `None` when a handler cannot be installed (then the signals
/// keep their default action).
fn stop_on_signals() -> Option<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let seen = flag.clone();
    ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            blockdyn::output::remove_staged_files();
            std::process::exit(130);
        }
    })
    .ok()?;
    Some(flag)
}
