//! What can be searched: random trees, built-in games, trees and Python
//! games, resolved from a Python argument.

use crate::easyai::EasyAiGame;
use crate::errors::run_error;
use crate::pygame::check_game;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use stockman::run::SourceKind;
use stockman::run::{with_game, GameKind, GameTask};
use stockman::{ExplicitTree, Playable, RandomSpec, Role};

/// A seeded random tree of the research models: `width=8,depth=8,seed=1`,
/// with optional `model=iid|incremental`, `range=LO..HI`, `variable=true`,
/// `order=P`, `root=max|min` (as `stockman solve --random`).
#[pyclass(module = "stockman._stockman", frozen)]
pub(crate) struct RandomTree {
    spec: RandomSpec,
    /// The spec as given: whether it names its root (`root=max` too) is
    /// known only from the text.
    text: String,
}

#[pymethods]
impl RandomTree {
    #[new]
    fn new(spec: &str) -> PyResult<RandomTree> {
        let text = spec.to_owned();
        let spec = RandomSpec::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(RandomTree { spec, text })
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
pub(crate) struct BuiltinGame {
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
            GameKind::Checkers => "Checkers",
        };
        format!("stockman.{class}({:?})", self.position)
    }
}

/// What `solve`, `trace` and the engine can search.
pub(crate) enum Source {
    Tree(ExplicitTree),
    Random(stockman::RandomTree),
    Builtin(GameKind, String),
    Python(Py<PyAny>, bool),
}

impl Source {
    pub(crate) fn kind(&self) -> SourceKind {
        match self {
            Source::Builtin(kind, _) => SourceKind::Game(*kind),
            _ => SourceKind::Tree,
        }
    }
}

pub(crate) fn resolve(obj: &Bound<'_, PyAny>, root: Option<&str>) -> PyResult<Source> {
    let asked = root
        .map(|r| {
            r.parse::<Role>()
                .map_err(|e: String| PyValueError::new_err(format!("root: {e}")))
        })
        .transpose()?;
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = text.to_cow()?;
        // A tree text may declare its root (`# root: min`): root= must agree.
        return ExplicitTree::parse_file(&text, asked)
            .map(Source::Tree)
            .map_err(|e| PyValueError::new_err(format!("tree: {e}")));
    }
    if let Ok(t) = obj.downcast::<RandomTree>() {
        // A spec that names its root (root=min or root=max) and another
        // root= asked is a conflict, never a silent choice.
        let spec = RandomSpec::parse_with_root(&t.get().text, asked)
            .map_err(|e| PyValueError::new_err(format!("root: {e}")))?;
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
    if let Ok(g) = obj.downcast::<EasyAiGame>() {
        not_for_games("an easyAI game's side to move is MAX")?;
        let has_hash = g.get().has_hash(obj.py())?;
        return Ok(Source::Python(obj.clone().unbind(), has_hash));
    }
    let has_hash = check_game(obj)?;
    not_for_games("a Python game's roles come from its role() method")?;
    Ok(Source::Python(obj.clone().unbind(), has_hash))
}
