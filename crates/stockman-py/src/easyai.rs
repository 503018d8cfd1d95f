//! easyAI's games searched as they are: `stockman.easyai(game)` wraps an
//! `easyAI.TwoPlayerGame`, and the search calls the game's own methods
//! (`possible_moves`, `make_move`, `unmake_move`, `switch_player`,
//! `is_over`, `scoring`, `ttentry`) from Rust, with no adapter written in
//! Python between them: a Python frame per call was what kept a search
//! through an adapter slower than easyAI's own Negamax.

use crate::pygame::call_1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyList, PyString};
use stockman::{Value, VALUE_MAX, VALUE_MIN};

/// An easyAI game marked for stockman: what `stockman.easyai(game,
/// scoring=None)` returns and `solve`, `trace` and `Engine` accept.
#[pyclass(module = "stockman", name = "EasyAIGame", frozen)]
pub(crate) struct EasyAiGame {
    /// The `TwoPlayerGame`.
    #[pyo3(get)]
    pub(crate) game: Py<PyAny>,
    /// A scoring function `f(game)`, or `None` for the game's `scoring()`.
    #[pyo3(get)]
    pub(crate) scoring: Option<Py<PyAny>>,
}

#[pymethods]
impl EasyAiGame {
    #[new]
    #[pyo3(signature = (game, scoring=None))]
    fn new(py: Python<'_>, game: Py<PyAny>, scoring: Option<Py<PyAny>>) -> PyResult<Self> {
        let g = game.bind(py);
        let mut needs = vec!["possible_moves", "make_move", "switch_player", "is_over"];
        if scoring.is_none() {
            needs.push("scoring");
        }
        if !g.hasattr("unmake_move")? {
            needs.push("copy");
        }
        for m in needs {
            if !g.hasattr(m)? {
                return Err(PyTypeError::new_err(format!(
                    "an easyAI game needs possible_moves(), make_move(move), switch_player(), is_over(), \
                     scoring() (or scoring=) and unmake_move(move) or copy(); {} has no `{m}`",
                    g.get_type().name()?
                )));
            }
        }
        if let Some(s) = &scoring {
            if !s.bind(py).is_callable() {
                return Err(PyTypeError::new_err(
                    "scoring must be a function of the game, scoring(game)",
                ));
            }
        }
        Ok(EasyAiGame { game, scoring })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("stockman.easyai({})", self.game.bind(py).repr()?))
    }
}

impl EasyAiGame {
    /// Whether the game has `ttentry()`, the key easyAI's tables use: the
    /// table-driven searches hash it.
    pub(crate) fn has_hash(&self, py: Python<'_>) -> PyResult<bool> {
        self.game.bind(py).hasattr("ttentry")
    }
}

/// The searches' view of an easyAI game: its methods, bound once when
/// the game is played in place (it has `unmake_move`, as easyAI's own
/// Negamax then uses it), or looked up on each copy otherwise.
pub(crate) struct EasyAi<'py> {
    /// The game object: the root (in place, the one object searched).
    game: Bound<'py, PyAny>,
    in_place: bool,
    is_over: Bound<'py, PyString>,
    possible_moves: Bound<'py, PyString>,
    make_move: Bound<'py, PyString>,
    switch_player: Bound<'py, PyString>,
    ttentry: Bound<'py, PyString>,
    /// The game has `ttentry()`.
    has_ttentry: bool,
    /// The methods in place: `is_over`, `possible_moves`, `make_move`,
    /// `switch_player`, `unmake_move`, `scoring` (or `None` when a scoring
    /// function was given), `ttentry` (if any).
    fns: Option<[Option<Bound<'py, PyAny>>; 7]>,
    /// `scoring(game)`, when given.
    scoring: Option<Bound<'py, PyAny>>,
    /// The search's depth: a leaf at ply p is worth `scoring() * (1000 +
    /// depth - p)`, easyAI Negamax's `scoring() * (1 + 0.001 * depth_left)`
    /// in thousandths (a quicker win is worth more).
    depth: Option<u32>,
}

const IS_OVER: usize = 0;
const POSSIBLE_MOVES: usize = 1;
const MAKE_MOVE: usize = 2;
const SWITCH_PLAYER: usize = 3;
const UNMAKE_MOVE: usize = 4;
const SCORING: usize = 5;
const TTENTRY: usize = 6;

impl<'py> EasyAi<'py> {
    pub(crate) fn new(wrapper: &EasyAiGame, py: Python<'py>, depth: Option<u32>) -> PyResult<Self> {
        let game = wrapper.game.bind(py).clone();
        let in_place = game.hasattr("unmake_move")?;
        let scoring = wrapper.scoring.as_ref().map(|s| s.bind(py).clone());
        let has_ttentry = game.hasattr("ttentry")?;
        let fns = if in_place {
            let get = |name: &str| game.getattr(name).map(Some);
            Some([
                get("is_over")?,
                get("possible_moves")?,
                get("make_move")?,
                get("switch_player")?,
                get("unmake_move")?,
                if scoring.is_some() { None } else { get("scoring")? },
                if has_ttentry { get("ttentry")? } else { None },
            ])
        } else {
            None
        };
        Ok(EasyAi {
            game,
            in_place,
            is_over: pyo3::intern!(py, "is_over").clone(),
            possible_moves: pyo3::intern!(py, "possible_moves").clone(),
            make_move: pyo3::intern!(py, "make_move").clone(),
            switch_player: pyo3::intern!(py, "switch_player").clone(),
            ttentry: pyo3::intern!(py, "ttentry").clone(),
            has_ttentry,
            fns,
            scoring,
            depth,
        })
    }

    /// Whether the game is played in place (`make`/`unmake`).
    pub(crate) fn in_place(&self) -> bool {
        self.in_place
    }

    /// The game object, the search's root.
    pub(crate) fn root_object(&self) -> Bound<'py, PyAny> {
        self.game.clone()
    }

    /// Calls method `i` (named `name`) of `game`: the bound method in
    /// place, else looked up on this copy.
    fn call0(&self, game: &Bound<'py, PyAny>, i: usize, name: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
        match self.fns.as_ref().and_then(|f| f[i].as_ref()) {
            Some(f) => f.call0(),
            None => game.call_method0(name),
        }
    }

    /// The moves of `game`: none when `is_over()`, else `possible_moves()`.
    pub(crate) fn moves(&self, game: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if self.call0(game, IS_OVER, &self.is_over)?.is_truthy()? {
            return Ok(PyList::empty(game.py()).into_any());
        }
        self.call0(game, POSSIBLE_MOVES, &self.possible_moves)
    }

    /// In place: `make_move(m)`, then `switch_player()`.
    pub(crate) fn make(&self, m: &Bound<'py, PyAny>) -> PyResult<()> {
        let f = self.fns.as_ref().expect("in place");
        call_1(f[MAKE_MOVE].as_ref().expect("make_move"), m)?;
        f[SWITCH_PLAYER].as_ref().expect("switch_player").call0()?;
        Ok(())
    }

    /// In place: `switch_player()`, then `unmake_move(m)`.
    pub(crate) fn unmake(&self, m: &Bound<'py, PyAny>) -> PyResult<()> {
        let f = self.fns.as_ref().expect("in place");
        f[SWITCH_PLAYER].as_ref().expect("switch_player").call0()?;
        call_1(f[UNMAKE_MOVE].as_ref().expect("unmake_move"), m)?;
        Ok(())
    }

    /// Without `unmake_move`: a `copy()` of `game` with `m` made, as easyAI's
    /// Negamax plays such games.
    pub(crate) fn play(&self, game: &Bound<'py, PyAny>, m: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let child = game.call_method0(pyo3::intern!(game.py(), "copy"))?;
        child.call_method1(&self.make_move, (m,))?;
        child.call_method0(&self.switch_player)?;
        Ok(child)
    }

    /// The leaf `game` at `ply`, from the root mover's side (stockman's
    /// MAX): the score from the side to move, times `1000 + depth left`.
    pub(crate) fn evaluate(&self, game: &Bound<'py, PyAny>, ply: u32) -> PyResult<Value> {
        let s = match &self.scoring {
            Some(f) => call_1(f, game)?,
            None => self.call0(game, SCORING, pyo3::intern!(game.py(), "scoring"))?,
        };
        let factor = 1000 + i64::from(self.depth.map_or(0, |d| d.saturating_sub(ply)));
        let scaled = if let Ok(i) = s.downcast::<PyInt>() {
            i.extract::<i64>().ok().and_then(|i| i.checked_mul(factor))
        } else if let Ok(f) = s.downcast::<PyFloat>() {
            let x = (f.value() * factor as f64).round();
            (x.is_finite() && x.abs() < 1e18).then_some(x as i64)
        } else {
            return Err(PyValueError::new_err(format!(
                "scoring() must return a number, got {}: {}",
                s.get_type().name()?,
                s.repr()?
            )));
        };
        let v = scaled
            .filter(|v| (i64::from(VALUE_MIN)..=i64::from(VALUE_MAX)).contains(v))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "scoring() returned {}; times {factor} (the depth factor, in thousandths) it is outside \
                     stockman's value range {VALUE_MIN}..={VALUE_MAX}",
                    s.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })? as Value;
        Ok(if ply.is_multiple_of(2) { v } else { -v })
    }

    /// Whether the table-driven searches can hash the game (`ttentry()`).
    pub(crate) fn hashes(&self) -> bool {
        self.has_ttentry
    }

    /// `hash(ttentry())`, the key of easyAI's own tables.
    pub(crate) fn hash(&self, game: &Bound<'py, PyAny>) -> PyResult<u64> {
        let key = self.call0(game, TTENTRY, &self.ttentry)?;
        Ok(key.hash()? as u64)
    }
}
