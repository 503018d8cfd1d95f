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
//! depth ([`Limits::depth`](crate::Limits::depth)) or a time
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
//! use stockman::{Algorithm, Limits, SearchOptions};
//!
//! // A back-rank mate in one: Rd8#.
//! let game = ChessGame::from_position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
//! let opts = SearchOptions { limits: Limits::to_depth(2), ..Default::default() };
//! let out = Algorithm::AlphaBeta.search(&game, &opts).unwrap();
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
use cozy_chess::{Board, Color, Move};
use std::fmt;

mod eval;
mod notation;
mod repetition;
mod rules;
#[cfg(test)]
mod tests;

pub use notation::ChessError;

use eval::{ordered_moves, quiesce, MAX_MOVES, NULL_MOVE};
use notation::{looks_like_uci, next_word, parse_fen, parse_uci, square, uci_text};
use repetition::{game_key, mix};
use rules::{ending, is_dead, Ending};

/// The score of mating at the root: a mate `ply` moves from the root is
/// worth `MATE - ply` to the winner.
pub const MATE: Value = 100_000;
/// Heuristic values lie in `-HEURISTIC_MAX..=HEURISTIC_MAX`, far below
/// every mate score.
pub const HEURISTIC_MAX: Value = 50_000;

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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

    /// The root position as a FEN.
    pub fn fen(&self) -> String {
        self.root.to_string()
    }

    /// The value of `score` for the side to move at `pos`, from MAX's view.
    #[inline]
    fn for_max(&self, pos: &ChessPosition, score: Value) -> Value {
        if pos.ply.is_multiple_of(2) {
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
        if pos.ply.is_multiple_of(2) {
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
        let role = if pos.ply.is_multiple_of(2) {
            Role::Max
        } else {
            Role::Min
        };
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
