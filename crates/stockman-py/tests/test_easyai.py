"""easyAI's games searched as they are (`stockman.easyai`, `stockman.EasyAI`).

The first tests use a game written here in easyAI's protocol, so that they
run wherever stockman does; the rest use easyAI itself (CI installs it)
and compare with its Negamax: the same leaves, the same value, the same
calls of the game's methods, and the game left as it was.
"""

import copy

import pytest
import stockman


class Pile:
    """Take 1-3 stones from a pile; whoever takes the last one wins. easyAI's
    protocol: `current_player` 1 or 2, `make_move` then `switch_player`."""

    def __init__(self, stones=7, undo=True):
        self.stones = stones
        self.current_player = 1
        self.calls = {}
        if undo:
            self.unmake_move = self._unmake_move

    def _count(self, name):
        self.calls[name] = self.calls.get(name, 0) + 1

    def possible_moves(self):
        self._count("possible_moves")
        return [n for n in (1, 2, 3) if n <= self.stones]

    def make_move(self, n):
        self._count("make_move")
        self.stones -= n

    def _unmake_move(self, n):
        self._count("unmake_move")
        self.stones += n

    def switch_player(self):
        self._count("switch_player")
        self.current_player = 3 - self.current_player

    def is_over(self):
        self._count("is_over")
        return self.stones == 0

    def scoring(self):
        self._count("scoring")
        # The player to move has lost when no stone is left.
        return -100 if self.stones == 0 else 0

    def copy(self):
        return copy.deepcopy(self)


def pile_value(stones, left):
    """Negamax's value of the pile, from the side to move, in thousandths."""
    if stones == 0:
        return -100 * (1000 + left)
    if left == 0:
        return 0
    return max(-pile_value(stones - n, left - 1) for n in (1, 2, 3) if n <= stones)


@pytest.mark.parametrize("stones", [1, 4, 5, 7, 9])
@pytest.mark.parametrize("undo", [True, False])
def test_every_algorithm_finds_negamaxs_value(stones, undo):
    game = Pile(stones, undo)
    algos = [a for a in stockman.ALGORITHMS if a not in stockman.TABLE_ALGORITHMS]
    rows = stockman.solve(stockman.easyai(game), algos, depth=6)
    want = pile_value(stones, 6)
    for row in rows:
        if row["algorithm"] == "bns":
            continue
        assert row["value"] == want, row
    # Played in place, the game is back where it started; copied, never touched.
    assert (game.stones, game.current_player) == (stones, 1)
    assert ("unmake_move" in game.calls) == undo
    if not undo:
        assert "make_move" not in game.calls


def test_the_ai_plays_the_winning_move():
    # 5 stones: take 1 and leave a multiple of 4.
    ai = stockman.EasyAI(6)
    game = Pile(5)
    assert ai(game) == 1
    assert ai.alpha == pile_value(5, 6) / 1000 > 0
    assert ai.row["algorithm"] == "alphabeta"
    assert game.stones == 5


def test_table_searches_hash_ttentry():
    class Keyed(Pile):
        def ttentry(self):
            return (self.stones, self.current_player)

    want = pile_value(9, 8)
    rows = stockman.solve(stockman.easyai(Keyed(9)), ["mtdf", "mt-sss", "mt-dual", "mtd-bi"], depth=8)
    assert [r["value"] for r in rows] == [want] * 4
    # The engine's iterative deepening scores by the depth it was given, as the searches do.
    assert stockman.Engine("mtdf").best_move(stockman.easyai(Keyed(9)), depth=8)["value"] == want
    assert stockman.trace(stockman.easyai(Keyed(5)), "mtdf", depth=3)
    with pytest.raises(stockman.UnsupportedSearch):
        stockman.solve(stockman.easyai(Pile(9)), "mtdf", depth=8)


def test_a_scoring_function_and_float_scores():
    # Negamax's scoring(game) argument; floats are rounded after the depth factor.
    rows = stockman.solve(stockman.easyai(Pile(1), scoring=lambda g: -0.5 if g.stones == 0 else 0.25), "alphabeta", depth=3)
    assert rows[0]["value"] == round(0.5 * (1000 + 2))


def test_bad_games_and_scores_are_named():
    class NoMoves:
        pass

    with pytest.raises(TypeError, match="NoMoves has no `possible_moves`"):
        stockman.easyai(NoMoves())
    with pytest.raises(TypeError, match="scoring must be a function"):
        stockman.easyai(Pile(), scoring=3)

    class Words(Pile):
        def scoring(self):
            return "lost"

    game = Words(3)
    with pytest.raises(ValueError, match="scoring\\(\\) must return a number, got str"):
        stockman.solve(stockman.easyai(game), "alphabeta", depth=4)
    assert game.stones == 3

    class Huge(Pile):
        def scoring(self):
            return 10**8

    with pytest.raises(ValueError, match="outside stockman's value range"):
        stockman.solve(stockman.easyai(Huge(3)), "alphabeta", depth=4)

    class Raises(Pile):
        def make_move(self, n):
            if self.stones == 2:
                raise KeyError("no")
            super().make_move(n)

    game = Raises(6)
    with pytest.raises(KeyError):
        stockman.solve(stockman.easyai(game), "sss", depth=5)
    assert (game.stones, game.current_player) == (6, 1)
    with pytest.raises(TypeError, match="unknown option `threads`"):
        stockman.EasyAI(4, threads=2)
    with pytest.raises(ValueError, match="root="):
        stockman.solve(stockman.easyai(Pile()), "alphabeta", depth=2, root="min")


# --- against easyAI itself --------------------------------------------------------------

easyAI = pytest.importorskip("easyAI")


def after(cls, opening):
    g = cls([easyAI.AI_Player(None), easyAI.AI_Player(None)])
    for m in opening:
        g.make_move(m)
        g.switch_player()
    return g


def counted(cls, calls):
    def wrap(name):
        f = getattr(cls, name)

        def count(self, *a):
            calls[name] = calls.get(name, 0) + 1
            return f(self, *a)

        return count

    names = [n for n in ("is_over", "possible_moves", "make_move", "unmake_move", "switch_player", "scoring")
             if hasattr(cls, n)]
    return type("Counted" + cls.__name__, (cls,), {n: wrap(n) for n in names})


@pytest.mark.parametrize("opening", [[], [5], [1, 5], [5, 1, 9]])
def test_tictactoe_leaf_for_leaf_with_negamax(opening):
    from easyAI.games.TicTacToe import TicTacToe

    ours, theirs = {}, {}
    game = after(counted(TicTacToe, ours), opening)
    board = list(game.board)
    ai = stockman.EasyAI(9)
    move = ai(game)
    assert game.board == board and game.current_player == len(opening) % 2 + 1
    negamax = easyAI.Negamax(9)
    their_game = after(counted(TicTacToe, theirs), opening)
    their_move = negamax(their_game)
    assert ai.alpha == pytest.approx(negamax.alpha, abs=1e-9)
    assert move == their_move
    assert ai.row["stats"]["leaf_evals"] == theirs["scoring"]
    ours["possible_moves"] -= 1  # the AI's own call, naming its move
    assert ours == theirs


def test_connect_four_by_copies_as_negamax():
    from easyAI.games.ConnectFour import ConnectFour

    ours, theirs = {}, {}
    game = after(counted(ConnectFour, ours), [3, 3, 2])
    before = game.board.copy()
    ai = stockman.EasyAI(4)
    move = ai(game)
    negamax = easyAI.Negamax(4)
    assert move == negamax(after(counted(ConnectFour, theirs), [3, 3, 2]))
    assert ai.alpha == pytest.approx(negamax.alpha, abs=1e-9)
    assert (game.board == before).all()
    assert ai.row["stats"]["leaf_evals"] == theirs["scoring"]


def test_a_whole_game_against_negamax_is_a_draw():
    from easyAI.games.TicTacToe import TicTacToe

    for players in ([stockman.EasyAI(9), easyAI.Negamax(9)],
                    [easyAI.Negamax(9), stockman.EasyAI(9, "sss")]):
        game = TicTacToe([easyAI.AI_Player(p) for p in players])
        game.play(verbose=False)
        assert not game.lose() and game.is_over()
