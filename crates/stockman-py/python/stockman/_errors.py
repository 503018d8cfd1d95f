"""The exceptions of the stockman package (the Rust half raises them too)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple


class SearchError(Exception):
    """A search could not answer. Every exception below derives from it.

    ``results`` holds every result of the call (the failed one with its
    ``error``), when there are results to hold.
    """

    def __init__(self, message: str, results: Optional[List[Dict[str, Any]]] = None):
        super().__init__(message)
        self.results = results or []


class SearchLimit(SearchError):
    """A search stopped at ``max_nodes``, ``time_limit`` or ``max_open``
    without an exact answer.

    ``algorithm`` names the search, ``stats`` is what it had done (the
    ``stats`` dict of a result), ``proven_bounds`` what it had proved by
    then (``(low, high)`` with ``low <= value <= high``, or None), and
    ``best_move`` the move that reaches them (or None).
    """

    def __init__(
        self,
        message: str,
        algorithm: str = "",
        stats: Optional[Dict[str, int]] = None,
        results: Optional[List[Dict[str, Any]]] = None,
        proven_bounds: Optional[Tuple[int, int]] = None,
        best_move: Any = None,
    ):
        super().__init__(message, results)
        self.algorithm = algorithm
        self.stats = stats or {}
        self.proven_bounds = proven_bounds
        self.best_move = best_move


class UnsupportedSearch(SearchError, ValueError):
    """The algorithm cannot search this source: the MT drivers, MTD(bi)
    and BNS need a transposition table, so a Python game needs ``hash()``;
    an engine needs a depth-first algorithm."""


class GameError(SearchError, ValueError):
    """A Python game broke its contract in a way the search noticed (a
    value out of range, a move list that changed for the same position)."""


class InternalError(SearchError, RuntimeError):
    """A bug in stockman (a Rust panic, caught before it reached Python).
    Please report it with the call that raised it."""
