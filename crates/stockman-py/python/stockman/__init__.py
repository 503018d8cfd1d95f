"""stockman: fixed-depth minimax search built around Stockman's SSS* (1979).

Every algorithm of the family -- SSS*, Dual*, RecSSS*, RecDual*, MT-SSS*,
MT-Dual*, MTD(f), MTD(bi), Best Node Search -- and the baselines minimax,
alpha-beta and NegaScout, implemented in Rust, searched from Python on
explicit trees (text or nested lists), seeded random trees, the built-in
games and games written in Python. Results are dicts with the fields of
``stockman solve --format json``.

>>> import stockman
>>> stockman.solve([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "sss")[0]["value"]
3
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Union

from . import _stockman
from ._stockman import RandomTree, VALUE_MAX, VALUE_MIN

__all__ = [
    "solve",
    "trace",
    "random_tree",
    "RandomTree",
    "Connect4",
    "TicTacToe",
    "Othello",
    "Chess",
    "SearchLimit",
    "ALGORITHMS",
    "VALUE_MIN",
    "VALUE_MAX",
]

#: Every algorithm's name, baselines first.
ALGORITHMS: List[str] = list(_stockman.algorithm_names())


class SearchLimit(Exception):
    """A search stopped at ``max_nodes`` or ``time_limit`` without an answer.

    ``stats`` holds what it had done (the ``stats`` dict of a result),
    ``algorithm`` which search stopped, and ``results`` every result of the
    call (the stopped one with its ``error``).
    """

    def __init__(self, message: str, algorithm: str, stats: Dict[str, int], results: List[Dict[str, Any]]):
        super().__init__(message)
        self.algorithm = algorithm
        self.stats = stats
        self.results = results


def Connect4(position: str = "") -> Any:
    """Connect Four (7x6) after the columns ``position`` (``"4453"``: digits 1-7).

    Searched exactly to the end, or with ``depth`` by the heuristic evaluation.
    Raises ``ValueError`` naming the first bad move.
    """
    return _stockman.BuiltinGame("connect4", position)


def TicTacToe(position: str = "") -> Any:
    """Tic-tac-toe after the cells ``position`` (``"159"``: digits 1-9 in reading order)."""
    return _stockman.BuiltinGame("tictactoe", position)


def Othello(position: str = "") -> Any:
    """Othello (8x8) after the squares ``position`` (``"f5d6c3"``) or at an FFO
    board (``"<64 squares a1..h8: X, O, -> X"``, the last letter the side to move).

    Searched exactly to the end (the final disc difference, empty squares to
    the winner) or with ``depth`` by the heuristic evaluation. Raises
    ``ValueError`` naming the bad move or square and its column.
    """
    return _stockman.BuiltinGame("othello", position)


def Chess(position: str = "startpos") -> Any:
    """Chess at ``position``: ``"startpos"``, a FEN or an EPD line, optionally
    followed by ``moves e2e4 e7e5 ...`` (UCI). Needs ``depth``: values are
    centipawns with a quiescence search at the horizon; best moves in UCI.
    """
    return _stockman.BuiltinGame("chess", position)


def random_tree(spec: str) -> RandomTree:
    """A seeded random tree, e.g. ``random_tree("width=8,depth=8,seed=1")``.

    Options as ``stockman solve --random``: ``model=iid|incremental``,
    ``range=LO..HI``, ``variable=true``, ``order=P``, ``root=max|min``.
    """
    return RandomTree(spec)


def _source(source: Any) -> Any:
    """Nested lists become the tree-file text the Rust parser reads."""
    if isinstance(source, (list, tuple)) or (isinstance(source, int) and not isinstance(source, bool)):
        return json.dumps(source)
    return source


def _algorithms(algorithms: Union[str, List[str]]) -> str:
    if isinstance(algorithms, str):
        return algorithms
    return ",".join(algorithms)


def solve(
    source: Any,
    algorithms: Union[str, List[str]] = "all",
    *,
    depth: Optional[int] = None,
    root: str = "max",
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    tt_mb: Optional[int] = None,
    leaves: bool = False,
    iterative: bool = False,
) -> List[Dict[str, Any]]:
    """Searches ``source`` with each algorithm; one dict per algorithm.

    ``source``: tree text (``"[[3,12,8],[2,4,6],[14,5,2]]"``), nested lists of
    ints, ``random_tree(spec)``, ``Connect4(moves)``, ``TicTacToe(moves)``,
    ``Othello(position)``, ``Chess(position)`` (with ``depth``), or a
    Python game: an object with ``root()``, ``role(pos)`` (``"max"``/``"min"``),
    ``moves(pos)``, ``play(pos, move)``, ``evaluate(pos)`` (an int, from MAX's
    view) and optionally ``hash(pos)`` (an int; the MT drivers and BNS need it).

    Each dict has the fields of ``stockman solve --format json``:
    ``algorithm``, ``value`` (None for BNS, which gives ``bound``),
    ``best_move``, ``stats`` and, as they apply, ``bound``, ``leaves``,
    ``depth_completed``, ``stopped_by`` and ``error``.

    Raises ``ValueError`` for a malformed tree (with its line and column) or
    bad arguments, ``SearchLimit`` when a search stops at ``max_nodes`` or
    ``time_limit``, and whatever a Python game's method raises, unchanged.
    """
    text = _stockman.solve_json(
        _source(source),
        _algorithms(algorithms),
        depth,
        root,
        max_nodes,
        time_limit,
        tt_mb,
        leaves,
        iterative,
    )
    rows = json.loads(text)
    for row in rows:
        if row.pop("limit", False):
            raise SearchLimit(row["error"], row["algorithm"], row["stats"], rows)
    return rows


def trace(source: Any, algorithm: str, *, depth: Optional[int] = None, root: str = "max") -> Dict[str, Any]:
    """Every step of one search, as ``stockman trace --format json`` prints it.

    Returns a dict with ``algorithm``, ``value``, ``best_move``, ``stats`` and
    ``events``: the leaf evaluations, SSS*'s Gamma steps with the OPEN list,
    the MT drivers' passes, as dicts with an ``event`` key.
    """
    return json.loads(_stockman.trace_json(_source(source), algorithm, depth, root))
