//! A collision mesh as its convex hull: the STL file (binary or ASCII, read by stl_io) is found
//! from the `filename` URDF writes, its vertices scaled, and reduced to the vertices of their
//! convex hull (blockdyn's contact geometry for a mesh is that hull).

use crate::geometry::hull::convex_hull;
use crate::model::input_file::{read_regular, MAX_MESH_FILE_BYTES};
use nalgebra::Point3;
use std::path::{Path, PathBuf};

/// The most distinct vertices a collision mesh may have: 1,000,000 (a 200,000-vertex mesh is
/// hulled in a fraction of a second; the limit bounds what a hostile file can cost, and a
/// collision hull needs far fewer vertices than a visual mesh).
pub const MAX_MESH_VERTICES: usize = 1_000_000;

/// Where the mesh `filename` of a URDF in `urdf_dir` is: `file://` paths as written,
/// `package://PKG/REST` as REST beside the URDF or in a folder PKG above it, other names
/// relative to the URDF's folder. `Err` lists the places looked at.
pub fn resolve(filename: &str, urdf_dir: &Path) -> Result<PathBuf, String> {
    let candidates: Vec<PathBuf> = if let Some(path) = filename.strip_prefix("file://") {
        vec![PathBuf::from(path)]
    } else if let Some(rest) = filename.strip_prefix("package://") {
        let (package, inner) = rest.split_once('/').unwrap_or((rest, ""));
        let mut c = vec![urdf_dir.join(inner)];
        for ancestor in urdf_dir.ancestors() {
            if ancestor.file_name().is_some_and(|n| n == package) {
                c.push(ancestor.join(inner));
            }
            c.push(ancestor.join(package).join(inner));
        }
        c
    } else {
        vec![urdf_dir.join(filename)]
    };
    candidates
        .iter()
        // Whatever exists: a FIFO or directory found is refused by name when it is read.
        .find(|p| p.exists())
        .cloned()
        .ok_or_else(|| {
            let looked: Vec<String> = candidates
                .iter()
                .take(4)
                .map(|p| p.display().to_string())
                .collect();
            format!("the mesh file is missing (looked at {})", looked.join(", "))
        })
}

/// The vertices of the convex hull of the mesh `filename` of a URDF in `urdf_dir` (see
/// [`resolve`]), each scaled by `scale` (m). Only STL files are read.
pub fn hull_of(filename: &str, scale: [f64; 3], urdf_dir: &Path) -> Result<Vec<[f64; 3]>, String> {
    let extension = Path::new(filename)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if extension.as_deref() != Some("stl") {
        return Err(
            "not an STL file: only STL meshes (binary or ASCII) are read; convert it to STL"
                .to_string(),
        );
    }
    hull_points(&resolve(filename, urdf_dir)?, scale)
}

/// The vertices of the convex hull of the STL mesh at `path`, each scaled by `scale` (m).
pub fn hull_points(path: &Path, scale: [f64; 3]) -> Result<Vec<[f64; 3]>, String> {
    let bytes = read_regular(path, "mesh file", MAX_MESH_FILE_BYTES).map_err(|e| e.to_string())?;
    let mesh = stl_io::read_stl(&mut std::io::Cursor::new(bytes))
        .map_err(|e| format!("not a readable STL file: {e}"))?;
    if mesh.vertices.len() > MAX_MESH_VERTICES {
        return Err(format!(
            "it has {} vertices, more than the limit of {MAX_MESH_VERTICES} for a collision mesh: decimate it (e.g. MeshLab's quadric edge collapse) to a few thousand",
            mesh.vertices.len()
        ));
    }
    let points: Vec<Point3<f64>> = mesh
        .vertices
        .iter()
        .map(|v| {
            Point3::new(
                f64::from(v.0[0]) * scale[0],
                f64::from(v.0[1]) * scale[1],
                f64::from(v.0[2]) * scale[2],
            )
        })
        .collect();
    if points
        .iter()
        .any(|p| !p.coords.iter().all(|x| x.is_finite()))
    {
        return Err("the mesh has a non-finite vertex".into());
    }
    let hull = convex_hull(&points).map_err(|e| format!("its convex hull is degenerate: {e}"))?;
    Ok(hull.vertices.iter().map(|p| [p.x, p.y, p.z]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_paths_are_found_beside_the_urdf() {
        let dir = std::env::temp_dir().join(format!("blockdyn-urdf-mesh-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("meshes")).unwrap();
        std::fs::write(dir.join("meshes/a.stl"), b"solid a\nendsolid a\n").unwrap();
        assert_eq!(
            resolve("package://robot/meshes/a.stl", &dir).unwrap(),
            dir.join("meshes/a.stl")
        );
        assert_eq!(
            resolve("meshes/a.stl", &dir).unwrap(),
            dir.join("meshes/a.stl")
        );
        assert!(resolve("meshes/b.stl", &dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
