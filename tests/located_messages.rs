//! Issue 12, part 5: every message has a location and says what to write instead. One test per
//! message of the list that was not located before (the `--set` option, rel_tol below
//! 10·ε and `--stop-time -1` are tested in bad_input.rs and cli.rs).

/// The whole message of a model that fails to load.
fn error_of(text: &str) -> String {
    match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("model was accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// A file in a fresh temporary directory, removed with it by the caller.
fn temp_file(name: &str, bytes: &[u8]) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("blockdyn-located-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

#[test]
fn invalid_utf8_is_located_at_the_byte_and_says_how_to_convert() {
    // "é" in Latin-1 (0xE9) on line 3, after "# caf".
    let (dir, path) = temp_file(
        "latin1.toml",
        b"[model]\nstop_time = 1.0\n# caf\xe9\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n",
    );
    let e = blockdyn::load_model(&path, &[]).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    let expected = format!(
        "{}:3:6: the model is not UTF-8 text: byte 0xE9 is not part of a UTF-8 character\n  help: TOML files are UTF-8: save the file as UTF-8 in your editor, or convert it, e.g. iconv -f latin1 -t utf-8 model.toml > model-utf8.toml",
        path.display()
    );
    assert_eq!(e, expected);
    assert!(!e.contains("check the path"));
}

#[test]
fn a_missing_file_still_says_check_the_path() {
    let e = blockdyn::load_model(std::path::Path::new("/nonexistent/blockdyn/m.toml"), &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("cannot read model '/nonexistent/blockdyn/m.toml': ")
            && e.ends_with("help: check the path; models end in .toml"),
        "{e}"
    );
}

#[test]
fn tomls_recursion_limit_is_explained() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let e = error_of(&format!(
        "[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = {deep}\n"
    ));
    assert!(
        e.starts_with("bad.toml:5:")
            && e.contains(
                ": invalid TOML: arrays or inline tables are nested too deeply here (the TOML parser stops at this depth)\n  help: a parameter nests at most two levels, e.g. points = [[0, 0, 0], [1, 0, 0]]; look for an unbalanced '[' or '{'"
            ),
        "{e}"
    );
    assert!(!e.contains("recurse"), "{e}");
}

#[test]
fn a_mechanism_without_world_frame_is_located_at_its_first_block() {
    let e = error_of(
        "connect = [\"j.F -- b.R\"]\n[model]\nstop_time = 1.0\n[blocks.j]\ntype = \"SixDofJoint\"\n[blocks.b]\ntype = \"Solid\"\ngeometry = { shape = \"sphere\", radius = 0.1 }\nmass = 1.0\n",
    );
    assert_eq!(
        e,
        "bad.toml:4:9: block 'j': the mechanism has no World frame: nothing roots its frames in space\n  help: add [blocks.world] with type = \"WorldFrame\", and \"world.W -- j.B\" to connect = [...]"
    );
}

const GRID: &str = "connect = [\"w.W -- g.R\"]\n[model]\nstop_time = 1.0\n[blocks.w]\ntype = \"WorldFrame\"\n[blocks.g]\ntype = \"GridSurface\"\n";

#[test]
fn a_non_increasing_grid_x_is_reported_at_the_x_line() {
    let e = error_of(&format!(
        "{GRID}x = [0.0, 1.0, 0.5]\ny = [0.0, 1.0]\nz = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]\n"
    ));
    assert_eq!(
        e,
        "bad.toml:8:5: block 'g': grid surface: x coordinates must be strictly increasing, but x[2] = 0.5 does not exceed x[1] = 1\n  help: list x in increasing order without repeats, e.g. x = [0.0, 0.5, 1.0] (m), and order the heights in z to match"
    );
}

#[test]
fn a_short_grid_y_is_reported_at_the_y_line_and_a_ragged_z_at_z() {
    let e = error_of(&format!(
        "{GRID}x = [0.0, 1.0]\ny = [0.0]\nz = [[0.0], [0.0]]\n"
    ));
    assert!(e.starts_with("bad.toml:9:5: block 'g': grid surface: y needs at least 2 coordinates, got 1\n  help: give y at least two increasing coordinates, e.g. y = [0.0, 1.0]"), "{e}");
    let e = error_of(&format!(
        "{GRID}x = [0.0, 1.0]\ny = [0.0, 1.0]\nz = [[0.0, 0.0]]\n"
    ));
    assert!(
        e.starts_with("bad.toml:10:5: block 'g': grid surface: z must have one row per x")
            && e.ends_with("help: write z as 2 rows (one per x) of 2 heights (one per y)"),
        "{e}"
    );
}

const SOLID: &str = "connect = [\"w.W -- b.R\"]\n[model]\nstop_time = 1.0\n[blocks.w]\ntype = \"WorldFrame\"\n[blocks.b]\ntype = \"Solid\"\nmass = 1.0\n";

#[test]
fn geometry_errors_have_a_help_line() {
    let e = error_of(&format!(
        "{SOLID}geometry = {{ shape = \"convex_hull\", points = [[0, 0, 0], [1, 0, 0], [0, 1, 0]] }}\n"
    ));
    assert_eq!(
        e,
        "bad.toml:9:12: block 'b': convex hull: needs at least 4 points that are not coplanar, got 3\n  help: give at least 4 points that span a volume (not all on one plane), e.g. the 8 corners of a box"
    );
    let e = error_of(&format!(
        "{SOLID}geometry = {{ shape = \"sphere\", radius = -0.1 }}\n"
    ));
    assert!(e.starts_with("bad.toml:9:12: block 'b': "), "{e}");
    assert!(e.contains("\n  help: "), "{e}");
    let e = error_of(
        "connect = [\"w.W -- p.R\"]\n[model]\nstop_time = 1.0\n[blocks.w]\ntype = \"WorldFrame\"\n[blocks.p]\ntype = \"PointCloud\"\npoints = [[0, 0, 0], [1, 0, 0], [0, 0, 0]]\n",
    );
    assert_eq!(
        e,
        "bad.toml:8:10: block 'p': point cloud: points 0 and 2 are the same point [0, 0, 0]\n  help: remove point 2 (0-based) or move it: a cloud lists distinct points"
    );
}

#[test]
fn a_max_step_that_cannot_move_time_is_refused_at_its_line() {
    let e = error_of(
        "[model]\nstop_time = 1.0\n[solver]\nmax_step = 5e-324\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n",
    );
    assert_eq!(
        e,
        "bad.toml:4:12: 'max_step' is 5e-324 s, below the resolution of t near the stop time (2.2e-16 s): time would not advance\n  help: write max_step = 4e-15 or more (s)"
    );
    let e = error_of(
        "[model]\nstop_time = 10.0\n[solver]\nmax_step = 1e-6\nmax_steps = 1000\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n",
    );
    assert_eq!(
        e,
        "bad.toml:4:12: 'max_step' is 1e-6 s: 1.0e7 steps over stop_time = 10 s, more than max_steps = 1000\n  help: write max_step = 1.0e-2 or more (s), or raise max_steps"
    );
}

#[test]
fn an_error_from_two_set_options_names_the_one_it_is_about() {
    let text = "[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.k]\ntype = \"Constant\"\nvalue = 2.0\n";
    let overrides = ["k.value=3".to_string(), "c.vaule=2".to_string()];
    let e = blockdyn::load_model_str(
        "bad.toml",
        text,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("bad.toml: block 'c': --set 'c.vaule=2': unknown parameter 'vaule'"),
        "{e}"
    );
}
