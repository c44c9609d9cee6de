//! A penalty contact's linearised rates ([`ContactRates`]) from its normal and friction laws:
//! the numbers the rk4 warning and `check`'s work estimate read (the text is `advice_text`).

use super::contact_advice::ContactAdvice;
use super::friction_advice::FrictionAdvice;
use crate::block::ContactRates;
use crate::contact::friction::FrictionLaw;
use crate::contact::normal_force::NormalForceLaw;

/// The contact's linearised modes ([`ContactRates`]) for the normal and friction laws carrying
/// `supported_weight` (N) of a body of `supported_mass` (kg); `None` when neither law has a
/// linearisation (an input normal force and no regularised friction).
pub fn contact_rates(
    normal: &NormalForceLaw,
    friction: &FrictionLaw,
    supported_weight: f64,
    supported_mass: f64,
) -> Option<ContactRates> {
    let normal = ContactAdvice::compute(normal, supported_weight, supported_mass);
    let friction = FrictionAdvice::compute(friction, supported_weight, supported_mass);
    if normal.is_none() && friction.is_none() {
        return None;
    }
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let mut rates = ContactRates::default();
    if let Some(n) = normal {
        rates.normal_rate = finite(n.fastest_rate);
        rates.natural_frequency = finite(n.natural_frequency.unwrap_or(0.0));
        rates.damping_ratio = finite(n.damping_ratio.unwrap_or(0.0));
    }
    if let Some(f) = friction {
        rates.friction_rate = finite(f.rate);
    }
    Some(rates)
}
