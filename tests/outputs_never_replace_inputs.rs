//! Issue 28, part 1: an output never replaces a file the run reads — the model, its URDF, the
//! URDF's mesh — by its own name, through a symbolic link, or through a hard link. Each case
//! is refused before the run with the path and the input named, exits 1, and leaves every file
//! as it was, byte for byte. Through the built binary, in a fresh temporary directory.

use std::path::{Path, PathBuf};
mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text};

/// A model with a Urdf block whose link's collision is an STL mesh, copied into a fresh
/// directory (`tests/data/robot_with_mesh`).
fn robot_dir(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robot_with_mesh");
    for file in ["m.toml", "robot.urdf", "tip.stl"] {
        std::fs::copy(data.join(file), dir.join(file)).unwrap();
    }
    dir
}

/// Runs `blockdyn run m.toml --csv <target>` in `dir` and checks the refusal: exit 1, the
/// message, no file changed.
fn assert_refused(dir: &Path, target: &str, message: &str) {
    let before = snapshot(dir);
    let out = blockdyn_in(dir, &["run", "m.toml", "--csv", target, "-q"], &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{target}: {stderr}");
    assert!(stderr.contains(message), "{target}: {stderr}");
    assert!(
        text(&out.stdout).is_empty(),
        "nothing ran: {}",
        text(&out.stdout)
    );
    assert_unchanged(dir, &before);
}

#[test]
fn csv_onto_the_urdf_the_model_reads_is_refused() {
    let dir = robot_dir("onto_urdf");
    assert_refused(
        &dir,
        "robot.urdf",
        "error: cannot write CSV 'robot.urdf': it is 'robot.urdf', a file the model reads (a subsystem file, a URDF or a mesh)\n  help: write the CSV to another path",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn csv_onto_the_mesh_the_urdf_reads_is_refused() {
    let dir = robot_dir("onto_mesh");
    assert_refused(
        &dir,
        "tip.stl",
        "cannot write CSV 'tip.stl': it is 'tip.stl', a file the model reads (a subsystem file, a URDF or a mesh)",
    );
    assert_refused(
        &dir,
        "./tip.stl",
        "a file the model reads (a subsystem file, a URDF or a mesh)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn csv_onto_the_model_itself_is_refused() {
    let dir = robot_dir("onto_model");
    std::fs::create_dir(dir.join("sub")).unwrap();
    for target in ["m.toml", "./m.toml", "sub/../m.toml"] {
        assert_refused(
            &dir,
            target,
            &format!("cannot write CSV '{target}': it is the model file being run"),
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn links_to_an_input_are_refused() {
    let dir = robot_dir("links");
    std::os::unix::fs::symlink("robot.urdf", dir.join("soft.csv")).unwrap();
    std::fs::hard_link(dir.join("tip.stl"), dir.join("hard.csv")).unwrap();
    std::fs::hard_link(dir.join("m.toml"), dir.join("model.csv")).unwrap();
    assert_refused(
        &dir,
        "soft.csv",
        "cannot write CSV 'soft.csv': it is 'robot.urdf', a file the model reads",
    );
    assert_refused(
        &dir,
        "hard.csv",
        "cannot write CSV 'hard.csv': it is 'tip.stl', a file the model reads",
    );
    assert_refused(
        &dir,
        "model.csv",
        "cannot write CSV 'model.csv': it is the model file being run",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plot_or_animation_onto_an_input_is_refused_too() {
    let dir = robot_dir("plot_onto_input");
    let before = snapshot(&dir);
    for (option, what) in [("--plot", "plot"), ("--animate", "animation")] {
        let out = blockdyn_in(&dir, &["run", "m.toml", option, "robot.urdf", "-q"], &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "cannot write {what} 'robot.urdf': it is 'robot.urdf', a file the model reads"
            )),
            "{stderr}"
        );
    }
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_beside_the_inputs_is_written() {
    let dir = robot_dir("beside");
    let before = snapshot(&dir);
    let out = blockdyn_in(&dir, &["run", "m.toml", "--csv", "run.csv", "-q"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = std::fs::read_to_string(dir.join("run.csv")).unwrap();
    assert!(csv.starts_with("time,arm/hinge.q\n"), "{csv}");
    std::fs::remove_file(dir.join("run.csv")).unwrap();
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}
