//! The text of `blockdyn check`'s advice for a penalty contact, from the numbers the laws give
//! ([`ContactAdvice`] for the normal law, [`FrictionAdvice`] for the friction; the math is in
//! their modules): one line per contact, with the closed form and the numbers behind each figure.

use super::contact_advice::ContactAdvice;
use super::friction_advice::FrictionAdvice;
use crate::contact::friction::FrictionLaw;
use crate::contact::normal_force::NormalForceLaw;

/// Advice for `blockdyn check` about a penalty contact carrying `supported_weight` (N) of a body
/// of `supported_mass` (kg): the static depth, the linearized natural frequency (rad/s and Hz) and
/// damping ratio, the step dopri5 needs while in contact and, when that is prohibitive, a
/// stiff-solver warning (see the module documentation for the math). `None` for the `input` law,
/// whose magnitude is an input signal. One line; never panics, never prints NaN.
pub fn spatial_contact_advice(
    normal: &NormalForceLaw,
    friction: &FrictionLaw,
    supported_weight: f64,
    supported_mass: f64,
) -> Option<String> {
    let normal = ContactAdvice::compute(normal, supported_weight, supported_mass);
    let friction = FrictionAdvice::compute(friction, supported_weight, supported_mass);
    match (normal, friction) {
        (None, None) => None,
        (Some(n), None) => Some(n.to_string()),
        (None, Some(f)) => Some(f.to_string()),
        (Some(n), Some(f)) => Some(format!("{n}; {f}")),
    }
}

impl ContactAdvice {
    /// The unit of the law's stiffness.
    fn stiffness_unit(&self) -> String {
        match self.exponent {
            Some(n) if n != 1.0 => format!("N/m^{n}"),
            _ => "N/m".to_string(),
        }
    }

    /// The unit of the law's damping: N·s/m, or N·s^q/m^(q+p) for Hunt–Crossley.
    fn damping_unit(&self) -> String {
        match (self.exponent, self.damping_depth_exponent) {
            (Some(_), Some(p)) => {
                let q = self.nonlinear_velocity_exponent.unwrap_or(1.0);
                if q == 1.0 {
                    format!("N·s/m^{}", 1.0 + p)
                } else {
                    format!("N·s^{q}/m^{}", q + p)
                }
            }
            _ => "N·s/m".to_string(),
        }
    }

    /// The closed form that gave the static depth, for the text; `None` on the smooth law's
    /// ramp, where d is the root of smoothstep(d/w)·k·d = W.
    fn depth_formula(&self) -> Option<&'static str> {
        match (self.exponent, self.transition_width, self.static_depth) {
            (Some(_), _, _) => Some("(W/k)^(1/n)"),
            (None, Some(w), Some(d)) if d < w => None,
            (None, Some(_), _) => Some("W/k (≥ w)"),
            _ => Some("W/k"),
        }
    }
}

impl std::fmt::Display for ContactAdvice {
    /// One line: the law and load, the static depth, ω, ζ, the dopri5 step and, when stiff, the
    /// stiff-solver warning.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write_law_and_load(f)?;
        let Some(depth) = self.static_depth else {
            return write!(
                f,
                ": with zero stiffness it cannot carry that weight (the bodies sink through each \
                 other); give a positive stiffness"
            );
        };
        self.write_static_depth(f, depth)?;
        let Some(omega) = self.natural_frequency else {
            return write!(
                f,
                "; without supported mass there is no natural frequency or step to estimate"
            );
        };
        self.write_linearization(f, omega)?;
        self.write_explicit_step(f)
    }
}

impl ContactAdvice {
    /// The text's start: the law with its parameters (and units) and the load it carries.
    fn write_law_and_load(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} contact, k = {} {}, b = {} {}",
            self.law,
            self.stiffness,
            self.stiffness_unit(),
            self.damping,
            self.damping_unit()
        )?;
        if let Some(w) = self.transition_width {
            write!(f, ", w = {w} m")?;
        }
        if let Some(n) = self.exponent {
            write!(f, ", n = {n}")?;
        }
        write!(
            f,
            ", if it carries {} N ({} kg)",
            sig(self.supported_weight),
            sig(self.supported_mass)
        )
    }

    /// The static depth `depth` (m) and its closed form, what the contact manifold makes of it,
    /// and a note when Hunt–Crossley's damping has no linear part at rest.
    fn write_static_depth(&self, f: &mut std::fmt::Formatter<'_>, depth: f64) -> std::fmt::Result {
        if self.supported_weight > 0.0 {
            match self.depth_formula() {
                Some(formula) => write!(f, " ⇒ static depth d = {formula} = {depth:.3e} m")?,
                None => write!(
                    f,
                    " ⇒ static depth d = {depth:.3e} m (the root of smoothstep(d/w)·k·d = W)"
                )?,
            }
        } else {
            write!(f, " ⇒ no load, static depth 0 m")?;
        }
        write!(
            f,
            "; with the contact manifold (the default, contact_points = \"manifold\") a face \
             lying flat, a cylinder on its side and a disk on its rim sink this depth (the law \
             holds for the pair as a whole), a box tilted onto an edge presses with half the \
             face's stiffness and onto a corner with a quarter"
        )?;
        match self.nonlinear_velocity_exponent {
            Some(q) if q > 1.0 => write!(
                f,
                "; the damping ∝ |ḋ|^{q} has no linear part at rest and is left out"
            ),
            Some(q) => write!(
                f,
                "; the damping ∝ |ḋ|^{q} has an unbounded slope at rest (expect small steps \
                 near rest) and is left out"
            ),
            None => Ok(()),
        }
    }

    /// The linearized stiffness and damping, the natural frequency `omega` (rad/s and Hz) and
    /// the damping ratio (with both rates when overdamped).
    fn write_linearization(&self, f: &mut std::fmt::Formatter<'_>, omega: f64) -> std::fmt::Result {
        if self.linear_stiffness > 0.0 {
            write!(
                f,
                "; linearized k_eff = {:.3e} N/m, b_eff = {:.3e} N·s/m ⇒ ω = sqrt(k_eff/m) = {} \
                 rad/s ({} Hz)",
                self.linear_stiffness,
                self.linear_damping,
                sig(omega),
                sig(omega / std::f64::consts::TAU)
            )?;
        } else {
            write!(f, "; the linearized contact has no stiffness at this depth")?;
            if self.linear_damping > 0.0 {
                write!(f, ", only b_eff = {:.3e} N·s/m", self.linear_damping)?;
            }
        }
        if let Some(zeta) = self.damping_ratio {
            write!(f, ", ζ = b_eff/(2·sqrt(k_eff·m)) = {}", sig(zeta))?;
            if zeta > 1.0 {
                write!(
                    f,
                    " (overdamped: |λ| = {} and {} 1/s)",
                    sig(self.fastest_rate),
                    sig(self.slowest_rate)
                )?;
            }
        }
        Ok(())
    }

    /// The step dopri5 needs while in contact (or that the resting contact sets none) and, when
    /// stiff, the stiff-solver warning.
    fn write_explicit_step(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.explicit_step.is_finite() {
            return write!(
                f,
                "; the resting contact sets no step limit (impacts, which go deeper, still need \
                 small steps)"
            );
        }
        write!(
            f,
            "; dopri5 needs steps of about {:.2e} s while in contact (about {} steps per \
             simulated second)",
            self.explicit_step,
            count(self.steps_per_second())
        )?;
        if self.stiff {
            write!(
                f,
                "; stiff: an explicit method will crawl here, so method = \"auto\" (the default) \
                 goes implicit while the contact is closed (L-stable: its steps follow the motion, \
                 not the contact's eigenvalues; with an explicit method named, write [solver] \
                 method = \"auto\" or method = \"trbdf2\"), or lower the stiffness/damping"
            )?;
            if self.transition_width.is_some() {
                write!(f, " or raise transition_width")?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Display for FrictionAdvice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.explicit_step.is_finite() {
            return write!(
                f,
                "{} friction: no load, no regularisation stiffness",
                self.law
            );
        }
        write!(
            f,
            "{} friction: below its regularisation velocity it damps sliding with c_f = {:.3e} \
             N·s/m (rate {:.3e} 1/s; a box's twisting on its face about 3 times that) ⇒ dopri5 \
             needs steps of about {:.2e} s while it sticks (about {:.0} steps per simulated \
             second; 3 times as many if a face twists)",
            self.law,
            self.damping,
            self.rate,
            self.explicit_step,
            (1.0 / self.explicit_step).ceil()
        )?;
        if self.stiff {
            write!(
                f,
                "; stiff: method = \"auto\" (the default) goes implicit while it sticks (with an \
                 explicit method named, write [solver] method = \"auto\" or method = \"trbdf2\"), \
                 or raise the critical (stiction) velocity"
            )?;
        }
        Ok(())
    }
}

/// Four significant digits, plain for 1e-3 ≤ |x| < 1e5, scientific otherwise.
pub(super) fn sig(x: f64) -> String {
    let magnitude = x.abs();
    if magnitude == 0.0 {
        "0".to_string()
    } else if (1e-3..1e5).contains(&magnitude) {
        let decimals = (3 - magnitude.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.3e}")
    }
}

/// A count rounded to an integer below a million, in scientific notation above.
fn count(x: f64) -> String {
    if x < 1e6 {
        format!("{:.0}", x.ceil())
    } else {
        format!("{x:.1e}")
    }
}
