"""Python games played in place: make(move) and unmake(move) on one object,
as python-chess's push/pop and easyAI's make_move/unmake_move work (issue 48:
no board copied per position). Every search sees the same tree as through
the positions protocol, and the object ends where it started."""

import pytest

import stockman

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(b):
    for i, j, k in LINES:
        if b[i] is not None and b[i] == b[j] == b[k]:
            return b[i]
    return None


class Positions:
    """Tic-tac-toe with positions: a tuple of 9 cells, X = MAX."""

    def __init__(self, opening=()):
        b = [None] * 9
        for n, i in enumerate(opening):
            b[i] = "XO"[n % 2]
        self.start = tuple(b)

    def root(self):
        return self.start

    def role(self, b):
        return "max" if sum(c is not None for c in b) % 2 == 0 else "min"

    def moves(self, b):
        return [] if winner(b) else [i for i in range(9) if b[i] is None]

    def play(self, b, i):
        mark = "X" if self.role(b) == "max" else "O"
        return b[:i] + (mark,) + b[i + 1 :]

    def evaluate(self, b):
        w = winner(b)
        return 1 if w == "X" else -1 if w == "O" else 0

    def hash(self, b):
        return hash(b)


class InPlace:
    """The same game on one list, changed by make and unmake."""

    def __init__(self, opening=()):
        self.board = list(Positions(opening).start)
        self.calls = {"make": 0, "unmake": 0}

    def role(self):
        return "max" if sum(c is not None for c in self.board) % 2 == 0 else "min"

    def moves(self):
        return [] if winner(self.board) else [i for i in range(9) if self.board[i] is None]

    def make(self, i):
        assert self.board[i] is None, "make on a taken cell: the adapter lost its place"
        self.calls["make"] += 1
        self.board[i] = "X" if self.role() == "max" else "O"

    def unmake(self, i):
        assert self.board[i] is not None, "unmake of an empty cell: the adapter lost its place"
        self.calls["unmake"] += 1
        self.board[i] = None

    def evaluate(self):
        w = winner(self.board)
        return 1 if w == "X" else -1 if w == "O" else 0

    def hash(self):
        return hash(tuple(self.board))


def summary(rows):
    return [(r["algorithm"], r.get("value"), r.get("bound"), r["best_move"], r["stats"]["leaf_evals"],
             r["stats"]["nodes"]) for r in rows]


@pytest.mark.parametrize("opening", [(4,), (0, 4), (4, 0, 8)])
def test_every_algorithm_searches_the_same_tree_in_place(opening):
    """Depth-first, best-first (SSS*'s jumps across the tree), the table
    drivers: values, moves and counts equal to the positions protocol's;
    every make is unmade and the board is back where it started."""
    game = InPlace(opening)
    start = list(game.board)
    assert summary(stockman.solve(game)) == summary(stockman.solve(Positions(opening)))
    assert game.board == start
    assert game.calls["make"] == game.calls["unmake"] > 0


def test_limits_iterative_deepening_trace_and_the_engine():
    game, start = InPlace((4,)), [None] * 4 + ["X"] + [None] * 4
    rows = stockman.solve(game, "mtdf", depth=3, iterative=True)
    assert rows[0]["depth_completed"] == 3 and game.board == start
    with pytest.raises(stockman.SearchLimit):
        stockman.solve(game, "alphabeta", max_nodes=50)
    assert game.board == start
    t = stockman.trace(game, "sss")
    assert t["value"] == 0 and game.board == start
    assert t.events == stockman.trace(Positions((4,)), "sss").events
    engine = stockman.Engine("mtdf")
    move = engine.best_move(game, depth=4)
    assert move["best_move"] in range(8) and game.board == start


def test_an_exception_leaves_the_board_where_it_started():
    class Fails(InPlace):
        evaluations = 0

        def evaluate(self):
            Fails.evaluations += 1
            if Fails.evaluations == 30:
                raise RuntimeError("evaluation 30 fails")
            return super().evaluate()

    game = Fails((4,))
    start = list(game.board)
    with pytest.raises(RuntimeError, match="evaluation 30 fails"):
        stockman.solve(game, "sss")
    assert game.board == start


def test_a_half_in_place_game_is_told_what_it_lacks():
    class NoUnmake:
        def make(self, m):
            pass

        def moves(self):
            return []

    with pytest.raises(TypeError) as e:
        stockman.solve(NoUnmake())
    assert "make(move), unmake(move), role(), moves() and evaluate()" in str(e.value)

    with pytest.raises(TypeError) as e:
        stockman.solve(InPlaceWithout("role"))
    assert "a game played in place needs" in str(e.value) and "has no `role`" in str(e.value)


def InPlaceWithout(method):
    """An in-place game class without `method`."""
    attrs = {k: v for k, v in vars(InPlace).items() if k != method}
    return type("Without_" + method, (), attrs)((4,))
