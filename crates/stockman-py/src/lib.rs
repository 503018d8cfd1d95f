//! The Rust half of the `stockman` Python package: searches of every
//! algorithm on explicit trees, random trees, the built-in games and games
//! written in Python, answered as JSON text in the CLI's contract (the
//! Python half, `python/stockman/__init__.py`, turns it into dicts and
//! raises `SearchLimit`).
// `stockman::SearchError` carries the stopped search's `Stats` and what it
// proved; it is returned once per search, so its size costs nothing here.
#![allow(clippy::result_large_err)]

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use serde::Serialize;
use std::cell::RefCell;
use std::time::Duration;
use stockman::algorithms::iterative;
use stockman::{
    Algorithm, ChessGame, ConnectFour, ExplicitTree, Game, LeafRecorder, NoObserver, Observer, Othello, Outcome,
    Playable, RandomSpec, Role, SearchError, SearchOptions, Stats, TableSize, TicTacToe, Tracer, Value, VALUE_MAX,
    VALUE_MIN,
};

/// One algorithm's result: the fields and meaning of the CLI's
/// `solve --format json` rows (crates/stockman-cli/src/report.rs), which
/// the Python tests compare it with.
#[derive(Serialize)]
struct Row {
    algorithm: String,
    value: Option<Value>,
    best_move: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound: Option<[Value; 2]>,
    stats: Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth_completed: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    leaves: Option<Vec<Vec<u32>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// Whether `error` is a node or time limit (the Python side raises `SearchLimit`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    limit: bool,
}

/// What to run: the options of `solve`.
struct Job {
    algorithms: Vec<Algorithm>,
    opts: SearchOptions,
    leaves: bool,
    iterative: bool,
}

impl Job {
    fn rows<G: Game>(&self, game: &G, best: &dyn Fn(&Outcome<G::Move>) -> Option<serde_json::Value>) -> Vec<Row> {
        self.algorithms.iter().map(|&a| self.row(game, a, best)).collect()
    }

    fn row<G: Game>(
        &self,
        game: &G,
        algo: Algorithm,
        best: &dyn Fn(&Outcome<G::Move>) -> Option<serde_json::Value>,
    ) -> Row {
        let deepen = self.iterative && !algo.is_best_first();
        let name = if deepen {
            format!("{}+id", algo.name())
        } else {
            algo.name().to_string()
        };
        let (result, leaves) = if self.leaves {
            let mut rec = LeafRecorder::default();
            let r = search(game, algo, &self.opts, deepen, &mut rec);
            let paths = r.is_ok().then(|| rec.paths());
            (r, paths)
        } else {
            (search(game, algo, &self.opts, deepen, &mut NoObserver), None)
        };
        match result {
            Ok(out) => Row {
                algorithm: name,
                value: out.value,
                best_move: best(&out),
                bound: out.bound.map(|(a, b)| [a, b]),
                stats: out.stats,
                depth_completed: out.depth_completed,
                stopped_by: out.stopped_by.map(|l| l.to_string()),
                leaves,
                error: None,
                limit: false,
            },
            Err(e) => Row {
                algorithm: name,
                value: None,
                best_move: None,
                bound: None,
                stats: e.stats().copied().unwrap_or_default(),
                depth_completed: None,
                stopped_by: None,
                leaves: None,
                limit: e.limit().is_some(),
                error: Some(e.to_string()),
            },
        }
    }
}

fn search<G: Game, O: Observer>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    deepen: bool,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    if deepen {
        iterative::search_observed(game, algo, opts, obs)
    } else {
        algo.search_observed(game, opts, obs)
    }
}

/// Runs `f` on a thread whose stack fits a tree `height` deep, without the
/// GIL (only for searches that never call back into Python).
fn with_stack<T: Send>(py: Python<'_>, height: u64, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let size = (64 << 20) + (height as usize).saturating_mul(2048);
    py.allow_threads(|| {
        std::thread::scope(|s| {
            let t = std::thread::Builder::new()
                .stack_size(size)
                .spawn_scoped(s, f)
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
            t.join()
                .map_err(|_| PyRuntimeError::new_err("the search thread panicked"))
        })
    })
}

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

/// A built-in game at a position in its notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    Connect4,
    TicTacToe,
    Othello,
    Chess,
}

impl Builtin {
    /// Runs `f` on the game `self` at `position` (in the game's notation).
    fn with<T>(self, position: &str, f: impl BuiltinTask<Output = T>) -> PyResult<T> {
        fn parse<G: Playable>(position: &str) -> PyResult<G> {
            G::from_position(position).map_err(|e| PyValueError::new_err(format!("position `{position}`: {e}")))
        }
        match self {
            Builtin::Connect4 => f.run(parse::<ConnectFour>(position)?),
            Builtin::TicTacToe => f.run(parse::<TicTacToe>(position)?),
            Builtin::Othello => f.run(parse::<Othello>(position)?),
            Builtin::Chess => f.run(parse::<ChessGame>(position)?),
        }
    }
}

/// Something done with a built-in game of any kind, generic over the game.
trait BuiltinTask {
    type Output;
    fn run<G: Playable + Send>(self, game: G) -> PyResult<Self::Output>;
}

/// A position of a built-in game, checked when it is made.
#[pyclass(module = "stockman._stockman", frozen)]
struct BuiltinGame {
    kind: Builtin,
    position: String,
}

#[pymethods]
impl BuiltinGame {
    #[new]
    fn new(name: &str, position: &str) -> PyResult<BuiltinGame> {
        let kind = match name {
            "connect4" => Builtin::Connect4,
            "tictactoe" => Builtin::TicTacToe,
            "othello" => Builtin::Othello,
            "chess" => Builtin::Chess,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown game `{other}` (known: connect4, tictactoe, othello, chess)"
                )))
            }
        };
        struct Check;
        impl BuiltinTask for Check {
            type Output = ();
            fn run<G: Playable + Send>(self, _game: G) -> PyResult<()> {
                Ok(())
            }
        }
        kind.with(position, Check)?;
        Ok(BuiltinGame {
            kind,
            position: position.to_string(),
        })
    }

    /// The game's name (`connect4`, `tictactoe`, `othello`, `chess`).
    #[getter]
    fn name(&self) -> &'static str {
        match self.kind {
            Builtin::Connect4 => "connect4",
            Builtin::TicTacToe => "tictactoe",
            Builtin::Othello => "othello",
            Builtin::Chess => "chess",
        }
    }

    /// The moves played, as given.
    #[getter]
    fn position(&self) -> String {
        self.position.clone()
    }

    /// The board.
    fn board(&self) -> String {
        struct Show;
        impl BuiltinTask for Show {
            type Output = String;
            fn run<G: Playable + Send>(self, game: G) -> PyResult<String> {
                Ok(game.to_string())
            }
        }
        self.kind.with(&self.position, Show).unwrap_or_default()
    }
}

/// A game written in Python: an object with `root()`, `role(pos)`
/// (`"max"`/`"min"`), `moves(pos)`, `play(pos, move)`, `evaluate(pos)` and
/// optionally `hash(pos)`. Positions and moves are any Python objects; a
/// position remembers its move list, so `play` never asks for it again.
struct PyGame<'py> {
    obj: Bound<'py, PyAny>,
    /// The bound methods, looked up once rather than at every call.
    role_fn: Bound<'py, PyAny>,
    moves_fn: Bound<'py, PyAny>,
    play_fn: Bound<'py, PyAny>,
    evaluate_fn: Bound<'py, PyAny>,
    hash_fn: Option<Bound<'py, PyAny>>,
    has_hash: bool,
    /// The first exception a callback raised (or a bad value it returned):
    /// the search is stopped at once and this is raised to the caller.
    failed: RefCell<Option<PyErr>>,
}

/// A position of a [`PyGame`], with its move list once asked for.
#[derive(Clone, Debug)]
struct PyPos<'py> {
    obj: Bound<'py, PyAny>,
    moves: std::rc::Rc<RefCell<Option<Vec<Bound<'py, PyAny>>>>>,
}

impl<'py> PyPos<'py> {
    fn new(obj: Bound<'py, PyAny>) -> Self {
        PyPos {
            obj,
            moves: Default::default(),
        }
    }
}

/// What evaluation answers once a callback failed: outside the value range,
/// so that the search stops at once with `ValueOutOfRange`.
const FAILED: Value = VALUE_MAX.saturating_add(1);

impl<'py> PyGame<'py> {
    fn new(obj: Bound<'py, PyAny>) -> PyResult<Self> {
        for m in ["root", "role", "moves", "play", "evaluate"] {
            if !obj.hasattr(m)? {
                return Err(PyTypeError::new_err(format!(
                    "a game needs the methods root(), role(pos), moves(pos), play(pos, move) and evaluate(pos); \
                     {} has no `{m}`",
                    obj.get_type().name()?
                )));
            }
        }
        let hash_fn = match obj.getattr("hash") {
            Ok(h) if !h.is_none() => Some(h),
            _ => None,
        };
        Ok(PyGame {
            role_fn: obj.getattr("role")?,
            moves_fn: obj.getattr("moves")?,
            play_fn: obj.getattr("play")?,
            evaluate_fn: obj.getattr("evaluate")?,
            has_hash: hash_fn.is_some(),
            hash_fn,
            obj,
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
        let mut out = Vec::new();
        for m in list.try_iter().map_err(|_| {
            PyValueError::new_err(format!(
                "moves() must return an iterable of moves, got {}",
                list.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })? {
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
}

impl<'py> Game for PyGame<'py> {
    type Position = PyPos<'py>;
    type Move = u32;

    fn root(&self) -> PyPos<'py> {
        match self.obj.call_method0("root") {
            Ok(p) => PyPos::new(p),
            Err(e) => {
                self.fail(e);
                PyPos::new(self.obj.py().None().into_bound(self.obj.py()))
            }
        }
    }

    fn role(&self, pos: &PyPos<'py>) -> Role {
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
        // Move generation is deterministic (a `Game` requirement), so a
        // position asks Python once: SSS*'s OPEN list comes back to a
        // parent's moves many times.
        if let Some(list) = pos.moves.borrow().as_ref() {
            out.extend(0..list.len() as u32);
            return;
        }
        match self.list_moves(pos) {
            Ok(list) => {
                out.extend(0..list.len() as u32);
                *pos.moves.borrow_mut() = Some(list);
            }
            Err(e) => self.fail(e),
        }
    }

    fn play(&self, pos: &PyPos<'py>, mv: u32) -> PyPos<'py> {
        let cached = pos.moves.borrow().as_ref().and_then(|l| l.get(mv as usize).cloned());
        let m = match cached {
            Some(m) => Ok(m),
            None => self.list_moves(pos).and_then(|l| {
                let m = l.get(mv as usize).cloned();
                *pos.moves.borrow_mut() = Some(l);
                m.ok_or_else(|| PyValueError::new_err("moves() returned fewer moves than before for the same position"))
            }),
        };
        match m.and_then(|m| self.play_fn.call1((&pos.obj, m))) {
            Ok(p) => PyPos::new(p),
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
        if !self.has_hash || self.failed() {
            return self.has_hash.then_some(0);
        }
        let Some(hash_fn) = &self.hash_fn else { return None };
        let h = hash_fn.call1((&pos.obj,)).and_then(|v| {
            if v.is_instance_of::<pyo3::types::PyInt>() {
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

/// What `solve` and `trace` can search.
enum Source<'py> {
    Tree(ExplicitTree),
    Random(stockman::RandomTree),
    Builtin(Builtin, String),
    Python(PyGame<'py>),
}

fn resolve<'py>(obj: &Bound<'py, PyAny>, root: Role) -> PyResult<Source<'py>> {
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = text.to_cow()?;
        return ExplicitTree::parse(&text, root)
            .map(Source::Tree)
            .map_err(|e| PyValueError::new_err(format!("tree: {e}")));
    }
    if let Ok(t) = obj.downcast::<RandomTree>() {
        let mut spec = t.get().spec.clone();
        if root == Role::Min {
            spec.root_role = Role::Min;
        }
        return Ok(Source::Random(stockman::RandomTree::new(spec)));
    }
    if let Ok(g) = obj.downcast::<BuiltinGame>() {
        let g = g.get();
        return Ok(Source::Builtin(g.kind, g.position.clone()));
    }
    if obj.downcast::<PyList>().is_ok() {
        return Err(PyTypeError::new_err(
            "nested lists are turned into tree text by stockman.solve",
        ));
    }
    Ok(Source::Python(PyGame::new(obj.clone())?))
}

fn parse_role(root: &str) -> PyResult<Role> {
    root.parse()
        .map_err(|e: String| PyValueError::new_err(format!("root: {e}")))
}

fn parse_algorithms(list: &str) -> PyResult<Vec<Algorithm>> {
    Algorithm::parse_list(list).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A best move as the CLI names it: the child index on trees and Python
/// games, the column or cell (from 1) in the built-in games.
fn index_json<M>(o: &Outcome<M>) -> Option<serde_json::Value> {
    o.best_index.map(|i| serde_json::json!(i))
}

/// `stockman.solve`, answered as the JSON text of the CLI's rows.
#[pyfunction]
#[pyo3(signature = (source, algorithms, depth, root, max_nodes, time_limit, tt_mb, leaves, iterative))]
#[allow(clippy::too_many_arguments)]
fn solve_json(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    algorithms: &str,
    depth: Option<u32>,
    root: &str,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    tt_mb: Option<usize>,
    leaves: bool,
    iterative: bool,
) -> PyResult<String> {
    let role = parse_role(root)?;
    let algorithms = parse_algorithms(algorithms)?;
    let time_limit = match time_limit {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(
            Duration::try_from_secs_f64(t)
                .map_err(|_| PyValueError::new_err(format!("time_limit {t} is too large")))?,
        ),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "time_limit must be a positive number of seconds, got {t}"
            )))
        }
    };
    if tt_mb == Some(0) {
        return Err(PyValueError::new_err("tt_mb must be at least 1"));
    }
    let mut opts = SearchOptions {
        depth,
        max_nodes,
        time_limit,
        table: tt_mb.map_or(TableSize::Unbounded, TableSize::Megabytes),
        ..SearchOptions::default()
    };
    let src = resolve(source, role)?;
    let builtin = matches!(src, Source::Builtin(..));
    if builtin {
        // As `stockman solve --game`: a fixed table, its best move first.
        opts.table = TableSize::Megabytes(tt_mb.unwrap_or(64));
        opts.table_move_first = true;
    }
    if iterative {
        opts.table_move_first = true;
        opts.etc = true;
        opts.aspiration = Some(10);
    }
    let job = Job {
        algorithms,
        opts,
        leaves,
        iterative,
    };
    let rows = match src {
        Source::Tree(t) => {
            let h = u64::from(t.height());
            with_stack(py, h, || job.rows(&t, &index_json))?
        }
        Source::Random(t) => {
            let h = u64::from(t.spec().depth);
            with_stack(py, h, || job.rows(&t, &index_json))?
        }
        Source::Builtin(kind, position) => {
            needs_depth(kind, job.opts.depth)?;
            struct Rows<'a>(&'a Job);
            impl BuiltinTask for Rows<'_> {
                type Output = Vec<Row>;
                fn run<G: Playable + Send>(self, game: G) -> PyResult<Vec<Row>> {
                    Ok(builtin_rows(self.0, game))
                }
            }
            py.allow_threads(|| kind.with(&position, Rows(&job)))?
        }
        Source::Python(g) => {
            let rows = job.rows(&g, &index_json);
            if let Some(e) = g.take_failure() {
                return Err(e);
            }
            rows
        }
    };
    serde_json::to_string(&rows).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Chess cannot be searched to its end: refuse it without a depth rather
/// than run forever (as the command line does).
fn needs_depth(kind: Builtin, depth: Option<u32>) -> PyResult<()> {
    if kind == Builtin::Chess && depth.is_none() {
        return Err(PyValueError::new_err(
            "chess needs a depth: a chess game cannot be searched to its end (try depth=4)",
        ));
    }
    Ok(())
}

/// The rows of a built-in game, valued for depth-limited search when the
/// job has a depth; best moves in the game's notation (a number where it is one).
fn builtin_rows<G: Playable>(job: &Job, game: G) -> Vec<Row> {
    let game = if job.opts.depth.is_some() {
        game.heuristic()
    } else {
        game
    };
    let best = |o: &Outcome<G::Move>| {
        o.best_move.map(|m| {
            let t = game.move_text(m);
            t.parse::<u64>().map_or(serde_json::json!(t), |n| serde_json::json!(n))
        })
    };
    job.rows(&game, &best)
}

/// A whole trace as data: the text trace's content.
#[derive(Serialize)]
struct Trace {
    algorithm: String,
    value: Option<Value>,
    best_move: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound: Option<[Value; 2]>,
    stats: Stats,
    events: Vec<stockman::Event>,
}

fn traced<G: Game>(game: &G, algo: Algorithm, opts: &SearchOptions) -> Result<Trace, SearchError> {
    let mut tr = Tracer::default();
    let out = algo.search_observed(game, opts, &mut tr)?;
    Ok(Trace {
        algorithm: algo.name().to_string(),
        value: out.value,
        best_move: out.best_index,
        bound: out.bound.map(|(a, b)| [a, b]),
        stats: out.stats,
        events: tr.events,
    })
}

/// `stockman.trace`, answered as JSON text.
#[pyfunction]
#[pyo3(signature = (source, algorithm, depth, root))]
fn trace_json(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    algorithm: &str,
    depth: Option<u32>,
    root: &str,
) -> PyResult<String> {
    let role = parse_role(root)?;
    let algo: Algorithm = algorithm
        .parse()
        .map_err(|e: stockman::UnknownAlgorithm| PyValueError::new_err(e.to_string()))?;
    let opts = SearchOptions {
        depth,
        ..SearchOptions::default()
    };
    let result = match resolve(source, role)? {
        Source::Tree(t) => {
            let h = u64::from(t.height());
            with_stack(py, h, || traced(&t, algo, &opts))?
        }
        Source::Random(t) => {
            let h = u64::from(t.spec().depth);
            with_stack(py, h, || traced(&t, algo, &opts))?
        }
        Source::Builtin(kind, position) => {
            let o = SearchOptions {
                table: TableSize::Megabytes(16),
                ..opts.clone()
            };
            needs_depth(kind, depth)?;
            struct Traced<'a>(Algorithm, &'a SearchOptions);
            impl BuiltinTask for Traced<'_> {
                type Output = Result<Trace, SearchError>;
                fn run<G: Playable + Send>(self, game: G) -> PyResult<Self::Output> {
                    let g = if self.1.depth.is_some() { game.heuristic() } else { game };
                    Ok(traced(&g, self.0, self.1))
                }
            }
            kind.with(&position, Traced(algo, &o))?
        }
        Source::Python(g) => {
            let r = traced(&g, algo, &opts);
            if let Some(e) = g.take_failure() {
                return Err(e);
            }
            r
        }
    };
    let trace = result.map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(&trace).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The names of every algorithm, baselines first.
#[pyfunction]
fn algorithm_names() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

#[pymodule]
fn _stockman(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_json, m)?)?;
    m.add_function(wrap_pyfunction!(trace_json, m)?)?;
    m.add_function(wrap_pyfunction!(algorithm_names, m)?)?;
    m.add_class::<RandomTree>()?;
    m.add_class::<BuiltinGame>()?;
    m.add("VALUE_MIN", VALUE_MIN)?;
    m.add("VALUE_MAX", VALUE_MAX)?;
    Ok(())
}
