//! Sweeps (issue 13): the 64-point sweep of models/ball_drop.toml (8 contact stiffnesses × 8
//! dampings, the model parsed once) run serially and on 2 threads, in one process, alternating,
//! after one warm-up of each; prints each round, the medians and their ratio (the threaded
//! throughput over the serial). Target: ≥ 1.8× on 2 threads.
//!
//! The ratio is only meaningful on a machine with 2 idle cores: the bench prints the load average
//! (from /proc/loadavg) before and after. Wall-clock figures are never asserted in tests.
//!
//! Run: `cargo bench --bench sweep` (about 20 s); `cargo bench --bench sweep -- 4` for 4 threads.

#[path = "support/ball_drop_sweep.rs"]
mod ball_drop_sweep;

use std::time::Duration;

/// Alternating rounds of each.
const ROUNDS: usize = 7;

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
    for round in 1..=ROUNDS {
        let (_, s) = ball_drop_sweep::timed_run(&sweep, 1);
        let (_, t) = ball_drop_sweep::timed_run(&sweep, threads);
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
    println!("load average after: {}", load_average());
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
