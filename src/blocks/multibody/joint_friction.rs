//! Joint friction of the joint blocks: `friction = { method = ..., ... }` on a joint's axes.
//!
//! - `method = "coulomb"` (default): `limit` τ_c (N·m for a rotational axis, N for a translational
//!   one), regularised over `stiction_velocity` v_s (rad/s or m/s, default 1e-4): |τ_f| rises as
//!   τ_c·step5(|q̇|/v_s) and is exactly τ_c for |q̇| ≥ v_s.
//! - `method = "stribeck"`: `static_limit` τ_s, `dynamic_limit` τ_d (≤ τ_s) and
//!   `stiction_velocity` v_s: Drake's Stribeck curve of [`crate::contact::friction`] with τ_s, τ_d
//!   in place of μ_s·f_n, μ_d·f_n.
//! - `method = "smooth_stick_slip"`: `static_limit`, `dynamic_limit` and `critical_velocity` v_c
//!   (default 1e-3): Simscape's smooth stick-slip curve likewise.
//!
//! - `shape = "disk"` (spherical and six-dof joints; default `"box"`): the rotation's friction is
//!   one torque −τ(|ω|)·ω/|ω| opposing the relative angular velocity ω instead of each axis's own
//!   law ([`crate::multibody::joint_friction`]); its three axes must have one law.
//!
//! Every number may be one value (all axes) or one per axis (a multi-axis joint's velocity
//! coordinates, in the order of its `w` output). The friction enters the mechanism as a passive
//! force of the axis ([`crate::multibody::joint_friction`]); the block outputs it as
//! `friction_force` (one element per axis, positive towards increasing q) and declares two zero
//! crossings per axis, q̇_k − v_k and q̇_k + v_k, so that entering the stick band and leaving it
//! (on either side) are located events; each is crossed once at a reversal, where |q̇_k| − v_k
//! would cross twice within one step and could be missed.

use crate::block::{Param, PortDecl, Shape};
use crate::contact::friction::FrictionLaw;
use crate::multibody::joint_friction::{
    axis_friction, check_disk, coulomb, disk_friction, stick_velocity,
};
use crate::multibody::JointKind;
use crate::param;
use crate::params::{ParamError, Params};
use nalgebra::Vector3;

/// A joint's friction laws by name (`friction.method`): each name is written once, here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JointFrictionMethod {
    /// `"coulomb"` (the default): one limit τ_c, regularised below the stiction velocity.
    #[default]
    Coulomb,
    /// `"stribeck"`: a static and a dynamic limit, Drake's Stribeck curve.
    Stribeck,
    /// `"smooth_stick_slip"`: a static and a dynamic limit, Simscape's smooth stick-slip curve.
    SmoothStickSlip,
}

impl JointFrictionMethod {
    /// Every method, in the order the documentation lists them.
    pub const ALL: [JointFrictionMethod; 3] = [
        JointFrictionMethod::Coulomb,
        JointFrictionMethod::Stribeck,
        JointFrictionMethod::SmoothStickSlip,
    ];

    /// The method's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            JointFrictionMethod::Coulomb => "coulomb",
            JointFrictionMethod::Stribeck => "stribeck",
            JointFrictionMethod::SmoothStickSlip => "smooth_stick_slip",
        }
    }

    /// What a table of this method writes, for the message refusing another method's key.
    fn takes(self, force_unit: &str) -> String {
        match self {
            JointFrictionMethod::Coulomb => {
                format!("with method = \"coulomb\" write limit = <{force_unit}> and stiction_velocity")
            }
            JointFrictionMethod::Stribeck => "with method = \"stribeck\" write static_limit, dynamic_limit and stiction_velocity".to_string(),
            JointFrictionMethod::SmoothStickSlip => "with method = \"smooth_stick_slip\" write static_limit, dynamic_limit and critical_velocity".to_string(),
        }
    }
}

/// `friction.method`.
pub const FRICTION_METHOD: Param<&str> = param!(
    "method",
    "",
    "coulomb",
    "\"coulomb\", \"stribeck\" or \"smooth_stick_slip\""
);
/// `friction.stiction_velocity` (Coulomb and Stribeck).
pub const STICTION_VELOCITY: Param<f64> = param!(
    "stiction_velocity",
    "rad/s or m/s",
    1e-4,
    "v_s: the friction reaches its static limit at |q̇| = v_s"
);
/// `friction.critical_velocity` (smooth stick-slip).
pub const CRITICAL_VELOCITY: Param<f64> = param!(
    "critical_velocity",
    "rad/s or m/s",
    1e-3,
    "v_c: the friction reaches its static limit at |q̇| = v_c"
);

/// The documentation of the joints' `friction` parameter (it quotes the defaults above; a test
/// checks it).
pub const FRICTION_DOC: &str = "{ method = \"coulomb\" (default), limit (N·m or N), stiction_velocity (rad/s or m/s, 1e-4) } | { method = \"stribeck\", static_limit, dynamic_limit (N·m or N, dynamic ≤ static), stiction_velocity (1e-4) } | { method = \"smooth_stick_slip\", static_limit, dynamic_limit, critical_velocity (rad/s or m/s, 1e-3) }: the contact friction laws with the largest friction torque or force in place of μ·f_n, a passive force of each axis; each number one value or one per axis; regularised: below the velocity scale v the friction rises smoothly from 0 at rest, so a stuck axis carrying a load τ below the limit creeps at the |q̇| < v where the law gives τ (a fraction of v); entering and leaving that band are located events; on a spherical, planar or six-dof joint the limit applies by default to each axis's component separately (shape = \"box\" (default): an off-axis slip meets up to √2 or √3 × the limit); shape = \"disk\" (spherical and six-dof joints: one law for the three rotation axes) makes the rotation's friction one torque opposing the relative angular velocity ω with magnitude τ(|ω|), and its stick band |ω| < v";

/// Keys that belong to some methods only, with the methods that take them.
const METHOD_KEYS: [(&str, &[JointFrictionMethod]); 5] = {
    use JointFrictionMethod::{Coulomb, SmoothStickSlip, Stribeck};
    [
        ("limit", &[Coulomb]),
        ("static_limit", &[Stribeck, SmoothStickSlip]),
        ("dynamic_limit", &[Stribeck, SmoothStickSlip]),
        ("stiction_velocity", &[Coulomb, Stribeck]),
        ("critical_velocity", &[SmoothStickSlip]),
    ]
};

/// A joint's friction: one law per velocity coordinate, each law's stick-band velocity, and for
/// a disk the offset of the rotational triple.
#[derive(Clone, Debug, PartialEq)]
pub struct JointFriction {
    laws: Vec<FrictionLaw>,
    bands: Vec<f64>,
    disk: Option<usize>,
}

/// `friction.shape`.
pub const FRICTION_SHAPE: Param<&str> = param!(
    "shape",
    "",
    "box",
    "\"box\" (each axis its own law) or \"disk\" (spherical and six-dof joints: one torque opposing the relative angular velocity ω, of magnitude at most the limit)"; one_of["box", "disk"],
);

/// Units of a joint's axes (force or torque, and velocity) by velocity coordinate.
fn axis_units(kind: JointKind) -> (&'static [&'static str], &'static str, &'static str) {
    const NM: &str = "N·m";
    match kind {
        JointKind::Revolute => (&[NM], "N·m", "rad/s"),
        JointKind::Prismatic => (&["N"], "N", "m/s"),
        JointKind::Cylindrical => (&[NM, "N"], "N·m, N", "rad/s, m/s"),
        JointKind::Universal => (&[NM, NM], "N·m", "rad/s"),
        JointKind::Planar => (&["N", "N", NM], "N, N, N·m", "m/s, m/s, rad/s"),
        JointKind::Spherical => (&[NM, NM, NM], "N·m", "rad/s"),
        JointKind::SixDof => (
            &["N", "N", "N", NM, NM, NM],
            "N (translation), N·m (rotation)",
            "m/s, rad/s",
        ),
        JointKind::Weld => (&[], "", ""),
    }
}

impl JointFriction {
    /// Reads the optional `friction = { ... }` table of a joint of `kind`.
    pub fn read(p: &Params, kind: JointKind) -> Result<Option<Self>, ParamError> {
        let Some(t) = p.table("friction")? else {
            return Ok(None);
        };
        let nv = kind.nv();
        let (_, force_unit, rate_unit) = axis_units(kind);
        let method = t.choice_value(
            FRICTION_METHOD.name(),
            &JointFrictionMethod::ALL.map(|m| (m.name(), m)),
            JointFrictionMethod::default(),
        )?;
        refuse_other_methods_keys(&t, method, force_unit)?;
        let laws: Vec<FrictionLaw> = match method {
            JointFrictionMethod::Coulomb => {
                let limit = axis_values(&t, "limit", nv, None, force_unit)?;
                let v_s = velocities(&t, &STICTION_VELOCITY, nv, rate_unit)?;
                (0..nv).map(|k| coulomb(limit[k], v_s[k])).collect()
            }
            JointFrictionMethod::Stribeck => {
                let (s, d) = static_and_dynamic_limits(&t, nv, force_unit)?;
                let v_s = velocities(&t, &STICTION_VELOCITY, nv, rate_unit)?;
                (0..nv)
                    .map(|k| FrictionLaw::Stribeck {
                        static_coefficient: s[k],
                        dynamic_coefficient: d[k],
                        stiction_velocity: v_s[k],
                    })
                    .collect()
            }
            JointFrictionMethod::SmoothStickSlip => {
                let (s, d) = static_and_dynamic_limits(&t, nv, force_unit)?;
                let v_c = velocities(&t, &CRITICAL_VELOCITY, nv, rate_unit)?;
                (0..nv)
                    .map(|k| FrictionLaw::SmoothStickSlip {
                        static_coefficient: s[k],
                        dynamic_coefficient: d[k],
                        critical_velocity: v_c[k],
                    })
                    .collect()
            }
        };
        let disk = read_shape(&t, kind, &laws)?;
        t.finish()?;
        Ok(JointFriction::from_laws(&laws, disk.then_some(kind)))
    }

    /// The friction of a joint whose spec has `laws` (`None` when empty), a disk on the
    /// rotational triple of `disk`'s joint kind when given.
    pub fn from_laws(laws: &[FrictionLaw], disk: Option<JointKind>) -> Option<Self> {
        (!laws.is_empty()).then(|| JointFriction {
            laws: laws.to_vec(),
            bands: laws
                .iter()
                .map(|l| stick_velocity(l).unwrap_or(0.0))
                .collect(),
            disk: disk
                .filter(|k| k.quaternion_offset().is_some())
                .map(|k| k.nv() - 3),
        })
    }

    /// Whether the rotational triple's friction is a disk.
    pub fn is_disk(&self) -> bool {
        self.disk.is_some()
    }

    /// The laws, one per velocity coordinate.
    pub fn laws(&self) -> &[FrictionLaw] {
        &self.laws
    }

    /// The `friction_force` output of a joint of `kind`.
    pub fn port(kind: JointKind) -> PortDecl {
        let (units, unit, _) = axis_units(kind);
        let port = PortDecl::signal("friction_force", Shape::vector(kind.nv()));
        match units {
            [one] => port.unit(one),
            many if many.iter().all(|u| *u == many[0]) => port.unit(many[0]),
            many => port.element_units(many).unit(unit_or_mixed(unit)),
        }
    }

    /// Number of zero-crossing functions: two per axis (q̇ − v and q̇ + v).
    pub fn crossing_count(&self) -> usize {
        2 * self.laws.len()
    }

    /// The friction force or torque of each axis (N or N·m, positive towards increasing q) at the
    /// velocities `rates` (rad/s or m/s) into `out`. Does not allocate.
    pub fn forces(&self, rates: &[f64], out: &mut [f64]) {
        for ((law, rate), out) in self.laws.iter().zip(rates).zip(out.iter_mut()) {
            *out = axis_friction(law, *rate);
        }
        if let Some(r) = self.disk {
            let w = Vector3::new(rates[r], rates[r + 1], rates[r + 2]);
            out[r..r + 3].copy_from_slice(disk_friction(&self.laws[r], &w).as_slice());
        }
    }

    /// The zero-crossing functions `q̇_k − v_k` and `q̇_k + v_k` (rad/s or m/s) per axis k: the
    /// stick band `|q̇_k| < v_k` lies between their zeros. Two functions, each crossed once when
    /// the axis reverses, rather than `|q̇_k| − v_k`, which a reversal crosses twice and which can
    /// therefore be positive at both ends of a step that holds the whole reversal (the
    /// transition then goes unlocated). An axis without a band (no friction law) has no stick
    /// and slip to locate: its functions are constants (−1, 1), which never cross, rather than
    /// q̇ itself, which would change sign with round-off at rest. Does not allocate.
    ///
    /// A disk's stick band is `|ω| < v` (as a contact's disk law, on the slip speed): its
    /// triple's first pair is `(|ω| − v, 1)`, the other two pairs constants. `|ω|` reaches 0
    /// only where ω passes exactly through zero, so a slowing spin crosses `|ω| = v` once.
    pub fn crossings(&self, rates: &[f64], g: &mut [f64]) {
        for ((band, rate), g) in self.bands.iter().zip(rates).zip(g.chunks_exact_mut(2)) {
            if *band > 0.0 {
                g[0] = rate - band;
                g[1] = rate + band;
            } else {
                g[0] = -1.0;
                g[1] = 1.0;
            }
        }
        if let Some(r) = self.disk {
            let w = Vector3::new(rates[r], rates[r + 1], rates[r + 2]);
            g[2 * r..2 * r + 6].copy_from_slice(&[-1.0, 1.0, -1.0, 1.0, -1.0, 1.0]);
            if self.bands[r] > 0.0 {
                g[2 * r] = w.norm() - self.bands[r];
                g[2 * r + 1] = 1.0;
            }
        }
    }
}

/// A port's single unit for mixed axes: the joint's own description is too long for a unit, so
/// mixed ports carry their per-element units only.
fn unit_or_mixed(_description: &str) -> &'static str {
    ""
}

/// Reads `friction.shape`: whether the rotational triple's friction is a disk. A disk needs a
/// spherical or six-dof joint and one law for its three rotation axes.
fn read_shape(t: &Params, kind: JointKind, laws: &[FrictionLaw]) -> Result<bool, ParamError> {
    if FRICTION_SHAPE.read(t)? != "disk" {
        return Ok(false);
    }
    t.ensure(
        kind.quaternion_offset().is_some(),
        "shape",
        &format!(
            "= \"disk\" needs a rotation with three axes; a {} joint has none",
            kind.name()
        ),
        "remove shape (each axis has its own law), or use a SphericalJoint or SixDofJoint",
    )?;
    t.ensure(
        check_disk(laws, kind).is_ok(),
        "shape",
        "= \"disk\" is one law for the whole rotation, but the three rotation axes were given different limits or velocities",
        "give the rotation axes one value each (or a single value for all axes), or remove shape = \"disk\"",
    )?;
    Ok(true)
}

/// The static and dynamic limits (one value or one per axis, dynamic ≤ static) of the Stribeck
/// and smooth stick-slip methods.
fn static_and_dynamic_limits(
    t: &Params,
    nv: usize,
    force_unit: &str,
) -> Result<(Vec<f64>, Vec<f64>), ParamError> {
    let s = axis_values(t, "static_limit", nv, None, force_unit)?;
    let d = axis_values(t, "dynamic_limit", nv, None, force_unit)?;
    for k in 0..nv {
        t.ensure(
            d[k] <= s[k],
            "dynamic_limit",
            &format!("= {} exceeds static_limit = {}: the static limit is the largest friction", d[k], s[k]),
            "write dynamic_limit ≤ static_limit (swap them if they are the wrong way round), or method = \"coulomb\" for one limit",
        )?;
    }
    Ok((s, d))
}

/// Refuses a key that only other methods take, saying what this method takes instead.
fn refuse_other_methods_keys(
    t: &Params,
    method: JointFrictionMethod,
    force_unit: &str,
) -> Result<(), ParamError> {
    for (key, owners) in METHOD_KEYS {
        if owners.contains(&method) || !t.has(key) {
            continue;
        }
        let instead = method.takes(force_unit);
        let owners = owners
            .iter()
            .map(|m| format!("\"{}\"", m.name()))
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(t
            .error(
                key,
                format!(
                    "'{}' belongs to friction method {owners}, not \"{}\"",
                    t.name(key),
                    method.name()
                ),
            )
            .hint(format!("{instead}; or write method = {owners}")));
    }
    for key in ["static", "dynamic", "coefficient"] {
        if t.has(key) {
            return Err(t
                .error(key, format!("'{}' is a contact friction coefficient; a joint's friction is given by its largest torque or force", t.name(key)))
                .hint(format!("write limit = <{force_unit}> (method \"coulomb\"), or static_limit and dynamic_limit (\"stribeck\", \"smooth_stick_slip\")")));
        }
    }
    Ok(())
}

/// A required non-negative limit: one value for all `nv` axes or one per axis.
fn axis_values(
    t: &Params,
    key: &'static str,
    nv: usize,
    default: Option<f64>,
    unit: &str,
) -> Result<Vec<f64>, ParamError> {
    let values = match (t.vector(key)?, default) {
        (Some(v), _) => v,
        (None, Some(d)) => vec![d],
        (None, None) => {
            return Err(t
                .table_error(format!("missing parameter '{}'", t.name(key)))
                .hint(format!(
                    "add {} = <{unit}>: the largest friction torque or force",
                    t.name(key)
                )))
        }
    };
    let values = match values.len() {
        1 => vec![values[0]; nv],
        n if n == nv => values,
        n => {
            return Err(t
                .error(
                    key,
                    format!(
                        "'{}' has {n} values but the joint has {nv} degrees of freedom",
                        t.name(key)
                    ),
                )
                .hint(format!(
                    "write one number (all axes), or {nv} (one per axis)"
                )))
        }
    };
    t.ensure(
        values.iter().all(|x| *x >= 0.0),
        key,
        "must not be negative",
        &format!("write 0 or more ({unit}): a friction limit is the magnitude of the largest friction; it always opposes the motion"),
    )?;
    Ok(values)
}

/// A positive velocity scale with a default: one value or one per axis.
fn velocities(
    t: &Params,
    param: &Param<f64>,
    nv: usize,
    unit: &str,
) -> Result<Vec<f64>, ParamError> {
    let key = param.name();
    let values = axis_values(t, key, nv, Some(param.default), unit)?;
    t.ensure(
        values.iter().all(|x| *x > 0.0),
        key,
        "must be positive",
        &format!("write a small positive speed ({unit}), e.g. {key} = {}: smaller models stiction more sharply but needs smaller steps", param.default),
    )?;
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::param::quotes_default;

    #[test]
    fn the_doc_quotes_the_declared_defaults() {
        assert!(FRICTION_DOC.contains("method = \"coulomb\" (default)"));
        for p in [STICTION_VELOCITY, CRITICAL_VELOCITY] {
            assert!(quotes_default(FRICTION_DOC, &p.doc), "{}", p.name());
        }
        assert!(FRICTION_DOC.contains(&format!(
            "method = \"{}\" (default)",
            JointFrictionMethod::default().name()
        )));
        assert_eq!(
            FRICTION_METHOD.default,
            JointFrictionMethod::default().name()
        );
        for m in JointFrictionMethod::ALL {
            assert!(
                FRICTION_DOC.contains(&format!("method = \"{}\"", m.name())),
                "{m:?}"
            );
        }
    }

    #[test]
    fn forces_and_crossings_per_axis() {
        let f = JointFriction {
            laws: vec![coulomb(2.0, 1e-3), FrictionLaw::None],
            bands: vec![1e-3, 0.0],
            disk: None,
        };
        let mut out = [9.0; 2];
        f.forces(&[-0.5, 4.0], &mut out);
        assert_eq!(out, [2.0, 0.0]);
        let mut g = [9.0; 4];
        f.crossings(&[-0.5e-3, 0.0], &mut g);
        // Inside the band of axis 0: q̇ − v < 0 < q̇ + v.
        assert!((g[0] + 1.5e-3).abs() < 1e-18 && (g[1] - 0.5e-3).abs() < 1e-18);
        // No law on axis 1: constants of opposite sign, which never cross.
        assert_eq!([g[2], g[3]], [-1.0, 1.0]);
    }
}
