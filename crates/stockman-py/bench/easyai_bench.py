"""stockman against easyAI on easyAI's own games, searching equal trees.

The games are easyAI's classes, `easyAI.games.TicTacToe` (solved to the end,
depth 9, from the empty board and the openings 5, 15, 519) and
`easyAI.games.ConnectFour` (numpy board, depth 6, openings 44 and 435).
easyAI's solvers play them directly; stockman searches them through an
adapter that calls the same class's `is_over`, `possible_moves`, `make_move`
and `scoring`, and scores a leaf exactly as the easyAI solver it is compared
with does:

* easyAI's `Negamax` returns `scoring() * (1 + 0.001 * depth_left)`, so the
  adapter's `evaluate` returns `scoring() * (1000 + depth_left)` (the same
  numbers times 1000, exact integers, in the same order);
* easyAI's `SSS` and `DUAL` (its MT drivers) score `s - 0.99 * depth_left *
  sign(s)`, so the adapter returns `1000 * s - 990 * depth_left * sign(s)`.

The `native` row has no adapter: `stockman.EasyAI(depth)`, an easyAI AI,
searches the game object itself, calling its methods from Rust and scoring
leaves as Negamax does.

With that, stockman's alpha-beta evaluates exactly Negamax's leaves (the
bench asserts it, and that both call the game's methods equally often), and
the time per leaf compares the two libraries' own costs: the search and the
calls into the game. Leaves are counted where each library evaluates a
position: easyAI's `scoring()` calls, stockman's `leaf_evals`.

Rounds are interleaved (every pair once per round, the order of the two
libraries alternating); a search shorter than 50 ms is repeated within a
round to last about that long, and its time is the mean of the repeats
(the small searches are otherwise at the mercy of the scheduler); the
table gives the median and the range of each
time, microseconds per leaf (median time / leaves), and the ratio of the
medians with the range of the per-round ratios.

    pip install ./crates/stockman-py easyAI numpy
    python crates/stockman-py/bench/easyai_bench.py [ROUNDS] [ttt|c4|all] [--headline]
    python crates/stockman-py/bench/easyai_bench.py [ROUNDS] [ttt|c4|all] --floor

`--floor` times the game's own methods alone: the calls Negamax makes to
`is_over`, `possible_moves`, `make_move` and `scoring` (which the adapter
makes as often: `check` asserts it), replayed in a plain loop on the boards
Negamax passed them. Their share of Negamax's time is the least time any
library calling the game as often can take, relative to Negamax.
"""

import statistics
import sys
import time

import numpy as np
import stockman
from easyAI import AI_Player, DUAL, SSS, Negamax
from easyAI.AI import TranspositionTable
from easyAI.games.ConnectFour import ConnectFour
from easyAI.games.TicTacToe import TicTacToe

# --- the games -----------------------------------------------------------------------------

CALLS = {}


def counting(cls):
    """`cls` with its game methods counted (in the check runs only)."""

    def wrap(name):
        f = getattr(cls, name)

        def counted(self, *a):
            CALLS[name] = CALLS.get(name, 0) + 1
            return f(self, *a)

        return counted

    names = ["is_over", "possible_moves", "make_move", "scoring", "lose"]
    names += [n for n in ("unmake_move", "switch_player") if hasattr(cls, n)]
    return type("Counted" + cls.__name__, (cls,), {n: wrap(n) for n in names})


class TTT(TicTacToe):
    def ttentry(self):
        return (tuple(self.board), self.current_player)


class C4(ConnectFour):
    def ttentry(self):
        return (self.board.tobytes(), self.current_player)


def negamax_score(s, left):
    """easyAI Negamax's leaf value `s * (1 + 0.001 * left)`, times 1000."""
    return s * (1000 + left)


def mt_score(s, left):
    """easyAI MT drivers' leaf value `s - 0.99 * left * sign(s)`, times 1000."""
    return 1000 * s - 990 * left * ((s > 0) - (s < 0))


def after(cls, opening):
    """A game of `cls` (no AI players) after the moves of `opening`."""
    g = cls([AI_Player(None), AI_Player(None)])
    for m in opening:
        g.make_move(m)
        g.switch_player()
    return g


class Adapter:
    """An easyAI game as a stockman game. A position is `(board, player,
    depth left)`; a board is never changed once made (play copies it, then
    calls the class's make_move on the copy), so loading one into the game
    object is two attribute stores. Roles alternate (`alternating = True`:
    stockman asks `role()` only at the root)."""

    alternating = True

    def __init__(self, cls, opening, depth, score):
        self.g = g = after(cls, opening)
        # The game's methods, bound once (a lookup on `g` makes a bound method each time).
        self.is_over, self.possible_moves = g.is_over, g.possible_moves
        self.make_move, self.scoring = g.make_move, g.scoring
        self.start = (self.copy(g.board), g.current_player, depth)
        self.max_player = g.current_player
        self.score = score
        self.evals = 0

    def root(self):
        return self.start

    def role(self, pos):
        return "max" if pos[1] == self.max_player else "min"

    def moves(self, pos):
        g = self.g
        g.board, g.current_player = pos[0], pos[1]
        return [] if self.is_over() else self.possible_moves()

    def play(self, pos, move):
        g = self.g
        board = self.copy(pos[0])
        g.board, g.current_player = board, pos[1]
        self.make_move(move)
        return (board, 3 - pos[1], pos[2] - 1)

    def evaluate(self, pos):
        self.evals += 1
        g = self.g
        g.board, g.current_player = pos[0], pos[1]
        v = self.score(self.scoring(), pos[2])  # from the view of the player to move
        return v if pos[1] == self.max_player else -v


class TTTAdapter(Adapter):
    copy = staticmethod(list)


class InPlaceAdapter:
    """An easyAI game with `unmake_move` as a stockman game played in place:
    the game object is the position, changed as Negamax changes it
    (`make_move` then `switch_player`; `switch_player` then `unmake_move`),
    so that no board is copied. The depth left is counted by make and
    unmake."""

    alternating = True

    def __init__(self, cls, opening, depth, score):
        self.g = g = after(cls, opening)
        self.is_over, self.possible_moves = g.is_over, g.possible_moves
        self.make_move, self.unmake_move = g.make_move, g.unmake_move
        self.switch_player, self.scoring = g.switch_player, g.scoring
        self.max_player = g.current_player
        self.left = depth
        self.score = score
        self.evals = 0

    def role(self):
        return "max" if self.g.current_player == self.max_player else "min"

    def moves(self):
        return [] if self.is_over() else self.possible_moves()

    def make(self, move):
        self.make_move(move)
        self.switch_player()
        self.left -= 1

    def unmake(self, move):
        self.switch_player()
        self.unmake_move(move)
        self.left += 1

    def evaluate(self):
        self.evals += 1
        v = self.score(self.scoring(), self.left)  # from the view of the player to move
        return v if self.g.current_player == self.max_player else -v


class Native:
    """No adapter: easyAI's game object itself, searched by the AI
    `stockman.EasyAI(depth, algo)` in place of `Negamax(depth)` (stockman
    calls the game's methods from Rust and scores leaves as Negamax does).
    The AI asks `possible_moves()` once more at the root, to turn the best
    move's index into the move."""

    def __init__(self, cls, opening, depth, score):
        assert score is negamax_score, "stockman.easyai scores leaves as Negamax does"
        self.g = after(cls, opening)
        self.depth = depth

    def run(self, algo):
        ai = stockman.EasyAI(self.depth, algo)
        ai(self.g)
        return ai.row


class C4Adapter(Adapter):
    copy = staticmethod(np.copy)


class Hashed:
    """For the table-driven searches: `hash()` of the board and the player."""

    def hash(self, pos):
        return hash((self.key(pos[0]), pos[1]))


class TTTHashed(Hashed, TTTAdapter):
    key = staticmethod(tuple)


class C4Hashed(Hashed, C4Adapter):
    key = staticmethod(lambda b: b.tobytes())


GAMES = {
    "ttt": dict(
        name="TicTacToe",
        cls=TTT,
        adapter=TTTAdapter,
        hashed=TTTHashed,
        in_place=InPlaceAdapter,
        native=Native,
        depth=9,
        openings=[[], [5], [1, 5], [5, 1, 9]],
        show=lambda o: "".join(map(str, o)) or "(empty)",
    ),
    "c4": dict(
        name="ConnectFour",
        cls=C4,
        adapter=C4Adapter,
        hashed=C4Hashed,
        native=Native,
        depth=6,
        openings=[[3, 3], [3, 2, 4]],  # columns 0-6; shown 1-7: 44, 435
        show=lambda o: "".join(str(m + 1) for m in o),
    ),
}

# --- the searches --------------------------------------------------------------------------


def easyai(cls, solver, opening):
    """easyAI's solver on the game after `opening`: (leaves, seconds, value)."""
    g = cls([AI_Player(solver), AI_Player(solver)])
    for m in opening:
        g.make_move(m)
        g.switch_player()
    scoring = cls.scoring
    n = [0]

    def counted(self):
        n[0] += 1
        return scoring(self)

    cls.scoring = counted
    try:
        t = time.perf_counter()
        solver(g)
        dt = time.perf_counter() - t
    finally:
        cls.scoring = scoring
    return n[0], dt, getattr(solver, "alpha", None)


def ours(adapter, algo, opening, depth, score):
    """stockman's `algo` through the adapter: (leaves, seconds, value)."""
    a = adapter(opening, depth, score)
    if isinstance(a, Native):
        t = time.perf_counter()
        row = a.run(algo)
        dt = time.perf_counter() - t
        return row["stats"]["leaf_evals"], dt, row["value"]
    t = time.perf_counter()
    row = stockman.solve(a, algo, depth=depth)[0]
    dt = time.perf_counter() - t
    assert row["stats"]["leaf_evals"] == a.evals, (row, a.evals)
    return row["stats"]["leaf_evals"], dt, row["value"]


# (stockman, easyAI, make the easyAI solver, scoring, the adapter, headline); the adapter
# is "adapter" (positions, a board copied per move), "hashed" (the same with hash()) or
# "in_place" (make and unmake on the game object, where the game has unmake_move) or
# "native" (no adapter: the AI stockman.EasyAI on the game object).
PAIRS = [
    ("alphabeta", "Negamax", lambda d: Negamax(d), negamax_score, "native", True),
    ("alphabeta", "Negamax", lambda d: Negamax(d), negamax_score, "adapter", True),
    ("alphabeta", "Negamax", lambda d: Negamax(d), negamax_score, "in_place", True),
    ("negascout", "Negamax", lambda d: Negamax(d), negamax_score, "adapter", True),
    ("sss", "SSS (no table)", lambda d: SSS(d), mt_score, "adapter", False),
    ("sss", "SSS (table)", lambda d: SSS(d, tt=TranspositionTable()), mt_score, "adapter", False),
    ("dual", "DUAL (table)", lambda d: DUAL(d, tt=TranspositionTable()), mt_score, "adapter", False),
    ("mt-sss", "SSS (table)", lambda d: SSS(d, tt=TranspositionTable()), mt_score, "hashed", False),
    ("mt-dual", "DUAL (table)", lambda d: DUAL(d, tt=TranspositionTable()), mt_score, "hashed", False),
]


def check(game, opening, kind="adapter"):
    """Alpha-beta and Negamax, on equal scoring, evaluate the same leaves,
    find the same value and call the game's methods equally often (in
    place: `unmake_move` and `switch_player` too)."""
    spec = GAMES[game]
    counted = counting(spec["cls"])

    class CountedAdapter(spec[kind]):
        def __init__(self, opening, depth, score):
            super().__init__(counted, opening, depth, score)

    CALLS.clear()
    lo, _, vo = ours(CountedAdapter, "alphabeta", opening, spec["depth"], negamax_score)
    ours_calls = dict(CALLS)
    CALLS.clear()
    solver = Negamax(spec["depth"])
    lt, _, vt = easyai(counted, solver, opening)
    theirs_calls = dict(CALLS)
    theirs_calls["scoring"] = lt
    ours_calls["scoring"] = lo
    assert lo == lt, f"{game} {opening}: alpha-beta evaluates {lo} leaves, Negamax {lt}"
    assert vo == round(vt * 1000), f"{game} {opening}: alpha-beta's value {vo}, Negamax's {vt}"
    # easyAI also calls unmake_move and switch_player; the positions adapter copies the board
    # instead, the in-place one and the native AI call them as often.
    shared = ["is_over", "possible_moves", "make_move", "scoring", "lose"]
    if kind == "native" and ours_calls.get("possible_moves"):
        ours_calls["possible_moves"] -= 1  # the AI's root call, to name its move
    for k in shared + (["unmake_move", "switch_player"] if kind in ("in_place", "native") else []):
        assert ours_calls.get(k, 0) == theirs_calls.get(k, 0), (game, opening, k, ours_calls, theirs_calls)
    return ours_calls


SHARED = ["is_over", "possible_moves", "make_move", "scoring"]


def game_calls(game, opening):
    """The calls of the game's methods that Negamax and the adapter share
    (`SHARED`; `lose` runs inside them), as Negamax makes them: a list of
    (method, board, player, args), each board a copy taken at the call."""
    spec = GAMES[game]
    cls = spec["cls"]
    log = []
    inside = [False]  # is_over calls possible_moves: only the outer call is logged
    copy = spec["adapter"].copy

    def wrap(name):
        f = getattr(cls, name)

        def logged(self, *a):
            if inside[0]:
                return f(self, *a)
            log.append((f, copy(self.board), self.current_player, a))
            inside[0] = True
            try:
                return f(self, *a)
            finally:
                inside[0] = False

        return logged

    logging = type("Logged" + cls.__name__, (cls,), {n: wrap(n) for n in SHARED})
    easyai(logging, Negamax(spec["depth"]), opening)
    return log


def floor(game, log):
    """The game's own share: the seconds the shared methods take when
    called in a plain loop on the boards Negamax gave them (`log`, from
    `game_calls`), no search around them. The loop copies each board into
    the game's one board before the call; the same loop without the calls
    is timed too and taken off. A library that calls the methods as often
    as Negamax does cannot take less."""
    spec = GAMES[game]
    g = spec["cls"]([AI_Player(None), AI_Player(None)])
    board = g.board

    def loop(call):
        t = time.perf_counter()
        for f, b, p, a in log:
            board[:] = b
            g.current_player = p
            if call:
                f(g, *a)
        return time.perf_counter() - t

    return loop(True) - loop(False)


def summary(xs):
    return statistics.median(xs), min(xs), max(xs)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(args[0]) if args else 5
    which = args[1] if len(args) > 1 else "all"
    headline = "--headline" in sys.argv
    if "--floor" in sys.argv:
        return floors(rounds, ["ttt", "c4"] if which == "all" else [which])
    games = ["ttt", "c4"] if which == "all" else [which]
    pairs = [p for p in PAIRS if p[5]] if headline else PAIRS

    jobs = []
    for game in games:
        spec = GAMES[game]
        for opening in spec["openings"]:
            for kind in sorted({p[4] for p in pairs if p[4] in spec and p[4] != "hashed"}):
                calls = check(game, opening, kind)
                print(f"# {spec['name']} {spec['show'](opening)} ({kind}): equal leaves and game calls {calls}",
                      file=sys.stderr)
            for pair in pairs:
                if pair[4] in spec:
                    jobs.append((game, opening, pair))

    times = {i: ([], []) for i in range(len(jobs))}
    leaves = {}
    reps = {}
    for i, (game, opening, pair) in enumerate(jobs):
        spec = GAMES[game]
        t = easyai(spec["cls"], pair[2](spec["depth"]), opening)[1]
        reps[i] = max(1, round(0.05 / t))
    for r in range(rounds):
        for i, (game, opening, (algo, _, make, score, kind, _h)) in enumerate(jobs):
            spec = GAMES[game]
            d = spec["depth"]
            adapter = spec[kind]

            def repeated(run, n=reps[i]):
                out = [run() for _ in range(n)]
                return out[-1][0], sum(o[1] for o in out) / n, out[-1][2]

            def run_ours():
                return repeated(lambda: ours(lambda o, dd, s: adapter(spec["cls"], o, dd, s), algo, opening, d, score))

            def run_theirs():
                return repeated(lambda: easyai(spec["cls"], make(d), opening))

            if r % 2 == 0:
                lo, to, _ = run_ours()
                lt, tt, _ = run_theirs()
            else:
                lt, tt, _ = run_theirs()
                lo, to, _ = run_ours()
            times[i][0].append(to)
            times[i][1].append(tt)
            leaves[i] = (lo, lt)
        print(f"# round {r + 1} of {rounds} done", file=sys.stderr)

    print(
        "| game | opening | stockman | leaves | median | range | µs/leaf | easyAI | leaves | median | range "
        "| µs/leaf | time ratio (range) |"
    )
    print("|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for i, (game, opening, (algo, theirs, _m, _s, kind, _h)) in enumerate(jobs):
        spec = GAMES[game]
        algo = algo + {"in_place": " (in place)", "native": " (EasyAI, no adapter)"}.get(kind, "")
        (lo, lt), (to, tt) = leaves[i], times[i]
        mo, ao, bo = summary(to)
        mt, at, bt = summary(tt)
        ratios = [x / y for x, y in zip(to, tt)]
        print(
            f"| {spec['name']} | {spec['show'](opening)} | {algo} | {lo:,} | {mo * 1e3:.1f} ms "
            f"| {ao * 1e3:.1f}-{bo * 1e3:.1f} | {mo / lo * 1e6:.1f} | {theirs} | {lt:,} | {mt * 1e3:.1f} ms "
            f"| {at * 1e3:.1f}-{bt * 1e3:.1f} | {mt / lt * 1e6:.1f} | {mo / mt:.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) |"
        )


def floors(rounds, games):
    """`--floor`: per opening, the time of the game's shared methods alone
    (`floor`) and easyAI Negamax's whole search, interleaved in `rounds`
    rounds: medians, and the median (range) of the per-round ratios, the
    least fraction of Negamax's time that any library calling the game as
    often can take."""
    print("| game | opening | shared game calls | game methods alone: median | Negamax: median | ratio (range) |")
    print("|---|---|---:|---:|---:|---:|")
    for game in games:
        spec = GAMES[game]
        for opening in spec["openings"]:
            log = game_calls(game, opening)
            alone, whole = [], []
            for r in range(rounds):
                runs = [
                    lambda: alone.append(floor(game, log)),
                    lambda: whole.append(easyai(spec["cls"], Negamax(spec["depth"]), opening)[1]),
                ]
                for run in runs if r % 2 == 0 else runs[::-1]:
                    run()
            ratios = [x / y for x, y in zip(alone, whole)]
            print(
                f"| {spec['name']} | {spec['show'](opening)} | {len(log):,} | {statistics.median(alone) * 1e3:.1f} ms "
                f"| {statistics.median(whole) * 1e3:.1f} ms | {statistics.median(ratios):.2f} "
                f"({min(ratios):.2f}-{max(ratios):.2f}) |"
            )


if __name__ == "__main__":
    main()
