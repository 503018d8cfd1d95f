//! Test-set files: one position per line, with its expected score.
//!
//! Two layouts, told apart by a `;` on the line:
//! - `position [expected]`, as in Pascal Pons' Connect Four sets
//!   (`274552224131661 0`): the position is one word, the optional second
//!   word the expected score. A line of three or more words (a FEN, an
//!   Othello board and side to move) is a position as a whole, with no
//!   expected score; so is a line of two words whose second is not a number.
//! - `position; annotation; annotation; ...`, as in the FFO Othello suite
//!   (`<64 squares> X; A2:+38; C7:+36;`) and in EPD files: the position is
//!   the text before the first `;`, and every annotation of the form
//!   `MOVE:SCORE` gives a move's score; the first one's score is the
//!   position's expected score (the FFO suites list the best move first).
//!   Other annotations (EPD's `bm Qd1+`, `id "BK.01"`) are kept as notes.
//!
//! Blank lines and `#` comments are skipped.

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
    /// The `MOVE:SCORE` annotations, in the order given (moves as written).
    pub scores: Vec<(String, Value)>,
    /// The other annotations, trimmed.
    pub notes: Vec<String>,
}

impl PositionLine {
    /// The listed score of `mv` (compared without regard to case), if the
    /// line lists it.
    pub fn score_of(&self, mv: &str) -> Option<Value> {
        self.scores
            .iter()
            .find(|(m, _)| m.eq_ignore_ascii_case(mv))
            .map(|&(_, s)| s)
    }
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
///
/// // An FFO line: the board and side, then every move's score, best first.
/// let ffo = format!("{} X; A2:+38; C7:+36;", "-".repeat(64));
/// let set = parse_positions(&ffo).unwrap();
/// assert_eq!(set[0].position, format!("{} X", "-".repeat(64)));
/// assert_eq!((set[0].expected, set[0].score_of("c7")), (Some(38), Some(36)));
///
/// let e = parse_positions("44 +two\n").unwrap_err();
/// assert_eq!(e.to_string(), "1:4: expected score `+two` is not an integer");
/// let e = parse_positions("board X; A2:+3x;\n").unwrap_err();
/// assert_eq!(e.to_string(), "1:10: the score of `A2:+3x` is not an integer");
/// ```
pub fn parse_positions(text: &str) -> Result<Vec<PositionLine>, PositionsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        let err = |column: usize, message: String| PositionsError {
            line: i + 1,
            column,
            message,
        };
        if let Some((head, tail)) = content.split_once(';') {
            let position = head.trim();
            if position.is_empty() {
                return Err(err(1, "no position before the first `;`".to_string()));
            }
            let mut scores = Vec::new();
            let mut notes = Vec::new();
            // Column of the first character after the first `;`.
            let mut col = head.chars().count() + 2;
            for part in tail.split(';') {
                let lead = part.chars().count() - part.trim_start().chars().count();
                let note = part.trim();
                if let Some((mv, score)) = score_annotation(note) {
                    // `+38` parses: Rust's integers take a leading sign.
                    match score.parse::<Value>() {
                        Ok(s) => scores.push((mv.to_string(), s)),
                        Err(_) => return Err(err(col + lead, format!("the score of `{note}` is not an integer"))),
                    }
                } else if !note.is_empty() {
                    notes.push(note.to_string());
                }
                col += part.chars().count() + 1;
            }
            out.push(PositionLine {
                line: i + 1,
                position: position.to_string(),
                expected: scores.first().map(|&(_, s)| s),
                scores,
                notes,
            });
            continue;
        }
        let all: Vec<(usize, &str)> = words(content).collect();
        let (position, expected) = match all.as_slice() {
            [] => continue,
            [(_, p)] => (p.to_string(), None),
            [(_, p), (col, e)] => match e.parse::<Value>() {
                Ok(v) => (p.to_string(), Some(v)),
                Err(_) if e.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') => {
                    return Err(err(*col, format!("expected score `{e}` is not an integer")));
                }
                Err(_) => (content.trim().to_string(), None),
            },
            _ => (content.trim().to_string(), None),
        };
        out.push(PositionLine {
            line: i + 1,
            position,
            expected,
            scores: Vec::new(),
            notes: Vec::new(),
        });
    }
    Ok(out)
}

/// `MOVE:SCORE` split at its colon, if `note` has that form: one word, a
/// move of letters and digits before the colon.
fn score_annotation(note: &str) -> Option<(&str, &str)> {
    let (mv, score) = note.split_once(':')?;
    let is_move = !mv.is_empty() && mv.chars().all(|c| c.is_ascii_alphanumeric());
    (is_move && !note.contains(char::is_whitespace)).then_some((mv, score))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        let set = parse_positions(
            "4453 -2\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
             startpos moves e2e4\n\
             1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";\n\
             f5d6 ; d3:+4; c3:-2\n",
        )
        .unwrap();
        assert_eq!(set.len(), 5);
        assert_eq!((set[0].position.as_str(), set[0].expected), ("4453", Some(-2)));
        assert_eq!(
            set[1].position,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(set[1].expected, None);
        assert_eq!(set[2].position, "startpos moves e2e4");
        assert_eq!(
            set[3].position,
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+"
        );
        assert_eq!(set[3].notes, vec!["id \"BK.01\"".to_string()]);
        assert_eq!(set[3].expected, None);
        assert_eq!(set[4].position, "f5d6");
        assert_eq!(set[4].scores, vec![("d3".to_string(), 4), ("c3".to_string(), -2)]);
        assert_eq!(
            (set[4].expected, set[4].score_of("C3"), set[4].score_of("e6")),
            (Some(4), Some(-2), None)
        );
    }

    #[test]
    fn errors_point_at_the_word() {
        let e = parse_positions("ok 1\n44 -x\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4));
        let e = parse_positions("  ; a1:+2\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (1, 1, "no position before the first `;`")
        );
        let e = parse_positions("b X; A1:+2;  C3:++2\n").unwrap_err();
        assert_eq!(
            (e.column, e.message.as_str()),
            (14, "the score of `C3:++2` is not an integer")
        );
        // A two-word line whose second word is not a number is one position.
        let set = parse_positions("44 two\n").unwrap();
        assert_eq!((set[0].position.as_str(), set[0].expected), ("44 two", None));
    }
}
