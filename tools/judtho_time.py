#!/usr/bin/env python3
"""What more time changes in one engine's Judtho moves: issue 51's "what the search sees".

    python tools/judtho_time.py --engine full match.jsonl [--positions 200] [--seed 1] [--jobs 2]

takes positions at random (by seed) from the games of `tetrarch match --variant judtho` where
`--engine`'s seat was to move, and searches each with the `tetrarch` Python package for the
time that seat spent on it in the match (its normal time), for ten times as long, and for
thirty times as long as the judge. It prints, by phase (Assembly; First, Second or Third
Battle) and by the relationships at the root, how often the normal and the tenfold move
differ, and which of the two the judge's search chooses where they do. Each search starts from
an empty hash table. The searches keep their clock, so a second run differs a little.
"""

import argparse
import collections
import json
import multiprocessing
import random

import judtho_losses
import tetrarch


def phase_of(board, ply):
    if ply < judtho_losses.ASSEMBLY_PLIES:
        return "Assembly"
    return ["First Battle", "Second Battle", "Third Battle"][min(judtho_losses.mates_of(board, ""), 2)]


def sample(files, engine, n, seed):
    """(position, phase, shape, normal ms) of `n` moves of `engine`'s seat, chosen by seed."""
    found = []
    for path in files:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                game = json.loads(line)
                me = next(p["seats"] for p in game["players"] if p["engine"] == engine)
                board = judtho_losses.new_board(game)
                for ply, mv in enumerate(game["moves"]):
                    ms = game["time_ms"][ply]
                    if board.turn == me and ms:
                        sides = board.sides()
                        shape = "-".join(str(len(s)) for s in sorted(sides, key=len, reverse=True))
                        found.append((board.position(), phase_of(board, ply), shape, ms))
                    board.push(mv)
    random.Random(seed).shuffle(found)
    return found[:n]


def judge(item):
    position, phase, shape, ms = item
    engine = tetrarch.Engine("judtho")
    board = tetrarch.Board("judtho", position)
    moves = []
    for factor in (1, 10, 30):
        engine.clear()
        r = engine.search(board, movetime=max(1, ms * factor))
        moves.append((r["move"], r["depth"]))
    return phase, shape, moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    items = sample(a.files, a.engine, a.positions, a.seed)
    with multiprocessing.Pool(a.jobs) as pool:
        results = pool.map(judge, items, chunksize=1)
    rows = collections.defaultdict(collections.Counter)
    depth = collections.defaultdict(lambda: [0, 0, 0])
    for phase, shape, ((m1, d1), (m10, d10), (m30, _)) in results:
        for key in (phase, f"{phase}, sides {shape}" if phase != "Assembly" else None, "all"):
            if key is None:
                continue
            c = rows[key]
            c["positions"] += 1
            if m1 != m10:
                c["differ"] += 1
                c["judge takes the tenfold"] += m30 == m10
                c["judge takes the normal"] += m30 == m1
            depth[key][0] += d1
            depth[key][1] += d10
            depth[key][2] += 1
    print(f"{len(results)} positions of {a.engine}'s seat, seed {a.seed}\n")
    print("| where | positions | depth, normal | depth, tenfold | moves differ | the judge (30x) takes the tenfold | takes the normal | takes neither |")
    print("|---|---|---|---|---|---|---|---|")
    order = ["Assembly", "First Battle", "Second Battle", "Third Battle"]
    keys = sorted(rows, key=lambda k: (k == "all", order.index(k.split(",")[0]) if k != "all" else 9, k))
    for k in keys:
        c, (s1, s10, n) = rows[k], depth[k]
        neither = c["differ"] - c["judge takes the tenfold"] - c["judge takes the normal"]
        print(
            f"| {k} | {c['positions']} | {s1 / n:.1f} | {s10 / n:.1f} | {c['differ']} ({100 * c['differ'] / c['positions']:.0f}%) "
            f"| {c['judge takes the tenfold']} | {c['judge takes the normal']} | {neither} |"
        )


if __name__ == "__main__":
    main()
