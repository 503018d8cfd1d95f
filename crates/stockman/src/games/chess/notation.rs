//! Position texts and moves: FEN, EPD and UCI notation, read and written,
//! and [`ChessError`].

use super::rules::{castle_king_square, color_name, is_castle, Ending};
use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};
use std::fmt;

/// The names of the six FEN fields, for messages.
const FEN_FIELDS: [&str; 6] = [
    "piece placement",
    "side to move",
    "castling rights",
    "en passant square",
    "halfmove clock",
    "fullmove number",
];

/// Why a position text or a move was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChessError {
    /// A FEN field is missing or wrong.
    Fen {
        /// The field, 1 to 6 (placement, side to move, castling rights,
        /// en passant square, halfmove clock, fullmove number).
        field: usize,
        /// The field's text; `None` if it is missing.
        found: Option<String>,
        /// What is wrong with it.
        reason: String,
    },
    /// Each FEN field reads, but no game can reach the position (the side
    /// not to move is in check, or the side to move in triple check).
    IllegalPosition(String),
    /// Text that is neither a position, EPD operations nor `moves ...`.
    Syntax(String),
    /// A move of the move list is malformed or illegal.
    Move {
        /// Its place in the list, counting from 1.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        reason: String,
    },
}

impl fmt::Display for ChessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChessError::Fen { field, found, reason } => {
                let name = FEN_FIELDS.get(field.wrapping_sub(1)).copied().unwrap_or("field");
                match found {
                    Some(text) => write!(f, "FEN field {field} ({name}) `{text}`: {reason}"),
                    None => write!(f, "FEN field {field} ({name}) is missing: {reason}"),
                }
            }
            ChessError::IllegalPosition(why) => write!(f, "illegal position: {why}"),
            ChessError::Syntax(why) => f.write_str(why),
            ChessError::Move { index, text, reason } => write!(f, "move {index} `{text}`: {reason}"),
        }
    }
}

impl std::error::Error for ChessError {}

/// The English name of a piece.
fn piece_name(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

/// The first whitespace-separated word of `s` and the text after it.
pub(super) fn next_word(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// The square of file `f` and rank `r` (both `0..8`).
pub(super) fn square(f: usize, r: usize) -> Square {
    Square::new(File::index(f), Rank::index(r))
}

/// Reads a UCI move at `board` and checks that it is legal there, and that
/// the game is not `over` there; the error is a one-line reason.
pub(super) fn parse_uci(board: &Board, text: &str, over: Option<Ending>) -> Result<Move, String> {
    let t = text.trim();
    let bad = || {
        format!("`{t}` is not a move in UCI notation (from-square, to-square, and the piece a pawn promotes to: e2e4, e7e8q)")
    };
    let b = t.as_bytes();
    if !(4..=5).contains(&b.len()) || !t.is_ascii() {
        return Err(bad());
    }
    let sq = |i: usize| -> Option<Square> {
        let f = b[i].to_ascii_lowercase();
        let r = b[i + 1];
        ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
            .then(|| square(usize::from(f - b'a'), usize::from(r - b'1')))
    };
    let (Some(from), Some(to)) = (sq(0), sq(2)) else {
        return Err(bad());
    };
    let promotion = match b.get(4).map(u8::to_ascii_lowercase) {
        None => None,
        Some(b'q') => Some(Piece::Queen),
        Some(b'r') => Some(Piece::Rook),
        Some(b'b') => Some(Piece::Bishop),
        Some(b'n') => Some(Piece::Knight),
        Some(_) => return Err(bad()),
    };
    if let Some(e) = over {
        return Err(format!("the game is over: {}", e.describe(board)));
    }
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(from).filter(|_| board.colors(us).has(from)) else {
        return Err(format!("there is no {} piece on {from}", color_name(us).to_lowercase()));
    };
    let mut mv = Move { from, to, promotion };
    // Standard castling (king two files along its rank) in cozy-chess' form.
    if piece == Piece::King && from.rank() == to.rank() && from.file() == File::E && promotion.is_none() {
        let rights = board.castle_rights(us);
        let rook = match to.file() {
            File::G => rights.short,
            File::C => rights.long,
            _ => None,
        };
        if let Some(rook) = rook {
            mv.to = Square::new(rook, from.rank());
        } else if matches!(to.file(), File::G | File::C) {
            let side = if to.file() == File::G { "kingside" } else { "queenside" };
            return Err(format!("{} cannot castle {side} here", color_name(us)));
        }
    }
    if board.is_legal(mv) {
        return Ok(mv);
    }
    let last_rank = to.rank() == Rank::Eighth.relative_to(us);
    if piece == Piece::Pawn
        && last_rank
        && promotion.is_none()
        && board.is_legal(Move {
            promotion: Some(Piece::Queen),
            ..mv
        })
    {
        return Err(format!(
            "a pawn reaching the last rank must promote: add q, r, b or n (`{t}q`)"
        ));
    }
    if promotion.is_some() && !(piece == Piece::Pawn && last_rank) {
        return Err("only a pawn reaching the last rank promotes".to_string());
    }
    if is_castle(board, mv) && mv.to == to {
        return Err(format!("{} cannot castle that way here", color_name(us)));
    }
    let check = if board.checkers().is_empty() {
        String::new()
    } else {
        format!(" ({} is in check)", color_name(us))
    };
    Err(format!(
        "the {} on {from} cannot move to {to}{check}",
        piece_name(piece)
    ))
}

/// Whether `w` has the shape of a UCI move (`e2e4`, `e7e8q`), legal or not.
pub(super) fn looks_like_uci(w: &str) -> bool {
    let b = w.as_bytes();
    let sq = |i: usize| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]);
    (b.len() == 4 || b.len() == 5 && b"qrbn".contains(&b[4])) && sq(0) && sq(2)
}

/// The UCI text of `mv` at `board`: castling as the king's two-square step.
pub(super) fn uci_text(board: &Board, mv: Move) -> String {
    if board.piece_on(mv.from) == Some(Piece::King) && is_castle(board, mv) {
        return format!("{}{}", mv.from, castle_king_square(mv));
    }
    mv.to_string()
}

/// One FEN field's error.
fn fen_error(field: usize, found: &str, reason: impl Into<String>) -> ChessError {
    ChessError::Fen {
        field,
        found: Some(found.to_string()),
        reason: reason.into(),
    }
}

/// The squares of a FEN placement field, `grid[rank][file]` (rank 0 =
/// rank 1), checked for shape, piece letters and piece counts.
fn parse_placement(field: &str) -> Result<[[Option<char>; 8]; 8], ChessError> {
    let err = |reason: String| fen_error(1, field, reason);
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 8 {
        return Err(err(format!("has {} ranks separated by `/`, expected 8", rows.len())));
    }
    let mut grid = [[None; 8]; 8];
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for c in row.chars() {
            match c {
                '1'..='8' => file += c as usize - '0' as usize,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    if file < 8 {
                        grid[rank][file] = Some(c);
                    }
                    file += 1;
                }
                _ => {
                    return Err(err(format!(
                        "`{c}` in rank {} is neither a piece letter (PNBRQK white, pnbrqk black) nor a count of empty squares 1-8",
                        rank + 1
                    )))
                }
            }
        }
        if file != 8 {
            return Err(err(format!(
                "rank {} (`{row}`) covers {file} squares, expected 8",
                rank + 1
            )));
        }
    }
    for (side, upper) in [("White", true), ("Black", false)] {
        let count = |p: char| {
            let p = if upper { p.to_ascii_uppercase() } else { p };
            grid.iter().flatten().filter(|&&s| s == Some(p)).count()
        };
        let total: usize = "pnbrqk".chars().map(count).sum();
        if count('k') != 1 {
            return Err(err(format!("{side} has {} kings, expected exactly 1", count('k'))));
        }
        if count('p') > 8 {
            return Err(err(format!("{side} has {} pawns, at most 8 are possible", count('p'))));
        }
        if total > 16 {
            return Err(err(format!("{side} has {total} pieces, at most 16 are possible")));
        }
    }
    for rank in [0, 7] {
        if let Some(f) = (0..8).find(|&f| matches!(grid[rank][f], Some('p' | 'P'))) {
            return Err(err(format!("a pawn on {}, where no pawn can stand", square(f, rank))));
        }
    }
    Ok(grid)
}

/// Takes FEN field number `field` from the start of `rest` into `fields`;
/// a missing one (or `moves` in its place) is the error `reason`.
fn take_field<'a>(rest: &mut &'a str, fields: &mut Vec<&'a str>, field: usize, reason: &str) -> Result<(), ChessError> {
    match next_word(rest) {
        Some((w, r)) if w != "moves" => {
            fields.push(w);
            *rest = r;
            Ok(())
        }
        _ => Err(ChessError::Fen {
            field,
            found: None,
            reason: reason.to_string(),
        }),
    }
}

/// Reads a FEN (6 fields, or 4 with the clocks `0 1`) at the start of
/// `text`, skipping EPD operations after 4 fields; returns the board and
/// the rest (empty, or starting with `moves`).
pub(super) fn parse_fen(text: &str) -> Result<(Board, &str), ChessError> {
    let mut rest = text;
    let mut fields: Vec<&str> = Vec::with_capacity(6);
    for field in 1..=4 {
        take_field(
            &mut rest,
            &mut fields,
            field,
            "a FEN has 6 fields (4 in an EPD line) separated by spaces",
        )?;
    }
    // The clocks: two numbers, or none (EPD).
    if let Some((w, r)) = next_word(rest)
        && (w.bytes().all(|b| b.is_ascii_digit()) || w.starts_with('-'))
    {
        fields.push(w);
        rest = r;
        take_field(
            &mut rest,
            &mut fields,
            6,
            "a FEN with a halfmove clock also has a fullmove number",
        )?;
    }
    if fields.len() == 4 {
        rest = skip_epd_operations(rest)?;
    }
    let (placement, side, castling, ep) = (fields[0], fields[1], fields[2], fields[3]);
    let grid = parse_placement(placement)?;
    let us = match side {
        "w" => Color::White,
        "b" => Color::Black,
        _ => {
            return Err(fen_error(
                2,
                side,
                "expected `w` (White to move) or `b` (Black to move)",
            ))
        }
    };
    if castling != "-" {
        let mut seen = String::new();
        for c in castling.chars() {
            let (king, rook, rank) = match c {
                'K' => ('K', (7, 'R'), 0),
                'Q' => ('K', (0, 'R'), 0),
                'k' => ('k', (7, 'r'), 7),
                'q' => ('k', (0, 'r'), 7),
                _ => {
                    return Err(fen_error(
                        3,
                        castling,
                        format!("`{c}` is not a castling right: expected `-` or letters from KQkq"),
                    ))
                }
            };
            if seen.contains(c) {
                return Err(fen_error(3, castling, format!("`{c}` is given twice")));
            }
            seen.push(c);
            if grid[rank][4] != Some(king) || grid[rank][rook.0] != Some(rook.1) {
                let who = if rank == 0 { "White" } else { "Black" };
                return Err(fen_error(
                    3,
                    castling,
                    format!(
                        "`{c}` needs {who}'s king on {} and a rook on {}",
                        square(4, rank),
                        square(rook.0, rank)
                    ),
                ));
            }
        }
    }
    if ep != "-" {
        let b = ep.as_bytes();
        let want = if us == Color::White { b'6' } else { b'3' };
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return Err(fen_error(4, ep, "expected `-` or a square such as e3"));
        }
        if b[1] != want {
            return Err(fen_error(
                4,
                ep,
                format!(
                    "with {} to move the en passant square is on rank {}",
                    color_name(us),
                    want as char
                ),
            ));
        }
    }
    let (half, full) = match fields.len() {
        6 => (fields[4], fields[5]),
        _ => ("0", "1"),
    };
    if !matches!(half.parse::<u8>(), Ok(0..=100)) {
        return Err(fen_error(5, half, "the halfmove clock is a whole number from 0 to 100"));
    }
    if !matches!(full.parse::<u16>(), Ok(1..)) {
        return Err(fen_error(
            6,
            full,
            "the fullmove number is a whole number from 1 to 65535",
        ));
    }
    let fen = format!("{placement} {side} {castling} {ep} {half} {full}");
    match Board::from_fen(&fen, false) {
        Ok(board) => Ok((board, rest)),
        Err(cozy_chess::FenParseError::InvalidEnPassant) => Err(fen_error(
            4,
            ep,
            "no pawn can just have moved two squares past it (the squares behind it must be empty and the pawn in front)",
        )),
        Err(cozy_chess::FenParseError::InvalidBoard) => {
            // The side not to move in check, or an impossible check.
            let other = if us == Color::White { "b" } else { "w" };
            let flipped = Board::from_fen(&format!("{placement} {other} - - 0 1"), false);
            let them = color_name(!us);
            Err(ChessError::IllegalPosition(match flipped {
                Ok(b) if !b.checkers().is_empty() => format!("{them} is in check but it is not {them}'s move"),
                _ => format!("{} is in check by more pieces than a move can give", color_name(us)),
            }))
        }
        Err(e) => Err(ChessError::Syntax(format!("FEN `{fen}`: {e}"))),
    }
}

/// Skips the EPD operations (`opcode operands;`, operands possibly
/// "quoted") at the start of `text`; returns the rest (empty, or starting
/// with `moves`).
fn skip_epd_operations(text: &str) -> Result<&str, ChessError> {
    let mut rest = text.trim_start();
    while let Some((word, _)) = next_word(rest) {
        if word == "moves" {
            return Ok(rest);
        }
        let opcode: String = word.chars().take_while(|&c| c != ';').collect();
        if !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(ChessError::Syntax(format!(
                "`{word}` after the 4 FEN fields is neither the clocks, an EPD operation (`opcode operands;`) nor `moves`"
            )));
        }
        let mut quoted = false;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            match c {
                '"' => quoted = !quoted,
                ';' if !quoted => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            // The last operation may lack its `;` (a test-set line is cut
            // at its first `;`), but not a closing quote.
            if quoted {
                return Err(ChessError::Syntax(format!(
                    "EPD operation `{opcode}` has an unterminated quoted operand"
                )));
            }
            return Ok("");
        };
        rest = rest[end + 1..].trim_start();
    }
    Ok(rest)
}
