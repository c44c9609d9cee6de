//! Every class of bad input is rejected with a located, explained message, and never panics.

fn error_of(text: &str) -> String {
    match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("model was accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_contains(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "message lacks '{p}':\n{msg}");
    }
}

const HEAD: &str = "[model]\nstop_time = 1.0\n";

#[test]
fn invalid_toml_is_located() {
    let e = error_of("[model\nstop_time = 1.0\n");
    assert_contains(&e, &["bad.toml:1:", "invalid TOML"]);
}

#[test]
fn missing_stop_time() {
    let e = error_of("[model]\nname = \"x\"\n");
    assert_contains(&e, &["stop_time", "help:"]);
}

#[test]
fn unknown_block_type_suggests_the_nearest() {
    let e = error_of(&format!("{HEAD}[blocks.i]\ntype = \"Integrater\"\n"));
    assert_contains(
        &e,
        &[
            "bad.toml:4:8",
            "block 'i'",
            "unknown block type \"Integrater\"",
            "did you mean \"Integrator\"",
        ],
    );
}

#[test]
fn unknown_parameter_suggests_the_nearest() {
    let e = error_of(&format!("{HEAD}[blocks.k]\ntype = \"Gain\"\ngian = 2.0\n"));
    assert_contains(
        &e,
        &[
            "bad.toml:5:1",
            "block 'k'",
            "unknown parameter 'gian'",
            "did you mean 'gain'",
        ],
    );
}

#[test]
fn parameter_out_of_range() {
    let e = error_of(&format!(
        "{HEAD}[blocks.h]\ntype = \"ZeroOrderHold\"\nsample_time = -0.1\n"
    ));
    assert_contains(&e, &["bad.toml:5:", "block 'h'", "sample_time"]);
}

#[test]
fn parameter_of_the_wrong_type() {
    let e = error_of(&format!(
        "{HEAD}[blocks.k]\ntype = \"Gain\"\ngain = \"two\"\n"
    ));
    assert_contains(&e, &["bad.toml:5:8", "gain", "must be"]);
}

#[test]
fn unknown_block_in_a_connection() {
    let e = error_of(&format!("connect = [\"c.out -> scpoe.in1\"]\n{HEAD}[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.scope]\ntype = \"Scope\"\n"));
    assert_contains(
        &e,
        &["bad.toml:1:12", "no block 'scpoe'", "did you mean 'scope'"],
    );
}

#[test]
fn unknown_port_suggests_the_nearest() {
    let e = error_of(&format!("connect = [\"c.outt -> s.in1\"]\n{HEAD}[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n"));
    assert_contains(
        &e,
        &[
            "bad.toml:1:",
            "has no output 'outt'",
            "did you mean 'c.out'",
        ],
    );
}

#[test]
fn line_from_an_input() {
    let e = error_of(&format!("connect = [\"s.in1 -> c.out\"]\n{HEAD}[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n"));
    assert_contains(&e, &["is an input, not an output"]);
}

#[test]
fn two_sources_for_one_input() {
    let e = error_of(&format!(
        "connect = [\"a.out -> s.in1\",\n \"b.out -> s.in1\"]\n{HEAD}[blocks.a]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.b]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n"
    ));
    assert_contains(&e, &["bad.toml:2:2", "s.in1 has two sources", "line 1"]);
}

#[test]
fn unconnected_required_input() {
    let e = error_of(&format!("connect = [\"k.out -> s.in1\"]\n{HEAD}[blocks.k]\ntype = \"Gain\"\n[blocks.s]\ntype = \"Scope\"\n"));
    assert_contains(&e, &["block 'k'", "input 'k.in' is not connected"]);
}

#[test]
fn shape_mismatch() {
    let e = error_of(&format!(
        "connect = [\"v.out -> i.in\"]\n{HEAD}[blocks.v]\ntype = \"Constant\"\nvalue = [1.0, 2.0, 3.0]\n[blocks.i]\ntype = \"Integrator\"\ninitial = [0.0, 0.0]\n"
    ));
    assert_contains(&e, &["3×1", "2×1"]);
}

#[test]
fn element_index_out_of_range() {
    let e = error_of(&format!(
        "connect = [\"v.out[3] -> s.in1\"]\n{HEAD}[blocks.v]\ntype = \"Constant\"\nvalue = [1.0, 2.0, 3.0]\n[blocks.s]\ntype = \"Scope\"\n"
    ));
    assert_contains(&e, &["v.out[3] is out of range", "0 to 2"]);
}

#[test]
fn algebraic_loop_names_every_block() {
    let e = error_of(&format!(
        "connect = [\"a.out -> b.in\", \"b.out -> c.in1\", \"c.out -> a.in\", \"k.out -> c.in2\"]\n{HEAD}[blocks.a]\ntype = \"Gain\"\n[blocks.b]\ntype = \"Gain\"\n[blocks.c]\ntype = \"Sum\"\nsigns = \"++\"\n[blocks.k]\ntype = \"Constant\"\nvalue = 1.0\n"
    ));
    assert_contains(&e, &["algebraic loop", "a", "b", "c", "Integrator"]);
    assert!(!e.contains(" k "), "{e}");
}

#[test]
fn a_loop_through_an_integrator_is_legal() {
    let text = format!("connect = [\"x.out -> k.in\", \"k.out -> x.in\"]\n{HEAD}[blocks.x]\ntype = \"Integrator\"\ninitial = 1.0\n[blocks.k]\ntype = \"Gain\"\ngain = -1.0\n");
    blockdyn::load_model_str("ok.toml", &text, &[])
        .expect("a loop through an integrator has no algebraic loop");
}

#[test]
fn physical_connection_on_a_signal_port() {
    let e = error_of(&format!("connect = [\"a.out -- b.in\"]\n{HEAD}[blocks.a]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.b]\ntype = \"Gain\"\n"));
    assert_contains(&e, &["signal port", "'->'"]);
}

#[test]
fn bad_connection_syntax() {
    let e = error_of(&format!("connect = [\"a.out => b.in\"]\n{HEAD}"));
    assert_contains(&e, &["bad.toml:1:12", "neither '->' nor '--'"]);
}

#[test]
fn bad_override() {
    let text = format!("{HEAD}[blocks.k]\ntype = \"Constant\"\nvalue = 1.0\n");
    let e = blockdyn::load_model_str("bad.toml", &text, &["k.vaule=2".parse().unwrap()])
        .unwrap_err()
        .to_string();
    assert_contains(&e, &["unknown parameter 'vaule'", "did you mean 'value'"]);
    let e = blockdyn::load_model_str("bad.toml", &text, &["q.value=2".parse().unwrap()])
        .unwrap_err()
        .to_string();
    assert_contains(&e, &["no block 'q'"]);
}

#[test]
fn bad_log_entry() {
    let text = format!(
        "{HEAD}[output]\nlog = [\"k.outt\"]\n[blocks.k]\ntype = \"Constant\"\nvalue = 1.0\n"
    );
    let e = error_of(&text);
    assert_contains(
        &e,
        &[
            "bad.toml:4:",
            "has no output 'outt'",
            "did you mean 'k.out'",
        ],
    );
}

#[test]
fn no_input_panics() {
    // A grab-bag of malformed inputs: each must give an error, not a panic.
    let cases = [
        "",
        "connect = 3\n[model]\nstop_time = 1",
        "connect = [3]\n[model]\nstop_time = 1",
        "[model]\nstop_time = \"x\"",
        "[model]\nstop_time = nan",
        "[model]\nstop_time = 1\n[blocks]\nx = 3",
        "[model]\nstop_time = 1\n[blocks.x]\ntype = 3",
        "[model]\nstop_time = 1\n[blocks.x]\nvalue = 3",
        "[model]\nstop_time = 1\n[solver]\nmethod = 4",
        "[model]\nstop_time = 1\n[output]\nlog = \"a.b\"",
        "[model]\nstop_time = 1\nfoo = 1",
        "model = 1",
    ];
    for c in cases {
        let r =
            std::panic::catch_unwind(|| blockdyn::load_model_str("bad.toml", c, &[]).map(|_| ()));
        match r {
            Ok(Err(e)) => assert!(!e.to_string().is_empty()),
            Ok(Ok(())) => panic!("accepted: {c}"),
            Err(_) => panic!("panicked on: {c}"),
        }
    }
}

#[test]
fn an_algebraic_loop_is_reported_as_a_real_cycle() {
    // a ⇄ b and b ⇄ c: whichever cycle is reported, each step must be a real line.
    let e = error_of(&format!(
        "connect = [\"a.out -> b.in1\", \"c.out -> b.in2\", \"b.out -> a.in\", \"b.out -> c.in\"]\n{HEAD}[blocks.a]\ntype = \"Gain\"\n[blocks.b]\ntype = \"Sum\"\nsigns = \"++\"\n[blocks.c]\ntype = \"Gain\"\n"
    ));
    let cycle = e
        .split("algebraic loop through blocks: ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let names: Vec<&str> = cycle.split(" → ").collect();
    let edges = [("a", "b"), ("b", "a"), ("c", "b"), ("b", "c")];
    assert_eq!(names.first(), names.last(), "{cycle}");
    for w in names.windows(2) {
        assert!(
            edges.contains(&(w[0], w[1])),
            "{cycle}: {} → {} is not a line",
            w[0],
            w[1]
        );
    }
}

#[test]
fn an_unreachable_relative_tolerance_is_located() {
    // Below 10·ε no step can meet it; it used to be found only when the run started, and printed
    // with 300 zeros.
    let msg = error_of(
        "[model]\nstop_time = 1.0\n[solver]\nrel_tol = 1e-300\n[blocks.c]\ntype = \"Constant\"\n",
    );
    assert_contains(
        &msg,
        &[
            "bad.toml:4:",
            "rel_tol",
            "got 1e-300",
            "write 1e-14 or more",
        ],
    );
}

#[test]
fn an_error_in_a_set_value_names_the_option() {
    // A value from --set has no line in the file: the message names the option instead of
    // leaving the user to search the file.
    let text = "[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n";
    let overrides = ["solver.rel_tol=1e-300".to_string()];
    let e = blockdyn::load_model_str(
        "bad.toml",
        text,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .expect_err("an error")
    .to_string();
    assert_contains(&e, &["--set 'solver.rel_tol=1e-300'", "rel_tol"]);
}

/// `connect = [...]` written below the block tables lands, by TOML's rules, in the last table:
/// said so, with where to move it, instead of "unknown parameter 'connect'".
#[test]
fn connect_after_the_tables_says_to_move_it() {
    let e = error_of(&format!(
        "{HEAD}[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\nconnect = [\"c.out -> s.in1\"]\n"
    ));
    assert_contains(
        &e,
        &[
            "bad.toml:8:1",
            "block 's': 'connect' is inside [blocks.s]",
            "help: move `connect = [...]` to the top of the file",
        ],
    );
    assert!(!e.contains("unknown parameter"), "{e}");
}

/// Messages about a port name the block once (in the location), and count elements in English.
#[test]
fn port_messages_do_not_repeat_the_block() {
    let e = error_of(&format!(
        "connect = [\"c.outt -> s.in1\"]\n{HEAD}[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n"
    ));
    assert_contains(&e, &["block 'c': a Constant has no output 'outt'"]);
    assert_eq!(e.matches("'c'").count(), 1, "{e}");
    let e = error_of(&format!(
        "connect = [\"c.out[3] -> s.in1\"]\n{HEAD}[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n"
    ));
    assert_contains(
        &e,
        &["c.out is 1×1 (1 element)", "use an index from 0 to 0"],
    );
}

/// An rk4 fixed_step above a penalty contact's stability limit is warned about when the model is
/// built (for `check` and `run`), naming the contact and the limit; and the warning is right:
/// ball_drop (k = 1e5 N/m, b = 100 N·s/m, 1 kg: |λ|max = 316 1/s, limit 2.785/316 = 8.8 ms) at
/// 10 ms rebounds above the 1 m it fell from, while 1 ms draws no warning.
#[test]
fn an_rk4_step_above_a_contacts_stability_limit_is_warned_about() {
    let load = |step: &str| {
        let overrides = [
            "solver.method=rk4".to_string(),
            format!("solver.fixed_step={step}"),
            "model.stop_time=1.2".to_string(),
        ];
        blockdyn::load_model(
            std::path::Path::new("models/ball_drop.toml"),
            &blockdyn::Override::parse_all(&overrides).unwrap(),
        )
        .unwrap()
    };
    let d = load("0.01");
    let warning = d.warnings().iter().find(|w| w.contains("rk4's fixed_step"));
    let warning = warning.unwrap_or_else(|| panic!("no warning: {:?}", d.warnings()));
    assert_contains(
        warning,
        &[
            "block 'contact'",
            "stability limit of about 8.81e-3 s",
            "help: write fixed_step = 4.4e-3 or less",
        ],
    );
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let rec = &r.recording;
    let z = rec.column_index("free.p[2]").unwrap();
    let apex = (0..rec.len())
        .filter(|&i| rec.times[i] > 0.5)
        .map(|i| rec.row(i)[z])
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(apex > 1.0, "rebounded to {apex} m only");
    let d = load("0.001");
    assert!(
        !d.warnings().iter().any(|w| w.contains("rk4's fixed_step")),
        "{:?}",
        d.warnings()
    );
}

/// Independent mistakes of one file are reported together, each located, in one pass: an unknown
/// block type, an unknown parameter of another block and a connection to a port that does not
/// exist; the connection to the block that failed ("g.out") is not checked on top.
#[test]
fn independent_mistakes_are_reported_together() {
    let text = "connect = [\"c.outt -> s.in1\", \"g.out -> s.in2\"]\n[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.g]\ntype = \"Gian\"\n[blocks.r]\ntype = \"Ramp\"\nslop = 2.0\n[blocks.s]\ntype = \"Scope\"\ninputs = 2\n";
    let e = match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("accepted"),
        Err(e) => e,
    };
    let all: Vec<String> = e
        .all()
        .map(|d| {
            format!(
                "{}:{:?}: {}",
                d.block.as_deref().unwrap_or(""),
                d.line_column,
                d.message
            )
        })
        .collect();
    assert_eq!(
        all,
        [
            "g:Some((8, 8)): unknown block type \"Gian\"",
            "r:Some((11, 1)): unknown parameter 'slop'",
            "c:Some((1, 12)): a Constant has no output 'outt'",
        ],
        "{e}"
    );
    assert_contains(
        &e.to_string(),
        &["\nerror: bad.toml:11:1", "3 problems in this file"],
    );
}
