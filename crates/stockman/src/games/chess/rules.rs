//! How a game ends: mate, stalemate, the fifty-move rule, dead positions
//! and repetitions.

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Square};

/// The light squares (b1, a2, ...).
const LIGHT_SQUARES: BitBoard = BitBoard(0x55AA_55AA_55AA_55AA);

/// Whether `board` is a dead position: no sequence of legal moves can mate
/// (kings alone, one minor piece, or bishops on one square colour only).
pub(super) fn is_dead(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight).len();
    let bishops = board.pieces(Piece::Bishop);
    if knights + bishops.len() <= 1 {
        return true;
    }
    knights == 0 && ((bishops & LIGHT_SQUARES).is_empty() || (bishops & !LIGHT_SQUARES).is_empty())
}

/// Why the game is over at `board`, if it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The halfmove clock reached 100.
    FiftyMoves,
    /// Nobody has the material to mate.
    DeadPosition,
    /// The position occurs for the third time, the same side to move,
    /// with only reversible moves since its first occurrence.
    Repetition,
}

impl Ending {
    pub(super) fn describe(self, board: &Board) -> String {
        let side = color_name(board.side_to_move());
        match self {
            Ending::Checkmate => format!("{side} is checkmated"),
            Ending::Stalemate => format!("{side} is stalemated"),
            Ending::FiftyMoves => "drawn by the fifty-move rule".to_string(),
            Ending::DeadPosition => "drawn: neither side can mate".to_string(),
            Ending::Repetition => "drawn by threefold repetition".to_string(),
        }
    }
}

/// How the game stands at `board`, as far as the board alone tells: over
/// (and why), or not. Repetitions need the history: [`ChessGame::ending`].
pub(super) fn ending(board: &Board) -> Option<Ending> {
    if is_dead(board) {
        return Some(Ending::DeadPosition);
    }
    if !board.generate_moves(|_| true) {
        return Some(if board.checkers().is_empty() {
            Ending::Stalemate
        } else {
            Ending::Checkmate
        });
    }
    (board.halfmove_clock() >= 100).then_some(Ending::FiftyMoves)
}

/// The English name of a colour.
pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Whether `mv` is a castling move (cozy-chess: the king takes its own rook).
#[inline]
pub(super) fn is_castle(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

/// Where the king lands when castling with the rook on `mv.to`.
#[inline]
pub(super) fn castle_king_square(mv: Move) -> Square {
    let file = if mv.to.file() > mv.from.file() {
        File::G
    } else {
        File::C
    };
    Square::new(file, mv.from.rank())
}
