"""stockman's searches against easyAI's on the same Python-defined game.

The game is easyAI's own TicTacToe class (easyAI.games.TicTacToe): easyAI's
solvers play it directly; stockman searches it through an adapter whose
moves, play and scoring call that same class's methods. Both search the
whole game (depth 9) from the empty board and from a few openings.
Leaves are counted where each library evaluates a position: easyAI calls
the game's `scoring()`, stockman reports `leaf_evals` (and the adapter
counts its `evaluate` calls, which must agree).

    pip install ./crates/stockman-py easyAI
    python crates/stockman-py/bench/easyai_bench.py [ROUNDS]
"""

import sys
import time

import stockman
from easyAI import AI_Player, DUAL, SSS, Negamax
from easyAI.AI import TranspositionTable
from easyAI.games.TicTacToe import TicTacToe

CALLS = {"scoring": 0}


class Counted(TicTacToe):
    """easyAI's TicTacToe, counting leaf evaluations."""

    def scoring(self):
        CALLS["scoring"] += 1
        return super().scoring()

    def ttentry(self):
        """The position, for easyAI's transposition table."""
        return (tuple(self.board), self.current_player)


class Adapter:
    """easyAI's game, as a stockman game: positions are (board, player)."""

    def __init__(self, opening):
        self.g = Counted([AI_Player(None), AI_Player(None)])
        for m in opening:
            self.g.make_move(m)
            self.g.switch_player()
        self.start = (tuple(self.g.board), self.g.current_player)
        self.max_player = self.g.current_player
        self.evals = 0
        self.loaded = None

    def _load(self, pos):
        # Consecutive calls are mostly about the same position (its moves,
        # then play from it): load the board only when it changes.
        if self.loaded is not pos:
            self.g.board = list(pos[0])
            self.g.current_player = pos[1]
            self.loaded = pos

    def root(self):
        return self.start

    def role(self, pos):
        return "max" if pos[1] == self.max_player else "min"

    def moves(self, pos):
        self._load(pos)
        return [] if self.g.is_over() else self.g.possible_moves()

    def play(self, pos, move):
        self._load(pos)
        self.g.make_move(move)
        child = (tuple(self.g.board), 3 - pos[1])
        self.g.unmake_move(move)
        return child

    def evaluate(self, pos):
        self.evals += 1
        self._load(pos)
        s = self.g.scoring()  # from the view of the player to move
        return s if pos[1] == self.max_player else -s

    def hash(self, pos):
        return hash(pos)


def easyai(solver, opening):
    g = Counted([AI_Player(solver), AI_Player(solver)])
    for m in opening:
        g.make_move(m)
        g.switch_player()
    CALLS["scoring"] = 0
    t = time.perf_counter()
    solver(g)
    return CALLS["scoring"], time.perf_counter() - t


def ours(algo, opening):
    a = Adapter(opening)
    t = time.perf_counter()
    row = stockman.solve(a, algo, depth=9)[0]
    dt = time.perf_counter() - t
    assert row["stats"]["leaf_evals"] == a.evals
    return row["stats"]["leaf_evals"], dt, row["value"]


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    pairs = [
        ("negascout", "Negamax", lambda: Negamax(9)),
        ("sss", "SSS", lambda: SSS(9, tt=TranspositionTable())),
        ("dual", "DUAL", lambda: DUAL(9, tt=TranspositionTable())),
        ("sss", "SSS (no table)", lambda: SSS(9)),
        ("mt-sss", "SSS", lambda: SSS(9, tt=TranspositionTable())),
        ("mt-dual", "DUAL", lambda: DUAL(9, tt=TranspositionTable())),
    ]
    openings = [[], [5], [1, 5], [5, 1, 9]]
    print("| opening | stockman | leaves | time | easyAI | leaves | time | time ratio |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for opening in openings:
        for ours_name, theirs_name, make in pairs:
            best_ours, best_theirs = None, None
            for _ in range(rounds):
                lo, to, _ = ours(ours_name, opening)
                lt, tt = easyai(make(), opening)
                best_ours = min(best_ours or (lo, to), (lo, to), key=lambda x: x[1])
                best_theirs = min(best_theirs or (lt, tt), (lt, tt), key=lambda x: x[1])
            name = "".join(map(str, opening)) or "(empty)"
            print(
                f"| {name} | {ours_name} | {best_ours[0]:,} | {best_ours[1]*1e3:.1f} ms | {theirs_name} | "
                f"{best_theirs[0]:,} | {best_theirs[1]*1e3:.1f} ms | {best_ours[1]/best_theirs[1]:.3f} |"
            )


if __name__ == "__main__":
    main()
