//! CSV output of a [`Recording`], per the model-format contract.
//!
//! Layout: a header line `time,<column names>`, then one line per recorded row. Lines end with `\n`.
//! A header field that contains a comma, a double quote or a line break is quoted as RFC 4180 says
//! (`"joint.R[0,1]"`; inner quotes doubled), so matrix elements `block.port[i,j]` stay one field.
//!
//! Numbers are written in the shortest form that parses back to exactly the same `f64`: plain decimal
//! (`0.25`, `-3`, `1234.5`) for magnitudes in [1e-5, 1e16) and zero, scientific (`1e-7`,
//! `6.02214076e23`) otherwise. Non-finite values are written `NaN`, `inf`, `-inf` (the model never
//! produces them in a successful run, but the writer does not refuse them).

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use super::error::OutputError;
use super::recording::{Column, Recording};
use super::staged::write_atomically;
use super::staged::StagedFile;

/// Kind of file named in errors.
const WHAT: &str = "CSV";

/// Writes `rec` as CSV to `path`, whole or not at all (see [`write_atomically`]).
///
/// Errors: the directory is missing, the path is a directory, an I/O failure, or a recording whose
/// `values` do not hold `times.len() × columns.len()` numbers.
pub fn write_csv(rec: &Recording, path: &Path) -> Result<(), OutputError> {
    let expected = rec.times.len() * rec.columns.len();
    if rec.values.len() != expected {
        return Err(OutputError::InvalidRecording {
            what: WHAT,
            path: path.to_path_buf(),
            reason: format!(
                "the recording holds {} values, expected {} rows × {} columns = {expected}",
                rec.values.len(),
                rec.times.len(),
                rec.columns.len()
            ),
        });
    }
    write_atomically(path, WHAT, |w| write_csv_to(rec, w))
}

/// Writes `rec` as CSV to any writer (no atomicity; [`write_csv`] adds it). The recording must be
/// consistent (`values.len() == times.len() * columns.len()`); otherwise an `InvalidData` error.
pub fn write_csv_to(rec: &Recording, w: &mut dyn Write) -> io::Result<()> {
    let n_columns = rec.columns.len();
    if rec.values.len() != rec.times.len() * n_columns {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "inconsistent recording",
        ));
    }
    write_header(w, &rec.columns)?;
    for (i, &time) in rec.times.iter().enumerate() {
        write_row(w, time, &rec.values[i * n_columns..(i + 1) * n_columns])?;
    }
    Ok(())
}

/// Writes the header line: `time`, then the column names.
pub fn write_header(w: &mut dyn Write, columns: &[Column]) -> io::Result<()> {
    w.write_all(b"time")?;
    for column in columns {
        w.write_all(b",")?;
        write_field(w, &column.name)?;
    }
    w.write_all(b"\n")
}

/// Writes one row: the time, then the values.
pub fn write_row(w: &mut dyn Write, time: f64, values: &[f64]) -> io::Result<()> {
    write!(w, "{}", CsvNumber(time))?;
    for &value in values {
        write!(w, ",{}", CsvNumber(value))?;
    }
    w.write_all(b"\n")
}

/// A CSV written while a run goes: the header when created, each row as it is recorded, into a
/// [`StagedFile`] that the run's outputs commit together at the end.
///
/// A row is formatted into a line buffer (sized for the longest possible row up front, then
/// reused: no allocation per row) and handed to the file's 64 KiB buffer. The first I/O error stops the
/// writing and is kept for [`CsvStream::finish`]; the run goes on.
#[derive(Debug)]
pub struct CsvStream {
    file: StagedFile,
    line: Vec<u8>,
    bytes: u64,
    error: Option<io::Error>,
}

impl CsvStream {
    /// Starts the CSV in `file` with the header of `columns`.
    pub fn new(mut file: StagedFile, columns: &[Column]) -> Result<CsvStream, OutputError> {
        // The longest number, "-2.2250738585072014e-308", and its comma: rows never grow it.
        let mut line = Vec::with_capacity(25 * (columns.len() + 1) + 1);
        write_header(&mut line, columns).map_err(|e| file.error("writing failed", e))?;
        file.writer()
            .write_all(&line)
            .map_err(|e| file.error("writing failed", e))?;
        Ok(CsvStream {
            file,
            bytes: line.len() as u64,
            line,
            error: None,
        })
    }

    /// Appends one row (nothing after an I/O error).
    pub fn push(&mut self, time: f64, values: &[f64]) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        let written = write_row(&mut self.line, time, values)
            .and_then(|()| self.file.writer().write_all(&self.line));
        match written {
            Ok(()) => self.bytes += self.line.len() as u64,
            Err(e) => self.error = Some(e),
        }
    }

    /// Bytes written so far (header included).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The staged file with every row in it, or the first I/O error.
    pub fn finish(self) -> Result<StagedFile, OutputError> {
        match self.error {
            Some(e) => Err(self.file.error("writing failed", e)),
            None => Ok(self.file),
        }
    }
}

/// Writes one text field, quoted when it contains `,`, `"`, `\r` or `\n` (RFC 4180).
pub fn write_field(w: &mut dyn Write, field: &str) -> io::Result<()> {
    if field.contains([',', '"', '\r', '\n']) {
        write!(w, "\"{}\"", field.replace('"', "\"\""))
    } else {
        w.write_all(field.as_bytes())
    }
}

/// An `f64` displayed in the shortest round-trip form described in the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct CsvNumber(pub f64);

impl fmt::Display for CsvNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        let magnitude = x.abs();
        // Both `{}` and `{:e}` print the shortest digits that round-trip; `{}` never uses an
        // exponent, which would print 1e-300 with 300 zeros, hence the switch.
        if x == 0.0 || !x.is_finite() || (1e-5..1e16).contains(&magnitude) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn column(name: &str) -> Column {
        Column {
            name: name.to_string(),
            unit: None,
            panel: None,
        }
    }

    #[test]
    fn numbers_use_plain_or_scientific_form() {
        let cases = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (1e-5, "0.00001"),
            (9.9e-6, "9.9e-6"),
            (1e16, "1e16"),
            (123456789.125, "123456789.125"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        ];
        for (x, text) in cases {
            assert_eq!(CsvNumber(x).to_string(), text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_b10c), ..ProptestConfig::default() })]
        /// Every finite f64 (any bit pattern) survives format → parse exactly.
        #[test]
        fn numbers_round_trip_exactly(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let back: f64 = CsvNumber(x).to_string().parse().unwrap();
            prop_assert_eq!(back.to_bits(), x.to_bits());
        }
    }

    #[test]
    fn header_fields_with_commas_are_quoted() {
        let mut rec = Recording::new(
            vec![],
            vec![column("s.R[0,1]"), column("a\"b"), column("j.q")],
        );
        rec.push_row(0.5, &[1.0, 2.0, 3.0]);
        let mut out = Vec::new();
        write_csv_to(&rec, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "time,\"s.R[0,1]\",\"a\"\"b\",j.q\n0.5,1,2,3\n"
        );
    }

    #[test]
    fn inconsistent_recording_is_an_error_not_a_panic() {
        let mut rec = Recording::new(vec![], vec![column("a"), column("b")]);
        rec.times.push(0.0);
        rec.values.push(1.0);
        let err = write_csv(&rec, Path::new("never-written.csv")).unwrap_err();
        assert!(matches!(err, OutputError::InvalidRecording { .. }), "{err}");
        assert!(!Path::new("never-written.csv").exists());
    }
}
