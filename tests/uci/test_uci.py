"""`stockman uci` driven by python-chess, as a chess GUI or a script drives it.

Run: STOCKMAN_BIN=target/release/stockman python -m pytest -q tests/uci
(`.ci/run` builds a venv with `chess` and `pytest` for it).

No assertion here depends on time: the clocks fed to the engine in the
self-play games are measured, as a GUI measures them, but what is checked
is that every move is legal and that the games reach their end.
"""

import json
import os
import subprocess
import time

import chess
import chess.engine
import pytest

BIN = os.environ.get("STOCKMAN_BIN", "target/release/stockman")

# Positions of several kinds (none with a mate within 4 plies): the start,
# an open game, Kiwipete (perft's tactical test position), a rook endgame.
FENS = [
    chess.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


@pytest.fixture()
def engine():
    eng = chess.engine.SimpleEngine.popen_uci([BIN, "uci"], timeout=60)
    yield eng
    eng.quit()


def solve_value(fen, algo, depth):
    """The value `stockman solve` gives the position (side to move's view)."""
    out = subprocess.run(
        [BIN, "solve", "--game", "chess", "--depth", str(depth), "--algo", algo,
         "--position", fen, "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)[0]["value"]


def test_handshake_names_the_engine_and_its_options(engine):
    assert engine.id["name"].startswith("stockman")
    assert engine.id["author"]
    for name in ["Hash", "Threads", "Algorithm", "Parallel", "Move Overhead", "Aspiration",
                 "TableMoveFirst", "ETC", "History", "Killers", "Clear Hash"]:
        assert name in engine.options, name
    algos = set(engine.options["Algorithm"].var)
    assert {"mtdf", "negascout", "alphabeta", "mt-sss", "mt-dual", "mtd-bi", "bns"} <= algos
    assert engine.options["Hash"].default == 64
    assert engine.options["Threads"].min == 1
    engine.configure({"Hash": 8, "Algorithm": "negascout", "Killers": True, "Threads": 2})
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=3))
    assert info["depth"] == 3


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("algo", ["mtdf", "mt-sss"])
def test_analyse_at_depth_4_scores_what_solve_says(engine, fen, algo):
    engine.configure({"Algorithm": algo})
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=4))
    assert info["depth"] == 4
    assert info["score"].relative.score() == solve_value(fen, "mtdf", 4)
    # The principal variation is a legal line from the position.
    board = chess.Board(fen)
    assert info["pv"]
    for move in info["pv"]:
        assert move in board.legal_moves
        board.push(move)


def test_a_mate_is_reported_as_mate(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("d1d8")


def test_play_under_a_time_limit_returns_a_legal_move(engine):
    for fen in FENS:
        board = chess.Board(fen)
        result = engine.play(board, chess.engine.Limit(time=0.2))
        assert result.move in board.legal_moves


def test_play_with_a_node_limit_and_a_clock(engine):
    board = chess.Board(FENS[1])
    assert engine.play(board, chess.engine.Limit(nodes=2000)).move in board.legal_moves
    limit = chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1)
    assert engine.play(board, limit).move in board.legal_moves


def test_go_infinite_answers_only_after_stop(engine):
    board = chess.Board(FENS[2])
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


def self_play(engine, algo, max_plies=1000):
    """One game of the engine against itself under 10 s + 0.1 s a side."""
    engine.configure({"Algorithm": algo, "Hash": 16})
    board = chess.Board()
    clock = {chess.WHITE: 10.0, chess.BLACK: 10.0}
    inc = 0.1
    while not board.is_game_over(claim_draw=True):
        assert board.ply() < max_plies, "the game did not end"
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        started = time.monotonic()
        result = engine.play(board, limit)
        used = time.monotonic() - started
        clock[board.turn] = max(0.0, clock[board.turn] - used) + inc
        assert result.move in board.legal_moves, f"{result.move} in {board.fen()}"
        board.push(result.move)
    return board.outcome(claim_draw=True)


@pytest.mark.parametrize("algo", ["mtdf", "mt-sss"])
def test_games_against_itself_under_a_clock_end_by_the_rules(engine, algo):
    outcome = self_play(engine, algo)
    assert outcome is not None
    print(f"{algo} against itself: {outcome.termination.name}, {outcome.result()}")
    assert outcome.termination in {
        chess.Termination.CHECKMATE, chess.Termination.STALEMATE,
        chess.Termination.INSUFFICIENT_MATERIAL, chess.Termination.THREEFOLD_REPETITION,
        chess.Termination.FIFTY_MOVES, chess.Termination.FIVEFOLD_REPETITION,
        chess.Termination.SEVENTYFIVE_MOVES,
    }
