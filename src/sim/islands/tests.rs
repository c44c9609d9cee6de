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

/// Per-island zero-crossing functions: each island's list holds exactly the functions its own
/// states move. The three stacks' group has 22 functions: no always-pair (the floor is a fixed
/// plane, broad-phased), min(11·6, 15 + 6) = 21 watch slots (6 balls, pairs with each other
/// and the floor) and the approach function, which is shared. Each island has room for the
/// 2·1/2 pair of its balls and their 2·1 pairs with the floor (3); two are watched at t = 0
/// (within the 12.5 mm margin: the balls' pair and the lower ball's with the floor; the upper
/// ball is 9.8 cm above the floor), so its solver sees 1 + 3 functions instead of 22, one
/// position free. Checked against the whole evaluation: moving one island's states
/// changes its own functions and none of another island's.
#[test]
fn each_island_sees_the_crossing_functions_its_states_move() {
    use super::crossings::CrossingMap;
    let d = crate::load_model_str("stacks.toml", &stacks(), &[]).unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x0 = engine.initialize(0.0);
    let mut partition = Partition::new(&d, &engine).unwrap();
    partition.update(&engine);
    let mut map = CrossingMap::new(&engine);
    assert_eq!(engine.zero_crossing_dim(), 22);
    assert_eq!(map.shared(), 1, "the approach function");
    map.lists = (0..3)
        .map(|i| map.list_for(&engine, &partition.island_bodies(i)))
        .collect();
    map.reindex();
    map.refresh(&engine, &partition);
    let owned: Vec<Vec<usize>> = map
        .lists
        .iter()
        .map(|l| (1..l.local.len()).filter_map(|k| l.global(k)).collect())
        .collect();
    for (i, own) in owned.iter().enumerate() {
        assert_eq!(
            map.lists[i].local.len(),
            4,
            "island {i}: 1 shared + room for 3"
        );
        assert_eq!(own.len(), 2, "island {i}: its two watched pairs");
    }
    assert_eq!(map.across, 0);
    let n = x0.len();
    let mut g0 = vec![0.0; 22];
    engine.zero_crossings(0.0, &x0, &mut g0);
    for i in 0..3 {
        let (states, _) = partition.island_states(i);
        // Each state by a different amount, so that the two balls' gap changes too.
        let mut x = x0.clone();
        for (j, &k) in states.iter().enumerate() {
            x[k] += 1e-4 * (j + 1) as f64;
        }
        let mut g = vec![0.0; 22];
        engine.zero_crossings(0.0, &x, &mut g);
        for (j, own) in owned.iter().enumerate() {
            for &k in own {
                assert_eq!(
                    g[k] != g0[k],
                    i == j,
                    "function {k} of island {j}, island {i} moved"
                );
            }
        }
        assert_eq!(x.len(), n);
    }
}

/// The positions an island's list gives to a function are reported to its solver once each
/// (so that it forgets what it tracked there: docs/design-notes.md, "Found in review and left
/// open", fifth session). At the first refresh each island's two watched pairs take two of its
/// positions; read once, they are not reported again. Then the slot holding island 0's ball
/// pair (members 0 and 1) is given to island 1's upper ball and the floor (members 3 and 6, as
/// the group's `settle` would after the pairs moved): the function leaves island 0, whose list
/// reports nothing, and takes island 1's free position, the one position island 1 reports.
#[test]
fn a_position_given_to_another_function_is_reported_once() {
    use super::crossings::CrossingMap;
    let d = crate::load_model_str("stacks.toml", &stacks(), &[]).unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    engine.initialize(0.0);
    let mut partition = Partition::new(&d, &engine).unwrap();
    partition.update(&engine);
    let mut map = CrossingMap::new(&engine);
    map.lists = (0..3)
        .map(|i| map.list_for(&engine, &partition.island_bodies(i)))
        .collect();
    map.reindex();
    map.refresh(&engine, &partition);
    let taken = |map: &mut CrossingMap, i: usize| {
        let mut positions = Vec::new();
        map.lists[i].take_redefined(&mut |p| positions.push(p));
        positions.sort_unstable();
        positions
    };
    for i in 0..3 {
        let mut owned: Vec<usize> = (1..map.lists[i].local.len())
            .filter(|&p| map.lists[i].global(p).is_some())
            .collect();
        owned.sort_unstable();
        assert_eq!(owned.len(), 2, "island {i}: its two watched pairs");
        assert_eq!(taken(&mut map, i), owned, "island {i}, first read");
        assert!(taken(&mut map, i).is_empty(), "island {i}, read again");
    }
    let group = d.blocks.iter().position(|b| b.name == "group").unwrap();
    let work = d.blocks[group].work.clone();
    // Members in order: b00, b01, b10, b11, b20, b21, floor (M = 7); pair (a, b) is a·M + b.
    // The group has no always-pair: watch slot k is its function k.
    let slot = engine.run.work[work.clone()]
        .iter()
        .position(|&c| c == 1.0)
        .expect("the pair (b00, b01) is watched");
    let function = d.blocks[group].zero_crossings.start + slot;
    let holder = |map: &CrossingMap| -> (usize, usize) {
        (0..3)
            .find_map(|i| {
                let list = &map.lists[i];
                (1..list.local.len())
                    .find(|&p| list.global(p) == Some(function))
                    .map(|p| (i, p))
            })
            .expect("an island holds the function")
    };
    let (from, _) = holder(&map);
    engine.run.work[work.start + slot] = (3 * 7 + 6) as f64;
    map.refresh(&engine, &partition);
    let (to, position) = holder(&map);
    assert_ne!(from, to, "the pair moved to another island");
    for i in 0..3 {
        let expected = if i == to { vec![position] } else { vec![] };
        assert_eq!(
            taken(&mut map, i),
            expected,
            "island {i} (from {from}, to {to})"
        );
    }
}

/// A cut the synchronisation did not resolve is a failure of the run, not of its settings: its
/// error is its own (not "invalid solver settings") and names the way out.
#[test]
fn a_cut_the_synchronisation_did_not_join_names_islands_false() {
    let message = crate::solver::SolverError::IslandsNotJoined { t: 0.25 }.to_string();
    assert!(
        message.contains("t = 0.25 s") && message.contains("[solver] islands = false"),
        "{message}"
    );
    assert!(!message.contains("invalid"), "{message}");
}

/// A stretch run again merged starts from every block's work slots as the stretch began, not
/// as the thrown-away runs' handlers left them. A handler of such a run can move a group's
/// watched pairs between slots (a pair that left the watch set and came back takes the first
/// free slot); the settle at the stretch's start keeps a picked pair where it is, so without
/// the snapshot the re-run's functions sit at other positions than at the stretch's start (and
/// a block's modes, were a block with modes allowed beside islands, would carry the discarded
/// run's switches into the re-run). Here two watched pairs' slots are swapped and the next look
/// moved, as such a handler would leave them: the re-run's start has the slots (and the next
/// look) of the stretch's start, bit for bit. Before the fix the swapped slots stayed.
#[test]
fn a_stretch_run_again_merged_starts_from_the_work_of_its_start() {
    use super::sync::Stretch;
    use super::{IslandStats, Islands};
    let d = crate::load_model_str("stacks.toml", &stacks(), &[]).unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x0 = engine.initialize(0.0);
    let options = crate::solver::SolverOptions::default();
    let mut islands = match Islands::new(&mut engine, &options, 0.0, &x0, 0.1) {
        Ok(Ok(islands)) => islands,
        _ => panic!("three stacks 10 m apart: three islands"),
    };
    let at_start = engine.run.work.clone();
    let group = d.blocks.iter().position(|b| b.name == "group").unwrap();
    let work = d.blocks[group].work.clone();
    // The group's work: the watch slots, then the slots' generation, then the next look.
    let (generation, next_look) = (work.end - 2, work.end - 1);
    let watched: Vec<usize> = (work.start..generation)
        .filter(|&k| engine.run.work[k] >= 0.0)
        .collect();
    assert!(
        watched.len() >= 2,
        "two watched pairs at least: {watched:?}"
    );
    // As a handler would: two slots swapped, the generation bumped, the next look moved.
    engine.run.work.swap(watched[0], watched[1]);
    engine.run.work[generation] += 1.0;
    engine.run.work[next_look] = 0.05;
    let stretch = Stretch {
        start: 0.0,
        end: 0.05,
        time_event: false,
        log_start: 0,
        contact: Some(0.05),
    };
    islands
        .run_merged_again(&mut engine, &stretch, &mut IslandStats::default())
        .unwrap();
    let bits = |w: &[f64]| w.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&engine.run.work), bits(&at_start));
    assert_eq!(islands.state(), &x0[..]);
}
