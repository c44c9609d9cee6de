//! A block's model table reduced to a 64-bit digest when the diagram is built, so that a run can
//! check that a parameter set was made from the same tables without keeping the model.

use crate::model::{Table, Value, ValueKind};
use std::hash::{Hash, Hasher};

/// The digest of `table`: its keys, values and the spans of both (what `Table`'s `==`
/// compares), hashed with the standard library's SipHash under fixed keys (the same in every
/// process). `None` when a value is NaN: such a table is not `==` to itself, so nothing made
/// from it fits any diagram (as when the tables were compared).
pub(crate) fn digest(table: &Table) -> Option<u64> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    table_into(table, &mut h)?;
    Some(h.finish())
}

fn table_into(table: &Table, h: &mut impl Hasher) -> Option<()> {
    table.entries.len().hash(h);
    for e in &table.entries {
        e.key.hash(h);
        e.key_span.hash(h);
        value_into(&e.value, h)?;
    }
    Some(())
}

fn value_into(v: &Value, h: &mut impl Hasher) -> Option<()> {
    v.span.hash(h);
    match &v.kind {
        ValueKind::Float(x) if x.is_nan() => return None,
        // 0.0 == -0.0: one digest for both.
        ValueKind::Float(x) => (0u8, if *x == 0.0 { 0 } else { x.to_bits() }).hash(h),
        ValueKind::Integer(i) => (1u8, i).hash(h),
        ValueKind::Bool(b) => (2u8, b).hash(h),
        ValueKind::String(s) => (3u8, s).hash(h),
        ValueKind::Array(items) => {
            (4u8, items.len()).hash(h);
            for item in items {
                value_into(item, h)?;
            }
        }
        ValueKind::Table(t) => {
            5u8.hash(h);
            table_into(t, h)?;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Entry, Span};

    fn table(x: f64, span: Option<std::ops::Range<usize>>) -> Table {
        Table {
            entries: vec![Entry {
                key: "gain".into(),
                key_span: Span::new(0..4),
                value: Value {
                    kind: ValueKind::Float(x),
                    span: span.into(),
                },
            }],
        }
    }

    #[test]
    fn equal_tables_have_one_digest_and_a_difference_changes_it() {
        let a = table(2.0, Some(7..10));
        assert_eq!(digest(&a), digest(&a.clone()));
        assert_eq!(digest(&table(0.0, None)), digest(&table(-0.0, None)));
        assert_ne!(digest(&a), digest(&table(2.5, Some(7..10))));
        // The same value set from the command line (no span) is another table.
        assert_ne!(digest(&a), digest(&table(2.0, None)));
        assert_eq!(digest(&table(f64::NAN, None)), None);
    }
}
