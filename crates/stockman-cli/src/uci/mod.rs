//! `stockman uci` and `stockman engine --game G`: the Universal Chess
//! Interface on standard input and output, so that chess GUIs (Arena, Cute
//! Chess, lichess-bot), match runners and python-chess can drive MTD(f),
//! MT-SSS\*, NegaScout or Best Node Search.
//!
//! The same loop serves every built-in game (`engine --game othello`):
//! `position startpos` is the game's start, `position fen TEXT` takes the
//! game's own position text (a chess FEN; for the other games what
//! `--position` reads), moves are in the game's notation, and `wtime`/`winc`
//! are the clock of the player who moves first (White in chess, Black in
//! Othello, X in tic-tac-toe and Connect Four).
//!
//! Input is read on its own thread, so `stop`, `isready` and `quit` are
//! answered while a search runs. Unknown words are skipped as the protocol
//! says (`joho debug on` is `debug on`); a malformed command is answered
//! with an `info string` naming the problem, and the state before it is
//! kept: the engine never dies on its input.

mod go;
mod options;

use anyhow::Result;
use go::Go;
use options::Settings;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use stockman::games::chess;
use stockman::run::{GameKind, GameTask, DEFAULT_ASPIRATION, MAX_THREADS};
use stockman::{Algorithm, Clock, Engine, Iteration, Limit, Limits, Observer, Outcome, Parallel, Playable, Value};

/// The algorithms the `Algorithm` option lists: those that drive an engine
/// ([`Algorithm::drives_engine`]), the default (MTD(f)) first, the others in
/// the order of [`Algorithm::ALL`].
fn engine_algorithms() -> impl Iterator<Item = Algorithm> {
    let default = Settings::default().algorithm;
    std::iter::once(default).chain(stockman::Engine::algorithms().filter(move |&a| a != default))
}

/// The deepest iteration a `go` may ask for.
pub const MAX_DEPTH: u32 = 128;

/// The largest `Hash`, in MiB.
const MAX_HASH_MB: usize = 65_536;

/// Runs the engine loop for `kind` on standard input and output until
/// `quit` or the end of the input.
pub fn run(kind: GameKind) -> Result<ExitCode> {
    struct Task(GameKind);
    impl GameTask for Task {
        type Output = ();
        fn run<G: Playable + Send + Sync + 'static>(self, start: G) {
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for line in std::io::stdin().lock().lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            let out: Out = Arc::new(Mutex::new(Box::new(std::io::stdout())));
            Session::new(self.0, start, out).serve(rx);
        }
    }
    stockman::run::with_game(kind, "", true, Task(kind))?;
    Ok(ExitCode::SUCCESS)
}

/// Where the engine writes: shared by the loop and the searching thread.
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes it (a GUI reads line by line).
fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output ends the GUI's interest; nothing more to do.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The commands of the protocol (an input line's first known word).
const COMMANDS: [&str; 11] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// One engine's conversation with a GUI.
pub struct Session<G: Playable> {
    kind: GameKind,
    out: Out,
    settings: Settings,
    /// `None` while a search has it.
    engine: Option<Engine>,
    start: G,
    /// The position to search; `None` until a `position` command.
    game: Option<G>,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<Engine>>,
    /// Whether the running search waits for `stop`.
    until_stopped: bool,
    /// Raised by the search's thread just before it answers `bestmove`:
    /// from then on the GUI may send the next `go`, even if the thread
    /// has not quite ended.
    answered: Arc<AtomicBool>,
}

impl<G: Playable + Send + Sync + 'static> Session<G> {
    /// A session for `kind`, whose start position is `start`, writing to `out`.
    pub fn new(kind: GameKind, start: G, out: Out) -> Session<G> {
        Session {
            kind,
            out,
            settings: Settings::default(),
            engine: None,
            start,
            game: None,
            stop: Arc::new(AtomicBool::new(false)),
            search: None,
            until_stopped: false,
            answered: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Answers the lines of `input` until `quit` or its end.
    pub fn serve(mut self, input: mpsc::Receiver<String>) {
        while let Ok(line) = input.recv() {
            if !self.handle(&line) {
                self.finish_search(true);
                return;
            }
        }
        // The end of the input (a script piped in): a search with a limit
        // ends and answers; one that runs until `stop` is stopped.
        if self.until_stopped {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.join_search(true);
    }

    fn info(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Handles one line; `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        // Unknown words before a command are skipped, as the protocol says.
        let Some(at) = words.iter().position(|w| COMMANDS.contains(w)) else {
            return true;
        };
        let (command, args) = (words[at], &words[at + 1..]);
        match command {
            "uci" => {
                say(
                    &self.out,
                    &format!("id name stockman {}{}", env!("CARGO_PKG_VERSION"), self.variant()),
                );
                say(&self.out, "id author the stockman developers");
                for line in Settings::describe() {
                    say(&self.out, &line);
                }
                say(&self.out, "uciok");
            }
            "isready" => {
                // A fresh table's first touch costs real time: pay it now,
                // not in the first move's clock.
                if self.search.is_none() && self.engine.is_none() {
                    self.build_engine();
                }
                say(&self.out, "readyok");
            }
            "debug" | "register" | "ponderhit" => {}
            "setoption" => self.set_option(args),
            "ucinewgame" => {
                if self.busy() {
                    self.info("ucinewgame: a search is running; send stop first");
                } else {
                    self.finish_search(false);
                    if let Some(e) = &mut self.engine {
                        e.new_game();
                    }
                    self.game = None;
                }
            }
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.finish_search(true),
            "quit" => return false,
            _ => unreachable!("every command of COMMANDS is handled"),
        }
        true
    }

    fn variant(&self) -> String {
        match self.kind {
            GameKind::Chess => String::new(),
            other => format!(" ({other})"),
        }
    }

    /// Whether a search is still running.
    fn searching(&self) -> bool {
        self.search.is_some() && !self.answered.load(Ordering::Acquire)
    }

    /// Whether a search still runs that the next command must not touch:
    /// a search with a limit is waited for (it ends and answers, as
    /// Stockfish lets it: a script that pipes two `go depth 5` gets two
    /// `bestmove`s); one that runs until `stop` is not, and the caller
    /// says so.
    fn busy(&mut self) -> bool {
        if self.searching() && !self.until_stopped {
            self.join_search(true);
        }
        self.searching()
    }

    /// Takes the finished search's engine back; with `stop`, stops the
    /// search first. Without, an unfinished search is left to run.
    fn finish_search(&mut self, stop: bool) {
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.join_search(stop);
    }

    /// Takes the search's engine back, waiting for the search to end if
    /// `wait`, else only if it has ended.
    fn join_search(&mut self, wait: bool) {
        if let Some(h) = self.search.take() {
            if !wait && !self.answered.load(Ordering::Acquire) {
                self.search = Some(h);
                return;
            }
            match h.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => self.info("the search failed (a bug in stockman); the engine is rebuilt"),
            }
        }
    }

    /// Builds the engine from the settings; on failure, says why and keeps
    /// the engine it had.
    fn build_engine(&mut self) -> bool {
        match self.settings.engine(&self.stop) {
            Ok(e) => {
                self.engine = Some(e);
                true
            }
            Err(e) => {
                self.info(&format!("cannot build the engine: {e}"));
                false
            }
        }
    }

    fn set_option(&mut self, args: &[&str]) {
        if self.busy() {
            self.info("setoption: a search is running; send stop first");
            return;
        }
        self.finish_search(false);
        let (Some(&"name"), Some(rest)) = (args.first(), args.get(1..)) else {
            self.info("setoption: expected `setoption name NAME [value VALUE]`");
            return;
        };
        let split = rest.iter().position(|w| *w == "value");
        let name = rest[..split.unwrap_or(rest.len())].join(" ");
        let value = split.map(|i| rest[i + 1..].join(" "));
        if name.is_empty() {
            self.info("setoption: the option's name is missing");
            return;
        }
        if name.eq_ignore_ascii_case("clear hash") {
            if let Some(e) = &mut self.engine {
                e.new_game();
            }
            return;
        }
        let before = self.settings.clone();
        if let Err(e) = self.settings.set(&name, value.as_deref().filter(|v| !v.is_empty())) {
            self.info(&e);
            return;
        }
        if self.settings != before && !self.build_engine() {
            self.settings = before;
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        let (base, rest): (String, &[&str]) = match args.first() {
            Some(&"startpos") => (String::new(), &args[1..]),
            Some(&"fen") => {
                let end = args.iter().position(|w| *w == "moves").unwrap_or(args.len());
                if end == 1 {
                    self.info("position fen: the position is missing");
                    return;
                }
                (args[1..end].join(" "), &args[end..])
            }
            Some(w) => {
                self.info(&format!("position: expected `startpos` or `fen ...`, found `{w}`"));
                return;
            }
            None => {
                self.info("position: expected `startpos` or `fen ...`");
                return;
            }
        };
        let mut game = if base.is_empty() {
            self.start.clone()
        } else {
            match G::from_position(&base) {
                Ok(g) => g.heuristic(),
                Err(e) => {
                    self.info(&format!("position fen {base}: {e}; the position is unchanged"));
                    return;
                }
            }
        };
        match rest.first() {
            None => {}
            Some(&"moves") => {
                for (i, text) in rest[1..].iter().enumerate() {
                    match game.parse_move(text) {
                        Ok(mv) => game = game.after(mv),
                        Err(e) => {
                            self.info(&format!(
                                "position: move {} `{text}`: {e}; the position is unchanged",
                                i + 1
                            ));
                            return;
                        }
                    }
                }
            }
            Some(w) => {
                self.info(&format!("position: expected `moves` after the position, found `{w}`"));
                return;
            }
        }
        self.game = Some(game);
    }

    fn go(&mut self, args: &[&str]) {
        if self.busy() {
            self.info("go: a search is already running; send stop first");
            return;
        }
        self.finish_search(false);
        let (go, problems) = Go::parse(args);
        for p in &problems {
            self.info(p);
        }
        if self.engine.is_none() && !self.build_engine() {
            say(&self.out, "bestmove 0000");
            return;
        }
        let game = match &self.game {
            Some(g) => g.clone(),
            None => {
                self.info("go: no position was set (send `position startpos` or `position fen ...`); searching the start position");
                self.start.clone()
            }
        };
        let overhead = Duration::from_millis(self.settings.overhead_ms);
        let limits = go.limits(game.first_player_to_move(), overhead);
        let until_stopped = go.until_stopped();
        self.until_stopped = until_stopped;
        self.stop.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Release);
        let mut engine = self.engine.take().expect("built above");
        let (out, stop, kind) = (self.out.clone(), self.stop.clone(), self.kind);
        let answered = self.answered.clone();
        self.search = Some(std::thread::spawn(move || {
            let best = think(&mut engine, &game, &limits, kind, &out);
            // `go infinite` answers only after `stop`.
            while until_stopped && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            answered.store(true, Ordering::Release);
            say(&out, &format!("bestmove {best}"));
            engine
        }));
    }
}

/// Searches `game` within `limits`, printing an `info` line per
/// iteration, and returns the move to play in the game's notation
/// (`0000` when there is none).
fn think<G: Playable + Sync>(engine: &mut Engine, game: &G, limits: &Limits, kind: GameKind, out: &Out) -> String {
    let mut printer = InfoPrinter { game, kind, out };
    let result = engine.best_move_observed(game, limits, &mut printer);
    let mut root_moves = Vec::new();
    game.moves(&game.root(), &mut root_moves);
    match result {
        Ok(Outcome {
            best_move: Some(mv), ..
        }) => game.move_text(mv),
        Ok(_) | Err(_) if root_moves.is_empty() => {
            let why = game
                .result()
                .map_or("the position has no move".to_string(), |r| format!("{r:?}"));
            say(out, &format!("info string no legal move: {why}"));
            "0000".to_string()
        }
        Ok(_) => game.move_text(root_moves[0]),
        Err(e) => {
            // Stopped before the first iteration ended: the first move in
            // the game's order (captures first in chess) is the best guess.
            let reason = match e.limit() {
                Some(Limit::Stop) => "stopped".to_string(),
                Some(limit) => format!("{limit} came"),
                None => e.to_string(),
            };
            say(
                out,
                &format!(
                    "info string {reason} before depth 1 was searched; playing the first move in the game's order"
                ),
            );
            game.move_text(root_moves[0])
        }
    }
}

/// Prints each completed iteration as UCI `info`.
struct InfoPrinter<'a, G> {
    game: &'a G,
    kind: GameKind,
    out: &'a Out,
}

impl<G: Playable> Observer for InfoPrinter<'_, G> {
    const ITERATIONS: bool = true;
    fn iteration(&mut self, done: &Iteration) {
        let score = match (done.value, done.bound) {
            (Some(v), _) => score_text(self.kind, v),
            (None, Some((lo, _))) => format!("{} lowerbound", score_text(self.kind, lo)),
            (None, None) => return,
        };
        let ms = done.time_us / 1000;
        let nps = done.stats.nodes.saturating_mul(1_000_000) / done.time_us.max(1);
        let pv = pv_text(self.game, &done.pv);
        let pv = if pv.is_empty() {
            String::new()
        } else {
            format!(" pv {pv}")
        };
        say(
            self.out,
            &format!(
                "info depth {d} seldepth {d} score {score} nodes {n} nps {nps} time {ms}{pv}",
                d = done.depth,
                n = done.stats.nodes
            ),
        );
    }
}

/// A value as UCI's `score`: `mate N` for a chess mate (in moves, negative
/// when the engine is mated), else `cp V` in the game's units.
fn score_text(kind: GameKind, v: Value) -> String {
    if kind == GameKind::Chess && v.abs() > chess::HEURISTIC_MAX {
        let plies = chess::MATE - v.abs();
        let moves = (plies + 1) / 2;
        return format!("mate {}", if v > 0 { moves } else { -moves });
    }
    format!("cp {v}")
}

/// A principal variation of move indices as move texts.
fn pv_text<G: Playable>(game: &G, pv: &[u32]) -> String {
    let mut g = game.clone();
    let mut words = Vec::new();
    let mut moves = Vec::new();
    for &i in pv {
        moves.clear();
        g.moves(&g.root(), &mut moves);
        let Some(&mv) = moves.get(i as usize) else { break };
        words.push(g.move_text(mv));
        g = g.after(mv);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(score_text(GameKind::Chess, chess::MATE - 1), "mate 1");
        assert_eq!(score_text(GameKind::Chess, chess::MATE - 3), "mate 2");
        assert_eq!(score_text(GameKind::Chess, -(chess::MATE - 2)), "mate -1");
        assert_eq!(score_text(GameKind::Chess, 35), "cp 35");
        assert_eq!(score_text(GameKind::Othello, 64_000), "cp 64000");
    }
}
