//! Othello (Reversi) on the standard 8 x 8 board, on bitboards: solved
//! exactly to the end of the game, or searched to a fixed depth with a
//! heuristic.
//!
//! # Squares, moves and players
//! Squares are named `a1` to `h8`: a letter for the column (`a` to `h`,
//! left to right) and a digit for the row (`1` to `8`, top to bottom), as in
//! the FFO test suite and Othello transcripts. A [`Game::Move`] is the
//! square's index `8 × row + column` (`a1` = 0, `h1` = 7, `h8` = 63), or
//! [`PASS`] (64) when the side to move has no legal move but the opponent
//! has: a pass is a move of the tree like any other (one ply). Black (`X`)
//! moves first. The player to move at the root is MAX, whatever its colour;
//! every value is from its point of view.
//!
//! # Positions
//! [`Othello::from_position`] reads either
//! - a **move list** from the initial position, squares run together or
//!   separated by white space, case free (`f5d6c3d3c4`, `F5 D6`); a forced
//!   pass may be written `pass` or left out (the next square is then the
//!   other player's), or
//! - a **board** in the FFO notation: 64 squares `a1 b1 ... h1 a2 ... h8`
//!   (`X` or `*` black, `O` white, `-` or `.` empty), white space, and the
//!   side to move (`X` black, `O` white); text from a `;` on (an FFO line's
//!   `move:score` list) is ignored.
//!
//! Malformed text is an [`OthelloError`] naming the move or character, its
//! column, and the reason (an illegal move lists the legal ones).
//!
//! # Values
//! - [`Scoring::Exact`] (the default): a finished game (neither side can
//!   move) is worth its **final disc difference** from the root mover's
//!   view, the empty squares going to the winner (the FFO convention), so
//!   every final score is even and lies in `-64..=64`. A search to the end
//!   (no depth) returns the FFO suite's scores exactly. A non-terminal
//!   position at a horizon is worth 0 (unknown), or the nearest value the
//!   stable discs allow: use the heuristic for fixed-depth searches.
//! - [`Scoring::Heuristic`] ([`Othello::with_heuristic`]): a finished game is
//!   worth [`HEURISTIC_SCALE`]` × score` (so at least 2,000 in magnitude for a
//!   decided game: every win ranks above every heuristic value) and a
//!   position at the horizon a heuristic in `-999..=999` from the side to
//!   move, turned to MAX's view:
//!   `40 × corners + 12 × mobility + 4 × potential mobility −
//!   20 × X-squares + 2 × edge discs`, each term the side to move's count minus the
//!   opponent's, where *mobility* counts legal moves, *potential mobility*
//!   the empty squares next to an opponent's disc (where one could later
//!   play), *X-squares* the discs on b2, g2, b7, g7 next to an empty corner
//!   (they give the corner away), and *edge discs* the discs on the outer
//!   ring but the corners. Corners and mobility are the two features every
//!   Othello program since Rosenbloom's IAGO (1982) weighs most; the weights
//!   are this project's, set by hand. A drawn ending (0) lies inside the
//!   heuristic range, as in Connect Four.
//!
//! # Game knowledge, value-exact
//! The searches are generic, so the game carries what an endgame solver
//! knows, in forms that never change a minimax value:
//! - **The last empty squares.** A position with at most [`SOLVE_EMPTIES`]
//!   empty squares is solved by the game itself, with a plain alpha-beta
//!   and no table (moves sorted fastest first down to six empty squares,
//!   then the empty squares in parity order without a move list), as a
//!   chess program's quiescence search runs inside its evaluation: below
//!   the root such a position is a **leaf** of the tree every algorithm
//!   sees (no moves; [`Game::evaluate`] is its exact score), and its
//!   [`Game::bounds_within`] is the exact score, or a fail-soft bound
//!   outside the search's window, so that depth-first searches settle it
//!   with a null-window solve instead of a full one (best-first searches,
//!   which do not ask for bounds, evaluate it). The positions the solver
//!   visits are not counted in the searches' statistics, as quiescence
//!   positions are not. The root lists its moves whatever its empties.
//! - **Stability.** A disc that can never be flipped (on a full line, or
//!   next to the board's edge or a stable disc of its colour in each of the
//!   four directions) stays its owner's to the end, so the side to move
//!   scores at most `64 − 2 × (opponent's stable discs)` and at least
//!   `2 × (own stable discs) − 64`. [`Game::bounds_within`] counts stable
//!   discs at most [`STABILITY_EMPTIES`] empty squares, and only when the
//!   discs on the board could prove a cut-off of the window.
//! - **Move ordering** ([`MoveOrder`], [`Othello::with_order`]): moves are
//!   listed in search order. By default ([`MoveOrder::BestReply`]), above
//!   [`BEST_REPLY_EMPTIES`] empty squares the moves after which the
//!   opponent's best heuristic reply is worst come first (in exact scoring,
//!   each reply left to the opponent counting against a move as well, and
//!   up to [`ONE_PLY_EMPTIES`] the heuristic of the position reached instead
//!   of the best reply); below, *fastest
//!   first*: the moves leaving the opponent the fewest replies (a corner
//!   counting double) and the least potential mobility; ties go to moves
//!   into a region (quadrant) with an odd number of empty squares
//!   (*parity*: the last move of a region is an advantage), then to a static
//!   square order (corners first, X-squares last). The bench
//!   (`cargo bench -p stockman --bench ffo`, `FFO_ORDER`) measures each.
//! - **Hash.** A 64-bit mix of the two bitboards and the side to move
//!   ([`Board::key`]): equal positions hash equally; the table stores the
//!   whole key, so only a 64-bit collision could mislead it.
//!
//! # Example
//! ```
//! use stockman::games::othello::{Othello, Scoring};
//! use stockman::{algorithms::alphabeta, Algorithm, Limits, Playable, SearchOptions};
//!
//! // The FFO suite's #40 after 11 more moves of best play: Black to move
//! // wins by 38 discs, nine squares left.
//! let board = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-OOOOOOXXOOOX--X-X---X-- X";
//! let game = Othello::from_position(board).unwrap();
//! let out = Algorithm::Mtdf.search(&game, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(38));
//!
//! // A fixed-depth search of an opening: heuristic values.
//! let game = Othello::from_position("f5d6c3d3c4").unwrap().with_heuristic();
//! assert_eq!((game.to_move_text(), game.scoring()), ("White", Scoring::Heuristic));
//! let opts = SearchOptions { limits: Limits::to_depth(4), ..Default::default() };
//! let v = Algorithm::AlphaBeta.search(&game, &opts).unwrap().value.unwrap();
//! assert!((-999..=999).contains(&v));
//!
//! let err = Othello::from_position("f5d6z9").unwrap_err();
//! assert_eq!(err.to_string(), "move 3 (`z9`, column 5): not a square (a1 to h8)");
//! let err = Othello::from_position("f5f5").unwrap_err();
//! assert_eq!(err.to_string(), "move 2 (`f5`, column 3): not a legal move for White (legal: f4 d6 f6)");
//! ```

use super::{GameResult, Playable};
use crate::game::Game;
use crate::value::{Role, Value};
use std::fmt;

mod board;
mod endgame;
mod eval;
mod notation;
#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(test)]
mod tests;

pub use board::{square_name, Board};
pub use notation::{OthelloError, OthelloErrorKind};

use board::{move_set, neighbours, weighted_mobility, Kernel, Scalar};
use endgame::{final_score, stable_discs};
use eval::{HEURISTIC_MAX, SQUARE_RANK};
use notation::{parse_board, parse_moves};

/// The pass move: the side to move has no legal move, the opponent has.
pub const PASS: u8 = 64;
/// Heuristic mode multiplies final scores by this, keeping heuristics below it.
pub const HEURISTIC_SCALE: Value = 1000;
/// Positions with this many empty squares or fewer are solved by the game
/// itself ([`Game::bounds_within`] is exact there).
pub const SOLVE_EMPTIES: u32 = 10;
/// Above this many empty squares, [`MoveOrder::BestReply`] orders moves by
/// a one-reply search of the heuristic; fastest first below.
pub const BEST_REPLY_EMPTIES: u32 = 12;
/// In exact scoring, up to this many empty squares (and above
/// [`BEST_REPLY_EMPTIES`]), [`MoveOrder::BestReply`] scores a move by the
/// heuristic of the position it leads to (one ply) instead of the
/// opponent's best reply to it (two): nearly the same order for a tenth of
/// the work where the tree is widest (FFO #45-#49: 0.7% more positions,
/// 1.8% less time). Heuristic searches keep the best reply (their
/// committed experiment grids were run with it).
pub const ONE_PLY_EMPTIES: u32 = 13;
/// In exact scoring, [`MoveOrder::BestReply`] adds this many heuristic
/// units to a move's key per reply it leaves the opponent.
pub const MOBILITY_WEIGHT: u32 = 30;
/// Stable discs are counted for bounds at this many empty squares or fewer
/// (earlier in the game they are rare and never decide a window).
pub const STABILITY_EMPTIES: u32 = 12;

pub use super::Scoring;

/// How [`Othello`] orders the moves it lists (the order every search sees);
/// see the [module documentation](self) for the measured effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveOrder {
    /// Parity first (moves into regions with an odd number of empty
    /// squares), then a static square order (corners first, X-squares last).
    Squares,
    /// Fastest first: the moves leaving the opponent the fewest replies (a
    /// corner reply counting double) and the least potential mobility, then
    /// as [`MoveOrder::Squares`].
    FastestFirst,
    /// Above [`BEST_REPLY_EMPTIES`] empty squares, the moves after which the
    /// opponent's best reply scores worst by the heuristic (a one-reply
    /// search; in exact scoring, plus [`MOBILITY_WEIGHT`] per reply left
    /// to the opponent, and up to [`ONE_PLY_EMPTIES`] the heuristic of the
    /// position the move reaches instead); fastest first below.
    #[default]
    BestReply,
}

/// Othello from a given position; see the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Othello {
    root: Board,
    scoring: Scoring,
    order: MoveOrder,
}

impl Othello {
    /// The initial position, Black (MAX) to move, exact scoring.
    pub const fn new() -> Othello {
        Othello {
            root: Board::new(),
            scoring: Scoring::Exact,
            order: MoveOrder::BestReply,
        }
    }

    /// The game rooted at `board`, exact scoring.
    pub const fn from_board(board: Board) -> Othello {
        Othello {
            root: board,
            scoring: Scoring::Exact,
            order: MoveOrder::BestReply,
        }
    }

    /// Reads a move list or an FFO board; see the [module documentation](self).
    pub fn parse(text: &str) -> Result<Othello, OthelloError> {
        let text = text.split(';').next().unwrap_or("");
        let lead = text.len() - text.trim_start().len();
        let first = text.trim_start().chars().next();
        let board = match first {
            Some('X' | 'x' | '*' | 'O' | 'o' | '0' | '-' | '.') => parse_board(text, lead)?,
            _ => parse_moves(text, lead)?,
        };
        Ok(Othello::from_board(board))
    }

    /// The same position with [`Scoring::Heuristic`], for fixed-depth searches.
    pub fn with_heuristic(self) -> Othello {
        self.with_scoring(Scoring::Heuristic)
    }

    /// The same position with the given scoring.
    pub fn with_scoring(self, scoring: Scoring) -> Othello {
        Othello { scoring, ..self }
    }

    /// How positions are valued.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The same position with moves listed in the given order.
    pub fn with_order(self, order: MoveOrder) -> Othello {
        Othello { order, ..self }
    }

    /// How moves are ordered.
    pub fn order(&self) -> MoveOrder {
        self.order
    }

    /// The root position.
    pub fn board(&self) -> Board {
        self.root
    }

    /// Who is to move at the root: `"Black"` or `"White"`.
    pub fn to_move_text(&self) -> &'static str {
        if self.root.black_to_move {
            "Black"
        } else {
            "White"
        }
    }

    /// A score for the side to move at `pos`, as a value from MAX's view.
    #[inline]
    fn value(&self, pos: &Board, score: i32) -> Value {
        let v = match self.scoring {
            Scoring::Exact => score,
            Scoring::Heuristic => score * HEURISTIC_SCALE,
        };
        if pos.black_to_move == self.root.black_to_move {
            v
        } else {
            -v
        }
    }

    /// [`Game::moves`] with the kernel `k`; always inlined, so that each copy
    /// takes its caller's processor features.
    #[inline(always)]
    fn moves_with<K: Kernel>(&self, k: K, pos: &Board, out: &mut Vec<u8>) {
        // The game solves its last empty squares itself: below the root,
        // such a position is a leaf (its value is exact). The root lists
        // its moves, so that a search of it still names a best move.
        if pos.empties() <= SOLVE_EMPTIES && *pos != self.root {
            return;
        }
        let (p, o) = (pos.player, pos.opponent);
        let mut set = k.move_set(p, o);
        if set == 0 {
            if k.move_set(o, p) != 0 {
                out.push(PASS);
            }
            return;
        }
        let empty = !(p | o);
        let odd = endgame::odd_quadrants(empty);
        let n_empty = empty.count_ones();
        let order = match self.order {
            _ if n_empty <= SOLVE_EMPTIES => MoveOrder::Squares,
            MoveOrder::BestReply if n_empty <= BEST_REPLY_EMPTIES => MoveOrder::FastestFirst,
            order => order,
        };
        // Insertion sort on a small key; equal keys keep square order.
        let mut list = [(0u8, 0u32); 32];
        let mut n = 0;
        while set != 0 {
            let sq = set.trailing_zeros() as u8;
            set &= set - 1;
            let mut key = u32::from(SQUARE_RANK[sq as usize]);
            if odd >> sq & 1 == 0 {
                key += 8;
            }
            if order != MoveOrder::Squares {
                let f = k.flips(sq, p, o);
                let np = p | f | (1 << sq);
                let no = o ^ f;
                let replies = k.move_set(no, np);
                if order == MoveOrder::BestReply {
                    let child = Board {
                        player: no,
                        opponent: np,
                        black_to_move: !pos.black_to_move,
                    };
                    // Lower is better for the mover; the rest breaks ties.
                    let v = if n_empty <= ONE_PLY_EMPTIES && self.scoring == Scoring::Exact {
                        child.heuristic(replies, k.move_set(np, no))
                    } else {
                        child.best_reply(k)
                    };
                    key += 16 * (v + 100 * HEURISTIC_SCALE) as u32;
                    if self.scoring == Scoring::Exact {
                        // Solving to the end, the opponent's replies (a
                        // corner counting double) weigh in too: fewer
                        // replies, smaller subtrees (measured on FFO #43-#46).
                        key += 16 * MOBILITY_WEIGHT * weighted_mobility(replies);
                    }
                } else {
                    // The opponent's replies, a corner counting double, and
                    // its potential mobility (empty squares next to ours).
                    let mobility = weighted_mobility(replies);
                    key += 16 * mobility + 8 * (neighbours(np) & !(np | no)).count_ones();
                }
            }
            let mut i = n;
            while i > 0 && list[i - 1].1 > key {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (sq, key);
            n += 1;
        }
        out.extend(list[..n].iter().map(|&(sq, _)| sq));
    }

    /// [`Othello::moves_with`] compiled with AVX2 and the instructions of its
    /// generation ([`simd::Avx2::detect`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
    fn moves_avx2(&self, k: simd::Avx2, pos: &Board, out: &mut Vec<u8>) {
        self.moves_with(k, pos, out);
    }
}

impl fmt::Display for Othello {
    /// The board, the side to move and the disc count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root.fmt(f)?;
        let (b, w) = (self.root.black().count_ones(), self.root.white().count_ones());
        let side = if self.root.black_to_move { "X" } else { "O" };
        writeln!(f, "{side} ({}) to move; X {b}, O {w}", self.to_move_text())
    }
}

impl Game for Othello {
    type Position = Board;
    /// A square `0..=63` (`a1` = 0, `h8` = 63) or [`PASS`].
    type Move = u8;

    fn root(&self) -> Board {
        self.root
    }

    #[inline]
    fn role(&self, pos: &Board) -> Role {
        if pos.black_to_move == self.root.black_to_move {
            Role::Max
        } else {
            Role::Min
        }
    }

    fn moves(&self, pos: &Board, out: &mut Vec<u8>) {
        #[cfg(target_arch = "x86_64")]
        if let Some(k) = simd::Avx2::detect() {
            // SAFETY: `detect` found the instructions the copy is compiled with.
            return unsafe { self.moves_avx2(k, pos, out) };
        }
        self.moves_with(Scalar, pos, out);
    }

    #[inline]
    fn play(&self, pos: &Board, mv: u8) -> Board {
        pos.play(mv)
    }

    fn evaluate(&self, pos: &Board) -> Value {
        if let Some(score) = pos.solved(-65, 65) {
            return self.value(pos, score);
        }
        let mine = move_set(pos.player, pos.opponent);
        let theirs = move_set(pos.opponent, pos.player);
        if mine == 0 && theirs == 0 {
            return self.value(pos, final_score(pos.player, pos.opponent));
        }
        match self.scoring {
            // Unknown: 0, or the nearest value the stable discs allow, so
            // that the value always lies within `bounds`.
            Scoring::Exact => {
                let (lo, hi) = self.bounds(pos);
                0.clamp(lo, hi)
            }
            Scoring::Heuristic => {
                let h = pos.heuristic(mine, theirs);
                if self.role(pos) == Role::Max {
                    h
                } else {
                    -h
                }
            }
        }
    }

    #[inline]
    fn hash(&self, pos: &Board) -> Option<u64> {
        Some(pos.key())
    }

    /// The empty squares (passes aside, one move fills one).
    #[inline]
    fn moves_left_hint(&self, pos: &Board) -> Option<u32> {
        Some(pos.empties())
    }

    /// The square, and whose disc it is.
    #[inline]
    fn move_key(&self, pos: &Board, mv: u8) -> Option<u32> {
        Some(u32::from(mv) + 65 * u32::from(pos.black_to_move))
    }

    fn bounds(&self, pos: &Board) -> (Value, Value) {
        self.bounds_within(pos, -crate::INF, crate::INF)
    }

    /// Exact at most [`SOLVE_EMPTIES`] empty squares (fail-soft within the
    /// window, in exact scoring); else what stable discs prove, computed
    /// only when the discs on the board could prove a cut-off.
    fn bounds_within(&self, pos: &Board, alpha: Value, beta: Value) -> (Value, Value) {
        let scale = match self.scoring {
            Scoring::Exact => 1,
            Scoring::Heuristic => HEURISTIC_SCALE,
        };
        // The window from the side to move's view, in its units.
        let role = self.role(pos);
        let (a, b) = super::for_role(role, (alpha, beta));
        // ... as final scores: a fail-soft result outside them settles the window.
        let (sa, sb) = if scale == 1 {
            (a.clamp(-65, 65), b.clamp(-65, 65))
        } else {
            (-65, 65)
        };
        let (lo, hi) = match pos.solved(sa, sb) {
            Some(v) => {
                let (lo, hi) = if v <= sa {
                    (-64, v)
                } else if v >= sb {
                    (v, 64)
                } else {
                    (v, v)
                };
                (lo * scale, hi * scale)
            }
            None => {
                let (mut lo, mut hi) = (-64, 64);
                if pos.empties() <= STABILITY_EMPTIES {
                    let occ = pos.player | pos.opponent;
                    // A player's stable discs are at most its discs.
                    let (np, no) = (pos.player.count_ones() as i32, pos.opponent.count_ones() as i32);
                    if (64 - 2 * no) * scale <= a {
                        hi = 64 - 2 * stable_discs(pos.opponent, occ).count_ones() as i32;
                    }
                    if (2 * np - 64) * scale >= b {
                        lo = 2 * stable_discs(pos.player, occ).count_ones() as i32 - 64;
                    }
                }
                if scale > 1 {
                    // Horizon values are heuristics within -999..=999.
                    ((lo * scale).min(-HEURISTIC_MAX), (hi * scale).max(HEURISTIC_MAX))
                } else {
                    (lo, hi)
                }
            }
        };
        super::for_role(role, (lo, hi))
    }

    fn name(&self) -> &str {
        "othello"
    }
}

impl Playable for Othello {
    type PositionError = OthelloError;

    /// A move list (`f5d6c3`) or an FFO board (`"<64 squares> X"`).
    fn from_position(text: &str) -> Result<Othello, OthelloError> {
        Othello::parse(text)
    }

    fn heuristic(self) -> Othello {
        self.with_heuristic()
    }

    /// The legal squares in square order, or [`PASS`] alone when the side to
    /// move has none but the opponent has; none when the game is over.
    fn legal_moves(&self) -> Vec<u8> {
        let mut set = self.root.legal_set();
        if set == 0 {
            return if self.root.is_over() { Vec::new() } else { vec![PASS] };
        }
        let mut out = Vec::new();
        while set != 0 {
            out.push(set.trailing_zeros() as u8);
            set &= set - 1;
        }
        out
    }

    fn after(&self, mv: u8) -> Othello {
        Othello {
            root: self.root.play(mv),
            ..*self
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let t = text.trim();
        let legal = self.legal_moves();
        if legal.is_empty() {
            return Err("the game is over".to_string());
        }
        let named: Vec<String> = legal.iter().map(|&m| square_name(m)).collect();
        let lower = t.to_ascii_lowercase();
        match named.iter().position(|n| *n == lower) {
            Some(i) => Ok(legal[i]),
            None => {
                let b = lower.as_bytes();
                let is_square = b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]);
                if is_square || lower == "pass" {
                    Err(format!(
                        "{lower} is not a legal move for {} (legal: {})",
                        self.to_move_text(),
                        named.join(" ")
                    ))
                } else {
                    Err(format!("`{t}` is not a move: type a square a1 to h8 (or pass)"))
                }
            }
        }
    }

    fn move_text(&self, mv: u8) -> String {
        square_name(mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.root.black_to_move
    }

    fn result(&self) -> Option<GameResult> {
        if !self.root.is_over() {
            return None;
        }
        Some(
            match self.root.black().count_ones().cmp(&self.root.white().count_ones()) {
                std::cmp::Ordering::Greater => GameResult::FirstPlayerWins,
                std::cmp::Ordering::Less => GameResult::SecondPlayerWins,
                std::cmp::Ordering::Equal => GameResult::Draw,
            },
        )
    }

    /// Black (`X`) and White (`O`).
    fn player_name(&self, first: bool) -> &'static str {
        if first {
            "Black (X)"
        } else {
            "White (O)"
        }
    }
}
