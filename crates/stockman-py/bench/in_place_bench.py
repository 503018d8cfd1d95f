"""The two protocols of a Python game on python-chess: positions (`play`
returns a copy of the board) against in place (`make` pushes, `unmake`
pops), the same search and the same leaves.

    pip install ./crates/stockman-py chess
    python crates/stockman-py/bench/in_place_bench.py [ROUNDS] [DEPTH]

Rounds are interleaved (the order of the two alternating); the table gives
each protocol's median time and range, and the median (range) of the
per-round ratios in place / positions.
"""

import statistics
import sys
import time

import chess
import stockman

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}


def material(board):
    """White's material minus Black's, in centipawns."""
    return sum(
        VALUES[p] * (len(board.pieces(p, chess.WHITE)) - len(board.pieces(p, chess.BLACK))) for p in VALUES
    )


class Positions:
    """python-chess with positions: `play` copies the board and pushes."""

    alternating = True

    def __init__(self, fen):
        self.start = chess.Board(fen)

    def root(self):
        return self.start

    def role(self, board):
        return "max" if board.turn == chess.WHITE else "min"

    def moves(self, board):
        return list(board.legal_moves)

    def play(self, board, move):
        child = board.copy(stack=False)
        child.push(move)
        return child

    def evaluate(self, board):
        return material(board)


class InPlace:
    """python-chess in place: `make` pushes, `unmake` pops."""

    alternating = True

    def __init__(self, fen):
        self.board = chess.Board(fen)

    def role(self):
        return "max" if self.board.turn == chess.WHITE else "min"

    def moves(self):
        return list(self.board.legal_moves)

    def make(self, move):
        self.board.push(move)

    def unmake(self, move):
        self.board.pop()

    def evaluate(self):
        return material(self.board)


POSITIONS = [
    ("start", chess.STARTING_FEN),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
]


def run(game, depth):
    t = time.perf_counter()
    row = stockman.solve(game, "alphabeta", depth=depth)[0]
    return time.perf_counter() - t, row["stats"]["leaf_evals"], row["value"]


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"| position | depth | leaves | positions: median (range) | in place: median (range) | ratio (range) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, fen in POSITIONS:
        a, b = [], []
        for r in range(rounds):
            runs = [lambda: a.append(run(Positions(fen), depth)), lambda: b.append(run(InPlace(fen), depth))]
            for f in runs if r % 2 == 0 else runs[::-1]:
                f()
        assert all(x[1:] == a[0][1:] for x in a + b), "the two protocols searched different trees"
        ta, tb = [x[0] for x in a], [x[0] for x in b]
        ratios = [y / x for x, y in zip(ta, tb)]
        print(
            f"| {name} | {depth} | {a[0][1]:,} | {statistics.median(ta) * 1e3:.0f} ms ({min(ta) * 1e3:.0f}-{max(ta) * 1e3:.0f}) "
            f"| {statistics.median(tb) * 1e3:.0f} ms ({min(tb) * 1e3:.0f}-{max(tb) * 1e3:.0f}) "
            f"| {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |"
        )


if __name__ == "__main__":
    main()
