//! A row of balls in one ContactGroup under the implicit methods: the Jacobian's pattern couples
//! only the balls the group watches together, which makes it sparse enough for the sparse LU of
//! the Newton matrix; the run then equals the dense LU's to the tolerance.
//!
//! Every run is in memory; nothing is written to disk.

mod common;
use common::run_text_with;

/// 30 balls (r = 5 cm, 0.1 kg) in a row along x, each 1 mm into its neighbours and 0.5 mm into
/// the ground, sliding along y at speeds that differ from ball to ball (so that friction acts
/// between neighbours), under gravity; linear spring 1e4 N/m, damper 20 N·s/m, Stribeck
/// friction. 390 states; each ball's states read its own and its two neighbours' (at most):
/// about 3/30 of the entries (the sparse path takes at most 1/8).
fn row_of_balls(method: &str) -> String {
    let n = 30;
    let mut connect = vec!["\"world.W -- ground.R\"".to_string()];
    let mut blocks = String::new();
    for k in 0..n {
        connect.push(format!(
            "\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\""
        ));
        blocks.push_str(&format!(
            "[blocks.ball{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n\
             [blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{}, 0.0, 0.0495]\nvelocity = [0.0, {}, 0.0]\n",
            0.099 * k as f64,
            0.05 * ((k * 7) % 5) as f64
        ));
    }
    format!(
        r#"connect = [{}]
[model]
name = "row"
stop_time = 0.02
[solver]
method = "{method}"
rel_tol = 1e-6
abs_tol = 1e-9
[blocks.world]
type = "WorldFrame"
[blocks.ground]
type = "InfinitePlane"
[blocks.group]
type = "ContactGroup"
members = ["ball*", "ground"]
normal = {{ method = "linear_spring_damper", stiffness = 1e4, damping = 20.0 }}
friction = {{ method = "stribeck", static = 0.5, dynamic = 0.4, stiction_velocity = 0.01 }}
{blocks}"#,
        connect.join(", ")
    )
}

/// Under trbdf2 the sparse path is taken (its factorisations counted; none with
/// `sparse_lu = false`), and the final state (m, quaternion components, m/s, rad/s) equals the
/// dense path's to 1e-4. The two runs' Newton iterates differ by the LUs' rounding (1e-13
/// relative), but once one accept/reject decision at the error test's threshold goes the other
/// way the step sequences part, and each run carries its own global error: about the number of
/// steps (~10²) times the local tolerance 1e-6·|x| + 1e-9 on states of order 0.1–1, so ~1e-5
/// each (measured: 1e-5 at 0.05 s); 1e-4 bounds their difference with a margin.
#[test]
fn a_row_of_balls_takes_the_sparse_path_and_equals_the_dense_one() {
    let method = "trbdf2";
    let text = row_of_balls(method);
    let sparse = run_text_with("row", &text, &[]);
    let dense = run_text_with("row", &text, &["solver.sparse_lu=false"]);
    assert!(
        sparse.stats.sparse_lu_factorizations > 0,
        "{method}: {:?}",
        sparse.stats
    );
    assert_eq!(dense.stats.sparse_lu_factorizations, 0, "{method}");
    let diff = sparse
        .final_state
        .iter()
        .zip(&dense.final_state)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    assert!(diff < 1e-4, "{method}: sparse and dense differ by {diff:e}");
}
