//! The signal library as a whole: names, documentation, and that every builder reads exactly the
//! parameters it documents.

use blockdyn::block::BlockType;
use blockdyn::blocks::LIBRARY;
use blockdyn::library::Registry;
use blockdyn::model::{Document, TableReader};

/// The smallest parameter set each block type builds from.
fn minimal(name: &str) -> &'static str {
    match name {
        "Constant" => "value = 1.0",
        "FromTable" => "time = [0.0, 1.0]\nvalues = [0.0, 1.0]",
        "Selector" => "indices = [0]",
        "Fcn" => "expression = \"u\"",
        "TransferFunction" => "numerator = [1.0]\ndenominator = [1.0, 1.0]",
        "StateSpace" => "A = [[-1.0]]\nB = [1.0]\nC = [1.0]",
        "ZeroOrderHold" | "UnitDelay" => "sample_time = 0.1",
        "Saturation" => "upper = 1.0",
        _ => "",
    }
}

fn find(name: &str) -> Option<&'static BlockType> {
    Registry::standard().find(name)
}

fn build(name: &str, params: &str) -> Result<(), String> {
    let ty = find(name).ok_or("not found")?;
    let doc = Document::parse("m.toml", params).map_err(|d| d.to_string())?;
    let r = TableReader::new(&doc.source, Some("b"), &doc.root, 0..0);
    let built = (ty.build)(&r.params())
        .map(|_| ())
        .map_err(|e| r.locate(e).to_string());
    built
}

#[test]
fn names_are_unique_and_found() {
    for (i, t) in LIBRARY.iter().enumerate() {
        assert!(
            LIBRARY[..i].iter().all(|o| o.name != t.name),
            "duplicate {}",
            t.name
        );
        assert_eq!(find(t.name).unwrap().name, t.name);
    }
    assert!(find("Integrater").is_none());
    assert_eq!(LIBRARY.len(), 30);
}

#[test]
fn every_type_is_documented() {
    for t in LIBRARY {
        assert!(
            !t.summary.is_empty() && !t.category.is_empty(),
            "{}",
            t.name
        );
        assert!(!t.ports.is_empty(), "{} documents no ports", t.name);
        for p in t.params {
            assert!(
                !p.doc.is_empty() && !p.default.is_empty(),
                "{}.{}",
                t.name,
                p.name
            );
        }
        for p in t.ports {
            assert!(
                matches!(p.kind, "input" | "output"),
                "{}.{}",
                t.name,
                p.name
            );
            assert!(
                !p.doc.is_empty() && !p.shape.is_empty(),
                "{}.{}",
                t.name,
                p.name
            );
        }
        // A '|' would break the Markdown tables.
        let texts = t.params.iter().flat_map(|p| [p.doc, p.default, p.unit]);
        let texts = texts.chain(t.ports.iter().flat_map(|p| [p.doc, p.shape, p.unit]));
        for text in texts {
            assert!(!text.contains('|'), "{}: {text}", t.name);
        }
        let md = t.markdown();
        assert!(md.starts_with(&format!("## {}", t.name)));
    }
    let all = blockdyn::report::library_markdown(Registry::standard());
    assert!(all.contains("## Integrator") && all.contains("| `upper_limit` |"));
}

#[test]
fn every_type_builds_from_its_minimal_parameters_and_rejects_unknown_ones() {
    for t in LIBRARY {
        let base = minimal(t.name);
        build(t.name, base).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let e = build(t.name, &format!("{base}\nno_such_parameter = 1")).unwrap_err();
        assert!(
            e.contains("unknown parameter 'no_such_parameter'"),
            "{}: {e}",
            t.name
        );
        assert!(
            e.starts_with("m.toml:") && e.contains("block 'b'"),
            "{}: {e}",
            t.name
        );
    }
}

#[test]
fn every_documented_parameter_is_read() {
    // Writing one documented parameter (even with a wrong value) must never be "unknown".
    for t in LIBRARY {
        for p in t.params {
            let snippet = format!("{}\n{} = \"?\"", minimal(t.name), p.name);
            let snippet = if minimal(t.name).contains(&format!("{} =", p.name)) {
                minimal(t.name).to_string()
            } else {
                snippet
            };
            if let Err(e) = build(t.name, &snippet) {
                assert!(
                    !e.contains("unknown parameter"),
                    "{}.{}: {e}",
                    t.name,
                    p.name
                );
            }
        }
    }
}
