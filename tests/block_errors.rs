//! Issue 13: a block's error reaches a library user typed. The diagram build locates it (file,
//! line, block, hint) in a `Diagnostic`, which keeps the `BlockError`: a program matches on the
//! variant and reads its fields.

use blockdyn::block::{BlockError, Shape};
use blockdyn::geometry::ShapeKind;
use blockdyn::model::Diagnostic;

/// The diagnostic of a model that fails to load.
fn diagnostic_of(text: &str) -> Diagnostic {
    match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("model was accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Setup: a limit with a number of values that fits neither the signal nor one for all.
#[test]
fn a_limit_of_the_wrong_length_is_a_param_length_error() {
    let d = diagnostic_of(
        r#"connect = ["c.out -> sat.in", "sat.out -> s.in1"]
[model]
stop_time = 1.0
[blocks.c]
type = "Constant"
value = [1.0, 2.0]
[blocks.sat]
type = "Saturation"
upper = [1.0, 2.0, 3.0]
[blocks.s]
type = "Scope"
"#,
    );
    assert_eq!(
        d.block_error(),
        Some(&BlockError::ParamLength {
            param: "upper".into(),
            len: 3,
            elements: 2,
            single_ok: true,
        })
    );
    assert_eq!(d.block.as_deref(), Some("sat"));
    assert_eq!(d.line_column, Some((7, 9)));
    assert_eq!(
        d.to_string(),
        "bad.toml:7:9: block 'sat': 'upper' has 3 values but the signal has 2 elements; give one \
         per element or a single number\n  help: write 2 values in 'upper', or one number for all"
    );
}

/// Shape propagation: two element-wise inputs that cannot be broadcast. The diagram's own hint
/// stands; the typed error is kept.
#[test]
fn element_wise_inputs_that_disagree_are_not_broadcastable() {
    let d = diagnostic_of(
        r#"connect = ["a.out -> sum.in1", "b.out -> sum.in2", "sum.out -> s.in1"]
[model]
stop_time = 1.0
[blocks.a]
type = "Constant"
value = [1.0, 2.0]
[blocks.b]
type = "Constant"
value = [1.0, 2.0, 3.0]
[blocks.sum]
type = "Sum"
signs = "++"
[blocks.s]
type = "Scope"
"#,
    );
    match d.block_error() {
        Some(BlockError::NotBroadcastable { first, second }) => {
            assert_eq!((*first, *second), (Shape::vector(2), Shape::vector(3)));
        }
        other => panic!("{other:?}: {d}"),
    }
    assert_eq!(d.block.as_deref(), Some("sum"));
    assert_eq!(
        d.hint.as_deref(),
        Some("make the connected signals' shapes agree (`blockdyn check` prints them)")
    );
}

/// Binding: a ground contact on a point fixed to the World.
#[test]
fn a_ground_contact_on_the_world_is_a_binding_error() {
    let d = diagnostic_of(
        r#"connect = ["world.W -- free.B", "free.F -- ball.R", "world.W -- foot.R", "foot.G -- ground.F"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.free]
type = "SixDofJoint"
[blocks.foot]
type = "Point"
[blocks.ground]
type = "GroundContact"
stiffness = 1e6
damping = 1e3
"#,
    );
    assert_eq!(
        d.block_error(),
        Some(&BlockError::FixedToWorld {
            geometry: "foot.G".into()
        }),
        "{d}"
    );
    assert_eq!(d.block.as_deref(), Some("ground"));
    assert!(
        d.to_string().contains("foot.G is fixed to the World"),
        "{d}"
    );
}

/// A geometry of a kind the block does not take: the variant carries the kind, and its hint is
/// what the message's `help:` line says.
#[test]
fn a_ground_contact_on_a_solid_names_its_kind() {
    let d = diagnostic_of(
        r#"connect = ["world.W -- free.B", "free.F -- ball.R", "ball.G -- ground.F"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.free]
type = "SixDofJoint"
[blocks.ground]
type = "GroundContact"
stiffness = 1e6
damping = 1e3
"#,
    );
    match d.block_error() {
        Some(e @ BlockError::GeometryNotAccepted { geometry, kind, .. }) => {
            assert_eq!(
                (geometry.as_str(), *kind),
                ("ball.G", ShapeKind::ConvexHull)
            );
            assert_eq!(d.hint.as_deref(), e.hint().as_deref());
        }
        other => panic!("{other:?}: {d}"),
    }
}

/// A problem of the model's text carries no block error.
#[test]
fn a_text_problem_has_no_block_error() {
    let d = diagnostic_of("[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Konstant\"\n");
    assert!(d.block_error().is_none(), "{d}");
}

/// A block type of a user's own that refuses even numbers of elements, in its own words.
mod odd_only {
    use blockdyn::block::{Block, BlockError, BlockType, Ctx, PortDecl, PortDoc, Setup, Shape};
    use blockdyn::params::{ParamError, Params};

    struct OddOnly {
        inputs: Vec<PortDecl>,
    }

    impl Block for OddOnly {
        fn inputs(&self) -> &[PortDecl] {
            &self.inputs
        }
        fn outputs(&self) -> &[PortDecl] {
            &[]
        }
        fn setup(&mut self, inputs: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
            let n = inputs[0].len();
            if n % 2 == 0 {
                return Err(BlockError::other(format!(
                    "{n} elements: give an odd number"
                )));
            }
            Ok(Setup::default())
        }
        fn outputs_eval(&self, _: &mut Ctx) {}
    }

    fn build(r: &Params) -> Result<Box<dyn Block>, ParamError> {
        r.finish()?;
        Ok(Box::new(OddOnly {
            inputs: vec![PortDecl::inherited("in")],
        }))
    }

    pub static ODD_ONLY: BlockType = BlockType {
        name: "OddOnly",
        category: "Tests",
        summary: "Takes a signal with an odd number of elements.",
        params: &[],
        ports: &[PortDoc {
            name: "in",
            kind: "input",
            shape: "inherited",
            unit: "",
            doc: "any signal with an odd number of elements",
        }],
        build,
    };
}

/// A user's block reports its own message (`BlockError::Other`); the diagram locates it.
#[test]
fn a_users_block_reports_its_own_message() {
    let mut registry = blockdyn::library::Registry::standard().clone();
    registry.register(odd_only::ODD_ONLY).unwrap();
    let text = r#"connect = ["c.out -> odd.in"]
[model]
stop_time = 1.0
[blocks.c]
type = "Constant"
value = [1.0, 2.0]
[blocks.odd]
type = "OddOnly"
"#;
    let d = match blockdyn::load_model_str_with("bad.toml", text, &[], &registry) {
        Ok(_) => panic!("accepted"),
        Err(d) => d,
    };
    assert_eq!(
        d.block_error(),
        Some(&BlockError::other("2 elements: give an odd number"))
    );
    assert_eq!(
        d.to_string(),
        "bad.toml:7:9: block 'odd': 2 elements: give an odd number"
    );
}
