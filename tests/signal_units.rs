//! Signals carry units (issue 33, part 3): a source's declared `unit`, the rules that carry units
//! through routing and math blocks (docs/model-format.md, "Units of signals"), the plot panels
//! that group by unit, and legends that name the block and say what the column is.
//!
//! Every model is the pendulum of models/pendulum.toml (a RevoluteJoint `hinge` whose `q` is in
//! rad and `w` in rad/s) with the blocks under test added; the units are checked on the columns a
//! run records ([`Recorder::new`]), which is what the plot, the viewer and Python read.

use blockdyn::output::Recording;
use blockdyn::plot::render::{legend_label, plan_panels, PanelPlan};
use blockdyn::sim::Recorder;
use blockdyn::{simulate, Diagram, RunOptions};

/// The pendulum, with `connect` lines and `[blocks.*]` tables added.
fn pendulum(connect: &[&str], blocks: &str) -> String {
    let lines: Vec<String> = connect.iter().map(|c| format!("  \"{c}\",\n")).collect();
    format!(
        r#"connect = [
  "world.W -- hinge.B",
  "hinge.F -- rod.B",
  "rod.F -- bob.R",
{}]

[model]
name = "units"
stop_time = 0.5

[blocks.world]
type = "WorldFrame"

[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]

[blocks.hinge]
type = "RevoluteJoint"
q0 = 0.5

[blocks.rod]
type = "RigidTransform"
translation = [0.0, -1.0, 0.0]

[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 1.0
{blocks}"#,
        lines.concat()
    )
}

fn build(text: &str) -> Diagram {
    blockdyn::load_model_str("units.toml", text, &[]).unwrap_or_else(|d| panic!("{d}"))
}

/// The recorded columns' (name, unit), in CSV order.
fn columns(d: &Diagram) -> Vec<(String, Option<String>)> {
    Recorder::new(d)
        .recording
        .columns
        .into_iter()
        .map(|c| (c.name, c.unit))
        .collect()
}

fn col(name: &str, unit: Option<&str>) -> (String, Option<String>) {
    (name.to_string(), unit.map(str::to_string))
}

/// The 1-based line where `needle` starts in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect("in the model")]
        .matches('\n')
        .count()
        + 1
}

const SCOPE_2: &str = "\n[blocks.angle_rad]\ntype = \"Scope\"\ninputs = 2\n";

/// The issue's case: a measured angle (hinge.q, rad) and a reference angle from a Constant.
/// With `unit = "rad"` both land on one panel "angle_rad [rad]"; without it, the reference has
/// no unit and the Scope is split into "angle_rad [rad]" and "angle_rad (no unit)" (what the
/// issue reported, and what this test would see if the Constant's unit were lost).
#[test]
fn a_constants_unit_reaches_the_plot_panel() {
    let connect = ["hinge.q -> angle_rad.in1", "reference.out -> angle_rad.in2"];
    let with = |unit: &str| {
        let blocks =
            format!("\n[blocks.reference]\ntype = \"Constant\"\nvalue = 0.25\n{unit}{SCOPE_2}");
        Recorder::new(&build(&pendulum(&connect, &blocks))).recording
    };
    let rec = with("unit = \"rad\"\n");
    assert_eq!(
        plan_panels(&rec).unwrap(),
        [PanelPlan {
            title: "angle_rad [rad]".into(),
            columns: vec![0, 1]
        }]
    );
    let titles: Vec<String> = plan_panels(&with(""))
        .unwrap()
        .into_iter()
        .map(|p| p.title)
        .collect();
    assert_eq!(titles, ["angle_rad [rad]", "angle_rad (no unit)"]);
}

/// Every source with a `unit` key gives its output that unit; Clock's is s.
#[test]
fn sources_declare_their_units() {
    let blocks = r#"
[blocks.c]
type = "Constant"
value = [1.0, 2.0]
unit = "N"
[blocks.st]
type = "Step"
unit = "m"
[blocks.ra]
type = "Ramp"
unit = "m/s"
[blocks.si]
type = "Sine"
unit = "rad"
[blocks.pu]
type = "PulseGenerator"
unit = "W"
[blocks.ft]
type = "FromTable"
time = [0.0, 1.0]
values = [0.0, 1.0]
unit = "kg"
[blocks.fc]
type = "Fcn"
expression = "2*u"
unit = "J"
[blocks.cl]
type = "Clock"
[output]
log = ["c.out", "st.out", "ra.out", "si.out", "pu.out", "ft.out", "fc.out", "cl.out"]
"#;
    let d = build(&pendulum(&["hinge.q -> fc.in"], blocks));
    assert_eq!(
        columns(&d),
        [
            col("c.out[0]", Some("N")),
            col("c.out[1]", Some("N")),
            col("st.out", Some("m")),
            col("ra.out", Some("m/s")),
            col("si.out", Some("rad")),
            col("pu.out", Some("W")),
            col("ft.out", Some("kg")),
            col("fc.out", Some("J")),
            col("cl.out", Some("s")),
        ]
    );
    assert!(d.warnings().is_empty(), "{:?}", d.warnings());
}

/// Mux concatenates its inputs' units element by element, Selector picks them with the
/// elements, Demux splits them, and the pass-through blocks (ZeroOrderHold, UnitDelay,
/// Saturation, Abs) keep them.
#[test]
fn routing_blocks_pass_units_on() {
    let connect = [
        "hinge.q -> mux.in1",
        "hinge.w -> mux.in2",
        "mux.out -> pick.in",
        "mux.out -> split.in",
        "hinge.w -> zoh.in",
        "zoh.out -> delay.in",
        "delay.out -> sat.in",
        "sat.out -> abs.in",
    ];
    let blocks = r#"
[blocks.mux]
type = "Mux"
[blocks.pick]
type = "Selector"
indices = [1, 0]
[blocks.split]
type = "Demux"
[blocks.zoh]
type = "ZeroOrderHold"
sample_time = 0.1
[blocks.delay]
type = "UnitDelay"
sample_time = 0.1
[blocks.sat]
type = "Saturation"
lower = -1.0
upper = 1.0
[blocks.abs]
type = "Abs"
[output]
log = ["mux.out", "pick.out", "split.out1", "split.out2", "abs.out"]
"#;
    let d = build(&pendulum(&connect, blocks));
    assert_eq!(
        columns(&d),
        [
            col("mux.out[0]", Some("rad")),
            col("mux.out[1]", Some("rad/s")),
            col("pick.out[0]", Some("rad/s")),
            col("pick.out[1]", Some("rad")),
            col("split.out1", Some("rad")),
            col("split.out2", Some("rad/s")),
            col("abs.out", Some("rad/s")),
        ]
    );
}

/// A Switch passes the unit its data inputs agree on (the control's is not passed); a Sum of
/// equal units keeps it; an Integrator of rad/s gives rad; a Product gives none (units are not
/// multiplied).
#[test]
fn switch_sum_integrator_and_product_rules() {
    let connect = [
        "hinge.q -> sw.in1",
        "hinge.w -> sw.in2",
        "ref.out -> sw.in3",
        "hinge.q -> err.in1",
        "ref.out -> err.in2",
        "hinge.w -> int.in",
        "hinge.q -> prod.in1",
        "hinge.q -> prod.in2",
    ];
    let blocks = r#"
[blocks.ref]
type = "Constant"
value = 0.25
unit = "rad"
[blocks.sw]
type = "Switch"
[blocks.err]
type = "Sum"
signs = "+-"
[blocks.int]
type = "Integrator"
[blocks.prod]
type = "Product"
[output]
log = ["sw.out", "err.out", "int.out", "prod.out"]
"#;
    let d = build(&pendulum(&connect, blocks));
    assert_eq!(
        columns(&d),
        [
            col("sw.out", Some("rad")),
            col("err.out", Some("rad")),
            col("int.out", Some("rad")),
            col("prod.out", None),
        ]
    );
    assert!(d.warnings().is_empty(), "{:?}", d.warnings());
}

/// A Sum of an angle and a length warns, located at the Sum's line, naming both inputs and
/// their units; its output has no unit.
#[test]
fn a_sum_of_mixed_units_warns_at_its_line() {
    let blocks = r#"
[blocks.offset]
type = "Constant"
value = 0.1
unit = "m"

[blocks.sum]
type = "Sum"
signs = "++"
[output]
log = ["sum.out"]
"#;
    let text = pendulum(&["hinge.q -> sum.in1", "offset.out -> sum.in2"], blocks);
    let d = build(&text);
    let line = line_of(&text, "[blocks.sum]");
    let expected = format!("units.toml:{line}:");
    let warning = d
        .warnings()
        .iter()
        .find(|w| w.contains("adds in1 in rad to in2 in m"))
        .unwrap_or_else(|| panic!("no unit warning: {:?}", d.warnings()));
    assert!(warning.starts_with(&expected), "{warning}");
    assert!(warning.contains("block 'sum'"), "{warning}");
    assert_eq!(columns(&d), [col("sum.out", None)]);
}

/// A Gain's declared unit wins over its input's; `dimensionless = true` keeps the input's; a
/// Gain with neither gives none (its gain may carry a unit: kp in N·m/rad); both keys are an
/// error at `dimensionless`.
#[test]
fn a_gains_declared_unit_wins() {
    let connect = [
        "hinge.q -> kp.in",
        "hinge.q -> half.in",
        "hinge.q -> bare.in",
    ];
    let blocks = r#"
[blocks.kp]
type = "Gain"
gain = 20.0
unit = "N·m"
[blocks.half]
type = "Gain"
gain = 0.5
dimensionless = true
[blocks.bare]
type = "Gain"
gain = 3.0
[output]
log = ["kp.out", "half.out", "bare.out"]
"#;
    let d = build(&pendulum(&connect, blocks));
    assert_eq!(
        columns(&d),
        [
            col("kp.out", Some("N·m")),
            col("half.out", Some("rad")),
            col("bare.out", None),
        ]
    );
    let both = blocks.replace("gain = 20.0\n", "gain = 20.0\ndimensionless = true\n");
    let e = blockdyn::load_model_str("units.toml", &pendulum(&connect, &both), &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("'dimensionless = true' and 'unit' both say what the output is in"),
        "{e}"
    );
}

/// Any unit text is accepted; an empty one warns at the key and gives no unit.
#[test]
fn an_empty_unit_warns_at_its_key() {
    let blocks = "\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\nunit = \"\"\n[blocks.d]\ntype = \"Constant\"\nvalue = 2.0\nunit = \"furlong\"\n[output]\nlog = [\"c.out\", \"d.out\"]\n";
    let text = pendulum(&[], blocks);
    let d = build(&text);
    let line = line_of(&text, "unit = \"\"");
    let expected = format!("units.toml:{line}:8: block 'c': unit = \"\" is empty");
    assert!(
        d.warnings().iter().any(|w| w.starts_with(&expected)),
        "{:?}",
        d.warnings()
    );
    assert_eq!(d.warnings().len(), 1, "{:?}", d.warnings());
    assert_eq!(
        columns(&d),
        [col("c.out", None), col("d.out", Some("furlong"))]
    );
}

/// A run of the pendulum with its measured angle `free.q[0]` and a reference angle on one
/// Scope: one panel "angle_rad [rad]" with both curves, legends that start with the block's
/// name and say the quantity ("free: q[0] (angle, rad)"), and the PNG is written.
#[test]
fn a_measured_and_a_reference_angle_share_one_panel() {
    let text = pendulum(
        &[
            "free.q[0] -> angle_rad.in1",
            "reference.out -> angle_rad.in2",
        ],
        &format!(
            "\n[blocks.reference]\ntype = \"Constant\"\nvalue = 0.25\nunit = \"rad\"\n{SCOPE_2}"
        ),
    )
    .replace("hinge", "free");
    let d = build(&text);
    let result = simulate(&d, RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let rec: &Recording = &result.recording;
    let plans = plan_panels(rec).unwrap();
    assert_eq!(plans.len(), 1, "{plans:?}");
    assert_eq!(plans[0].title, "angle_rad [rad]");
    assert_eq!(plans[0].columns, [0, 1]);
    assert_eq!(legend_label(rec, 0, None), "free: q[0] (angle, rad)");
    assert_eq!(legend_label(rec, 1, None), "reference: out (angle, rad)");
    // The run moved the measured angle (q0 = 0.5 rad, released): the curve is not the constant.
    let q: Vec<f64> = rec.column_values(0).collect();
    assert_eq!(q[0], 0.5);
    assert!(q.last().unwrap() < &0.5, "{q:?}");
    // A scratch directory under the target's temporary directory, never the repository.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("signal_units");
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("angles.png");
    blockdyn::plot::plot_png(rec, &png, &blockdyn::plot::PlotOptions::default()).unwrap();
    assert!(std::fs::metadata(&png).unwrap().len() > 0);
}

/// The units reach a Mux of 20 inputs whose k-th input comes through a chain of k dimensionless
/// Gains written before the Constant that starts it (so each chain's end learns its unit k rounds
/// later): every element of the Mux gets its Constant's unit, whatever the order of the blocks.
/// (A cap on how often a block is visited, rather than on how often its outputs change, left the
/// last elements unknown.)
#[test]
fn long_chains_into_one_mux_all_arrive() {
    let n = 20;
    let mut connect = Vec::new();
    let mut blocks = format!("[blocks.mux]\ntype = \"Mux\"\ninputs = {n}\n");
    for k in 1..=n {
        // Written from the Mux back to the source: g{k}_{k}, …, g{k}_1, then the Constant.
        for j in (1..=k).rev() {
            blocks +=
                &format!("[blocks.g{k}_{j}]\ntype = \"Gain\"\ngain = 1.0\ndimensionless = true\n");
            let from = if j == 1 {
                format!("c{k}.out")
            } else {
                format!("g{k}_{}.out", j - 1)
            };
            connect.push(format!("{from} -> g{k}_{j}.in"));
        }
        blocks += &format!("[blocks.c{k}]\ntype = \"Constant\"\nvalue = 1.0\nunit = \"u{k}\"\n");
        connect.push(format!("g{k}_{k}.out -> mux.in{k}"));
    }
    blocks += "[output]\nlog = [\"mux.out\"]\n";
    let connect: Vec<&str> = connect.iter().map(String::as_str).collect();
    let d = build(&pendulum(&connect, &blocks));
    let want: Vec<_> = (1..=n)
        .map(|k| col(&format!("mux.out[{}]", k - 1), Some(&format!("u{k}"))))
        .collect();
    assert_eq!(columns(&d), want);
}
