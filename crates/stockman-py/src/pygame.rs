//! Games written in Python, behind the library's `Game` trait.

use crate::easyai::{EasyAi, EasyAiGame};
use crate::{MAX_MOVES, MAX_PLIES};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use stockman::{Game, Role, Value, VALUE_MAX, VALUE_MIN};

/// How many of a Python game's first `play()` calls are checked for a
/// mutated argument (by comparing its `repr()` before and after). A `play`
/// that changes its argument does so at once; each check costs two
/// `repr()`s, and 64 of them were 0.3 ms of a 2 ms search of 111 leaves
/// (easyAI's tic-tac-toe after three moves).
const CHECKED_PLAYS: u32 = 4;

/// The search asks Python whether a signal (Ctrl-C) arrived every this
/// many calls of `moves()` and `evaluate()`: the check reads the thread's
/// id, 6% of a small search when made at every call. (A handler raising in
/// the game's own Python code stops the search at once anyway.)
const SIGNAL_EVERY: u32 = 256;

/// A game written in Python, in one of two protocols:
///
/// - **positions**: an object with `root()`, `role(pos)` (`"max"`/`"min"`),
///   `moves(pos)`, `play(pos, move)` (a new position), `evaluate(pos)` and
///   optionally `hash(pos)`; positions are any Python objects;
/// - **in place**: an object that is its own current position, with
///   `make(move)` and `unmake(move)` changing it, and `role()`, `moves()`,
///   `evaluate()` and optionally `hash()` asked of it as it stands (as
///   python-chess's `push`/`pop` and easyAI's `make_move`/`unmake_move`
///   work). The adapter keeps the object at the position the search asks
///   about: a child is one `make`, a sibling an `unmake` and a `make`, and
///   a jump (best-first searches) goes down from the common ancestor. The
///   object is back at its starting position when the search ends.
///
/// Moves are any Python objects; a position keeps its move list, so that
/// `moves()` is asked once per position and every algorithm sees one order
/// whatever `moves()` does. A game whose `alternating` attribute is `True`
/// is asked `role()` for its root only: every move passes the turn to the
/// other side.
pub(crate) struct PyGame<'py> {
    obj: Bound<'py, PyAny>,
    /// The methods the search calls, by protocol.
    calls: Calls<'py>,
    /// The in-place protocols' state; `None` when positions are objects.
    in_place: Option<InPlace<'py>>,
    /// `"max"` and `"min"`, interned: `role()`'s answers are compared by
    /// identity first (a string literal is the interned string).
    max_str: Bound<'py, PyString>,
    min_str: Bound<'py, PyString>,
    /// The game declared `alternating = True`: roles come from the root's.
    alternating: bool,
    /// The root, made once: every search of a call starts from it.
    root: RefCell<Option<PyPos<'py>>>,
    /// `play()` calls so far (the first few are checked for mutation).
    plays: Cell<u32>,
    /// Calls since the last check for a signal ([`SIGNAL_EVERY`]).
    since_signal_check: Cell<u32>,
    /// The deepest ply allowed (the depth, or [`MAX_PLIES`]).
    max_ply: u32,
    /// The first exception a callback raised (or a bad value it returned):
    /// the search is stopped at once and this is raised to the caller.
    failed: RefCell<Option<PyErr>>,
}

/// A position of a [`PyGame`], with its move list once asked for.
#[derive(Clone, Debug)]
pub(crate) struct PyPos<'py> {
    /// The position (in place: the game object itself).
    obj: Bound<'py, PyAny>,
    moves: Rc<RefCell<Option<Vec<Bound<'py, PyAny>>>>>,
    ply: u32,
    /// The side to move, when known without asking `role()` (an
    /// alternating game's positions).
    role: Option<Role>,
    /// In place: the node of [`InPlace::nodes`] this position is.
    node: u32,
}

impl<'py> PyPos<'py> {
    fn new(obj: Bound<'py, PyAny>, ply: u32, role: Option<Role>) -> Self {
        PyPos {
            obj,
            moves: Default::default(),
            ply,
            role,
            node: 0,
        }
    }
}

/// The methods a search calls: the game's own, in the positions or the
/// in-place protocol, or an easyAI game's.
enum Calls<'py> {
    Methods(Methods<'py>),
    EasyAi(EasyAi<'py>),
}

/// A game's own methods, bound once rather than looked up at every call.
struct Methods<'py> {
    /// `root()`; none in place, where the object is the root.
    root: Option<Bound<'py, PyAny>>,
    role: Bound<'py, PyAny>,
    moves: Bound<'py, PyAny>,
    /// `play(pos, move)`, or `make(move)` in place.
    play: Bound<'py, PyAny>,
    /// In place: `unmake(move)`.
    unmake: Option<Bound<'py, PyAny>>,
    evaluate: Bound<'py, PyAny>,
    hash: Option<Bound<'py, PyAny>>,
}

/// The in-place protocols' bookkeeping: every position the search made,
/// as (parent, move), and the path of positions the object stands at.
/// It grows by 16 bytes per position played (a Python search visits tens
/// of thousands a second, so a minute's search keeps tens of megabytes).
struct InPlace<'py> {
    /// Node 0 is the root; a node is its parent and the move from it.
    nodes: RefCell<Vec<(u32, Option<Bound<'py, PyAny>>)>>,
    /// The nodes from the root to the object's current position.
    path: RefCell<Vec<u32>>,
}

/// `f(a)` without the argument tuple `call1` builds: under the stable ABI
/// (abi3) a tuple per call was about 2% of a search of easyAI's tic-tac-toe
/// (CPython passes the arguments on the stack instead).
pub(crate) fn call_1<'py>(f: &Bound<'py, PyAny>, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: both pointers are live objects held by the GIL-bound
    // references; the argument list ends with NULL, as the function asks.
    unsafe {
        let r = pyo3::ffi::PyObject_CallFunctionObjArgs(
            f.as_ptr(),
            a.as_ptr(),
            std::ptr::null_mut::<pyo3::ffi::PyObject>(),
        );
        Bound::from_owned_ptr_or_err(f.py(), r)
    }
}

/// `f(a, b)`, as [`call_1`].
pub(crate) fn call_2<'py>(
    f: &Bound<'py, PyAny>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: as in `call_1`.
    unsafe {
        let r = pyo3::ffi::PyObject_CallFunctionObjArgs(
            f.as_ptr(),
            a.as_ptr(),
            b.as_ptr(),
            std::ptr::null_mut::<pyo3::ffi::PyObject>(),
        );
        Bound::from_owned_ptr_or_err(f.py(), r)
    }
}

/// What evaluation answers once a callback failed: outside the value range,
/// so that the search stops at once with `ValueOutOfRange`.
const FAILED: Value = VALUE_MAX.saturating_add(1);

/// Whether `obj` plays in place (it has `make` and `unmake`).
fn plays_in_place(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(obj.hasattr("make")? && obj.hasattr("unmake")?)
}

/// Checks that `obj` has a game's methods; names the missing one.
pub(crate) fn check_game(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let (methods, protocol): (&[&str], &str) = if plays_in_place(obj)? {
        (
            &["role", "moves", "make", "unmake", "evaluate"],
            "a game played in place needs the methods make(move), unmake(move), role(), moves() and evaluate()",
        )
    } else {
        (
            &["root", "role", "moves", "play", "evaluate"],
            "a game needs the methods root(), role(pos), moves(pos), play(pos, move) and evaluate(pos) \
             (or, played in place, make(move), unmake(move), role(), moves() and evaluate())",
        )
    };
    for m in methods {
        if !obj.hasattr(*m)? {
            return Err(PyTypeError::new_err(format!(
                "{protocol}; {} has no `{m}`",
                obj.get_type().name()?
            )));
        }
    }
    Ok(matches!(obj.getattr("hash"), Ok(h) if !h.is_none()))
}

/// The game's `alternating` attribute: absent or None is `False`.
fn alternating(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    match obj.getattr("alternating") {
        Ok(a) if a.is_none() => Ok(false),
        Ok(a) => a.downcast::<PyBool>().map(|b| b.is_true()).map_err(|_| {
            PyTypeError::new_err(format!(
                "a game's `alternating` must be True or False, got {}",
                a.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        }),
        Err(_) => Ok(false),
    }
}

impl<'py> PyGame<'py> {
    /// The game `obj` (a game object, or an easyAI game marked by
    /// `stockman.easyai`) for a search of `depth` plies (`None`: to the end).
    pub(crate) fn new(obj: Bound<'py, PyAny>, depth: Option<u32>) -> PyResult<Self> {
        let max_ply = depth.map_or(MAX_PLIES, |d| d.min(MAX_PLIES));
        let py = obj.py();
        let (obj, calls, in_place, alternating) = if let Ok(e) = obj.downcast::<EasyAiGame>() {
            let e = EasyAi::new(e.get(), py, depth)?;
            let in_place = e.in_place();
            // easyAI's moves always pass the turn; the root's mover is MAX.
            (e.root_object(), Calls::EasyAi(e), in_place, true)
        } else {
            let has_hash = check_game(&obj)?;
            let in_place = plays_in_place(&obj)?;
            let methods = Methods {
                root: if in_place { None } else { Some(obj.getattr("root")?) },
                role: obj.getattr("role")?,
                moves: obj.getattr("moves")?,
                play: obj.getattr(if in_place { "make" } else { "play" })?,
                unmake: if in_place { Some(obj.getattr("unmake")?) } else { None },
                evaluate: obj.getattr("evaluate")?,
                hash: if has_hash { Some(obj.getattr("hash")?) } else { None },
            };
            let alternating = alternating(&obj)?;
            (obj, Calls::Methods(methods), in_place, alternating)
        };
        Ok(PyGame {
            max_str: pyo3::intern!(py, "max").clone(),
            min_str: pyo3::intern!(py, "min").clone(),
            alternating,
            calls,
            in_place: in_place.then(|| InPlace {
                nodes: RefCell::new(vec![(0, None)]),
                path: RefCell::new(vec![0]),
            }),
            obj,
            root: RefCell::new(None),
            plays: Cell::new(0),
            since_signal_check: Cell::new(0),
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

    pub(crate) fn take_failure(&self) -> Option<PyErr> {
        self.failed.borrow_mut().take()
    }

    /// Asks Python for a pending signal every [`SIGNAL_EVERY`] calls: the
    /// search runs on the caller's thread, and Ctrl-C is seen here.
    fn signals(&self) -> PyResult<()> {
        let n = self.since_signal_check.get() + 1;
        if n < SIGNAL_EVERY {
            self.since_signal_check.set(n);
            return Ok(());
        }
        self.since_signal_check.set(0);
        self.obj.py().check_signals()
    }

    /// Calls `f` about `pos`: with the position as its argument, or, in
    /// place, with none once the object stands at `pos`.
    fn ask(&self, f: &Bound<'py, PyAny>, pos: &PyPos<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.in_place {
            None => call_1(f, &pos.obj),
            Some(ip) => {
                self.stand_at(ip, pos.node)?;
                f.call0()
            }
        }
    }

    /// Puts the object at `pos` when the game is played in place; the
    /// position's object, the one an easyAI game's methods are asked of.
    fn at<'a>(&self, pos: &'a PyPos<'py>) -> PyResult<&'a Bound<'py, PyAny>> {
        if let Some(ip) = &self.in_place {
            self.stand_at(ip, pos.node)?;
        }
        Ok(&pos.obj)
    }

    /// In place: makes move `m` on the object.
    fn make(&self, m: &Bound<'py, PyAny>) -> PyResult<()> {
        match &self.calls {
            Calls::Methods(f) => call_1(&f.play, m).map(drop),
            Calls::EasyAi(e) => e.make(m),
        }
    }

    /// In place: takes move `m` back.
    fn unmake(&self, m: &Bound<'py, PyAny>) -> PyResult<()> {
        match &self.calls {
            Calls::Methods(f) => call_1(f.unmake.as_ref().expect("in place"), m).map(drop),
            Calls::EasyAi(e) => e.unmake(m),
        }
    }

    /// Makes and unmakes moves until the object stands at `node`.
    fn stand_at(&self, ip: &InPlace<'py>, node: u32) -> PyResult<()> {
        let nodes = ip.nodes.borrow();
        let mut path = ip.path.borrow_mut();
        let here = *path.last().expect("the root is on the path");
        if here == node {
            return Ok(());
        }
        let parent = nodes[node as usize].0;
        let make = |n: u32| self.make(nodes[n as usize].1.as_ref().expect("a move"));
        let unmake = |n: u32| self.unmake(nodes[n as usize].1.as_ref().expect("a move"));
        // A child, a sibling or the parent: what depth-first searches ask.
        if parent == here {
            make(node)?;
            path.push(node);
            return Ok(());
        }
        if path.len() >= 2 && node != 0 && nodes[here as usize].0 == parent {
            unmake(here)?;
            path.pop();
            make(node)?;
            path.push(node);
            return Ok(());
        }
        // Anywhere: down from the deepest common ancestor.
        let mut chain = Vec::new();
        let mut n = node;
        while n != 0 {
            chain.push(n);
            n = nodes[n as usize].0;
        }
        chain.reverse();
        let common = path[1..].iter().zip(&chain).take_while(|(a, b)| a == b).count();
        while path.len() > common + 1 {
            let n = *path.last().expect("deeper than the common part");
            unmake(n)?;
            path.pop();
        }
        for &n in &chain[common..] {
            make(n)?;
            path.push(n);
        }
        Ok(())
    }

    /// In place: unmakes every move still made, so that the object stands
    /// at the position it started from (after the search, and after a
    /// failure; the first failure is kept).
    pub(crate) fn restore(&self) {
        if let Some(ip) = &self.in_place {
            if let Err(e) = self.stand_at(ip, 0) {
                self.fail(e);
            }
        }
    }

    fn list_moves(&self, pos: &PyPos<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.signals()?;
        let list = match &self.calls {
            Calls::Methods(f) => self.ask(&f.moves, pos)?,
            Calls::EasyAi(e) => e.moves(self.at(pos)?)?,
        };
        // A list or a tuple is read directly, without an iterator object.
        if let Ok(l) = list.downcast::<PyList>() {
            return self.bounded(l.len(), l.iter().map(Ok));
        }
        if let Ok(t) = list.downcast::<PyTuple>() {
            return self.bounded(t.len(), t.iter().map(Ok));
        }
        let iter = list.try_iter().map_err(|_| {
            PyValueError::new_err(format!(
                "moves() must return an iterable of moves, got {}",
                list.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        self.bounded(0, iter)
    }

    /// The moves `moves()` gave, at most [`MAX_MOVES`] of them (`len`: how
    /// many a list or tuple holds, allocated at once).
    fn bounded(
        &self,
        len: usize,
        moves: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let mut out = Vec::with_capacity(len.min(MAX_MOVES));
        for m in moves {
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
        if let Ok(i) = v.downcast_exact::<PyInt>() {
            if let Ok(i) = i.extract::<i64>() {
                return Ok(i);
            }
        }
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
    /// (An easyAI game copies `pos`, as easyAI does, and is not checked.)
    fn checked_play(&self, pos: &PyPos<'py>, m: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let play = match &self.calls {
            Calls::Methods(f) => &f.play,
            Calls::EasyAi(e) => return e.play(&pos.obj, m),
        };
        let n = self.plays.get();
        self.plays.set(n.saturating_add(1));
        if n >= CHECKED_PLAYS {
            return call_2(play, &pos.obj, m);
        }
        let before = pos.obj.repr().map(|r| r.to_string());
        let child = call_2(play, &pos.obj, m)?;
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

impl<'py> PyGame<'py> {
    /// `role(pos)`, asked of the game.
    fn ask_role(&self, pos: &PyPos<'py>) -> Role {
        if self.failed() {
            return Role::Max;
        }
        let role_fn = match &self.calls {
            Calls::Methods(f) => &f.role,
            // easyAI games alternate (roles follow the root's): the root's mover is MAX.
            Calls::EasyAi(_) => return Role::Max,
        };
        let r = self.ask(role_fn, pos).and_then(|r| {
            if r.is(&self.max_str) {
                return Ok(Role::Max);
            }
            if r.is(&self.min_str) {
                return Ok(Role::Min);
            }
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
        let made = match &self.calls {
            Calls::Methods(Methods { root: Some(f), .. }) => f.call0(),
            _ => Ok(self.obj.clone()),
        };
        let mut root = match made {
            Ok(p) => PyPos::new(p, 0, None),
            Err(e) => {
                self.fail(e);
                PyPos::new(self.obj.py().None().into_bound(self.obj.py()), 0, None)
            }
        };
        if self.alternating {
            root.role = Some(self.ask_role(&root));
        }
        *self.root.borrow_mut() = Some(root.clone());
        root
    }

    fn role(&self, pos: &PyPos<'py>) -> Role {
        match pos.role {
            Some(r) => r,
            None => self.ask_role(pos),
        }
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
        if let Some(ip) = &self.in_place {
            // A new node; the move is made when the search asks about it.
            return match m {
                Ok(m) => {
                    let mut nodes = ip.nodes.borrow_mut();
                    nodes.push((pos.node, Some(m)));
                    let mut child = PyPos::new(self.obj.clone(), pos.ply + 1, pos.role.map(Role::opponent));
                    child.node = (nodes.len() - 1) as u32;
                    child
                }
                Err(e) => {
                    self.fail(e);
                    pos.clone()
                }
            };
        }
        match m.and_then(|m| self.checked_play(pos, &m)) {
            Ok(p) => PyPos::new(p, pos.ply + 1, pos.role.map(Role::opponent)),
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
        let v = self.signals().and_then(|()| match &self.calls {
            Calls::Methods(f) => self.ask(&f.evaluate, pos).and_then(|v| self.int_from("evaluate", &v)),
            Calls::EasyAi(e) => e.evaluate(self.at(pos)?, pos.ply).map(i64::from),
        });
        let v = v.and_then(|v| {
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
        let h = match &self.calls {
            Calls::Methods(f) => {
                let hash_fn = f.hash.as_ref()?;
                if self.failed() {
                    return Some(0);
                }
                self.ask(hash_fn, pos).and_then(|v| {
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
                })
            }
            Calls::EasyAi(e) => {
                if !e.hashes() {
                    return None;
                }
                if self.failed() {
                    return Some(0);
                }
                self.at(pos).and_then(|g| e.hash(g))
            }
        };
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
