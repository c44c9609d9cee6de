//! A threaded sweep: models/ball_drop.toml loaded once, 64 variants (8 contact stiffnesses × 8
//! dampings of `contact.normal`) run serially and then over N threads; the recordings must be
//! identical bit for bit, and the throughput ratio is printed.
//!
//! Run: `cargo run --release --example sweep_threads -- [N]` (N threads, default 2). Its test
//! (`cargo test --example sweep_threads`, part of `cargo test`) checks the identity, not the time.

#[path = "../benches/support/ball_drop_sweep.rs"]
mod ball_drop_sweep;

use std::process::ExitCode;

fn main() -> ExitCode {
    let threads = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 2,
        Some(Ok(n)) if n >= 1 => n,
        Some(_) => {
            eprintln!("usage: sweep_threads [THREADS ≥ 1]");
            return ExitCode::FAILURE;
        }
    };
    let sweep = ball_drop_sweep::sweep();
    let (serial, serial_time) = ball_drop_sweep::timed_run(&sweep, 1);
    let (threaded, threaded_time) = ball_drop_sweep::timed_run(&sweep, threads);
    if let Err(difference) = ball_drop_sweep::identical(&serial, &threaded) {
        eprintln!("the threaded sweep differs from the serial one: {difference}");
        return ExitCode::FAILURE;
    }
    let ratio = serial_time.as_secs_f64() / threaded_time.as_secs_f64();
    println!(
        "{} points, identical bit for bit: serial {:.3} s, {threads} threads {:.3} s: {ratio:.2}× the serial throughput",
        serial.len(),
        serial_time.as_secs_f64(),
        threaded_time.as_secs_f64(),
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::ball_drop_sweep;

    /// The example's claim, without timing: 64 points, every one run, the same bits on 2 threads
    /// as serially.
    #[test]
    fn threaded_sweep_equals_serial_sweep() {
        let sweep = ball_drop_sweep::sweep();
        let serial = ball_drop_sweep::run(&sweep, 1);
        let threaded = ball_drop_sweep::run(&sweep, 2);
        assert_eq!(serial.len(), 64);
        assert!(serial.iter().all(|p| p.result.is_ok()));
        ball_drop_sweep::identical(&serial, &threaded).unwrap();
    }
}
