//! No cycles between modules (issue 29, part 5): the dependency graph between the top-level
//! modules of `src/` (`block`, `model`, …, and `lib.rs` itself) and, inside each folder, between
//! its files and sub-folders (`diagram/build` → `diagram/assemble`, …, and the folder's own
//! `mod.rs`) has no cycle beyond the explicit [`ALLOWED`] list.
//!
//! How the graph is read (a lexical scan, not a compiler's name resolution):
//! - comments, string and character literals are removed first; code under `#[cfg(test)]` is
//!   left out (an inline `mod … { … }` block, a `mod name;` file, a `#[path = …]` file, or the
//!   single item after the attribute): a test may use anything;
//! - a dependency is a `use` tree (`use crate::a::{b, c::d}`, `super::`, `self::`, or a first
//!   segment naming a child module) or a path written in code that starts with `crate::`,
//!   `super::`, `self::` or the name of a child module of the file's module;
//! - a path is cut at the deepest module that exists as a file or folder; the next segment is
//!   an item of that module, unless that module re-exports it with `pub use`/`pub(crate) use`,
//!   then the re-export is followed (up to 8 hops). A folder's `pub use` of its own descendants
//!   is a re-export, not a dependency of its `mod.rs`, unless the file's own code names the item
//!   (outside `use` declarations, `x.name` and `mod name`): `sim/mod.rs` re-exports `Engine` and
//!   calls `Engine::with_parameters`, a use;
//! - a method is part of its type wherever its `impl` is written: a call of a method that another
//!   file's inherent impl of the same type defines (`self.m(…)` or `Self::m(…)` inside an impl of
//!   `T`, `T::m(…)` anywhere) is a use of that file. The type is known by name only, so both
//!   files must be in one folder (siblings, or a folder's `mod.rs` and its child): where a split
//!   impl lives. A call on another value (`x.m()`) is not read (its type is not known);
//! - an edge joins the two sides where their module paths part: `src/diagram/build.rs` using
//!   `crate::diagram::assemble::x` is `diagram/build → diagram/assemble`; using `crate::model::y`
//!   it is `diagram → model` at the top level; using an item of `diagram/mod.rs` it is
//!   `diagram/build → diagram/mod.rs`.
//!
//! Limits: a macro's path (`crate::param!`, `use crate::param;`) is not read (an exported macro
//! lives at the root, wherever it is written); a name brought in by a glob (`use crate::a::*`) and used unqualified counts as one
//! edge to `a` (the glob), which is right at the level of modules; a path through a local alias
//! of a module (`use crate::model as m; m::x`) counts only through its `use`; macros' expansions
//! and `#[path]` attributes outside tests are not read; an inline non-test `mod x { … }` is
//! counted as part of its file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Cycles that exist today and are known, each the set of nodes of one strongly connected
/// component (a found cycle must lie inside one of these sets). Each entry says why it stays.
const ALLOWED: &[(&[&str], &str)] = &[];

/// A source file: its path under `src/`, its module path, and the tokens of its code without
/// comments, literals and test code (each with its line).
struct SourceFile {
    rel: String,
    module: Vec<String>,
    toks: Vec<(Tok, usize)>,
}

/// One dependency edge, with the first place that makes it.
#[derive(Clone)]
struct Edge {
    from: String,
    to: String,
    at: String,
}

fn main_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `lib.rs` → `[]`, `a.rs` and `a/mod.rs` → `[a]`, `a/b.rs` → `[a, b]`.
fn module_of(rel: &str) -> Vec<String> {
    let mut segs: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib") {
        segs.pop();
    }
    segs
}

/// Blanks comments, string and character literals (keeping newlines).
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }))
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, 0);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if (rest[0] == b'r' || rest.starts_with(b"br"))
            && !(i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && {
                let k = if rest[0] == b'b' { 2 } else { 1 };
                let hashes = rest[k..].iter().take_while(|&&c| c == b'#').count();
                rest.get(k + hashes) == Some(&b'"')
            }
        {
            let k = if rest[0] == b'b' { 2 } else { 1 };
            let hashes = rest[k..].iter().take_while(|&&c| c == b'#').count();
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let start = k + hashes + 1;
            let end = rest[start..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(rest.len(), |p| start + p + close.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a): a literal closes
            // within a few bytes.
            let close = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&c| c == b'\'').map(|p| p + 2)
            } else {
                let ch = std::str::from_utf8(&rest[1..rest.len().min(6)])
                    .or_else(|e| std::str::from_utf8(&rest[1..1 + e.valid_up_to()]))
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                (rest.get(1 + ch) == Some(&b'\'')).then_some(1 + ch)
            };
            let end = close.map_or(1, |c| c + 1);
            blank(&mut out, &rest[..end]);
            i += end;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8 only around ASCII")
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Sep,
    Punct(char),
}

fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let mut out = Vec::new();
    let mut line = 1;
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            out.push((Tok::Ident(word.trim_start_matches("r#").to_string()), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// Removes test code: after `#[cfg(test)]`, an inline `mod x { … }` block or the next item up to
/// its `;` or its closing brace. Returns the kept tokens and the names of `mod x;` files left out.
fn without_tests(toks: Vec<(Tok, usize)>) -> (Vec<(Tok, usize)>, Vec<String>) {
    let mut kept = Vec::with_capacity(toks.len());
    let mut test_files = Vec::new();
    let mut i = 0;
    let is = |i: usize, t: &Tok| toks.get(i).is_some_and(|(x, _)| x == t);
    while i < toks.len() {
        let cfg_test = is(i, &Tok::Punct('#'))
            && is(i + 1, &Tok::Punct('['))
            && ident(toks.get(i + 2)) == Some("cfg")
            && is(i + 3, &Tok::Punct('('))
            && ident(toks.get(i + 4)) == Some("test")
            && is(i + 5, &Tok::Punct(')'))
            && is(i + 6, &Tok::Punct(']'));
        if !cfg_test {
            kept.push(toks[i].clone());
            i += 1;
            continue;
        }
        let mut j = i + 7;
        let mut path_attr = None;
        // Further attributes (`#[path = "x.rs"]`, `#[allow(…)]`).
        while is(j, &Tok::Punct('#')) {
            let close = (j..toks.len())
                .find(|&k| is(k, &Tok::Punct(']')))
                .unwrap_or(toks.len());
            if ident(toks.get(j + 2)) == Some("path") {
                path_attr = Some(());
            }
            j = close + 1;
        }
        // The item: up to a `;` at depth 0 or the brace that closes its first `{`.
        let mut depth = 0i32;
        let mut last_ident = None;
        while j < toks.len() {
            match &toks[j].0 {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    if path_attr.is_none() {
                        if let Some(name) = last_ident.take() {
                            test_files.push(name);
                        }
                    }
                    break;
                }
                Tok::Ident(s) if depth == 0 => last_ident = Some(s.clone()),
                _ => {}
            }
            j += 1;
        }
        i = j + 1;
    }
    (kept, test_files)
}

/// Expands a `use` tree starting at `toks[i]` (after `use`), into full segment lists, each with
/// the name it brings into scope (its alias after `as`, else its last segment; `*` for a glob).
fn use_tree(
    toks: &[(Tok, usize)],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    let mut path = prefix;
    let mut alias = None;
    loop {
        match toks.get(*i).map(|t| &t.0) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
                if ident(toks.get(*i)) == Some("as") {
                    alias = ident(toks.get(*i + 1)).map(String::from);
                    *i += 2;
                }
            }
            Some(Tok::Sep) => *i += 1,
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i).map(|t| &t.0) {
                        Some(Tok::Punct('}')) | None => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        _ => use_tree(toks, i, path.clone(), out),
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push((path, "*".to_string()));
                return;
            }
            _ => {
                // `self` inside braces names the prefix itself.
                if path.last().is_some_and(|s| s == "self") && path.len() > 1 {
                    path.pop();
                }
                let name = alias.unwrap_or_else(|| path.last().cloned().unwrap_or_default());
                out.push((path, name));
                return;
            }
        }
    }
}

/// One reference: the written path and its line; `reexport` for a `pub use`, with the name it
/// brings into scope (`name`; empty for a path written in code).
struct Reference {
    path: Vec<String>,
    line: usize,
    reexport: bool,
    name: String,
}

fn references(toks: &[(Tok, usize)], children: &BTreeSet<String>) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if ident(toks.get(i)) == Some("use") {
            let line = toks[i].1;
            let visibility = i > 0 && {
                let before = &toks[..i];
                ident(before.last()) == Some("pub")
                    || (matches!(before.last(), Some((Tok::Punct(')'), _)))
                        && before.len() >= 4
                        && ident(before.get(before.len() - 4)) == Some("pub"))
            };
            i += 1;
            let mut trees = Vec::new();
            use_tree(toks, &mut i, Vec::new(), &mut trees);
            for (path, name) in trees {
                out.push(Reference {
                    path,
                    line,
                    reexport: visibility,
                    name,
                });
            }
            continue;
        }
        let starts_path = matches!(ident(toks.get(i)), Some(s) if s == "crate" || s == "super" || s == "self" || children.contains(s))
            && matches!(toks.get(i + 1), Some((Tok::Sep, _)))
            && !matches!(
                i.checked_sub(1).and_then(|k| toks.get(k)),
                Some((Tok::Sep, _))
            );
        if starts_path {
            let (line, start) = (toks[i].1, i);
            let mut path = Vec::new();
            while let Some(s) = ident(toks.get(i)) {
                path.push(s.to_string());
                if matches!(toks.get(i + 1), Some((Tok::Sep, _))) {
                    i += 2;
                } else {
                    i += 1;
                    break;
                }
            }
            // `crate::param!` is a `#[macro_export]` macro: it lives at the crate's root
            // whichever file defines it, so its path says nothing about modules. A visibility
            // (`pub(in crate::a::b)`) names where an item may be used, not what it uses.
            let in_visibility = start >= 3
                && ident(toks.get(start - 1)) == Some("in")
                && matches!(toks.get(start - 2), Some((Tok::Punct('('), _)))
                && ident(toks.get(start - 3)) == Some("pub");
            if !in_visibility && !matches!(toks.get(i), Some((Tok::Punct('!'), _))) {
                out.push(Reference {
                    path,
                    line,
                    reexport: false,
                    name: String::new(),
                });
            }
            continue;
        }
        i += 1;
    }
    out
}

/// The written path made absolute (without `crate`), or `None` for an external crate's path.
fn absolute(
    path: &[String],
    module: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The module an absolute path lands in, following re-exports.
fn resolve(
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    reexports: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
    hops: usize,
) -> Vec<String> {
    let mut k = 0;
    while k < path.len() && modules.contains(&path[..=k].to_vec()) {
        k += 1;
    }
    let module = path[..k].to_vec();
    if k < path.len() && hops < 8 {
        if let Some(target) = reexports.get(&module).and_then(|m| m.get(&path[k])) {
            let mut next = target.clone();
            next.extend(path[k + 1..].iter().cloned());
            return resolve(&next, modules, reexports, hops + 1);
        }
    }
    module
}

fn read_sources() -> Vec<SourceFile> {
    let src = main_src();
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let mut files = Vec::new();
    let mut excluded: BTreeSet<String> = BTreeSet::new();
    for p in &paths {
        let rel = p
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "main.rs" {
            continue; // the binary: it uses the library as `blockdyn::`, from outside
        }
        let text = fs::read_to_string(p).unwrap();
        let (kept, test_mods) = without_tests(tokens(&strip(&text)));
        let module = module_of(&rel);
        for name in test_mods {
            let dir = module.join("/");
            let dir = if dir.is_empty() {
                String::new()
            } else {
                format!("{dir}/")
            };
            excluded.insert(format!("{dir}{name}.rs"));
            excluded.insert(format!("{dir}{name}/mod.rs"));
        }
        files.push(SourceFile {
            rel,
            module,
            toks: kept,
        });
    }
    // `#[path]` test files (`lcp_tests.rs`) sit beside their module: left out by name.
    files.retain(|f| !excluded.contains(&f.rel) && !f.rel.ends_with("_tests.rs"));
    files
}

/// The node a module stands for in the folder `folder`: its child there, or the folder's own
/// file.
fn node(folder: &[String], module: &[String], file_of: &BTreeMap<Vec<String>, String>) -> String {
    if module.len() > folder.len() {
        let mut child = folder.to_vec();
        child.push(module[folder.len()].clone());
        child.join("/")
    } else {
        file_of
            .get(folder)
            .cloned()
            .unwrap_or_else(|| format!("{}/mod.rs", folder.join("/")))
    }
}

/// The names a file's code mentions outside its `use` declarations, leaving out method calls and
/// field accesses (`x.name`) and module declarations (`mod name;`): the names of the items it
/// uses unqualified.
fn code_names(toks: &[(Tok, usize)]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < toks.len() {
        if ident(toks.get(i)) == Some("use") {
            while i < toks.len() && toks[i].0 != Tok::Punct(';') {
                i += 1;
            }
            continue;
        }
        // `x.name` is a method or a field; `mod name` declares a module, not an item.
        let after_dot = i > 0 && toks[i - 1].0 == Tok::Punct('.');
        let declared = i > 0 && ident(toks.get(i - 1)) == Some("mod");
        if let (Some(name), false) = (ident(toks.get(i)), after_dot || declared) {
            out.insert(name.to_string());
        }
        i += 1;
    }
    out
}

/// One `impl T { … }` or `impl Trait for T { … }` block of a file: the type's name (its path's
/// last segment), the methods and associated functions it defines, whether it is a trait's (its
/// methods are then the trait's, reached through the trait), and the range of its tokens.
struct InherentImpl {
    ty: String,
    methods: BTreeSet<String>,
    trait_impl: bool,
    body: std::ops::Range<usize>,
}

/// The impl blocks of a file (`impl<'a> T<'a> where … { … }`, `impl Trait for T { … }`; an
/// `impl Trait` in a type's place is not a block).
fn inherent_impls(toks: &[(Tok, usize)]) -> Vec<InherentImpl> {
    let punct = |k: usize, c: char| toks.get(k).is_some_and(|(t, _)| *t == Tok::Punct(c));
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let item_start = i == 0
            || [';', '}', '{', ']'].iter().any(|&c| punct(i - 1, c))
            || ident(toks.get(i - 1)) == Some("unsafe");
        if ident(toks.get(i)) != Some("impl") || !item_start {
            continue;
        }
        // The header: generics, the type, `for` (a trait impl), `where`, up to the `{`.
        let (mut j, mut angle, mut ty, mut for_trait) = (i + 1, 0i32, None, false);
        let mut in_where = false;
        while j < toks.len() {
            match &toks[j].0 {
                Tok::Punct('<') => angle += 1,
                Tok::Punct('>') if !punct(j - 1, '-') => angle -= 1,
                Tok::Punct('{') if angle == 0 => break,
                Tok::Ident(w) if angle == 0 && w == "where" => in_where = true,
                Tok::Ident(w) if angle == 0 && w == "for" => {
                    for_trait = true;
                    ty = None;
                }
                // The type's name: its path's last segment (`dyn Block + '_` is `Block`).
                Tok::Ident(t) if angle == 0 && !in_where && t.starts_with(char::is_uppercase) => {
                    ty = Some(t.clone())
                }
                _ => {}
            }
            j += 1;
        }
        let Some(ty) = ty else {
            continue;
        };
        let (start, mut depth, mut methods) = (j, 0i32, BTreeSet::new());
        while j < toks.len() {
            match &toks[j].0 {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Ident(f) if depth == 1 && f == "fn" => {
                    if let Some(name) = ident(toks.get(j + 1)) {
                        methods.insert(name.to_string());
                    }
                }
                _ => {}
            }
            j += 1;
        }
        out.push(InherentImpl {
            ty,
            methods,
            trait_impl: for_trait,
            body: start..j,
        });
    }
    out
}

/// The calls of methods that another file's inherent impl of the same type defines, as
/// (file, module defining the method, line): `self.m(…)` and `Self::m(…)` inside an impl of `T`
/// (inherent or a trait's), and `T::m(…)` anywhere. The type is known by its name only, so the two files must be in one
/// folder (siblings, or a folder's `mod.rs` and its child), where a split impl lives.
fn method_uses(files: &[SourceFile]) -> Vec<(usize, Vec<String>, usize)> {
    let impls: Vec<Vec<InherentImpl>> = files.iter().map(|f| inherent_impls(&f.toks)).collect();
    let parent = |m: &[String]| m[..m.len().saturating_sub(1)].to_vec();
    let related = |a: &[String], b: &[String]| {
        !a.is_empty()
            && !b.is_empty()
            && (parent(a) == parent(b) || parent(a) == b || a == parent(b))
    };
    // Where each (type, method) is defined: the files.
    let mut defined: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (c, list) in impls.iter().enumerate() {
        for imp in list.iter().filter(|i| !i.trait_impl) {
            for m in &imp.methods {
                defined.entry((&imp.ty, m)).or_default().push(c);
            }
        }
    }
    let mut out = Vec::new();
    let mut call = |f: usize, ty: &str, method: &str, line: usize| {
        for &c in defined.get(&(ty, method)).into_iter().flatten() {
            if c != f && related(&files[f].module, &files[c].module) {
                out.push((f, files[c].module.clone(), line));
            }
        }
    };
    for (f, file) in files.iter().enumerate() {
        let t = &file.toks;
        for imp in &impls[f] {
            for k in imp.body.clone() {
                let called = match (ident(t.get(k)), t.get(k + 1).map(|x| &x.0)) {
                    (Some("self"), Some(Tok::Punct('.'))) | (Some("Self"), Some(Tok::Sep)) => {
                        ident(t.get(k + 2))
                    }
                    _ => None,
                };
                let invoked =
                    matches!(t.get(k + 3).map(|x| &x.0), Some(Tok::Punct('(') | Tok::Sep));
                if let (Some(m), true) = (called, invoked) {
                    call(f, &imp.ty, m, t[k].1);
                }
            }
        }
        for k in 0..t.len().saturating_sub(3) {
            if let (Some(ty), Tok::Sep, Some(m)) =
                (ident(t.get(k)), &t[k + 1].0, ident(t.get(k + 2)))
            {
                if ty != "Self"
                    && matches!(t.get(k + 3).map(|x| &x.0), Some(Tok::Punct('(') | Tok::Sep))
                {
                    call(f, ty, m, t[k].1);
                }
            }
        }
    }
    out
}

fn edges() -> Vec<Edge> {
    edges_of(read_sources())
}

/// A source file read from text, as [`read_sources`] reads one (for the self-test).
fn source(rel: &str, code: &str) -> SourceFile {
    SourceFile {
        rel: rel.to_string(),
        module: module_of(rel),
        toks: without_tests(tokens(&strip(code))).0,
    }
}

/// The edges between the modules of `files` (see the module documentation).
fn edges_of(files: Vec<SourceFile>) -> Vec<Edge> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let file_of: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (f.module.clone(), f.rel.clone()))
        .collect();
    let children_of = |m: &[String]| -> BTreeSet<String> {
        modules
            .iter()
            .filter(|c| c.len() == m.len() + 1 && c[..m.len()] == *m)
            .map(|c| c[m.len()].clone())
            .collect()
    };
    // `#[macro_export]` macros live at the root: `use crate::param;` names no module.
    let macros: BTreeSet<String> = files
        .iter()
        .flat_map(|f| {
            f.toks.windows(3).filter_map(|w| match w {
                [(Tok::Ident(m), _), (Tok::Punct('!'), _), (Tok::Ident(name), _)]
                    if m == "macro_rules" =>
                {
                    Some(name.clone())
                }
                _ => None,
            })
        })
        .collect();
    let refs: Vec<(usize, Vec<Reference>)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (i, references(&f.toks, &children_of(&f.module))))
        .collect();
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (i, rs) in &refs {
        let f = &files[*i];
        for r in rs.iter().filter(|r| r.reexport) {
            if let Some(abs) = absolute(&r.path, &f.module, &modules) {
                // The name it is known by here: its alias, or its own (a glob: the module's).
                let name = if r.name == "*" {
                    abs.last()
                } else {
                    Some(&r.name)
                };
                if let Some(name) = name {
                    reexports
                        .entry(f.module.clone())
                        .or_default()
                        .insert(name.clone(), abs.clone());
                }
            }
        }
    }
    // Each use as (file, module used, line): the paths, then the methods of split impls.
    let mut uses: Vec<(usize, Vec<String>, usize)> = Vec::new();
    for (i, rs) in &refs {
        let f = &files[*i];
        let names = code_names(&f.toks);
        for r in rs {
            let Some(abs) = absolute(&r.path, &f.module, &modules) else {
                continue;
            };
            if abs.len() == 1 && macros.contains(&abs[0]) {
                continue;
            }
            let target = resolve(&abs, &modules, &reexports, 0);
            let own_descendant =
                target.len() > f.module.len() && target[..f.module.len()] == f.module[..];
            // A folder's `pub use` of its descendants' items is a re-export, unless its own code
            // names the item too (`sim/mod.rs` re-exports `Engine` and calls
            // `Engine::with_parameters`): then it is a use as well.
            if r.reexport && own_descendant && !names.contains(&r.name) {
                continue;
            }
            uses.push((*i, target, r.line));
        }
    }
    uses.extend(method_uses(&files));
    let mut out: BTreeMap<(String, String), String> = BTreeMap::new();
    for (i, target, line) in uses {
        let f = &files[i];
        let common = f
            .module
            .iter()
            .zip(&target)
            .take_while(|(a, b)| a == b)
            .count();
        if common == f.module.len() && common == target.len() {
            continue;
        }
        let folder = &f.module[..common];
        let from = node(folder, &f.module, &file_of);
        let to = node(folder, &target, &file_of);
        out.entry((from, to))
            .or_insert_with(|| format!("src/{}:{}", f.rel, line));
    }
    out.into_iter()
        .map(|((from, to), at)| Edge { from, to, at })
        .collect()
}

/// Strongly connected components with more than one node (Tarjan).
fn cycles(edges: &[Edge]) -> Vec<BTreeSet<String>> {
    let mut adj: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in edges {
        adj.entry(&e.from).or_default().push(&e.to);
        adj.entry(&e.to).or_default();
    }
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(v: &'a str, adj: &BTreeMap<&'a str, Vec<&'a str>>, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for &w in &adj[v] {
            if !s.index.contains_key(w) {
                visit(w, adj, s);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in adj.keys() {
        if !s.index.contains_key(v) {
            visit(v, &adj, &mut s);
        }
    }
    s.out
}

/// One closed walk through a component, each step with the place that makes it.
fn describe(comp: &BTreeSet<String>, edges: &[Edge]) -> String {
    let inside: Vec<&Edge> = edges
        .iter()
        .filter(|e| comp.contains(&e.from) && comp.contains(&e.to))
        .collect();
    let start = comp.iter().next().unwrap();
    // Breadth-first from `start` back to it.
    let mut prev: BTreeMap<&str, &Edge> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.as_str()]);
    let mut back = None;
    while let Some(v) = queue.pop_front() {
        for e in inside.iter().filter(|e| e.from == v) {
            if e.to == *start {
                back = Some(*e);
                break;
            }
            if !prev.contains_key(e.to.as_str()) {
                prev.insert(&e.to, e);
                queue.push_back(&e.to);
            }
        }
        if back.is_some() {
            break;
        }
    }
    let mut walk = vec![back.expect("a component has a cycle through each node")];
    while walk.last().unwrap().from != *start {
        walk.push(prev[walk.last().unwrap().from.as_str()]);
    }
    walk.reverse();
    let steps: Vec<String> = walk
        .iter()
        .map(|e| format!("  {} → {}   ({})", e.from, e.to, e.at))
        .collect();
    format!(
        "cycle {{{}}}:\n{}",
        comp.iter().cloned().collect::<Vec<_>>().join(", "),
        steps.join("\n")
    )
}

#[test]
fn no_module_cycle_outside_the_allow_list() {
    let edges = edges();
    let found = cycles(&edges);
    let mut unexpected = Vec::new();
    for comp in &found {
        let allowed = ALLOWED
            .iter()
            .any(|(nodes, _)| comp.iter().all(|n| nodes.contains(&n.as_str())));
        if !allowed {
            unexpected.push(describe(comp, &edges));
        }
    }
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(nodes, _)| {
            !found
                .iter()
                .any(|c| c.iter().all(|n| nodes.contains(&n.as_str())))
        })
        .map(|(nodes, _)| format!("{nodes:?}"))
        .collect();
    // A node listed but on no cycle any more (its file left the knot): the list stays exact.
    let on_cycles: BTreeSet<&str> = found.iter().flatten().map(String::as_str).collect();
    let freed: Vec<&str> = ALLOWED
        .iter()
        .flat_map(|(nodes, _)| nodes.iter().copied())
        .filter(|n| !on_cycles.contains(n))
        .collect();
    assert!(
        unexpected.is_empty() && stale.is_empty() && freed.is_empty(),
        "module cycles not in ALLOWED:\n{}\nALLOWED entries that no longer hold a cycle (remove them): {stale:?}\nALLOWED nodes on no cycle (remove them): {freed:?}",
        unexpected.join("\n")
    );
}

/// The scanner sees what it must: a cycle planted in text is found and printed, a path in a
/// comment, a string or a test module is not read, and a re-export is followed.
#[test]
fn the_scanner_reads_paths_and_skips_comments_strings_and_tests() {
    let code = "use crate::a::{b::X, c};\n// crate::z::Y\nlet s = \"crate::y::Q\";\nfn f() { super::d::g(); }\n#[cfg(test)]\nmod tests { use crate::t::T; }\nlet c = 'x'; fn h<'a>() { crate::e::f(); }";
    let (kept, _) = without_tests(tokens(&strip(code)));
    let refs = references(&kept, &BTreeSet::new());
    let paths: Vec<String> = refs
        .iter()
        .map(|r| format!("{}@{}", r.path.join("::"), r.line))
        .collect();
    assert_eq!(
        paths,
        [
            "crate::a::b::X@1",
            "crate::a::c@1",
            "super::d::g@4",
            "crate::e::f@7"
        ],
        "the paths outside comments, strings and test code, with their lines"
    );
    let e = |from: &str, to: &str| Edge {
        from: from.into(),
        to: to.into(),
        at: "here".into(),
    };
    let planted = [e("a", "b"), e("b", "c"), e("c", "a"), e("c", "d")];
    let found = cycles(&planted);
    assert_eq!(found.len(), 1);
    let text = describe(&found[0], &planted);
    assert!(
        text.contains("a → b") && text.contains("b → c") && text.contains("c → a"),
        "{text}"
    );

    let modules: BTreeSet<Vec<String>> = [
        vec![],
        vec!["m".to_string()],
        vec!["m".into(), "inner".into()],
    ]
    .into();
    let reexports = BTreeMap::from([(
        vec!["m".to_string()],
        BTreeMap::from([(
            "Thing".to_string(),
            vec!["m".to_string(), "inner".into(), "Thing".into()],
        )]),
    )]);
    let path: Vec<String> = ["m", "Thing"].map(String::from).to_vec();
    assert_eq!(
        resolve(&path, &modules, &reexports, 0),
        ["m", "inner"],
        "m's `pub use inner::Thing` is followed"
    );
}

/// The two uses a plain path scan misses are read, and the test fails on the cycles they close:
/// (a) a folder's `mod.rs` naming in its code an item it re-exports from a child, (b) a method
/// defined in a child's impl of the parent's type and called by the parent's impl. A re-export
/// the folder's code does not name, a method call on another value (`x.m()`), a trait impl's
/// methods and a same-named type's impl in an unrelated folder make no edge.
#[test]
fn the_scanner_sees_reexports_used_and_split_impls() {
    let names = code_names(
        &without_tests(tokens(&strip(
            "mod eng; pub use eng::{Engine, Spare};\nfn f() { Engine::go(); x.Spare(); }",
        )))
        .0,
    );
    assert!(names.contains("Engine"), "{names:?}");
    assert!(
        !names.contains("eng") && !names.contains("Spare"),
        "{names:?}"
    );

    let impls = inherent_impls(&source("x.rs", "impl<'a> Foo<'a> where 'a: 'static { fn a(&self) { self.b(); } }\nimpl Clone for Foo<'_> { fn clone(&self) -> Self { todo!() } }\nimpl dyn Block + '_ { pub fn role(&self) {} }\nfn g() -> impl Fn() { || {} }").toks);
    let read: Vec<(String, Vec<String>, bool)> = impls
        .iter()
        .map(|i| {
            (
                i.ty.clone(),
                i.methods.iter().cloned().collect(),
                i.trait_impl,
            )
        })
        .collect();
    let owned = |ty: &str, m: &str, t: bool| (ty.to_string(), vec![m.to_string()], t);
    assert_eq!(
        read,
        [
            owned("Foo", "a", false),
            owned("Foo", "clone", true),
            owned("Block", "role", false)
        ],
        "the impls, their methods and whether a trait's; `-> impl Fn` is not a block"
    );

    let files = vec![
        // (a): sim/mod.rs re-exports and calls the engine's `start`, which calls `super::options`.
        source("s/mod.rs", "mod engine; pub use engine::start; pub fn options() {}\nfn run() { start(); }"),
        source("s/engine.rs", "pub fn start() { super::options(); }"),
        // (b): a child's impl of the parent's `Solver`, each calling the other's method.
        source("t/mod.rs", "mod step; pub struct Solver;\nimpl Solver { fn run(&mut self) { self.trial(); } fn helper(&self) {} }"),
        source("t/step.rs", "use super::Solver;\nimpl Solver { fn trial(&mut self) { self.helper(); } }"),
        // (b) from a trait impl: the block's `Block` impl calls its child's `kink`.
        source(
            "r/mod.rs",
            "mod kinks; pub struct Force; fn helper() {}\nimpl Block for Force { fn output(&self) { self.kink(); } }",
        ),
        source(
            "r/kinks.rs",
            "use super::Force;\nimpl Force { fn kink(&self) { super::helper(); } }",
        ),
        // Neither: a re-export not named in the code, a call on another value, an unrelated
        // folder's `Solver`.
        source("u/mod.rs", "mod a; pub use a::Thing; pub fn g() {}\nfn h(x: X) { x.trial(); }"),
        source("u/a.rs", "pub struct Thing;\nfn f() { super::g(); }"),
        source("v/w/mod.rs", "pub struct Solver;\nimpl Solver { fn helper(&self) { self.run(); } }"),
    ];
    let edges = edges_of(files);
    let mut found: Vec<Vec<String>> = cycles(&edges)
        .into_iter()
        .map(|c| c.into_iter().collect())
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            vec!["r/kinks", "r/mod.rs"],
            vec!["s/engine", "s/mod.rs"],
            vec!["t/mod.rs", "t/step"]
        ],
        "the re-export used by the folder's code and the split impl close a cycle each; \
         edges: {:?}",
        edges
            .iter()
            .map(|e| format!("{} → {} ({})", e.from, e.to, e.at))
            .collect::<Vec<_>>()
    );
}

/// Prints every edge with the place that makes it (`cargo test --test module_graph -- --ignored
/// --nocapture`): the map to read when breaking a cycle.
#[test]
#[ignore = "a listing, not a check"]
fn print_module_graph() {
    for e in edges() {
        println!("{} → {}   ({})", e.from, e.to, e.at);
    }
}

/// The module map of docs/module-map.md, made from the edges: for each folder (the top level
/// first), each file that uses another file of the same folder, with what it uses, then the
/// files that are used but use no other. A file on no edge of its folder is not listed.
fn module_map(edges: &[Edge]) -> String {
    let split = |node: &str| -> (String, String) {
        match node.rsplit_once('/') {
            Some((folder, leaf)) => (folder.to_string(), leaf.to_string()),
            None => (String::new(), node.to_string()),
        }
    };
    // folder → file → the files of the folder it uses.
    let mut folders: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for e in edges {
        let ((folder, from), (_, to)) = (split(&e.from), split(&e.to));
        let files = folders.entry(folder).or_default();
        files.entry(from).or_default().insert(to.clone());
        files.entry(to).or_default();
    }
    let mut out = String::from(
        "# Module map\n\n\
         Generated from the code by tests/module_graph.rs (which checks that this file matches \
         it): regenerate with\n\
         `cargo test --release --test module_graph -- --ignored print_module_map --nocapture \
         | sed -n '/^# Module map/,/^<!-- end -->/p' > docs/module-map.md`.\n\
         How a dependency is read: the module documentation of tests/module_graph.rs. For each \
         folder, `file → files` lists the files of the same folder a file uses; `mod.rs` is the \
         folder's own file. A file on no line of its folder neither uses nor is used by a \
         sibling. There is no cycle: the arrows of each folder point one way.\n",
    );
    for (folder, files) in &folders {
        let title = if folder.is_empty() {
            "src (top level)"
        } else {
            folder
        };
        out.push_str(&format!("\n## {title}\n\n"));
        let mut leaves = Vec::new();
        for (file, uses) in files {
            if uses.is_empty() {
                leaves.push(file.as_str());
            } else {
                let uses: Vec<&str> = uses.iter().map(String::as_str).collect();
                out.push_str(&format!("- {file} → {}\n", uses.join(", ")));
            }
        }
        if !leaves.is_empty() {
            out.push_str(&format!("- use no other: {}\n", leaves.join(", ")));
        }
    }
    out.push_str("\n<!-- end -->\n");
    out
}

fn module_map_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/module-map.md")
}

/// docs/module-map.md is the map of the code as it is (issue 29: "a module map that matches
/// the code"): a file moved or a dependency added without regenerating it fails here.
#[test]
fn the_module_map_matches_the_code() {
    let expected = module_map(&edges());
    let written = fs::read_to_string(module_map_path()).unwrap_or_default();
    assert!(
        written == expected,
        "docs/module-map.md does not match the code; regenerate it with\n  \
         cargo test --release --test module_graph -- --ignored print_module_map --nocapture \
         | sed -n '/^# Module map/,/^<!-- end -->/p' > docs/module-map.md\n(first differing line: {:?})",
        written
            .lines()
            .zip(expected.lines())
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("written {a:?}, code {b:?}"))
    );
}

/// Prints docs/module-map.md's text (see [`the_module_map_matches_the_code`]).
#[test]
#[ignore = "prints the module map to regenerate docs/module-map.md"]
fn print_module_map() {
    print!("{}", module_map(&edges()));
}
