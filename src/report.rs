//! Text reports for the command line: the compiled diagram (`check`) and the library (`blocks`).

use crate::diagram::Diagram;
use crate::library::Registry;
use crate::model::diagnostic::closest;
use crate::model::importer::SECTION;
use crate::sim::work_estimate::{Probe, ProbeEnd, WorkEstimate, PROBE_EVALUATIONS, PROBE_FRACTION};
use crate::solver::{Direction, Method};
use std::fmt::Write;

/// What `blockdyn check` prints: blocks in execution order, states, zero-crossing signals.
pub fn check_report(d: &Diagram) -> String {
    // The work estimate runs the model (two engines, at 20,000 joints about 150 MB) before the
    // report's text is written, so that the text (10 MB there) is not alive beside them; it is
    // printed where it always was.
    let work = crate::sim::work_estimate::WorkEstimate::of(d);
    let mut s = String::new();
    let _ = writeln!(s, "model '{}' ({}): OK", d.run.name, d.run.path);
    let _ = writeln!(
        s,
        "  {} blocks, {} signal values, {} continuous states, {} zero-crossing signals; stop time {} s, solver {} (rel_tol {}, abs_tol {})",
        d.blocks.len(),
        d.signal_len,
        d.num_states,
        d.zero_crossing_directions.len(),
        d.run.stop_time,
        d.run.solver.method.name(),
        d.run.solver.rel_tol,
        d.run.solver.abs_tol
    );
    let fused = crate::sim::linear::LinearPlan::build(d).fused;
    if fused > 0 {
        let _ = writeln!(s, "  linear fusion: {fused} Gain/Sum/Integrator blocks are evaluated as fused sparse sums");
    }
    let _ = writeln!(s, "\nexecution order (outputs):");
    for (k, &b) in d.schedule.iter().enumerate() {
        let blk = &d.blocks[b];
        // Written straight into the report (40,000 lines at 20,000 joints: a list of strings
        // joined per line was 2.5 % of that `check`'s instructions).
        let _ = write!(s, "  {:>3}. {} ({})", k + 1, blk.name, blk.type_name);
        let shown = blk
            .block
            .outputs()
            .iter()
            .zip(&blk.output_shapes)
            .filter(|(p, _)| !p.is_hidden());
        for (n, (p, sh)) in shown.enumerate() {
            let _ = write!(s, "{}{} {sh}", if n == 0 { " → " } else { ", " }, p.name);
        }
        s.push('\n');
    }
    let mut scheduled = vec![false; d.blocks.len()];
    for &b in &d.schedule {
        scheduled[b] = true;
    }
    let without: Vec<&str> = d
        .blocks
        .iter()
        .enumerate()
        .filter(|(b, _)| !scheduled[*b])
        .map(|(_, blk)| blk.name.as_str())
        .collect();
    if !without.is_empty() {
        let _ = writeln!(s, "  (no outputs to evaluate: {})", without.join(", "));
    }
    if d.num_states > 0 {
        let _ = writeln!(s, "\nstates:");
        for blk in d.blocks.iter().filter(|b| !b.states.is_empty()) {
            let names: Vec<String> = (0..blk.states.len())
                .map(|k| blk.block.state_name(k))
                .collect();
            let _ = writeln!(
                s,
                "  x[{}..{}] {}: {}",
                blk.states.start,
                blk.states.end,
                blk.name,
                names.join(", ")
            );
        }
    }
    if !d.zero_crossing_directions.is_empty() {
        let _ = writeln!(s, "\nzero-crossing signals:");
        for blk in d.blocks.iter().filter(|b| !b.zero_crossings.is_empty()) {
            let dirs: Vec<&str> = d.zero_crossing_directions[blk.zero_crossings.clone()]
                .iter()
                .map(|dir| match dir {
                    Direction::Rising => "rising",
                    Direction::Falling => "falling",
                    Direction::Either => "either",
                })
                .collect();
            let _ = writeln!(s, "  {} ({}): {}", blk.name, blk.type_name, dirs.join(", "));
        }
    }
    // Advice: blocks that know something useful about their parameters say it.
    let (mass, gravity) =
        crate::diagram::physical::mass_and_gravity(d.blocks.iter().map(|b| &*b.block));
    let advice: Vec<String> = d
        .blocks
        .iter()
        .filter_map(|b| {
            (b.block.advice()?)
                .text(mass, gravity)
                .map(|a| format!("{}: {a}", b.name))
        })
        .collect();
    if !advice.is_empty() {
        let _ = writeln!(s, "\nadvice:");
        for a in advice {
            let _ = writeln!(s, "  {a}");
        }
    }
    if let Some(work) = work {
        s.push_str(&work_section(d, &work));
    }
    if !d.warnings.is_empty() {
        let _ = writeln!(s, "\nwarnings:");
        for w in &d.warnings {
            let _ = writeln!(s, "  {w}");
        }
    }
    s
}

/// The work estimate's lines (see [`crate::sim::work_estimate`]).
fn work_section(d: &Diagram, w: &WorkEstimate) -> String {
    let explicit = match w.method {
        Method::Auto => Method::Dopri5,
        m => m,
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nwork estimate ({}, rel_tol {}):\n  about {} steps per simulated second, about {} steps for the run",
        w.method.name(),
        d.run.solver.rel_tol,
        count(w.pace),
        count(w.steps)
    );
    let _ = writeln!(
        s,
        "  smooth motion: fastest lightly damped rate {} rad/s at t = 0 ⇒ {} about {} steps per simulated second; max_step allows no fewer than {}",
        sig(w.motion_rate),
        explicit.name(),
        count(w.motion_pace),
        count(w.floor_pace)
    );
    if d.num_states > crate::sim::work_estimate::MAX_EIGEN_STATES {
        let _ = writeln!(
            s,
            "  the motion's rates are not estimated: {} states (the eigenvalue analysis stops at {}), so the smooth motion is counted at max_step's pace",
            d.num_states,
            crate::sim::work_estimate::MAX_EIGEN_STATES
        );
    }
    for c in &w.contacts {
        let name = &d.blocks[c.block].name;
        let stiff = format!(
            "{name}: {} at t = 0; its stiffest rate {} 1/s holds {} to about {} steps per simulated second while it is closed",
            if c.closed_at_start { "closed" } else { "open" },
            sig(c.rates.fastest()),
            explicit.name(),
            count(c.explicit_pace)
        );
        let tail = if c.goes_implicit {
            format!(
                " ⇒ auto goes implicit ({}) while it is closed: about {} steps per simulated second",
                w.stiff_method.name(),
                count(c.pace)
            )
        } else if w.method == Method::Auto {
            format!(
                " ⇒ auto stays explicit: about {} steps per simulated second",
                count(c.pace)
            )
        } else {
            format!(": about {} steps per simulated second", count(c.pace))
        };
        let _ = writeln!(s, "  {stiff}{tail}");
        match &c.ring {
            Some(ring) if c.travels => {
                let _ = writeln!(
                    s,
                    "  {name}: it travels over a body at t = 0 (rolling or spinning), so it rings at {} rad/s for the whole run ⇒ about {} steps per simulated second",
                    sig(c.rates.natural_frequency),
                    count(ring.pace)
                );
            }
            Some(ring) => {
                let _ = writeln!(
                    s,
                "  {name}: after its impacts it rings at {} rad/s (ζ = {}) for about {} s in all ⇒ about {} steps per simulated second while it rings",
                sig(c.rates.natural_frequency),
                sig(c.rates.damping_ratio),
                    sig(ring.duration),
                    count(ring.pace)
                );
            }
            None => {}
        }
        if let Some(i) = &c.impacts {
            let _ = writeln!(
                s,
                "  {name}: open at t = 0 with {} moving members: about {} impacts among them (each member's bounces, 1/(1 − e)), each 2 located crossings and half a period in contact ⇒ about {} steps each, about {} steps",
                i.members,
                count(i.impacts),
                sig(i.steps_per_impact),
                count(i.steps)
            );
        }
    }
    if let Some(probe) = &w.probe {
        s.push_str(&probe_lines(d, w, probe));
    } else if !crate::sim::work_estimate::probe_runs(d, &d.run.solver) {
        let _ = writeln!(
            s,
            "  probe: not run ({} states under {}: one Jacobian and LU of a model this size could cost more than the estimate; the static estimate is all)",
            d.num_states,
            w.method.name()
        );
    }
    let _ = writeln!(
        s,
        "  not counted: what starts after the probe: a body that starts rolling or sliding later, rocking over edges, a spin that grows, points engaging one by one, rigid contact's events, impacts between the members of a ContactGroup partly in contact at t = 0 (a contact block open at t = 0 has its impacts' rings counted, a group open at t = 0 its members' impacts)"
    );
    s
}

/// The probe's lines of the work estimate: what it ran, why it ended, what it measured and what
/// it extrapolated (see [`crate::sim::work_estimate::Probe`]).
fn probe_lines(d: &Diagram, w: &WorkEstimate, probe: &Probe) -> String {
    let stop = d.run.stop_time;
    let ended = match &probe.end {
        ProbeEnd::Fraction => format!("it ran to its stop, {}% of the run", PROBE_FRACTION * 100.0),
        ProbeEnd::Budget => {
            format!("it ended early, at its budget of {PROBE_EVALUATIONS} evaluations")
        }
        ProbeEnd::Failed(e) => format!("the run failed there: {}", first_line(e)),
    };
    let methods = if w.method == Method::Auto {
        format!(
            " (dopri5 {}, {} {}; {} switches)",
            probe.steps - probe.implicit_steps,
            w.stiff_method.name(),
            probe.implicit_steps,
            probe.switches
        )
    } else {
        String::new()
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "  probe: the model run from t = 0 to {} s ({ended}): {} steps{methods}, {} located events, {} time events, {} evaluations ⇒ about {} steps per simulated second",
        sig(probe.reached),
        probe.steps,
        probe.located_events,
        probe.time_events,
        probe.evaluations,
        count(probe.pace())
    );
    let rest = (stop - probe.reached).max(0.0);
    let static_pace = w.static_steps / stop;
    let sustained = probe.sustained_pace();
    let (pace, from) = if sustained >= static_pace {
        (
            sustained,
            "the pace the probe sustained (the least of its last three quarters)",
        )
    } else {
        (static_pace, "the static estimate's pace (the terms above)")
    };
    let _ = writeln!(
        s,
        "  the rest, {} s, extrapolated at {from}: about {} steps per simulated second (the static estimate alone: about {} steps for the run)",
        sig(rest),
        count(pace),
        count(w.static_steps)
    );
    s
}

/// The first line of a message.
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}

/// A pace or a step count, rounded to a whole number.
fn count(x: f64) -> String {
    if x.is_finite() {
        format!("{}", x.round())
    } else {
        "unbounded".to_string()
    }
}

/// Four significant digits: plain between 0.01 and 10⁴, else in scientific notation.
fn sig(x: f64) -> String {
    if x == 0.0 || (1e-2..1e4).contains(&x.abs()) {
        let decimals = (3 - x.abs().log10().floor().max(-2.0) as i32).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.3e}")
    }
}

/// What `run` says when it wrote nothing (no CSV, plot or animation asked for).
pub const NOTHING_WRITTEN: &str = "  nothing was written: add --csv out.csv or --plot out.png (or [output] csv = \"out.csv\", plot = \"out.png\"), with a Scope block or [output] log = [\"block.port\"] to choose the signals\n";

/// What `blockdyn blocks` prints: the library by category.
pub fn library_list(registry: &Registry) -> String {
    let mut s = String::from("blockdyn block library (`blockdyn blocks NAME` for one block):\n");
    let mut category = "";
    let importers = registry.importers().map(|i| (SECTION, i.name, i.summary));
    let types = registry.all().map(|t| (t.category, t.name, t.summary));
    for (section, name, summary) in types.chain(importers) {
        if section != category {
            category = section;
            let _ = writeln!(s, "\n{category}:");
        }
        let first = first_sentence(summary);
        let _ = writeln!(s, "  {name:<24} {first}");
    }
    s
}

/// The first sentence of `text`, without its final period: up to the first ". " that is not the
/// end of an abbreviation ("e.g. ", "i.e. ").
fn first_sentence(text: &str) -> &str {
    let mut from = 0;
    while let Some(k) = text[from..].find(". ") {
        let end = from + k;
        let before = &text[..end];
        if !(before.ends_with("e.g") || before.ends_with("i.e")) {
            return before;
        }
        from = end + 2;
    }
    text.trim_end_matches('.')
}

/// What `blockdyn blocks NAME` prints.
pub fn block_help(registry: &Registry, name: &str) -> Result<String, String> {
    if let Some(i) = registry.find_importer(name) {
        return Ok(i.markdown());
    }
    match registry.find(name) {
        Some(t) => Ok(t.markdown()),
        None => {
            let mut m = format!("there is no block type \"{name}\"");
            let names = registry.all().map(|t| t.name);
            if let Some(near) = closest(name, names.chain(registry.importers().map(|i| i.name))) {
                m.push_str(&format!("\n  help: did you mean \"{near}\"?"));
            } else {
                m.push_str("\n  help: run `blockdyn blocks` for the list");
            }
            Err(m)
        }
    }
}

/// docs/blocks.md: the whole library, generated from the registry.
pub fn library_markdown(registry: &Registry) -> String {
    let mut s = String::from(
        "# Block library\n\nGenerated by `blockdyn blocks --markdown` from the same declarations the model loader uses; \
         a test keeps this file current. Units are SI, angles in radians.\n\n",
    );
    let mut category = "";
    for t in registry.all() {
        if t.category != category {
            category = t.category;
            let _ = writeln!(s, "# {category}\n");
        }
        s.push_str(&t.markdown());
    }
    // The importers: file formats a block may name as its type, expanded when the model is
    // read (not block types: nothing builds them).
    if registry.importers().next().is_some() {
        let _ = writeln!(s, "# {SECTION}\n");
    }
    for i in registry.importers() {
        s.push_str(&i.markdown());
    }
    s
}

/// The mechanism's total mass (kg) and gravity magnitude (m/s²), from the physical blocks' roles.
#[cfg(test)]
mod tests {
    #[test]
    fn first_sentences_skip_abbreviations() {
        assert_eq!(
            super::first_sentence("Plays a table (e.g. a force). More."),
            "Plays a table (e.g. a force)"
        );
        assert_eq!(super::first_sentence("One. Two."), "One");
        assert_eq!(super::first_sentence("Only one."), "Only one");
    }
}
