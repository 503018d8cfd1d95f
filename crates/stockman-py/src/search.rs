//! `stockman.solve`: the search settings, the stack a search needs, and
//! running a search of any source.

use crate::errors::{run_error, table_error};
use crate::pygame::PyGame;
use crate::running::{give_back, internal_error, run_search, solution_dict, take_runner, BestMove};
use crate::sources::{resolve, Source};
use crate::MAX_PLIES;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use stockman::run::Request;
use stockman::run::{stack_bytes, with_game, GameTask, Runner, Settings, Solution};
use stockman::{Algorithm, Game, Playable, TableSize};

/// What a Python game's search keeps free on the stack besides its plies:
/// its own frames and the game's Python.
const PY_GAME_STACK: usize = 4 << 20;

/// The stack a search of `depth` plies needs.
pub(crate) fn stack_for(depth: u32) -> usize {
    stack_bytes(u64::from(depth))
}

/// The stack a search of a built-in game needs: the depth asked for, plus
/// room for a game to its end (and chess's quiescence search).
pub(crate) fn builtin_stack(depth: Option<u32>) -> usize {
    stack_for(depth.unwrap_or(0).saturating_add(200))
}

/// Runs `f` on the Python game `obj` on the calling thread, which holds the
/// GIL for the game's methods anyway: no thread is started and no GIL
/// changes hands, so a small search costs what its callbacks cost (a thread
/// per call cost about 0.4 ms against easyAI's tic-tac-toe). The stack is
/// grown on the heap when less than a search of `depth` plies (or
/// [`MAX_PLIES`]) needs is left; the game checks for signals as it goes,
/// and the first exception the game raised (a `KeyboardInterrupt`
/// included) replaces `f`'s answer. A panic becomes `InternalError`.
pub(crate) fn search_py_game<T>(
    py: Python<'_>,
    obj: &Py<PyAny>,
    depth: Option<u32>,
    f: impl for<'g> FnOnce(&PyGame<'g>) -> T,
) -> PyResult<T> {
    let max_ply = depth.map_or(MAX_PLIES, |d| d.min(MAX_PLIES));
    // The search's plies and room for the game's own Python: a new stack
    // (a 64 MiB mapping made and dropped at every call: 4% of a small
    // search) only when the caller's has less left.
    let stack = PY_GAME_STACK.saturating_add((max_ply as usize + 64).saturating_mul(4096));
    let game = PyGame::new(obj.bind(py).clone(), depth)?;
    let out = stacker::maybe_grow(stack, stack, || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&game)))
    });
    // A game played in place stands where it started.
    game.restore();
    match out {
        Ok(out) => game.take_failure().map_or(Ok(out), Err),
        Err(p) => Err(internal_error(py, &*p)),
    }
}

/// A number of seconds given as `name`, checked.
pub(crate) fn seconds(name: &str, t: Option<f64>) -> PyResult<Option<Duration>> {
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
fn solve_shared<G: Game<Position: Send, Move: Send + Sync> + Sync>(
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
pub(crate) fn with_best<M>(s: Solution<M>, best: Option<BestMove>) -> Solution<BestMove> {
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

pub(crate) fn index_move<M>(s: &Solution<M>) -> Option<BestMove> {
    s.best_index.map(BestMove::Index)
}

/// The settings of a `solve` call.
#[allow(clippy::too_many_arguments)]
pub(crate) fn settings(
    algorithms: Option<Vec<String>>,
    depth: Option<u32>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    tt_mb: Option<usize>,
    leaves: bool,
    iterative: bool,
    threads: usize,
    parallel: Option<&str>,
    round_states: usize,
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
        round_states: Some(round_states),
        ..Settings::default()
    })
}

/// The `parallel=` argument.
pub(crate) fn parallel_of(parallel: Option<&str>) -> PyResult<Option<stockman::Parallel>> {
    parallel
        .map(|p| {
            p.parse()
                .map_err(|e: String| PyValueError::new_err(format!("parallel: {e}")))
        })
        .transpose()
}

/// Tells Python (as a `UserWarning`) what the CLI prints as a `note:`.
pub(crate) fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(message.replace('\0', " ")).expect("no NUL left");
    PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &text, 1)
}

/// `stockman.solve` (the Python half checks and documents the arguments):
/// one dict per algorithm.
#[pyfunction]
#[pyo3(signature = (source, algorithms=None, depth=None, root=None, max_nodes=None, time_limit=None, tt_mb=None, leaves=false, iterative=false, threads=1, parallel=None, select=None, memory=None, round_states=0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve<'py>(
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
    select: Option<&str>,
    memory: Option<usize>,
    round_states: usize,
) -> PyResult<Bound<'py, PyList>> {
    let source = resolve(source, root)?;
    let mut settings = settings(
        algorithms,
        depth,
        max_nodes,
        time_limit,
        tt_mb,
        leaves,
        iterative,
        threads,
        parallel,
        round_states,
    )?;
    settings.select = select
        .map(|s| {
            s.parse::<stockman::Select>()
                .map_err(|e| PyValueError::new_err(format!("select: {e}")))
        })
        .transpose()?;
    settings.memory = memory;
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
    request.options.control.stop = Some(stop.clone());
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
            let heuristic = request.options.limits.depth.is_some();
            run_search(py, builtin_stack(request.options.limits.depth), stop, || {
                with_game(*kind, position, heuristic, SolveGame { runner, request })
            })?
            .map_err(|e| run_error(py, e))
        }
        Source::Python(obj, _) => search_py_game(py, obj, request.options.limits.depth, |game: &PyGame<'_>| {
            solve_game(runner, game, request, index_move)
        }),
    }
}
