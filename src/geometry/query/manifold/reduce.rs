//! Reduction of a manifold to a few points that keep its corners and its area.
//!
//! A face clipped against a face can have many points (a hull's 32-gon cap has 32). A constraint
//! solver wants few (four points already make a box's contact redundant). The reduction keeps, in
//! order: the deepest point; the point farthest from it in the contact plane; the point that makes
//! the largest triangle with those two; then, while room is left, the point farthest from the
//! polygon of the points kept so far (its distance to the nearest kept point), which adds the
//! remaining corners before anything in between. Each dropped point hands its share to the nearest
//! kept point, so the total share is kept.
//!
//! The choice is discrete: a reduced manifold can jump as the pose changes. The penalty contact
//! force keeps every point (it needs continuity); reduction is for consumers that do not.

use nalgebra::Vector3;

use super::{ContactManifold, ManifoldPoint};

impl ContactManifold {
    /// Reduces the manifold to at most `max_points` points (at least 1), keeping its corners and
    /// area (see the module documentation). No allocation.
    pub fn reduce(&mut self, max_points: usize) {
        let max_points = max_points.max(1);
        if self.points.len() <= max_points {
            return;
        }
        let normal = self.normal.into_inner();
        let flat = |p: &ManifoldPoint| {
            let x = p.point.coords;
            x - normal * normal.dot(&x)
        };
        // `shares` is free workspace here: 1.0 marks a kept point.
        let n = self.points.len().min(self.shares.capacity());
        let kept = &mut self.shares;
        kept.clear();
        kept.resize(n, 0.0);
        let points = &self.points[..n];
        let best = |score: &dyn Fn(usize) -> f64, kept: &[f64]| -> Option<usize> {
            (0..n)
                .filter(|&i| kept[i] == 0.0)
                .max_by(|&a, &b| score(a).total_cmp(&score(b)))
        };
        let deepest = (0..n)
            .max_by(|&a, &b| points[a].depth.total_cmp(&points[b].depth))
            .unwrap_or(0);
        kept[deepest] = 1.0;
        let mut count = 1;
        let d0 = flat(&points[deepest]);
        if let Some(far) = best(&|i| (flat(&points[i]) - d0).norm_squared(), kept) {
            kept[far] = 1.0;
            count += 1;
            let d1 = flat(&points[far]);
            let area = |i: usize| (d1 - d0).cross(&(flat(&points[i]) - d0)).norm();
            if count < max_points {
                if let Some(third) = best(&area, kept) {
                    kept[third] = 1.0;
                    count += 1;
                }
            }
        }
        while count < max_points {
            let distance_to_kept = |i: usize| {
                let p = flat(&points[i]);
                (0..n)
                    .filter(|&j| kept[j] != 0.0)
                    .map(|j| (flat(&points[j]) - p).norm_squared())
                    .fold(f64::INFINITY, f64::min)
            };
            match best(&distance_to_kept, kept) {
                Some(i) => {
                    kept[i] = 1.0;
                    count += 1;
                }
                None => break,
            }
        }
        // Hand each dropped point's share to its nearest kept point, then compact.
        for i in 0..n {
            if kept[i] != 0.0 {
                continue;
            }
            let p: Vector3<f64> = flat(&self.points[i]);
            let distance = |j: usize| (flat(&self.points[j]) - p).norm_squared();
            let nearest = (0..n)
                .filter(|&j| kept[j] != 0.0)
                .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
                .unwrap_or(deepest);
            let share = self.points[i].share;
            self.points[nearest].share += share;
        }
        let mut write = 0;
        for (read, &flag) in kept.iter().enumerate() {
            if flag != 0.0 {
                self.points[write] = self.points[read];
                write += 1;
            }
        }
        self.points.truncate(write);
    }
}
