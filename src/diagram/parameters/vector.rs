//! Parameters as a vector of numbers: the scalar parameters a user picks, in a fixed order, with
//! the values the diagram was built with (MuJoCo's editable numeric model fields; Drake's numeric
//! parameter vector in a Context).
//!
//! [`crate::Blueprint::parameter_vector`] lays the vector out once from paths (`ball.mass`,
//! `contact.normal.stiffness`, `free.position[2]` for one element of a number array) and starts
//! each slot at the value the built diagram uses: the number the model writes there, or the
//! parameter's declared default. An optimiser, a fitting loop or a sweep then changes the
//! numbers (`vector[1] = 2e5`, [`ParameterVector::set_values`]) and
//! [`crate::Blueprint::parameters_from`] turns them into a [`ParameterSet`] for runs, with no text
//! formatted or parsed on the way.
//!
//! A vector is applied as any set is (see the [parent module](super)): each block with a slot
//! whose value differs from the built one, bit for bit, is made again by its type's constructor
//! from its typed values with the new numbers (no model value made on the way), checked to keep
//! its structure, and runs dispatch to it; a slot in the mechanism (a mass, gravity, a joint's initial value) elaborates the mechanism
//! again. Slots at their built values make no block again, so the vector as laid out gives an
//! empty set and runs exactly as the diagram. The schedule, buffers and every other block are
//! shared by all runs.
//!
//! ```
//! use blockdyn::{load_model_str_parts, simulate, RunOptions};
//! use std::sync::Arc;
//!
//! let model = r#"
//! connect = ["c.out -> g.in", "g.out -> x.in", "x.out -> s.in1"]
//! [model]
//! stop_time = 1.0
//! [blocks.c]
//! type = "Constant"
//! value = 1.0
//! [blocks.g]
//! type = "Gain"
//! gain = 2.0
//! [blocks.x]
//! type = "Integrator"
//! [blocks.s]
//! type = "Scope"
//! "#;
//! let (blueprint, diagram) = load_model_str_parts("ramp.toml", model, &[])?;
//! let mut theta = blueprint.parameter_vector(&diagram, &["g.gain", "x.initial"])?;
//! assert_eq!(theta.built_values(), &[2.0, 0.0]); // written; the declared default
//! theta.set_values(&[3.0, 0.5])?;
//! let set = Arc::new(blueprint.parameters_from(&diagram, &theta)?);
//! let run = simulate(&diagram, RunOptions { parameters: Some(set), ..Default::default() })?;
//! // x(1) = x0 + gain · 1 s
//! assert!((run.final_state[0] - 3.5).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Laying out checks every slot, so that an optimiser's loop meets no path error: the path must
//! address a number (or one element of an array of numbers), a set with every slot at its built
//! value is compiled once, and each slot is moved to the nearest numbers above and below its
//! built value to prove that some change of it can be carried (a geometry's radius cannot: a
//! set refuses any change of it). A value out of a parameter's range (a negative stiffness) is
//! refused when it is applied, naming the slot.

use super::remake::{BlockAssignment, ByBlock};
use super::slot::{lookup, At, Lookup, Slot};
use super::{ParameterSet, Provenance};
use crate::diagram::blueprint::Built;
use crate::diagram::recipe::Reading;
use crate::diagram::Diagram;
use crate::model::value::Value;
use crate::model::{Diagnostic, ModelSpec, Override};
use crate::params::ParamValue;

/// Named scalar parameters of one diagram and their values, in the order they were laid out by
/// [`crate::Blueprint::parameter_vector`]; [`crate::Blueprint::parameters_from`] makes the [`ParameterSet`] that
/// runs with them. Index it like a slice: `vector[i]` is the value of
/// `vector.paths()[i]`, in that parameter's unit (SI, as the model writes it).
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterVector {
    slots: Vec<Slot>,
    values: Vec<f64>,
    /// The values the diagram was built with, slot by slot.
    built: Vec<f64>,
    /// The diagram it was laid out for, as far as its slots' blocks tell (their tables give
    /// the built values and the arrays the slots start from).
    made_from: Provenance,
    /// How the model was read, when a slot is a model variable (the vector fits only a diagram
    /// read the same way).
    reading: Option<Reading>,
}

/// [`ParameterVector::set_values`] was given a slice of another length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the parameter vector has {expected} slots, but {given} values were given")]
pub struct VectorLengthError {
    /// The vector's number of slots.
    pub expected: usize,
    /// The number of values given.
    pub given: usize,
}

impl ParameterVector {
    /// The number of slots.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether it has no slots.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The slots' paths, in order (as given to [`crate::Blueprint::parameter_vector`]).
    pub fn paths(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.slots.iter().map(|s| s.path.as_str())
    }

    /// The index of the slot with path `path`, as it was given.
    pub fn index_of(&self, path: &str) -> Option<usize> {
        self.slots.iter().position(|s| s.path == path)
    }

    /// The current values, slot by slot.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The current values, to change in place.
    pub fn values_mut(&mut self) -> &mut [f64] {
        &mut self.values
    }

    /// The values the diagram was built with, slot by slot.
    pub fn built_values(&self) -> &[f64] {
        &self.built
    }

    /// Sets every slot's value; `values` has one number per slot, in order.
    pub fn set_values(&mut self, values: &[f64]) -> Result<(), VectorLengthError> {
        if values.len() != self.values.len() {
            return Err(VectorLengthError {
                expected: self.values.len(),
                given: values.len(),
            });
        }
        self.values.copy_from_slice(values);
        Ok(())
    }

    /// The vector with `values` in place of the current ones.
    pub fn with_values(&self, values: &[f64]) -> Result<ParameterVector, VectorLengthError> {
        let mut v = self.clone();
        v.set_values(values)?;
        Ok(v)
    }

    /// Whether it was laid out for `diagram`, or one with the same blocks whose slots' blocks
    /// have the same model tables (the same file built with the same values; for a vector with
    /// variables, the same file read with the same overrides).
    pub fn fits(&self, diagram: &Diagram) -> bool {
        let same_reading = match (&self.reading, &diagram.reading) {
            (None, _) => true,
            (Some(a), Some(b)) => a.same(b),
            (Some(_), None) => false,
        };
        same_reading && self.made_from.fits(diagram)
    }

    /// Whether slot `i` is taken: moved from its built value, or `all`.
    fn taken(&self, i: usize, all: bool) -> bool {
        all || self.values[i].to_bits() != self.built[i].to_bits()
    }

    /// The slots taken as overrides (for messages and [`ParameterSet::assignments`]), in order:
    /// the slot's parameter or variable with its value (an element's slot: the whole array,
    /// that element moved, the others as built), shown as `path=value`.
    fn written(&self, all: bool) -> Vec<Override> {
        // The parameter's path: an element's slot without its trailing `[i]` (a block's own
        // name may hold brackets: `robot[0]/knee.q0`).
        let param_path = |i: usize| -> &str {
            let slot: &Slot = &self.slots[i];
            match slot.element {
                None => slot.path.as_str(),
                Some(_) => slot
                    .path
                    .rfind('[')
                    .map_or(slot.path.as_str(), |open| slot.path[..open].trim_end()),
            }
        };
        (0..self.len())
            .filter(|&i| self.taken(i, all))
            .map(|i| {
                let slot = &self.slots[i];
                let x = self.values[i];
                let path = param_path(i);
                let value = match slot.element {
                    None => ParamValue::Float(x),
                    Some(_) => {
                        // Every taken element of the same parameter, so that the overrides
                        // replayed in order leave each element moved, not only the last.
                        let mut array = slot.array.clone();
                        for j in (0..self.len()).filter(|&j| self.taken(j, all)) {
                            if let Some(e) = self.slots[j].element {
                                if param_path(j) == path && e < array.len() {
                                    array[e] = self.values[j];
                                }
                            }
                        }
                        ParamValue::from(array.as_slice())
                    }
                };
                Override::written(path, value, format!("{}={}", slot.path, readable(x)))
            })
            .collect()
    }

    /// The variables of the slots taken, with their values (an array variable whole), as the
    /// model reads them.
    fn variable_values(&self, all: bool) -> Vec<(&str, Value)> {
        let mut out: Vec<(&str, ParamValue)> = Vec::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let At::Variable(name) = &slot.at else {
                continue;
            };
            if !self.taken(i, all) {
                continue;
            }
            let x = self.values[i];
            match (slot.element, out.iter_mut().find(|(n, _)| n == name)) {
                (Some(e), Some((_, existing))) => {
                    if let ParamValue::Array(items) = existing {
                        items[e] = ParamValue::Float(x);
                    }
                }
                _ => out.push((name.as_str(), slot.value(x, None))),
            }
        }
        // The model is read again with them: its values (with no place in the file).
        out.into_iter().map(|(n, v)| (n, Value::from(&v))).collect()
    }

    /// The assignments to block parameters that give the slots taken, grouped by block. An array
    /// gets one assignment holding all its changed elements; its other elements are `base`'s
    /// (the array as the model is read again with moved variables), else the built ones.
    fn assignments<'v>(&'v self, all: bool, base: &BaseArray) -> ByBlock<'v> {
        let mut by_block: ByBlock = Vec::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let At::Block { block, keys } = &slot.at else {
                continue;
            };
            if !self.taken(i, all) {
                continue;
            }
            let x = self.values[i];
            // Always a float: a parameter read as a count takes a whole float too, and refuses
            // a fraction with its own message.
            let text = format!("{}={}", slot.path, readable(x));
            let number = ParamValue::Float(x);
            let keys_str: Vec<&str> = keys.iter().map(String::as_str).collect();
            let list = match by_block.iter_mut().position(|(b, _)| b == block) {
                Some(k) => &mut by_block[k].1,
                None => {
                    by_block.push((*block, Vec::new()));
                    &mut by_block.last_mut().expect("just pushed").1
                }
            };
            match (slot.element, list.iter_mut().find(|a| a.keys == keys_str)) {
                (Some(e), Some(existing)) => {
                    if let ParamValue::Array(items) = &mut existing.value {
                        items[e] = number;
                    }
                    existing.written = format!("{}, {text}", existing.written);
                }
                (Some(_), None) => list.push(BlockAssignment {
                    value: slot.value(x, base(*block, keys)),
                    in_model: None,
                    keys: keys_str,
                    written: text,
                }),
                (None, _) => list.push(BlockAssignment {
                    keys: keys_str,
                    value: number,
                    in_model: None,
                    written: text,
                }),
            }
        }
        by_block
    }
}

impl std::ops::Index<usize> for ParameterVector {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        &self.values[i]
    }
}

impl std::ops::IndexMut<usize> for ParameterVector {
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        &mut self.values[i]
    }
}

/// The array a block parameter holds in the model read again (block index, keys below it).
type BaseArray<'a> = dyn Fn(usize, &[String]) -> Option<Vec<f64>> + 'a;

/// `x` as text short enough for a message: plain within 1e-4..1e15, else in exponent form.
fn readable(x: f64) -> String {
    if x == 0.0 || (1e-4..1e15).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

impl Built<'_> {
    /// Lays out a [`ParameterVector`] of the scalar parameters at `paths` (`block.param[.sub...]`,
    /// with `[i]` after the last key for element `i`, from 0, of an array of numbers; a bare
    /// name, `length` or `size[0]`, is a model variable, and every parameter whose expression
    /// reads it follows it: see `parameters/variables.rs`), each starting at the value this
    /// diagram was built with. Errors name the path and say what to
    /// write instead: a path to no block or parameter, to a string, a table or a whole array, a
    /// slot given twice, a parameter the model does not write whose default is not a number, and
    /// a value no set can carry (one that shapes a geometry or a block's structure).
    pub fn parameter_vector<S: AsRef<str>>(
        &self,
        paths: &[S],
    ) -> Result<ParameterVector, Diagnostic> {
        let mut slots: Vec<Slot> = Vec::with_capacity(paths.len());
        let mut built = Vec::with_capacity(paths.len());
        for path in paths {
            let (slot, value) = self.slot(path.as_ref().trim())?;
            if let Some(same) = slots.iter().find(|s| s.path == slot.path) {
                return Err(Diagnostic::new(format!(
                    "parameter vector: '{}' is given twice (as '{}' and '{}')",
                    slot.path,
                    same.path,
                    path.as_ref().trim()
                ))
                .hint("give each parameter once"));
            }
            slots.push(slot);
            built.push(value);
        }
        let made_from = Provenance::of(self, slots.iter().filter_map(Slot::block));
        let reading = slots
            .iter()
            .any(|s| s.block().is_none())
            .then_some(self.reading)
            .flatten();
        let vector = ParameterVector {
            slots,
            values: built.clone(),
            built,
            made_from,
            reading,
        };
        // Every slot at its built value, compiled once: a path no set can carry is refused here,
        // not in the first run of a loop. A block may refuse a parameter merely written (a
        // Solid's density beside its mass): that slot cannot be in a vector.
        if !vector.is_empty() {
            self.compile_vector(&vector, true).map_err(|mut d| {
                d.hint = Some(
                    "leave that slot out of the vector: the block takes it only as the model writes it"
                        .into(),
                );
                d
            })?;
        }
        for i in 0..vector.len() {
            self.check_movable(&vector, i)?;
        }
        Ok(vector)
    }

    /// Refuses slot `i` when no change of its value can be carried by a set: a value that
    /// shapes a geometry, a count, or the block's structure, is refused for any change. Probed
    /// with the nearest numbers above and below the built value (one of them is within the
    /// parameter's range even when the built value sits on a bound, a restitution of 1 or a
    /// damping of 0).
    fn check_movable(&self, vector: &ParameterVector, i: usize) -> Result<(), Diagnostic> {
        let built = vector.built[i];
        let mut probe = vector.clone();
        probe.values[i] = nearest_above(built);
        let up = self.parameters_from(&probe);
        if up.is_ok() {
            return Ok(());
        }
        probe.values[i] = -nearest_above(-built);
        match (self.parameters_from(&probe), up) {
            (Ok(_), _) | (_, Ok(_)) => Ok(()),
            (Err(_), Err(mut refused)) => {
                refused.message = format!(
                    "parameter vector: '{}' cannot move: a set refuses the nearest numbers above and below its value {built} ({})",
                    vector.slots[i].path, refused.message
                );
                refused.hint = Some("it is fixed when the model is built (a count, a geometry, the block's structure): leave it out of the vector, and build the model again to change it".into());
                Err(refused)
            }
        }
    }

    /// The [`ParameterSet`] that runs this diagram with `vector`'s values (only blocks with a
    /// slot away from its built value are made again; a vector at its built values gives an
    /// empty set). Errors name the slot: a non-finite value, a value the block refuses (a
    /// negative stiffness) or one that changes its structure. A vector laid out for another
    /// diagram is refused, also for a diagram of the same blocks built with other values.
    pub fn parameters_from(&self, vector: &ParameterVector) -> Result<ParameterSet, Diagnostic> {
        if !vector.fits(self) {
            return Err(
                Diagnostic::new("the parameter vector was laid out for another diagram")
                    .hint("lay it out with this diagram's parameter_vector"),
            );
        }
        for (slot, x) in vector.slots.iter().zip(&vector.values) {
            if !x.is_finite() {
                let mut d = Diagnostic::new(format!(
                    "parameter vector: '{}' = {x} is not a finite number",
                    slot.path
                ));
                if let Some(b) = slot.block() {
                    d = d.block(&self.blocks[b].name);
                }
                return Err(d.hint("give the slot a finite value"));
            }
        }
        self.compile_vector(vector, false)
    }

    /// The set of `vector`'s slots moved from their built values (all of them when `all`):
    /// the moved variables first (the model read again with them), then the block parameters.
    fn compile_vector(
        &self,
        vector: &ParameterVector,
        all: bool,
    ) -> Result<ParameterSet, Diagnostic> {
        let values = vector.variable_values(all);
        let written = vector.written(all);
        let explicit = |reread: Option<&ModelSpec>| {
            let base = |block: usize, keys: &[String]| -> Option<Vec<f64>> {
                let entry = self.blocks[block].origin?.entry;
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                match lookup(&reread?.blocks.get(entry)?.params, &keys) {
                    Lookup::Found(v) => v.as_array()?.iter().map(Value::as_f64).collect(),
                    _ => None,
                }
            };
            Ok(vector.assignments(all, &base))
        };
        self.compile_with_variables(&values, explicit, written)
    }
}

/// The nearest number above `x` (`f64::next_up`, which is newer than the crate's minimum Rust).
fn nearest_above(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let bits = x.to_bits();
    f64::from_bits(if x > 0.0 { bits + 1 } else { bits - 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_number_above_is_one_step_up() {
        for x in [0.0, -0.0, 1.0, -1.0, 1e-300, -1e300, 0.1, f64::MAX] {
            let up = nearest_above(x);
            assert!(up > x, "{x}");
            // One step back down gives x again (0.0 == -0.0).
            assert_eq!(-nearest_above(-up), x, "{x}");
        }
        assert_eq!(nearest_above(f64::INFINITY), f64::INFINITY);
    }
}
