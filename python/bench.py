"""Random-playout plies per second: tetrarch next to python-chess, PettingZoo's chess_v6 and pyffish.

    pip install ./python[bench]
    python python/bench.py [--seconds 5] [--seed 1]

Every line is one way of playing random games, each ply a fresh list of legal moves and one of
them played, and its rate:

- `tetrarch <variant>`: `Board.legal_moves()` and `Board.push()`, for each of the five variants;
- `tetrarch env <variant>`: the same games through `tetrarch.pettingzoo`, an observation and an
  action mask at every step, as a learning agent sees them, the agent choosing from the mover's
  `info["legal_actions"]`; `(mask)`: the same agent choosing from `np.flatnonzero` of the mask,
  as it must with `chess_v6`, which gives nothing else;
- `python-chess`: `chess.Board`'s legal moves and `push`, the same loop as `tetrarch <variant>`;
- `chess_v6`: PettingZoo's chess environment (python-chess underneath), the same agent as
  `tetrarch env <variant>`, picking at random from its action mask;
- `pyffish judkins`: Fairy-Stockfish's Python module replaying the very plies of the tetrarch
  Judkins games, whole games in the same order for the same time (translated to its square
  names), one `legal_moves` call per ply, each checked to contain the move tetrarch played.

The ratios at the end compare like with like: each variant's board loop over python-chess's,
each variant's environment loop over chess_v6's (the goal is 10x), and tetrarch's Judkins over
pyffish's. Rates, not pass or fail: this script is for people, never for the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

# Run as `python python/bench.py`, this folder comes first on the path, and its `tetrarch/` (the
# sources, without the compiled module) would hide the installed package.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _here]

import tetrarch  # noqa: E402

# Random games are capped as a learner would cap them; Judkins games mostly end before.
MAX_PLIES = 300


def tetrarch_games(variant: str, seconds: float, rng: random.Random):
    """Plays random games until `seconds` have gone; returns (plies, seconds, games)."""
    games, plies = [], 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        b = tetrarch.Board(variant)
        for _ in range(MAX_PLIES):
            moves = b.legal_moves()
            if not moves:
                break
            b.push(rng.choice(moves))
        plies += len(b.moves)
        games.append(b.moves)
    return plies, time.perf_counter() - start, games


def tetrarch_env(variant: str, seconds: float, seed: int, sparse: bool):
    from tetrarch.pettingzoo import env

    e = env(variant, max_plies=MAX_PLIES)
    rng = np.random.default_rng(seed)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=int(rng.integers(1 << 30)))
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = info["legal_actions"] if sparse else np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))
            plies += 1
    return plies, time.perf_counter() - start


def python_chess(seconds: float, rng: random.Random):
    import chess

    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        b = chess.Board()
        for _ in range(MAX_PLIES):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
            plies += 1
    return plies, time.perf_counter() - start


def chess_v6(seconds: float, seed: int):
    from pettingzoo.classic import chess_v6 as chess

    e = chess.env()
    rng = np.random.default_rng(seed)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=int(rng.integers(1 << 30)))
        for n, agent in enumerate(e.agent_iter()):
            obs, _, term, trunc, _ = e.last()
            if term or trunc or n >= MAX_PLIES:
                break
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            plies += 1
    return plies, time.perf_counter() - start


def fairy_square(sq: str) -> str:
    """tetrarch's Judkins square (`6e`: file 6..1 from the left, rank a..f from the top) as
    Fairy-Stockfish names it in its FEN mode (`a2`)."""
    return "abcdef"[6 - int(sq[0])] + str(6 - (ord(sq[1]) - ord("a")))


def fairy_move(mv: str) -> str:
    if "*" in mv:
        return mv[0] + "@" + fairy_square(mv[2:4])
    return fairy_square(mv[0:2]) + fairy_square(mv[2:4]) + mv[4:]


def pyffish_replay(games, seconds: float):
    """Replays whole games of `games` until `seconds` have gone (pyffish's cost per ply grows
    with the game, so the rate is over the same kind of games, from their first ply on)."""
    import pyffish as sf

    fen = sf.start_fen("judkins")
    plies, missing = 0, 0
    start = time.perf_counter()
    for game in games:
        if time.perf_counter() - start >= seconds:
            break
        played = []
        for mv in game:
            legal = sf.legal_moves("judkins", fen, played)
            m = fairy_move(mv)
            missing += m not in legal
            played.append(m)
            plies += 1
    return plies, time.perf_counter() - start, missing


def line(name: str, plies: int, seconds: float) -> float:
    rate = plies / seconds
    print(f"{name:<28} {plies:>9} plies {seconds:>7.2f} s {rate:>12,.0f} plies/s", flush=True)
    return rate


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time for each line")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    rates = {}
    judkins_games = []
    for v in tetrarch.variants():
        plies, secs, games = tetrarch_games(v, args.seconds, rng)
        rates[v] = line(f"tetrarch {v}", plies, secs)
        if v == "judkins":
            judkins_games = games
    env_rates = {}
    try:
        for v in tetrarch.variants():
            env_rates[v] = line(f"tetrarch env {v}", *tetrarch_env(v, args.seconds, args.seed, True))
        for v in tetrarch.variants():
            line(f"tetrarch env {v} (mask)", *tetrarch_env(v, args.seconds, args.seed, False))
    except ImportError as e:
        print(f"tetrarch env: skipped ({e})")
    try:
        board = line("python-chess", *python_chess(args.seconds, rng))
    except ImportError as e:
        board = None
        print(f"python-chess: skipped ({e}); pip install chess")
    try:
        chess = line("chess_v6 (PettingZoo)", *chess_v6(args.seconds, args.seed))
    except ImportError as e:
        chess = None
        print(f"chess_v6: skipped ({e}); pip install 'pettingzoo[classic]'")
    try:
        plies, secs, missing = pyffish_replay(judkins_games, args.seconds)
        fairy = line("pyffish judkins", plies, secs)
        if missing:
            print(f"  note: {missing} tetrarch moves were not among pyffish's legal moves")
    except ImportError as e:
        fairy = None
        print(f"pyffish: skipped ({e}); pip install pyffish")

    print()
    if fairy:
        print(f"tetrarch judkins / pyffish judkins: {rates['judkins'] / fairy:6.1f}x  (goal 20x)")
    if board:
        for v in tetrarch.variants():
            print(f"tetrarch {v:<15} / python-chess: {rates[v] / board:6.1f}x")
    if chess:
        for v, r in env_rates.items():
            print(f"tetrarch env {v:<15} / chess_v6: {r / chess:6.1f}x  (goal 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
