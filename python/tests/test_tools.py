"""The scripts in tools/ that read matches through this package: issue 51's loss table."""

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load(name):
    # As when run as a script: the tools import one another from their folder.
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_judtho_losses_sorts_each_kind_of_game():
    losses = load("judtho_losses")
    games = {}
    with open(ROOT / "fixtures" / "judtho-losses.jsonl") as f:
        for line in f:
            game = json.loads(line)
            games[game["game"]] = game
    got = {n: losses.classify(g, "full") for n, g in games.items()}
    # Five games of the full seat against three depth-1 copies that it did not win, and one it won.
    assert got[2][:2] == ("Second Battle", "an alliance against it")
    assert got[4][:2] == ("Third Battle", "an ally mated after the other ally's move")
    assert got[5][:2] == ("Third Battle", "a checkmate it did not see coming")
    assert got[53][:2] == ("Third Battle", "an ally mated after its own move")
    assert got[108][:2] == ("(drawn)", "a draw it could have won")
    assert got[2][2].startswith("as the single player; checkmates at plies [64, 68, 130]")
    assert [n for n, c in got.items() if c is None] == [n for n in games if n not in (2, 4, 5, 53, 108)]


def test_judtho_losses_reads_checks_and_checkmates_off_the_rules():
    import tetrarch

    losses = load("judtho_losses")
    # Red's king a12 in check from White's rook a5 (White to move: Red asked as if to move).
    position = "rK10bK/12/3wN8/2wN9/5wB6/12/12/wR11/12/12/12/wK10yK w w:S,r:C,y:S,b:S - wryb 0 100"
    assert losses.in_check(position, "r") is True
    assert losses.in_check(position, "b") is False
    board = tetrarch.Board("judtho", position)
    assert losses.mates_of(board, "") == 0
    # The knight uncovers the bishop onto Red's one step out: the First Checkmate, Red the Second
    # Ally of White (First Ally, the mater).
    board.push("d10e12/a9")
    assert losses.mates_of(board, "") == 1
    assert board.position().split(" ")[3] == "wr"


def test_judtho_time_samples_the_seats_moves_by_seed():
    timing = load("judtho_time")
    path = [str(ROOT / "fixtures" / "judtho-losses.jsonl")]
    a, b = timing.sample(path, "full", 20, 7), timing.sample(path, "full", 20, 7)
    assert a == b and len(a) == 20
    assert timing.sample(path, "full", 20, 8) != a
    import tetrarch

    for position, phase, shape, ms in a:
        board = tetrarch.Board("judtho", position)
        # Each is a position where the full seat was to move, with the time it spent there.
        assert ms > 0 and board.legal_moves()
        assert phase in ("Assembly", "First Battle", "Second Battle", "Third Battle")
        assert sum(map(int, shape.split("-"))) == 4
