//! The `connect` strings: `a.p -- b.q` (physical), `a.p -> b.q` and `a.p[i] -> b.q` (signal).

use super::source::Span;

/// A reference to a block's port, optionally to one element of a signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortRef {
    /// The block's name.
    pub block: String,
    /// The port's name.
    pub port: String,
    /// `Some(i)` for `block.port[i]` (element `i`, 0-based, column-major).
    pub index: Option<usize>,
}

impl std::fmt::Display for PortRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.block, self.port)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// `--` joins frames or geometries; `->` is a signal line from an output to an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionKind {
    /// `a -- b`: frames or geometries joined.
    Physical,
    /// `a -> b`: a signal line.
    Signal,
}

/// One parsed connection.
#[derive(Clone, Debug, PartialEq)]
pub struct Connection {
    /// Physical or signal.
    pub kind: ConnectionKind,
    /// The left side (a signal line's source).
    pub from: PortRef,
    /// The right side (a signal line's destination).
    pub to: PortRef,
    /// Where the string was written.
    pub span: Span,
}

/// Why a connection string could not be read (the caller adds file and line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionSyntaxError {
    pub message: String,
    pub hint: String,
}

const FORMS: &str = "write \"block.port -> block.port\" for a signal line or \"block.port -- block.port\" for a physical connection";

/// Parses one `connect` entry.
pub fn parse_connection(text: &str, span: Span) -> Result<Connection, ConnectionSyntaxError> {
    let (kind, left, right) = if let Some((l, r)) = text.split_once("->") {
        (ConnectionKind::Signal, l, r)
    } else if let Some((l, r)) = text.split_once("--") {
        (ConnectionKind::Physical, l, r)
    } else if text.contains("<-") {
        return Err(ConnectionSyntaxError {
            message: format!("connection \"{text}\" points right to left"),
            hint: "signal lines go from an output to an input: \"source.out -> sink.in\"".into(),
        });
    } else {
        return Err(ConnectionSyntaxError {
            message: format!("connection \"{text}\" has neither '->' nor '--'"),
            hint: FORMS.into(),
        });
    };
    let from = parse_port_ref(left.trim(), text)?;
    let to = parse_port_ref(right.trim(), text)?;
    if to.index.is_some() {
        return Err(ConnectionSyntaxError {
            message: format!(
                "connection \"{text}\": an element index is allowed only on the source side"
            ),
            hint: format!(
                "write \"{} -> {}.{}\" and select the element on the left",
                from, to.block, to.port
            ),
        });
    }
    if kind == ConnectionKind::Physical && from.index.is_some() {
        return Err(ConnectionSyntaxError {
            message: format!(
                "connection \"{text}\": physical connections ('--') take no element index"
            ),
            hint: FORMS.into(),
        });
    }
    Ok(Connection {
        kind,
        from,
        to,
        span,
    })
}

fn parse_port_ref(s: &str, whole: &str) -> Result<PortRef, ConnectionSyntaxError> {
    let bad = |why: &str| ConnectionSyntaxError {
        message: format!("connection \"{whole}\": '{s}' {why}"),
        hint: FORMS.into(),
    };
    let (name, index) = match s.split_once('[') {
        Some((n, rest)) => {
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| bad("has an unclosed '['"))?;
            let i = inner
                .trim()
                .parse::<usize>()
                .map_err(|_| bad("has an index that is not a non-negative integer"))?;
            (n, Some(i))
        }
        None => (s, None),
    };
    let (block, port) = name
        .split_once('.')
        .ok_or_else(|| bad("is not of the form block.port"))?;
    let valid = |x: &str, slash: bool| {
        !x.is_empty()
            && x.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || (slash && c == '/'))
    };
    // Block names may have '/' (a Urdf block's `robot/hip_joint`); ports may not.
    if !valid(block, true) || !valid(port, false) {
        return Err(bad(
            "is not of the form block.port (names are letters, digits, '_', '-' and, in block names, '/')",
        ));
    }
    Ok(PortRef {
        block: block.to_string(),
        port: port.to_string(),
        index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_forms() {
        let c = parse_connection("world.W -- joint.B", None).unwrap();
        assert_eq!(c.kind, ConnectionKind::Physical);
        assert_eq!(
            c.from,
            PortRef {
                block: "world".into(),
                port: "W".into(),
                index: None
            }
        );
        let c = parse_connection(" sine.out->scope.in1 ", None).unwrap();
        assert_eq!(c.kind, ConnectionKind::Signal);
        assert_eq!(c.to.port, "in1");
        let c = parse_connection("j.p[2] -> s.in1", None).unwrap();
        assert_eq!(c.from.index, Some(2));
        let c = parse_connection("robot/hip_joint.q -> s.in1", None).unwrap();
        assert_eq!(c.from.block, "robot/hip_joint");
        assert!(parse_connection("a.b/c -> s.in1", None).is_err());
    }

    #[test]
    fn rejects_malformed_strings_with_a_hint() {
        for bad in [
            "a.b => c.d",
            "a -> c.d",
            "a.b[x] -> c.d",
            "a.b -> c.d[1]",
            "a.b[1] -- c.d",
            "a.b <- c.d",
        ] {
            let e = parse_connection(bad, None).unwrap_err();
            assert!(!e.hint.is_empty(), "{bad}: {e:?}");
        }
    }
}
