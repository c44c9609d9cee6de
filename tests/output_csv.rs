//! CSV output: header, exact round trip of values, whole-or-nothing writes.

use std::fs;
use std::path::{Path, PathBuf};

use blockdyn::output::{write_csv, Column, OutputError, Recording};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("output_csv-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn column(name: &str) -> Column {
    Column {
        name: name.to_string(),
        unit: None,
        panel: None,
    }
}

/// Splits one CSV line into fields (RFC 4180 quoting: `"a,b"`, `""` inside quotes).
fn split_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            _ => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

/// A recording like a run's: a vector element, a matrix element (comma in its name), a scalar;
/// values spanning many magnitudes, and an event (two rows at t = 0.5).
fn recording() -> Recording {
    let mut rec = Recording::new(
        vec!["scope".into()],
        vec![
            column("joint.p[2]"),
            column("sensor.R[0,1]"),
            column("contact.normal_force"),
        ],
    );
    for i in 0..=100 {
        let t = i as f64 / 100.0;
        let row = [(1.0 / 3.0) * t, (t * 17.0).sin() * 1e-9, 9.81e7 * t * t];
        rec.push_row(t, &row);
        if i == 50 {
            rec.push_row(t, &[-row[0], row[1], 0.0]);
        }
    }
    rec
}

#[test]
fn header_and_values_round_trip_exactly() {
    let dir = scratch_dir("roundtrip");
    let path = dir.join("run.csv");
    let rec = recording();
    write_csv(&rec, &path).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        split_fields(lines.next().unwrap()),
        vec![
            "time",
            "joint.p[2]",
            "sensor.R[0,1]",
            "contact.normal_force"
        ]
    );
    let rows: Vec<Vec<f64>> = lines
        .map(|line| {
            split_fields(line)
                .iter()
                .map(|f| f.parse::<f64>().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), rec.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 4);
        // Shortest round-trip formatting: parsing gives back the identical f64 (tolerance 0,
        // stricter than the 1e-12 the contract needs).
        assert_eq!(row[0].to_bits(), rec.times[i].to_bits(), "time of row {i}");
        for (j, value) in row[1..].iter().enumerate() {
            assert_eq!(
                value.to_bits(),
                rec.row(i)[j].to_bits(),
                "row {i} column {j}"
            );
        }
    }
    // The event gives two rows at t = 0.5.
    assert_eq!(rows[50][0], 0.5);
    assert_eq!(rows[51][0], 0.5);
    assert!(text.ends_with('\n'));
}

#[test]
fn empty_recording_has_header_only() {
    let dir = scratch_dir("empty");
    let path = dir.join("empty.csv");
    write_csv(&Recording::new(vec![], vec![column("a.out")]), &path).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "time,a.out\n");
    write_csv(&Recording::default(), &path).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "time\n");
}

#[test]
fn failed_write_leaves_no_partial_file() {
    let dir = scratch_dir("failing");
    let path = dir.join("good.csv");
    write_csv(&recording(), &path).unwrap();
    let good = fs::read(&path).unwrap();

    // The target is a directory.
    let as_dir = dir.join("sub.csv");
    fs::create_dir(&as_dir).unwrap();
    let err = write_csv(&recording(), &as_dir).unwrap_err();
    assert!(
        matches!(err, OutputError::TargetIsDirectory { .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!("cannot write CSV '{}': it is a directory", as_dir.display())
    );
    assert_eq!(fs::read_dir(&as_dir).unwrap().count(), 0);

    // The directory does not exist.
    let missing = dir.join("out").join("run.csv");
    let err = write_csv(&recording(), &missing).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "cannot write CSV '{}': directory '{}' does not exist",
            missing.display(),
            dir.join("out").display()
        )
    );

    // An inconsistent recording is refused before the file is touched.
    let mut broken = recording();
    broken.values.pop();
    let err = write_csv(&broken, &path).unwrap_err();
    assert!(matches!(err, OutputError::InvalidRecording { .. }), "{err}");

    assert_eq!(fs::read(&path).unwrap(), good);
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec!["good.csv", "sub.csv"],
        "no temporary files left"
    );
}
