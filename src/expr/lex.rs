//! The tokens of an Fcn expression: numbers, names, input elements `u[i]`, operators,
//! parentheses and commas, each with the character position it starts at.
//!
//! - A number is `digits[.digits]` or `.digits`, optionally followed by an exponent
//!   `e`/`E`, an optional sign and digits (`2.5e-3`, `.5E3`, `4.`).
//! - A name starts with a letter (any alphabet, e.g. `π`, `τ`) or `_` and goes on with letters,
//!   digits and `_`; so `max_force` is one name, `2π` is a number then a name.
//! - `u[i]` (spaces allowed around and inside the brackets) is one token: element `i` of the
//!   input; `i` is a non-negative integer.
//! - Whitespace of any kind separates tokens; any other character is an error.

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Num(f64),
    Name(String),
    /// `name[i]`: an element of the input `u` or of an array.
    Element(String, usize),
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Open,
    Close,
    Comma,
    End,
}

impl Tok {
    /// How the token reads in messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Num(x) => format!("the number {x}"),
            Tok::Name(n) => format!("'{n}'"),
            Tok::Element(name, i) => format!("'{name}[{i}]'"),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Star => "'*'".into(),
            Tok::Slash => "'/'".into(),
            Tok::Caret => "'^'".into(),
            Tok::Open => "'('".into(),
            Tok::Close => "')'".into(),
            Tok::Comma => "','".into(),
            Tok::End => "the end".into(),
        }
    }
}

/// A syntax error: what is wrong, and the (0-based) character position it is at.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SyntaxError {
    pub msg: String,
    pub at: usize,
}

pub(crate) fn error<T>(msg: impl Into<String>, at: usize) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        msg: msg.into(),
        at,
    })
}

/// The tokens of `text` with their character positions, ending with [`Tok::End`].
pub(crate) fn tokens(text: &str) -> Result<Vec<(Tok, usize)>, SyntaxError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let single = match c {
            '+' => Some(Tok::Plus),
            '-' => Some(Tok::Minus),
            '*' => Some(Tok::Star),
            '/' => Some(Tok::Slash),
            '^' => Some(Tok::Caret),
            '(' => Some(Tok::Open),
            ')' => Some(Tok::Close),
            ',' => Some(Tok::Comma),
            _ => None,
        };
        if let Some(tok) = single {
            out.push((tok, start));
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let (x, end) = number(&chars, i)?;
            out.push((Tok::Num(x), start));
            i = end;
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let mut j = i;
            while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            if chars.get(j) == Some(&'[') {
                let (k, end) = element(&chars, &name, j)?;
                out.push((Tok::Element(name, k), start));
                i = end;
            } else {
                out.push((Tok::Name(name), start));
            }
        } else {
            let what = if c == '[' || c == ']' {
                format!("'{c}' (brackets follow a name: u[i], size[2])")
            } else {
                format!("character '{c}'")
            };
            return error(format!("unexpected {what}"), start);
        }
    }
    out.push((Tok::End, chars.len()));
    Ok(out)
}

/// The number starting at `i` and the position after it.
fn number(chars: &[char], mut i: usize) -> Result<(f64, usize), SyntaxError> {
    let start = i;
    let digits = |i: &mut usize| {
        let from = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        *i > from
    };
    let mut mantissa = digits(&mut i);
    if chars.get(i) == Some(&'.') {
        i += 1;
        mantissa |= digits(&mut i);
    }
    if !mantissa {
        return error("'.' without digits", start);
    }
    if matches!(chars.get(i), Some('e' | 'E')) {
        let mut j = i + 1;
        if matches!(chars.get(j), Some('+' | '-')) {
            j += 1;
        }
        if digits(&mut j) {
            i = j;
        }
    }
    if chars.get(i) == Some(&'.') {
        return error("a number with two '.'", start);
    }
    let literal: String = chars[start..i].iter().collect();
    match literal.parse() {
        Ok(x) => Ok((x, i)),
        Err(_) => error(format!("'{literal}' is not a number"), start),
    }
}

/// The index of `name[i]` whose '[' is at `open`, and the position after the ']'.
fn element(chars: &[char], name: &str, open: usize) -> Result<(usize, usize), SyntaxError> {
    let Some(close) = chars[open..].iter().position(|&c| c == ']') else {
        return error(format!("'{name}[' has no closing ']'"), open);
    };
    let close = open + close;
    let inner: String = chars[open + 1..close].iter().collect();
    let trimmed = inner.trim();
    if trimmed.is_empty() || !trimmed.chars().all(|c| c.is_ascii_digit()) {
        return error(
            format!("'{name}[{inner}]' needs a non-negative integer index"),
            open + 1,
        );
    }
    match trimmed.parse() {
        Ok(k) => Ok((k, close + 1)),
        Err(_) => error(
            format!("'{name}[{inner}]': the index is too large"),
            open + 1,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{tokens, Tok};

    fn kinds(text: &str) -> Vec<Tok> {
        tokens(text).unwrap().into_iter().map(|(t, _)| t).collect()
    }

    /// Replaces the old exmex pre-pass test: `name[i]` is one element token (the parser decides
    /// whether the name has elements), and scientific notation is read as one number.
    #[test]
    fn reads_input_elements_and_numbers() {
        use Tok::*;
        assert_eq!(
            kinds("u[1]*2.5e-3+mu -1.5"),
            vec![
                Element("u".into(), 1),
                Star,
                Num(2.5e-3),
                Plus,
                Name("mu".into()),
                Minus,
                Num(1.5),
                End
            ]
        );
        assert_eq!(kinds("u [ 2 ]"), vec![Element("u".into(), 2), End]);
        assert_eq!(
            kinds("u[1]+mu[0]"),
            vec![Element("u".into(), 1), Plus, Element("mu".into(), 0), End]
        );
        assert_eq!(
            kinds(".5E3 4. 7e"),
            vec![Num(500.0), Num(4.0), Num(7.0), Name("e".into()), End]
        );
        assert_eq!(
            kinds("max_force\tπ"),
            vec![Name("max_force".into()), Name("π".into()), End]
        );
        let e = tokens("u[1]+[0]").unwrap_err();
        assert!(
            e.msg.contains("brackets follow a name") && e.at == 5,
            "{e:?}"
        );
        for (bad, at) in [
            ("u[-1]", 2),
            ("u[]", 2),
            ("u[0", 1),
            ("1..2", 0),
            ("2*{x}", 2),
            (".", 0),
        ] {
            assert_eq!(tokens(bad).unwrap_err().at, at, "{bad}");
        }
    }
}
