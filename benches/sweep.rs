//! Sweeps (issue 13): the 64-point sweep of models/ball_drop.toml (8 contact stiffnesses × 8
//! dampings, the model parsed once) run serially and on 2 threads, in one process, alternating,
//! after one warm-up of each, 15 rounds; prints each round, the medians and their ratio (the threaded
//! throughput over the serial). Target: ≥ 1.8× on 2 threads.
//!
//! The ratio is only meaningful on a machine with 2 idle cores: the bench prints the load average
//! (from /proc/loadavg) before and after, and the cores the process got in each phase (its CPU
//! time over the wall time, from /proc/self/stat, 10 ms resolution summed over the rounds): a
//! threaded phase that got fewer than 2 cores was crowded out by other work; and the CPU time per
//! point in each phase, which the load does not change much: equal, the threads add no work of
//! their own. Wall-clock figures are never asserted in tests.
//!
//! Run: `cargo bench --bench sweep` (about 20 s); `cargo bench --bench sweep -- 4` for 4 threads.

#[path = "support/ball_drop_sweep.rs"]
mod ball_drop_sweep;

use std::time::Duration;

/// Alternating rounds of each.
const ROUNDS: usize = 15;

fn main() {
    // `cargo bench` passes `--bench`; a number is the thread count.
    let threads = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(2);
    println!("load average before: {}", load_average());
    let sweep = ball_drop_sweep::sweep();
    let (serial, _) = ball_drop_sweep::timed_run(&sweep, 1);
    let (threaded, _) = ball_drop_sweep::timed_run(&sweep, threads);
    ball_drop_sweep::identical(&serial, &threaded).expect("the same bits serially and threaded");
    let mut serial_times = Vec::new();
    let mut threaded_times = Vec::new();
    let (mut serial_cpu, mut threaded_cpu) = (0.0, 0.0);
    for round in 1..=ROUNDS {
        let before = cpu_seconds();
        let (_, s) = ball_drop_sweep::timed_run(&sweep, 1);
        let middle = cpu_seconds();
        let (_, t) = ball_drop_sweep::timed_run(&sweep, threads);
        threaded_cpu += cpu_seconds() - middle;
        serial_cpu += middle - before;
        println!(
            "round {round}: serial {:.1} ms, {threads} threads {:.1} ms, ratio {:.2}",
            ms(s),
            ms(t),
            s.as_secs_f64() / t.as_secs_f64()
        );
        serial_times.push(s);
        threaded_times.push(t);
    }
    let (s, t) = (median(&mut serial_times), median(&mut threaded_times));
    println!(
        "sweep/ball_drop_64: serial {:.1} ms ({:.2} ms per point), {threads} threads {:.1} ms: {:.2}× the serial throughput (medians of {ROUNDS})",
        ms(s),
        ms(s) / serial.len() as f64,
        ms(t),
        s.as_secs_f64() / t.as_secs_f64()
    );
    let wall = |times: &[Duration]| times.iter().map(Duration::as_secs_f64).sum::<f64>();
    println!(
        "cores used (CPU time / wall time): serial {:.2}, {threads} threads {:.2}",
        serial_cpu / wall(&serial_times),
        threaded_cpu / wall(&threaded_times)
    );
    // The work itself, whatever the load: CPU time per point in each phase. Equal times mean the
    // threads add no work (no contention), so on idle cores the ratio is bounded only by how
    // evenly the points split.
    let per_point = |cpu: f64| 1e3 * cpu / (ROUNDS * serial.len()) as f64;
    println!(
        "CPU time per point: serial {:.2} ms, {threads} threads {:.2} ms (serial / threaded {:.2})",
        per_point(serial_cpu),
        per_point(threaded_cpu),
        serial_cpu / threaded_cpu
    );
    println!("load average after: {}", load_average());
}

/// The CPU time (user + system) of this process so far, s, from /proc/self/stat (clock ticks of
/// 10 ms); 0 where there is no /proc.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command name (which is in parentheses and may hold spaces): utime and
    // stime are the 14th and 15th fields of the line, the 12th and 13th after the name.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: Vec<f64> = after_name
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse().ok())
        .collect();
    ticks.iter().sum::<f64>() / 100.0
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The 1, 5 and 15 minute load averages, or "unknown".
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}
