//! The URDF reader's attribute reads, below the element reads (`read.rs`, `joint_dynamics.rs`)
//! that use them: a required attribute, numbers (checked finite, positive where asked), the one
//! child of a tag, each failure located at its element.

use crate::model::{Diagnostic, SourceFile};
use crate::urdf::position::error_at;

/// The reader of one URDF file: its text, for the messages' places.
pub(super) struct Reader<'s> {
    pub(super) source: &'s SourceFile,
}

impl Reader<'_> {
    pub(super) fn at(&self, node: &roxmltree::Node, message: impl Into<String>) -> Diagnostic {
        error_at(self.source, node.range().start, message)
    }

    pub(super) fn attr_error(
        &self,
        node: &roxmltree::Node,
        name: &str,
        message: impl Into<String>,
    ) -> Diagnostic {
        let at = node
            .attribute_node(name)
            .map_or(node.range().start, |a| a.range().start);
        error_at(self.source, at, message)
    }

    pub(super) fn required_attr<'a>(
        &self,
        node: &roxmltree::Node<'a, '_>,
        name: &str,
    ) -> Result<&'a str, Diagnostic> {
        node.attribute(name).ok_or_else(|| {
            self.at(
                node,
                format!("<{}> has no '{name}' attribute", node.tag_name().name()),
            )
            .hint(format!("write <{} {name}=\"...\">", node.tag_name().name()))
        })
    }

    /// `n` numbers separated by spaces in attribute `name` (`default` when it is absent).
    pub(super) fn numbers<const N: usize>(
        &self,
        node: &roxmltree::Node,
        name: &str,
        default: Option<[f64; N]>,
    ) -> Result<[f64; N], Diagnostic> {
        let Some(text) = node.attribute(name) else {
            return default.ok_or_else(|| {
                self.at(
                    node,
                    format!("<{}> has no '{name}' attribute", node.tag_name().name()),
                )
                .hint(format!(
                    "write <{} {name}=\"{}\">",
                    node.tag_name().name(),
                    vec!["0"; N].join(" ")
                ))
            });
        };
        // Parsed straight into the array (no vector an attribute: a 20,000-joint URDF has
        // 100,000 of them); `words` counts every word, so too many are refused as before.
        let mut out = [0.0; N];
        let mut words = 0;
        let mut parsed = true;
        for word in text.split_whitespace() {
            match word.parse::<f64>() {
                Ok(x) if words < N => out[words] = x,
                Ok(_) => {}
                Err(_) => {
                    parsed = false;
                    break;
                }
            }
            words += 1;
        }
        match parsed {
            true if words == N && out.iter().all(|x| x.is_finite()) => Ok(out),
            _ => Err(self
                .attr_error(
                    node,
                    name,
                    format!(
                        "<{} {name}=\"{text}\">: expected {} finite number{} separated by spaces",
                        node.tag_name().name(),
                        N,
                        if N == 1 { "" } else { "s" }
                    ),
                )
                .hint(format!(
                    "write e.g. {name}=\"{}\"",
                    vec!["0.1"; N].join(" ")
                ))),
        }
    }

    pub(super) fn number(&self, node: &roxmltree::Node, name: &str) -> Result<f64, Diagnostic> {
        Ok(self.numbers::<1>(node, name, None)?[0])
    }

    pub(super) fn number_or(
        &self,
        node: &roxmltree::Node,
        name: &str,
        default: f64,
    ) -> Result<f64, Diagnostic> {
        Ok(self.numbers::<1>(node, name, Some([default]))?[0])
    }

    pub(super) fn positive(
        &self,
        node: &roxmltree::Node,
        name: &str,
        unit: &str,
    ) -> Result<f64, Diagnostic> {
        let x = self.number(node, name)?;
        if x > 0.0 {
            return Ok(x);
        }
        Err(self
            .attr_error(
                node,
                name,
                format!(
                    "<{} {name}>: must be positive (got {x})",
                    node.tag_name().name()
                ),
            )
            .hint(format!("write the {name} in {unit}")))
    }

    /// The only child element called `tag`, if any (a second one is an error).
    pub(super) fn only_child<'a, 'i>(
        &self,
        node: &roxmltree::Node<'a, 'i>,
        tag: &str,
    ) -> Result<Option<roxmltree::Node<'a, 'i>>, Diagnostic> {
        let mut found = node
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == tag);
        let first = found.next();
        if let Some(second) = found.next() {
            return Err(self
                .at(
                    &second,
                    format!("a second <{tag}> in <{}>", node.tag_name().name()),
                )
                .hint(format!(
                    "a <{}> has at most one <{tag}>",
                    node.tag_name().name()
                )));
        }
        Ok(first)
    }
}
