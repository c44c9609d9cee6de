//! One block made again for a parameter set: the assignments to it (typed values), its
//! constructor run on its typed parameters (its model table's values with the assignments
//! applied, read through a [`ParamMap`] as a block built in code is), and the check that the new
//! instance declares the structure of the compiled one. Below the set's compilation (`mod.rs`),
//! the mechanism's elaboration again (`mechanism.rs`) and the variables' assignments
//! (`variables.rs`), which all make blocks again.

use super::super::blueprint::Built;
use super::super::compiled::Origin;
use super::super::CompiledBlock;
use crate::block::{Block, BlockError, ShapeSpec};
use crate::model::document::set_path;
use crate::model::value::{Table, Value};
use crate::model::{Diagnostic, TableReader};
use crate::params::{ParamMap, ParamSource, ParamValue, Params};

/// Blocks made again, with their indices in the diagram.
pub(super) type Remade = Vec<(usize, Box<dyn Block>)>;

/// One assignment to a block: the keys below the block, the value, and the assignment as
/// written (for messages).
pub(super) struct BlockAssignment<'a> {
    pub(super) keys: Vec<&'a str>,
    pub(super) value: ParamValue,
    /// The value as the model writes it, with its places in the file, when a moved variable
    /// gave it (the model read again); `None` for a value given as such (a set's, a vector's).
    /// Only an error is located with it.
    pub(super) in_model: Option<&'a Value>,
    pub(super) written: String,
}

impl BlockAssignment<'_> {
    /// The value as a node of the model tree, for a located error.
    fn tree_value(&self) -> Value {
        match self.in_model {
            Some(v) => v.clone(),
            None => Value::from(&self.value),
        }
    }
}

/// Assignments grouped by the index of the block they address, in the order first addressed.
pub(super) type ByBlock<'a> = Vec<(usize, Vec<BlockAssignment<'a>>)>;

/// Assignment `written` refused for `block`: why, and to build the model again instead.
pub(super) fn refused(written: &str, block: &str, why: String) -> Diagnostic {
    Diagnostic::new(format!("parameter '{written}': {why}"))
        .block(block)
        .hint("build the model again with the value instead (load_model with the override, --set, a sweep's --vary)")
}

/// Why a new instance of a block does not fit the compiled one: the reason, and the block's own
/// error when its setup refused the compiled shapes.
pub(super) struct Misfit {
    why: String,
    cause: Option<BlockError>,
}

impl Misfit {
    fn new(why: impl Into<String>) -> Misfit {
        Misfit {
            why: why.into(),
            cause: None,
        }
    }

    /// The diagnostic `make` builds from the reason, keeping the block's error.
    pub(super) fn diagnostic(self, make: impl FnOnce(String) -> Diagnostic) -> Diagnostic {
        match self.cause {
            Some(e) => make(self.why).caused_by(e),
            None => make(self.why),
        }
    }
}

/// The new instance declares what the compiled one does: ports, setup and sample time.
pub(super) fn check_same_structure(
    cb: &CompiledBlock,
    block: &mut dyn Block,
) -> Result<(), Misfit> {
    let same_names = |a: &[crate::block::PortDecl], b: &[crate::block::PortDecl]| {
        a.iter().map(|p| &p.name).eq(b.iter().map(|p| &p.name))
    };
    if !same_names(block.inputs(), cb.block.inputs())
        || !same_names(block.outputs(), cb.block.outputs())
    {
        return Err(Misfit::new("the value changes the block's ports"));
    }
    // The compiled shapes must still be the block's: a port it fixes (a Constant's value, a
    // Gain's matrix) fixes the same shape, and its shape rule accepts them all together.
    let fixes = |decls: &[crate::block::PortDecl], shapes: &[crate::block::Shape]| {
        decls.iter().zip(shapes).find_map(|(d, s)| match d.shape {
            ShapeSpec::Fixed(fixed) if fixed != *s => Some((d.name.clone(), fixed, *s)),
            _ => None,
        })
    };
    let changed = fixes(block.inputs(), &cb.input_shapes)
        .or_else(|| fixes(block.outputs(), &cb.output_shapes));
    if let Some((port, now, compiled)) = changed {
        return Err(Misfit::new(format!(
            "the value changes the shape of port '{port}' ({compiled} when the model was built, {now} with it)"
        )));
    }
    let mut inputs: Vec<Option<crate::block::Shape>> =
        cb.input_shapes.iter().copied().map(Some).collect();
    let mut outputs: Vec<Option<crate::block::Shape>> =
        cb.output_shapes.iter().copied().map(Some).collect();
    block
        .propagate_shapes(&mut inputs, &mut outputs)
        .map_err(|e| Misfit {
            why: e.to_string(),
            cause: Some(e),
        })?;
    let setup = block
        .setup(&cb.input_shapes, &cb.output_shapes)
        .map_err(|e| Misfit {
            why: e.to_string(),
            cause: Some(e),
        })?;
    if setup != *cb.setup() {
        return Err(Misfit::new(format!(
            "the value changes the block's structure ({} states, {} work slots, {} zero crossings before; {}, {} and {} with it)",
            cb.setup().num_states,
            cb.setup().num_work,
            cb.setup().zero_crossings.len(),
            setup.num_states,
            setup.num_work,
            setup.zero_crossings.len()
        )));
    }
    if block.period() != cb.block.period() {
        return Err(Misfit::new("the value changes the block's sample time (fixed-step checks and time events are set when the model is built)"));
    }
    Ok(())
}

impl Built<'_> {
    /// Refuses an assignment to a block the build adds (the mechanism block), whose values come
    /// from other blocks.
    pub(super) fn check_written(&self, b: usize, written: &str) -> Result<Origin, Diagnostic> {
        let cb = &self.blocks[b];
        if let Some(origin) = cb.origin {
            return Ok(origin);
        }
        Err(Diagnostic::new(format!(
            "parameter '{written}': block '{}' is made by the build, not written in the model",
            cb.name
        ))
        .block(&cb.name)
        .hint("set the values of the blocks it is made from (solids, joints, gravity) instead"))
    }

    /// Block `b` made again from its model table with the assignments applied.
    pub(super) fn remake(
        &self,
        b: usize,
        assignments: &[BlockAssignment],
    ) -> Result<Box<dyn Block>, Diagnostic> {
        let cb = &self.blocks[b];
        let origin = self.check_written(b, &assignments[0].written)?;
        let mut block = self.construct(b, origin, assignments)?;
        if let Some(binding) = &cb.binding {
            let bound = block.physical_mut().map_or(Ok(()), |p| p.bind(binding));
            bound.map_err(|e| Diagnostic::new(e.to_string()).block(&cb.name).caused_by(e))?;
        }
        block.set_used_outputs(&cb.used_outputs);
        check_same_structure(cb, &mut *block)
            .map_err(|m| m.diagnostic(|why| refused(&assignments[0].written, &cb.name, why)))?;
        Ok(block)
    }

    /// Block `b` as its constructor makes it from its typed parameters: its model table's values
    /// with `assignments` applied (not bound yet). When that fails, the error is the one the
    /// model's reader gives for the same table, at its place in the file
    /// ([`Built::construct_located`]).
    pub(super) fn construct(
        &self,
        b: usize,
        origin: Origin,
        assignments: &[BlockAssignment],
    ) -> Result<Box<dyn Block>, Diagnostic> {
        let mut params = typed(&self.spec.blocks[origin.entry].params);
        let set = assignments.iter().try_for_each(|a| {
            params
                .set_path(&a.keys, a.value.clone())
                .map_err(|e| e.to_string())
        });
        let typed_refusal = match set {
            Ok(()) => {
                let reader = params.reader();
                let made = (origin.build)(&Params::new(&reader))
                    .and_then(|block| reader.finish().map(|()| block));
                match made {
                    Ok(block) => return Ok(block),
                    Err(e) => e.to_string(),
                }
            }
            Err(why) => why,
        };
        // The typed path refused: the model's reader says where and why. Both read the same
        // values with the same checks (params/forms.rs), so it must refuse too; a block it
        // makes would hide a disagreement between the two readers, which is a bug to report,
        // not a fallback to take silently.
        self.construct_located(b, origin, assignments)?;
        Err(Diagnostic::new(format!(
            "internal: block '{}' made again from its typed parameters was refused ({typed_refusal}), where the model's reader accepts the same values",
            self.blocks[b].name
        ))
        .block(&self.blocks[b].name)
        .hint("this is a bug in blockdyn: please report it with the model"))
    }

    /// Block `b` as its constructor makes it from its model table with `assignments` applied,
    /// read by the model's reader: the same values as [`Built::construct`]'s, and an error
    /// located in the model file (the assignments named).
    fn construct_located(
        &self,
        b: usize,
        origin: Origin,
        assignments: &[BlockAssignment],
    ) -> Result<Box<dyn Block>, Diagnostic> {
        let name = &self.blocks[b].name;
        let entry = &self.spec.blocks[origin.entry];
        let mut table = entry.params.clone();
        for a in assignments {
            set_path(&mut table, &a.keys, a.tree_value()).map_err(|why| {
                Diagnostic::new(format!("parameter '{}': {why}", a.written))
                    .block(name)
                    .hint("only numbers, strings, arrays and tables can be set, at the path they have in the model")
            })?;
        }
        let reader = TableReader::new(self.source, Some(name), &table, entry.span.clone());
        let made = (origin.build)(&reader.params())
            .map_err(|e| reader.locate(e))
            .and_then(|block| reader.finish().map(|()| block));
        // The block's own message names the key it read; say which assignments gave it.
        made.map_err(|mut d| {
            if !assignments.is_empty() {
                let given: Vec<&str> = assignments.iter().map(|a| a.written.as_str()).collect();
                d.message = format!("parameter '{}': {}", given.join("', '"), d.message);
            }
            d
        })
    }
}

/// A model table's values as typed parameters, in order.
fn typed(table: &Table) -> ParamMap {
    let mut params = ParamMap::default();
    for e in &table.entries {
        params.set(&e.key, ParamValue::from(&e.value));
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Document;

    /// The typed parameters a block is made again from are what the model's reader would read
    /// from its table with the assignment put in: for each path, setting it in the typed map
    /// and in the model table (then made typed) gives the same values, and a path the model
    /// refuses is refused with the same words.
    #[test]
    fn a_typed_assignment_sets_what_the_model_table_would_hold() {
        let text =
            "gain = 2.0\nnormal = { stiffness = 1e5, method = \"linear\" }\nv = [1.0, 2.0]\n";
        let doc = Document::parse("m.toml", text).unwrap();
        let value = |x: f64| ParamValue::Float(x);
        let cases: [(&[&str], ParamValue); 9] = [
            (&[], value(1.0)),
            (&["gain"], value(3.0)),
            (&["new"], value(1.0)),
            (&["normal", "stiffness"], value(2e5)),
            (&["normal", "damping"], value(10.0)),
            (&["friction", "mu"], value(0.5)),
            (&["v"], ParamValue::from([3.0, 4.0, 5.0])),
            (&["normal"], value(1.0)),
            (&["gain", "below"], value(1.0)),
        ];
        for (keys, v) in cases {
            let mut typed_params = typed(&doc.root);
            let mut table = doc.root.clone();
            let by_map = typed_params.set_path(keys, v.clone());
            let by_model = set_path(&mut table, keys, Value::from(&v));
            match (by_map, by_model) {
                (Ok(()), Ok(())) => assert_eq!(typed_params, typed(&table), "{keys:?}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b, "{keys:?}"),
                (a, b) => panic!("{keys:?}: the map gives {a:?}, the model {b:?}"),
            }
        }
    }
}
