//! Unit tests of the work estimate against closed forms.

use super::*;

fn options(method: Method, rel_tol: f64) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol,
        ..SolverOptions::default()
    }
}

fn at_start(block: usize, closed: bool, rates: ContactRates) -> ContactAtStart {
    ContactAtStart {
        block,
        closed,
        travels: false,
        rates,
        free_members: 0,
    }
}

fn contact(friction_rate: f64) -> ContactRates {
    ContactRates {
        normal_rate: 700.0,
        natural_frequency: 700.0,
        damping_ratio: 0.2,
        friction_rate,
    }
}

#[test]
fn accuracy_pace_is_the_formula() {
    // 0.25·10·(1e-5)^(−1/5) = 0.25·10·10 = 25 steps/s; trbdf2: 0.15·10·(1e-6)^(−1/3) = 150.
    assert!((accuracy_pace(Method::Dopri5, 10.0, 1e-5) - 25.0).abs() < 1e-9);
    assert!((accuracy_pace(Method::Trbdf2, 10.0, 1e-6) - 150.0).abs() < 1e-9);
}

#[test]
fn restitution_and_ring_duration_are_the_closed_forms() {
    let ring = Ring::of(&contact(0.0), 1e-6).unwrap();
    let zeta: f64 = 0.2;
    let e = (-std::f64::consts::PI * zeta / (1.0 - zeta * zeta).sqrt()).exp();
    assert!((ring.restitution() - e).abs() < 1e-15);
    // ln(1e6)/(0.2·700) per impact, times 1/(1 − e) impacts.
    let expected = (1e6f64).ln() / 140.0 / (1.0 - e);
    assert!((ring.duration() - expected).abs() < 1e-12 * expected);
    // Overdamped and undamped contacts do not ring (after an impact or at all).
    let overdamped = ContactRates {
        damping_ratio: 1.5,
        ..contact(0.0)
    };
    assert!(Ring::of(&overdamped, 1e-6).is_none());
}

#[test]
fn auto_goes_implicit_when_stability_binds_and_stays_explicit_when_accuracy_does() {
    // Motion at 10 rad/s, rel_tol 1e-5: dopri5's accuracy pace is 25 steps/s. A sticking
    // friction rate of 3e4 1/s asks 1e4 steps/s for stability: auto goes implicit (trbdf2
    // at this tolerance) at trbdf2's pace 0.15·10·(1e-5)^(−1/3) ≈ 32.3 steps/s.
    let stiff = WorkEstimate::from_rates(
        &options(Method::Auto, 1e-5),
        10.0,
        &[Mode::steady(10.0)],
        vec![at_start(0, true, contact(3e4))],
    );
    let c = &stiff.contacts[0];
    assert!(c.goes_implicit);
    assert!((c.explicit_pace - 1e4).abs() < 1e-6);
    let trbdf2 = 0.15 * 10.0 * 1e5f64.powf(1.0 / 3.0);
    assert!((c.pace - trbdf2).abs() < 1e-9);
    // Closed at the start: no ring; the run's steps add auto's switching steps.
    assert!(c.ring.is_none());
    assert!((stiff.steps - (trbdf2 * 10.0 + SWITCH_STEPS)).abs() < 1e-6);
    // Named dopri5: the stability pace itself.
    let explicit = WorkEstimate::from_rates(
        &options(Method::Dopri5, 1e-5),
        10.0,
        &[Mode::steady(10.0)],
        vec![at_start(0, true, contact(3e4))],
    );
    assert!((explicit.pace - 1e4).abs() < 1e-6);
    // A soft contact (ρ/3 = 233 steps/s) under a fast motion (dopri5 at 1000 rad/s: 2500
    // steps/s): accuracy binds, auto stays explicit.
    let soft = WorkEstimate::from_rates(
        &options(Method::Auto, 1e-5),
        10.0,
        &[Mode::steady(1000.0)],
        vec![at_start(0, true, contact(0.0))],
    );
    assert!(!soft.contacts[0].goes_implicit);
    assert!((soft.pace - 2500.0).abs() < 1e-6);
}

#[test]
fn a_closed_contact_that_travels_rings_for_the_whole_run() {
    // A puck spinning on its face at rel_tol 1e-3 under dopri5: ω_n = 700 rad/s rings for
    // the 2 s run at 0.25·700·(1e3)^(1/5) steps/s, on top of the closed contact's stability
    // pace 700/3 steps/s.
    let spinning = ContactAtStart {
        travels: true,
        ..at_start(0, true, contact(0.0))
    };
    let w = WorkEstimate::from_rates(&options(Method::Dopri5, 1e-3), 2.0, &[], vec![spinning]);
    let ring = w.contacts[0].ring.as_ref().unwrap();
    let ring_pace = 0.25 * 700.0 * 1e3f64.powf(0.2);
    assert!((ring.pace - ring_pace).abs() < 1e-9 && ring.duration == 2.0);
    let expected = 700.0 / 3.0 * 2.0 + ring_pace * 2.0;
    assert!((w.steps - expected).abs() < 1e-9 * expected);
    // The same contact at rest does not ring; an open one's flag is ignored.
    let resting = WorkEstimate::from_rates(
        &options(Method::Dopri5, 1e-3),
        2.0,
        &[],
        vec![at_start(0, true, contact(0.0))],
    );
    assert!(resting.contacts[0].ring.is_none());
    let open = ContactAtStart {
        travels: true,
        ..at_start(0, false, contact(0.0))
    };
    let w = WorkEstimate::from_rates(&options(Method::Dopri5, 1e-3), 2.0, &[], vec![open]);
    assert!(!w.contacts[0].travels);
}

#[test]
fn a_damped_mode_costs_its_transient_and_an_unexcited_one_nothing() {
    // λ = −2 ± 10i fully excited, dopri5 at rel_tol 1e-5 over 10 s (floor 5 steps/s): the
    // pace starts at 0.25·|λ|·10 and falls as e^{−2t/5} (τ = 2.5 s) down to the floor.
    let modulus = 104f64.sqrt();
    let mode = Mode {
        re: -2.0,
        modulus,
        excitation: f64::INFINITY,
    };
    let w = WorkEstimate::from_rates(&options(Method::Dopri5, 1e-5), 10.0, &[mode], vec![]);
    let pace = 2.5 * modulus;
    let t_c = 2.5 * (pace / 5.0).ln();
    let expected = 50.0 + 2.5 * pace * (1.0 - (-t_c / 2.5).exp()) - 5.0 * t_c;
    assert!(
        (w.steps - expected).abs() < 1e-9 * expected,
        "{} vs {expected}",
        w.steps
    );
    // Excited 10× above the tolerance (not 1e5×): it starts at (10·1e-5)^(1/5) of that pace.
    let weak = Mode {
        excitation: 10.0,
        ..mode
    };
    let w = WorkEstimate::from_rates(&options(Method::Dopri5, 1e-5), 10.0, &[weak], vec![]);
    let slow = pace * 1e-4f64.powf(0.2);
    let expected = decaying_mode_steps(slow, 2.0, 10.0, 5.0, 5.0, 10.0);
    assert!((w.steps - expected).abs() < 1e-9 * expected);
    assert!(w.steps < 10.0 * 5.0 + slow * 10f64.ln() / 2.0);
}

#[test]
fn an_open_contact_adds_its_ringing_and_max_step_floors_the_pace() {
    // Nothing moves (ω = 0): max_step (a fiftieth of 2 s) sets 25 steps/s.
    let still = WorkEstimate::from_rates(&options(Method::Auto, 1e-6), 2.0, &[], vec![]);
    assert!((still.pace - 25.0).abs() < 1e-12);
    let open = WorkEstimate::from_rates(
        &options(Method::Auto, 1e-6),
        2.0,
        &[],
        vec![at_start(0, false, contact(0.0))],
    );
    let ring = open.contacts[0].ring.as_ref().unwrap();
    // dopri5 resolves the ring: 0.25·700·(1e-6)^(−1/5) at first, falling as the ring decays.
    let ring_pace = 0.25 * 700.0 * 1e6f64.powf(0.2);
    assert!((ring.pace - ring_pace).abs() < 1e-9);
    // One ring: ∫ pace·e^{−ζωt/5} dt = pace·5/(0.2·700)·(1 − (1e-6)^(1/5)); 1/(1 − e) rings.
    let e = Ring::of(&contact(0.0), 1e-6).unwrap().restitution();
    let ring_steps = ring_pace * 5.0 / 140.0 * (1.0 - 1e-6f64.powf(0.2)) / (1.0 - e);
    assert!((ring.steps - ring_steps).abs() < 1e-9 * ring_steps);
    // Its stability pace 700/3.3 is above the motion's (the floor): auto goes implicit at
    // each of the 1/(1 − e) closings and back after each bounce.
    assert!(open.contacts[0].goes_implicit);
    let switching = (SWITCH_STEPS + BACK_STEPS) / (1.0 - e);
    let expected_steps = 25.0 * 2.0 + ring_steps + switching;
    assert!((open.steps - expected_steps).abs() < 1e-9 * expected_steps);
}

/// A group of 10 falling members open at t = 0, ζ = 0.2 (e = exp(−0.2π/sqrt(0.96)) = 0.5266, so
/// 1/(1 − e) = 2.1125 bounces each), ω = 700 rad/s, dopri5 at rel_tol 1e-5: the ring's pace is
/// 0.25·700·10 = 1750 steps/s, half a damped period π/(700·sqrt(0.96)) = 4.580e-3 s, so each
/// impact costs 2 + 8.015 steps and the group 21.125 × 10.015 = 211.6. The same group closed at
/// t = 0, or a single pair (no members), counts none.
#[test]
fn an_open_groups_members_each_bounce_and_each_impact_costs_two_crossings_and_half_a_period() {
    let group = ContactAtStart {
        free_members: 10,
        ..at_start(0, false, contact(0.0))
    };
    let pace = accuracy_pace(Method::Dopri5, 700.0, 1e-5);
    assert!((pace - 1750.0).abs() < 1e-9);
    let work = member_impacts(&group, pace, 1e-5).unwrap();
    let zeta: f64 = 0.2;
    let e = (-std::f64::consts::PI * zeta / (1.0 - zeta * zeta).sqrt()).exp();
    let impacts = 10.0 / (1.0 - e);
    assert!((impacts - 21.125).abs() < 1e-3, "{impacts}");
    let per = 2.0 + 1750.0 * std::f64::consts::PI / (700.0 * (1.0f64 - 0.04).sqrt());
    assert!((work.impacts - impacts).abs() < 1e-12 * impacts);
    assert!((work.steps_per_impact - per).abs() < 1e-12 * per);
    assert!((work.steps - impacts * per).abs() < 1e-9 * work.steps);
    assert!((work.steps - 211.6).abs() < 0.1, "{}", work.steps);
    let closed = ContactAtStart {
        closed: true,
        ..group
    };
    assert!(member_impacts(&closed, pace, 1e-5).is_none());
    assert!(member_impacts(&at_start(0, false, contact(0.0)), pace, 1e-5).is_none());
    // The estimate adds them to the static steps.
    let estimate = |start| {
        WorkEstimate::from_rates(
            &options(Method::Dopri5, 1e-5),
            1.0,
            &[Mode::steady(10.0)],
            vec![start],
        )
    };
    let (with, without) = (estimate(group), estimate(at_start(0, false, contact(0.0))));
    let added = with.static_steps - without.static_steps;
    assert!((added - work.steps).abs() < 1e-9 * work.steps, "{added}");
}
