//! Model variables: the top-level `[variables]` table, and expressions (`"= 2 * m"`) in any
//! numeric parameter or array element, evaluated when the model is read.
//!
//! A variable is a number (`mass = 0.2`), an array of numbers (`size = [0.1, 0.05, 0.2]`,
//! whose elements may be expressions) or an expression, a string that starts with `=`, in the Fcn
//! block's language (arithmetic, its functions and constants; no `u` and no `t`), which may use
//! the variables above it: `x` for a number, `x[i]` for an element of an array. An expression
//! that is one array variable's name (`"= dims"`) is that whole array. Elsewhere in the model
//! (`[model]`, `[solver]`, `[output]`, every block's parameters) each such string is replaced by
//! its value, and the rest of the reader sees numbers where they were written.
//!
//! `--set NAME=VALUE` with a bare name sets a variable before this runs, so every parameter that
//! depends on it follows (a sweep's `--vary NAME=...` too).

use super::diagnostic::{closest, Diagnostic};
use super::source::{SourceFile, Span};
use super::value::{Table, Value, ValueKind};
use crate::expr::lex::{tokens, Tok};
use crate::expr::parse::{parse, ParseError, Scope, BUILT_IN_CONSTANTS};

/// The top-level key of the variables table.
pub const VARIABLES: &str = "variables";

/// The index variable of an array's table (`count = N`): 0, 1, …, N − 1.
pub(crate) const INDEX: &str = "i";

/// The variables of a file: its `[variables]` table evaluated (none when it has none).
pub(crate) fn evaluate_file(source: &SourceFile, root: &Table) -> Result<Variables, Diagnostic> {
    match root.get(VARIABLES) {
        Some(entry) => evaluate_variables(source, &entry.value),
        None => Ok(Variables::default()),
    }
}

/// Replaces each expression under `value` by its value with the variables `vars`.
pub(crate) fn substitute_with(
    source: &SourceFile,
    vars: &Variables,
    value: &mut Value,
) -> Result<(), Diagnostic> {
    if contains_expression(value) {
        substitute(source, vars, value)?;
    }
    Ok(())
}

/// The number the expression `text` (no leading `=`) has with `vars`, for an array index
/// written in a connection at `span`.
pub(crate) fn number(
    source: &SourceFile,
    vars: &Variables,
    text: &str,
    span: &Span,
) -> Result<f64, Diagnostic> {
    let value = Value {
        kind: ValueKind::String(format!("={text}")),
        span: span.clone(),
    };
    match evaluate(source, vars, &value, text, &[])? {
        Val::Number(x) => Ok(x),
        Val::Array(_) => Err(Diagnostic::at(
            source,
            span,
            format!("the index '{text}' is an array, not a number"),
        )),
    }
}

/// Whether the expression `text` names `name`.
pub(crate) fn names(text: &str, name: &str) -> bool {
    tokens(text)
        .unwrap_or_default()
        .iter()
        .any(|(tok, _)| matches!(tok, Tok::Name(n) | Tok::Element(n, _) if n == name))
}

/// The sections whose strings starting with `=` are expressions.
const SECTIONS: [&str; 4] = ["model", "solver", "output", "blocks"];

/// A variable's value.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Number(f64),
    Array(Vec<f64>),
}

/// The variables evaluated so far, in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Variables {
    numbers: Vec<(String, f64)>,
    arrays: Vec<(String, Vec<f64>)>,
}

impl Variables {
    fn push(&mut self, name: &str, value: Val) {
        match value {
            Val::Number(x) => self.numbers.push((name.to_string(), x)),
            Val::Array(a) => self.arrays.push((name.to_string(), a)),
        }
    }

    /// These variables and the array index `i` = `index` (which hides a variable named `i`).
    pub(crate) fn with_index(&self, index: usize) -> Variables {
        let mut v = self.clone();
        v.numbers.retain(|(n, _)| n != INDEX);
        v.arrays.retain(|(n, _)| n != INDEX);
        v.numbers.push((INDEX.to_string(), index as f64));
        v
    }

    /// The value of the number variable `name`.
    pub(crate) fn number_of(&self, name: &str) -> Option<f64> {
        self.numbers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, x)| *x)
    }

    /// The value of the array variable `name`.
    pub(crate) fn array_of(&self, name: &str) -> Option<&[f64]> {
        self.arrays
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.as_slice())
    }

    /// The variables' names, numbers first, then arrays.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.numbers
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(self.arrays.iter().map(|(n, _)| n.as_str()))
    }
}

/// The text of an expression: a string value that starts with `=` (spaces before it allowed).
fn expression(value: &Value) -> Option<&str> {
    let s = value.as_str()?;
    s.trim_start().strip_prefix('=')
}

/// Evaluates `[variables]` and replaces every expression in the model's sections by its value.
/// Errors are located at the expression's characters.
pub fn resolve(source: &SourceFile, root: &mut Table) -> Result<(), Diagnostic> {
    let variables = match root.get(VARIABLES) {
        Some(entry) => evaluate_variables(source, &entry.value)?,
        None => Variables::default(),
    };
    let mut expressions = false;
    for entry in &root.entries {
        if SECTIONS.contains(&entry.key.as_str()) {
            expressions |= contains_expression(&entry.value);
        }
    }
    if !expressions {
        return Ok(());
    }
    for entry in root.entries.iter_mut() {
        if SECTIONS.contains(&entry.key.as_str()) {
            substitute(source, &variables, &mut entry.value)?;
        }
    }
    Ok(())
}

fn contains_expression(value: &Value) -> bool {
    match &value.kind {
        ValueKind::String(_) => expression(value).is_some(),
        ValueKind::Array(items) => items.iter().any(contains_expression),
        ValueKind::Table(t) => t.entries.iter().any(|e| contains_expression(&e.value)),
        _ => false,
    }
}

/// Replaces each expression under `value` by its number (or array).
fn substitute(source: &SourceFile, vars: &Variables, value: &mut Value) -> Result<(), Diagnostic> {
    match &mut value.kind {
        ValueKind::String(_) => {
            if let Some(text) = expression(value) {
                let kind = match evaluate(source, vars, value, text, &[])? {
                    Val::Number(x) => ValueKind::Float(x),
                    Val::Array(a) => ValueKind::Array(
                        a.into_iter()
                            .map(|x| Value {
                                kind: ValueKind::Float(x),
                                span: value.span.clone(),
                            })
                            .collect(),
                    ),
                };
                value.kind = kind;
            }
        }
        ValueKind::Array(items) => {
            for item in items {
                substitute(source, vars, item)?;
            }
        }
        ValueKind::Table(t) => {
            for e in &mut t.entries {
                substitute(source, vars, &mut e.value)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The variables of the `[variables]` table, in order.
fn evaluate_variables(source: &SourceFile, table: &Value) -> Result<Variables, Diagnostic> {
    let Some(t) = table.as_table() else {
        return Err(
            Diagnostic::at(source, &table.span, "'variables' must be a table")
                .hint("write [variables] with one name = value per line, e.g. mass = 0.2"),
        );
    };
    let names: Vec<&str> = t.keys().collect();
    let graph = References {
        names: &names,
        uses: t
            .entries
            .iter()
            .map(|e| referenced_names(&e.value))
            .collect(),
    };
    let mut vars = Variables::default();
    for (k, entry) in t.entries.iter().enumerate() {
        check_name(source, entry)?;
        let later = Later {
            names: &names[k..],
            graph: &graph,
            current: k,
        };
        let value = variable_value(source, &vars, &entry.value, &later)?;
        vars.push(&entry.key, value);
    }
    Ok(vars)
}

/// A variable's name must be one an expression can use: an identifier that is not a built-in
/// constant, a function, a named operator, nor the Fcn block's `u` or `t`.
fn check_name(source: &SourceFile, entry: &super::value::Entry) -> Result<(), Diagnostic> {
    use crate::expr::ast::{FUNCTIONS, NAMED_OPERATORS};
    let name = entry.key.as_str();
    let identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    let taken = BUILT_IN_CONSTANTS.iter().any(|(c, _)| *c == name)
        || FUNCTIONS.iter().any(|(f, _)| *f == name)
        || NAMED_OPERATORS.iter().any(|(o, _)| *o == name)
        || matches!(name, "u" | "t");
    let why = if !identifier {
        "is not a name an expression can use (letters, digits and '_', not starting with a digit)"
    } else if taken {
        "is the name of a built-in constant, a function, an operator, or the Fcn block's input or time"
    } else {
        return Ok(());
    };
    Err(
        Diagnostic::at(source, &entry.key_span, format!("variable '{name}' {why}"))
            .hint("choose another name, e.g. mass_1 or length_arm"),
    )
}

/// Which variables each variable's expressions name (by index in the table), found once.
struct References<'a> {
    names: &'a [&'a str],
    uses: Vec<Vec<String>>,
}

impl References<'_> {
    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| *n == name)
    }

    /// A path of references `from → … → to` (indices), if there is one: a depth-first search
    /// that visits each variable once, so the work is linear in the references.
    fn path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut visited = vec![false; self.names.len()];
        let mut stack = vec![(from, 0usize)];
        visited[from] = true;
        while let Some(&mut (at, ref mut next)) = stack.last_mut() {
            let Some(used) = self.uses[at].get(*next) else {
                stack.pop();
                continue;
            };
            *next += 1;
            let Some(u) = self.index(used) else {
                continue;
            };
            if u == to {
                let mut path: Vec<usize> = stack.iter().map(|(v, _)| *v).collect();
                path.push(to);
                return Some(path);
            }
            if !visited[u] {
                visited[u] = true;
                stack.push((u, 0));
            }
        }
        None
    }

    fn chain(&self, path: &[usize]) -> String {
        let names: Vec<&str> = path.iter().map(|&i| self.names[i]).collect();
        names.join(" → ")
    }
}

/// The variable being evaluated and those at and below it, to tell a forward reference from a
/// cycle.
struct Later<'a> {
    /// The current variable's name, then those below it.
    names: &'a [&'a str],
    graph: &'a References<'a>,
    current: usize,
}

/// The names an expression (or an array of them) uses, by its tokens.
fn referenced_names(value: &Value) -> Vec<String> {
    let texts: Vec<&str> = match &value.kind {
        ValueKind::Array(items) => items.iter().filter_map(expression).collect(),
        _ => expression(value).into_iter().collect(),
    };
    let mut out = Vec::new();
    for text in texts {
        for (tok, _) in tokens(text).unwrap_or_default() {
            if let Tok::Name(n) | Tok::Element(n, _) = tok {
                out.push(n);
            }
        }
    }
    out
}

fn variable_value(
    source: &SourceFile,
    vars: &Variables,
    value: &Value,
    later: &Later,
) -> Result<Val, Diagnostic> {
    if let Some(x) = value.as_f64() {
        return finite(source, value, x).map(Val::Number);
    }
    if let Some(text) = expression(value) {
        return evaluate(source, vars, value, text, later.names).map_err(|d| explain(d, later));
    }
    if let Some(items) = value.as_array() {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let x = match (item.as_f64(), expression(item)) {
                (Some(x), _) => finite(source, item, x)?,
                (None, Some(text)) => {
                    match evaluate(source, vars, item, text, later.names)
                        .map_err(|d| explain(d, later))?
                    {
                        Val::Number(x) => x,
                        Val::Array(_) => return Err(not_a_number(source, item)),
                    }
                }
                (None, None) => return Err(not_a_number(source, item)),
            };
            out.push(x);
        }
        return Ok(Val::Array(out));
    }
    Err(Diagnostic::at(
        source,
        &value.span,
        "a variable is a number, an array of numbers, or an expression \"= ...\"",
    )
    .hint("e.g. mass = 0.2, size = [0.1, 0.05, 0.2], weight = \"= mass * 9.81\""))
}

/// A number written in `[variables]` must be finite.
fn finite(source: &SourceFile, value: &Value, x: f64) -> Result<f64, Diagnostic> {
    if x.is_finite() {
        return Ok(x);
    }
    Err(Diagnostic::at(
        source,
        &value.span,
        format!("a variable is {x}, not a finite number"),
    )
    .hint("write a finite number, e.g. 0.2"))
}

fn not_a_number(source: &SourceFile, item: &Value) -> Diagnostic {
    Diagnostic::at(
        source,
        &item.span,
        "an array variable's elements are numbers or expressions of one number",
    )
    .hint("write e.g. size = [0.1, \"= 2 * w\", 0.2]")
}

/// A reference to the variable itself or to one below names the cycle when there is one.
fn explain(mut d: Diagnostic, later: &Later) -> Diagnostic {
    let Some(name) = d.message.strip_prefix(FORWARD).map(str::to_string) else {
        return d;
    };
    let graph = later.graph;
    let current = later.current;
    let current_name = graph.names[current];
    let Some(target) = graph.index(&name) else {
        return d;
    };
    let cycle = if target == current {
        Some(vec![current, current])
    } else {
        graph.path(target, current).map(|mut p| {
            p.insert(0, current);
            p
        })
    };
    if let Some(path) = cycle {
        d.message = format!("a cycle between variables: {}", graph.chain(&path));
        return d
            .hint("a variable may use only the variables above it; write one of them as a number");
    }
    if let Some(path) = graph.path(target, target) {
        d.message = format!(
            "'{name}' is defined below '{current_name}', and the variables below form a cycle: {}",
            graph.chain(&path)
        );
        return d
            .hint("a variable may use only the variables above it; write one of them as a number");
    }
    d.message = format!(
        "'{name}' is defined below '{current_name}': a variable may use only the variables above it"
    );
    d.hint(format!("move '{name}' above '{current_name}'"))
}

/// The start of the message of a reference to a later variable (completed by [`explain`]).
const FORWARD: &str = "forward reference to ";

/// The value of the expression `text` written in `value` (a string that starts with `=`).
fn evaluate(
    source: &SourceFile,
    vars: &Variables,
    value: &Value,
    text: &str,
    later: &[&str],
) -> Result<Val, Diagnostic> {
    let body = text.trim();
    if let Some((_, a)) = vars.arrays.iter().find(|(n, _)| n == body) {
        return Ok(Val::Array(a.clone()));
    }
    let numbers: Vec<(&str, f64)> = vars.numbers.iter().map(|(n, x)| (n.as_str(), *x)).collect();
    let arrays: Vec<(&str, &[f64])> = vars
        .arrays
        .iter()
        .map(|(n, a)| (n.as_str(), a.as_slice()))
        .collect();
    let scope = Scope {
        inputs: None,
        constants: &numbers,
        arrays: &arrays,
    };
    let at = |char_index: usize| located(source, value, text, char_index);
    match parse(text, &scope) {
        Ok(tree) => match tree.constant() {
            Some(x) if x.is_finite() => Ok(Val::Number(x)),
            Some(x) => Err(Diagnostic::at(
                source,
                &value.span,
                format!("the expression \"={text}\" is {x}, not a finite number"),
            )
            .hint("check for a division by zero or a function outside its domain")),
            // Not reachable: the scope has no input and no time.
            None => Err(Diagnostic::at(source, &value.span, "an expression of a model cannot read u or t")),
        },
        Err(ParseError::Syntax(e)) => Err(Diagnostic::at(
            source,
            &at(e.at),
            format!("cannot read the expression \"={text}\": {}", e.msg),
        )
        .hint("write e.g. \"= 2 * mass\" or \"= size[2] / 2\" (the Fcn block's operators and functions)")),
        Err(ParseError::Unknown(name, pos)) if later.contains(&name.as_str()) => {
            Err(Diagnostic::at(source, &at(pos), format!("{FORWARD}{name}")))
        }
        Err(ParseError::Unknown(name, pos)) => {
            let mut d = Diagnostic::at(
                source,
                &at(pos),
                format!("unknown name '{name}' in the expression \"={text}\""),
            );
            if matches!(name.as_str(), "u" | "t") {
                return Err(d.hint("a string that starts with '=' is a model expression, evaluated once when the model is read, with no input u or time t; an Fcn block's expression does not start with '='"));
            }
            d = match closest(&name, vars.names().chain(later.iter().copied())) {
                Some(near) => d.hint(format!("did you mean '{near}'?")),
                None => d.hint(format!("define it under [variables], e.g. {name} = 1.0 (a variable may use only those above it)")),
            };
            Err(d)
        }
        Err(ParseError::VectorU) => Err(Diagnostic::at(source, &value.span, "an expression of a model cannot read u")),
    }
}

/// The span of character `char_index` of the expression `text` (what follows the `=`) inside the
/// string `value`, when the file holds the string as written (no escapes); the string's span
/// otherwise.
fn located(source: &SourceFile, value: &Value, text: &str, char_index: usize) -> Span {
    located_range(source, value, text, char_index).into()
}

/// [`located`]'s range (`None` for a value without a place).
fn located_range(
    source: &SourceFile,
    value: &Value,
    text: &str,
    char_index: usize,
) -> Option<std::ops::Range<usize>> {
    let span = value.span.range()?;
    let written = source.slice(&span)?;
    let inner = written.get(1..written.len().saturating_sub(1))?;
    let full = value.as_str()?;
    if inner != full {
        return Some(span);
    }
    let before = full.len() - text.len();
    let offset: usize = text.chars().take(char_index).map(char::len_utf8).sum();
    let start = span.start + 1 + before + offset;
    Some(start..start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Document;

    fn resolved(text: &str) -> Result<Table, Diagnostic> {
        let mut d = Document::parse("m.toml", text)?;
        resolve(&d.source.clone(), &mut d.root)?;
        Ok(d.root)
    }

    fn number(root: &Table, path: &[&str]) -> f64 {
        let mut t = root;
        for key in &path[..path.len() - 1] {
            t = t.get(key).unwrap().value.as_table().unwrap();
        }
        t.get(path[path.len() - 1]).unwrap().value.as_f64().unwrap()
    }

    #[test]
    fn expressions_use_earlier_variables_and_array_elements() {
        let root = resolved(
            r#"
[variables]
m = 0.2
size = [0.1, "= 2 * 0.025", 0.2]
weight = "= m * 9.81"
[blocks.b]
mass = "= 2 * m"
position = [0.0, 0.0, "= size[2] / 2"]
dims = "= size"
g = "=weight/m"
"#,
        )
        .unwrap();
        assert_eq!(number(&root, &["blocks", "b", "mass"]), 2.0 * 0.2);
        let blocks = root.get("blocks").unwrap().value.as_table().unwrap();
        let b = blocks.get("b").unwrap().value.as_table().unwrap();
        let position: Vec<f64> = b
            .get("position")
            .unwrap()
            .value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(position, [0.0, 0.0, 0.2 / 2.0]);
        let dims: Vec<f64> = b
            .get("dims")
            .unwrap()
            .value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(dims, [0.1, 2.0 * 0.025, 0.2]);
        assert_eq!(number(&root, &["blocks", "b", "g"]), 0.2 * 9.81 / 0.2);
    }

    #[test]
    fn a_forward_reference_in_a_dense_graph_is_explained_in_linear_time() {
        // a uses v0; v_i uses v_{i+1} and v_{i+2}: every simple path from v0 is a different
        // subset, about 1.6^N of them, which a search without a visited set walks one by one.
        let n = 60;
        let mut text = String::from("[variables]\na = \"= v0\"\n");
        for i in 0..n {
            text += &format!("v{i} = \"= v{} + v{}\"\n", i + 1, i + 2);
        }
        text += &format!("v{n} = 1.0\nv{} = 1.0\n", n + 1);
        let e = resolved(&text).unwrap_err();
        assert!(e.message.contains("'v0' is defined below 'a'"), "{e:?}");
    }

    #[test]
    fn errors_are_located_at_the_expression_characters() {
        let text = "[variables]\nmass = 1.0\n[blocks.b]\nk = \"= 2 * mas\"\n";
        let e = resolved(text).unwrap_err();
        assert!(e.message.contains("unknown name 'mas'"), "{e:?}");
        assert_eq!(e.line_column, Some((4, 12)), "{e:?}");
        assert!(
            e.hint.as_deref().unwrap().contains("did you mean 'mass'"),
            "{e:?}"
        );

        let cycle = "[variables]\na = \"= b + 1\"\nb = \"= 2 * a\"\n";
        let e = resolved(cycle).unwrap_err();
        assert!(
            e.message.contains("a cycle between variables: a → b → a"),
            "{e:?}"
        );
        assert_eq!(e.line_column, Some((2, 8)), "{e:?}");

        let forward = "[variables]\na = \"= b + 1\"\nb = 2.0\n";
        let e = resolved(forward).unwrap_err();
        assert!(e.message.contains("'b' is defined below 'a'"), "{e:?}");

        let nan = "[variables]\na = 0.0\n[blocks.b]\nk = \"= 1 / a\"\n";
        let e = resolved(nan).unwrap_err();
        assert!(e.message.contains("not a finite number"), "{e:?}");
        assert_eq!(e.line_column.map(|(l, _)| l), Some(4));

        let itself = "[variables]\na = \"= a + 1\"\n";
        let e = resolved(itself).unwrap_err();
        assert!(
            e.message.contains("a cycle between variables: a → a"),
            "{e:?}"
        );

        let below = "[variables]\na = \"= b\"\nb = \"= c\"\nc = \"= b\"\n";
        let e = resolved(below).unwrap_err();
        assert!(
            e.message
                .contains("the variables below form a cycle: b → c → b"),
            "{e:?}"
        );

        let infinite = "[variables]\na = inf\n";
        assert!(resolved(infinite)
            .unwrap_err()
            .message
            .contains("not a finite number"));
        for bad in ["sin = 2.0", "max = 1.0", "PI = 3.0", "\"a-b\" = 1.0"] {
            let e = resolved(&format!("[variables]\n{bad}\n")).unwrap_err();
            assert!(e.message.starts_with("variable '"), "{bad}: {e:?}");
            assert_eq!(e.line_column.map(|(l, _)| l), Some(2), "{bad}");
        }

        let syntax = "[blocks.b]\nk = \"= 2 *\"\n";
        assert!(resolved(syntax)
            .unwrap_err()
            .message
            .contains("cannot read the expression"));
    }
}
