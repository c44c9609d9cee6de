//! FromTable: drives a model with tabulated (e.g. measured) data.

use super::common::{bad, column, port};
use super::unit_key::{UnitKey, UNIT_DOC};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Required, Setup, Shape, UnitInputs, Units,
};
use crate::params::{ParamError, Params};

/// A table of samples `values[i]` at `time[i]` (strictly increasing), output as an m×1 signal.
///
/// Work slot 0 holds `k`, the number of breakpoints at or before the current time (0..=N); it
/// changes only at the time events placed on every breakpoint, so within a step the output is
/// one smooth piece:
/// - `"linear"`: `values[k-1] + (t − time[k-1])·(values[k] − values[k-1])/(time[k] − time[k-1])`
///   for 0 < k < N, `values[0]` for k = 0, `values[N-1]` for k = N (held outside the table);
/// - `"hold"`: `values[k-1]` (the previous sample), `values[0]` before the first breakpoint.
struct FromTable {
    time: Vec<f64>,
    /// Row-major: N rows of m values.
    values: Vec<f64>,
    m: usize,
    linear: bool,
    /// The `unit` key: the output's unit.
    unit: UnitKey,
    outputs: Vec<PortDecl>,
}

impl FromTable {
    fn row(&self, i: usize) -> &[f64] {
        &self.values[i * self.m..(i + 1) * self.m]
    }

    fn advance(&self, work: &mut [f64], t: f64) -> bool {
        let mut k = work[0] as usize;
        let start = k;
        while k < self.time.len() && self.time[k] <= t {
            k += 1;
        }
        work[0] = k as f64;
        k != start
    }
}

impl Block for FromTable {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, _: &UnitInputs<'_>) -> Vec<Units> {
        vec![self.unit.units()]
    }
    fn warnings(&self) -> Vec<String> {
        self.unit.warnings()
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup {
            num_work: 1,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.work[0] = 0.0;
        self.advance(ctx.work, ctx.t);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let n = self.time.len();
        let k = ctx.work[0] as usize;
        let t = ctx.t;
        if k == 0 {
            ctx.output(0).copy_from_slice(self.row(0));
        } else if k == n || !self.linear {
            ctx.output(0).copy_from_slice(self.row(k - 1));
        } else {
            let (t0, t1) = (self.time[k - 1], self.time[k]);
            let s = (t - t0) / (t1 - t0);
            let (a, b) = (self.row(k - 1), self.row(k));
            for (i, y) in ctx.output(0).iter_mut().enumerate() {
                *y = a[i] + s * (b[i] - a[i]);
            }
        }
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        self.time[work[0] as usize..]
            .iter()
            .copied()
            .find(|&tb| tb > t)
    }
    fn handle_event(&self, ctx: &mut Ctx, _: &[bool], _: bool) -> bool {
        self.advance(ctx.work, ctx.t)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        self.advance(ctx.work, ctx.t)
    }
}

/// The sample times.
const TIME: Required<Vec<f64>> = crate::param!(
    "time",
    "s",
    required("[0.0, 1.0, 2.0] (s, strictly increasing)"),
    "sample times, strictly increasing"
);
/// The samples.
const VALUES: Required<Vec<Vec<f64>>> = crate::param!(
    "values",
    "",
    required("[..] with one value (or one row) per time"),
    "one number per time (1×1 output) or one row of m numbers per time (m×1 output)"
);

fn build_from_table(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let time = TIME.read(r)?;
    r.ensure(
        !time.is_empty(),
        "time",
        "must not be empty",
        "write at least one time, e.g. time = [0.0, 1.0]",
    )?;
    if let Some(i) = (1..time.len()).find(|&i| time[i] <= time[i - 1]) {
        return Err(bad(
            r,
            "time",
            format!("'time' must be strictly increasing, but time[{i}] = {} follows {}", time[i], time[i - 1]),
            "list the sample times in increasing order without repeats; for a jump use interpolation = \"hold\"",
        ));
    }
    let rows = VALUES.read(r)?;
    if rows.len() != time.len() {
        return Err(bad(
            r,
            "values",
            format!(
                "'values' has {} entries but 'time' has {}",
                rows.len(),
                time.len()
            ),
            "write one value per time (or one row per time for a vector output)",
        ));
    }
    let m = rows[0].len();
    r.ensure(
        m > 0,
        "values",
        "must not have empty rows",
        "write e.g. values = [[0.0, 1.0], [1.0, 2.0]]",
    )?;
    let linear = INTERPOLATION.read(r)? == "linear";
    let unit = UnitKey::read(r)?;
    r.finish()?;
    let values = rows.into_iter().flatten().collect();
    Ok(Box::new(FromTable {
        time,
        values,
        m,
        linear,
        unit,
        outputs: vec![PortDecl::signal("out", column(m))],
    }))
}

const INTERPOLATION: Param<&str> = crate::param!(
    "interpolation",
    "",
    "linear",
    "\"linear\" or \"hold\" (zero-order hold of the previous sample)"; one_of["linear", "hold"],
);

pub static FROM_TABLE: BlockType = BlockType {
    name: "FromTable",
    category: "Sources",
    summary: "Plays back a table of samples (e.g. measured data). `\"linear\"` interpolates between \
              samples, `\"hold\"` keeps the previous sample; before the first and after the last time \
              the end value is held. Every breakpoint is an exact time event.",
    params: &[
        TIME.doc,
        VALUES.doc,
        INTERPOLATION.doc,
        UNIT_DOC,
    ],
    ports: &[port("out", "output", "m×1 (1×1 for a list of numbers)", "`unit`", "the table value at t")],
    build: build_from_table,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn linear_interpolates_and_holds_outside() {
        let mut h = Harness::scalar(
            "FromTable",
            "time = [1.0, 2.0, 4.0]\nvalues = [10.0, 20.0, 0.0]",
        );
        h.initialize(0.0);
        assert_eq!(h.out_at(0.5, 0), vec![10.0]); // held before the first time
        assert_eq!(h.next_time_event(), Some(1.0));
        h.time_event(1.0);
        assert_eq!(h.out_at(1.25, 0), vec![12.5]); // 10 + 0.25·10
        h.time_event(2.0);
        assert_eq!(h.next_time_event(), Some(4.0));
        assert_eq!(h.out_at(3.0, 0), vec![10.0]); // 20 − 0.5·20
        h.time_event(4.0);
        assert_eq!(h.next_time_event(), None);
        assert_eq!(h.out_at(9.0, 0), vec![0.0]); // held after the last time
    }

    #[test]
    fn hold_keeps_the_previous_sample_and_rows_make_vectors() {
        let mut h = Harness::scalar(
            "FromTable",
            "time = [0.0, 1.0]\nvalues = [[1.0, 2.0], [3.0, 4.0]]\ninterpolation = \"hold\"",
        );
        assert_eq!(h.outputs[0], Shape::vector(2));
        h.initialize(0.0);
        assert_eq!(h.out_at(0.99, 0), vec![1.0, 2.0]);
        assert_eq!(h.next_time_event(), Some(1.0));
        h.time_event(1.0);
        assert_eq!(h.out_at(1.0, 0), vec![3.0, 4.0]);
    }

    #[test]
    fn bad_tables_are_rejected() {
        let e = build_error("FromTable", "time = [0.0, 1.0, 1.0]\nvalues = [1, 2, 3]");
        assert!(
            e.contains("strictly increasing") && e.contains("time[2]"),
            "{e}"
        );
        let e = build_error("FromTable", "time = [0.0, 1.0]\nvalues = [1, 2, 3]");
        assert!(e.contains("has 3 entries but 'time' has 2"), "{e}");
        let e = build_error(
            "FromTable",
            "time = [0.0]\nvalues = [1]\ninterpolation = \"cubic\"",
        );
        assert!(e.contains("cannot be \"cubic\""), "{e}");
    }
}
