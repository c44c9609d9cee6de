//! The fixed 256-colour palette every frame is drawn in (a GIF frame is palette-indexed, and a fixed
//! palette needs no colour quantisation): background, text greys, edges, arrows, and for each
//! material [`SHADES`] Lambert intensities from the ambient level to full light, then the inks of
//! the glyphs' lines ([`Ink`]).

use super::mesh::Ink;
use super::scene::Material;

/// Background (a light blue-grey).
pub const BACKGROUND: u8 = 0;
/// Text, from faint (anti-aliased rim) to full: `TEXT[3]` is the glyph body.
pub const TEXT: [u8; 4] = [1, 2, 3, 4];
/// Edges of the solids (dark grey).
pub const EDGE: u8 = 5;
/// Force arrows (red).
pub const ARROW: u8 = 6;
/// Point and point-cloud markers (dark blue).
pub const POINT: u8 = 7;
/// First index of the shaded material ramps.
const FIRST_SHADE: usize = 8;
/// Intensity levels per material.
pub const SHADES: usize = 30;
/// Fraction of a material's colour shown on a face turned away from the light.
pub const AMBIENT: f64 = 0.35;

const BACKGROUND_RGB: [u8; 3] = [236, 239, 243];
const TEXT_RGB: [u8; 3] = [20, 20, 20];
const EDGE_RGB: [u8; 3] = [35, 35, 40];
const ARROW_RGB: [u8; 3] = [215, 25, 28];
const POINT_RGB: [u8; 3] = [30, 50, 140];
/// The ground's colour, then the body colours (cycled).
const GROUND_RGB: [u8; 3] = [178, 176, 168];
const BODY_RGB: [[u8; 3]; 7] = [
    [70, 130, 200],  // blue
    [240, 150, 40],  // orange
    [90, 175, 90],   // green
    [160, 100, 190], // purple
    [230, 200, 60],  // yellow
    [60, 180, 180],  // teal
    [200, 110, 120], // rose
];

/// Number of body colours before they repeat.
pub const BODY_COLORS: usize = BODY_RGB.len();

/// First index of the inks, after the material ramps.
const FIRST_INK: usize = FIRST_SHADE + (1 + BODY_COLORS) * SHADES;
/// The inks' colours, in the order of [`Ink::ALL`]: red, green, blue, dark magenta, dark brown.
const INK_RGB: [[u8; 3]; 5] = [
    [220, 40, 40],
    [40, 160, 60],
    [40, 80, 220],
    [150, 40, 150],
    [120, 75, 35],
];

const _: () = assert!(FIRST_INK + INK_RGB.len() <= 256);

/// The palette index of `ink`.
pub fn ink(ink: Ink) -> u8 {
    (FIRST_INK + ink_slot(ink)) as u8
}

fn ink_slot(ink: Ink) -> usize {
    Ink::ALL.iter().position(|&i| i == ink).unwrap_or(0)
}

/// The colour of `ink`, r, g, b (the viewer's, to match the GIF).
pub fn ink_rgb(ink: Ink) -> [u8; 3] {
    INK_RGB[ink_slot(ink)]
}

fn material_slot(m: Material) -> usize {
    match m {
        Material::Ground => 0,
        Material::Body(k) => 1 + k % BODY_COLORS,
    }
}

/// The palette index of material `m` lit with `diffuse` = max(0, n·l) ∈ [0, 1]: intensity
/// AMBIENT + (1 − AMBIENT)·diffuse, quantised to [`SHADES`] levels.
pub fn shade(m: Material, diffuse: f64) -> u8 {
    let level = (diffuse.clamp(0.0, 1.0) * (SHADES - 1) as f64).round() as usize;
    (FIRST_SHADE + material_slot(m) * SHADES + level) as u8
}

/// The colour of material `m` in full light, r, g, b (the viewer lights it itself).
pub fn material_rgb(m: Material) -> [u8; 3] {
    match m {
        Material::Ground => GROUND_RGB,
        Material::Body(k) => BODY_RGB[k % BODY_COLORS],
    }
}

/// The background, edge, arrow and marker colours, r, g, b (for the viewer, to match the GIF).
pub const VIEW_RGB: [[u8; 3]; 4] = [BACKGROUND_RGB, EDGE_RGB, ARROW_RGB, POINT_RGB];

/// The 256 colours as r, g, b bytes (the GIF's global colour table).
pub fn rgb_table() -> Vec<u8> {
    let mut table = vec![0u8; 256 * 3];
    let mut put = |i: usize, c: [u8; 3]| table[3 * i..3 * i + 3].copy_from_slice(&c);
    put(BACKGROUND as usize, BACKGROUND_RGB);
    for (k, &i) in TEXT.iter().enumerate() {
        let a = (k + 1) as f64 / TEXT.len() as f64;
        put(i as usize, mix(BACKGROUND_RGB, TEXT_RGB, a));
    }
    put(EDGE as usize, EDGE_RGB);
    put(ARROW as usize, ARROW_RGB);
    put(POINT as usize, POINT_RGB);
    for (k, &c) in INK_RGB.iter().enumerate() {
        put(FIRST_INK + k, c);
    }
    let bases = std::iter::once(GROUND_RGB).chain(BODY_RGB);
    for (slot, base) in bases.enumerate() {
        for level in 0..SHADES {
            let intensity = AMBIENT + (1.0 - AMBIENT) * level as f64 / (SHADES - 1) as f64;
            put(
                FIRST_SHADE + slot * SHADES + level,
                base.map(|c| (c as f64 * intensity).round() as u8),
            );
        }
    }
    table
}

/// a·(1 − w) + b·w per channel.
fn mix(a: [u8; 3], b: [u8; 3], w: f64) -> [u8; 3] {
    [0, 1, 2].map(|i| (a[i] as f64 * (1.0 - w) + b[i] as f64 * w).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_stay_inside_their_ramp_and_differ_by_material() {
        let dark = shade(Material::Ground, 0.0);
        let lit = shade(Material::Ground, 1.0);
        assert_eq!(lit as usize - dark as usize, SHADES - 1);
        assert!(shade(Material::Body(0), 0.5) > lit);
        assert_eq!(
            shade(Material::Body(BODY_COLORS), 1.0),
            shade(Material::Body(0), 1.0)
        );
        assert!(shade(Material::Body(BODY_COLORS - 1), 1.0) as usize <= 255);
        let table = rgb_table();
        // Full light shows the material's own colour.
        let i = shade(Material::Body(0), 1.0) as usize;
        assert_eq!(&table[3 * i..3 * i + 3], &BODY_RGB[0]);
    }
}
