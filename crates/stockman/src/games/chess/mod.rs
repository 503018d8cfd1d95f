//! Chess, searched to a fixed depth, with a quiescence search at the
//! horizon. Move generation is the [`cozy_chess`] crate's (MIT).
//!
//! # Positions and moves
//! [`ChessGame::from_position`] reads a FEN (six fields, or the first four
//! with the clocks defaulting to `0 1`), an EPD line (four FEN fields and
//! operations such as `bm Qd1+; id "BK.01";`, which are ignored) or
//! `startpos`, optionally followed by `moves e2e4 e7e5 ...`; `""` is the
//! start position, and a bare list of moves (`e2e4 e7e5`) is played from
//! it; the positions the moves pass through are the game's history, for
//! repetitions (below). Moves are written and read in UCI notation
//! (`e2e4`, `e7e8q`, castling as the king's two-square step `e1g1`); a
//! [`Game::Move`] is a [`cozy_chess::Move`], which stores castling as
//! "king takes own rook" (`e1h1`): [`Playable::move_text`] and
//! [`Playable::parse_move`] convert.
//!
//! The side to move at the root is MAX; every value is from its point of
//! view, in centipawns.
//!
//! # Values
//! - **Mate**: a position where the side to move has no legal move and is
//!   in check is worth `-(MATE - ply)` to that side, where `ply` counts the
//!   moves from the root (quiescence moves included): a faster mate scores
//!   more, a slower defeat less. [`MATE`] is 100,000, far above any
//!   heuristic value ([`HEURISTIC_MAX`] = 50,000 bounds them).
//! - **Draws** are worth 0 and end the game: stalemate; the fifty-move
//!   rule, applied inside the search when the halfmove clock reaches 100 (as
//!   engines do; checkmate on the hundredth half-move still counts as mate);
//!   dead positions without the material to mate: king against king,
//!   king and one minor piece against king, and kings with bishops only,
//!   all on squares of one colour; and **repetitions**, detected against
//!   the game's history and the search path (next section).
//! - **Heuristic** at the horizon: material plus piece-square tables, the
//!   "Simplified Evaluation Function" of Tomasz Michniewski (chessprogramming
//!   wiki): pawn 100, knight 320, bishop 330, rook 500, queen 900, and the
//!   page's tables for each piece, the king's middle-game table until the
//!   endgame (no queens, or each side with a queen has at most one minor
//!   piece besides), then its endgame table. Computed for the side to
//!   move as its total minus the opponent's.
//!
//! # Repetitions
//! A [`ChessGame`] keeps the history of the game before its root: the
//! Zobrist hashes ([`Board::hash`]: pieces, side to move, castling rights,
//! en passant file) of the positions played since the last capture or pawn
//! move, the only ones that can come back ([`ChessGame::history`]). The
//! `moves ...` of a position text and [`Playable::after`] fill it; a bare
//! FEN has none. A position can only repeat one with the same side to
//! move, with reversible moves in between: the candidates are the
//! positions 4, 6, ... plies back, as far as its halfmove clock and the
//! known positions reach.
//!
//! - **Inside the search** a position other than the root is a draw (no
//!   moves, value 0) when it repeats a position of the search path after
//!   the root (twofold: the side that steered into it can repeat it again),
//!   or when it would be the third occurrence of its board counting the
//!   root and the history (a real threefold repetition). This is
//!   Stockfish's rule. So a side that is behind finds a perpetual check,
//!   and a side that is ahead avoids the move that would repeat the
//!   position a third time. From a position without history a search
//!   needs 5 plies to meet a repetition.
//! - **At the root** [`Game::moves`] never stops for a repetition or the
//!   fifty-move rule, so that a search of such a position still names a
//!   move; [`Playable::result`] reports them as draws ("drawn by threefold
//!   repetition", "drawn by the fifty-move rule") and [`Playable::legal_moves`]
//!   is then empty, so that `play` and `match` end the game there. But both
//!   are draws a player *claims* (FIDE 9.2, 9.3): a GUI may play on past an
//!   unclaimed one, so [`Playable::parse_move`] and a `moves ...` list
//!   accept moves after them (after a mate, a stalemate or a dead position,
//!   which end the game by themselves, they refuse).
//! - **Memory**: positions are copied from move to move (and SSS\*'s OPEN
//!   list keeps many alive), so a [`ChessPosition`] carries the hashes of
//!   the last [`PATH_MEMORY`] (16) positions of its search path in a fixed
//!   ring: playing a move allocates nothing. A repetition of a position of
//!   the path more than 16 plies back (and after the root) is not seen;
//!   the root and the history before it are read from the game at any
//!   distance. No chess search here goes near 16 plies.
//! - **No graph-history interaction**: a position's value now depends on
//!   how it was reached, so [`Game::hash`] (below) says how: beside the
//!   board it mixes in the positions of the search path since the last
//!   capture or pawn move (the ones a line below could repeat, each with
//!   its distance) and the game's root and history. A table entry is then
//!   only used where its value holds, and every algorithm, with a table or
//!   without, returns the same value (most engines accept the error
//!   instead; a first version here did, and MT-SSS\* with a table missed a
//!   perpetual check that MTD(f) found). The price: two orders of the same
//!   reversible moves no longer transpose within a search.
//!
//! # Quiescence inside `evaluate`
//! A fixed-depth horizon in the middle of an exchange misjudges the
//! position badly (a queen that just took a pawn "is a queen up"). So
//! [`Game::evaluate`] runs a **quiescence search**: a fail-soft alpha-beta
//! negamax over captures (en passant included) and promotions only, each
//! side free to "stand pat" on the static value instead of capturing,
//! captures tried in MVV-LVA order, starting from the full window. Its
//! result depends on the position alone, never on the window of the
//! search that called it, so the tree the algorithms see stays a
//! fixed-depth tree with one value per leaf, and every algorithm gets the
//! same leaf values: the theorems of the SSS\* family still apply. The
//! positions it visits are not counted in the searches' statistics (one
//! leaf evaluation is one quiescence search). A position in check may also
//! stand pat (no check evasions are searched), but a position without
//! legal moves is scored exactly, mate or stalemate, inside the quiescence
//! search too.
//!
//! # Move order
//! Captures and promotions first, by MVV-LVA (most valuable victim, with a
//! promotion counting as the material it gains, then least valuable
//! attacker), then the quiet moves by how much they raise the moving
//! piece's square value, ties in the move generator's order: the same
//! position always lists the same moves in the same order.
//!
//! # Depth
//! Searches to the end of the game never finish in chess: search it with a
//! depth ([`SearchOptions::depth`](crate::SearchOptions::depth)) or a time
//! limit. [`Playable::heuristic`] returns the game as it is (it always uses
//! the heuristic), and the `stockman` command refuses `--game chess`
//! without `--depth` rather than running forever.
//!
//! # Hash and bounds
//! [`Game::hash`] is cozy-chess' Zobrist hash ([`Board::hash`]: pieces,
//! side to move, castling rights, en passant file) mixed with the ply from
//! the root, and with the halfmove clock once it passes 50. Mate scores
//! depend on the ply, so positions at different plies must not share table
//! entries (in one fixed-depth search they never do anyway: entries are
//! kept per remaining depth; under iterative deepening they would). The
//! clock matters only for the fifty-move rule, which a position whose
//! clock is at most 50 cannot reach within 50 plies: the hash is exact
//! for searches up to 50 plies deep. It also mixes in the path and the
//! history that repetitions depend on (see "Repetitions" above). [`Game::bounds`] knows
//! that the side to move at ply `p` is at best mated now and at most mates
//! at `p + 1`: `-(MATE - p) ..= MATE - p - 1` for it, which gives the
//! depth-first searches mate-distance pruning for free.
//!
//! # Example
//! ```
//! use stockman::games::{ChessGame, Playable};
//! use stockman::{algorithms::alphabeta, SearchOptions};
//!
//! // A back-rank mate in one: Rd8#.
//! let game = ChessGame::from_position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
//! let opts = SearchOptions { depth: Some(2), ..Default::default() };
//! let out = alphabeta::search(&game, &opts).unwrap();
//! assert_eq!(out.value, Some(stockman::games::chess::MATE - 1));
//! assert_eq!(game.move_text(out.best_move.unwrap()), "d1d8");
//!
//! // Moves after a position, checked one by one.
//! let game = ChessGame::from_position("startpos moves e2e4 e7e5 g1f3").unwrap();
//! assert_eq!(game.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
//! let err = ChessGame::from_position("startpos moves e2e4 e2e4").unwrap_err();
//! assert_eq!(err.to_string(), "move 2 `e2e4`: there is no black piece on e2");
//!
//! // Knights out and back twice: the start position for the third time.
//! let game = ChessGame::from_position("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8").unwrap();
//! assert_eq!(game.history().len(), 8);
//! assert_eq!(game.result(), Some(stockman::games::GameResult::Draw));
//! // A draw to be claimed: a GUI may play on past it (nobody claimed).
//! let on = ChessGame::from_position("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4").unwrap();
//! assert_eq!(on.result(), None);
//! // A mate ends the game: no move after it.
//! let err = ChessGame::from_position("startpos moves f2f3 e7e5 g2g4 d8h4 e2e4").unwrap_err();
//! assert_eq!(err.to_string(), "move 5 `e2e4`: the game is over: White is checkmated");
//! ```

use super::{GameResult, Playable};
use crate::game::Game;
use crate::value::{Role, Value};
use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};
use std::fmt;

/// The score of mating at the root: a mate `ply` moves from the root is
/// worth `MATE - ply` to the winner.
pub const MATE: Value = 100_000;
/// Heuristic values lie in `-HEURISTIC_MAX..=HEURISTIC_MAX`, far below
/// every mate score.
pub const HEURISTIC_MAX: Value = 50_000;

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Most legal moves in any chess position are 218; room to spare.
const MAX_MOVES: usize = 256;

/// Material values in centipawns, by [`Piece`] index (the king's is unused).
const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Michniewski's piece-square tables, from White's side, rank 8 first
/// (as printed on the chessprogramming wiki): pawn, knight, bishop, rook,
/// queen, king (middle game).
#[rustfmt::skip]
const PST: [[i32; 64]; 6] = [
    [ // pawn
         0,  0,  0,  0,  0,  0,  0,  0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
         5,  5, 10, 25, 25, 10,  5,  5,
         0,  0,  0, 20, 20,  0,  0,  0,
         5, -5,-10,  0,  0,-10, -5,  5,
         5, 10, 10,-20,-20, 10, 10,  5,
         0,  0,  0,  0,  0,  0,  0,  0,
    ],
    [ // knight
        -50,-40,-30,-30,-30,-30,-40,-50,
        -40,-20,  0,  0,  0,  0,-20,-40,
        -30,  0, 10, 15, 15, 10,  0,-30,
        -30,  5, 15, 20, 20, 15,  5,-30,
        -30,  0, 15, 20, 20, 15,  0,-30,
        -30,  5, 10, 15, 15, 10,  5,-30,
        -40,-20,  0,  5,  5,  0,-20,-40,
        -50,-40,-30,-30,-30,-30,-40,-50,
    ],
    [ // bishop
        -20,-10,-10,-10,-10,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5, 10, 10,  5,  0,-10,
        -10,  5,  5, 10, 10,  5,  5,-10,
        -10,  0, 10, 10, 10, 10,  0,-10,
        -10, 10, 10, 10, 10, 10, 10,-10,
        -10,  5,  0,  0,  0,  0,  5,-10,
        -20,-10,-10,-10,-10,-10,-10,-20,
    ],
    [ // rook
          0,  0,  0,  0,  0,  0,  0,  0,
          5, 10, 10, 10, 10, 10, 10,  5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
          0,  0,  0,  5,  5,  0,  0,  0,
    ],
    [ // queen
        -20,-10,-10, -5, -5,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5,  5,  5,  5,  0,-10,
         -5,  0,  5,  5,  5,  5,  0, -5,
          0,  0,  5,  5,  5,  5,  0, -5,
        -10,  5,  5,  5,  5,  5,  0,-10,
        -10,  0,  5,  0,  0,  0,  0,-10,
        -20,-10,-10, -5, -5,-10,-10,-20,
    ],
    [ // king, middle game
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -20,-30,-30,-40,-40,-30,-30,-20,
        -10,-20,-20,-20,-20,-20,-20,-10,
         20, 20,  0,  0,  0,  0, 20, 20,
         20, 30, 10,  0,  0, 10, 30, 20,
    ],
];

/// Michniewski's king table for the endgame, laid out as [`PST`].
#[rustfmt::skip]
const KING_ENDGAME: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// The light squares (b1, a2, ...).
const LIGHT_SQUARES: BitBoard = BitBoard(0x55AA_55AA_55AA_55AA);

/// The names of the six FEN fields, for messages.
const FEN_FIELDS: [&str; 6] = [
    "piece placement",
    "side to move",
    "castling rights",
    "en passant square",
    "halfmove clock",
    "fullmove number",
];

/// How many positions of the search path a [`ChessPosition`] remembers
/// for detecting repetitions: a repetition of a position of the path more
/// than this many plies back (and after the root) is not seen.
pub const PATH_MEMORY: usize = 16;

/// A node of the search: the board, its distance from the root (for mate
/// scores and the roles), and the Zobrist hashes of the boards of the last
/// [`PATH_MEMORY`] positions before it on the search path (for
/// repetitions; a fixed ring, so that playing a move allocates nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessPosition {
    board: Board,
    ply: u32,
    /// `path[p % PATH_MEMORY]` is the [`Board::hash`] of the position at
    /// ply `p` of the path, for `ply - PATH_MEMORY <= p < ply` (and
    /// `p >= 0`); the other entries are stale or zero and never read.
    path: [u64; PATH_MEMORY],
}

impl ChessPosition {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Moves played from the root to here.
    pub fn ply(&self) -> u32 {
        self.ply
    }
}

/// Chess from a given position, with the history of the game that led to
/// it (for repetitions); see the [module documentation](self).
///
/// Two games are equal when their root boards and their histories are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessGame {
    root: Board,
    /// The [`Board::hash`]es of the positions played before the root since
    /// the last capture or pawn move, oldest first (at most the root's
    /// halfmove clock of them).
    history: Vec<u64>,
    /// The root and the history in one word, mixed into every position's
    /// hash: what a position's value depends on beyond its own path.
    key: u64,
}

impl Default for ChessGame {
    fn default() -> Self {
        ChessGame::new()
    }
}

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

/// The English name of a colour.
fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

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
fn next_word(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// The square of file `f` and rank `r` (both `0..8`).
fn square(f: usize, r: usize) -> Square {
    Square::new(File::index(f), Rank::index(r))
}

/// Whether `board` is a dead position: no sequence of legal moves can mate
/// (kings alone, one minor piece, or bishops on one square colour only).
fn is_dead(board: &Board) -> bool {
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

/// Whether the endgame king table applies: no queens, or every side with
/// a queen has at most one minor piece and nothing else besides.
fn is_endgame(board: &Board) -> bool {
    [Color::White, Color::Black].iter().all(|&c| {
        let mine = board.colors(c);
        if (mine & board.pieces(Piece::Queen)).is_empty() {
            return true;
        }
        let minors = (mine & (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop))).len();
        let others = (mine & board.pieces(Piece::Rook)).len() + (mine & board.pieces(Piece::Queen)).len() - 1;
        others == 0 && minors <= 1
    })
}

/// The index into a [`PST`] table of `sq` for a piece of colour `c`.
#[inline]
fn pst_index(sq: Square, c: Color) -> usize {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    match c {
        Color::White => (7 - r) * 8 + f,
        Color::Black => r * 8 + f,
    }
}

/// The table value of `piece` of colour `c` on `sq`.
#[inline]
fn pst(piece: Piece, c: Color, sq: Square, endgame: bool) -> i32 {
    let i = pst_index(sq, c);
    if piece == Piece::King && endgame {
        KING_ENDGAME[i]
    } else {
        PST[piece as usize][i]
    }
}

/// Material plus piece-square values for the side to move, clamped to
/// `±HEURISTIC_MAX`.
fn static_eval(board: &Board) -> i32 {
    let endgame = is_endgame(board);
    let mut score = 0;
    for &piece in &Piece::ALL {
        for &c in &[Color::White, Color::Black] {
            let sign = if c == board.side_to_move() { 1 } else { -1 };
            for sq in board.colored_pieces(c, piece) {
                score += sign * (PIECE_VALUE[piece as usize] + pst(piece, c, sq, endgame));
            }
        }
    }
    score.clamp(-HEURISTIC_MAX, HEURISTIC_MAX)
}

/// Whether `mv` is a castling move (cozy-chess: the king takes its own rook).
#[inline]
fn is_castle(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

/// The piece `mv` captures, if any (en passant: a pawn).
#[inline]
fn victim(board: &Board, mv: Move, moved: Piece) -> Option<Piece> {
    if board.colors(!board.side_to_move()).has(mv.to) {
        board.piece_on(mv.to)
    } else if moved == Piece::Pawn && mv.from.file() != mv.to.file() {
        Some(Piece::Pawn)
    } else {
        None
    }
}

/// Offset of capture and promotion keys above every quiet move's key.
const TACTICAL: i32 = 1 << 20;

/// The ordering key of `mv`: higher first. Captures and promotions score
/// `TACTICAL + 8 × (victim value + promotion gain) + (5 − attacker index)`
/// (MVV-LVA); quiet moves the gain in the moving piece's table value.
#[inline]
fn order_key(board: &Board, mv: Move, moved: Piece, endgame: bool) -> i32 {
    let gain = victim(board, mv, moved).map_or(0, |v| PIECE_VALUE[v as usize])
        + mv.promotion.map_or(0, |p| PIECE_VALUE[p as usize] - PIECE_VALUE[0]);
    if gain > 0 || mv.promotion.is_some() {
        return TACTICAL + 8 * gain + (5 - moved as i32);
    }
    let c = board.side_to_move();
    let to = if moved == Piece::King && is_castle(board, mv) {
        castle_king_square(mv)
    } else {
        mv.to
    };
    pst(moved, c, to, endgame) - pst(moved, c, mv.from, endgame)
}

/// Where the king lands when castling with the rook on `mv.to`.
#[inline]
fn castle_king_square(mv: Move) -> Square {
    let file = if mv.to.file() > mv.from.file() {
        File::G
    } else {
        File::C
    };
    Square::new(file, mv.from.rank())
}

/// Sorts `list` by key, highest first, keeping the generator's order among
/// equal keys (insertion sort: lists are short, and it allocates nothing).
fn sort_moves(list: &mut [(i32, Move)]) {
    for i in 1..list.len() {
        let x = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].0 < x.0 {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = x;
    }
}

/// A placeholder to fill move buffers.
const NULL_MOVE: Move = Move {
    from: Square::A1,
    to: Square::A1,
    promotion: None,
};

/// The legal moves of `board` in search order, into `buf`; returns how
/// many. With `tactical_only`, captures and promotions only; `any` tells
/// whether the position has a legal move at all.
fn ordered_moves(board: &Board, tactical_only: bool, buf: &mut [(i32, Move); MAX_MOVES]) -> (usize, bool) {
    let endgame = is_endgame(board);
    let us = board.side_to_move();
    let enemy = board.colors(!us);
    let ep = board.en_passant().map_or(BitBoard::EMPTY, |f| {
        Square::new(f, Rank::Sixth.relative_to(us)).bitboard()
    });
    let promo = Rank::First.bitboard() | Rank::Eighth.bitboard();
    let mut n = 0;
    let mut any = false;
    board.generate_moves(|mut pm| {
        any = true;
        if tactical_only {
            pm.to &= if pm.piece == Piece::Pawn {
                enemy | ep | promo
            } else {
                enemy
            };
        }
        for mv in pm {
            if n < MAX_MOVES {
                buf[n] = (order_key(board, mv, pm.piece, endgame), mv);
                n += 1;
            }
        }
        false
    });
    sort_moves(&mut buf[..n]);
    (n, any)
}

/// Why the game is over at `board`, if it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
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
    fn describe(self, board: &Board) -> String {
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
fn ending(board: &Board) -> Option<Ending> {
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

/// The quiescence search: the value of `board` for the side to move,
/// `ply` moves from the root; fail-soft alpha-beta over captures and
/// promotions with stand-pat.
fn quiesce(board: &Board, ply: u32, mut alpha: i32, beta: i32) -> i32 {
    if is_dead(board) {
        return 0;
    }
    let mut buf = [(0, NULL_MOVE); MAX_MOVES];
    let (n, any) = ordered_moves(board, true, &mut buf);
    if !any {
        return if board.checkers().is_empty() {
            0
        } else {
            -(MATE - ply as i32)
        };
    }
    if board.halfmove_clock() >= 100 {
        return 0;
    }
    let mut best = static_eval(board);
    if best >= beta {
        return best;
    }
    alpha = alpha.max(best);
    for &(_, mv) in &buf[..n] {
        let mut child = board.clone();
        child.play_unchecked(mv);
        let score = -quiesce(&child, ply + 1, -beta, -alpha);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Mixes a small number into a hash (splitmix64's finaliser).
#[inline]
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The root's board and the history before it in one word (each history
/// position with its distance from the root).
fn game_key(root: &Board, history: &[u64]) -> u64 {
    let n = history.len();
    history
        .iter()
        .enumerate()
        .fold(mix(root.hash() ^ 0xA076_1D64_78BD_642F), |k, (i, &h)| {
            k ^ mix(h ^ ((n - i) as u64).wrapping_mul(0xE703_7ED1_A0B4_28DB))
        })
}

/// Reads a UCI move at `board` and checks that it is legal there, and that
/// the game is not `over` there; the error is a one-line reason.
fn parse_uci(board: &Board, text: &str, over: Option<Ending>) -> Result<Move, String> {
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
fn looks_like_uci(w: &str) -> bool {
    let b = w.as_bytes();
    let sq = |i: usize| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]);
    (b.len() == 4 || b.len() == 5 && b"qrbn".contains(&b[4])) && sq(0) && sq(2)
}

/// The UCI text of `mv` at `board`: castling as the king's two-square step.
fn uci_text(board: &Board, mv: Move) -> String {
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

/// Reads a FEN (6 fields, or 4 with the clocks `0 1`) at the start of
/// `text`, skipping EPD operations after 4 fields; returns the board and
/// the rest (empty, or starting with `moves`).
fn parse_fen(text: &str) -> Result<(Board, &str), ChessError> {
    let mut rest = text;
    let mut fields: Vec<&str> = Vec::with_capacity(6);
    for field in 1..=4 {
        match next_word(rest) {
            Some((w, r)) if w != "moves" => {
                fields.push(w);
                rest = r;
            }
            _ => {
                return Err(ChessError::Fen {
                    field,
                    found: None,
                    reason: "a FEN has 6 fields (4 in an EPD line) separated by spaces".to_string(),
                })
            }
        }
    }
    // The clocks: two numbers, or none (EPD).
    if let Some((w, r)) = next_word(rest) {
        if w.bytes().all(|b| b.is_ascii_digit()) || w.starts_with('-') {
            fields.push(w);
            rest = r;
            match next_word(rest) {
                Some((w, r)) if w != "moves" => {
                    fields.push(w);
                    rest = r;
                }
                _ => {
                    return Err(ChessError::Fen {
                        field: 6,
                        found: None,
                        reason: "a FEN with a halfmove clock also has a fullmove number".to_string(),
                    })
                }
            }
        }
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

impl ChessGame {
    /// The standard start position, White to move.
    pub fn new() -> ChessGame {
        ChessGame::from_board(Board::startpos())
    }

    /// The game at `board`, with no history: no position before it counts
    /// for repetitions.
    pub fn from_board(board: Board) -> ChessGame {
        ChessGame::from_board_with_history(board, Vec::new())
    }

    /// The game at `board`, reached through the positions whose
    /// [`Board::hash`]es are `history`, oldest first: those played since the
    /// last capture or pawn move (the ones before it can never repeat).
    /// Only the last [`Board::halfmove_clock`] of them are ever compared
    /// with a position; [`ChessGame::history`] reads them back.
    pub fn from_board_with_history(board: Board, history: Vec<u64>) -> ChessGame {
        let key = game_key(&board, &history);
        ChessGame {
            root: board,
            history,
            key,
        }
    }

    /// The game at a position; see the [module documentation](self) for
    /// what `text` may be.
    ///
    /// # Errors
    /// A [`ChessError`] naming the bad FEN field, the bad EPD text, or the
    /// first bad move (its 1-based index, its text, and why it is not legal).
    pub fn from_position(text: &str) -> Result<ChessGame, ChessError> {
        let text = text.trim();
        let (board, tail) = match next_word(text) {
            None => (Board::startpos(), ""),
            Some(("startpos", rest)) => (Board::startpos(), rest),
            Some(("fen", rest)) => parse_fen(rest)?,
            Some(("moves", _)) => (Board::startpos(), text),
            Some((w, _)) if w.contains('/') => parse_fen(text)?,
            Some((w, _)) if looks_like_uci(w) => {
                // A bare move list from the start position.
                return ChessGame::new().play_moves(text);
            }
            Some((w, _)) => {
                return Err(ChessError::Syntax(format!(
                    "`{w}`: a chess position is `startpos`, a FEN (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`) or an EPD line, optionally followed by `moves e2e4 ...`"
                )))
            }
        };
        let game = ChessGame::from_board(board);
        match next_word(tail) {
            None => Ok(game),
            Some(("moves", moves)) => game.play_moves(moves),
            Some((w, _)) => Err(ChessError::Syntax(format!(
                "`{w}` after the position: expected `moves` and a list of moves"
            ))),
        }
    }

    /// Plays the whitespace-separated UCI moves of `moves`, checking each.
    fn play_moves(mut self, moves: &str) -> Result<ChessGame, ChessError> {
        for (i, text) in moves.split_whitespace().enumerate() {
            let mv = parse_uci(&self.root, text, self.final_ending()).map_err(|reason| ChessError::Move {
                index: i + 1,
                text: text.to_string(),
                reason,
            })?;
            self.play_at_root(mv);
        }
        Ok(self)
    }

    /// Plays the legal move `mv` at the root, keeping the history: the
    /// old root joins it, or it empties after a capture or a pawn move.
    fn play_at_root(&mut self, mv: Move) {
        let before = self.root.hash();
        self.root.play_unchecked(mv);
        if self.root.halfmove_clock() == 0 {
            self.history.clear();
        } else {
            self.history.push(before);
        }
        self.key = game_key(&self.root, &self.history);
    }

    /// What the value of `pos` depends on besides its board, its ply and
    /// the game: the positions of its search path after the root that a
    /// line below it could repeat (those since the last capture or pawn
    /// move, within the path memory), each with its distance.
    #[inline]
    fn path_key(pos: &ChessPosition) -> u64 {
        let ply = pos.ply as usize;
        let window = usize::from(pos.board.halfmove_clock())
            .min(ply.saturating_sub(1))
            .min(PATH_MEMORY);
        let mut key = 0;
        for d in 1..=window {
            let seen = pos.path[(ply - d) % PATH_MEMORY];
            key ^= mix(seen ^ (d as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        key
    }

    /// The root board.
    pub fn board(&self) -> &Board {
        &self.root
    }

    /// The [`Board::hash`]es of the positions played before the root since
    /// the last capture or pawn move, oldest first: what repetitions are
    /// detected against. Empty for a game read from a bare FEN.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Whether the root is a threefold repetition: its board occurred twice
    /// before in the history, the same side to move, within the halfmove
    /// clock.
    pub fn is_threefold(&self) -> bool {
        let h = self.root.hash();
        let len = self.history.len();
        let reach = usize::from(self.root.halfmove_clock()).min(len);
        (4..=reach).step_by(2).filter(|&j| self.history[len - j] == h).count() >= 2
    }

    /// Why the game is over at the root, if it is: the board's endings,
    /// then a threefold repetition.
    fn ending(&self) -> Option<Ending> {
        ending(&self.root).or_else(|| self.is_threefold().then_some(Ending::Repetition))
    }

    /// The endings at the root that end the game by themselves (mate,
    /// stalemate, a dead position): no move may follow them. The draws a
    /// player claims (threefold, fifty moves) are not among them.
    fn final_ending(&self) -> Option<Ending> {
        self.ending()
            .filter(|e| !matches!(e, Ending::Repetition | Ending::FiftyMoves))
    }

    /// Whether `pos`, inside the search, is drawn by repetition: with the
    /// same side to move and only reversible moves since (the halfmove
    /// clock covers it), its board occurred at a position of the search
    /// path after the root, or twice at the root or in the game's history
    /// before it. Never at the root itself; positions of the path more
    /// than [`PATH_MEMORY`] plies back (after the root) are not seen.
    #[inline]
    fn repeats(&self, pos: &ChessPosition) -> bool {
        let ply = pos.ply as usize;
        let reach = usize::from(pos.board.halfmove_clock()).min(ply + self.history.len());
        // One move of each side cannot bring a position back: 4 plies at least.
        if ply == 0 || reach < 4 {
            return false;
        }
        let h = pos.board.hash();
        let mut before_root = 0;
        let mut j = 4;
        while j <= reach {
            if j < ply {
                // On the search path, after the root.
                if j > PATH_MEMORY {
                    // Out of memory: go on with the root and the history.
                    j = ply + (ply - j) % 2;
                    continue;
                }
                if pos.path[(ply - j) % PATH_MEMORY] == h {
                    return true;
                }
            } else {
                let seen = if j == ply {
                    self.root.hash()
                } else {
                    self.history[self.history.len() - (j - ply)]
                };
                if seen == h {
                    before_root += 1;
                    if before_root == 2 {
                        return true;
                    }
                }
            }
            j += 2;
        }
        false
    }

    /// The root position as a FEN.
    pub fn fen(&self) -> String {
        self.root.to_string()
    }

    /// The value of `score` for the side to move at `pos`, from MAX's view.
    #[inline]
    fn for_max(&self, pos: &ChessPosition, score: Value) -> Value {
        if pos.ply % 2 == 0 {
            score
        } else {
            -score
        }
    }
}

impl fmt::Display for ChessGame {
    /// The board, rank 8 first (White upper case, `.` empty), the files
    /// under it, and the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let sq = square(file, rank);
                let c = match self.root.piece_on(sq) {
                    None => '.',
                    Some(p) => {
                        let c = char::from(p);
                        if self.root.colors(Color::White).has(sq) {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        }
                    }
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")?;
        writeln!(f, "FEN {}", self.fen())
    }
}

impl Game for ChessGame {
    type Position = ChessPosition;
    type Move = Move;

    fn root(&self) -> ChessPosition {
        ChessPosition {
            board: self.root.clone(),
            ply: 0,
            path: [0; PATH_MEMORY],
        }
    }

    #[inline]
    fn role(&self, pos: &ChessPosition) -> Role {
        if pos.ply % 2 == 0 {
            Role::Max
        } else {
            Role::Min
        }
    }

    /// Every legal move, captures and promotions first (MVV-LVA), none
    /// when the game is over (mate, stalemate, dead position; fifty moves
    /// or a repetition inside the search, never at the root, where the
    /// draw is only claimed).
    fn moves(&self, pos: &ChessPosition, out: &mut Vec<Move>) {
        let board = &pos.board;
        let fifty = pos.ply > 0 && board.halfmove_clock() >= 100 && board.generate_moves(|_| true);
        if is_dead(board) || fifty || self.repeats(pos) {
            return;
        }
        let mut buf = [(0, NULL_MOVE); MAX_MOVES];
        let (n, _) = ordered_moves(board, false, &mut buf);
        out.extend(buf[..n].iter().map(|&(_, mv)| mv));
    }

    #[inline]
    fn play(&self, pos: &ChessPosition, mv: Move) -> ChessPosition {
        let mut board = pos.board.clone();
        board.play_unchecked(mv);
        let mut path = pos.path;
        path[pos.ply as usize % PATH_MEMORY] = pos.board.hash();
        ChessPosition {
            board,
            ply: pos.ply + 1,
            path,
        }
    }

    /// The quiescence search's value; exact at the end of the game (0 for
    /// a repetition inside the search).
    fn evaluate(&self, pos: &ChessPosition) -> Value {
        if self.repeats(pos) {
            return 0;
        }
        let score = quiesce(&pos.board, pos.ply, -MATE - 1, MATE + 1);
        self.for_max(pos, score)
    }

    #[inline]
    fn hash(&self, pos: &ChessPosition) -> Option<u64> {
        let clock = pos.board.halfmove_clock();
        let clock = if clock > 50 { u64::from(clock) << 32 } else { 0 };
        Some(pos.board.hash() ^ mix(u64::from(pos.ply) | clock) ^ self.key ^ ChessGame::path_key(pos))
    }

    /// From-square, to-square and promotion piece.
    #[inline]
    fn move_key(&self, _pos: &ChessPosition, mv: Move) -> Option<u32> {
        let promo = mv.promotion.map_or(0, |p| p as u32 + 1);
        Some(mv.from as u32 | ((mv.to as u32) << 6) | (promo << 12))
    }

    /// The side to move at ply `p` is at worst mated now, at best mates
    /// with its move: `-(MATE - p) ..= MATE - p - 1` for it.
    #[inline]
    fn bounds(&self, pos: &ChessPosition) -> (Value, Value) {
        let p = pos.ply as Value;
        let (lo, hi) = (-(MATE - p), MATE - p - 1);
        let role = if pos.ply % 2 == 0 { Role::Max } else { Role::Min };
        super::for_role(role, (lo, hi))
    }

    fn name(&self) -> &str {
        "chess"
    }
}

impl Playable for ChessGame {
    type PositionError = ChessError;

    /// A FEN, an EPD line or `startpos`, then optionally `moves ...`;
    /// see [`ChessGame::from_position`].
    fn from_position(text: &str) -> Result<ChessGame, ChessError> {
        ChessGame::from_position(text)
    }

    /// Chess always values its horizon with the heuristic.
    fn heuristic(self) -> ChessGame {
        self
    }

    /// Every legal move at the root; none when the game is over there,
    /// a threefold repetition or the fifty-move rule included (while
    /// [`Game::moves`] still lists them there, so that a search names a move).
    fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.ending().is_none() {
            self.moves(&self.root(), &mut out);
        }
        out
    }

    /// The game after `mv`, its history extended by the old root (or
    /// emptied, after a capture or a pawn move).
    fn after(&self, mv: Move) -> ChessGame {
        assert!(self.root.is_legal(mv), "{mv} is not legal in {}", self.root);
        let mut game = self.clone();
        game.play_at_root(mv);
        game
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        parse_uci(&self.root, text, self.final_ending())
    }

    fn move_text(&self, mv: Move) -> String {
        uci_text(&self.root, mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.root.side_to_move() == Color::White
    }

    fn result(&self) -> Option<GameResult> {
        match self.ending()? {
            Ending::Checkmate if self.first_player_to_move() => Some(GameResult::SecondPlayerWins),
            Ending::Checkmate => Some(GameResult::FirstPlayerWins),
            _ => Some(GameResult::Draw),
        }
    }

    fn player_name(&self, first: bool) -> &'static str {
        if first {
            "White"
        } else {
            "Black"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::alphabeta;
    use crate::search::SearchOptions;

    fn game(text: &str) -> ChessGame {
        ChessGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn err(text: &str) -> String {
        ChessGame::from_position(text).unwrap_err().to_string()
    }

    fn texts(g: &ChessGame) -> Vec<String> {
        g.legal_moves().into_iter().map(|m| g.move_text(m)).collect()
    }

    fn value(g: &ChessGame, depth: u32) -> Value {
        let opts = SearchOptions {
            depth: Some(depth),
            ..Default::default()
        };
        alphabeta::search(g, &opts).unwrap().value.unwrap()
    }

    #[test]
    fn positions_parse_in_every_form() {
        assert_eq!(game("").fen(), STARTPOS);
        assert_eq!(game("startpos"), ChessGame::new());
        assert_eq!(game(STARTPOS), ChessGame::new());
        assert_eq!(game(&format!("fen {STARTPOS}")), ChessGame::new());
        // EPD: four fields, clocks 0 1, operations ignored.
        let epd = game("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";");
        assert_eq!(epd.fen(), "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1");
        assert_eq!(
            game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
            ChessGame::new()
        );
        let a = game("startpos moves e2e4 e7e5");
        assert_eq!(a, game("moves e2e4 e7e5"));
        assert_eq!(a, game("e2e4 e7e5"));
        assert_eq!(a, game(&format!("{STARTPOS} moves e2e4 e7e5")));
        assert_eq!(a, game("  startpos   moves  e2e4\te7e5 "));
        // EPD operations, then moves.
        let b = game("4k3/8/8/8/8/8/8/4K2R w K - id \"a; b\"; moves e1g1");
        assert_eq!(b.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    }

    #[test]
    fn errors_name_the_field_or_the_move() {
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "FEN field 1 (piece placement) `rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR`: has 7 ranks separated by `/`, expected 8"
        );
        assert!(err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .contains("rank 7 (`ppppppppp`) covers 9 squares"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w KQkq - 0 1").contains("`X` in rank 1"));
        assert!(err("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1").contains("Black has 0 kings"));
        assert!(err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1").contains("a pawn on a1"));
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
            "FEN field 2 (side to move) `x`: expected `w` (White to move) or `b` (Black to move)"
        );
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1")
            .starts_with("FEN field 3 (castling rights) `KQkx`: `x`"));
        assert!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1").contains("`K` needs White's king on e1 and a rook on h1"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1").contains("rank 6"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1")
            .starts_with("FEN field 4 (en passant square) `e6`: no pawn"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 101 1")
            .starts_with("FEN field 5 (halfmove clock) `101`"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0")
            .starts_with("FEN field 6 (fullmove number) `0`"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0")
            .starts_with("FEN field 6 (fullmove number) is missing"));
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
            .starts_with("FEN field 3 (castling rights) is missing"));
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w - - 0 1 moves h1a8"),
            "move 1 `h1a8`: the rook on h1 cannot move to a8"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w - - 0 1 moves h1h8 e8d8"),
            "move 2 `e8d8`: the king on e8 cannot move to d8 (Black is in check)"
        );
        assert_eq!(
            err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
            "illegal position: Black is in check but it is not Black's move"
        );
        assert!(err("startpos moves e2e4 e7e5 zz").starts_with("move 3 `zz`: `zz` is not a move in UCI notation"));
        assert_eq!(
            err("startpos moves e2e5"),
            "move 1 `e2e5`: the pawn on e2 cannot move to e5"
        );
        assert_eq!(
            err("startpos moves e1g1"),
            "move 1 `e1g1`: the king on e1 cannot move to g1"
        );
        assert!(err("hello").contains("a chess position is `startpos`, a FEN"));
        assert!(err("startpos e2e4").contains("expected `moves`"));
        assert!(ChessGame::from_position("4k3/8/8/8/8/8/8/4K3 w - - bm Ke2").is_ok());
        assert!(err("4k3/8/8/8/8/8/8/4K3 w - - id \"BK.01;").contains("unterminated quoted operand"));
        // The fool's mate: no move after the mate.
        let mated = "startpos moves f2f3 e7e5 g2g4 d8h4";
        assert_eq!(
            err(&format!("{mated} a2a3")),
            "move 5 `a2a3`: the game is over: White is checkmated"
        );
    }

    #[test]
    fn castling_and_promotion_in_uci() {
        let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let t = texts(&g);
        assert!(
            t.contains(&"e1g1".to_string()) && t.contains(&"e1c1".to_string()),
            "{t:?}"
        );
        let mv = g.parse_move("e1g1").unwrap();
        assert_eq!(mv.to, Square::H1); // cozy-chess: king takes rook
        assert_eq!(g.move_text(mv), "e1g1");
        assert_eq!(g.after(mv).fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        assert_eq!(g.parse_move("e1h1").unwrap(), mv);
        let g = game("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
        assert_eq!(g.parse_move("e1g1").unwrap_err(), "White cannot castle kingside here");
        let g = game("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            g.parse_move("a7a8").unwrap_err(),
            "a pawn reaching the last rank must promote: add q, r, b or n (`a7a8q`)"
        );
        let q = g.parse_move("a7a8q").unwrap();
        assert_eq!(g.move_text(q), "a7a8q");
        assert_eq!(g.parse_move("A7A8Q").unwrap(), q);
        assert_eq!(
            g.parse_move("e1e2q").unwrap_err(),
            "only a pawn reaching the last rank promotes"
        );
        assert_eq!(g.parse_move("d4d5").unwrap_err(), "there is no white piece on d4");
        // Promotions come first, the queen's first of all.
        assert_eq!(&texts(&g)[..4], &["a7a8q", "a7a8r", "a7a8b", "a7a8n"]);
    }

    #[test]
    fn captures_come_first_in_mvv_lva_order() {
        // The white pawn and queen can both take the black queen on d5: the
        // pawn (least valuable attacker) first; then the queen takes a pawn.
        let g = game("4k3/8/8/p2q4/4P3/8/8/Q2QK3 w - - 0 1");
        let t = texts(&g);
        assert_eq!(&t[..3], &["e4d5", "d1d5", "a1a5"], "{t:?}");
        // Then the quiet moves, the largest gain in square value first.
        let g = game("4k3/p7/8/8/8/8/8/N3K3 w - - 0 1");
        assert_eq!(texts(&g)[0], "a1b3");
    }

    #[test]
    fn display_shows_the_board_and_the_fen() {
        let s = ChessGame::new().to_string();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[7], "1  R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
        assert_eq!(lines[9], format!("FEN {STARTPOS}"));
    }

    #[test]
    fn evaluation_is_symmetric_and_sane() {
        // The start position is balanced, for either side to move.
        assert_eq!(static_eval(&Board::startpos()), 0);
        // After 1.Nf3 (-40 on g1, +10 on f3) Black, to move, is 50 behind.
        assert_eq!(static_eval(game("startpos moves g1f3").board()), -50);
        // A mirrored position (colours swapped, board flipped) evaluates the same.
        let a = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = game("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(static_eval(a.board()), static_eval(b.board()));
        // Knight in the centre beats knight on the rim.
        let centre = game("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let rim = game("4k3/8/8/8/N7/8/8/4K3 w - - 0 1");
        assert!(static_eval(centre.board()) > static_eval(rim.board()));
        // Quiescence: a queen that can take a defended pawn does not.
        let g = game("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
        let stand = static_eval(g.board());
        assert_eq!(g.evaluate(&g.root()), stand);
        // ... but takes an undefended queen.
        let g = game("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1");
        assert!(g.evaluate(&g.root()) > 800);
        // MIN's view: one ply later the value is negated.
        let g = game("4k3/8/8/3q4/8/8/8/4K2R w - - 0 1");
        let child = g.play(&g.root(), g.parse_move("h1h2").unwrap());
        assert_eq!(g.role(&child), Role::Min);
        assert!(g.evaluate(&child) < -300, "{}", g.evaluate(&child));
    }

    #[test]
    fn endings_are_exact() {
        // Fool's mate: White to move is mated.
        let g = game("startpos moves f2f3 e7e5 g2g4 d8h4");
        assert_eq!(g.evaluate(&g.root()), -MATE);
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.result(), Some(GameResult::SecondPlayerWins));
        // Stalemate.
        let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!((g.evaluate(&g.root()), g.result()), (0, Some(GameResult::Draw)));
        // Dead positions: no moves, value 0.
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
            "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1",
        ] {
            let g = game(fen);
            assert!(g.legal_moves().is_empty(), "{fen}");
            assert_eq!(
                (g.evaluate(&g.root()), g.result()),
                (0, Some(GameResult::Draw)),
                "{fen}"
            );
        }
        // Bishops on different colours, or a knight and a bishop: not dead.
        assert!(game("8/3b4/4k3/8/8/3KB3/8/8 w - - 0 1").result().is_none());
        // The fifty-move rule.
        let g = game("8/8/4k3/8/8/3K4/7R/8 w - - 100 80");
        assert_eq!((g.legal_moves().len(), g.result()), (0, Some(GameResult::Draw)));
        assert_eq!(value(&g, 3), 0);
        // Claimed, not automatic: the root still has moves to search and
        // to play (every one of them a draw).
        assert!(has_moves(&g, &g.root()));
        assert!(g.parse_move("h2h3").is_ok());
        let g = game("8/8/4k3/8/8/3K4/7R/8 w - - 99 80");
        assert_eq!(value(&g, 1), 0); // every rook or king move reaches 100
        assert!(value(&g, 0) > 400);
        // Mate in one: Rd8#, from the winner's and the loser's side.
        let g = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(value(&g, 1), MATE - 1);
        let g = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1");
        assert!(value(&g, 2) > -MATE + 100); // Black to move escapes (e.g. ...h6)
        assert_eq!(value(&game("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"), 1), -MATE);
    }

    /// Mangled positions and moves are rejected with a message, never a
    /// panic: thousands of random edits of valid texts, from a fixed seed.
    #[test]
    fn mangled_input_never_panics() {
        let seeds = [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";",
            "startpos moves e2e4 e7e5 g1f3",
            "8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q",
        ];
        let alphabet: Vec<char> = "pnbrqkPNBRQK0123456789/ wb-KQkqaeh;\"é\tmoves".chars().collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut accepted = 0;
        for _ in 0..4000 {
            let mut text: Vec<char> = seeds[next(seeds.len())].chars().collect();
            for _ in 0..=next(3) {
                let at = next(text.len() + 1);
                match next(3) {
                    0 if at < text.len() => {
                        text.remove(at);
                    }
                    1 => text.insert(at, alphabet[next(alphabet.len())]),
                    _ if at < text.len() => text[at] = alphabet[next(alphabet.len())],
                    _ => {}
                }
            }
            let text: String = text.into_iter().collect();
            match ChessGame::from_position(&text) {
                Ok(g) => {
                    accepted += 1;
                    let _ = (g.to_string(), g.result(), g.legal_moves());
                    let _ = g.evaluate(&g.root());
                    let word: String = text.chars().rev().take(5).collect();
                    let _ = g.parse_move(&word);
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        assert!(accepted > 100, "{accepted}");
    }

    #[test]
    fn hash_and_keys() {
        let g = ChessGame::new();
        let a = game("startpos moves g1f3 g8f6 b1c3");
        let b = game("startpos moves b1c3 g8f6 g1f3");
        assert_eq!(a.board().hash(), b.board().hash());
        // The same board at the same ply through the same positions: one
        // hash; through other positions a repetition could reach back to
        // (no graph-history interaction), or at another ply: another.
        let pa = ChessPosition {
            board: a.root.clone(),
            ply: 3,
            path: [0; PATH_MEMORY],
        };
        assert_eq!(g.hash(&pa), g.hash(&pa.clone()));
        let pb = ChessPosition {
            path: [1; PATH_MEMORY],
            ..pa.clone()
        };
        assert_ne!(g.hash(&pa), g.hash(&pb));
        let pc = ChessPosition { ply: 5, ..pa.clone() };
        assert_ne!(g.hash(&pa), g.hash(&pc));
        // The two move orders reach one board by different paths.
        let (x, y) = (line(&g, "g1f3 g8f6 b1c3"), line(&g, "b1c3 g8f6 g1f3"));
        assert_eq!(x[3].board, y[3].board);
        assert_ne!(g.hash(&x[3]), g.hash(&y[3]));
        // After a pawn move nothing before it can come back: they merge.
        let (x, y) = (line(&g, "g1f3 g8f6 d2d4 d7d5"), line(&g, "d2d4 g8f6 g1f3 d7d5"));
        assert_eq!(g.hash(&x[4]), g.hash(&y[4]));
        // The game's history counts too.
        let knights = game("startpos moves g1f3 g8f6 f3g1 f6g8");
        assert_eq!(knights.board().hash(), g.board().hash());
        assert_ne!(knights.hash(&knights.root()), g.hash(&g.root()));
        let mv = g.parse_move("e2e4").unwrap();
        assert_eq!(g.move_key(&g.root(), mv), Some(12 | 28 << 6));
        assert_eq!(g.bounds(&g.root()), (-MATE, MATE - 1));
        let child = g.play(&g.root(), mv);
        assert_eq!(g.bounds(&child), (-(MATE - 2), MATE - 1));
        assert_eq!(g.value_range(), (-MATE, MATE - 1));
    }

    /// The boards a line of moves passes through, as `ChessPosition`s of
    /// the search from `g`'s root.
    fn line(g: &ChessGame, moves: &str) -> Vec<ChessPosition> {
        let mut path = vec![g.root()];
        for text in moves.split_whitespace() {
            let pos = path.last().unwrap();
            let mv = parse_uci(&pos.board, text, None).unwrap();
            path.push(g.play(pos, mv));
        }
        path
    }

    fn has_moves(g: &ChessGame, pos: &ChessPosition) -> bool {
        let mut out = Vec::new();
        g.moves(pos, &mut out);
        !out.is_empty()
    }

    #[test]
    fn the_history_holds_the_reversible_positions_before_the_root() {
        assert!(ChessGame::new().history().is_empty());
        let g = game("startpos moves g1f3 g8f6 f3g1 f6g8");
        let start = Board::startpos().hash();
        assert_eq!(g.history().len(), 4);
        assert_eq!((g.history()[0], g.board().hash()), (start, start));
        // The same board, another history: another game.
        assert_ne!(g, ChessGame::new());
        assert_eq!(
            g,
            ChessGame::from_board_with_history(g.board().clone(), g.history().to_vec())
        );
        // `after` extends it; a pawn move or a capture empties it.
        let mv = g.parse_move("b1c3").unwrap();
        assert_eq!(g.after(mv).history(), [g.history(), &[start][..]].concat());
        assert!(g.after(g.parse_move("e2e4").unwrap()).history().is_empty());
        assert!(game("startpos moves g1f3 g8f6 f3g1 e7e5").history().is_empty());
        assert_eq!(
            game("startpos moves e2e4 g8f6 e4e5 f6e4 d2d3 e4c5 g1f3")
                .history()
                .len(),
            2
        );
        // A bare FEN has none, whatever its clock.
        assert!(game("4k3/8/8/8/8/8/8/4K2R w K - 30 40").history().is_empty());
    }

    #[test]
    fn a_threefold_repetition_ends_the_game() {
        let knights = "g1f3 g8f6 f3g1 f6g8";
        let g = game(&format!("startpos moves {knights} {knights}"));
        assert!(g.is_threefold());
        assert_eq!(g.result(), Some(GameResult::Draw));
        assert_eq!(g.ending(), Some(Ending::Repetition));
        assert!(g.legal_moves().is_empty());
        // A draw that is claimed: a GUI may play on past it.
        let on = g.after(g.parse_move("e2e4").unwrap());
        assert_eq!(on.result(), None);
        assert!(!on.legal_moves().is_empty());
        // A search of it still names a move: the root is never cut off.
        assert!(has_moves(&g, &g.root()));
        assert!(alphabeta::search(
            &g,
            &SearchOptions {
                depth: Some(2),
                ..Default::default()
            }
        )
        .unwrap()
        .best_move
        .is_some());
        // Twice is not thrice, nor is a repetition of the other side's turn.
        for moves in ["g1f3 g8f6 f3g1 f6g8 g1f3 g8f6", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"] {
            let g = game(&format!("startpos moves {moves}"));
            assert_eq!(g.result(), None, "{moves}");
            assert!(!g.legal_moves().is_empty() && g.parse_move("e7e5").is_ok() != g.first_player_to_move());
        }
        // The same history with a clock that does not cover it: no repetition.
        let start = Board::startpos().hash();
        let g = ChessGame::from_board_with_history(Board::startpos(), vec![start, 1, 2, 3, start, 4, 5, 6]);
        assert_eq!(g.result(), None);
    }

    #[test]
    fn repetitions_inside_the_search_are_draws() {
        // From the start position: back at the root after 4 plies is only
        // a twofold repetition; the fifth ply repeats the first, a position
        // after the root: a draw, no moves, value 0.
        let g = ChessGame::new();
        let path = line(&g, "g1f3 g8f6 f3g1 f6g8 g1f3");
        for pos in &path[..5] {
            assert!(!g.repeats(pos) && has_moves(&g, pos), "ply {}", pos.ply);
        }
        assert!(g.repeats(&path[5]) && !has_moves(&g, &path[5]));
        // The same board at ply 1 is worth its value (Black 50 behind).
        assert_eq!((g.evaluate(&path[1]), g.evaluate(&path[5])), (50, 0));
        // With the knights' trip already in the history, coming back to the
        // root is the third occurrence: a draw at ply 4.
        let g = game("startpos moves g1f3 g8f6 f3g1 f6g8");
        let path = line(&g, "g1f3 g8f6 f3g1 f6g8");
        assert!(!g.repeats(&path[3]) && g.repeats(&path[4]));
        assert_eq!(g.evaluate(&path[4]), 0);
        // After a pawn move the clock starts again: the position right after
        // it (ply 3) is the first of the run, repeated at ply 7.
        let g = ChessGame::new();
        let path = line(&g, "g1f3 g8f6 e2e3 f6g8 f3g1 g8f6 g1f3");
        let repeated: Vec<u32> = path.iter().filter(|p| g.repeats(p)).map(|p| p.ply).collect();
        assert_eq!((path[3].board.halfmove_clock(), repeated), (0, vec![7]));
    }

    #[test]
    fn the_path_is_remembered_16_plies_back() {
        // A position at ply 20, its clock 30: the search path holds its
        // board 16 plies back (seen), or 18 plies back only (not seen).
        let g = game("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        let board = game("4k3/8/8/8/8/8/8/4K2R w - - 30 40").root;
        let at = |p: u32| {
            let mut path = [7; PATH_MEMORY];
            path[p as usize % PATH_MEMORY] = board.hash();
            ChessPosition {
                board: board.clone(),
                ply: 20,
                path,
            }
        };
        assert!(g.repeats(&at(4)) && g.repeats(&at(16)));
        assert!(!g.repeats(&at(2)));
        // Nor beyond the halfmove clock: with a clock of 3, not 4 plies back.
        let short = ChessPosition {
            board: game("4k3/8/8/8/8/8/8/4K2R w - - 3 40").root,
            ..at(16)
        };
        let mut path = short.path;
        path[0] = short.board.hash();
        assert!(!g.repeats(&ChessPosition { path, ..short }));
        // Before the root the history is read at any distance: the root
        // 20 plies back (and the history 24 plies back) make a threefold.
        let far = ChessGame::from_board_with_history(board.clone(), vec![board.hash(), 9, 9, 9]);
        let pos = ChessPosition {
            path: [7; PATH_MEMORY],
            ..at(0)
        };
        assert!(far.repeats(&pos));
        assert!(!g.repeats(&pos));
    }
}
