//! The registry: one declaration per block type gives its constructor, its parameter and port
//! documentation (for `blockdyn blocks` and docs/blocks.md).

use super::Block;
use crate::params::{ParamError, Params};

/// How to build a block from its parameters: read through [`Params`] (any
/// [`crate::params::ParamSource`]), a problem named by its key path ([`ParamError`]), which the
/// caller locates (the model reader at the key's value in the file).
pub type BuildFn = fn(&Params) -> Result<Box<dyn Block>, ParamError>;

/// One parameter's documentation.
#[derive(Clone, Copy, Debug)]
pub struct ParamDoc {
    /// The key models write.
    pub name: &'static str,
    /// Unit, e.g. "N/m"; "" when dimensionless or not a quantity.
    pub unit: &'static str,
    /// Default as written in TOML; "required" when it must be given. A parameter with a default
    /// value gets this from its [`Param`](super::Param) declaration (the `param!` macro), so that
    /// the text is the value the constructor uses.
    pub default: &'static str,
    /// What it is, one sentence or a few.
    pub doc: &'static str,
}

/// One port's documentation.
#[derive(Clone, Copy, Debug)]
pub struct PortDoc {
    /// The port's name.
    pub name: &'static str,
    /// "input", "output", "frame" or "geometry".
    pub kind: &'static str,
    /// Shape as text, e.g. "1×1", "3×1", "same as in".
    pub shape: &'static str,
    /// Unit of its values, e.g. "m"; "" when dimensionless or not a quantity.
    pub unit: &'static str,
    /// What it carries.
    pub doc: &'static str,
}

/// A block type of the library.
#[derive(Clone, Copy)]
pub struct BlockType {
    /// The `type = "..."` name.
    pub name: &'static str,
    /// Library section, e.g. "Sources", "Math", "Continuous".
    pub category: &'static str,
    /// One paragraph.
    pub summary: &'static str,
    /// Its parameters, in documentation order.
    pub params: &'static [ParamDoc],
    /// Its ports, in documentation order.
    pub ports: &'static [PortDoc],
    /// Makes a block from its parameters (the caller then calls [`Params::finish`], which
    /// reports unknown keys).
    pub build: BuildFn,
}

impl BlockType {
    /// The block's documentation as Markdown (the same text `blockdyn blocks NAME` prints).
    pub fn markdown(&self) -> String {
        type_markdown(
            self.name,
            self.category,
            self.summary,
            self.params,
            self.ports,
        )
    }
}

/// The documentation of a type written as `type = "NAME"` in a model (a block type or an
/// importer, [`crate::model::importer::Importer`]) as Markdown: a `## NAME` heading, the
/// section in italics, the summary, the ports' table, the parameters' table.
pub fn type_markdown(
    name: &str,
    category: &str,
    summary: &str,
    params: &[ParamDoc],
    ports: &[PortDoc],
) -> String {
    let mut s = format!("## {name}\n\n*{category}*\n\n{summary}\n\n");
    if !ports.is_empty() {
        s.push_str("| port | kind | shape | unit | description |\n|---|---|---|---|---|\n");
        for p in ports {
            s.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                p.name, p.kind, p.shape, p.unit, p.doc
            ));
        }
        s.push('\n');
    }
    if params.is_empty() {
        s.push_str("No parameters.\n\n");
    } else {
        s.push_str("| parameter | unit | default | description |\n|---|---|---|---|\n");
        for p in params {
            s.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                p.name, p.unit, p.default, p.doc
            ));
        }
        s.push('\n');
    }
    s
}
