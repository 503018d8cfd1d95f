//! `stockman uci` and `stockman engine` driven line by line, as a GUI
//! drives them: bad input is answered with `info string` and the state
//! before it is kept; the engine never dies on its input.
//!
//! The clock is read only as a deadline for a hung engine (a failure
//! naming the command), never in an assertion.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// A running engine and what it has printed.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stockman"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the stockman binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns the lines read,
    /// that one included.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(120)) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let done = line.starts_with(prefix);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no `{prefix}` within 120 s; seen: {:#?}", self.seen),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine ended before `{prefix}`; seen: {:#?}", self.seen)
                }
            }
        }
    }

    /// Sends `line` and `isready`, and returns what came before `readyok`.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut got = self.until("readyok");
        got.pop();
        got
    }

    /// `go ...`, and the move of its `bestmove`, with the lines before it.
    fn go(&mut self, args: &str) -> (String, Vec<String>) {
        self.send(&format!("go {args}"));
        let lines = self.until("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string();
        (best, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status}");
    }
}

fn has_info(lines: &[String], needles: &[&str]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info string") && needles.iter().all(|n| l.contains(n)))
}

#[track_caller]
fn assert_info(lines: &[String], needles: &[&str]) {
    assert!(
        has_info(lines, needles),
        "no `info string` with {needles:?} in {lines:#?}"
    );
}

/// Black's 20 first moves, as UCI writes them.
fn black_first_moves() -> Vec<String> {
    let mut v: Vec<String> = "abcdefgh"
        .chars()
        .flat_map(|f| [format!("{f}7{f}6"), format!("{f}7{f}5")])
        .collect();
    v.extend(["b8a6", "b8c6", "g8f6", "g8h6"].map(String::from));
    v
}

#[test]
fn bad_input_is_answered_and_the_state_before_it_kept() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name stockman")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Algorithm type combo default mtdf")));

    // `go` before any `position`: said, and the start position searched.
    let (best, lines) = e.go("depth 1");
    assert_info(&lines, &["no position was set"]);
    assert!(["e2e4", "d2d4", "b1c3", "g1f3", "e2e3", "d2d3"].contains(&best.as_str()) || best.len() == 4);

    assert!(e.ask("position startpos moves e2e4").is_empty());
    // A malformed FEN, illegal moves, garbage after the position.
    assert_info(
        &e.ask("position fen 8/8/8 w - - 0 1"),
        &["position fen 8/8/8 w - - 0 1"],
    );
    assert_info(
        &e.ask("position startpos moves e2e4 e2e4"),
        &["move 2 `e2e4`", "unchanged"],
    );
    assert_info(&e.ask("position startpos moves e7e5"), &["move 1 `e7e5`"]);
    assert_info(&e.ask("position startpos e2e4"), &["expected `moves`"]);
    assert_info(&e.ask("position"), &["expected `startpos` or `fen"]);
    assert_info(&e.ask("position fen"), &["the position is missing"]);
    // The last good position (after 1. e4) is still the one searched.
    let (best, _) = e.go("depth 2");
    assert!(black_first_moves().contains(&best), "{best}");

    // Negative clocks: said, taken as no time, and a legal move all the same.
    let (best, lines) = e.go("wtime -100 btime -100");
    assert_info(&lines, &["btime -100", "negative"]);
    assert!(black_first_moves().contains(&best), "{best}");

    // Options: unknown names and values out of range are refused.
    assert_info(&e.ask("setoption name Nope value 3"), &["there is no option `Nope`"]);
    assert_info(&e.ask("setoption name Hash value 0"), &["Hash", "from 1 to 65536"]);
    assert_info(
        &e.ask("setoption name Threads value 99999"),
        &["Threads", "from 1 to 1024"],
    );
    assert_info(&e.ask("setoption name Algorithm value sss"), &["`sss` is not one of"]);
    assert_info(&e.ask("setoption name ETC value maybe"), &["neither true nor false"]);
    assert_info(&e.ask("setoption Hash 16"), &["setoption name NAME"]);
    assert!(e.ask("setoption name Algorithm value negascout").is_empty());
    assert!(e.ask("setoption name Hash value 8").is_empty());

    // Unknown commands are ignored; unknown words before a command skipped.
    assert!(e.ask("hello world").is_empty());
    e.send("joho isready");
    e.until("readyok");

    // A malformed `go` argument leaves `go` without limits: it runs until `stop`.
    e.send("go depth x");
    e.send("isready");
    let lines = e.until("readyok");
    assert_info(&lines, &["go depth `x`"]);
    assert_info(&e.ask("go depth 1"), &["already running"]);
    e.send("stop");
    let lines = e.until("bestmove");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(black_first_moves().contains(&best), "{best}");
    e.quit();
}

#[test]
fn a_finished_game_answers_the_null_move() {
    let mut e = Engine::start(&["uci"]);
    // Fool's mate: White is mated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let (best, lines) = e.go("depth 3");
    assert_eq!(best, "0000");
    assert_info(&lines, &["no legal move"]);
    e.quit();
}

/// What `stockman uci` prints for a script piped in whole, its input then
/// closed.
fn piped(script: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_stockman"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(script.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_input_ending_lets_a_limited_search_answer() {
    // A script piped in: the search to depth 3 still answers.
    let text = piped("position startpos\ngo depth 3\n");
    assert!(text.contains("info depth 3 "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("bestmove "), "{text}");
}

#[test]
fn a_script_of_two_limited_searches_gets_two_answers() {
    // As Stockfish: the second `go` waits for the first search, which has
    // a limit, to answer; then it searches the new position.
    let text = piped("position startpos\ngo depth 3\nposition startpos moves e2e4\ngo depth 3\n");
    let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(best.len(), 2, "{text}");
    assert!(!text.contains("already running"), "{text}");
    // The second answer is Black's: a move of Black's after 1. e4.
    let second = best[1].split_whitespace().nth(1).unwrap();
    assert!(black_first_moves().contains(&second.to_string()), "{text}");
}

#[test]
fn othello_speaks_the_same_loop() {
    let mut e = Engine::start(&["engine", "--game", "othello"]);
    e.send("uci");
    let hello = e.until("uciok");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("id name stockman") && l.contains("othello")),
        "{hello:?}"
    );
    e.send("position startpos moves f5");
    let (best, lines) = e.go("depth 4");
    assert!(["d6", "f4", "f6"].contains(&best.as_str()), "{best}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")), "{lines:?}");
    assert_info(&e.ask("position startpos moves a1"), &["move 1 `a1`"]);
    e.quit();
}

#[test]
fn connect_four_speaks_the_same_loop() {
    let mut e = Engine::start(&["engine", "--game", "connect4"]);
    // Four in a column threatened: X has 1, 1, 1 in column 1; O must block.
    e.send("position startpos moves 1 2 1 2 1");
    let (best, _) = e.go("depth 4");
    assert_eq!(best, "1");
    e.quit();
}

/// The `score` of the `info depth {depth}` line.
fn score_at(lines: &[String], depth: u32) -> String {
    let prefix = format!("info depth {depth} ");
    let line = lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {prefix}in {lines:#?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    words[at + 1..at + 3].join(" ")
}

#[test]
fn repetitions_and_the_fifty_move_rule_through_uci() {
    let mut e = Engine::start(&["uci"]);
    // A queen down, White draws by perpetual check (Qe8+ Kh7 Qh5+ Kg8 Qe8+),
    // whatever the algorithm, through the engine's table and deepening.
    for algo in ["mtdf", "negascout", "alphabeta", "mt-sss", "mt-dual", "mtd-bi"] {
        assert!(e.ask(&format!("setoption name Algorithm value {algo}")).is_empty());
        e.send("ucinewgame");
        e.send("position fen qrb3k1/pp1p2p1/8/8/4Q3/8/5PPP/6K1 w - - 0 1");
        let (best, lines) = e.go("depth 5");
        assert!(score_at(&lines, 4).starts_with("cp -8"), "{algo}: {lines:#?}");
        assert_eq!(score_at(&lines, 5), "cp 0", "{algo}: {lines:#?}");
        if algo == "mtdf" {
            assert_eq!(best, "e4e8");
        }
    }
    // A queen up, White has shuffled Qd5-b3-d5-b3 while Black's king went
    // back and forth: Qd5 now (the best move without the history) would
    // repeat the position a third time. White plays on and stays ahead.
    assert!(e.ask("setoption name Algorithm value mtdf").is_empty());
    e.send("position fen 6k1/5pp1/7p/8/8/1Q6/5PPP/6K1 w - - 0 1");
    let (best, _) = e.go("depth 4");
    assert_eq!(best, "b3d5");
    e.send("position fen 6k1/5pp1/7p/3Q4/8/8/5PPP/6K1 b - - 0 1 moves g8h7 d5b3 h7g8 b3d5 g8h7 d5b3 h7g8");
    let (best, lines) = e.go("depth 4");
    assert_ne!(best, "b3d5");
    assert_eq!(score_at(&lines, 4), "cp 905");
    // The fifty-move rule: at 99 half-moves every move draws; at 0 a rook up is a rook up.
    e.send("position fen 8/8/4k3/8/8/3K4/7R/8 w - - 99 80");
    let (_, lines) = e.go("depth 2");
    assert_eq!(score_at(&lines, 2), "cp 0");
    e.send("position fen 8/8/4k3/8/8/3K4/7R/8 w - - 0 80");
    let (_, lines) = e.go("depth 2");
    let cp: i32 = score_at(&lines, 2).trim_start_matches("cp ").parse().unwrap();
    assert!(cp > 400, "{cp}");
    // Moves past a draw nobody claimed are played on (a GUI may do that).
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4");
    let (best, lines) = e.go("depth 1");
    assert!(!has_info(&lines, &["unchanged"]), "{lines:#?}");
    assert!(black_first_moves().contains(&best), "{best}");
    e.quit();
}

#[test]
fn solve_sees_the_history_of_a_position_text() {
    let solve = |position: &str| -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_stockman"))
            .args([
                "solve",
                "--game",
                "chess",
                "--depth",
                "4",
                "--algo",
                "mtdf",
                "--format",
                "json",
                "--position",
                position,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    // The bare board: Qd5 is best (915).
    let bare = solve("6k1/5pp1/7p/8/8/1Q6/5PPP/6K1 w - - 0 1");
    assert!(
        bare.contains("\"value\": 915") && bare.contains("\"best_move\": \"b3d5\""),
        "{bare}"
    );
    // The same board after shuffling: Qd5 would repeat it a third time.
    let shuffled = solve("6k1/5pp1/7p/3Q4/8/8/5PPP/6K1 b - - 0 1 moves g8h7 d5b3 h7g8 b3d5 g8h7 d5b3 h7g8");
    assert!(
        shuffled.contains("\"value\": 905") && !shuffled.contains("b3d5"),
        "{shuffled}"
    );
}
