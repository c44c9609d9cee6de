//! The classic bouncing ball built from library blocks and driven through the `Block` calling
//! conventions by a minimal fixed-step engine (RK4 + bisection on the zero crossing):
//!
//! gravity (Constant −g) → vel (Integrator, reset "falling" on the height, x0 = −e·v⁻ from a Gain)
//! → pos (Integrator, initial h0) → vel.reset.
//!
//! Between impacts the motion is a parabola, which RK4 integrates exactly (up to rounding), so the
//! closed forms apply: first impact at t1 = √(2·h0/g) with speed v1 = √(2·g·h0); the rebound speed
//! is e·v1 and the next apex is e²·h0, reached Δt = e·v1/g after the impact.

use blockdyn::block::{Block, Ctx, Shape, Slot};
use blockdyn::blocks::find;
use blockdyn::model::{Document, TableReader};
use blockdyn::solver::Direction;
use std::any::Any;
use std::ops::Range;

const G: f64 = 9.81;
const H0: f64 = 1.0;
const E: f64 = 0.8;

struct Node {
    block: Box<dyn Block>,
    ins: Vec<Slot>,
    outs: Vec<Slot>,
    x: Range<usize>,
    work: Vec<f64>,
    zc: Vec<Direction>,
    scratch: Box<dyn Any + Send>,
}

struct Model {
    /// In schedule order.
    nodes: Vec<Node>,
    signals: Vec<f64>,
}

fn slot(offset: u32) -> Slot {
    Slot { offset, len: 1 }
}

fn node(type_name: &str, params: &str, ins: &[u32], outs: &[u32], x0: usize) -> Node {
    let doc = Document::parse("m.toml", params).unwrap();
    let r = TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
    let mut block = (find(type_name).unwrap().build)(&r).unwrap();
    let setup = block
        .setup(
            &vec![Shape::SCALAR; ins.len()],
            &vec![Shape::SCALAR; outs.len()],
        )
        .unwrap();
    Node {
        ins: ins.iter().map(|&o| slot(o)).collect(),
        outs: outs.iter().map(|&o| slot(o)).collect(),
        x: x0..x0 + setup.num_states,
        work: vec![0.0; setup.num_work],
        zc: setup.zero_crossings,
        scratch: block.create_scratch(),
        block,
    }
}

impl Model {
    fn outputs(&mut self, t: f64, x: &mut [f64]) {
        for n in &mut self.nodes {
            let mut ctx = Ctx::new(
                t,
                &mut self.signals,
                &n.ins,
                &n.outs,
                &mut x[n.x.clone()],
                &mut n.work,
                n.scratch.as_mut(),
            );
            n.block.outputs_eval(&mut ctx);
        }
    }

    fn derivatives(&mut self, t: f64, x: &[f64]) -> Vec<f64> {
        let mut x = x.to_vec();
        self.outputs(t, &mut x);
        let mut dx = vec![0.0; x.len()];
        for n in &mut self.nodes {
            let mut ctx = Ctx::new(
                t,
                &mut self.signals,
                &n.ins,
                &n.outs,
                &mut x[n.x.clone()],
                &mut n.work,
                n.scratch.as_mut(),
            );
            n.block.derivatives(&mut ctx, &mut dx[n.x.clone()]);
        }
        dx
    }

    /// Zero-crossing values of every node, concatenated.
    fn crossings(&mut self, t: f64, x: &[f64]) -> Vec<f64> {
        let mut x = x.to_vec();
        self.outputs(t, &mut x);
        let mut all = Vec::new();
        for n in &mut self.nodes {
            let mut g = vec![0.0; n.zc.len()];
            let mut ctx = Ctx::new(
                t,
                &mut self.signals,
                &n.ins,
                &n.outs,
                &mut x[n.x.clone()],
                &mut n.work,
                n.scratch.as_mut(),
            );
            n.block.zero_crossings(&mut ctx, &mut g);
            all.extend(g);
        }
        all
    }

    fn directions(&self) -> Vec<Direction> {
        self.nodes
            .iter()
            .flat_map(|n| n.zc.iter().copied())
            .collect()
    }

    fn rk4(&mut self, t: f64, x: &[f64], h: f64) -> Vec<f64> {
        let add = |x: &[f64], k: &[f64], s: f64| {
            x.iter().zip(k).map(|(a, b)| a + s * b).collect::<Vec<_>>()
        };
        let k1 = self.derivatives(t, x);
        let k2 = self.derivatives(t + h / 2.0, &add(x, &k1, h / 2.0));
        let k3 = self.derivatives(t + h / 2.0, &add(x, &k2, h / 2.0));
        let k4 = self.derivatives(t + h, &add(x, &k3, h));
        (0..x.len())
            .map(|i| x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
            .collect()
    }

    /// Runs the handlers of the crossed functions at `t`, then settles.
    fn handle(&mut self, t: f64, x: &mut [f64], crossed: &[bool]) {
        self.outputs(t, x);
        let mut k = 0;
        for n in &mut self.nodes {
            let c = &crossed[k..k + n.zc.len()];
            k += n.zc.len();
            if c.iter().any(|&b| b) {
                let mut ctx = Ctx::new(
                    t,
                    &mut self.signals,
                    &n.ins,
                    &n.outs,
                    &mut x[n.x.clone()],
                    &mut n.work,
                    n.scratch.as_mut(),
                );
                n.block.handle_event(&mut ctx, c, false);
            }
        }
        for _ in 0..10 {
            self.outputs(t, x);
            let mut changed = false;
            for n in &mut self.nodes {
                let mut ctx = Ctx::new(
                    t,
                    &mut self.signals,
                    &n.ins,
                    &n.outs,
                    &mut x[n.x.clone()],
                    &mut n.work,
                    n.scratch.as_mut(),
                );
                changed |= n.block.settle(&mut ctx);
            }
            if !changed {
                return;
            }
        }
        panic!("settle did not converge");
    }
}

fn fired(d: Direction, before: f64, after: f64) -> bool {
    match d {
        Direction::Rising => before < 0.0 && after >= 0.0,
        Direction::Falling => before > 0.0 && after <= 0.0,
        Direction::Either => (before < 0.0 && after >= 0.0) || (before > 0.0 && after <= 0.0),
    }
}

#[test]
fn bouncing_ball_rebounds_with_the_restitution_coefficient() {
    // Signals: 0 gravity.out, 1 vel.out, 2 pos.out, 3 gain.out. States: x[0] = v, x[1] = height.
    let mut m = Model {
        nodes: vec![
            node("Constant", &format!("value = {}", -G), &[], &[0], 0),
            node(
                "Integrator",
                "initial = 0.0\nreset = \"falling\"\ninitial_source = \"external\"",
                &[0, 2, 3],
                &[1],
                0,
            ),
            node("Integrator", &format!("initial = {H0}"), &[1], &[2], 1),
            node("Gain", &format!("gain = {}", -E), &[1], &[3], 2),
        ],
        signals: vec![0.0; 4],
    };
    let mut x = vec![0.0; 2];
    for n in &mut m.nodes {
        let mut ctx = Ctx::new(
            0.0,
            &mut m.signals,
            &n.ins,
            &n.outs,
            &mut x[n.x.clone()],
            &mut n.work,
            n.scratch.as_mut(),
        );
        n.block.initialize(&mut ctx);
    }
    assert_eq!(x, vec![0.0, H0]);
    let dirs = m.directions();
    assert_eq!(dirs, vec![Direction::Falling]);

    let h = 1e-3;
    let mut t = 0.0;
    let mut impacts = Vec::new();
    let mut apex_after_first = f64::NEG_INFINITY;
    while t < 1.5 {
        let g0 = m.crossings(t, &x);
        let x1 = m.rk4(t, &x, h);
        let g1 = m.crossings(t + h, &x1);
        let crossed: Vec<bool> = (0..dirs.len())
            .map(|k| fired(dirs[k], g0[k], g1[k]))
            .collect();
        if crossed.iter().any(|&c| c) {
            // Bisect on the step length for the first instant with g ≤ 0.
            let (mut lo, mut hi) = (0.0, h);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                let xm = m.rk4(t, &x, mid);
                let g = m.crossings(t + mid, &xm);
                if crossed
                    .iter()
                    .zip(&dirs)
                    .zip(&g0)
                    .zip(&g)
                    .any(|(((&c, &d), &a), &b)| c && fired(d, a, b))
                {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            x = m.rk4(t, &x, hi);
            t += hi;
            let v_before = x[0];
            m.handle(t, &mut x, &crossed);
            // x0 = −e·v⁻, read at the event before the reset: bit-exact.
            assert_eq!(x[0], -E * v_before);
            impacts.push((t, v_before));
        } else {
            x = x1;
            t += h;
        }
        if impacts.len() == 1 {
            apex_after_first = apex_after_first.max(x[1]);
        }
    }
    let (t1, v1) = impacts[0];
    let t1_exact = (2.0 * H0 / G).sqrt();
    let v1_exact = -(2.0 * G * H0).sqrt();
    // Bisection to 60 halvings of 1 ms leaves ~1e-15 s; RK4 is exact on the parabola.
    assert!(
        (t1 - t1_exact).abs() < 1e-12,
        "t1 = {t1}, expected {t1_exact}"
    );
    assert!(
        (v1 - v1_exact).abs() < 1e-9,
        "v1 = {v1}, expected {v1_exact}"
    );
    // The sampled apex (1 ms grid) is within ½·g·(0.5 ms)² ≈ 1.3e-6 m of e²·h0.
    assert!(
        (apex_after_first - E * E * H0).abs() < 2e-6,
        "apex {apex_after_first}"
    );
    // Second impact: after a flight of 2·e·|v1|/g.
    let t2_exact = t1_exact + 2.0 * E * (2.0 * G * H0).sqrt() / G;
    assert!(
        (impacts[1].0 - t2_exact).abs() < 1e-9,
        "t2 = {}, expected {t2_exact}",
        impacts[1].0
    );
}
