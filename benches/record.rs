//! Recording (issue 12, part 2): streaming the CSV while the run goes against keeping every row in
//! memory and writing the CSV at the end (what the command line did before), in time and in peak
//! heap.
//!
//! - `record/<model>/{memory,stream}`: whole runs of example models that write their CSV into a
//!   temporary directory. `memory`: `simulate` keeping every row, then `write_csv`; `stream`:
//!   `simulate` with [`StreamTo`] (rows written to the staged file as they are recorded), then
//!   `commit_all`. Both write the same file. Target: stream ≤ 1.05 × memory.
//! - Peak heap, printed before the timings: a 10 s run with 36,864 logged columns (the 9
//!   entries of the rotation matrices of a 4096-point cloud: an Integrator of 36,864 angles
//!   θᵢ(t) = θᵢ(0) + ωᵢ·t, max_step 0.01 s, so about 1000 rows), measured by a counting global
//!   allocator (bytes live at the peak minus bytes live before the run): in memory, streamed
//!   without a plot, streamed with the plot's rows. Target: streamed ≤ 64 MB plus the plot's
//!   buffers.
//!
//! Run: `cargo bench --bench record` (the peak-heap part writes three CSVs of about 0.7 GB, one
//! at a time, to /dev/shm or the temporary directory, and takes about half a minute; a filter
//! other than `peak_memory` skips it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use blockdyn::output::{commit_all, write_csv, StagedFile};
use blockdyn::sim::StreamTo;
use blockdyn::{load_model, load_model_str, simulate, Diagram, RunOptions};
use criterion::{criterion_group, criterion_main, Criterion};

/// Counts live heap bytes and their peak.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as the new block allocated before the old one is freed, as realloc may do.
        let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
        PEAK.fetch_max(live, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak heap above the live bytes at the start, while `f` runs.
fn peak_heap<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let r = f();
    (r, PEAK.load(Ordering::SeqCst) - base)
}

/// A scratch directory on tmpfs when there is one (/dev/shm: fsync costs nothing there, so the
/// timings compare the recording's CPU cost, not the disk's latency, which other processes
/// share), else in the temporary directory.
fn scratch() -> PathBuf {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = base.join(format!("blockdyn-bench-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The run with every row in memory, then its CSV written.
fn in_memory(d: &Diagram, csv: &Path) -> usize {
    let run = simulate(d, RunOptions::default()).expect("runs");
    write_csv(&run.recording, csv).expect("CSV");
    run.recording.len()
}

/// The run streaming its CSV (and keeping the plot's rows when `plot`), then committed.
fn streamed(d: &Diagram, csv: &Path, plot: bool) -> usize {
    let options = RunOptions {
        stream: Some(StreamTo {
            csv: Some(StagedFile::create(csv, "CSV").expect("staged")),
            plot,
            size_warning: None,
        }),
        ..RunOptions::default()
    };
    let run = simulate(d, options).expect("runs");
    commit_all(run.csv.into_iter().collect()).expect("committed");
    run.rows
}

/// 36,864 angles θᵢ(t) = θᵢ(0) + ωᵢ·t, logged.
fn cloud_rotations() -> Diagram {
    const COLUMNS: usize = 4096 * 9;
    let list = |f: &dyn Fn(usize) -> f64| {
        (0..COLUMNS)
            .map(|i| format!("{:.6}", f(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "connect = [\"rates.out -> angles.in\"]\n[model]\nname = \"cloud_rotations\"\nstop_time = 10.0\n[solver]\nmax_step = 0.01\n[output]\nlog = [\"angles.out\"]\n[blocks.rates]\ntype = \"Constant\"\nvalue = [{}]\n[blocks.angles]\ntype = \"Integrator\"\ninitial = [{}]\n",
        list(&|i| 0.5 + (i % 97) as f64 / 97.0),
        list(&|i| (i % 89) as f64 / 89.0 * std::f64::consts::PI),
    );
    load_model_str("cloud_rotations.toml", &text, &[]).expect("cloud model")
}

fn peak_memory(_c: &mut Criterion) {
    // Not a criterion benchmark: skipped when a filter names other benchmarks only.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filters.iter().all(|f| "peak_memory".contains(f.as_str())) {
        return;
    }
    let dir = scratch();
    let csv = dir.join("cloud_rotations.csv");
    let d = cloud_rotations();
    let mb = |bytes: usize| bytes as f64 / (1 << 20) as f64;
    let (rows, memory) = peak_heap(|| in_memory(&d, &csv));
    let size = std::fs::metadata(&csv).map(|m| m.len()).unwrap_or(0);
    println!(
        "cloud_rotations: {rows} rows × 36864 columns, CSV {:.0} MB",
        size as f64 / 1e6
    );
    println!(
        "  peak heap, every row in memory then write_csv: {:.1} MB",
        mb(memory)
    );
    let (_, stream) = peak_heap(|| streamed(&d, &csv, false));
    println!(
        "  peak heap, streamed CSV, no plot:             {:.1} MB",
        mb(stream)
    );
    let (_, plot) = peak_heap(|| streamed(&d, &csv, true));
    println!(
        "  peak heap, streamed CSV and the plot's rows:  {:.1} MB",
        mb(plot)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example models timed, with their overrides.
const EXAMPLES: [(&str, &[&str]); 5] = [
    ("bouncing_ball", &[]),
    ("mass_spring_damper", &[]),
    ("ball_drop", &[]),
    ("newtons_cradle", &[]),
    ("box_on_slope", &["model.stop_time=0.25"]),
];

fn example(name: &str, sets: &[&str]) -> Diagram {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let path = format!("models/{name}.toml");
    load_model(
        Path::new(&path),
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .expect("example")
}

/// This thread's time on a CPU, ns (Linux: /proc/thread-self/schedstat, nanosecond
/// resolution, without the time spent waiting for a core that other processes hold); the wall
/// clock elsewhere.
fn cpu_ns() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| {
            static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
            START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e9
        })
}

/// CPU time per run of each way, in ms: batches of runs of about 50 ms (the CPU clock is
/// updated at scheduler ticks of a few ms), the two ways alternating batch by batch (so that both
/// see the same state of a shared machine); the least of `BATCHES` batches per way.
fn interleaved_minimum(d: &Diagram, csv: &Path) -> (f64, f64, f64) {
    const BATCHES: usize = 8;
    let started = Instant::now();
    in_memory(d, csv);
    let once = started.elapsed().as_secs_f64();
    // Batches of ~0.4 s: the CPU clock advances in scheduler ticks (4 ms here), so a batch must
    // be long for the ratio to resolve a few per cent.
    let runs = ((0.4 / once).ceil() as usize).max(1);
    let batch = |f: &dyn Fn()| {
        let started = cpu_ns();
        for _ in 0..runs {
            f();
        }
        (cpu_ns() - started) * 1e-6 / runs as f64
    };
    let (mut memory, mut csv_only, mut stream) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..BATCHES {
        memory = memory.min(batch(&|| {
            in_memory(d, csv);
        }));
        csv_only = csv_only.min(batch(&|| {
            streamed(d, csv, false);
        }));
        stream = stream.min(batch(&|| {
            streamed(d, csv, true);
        }));
    }
    (memory, csv_only, stream)
}

fn stream_against_memory(c: &mut Criterion) {
    let dir = scratch();
    println!("CPU time per run (least of 8 interleaved batches of ~0.4 s): in memory + write_csv; streamed CSV (the same output); streamed CSV with the plot's decimated rows:");
    for (name, sets) in EXAMPLES {
        let d = example(name, sets);
        let (memory, csv_only, stream) = interleaved_minimum(&d, &dir.join(format!("{name}.csv")));
        println!(
            "  {name}: {memory:.3} ms; {csv_only:.3} ms ({:.3}); {stream:.3} ms ({:.3})",
            csv_only / memory,
            stream / memory
        );
    }
    for (name, sets) in EXAMPLES {
        let d = example(name, sets);
        let csv = dir.join(format!("{name}.csv"));
        let mut group = c.benchmark_group(format!("record/{name}"));
        group.sample_size(30);
        group.bench_function("memory", |b| b.iter(|| in_memory(&d, &csv)));
        group.bench_function("stream", |b| b.iter(|| streamed(&d, &csv, true)));
        group.finish();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, peak_memory, stream_against_memory);
criterion_main!(benches);
