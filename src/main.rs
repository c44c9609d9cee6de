//! The `blockdyn` command line: run, sweep, check, blocks, import, graph, linearize, trim. Everything here is a library call;
//! this file only parses arguments and formats results and errors.

use blockdyn::library::Registry;
use clap::{Parser, Subcommand};
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
        /// Write the browser viewer (one self-contained HTML file: 3-D scene, time slider,
        /// forces, signals) here (overrides [output] view).
        #[arg(long, value_name = "PATH.html")]
        view: Option<PathBuf>,
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
        /// The directory of the CSVs and the summary (created when missing). It must be empty,
        /// or hold only this sweep's other shards' outputs.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Replace the outputs of an earlier sweep of the same plan in --out (recorded in its
        /// sweep_plan.txt) and remove its stale summaries (files that are not that sweep's
        /// outputs are never replaced).
        #[arg(long)]
        overwrite: bool,
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
    /// Linearize a model about an operating point: print A, B, C, D as JSON.
    #[command(long_about = LINEARIZE_HELP)]
    Linearize {
        /// The model file (TOML).
        model: PathBuf,
        /// The inputs: BLOCK.PORT (an input port, perturbed on top of its connected value) or
        /// BLOCK (a source with one output `out`, such as an Inport), comma-separated.
        #[arg(long, value_delimiter = ',', value_name = "BLOCK.PORT,...")]
        inputs: Vec<String>,
        /// The outputs: BLOCK.PORT (output ports), comma-separated.
        #[arg(long, value_delimiter = ',', value_name = "BLOCK.PORT,...")]
        outputs: Vec<String>,
        /// The operating point: the state a run of the model reaches at this time, s (default
        /// 0: the initial state).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        at: f64,
        /// Override a parameter, as `run --set` does (repeatable).
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
    },
    /// Find an equilibrium (ẋ = 0) from the initial state: print the states and inputs as JSON.
    #[command(long_about = TRIM_HELP)]
    Trim(TrimArgs),
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

// `blockdyn trim`'s arguments: no doc comment, so that the subcommand's help stays `Command::Trim`'s.
#[derive(clap::Args)]
struct TrimArgs {
    /// The model file (TOML).
    model: PathBuf,
    /// The inputs, as linearize takes them (held at their operating values unless free),
    /// comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "BLOCK.PORT,...")]
    inputs: Vec<String>,
    /// The inputs solved for (added to --inputs), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "BLOCK.PORT,...")]
    free_inputs: Vec<String>,
    /// States held at their initial values, by linearize's names (hinge.q[0]),
    /// comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "STATE,...")]
    fix_states: Vec<String>,
    /// Outputs to report at the equilibrium (BLOCK.PORT), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "BLOCK.PORT,...")]
    outputs: Vec<String>,
    /// Converged when the norm of ẋ is at most this.
    #[arg(long, default_value_t = 1e-10)]
    tolerance: f64,
    /// Override a parameter, as `run --set` does (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
}

fn main() -> ExitCode {
    fixed_mmap_threshold();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Keeps glibc's malloc from moving its mmap threshold (issue 28, part 3: the peak resident
/// memory of a large build). By default each freed mmapped block raises the threshold to its
/// size (up to 32 MiB), after which the build's large vectors — a 20,000-joint chain's blocks,
/// lines, the URDF's text and tree — are carved from the main heap, where what is freed between
/// them stays resident; fixed at glibc's initial 128 KiB, every allocation above it is mapped
/// and unmapped on its own. The 20,000-joint chain's `check`: peak RSS 345.6 → 287.0 MB for the
/// same heap; the cost is page faults (110 k → 203 k), system time 0.33 → 0.50 s for `check`
/// and 0.27 → 0.77 s for a two-step `run` of that chain (BENCHMARKS.md "The chain's check in
/// less memory (chainC)"); small models see no difference. A run's step does not allocate, so
/// only building, recording growth and output pay it. The library leaves the process's
/// allocator alone; only the command line sets this.
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        /// glibc's `M_MMAP_THRESHOLD` (malloc.h).
        const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
        extern "C" {
            /// glibc's `int mallopt(int param, int value)`: returns 1 on success, 0 on error.
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        // SAFETY: `mallopt` only sets an allocator option; it is called before any thread is
        // started, with a parameter and value glibc documents (a threshold in bytes). A
        // refusal (0) leaves the default behaviour, which is correct, only larger.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        }
    }
}

/// Hands the pages that the build freed back to the system (glibc's `malloc_trim(0)`). A large
/// build frees a great deal between what it keeps — the model's tables, the URDF's tree, the
/// build's working lists — and glibc keeps those pages resident until the heap's top is free,
/// which it never is below a kept diagram: at 20,000 joints the `check` that follows held about
/// 30 MB more resident than its heap (issue 28, part 3). What the process allocates next is
/// carved from the same free chunks, so this trims only what is free now; it costs one walk
/// over the free lists. Linux/glibc only; the command line calls it, the library does not.
fn release_freed_pages() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            /// glibc's `int malloc_trim(size_t pad)`: returns 1 if memory was released.
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: `malloc_trim` only releases free memory of the allocator's arenas; it takes
        // the arenas' locks itself, and the pointers the program holds stay valid.
        unsafe {
            malloc_trim(0);
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
            view,
            stop_time,
            set,
            quiet,
        } => run_model(
            &model,
            Outputs {
                csv,
                plot,
                animation: animate,
                view,
            },
            stop_time,
            &sets(&set)?,
            quiet,
        ),
        Command::Sweep {
            model,
            vary,
            set,
            jobs,
            shard,
            out,
            overwrite,
            quiet,
        } => run_sweep(
            &model,
            &vary,
            sets(&set)?,
            jobs,
            shard,
            (out, overwrite),
            quiet,
        ),
        Command::Check { model, set } => check(&model, &sets(&set)?),
        Command::Blocks { name, markdown } => print_blocks(name.as_deref(), markdown),
        Command::Import {
            urdf,
            name,
            base,
            actuation,
        } => import(&urdf, &name, &base, &actuation),
        Command::Linearize {
            model,
            inputs,
            outputs,
            at,
            set,
        } => linearize(
            &model,
            &sets(&set)?,
            &blockdyn::LinearizeSpec {
                inputs,
                outputs,
                at,
            },
        ),
        Command::Trim(args) => trim(args),
        Command::Graph { model, set, all } => graph(&model, &sets(&set)?, all),
    }
}

/// Runs `blockdyn check`: prints the model's check report (`report::check_report`).
fn check(model: &Path, set: &[blockdyn::Override]) -> Result<(), String> {
    let d = blockdyn::load_model(model, set).map_err(|e| e.to_string())?;
    release_freed_pages();
    let report = blockdyn::report::check_report(&d);
    // The process ends here: the diagram is left to the exit rather than freed one
    // allocation at a time (a million at 20,000 joints, about 6% of the check's time).
    // Nothing in it holds a file or anything else a drop would flush.
    std::mem::forget(d);
    say(&report);
    Ok(())
}

/// Runs `blockdyn graph`: prints the model's diagram in Graphviz's dot language (`all`: the
/// hidden blocks too).
fn graph(model: &Path, set: &[blockdyn::Override], all: bool) -> Result<(), String> {
    let d = blockdyn::load_model(model, set).map_err(|e| e.to_string())?;
    say(&blockdyn::diagram::dot::to_dot(&d, all));
    Ok(())
}

/// Runs `blockdyn blocks`: the library's blocks as Markdown (`--markdown`), the list of them, or
/// one block's help (`name`).
fn print_blocks(name: Option<&str>, markdown: bool) -> Result<(), String> {
    if markdown {
        say(&blockdyn::report::library_markdown(Registry::standard()));
        return Ok(());
    }
    match name {
        None => say(&blockdyn::report::library_list(Registry::standard())),
        Some(n) => say(&blockdyn::report::block_help(Registry::standard(), n)?),
    }
    Ok(())
}

/// Runs `blockdyn import`: prints the model the URDF robot `urdf` expands to, its blocks named
/// `name`/LINK, with a `base` "fixed" or "floating" and `actuation` "none" or "input"; warnings
/// go to stderr.
fn import(urdf: &Path, name: &str, base: &str, actuation: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if !valid {
        return Err(format!(
            "--name '{name}' is not a block name: write letters, digits, '_' and '-'"
        ));
    }
    let mut options = blockdyn::urdf::default_options(name);
    if base == "floating" {
        options.base = blockdyn::urdf::expand::Base::Floating;
    }
    options.actuation = actuation == "input";
    let (toml, warnings) =
        blockdyn::command::import::import_urdf(urdf, &options).map_err(|e| e.to_string())?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    say(&toml);
    Ok(())
}

/// Runs `blockdyn linearize`: prints the matrices as JSON, warnings on stderr.
fn linearize(
    model: &Path,
    set: &[blockdyn::Override],
    spec: &blockdyn::LinearizeSpec,
) -> Result<(), String> {
    let lin = blockdyn::command::linearize::linearize_model(model, set, spec)
        .map_err(|e| e.to_string())?;
    for w in &lin.warnings {
        eprintln!("warning: {w}");
    }
    say(&blockdyn::command::linearize::to_json(&lin));
    Ok(())
}

/// Runs `blockdyn trim`: prints the equilibrium as JSON, warnings on stderr.
fn trim(args: TrimArgs) -> Result<(), String> {
    let spec = blockdyn::TrimSpec {
        inputs: args.inputs,
        free_inputs: args.free_inputs,
        fixed_states: args.fix_states,
        outputs: args.outputs,
        tolerance: args.tolerance,
        ..Default::default()
    };
    let model = &args.model;
    let t = blockdyn::command::linearize::trim_model(model, &sets(&args.set)?, &spec)
        .map_err(|e| e.to_string())?;
    for w in &t.warnings {
        eprintln!("warning: {w}");
    }
    say(&blockdyn::command::linearize::trim_to_json(&t));
    Ok(())
}

/// The `--set PATH=VALUE` options read into overrides: the one place their text is parsed.
fn sets(set: &[String]) -> Result<Vec<blockdyn::Override>, String> {
    blockdyn::Override::parse_set_options(set).map_err(|e| e.to_string())
}

fn run_model(
    model: &Path,
    outputs: Outputs,
    stop_time: Option<f64>,
    set: &[blockdyn::Override],
    quiet: bool,
) -> Result<(), String> {
    let report = blockdyn::command::run::run_model(blockdyn::command::run::RunRequest {
        model,
        csv: outputs.csv,
        plot: outputs.plot,
        animation: outputs.animation,
        view: outputs.view,
        stop_time,
        set,
        quiet,
        interrupt: stop_on_signals(),
        warn: |w| eprintln!("warning: {w}"),
    })
    .map_err(|e| e.to_string())?;
    if !quiet {
        say(&report.text());
    }
    Ok(())
}

/// The files a run writes (from the command line, else from `[output]`).
struct Outputs {
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
    animation: Option<PathBuf>,
    view: Option<PathBuf>,
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

/// The long help of `blockdyn linearize`.
const LINEARIZE_HELP: &str = "Linearize a model about an operating point and print the matrices as JSON.

ż = A·z + B·u, y = C·z + D·u in deviations from the operating point: the state the model reaches \
at time --at (default 0, the initial state), run with its own solver settings. States are the \
continuous states, a mechanism's as JOINT.q[i], JOINT.v[i] (quaternions by three tangent \
coordinates). An input BLOCK.PORT is perturbed on top of its connected value (0 when \
unconnected), seen by that block only; an input BLOCK names a source with one output `out`. \
The Jacobians are central differences with power-of-two steps (error_estimate in the JSON). \
Sampled blocks and zero crossings at the operating point are reported on stderr and in \
\"warnings\".

Prints {\"states\", \"inputs\", \"outputs\", \"A\", \"B\", \"C\", \"D\", \"x\", \"u\", \"y\", \"t\", \
\"error_estimate\", \"evaluations\", \"warnings\"}, matrices as lists of rows.

Example: blockdyn linearize models/cart_pole.toml --inputs rail.t --outputs rail.q,hinge.q
See docs/linearize.md.";

/// The long help of `blockdyn trim`.
const TRIM_HELP: &str = "Find an equilibrium of a model and print it as JSON.

Solves ẋ = f(x, u) = 0 for the states (all but --fix-states, which keep their initial values) and \
the --free-inputs (the other --inputs keep their operating values), starting from the initial \
state. States and inputs are named as blockdyn linearize names them. Gauss-Newton on the \
central-difference Jacobian (least squares when there are fewer unknowns than states, minimum \
norm when more), damped (Levenberg-Marquardt) when a step does not lower the residual. A trim \
that does not converge exits non-zero, naming the state with the largest derivative left.

Prints {\"states\", \"x\", \"inputs\", \"u\", \"outputs\", \"y\", \"xdot_norm\", \"iterations\", \
\"evaluations\", \"warnings\"}.

Example: blockdyn trim pendulum.toml --free-inputs hinge.t --fix-states hinge.q[0]
See docs/linearize.md.";

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

DIR must be empty or hold only this plan's other shards' outputs. The sweep records its plan (the \
--vary lists) in DIR/sweep_plan.txt; --overwrite replaces the outputs of an earlier sweep of the \
same plan only, and never a file that is not a sweep's output (a run CSV starts with 'time,', a \
summary with this sweep's header). Plans of more than 1,000,000 points are refused.

Example: blockdyn sweep models/ball_drop.toml --vary contact.normal.stiffness=5e4,1e5,2e5 \
--vary contact.normal.damping=50,100 --out results/
On a cluster (Slurm): --shard $((SLURM_ARRAY_TASK_ID+1))/$SLURM_ARRAY_TASK_COUNT --out results/
See docs/sweep.md.";

/// Runs `blockdyn sweep` (see `blockdyn::command::sweep`): one line per point on stderr, the
/// report on stdout.
fn run_sweep(
    model: &Path,
    vary: &[String],
    set: Vec<blockdyn::Override>,
    jobs: Option<std::num::NonZeroUsize>,
    shard: Option<blockdyn::sweep::Shard>,
    (out, overwrite): (PathBuf, bool),
    quiet: bool,
) -> Result<(), String> {
    let outcome = blockdyn::command::sweep::run_sweep(blockdyn::command::sweep::SweepRequest {
        model,
        vary,
        set,
        jobs,
        shard,
        out,
        overwrite,
        quiet,
        interrupt: stop_on_signals,
        warn: |w| eprintln!("warning: {w}"),
        progress: |line| eprintln!("{line}"),
    })
    .map_err(|e| e.to_string())?;
    if !quiet {
        say(&outcome.report);
    }
    outcome.failures.map_or(Ok(()), |e| Err(e.to_string()))
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
