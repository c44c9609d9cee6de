//! A contact group of N spheres, the model that benches/contact_group.rs's build bench and
//! tests/group_build_memory.rs share (and scripts/gen_sphere_group.py writes): N spheres (r 5 cm,
//! 0.1 kg), each on a free joint, on a 10 × 10 grid 0.2 m apart in layers of 100, over a floor,
//! all of them and the floor in one `ContactGroup`.

/// The model's text for `n` spheres, named `name`.
pub fn sphere_group(name: &str, n: usize) -> String {
    let mut connect = vec!["\"world.W -- floor.R\"".to_string()];
    let mut blocks = String::new();
    for k in 0..n {
        let (x, y, z) = (
            (k % 10) as f64 * 0.2,
            ((k / 10) % 10) as f64 * 0.2,
            0.1 + (k / 100) as f64 * 0.2,
        );
        connect.push(format!(
            "\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\""
        ));
        blocks.push_str(&format!("[blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{x}, {y}, {z}]\n[blocks.ball{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n"));
    }
    format!(
        "connect = [{}]\n[model]\nname = \"{name}\"\nstop_time = 1.0\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.floor]\ntype = \"InfinitePlane\"\n[blocks.group]\ntype = \"ContactGroup\"\nmembers = [\"ball*\", \"floor\"]\n{blocks}",
        connect.join(", ")
    )
}
