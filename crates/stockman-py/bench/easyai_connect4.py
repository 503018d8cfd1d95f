"""stockman against easyAI on easyAI's own Connect Four (easyAI.games.ConnectFour, numpy
board): the adapter calls the class's is_over, possible_moves and scoring; both sides search the
same depth from two openings. Leaves: scoring() calls (easyAI), leaf_evals (stockman).

    pip install ./crates/stockman-py easyAI numpy
    python crates/stockman-py/bench/easyai_connect4.py [DEPTH]
"""
import time, sys
import numpy as np
import stockman
from easyAI import AI_Player, DUAL, SSS, Negamax
from easyAI.AI import TranspositionTable
from easyAI.games.ConnectFour import ConnectFour

CALLS = {"scoring": 0}
class Counted(ConnectFour):
    def scoring(self):
        CALLS["scoring"] += 1
        return super().scoring()
    def ttentry(self):
        return (self.board.tobytes(), self.current_player)

class Adapter:
    def __init__(self, opening, depth):
        self.g = Counted([AI_Player(None), AI_Player(None)])
        for m in opening:
            self.g.make_move(m); self.g.switch_player()
        self.start = (self.g.board.tobytes(), self.g.current_player)
        self.maxp = self.g.current_player
        self.loaded = None
    def _load(self, pos):
        if self.loaded is not pos:
            self.g.board = np.frombuffer(pos[0], dtype=self.g.board.dtype).reshape(6, 7).copy()
            self.g.current_player = pos[1]
            self.loaded = pos
    def root(self): return self.start
    def role(self, pos): return "max" if pos[1] == self.maxp else "min"
    def moves(self, pos):
        self._load(pos)
        return [] if self.g.is_over() else self.g.possible_moves()
    def play(self, pos, m):
        self._load(pos)
        b = self.g.board.copy()
        line = np.argmin(b[:, m] != 0); b[line, m] = pos[1]
        return (b.tobytes(), 3 - pos[1])
    def evaluate(self, pos):
        self._load(pos)
        s = self.g.scoring()
        return s if pos[1] == self.maxp else -s
    def hash(self, pos): return hash(pos)

def easyai(solver, opening):
    g = Counted([AI_Player(solver), AI_Player(solver)])
    for m in opening:
        g.make_move(m); g.switch_player()
    CALLS["scoring"] = 0
    t = time.perf_counter(); solver(g); return CALLS["scoring"], time.perf_counter() - t

def ours(algo, opening, depth):
    a = Adapter(opening, depth)
    t = time.perf_counter(); r = stockman.solve(a, algo, depth=depth)[0]; return r["stats"]["leaf_evals"], time.perf_counter() - t

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
for opening in [[3, 3], [3, 2, 4]]:
    for o, n, mk in [("negascout", "Negamax", lambda: Negamax(depth)), ("alphabeta", "Negamax", lambda: Negamax(depth)),
                     ("sss", "SSS", lambda: SSS(depth, tt=TranspositionTable())), ("dual", "DUAL", lambda: DUAL(depth, tt=TranspositionTable())),
                     ("mt-sss", "SSS", lambda: SSS(depth, tt=TranspositionTable())), ("sss", "SSS (no table)", lambda: SSS(depth))]:
        lo, to = ours(o, opening, depth); lt, tt = easyai(mk(), opening)
        print(f"| {''.join(str(m+1) for m in opening)} | {o} | {lo:,} | {to*1e3:.0f} ms | {n} | {lt:,} | {tt*1e3:.0f} ms | {to/tt:.3f} |")
