//! A small JSON writer for the viewer's data: objects, arrays, strings and numbers written
//! straight into a `String`, with no intermediate tree.
//!
//! Numbers are written as the shortest decimal that reads back as the same `f32` (7 significant
//! digits: ample for drawing, and half the size of `f64`'s 17): plain decimals for magnitudes in
//! [1e-4, 1e7), exponent form (`1.5e-7`) outside it. A non-finite number (NaN, ±∞) is written as
//! `null`, which JSON can hold and the page skips. Strings escape `"`, `\`, control characters
//! and `<` (as `\u003c`), so that no string can close the `<script>` element the JSON sits in.

use std::fmt::Write;

/// Appends JSON text to a `String`. The commas are placed for the caller: each value, key or
/// container opened writes one when the innermost open array or object already holds an
/// element (and none right after a key).
#[derive(Debug, Default)]
pub struct JsonWriter {
    out: String,
    /// One flag per open array or object: true once it holds an element.
    filled: Vec<bool>,
    /// A key was just written: its value takes no comma.
    after_key: bool,
}

impl JsonWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// The text written so far.
    pub fn finish(self) -> String {
        self.out
    }

    /// A comma when the innermost open container already holds an element.
    fn sep(&mut self) {
        if std::mem::take(&mut self.after_key) {
            return;
        }
        if let Some(filled) = self.filled.last_mut() {
            if *filled {
                self.out.push(',');
            }
            *filled = true;
        }
    }

    /// Opens an object (as an array element or top-level value).
    pub fn begin_object(&mut self) {
        self.sep();
        self.out.push('{');
        self.filled.push(false);
    }

    /// Opens an array (as an array element or top-level value).
    pub fn begin_array(&mut self) {
        self.sep();
        self.out.push('[');
        self.filled.push(false);
    }

    /// Closes the innermost object.
    pub fn end_object(&mut self) {
        self.filled.pop();
        self.out.push('}');
    }

    /// Closes the innermost array.
    pub fn end_array(&mut self) {
        self.filled.pop();
        self.out.push(']');
    }

    /// Writes `"key":` in an object; the value follows.
    pub fn key(&mut self, key: &str) {
        self.sep();
        write_string(&mut self.out, key);
        self.out.push(':');
        self.after_key = true;
    }

    /// A number (`null` when not finite).
    pub fn number(&mut self, v: f64) {
        self.sep();
        write_number(&mut self.out, v);
    }

    /// A whole number.
    pub fn integer(&mut self, v: u64) {
        self.sep();
        let _ = write!(self.out, "{v}");
    }

    /// A string.
    pub fn string(&mut self, s: &str) {
        self.sep();
        write_string(&mut self.out, s);
    }

    /// `true` or `false`.
    pub fn boolean(&mut self, b: bool) {
        self.sep();
        self.out.push_str(if b { "true" } else { "false" });
    }

    /// An array of numbers.
    pub fn numbers(&mut self, values: impl IntoIterator<Item = f64>) {
        self.begin_array();
        for v in values {
            self.number(v);
        }
        self.end_array();
    }

    /// `"key": number`.
    pub fn key_number(&mut self, key: &str, v: f64) {
        self.key(key);
        self.number(v);
    }

    /// `"key": "string"`.
    pub fn key_string(&mut self, key: &str, s: &str) {
        self.key(key);
        self.string(s);
    }
}

/// Writes `v` as described in the module documentation.
pub fn write_number(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str("null");
        return;
    }
    let f = v as f32;
    let a = f.abs();
    if !f.is_finite() {
        // Finite as f64, beyond f32's range: keep f64's digits.
        let _ = write!(out, "{v:e}");
    } else if a == 0.0 {
        out.push('0');
    } else if (1e-4..1e7).contains(&a) {
        let _ = write!(out, "{f}");
    } else {
        let _ = write!(out, "{f:e}");
    }
}

/// Writes `s` as a JSON string (see the module documentation for the escapes).
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(v: f64) -> String {
        let mut s = String::new();
        write_number(&mut s, v);
        s
    }

    #[test]
    fn numbers_are_short_and_non_finite_ones_are_null() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(-2.5), "-2.5");
        assert_eq!(number(1.0 / 3.0), "0.33333334");
        assert_eq!(number(1.5e-7), "1.5e-7");
        assert_eq!(number(2.0e9), "2e9");
        assert_eq!(number(1e300), "1e300");
        assert_eq!(number(f64::NAN), "null");
        assert_eq!(number(f64::NEG_INFINITY), "null");
    }

    #[test]
    fn strings_cannot_close_the_script_element() {
        let mut s = String::new();
        write_string(&mut s, "a\"b\\c\n</script>\u{1}");
        assert_eq!(s, r#""a\"b\\c\n\u003c/script>\u0001""#);
    }

    #[test]
    fn commas_go_between_elements_and_after_keys_none() {
        let mut w = JsonWriter::new();
        w.begin_object();
        w.key_number("a", 1.0);
        w.key("b");
        w.numbers([1.0, f64::NAN]);
        w.key("c");
        w.begin_array();
        w.begin_object();
        w.key_string("d", "e");
        w.end_object();
        w.boolean(true);
        w.integer(7);
        w.end_array();
        w.end_object();
        assert_eq!(w.finish(), r#"{"a":1,"b":[1,null],"c":[{"d":"e"},true,7]}"#);
    }
}
