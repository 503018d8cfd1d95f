//! Position texts: move lists and FFO boards, and [`OthelloError`].

use super::board::square_name;
use super::{Board, Othello, PASS};
use crate::games::Playable;
use std::fmt;

/// Why an Othello position text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OthelloError {
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong.
    pub kind: OthelloErrorKind,
}

/// What is wrong with an Othello position text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OthelloErrorKind {
    /// Move `index` (1-based) of a move list, `text`, is not a square name.
    NotASquare {
        /// The move's number in the list.
        index: usize,
        /// The text found.
        text: String,
    },
    /// Move `index` is a square, but not a legal move there.
    Illegal {
        /// The move's number in the list.
        index: usize,
        /// The square.
        text: String,
        /// Who was to move: `"Black"` or `"White"`.
        player: &'static str,
        /// The legal moves, named.
        legal: Vec<String>,
    },
    /// Move `index` came after the end of the game.
    GameOver {
        /// The move's number in the list.
        index: usize,
        /// The text found.
        text: String,
    },
    /// A board has a character that is not a square.
    BadSquare {
        /// The character.
        found: char,
    },
    /// A board has the wrong number of squares.
    BoardLength {
        /// The squares found.
        found: usize,
    },
    /// The side to move is missing.
    MissingSide,
    /// The side to move is not `X` or `O`.
    BadSide {
        /// The text found.
        found: String,
    },
    /// Something follows the side to move.
    Trailing {
        /// The text found.
        found: String,
    },
}

impl fmt::Display for OthelloError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.column;
        match &self.kind {
            OthelloErrorKind::NotASquare { index, text } => {
                write!(f, "move {index} (`{text}`, column {c}): not a square (a1 to h8)")
            }
            OthelloErrorKind::Illegal {
                index,
                text,
                player,
                legal,
            } => {
                let legal = if legal.is_empty() {
                    "none".to_string()
                } else {
                    legal.join(" ")
                };
                write!(
                    f,
                    "move {index} (`{text}`, column {c}): not a legal move for {player} (legal: {legal})"
                )
            }
            OthelloErrorKind::GameOver { index, text } => {
                write!(f, "move {index} (`{text}`, column {c}): the game is already over")
            }
            OthelloErrorKind::BadSquare { found } => write!(
                f,
                "board square {c} is {found:?}: squares are X or * (black), O (white), - or . (empty)"
            ),
            OthelloErrorKind::BoardLength { found } => {
                write!(f, "the board has {found} squares, not 64 (a1 to h8, row by row)")
            }
            OthelloErrorKind::MissingSide => {
                write!(f, "the side to move is missing after the board (column {c}): X or O")
            }
            OthelloErrorKind::BadSide { found } => {
                write!(
                    f,
                    "side to move `{found}` (column {c}): expected X (black) or O (white)"
                )
            }
            OthelloErrorKind::Trailing { found } => {
                write!(f, "unexpected `{found}` (column {c}) after the side to move")
            }
        }
    }
}

impl std::error::Error for OthelloError {}

/// Reads a move list starting at byte `lead` of `text` (columns count characters).
pub(super) fn parse_moves(text: &str, lead: usize) -> Result<Board, OthelloError> {
    let mut board = Board::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = text[..lead].chars().count();
    let mut index = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        index += 1;
        let column = i + 1;
        // A move is two characters, or the word `pass`.
        let four: String = chars[i..chars.len().min(i + 4)].iter().collect();
        let len = if four.eq_ignore_ascii_case("pass") { 4 } else { 2 };
        let word: String = chars[i..chars.len().min(i + len)].iter().collect();
        i += len;
        let mv = match word.as_bytes() {
            _ if len == 4 => Some(PASS),
            &[c, r] if (b'a'..=b'h').contains(&c.to_ascii_lowercase()) && (b'1'..=b'8').contains(&r) => {
                Some((r - b'1') * 8 + (c.to_ascii_lowercase() - b'a'))
            }
            _ => None,
        };
        let Some(mv) = mv else {
            return Err(OthelloError {
                column,
                kind: OthelloErrorKind::NotASquare { index, text: word },
            });
        };
        if board.is_over() {
            return Err(OthelloError {
                column,
                kind: OthelloErrorKind::GameOver { index, text: word },
            });
        }
        // A forced pass may be left out: the square is then the other player's.
        if mv != PASS && board.legal_set() == 0 {
            board = board.play(PASS);
        }
        let legal = Othello::from_board(board).legal_moves();
        if !legal.contains(&mv) {
            let othello = Othello::from_board(board);
            return Err(OthelloError {
                column,
                kind: OthelloErrorKind::Illegal {
                    index,
                    text: word.to_ascii_lowercase(),
                    player: othello.to_move_text(),
                    legal: legal.into_iter().map(square_name).collect(),
                },
            });
        }
        board = board.play(mv);
    }
    Ok(board)
}

/// Reads an FFO board and side starting at byte `lead` of `text`.
pub(super) fn parse_board(text: &str, lead: usize) -> Result<Board, OthelloError> {
    let (mut black, mut white) = (0u64, 0u64);
    let mut squares = 0usize;
    let mut chars = text.char_indices().skip_while(|&(i, _)| i < lead).peekable();
    let mut column = text[..lead].chars().count();
    while let Some(&(_, c)) = chars.peek() {
        if c.is_whitespace() {
            break;
        }
        chars.next();
        column += 1;
        if squares >= 64 {
            // Too long: counted for the error below, never stored.
            squares += 1;
            continue;
        }
        match c {
            'X' | 'x' | '*' => black |= 1 << squares,
            'O' | 'o' | '0' => white |= 1 << squares,
            '-' | '.' => {}
            found => {
                return Err(OthelloError {
                    column,
                    kind: OthelloErrorKind::BadSquare { found },
                })
            }
        }
        squares += 1;
    }
    if squares != 64 {
        let found = text[lead..].split_whitespace().next().map_or(0, |w| w.chars().count());
        return Err(OthelloError {
            column: text[..lead].chars().count() + 1,
            kind: OthelloErrorKind::BoardLength { found },
        });
    }
    let rest: String = chars.map(|(_, c)| c).collect();
    let skipped = rest.len() - rest.trim_start().len();
    let side_column = column + rest[..skipped].chars().count() + 1;
    let mut words = rest.split_whitespace();
    let black_to_move = match words.next() {
        None => {
            return Err(OthelloError {
                column: side_column,
                kind: OthelloErrorKind::MissingSide,
            })
        }
        Some("X" | "x" | "B" | "b" | "*") => true,
        Some("O" | "o" | "W" | "w" | "0") => false,
        Some(found) => {
            return Err(OthelloError {
                column: side_column,
                kind: OthelloErrorKind::BadSide {
                    found: found.to_string(),
                },
            })
        }
    };
    if let Some(found) = words.next() {
        let at = rest.find(found).unwrap_or(0);
        return Err(OthelloError {
            column: column + rest[..at].chars().count() + 1,
            kind: OthelloErrorKind::Trailing {
                found: found.to_string(),
            },
        });
    }
    Ok(Board::from_discs(black, white, black_to_move).expect("a square holds one character"))
}
