//! The game-playing engine.

use crate::errors::{package_error, run_error, table_error};
use crate::pygame::PyGame;
use crate::running::{run_search, solution_dict, BestMove};
use crate::search::{builtin_stack, parallel_of, search_py_game, seconds, warn};
use crate::sources::{resolve, Source};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use stockman::run::{with_game, GameTask, RunError, Solution};
use stockman::{Algorithm, Limits, Playable, SearchError, TableSize, Value};

/// A game-playing engine: iterative deepening with one depth-first
/// algorithm, keeping its transposition table and move-ordering
/// heuristics between the moves of a game (the library's `Engine`).
#[pyclass(module = "stockman._stockman")]
pub(crate) struct Engine {
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
        stockman::Engine::accepts(algo).map_err(|e| PyValueError::new_err(format!("algorithm: {e}")))?;
        if let Some(mb) = tt_mb {
            TableSize::Megabytes(mb).check().map_err(table_error)?;
        }
        let settings = stockman::run::EngineSettings {
            algorithm: algo,
            tt_mb: tt_mb.unwrap_or(stockman::run::DEFAULT_GAME_TABLE_MB),
            enhancements: stockman::run::Enhancements {
                history,
                killers,
                etc,
                aspiration: aspiration.map(|a| (a > 0).then_some(a)),
                table_move,
                ..Default::default()
            },
            threads,
            parallel,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let inner = py
            .allow_threads(|| settings.build(Some(stop.clone())))
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
                search_py_game(py, obj, depth, |game: &PyGame<'_>| {
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
