//! Restricted evaluations (issue 30, part 3): an island's evaluation computes exactly what the
//! whole diagram's evaluation computes for the island's states, and nothing for the others.

use super::{Partition, EVERY_ISLAND, NO_ISLAND};
use crate::sim::{Engine, Recorder};
use crate::solver::System;

/// Three stacks 10 m apart along x, each of two balls (r = 0.05 m): the lower one pressed
/// 1 mm into the floor, the upper one 1 mm into the lower one, both sliding and spinning, so
/// that each island's derivatives carry normal, damping and friction forces from the floor and
/// from the ball pair. One contact group for all.
fn stacks() -> String {
    let mut connect = String::from("connect = [\"world.W -- floor.R\",");
    let mut blocks = String::new();
    for c in 0..3 {
        for (k, z) in [(0, 0.049), (1, 0.148)] {
            let name = format!("b{c}{k}");
            connect.push_str(&format!(
                "\"world.W -- j{name}.B\", \"j{name}.F -- {name}.R\","
            ));
            let vx = 0.3 * (c as f64 + 1.0) * if k == 0 { 1.0 } else { -1.0 };
            blocks.push_str(&format!(
                "[blocks.j{name}]\ntype = \"SixDofJoint\"\nposition = [{}, 0.001, {z}]\n\
                 velocity = [{vx}, 0.1, 0.0]\nangular_velocity = [0.0, 0.0, {}]\n\
                 [blocks.{name}]\ntype = \"Solid\"\n\
                 geometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n",
                10.0 * c as f64 + 0.002 * k as f64,
                2.0 * k as f64 - 1.0,
            ));
        }
    }
    format!(
        "{connect}]\n[model]\nstop_time = 0.1\n[solver]\nislands = true\n\
         [output]\nlog = [\"jb00.p\", \"jb21.p\"]\n\
         [blocks.world]\ntype = \"WorldFrame\"\n[blocks.floor]\ntype = \"InfinitePlane\"\n\
         [blocks.group]\ntype = \"ContactGroup\"\nmembers = [\"b*\", \"floor\"]\n\
         normal = {{ method = \"hunt_crossley\", stiffness = 1e4, damping = 10.0 }}\n\
         friction = {{ method = \"stribeck\", static = 0.5, dynamic = 0.4, stiction_velocity = 0.01 }}\n\
         {blocks}"
    )
}

/// Each island's restricted derivatives equal the whole evaluation's on its states bit for bit
/// (the trees' ABA passes decouple, and the group sums each member's pair wrenches in the same
/// order), and leave every other entry as it was: the other islands' trees were not evaluated.
/// Checked after another island's restricted evaluation at a different state, so that a value
/// left stale where the island reads it would show.
#[test]
fn an_island_evaluation_equals_the_whole_evaluation_on_its_states() {
    let d = crate::load_model_str("stacks.toml", &stacks(), &[]).unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x0 = engine.initialize(0.0);
    let mut partition = Partition::new(&d, &engine).unwrap();
    partition.update(&engine);
    assert_eq!(partition.islands(), 3, "three stacks 10 m apart");
    engine.set_island_blocks(partition.block_islands().to_vec(), partition.bodies());
    let n = x0.len();
    let mut whole = vec![0.0; n];
    engine.derivatives(0.0, &x0, &mut whole);
    let in_contact = whole.iter().any(|v| v.abs() > 50.0);
    assert!(
        in_contact,
        "the contacts push (|v̇| > 5 g somewhere): {whole:?}"
    );
    for i in 0..3 {
        let (states, _) = partition.island_states(i);
        let bodies = partition.island_bodies(i);
        assert_eq!(
            bodies.iter().filter(|&&b| b).count(),
            2,
            "two balls per island"
        );
        // Another island first, at a state moved by 1 mm and 0.1 m/s.
        let other = partition.island_bodies((i + 1) % 3);
        let moved: Vec<f64> = x0.iter().map(|v| v + 1e-3).collect();
        let mut scratch = vec![0.0; n];
        engine.restrict_to_island(Some(&other));
        engine.derivatives(0.0, &moved, &mut scratch);
        let mut dx = vec![f64::NAN; n];
        engine.restrict_to_island(Some(&bodies));
        engine.derivatives(0.0, &x0, &mut dx);
        engine.restrict_to_island(None);
        for k in 0..n {
            if states.contains(&k) {
                assert_eq!(dx[k].to_bits(), whole[k].to_bits(), "island {i}, x[{k}]");
            } else {
                assert!(
                    dx[k].is_nan(),
                    "island {i} evaluated x[{k}] of another island"
                );
            }
        }
    }
}

/// The static map: the mechanism and the group are called by every island's evaluation, the
/// joints' readouts (read by the log only) by none.
#[test]
fn only_the_blocks_an_island_needs_are_called() {
    let d = crate::load_model_str("stacks.toml", &stacks(), &[]).unwrap();
    let engine = Engine::new(&d, Recorder::new(&d));
    let partition = Partition::new(&d, &engine).unwrap();
    let map = partition.block_islands();
    let index = |name: &str| d.blocks.iter().position(|b| b.name == name).unwrap();
    assert_eq!(map[index("group")], EVERY_ISLAND);
    let mech = d.scene.as_ref().unwrap().mechanism_block;
    assert_eq!(map[mech], EVERY_ISLAND);
    assert_eq!(map[index("jb00")], NO_ISLAND);
    assert_eq!(map[index("jb21")], NO_ISLAND);
}
