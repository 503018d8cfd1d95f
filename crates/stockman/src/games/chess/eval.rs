//! The heuristic: material, piece-square tables and the quiescence search;
//! move ordering (MVV-LVA).

use super::rules::{castle_king_square, is_castle, is_dead};
use super::{HEURISTIC_MAX, MATE};
use cozy_chess::{BitBoard, Board, Color, Move, Piece, Rank, Square};

/// Most legal moves in any chess position are 218; room to spare.
pub(super) const MAX_MOVES: usize = 256;

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
pub(super) fn static_eval(board: &Board) -> i32 {
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
pub(super) const NULL_MOVE: Move = Move {
    from: Square::A1,
    to: Square::A1,
    promotion: None,
};

/// The legal moves of `board` in search order, into `buf`; returns how
/// many. With `tactical_only`, captures and promotions only; `any` tells
/// whether the position has a legal move at all.
pub(super) fn ordered_moves(board: &Board, tactical_only: bool, buf: &mut [(i32, Move); MAX_MOVES]) -> (usize, bool) {
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

/// The quiescence search: the value of `board` for the side to move,
/// `ply` moves from the root; fail-soft alpha-beta over captures and
/// promotions with stand-pat.
pub(super) fn quiesce(board: &Board, ply: u32, mut alpha: i32, beta: i32) -> i32 {
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
