"""The Python API against the library's theorems, the CLI's JSON, and
Python-defined games."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import stockman

ROOT = Path(__file__).resolve().parents[3]
TEXTBOOK = "[[3,12,8],[2,4,6],[14,5,2]]"


def cli():
    """The `stockman` binary: $STOCKMAN_BIN, else built here."""
    path = os.environ.get("STOCKMAN_BIN")
    if path:
        return path
    subprocess.run(["cargo", "build", "-q", "-p", "stockman-cli"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "stockman")


def cli_json(*args):
    out = subprocess.run([cli(), "solve", *args, "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def leaf_values(tree, paths):
    out = []
    for path in paths:
        node = tree
        for i in path:
            node = node[i]
        out.append(node)
    return out


# --- the textbook tree and the golden leaf orders ---------------------------------


def test_textbook_tree_every_algorithm():
    rows = stockman.solve(TEXTBOOK)
    assert [r["algorithm"] for r in rows] == stockman.ALGORITHMS
    for r in rows:
        if r["algorithm"] == "bns":
            assert r["value"] is None
            lo, hi = r["bound"]
            assert lo <= 3 < hi and r["best_move"] == 0
            assert r["stats"]["passes"] <= 5
        else:
            assert r["value"] == 3 and r["best_move"] == 0, r


def test_textbook_leaf_orders():
    tree = json.loads(TEXTBOOK)
    ab, sss = stockman.solve(tree, ["alphabeta", "sss"], leaves=True)
    assert ab["stats"]["leaf_evals"] == 7
    assert leaf_values(tree, ab["leaves"]) == [3, 12, 8, 2, 14, 5, 2]
    assert leaf_values(tree, sss["leaves"]) == [3, 2, 14, 5, 2, 12, 8]


def test_min_root_and_single_leaf():
    # MIN root: the children are MAX nodes (12, 6, 14), MIN takes 6.
    assert stockman.solve("[[3,12,8],[2,4,6],[14,5,2]]", "minimax", root="min")[0]["value"] == 6
    assert stockman.solve(7, "sss")[0]["value"] == 7


# --- the same answers as the CLI ----------------------------------------------------


@pytest.mark.parametrize("spec", ["width=3,depth=5,seed=1", "width=4,depth=4,seed=7,model=incremental", "width=5,depth=4,seed=3,order=0.9"])
def test_random_trees_agree_with_the_cli(spec):
    ours = stockman.solve(stockman.random_tree(spec), "all", leaves=True)
    theirs = cli_json("--random", spec, "--algo", "all", "--leaves")
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        for key in ["algorithm", "value", "best_move", "bound", "leaves"]:
            assert a.get(key) == b.get(key), (spec, key, a, b)
        sa = {k: v for k, v in a["stats"].items() if k != "time_us"}
        sb = {k: v for k, v in b["stats"].items() if k != "time_us"}
        assert sa == sb, (spec, a["algorithm"])
        assert set(a["stats"]) == set(b["stats"])


def test_games_agree_with_the_cli():
    for game, pos, depth in [("connect4", "4453", 6), ("tictactoe", "15", None)]:
        src = stockman.Connect4(pos) if game == "connect4" else stockman.TicTacToe(pos)
        extra = ["--depth", str(depth)] if depth else []
        ours = stockman.solve(src, "alphabeta,mtdf,mtd-bi", depth=depth)
        theirs = cli_json("--game", game, "--position", pos, "--algo", "alphabeta,mtdf,mtd-bi", *extra)
        for a, b in zip(ours, theirs):
            assert (a["value"], a["best_move"]) == (b["value"], b["best_move"])
            assert a["stats"]["nodes"] == b["stats"]["nodes"]


OTHELLO_9 = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-OOOOOOXXOOOX--X-X---X-- X"


def test_othello_and_chess_agree_with_the_cli():
    for game, src, pos, depth in [
        ("othello", stockman.Othello(OTHELLO_9), OTHELLO_9, None),
        ("othello", stockman.Othello("f5d6c3"), "f5d6c3", 3),
        ("chess", stockman.Chess("startpos moves e2e4"), "startpos moves e2e4", 3),
    ]:
        extra = ["--depth", str(depth)] if depth else []
        ours = stockman.solve(src, "alphabeta,mtdf,sss", depth=depth)
        theirs = cli_json("--game", game, "--position=" + pos, "--algo", "alphabeta,mtdf,sss", *extra)
        for a, b in zip(ours, theirs):
            assert (a["value"], a["best_move"]) == (b["value"], b["best_move"]), (game, a, b)
            assert a["stats"]["leaf_evals"] == b["stats"]["leaf_evals"]
    assert stockman.solve(stockman.Othello(OTHELLO_9), "mtdf")[0]["value"] == 38
    assert stockman.Othello(OTHELLO_9).name == "othello"
    assert "a b c d e f g h" in stockman.Othello().board()
    assert "FEN" in stockman.Chess().board()
    with pytest.raises(ValueError, match="chess needs a depth"):
        stockman.solve(stockman.Chess(), "mtdf")
    with pytest.raises(ValueError, match=r"move 3 \(`z9`, column 5\)"):
        stockman.Othello("f5d6z9")
    with pytest.raises(ValueError, match="FEN"):
        stockman.Chess("not a fen at all")


def test_checkers_agrees_with_the_cli():
    for pos in ["11-15 22-18 15x22 25x18", "W:W18,19,26,27,K2:B6,7,14,15,K28"]:
        ours = stockman.solve(stockman.Checkers(pos), "alphabeta,mtdf,sss", depth=5)
        theirs = cli_json("--game", "checkers", "--position=" + pos, "--algo", "alphabeta,mtdf,sss", "--depth", "5")
        for a, b in zip(ours, theirs):
            assert (a["value"], a["best_move"]) == (b["value"], b["best_move"]), (pos, a, b)
            assert a["stats"]["leaf_evals"] == b["stats"]["leaf_evals"]
    game = stockman.Checkers()
    assert game.name == "checkers"
    assert "FEN B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in game.board()
    assert repr(stockman.Checkers("11-15")) == 'stockman.Checkers("11-15")'
    # A multi-jump that crowns is one move, in the game's notation.
    rows = stockman.solve(stockman.Checkers("W:W18,19,26,27,K2:B6,7,14,15,K28"), "mtdf", depth=3)
    assert rows[0]["best_move"] in {"2x9", "2x11", "18x9", "18x11", "19x10x1", "19x10x3"}
    with pytest.raises(ValueError, match="checkers needs a depth"):
        stockman.solve(stockman.Checkers(), "mtdf")
    with pytest.raises(ValueError, match=r"move 3 \(`9-13`, column 13\): Black must capture"):
        stockman.Checkers("11-15 22-18 9-13")
    with pytest.raises(ValueError, match=r"FEN `K33` \(column 7\)"):
        stockman.Checkers("W:W21,K33:B1")


def test_iterative_under_a_node_limit_answers_with_its_depth():
    rows = stockman.solve(stockman.Connect4("4453"), "mtdf", depth=40, iterative=True, max_nodes=100_000)
    r = rows[0]
    assert r["algorithm"] == "mtdf+id"
    assert r["depth_completed"] >= 6 and r["stopped_by"] == "max_nodes=100000"


# --- games written in Python ---------------------------------------------------------


class Nim:
    """Take 1 to 3 from a pile; whoever takes the last wins (+1 for MAX)."""

    def __init__(self, pile):
        self.pile = pile

    def root(self):
        return (self.pile, True)

    def role(self, pos):
        return "max" if pos[1] else "min"

    def moves(self, pos):
        return [t for t in (1, 2, 3) if t <= pos[0]]

    def play(self, pos, move):
        return (pos[0] - move, not pos[1])

    def evaluate(self, pos):
        return -1 if pos[1] else 1

    def hash(self, pos):
        return pos[0] * 2 + pos[1]


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class PyTicTacToe:
    """Tic-tac-toe as a tuple of 9 cells, X = MAX; X wins +1, O wins -1."""

    def root(self):
        return (None,) * 9

    def winner(self, b):
        for i, j, k in LINES:
            if b[i] is not None and b[i] == b[j] == b[k]:
                return b[i]
        return None

    def role(self, b):
        return "max" if sum(c is not None for c in b) % 2 == 0 else "min"

    def moves(self, b):
        if self.winner(b) is not None:
            return []
        return [i for i in range(9) if b[i] is None]

    def play(self, b, i):
        mark = "X" if self.role(b) == "max" else "O"
        return b[:i] + (mark,) + b[i + 1 :]

    def evaluate(self, b):
        w = self.winner(b)
        return 1 if w == "X" else -1 if w == "O" else 0

    def hash(self, b):
        return hash(b)


# Multiples of 4 are lost for the player to move.
@pytest.mark.parametrize("pile,value", [(4, -1), (5, 1), (8, -1), (9, 1), (11, 1), (12, -1)])
def test_python_nim_every_algorithm(pile, value):
    for r in stockman.solve(Nim(pile)):
        if r["algorithm"] == "bns":
            lo, hi = r["bound"]
            assert lo <= value < hi
        else:
            assert r["value"] == value, r


def test_python_tictactoe_every_algorithm_agrees_with_the_builtin_one():
    rows = stockman.solve(PyTicTacToe())
    for r in rows:
        if r["algorithm"] != "bns":
            assert r["value"] == 0, r
    # The built-in game knows its value range (-1..1) and cuts on it, so
    # only the values are compared, for every position after one move.
    for cell in range(9):
        b = (None,) * cell + ("X",) + (None,) * (8 - cell)

        class After(PyTicTacToe):
            def root(self, b=b):
                return b

        ours = stockman.solve(After(), "alphabeta,mtdf")
        theirs = stockman.solve(stockman.TicTacToe(str(cell + 1)), "alphabeta,mtdf")
        # The built-in game values positions from the side to move (O here).
        assert [r["value"] for r in ours] == [-r["value"] for r in theirs], cell


def test_python_game_trace():
    t = stockman.trace(Nim(5), "sss")
    assert t["value"] == 1
    assert any(e["event"] == "leaf" for e in t["events"])


def test_a_python_game_without_hash_runs_what_it_can_and_refuses_the_rest():
    del_hash = type("NimNoHash", (), {k: getattr(Nim, k) for k in ["root", "role", "moves", "play", "evaluate"]})
    obj = del_hash()
    obj.pile = 5
    # The default: every algorithm that needs no table.
    rows = stockman.solve(obj)
    assert [r["algorithm"] for r in rows] == [a for a in stockman.ALGORITHMS if a not in stockman.TABLE_ALGORITHMS]
    assert all(r["value"] == 1 for r in rows)
    # Naming one that needs a table raises, with the other results.
    with pytest.raises(stockman.UnsupportedSearch, match="needs a transposition table") as e:
        stockman.solve(obj, "alphabeta,mtdf")
    assert isinstance(e.value, ValueError) and isinstance(e.value, stockman.SearchError)
    assert e.value.results[0]["value"] == 1


# --- errors ----------------------------------------------------------------------------


def test_parse_errors_name_line_and_column():
    with pytest.raises(ValueError, match=r"line 2, column 4"):
        stockman.solve("[[1,2],\n[3,x]]", "sss")
    with pytest.raises(ValueError, match="unknown algorithm `nope`"):
        stockman.solve(TEXTBOOK, "nope")
    with pytest.raises(ValueError, match="invalid random tree spec"):
        stockman.random_tree("width=0,depth=3")
    with pytest.raises(ValueError, match=r"move 3 \('5'\)"):
        stockman.TicTacToe("155")
    with pytest.raises(ValueError, match="root"):
        stockman.solve(TEXTBOOK, "sss", root="middle")


class Boom(Exception):
    pass


def test_exceptions_from_a_python_game_propagate_unchanged():
    class Exploding(Nim):
        def evaluate(self, pos):
            raise Boom("kaboom")

    with pytest.raises(Boom, match="kaboom"):
        stockman.solve(Exploding(3), "alphabeta")

    class BadMoves(Nim):
        def moves(self, pos):
            raise KeyError("no moves here")

    with pytest.raises(KeyError):
        stockman.solve(BadMoves(3), "sss")


def test_bad_values_raise_value_error_naming_the_method():
    class Stringly(Nim):
        def evaluate(self, pos):
            return "one"

    with pytest.raises(ValueError, match=r"evaluate\(\) must return an int"):
        stockman.solve(Stringly(3), "alphabeta")

    class Huge(Nim):
        def evaluate(self, pos):
            return 10**12

    with pytest.raises(ValueError, match=r"evaluate\(\) returned 1000000000000"):
        stockman.solve(Huge(3), "minimax")

    class Roleless(Nim):
        def role(self, pos):
            return "both"

    with pytest.raises(ValueError, match=r"role\(\) must return"):
        stockman.solve(Roleless(3), "alphabeta")

    with pytest.raises(TypeError, match="has no `root`"):
        stockman.solve(object(), "alphabeta")


def test_limits_raise_search_limit_with_the_stats():
    with pytest.raises(stockman.SearchLimit) as e:
        stockman.solve(stockman.random_tree("width=8,depth=8,seed=1"), "alphabeta", max_nodes=1000)
    assert e.value.algorithm == "alphabeta"
    assert e.value.stats["nodes"] == 1000
    assert "max_nodes=1000" in str(e.value)


# --- threads ------------------------------------------------------------------------------


@pytest.mark.parametrize("parallel", [None, "abdada", "lazy-smp", "rounds"])
def test_threads_keep_every_value(parallel):
    one = stockman.solve(stockman.random_tree("width=5,depth=6,seed=9"), "all")
    with pytest.warns(UserWarning, match="minimax, recsss, recdual, sss2, gsearch, rsearch have no parallel form"):
        many = stockman.solve(stockman.random_tree("width=5,depth=6,seed=9"), "all", threads=3, parallel=parallel)
    assert [(r["algorithm"], r["value"], r.get("bound")) for r in one] == [
        (r["algorithm"], r["value"], r.get("bound")) for r in many
    ]
    c4 = stockman.solve(stockman.Connect4("4453445"), ["mtd-bi", "alphabeta", "mt-sss"], threads=2, parallel=parallel)
    assert [r["value"] for r in c4] == [3, 3, 3]


def test_threads_one_is_the_plain_search():
    one = stockman.solve(stockman.random_tree("width=4,depth=5,seed=2"), "mtdf")
    same = stockman.solve(stockman.random_tree("width=4,depth=5,seed=2"), "mtdf", threads=1)
    for r in one + same:
        r["stats"]["time_us"] = 0
    assert one == same


def test_bad_thread_arguments_name_themselves():
    for bad in (0, -1, stockman.MAX_THREADS + 1):
        with pytest.raises(ValueError, match="threads must be between 1 and"):
            stockman.solve("[1,2]", threads=bad)
    with pytest.raises(TypeError, match="threads must be an int"):
        stockman.solve("[1,2]", threads="2")
    with pytest.raises(ValueError, match="parallel must be 'abdada', 'lazy-smp' or 'rounds'"):
        stockman.solve("[1,2]", threads=2, parallel="ybwc")
    with pytest.raises(ValueError, match="threads must be between"):
        stockman.Engine("mtdf", threads=0)


def test_round_states_fix_the_rounds_on_any_number_of_threads():
    tree = stockman.random_tree("width=6,depth=6,seed=4")
    (sss,) = stockman.solve(tree, "sss")
    runs = [
        stockman.solve(tree, ["sss", "dual"], threads=t, parallel="rounds", round_states=3)
        for t in (2, 3, 2)
    ]
    # Fixed rounds: the same leaves on every run and thread count, the
    # minimax value, and more leaves than the sequential SSS* (a round of
    # three states takes some that SSS* never reaches).
    for run in runs:
        assert [r["value"] for r in run] == [sss["value"]] * 2
        assert [r["stats"]["leaf_evals"] for r in run] == [r["stats"]["leaf_evals"] for r in runs[0]]
    assert runs[0][0]["stats"]["leaf_evals"] > sss["stats"]["leaf_evals"]
    path = ROOT / "crates" / "stockman" / "tests" / "data" / "connect4" / "Test_L3_R1"
    lines = path.read_text().splitlines()[:12]
    c4 = stockman.solve_positions("connect4", lines, "sss", threads=2, parallel="rounds", round_states=2)
    assert (c4["summary"][0]["positions"], c4["summary"][0]["wrong"]) == (12, 0)


def test_bad_round_states_name_themselves():
    for bad in (-1, stockman.MAX_ROUND_STATES + 1):
        with pytest.raises(ValueError, match="round_states must be between 0 and"):
            stockman.solve("[1,2]", "sss", threads=2, parallel="rounds", round_states=bad)
    with pytest.raises(TypeError, match="round_states must be an int"):
        stockman.solve("[1,2]", "sss", threads=2, parallel="rounds", round_states="3")
    for parallel in (None, "abdada"):
        with pytest.raises(ValueError, match="round_states=3: .* only with parallel='rounds'"):
            stockman.solve("[1,2]", "sss", threads=2, parallel=parallel, round_states=3)
    with pytest.raises(ValueError, match="round_states=2: .* only with parallel='rounds'"):
        stockman.solve_positions("connect4", ["4453 1"], "sss", depth=4, threads=2, round_states=2)


def test_engine_on_two_threads_plays_connect_four():
    engine = stockman.Engine("mtd-bi", threads=2, tt_mb=16)
    found = engine.best_move(stockman.Connect4("4453445"))
    assert found["value"] == 3
    one = stockman.Engine("mtd-bi", tt_mb=16).best_move(stockman.Connect4("4453445"))
    assert one["value"] == 3


def test_a_python_game_warns_and_searches_on_one_thread():
    class Count:
        def root(self):
            return 0

        def role(self, pos):
            return "max" if pos % 2 == 0 else "min"

        def moves(self, pos):
            return [1, 2] if pos < 6 else []

        def play(self, pos, move):
            return pos + move

        def evaluate(self, pos):
            return pos

        def hash(self, pos):
            return pos

    with pytest.warns(UserWarning, match="a Python game is searched on one thread"):
        rows = stockman.solve(Count(), "mtdf", threads=2)
    assert rows[0]["value"] == stockman.solve(Count(), "mtdf")[0]["value"]
    with pytest.warns(UserWarning, match="a Python game is searched on one thread"):
        stockman.Engine("mtdf", threads=2).best_move(Count(), depth=4)


def test_solve_positions_gives_the_cli_summary():
    """`stockman.solve_positions` runs the CLI's batch code: the same rows and
    summary figures (times aside) for the same file, from a path or lines."""
    path = ROOT / "crates" / "stockman" / "tests" / "data" / "connect4" / "Test_L3_R1"
    lines = path.read_text().splitlines()[:12]
    out = subprocess.run(
        [cli(), "solve", "--game", "connect4", "--positions", "-", "--algo", "mtdf,negascout",
         "--tt-mb", "8", "--format", "json"],
        input="\n".join(lines), capture_output=True, text=True, check=True,
    ).stdout
    cli_rows = [json.loads(l) for l in out.splitlines()]
    cli_summary = [r["summary"] for r in cli_rows if "summary" in r]
    cli_positions = [r for r in cli_rows if "summary" not in r]
    got = stockman.solve_positions("connect4", lines, ["mtdf", "negascout"], tt_mb=8)
    untimed = lambda d: {k: v for k, v in d.items() if "time" not in k and k not in ("stats", "positions_per_s")}
    assert [untimed(s) for s in got["summary"]] == [untimed(s) for s in cli_summary]
    for mine, theirs in zip(got["summary"], cli_summary):
        assert mine["stats"]["nodes"] == theirs["stats"]["nodes"]
        assert mine["positions"] == 12 and mine["wrong"] == 0
    assert len(got["positions"]) == len(cli_positions) == 24
    for mine, theirs in zip(got["positions"], cli_positions):
        assert (mine["position"], mine["algorithm"], mine["value"], mine["best_move"], mine["expected"]) == (
            theirs["position"], theirs["algorithm"], theirs["value"], theirs["best_move"], theirs["expected"])
    # A path reads the same file.
    whole = stockman.solve_positions("connect4", str(path), "mtdf", tt_mb=8)
    assert whole["summary"][0]["positions"] == len([l for l in path.read_text().splitlines() if l.strip()])


def test_solve_positions_names_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="holds no positions"):
        stockman.solve_positions("connect4", ["# nothing"])
    with pytest.raises(ValueError, match="unknown game"):
        stockman.solve_positions("go", ["4453 1"])
    bad = tmp_path / "bad.txt"
    bad.write_text("4453 1\n44x 2\n")
    with pytest.raises(ValueError, match=r"bad.txt: line 2"):
        stockman.solve_positions("connect4", str(bad))
    with pytest.raises(TypeError, match="positions"):
        stockman.solve_positions("connect4", 42)


def test_an_alternating_game_is_asked_role_of_its_root_only():
    class Nim:
        def __init__(self):
            self.roles = 0

        def root(self):
            return (7, True)

        def role(self, p):
            self.roles += 1
            return "max" if p[1] else "min"

        def moves(self, p):
            return [t for t in (1, 2, 3) if t <= p[0]]

        def play(self, p, t):
            return (p[0] - t, not p[1])

        def evaluate(self, p):
            return (-1 if p[1] else 1) * (10 + p[0])

        def hash(self, p):
            return p[0] * 2 + p[1]

    class Alternating(Nim):
        alternating = True

    algos = ["minimax", "alphabeta", "negascout", "sss", "dual", "mt-sss", "mtdf"]
    for algo in algos:
        plain, alt = Nim(), Alternating()
        a, b = stockman.solve(plain, algo)[0], stockman.solve(alt, algo)[0]
        assert a["value"] == b["value"] and a["best_move"] == b["best_move"], algo
        assert {k: v for k, v in a["stats"].items() if k != "time_us"} == {
            k: v for k, v in b["stats"].items() if k != "time_us"
        }, algo
        assert plain.roles > 1 and alt.roles == 1, (algo, plain.roles, alt.roles)

    class Falsy(Nim):
        alternating = False

    g = Falsy()
    stockman.solve(g, "alphabeta")
    assert g.roles > 1

    class Bad(Nim):
        alternating = "yes"

    with pytest.raises(TypeError, match="alternating"):
        stockman.solve(Bad(), "alphabeta")

    class Raises(Alternating):
        def role(self, p):
            raise KeyError("role of the root")

    with pytest.raises(KeyError, match="role of the root"):
        stockman.solve(Raises(), "alphabeta")


def test_sss2_evaluates_sss_leaves_in_sss_order():
    tree = stockman.random_tree("width=4,depth=5,seed=3")
    rows = {r["algorithm"]: r for r in stockman.solve(tree, "sss,sss2", leaves=True)}
    assert rows["sss2"]["value"] == rows["sss"]["value"]
    assert rows["sss2"]["leaves"] == rows["sss"]["leaves"]
    assert rows["sss2"]["stats"]["max_open"] > 0


def test_gsearch_rules_and_rsearch_memory():
    tree = "[[3,12,8],[2,4,6],[14,5,2]]"
    rows = {r["algorithm"]: r for r in stockman.solve(tree, "alphabeta,sss,dual", leaves=True)}
    for rule, twin in (("leftmost", "alphabeta"), ("upper", "sss"), ("lower", "dual")):
        (g,) = stockman.solve(tree, "gsearch", select=rule, leaves=True)
        assert (g["value"], g["best_move"]) == (3, 0)
        assert g["leaves"] == rows[twin]["leaves"], rule
    (r,) = stockman.solve(tree, "rsearch", memory=0, leaves=True)
    assert r["leaves"] == rows["alphabeta"]["leaves"]
    assert r["stats"]["passes"] == 1
    (r,) = stockman.solve(stockman.random_tree("width=3,depth=4,seed=5"), "rsearch", memory=10)
    assert r["stats"]["max_open"] <= 10
    with pytest.raises(ValueError, match="select must be 'leftmost', 'upper', 'lower' or 'widest'"):
        stockman.solve(tree, "gsearch", select="deepest")
    with pytest.raises(ValueError, match="memory must be between 0"):
        stockman.solve(tree, "rsearch", memory=-1)
    with pytest.raises(TypeError, match="memory must be an int"):
        stockman.solve(tree, "rsearch", memory="lots")
