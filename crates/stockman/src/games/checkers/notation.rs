//! Position texts (move lists, PDN FEN, board diagrams), move matching,
//! and [`CheckersError`].

use super::board::{bit_at, row_col, Board, Move, BOTTOM_ROW, TOP_ROW};
use super::DRAW_PLIES;
use std::fmt;

/// Why a checkers position text was rejected: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckersError {
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong.
    pub kind: CheckersErrorKind,
}

/// What is wrong with a checkers position text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckersErrorKind {
    /// Move `index` (1-based) of a move list, `text`, is refused.
    Move {
        /// The move's number in the list.
        index: usize,
        /// The text found.
        text: String,
        /// Why.
        problem: MoveProblem,
    },
    /// A field or piece of a PDN FEN, `token`, is malformed.
    Fen {
        /// The text found.
        token: String,
        /// Why.
        reason: String,
    },
    /// A board diagram is malformed.
    Diagram {
        /// Why.
        reason: String,
    },
}

/// Why a move is refused at a position (also [`Playable::parse_move`]'s
/// reason, as text).
///
/// [`Playable::parse_move`]: crate::games::Playable::parse_move
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveProblem {
    /// Not squares joined by `-` or `x`.
    Syntax,
    /// A number that is not a square (1 to 32).
    Square(u64),
    /// The game was already over.
    GameOver,
    /// No legal move goes this way.
    Illegal {
        /// Who was to move.
        player: &'static str,
        /// The legal moves.
        legal: Vec<String>,
    },
    /// A simple move while a capture is possible.
    CaptureForced {
        /// Who was to move.
        player: &'static str,
        /// The legal moves (captures).
        legal: Vec<String>,
    },
    /// A jump sequence stopped while the piece can still capture.
    Incomplete {
        /// A complete sequence that starts this way.
        continuation: String,
    },
    /// Only the first and last squares, and several routes with different
    /// captures join them.
    Ambiguous {
        /// The routes.
        options: Vec<String>,
    },
}

impl fmt::Display for MoveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveProblem::Syntax => {
                f.write_str("not a move: write squares 1 to 32 joined by - or x (11-15, 9x18, 9x18x27)")
            }
            MoveProblem::Square(n) => write!(f, "square {n} is not on the board (squares are 1 to 32)"),
            MoveProblem::GameOver => f.write_str("the game is already over"),
            MoveProblem::Illegal { player, legal } => {
                write!(f, "not a legal move for {player} (legal: {})", legal.join(" "))
            }
            MoveProblem::CaptureForced { player, legal } => write!(
                f,
                "{player} must capture: captures are compulsory (legal: {})",
                legal.join(" ")
            ),
            MoveProblem::Incomplete { continuation } => {
                write!(f, "the jump must be continued to its end (for example {continuation})")
            }
            MoveProblem::Ambiguous { options } => write!(
                f,
                "ambiguous: several routes capture different pieces; write the whole route ({})",
                options.join(" or ")
            ),
        }
    }
}

impl fmt::Display for CheckersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.column;
        match &self.kind {
            CheckersErrorKind::Move { index, text, problem } => {
                write!(f, "move {index} (`{text}`, column {c}): {problem}")
            }
            CheckersErrorKind::Fen { token, reason } => write!(f, "FEN `{token}` (column {c}): {reason}"),
            CheckersErrorKind::Diagram { reason } => write!(f, "board (column {c}): {reason}"),
        }
    }
}

impl std::error::Error for CheckersError {}

/// `"Black"` or `"White"`, the side to move at `b`.
pub(super) fn player(b: &Board) -> &'static str {
    if b.black_to_move {
        "Black"
    } else {
        "White"
    }
}

/// The squares of a move's text (`11-15`, `9x18x27`, `9X18`): numbers
/// joined by `-` or `x`, at least two of them.
fn move_squares(text: &str) -> Result<Vec<u8>, MoveProblem> {
    let mut squares = Vec::new();
    for part in text.split(['-', 'x', 'X']) {
        if part.is_empty() || part.len() > 6 || !part.bytes().all(|c| c.is_ascii_digit()) {
            return Err(MoveProblem::Syntax);
        }
        let n: u64 = part.parse().map_err(|_| MoveProblem::Syntax)?;
        if !(1..=32).contains(&n) {
            return Err(MoveProblem::Square(n));
        }
        squares.push(n as u8);
    }
    if squares.len() < 2 {
        return Err(MoveProblem::Syntax);
    }
    Ok(squares)
}

/// The legal move of `b` that `text` names: the whole route, or only its
/// first and last squares when that leaves no doubt about the captures.
pub(super) fn find_move(b: &Board, text: &str) -> Result<Move, MoveProblem> {
    let squares = move_squares(text.trim())?;
    if !b.has_moves() || b.quiet >= DRAW_PLIES {
        return Err(MoveProblem::GameOver);
    }
    let mut legal = Vec::new();
    b.generate(&mut legal);
    let route = |m: &Move| std::iter::once(m.from()).chain(m.landings()).collect::<Vec<u8>>();
    if let Some(&m) = legal.iter().find(|m| route(m) == squares) {
        return Ok(m);
    }
    if squares.len() == 2 {
        let ends: Vec<&Move> = legal
            .iter()
            .filter(|m| m.is_capture() && m.from() == squares[0] && m.to() == squares[1])
            .collect();
        if let Some(&&first) = ends.first() {
            if ends.iter().all(|m| m.captures() == first.captures()) {
                return Ok(first);
            }
            return Err(MoveProblem::Ambiguous {
                options: ends.iter().map(|m| m.to_string()).collect(),
            });
        }
    }
    if let Some(m) = legal.iter().find(|m| route(m).starts_with(&squares)) {
        return Err(MoveProblem::Incomplete {
            continuation: m.to_string(),
        });
    }
    let names: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    if legal[0].is_capture() && squares.len() == 2 {
        let mut simple = Vec::new();
        b.generate_simple(&mut simple);
        if simple.iter().any(|m| m.from() == squares[0] && m.to() == squares[1]) {
            return Err(MoveProblem::CaptureForced {
                player: player(b),
                legal: names,
            });
        }
    }
    Err(MoveProblem::Illegal {
        player: player(b),
        legal: names,
    })
}

/// The words of `text` with their 1-based character columns.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut column = 0;
    for (i, c) in text.char_indices() {
        column += 1;
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((i, column)),
            (true, Some((s, col))) => {
                out.push((col, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &text[s..]));
    }
    out
}

/// Plays the moves of `words` on `board`; move numbers (`1.`, `12...`,
/// also glued to a move: `1.11-15`) are skipped.
fn play_words(mut board: Board, words: &[(usize, &str)]) -> Result<Board, CheckersError> {
    let mut index = 0;
    for &(column, word) in words {
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&c| c == b'.').count();
        let (column, word) = if digits > 0 && dots > 0 {
            (column + digits + dots, &word[digits + dots..])
        } else {
            (column, word)
        };
        if word.is_empty() {
            continue;
        }
        index += 1;
        let mv = find_move(&board, word).map_err(|problem| CheckersError {
            column,
            kind: CheckersErrorKind::Move {
                index,
                text: word.to_string(),
                problem,
            },
        })?;
        board = board.play(mv);
    }
    Ok(board)
}

/// Reads a position: a move list from the start, a PDN FEN or a board
/// diagram, either of them optionally followed by moves.
pub(super) fn parse_position(text: &str) -> Result<Board, CheckersError> {
    let all = words(text);
    let Some(&(column, first)) = all.first() else {
        return Ok(Board::new());
    };
    if first.starts_with('[') || first.contains(':') {
        // `[FEN "W:W21:B1"]` may hold spaces: take the words up to the closing `"]`.
        let (fen, rest) = if first.starts_with('[') {
            let end = all.iter().position(|(_, w)| w.ends_with(']')).unwrap_or(all.len() - 1);
            let start = text.char_indices().nth(column - 1).map_or(0, |(i, _)| i);
            let last = all[end];
            let stop = text.char_indices().nth(last.0 - 1).map_or(text.len(), |(i, _)| i) + last.1.len();
            (&text[start..stop], &all[end + 1..])
        } else {
            (first, &all[1..])
        };
        let board = parse_fen(fen, column)?;
        return play_words(board, rest);
    }
    if first.chars().next().is_some_and(|c| "bBwW.-_".contains(c)) {
        let board = parse_diagram(&all, column)?;
        return play_words(board, &all[2..]);
    }
    play_words(Board::new(), &all)
}

/// Reads a PDN FEN (`W:W21,22,K30:B1-12`, or wrapped: `[FEN "..."]`)
/// starting at character column `column`.
fn parse_fen(text: &str, column: usize) -> Result<Board, CheckersError> {
    let err = |col: usize, token: &str, reason: String| CheckersError {
        column: col,
        kind: CheckersErrorKind::Fen {
            token: token.to_string(),
            reason,
        },
    };
    // Unwrap `[FEN "..."]`, keeping columns.
    let mut body = text;
    let mut col0 = column;
    if let Some(inner) = body.strip_prefix('[') {
        let Some(q) = inner.find('"') else {
            return Err(err(column, text, "expected [FEN \"...\"]".into()));
        };
        if !inner[..q].trim().eq_ignore_ascii_case("fen") {
            return Err(err(column, text, "expected [FEN \"...\"]".into()));
        }
        let after = &inner[q + 1..];
        let Some(end) = after.find('"') else {
            return Err(err(column, text, "the FEN's closing quote is missing".into()));
        };
        if after[end + 1..].trim() != "]" {
            return Err(err(column, text, "expected `\"]` after the FEN".into()));
        }
        col0 += inner[..q + 1].chars().count() + 1;
        body = &after[..end];
    }
    let body = body.strip_suffix('.').unwrap_or(body);
    let mut fields = Vec::new();
    let mut col = col0;
    for f in body.split(':') {
        let lead = f.chars().count() - f.trim_start().chars().count();
        fields.push((col + lead, f.trim()));
        col += f.chars().count() + 1;
    }
    let (side_col, side) = fields[0];
    let black_to_move = match side {
        "B" | "b" => true,
        "W" | "w" => false,
        _ => return Err(err(side_col, side, "the side to move is B (Black) or W (White)".into())),
    };
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    let mut seen = [false; 2];
    for &(fcol, field) in &fields[1..] {
        let is_black = match field.chars().next() {
            Some('B' | 'b') => true,
            Some('W' | 'w') => false,
            _ => {
                return Err(err(
                    fcol,
                    field,
                    "a FEN field is W or B followed by squares (W21,22,K30)".into(),
                ))
            }
        };
        if std::mem::replace(&mut seen[usize::from(is_black)], true) {
            return Err(err(fcol, field, "this colour's pieces are given twice".into()));
        }
        let list = &field[1..];
        let mut pcol = fcol + 1;
        for piece in list.split(',') {
            let token = piece.trim();
            let tcol = pcol + (piece.chars().count() - piece.trim_start().chars().count());
            pcol += piece.chars().count() + 1;
            if token.is_empty() {
                if list.trim().is_empty() {
                    continue;
                }
                return Err(err(tcol, token, "an empty piece (two commas in a row?)".into()));
            }
            let (king, squares) = match token.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, token),
            };
            let number = |t: &str| -> Result<u32, CheckersError> {
                if t.is_empty() || t.len() > 6 || !t.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(err(
                        tcol,
                        token,
                        "a piece is a square 1 to 32, K before a king's, or a range such as 1-12".into(),
                    ));
                }
                let n: u32 = t.parse().expect("digits");
                if !(1..=32).contains(&n) {
                    return Err(err(
                        tcol,
                        token,
                        format!("square {n} is not on the board (squares are 1 to 32)"),
                    ));
                }
                Ok(n)
            };
            let (lo, hi) = match squares.split_once('-') {
                Some((a, b)) => (number(a)?, number(b.strip_prefix(['K', 'k']).unwrap_or(b))?),
                None => {
                    let n = number(squares)?;
                    (n, n)
                }
            };
            if lo > hi {
                return Err(err(tcol, token, format!("the range {lo}-{hi} is empty")));
            }
            for sq in lo..=hi {
                let bit = 1u32 << (sq - 1);
                if (black | white) & bit != 0 {
                    return Err(err(tcol, token, format!("square {sq} holds two pieces")));
                }
                let crown = if is_black { BOTTOM_ROW } else { TOP_ROW };
                if !king && crown & bit != 0 {
                    let who = if is_black { "Black" } else { "White" };
                    return Err(err(
                        tcol,
                        token,
                        format!("a {who} man on {sq} would have been crowned: write K{sq}"),
                    ));
                }
                if is_black {
                    black |= bit;
                } else {
                    white |= bit;
                }
                if king {
                    kings |= bit;
                }
            }
        }
    }
    Ok(Board::from_pieces(black, white, kings, black_to_move))
}

/// Reads a board diagram: 64 characters, the top row first (`.`, `-` or
/// `_` empty, `b` a black man, `B` a black king, `w` a white man, `W` a
/// white king; the light squares empty), then the side to move, `B` or `W`.
fn parse_diagram(words: &[(usize, &str)], column: usize) -> Result<Board, CheckersError> {
    let err = |col: usize, reason: String| CheckersError {
        column: col,
        kind: CheckersErrorKind::Diagram { reason },
    };
    let squares: Vec<char> = words[0].1.chars().collect();
    if squares.len() != 64 {
        return Err(err(
            column,
            format!(
                "{} squares, not 64 (8 rows, the top first: . empty, b/B black man/king, w/W white man/king)",
                squares.len()
            ),
        ));
    }
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for (k, &c) in squares.iter().enumerate() {
        let (r, col) = (k / 8, k % 8);
        let at = column + k;
        let Some(bit) = bit_at(r as i32, col as i32) else {
            if !matches!(c, '.' | '-' | '_') {
                return Err(err(
                    at,
                    format!(
                        "{c:?} on a light square (row {}, column {}): pieces stand on the dark squares",
                        r + 1,
                        col + 1
                    ),
                ));
            }
            continue;
        };
        debug_assert_eq!(row_col(bit), (r, col));
        let b = 1u32 << bit;
        match c {
            '.' | '-' | '_' => {}
            'b' if b & BOTTOM_ROW == 0 => black |= b,
            'w' if b & TOP_ROW == 0 => white |= b,
            'b' | 'w' => {
                return Err(err(
                    at,
                    format!(
                        "a man on square {} would have been crowned: write a king ({})",
                        bit + 1,
                        c.to_ascii_uppercase()
                    ),
                ))
            }
            'B' => {
                black |= b;
                kings |= b;
            }
            'W' => {
                white |= b;
                kings |= b;
            }
            other => {
                return Err(err(
                    at,
                    format!("{other:?} is not a square: . empty, b/B black man/king, w/W white man/king"),
                ))
            }
        }
    }
    let black_to_move = match words.get(1) {
        Some((_, "B" | "b")) => true,
        Some((_, "W" | "w")) => false,
        Some(&(col, w)) => return Err(err(col, format!("side to move `{w}`: expected B (Black) or W (White)"))),
        None => {
            return Err(err(
                column + 64,
                "the side to move is missing after the board: B or W".into(),
            ))
        }
    };
    Ok(Board::from_pieces(black, white, kings, black_to_move))
}

impl Board {
    /// The position as a PDN FEN: `B:W21,22,K30:B1,2,3` (side to move,
    /// White's pieces, Black's; kings marked K).
    pub fn to_fen(&self) -> String {
        let list = |set: u32| {
            (0..32)
                .filter(|&i| set >> i & 1 == 1)
                .map(|i| {
                    let k = if self.kings >> i & 1 == 1 { "K" } else { "" };
                    format!("{k}{}", i + 1)
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = if self.black_to_move { 'B' } else { 'W' };
        format!("{side}:W{}:B{}", list(self.white), list(self.black))
    }

    /// The board as a diagram of 64 characters, the top row first (what
    /// the position texts read back, with the side to move after a space).
    pub fn to_diagram(&self) -> String {
        let mut s = String::with_capacity(64);
        for r in 0..8 {
            for c in 0..8 {
                s.push(match bit_at(r, c) {
                    None => '.',
                    Some(bit) => {
                        let king = self.kings >> bit & 1 == 1;
                        match (self.black >> bit & 1 == 1, self.white >> bit & 1 == 1, king) {
                            (true, _, false) => 'b',
                            (true, _, true) => 'B',
                            (_, true, false) => 'w',
                            (_, true, true) => 'W',
                            _ => '-',
                        }
                    }
                });
            }
        }
        s
    }
}
