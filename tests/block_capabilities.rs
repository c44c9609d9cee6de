//! The capability traits of `blockdyn::block` as the example models use them (issue 29, part 3):
//! which block types answer which accessor is the table in docs/design-notes.md ("Issue 29,
//! part 3"), checked here against every model in models/ that builds.
//!
//! - (`physical_mut` answering exactly when `physical` does is checked where each block is made,
//!   `diagram::build`, which refuses a block type that breaks it);
//! - the block the lowering hook made (the scene's mechanism block) is not itself physical (a
//!   parameter set elaborates the network again from the physical blocks), and answers
//!   `constrained_states`, `body_coupling` and `advice`;
//! - the contact blocks answer `advice`, the joints and frames do not.
//!
//! Every model is only built, not run; nothing is written to disk.

use blockdyn::block::PhysicalRole;
use std::path::Path;

/// The block types that answer `advice` besides the mechanism, as the design notes' table lists
/// them.
const ADVISING: &[&str] = &["SpatialContactForce", "GroundContact", "ContactGroup"];

#[test]
fn capabilities_follow_the_documented_table() {
    let mut models: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("models"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
    models.sort();
    let (mut built, mut physical, mut mechanisms) = (0, 0, 0);
    for path in &models {
        let Ok(d) = blockdyn::load_model(path, &[]) else {
            continue; // a model meant to fail, or one needing a file beside it
        };
        built += 1;
        let mechanism = d.scene().map(|s| s.mechanism_block);
        for (b, blk) in d.blocks().iter().enumerate() {
            let here = format!("{}: {} ({})", path.display(), blk.name, blk.type_name);
            let has = blk.block().physical().is_some();
            physical += usize::from(has);
            if Some(b) == mechanism {
                mechanisms += 1;
                assert!(
                    !has,
                    "{here}: the lowered mechanism is not a physical block"
                );
                assert!(blk.block().constrained_states().is_some(), "{here}");
                assert!(blk.block().body_coupling().is_some(), "{here}");
                assert!(blk.block().advice().is_some(), "{here}");
                continue;
            }
            let advises = ADVISING.contains(&blk.type_name);
            assert_eq!(blk.block().advice().is_some(), advises, "{here}");
            assert!(blk.block().constrained_states().is_none(), "{here}");
            if matches!(
                blk.block().role(),
                Some(PhysicalRole::Joint { .. } | PhysicalRole::Solid { .. })
            ) {
                assert!(blk.block().body_coupling().is_none(), "{here}");
            }
            if blk.type_name == "ContactGroup" {
                assert!(blk.block().geometry_members().is_some(), "{here}");
                assert!(blk.block().body_coupling().is_some(), "{here}");
            }
        }
    }
    // The corpus exercises the table: most models build, with physical blocks and a mechanism.
    eprintln!("{built} models built, {physical} physical blocks, {mechanisms} mechanisms");
    assert!(built >= 40, "only {built} of {} models built", models.len());
    assert!(
        physical >= 500 && mechanisms >= 35,
        "{physical} physical blocks, {mechanisms} mechanisms"
    );
}
