"""Issue 26 and 21 from outside: deep, shuffling, mutating and endless
Python games; argument checks that name the argument; interrupts; the
engine; the inline viewer. No test here reads the clock to decide."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import stockman

TEXTBOOK = "[[3,12,8],[2,4,6],[14,5,2]]"


class Countdown:
    """One move per position, `n` plies deep; the value is the parity."""

    def __init__(self, n):
        self.n = n

    def root(self):
        return self.n

    def role(self, pos):
        return "max" if (self.n - pos) % 2 == 0 else "min"

    def moves(self, pos):
        return [1] if pos > 0 else []

    def play(self, pos, move):
        return pos - move

    def evaluate(self, pos):
        return 1 if self.n % 2 == 0 else -1

    def hash(self, pos):
        return pos


def test_a_countdown_30000_plies_deep_answers_with_every_algorithm():
    for row in stockman.solve(Countdown(30_000), "all"):
        if row["algorithm"] == "bns":
            lo, hi = row["bound"]
            assert lo <= 1 < hi
        else:
            assert row["value"] == 1, row


def test_a_game_deeper_than_max_plies_is_a_value_error_naming_depth():
    with pytest.raises(ValueError, match=r"deeper than 100000 plies.*depth="):
        stockman.solve(Countdown(stockman.MAX_PLIES + 5), "alphabeta")
    # With a depth it is searched to the depth.
    row = stockman.solve(Countdown(stockman.MAX_PLIES + 5), "alphabeta", depth=10)[0]
    assert row["value"] == -1


class Tree:
    """A uniform game tree of `width` and `depth` with seeded leaf values;
    positions are paths (tuples)."""

    def __init__(self, width, depth, seed, shuffle=False, hashed=True):
        self.width, self.depth = width, depth
        self.rng = random.Random(seed)
        self.values = {}
        self.shuffle = shuffle
        self.order = random.Random(seed + 1)
        self.seed = seed
        if not hashed:
            self.hash = None

    def root(self):
        return ()

    def role(self, pos):
        return "max" if len(pos) % 2 == 0 else "min"

    def moves(self, pos):
        if len(pos) == self.depth:
            return []
        ms = list(range(self.width))
        if self.shuffle:
            self.order.shuffle(ms)
        return ms

    def play(self, pos, move):
        return pos + (move,)

    def evaluate(self, pos):
        return random.Random(hash((self.seed,) + pos)).randint(-50, 50)

    def hash(self, pos):
        return hash(pos) & 0xFFFFFFFFFFFF

    def minimax(self, pos=()):
        kids = [self.play(pos, m) for m in range(self.width)] if len(pos) < self.depth else []
        if not kids:
            return self.evaluate(pos)
        vals = [self.minimax(k) for k in kids]
        return max(vals) if self.role(pos) == "max" else min(vals)


def check_rows(rows, value):
    for r in rows:
        if r["algorithm"] == "bns":
            lo, hi = r["bound"]
            assert lo <= value < hi or lo == value == hi, r
        else:
            assert r["value"] == value, r


@pytest.mark.parametrize("seed", range(20))
def test_shuffled_moves_give_the_minimax_value_with_every_algorithm(seed):
    game = Tree(3, 4, seed, shuffle=True)
    check_rows(stockman.solve(game, "all"), game.minimax())


def test_a_varying_number_of_moves_never_panics():
    class Varying(Tree):
        def moves(self, pos):
            if len(pos) == self.depth:
                return []
            return list(range(self.order.randint(1, self.width)))

    for seed in range(10):
        for algo in stockman.ALGORITHMS:
            try:
                rows = stockman.solve(Varying(3, 4, seed), algo)
            except (stockman.GameError, ValueError) as e:
                assert "moves()" in str(e), e
                continue
            assert rows[0]["value"] is not None or rows[0]["algorithm"] == "bns"


def test_a_play_that_mutates_its_argument_is_a_value_error():
    class Mutating:
        def root(self):
            return []

        def role(self, pos):
            return "max" if len(pos) % 2 == 0 else "min"

        def moves(self, pos):
            return [0, 1] if len(pos) < 3 else []

        def play(self, pos, move):
            pos.append(move)  # the classic mistake
            return pos

        def evaluate(self, pos):
            return sum(pos)

    for algo in stockman.ALGORITHMS:
        if algo in stockman.TABLE_ALGORITHMS:
            continue
        with pytest.raises(ValueError, match=r"play\(\) changed the position it was given"):
            stockman.solve(Mutating(), algo)


def test_an_endless_moves_generator_is_a_value_error_naming_moves():
    class Endless(Tree):
        def moves(self, pos):
            def forever():
                i = 0
                while True:
                    yield i
                    i += 1

            return forever() if len(pos) < self.depth else []

    with pytest.raises(ValueError, match=r"moves\(\) gave more than 1000000 moves"):
        stockman.solve(Endless(2, 2, 1), "alphabeta")


def test_arguments_are_checked_and_named():
    cases = [
        (dict(depth=-1), ValueError, "depth"),
        (dict(depth=2**40), ValueError, "depth"),
        (dict(depth=2.5), TypeError, "depth"),
        (dict(max_nodes=0), ValueError, "max_nodes"),
        (dict(time_limit=0), ValueError, "time_limit"),
        (dict(time_limit=-1.0), ValueError, "time_limit"),
        (dict(time_limit=float("nan")), ValueError, "time_limit"),
        (dict(tt_mb=0), ValueError, "tt_mb"),
        (dict(tt_mb=100_000), ValueError, "tt_mb"),
        (dict(algorithms=[]), ValueError, "algorithms"),
        (dict(algorithms=5), TypeError, "algorithms"),
        (dict(algorithms=["sss", 3]), TypeError, "algorithms"),
        (dict(algorithms="nope"), ValueError, "unknown algorithm `nope`"),
        (dict(root="middle"), ValueError, "root"),
    ]
    for kwargs, error, needle in cases:
        algorithms = kwargs.pop("algorithms", "sss")
        with pytest.raises(error, match=needle):
            stockman.solve(TEXTBOOK, algorithms, **kwargs)


def test_a_huge_table_is_a_value_error_not_an_abort():
    with pytest.raises(ValueError, match="tt_mb"):
        stockman.solve(stockman.Connect4("4453"), "mtdf", depth=2, tt_mb=100_000)
    with pytest.raises(ValueError, match="tt_mb"):
        stockman.Engine("mtdf", tt_mb=100_000)


def test_root_min_is_for_trees_only():
    with pytest.raises(ValueError, match="role\\(\\)"):
        stockman.solve(Countdown(3), "alphabeta", root="min")
    with pytest.raises(ValueError, match="root= applies to trees"):
        stockman.solve(stockman.Connect4("44"), "alphabeta", depth=2, root="min")
    assert stockman.solve(TEXTBOOK, "sss", root="min")[0]["value"] == 6


def test_defaults_are_the_command_lines():
    rows = stockman.solve(stockman.Connect4("4453"), depth=4)
    assert [r["algorithm"] for r in rows] == ["mtd-bi"]
    assert [r["algorithm"] for r in stockman.solve(TEXTBOOK)] == stockman.ALGORITHMS
    # Iterative deepening at depth 0 is the root's static value.
    row = stockman.solve(stockman.Connect4("4453"), "mtdf", depth=0, iterative=True)[0]
    assert row["depth_completed"] == 0 and row["best_move"] is None
    assert row["value"] == stockman.solve(stockman.Connect4("4453"), "minimax", depth=0)[0]["value"]


def test_a_node_limit_reports_what_was_proven():
    with pytest.raises(stockman.SearchLimit) as e:
        stockman.solve(stockman.Connect4("4"), "mtd-bi", max_nodes=1_000_000)
    assert e.value.proven_bounds == (-9, 10)
    assert e.value.best_move == 4
    assert isinstance(e.value, stockman.SearchError)


def test_version_is_a_string():
    assert isinstance(stockman.__version__, str) and stockman.__version__.count(".") == 2


# --- the engine --------------------------------------------------------------------------


def test_the_engine_plays_connect_four_and_python_games():
    engine = stockman.Engine("mtdf")
    row = engine.best_move(stockman.Connect4("4453"), depth=10)
    assert row["best_move"] in range(1, 8) and row["depth_completed"] == 10
    assert set(row) >= {"best_move", "value", "depth_completed", "stats"}
    # A whole tic-tac-toe game, both sides, is a draw.
    engine.new_game()
    moves = ""
    game = stockman.TicTacToe(moves)
    while game.moves():
        moves += str(engine.best_move(game, depth=9)["best_move"])
        game = stockman.TicTacToe(moves)
    assert "wins" not in game.board() or "draw" in game.board().lower()
    assert stockman.solve(stockman.TicTacToe(moves), "minimax")[0]["value"] == 0
    # Python games (with hash) too; another game starts a new one.
    nim = Tree(3, 4, 7)
    assert stockman.Engine("negascout").best_move(nim, depth=4)["value"] == nim.minimax()
    assert engine.best_move(nim, depth=4)["value"] == nim.minimax()


def test_engine_arguments_are_checked():
    with pytest.raises(ValueError, match="best-first"):
        stockman.Engine("sss")
    # One rule with UCI's: minimax keeps no table to deepen with.
    with pytest.raises(ValueError, match="minimax keeps no transposition table"):
        stockman.Engine("minimax")
    with pytest.raises(ValueError, match="unknown algorithm"):
        stockman.Engine("nope")
    with pytest.raises(TypeError, match="unknown option `depth`"):
        stockman.Engine("mtdf", depth=3)
    engine = stockman.Engine("mtdf")
    with pytest.raises(ValueError, match="depth"):
        engine.best_move(stockman.Connect4(), depth=-1)
    with pytest.raises(ValueError, match="chess needs a depth"):
        engine.best_move(stockman.Chess())
    with pytest.raises(stockman.UnsupportedSearch, match="hash"):
        engine.best_move(Tree(2, 2, 1, hashed=False), depth=2)


# --- the viewer ----------------------------------------------------------------------------


def test_trace_renders_the_viewer_inline_and_saves_it(tmp_path):
    t = stockman.trace(TEXTBOOK, "sss")
    assert t["value"] == 3 and t.events and t.events[0]["event"]
    html = t._repr_html_()
    assert html.startswith("<iframe") and "srcdoc=" in html
    page = t.html()
    assert "<!DOCTYPE html>" in page or "<html" in page
    assert "OPEN" in page
    out = tmp_path / "sss.html"
    t.save_html(out)
    assert out.read_text(encoding="utf-8") == page
    both = stockman.trace(TEXTBOOK, ["sss", "alphabeta"])
    assert both["algorithm"] == "sss" and both.html() != page
    # Too large to draw: a note, not an exception, in Jupyter.
    big = stockman.trace(stockman.random_tree("width=8,depth=4,seed=1"), "alphabeta")
    assert "no viewer" in big._repr_html_()
    with pytest.raises(ValueError, match="500 nodes"):
        big.html()
    assert stockman.trace(Tree(2, 3, 1), "sss").html()


# --- interrupts and the GIL ----------------------------------------------------------------


def interrupted(code):
    """Runs `code` in a child interpreter, sends SIGINT once it prints
    `started`, and returns its exit code and standard error."""
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "started"
    # Let the search get going, then interrupt it.
    threading.Event().wait(1.0)
    child.send_signal(signal.SIGINT)
    try:
        _, err = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("the search ignored SIGINT")
    return child.returncode, err


def test_ctrl_c_stops_a_built_in_game_search():
    code, err = interrupted(
        """
        import stockman
        print("started", flush=True)
        stockman.solve(stockman.Connect4(""), "mtd-bi")
        print("finished")
        """
    )
    assert code != 0 and "KeyboardInterrupt" in err, err
    assert "panicked" not in err


def test_ctrl_c_stops_a_python_game_search():
    code, err = interrupted(
        """
        import stockman
        class Wide:
            def root(self): return ()
            def role(self, p): return "max" if len(p) % 2 == 0 else "min"
            def moves(self, p): return range(9) if len(p) < 12 else []
            def play(self, p, m): return p + (m,)
            def evaluate(self, p): return sum(p) % 7
        print("started", flush=True)
        stockman.solve(Wide(), "minimax")
        print("finished")
        """
    )
    assert code != 0 and "KeyboardInterrupt" in err, err


def test_the_gil_is_released_while_a_built_in_game_is_searched():
    # A search of a few seconds runs in another thread while this one runs
    # Python. With the GIL held for the whole search, this thread's loop
    # could only finish after the search; released, it finishes long before
    # (the loop takes milliseconds, the search its whole time limit).
    done = {}

    def search():
        try:
            stockman.solve(stockman.Connect4(""), "mtd-bi", time_limit=3.0)
        except stockman.SearchLimit:
            pass
        done["search"] = True

    t = threading.Thread(target=search)
    t.start()
    # Let the search start (a sleep lets the other thread run); were the GIL
    # held during the search, this thread would wake only after it ended.
    time.sleep(0.5)
    total = 0
    for i in range(200_000):
        total += i
    loop_finished_during_search = "search" not in done
    t.join()
    assert total == sum(range(200_000))
    assert loop_finished_during_search


def test_no_internal_error_escapes_on_bad_games():
    class Weird(Tree):
        def evaluate(self, pos):
            return True  # a bool is not an int here

    with pytest.raises(ValueError, match=r"evaluate\(\) must return an int"):
        stockman.solve(Weird(2, 2, 1), "all")
    assert not issubclass(stockman.InternalError, ValueError)
    assert issubclass(stockman.InternalError, stockman.SearchError)


def test_a_tree_text_keeps_its_declared_min_root():
    # `stockman gen` writes `# root: min` for a MIN root: the text keeps it.
    text = "# root: min\n[[883,162],[1,368]]\n"
    assert stockman.solve(text, "minimax")[0]["value"] == 368
    assert stockman.solve(text, "minimax", root="min")[0]["value"] == 368
    with pytest.raises(ValueError, match="declares a min root"):
        stockman.solve(text, "minimax", root="max")
    with pytest.raises(ValueError, match="names no role"):
        stockman.solve("# root: mid\n[1,2]", "minimax")


def test_a_setting_no_requested_algorithm_reads_is_refused():
    with pytest.raises(ValueError, match="select= is read only by gsearch, rsearch"):
        stockman.solve(TEXTBOOK, "sss", select="widest")
    with pytest.raises(ValueError, match="memory= is read only by rsearch"):
        stockman.solve(TEXTBOOK, ["sss", "gsearch"], memory=10)
    assert stockman.solve(TEXTBOOK, "rsearch", memory=10, select="upper")[0]["value"] == 3


def test_a_random_spec_that_names_its_root_conflicts_with_the_other_root_both_ways():
    # Either way round: the spec's root= and the keyword's are one choice.
    for spec_root, asked in (("min", "max"), ("max", "min")):
        tree = stockman.random_tree(f"width=2,depth=2,seed=1,root={spec_root}")
        with pytest.raises(ValueError, match="drop one of the two"):
            stockman.solve(tree, "minimax", root=asked)
    # Agreeing, or one side only, is fine: 368 is the MIN root's value.
    tree = stockman.random_tree("width=2,depth=2,seed=1,root=min")
    assert stockman.solve(tree, "minimax", root="min")[0]["value"] == 368
    assert stockman.solve(tree, "minimax")[0]["value"] == 368
    plain = stockman.random_tree("width=2,depth=2,seed=1")
    assert stockman.solve(plain, "minimax", root="min")[0]["value"] == 368


def test_an_unread_sampling_rule_is_refused_and_the_smallest_delta_ends_by_its_rule():
    # Issue 63: sampling= is read by murphy and bns-murphy only (the
    # samplers' table); it was ignored with lucb-mcts. delta=5e-324 made the
    # exploration level infinite, so every run went to its budget.
    means = "[[0.1, 0.2], [0.8, 0.9]]"
    with pytest.raises(ValueError, match=r"sampling= is read only by murphy, bns-murphy; .*\(lucb-mcts\)"):
        stockman.sample(means, "lucb-mcts", sampling="thompson")
    with pytest.raises(ValueError, match="sampling= is read only by murphy, bns-murphy"):
        stockman.sample_trace(means, "ugape-mcts", sampling="lcb")
    assert len(stockman.sample(means, ["lucb-mcts", "bns-murphy"], sampling="thompson")) == 2
    for delta in (5e-324, 0.999999):
        for row in stockman.sample(means, ["lucb-mcts", "ugape-mcts", "uniform", "bns-murphy"], delta=delta):
            assert (row["best_move"], row["unsure"]) == (1, 0), (delta, row)
