"""stockman: fixed-depth minimax search built around Stockman's SSS* (1979).

Every algorithm of the family -- SSS*, Dual*, RecSSS*, RecDual*, MT-SSS*,
MT-Dual*, MTD(f), MTD(bi), Best Node Search -- and the baselines minimax,
alpha-beta and NegaScout, implemented in Rust, searched from Python on
explicit trees (text or nested lists), seeded random trees, the built-in
games and games written in Python. Results are dicts with the fields of
``stockman solve --format json``; the defaults are the command line's.

>>> import stockman
>>> stockman.solve([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "sss")[0]["value"]
3

Searches run on a thread of their own with a stack sized to them; Ctrl-C
stops one within a fraction of a second (``KeyboardInterrupt``), and the
GIL is released while a built-in game or tree is searched.

Errors: ``ValueError`` (naming the argument, or the line and column of a
tree) for bad input; :class:`SearchLimit` when a limit stops a search;
:class:`UnsupportedSearch` when an algorithm cannot search the source;
:class:`GameError` when a Python game breaks its contract; whatever a
Python game's method raises, unchanged; :class:`InternalError` for a bug.
All but the first and the game's own derive from :class:`SearchError`.
"""

from __future__ import annotations

import abc
import html as _html
import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _stockman
from ._errors import GameError, InternalError, SearchError, SearchLimit, UnsupportedSearch
from ._stockman import (
    DEFAULT_GAME_TABLE_MB,
    MAX_MOVES,
    MAX_PLIES,
    MAX_ROUND_STATES,
    MAX_TABLE_MB,
    MAX_THREADS,
    VALUE_MAX,
    VALUE_MIN,
    EasyAIGame,
    RandomTree,
)

__version__: str = _stockman.__version__

__all__ = [
    "solve",
    "sample",
    "sample_trace",
    "SampleTrace",
    "SAMPLERS",
    "solve_positions",
    "trace",
    "Trace",
    "Engine",
    "random_tree",
    "RandomTree",
    "Connect4",
    "TicTacToe",
    "Othello",
    "Chess",
    "Checkers",
    "easyai",
    "EasyAIGame",
    "EasyAI",
    "SearchError",
    "SearchLimit",
    "UnsupportedSearch",
    "GameError",
    "InternalError",
    "ALGORITHMS",
    "VALUE_MIN",
    "VALUE_MAX",
    "MAX_MOVES",
    "MAX_PLIES",
    "MAX_TABLE_MB",
    "MAX_THREADS",
    "MAX_ROUND_STATES",
    "DEFAULT_GAME_TABLE_MB",
    "__version__",
]

#: Every algorithm's name, baselines first.
ALGORITHMS: List[str] = list(_stockman.algorithm_names())

#: The stochastic searches' names (for :func:`sample`).
SAMPLERS: List[str] = list(_stockman.sampler_names())

#: The algorithms that need a transposition table (a Python game needs ``hash()``).
TABLE_ALGORITHMS: List[str] = list(_stockman.table_algorithm_names())

#: The deepest ``depth`` accepted.
MAX_DEPTH = 1_000_000


def Connect4(position: str = "") -> Any:
    """Connect Four (7x6) after the columns ``position`` (``"4453"``: digits 1-7).

    Searched exactly to the end, or with ``depth`` by the heuristic evaluation.
    Raises ``ValueError`` naming the first bad move.
    """
    return _stockman.BuiltinGame("connect4", _text("position", position))


def TicTacToe(position: str = "") -> Any:
    """Tic-tac-toe after the cells ``position`` (``"159"``: digits 1-9 in reading order)."""
    return _stockman.BuiltinGame("tictactoe", _text("position", position))


def Othello(position: str = "") -> Any:
    """Othello (8x8) after the squares ``position`` (``"f5d6c3"``) or at an FFO
    board (``"<64 squares a1..h8: X, O, -> X"``, the last letter the side to move).

    Searched exactly to the end (the final disc difference, empty squares to
    the winner) or with ``depth`` by the heuristic evaluation. Raises
    ``ValueError`` naming the bad move or square and its column.
    """
    return _stockman.BuiltinGame("othello", _text("position", position))


def Chess(position: str = "startpos") -> Any:
    """Chess at ``position``: ``"startpos"``, a FEN or an EPD line, optionally
    followed by ``moves e2e4 e7e5 ...`` (UCI). Needs ``depth``: values are
    centipawns with a quiescence search at the horizon; best moves in UCI.
    """
    return _stockman.BuiltinGame("chess", _text("position", position))


def Checkers(position: str = "") -> Any:
    """English draughts (8x8 checkers, Black moves first) after the moves
    ``position`` (``"11-15 23-19 9x18"``, multi-jumps ``"9x18x27"``) or at a
    PDN FEN (``"W:W21,22,K30:B1-12"``, optionally followed by moves). Needs
    ``depth``: values are the heuristic (men 100, kings 160, advancement,
    back rank, mobility), a win ``100000 - ply``; best moves in the same
    notation. Raises ``ValueError`` naming the bad move or token and its column.
    """
    return _stockman.BuiltinGame("checkers", _text("position", position))


def random_tree(spec: str) -> RandomTree:
    """A seeded random tree, e.g. ``random_tree("width=8,depth=8,seed=1")``.

    Options as ``stockman solve --random``: ``model=iid|incremental``,
    ``range=LO..HI``, ``variable=true``, ``order=P``, ``root=max|min``.
    """
    return RandomTree(_text("spec", spec))


# --- argument checks: every error names its argument ------------------------------


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}: {value!r}")
    return value


def _int(name: str, value: Any, low: int, high: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}: {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


def _threads(value: Any) -> int:
    n = _int("threads", value, 1, MAX_THREADS)
    return 1 if n is None else n


def _parallel(value: Any) -> Optional[str]:
    if value is None:
        return None
    if value not in ("abdada", "lazy-smp", "rounds"):
        raise ValueError(f"parallel must be 'abdada', 'lazy-smp' or 'rounds', got {value!r}")
    return value


def _round_states(value: Any, parallel: Optional[str]) -> int:
    n = _int("round_states", value, 0, MAX_ROUND_STATES)
    if n and parallel != "rounds":
        raise ValueError(
            f"round_states={n}: SSS* and Dual* run in rounds of a fixed number of states only with "
            f"parallel='rounds', got parallel={parallel!r}"
        )
    return 0 if n is None else n


def _select(value: Any) -> Optional[str]:
    if value is None:
        return None
    if value not in ("leftmost", "upper", "lower", "widest"):
        raise ValueError(f"select must be 'leftmost', 'upper', 'lower' or 'widest', got {value!r}")
    return value


def _seconds(name: str, value: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}: {value!r}")
    if not (value > 0 and value < 1e9):
        raise ValueError(f"{name} must be a positive number of seconds (below 1e9), got {value!r}")
    return float(value)


def _algorithms(algorithms: Any, name: str = "algorithms") -> Optional[List[str]]:
    """``None``, ``"all"``, ``"sss"``, ``"sss,mtdf"`` or a list of names."""
    if algorithms is None:
        return None
    if isinstance(algorithms, str):
        names = [a.strip() for a in algorithms.split(",")]
    elif isinstance(algorithms, (list, tuple)):
        names = []
        for a in algorithms:
            if not isinstance(a, str):
                raise TypeError(f"{name} must be names (str), got {type(a).__name__}: {a!r}")
            names.append(a.strip())
    else:
        raise TypeError(
            f"{name} must be a name, a comma-separated list of names or a list of names, "
            f"got {type(algorithms).__name__}: {algorithms!r}"
        )
    if not names or any(not n for n in names):
        raise ValueError(f"{name}: no algorithm given (known: {', '.join(ALGORITHMS)}, or all)")
    return names


def _root(root: Any) -> Optional[str]:
    if root is None:
        return None
    return _text("root", root)


def _source(source: Any) -> Any:
    """Nested lists become the tree-file text the Rust parser reads."""
    if isinstance(source, (list, tuple)) or (isinstance(source, int) and not isinstance(source, bool)):
        return json.dumps(source)
    return source


def _raise_failures(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Raises the exception of the first failed search, with every result."""
    for row in rows:
        kind = row.pop("error_kind", None)
        if kind is None:
            continue
        message = f"{row['algorithm']}: {row['error']}"
        if kind == "limit":
            bounds = row.get("proven_bounds")
            raise SearchLimit(
                message,
                row["algorithm"],
                row["stats"],
                rows,
                tuple(bounds) if bounds else None,
                row.get("best_move"),
            )
        if kind == "unsupported":
            raise UnsupportedSearch(message, rows)
        if kind == "memory":
            raise MemoryError(message)
        raise GameError(message, rows)
    return rows


# --- searching ------------------------------------------------------------------------


def solve(
    source: Any,
    algorithms: Union[None, str, Sequence[str]] = None,
    *,
    depth: Optional[int] = None,
    root: Optional[str] = None,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    tt_mb: Optional[int] = None,
    leaves: bool = False,
    iterative: bool = False,
    threads: int = 1,
    parallel: Optional[str] = None,
    select: Optional[str] = None,
    memory: Optional[int] = None,
    round_states: int = 0,
) -> List[Dict[str, Any]]:
    """Searches ``source`` with each algorithm; one dict per algorithm.

    ``source``: tree text (``"[[3,12,8],[2,4,6],[14,5,2]]"``), nested lists of
    ints, ``random_tree(spec)``, ``Connect4(moves)``, ``TicTacToe(moves)``,
    ``Othello(position)``, ``Chess(position)`` or ``Checkers(position)`` (with ``depth``), or a
    Python game (see below).

    ``algorithms``: a name, ``"a,b"``, a list of names, or ``"all"``. The
    default is the command line's: every algorithm on trees and Python
    games (those a game without ``hash()`` can run), on the built-in
    games each game's own (``"mtdf"`` with cut-offs from 12 empty squares
    on Othello, ``"mtd-bi"`` on the others). ``depth``: the horizon in plies (default: the end).
    ``root``: ``"max"`` or ``"min"``, for trees only. ``max_nodes``,
    ``time_limit`` (seconds): stop a search there. ``tt_mb``: a fixed
    transposition table in MiB (default: 64 for games, unbounded for
    trees); the table is allocated once and reused by later calls, and no
    search's ``time_us`` includes its allocation. ``leaves``: record each
    evaluated leaf's path. ``iterative``: drive the depth-first algorithms
    by iterative deepening (depth 0 is the root's static value).
    ``threads``: threads per search (1 to ``MAX_THREADS``; default 1, the
    exact one-thread counts): more run the depth-first algorithms through
    one shared table, as ``parallel`` says: ``"abdada"`` (the default: the
    threads split the work) or ``"lazy-smp"``; ``"rounds"`` also puts SSS*
    and Dual* on the threads, in rounds of that many states off OPEN while
    a state's work is worth a meeting of the threads and in SSS*'s own steps
    while it is not (else they stay on one thread, with a ``UserWarning``).
    Values are the one-thread values; counts vary from run to run (SSS* and
    Dual*'s only where the clock switches between rounds and steps). The
    algorithms with no parallel form (the capabilities table's: minimax,
    RecSSS*, RecDual*, SSS-2, GSEARCH, RSEARCH) and Python games stay on one
    thread, with a ``UserWarning``.
    ``round_states``: with ``parallel="rounds"``, SSS* and Dual* in rounds of
    exactly that many states (1 to ``MAX_ROUND_STATES``): the rounds of the
    P-processor simulation (``stockman simulate --processors P``), the same
    leaves on every run and any number of threads; 0 (the default) leaves
    the rounds to the search, as above.
    ``select``: GSEARCH's and RSEARCH's rule for the next tip,
    ``"leftmost"`` (alpha-beta's leaves), ``"upper"`` (the default: SSS*'s),
    ``"lower"`` (Dual*'s) or ``"widest"``. ``memory``: the most nodes
    RSEARCH stores before it searches a tip depth-first instead (0:
    alpha-beta; default: as many as the OPEN limit).

    Each dict has the fields of ``stockman solve --format json``:
    ``algorithm``, ``value`` (None for BNS, which gives ``bound``),
    ``best_move`` (a child's index; a move in the game's notation, as a
    number where it is one, in built-in games), ``stats`` and, as they
    apply, ``bound``, ``leaves``, ``depth_completed``, ``stopped_by``.

    A Python game is an object with ``root()``, ``role(pos)`` (``"max"`` or
    ``"min"``), ``moves(pos)`` (an iterable of at most ``MAX_MOVES`` moves;
    any order, asked once per position, so a shuffling ``moves()`` is
    fine), ``play(pos, move)`` (a *new* position: ``pos`` must stay as it
    was; the first calls are checked and a mutation raises ``ValueError``),
    ``evaluate(pos)`` (an int from MAX's view, in ``VALUE_MIN..VALUE_MAX``)
    and optionally ``hash(pos)`` (an int, equal for equal positions; the MT
    drivers, MTD(bi) and BNS need it). A game whose moves always pass the
    turn may set ``alternating = True`` (a class attribute): ``role()`` is
    then asked of the root only. Positions and moves are any Python
    objects. A game deeper than ``MAX_PLIES`` needs ``depth``.

    A game may instead be played in place: an object with ``make(move)``
    and ``unmake(move)`` (as python-chess's push/pop) and ``role()``,
    ``moves()``, ``evaluate()`` and optionally ``hash()`` asked of the
    object as it stands. stockman makes and unmakes moves to reach each
    position it asks about and leaves the object where it started (also
    after an exception); the searches and counts are those of the
    positions protocol.

    Raises ``ValueError`` / ``TypeError`` naming a bad argument (or the
    line and column of a malformed tree); :class:`SearchLimit` when a
    search stops at a limit (with the bounds it had proved);
    :class:`UnsupportedSearch` for an algorithm that cannot search the
    source (the table algorithms on a game without ``hash()``);
    :class:`GameError` or ``ValueError`` naming the method when a Python
    game breaks the contract; whatever a Python game's method raises,
    unchanged; ``KeyboardInterrupt`` on Ctrl-C.
    """
    rows = _stockman.solve(
        _source(source),
        _algorithms(algorithms),
        depth=_int("depth", depth, 0, MAX_DEPTH),
        root=_root(root),
        max_nodes=_int("max_nodes", max_nodes, 1, 2**63 - 1),
        time_limit=_seconds("time_limit", time_limit),
        tt_mb=_int("tt_mb", tt_mb, 1, MAX_TABLE_MB),
        leaves=bool(leaves),
        iterative=bool(iterative),
        threads=_threads(threads),
        parallel=_parallel(parallel),
        select=_select(select),
        memory=_int("memory", memory, 0, 2**63 - 1),
        round_states=_round_states(round_states, parallel),
    )
    return _raise_failures(rows)


def _float(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    return float(value)


def sample(
    tree: str,
    algorithms: Union[None, str, Sequence[str]] = None,
    *,
    delta: float = 0.1,
    epsilon: float = 0.0,
    max_samples: int = 10_000_000,
    seed: int = 0,
    rate: str = "proven",
    interval: str = "kl",
    sampling: Optional[str] = None,
    threshold: Optional[float] = None,
    runs: int = 1,
    root: str = "max",
) -> List[Dict[str, Any]]:
    """Runs the stochastic searches on a tree of Bernoulli leaves; one dict per search.

    ``tree``: the text of a tree of means (``"[[0.45, 0.5], [0.35, 0.6]]"``,
    each from 0 to 1) or a random spec with ``model=bernoulli``
    (``"width=3,depth=2,seed=1,model=bernoulli"``: the iid tree's values
    divided by 1,000). A leaf sampled is 1 with its mean as probability; the
    tree's value is the minimax of the means.

    ``algorithms``: names from ``SAMPLERS``: ``"lucb-mcts"``,
    ``"ugape-mcts"`` (Kaufmann and Koolen 2017), ``"uniform"`` (the
    baseline), ``"murphy"`` (Murphy Sampling's test of the root's value
    against ``threshold``) and ``"bns-murphy"`` (Best Node Search with
    Murphy Sampling's tests: a construction of ours). Default: all but
    ``murphy``, or ``murphy`` alone when ``threshold`` is given.

    ``delta``: the probability of a wrong answer allowed; ``epsilon``: a
    move within this much of the best is right (``murphy``: the test's
    slack); ``max_samples``: a run answers without confidence once it has
    drawn this many; ``seed``: the samples' seed; ``rate``: ``"proven"``
    or ``"heuristic"`` (no union over the leaves; not covered by the
    proof); ``interval``: ``"kl"`` or ``"hoeffding"``; ``sampling``: the
    threshold tests' rule, ``"murphy"`` (the default), ``"thompson"``,
    ``"lcb"`` or ``"uniform"``, read by ``murphy`` and ``bns-murphy`` only (a
    ``ValueError`` if no search asked for reads it); ``runs``: repeat each search (run ``i``: seed ``seed +
    i`` and, for a random spec, the tree of the spec's seed plus ``i``) and
    report ``wrong``, ``error_rate`` and the samples' mean, min and max.

    Each dict has the fields of ``stockman solve --format json`` on a
    Bernoulli tree: ``algorithm``, ``runs``, ``best_move``, ``verdict``
    (``murphy``), ``correct``, ``wrong``, ``error_rate``, ``unsure``,
    ``samples``, ``samples_min``, ``samples_max``, ``rounds``, ``tests``,
    ``value``, ``best_value``, ``bound``, ``leaf_samples``, ``delta``,
    ``epsilon``, ``rate``.

    Raises ``ValueError`` naming a bad argument (or the line and column of
    a malformed tree) and ``TypeError`` for an argument of the wrong type.
    """
    _bernoulli_tree(tree)
    names = _algorithms(algorithms)
    options = _sample_options(delta, epsilon, max_samples, seed, rate, interval, sampling, threshold)
    _text("root", root)
    return list(_stockman.sample(tree, names, options, _int("runs", runs, 1, 2**63 - 1), root))


def _bernoulli_tree(tree: Any) -> None:
    if not isinstance(tree, str):
        raise TypeError(f"tree must be a str (tree text or a model=bernoulli spec), got {type(tree).__name__}")


def _sample_options(
    delta: float,
    epsilon: float,
    max_samples: int,
    seed: int,
    rate: str,
    interval: str,
    sampling: Optional[str],
    threshold: Optional[float],
) -> Dict[str, Any]:
    """The stochastic searches' options, checked for type and range."""
    for name, value in (("rate", rate), ("interval", interval)):
        _text(name, value)
    if sampling is not None:
        _text("sampling", sampling)
    return {
        "delta": _float("delta", delta),
        "epsilon": _float("epsilon", epsilon),
        "max_samples": _int("max_samples", max_samples, 1, 2**63 - 1),
        "seed": _int("seed", seed, 0, 2**64 - 1),
        "rate": rate,
        "interval": interval,
        "sampling": sampling,
        "threshold": None if threshold is None else _float("threshold", threshold),
    }


class _Page(dict, metaclass=abc.ABCMeta):
    """A traced search as a dict that shows itself in Jupyter as a viewer
    page (made once, by `_render()`, each kind of trace its own way)."""

    _what = "stockman trace"

    def __init__(self, data: Dict[str, Any]):
        super().__init__(data)
        self._page: Optional[str] = None

    @property
    def events(self) -> List[Dict[str, Any]]:
        """The events, in order."""
        return self["events"]

    @abc.abstractmethod
    def _render(self) -> str:
        """The viewer's page, made."""

    def html(self) -> str:
        """The viewer: a self-contained HTML page (trees of at most 500
        nodes; raises ``ValueError`` for larger ones)."""
        if self._page is None:
            self._page = self._render()
        return self._page

    def save_html(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the viewer to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())

    def _repr_html_(self) -> str:
        try:
            page = self.html()
        except ValueError as e:
            return f"<p><b>{self._what}</b>: no viewer ({_html.escape(str(e))})</p>"
        return (
            '<iframe style="width:100%;height:640px;border:1px solid #ccc" '
            f'sandbox="allow-scripts" srcdoc="{_html.escape(page, quote=True)}"></iframe>'
        )


class SampleTrace(_Page):
    """One traced run of a stochastic search: a dict with ``algorithm``,
    ``value`` (the tree's), ``best_move``, ``verdict``, ``confident``,
    ``samples``, ``rounds``, ``tests``, ``bound``, ``leaf_samples`` and
    ``events`` (``sample``, ``round``, ``test``, ``verdict`` and ``pass``
    dicts, as ``stockman trace --format json`` prints them), which shows
    itself in Jupyter as the viewer's comparison page: the search's samples
    step by step beside the deterministic searches of ``compare`` reading
    the means. ``save_html(path)`` writes that page; ``html()`` raises
    ``ValueError`` for a tree of more than 500 nodes or a mean of more than
    six decimals.
    """

    _what = "stockman sample_trace"

    def __init__(self, data: Dict[str, Any], tree: str, compare: List[str], options: Dict[str, Any], root: str):
        super().__init__(data)
        self._tree = tree
        self._compare = compare
        self._options = options
        self._root = root

    def _render(self) -> str:
        title = ", ".join([self["algorithm"], *self._compare])
        return _stockman.sample_html(self._tree, [self["algorithm"]], self._compare, self._options, self._root, title)


def sample_trace(
    tree: str,
    algorithm: str,
    *,
    delta: float = 0.1,
    epsilon: float = 0.0,
    max_samples: int = 10_000_000,
    seed: int = 0,
    rate: str = "proven",
    interval: str = "kl",
    sampling: Optional[str] = None,
    threshold: Optional[float] = None,
    root: str = "max",
    compare: Union[None, str, Sequence[str]] = ("alphabeta", "sss"),
) -> SampleTrace:
    """One run of a stochastic search with every sample, round and test
    recorded, as a :class:`SampleTrace`: the same samples and answer as
    :func:`sample` with the same ``seed`` (one run). The arguments are
    :func:`sample`'s; ``compare`` names the deterministic searches its viewer
    shows beside it (default alpha-beta and SSS*; ``None`` for none).
    """
    _bernoulli_tree(tree)
    _text("algorithm", algorithm)
    options = _sample_options(delta, epsilon, max_samples, seed, rate, interval, sampling, threshold)
    _text("root", root)
    others = _algorithms(compare, "compare") or []
    data = json.loads(_stockman.sample_trace_json(tree, algorithm, options, root))
    return SampleTrace(data, tree, others, options, root)


def solve_positions(
    game: str,
    positions: Union[str, "os.PathLike[str]", Sequence[str]],
    algorithms: Union[None, str, Sequence[str]] = None,
    *,
    depth: Optional[int] = None,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    tt_mb: Optional[int] = None,
    iterative: bool = False,
    threads: int = 1,
    parallel: Optional[str] = None,
    round_states: int = 0,
) -> Dict[str, List[Dict[str, Any]]]:
    """Solves a test set of a built-in game, as ``stockman solve --game GAME
    --positions FILE --format json`` does, with the same library code.

    ``game``: ``"connect4"``, ``"othello"``, ``"chess"``, ``"checkers"`` or ``"tictactoe"``.
    ``positions``: a file's path, or the file's lines as a list of strings
    (one position a line, with the layouts ``--positions`` reads: a move list
    and an expected score, FFO and EPD lines, FENs; ``#`` comments). The other
    arguments are :func:`solve`'s.

    Returns ``{"positions": [...], "summary": [...]}``: one dict per position
    and algorithm (``line``, ``position``, ``algorithm``, ``value``,
    ``best_move``, ``stats``, ``expected``, ``best_move_score``, and
    ``proven_bounds``/``error`` as they apply), and one summary per algorithm
    with the CLI's figures (``positions``, ``wrong``, ``bad_moves``,
    ``failed``, ``stopped``, ``mean_time_us``, ``median_time_us``,
    ``p99_time_us``, ``mean_nodes``, ``positions_per_s``, ``stats``).

    Raises ``ValueError`` naming the file, line and column of a malformed
    line, an unknown game, a file without positions, or a position the
    game rejects; ``OSError`` if the file cannot be read.
    """
    if isinstance(positions, (str, os.PathLike)):
        label = os.fspath(positions)
        with open(label, encoding="utf-8") as f:
            text = f.read()
    elif isinstance(positions, Sequence) and all(isinstance(x, str) for x in positions):
        label = "positions"
        text = "\n".join(positions)
    else:
        raise TypeError("positions: a path, or a list of lines (str)")
    if not isinstance(game, str):
        raise TypeError("game: a name such as 'connect4'")
    try:
        return _stockman.solve_positions(
            game,
            text,
            _algorithms(algorithms),
            depth=_int("depth", depth, 0, MAX_DEPTH),
            max_nodes=_int("max_nodes", max_nodes, 1, 2**63 - 1),
            time_limit=_seconds("time_limit", time_limit),
            tt_mb=_int("tt_mb", tt_mb, 1, MAX_TABLE_MB),
            iterative=bool(iterative),
            threads=_threads(threads),
            parallel=_parallel(parallel),
            round_states=_round_states(round_states, parallel),
        )
    except ValueError as e:
        raise ValueError(f"{label}: {e}") from None


class Trace(_Page):
    """One traced search: a dict with ``algorithm``, ``value``,
    ``best_move``, ``bound``, ``stats`` and ``events`` (the leaf
    evaluations, SSS*'s Gamma steps with the OPEN list, the MT drivers'
    passes, as dicts with an ``event`` key), which shows itself in Jupyter
    as the step-by-step HTML viewer of ``stockman trace --html``.

    ``len(trace)`` and ``trace.events`` give the events; ``save_html(path)``
    writes the viewer as a self-contained page.
    """

    def __init__(self, data: Dict[str, Any], source: Any, algorithms: List[str], depth: Optional[int], root: Optional[str]):
        super().__init__(data)
        self._source = source
        self._algorithms = algorithms
        self._depth = depth
        self._root = root

    def _render(self) -> str:
        return _stockman.trace_html(self._source, self._algorithms, depth=self._depth, root=self._root, title=None)


def trace(
    source: Any,
    algorithm: Union[str, Sequence[str]],
    *,
    depth: Optional[int] = None,
    root: Optional[str] = None,
) -> Trace:
    """Every step of one search, as ``stockman trace --format json`` prints it,
    as a :class:`Trace` (a dict that Jupyter shows as the HTML viewer).

    With several algorithms (``"sss,alphabeta"`` or a list), the first is
    traced and the viewer compares them all side by side, leaf by leaf.
    """
    names = _algorithms(algorithm, "algorithm")
    if names is None:
        raise ValueError("algorithm: no algorithm given")
    src = _source(source)
    d = _int("depth", depth, 0, MAX_DEPTH)
    r = _root(root)
    data = json.loads(_stockman.trace_json(src, names[0], depth=d, root=r))
    return Trace(data, src, names, d, r)



# --- easyAI ----------------------------------------------------------------------------


def easyai(game: Any, scoring: Any = None) -> EasyAIGame:
    """An easyAI game (an ``easyAI.TwoPlayerGame``) as a source for
    :func:`solve`, :func:`trace` and :class:`Engine`: the search calls the
    game's own ``is_over()``, ``possible_moves()``, ``make_move(move)``,
    ``switch_player()`` and ``unmake_move(move)`` (where the game has it,
    as easyAI's Negamax does: the game is played in place and left as it
    was; otherwise each move is made on a ``copy()``), with no Python in
    between.

    The side to move is MAX. A leaf is worth what easyAI's Negamax makes of
    it, in thousandths: ``scoring(game)`` (or the game's ``scoring()``),
    from the side to move there, times ``1000 + depth left``, so a quicker
    win is worth more (a float score is rounded after that; without
    ``depth``, the factor is 1000). The table-driven searches (MTD(f),
    MT-SSS*, ...) hash ``ttentry()``, the key of easyAI's own tables, where
    the game has it. A best move is an index into ``possible_moves()`` at
    the root.
    """
    return EasyAIGame(game, scoring)


class EasyAI:
    """An AI for easyAI's games that searches with stockman, in place of
    easyAI's ``Negamax(depth)``: ``AI_Player(stockman.EasyAI(6))``.

    Called with a game, it returns the move to play, as easyAI's AIs do,
    and keeps the search's value in ``alpha`` (in easyAI Negamax's units,
    ``value / 1000``; see :func:`easyai`) and the whole result dict in
    ``row``. ``algorithm`` is any of :data:`ALGORITHMS` (default
    ``"alphabeta"``, which evaluates exactly Negamax's leaves; the
    table-driven ones need ``ttentry()``); ``scoring`` a function of the
    game, as Negamax's; ``options`` are :func:`solve`'s (``tt_mb``,
    ``max_nodes``, ``time_limit``, ``iterative``).

    >>> from easyAI import AI_Player, Negamax  # doctest: +SKIP
    >>> from easyAI.games import TicTacToe  # doctest: +SKIP
    >>> game = TicTacToe([AI_Player(EasyAI(9)), AI_Player(Negamax(9))])  # doctest: +SKIP
    >>> game.play(verbose=False)  # doctest: +SKIP
    """

    def __init__(self, depth: int, algorithm: str = "alphabeta", scoring: Any = None, **options: Any):
        known = {"tt_mb", "max_nodes", "time_limit", "iterative"}
        for k in options:
            if k not in known:
                raise TypeError(f"EasyAI() got an unknown option `{k}` (known: {', '.join(sorted(known))})")
        if scoring is not None and not callable(scoring):
            raise TypeError("scoring must be a function of the game, scoring(game)")
        self.depth = _int("depth", depth, 1, MAX_DEPTH)
        self.algorithm = _text("algorithm", algorithm)
        self.scoring = scoring
        self.options = options
        self.alpha: Optional[float] = None
        self.row: Optional[Dict[str, Any]] = None

    def __call__(self, game: Any) -> Any:
        row = solve(easyai(game, self.scoring), self.algorithm, depth=self.depth, **self.options)[0]
        self.row = row
        value = row.get("value")
        self.alpha = None if value is None else value / 1000
        return game.possible_moves()[row["best_move"]]

    def __repr__(self) -> str:
        return f"stockman.EasyAI({self.depth}, {self.algorithm!r})"


class Engine:
    """A game-playing engine: iterative deepening with one depth-first
    algorithm (``"mtdf"`` by default; alpha-beta, NegaScout, MT-SSS*,
    MT-Dual*, MTD(f), MTD(bi), BNS), keeping its transposition table and
    move-ordering heuristics between the moves of a game.

    Options: ``tt_mb`` (default 64), ``history``, ``killers``, ``etc``
    (enhanced transposition cutoffs, on by default), ``aspiration``
    (half-width, default 10; 0 for full windows), ``table_move`` (on by
    default), ``threads`` (default 1) and ``parallel`` (``"abdada"`` or
    ``"lazy-smp"``) as in :func:`solve` (a Python game's moves are searched
    on one thread).

    >>> engine = Engine("mtdf")
    >>> engine.best_move(Connect4("4453"), depth=6)["best_move"] in range(1, 8)
    True
    """

    def __init__(self, algorithm: str = "mtdf", **options: Any):
        known = {"tt_mb", "history", "killers", "etc", "aspiration", "table_move", "threads", "parallel"}
        for k in options:
            if k not in known:
                raise TypeError(f"Engine() got an unknown option `{k}` (known: {', '.join(sorted(known))})")
        for k in ("history", "killers", "etc", "table_move"):
            if k in options and not isinstance(options[k], bool):
                raise TypeError(f"{k} must be True or False, got {options[k]!r}")
        tt_mb = _int("tt_mb", options.get("tt_mb"), 1, MAX_TABLE_MB)
        aspiration = _int("aspiration", options.get("aspiration"), 0, VALUE_MAX)
        self._engine = _stockman.Engine(
            _text("algorithm", algorithm),
            tt_mb=tt_mb,
            history=options.get("history"),
            killers=options.get("killers"),
            etc=options.get("etc"),
            aspiration=aspiration,
            table_move=options.get("table_move"),
            threads=_threads(options.get("threads", 1)),
            parallel=_parallel(options.get("parallel")),
        )

    @property
    def algorithm(self) -> str:
        """The algorithm's name."""
        return self._engine.algorithm

    def new_game(self) -> None:
        """Forgets the table, history and killers (a new game; the engine
        also starts one by itself when given another game)."""
        self._engine.new_game()

    def best_move(
        self,
        game: Any,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> Dict[str, Any]:
        """The engine's move in ``game`` (a built-in game or a Python game
        with ``hash()``) within the limits: iterative deepening to ``depth``,
        for ``time`` seconds, or over ``nodes`` positions (any mix; none:
        to the end). Returns a dict with ``best_move``, ``value``,
        ``depth_completed``, ``stopped_by`` and ``stats``, the answer of the
        deepest iteration that completed. Raises :class:`SearchLimit` when
        a limit stops even the first iteration.
        """
        row = self._engine.best_move(
            game,
            depth=_int("depth", depth, 0, MAX_DEPTH),
            time=_seconds("time", time),
            nodes=_int("nodes", nodes, 1, 2**63 - 1),
        )
        return _raise_failures([row])[0]

    def __repr__(self) -> str:
        return f"stockman.Engine({self.algorithm!r})"
