//! The `blockdyn` command line: run, check, blocks, graph. Everything here is a library call;
//! this file only parses arguments and formats results and errors.

use blockdyn::output::stats::RunSummary;
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// Print the diagram as Graphviz DOT.
    Graph {
        model: PathBuf,
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
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
        Command::Check { model, set } => {
            let d = blockdyn::load_model(&model, &set).map_err(|e| e.to_string())?;
            say(&blockdyn::report::check_report(&d));
            Ok(())
        }
        Command::Blocks { name, markdown } => {
            if markdown {
                say(&blockdyn::report::library_markdown());
                return Ok(());
            }
            match name {
                None => say(&blockdyn::report::library_list()),
                Some(n) => say(&blockdyn::report::block_help(&n)?),
            }
            Ok(())
        }
        Command::Graph { model, set } => {
            let d = blockdyn::load_model(&model, &set).map_err(|e| e.to_string())?;
            say(&blockdyn::diagram::dot::to_dot(&d));
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
    let run = blockdyn::simulate_keeping_rows(
        &d,
        blockdyn::RunOptions {
            stop_time,
            progress,
            animation_rate: animation.is_some().then_some(out.animation.fps),
            ..Default::default()
        },
    );
    let (result, failure) = match run {
        Ok(result) => (result, None),
        Err(failed) => {
            // A failed run still writes the rows it recorded, then exits non-zero.
            let partial = blockdyn::RunResult {
                recording: failed.recording,
                stats: Default::default(),
                wall_time: Default::default(),
                final_state: Vec::new(),
                animation: failed.animation,
            };
            (partial, Some(failed.error))
        }
    };
    let wrote_rows = !result.recording.is_empty();
    if wrote_rows || failure.is_none() {
        write_outputs(&d, &result, csv.as_deref(), plot.as_deref())?;
        if let Some(path) = &animation {
            write_animation(&d, &result, path)?;
        }
    }
    if let Some(error) = failure {
        let mut message = error.to_string();
        if wrote_rows && (csv.is_some() || plot.is_some()) {
            let last = result.recording.times.last().copied().unwrap_or(0.0);
            message.push_str(&format!(
                "\n  note: the {} rows recorded up to t = {last} s were written (a partial run)",
                result.recording.len()
            ));
        }
        return Err(message);
    }
    if !quiet {
        let summary = RunSummary {
            simulated_time: result.stats.final_time,
            steps: result.stats.steps as u64,
            rejected_steps: result.stats.rejected_steps as u64,
            function_evaluations: result.stats.function_evaluations as u64,
            zero_crossings: result.stats.zero_crossings as u64,
            wall_time: result.wall_time,
        };
        say(&format!("{}: {summary}\n", d.spec.name));
        for (what, p) in [("csv", &csv), ("plot", &plot)] {
            if let Some(p) = p {
                say(&format!("  {what}: {}\n", p.display()));
            }
        }
        if csv.is_none() && plot.is_none() && animation.is_none() {
            say(blockdyn::report::NOTHING_WRITTEN);
        }
        if let (Some(p), Some(a)) = (&animation, &result.animation) {
            say(&format!(
                "  animation: {} ({} frames, one every {} s of simulated time)\n",
                p.display(),
                a.frames.len(),
                a.frame_interval
            ));
        }
    }
    Ok(())
}

/// Writes the CSV and the plot of a run (or of the rows a failed run recorded).
fn write_outputs(
    d: &blockdyn::diagram::Diagram,
    result: &blockdyn::RunResult,
    csv: Option<&Path>,
    plot: Option<&Path>,
) -> Result<(), String> {
    if let Some(path) = csv {
        blockdyn::output::csv::write_csv(&result.recording, path).map_err(|e| e.to_string())?;
    }
    if let Some(path) = plot {
        let options = blockdyn::plot::PlotOptions {
            title: Some(d.spec.name.clone()),
            ..Default::default()
        };
        blockdyn::plot::plot_png(&result.recording, path, &options).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Writes the animation of a run (or of the frames a failed run took) as a GIF.
fn write_animation(
    d: &blockdyn::diagram::Diagram,
    result: &blockdyn::RunResult,
    path: &Path,
) -> Result<(), String> {
    let Some(animation) = &result.animation else {
        return Ok(());
    };
    let settings = &d.spec.output.animation;
    let options = blockdyn::render::RenderOptions {
        width: settings.size[0],
        height: settings.size[1],
        camera: settings.camera,
        playback_rate: settings.fps,
        time_label: true,
    };
    blockdyn::render::write_gif(path, animation, &options).map_err(|e| e.to_string())
}
