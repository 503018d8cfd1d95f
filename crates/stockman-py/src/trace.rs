//! `stockman.trace` and the HTML viewer.

use crate::errors::{run_error, table_error};
use crate::pygame::PyGame;
use crate::running::{give_back, run_search, take_runner, BestMove};
use crate::search::{builtin_stack, index_move, search_py_game, stack_for, with_best};
use crate::sources::{resolve, Source};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use stockman::run::Request;
use stockman::run::{with_game, GameTask, Runner, Settings, Solution};
use stockman::{Algorithm, Game, Playable, Tracer};

/// `stockman.trace`: one search with every step recorded, as JSON text
/// (the trace's events are serde values; the viewer reads the same JSON).
#[pyfunction]
#[pyo3(signature = (source, algorithm, depth=None, root=None))]
pub(crate) fn trace_json(
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
    request.options.control.stop = Some(stop.clone());
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
            let heuristic = request.options.limits.depth.is_some();
            run_search(py, builtin_stack(request.options.limits.depth), stop, || {
                with_game(*kind, position, heuristic, TraceGame { runner, request, algo })
            })?
            .map_err(|e| run_error(py, e))
        }
        Source::Python(obj, _) => search_py_game(py, obj, request.options.limits.depth, |game: &PyGame<'_>| {
            trace_one(runner, game, algo, request)
        }),
    }
}

/// The HTML viewer of `algorithms` on `source` (one: the step-by-step
/// viewer; several: the side-by-side comparison), as `stockman trace
/// --html` writes it. Sources of at most 500 nodes (to `depth`).
#[pyfunction]
#[pyo3(signature = (source, algorithms, depth=None, root=None, title=None))]
pub(crate) fn trace_html(
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
        Source::Python(obj, _) => search_py_game(py, obj, depth, |game: &PyGame<'_>| render(game, algos, opts, title))?,
    };
    page.map_err(PyValueError::new_err)
}
