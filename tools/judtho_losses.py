#!/usr/bin/env python3
"""Where and why one engine's Judtho games are not won: the loss table of issue 51.

    python tools/judtho_losses.py --engine full match.jsonl [more.jsonl ...] [--games] [--places]

reads the JSON lines of `tetrarch match --variant judtho` (docs/match.md), replays each game
with the rules of the `tetrarch` Python package (python/README.md) to follow the alliances, and
sorts every game in which the engine's seat did not end on the winning side by the phase in
which it was lost and by its cause. `--games` lists each such game with what the table read.

The phases: the Assembly (the 48 placements), the First Battle (to the First Checkmate), the
Second (to the Second Checkmate) and the Third (to the end).

A game is lost in the phase of the checkmate that decided it for the seat, read this way:
- the Second Checkmate formed a Triple Alliance without the seat: the seat, single, was left
  against three (lost in the Second Battle; cause "an alliance against it");
- else the seat's side (a Triple Alliance, or one of two Double Alliances) suffered the Third
  Checkmate: lost in the Third Battle, the cause read from whose king was mated (the losing
  seat whose king stands in check at the end):
  - the seat's own: "a checkmate it did not see coming" when the seat's last search before it
    did not score a mate against itself, else "a checkmate seen too late";
  - an ally's: "an ally mated after" the move before the mate's, the seat's own (which did
    not parry the threat to its ally), the mated ally's, or the other ally's;
- and in either case, when the seat itself suffered the First Checkmate within 8 plies of the
  Assembly's end, the game counts to the Assembly: the placements let the mate in.
An ally's king mated is marked "(seen)" when the seat's last search scored a mate against it.
Not lost: a draw is "a draw it could have won" when the seat's last search scored its side 3
pawns or more ahead, else "a draw"; a time loss or an illegal move is "the clock". A game that
ends otherwise (fewer than three checkmates) is "other" with its termination.

Below the table: the games lost after the Second Checkmate by the seat's place then (a Triple
Alliance's member, one of two Double Alliances, the single player), and how often the seat
ended on the winning side by its part in the First Checkmate (mater, mated, neither).
`--places` adds, over all games (won or not), how often the seat ended on the winning side by
its place after the Second Checkmate, and who gave the Second Checkmate that made its Triple
Alliance.
"""

import argparse
import collections
import json
import sys

import tetrarch

PHASES = ["Assembly", "First Battle", "Second Battle", "Third Battle", "(drawn)"]
ASSEMBLY_PLIES = 48
# How soon after the Assembly a checkmate counts as the Assembly's doing.
EARLY = 8
# A score at or above this (centipawns, the seat's point of view) is a win given away by a draw.
WON_DRAW = 300
LETTERS = "wryb"


def side_of(sides, seat):
    return next(s for s in sides if seat in s)


def new_board(game):
    start = game.get("start_position")
    return tetrarch.Board("judtho", start) if start else tetrarch.Board("judtho")


def in_check(position, seat):
    """Whether `seat`'s king stands in check in `position`: the same position with `seat` to
    move, asked of the rules (None where the rules refuse it)."""
    f = position.split(" ")
    cycle = f[4]
    if seat not in cycle:
        return None
    i = cycle.index(seat)
    f[1], f[4] = seat, cycle[i:] + cycle[:i]
    try:
        return tetrarch.Board("judtho", " ".join(f)).in_check()
    except ValueError:
        return None


def mates_of(board, term):
    """The checkmates given so far: each alliance has one fewer than it has members, and a
    game over by checkmate has had its third."""
    if board.is_game_over() and term == "checkmate":
        return 3
    field = board.position().split(" ")[3]
    return 0 if field == "-" else sum(len(a) - 1 for a in field.split(","))


def first_role(game, me):
    """The seat's part in the First Checkmate: "mater", "mated" or "neither" ("none" if no
    checkmate came)."""
    board = new_board(game)
    sides = board.sides()
    for mv in game["moves"]:
        board.push(mv)
        if board.sides() != sides:
            # The position string names each alliance from its First Ally, the mater, on.
            alliance = board.position().split(" ")[3]
            if me not in alliance:
                return "neither"
            return "mater" if alliance[0] == me else "mated"
    return "none"


def second_place(game, me):
    """The seat's place after the Second Checkmate ("a Triple Alliance's member", "one of two
    Double Alliances", "the single player"; None if the game had fewer than two checkmates), and
    whether the seat's own move gave it."""
    board = new_board(game)
    term = game.get("termination", "")
    for mv in game["moves"]:
        mover = board.turn
        board.push(mv)
        if mates_of(board, term) >= 2:
            sides = board.sides()
            mine = len(side_of(sides, me))
            if mine == 3:
                place = "a Triple Alliance's member"
            elif mine == 1:
                place = "the single player"
            else:
                place = "one of two Double Alliances"
            return place, mover == me
    return None, False


def classify(game, engine):
    """(phase, cause, note) of a game not won by `engine`'s seat, or None if it was won."""
    seats = [p["seats"] for p in game["players"] if p["engine"] == engine]
    if len(seats) != 1 or len(seats[0]) != 1:
        raise ValueError(f"game {game['game']}: engine {engine!r} must hold one seat")
    me = seats[0]
    points = dict(zip(LETTERS, game["points"]))
    term = game.get("termination", "")
    if points[me] >= 1:
        return None

    board = new_board(game)
    # Each checkmate: (its ply, the sides after its move, the seat that moved).
    mates = []
    last_mine = None  # the score of the seat's last search
    movers = []
    for ply, mv in enumerate(game["moves"]):
        mover = board.turn
        movers.append(mover)
        if mover == me and game["score"][ply] is not None:
            last_mine = game["score"][ply]
        board.push(mv)
        # One move can give two checkmates (T8): count them off the alliances.
        now = mates_of(board, term)
        mates.extend([(ply, board.sides(), mover)] * (now - len(mates)))

    if game.get("culprit") is not None or term in ("time forfeit", "illegal move", "forfeit"):
        return ("(drawn)" if points[me] > 0 else PHASES[1 + min(len(mates), 2)], "the clock", term)
    if points[me] > 0:
        ahead = last_mine is not None and (last_mine.get("mate", 0) > 0 or last_mine.get("cp", 0) >= WON_DRAW)
        return ("(drawn)", "a draw it could have won" if ahead else "a draw", term)
    if len(mates) < 3:
        return (PHASES[1 + len(mates)], "other: " + term, f"{len(mates)} checkmates")

    second_sides = mates[1][1]
    if len(side_of(second_sides, me)) == 1 and any(len(s) == 3 for s in second_sides):
        phase, cause = "Second Battle", "an alliance against it"
    else:
        phase = "Third Battle"
        final_ply = mates[2][0]
        final = board.position() if final_ply == len(game["moves"]) - 1 else None
        losers = side_of(mates[1][1], me)
        checked = [s for s in losers if final and in_check(final, s)]
        mated = me if me in checked else (checked[0] if checked else None)
        if mated == me:
            seen = last_mine is not None and last_mine.get("mate", 0) < 0
            cause = "a checkmate seen too late" if seen else "a checkmate it did not see coming"
        elif mated is None:
            cause = "a checkmate (king not found)"
        else:
            last = movers[final_ply - 1]
            cause = "an ally mated after " + (
                "the seat's move" if last == me else "its own move" if last == mated else "the other ally's move"
            )
            if last_mine is not None and last_mine.get("mate", 0) < 0:
                cause += " (seen)"
    first_ply, first_sides = mates[0][0], mates[0][1]
    if first_ply - ASSEMBLY_PLIES < EARLY and len(side_of(first_sides, me)) == 2 and mates[0][2] != me:
        # Mated within a few plies of the Assembly's end: the placements let it in.
        phase = "Assembly"
    shape = {3: "as a Triple Alliance's member", 2: "in two Double Alliances", 1: "as the single player"}
    where = shape[len(side_of(second_sides, me))]
    return (phase, cause, f"{where}; checkmates at plies {[m[0] for m in mates]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", required=True, help="the engine whose games are read (its name in the match)")
    ap.add_argument("--games", action="store_true", help="list every game not won")
    ap.add_argument("--places", action="store_true",
                    help="the seat's odds by its place after the Second Checkmate, over all games")
    a = ap.parse_args()
    table = collections.Counter()
    roles = collections.Counter()
    shapes = collections.Counter()
    # (place, won) -> games; and the Triple Alliances the seat made itself.
    places = collections.Counter()
    made_triple = collections.Counter()
    total = won = 0
    rows = []
    for path in a.files:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                game = json.loads(line)
                total += 1
                c = classify(game, a.engine)
                me = next(p["seats"] for p in game["players"] if p["engine"] == a.engine)
                roles[(first_role(game, me), c is None)] += 1
                if a.places:
                    place, gave = second_place(game, me)
                    places[(place, c is None)] += 1
                    if place == "a Triple Alliance's member":
                        made_triple["the seat" if gave else "another seat"] += 1
                if c is None:
                    won += 1
                    continue
                table[c[:2]] += 1
                if c[2].startswith("as ") or c[2].startswith("in "):
                    shapes[c[2].split(";")[0]] += 1
                rows.append((game["game"], *c))
    causes = sorted({c for _, c in table}, key=lambda c: -sum(n for (p, cc), n in table.items() if cc == c))
    print(f"{total} games, on the winning side in {won} ({100 * won / max(total, 1):.1f}%); not won: {total - won}\n")
    print("| cause | " + " | ".join(PHASES) + " | all |")
    print("|---|" + "---|" * (len(PHASES) + 1))
    for c in causes:
        cells = [table[(p, c)] for p in PHASES]
        print(f"| {c} | " + " | ".join(str(n) if n else "" for n in cells) + f" | {sum(cells)} |")
    cells = [sum(n for (p, _), n in table.items() if p == ph) for ph in PHASES]
    print("| all | " + " | ".join(str(n) for n in cells) + f" | {sum(cells)} |")
    print("\nLost after the Second Checkmate: " + ", ".join(f"{n} {k}" for k, n in shapes.most_common()))
    print("\n| the seat in the First Checkmate | games | on the winning side |")
    print("|---|---|---|")
    for role in ["mater", "mated", "neither", "none"]:
        n = roles[(role, True)] + roles[(role, False)]
        if n:
            print(f"| {role} | {n} | {roles[(role, True)]} ({100 * roles[(role, True)] / n:.1f}%) |")
    if a.places:
        print("\n| the seat after the Second Checkmate | games | on the winning side |")
        print("|---|---|---|")
        order = ["a Triple Alliance's member", "the single player", "one of two Double Alliances", None]
        for place in order:
            n = places[(place, True)] + places[(place, False)]
            if n:
                won_here = places[(place, True)]
                name = place or "(fewer than two checkmates)"
                print(f"| {name} | {n} | {won_here} ({100 * won_here / n:.1f}%) |")
        print("\nThe Second Checkmate that made the seat's Triple Alliance was given by: "
              + ", ".join(f"{k} {n}" for k, n in made_triple.most_common()))
    if a.games:
        print()
        for r in rows:
            print(*r, sep="\t")


if __name__ == "__main__":
    sys.exit(main())
