//! ESDIRK 4(3): Kennedy & Carpenter's six-stage, L-stable, stiffly accurate ESDIRK with an
//! embedded third-order solution (the implicit part of `ARK4(3)6L[2]SA`; C. A. Kennedy,
//! M. H. Carpenter, "Additive Runge–Kutta schemes for convection–diffusion–reaction equations",
//! Appl. Numer. Math. 44 (2003) 139–181, Table 6).
//!
//! An explicit first stage, then five implicit stages that all have the diagonal d = 1/4, so that
//! they share one matrix I − h·d·J, as TR-BDF2's two do. The last row equals b (stiffly
//! accurate, so x_new is the last stage and f(t + h, x_new) is the next step's first stage:
//! FSAL); stage order 2. The propagated solution is 4th order, the embedded one 3rd, so the
//! error estimate is O(h⁴) (estimator order 3). For a given accuracy it takes fewer, longer steps
//! than TR-BDF2 (2nd order) once the tolerance is tight, at five implicit stages per step against
//! two. The coefficients are the paper's rationals; `tests` checks the order conditions.

use super::{DenseOutput, Tableau};

/// The diagonal of the implicit stages.
pub(crate) const ESDIRK43_D: f64 = 0.25;

const A21: f64 = 0.25;
const A31: f64 = 8611.0 / 62500.0;
const A32: f64 = -1743.0 / 31250.0;
const A41: f64 = 5012029.0 / 34652500.0;
const A42: f64 = -654441.0 / 2922500.0;
const A43: f64 = 174375.0 / 388108.0;
const A51: f64 = 15267082809.0 / 155376265600.0;
const A52: f64 = -71443401.0 / 120774400.0;
const A53: f64 = 730878875.0 / 902184768.0;
const A54: f64 = 2285395.0 / 8070912.0;
const B1: f64 = 82889.0 / 524892.0;
const B3: f64 = 15625.0 / 83664.0;
const B4: f64 = 69875.0 / 102672.0;
const B5: f64 = -2260.0 / 8211.0;
/// The embedded 3rd-order weights b̂.
const BH: [f64; 6] = [
    4586570599.0 / 29645900160.0,
    0.0,
    178811875.0 / 945068544.0,
    814220225.0 / 1159782912.0,
    -3700637.0 / 11593932.0,
    61727.0 / 225920.0,
];

/// ESDIRK 4(3) (Kennedy & Carpenter's `ARK4(3)6L[2]SA`, implicit part).
pub(crate) static ESDIRK43: Tableau = Tableau {
    stages: 6,
    c: &[0.0, 0.5, 83.0 / 250.0, 31.0 / 50.0, 17.0 / 20.0, 1.0],
    diagonal: ESDIRK43_D,
    a: &[
        &[],
        &[A21],
        &[A31, A32],
        &[A41, A42, A43],
        &[A51, A52, A53, A54],
        &[B1, 0.0, B3, B4, B5],
    ],
    b: &[B1, 0.0, B3, B4, B5, ESDIRK43_D],
    e: Some(&[
        B1 - BH[0],
        0.0 - BH[1],
        B3 - BH[2],
        B4 - BH[3],
        B5 - BH[4],
        ESDIRK43_D - BH[5],
    ]),
    fsal: true,
    order: 4,
    error_order: 3,
    dense: DenseOutput::Hermite,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The full matrix A (with the diagonal) of the tableau, row by row.
    fn full_a() -> Vec<Vec<f64>> {
        let t = &ESDIRK43;
        (0..t.stages)
            .map(|i| {
                let mut row = vec![0.0; t.stages];
                row[..i].copy_from_slice(t.a[i]);
                if i > 0 {
                    row[i] = t.diagonal;
                }
                row
            })
            .collect()
    }

    fn dot(u: &[f64], v: &[f64]) -> f64 {
        u.iter().zip(v).map(|(a, b)| a * b).sum()
    }

    fn times(a: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
        a.iter().map(|row| dot(row, v)).collect()
    }

    /// The row sums of A are c (each stage at its node), and b is the last row.
    #[test]
    fn nodes_and_stiff_accuracy() {
        let a = full_a();
        for (row, c) in a.iter().zip(ESDIRK43.c) {
            assert!((row.iter().sum::<f64>() - c).abs() < 1e-14, "{row:?} {c}");
        }
        assert_eq!(a[5], ESDIRK43.b);
    }

    /// Order conditions of the weights w: the 1, 1, 2 and 4 rooted-tree conditions up to order p
    /// (Butcher): Σw = 1; Σwc = 1/2; Σwc² = 1/3, Σw(Ac) = 1/6; Σwc³ = 1/4, Σw·c·(Ac) = 1/8,
    /// Σw(Ac²) = 1/12, Σw(A²c) = 1/24. b meets all (order 4); b̂ those to order 3 and not all of
    /// order 4 (else the estimate would vanish).
    #[test]
    fn order_conditions() {
        let a = full_a();
        let c = ESDIRK43.c;
        let c2: Vec<f64> = c.iter().map(|x| x * x).collect();
        let c3: Vec<f64> = c.iter().map(|x| x * x * x).collect();
        let ac = times(&a, c);
        let ac2 = times(&a, &c2);
        let aac = times(&a, &ac);
        let cac: Vec<f64> = c.iter().zip(&ac).map(|(x, y)| x * y).collect();
        let conditions = |w: &[f64]| {
            [
                (w.iter().sum::<f64>(), 1.0),
                (dot(w, c), 0.5),
                (dot(w, &c2), 1.0 / 3.0),
                (dot(w, &ac), 1.0 / 6.0),
                (dot(w, &c3), 0.25),
                (dot(w, &cac), 0.125),
                (dot(w, &ac2), 1.0 / 12.0),
                (dot(w, &aac), 1.0 / 24.0),
            ]
        };
        for (k, (got, want)) in conditions(ESDIRK43.b).into_iter().enumerate() {
            assert!(
                (got - want).abs() < 1e-14,
                "b, condition {k}: {got} vs {want}"
            );
        }
        let e = ESDIRK43.e.unwrap();
        let bh: Vec<f64> = ESDIRK43.b.iter().zip(e).map(|(b, e)| b - e).collect();
        let of_bh = conditions(&bh);
        for (k, (got, want)) in of_bh[..4].iter().enumerate() {
            assert!(
                (got - want).abs() < 1e-14,
                "b̂, condition {k}: {got} vs {want}"
            );
        }
        assert!(of_bh[4..]
            .iter()
            .any(|(got, want)| (got - want).abs() > 1e-4));
    }

    /// L-stability: for y' = λy, z = hλ, every stage is a rational function of z and the step's
    /// R(z) (the last stage) has |R| ≤ 1 on the negative real axis and along the imaginary
    /// axis, and R(z) → 0 as z → −∞.
    #[test]
    fn l_stable() {
        use nalgebra::Complex;
        let a = full_a();
        let stability = |z: Complex<f64>| {
            // Stage values Yᵢ = 1 + z·Σ_{j≤i} a_ij·Yⱼ, solved stage by stage.
            let mut y: Vec<Complex<f64>> = Vec::with_capacity(6);
            for (i, row) in a.iter().enumerate() {
                let explicit: Complex<f64> = y.iter().zip(row).map(|(yj, aij)| yj * aij).sum();
                y.push((1.0 + z * explicit) / (1.0 - z * row[i]));
            }
            y[5]
        };
        assert!(stability(Complex::new(-1e12, 0.0)).norm() < 1e-6);
        for x in [-0.01, -0.1, -1.0, -10.0, -100.0, -1e4, -1e8] {
            let r = stability(Complex::new(x, 0.0)).norm();
            assert!(r <= 1.0, "|R({x})| = {r}");
        }
        for y in [0.01, 0.1, 1.0, 3.0, 10.0, 100.0, 1e4] {
            let r = stability(Complex::new(0.0, y)).norm();
            assert!(r <= 1.0 + 1e-12, "|R({y}i)| = {r}");
        }
    }
}
