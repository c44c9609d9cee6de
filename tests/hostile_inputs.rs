//! Budgets for hostile input (issue 28, part 3), end to end through the command line: each input
//! is built in a temporary directory, and each test checks the message, the exit status, and
//! that every file it wrote before the run is unchanged byte for byte. No wall-clock limits: a
//! defect shows as a refusal, an abort or (for the FIFO) a guard that kills a hung child.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
mod cli_common;
use cli_common::{blockdyn, temp_dir, text};

/// Every file of `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("temp dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable");
            (p, bytes)
        })
        .collect()
}

/// Asserts that the files of `before` are still there with the same bytes.
fn assert_unchanged(before: &BTreeMap<PathBuf, Vec<u8>>) {
    for (path, bytes) in before {
        let now = std::fs::read(path).expect("still there");
        assert!(&now == bytes, "{} changed", path.display());
    }
}

/// A model with a World frame and one Urdf block `arm` of `urdf` (relative to the model).
fn urdf_model(dir: &Path, urdf: &str, solver: &str) -> PathBuf {
    let model = dir.join("model.toml");
    std::fs::write(
        &model,
        format!("connect = [\"world.W -- arm.B\"]\n\n[model]\nname = \"hostile\"\nstop_time = 0.001\n\n[solver]\n{solver}\n\n[blocks.world]\ntype = \"WorldFrame\"\n\n[blocks.arm]\ntype = \"Urdf\"\nfile = \"{urdf}\"\n"),
    )
    .expect("model written");
    model
}

/// `blockdyn ARGS` with a guard: a child still running after `guard` is killed and the test
/// fails (it would have blocked forever).
fn blockdyn_guarded(args: &[&str], guard: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_blockdyn"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("blockdyn starts");
    let started = Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if started.elapsed() > guard {
            let _ = child.kill();
            let _ = child.wait();
            panic!("blockdyn {args:?} still running after {guard:?}: it blocks");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

const LINK: &str = "<inertial><mass value=\"0.1\"/><inertia ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"1e-4\"/></inertial>";

#[test]
fn urdf_entity_expansion_is_capped() {
    let dir = temp_dir("entities");
    // 67 KB: one 64 KiB entity referenced 300 times (19 MiB expanded).
    let big = "1".repeat(64 << 10);
    let refs = "&e;".repeat(300);
    std::fs::write(
        dir.join("robot.urdf"),
        format!("<?xml version=\"1.0\"?>\n<!DOCTYPE robot [\n<!ENTITY e \"{big}\">\n]>\n<robot name=\"r\">\n<link name=\"base\">{LINK}</link>\n<gazebo>{refs}</gazebo>\n</robot>\n"),
    )
    .unwrap();
    let model = urdf_model(&dir, "robot.urdf", "");
    let before = snapshot(&dir);
    let out = blockdyn(&["check", model.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("robot.urdf:7:")
            && stderr.contains("block 'arm': XML entities expand past the limit of 4 MiB")
            && stderr.contains("entity 'e', declared at line 3, 65536 bytes of text"),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: a URDF file needs no large entities"),
        "{stderr}"
    );
    assert_unchanged(&before);
}

#[test]
fn urdf_entity_cap_is_not_fooled_by_a_deep_reference_in_a_comment() {
    // A chain m1 → m2 → … → m17 → big, referenced once inside a comment (the XML reader never
    // expands it) and m1 300 times in the body: nesting past the scan's limit must not count as
    // nothing, or every entity above it is cached as a few bytes and 19 MiB pass.
    let dir = temp_dir("entities_deep");
    let big = "1".repeat(64 << 10);
    let mut dtd = format!("<!ENTITY big \"{big}\">\n<!ENTITY m17 \"&big;\">\n");
    for k in (1..17).rev() {
        dtd.push_str(&format!("<!ENTITY m{k} \"&m{};\">\n", k + 1));
    }
    let refs = "&m1;".repeat(300);
    std::fs::write(
        dir.join("robot.urdf"),
        format!("<?xml version=\"1.0\"?>\n<!DOCTYPE robot [\n{dtd}]>\n<!-- &m17; -->\n<robot name=\"r\">\n<link name=\"base\">{LINK}</link>\n<gazebo>{refs}</gazebo>\n</robot>\n"),
    )
    .unwrap();
    let model = urdf_model(&dir, "robot.urdf", "");
    let before = snapshot(&dir);
    let out = blockdyn(&["check", model.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("XML entities expand past the limit of 4 MiB"),
        "{stderr}"
    );
    assert_unchanged(&before);
}

/// A binary STL of a UV sphere (radius 0.1 m): `rings` circles of `per_ring` vertices and two
/// poles, every vertex on the hull.
fn sphere_stl(path: &Path, rings: usize, per_ring: usize) -> usize {
    let mut vertices = vec![[0.0f32, 0.0, 0.1]];
    for i in 1..=rings {
        let theta = std::f64::consts::PI * i as f64 / (rings + 1) as f64;
        for j in 0..per_ring {
            let phi = std::f64::consts::TAU * j as f64 / per_ring as f64;
            let (s, c) = theta.sin_cos();
            let v = [0.1 * s * phi.cos(), 0.1 * s * phi.sin(), 0.1 * c];
            vertices.push(v.map(|x| x as f32));
        }
    }
    vertices.push([0.0, 0.0, -0.1]);
    let south = vertices.len() - 1;
    let at = |i: usize, j: usize| 1 + (i - 1) * per_ring + j % per_ring;
    let mut triangles = Vec::new();
    for j in 0..per_ring {
        triangles.push([0, at(1, j), at(1, j + 1)]);
        triangles.push([south, at(rings, j + 1), at(rings, j)]);
    }
    for i in 1..rings {
        for j in 0..per_ring {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    let mut bytes = vec![0u8; 80];
    bytes.extend((triangles.len() as u32).to_le_bytes());
    for t in &triangles {
        bytes.extend([0u8; 12]);
        for &k in t {
            for x in vertices[k] {
                bytes.extend(x.to_le_bytes());
            }
        }
        bytes.extend([0u8; 2]);
    }
    std::fs::write(path, bytes).expect("stl written");
    vertices.len()
}

#[test]
fn mesh_of_200k_vertices_is_hulled_or_refused() {
    let dir = temp_dir("mesh");
    // 20 MB: 200,002 vertices, 400,000 triangles.
    assert_eq!(sphere_stl(&dir.join("ball.stl"), 400, 500), 200_002);
    std::fs::write(
        dir.join("robot.urdf"),
        format!("<robot name=\"r\"><link name=\"base\">{LINK}<collision><geometry><mesh filename=\"ball.stl\"/></geometry></collision></link></robot>\n"),
    )
    .unwrap();
    let model = urdf_model(&dir, "robot.urdf", "");
    let before = snapshot(&dir);
    let out = blockdyn(&["check", model.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("model 'hostile'") && stdout.contains("arm/base/collision"),
        "{stdout}"
    );
    assert!(!stderr.contains("skipped"), "{stderr}");
    assert_unchanged(&before);
}

/// A URDF chain of `n` continuous joints about y, 1 cm apart, and a model running it for two
/// fixed steps.
fn chain(dir: &Path, n: usize, solver: &str) -> PathBuf {
    let mut urdf = String::from("<?xml version=\"1.0\"?>\n<robot name=\"chain\">\n");
    for i in 0..=n {
        urdf += &format!("<link name=\"l{i}\">{LINK}</link>\n");
    }
    for i in 0..n {
        urdf += &format!("<joint name=\"j{i}\" type=\"continuous\"><parent link=\"l{i}\"/><child link=\"l{}\"/><origin xyz=\"0 0 0.01\"/><axis xyz=\"0 1 0\"/></joint>\n", i + 1);
    }
    urdf += "</robot>\n";
    std::fs::write(dir.join("chain.urdf"), urdf).unwrap();
    urdf_model(dir, "chain.urdf", solver)
}

#[test]
fn chain_of_20000_joints_builds() {
    let dir = temp_dir("chain");
    let model = chain(&dir, 20_000, "method = \"rk4\"\nfixed_step = 0.0005");
    let before = snapshot(&dir);
    let csv = dir.join("out.csv");
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("hostile: simulated 0.001 s") && stdout.contains("2 steps (0 rejected)"),
        "{stdout}"
    );
    let rows = std::fs::read_to_string(&csv).expect("csv written");
    assert_eq!(rows.lines().count(), 4, "{rows}");
    assert_unchanged(&before);
}

/// A chain's Jacobian is dense (one kinematic tree): past the limit it is refused at its first
/// need, the first step at t = 0, before anything dense is allocated (a sparse model runs there:
/// tests/implicit_large.rs). What was recorded before (the row at t = 0) stays.
#[test]
fn implicit_method_past_its_state_limit_is_refused() {
    let dir = temp_dir("implicit");
    // 2001 joints: 4002 states, two past the limit.
    let model = chain(&dir, 2001, "method = \"trbdf2\"");
    let before = snapshot(&dir);
    let csv = dir.join("out.csv");
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("method \"trbdf2\" needs a dense 4002 × 4002 Jacobian")
            && stderr.contains("at t = 0 ")
            && stderr.contains("the limit of an implicit method is 4000 states"),
        "{stderr}"
    );
    // At most the header and the row at t = 0.
    let rows = std::fs::read_to_string(&csv).unwrap_or_default();
    assert!(rows.lines().count() <= 2, "{rows}");
    assert_unchanged(&before);
}

#[cfg(unix)]
#[test]
fn fifo_as_urdf_file_is_refused() {
    let dir = temp_dir("fifo");
    let mkfifo = |name: &str| {
        let ok = Command::new("mkfifo")
            .arg(dir.join(name))
            .status()
            .expect("mkfifo runs");
        assert!(ok.success());
    };
    mkfifo("robot.urdf");
    let model = urdf_model(&dir, "robot.urdf", "");
    let before = snapshot(&dir);
    let guard = Duration::from_secs(60);
    let out = blockdyn_guarded(&["check", model.to_str().unwrap()], guard);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("model.toml:15:8: block 'arm': URDF file '")
            && stderr.contains("robot.urdf' is a FIFO (named pipe), not a regular file"),
        "{stderr}"
    );
    assert!(stderr.contains("help: name a regular file"), "{stderr}");
    assert_unchanged(&before);
    // The model itself, and a directory named as the URDF.
    mkfifo("model_fifo.toml");
    let fifo_model = dir.join("model_fifo.toml");
    let out = blockdyn_guarded(&["check", fifo_model.to_str().unwrap()], guard);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("model_fifo.toml' is a FIFO (named pipe), not a regular file"),
        "{stderr}"
    );
    std::fs::create_dir(dir.join("folder.urdf")).unwrap();
    let model = urdf_model(&dir, "folder.urdf", "");
    let before_dir = snapshot(&dir);
    let out = blockdyn_guarded(&["check", model.to_str().unwrap()], guard);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("folder.urdf' is a directory, not a regular file"),
        "{stderr}"
    );
    assert_unchanged(&before_dir);
}

#[cfg(unix)]
#[test]
fn fifo_as_mesh_file_is_refused_by_name() {
    let dir = temp_dir("fifo_mesh");
    let ok = Command::new("mkfifo")
        .arg(dir.join("part.stl"))
        .status()
        .expect("mkfifo runs");
    assert!(ok.success());
    std::fs::write(
        dir.join("robot.urdf"),
        format!("<robot name=\"r\"><link name=\"base\">{LINK}<collision><geometry><mesh filename=\"part.stl\"/></geometry></collision></link></robot>\n"),
    )
    .unwrap();
    let model = urdf_model(&dir, "robot.urdf", "");
    let before = snapshot(&dir);
    let out = blockdyn_guarded(&["check", model.to_str().unwrap()], Duration::from_secs(60));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // `check` lists the warnings after the report.
    assert!(
        stdout.contains("<mesh filename=\"part.stl\"> skipped (no contact geometry): mesh file '")
            && stdout.contains("part.stl' is a FIFO (named pipe), not a regular file"),
        "{stdout}"
    );
    assert_unchanged(&before);
}
