//! Test-set files: one position per line, `moves [expected]`, as in Pascal
//! Pons' Connect Four sets (`274552224131661 0`). Blank lines and `#`
//! comments are skipped.

use crate::value::Value;
use std::fmt;

/// One position of a test set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position, in the game's notation.
    pub position: String,
    /// The expected score, if the line gives one.
    pub expected: Option<Value>,
}

/// A malformed line: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionsError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters) of the offending word.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PositionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for PositionsError {}

/// Reads a test set's text.
///
/// # Example
/// ```
/// use stockman::games::positions::parse_positions;
/// let set = parse_positions("# a set\n4453 2\n\n12 \n").unwrap();
/// assert_eq!((set[0].line, set[0].position.as_str(), set[0].expected), (2, "4453", Some(2)));
/// assert_eq!((set[1].line, set[1].expected), (4, None));
/// let e = parse_positions("44 two\n").unwrap_err();
/// assert_eq!(e.to_string(), "1:4: expected score `two` is not an integer");
/// ```
pub fn parse_positions(text: &str) -> Result<Vec<PositionLine>, PositionsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        let mut words = words(content);
        let Some((_, moves)) = words.next() else { continue };
        let expected = match words.next() {
            None => None,
            Some((col, e)) => Some(e.parse::<Value>().map_err(|_| PositionsError {
                line: i + 1,
                column: col,
                message: format!("expected score `{e}` is not an integer"),
            })?),
        };
        if let Some((col, extra)) = words.next() {
            return Err(PositionsError {
                line: i + 1,
                column: col,
                message: format!("unexpected `{extra}` after the expected score"),
            });
        }
        out.push(PositionLine {
            line: i + 1,
            position: moves.to_string(),
            expected,
        });
    }
    Ok(out)
}

/// The white-space separated words of `s` with their 1-based character columns.
fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = s;
    let mut col = 1;
    std::iter::from_fn(move || {
        let skipped = rest.len() - rest.trim_start().len();
        col += rest[..skipped].chars().count();
        rest = &rest[skipped..];
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(end);
        let at = col;
        col += word.chars().count();
        rest = tail;
        Some((at, word))
    })
}
