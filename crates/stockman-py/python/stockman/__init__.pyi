import os
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple, Union

__version__: str
VALUE_MIN: int
VALUE_MAX: int
MAX_MOVES: int
MAX_PLIES: int
MAX_TABLE_MB: int
MAX_THREADS: int
MAX_ROUND_STATES: int
DEFAULT_GAME_TABLE_MB: int
MAX_DEPTH: int
ALGORITHMS: List[str]
TABLE_ALGORITHMS: List[str]

class RandomTree:
    def __init__(self, spec: str) -> None: ...
    @property
    def spec(self) -> str: ...

class _BuiltinGame:
    @property
    def name(self) -> str: ...
    @property
    def position(self) -> str: ...
    def board(self) -> str: ...
    def moves(self) -> List[str]: ...

class EasyAIGame:
    def __init__(self, game: Any, scoring: Optional[Callable[[Any], Any]] = None) -> None: ...
    @property
    def game(self) -> Any: ...
    @property
    def scoring(self) -> Optional[Callable[[Any], Any]]: ...

class PythonGame(Protocol):
    def root(self) -> Any: ...
    def role(self, pos: Any) -> str: ...
    def moves(self, pos: Any) -> Any: ...
    def play(self, pos: Any, move: Any) -> Any: ...
    def evaluate(self, pos: Any) -> int: ...
    # Optional: `hash(pos) -> int`, and `alternating = True` (a class
    # attribute) when every move passes the turn: role() is then asked of
    # the root only.

class SearchError(Exception):
    results: List[Dict[str, Any]]
    def __init__(self, message: str, results: Optional[List[Dict[str, Any]]] = None) -> None: ...

class SearchLimit(SearchError):
    algorithm: str
    stats: Dict[str, int]
    proven_bounds: Optional[Tuple[int, int]]
    best_move: Any

class UnsupportedSearch(SearchError, ValueError): ...
class GameError(SearchError, ValueError): ...
class InternalError(SearchError, RuntimeError): ...

Source = Union[str, List[Any], int, RandomTree, _BuiltinGame, EasyAIGame, PythonGame]
Algorithms = Union[None, str, Sequence[str]]

def Connect4(position: str = "") -> _BuiltinGame: ...
def TicTacToe(position: str = "") -> _BuiltinGame: ...
def Othello(position: str = "") -> _BuiltinGame: ...
def Chess(position: str = "startpos") -> _BuiltinGame: ...
def Checkers(position: str = "") -> _BuiltinGame: ...
def easyai(game: Any, scoring: Optional[Callable[[Any], Any]] = None) -> EasyAIGame: ...

class EasyAI:
    depth: int
    algorithm: str
    scoring: Optional[Callable[[Any], Any]]
    options: Dict[str, Any]
    alpha: Optional[float]
    row: Optional[Dict[str, Any]]
    def __init__(
        self, depth: int, algorithm: str = "alphabeta", scoring: Optional[Callable[[Any], Any]] = None, **options: Any
    ) -> None: ...
    def __call__(self, game: Any) -> Any: ...
def random_tree(spec: str) -> RandomTree: ...
def solve_positions(
    game: str,
    positions: Union[str, "os.PathLike[str]", Sequence[str]],
    algorithms: Union[None, str, Sequence[str]] = ...,
    *,
    depth: Optional[int] = ...,
    max_nodes: Optional[int] = ...,
    time_limit: Optional[float] = ...,
    tt_mb: Optional[int] = ...,
    iterative: bool = ...,
    threads: int = ...,
    parallel: Optional[str] = ...,
    round_states: int = ...,
) -> Dict[str, List[Dict[str, Any]]]: ...

SAMPLERS: List[str]

def sample(
    tree: str,
    algorithms: Algorithms = None,
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
) -> List[Dict[str, Any]]: ...

class _Page(Dict[str, Any]):
    @property
    def events(self) -> List[Dict[str, Any]]: ...
    def html(self) -> str: ...
    def save_html(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    def _repr_html_(self) -> str: ...

class SampleTrace(_Page): ...

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
    compare: Algorithms = ("alphabeta", "sss"),
) -> SampleTrace: ...

def solve(
    source: Source,
    algorithms: Algorithms = None,
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
) -> List[Dict[str, Any]]: ...

class Trace(_Page): ...

def trace(
    source: Source, algorithm: Union[str, Sequence[str]], *, depth: Optional[int] = None, root: Optional[str] = None
) -> Trace: ...

class Engine:
    def __init__(self, algorithm: str = "mtdf", **options: Any) -> None: ...
    @property
    def algorithm(self) -> str: ...
    def new_game(self) -> None: ...
    def best_move(
        self, game: Union[_BuiltinGame, PythonGame], depth: Optional[int] = None, time: Optional[float] = None, nodes: Optional[int] = None
    ) -> Dict[str, Any]: ...
