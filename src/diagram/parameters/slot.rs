//! One slot of a parameter vector laid out from its path: a block parameter (`ball.mass`,
//! `free.position[2]`) or a model variable (`length`, `size[0]`), with the value the diagram was
//! built with (see [`super::vector`]). The slot itself (`Slot`, `At`) is declared here, below
//! the vector that holds them.

use super::Addressed;
use crate::block::ParamDoc;
use crate::diagram::blueprint::Built;
use crate::model::diagnostic::closest;
use crate::model::value::{Table, Value, ValueKind};
use crate::model::Diagnostic;
use crate::params::ParamValue;

/// One slot: what it addresses, the element of an array, and how the model writes it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Slot {
    /// The path as the user gave it (`free.position[2]`, `length`, `size[0]`).
    pub(super) path: String,
    /// The block parameter or the variable.
    pub(super) at: At,
    /// The element, when the slot is one number of an array.
    pub(super) element: Option<usize>,
    /// The built array the element belongs to (its other elements stay as built).
    pub(super) array: Vec<f64>,
}

/// What a slot addresses.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum At {
    /// A block's parameter: the block, and the keys below it (`["normal", "stiffness"]`).
    Block { block: usize, keys: Vec<String> },
    /// A model variable, by name.
    Variable(String),
}

impl Slot {
    /// The block, for a block parameter's slot.
    pub(super) fn block(&self) -> Option<usize> {
        match &self.at {
            At::Block { block, .. } => Some(*block),
            At::Variable(_) => None,
        }
    }

    /// The value the slot gives `x`: the number, or the array with element `element` replaced
    /// (starting from `base`, else the built array).
    pub(super) fn value(&self, x: f64, base: Option<Vec<f64>>) -> ParamValue {
        match self.element {
            None => ParamValue::Float(x),
            Some(e) => {
                let mut items = base.unwrap_or_else(|| self.array.clone());
                items[e] = x;
                ParamValue::from(items.as_slice())
            }
        }
    }
}

impl Built<'_> {
    /// The slot at `path` (its path written canonically: `free.position[2]`) and the value the
    /// diagram was built with there.
    pub(super) fn slot(&self, path: &str) -> Result<(Slot, f64), Diagnostic> {
        let (keys_path, element) = split_element(path)?;
        if !keys_path.is_empty() && !keys_path.contains('.') {
            return self.variable_slot(path, keys_path, element);
        }
        let (block, keys) = self.address_path(keys_path, path, Addressed::Slot)?;
        let origin = self.check_written(block, path)?;
        let entry = &self.spec.blocks[origin.entry];
        let refuse = |why: String, hint: String| {
            Err(Diagnostic::new(format!("parameter vector: '{path}' {why}"))
                .block(&entry.name)
                .hint(hint))
        };
        let value = match lookup(&entry.params, &keys) {
            Lookup::Found(v) => v.clone(),
            Lookup::NotATable(depth) => {
                return refuse(
                    format!("goes below '{}', which is not a table", keys[..depth].join(".")),
                    format!("give the path to '{}.{}' itself", entry.name, keys[..depth].join(".")),
                )
            }
            Lookup::Absent => match declared_default(origin.params, &keys) {
                Some(Ok(v)) => v,
                Some(Err(text)) => {
                    return refuse(
                        format!("is not written in the model, and its default ({text}) is not a number"),
                        format!("write the value to start from in [blocks.{}]", entry.name),
                    )
                }
                None if !origin.params.iter().any(|p| p.name == keys[0]) => {
                    let near = closest(keys[0], origin.params.iter().map(|p| p.name));
                    let hint = match near {
                        Some(n) => format!("did you mean '{}.{n}'?", entry.name),
                        None => {
                            format!("`blockdyn blocks {}` lists its parameters", entry.type_name)
                        }
                    };
                    return refuse(format!("is not a parameter of a {}", entry.type_name), hint);
                }
                None => {
                    return refuse(
                        format!(
                            "is not written in the model: a vector starts from a written value, and the defaults inside '{}' are not known here",
                            keys[0]
                        ),
                        format!(
                            "write it in [blocks.{}] if its method takes it (`blockdyn blocks {}` lists them)",
                            entry.name, entry.type_name
                        ),
                    )
                }
            },
        };
        let (scalar, array) = match (&value.kind, element) {
            (ValueKind::Float(x), None) => (*x, Vec::new()),
            (ValueKind::Integer(i), None) => (*i as f64, Vec::new()),
            (ValueKind::Array(items), Some(e)) => {
                let numbers: Option<Vec<f64>> = items.iter().map(Value::as_f64).collect();
                let Some(numbers) = numbers else {
                    return refuse(
                        "is an element of an array that is not all numbers".into(),
                        "a vector holds numbers: give a path to a number".into(),
                    );
                };
                if e >= numbers.len() {
                    return refuse(
                        format!("is past the end of an array of {} numbers", numbers.len()),
                        format!(
                            "give an element from 0 to {}",
                            numbers.len().saturating_sub(1)
                        ),
                    );
                }
                (numbers[e], numbers)
            }
            (ValueKind::Array(items), None) => {
                return refuse(
                    format!("is an array of {} values, not a number", items.len()),
                    format!("give one element as its own slot, e.g. '{keys_path}[0]'"),
                )
            }
            (_, Some(_)) => {
                return refuse(
                    format!("is {}, not an array", value.type_name()),
                    format!("write the path without '[...]': '{keys_path}'"),
                )
            }
            (ValueKind::Table(_), None) => {
                return refuse(
                    "is a table, not a number".into(),
                    format!("give one of its numbers, e.g. '{keys_path}.stiffness'"),
                )
            }
            (_, None) => {
                return refuse(
                    format!("is {}, not a number", value.type_name()),
                    "a vector holds numbers: change other values with Blueprint::parameters".into(),
                )
            }
        };
        let slot = Slot {
            path: canonical(keys_path, element),
            at: At::Block {
                block,
                keys: keys.iter().map(|k| k.to_string()).collect(),
            },
            element,
            array,
        };
        Ok((slot, scalar))
    }

    /// The slot of the model variable `name` (element `element` of an array variable) and the
    /// value the model was built with.
    fn variable_slot(
        &self,
        path: &str,
        name: &str,
        element: Option<usize>,
    ) -> Result<(Slot, f64), Diagnostic> {
        let recipe = self.variable(name, path, "parameter vector: path")?;
        let refuse = |why: String, hint: String| {
            Err(Diagnostic::new(format!("parameter vector: '{path}' {why}")).hint(hint))
        };
        let (scalar, array) = match (recipe.built(name), element) {
            (Some(Ok(x)), None) => (x, Vec::new()),
            (Some(Err(items)), Some(e)) if e < items.len() => (items[e], items.to_vec()),
            (Some(Err(items)), Some(_)) => {
                return refuse(
                    format!(
                        "is past the end of the array variable '{name}' of {} numbers",
                        items.len()
                    ),
                    format!(
                        "give an element from 0 to {}",
                        items.len().saturating_sub(1)
                    ),
                )
            }
            (Some(Err(items)), None) => {
                return refuse(
                    format!(
                        "is an array variable of {} numbers, not a number",
                        items.len()
                    ),
                    format!("give one element as its own slot, e.g. '{name}[0]'"),
                )
            }
            (Some(Ok(_)), Some(_)) => {
                return refuse(
                    "is a number variable, not an array".into(),
                    format!("write the path without '[...]': '{name}'"),
                )
            }
            (None, _) => unreachable!("variable() found it"),
        };
        let slot = Slot {
            path: canonical(name, element),
            at: At::Variable(name.to_string()),
            element,
            array,
        };
        Ok((slot, scalar))
    }
}

/// A slot's path as written canonically: `free.position[2]`, `length`.
fn canonical(path: &str, element: Option<usize>) -> String {
    match element {
        Some(e) => format!("{path}[{e}]"),
        None => path.to_string(),
    }
}

/// `path` without a trailing `[i]`, and `i`.
pub(super) fn split_element(path: &str) -> Result<(&str, Option<usize>), Diagnostic> {
    let Some(open) = path.strip_suffix(']').and_then(|p| p.rfind('[')) else {
        return Ok((path, None));
    };
    let index = &path[open + 1..path.len() - 1];
    match index.trim().parse::<usize>() {
        Ok(i) => Ok((path[..open].trim_end(), Some(i))),
        Err(e) => {
            let why = match e.kind() {
                std::num::IntErrorKind::PosOverflow => "is too large to be an element index",
                _ => "is not an element index",
            };
            Err(
                Diagnostic::new(format!("parameter vector: '{path}': '[{index}]' {why}"))
                    .hint("write a whole number from 0, e.g. free.position[2]"),
            )
        }
    }
}

/// What a table holds at a path of keys.
pub(super) enum Lookup<'t> {
    /// The value written there.
    Found(&'t Value),
    /// Nothing is written there.
    Absent,
    /// The first `n` keys reach a value that is not a table, with keys left below it.
    NotATable(usize),
}

/// The value at `keys` in `table`.
pub(super) fn lookup<'t>(table: &'t Table, keys: &[&str]) -> Lookup<'t> {
    let mut table = table;
    for (depth, key) in keys.iter().enumerate() {
        let Some(entry) = table.get(key) else {
            return Lookup::Absent;
        };
        if depth + 1 == keys.len() {
            return Lookup::Found(&entry.value);
        }
        match &entry.value.kind {
            ValueKind::Table(t) => table = t,
            _ => return Lookup::NotATable(depth + 1),
        }
    }
    Lookup::Absent
}

/// The declared default of a parameter directly under the block: its documented text (which
/// the `param!` declaration makes from the value the constructor uses) as a value, when that
/// text is a number, an array of numbers or a boolean; else the text (`"computed"`).
fn declared_default(params: &[ParamDoc], keys: &[&str]) -> Option<Result<Value, &'static str>> {
    let [key] = keys else {
        return None;
    };
    let text = params.iter().find(|p| p.name == *key)?.default;
    let value = crate::model::value::parse_override_value(text);
    Some(match &value.kind {
        ValueKind::Float(_) | ValueKind::Integer(_) | ValueKind::Bool(_) => Ok(value),
        ValueKind::Array(items) if items.iter().all(|v| v.as_f64().is_some()) => Ok(value),
        _ => Err(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_index_is_split_from_the_path() {
        assert_eq!(
            split_element("free.position[2]").unwrap(),
            ("free.position", Some(2))
        );
        assert_eq!(split_element("ball.mass").unwrap(), ("ball.mass", None));
        assert!(split_element("free.position[-1]").is_err());
    }
}
