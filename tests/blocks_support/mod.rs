//! A minimal engine for closed-loop tests of the signal blocks: blocks in schedule order over one
//! signal buffer (every signal 1×1), fixed-step RK4, zero crossings located by bisection on the
//! step length, then the crossed blocks' handlers and `settle` to a fixed point. No time events.
#![allow(dead_code)]

use blockdyn::block::{Block, Ctx, Shape, Slot};
use blockdyn::library::Registry;
use blockdyn::model::{Document, TableReader};
use blockdyn::solver::Direction;
use std::any::Any;
use std::ops::Range;

pub struct Node {
    block: Box<dyn Block>,
    ins: Vec<Slot>,
    outs: Vec<Slot>,
    x: Range<usize>,
    work: Vec<f64>,
    zc: Vec<Direction>,
    scratch: Box<dyn Any + Send>,
}

pub struct Model {
    /// In schedule order.
    pub nodes: Vec<Node>,
    pub signals: Vec<f64>,
}

pub fn slot(offset: u32) -> Slot {
    Slot { offset, len: 1 }
}

pub fn node(type_name: &str, params: &str, ins: &[u32], outs: &[u32], x0: usize) -> Node {
    let doc = Document::parse("m.toml", params).unwrap();
    let r = TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
    let mut block = (Registry::standard().find(type_name).unwrap().build)(&r.params()).unwrap();
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
    pub fn outputs(&mut self, t: f64, x: &mut [f64]) {
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

    pub fn derivatives(&mut self, t: f64, x: &[f64]) -> Vec<f64> {
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
    pub fn crossings(&mut self, t: f64, x: &[f64]) -> Vec<f64> {
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

    pub fn directions(&self) -> Vec<Direction> {
        self.nodes
            .iter()
            .flat_map(|n| n.zc.iter().copied())
            .collect()
    }

    pub fn rk4(&mut self, t: f64, x: &[f64], h: f64) -> Vec<f64> {
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
    pub fn handle(&mut self, t: f64, x: &mut [f64], crossed: &[bool]) {
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

pub fn fired(d: Direction, before: f64, after: f64) -> bool {
    match d {
        Direction::Rising => before < 0.0 && after >= 0.0,
        Direction::Falling => before > 0.0 && after <= 0.0,
        Direction::Either => (before < 0.0 && after >= 0.0) || (before > 0.0 && after <= 0.0),
    }
}

/// One located event: time, states just before the handlers, states after.
pub struct Event {
    pub t: f64,
    pub before: Vec<f64>,
    pub after: Vec<f64>,
    pub crossed: Vec<bool>,
}

impl Model {
    /// Initializes every block at t = 0 and settles; returns the initial states.
    pub fn start(&mut self, num_states: usize) -> Vec<f64> {
        let mut x = vec![0.0; num_states];
        for n in &mut self.nodes {
            let mut ctx = Ctx::new(
                0.0,
                &mut self.signals,
                &n.ins,
                &n.outs,
                &mut x[n.x.clone()],
                &mut n.work,
                n.scratch.as_mut(),
            );
            n.block.initialize(&mut ctx);
        }
        self.handle(0.0, &mut x, &vec![false; self.directions().len()]);
        x
    }

    /// Integrates from (0, x) to `t_end` with steps of `h`, locating zero crossings to ~1e-15 s;
    /// calls `each(t, x)` after every step and event. Returns the events.
    pub fn run(
        &mut self,
        x: &mut Vec<f64>,
        h: f64,
        t_end: f64,
        mut each: impl FnMut(f64, &[f64]),
    ) -> Vec<Event> {
        let dirs = self.directions();
        let mut t = 0.0;
        let mut events = Vec::new();
        while t < t_end {
            let g0 = self.crossings(t, x);
            let x1 = self.rk4(t, x, h);
            let g1 = self.crossings(t + h, &x1);
            let crossed: Vec<bool> = (0..dirs.len())
                .map(|k| fired(dirs[k], g0[k], g1[k]))
                .collect();
            if !crossed.iter().any(|&c| c) {
                *x = x1;
                t += h;
                each(t, x);
                continue;
            }
            // The first instant at which some function has crossed, by bisection on the step.
            let (mut lo, mut hi) = (0.0, h);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                let xm = self.rk4(t, x, mid);
                let g = self.crossings(t + mid, &xm);
                if (0..dirs.len()).any(|k| fired(dirs[k], g0[k], g[k])) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            *x = self.rk4(t, x, hi);
            t += hi;
            let g = self.crossings(t, x);
            let crossed: Vec<bool> = (0..dirs.len())
                .map(|k| fired(dirs[k], g0[k], g[k]))
                .collect();
            let before = x.clone();
            self.handle(t, x, &crossed);
            events.push(Event {
                t,
                before,
                after: x.clone(),
                crossed,
            });
            each(t, x);
        }
        events
    }
}
