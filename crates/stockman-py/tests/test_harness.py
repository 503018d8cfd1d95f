"""An adversarial harness for Python games (issue 26): small random games
whose methods behave well, shuffle, mutate, raise, run deep or have no
hash, searched by every algorithm. Each result is the minimax value or a
documented exception: never a crash, a PanicException, an InternalError or
a plausible wrong value."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stockman

BEHAVIOURS = ["plain", "shuffled", "mutating", "raising", "deep", "hashless", "bad_value"]


class Boom(Exception):
    """What a raising game raises: it must come back unchanged."""


def trees(max_depth=4):
    leaf = st.integers(-100, 100)
    return st.recursive(leaf, lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=40)


def minimax(node, maximizing=True):
    if isinstance(node, int):
        return node
    vals = [minimax(k, not maximizing) for k in node]
    return max(vals) if maximizing else min(vals)


class Game:
    """The nested-list tree `tree` as a Python game with one behaviour."""

    def __init__(self, tree, behaviour, seed):
        self.tree = tree
        self.behaviour = behaviour
        self.rng = random.Random(seed)
        self.calls = 0
        self.fail_at = self.rng.randint(1, 30)
        if behaviour == "hashless":
            self.hash = None

    def node(self, pos):
        n = self.tree
        for i in pos:
            n = n[i]
        return n

    def root(self):
        return [] if self.behaviour == "mutating" else ()

    def role(self, pos):
        return "max" if len(pos) % 2 == 0 else "min"

    def moves(self, pos):
        self.calls += 1
        if self.behaviour == "raising" and self.calls == self.fail_at:
            raise Boom("moves() failed on purpose")
        n = self.node(pos)
        if isinstance(n, int):
            return []
        ms = list(range(len(n)))
        if self.behaviour == "shuffled":
            self.rng.shuffle(ms)
        return ms

    def play(self, pos, move):
        if self.behaviour == "mutating":
            pos.append(move)
            return pos
        return pos + (move,)

    def evaluate(self, pos):
        n = self.node(pos)
        if self.behaviour == "bad_value" and self.rng.random() < 0.3:
            return 10**15
        return n

    def hash(self, pos):
        return hash(tuple(pos))


class Deep:
    """A chain `length` plies deep ending in the tree `tree` (values are
    the tree's): deep recursion with the tree's branching at the end."""

    def __init__(self, tree, length):
        self.inner = Game(tree, "plain", 0)
        self.length = length

    def root(self):
        return (0, ())

    def role(self, pos):
        k, p = pos
        return "max" if (k + len(p)) % 2 == 0 else "min"

    def moves(self, pos):
        k, p = pos
        return [0] if k < self.length else self.inner.moves(p)

    def play(self, pos, move):
        k, p = pos
        return (k + 1, p) if k < self.length else (k, p + (move,))

    def evaluate(self, pos):
        return self.inner.evaluate(pos[1])

    def hash(self, pos):
        return hash(pos)


def check(row, value):
    if row["algorithm"] == "bns":
        lo, hi = row["bound"]
        assert lo <= value < hi or lo == value == hi, row
    else:
        assert row["value"] == value, row


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees(), behaviour=st.sampled_from(BEHAVIOURS), seed=st.integers(0, 2**32), algo=st.sampled_from(stockman.ALGORITHMS))
def test_every_algorithm_on_adversarial_games(tree, behaviour, seed, algo):
    if isinstance(tree, int):
        tree = [tree]
    value = minimax(tree)
    if behaviour == "deep":
        length = random.Random(seed).choice([1, 2, 500, 3001])
        game = Deep(tree, length)
        value = minimax(tree, length % 2 == 0)
    else:
        game = Game(tree, behaviour, seed)
    try:
        rows = stockman.solve(game, algo)
    except Boom:
        assert behaviour == "raising"
        return
    except stockman.UnsupportedSearch as e:
        assert behaviour == "hashless" and algo in stockman.TABLE_ALGORITHMS, e
        return
    except ValueError as e:
        assert not isinstance(e, stockman.InternalError)
        message = str(e)
        if behaviour == "mutating":
            assert "play() changed the position" in message, message
        elif behaviour == "bad_value":
            assert "evaluate() returned" in message, message
        else:
            raise
        return
    # No exception: the answer must be right, and a mutation (checked in
    # the first plays, and every game plays at its root) was caught.
    assert behaviour != "mutating", rows
    check(rows[0], value)
