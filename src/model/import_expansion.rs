//! An importer block (`type = "Urdf"`) met while expanding a file ([`super::subsystem`]): an
//! instance whose blocks its [`Importer`] makes from the file it names, added to the file's flat
//! blocks like a Subsystem's.

use super::expander::{ExpandedInstance, Expander, Flat};
use super::importer::Importer;
use super::source::Span;
use super::value::{Value, ValueKind};
use super::variables::{substitute_with, Variables};
use super::Diagnostic;

impl Expander<'_, '_> {
    /// Expands the `importer` block `value` (its table, expressions evaluated, `file` relative
    /// to the model's directory) named `full`, written at `at`, into `flat`: its blocks (each
    /// with the overrides that name it applied, evaluated in `scope`) and the instance (drawn as
    /// one node). Its connections join nothing outside: they go after all others
    /// (`Expander::imported_connections`), in the order of the importer blocks, as before Urdf
    /// blocks were instances (the order of physical connections is the mechanism's order).
    pub(super) fn import(
        &mut self,
        importer: &Importer,
        value: &Value,
        full: &str,
        at: &Span,
        scope: &Variables,
        flat: &mut Flat,
    ) -> Result<(), Diagnostic> {
        let empty = super::value::Table::default();
        let table = value.as_table().unwrap_or(&empty);
        let model_dir = self.model_dir.clone();
        let inner = (importer.expand)(self.source, full, table, &value.span, at, &model_dir)
            .map_err(|d| d.block(full))?;
        // The instance counts against the model's bound on blocks; the blocks its file makes do
        // not (the URDF reader bounds a file's size: a 20,000-joint chain makes 180,000 blocks
        // and connections, as it did before a Urdf block was an instance).
        self.count_block(at)?;
        for mut entry in inner.blocks {
            if let ValueKind::Table(t) = &mut entry.value.kind {
                self.apply_overrides(&entry.key, t)?;
            }
            substitute_with(self.source, scope, &mut entry.value)?;
            self.imported_made
                .entry(entry.key.clone())
                .or_default()
                .push(entry.key_span.clone());
            flat.blocks.push(entry);
        }
        self.imported_connections.extend(inner.connections);
        flat.instances.push(ExpandedInstance {
            name: full.to_string(),
            type_name: importer.name,
        });
        self.expansion.warnings.extend(inner.warnings);
        self.expansion.files.extend(inner.files);
        self.skipped.extend(inner.skipped);
        Ok(())
    }
}
