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

impl Connection {
    /// The connection as `connect` writes it (`a.F -- b.B`, `a.y[2] -> b.u`): what
    /// `parse_connection` reads back as this connection. Built in a string of its size (an
    /// expansion writing its connections into the document writes one per connection made).
    pub fn text(&self) -> String {
        let arrow = match self.kind {
            ConnectionKind::Signal => " -> ",
            ConnectionKind::Physical => " -- ",
        };
        let (from, to) = (&self.from, &self.to);
        let indexed = from.index.is_some() || to.index.is_some();
        let mut s = String::with_capacity(
            from.block.len() + from.port.len() + to.block.len() + to.port.len() + 6,
        );
        if indexed {
            use std::fmt::Write;
            write!(s, "{from}{arrow}{to}").expect("writing to a String cannot fail");
            return s;
        }
        for part in [
            &from.block,
            ".",
            &from.port,
            arrow,
            &to.block,
            ".",
            &to.port,
        ] {
            s.push_str(part);
        }
        s
    }
}

impl std::fmt::Display for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
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
    let (kind, left, right) = if let Some((l, r)) = split_once_at(text, b"->") {
        (ConnectionKind::Signal, l, r)
    } else if let Some((l, r)) = split_once_at(text, b"--") {
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

/// `text.split_once(arrow)` for a two-byte ASCII arrow, by a scan of the bytes: the same split
/// (an ASCII byte is never part of a longer UTF-8 character), without the substring searcher's
/// set-up, which was most of the cost of a short connection's parse (a 20,000-joint URDF chain
/// has 120,000 connections, each parsed twice while the model is read).
fn split_once_at<'a>(text: &'a str, arrow: &[u8; 2]) -> Option<(&'a str, &'a str)> {
    let at = text.as_bytes().windows(2).position(|w| w == arrow)?;
    Some((&text[..at], &text[at + 2..]))
}

/// A signal's name, `block.port` or `block.port[i]` (the block's name may be `leg1/knee` or
/// `dom[3]`), as `[output] log` writes it; `None` when it is not one.
pub(crate) fn parse_signal_name(s: &str) -> Option<PortRef> {
    parse_port_ref(s, s).ok()
}

fn parse_port_ref(s: &str, whole: &str) -> Result<PortRef, ConnectionSyntaxError> {
    let bad = |why: &str| ConnectionSyntaxError {
        message: format!("connection \"{whole}\": '{s}' {why}"),
        hint: FORMS.into(),
    };
    // The block's name ends at the first '.' outside brackets: an array element's index
    // (`dom[i+1].G`) may hold any expression.
    let mut depth = 0usize;
    let mut dot = None;
    for (k, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| bad("has a ']' without '['"))?
            }
            '.' if depth == 0 => {
                dot = Some(k);
                break;
            }
            _ => {}
        }
    }
    let dot = dot.ok_or_else(|| bad("is not of the form block.port"))?;
    let (block, rest) = (&s[..dot], &s[dot + 1..]);
    let (port, index) = match rest.split_once('[') {
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
        None => (rest, None),
    };
    let plain = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // Block names may have '/' (a subsystem's `leg1/knee`, a Urdf block's `robot/hip_joint`) and
    // array indices (`dom[3]`, `dom[i]` before arrays are expanded); ports have neither.
    let valid_block = !block.is_empty()
        && block.split('/').all(|part| {
            let name = part.split('[').next().unwrap_or_default();
            !name.is_empty() && name.chars().all(plain) && balanced_indices(&part[name.len()..])
        });
    let valid_port = !port.is_empty() && port.chars().all(plain);
    if !valid_block || !valid_port {
        return Err(bad(
            "is not of the form block.port (names are letters, digits, '_', '-' and, in block names, '/' and array indices [k])",
        ));
    }
    Ok(PortRef {
        block: block.to_string(),
        port: port.to_string(),
        index,
    })
}

/// Whether `s` is a sequence of `[...]` groups (nothing between or after them), none empty.
fn balanced_indices(s: &str) -> bool {
    let mut rest = s;
    while !rest.is_empty() {
        let Some(inner) = rest.strip_prefix('[') else {
            return false;
        };
        let Some(close) = inner.find(']') else {
            return false;
        };
        if inner[..close].trim().is_empty() || inner[..close].contains('[') {
            return false;
        }
        rest = &inner[close + 1..];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arrow_split_is_str_split_once() {
        for text in [
            "a.b -> c.d",
            "a-b.c--d.e",
            "x->y->z",
            "é.p -- ü.q",
            "--",
            "->",
            "",
            "a.b - > c",
        ] {
            for arrow in ["->", "--"] {
                let bytes: &[u8; 2] = arrow.as_bytes().try_into().unwrap();
                assert_eq!(
                    split_once_at(text, bytes),
                    text.split_once(arrow),
                    "{text:?} at {arrow:?}"
                );
            }
        }
    }

    #[test]
    fn parses_the_three_forms() {
        let c = parse_connection("world.W -- joint.B", crate::model::Span::NONE).unwrap();
        assert_eq!(c.kind, ConnectionKind::Physical);
        assert_eq!(
            c.from,
            PortRef {
                block: "world".into(),
                port: "W".into(),
                index: None
            }
        );
        let c = parse_connection(" sine.out->scope.in1 ", crate::model::Span::NONE).unwrap();
        assert_eq!(c.kind, ConnectionKind::Signal);
        assert_eq!(c.to.port, "in1");
        let c = parse_connection("j.p[2] -> s.in1", crate::model::Span::NONE).unwrap();
        assert_eq!(c.from.index, Some(2));
        let c = parse_connection("robot/hip_joint.q -> s.in1", crate::model::Span::NONE).unwrap();
        assert_eq!(c.from.block, "robot/hip_joint");
        assert!(parse_connection("a.b/c -> s.in1", crate::model::Span::NONE).is_err());
        let c = parse_connection("dom[i+1].G -- leg[2]/hip.F", crate::model::Span::NONE).unwrap();
        assert_eq!(c.from.block, "dom[i+1]");
        assert_eq!(
            (c.to.block.as_str(), c.to.port.as_str()),
            ("leg[2]/hip", "F")
        );
        let c = parse_connection("dom[3].p[2] -> s.in1", crate::model::Span::NONE).unwrap();
        assert_eq!((c.from.block.as_str(), c.from.index), ("dom[3]", Some(2)));
        for bad in [
            "dom[].G -> s.in1",
            "dom[1]x.G -> s.in1",
            "dom]1[.G -> s.in1",
        ] {
            assert!(
                parse_connection(bad, crate::model::Span::NONE).is_err(),
                "{bad}"
            );
        }
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
            let e = parse_connection(bad, crate::model::Span::NONE).unwrap_err();
            assert!(!e.hint.is_empty(), "{bad}: {e:?}");
        }
    }
}
