//! The framebuffer and what draws into it: filled triangles with a depth buffer, lines, dots.
//!
//! Pixel (i, j) covers [i, i+1)×[j, j+1) and is sampled at its centre (i + ½, j + ½). Colours are
//! palette indices ([`super::palette`]). Depth is 1/z (z the distance along the viewing
//! direction), interpolated linearly in screen space, which is exact for perspective; a larger
//! 1/z is nearer. The depth buffer starts at 0 (infinitely far).

/// A projected vertex: pixel coordinates (x right, y down) and 1/z.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenPoint {
    pub x: f64,
    pub y: f64,
    pub inv_z: f64,
}

impl ScreenPoint {
    /// From [x, y, 1/z].
    pub fn from_array(p: [f64; 3]) -> Self {
        Self {
            x: p[0],
            y: p[1],
            inv_z: p[2],
        }
    }
}

/// Relative depth tolerance of edges over the faces they border (a line lying on a face must
/// win against it despite rounding).
const EDGE_DEPTH_BIAS: f64 = 2e-3;

/// An indexed-colour image with a depth buffer.
#[derive(Clone, Debug)]
pub struct Canvas {
    pub width: u32,
    pub height: u32,
    /// Palette indices, row-major from the top-left pixel.
    pub color: Vec<u8>,
    /// 1/z of the nearest surface drawn at each pixel (0: none).
    pub depth: Vec<f32>,
}

impl Canvas {
    /// A `width`×`height` canvas filled with colour 0.
    pub fn new(width: u32, height: u32) -> Self {
        let n = width as usize * height as usize;
        Self {
            width,
            height,
            color: vec![0; n],
            depth: vec![0.0; n],
        }
    }

    /// Fills with `color` and clears the depth buffer.
    pub fn clear(&mut self, color: u8) {
        self.color.fill(color);
        self.depth.fill(0.0);
    }

    /// The colour at pixel (i, j).
    pub fn at(&self, i: u32, j: u32) -> u8 {
        self.color[(j * self.width + i) as usize]
    }

    /// Fills the triangle where it is nearer than what is drawn (depth test and write). Either
    /// winding; degenerate triangles draw nothing.
    pub fn fill_triangle(&mut self, tri: &[ScreenPoint; 3], color: u8) {
        self.raster_triangle(tri, |canvas, k, inv_z| {
            if inv_z > canvas.depth[k] as f64 {
                canvas.depth[k] = inv_z as f32;
                canvas.color[k] = color;
            }
        });
    }

    /// Fills the triangle over everything (no depth test or write): overlays such as arrow heads.
    pub fn fill_triangle_overlay(&mut self, tri: &[ScreenPoint; 3], color: u8) {
        self.raster_triangle(tri, |canvas, k, _| canvas.color[k] = color);
    }

    /// Calls `plot(canvas, pixel index, 1/z)` for every pixel whose centre lies inside the
    /// triangle (edge functions; pixels on an edge count).
    fn raster_triangle(
        &mut self,
        tri: &[ScreenPoint; 3],
        mut plot: impl FnMut(&mut Canvas, usize, f64),
    ) {
        let [a, b, c] = *tri;
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        if !area.is_finite() || area.abs() < 1e-12 {
            return;
        }
        let (w, h) = (self.width as f64, self.height as f64);
        let x0 = a.x.min(b.x).min(c.x).floor().max(0.0);
        let x1 = a.x.max(b.x).max(c.x).ceil().min(w);
        let y0 = a.y.min(b.y).min(c.y).floor().max(0.0);
        let y1 = a.y.max(b.y).max(c.y).ceil().min(h);
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let inv_area = 1.0 / area;
        // Barycentric weight of the vertex opposite edge (p, q), at point (x, y).
        let edge = |p: ScreenPoint, q: ScreenPoint, x: f64, y: f64| {
            ((q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)) * inv_area
        };
        for j in y0 as u32..y1 as u32 {
            let y = j as f64 + 0.5;
            let row = (j * self.width) as usize;
            for i in x0 as u32..x1 as u32 {
                let x = i as f64 + 0.5;
                let wa = edge(b, c, x, y);
                let wb = edge(c, a, x, y);
                let wc = 1.0 - wa - wb;
                if wa >= 0.0 && wb >= 0.0 && wc >= 0.0 {
                    let inv_z = wa * a.inv_z + wb * b.inv_z + wc * c.inv_z;
                    plot(self, row + i as usize, inv_z);
                }
            }
        }
    }

    /// A 1-px line from `a` to `b`, drawn where it is not behind a surface (with a small bias, so
    /// that the edges of a face show on it). Does not write depth.
    pub fn line(&mut self, a: ScreenPoint, b: ScreenPoint, color: u8) {
        self.walk_line(a, b, |canvas, k, inv_z| {
            if inv_z * (1.0 + EDGE_DEPTH_BIAS) >= canvas.depth[k] as f64 {
                canvas.color[k] = color;
            }
        });
    }

    /// A line `width` px wide over everything (overlays).
    pub fn thick_line_overlay(&mut self, a: ScreenPoint, b: ScreenPoint, width: f64, color: u8) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = dx.hypot(dy);
        if len.is_nan() || len <= 0.0 {
            return;
        }
        let (nx, ny) = (-dy / len * 0.5 * width, dx / len * 0.5 * width);
        let corner = |p: ScreenPoint, s: f64| ScreenPoint {
            x: p.x + s * nx,
            y: p.y + s * ny,
            inv_z: p.inv_z,
        };
        let (a0, a1, b0, b1) = (
            corner(a, 1.0),
            corner(a, -1.0),
            corner(b, 1.0),
            corner(b, -1.0),
        );
        self.fill_triangle_overlay(&[a0, a1, b1], color);
        self.fill_triangle_overlay(&[a0, b1, b0], color);
    }

    /// A filled square dot of side 2·radius + 1 px centred on `p`, depth-tested (not written).
    pub fn dot(&mut self, p: ScreenPoint, radius: i64, color: u8) {
        let (ci, cj) = (p.x.floor() as i64, p.y.floor() as i64);
        for j in cj - radius..=cj + radius {
            for i in ci - radius..=ci + radius {
                if let Some(k) = self.index(i, j) {
                    if p.inv_z * (1.0 + EDGE_DEPTH_BIAS) >= self.depth[k] as f64 {
                        self.color[k] = color;
                    }
                }
            }
        }
    }

    fn index(&self, i: i64, j: i64) -> Option<usize> {
        (i >= 0 && j >= 0 && i < self.width as i64 && j < self.height as i64)
            .then(|| (j as usize) * self.width as usize + i as usize)
    }

    /// Steps along the line one pixel at a time (along its longer axis), calling
    /// `plot(canvas, pixel index, 1/z)` at each pixel inside the canvas.
    fn walk_line(
        &mut self,
        a: ScreenPoint,
        b: ScreenPoint,
        mut plot: impl FnMut(&mut Canvas, usize, f64),
    ) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let steps = dx.abs().max(dy.abs()).ceil();
        if !steps.is_finite() || steps > 1e5 {
            return;
        }
        let n = steps.max(1.0) as i64;
        for s in 0..=n {
            let u = s as f64 / n as f64;
            let (x, y) = (a.x + u * dx, a.y + u * dy);
            if let Some(k) = self.index(x.floor() as i64, y.floor() as i64) {
                plot(self, k, a.inv_z + u * (b.inv_z - a.inv_z));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, inv_z: f64) -> ScreenPoint {
        ScreenPoint { x, y, inv_z }
    }

    /// Two triangles tiling the square [2, 6)×[1, 5) cover exactly its 16 pixel centres.
    #[test]
    fn a_square_of_two_triangles_covers_its_pixels() {
        let mut c = Canvas::new(8, 8);
        let (a, b, cc, d) = (
            p(2.0, 1.0, 1.0),
            p(6.0, 1.0, 1.0),
            p(6.0, 5.0, 1.0),
            p(2.0, 5.0, 1.0),
        );
        c.fill_triangle(&[a, b, cc], 9);
        c.fill_triangle(&[a, cc, d], 9);
        for j in 0..8 {
            for i in 0..8 {
                let inside = (2..6).contains(&i) && (1..5).contains(&j);
                assert_eq!(c.at(i, j) == 9, inside, "pixel ({i}, {j})");
            }
        }
    }

    #[test]
    fn the_nearer_triangle_wins_whatever_the_order() {
        for near_first in [true, false] {
            let mut c = Canvas::new(4, 4);
            let tri = |inv_z| [p(0.0, 0.0, inv_z), p(4.0, 0.0, inv_z), p(0.0, 4.0, inv_z)];
            let (near, far) = ((tri(1.0), 1u8), (tri(0.5), 2u8));
            let order = if near_first { [near, far] } else { [far, near] };
            for (t, color) in order {
                c.fill_triangle(&t, color);
            }
            assert_eq!(c.at(0, 0), 1);
        }
    }

    #[test]
    fn lines_hide_behind_surfaces_but_show_on_them() {
        let mut c = Canvas::new(8, 8);
        c.fill_triangle(&[p(0.0, 0.0, 1.0), p(8.0, 0.0, 1.0), p(0.0, 8.0, 1.0)], 1);
        c.line(p(0.5, 2.5, 0.5), p(7.5, 2.5, 0.5), 2); // behind
        assert_eq!(c.at(1, 2), 1);
        c.line(p(0.5, 2.5, 1.0), p(7.5, 2.5, 1.0), 3); // on the face
        assert_eq!(c.at(1, 2), 3);
        assert_eq!(c.at(7, 2), 3, "outside the face, nothing hides it");
    }
}
