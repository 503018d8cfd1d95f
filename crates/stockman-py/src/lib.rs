//! The Rust half of the `stockman` Python package: every search on
//! explicit trees, random trees, the built-in games and games written in
//! Python, through the library's run layer (`stockman::run`): the same
//! defaults, checks and runner as the command line, answered as Python
//! dicts with no JSON in between. The Python half
//! (`python/stockman/__init__.py`) checks the arguments, names them in its
//! errors, and raises the documented exceptions for failed searches.
//!
//! Every search runs on a thread of its own, with a stack sized to the
//! search, while the calling thread waits with the GIL released and checks
//! for signals every 50 ms: Ctrl-C stops the search (through
//! [`SearchOptions::stop`]) and raises `KeyboardInterrupt`, and a panic in
//! the search becomes `stockman.InternalError` instead of crossing into
//! Python.
// `stockman::SearchError` carries the stopped search's `Stats` and what it
// proved; it is returned once per search, so its size costs nothing here.
#![allow(clippy::result_large_err)]

mod batch;

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use stockman::run::{panic_message, stack_bytes, with_game, GameKind, GameTask, RunError, Runner, Settings, Solution};
use stockman::run::{Request, SourceKind};
use stockman::{
    Algorithm, ExplicitTree, Game, Limits, Playable, RandomSpec, Role, SearchError, Stats, TableSize, Tracer, Value,
    VALUE_MAX, VALUE_MIN,
};

/// The most moves one position of a Python game may have: more is taken
/// for an endless iterator, and the search stops with a `ValueError`.
pub const MAX_MOVES: usize = 1_000_000;

/// The deepest a Python game may go: a search that would go deeper stops
/// with a `ValueError` (give `depth=`), so that no game can exhaust the
/// search thread's stack.
pub const MAX_PLIES: u32 = 100_000;

/// How many of a Python game's first `play()` calls are checked for a
/// mutated argument (by comparing its `repr()` before and after).
const CHECKED_PLAYS: u32 = 64;

// ------------------------------------------------------------ errors

/// An exception of the package's own (defined in `stockman/_errors.py`).
fn package_error(py: Python<'_>, name: &str, message: String) -> PyErr {
    match py.import("stockman._errors").and_then(|m| m.getattr(name)) {
        Ok(class) => match class.call1((message.clone(),)) {
            Ok(e) => PyErr::from_value(e),
            Err(e) => e,
        },
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// A run-layer error as the Python exception that fits it.
fn run_error(py: Python<'_>, e: RunError) -> PyErr {
    match e {
        RunError::Position { .. } | RunError::Settings(_) | RunError::NeedsDepth(_) => {
            PyValueError::new_err(e.to_string())
        }
        RunError::Table(t) => table_error(t),
        RunError::Internal(m) => package_error(
            py,
            "InternalError",
            format!("internal error (a bug in stockman, please report it): {m}"),
        ),
    }
}

fn table_error(e: stockman::TableError) -> PyErr {
    match e.kind {
        // Asking for more than the machine has is a bad argument.
        stockman::TableErrorKind::OutOfRange | stockman::TableErrorKind::OverPhysicalMemory(_) => {
            PyValueError::new_err(format!("tt_mb: {e}"))
        }
        _ => PyMemoryError::new_err(e.to_string()),
    }
}

/// The class of a failed search, which the Python half turns into an
/// exception: `limit` (SearchLimit), `unsupported` (UnsupportedSearch),
/// `game` (GameError), `memory` (MemoryError).
fn error_kind(e: &SearchError) -> &'static str {
    match e {
        SearchError::NodeLimit { .. }
        | SearchError::TimeLimit { .. }
        | SearchError::Stopped { .. }
        | SearchError::OpenLimit { .. } => "limit",
        SearchError::NoHash { .. } | SearchError::Unsupported { .. } => "unsupported",
        SearchError::Table(_) => "memory",
        _ => "game",
    }
}

// ------------------------------------------------------------ running

/// The runner every `solve` shares: its fixed table is allocated and
/// committed once, not at each call (and never inside a search's clock).
static RUNNER: Mutex<Option<Runner>> = Mutex::new(None);

/// Takes the shared runner (a fresh one if another thread has it).
fn take_runner() -> Runner {
    RUNNER.lock().ok().and_then(|mut r| r.take()).unwrap_or_default()
}

fn give_back(runner: Runner) {
    if let Ok(mut r) = RUNNER.lock() {
        *r = Some(runner);
    }
}

/// Runs `f` on a thread with `stack` bytes of stack while this thread
/// waits without the GIL, checking for signals every 50 ms: a signal's
/// exception (KeyboardInterrupt) raises `stop` and is raised once `f` has
/// returned; a panic in `f` becomes `InternalError`.
fn run_search<T: Send>(py: Python<'_>, stack: usize, stop: &AtomicBool, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let done = (Mutex::new(false), Condvar::new());
    let done = &done;
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("stockman-search".into())
            .stack_size(stack)
            .spawn_scoped(s, move || {
                let r = std::panic::catch_unwind(AssertUnwindSafe(f));
                if let Ok(mut d) = done.0.lock() {
                    *d = true;
                }
                done.1.notify_all();
                r
            })
            .map_err(|e| {
                PyRuntimeError::new_err(format!(
                    "cannot start the search thread ({} MiB of stack): {e}",
                    stack >> 20
                ))
            })?;
        let mut interrupt = None;
        loop {
            let finished = py.allow_threads(|| match done.0.lock() {
                Ok(d) if *d => true,
                Ok(d) => done
                    .1
                    .wait_timeout(d, Duration::from_millis(50))
                    .map_or(true, |(d, _)| *d),
                Err(_) => true,
            });
            if finished {
                break;
            }
            if interrupt.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupt = Some(e);
                }
            }
        }
        let joined = py.allow_threads(|| worker.join());
        if let Some(e) = interrupt {
            return Err(e);
        }
        match joined {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(p)) | Err(p) => Err(package_error(
                py,
                "InternalError",
                format!(
                    "internal error (a bug in stockman, please report it): {}",
                    panic_message(&*p)
                ),
            )),
        }
    })
}

/// A best move as Python sees it: a child's index (trees, Python games)
/// or the move in the game's notation (a number where it is one).
#[derive(Clone, Debug)]
enum BestMove {
    Index(usize),
    Text(String),
}

impl BestMove {
    fn of_text(t: String) -> BestMove {
        match t.parse::<usize>() {
            Ok(n) => BestMove::Index(n),
            Err(_) => BestMove::Text(t),
        }
    }

    fn to_object(&self, py: Python<'_>) -> PyObject {
        match self {
            BestMove::Index(i) => i
                .into_pyobject(py)
                .map(|o| o.into_any().unbind())
                .unwrap_or_else(|_| py.None()),
            BestMove::Text(t) => PyString::new(py, t).into_any().unbind(),
        }
    }
}

fn stats_dict<'py>(py: Python<'py>, s: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in [
        ("leaf_evals", s.leaf_evals),
        ("nodes_expanded", s.nodes_expanded),
        ("nodes", s.nodes),
        ("horizon_nodes", s.horizon_nodes),
        ("max_open", s.max_open),
        ("open_pushes", s.open_pushes),
        ("open_purged", s.open_purged),
        ("passes", s.passes),
        ("tt_probes", s.tt_probes),
        ("tt_hits", s.tt_hits),
        ("tt_stores", s.tt_stores),
        ("time_us", s.time_us),
    ] {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// One algorithm's answer as a dict: the fields of the CLI's
/// `solve --format json` rows, plus `error_kind` when it failed.
fn solution_dict<'py>(py: Python<'py>, s: &Solution<BestMove>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("algorithm", s.label())?;
    d.set_item("value", s.value)?;
    d.set_item("best_move", s.best_move.as_ref().map(|m| m.to_object(py)))?;
    if let Some((lo, hi)) = s.bound {
        d.set_item("bound", [lo, hi])?;
    }
    if let Some((lo, hi)) = s.proven {
        d.set_item("proven_bounds", [lo, hi])?;
    }
    d.set_item("stats", stats_dict(py, &s.stats)?)?;
    if let Some(depth) = s.depth_completed {
        d.set_item("depth_completed", depth)?;
    }
    if let Some(l) = s.stopped_by {
        d.set_item("stopped_by", l.to_string())?;
    }
    if let Some(leaves) = &s.leaves {
        d.set_item("leaves", leaves.clone())?;
    }
    if let Some(e) = &s.error {
        d.set_item("error", e.to_string())?;
        d.set_item("error_kind", error_kind(e))?;
    }
    Ok(d)
}

// ------------------------------------------------------------ sources

/// A seeded random tree of the research models: `width=8,depth=8,seed=1`,
/// with optional `model=iid|incremental`, `range=LO..HI`, `variable=true`,
/// `order=P`, `root=max|min` (as `stockman solve --random`).
#[pyclass(module = "stockman._stockman", frozen)]
struct RandomTree {
    spec: RandomSpec,
}

#[pymethods]
impl RandomTree {
    #[new]
    fn new(spec: &str) -> PyResult<RandomTree> {
        let spec = RandomSpec::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(RandomTree { spec })
    }

    fn __repr__(&self) -> String {
        format!("stockman.random_tree({:?})", self.spec.to_string())
    }

    /// The spec, as `stockman solve --random` takes it.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }
}

/// A position of a built-in game, checked when it is made.
#[pyclass(module = "stockman._stockman", frozen)]
struct BuiltinGame {
    kind: GameKind,
    position: String,
}

#[pymethods]
impl BuiltinGame {
    #[new]
    fn new(py: Python<'_>, name: &str, position: &str) -> PyResult<BuiltinGame> {
        let kind: GameKind = name.parse().map_err(|e| run_error(py, e))?;
        struct Check;
        impl GameTask for Check {
            type Output = ();
            fn run<G: Playable>(self, _game: G) {}
        }
        with_game(kind, position, false, Check).map_err(|e| run_error(py, e))?;
        Ok(BuiltinGame {
            kind,
            position: position.to_string(),
        })
    }

    /// The game's name (`connect4`, `tictactoe`, `othello`, `chess`).
    #[getter]
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The position, as given.
    #[getter]
    fn position(&self) -> String {
        self.position.clone()
    }

    /// The board.
    fn board(&self) -> String {
        struct Show;
        impl GameTask for Show {
            type Output = String;
            fn run<G: Playable>(self, game: G) -> String {
                game.to_string()
            }
        }
        with_game(self.kind, &self.position, false, Show).unwrap_or_default()
    }

    /// The legal moves, in the game's notation.
    fn moves(&self) -> Vec<String> {
        struct Moves;
        impl GameTask for Moves {
            type Output = Vec<String>;
            fn run<G: Playable>(self, game: G) -> Vec<String> {
                game.legal_moves().into_iter().map(|m| game.move_text(m)).collect()
            }
        }
        with_game(self.kind, &self.position, false, Moves).unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        let class = match self.kind {
            GameKind::TicTacToe => "TicTacToe",
            GameKind::Connect4 => "Connect4",
            GameKind::Othello => "Othello",
            GameKind::Chess => "Chess",
        };
        format!("stockman.{class}({:?})", self.position)
    }
}

/// A game written in Python: an object with `root()`, `role(pos)`
/// (`"max"`/`"min"`), `moves(pos)`, `play(pos, move)`, `evaluate(pos)` and
/// optionally `hash(pos)`. Positions and moves are any Python objects; a
/// position keeps its move list, so that `moves()` is asked once per
/// position and every algorithm sees one order whatever `moves()` does.
struct PyGame<'py> {
    obj: Bound<'py, PyAny>,
    /// The bound methods, looked up once rather than at every call.
    root_fn: Bound<'py, PyAny>,
    role_fn: Bound<'py, PyAny>,
    moves_fn: Bound<'py, PyAny>,
    play_fn: Bound<'py, PyAny>,
    evaluate_fn: Bound<'py, PyAny>,
    hash_fn: Option<Bound<'py, PyAny>>,
    /// The root, made once: every search of a call starts from it.
    root: RefCell<Option<PyPos<'py>>>,
    /// `play()` calls so far (the first few are checked for mutation).
    plays: Cell<u32>,
    /// The deepest ply allowed (the depth, or [`MAX_PLIES`]).
    max_ply: u32,
    /// The first exception a callback raised (or a bad value it returned):
    /// the search is stopped at once and this is raised to the caller.
    failed: RefCell<Option<PyErr>>,
}

/// A position of a [`PyGame`], with its move list once asked for.
#[derive(Clone, Debug)]
struct PyPos<'py> {
    obj: Bound<'py, PyAny>,
    moves: Rc<RefCell<Option<Vec<Bound<'py, PyAny>>>>>,
    ply: u32,
}

impl<'py> PyPos<'py> {
    fn new(obj: Bound<'py, PyAny>, ply: u32) -> Self {
        PyPos {
            obj,
            moves: Default::default(),
            ply,
        }
    }
}

/// What evaluation answers once a callback failed: outside the value range,
/// so that the search stops at once with `ValueOutOfRange`.
const FAILED: Value = VALUE_MAX.saturating_add(1);

/// Checks that `obj` has a game's methods; names the missing one.
fn check_game(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    for m in ["root", "role", "moves", "play", "evaluate"] {
        if !obj.hasattr(m)? {
            return Err(PyTypeError::new_err(format!(
                "a game needs the methods root(), role(pos), moves(pos), play(pos, move) and evaluate(pos); \
                 {} has no `{m}`",
                obj.get_type().name()?
            )));
        }
    }
    Ok(matches!(obj.getattr("hash"), Ok(h) if !h.is_none()))
}

impl<'py> PyGame<'py> {
    fn new(obj: Bound<'py, PyAny>, max_ply: u32) -> PyResult<Self> {
        let has_hash = check_game(&obj)?;
        Ok(PyGame {
            root_fn: obj.getattr("root")?,
            role_fn: obj.getattr("role")?,
            moves_fn: obj.getattr("moves")?,
            play_fn: obj.getattr("play")?,
            evaluate_fn: obj.getattr("evaluate")?,
            hash_fn: if has_hash { Some(obj.getattr("hash")?) } else { None },
            obj,
            root: RefCell::new(None),
            plays: Cell::new(0),
            max_ply,
            failed: RefCell::new(None),
        })
    }

    /// Keeps the first failure.
    fn fail(&self, e: PyErr) {
        let mut f = self.failed.borrow_mut();
        if f.is_none() {
            *f = Some(e);
        }
    }

    fn failed(&self) -> bool {
        self.failed.borrow().is_some()
    }

    fn take_failure(&self) -> Option<PyErr> {
        self.failed.borrow_mut().take()
    }

    fn list_moves(&self, pos: &PyPos<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let list = self.moves_fn.call1((&pos.obj,))?;
        let iter = list.try_iter().map_err(|_| {
            PyValueError::new_err(format!(
                "moves() must return an iterable of moves, got {}",
                list.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        let mut out = Vec::new();
        for m in iter {
            if out.len() == MAX_MOVES {
                return Err(PyValueError::new_err(format!(
                    "moves() gave more than {MAX_MOVES} moves for one position (an endless iterator?); \
                     stockman allows at most {MAX_MOVES}"
                )));
            }
            out.push(m?);
        }
        Ok(out)
    }

    fn int_from(&self, method: &str, v: &Bound<'py, PyAny>) -> PyResult<i64> {
        if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
            return Err(PyValueError::new_err(format!(
                "{method}() must return an int, got {}: {}",
                v.get_type().name()?,
                v.repr()?
            )));
        }
        v.extract::<i64>().map_err(|_| {
            PyValueError::new_err(format!(
                "{method}() returned {}, which does not fit in 64 bits",
                v.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })
    }

    /// `play(pos, m)`, checked: the first calls must leave `pos` as it was.
    fn checked_play(&self, pos: &PyPos<'py>, m: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.plays.get();
        self.plays.set(n.saturating_add(1));
        if n >= CHECKED_PLAYS {
            return self.play_fn.call1((&pos.obj, m));
        }
        let before = pos.obj.repr().map(|r| r.to_string());
        let child = self.play_fn.call1((&pos.obj, m))?;
        if let (Ok(before), Ok(after)) = (before, pos.obj.repr().map(|r| r.to_string())) {
            if before != after {
                return Err(PyValueError::new_err(format!(
                    "play() changed the position it was given ({} became {}): play(pos, move) must return a \
                     new position and leave pos unchanged (copy it first)",
                    shorten(&before),
                    shorten(&after)
                )));
            }
        }
        Ok(child)
    }
}

/// At most 80 characters of `s`.
fn shorten(s: &str) -> String {
    if s.chars().count() <= 80 {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(77).collect::<String>())
    }
}

impl<'py> Game for PyGame<'py> {
    type Position = PyPos<'py>;
    type Move = u32;

    fn root(&self) -> PyPos<'py> {
        if let Some(r) = self.root.borrow().as_ref() {
            return r.clone();
        }
        let root = match self.root_fn.call0() {
            Ok(p) => PyPos::new(p, 0),
            Err(e) => {
                self.fail(e);
                PyPos::new(self.obj.py().None().into_bound(self.obj.py()), 0)
            }
        };
        *self.root.borrow_mut() = Some(root.clone());
        root
    }

    fn role(&self, pos: &PyPos<'py>) -> Role {
        if self.failed() {
            return Role::Max;
        }
        let r = self.role_fn.call1((&pos.obj,)).and_then(|r| {
            let s: Option<String> = r.extract().ok();
            match s.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("max") => Ok(Role::Max),
                Some("min") => Ok(Role::Min),
                _ => Err(PyValueError::new_err(format!(
                    "role() must return \"max\" or \"min\", got {}",
                    r.repr()?
                ))),
            }
        });
        r.unwrap_or_else(|e| {
            self.fail(e);
            Role::Max
        })
    }

    fn moves(&self, pos: &PyPos<'py>, out: &mut Vec<u32>) {
        if self.failed() {
            return;
        }
        if let Some(list) = pos.moves.borrow().as_ref() {
            out.extend(0..list.len() as u32);
            return;
        }
        match self.list_moves(pos) {
            Ok(list) => {
                if !list.is_empty() && pos.ply >= self.max_ply {
                    self.fail(PyValueError::new_err(format!(
                        "the game goes deeper than {MAX_PLIES} plies, the most stockman searches in a Python game \
                         (give depth= to search fewer)"
                    )));
                    return;
                }
                out.extend(0..list.len() as u32);
                *pos.moves.borrow_mut() = Some(list);
            }
            Err(e) => self.fail(e),
        }
    }

    fn play(&self, pos: &PyPos<'py>, mv: u32) -> PyPos<'py> {
        if self.failed() {
            return pos.clone();
        }
        let cached = pos.moves.borrow().as_ref().map(|l| l.get(mv as usize).cloned());
        let m = match cached {
            Some(Some(m)) => Ok(m),
            Some(None) => Err(PyValueError::new_err(format!(
                "the search asked for move {mv} of a position with fewer moves (a bug in stockman)"
            ))),
            None => self.list_moves(pos).and_then(|l| {
                let m = l.get(mv as usize).cloned();
                *pos.moves.borrow_mut() = Some(l);
                m.ok_or_else(|| PyValueError::new_err("moves() returned fewer moves than before for the same position"))
            }),
        };
        match m.and_then(|m| self.checked_play(pos, &m)) {
            Ok(p) => PyPos::new(p, pos.ply + 1),
            Err(e) => {
                self.fail(e);
                pos.clone()
            }
        }
    }

    fn evaluate(&self, pos: &PyPos<'py>) -> Value {
        if self.failed() {
            return FAILED;
        }
        let v = self
            .evaluate_fn
            .call1((&pos.obj,))
            .and_then(|v| self.int_from("evaluate", &v))
            .and_then(|v| {
                if (i64::from(VALUE_MIN)..=i64::from(VALUE_MAX)).contains(&v) {
                    Ok(v as Value)
                } else {
                    Err(PyValueError::new_err(format!(
                        "evaluate() returned {v}, outside the value range {VALUE_MIN}..={VALUE_MAX}"
                    )))
                }
            });
        v.unwrap_or_else(|e| {
            self.fail(e);
            FAILED
        })
    }

    fn hash(&self, pos: &PyPos<'py>) -> Option<u64> {
        let hash_fn = self.hash_fn.as_ref()?;
        if self.failed() {
            return Some(0);
        }
        let h = hash_fn.call1((&pos.obj,)).and_then(|v| {
            if v.is_instance_of::<pyo3::types::PyInt>() && !v.is_instance_of::<pyo3::types::PyBool>() {
                // Any Python int: its low 64 bits.
                let masked = v.call_method1("__and__", (u64::MAX,))?;
                masked.extract::<u64>()
            } else {
                Err(PyValueError::new_err(format!(
                    "hash() must return an int, got {}: {}",
                    v.get_type().name()?,
                    v.repr()?
                )))
            }
        });
        match h {
            Ok(h) => Some(h),
            Err(e) => {
                self.fail(e);
                Some(0)
            }
        }
    }

    fn name(&self) -> &str {
        "python game"
    }
}

/// What `solve`, `trace` and the engine can search.
enum Source {
    Tree(ExplicitTree),
    Random(stockman::RandomTree),
    Builtin(GameKind, String),
    Python(Py<PyAny>, bool),
}

impl Source {
    fn kind(&self) -> SourceKind {
        match self {
            Source::Builtin(kind, _) => SourceKind::Game(*kind),
            _ => SourceKind::Tree,
        }
    }
}

fn resolve(obj: &Bound<'_, PyAny>, root: Option<&str>) -> PyResult<Source> {
    let role = match root {
        None => Role::Max,
        Some(r) => r
            .parse::<Role>()
            .map_err(|e: String| PyValueError::new_err(format!("root: {e}")))?,
    };
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = text.to_cow()?;
        return ExplicitTree::parse(&text, role)
            .map(Source::Tree)
            .map_err(|e| PyValueError::new_err(format!("tree: {e}")));
    }
    if let Ok(t) = obj.downcast::<RandomTree>() {
        let mut spec = t.get().spec.clone();
        if root.is_some() {
            spec.root_role = role;
        }
        return Ok(Source::Random(stockman::RandomTree::new(spec)));
    }
    let not_for_games = |what: &str| {
        root.filter(|r| !r.eq_ignore_ascii_case("max")).map_or(Ok(()), |_| {
            Err(PyValueError::new_err(format!(
                "root= applies to trees; {what} (root=\"max\" or no root)"
            )))
        })
    };
    if let Ok(g) = obj.downcast::<BuiltinGame>() {
        not_for_games("a built-in game's side to move is in its position")?;
        let g = g.get();
        return Ok(Source::Builtin(g.kind, g.position.clone()));
    }
    if obj.downcast::<PyList>().is_ok() {
        return Err(PyTypeError::new_err(
            "nested lists are turned into tree text by stockman.solve",
        ));
    }
    let has_hash = check_game(obj)?;
    not_for_games("a Python game's roles come from its role() method")?;
    Ok(Source::Python(obj.clone().unbind(), has_hash))
}

/// The stack a search of `depth` plies needs.
fn stack_for(depth: u32) -> usize {
    stack_bytes(u64::from(depth))
}

/// The stack a search of a built-in game needs: the depth asked for, plus
/// room for a game to its end (and chess's quiescence search).
fn builtin_stack(depth: Option<u32>) -> usize {
    stack_for(depth.unwrap_or(0).saturating_add(200))
}

/// Runs `f` on the Python game `obj` on a search thread (which takes the
/// GIL for the game's methods), with a stack for `depth` plies or
/// [`MAX_PLIES`]; the first exception the game raised replaces `f`'s answer.
fn search_py_game<T: Send>(
    py: Python<'_>,
    obj: &Py<PyAny>,
    depth: Option<u32>,
    stop: &AtomicBool,
    f: impl for<'g> FnOnce(&PyGame<'g>) -> T + Send,
) -> PyResult<T> {
    let max_ply = depth.map_or(MAX_PLIES, |d| d.min(MAX_PLIES));
    run_search(py, stack_for(max_ply.saturating_add(64)), stop, || {
        Python::with_gil(|py| {
            let game = PyGame::new(obj.bind(py).clone(), max_ply)?;
            let out = f(&game);
            game.take_failure().map_or(Ok(out), Err)
        })
    })?
}

/// A number of seconds given as `name`, checked.
fn seconds(name: &str, t: Option<f64>) -> PyResult<Option<Duration>> {
    match t {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Duration::try_from_secs_f64(t)
            .map(Some)
            .map_err(|_| PyValueError::new_err(format!("{name}: {t} seconds is too large"))),
        Some(t) => Err(PyValueError::new_err(format!(
            "{name} must be a positive number of seconds, got {t}"
        ))),
    }
}

/// Solves `game` with every algorithm of `request` on the shared runner.
fn solve_game<G: Game>(
    runner: &mut Runner,
    game: &G,
    request: &Request,
    best: impl Fn(&Solution<G::Move>) -> Option<BestMove>,
) -> Vec<Solution<BestMove>> {
    named(runner.solve(game, request), best)
}

/// [`solve_game`] on `request.threads` threads (a game they can share).
fn solve_shared<G: Game<Position: Send, Move: Send> + Sync>(
    runner: &mut Runner,
    game: &G,
    request: &Request,
    best: impl Fn(&Solution<G::Move>) -> Option<BestMove>,
) -> Vec<Solution<BestMove>> {
    named(runner.solve_threads(game, request), best)
}

/// Solutions with their best moves as Python names them.
fn named<M>(solutions: Vec<Solution<M>>, best: impl Fn(&Solution<M>) -> Option<BestMove>) -> Vec<Solution<BestMove>> {
    solutions
        .into_iter()
        .map(|s| {
            let b = best(&s);
            with_best(s, b)
        })
        .collect()
}

/// `s` with `best` (the move as Python sees it) as its best move.
fn with_best<M>(s: Solution<M>, best: Option<BestMove>) -> Solution<BestMove> {
    let mut s = s.map_move(|_| BestMove::Index(0));
    s.best_move = best;
    s
}

/// `solve` on a built-in game, generic over it.
struct SolveGame<'a> {
    runner: &'a mut Runner,
    request: &'a Request,
}

impl GameTask for SolveGame<'_> {
    type Output = Vec<Solution<BestMove>>;
    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Self::Output {
        let g = &game;
        solve_shared(self.runner, &game, self.request, |s| {
            s.best_move.map(|m| BestMove::of_text(g.move_text(m)))
        })
    }
}

fn index_move<M>(s: &Solution<M>) -> Option<BestMove> {
    s.best_index.map(BestMove::Index)
}

/// The settings of a `solve` call.
#[allow(clippy::too_many_arguments)]
fn settings(
    algorithms: Option<Vec<String>>,
    depth: Option<u32>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    tt_mb: Option<usize>,
    leaves: bool,
    iterative: bool,
    threads: usize,
    parallel: Option<&str>,
) -> PyResult<Settings> {
    let algorithms =
        match algorithms {
            None => None,
            Some(names) => {
                let mut out = Vec::new();
                for n in names {
                    if n.trim().eq_ignore_ascii_case("all") {
                        out.extend_from_slice(Algorithm::ALL);
                    } else {
                        out.push(n.parse::<Algorithm>().map_err(|e: stockman::UnknownAlgorithm| {
                            PyValueError::new_err(format!("algorithms: {e}"))
                        })?);
                    }
                }
                Some(out)
            }
        };
    let time_limit = seconds("time_limit", time_limit)?;
    if let Some(mb) = tt_mb {
        TableSize::Megabytes(mb).check().map_err(table_error)?;
    }
    Ok(Settings {
        algorithms,
        depth,
        iterative,
        max_nodes,
        time_limit,
        tt_mb,
        leaves,
        threads: Some(threads),
        parallel: parallel_of(parallel)?,
        ..Settings::default()
    })
}

/// The `parallel=` argument.
fn parallel_of(parallel: Option<&str>) -> PyResult<Option<stockman::Parallel>> {
    parallel
        .map(|p| {
            p.parse()
                .map_err(|e: String| PyValueError::new_err(format!("parallel: {e}")))
        })
        .transpose()
}

/// Tells Python (as a `UserWarning`) what the CLI prints as a `note:`.
fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(message.replace('\0', " ")).expect("no NUL left");
    PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &text, 1)
}

/// `stockman.solve` (the Python half checks and documents the arguments):
/// one dict per algorithm.
#[pyfunction]
#[pyo3(signature = (source, algorithms=None, depth=None, root=None, max_nodes=None, time_limit=None, tt_mb=None, leaves=false, iterative=false, threads=1, parallel=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    algorithms: Option<Vec<String>>,
    depth: Option<u32>,
    root: Option<&str>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    tt_mb: Option<usize>,
    leaves: bool,
    iterative: bool,
    threads: usize,
    parallel: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let source = resolve(source, root)?;
    let mut settings = settings(
        algorithms, depth, max_nodes, time_limit, tt_mb, leaves, iterative, threads, parallel,
    )?;
    if let (Source::Python(_, false), None) = (&source, &settings.algorithms) {
        // The default for a game without hash(): every algorithm that can
        // search it (naming one that cannot raises UnsupportedSearch).
        settings.algorithms = Some(Algorithm::ALL.iter().copied().filter(|a| !a.needs_table()).collect());
    }
    let mut request = settings.request(source.kind()).map_err(|e| run_error(py, e))?;
    if request.threads > 1 {
        if let Source::Python(..) = source {
            warn(
                py,
                &format!("threads={}: a Python game is searched on one thread", request.threads),
            )?;
            request.threads = 1;
        }
        if let Some(note) = stockman::run::no_parallel_form(&Runner::single_threaded(&request)) {
            warn(py, &note)?;
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    request.options.stop = Some(stop.clone());
    let mut runner = take_runner();
    let result = solve_source(py, &source, &request, &mut runner, &stop);
    give_back(runner);
    let solutions = result?;
    let list = PyList::empty(py);
    for s in &solutions {
        list.append(solution_dict(py, s)?)?;
    }
    Ok(list)
}

fn solve_source(
    py: Python<'_>,
    source: &Source,
    request: &Request,
    runner: &mut Runner,
    stop: &AtomicBool,
) -> PyResult<Vec<Solution<BestMove>>> {
    // The table is allocated (and its memory committed) before the search
    // thread starts: no clock sees it.
    runner.prepare(request.options.table).map_err(table_error)?;
    match source {
        Source::Tree(t) => run_search(py, stack_for(t.height()), stop, || {
            solve_shared(runner, t, request, index_move)
        }),
        Source::Random(t) => run_search(py, stack_for(t.spec().depth), stop, || {
            solve_shared(runner, t, request, index_move)
        }),
        Source::Builtin(kind, position) => {
            let heuristic = request.options.depth.is_some();
            run_search(py, builtin_stack(request.options.depth), stop, || {
                with_game(*kind, position, heuristic, SolveGame { runner, request })
            })?
            .map_err(|e| run_error(py, e))
        }
        Source::Python(obj, _) => search_py_game(py, obj, request.options.depth, stop, |game: &PyGame<'_>| {
            solve_game(runner, game, request, index_move)
        }),
    }
}

// ------------------------------------------------------------ trace

/// `stockman.trace`: one search with every step recorded, as JSON text
/// (the trace's events are serde values; the viewer reads the same JSON).
#[pyfunction]
#[pyo3(signature = (source, algorithm, depth=None, root=None))]
fn trace_json(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    algorithm: &str,
    depth: Option<u32>,
    root: Option<&str>,
) -> PyResult<String> {
    let algo: Algorithm = algorithm
        .parse()
        .map_err(|e: stockman::UnknownAlgorithm| PyValueError::new_err(format!("algorithm: {e}")))?;
    let source = resolve(source, root)?;
    let settings = Settings {
        algorithms: Some(vec![algo]),
        depth,
        ..Settings::default()
    };
    let mut request = settings.request(source.kind()).map_err(|e| run_error(py, e))?;
    let stop = Arc::new(AtomicBool::new(false));
    request.options.stop = Some(stop.clone());
    let mut runner = take_runner();
    let result = trace_source(py, &source, algo, &request, &mut runner, &stop);
    give_back(runner);
    let (solution, events) = result?;
    if let Some(e) = &solution.error {
        return Err(PyValueError::new_err(format!("{}: {e}", solution.label())));
    }
    let trace = serde_json::json!({
        "algorithm": solution.label(),
        "value": solution.value,
        "best_move": solution.best_index,
        "bound": solution.bound.map(|(a, b)| [a, b]),
        "stats": solution.stats,
        "events": events,
    });
    serde_json::to_string(&trace).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

type Traced = (Solution<BestMove>, Vec<stockman::Event>);

fn trace_one<G: Game>(runner: &mut Runner, game: &G, algo: Algorithm, request: &Request) -> Traced {
    let mut tracer = Tracer::default();
    let s = runner.solve_one(game, algo, request, &mut tracer);
    let best = index_move(&s);
    (with_best(s, best), tracer.events)
}

fn trace_source(
    py: Python<'_>,
    source: &Source,
    algo: Algorithm,
    request: &Request,
    runner: &mut Runner,
    stop: &AtomicBool,
) -> PyResult<Traced> {
    runner.prepare(request.options.table).map_err(table_error)?;
    match source {
        Source::Tree(t) => run_search(py, stack_for(t.height()), stop, || trace_one(runner, t, algo, request)),
        Source::Random(t) => run_search(py, stack_for(t.spec().depth), stop, || {
            trace_one(runner, t, algo, request)
        }),
        Source::Builtin(kind, position) => {
            struct TraceGame<'a> {
                runner: &'a mut Runner,
                request: &'a Request,
                algo: Algorithm,
            }
            impl GameTask for TraceGame<'_> {
                type Output = Traced;
                fn run<G: Playable>(self, game: G) -> Traced {
                    trace_one(self.runner, &game, self.algo, self.request)
                }
            }
            let heuristic = request.options.depth.is_some();
            run_search(py, builtin_stack(request.options.depth), stop, || {
                with_game(*kind, position, heuristic, TraceGame { runner, request, algo })
            })?
            .map_err(|e| run_error(py, e))
        }
        Source::Python(obj, _) => search_py_game(py, obj, request.options.depth, stop, |game: &PyGame<'_>| {
            trace_one(runner, game, algo, request)
        }),
    }
}

/// The HTML viewer of `algorithms` on `source` (one: the step-by-step
/// viewer; several: the side-by-side comparison), as `stockman trace
/// --html` writes it. Sources of at most 500 nodes (to `depth`).
#[pyfunction]
#[pyo3(signature = (source, algorithms, depth=None, root=None, title=None))]
fn trace_html(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    algorithms: Vec<String>,
    depth: Option<u32>,
    root: Option<&str>,
    title: Option<String>,
) -> PyResult<String> {
    let algos = algorithms
        .iter()
        .map(|a| a.parse::<Algorithm>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(format!("algorithm: {e}")))?;
    if algos.is_empty() {
        return Err(PyValueError::new_err("algorithm: no algorithm given"));
    }
    let source = resolve(source, root)?;
    let settings = Settings {
        algorithms: Some(algos.clone()),
        depth,
        ..Settings::default()
    };
    let request = settings.request(source.kind()).map_err(|e| run_error(py, e))?;
    let opts = &request.options;
    let title = title.unwrap_or_else(|| algos.iter().map(|a| a.name()).collect::<Vec<_>>().join(" vs "));
    let title = title.as_str();
    let algos = algos.as_slice();
    fn render<G: Game>(
        game: &G,
        algos: &[Algorithm],
        opts: &stockman::SearchOptions,
        title: &str,
    ) -> Result<String, String> {
        let page = if algos.len() == 1 {
            stockman_lab::html::page(game, algos[0], opts, title)
        } else {
            stockman_lab::html::compare_page(game, algos, opts, title)
        };
        page.map_err(|e| e.to_string())
    }
    let stop = AtomicBool::new(false);
    let page = match &source {
        Source::Tree(t) => run_search(py, stack_for(t.height()), &stop, || render(t, algos, opts, title))?,
        Source::Random(t) => run_search(py, stack_for(t.spec().depth), &stop, || render(t, algos, opts, title))?,
        Source::Builtin(kind, position) => {
            struct Html<'a>(&'a [Algorithm], &'a stockman::SearchOptions, &'a str);
            impl GameTask for Html<'_> {
                type Output = Result<String, String>;
                fn run<G: Playable>(self, game: G) -> Self::Output {
                    render(&game, self.0, self.1, self.2)
                }
            }
            let heuristic = depth.is_some();
            run_search(py, builtin_stack(depth), &stop, || {
                with_game(*kind, position, heuristic, Html(algos, opts, title))
            })?
            .map_err(|e| run_error(py, e))?
        }
        Source::Python(obj, _) => search_py_game(py, obj, depth, &stop, |game: &PyGame<'_>| {
            render(game, algos, opts, title)
        })?,
    };
    page.map_err(PyValueError::new_err)
}

// ------------------------------------------------------------ engine

/// A game-playing engine: iterative deepening with one depth-first
/// algorithm, keeping its transposition table and move-ordering
/// heuristics between the moves of a game (the library's `Engine`).
#[pyclass(module = "stockman._stockman")]
struct Engine {
    inner: stockman::Engine,
    algorithm: Algorithm,
    stop: Arc<AtomicBool>,
    /// What the engine last searched (a game kind, or a Python game's
    /// `id`): another game starts a new one, so that no table entry of one
    /// game is read in another.
    last_game: Option<String>,
}

#[pymethods]
impl Engine {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (algorithm="mtdf", tt_mb=None, history=None, killers=None, etc=None, aspiration=None, table_move=None, threads=1, parallel=None))]
    fn new(
        py: Python<'_>,
        algorithm: &str,
        tt_mb: Option<usize>,
        history: Option<bool>,
        killers: Option<bool>,
        etc: Option<bool>,
        aspiration: Option<Value>,
        table_move: Option<bool>,
        threads: usize,
        parallel: Option<&str>,
    ) -> PyResult<Engine> {
        let parallel = parallel_of(parallel)?.unwrap_or_default();
        let algo: Algorithm = algorithm
            .parse()
            .map_err(|e: stockman::UnknownAlgorithm| PyValueError::new_err(format!("algorithm: {e}")))?;
        if algo.is_best_first() {
            return Err(PyValueError::new_err(format!(
                "algorithm: {algo} is best-first and cannot be deepened; an engine needs one of: {}",
                Algorithm::ALL
                    .iter()
                    .filter(|a| !a.is_best_first())
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if let Some(mb) = tt_mb {
            TableSize::Megabytes(mb).check().map_err(table_error)?;
        }
        let settings = Settings {
            algorithms: Some(vec![algo]),
            iterative: true,
            tt_mb: Some(tt_mb.unwrap_or(stockman::run::DEFAULT_GAME_TABLE_MB)),
            enhancements: stockman::run::Enhancements {
                history,
                killers,
                etc,
                aspiration: aspiration.map(|a| (a > 0).then_some(a)),
                table_move,
            },
            ..Settings::default()
        };
        let mut request = settings
            .request(SourceKind::Game(GameKind::Connect4))
            .map_err(|e| run_error(py, e))?;
        let stop = Arc::new(AtomicBool::new(false));
        request.options.stop = Some(stop.clone());
        let inner = py
            .allow_threads(|| stockman::Engine::new(algo, request.options.clone())?.with_threads(threads, parallel))
            .map_err(|e| match e {
                SearchError::Table(t) => table_error(t),
                e => PyValueError::new_err(e.to_string()),
            })?;
        Ok(Engine {
            inner,
            algorithm: algo,
            stop,
            last_game: None,
        })
    }

    /// The algorithm's name.
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.algorithm.name()
    }

    /// Forgets what the engine learnt: the table, history and killers.
    fn new_game(&mut self) {
        self.inner.new_game();
        self.last_game = None;
    }

    /// The engine's move in `game` (the Python half checks the limits).
    #[pyo3(signature = (game, depth=None, time=None, nodes=None))]
    fn best_move<'py>(
        &mut self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let time = seconds("time", time)?;
        let limits = Limits {
            depth,
            time,
            nodes,
            ..Limits::default()
        };
        let source = resolve(game, None)?;
        let key = match &source {
            Source::Builtin(kind, _) => kind.name().to_string(),
            Source::Python(obj, _) => format!("python:{}", obj.bind(py).as_ptr() as usize),
            _ => {
                return Err(PyTypeError::new_err(
                    "Engine.best_move takes a game (Connect4(...), a Python game, ...), not a tree",
                ))
            }
        };
        if let Source::Builtin(kind, _) = &source {
            if kind.needs_depth() && depth.is_none() && time.is_none() && nodes.is_none() {
                return Err(run_error(py, RunError::NeedsDepth(*kind)));
            }
        }
        if self.last_game.as_deref() != Some(&key) {
            self.inner.new_game();
            self.last_game = Some(key);
        }
        self.stop.store(false, Ordering::Relaxed);
        let engine = &mut self.inner;
        let algo = self.algorithm;
        let stop = self.stop.clone();
        let solution = match &source {
            Source::Builtin(kind, position) => {
                struct Move<'a> {
                    engine: &'a mut stockman::Engine,
                    limits: Limits,
                    algo: Algorithm,
                }
                impl GameTask for Move<'_> {
                    type Output = Solution<BestMove>;
                    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Solution<BestMove> {
                        let found = self.engine.best_move(&game, &self.limits);
                        engine_move(found, self.algo, |m| BestMove::of_text(game.move_text(m)))
                    }
                }
                let heuristic = depth.is_some() || time.is_some() || nodes.is_some();
                run_search(py, builtin_stack(depth), &stop, || {
                    with_game(*kind, position, heuristic, Move { engine, limits, algo })
                })?
                .map_err(|e| run_error(py, e))?
            }
            Source::Python(obj, has_hash) => {
                if !has_hash {
                    return Err(package_error(
                        py,
                        "UnsupportedSearch",
                        "the engine keeps a transposition table: the game needs a hash(pos) method".into(),
                    ));
                }
                if let Some((n, _)) = engine.threads() {
                    warn(py, &format!("threads={n}: a Python game is searched on one thread"))?;
                }
                search_py_game(py, obj, depth, &stop, |game: &PyGame<'_>| {
                    // A Python game is not shared between threads.
                    let found = engine.best_move_single(game, &limits);
                    engine_move(found, algo, |m| BestMove::Index(m as usize))
                })?
            }
            _ => unreachable!("checked above"),
        };
        solution_dict(py, &solution)
    }

    fn __repr__(&self) -> String {
        format!("stockman.Engine({:?})", self.algorithm.name())
    }
}

/// One engine move as a solution.
fn engine_move<M>(
    found: Result<stockman::Outcome<M>, SearchError>,
    algo: Algorithm,
    name: impl Fn(M) -> BestMove,
) -> Solution<BestMove> {
    match found {
        Ok(out) => Solution {
            algorithm: algo,
            deepened: true,
            value: out.value,
            bound: out.bound,
            proven: None,
            best_move: out.best_move.map(&name),
            best_index: out.best_index,
            stats: out.stats,
            depth_completed: out.depth_completed,
            stopped_by: out.stopped_by,
            leaves: None,
            error: None,
        },
        Err(e) => Solution::failed(algo, true, e),
    }
}

/// The names of every algorithm, baselines first.
#[pyfunction]
fn algorithm_names() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// The names of the algorithms that need a transposition table (and so a
/// game with `hash()`).
#[pyfunction]
fn table_algorithm_names() -> Vec<&'static str> {
    Algorithm::ALL
        .iter()
        .filter(|a| a.needs_table())
        .map(|a| a.name())
        .collect()
}

#[pymodule]
fn _stockman(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_positions, m)?)?;
    m.add_function(wrap_pyfunction!(trace_json, m)?)?;
    m.add_function(wrap_pyfunction!(trace_html, m)?)?;
    m.add_function(wrap_pyfunction!(algorithm_names, m)?)?;
    m.add_function(wrap_pyfunction!(table_algorithm_names, m)?)?;
    m.add_class::<RandomTree>()?;
    m.add_class::<BuiltinGame>()?;
    m.add_class::<Engine>()?;
    m.add("VALUE_MIN", VALUE_MIN)?;
    m.add("VALUE_MAX", VALUE_MAX)?;
    m.add("MAX_MOVES", MAX_MOVES)?;
    m.add("MAX_PLIES", MAX_PLIES)?;
    m.add("MAX_TABLE_MB", stockman::MAX_TABLE_MB)?;
    m.add("MAX_THREADS", stockman::run::MAX_THREADS)?;
    m.add("DEFAULT_GAME_TABLE_MB", stockman::run::DEFAULT_GAME_TABLE_MB)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
