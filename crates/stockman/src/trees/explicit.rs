//! Explicit trees held in memory, and their text format (nested lists).

use crate::game::Game;
use crate::value::{Role, Value, VALUE_MAX, VALUE_MIN};
use std::fmt;

/// A game tree held in memory: the textbook nested list `[[3,12,8],[2,4,6],[14,5,2]]`.
///
/// Nodes are numbered in the order they appear in the text (pre-order); node
/// 0 is the root. Every interior node keeps a contiguous run of child ids, so
/// a position is a plain `u32` and a move is a child index.
///
/// Building never recurses, so a tree nested 200,000 levels deep parses,
/// searches (iteratively) and drops without exhausting the stack.
///
/// # Example
/// ```
/// use stockman::{ExplicitTree, Role, Algorithm, SearchOptions};
/// let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
/// assert_eq!(tree.len(), 13);
/// let out = Algorithm::AlphaBeta.search(&tree, &SearchOptions::default()).unwrap();
/// assert_eq!(out.value, Some(3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitTree {
    root_role: Role,
    /// Per node: its depth (the root has depth 0).
    depth: Vec<u32>,
    /// Per node: its value if it is a leaf (0 for interior nodes).
    value: Vec<Value>,
    /// Per node: where its children start in `child_ids`.
    child_start: Vec<u32>,
    /// Per node: how many children it has (0 for leaves).
    child_len: Vec<u32>,
    /// Children of every node, each node's run contiguous and in order.
    child_ids: Vec<u32>,
}

/// A node of an explicit tree under construction: see [`ExplicitTree::from_nested`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nested {
    /// A leaf with its value.
    Leaf(Value),
    /// An interior node with its children, left to right.
    Node(Vec<Nested>),
}

/// What is wrong with a tree file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the offending character (the end of input for an unexpected end).
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of mistakes a tree file can contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The file holds nothing but white space and comments.
    Empty,
    /// The text ended while lists were still open.
    Unclosed {
        /// How many lists were still open.
        open: usize,
        /// Line of the innermost unclosed `[`.
        line: usize,
        /// Column of the innermost unclosed `[`.
        column: usize,
    },
    /// A `[]`: a node with neither children nor value.
    EmptyList,
    /// A leaf that is not an integer (`2.5`, `x`, `1e3`).
    NotAnInteger(String),
    /// An integer outside `VALUE_MIN..=VALUE_MAX`.
    OutOfRange(String),
    /// A Bernoulli tree's leaf that is not a probability (a number from 0 to 1).
    NotAProbability(String),
    /// Something other than what the grammar allows here.
    Unexpected {
        /// What was found (a character, or "end of input").
        found: String,
        /// What would have been valid.
        expected: &'static str,
    },
    /// Text after the complete tree.
    TrailingText(String),
    /// Lists nested deeper than [`MAX_NESTING`].
    TooDeep,
    /// More nodes than a `u32` can number.
    TooLarge,
    /// A `# root:` declaration that names neither `max` nor `min`.
    BadRoot(String),
    /// The file declares its root's role (`# root: min`) and the caller
    /// asked for the other one.
    RootConflict {
        /// The role the file declares.
        declared: Role,
        /// The role the caller asked for.
        asked: Role,
    },
}

/// The deepest nesting a tree file may have.
///
/// Everything in this crate walks trees iteratively, so this is a limit on
/// memory, not on the stack: 1,000,000 levels.
pub const MAX_NESTING: usize = 1_000_000;

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.kind)
    }
}

/// What is wrong, without the place.
impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Empty => write!(f, "the file holds no tree (it is empty or only comments)"),
            ParseErrorKind::Unclosed { open, line, column } => write!(
                f,
                "unexpected end of input: {open} list(s) still open; the innermost `[` is at line {line}, column {column}"
            ),
            ParseErrorKind::EmptyList => write!(f, "empty list `[]`: a node needs children or a value"),
            ParseErrorKind::NotAnInteger(t) => {
                write!(f, "leaf `{t}` is not an integer")?;
                if t.parse::<f64>().is_ok_and(|p| (0.0..=1.0).contains(&p)) {
                    // A tree of Bernoulli means given to a deterministic search.
                    write!(f, " (a tree of Bernoulli means is searched by lucb-mcts, ugape-mcts, bns-murphy or uniform)")?;
                }
                Ok(())
            }
            ParseErrorKind::NotAProbability(t) => {
                write!(f, "leaf `{t}` is not a probability (a Bernoulli mean from 0 to 1, such as 0.45)")
            }
            ParseErrorKind::OutOfRange(t) => write!(
                f,
                "leaf value {t} is out of range (values must lie in {VALUE_MIN}..={VALUE_MAX})"
            ),
            ParseErrorKind::Unexpected { found, expected } => {
                write!(f, "unexpected {found}, expected {expected}")
            }
            ParseErrorKind::TrailingText(t) => write!(f, "unexpected text `{t}` after the end of the tree"),
            ParseErrorKind::TooDeep => write!(f, "lists nested deeper than {MAX_NESTING} levels"),
            ParseErrorKind::TooLarge => write!(f, "more nodes than this program can number (2^32 - 1)"),
            ParseErrorKind::BadRoot(t) => write!(f, "`# root: {t}` names no role (max or min)"),
            ParseErrorKind::RootConflict { declared, asked } => write!(
                f,
                "the file declares a {} root (`# root: {}`) but a {} root was asked for: drop the option or the declaration",
                declared.as_str(),
                declared.as_str(),
                asked.as_str()
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads characters with their line and column.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Skips white space and `#` comments.
    fn skip_blank(&mut self) {
        while let Some(c) = self.peek() {
            if c == '#' {
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            line: self.line,
            column: self.column,
            kind,
        }
    }

    /// Reads a token that is not punctuation (a would-be number).
    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c == ',' || c == '[' || c == ']' || c == '#' || c.is_whitespace() {
                break;
            }
            w.push(c);
            self.bump();
        }
        w
    }
}

fn describe(c: Option<char>) -> String {
    match c {
        None => "end of input".to_string(),
        Some(c) => format!("`{}`", excerpt(c.encode_utf8(&mut [0; 4]))),
    }
}

/// `text` fit for an error message: at most 20 characters, and invisible
/// characters (a byte order mark, a zero-width space, control codes) escaped.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 20;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            out.push_str("...");
            break;
        }
        match c {
            '"' | '\'' => out.push(c),
            _ => out.extend(c.escape_debug()),
        }
    }
    out
}

fn parse_integer(word: &str) -> Result<Value, ParseErrorKind> {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseErrorKind::NotAnInteger(excerpt(word)));
    }
    match word.parse::<i64>() {
        Ok(v) if (VALUE_MIN as i64..=VALUE_MAX as i64).contains(&v) => Ok(v as Value),
        _ => Err(ParseErrorKind::OutOfRange(excerpt(word))),
    }
}

/// The role a tree file declares in a `# root: ROLE` comment line before
/// its tree ([`ExplicitTree::parse_file`]), with the declaration's line.
pub fn declared_root(text: &str) -> Result<Option<(Role, usize)>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(comment) = t.strip_prefix('#') else {
            return Ok(None); // the tree has begun
        };
        if let Some(role) = comment.trim().strip_prefix("root:") {
            let role = role.trim();
            let column = line.find("root:").map_or(1, |c| c + 1);
            return match role {
                "max" => Ok(Some((Role::Max, i + 1))),
                "min" => Ok(Some((Role::Min, i + 1))),
                _ => Err(ParseError {
                    line: i + 1,
                    column,
                    kind: ParseErrorKind::BadRoot(role.to_string()),
                }),
            };
        }
    }
    Ok(None)
}

/// The root's role of a tree file: the declared one, the asked one, or
/// MAX; an error when the two differ (see [`ExplicitTree::parse_file`]).
pub fn resolve_root(text: &str, asked: Option<Role>) -> Result<Role, ParseError> {
    match (declared_root(text)?, asked) {
        (Some((declared, line)), Some(asked)) if declared != asked => Err(ParseError {
            line,
            column: 1,
            kind: ParseErrorKind::RootConflict { declared, asked },
        }),
        (Some((declared, _)), _) => Ok(declared),
        (None, asked) => Ok(asked.unwrap_or(Role::Max)),
    }
}

/// A list being read: its node id, where its `[` stood, and its children so far.
struct OpenList {
    id: u32,
    line: usize,
    column: usize,
    children_from: usize,
}

impl ExplicitTree {
    /// Parses the nested-list text format.
    ///
    /// The text is one JSON-style array of integers and arrays, or a single
    /// integer (a root that is a leaf). White space may stand anywhere
    /// between tokens and `#` starts a comment to the end of the line.
    /// Values must lie in [`VALUE_MIN`]`..=`[`VALUE_MAX`]. A leading byte
    /// order mark is ignored. Every error carries its 1-based line and column.
    pub fn parse(text: &str, root_role: Role) -> Result<ExplicitTree, ParseError> {
        ExplicitTree::parse_with(text, root_role, &mut parse_integer)
    }

    /// Parses a tree file that may declare its root's role: a comment line
    /// `# root: min` (or `max`) before the tree, as `stockman gen` writes
    /// for a MIN root, so that a written tree keeps the role its spec gave
    /// it. `asked` is the caller's role (`--root`), if any: a declared role
    /// and another one asked is an error, never a silent choice; with
    /// neither, the root is MAX.
    pub fn parse_file(text: &str, asked: Option<Role>) -> Result<ExplicitTree, ParseError> {
        let role = resolve_root(text, asked)?;
        ExplicitTree::parse(text, role)
    }

    /// [`ExplicitTree::parse`] with another reading of a leaf's token: the
    /// Bernoulli trees of [`crate::stochastic`] read a mean and keep its
    /// index as the leaf's value.
    pub(crate) fn parse_with(
        text: &str,
        root_role: Role,
        leaf: &mut dyn FnMut(&str) -> Result<Value, ParseErrorKind>,
    ) -> Result<ExplicitTree, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut t = ExplicitTree::empty(root_role);
        let mut cur = Cursor::new(text);
        let mut stack: Vec<OpenList> = Vec::new();
        // Children ids of the open lists, innermost last.
        let mut pending: Vec<u32> = Vec::new();

        cur.skip_blank();
        if cur.peek().is_none() {
            return Err(cur.error(ParseErrorKind::Empty));
        }
        // `expect_value`: a value (list or integer) must come next.
        let mut expect_value = true;
        loop {
            cur.skip_blank();
            let (line, column) = (cur.line, cur.column);
            let c = cur.peek();
            if expect_value {
                match c {
                    Some('[') => {
                        cur.bump();
                        if stack.len() >= MAX_NESTING {
                            return Err(ParseError {
                                line,
                                column,
                                kind: ParseErrorKind::TooDeep,
                            });
                        }
                        let id =
                            t.push_node(stack.len() as u32, 0)
                                .map_err(|k| ParseError { line, column, kind: k })?;
                        if !stack.is_empty() {
                            pending.push(id);
                        }
                        stack.push(OpenList {
                            id,
                            line,
                            column,
                            children_from: pending.len(),
                        });
                        cur.skip_blank();
                        if cur.peek() == Some(']') {
                            return Err(ParseError {
                                line,
                                column,
                                kind: ParseErrorKind::EmptyList,
                            });
                        }
                        continue; // a value follows
                    }
                    Some(']') | Some(',') | None => {
                        if c.is_none() && !stack.is_empty() {
                            return Err(unclosed(&cur, &stack));
                        }
                        return Err(cur.error(ParseErrorKind::Unexpected {
                            found: describe(c),
                            expected: "a list `[` or an integer",
                        }));
                    }
                    Some(_) => {
                        let w = cur.word();
                        let v = leaf(&w).map_err(|kind| ParseError { line, column, kind })?;
                        let id =
                            t.push_node(stack.len() as u32, v)
                                .map_err(|k| ParseError { line, column, kind: k })?;
                        if !stack.is_empty() {
                            pending.push(id);
                        }
                        expect_value = false;
                    }
                }
            } else {
                if stack.is_empty() {
                    // The tree is complete: only blanks may follow.
                    match c {
                        None => break,
                        Some(_) => {
                            let mut rest = String::new();
                            while let Some(ch) = cur.peek() {
                                // One more than `excerpt` shows, so it can mark the cut.
                                if ch == '\n' || rest.chars().count() > 20 {
                                    break;
                                }
                                rest.push(ch);
                                cur.bump();
                            }
                            return Err(ParseError {
                                line,
                                column,
                                kind: ParseErrorKind::TrailingText(excerpt(rest.trim_end())),
                            });
                        }
                    }
                }
                match c {
                    Some(',') => {
                        cur.bump();
                        expect_value = true;
                    }
                    Some(']') => {
                        cur.bump();
                        let list = stack.pop().expect("stack is not empty");
                        let start = t.child_ids.len() as u32;
                        t.child_ids.extend_from_slice(&pending[list.children_from..]);
                        let len = pending.len() - list.children_from;
                        pending.truncate(list.children_from);
                        t.child_start[list.id as usize] = start;
                        t.child_len[list.id as usize] = len as u32;
                    }
                    None => return Err(unclosed(&cur, &stack)),
                    Some(_) => {
                        return Err(cur.error(ParseErrorKind::Unexpected {
                            found: describe(c),
                            expected: "`,` or `]`",
                        }))
                    }
                }
            }
        }
        Ok(t)
    }

    fn empty(root_role: Role) -> ExplicitTree {
        ExplicitTree {
            root_role,
            depth: Vec::new(),
            value: Vec::new(),
            child_start: Vec::new(),
            child_len: Vec::new(),
            child_ids: Vec::new(),
        }
    }

    fn push_node(&mut self, depth: u32, value: Value) -> Result<u32, ParseErrorKind> {
        let id = u32::try_from(self.depth.len()).map_err(|_| ParseErrorKind::TooLarge)?;
        if id == u32::MAX {
            return Err(ParseErrorKind::TooLarge);
        }
        self.depth.push(depth);
        self.value.push(value);
        self.child_start.push(0);
        self.child_len.push(0);
        Ok(id)
    }

    /// Builds a tree from nested values (handy in tests and examples).
    ///
    /// # Panics
    /// If a leaf lies outside `VALUE_MIN..=VALUE_MAX` or a node has no children.
    pub fn from_nested(root: &Nested, root_role: Role) -> ExplicitTree {
        let mut t = ExplicitTree::empty(root_role);
        // Breadth-first, so every node's children get consecutive ids.
        let mut queue = std::collections::VecDeque::new();
        t.push_node(0, leaf_value(root)).expect("small tree");
        queue.push_back((root, 0u32));
        while let Some((n, id)) = queue.pop_front() {
            if let Nested::Node(children) = n {
                assert!(!children.is_empty(), "a node needs children or a value");
                let start = t.child_ids.len() as u32;
                for c in children {
                    let cid = t
                        .push_node(t.depth[id as usize] + 1, leaf_value(c))
                        .expect("small tree");
                    t.child_ids.push(cid);
                    queue.push_back((c, cid));
                }
                t.child_start[id as usize] = start;
                t.child_len[id as usize] = children.len() as u32;
            }
        }
        t
    }

    /// The uniform tree of this width and depth with these leaves, left to
    /// right: `leaves.len()` must be `width^depth`.
    ///
    /// # Panics
    /// If the count does not match or a value is out of range.
    pub fn uniform(width: u32, depth: u32, leaves: &[Value], root_role: Role) -> ExplicitTree {
        assert_eq!(
            leaves.len() as u64,
            (width as u64).pow(depth),
            "need width^depth leaves"
        );
        let mut level: Vec<Nested> = leaves.iter().map(|&v| Nested::Leaf(v)).collect();
        for _ in 0..depth {
            let mut it = level.into_iter();
            let mut next = Vec::new();
            loop {
                let group: Vec<Nested> = it.by_ref().take(width as usize).collect();
                if group.is_empty() {
                    break;
                }
                next.push(Nested::Node(group));
            }
            level = next;
        }
        ExplicitTree::from_nested(&level.pop().expect("one root"), root_role)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.depth.len()
    }

    /// Whether the tree has no node (never true for a parsed tree).
    pub fn is_empty(&self) -> bool {
        self.depth.is_empty()
    }

    /// The role of the root.
    pub fn root_role(&self) -> Role {
        self.root_role
    }

    /// The children of `node`, left to right.
    pub fn children(&self, node: u32) -> &[u32] {
        let s = self.child_start[node as usize] as usize;
        &self.child_ids[s..s + self.child_len[node as usize] as usize]
    }

    /// The value of a leaf (0 for an interior node).
    pub fn leaf_value(&self, node: u32) -> Value {
        self.value[node as usize]
    }

    /// The depth of `node` (the root has depth 0).
    pub fn depth_of(&self, node: u32) -> u32 {
        self.depth[node as usize]
    }

    /// The node reached by following `path` (0-based child indices), if any.
    pub fn node_at(&self, path: &[u32]) -> Option<u32> {
        let mut n = 0u32;
        for &i in path {
            n = *self.children(n).get(i as usize)?;
        }
        Some(n)
    }

    /// The number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.child_len.iter().filter(|&&l| l == 0).count()
    }

    /// The height: the largest depth of any node.
    pub fn height(&self) -> u32 {
        self.depth.iter().copied().max().unwrap_or(0)
    }

    /// Writes the tree in the text format, on one line (iteratively).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        // Stack of (node, next child index).
        let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some(&mut (n, ref mut i)) = stack.last_mut() {
            let len = self.child_len[n as usize];
            if len == 0 {
                out.push_str(&self.value[n as usize].to_string());
                stack.pop();
                continue;
            }
            if *i == 0 {
                out.push('[');
            } else if *i < len {
                out.push(',');
            }
            if *i == len {
                out.push(']');
                stack.pop();
                continue;
            }
            let c = self.children(n)[*i as usize];
            *i += 1;
            stack.push((c, 0));
        }
        out
    }
}

impl ExplicitTree {
    /// Copies the first `depth` plies of any game into memory (breadth-first,
    /// no recursion), or `None` if that takes more than `max_nodes` nodes.
    /// Positions at the horizon become leaves with their static value.
    pub fn from_game<G: Game>(game: &G, depth: Option<u32>, max_nodes: usize) -> Option<ExplicitTree> {
        let root = game.root();
        let mut t = ExplicitTree::empty(game.role(&root));
        let mut queue = std::collections::VecDeque::new();
        let mut moves = Vec::new();
        t.push_node(0, 0).ok()?;
        queue.push_back((root, 0u32));
        while let Some((pos, id)) = queue.pop_front() {
            let d = t.depth[id as usize];
            moves.clear();
            if depth.is_none_or(|h| d < h) {
                game.moves(&pos, &mut moves);
            }
            if moves.is_empty() {
                let v = game.evaluate(&pos);
                if !(VALUE_MIN..=VALUE_MAX).contains(&v) {
                    return None;
                }
                t.value[id as usize] = v;
                continue;
            }
            if t.len() + moves.len() > max_nodes {
                return None;
            }
            let start = t.child_ids.len() as u32;
            for &m in &moves {
                let cid = t.push_node(d + 1, 0).ok()?;
                t.child_ids.push(cid);
                queue.push_back((game.play(&pos, m), cid));
            }
            t.child_start[id as usize] = start;
            t.child_len[id as usize] = moves.len() as u32;
        }
        Some(t)
    }
}

fn leaf_value(n: &Nested) -> Value {
    match n {
        Nested::Leaf(v) => {
            assert!((VALUE_MIN..=VALUE_MAX).contains(v), "leaf value {v} out of range");
            *v
        }
        Nested::Node(_) => 0,
    }
}

fn unclosed(cur: &Cursor<'_>, stack: &[OpenList]) -> ParseError {
    let inner = stack.last().expect("a list is open");
    cur.error(ParseErrorKind::Unclosed {
        open: stack.len(),
        line: inner.line,
        column: inner.column,
    })
}

impl Game for ExplicitTree {
    type Position = u32;
    type Move = u32;

    #[inline]
    fn root(&self) -> u32 {
        0
    }

    #[inline]
    fn role(&self, pos: &u32) -> Role {
        if self.depth[*pos as usize].is_multiple_of(2) {
            self.root_role
        } else {
            self.root_role.opponent()
        }
    }

    #[inline]
    fn moves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.extend(0..self.child_len[*pos as usize]);
    }

    #[inline]
    fn play(&self, pos: &u32, mv: u32) -> u32 {
        self.child_ids[(self.child_start[*pos as usize] + mv) as usize]
    }

    #[inline]
    fn evaluate(&self, pos: &u32) -> Value {
        self.value[*pos as usize]
    }

    #[inline]
    fn hash(&self, pos: &u32) -> Option<u64> {
        Some(*pos as u64)
    }

    /// The smallest and largest leaf value (a search returns one of them).
    fn value_range(&self) -> (Value, Value) {
        let leaves = (0..self.value.len()).filter(|&i| self.child_len[i] == 0);
        leaves.fold((Value::MAX, Value::MIN), |(lo, hi), i| {
            (lo.min(self.value[i]), hi.max(self.value[i]))
        })
    }

    fn name(&self) -> &str {
        "tree"
    }
}

impl fmt::Display for ExplicitTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}
