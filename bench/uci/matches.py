"""Games through UCI, refereed by python-chess: stockman against Stockfish at
its lowest skill level, and MTD(f) vs NegaScout vs MT-SSS* at equal time per
move (the "in practice" of the seeds, decided by games).

A benchmark, not a test: Stockfish (GPL) is never vendored or committed;
install it from Debian (`apt-get install stockfish`, /usr/games/stockfish).

    python bench/uci/matches.py --stockman target/release/stockman \
        [--stockfish /usr/games/stockfish] [--time 0.1] [--rounds 1]

Every pairing plays each opening below twice, colours swapped. A game ends
by the rules (mate, stalemate, threefold repetition, fifty moves,
insufficient material; draws claimed at once) or is adjudicated a draw at
300 plies. Prints Markdown tables.
"""

import argparse
import math
import time

import chess
import chess.engine

OPENINGS = [
    "e2e4 e7e5",
    "d2d4 d7d5",
    "c2c4 e7e5",
    "e2e4 c7c5",
    "d2d4 g8f6",
    "e2e4 e7e6",
]

MAX_PLIES = 300


def play_game(white, black, opening, seconds):
    """One game; returns (result for white: 1, 0.5, 0), termination, plies."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    engines = {chess.WHITE: white, chess.BLACK: black}
    for e in engines.values():
        e.protocol.send_line("ucinewgame")
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= MAX_PLIES:
            return 0.5, "adjudicated at 300 plies", board.ply()
        result = engines[board.turn].play(board, chess.engine.Limit(time=seconds))
        if result.move is None or result.move not in board.legal_moves:
            # An illegal or missing move loses the game.
            loser = board.turn
            return (0.0 if loser == chess.WHITE else 1.0), f"illegal move {result.move}", board.ply()
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    score = {True: 1.0, False: 0.0, None: 0.5}[outcome.winner]
    return score, outcome.termination.name.lower().replace("_", " "), board.ply()


def elo(score, games):
    """Elo difference of a score fraction (None at 0 or 1: unbounded)."""
    p = score / games
    if p <= 0 or p >= 1:
        return None
    return -400 * math.log10(1 / p - 1)


def match(make_a, make_b, seconds, rounds):
    """Colour-swapped pairs over the openings: A's points, games, endings."""
    a, b = make_a(), make_b()
    points, games, endings = 0.0, 0, {}
    try:
        for _ in range(rounds):
            for opening in OPENINGS:
                for a_white in (True, False):
                    w, k = (a, b) if a_white else (b, a)
                    s, how, plies = play_game(w, k, opening, seconds)
                    points += s if a_white else 1 - s
                    games += 1
                    endings[how] = endings.get(how, 0) + 1
    finally:
        a.quit()
        b.quit()
    return points, games, endings


def stockman(binary, algorithm, hash_mb):
    def make():
        e = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
        e.configure({"Algorithm": algorithm, "Hash": hash_mb})
        return e
    return make


def stockfish(binary, skill):
    def make():
        e = chess.engine.SimpleEngine.popen_uci(binary)
        e.configure({"Skill Level": skill, "Threads": 1, "Hash": 16})
        return e
    return make


def row(name_a, name_b, points, games, endings):
    d = elo(points, games)
    d = "unbounded" if d is None else f"{d:+.0f}"
    ends = ", ".join(f"{n} {k}" for k, n in sorted(endings.items(), key=lambda x: -x[1]))
    return f"| {name_a} | {name_b} | {points:g} / {games} | {d} | {ends} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stockman", default="target/release/stockman")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--time", type=float, default=0.1, help="seconds per move")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--skip-stockfish", action="store_true")
    args = ap.parse_args()
    started = time.monotonic()
    print(f"{args.time} s a move, {len(OPENINGS)} openings x 2 colours x {args.rounds} round(s)\n")
    print("| engine A | engine B | A's points | Elo A - B | endings |")
    print("|---|---|---:|---:|---|")
    if not args.skip_stockfish:
        for algo in ["mtdf", "mt-sss"]:
            r = match(stockman(args.stockman, algo, args.hash), stockfish(args.stockfish, 0), args.time, args.rounds)
            print(row(f"stockman {algo}", "Stockfish, Skill Level 0", *r), flush=True)
    pairs = [("mtdf", "negascout"), ("mt-sss", "negascout"), ("mtdf", "mt-sss")]
    for a, b in pairs:
        r = match(stockman(args.stockman, a, args.hash), stockman(args.stockman, b, args.hash), args.time, args.rounds)
        print(row(f"stockman {a}", f"stockman {b}", *r), flush=True)
    print(f"\n({time.monotonic() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
