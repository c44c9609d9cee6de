//! `blockdyn linearize` on the command line: its JSON reads back to the textbook cart-pole
//! matrices, and a bad name or time is an error with the library's message.

mod cli_common;
use cli_common::{blockdyn, text};

/// The rows of matrix `name` in the JSON `out` (`"A": [\n [..],\n [..]\n ]`).
fn matrix(out: &str, name: &str) -> Vec<Vec<f64>> {
    let start = out
        .find(&format!("\"{name}\": ["))
        .expect("the matrix is printed");
    let body = &out[start..];
    let end = body.find("\n  ]").expect("the matrix ends");
    body[..end]
        .lines()
        .skip(1)
        .map(|row| {
            row.trim()
                .trim_end_matches(',')
                .trim_matches(|c| c == '[' || c == ']')
                .split(", ")
                .map(|v| v.parse::<f64>().expect("a JSON number"))
                .collect()
        })
        .collect()
}

const UPRIGHT: [&str; 4] = [
    "--set",
    "hinge.q0=0.0",
    "--set",
    "controller.gain=[[0.0, 0.0, 0.0, 0.0]]",
];

/// models/cart_pole.toml (M = 1 kg, m = 0.1 kg, l = 0.5 m) about the upright, its controller
/// off: ẍ = (u + m·g·q)/M, q̈ = ((M + m)·g·q + u)/(M·l); to 1e-8 (central differences, errors
/// near 1e-10 here; the JSON's numbers read back to the same f64).
#[test]
fn the_json_has_the_textbook_cart_pole_matrices() {
    let mut args = vec![
        "linearize",
        "models/cart_pole.toml",
        "--inputs",
        "rail.t",
        "--outputs",
        "rail.q,hinge.q",
    ];
    args.extend(UPRIGHT);
    let out = blockdyn(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains(r#""states": ["rail.q[0]", "hinge.q[0]", "rail.v[0]", "hinge.v[0]"]"#),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""outputs": ["rail.q", "hinge.q"]"#),
        "{stdout}"
    );
    let (g, big_m, m, l) = (9.81, 1.0, 0.1, 0.5);
    let want_a = [
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, m * g / big_m, 0.0, 0.0],
        [0.0, (big_m + m) * g / (big_m * l), 0.0, 0.0],
    ];
    let want_b = [0.0, 0.0, 1.0 / big_m, 1.0 / (big_m * l)];
    let (a, b) = (matrix(&stdout, "A"), matrix(&stdout, "B"));
    assert_eq!(a.len(), 4);
    for (row, want) in a.iter().zip(&want_a) {
        for (v, w) in row.iter().zip(want) {
            assert!((v - w).abs() < 1e-8, "{stdout}");
        }
    }
    for (row, w) in b.iter().zip(&want_b) {
        assert!((row[0] - w).abs() < 1e-8, "{stdout}");
    }
    assert_eq!(
        matrix(&stdout, "C"),
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    );
}

#[test]
fn a_bad_name_or_time_is_an_error() {
    let out = blockdyn(&["linearize", "models/cart_pole.toml", "--inputs", "rail.tt"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("models/cart_pole.toml:"),
        "located: {stderr}"
    );
    assert!(stderr.contains("did you mean 'rail.t'?"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = blockdyn(&["linearize", "models/cart_pole.toml", "--at", "7"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains(
            "--at 7: the operating time must be a time of the run, from 0 to the stop time 6 s"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// `blockdyn trim` on the cart-pole tipped by 0.05 rad, its controller off and the rail's force
/// free: it prints the upright (q = 0 to 1e-8, see tests/trim.rs) with no force, as JSON; and a
/// trim that cannot converge (the pole held tipped, no force free) exits non-zero naming the
/// state left moving.
#[test]
fn trim_prints_the_equilibrium_and_fails_naming_the_state() {
    let out = blockdyn(&[
        "trim",
        "models/cart_pole.toml",
        "--free-inputs",
        "rail.t",
        "--set",
        "hinge.q0=0.05",
        "--set",
        "controller.gain=[[0.0, 0.0, 0.0, 0.0]]",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let numbers = |name: &str| -> Vec<f64> {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("\"{name}\": ")))
            .unwrap_or_else(|| panic!("no {name} in {stdout}"));
        let list = line.split_once(": ").unwrap().1.trim_end_matches(',');
        list.trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(|v| v.parse::<f64>().expect("a JSON number"))
            .collect()
    };
    assert!(stdout.contains(r#""inputs": ["rail.t"]"#), "{stdout}");
    assert!(numbers("x")[1].abs() < 1e-8, "{stdout}");
    assert!(numbers("u")[0].abs() < 1e-8, "{stdout}");
    assert!(stdout.contains("\"iterations\": "), "{stdout}");

    let mut args = vec![
        "trim",
        "models/cart_pole.toml",
        "--inputs",
        "rail.t",
        "--fix-states",
        "hinge.q[0]",
    ];
    args.extend(["--set", "hinge.q0=0.05"]);
    let out = blockdyn(&args);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("did not converge"), "{stderr}");
    assert!(
        stderr.contains("the largest derivative left is"),
        "{stderr}"
    );
}
