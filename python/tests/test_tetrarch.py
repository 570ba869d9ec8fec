"""The Python package against the engine binary (`legalmoves`, `go depth`), and its own
round trips: push and pop, pickling, actions, observations; the PettingZoo and OpenSpiel
adapters. The binary is `$TETRARCH_BIN`, else the project's `target/release/tetrarch`."""

import os
import pickle
import random
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

import tetrarch

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("TETRARCH_BIN", str(ROOT / "target" / "release" / "tetrarch"))
VARIANTS = ["judkins", "dojo", "chaturanga", "chaturanga-ffa", "judtho"]
KEYWORD = {"judkins": "sfen"}

# Positions where the rules offer what random games seldom reach: a Dojo choice move (D6), a
# Double Mate pass, Judtho checkmates that forge alliances with promotion squares.
PREPARED = [
    ("dojo", "fen 4k3/1P6/8/2q5/8/8/8/4K3 w - - 0 1 - -"),
    ("dojo", "fen 7k/Q7/8/8/8/8/8/3N3K w - - 0 1 d2:P W9"),
    ("chaturanga", "fen bK6rK/8/6rP1/8/7gK/2bPgPyK3/8/yRyR5gR b - 0 1"),
    ("judtho", "fen rK10bK/rPrP10/2rP9/12/12/12/7wR4/12/12/12/12/wK10yK w w:S,r:C,y:S,b:S - wryb 0 100"),
    ("judtho", "fen rK10bK/10bPbP/12/12/12/12/7yR4/12/12/12/12/wK10yK y w:S,r:,y:C,b:S wr ybwr 0 100"),
    ("judtho", "fen rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100"),
]


if not Path(BIN).exists() and os.environ.get("TETRARCH_REQUIRE_PEERS") != "1":
    pytest.skip(f"skipped: tetrarch binary not found (set TETRARCH_BIN or run cargo build --release)", allow_module_level=True)


class Binary:
    """The engine binary behind pipes."""

    def __init__(self):
        self.p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.ask("usi")

    def ask(self, *lines, until=None):
        for line in lines:
            self.p.stdin.write(line + "\n")
        self.p.stdin.write("isready\n")
        self.p.stdin.flush()
        # `isready` is answered at once, even while a search runs: its `readyok` may come
        # before or after the `bestmove` awaited.
        out, ready = [], False
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended; it said {out}")
            line = line.rstrip("\n")
            if line == "readyok":
                ready = True
            else:
                out.append(line)
            if ready and (until is None or any(l.startswith(until) for l in out)):
                return out

    def close(self):
        self.p.stdin.close()
        self.p.wait(10)


@pytest.fixture(scope="module")
def binary():
    b = Binary()
    yield b
    b.close()


def need(module):
    """An optional framework: skipped where it is not installed, unless CI requires it."""
    if os.environ.get("TETRARCH_REQUIRE_PEERS") == "1":
        return __import__(module)
    return pytest.importorskip(module)


def position_line(board):
    head = f"position {KEYWORD.get(board.variant, 'fen')} {board.start}" if board.start else "position startpos"
    return head + (" moves " + " ".join(board.moves) if board.moves else "")


def games(variant, n, plies, seed):
    """Random games: each a list of boards along it (the same board object, stepped)."""
    rng = random.Random(seed)
    starts = [None] * n + [p for v, p in PREPARED if v == variant] * 2
    for start in starts:
        b = tetrarch.Board(variant, start)
        yield b
        for _ in range(plies):
            moves = b.legal_moves()
            if not moves:
                break
            b.push(rng.choice(moves))
            yield b


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_agree_with_the_binary_at_every_ply(binary, variant):
    binary.ask(f"setoption name USI_Variant value {variant}")
    seen = set()
    for b in games(variant, 3, 120 if variant != "judtho" else 260, 7):
        out = binary.ask(position_line(b), "legalmoves")
        assert not any(l.startswith("info string error") for l in out), out
        listed = out[-1].split()[1:]
        assert sorted(listed) == sorted(b.legal_moves()), (variant, b.moves)
        for m in b.legal_moves():
            if "/" in m or "@" in m:
                seen.add("choice")
            if m == "pass":
                seen.add("pass")
        if b.alliances() and variant == "judtho":
            seen.add("alliance")
    expected = {"dojo": {"choice"}, "chaturanga": {"pass"}, "judtho": {"choice", "alliance"}}.get(variant, set())
    assert expected <= seen, seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_push_and_pop_round_trip_at_every_ply(variant):
    for b in games(variant, 2, 150, 11):
        before = (b.position(), sorted(b.legal_moves()), b.status(), b.moves)
        for m in b.legal_moves()[:6]:
            b.push(m)
            assert b.moves[-1] == m
            # The moves after it, asked for (and kept) before the pop that must forget them.
            b.legal_moves()
            assert b.pop() == m
            assert (b.position(), sorted(b.legal_moves()), b.status(), b.moves) == before
    with pytest.raises(IndexError):
        tetrarch.Board(variant).pop()
    with pytest.raises(ValueError):
        tetrarch.Board(variant).push("nonsense")


@pytest.mark.parametrize("variant", VARIANTS)
def test_pickling_and_copies_round_trip(variant):
    for i, b in enumerate(games(variant, 1, 80, 3)):
        if i % 10:
            continue
        rebuild, (variant, start, moves, packed) = b.__reduce__()
        # The texts decide: packed words that are wrong, or none (an older pickle), replay the
        # same game from the texts.
        wrong = [(w + 1) * 7919 for w in packed]
        for c in (
            pickle.loads(pickle.dumps(b)),
            b.copy(),
            rebuild(variant, start, moves, wrong),
            rebuild(variant, start, moves),
        ):
            assert (c.variant, c.start, c.moves, c.position()) == (b.variant, b.start, b.moves, b.position())
            assert sorted(c.legal_moves()) == sorted(b.legal_moves())


@pytest.mark.parametrize("variant", VARIANTS)
def test_actions_enter_every_legal_move_and_nothing_else(variant):
    for i, b in enumerate(games(variant, 2, 120, 5)):
        if i % 3:
            continue
        legal = set(b.legal_moves())
        entered = set()
        # Walk the masks from the empty prefix: every path ends in a legal move.
        stack = [[]]
        while stack:
            prefix = stack.pop()
            mask = b.legal_action_mask(prefix)
            assert mask.shape == (b.num_actions,) and mask.dtype == np.bool_
            for a in np.flatnonzero(mask):
                path = prefix + [int(a)]
                # `push_actions` agrees: a path that spells no move yet begins one, changing
                # nothing; one that spells a move plays it.
                c = b.copy()
                try:
                    m = b.action_to_move(path)
                except ValueError:
                    assert c.push_actions(path) is None and c.moves == b.moves
                    stack.append(path)
                    continue
                entered.add(m)
                assert b.move_to_actions(m) == path
                assert c.push_actions(path) == m and c.moves == b.moves + [m]
        assert entered == legal, (variant, b.moves)
        # Actions that begin no legal move are refused, with nothing played.
        if legal:
            refused = int(np.flatnonzero(~b.legal_action_mask())[0])
            c = b.copy()
            with pytest.raises(tetrarch.IllegalMoveError):
                c.push_actions([refused])
            with pytest.raises(tetrarch.InvalidMoveError):
                c.push_actions([b.num_actions])
            assert c.moves == b.moves


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_have_a_fixed_shape(variant):
    shape = tetrarch.Board(variant).observation().shape
    for i, b in enumerate(games(variant, 1, 100, 9)):
        if i % 20:
            continue
        for s in b.seats:
            o = b.observation(s)
            assert o.shape == shape and o.dtype == np.float32 and np.isfinite(o).all()
            assert o.min() >= 0.0
            # Never blank: the observer's own side plane is whole, and pieces stand or wait in
            # hand (the planes before the last 3 per seat and the turn's).
            assert (o == 1).all(axis=(1, 2)).any() and o[: o.shape[0] - 3 * len(b.seats) - 1].sum() > 0


def test_outcomes_sides_and_records(tmp_path):
    b = tetrarch.Board("chaturanga", "fen bK6rK/8/6rP1/8/7gK/2bPrPyK3/8/yRyR6 y - 0 1")
    assert b.is_game_over()
    o = b.outcome()
    assert o["reason"] == "lone-kings" or o["reason"] == "checkmate"
    assert set(o["winners"]) == {"y", "r"} and set(o["losers"]) == {"b", "g"}
    assert o["places"]["y"] == 1 and o["places"]["b"] > 1
    assert tetrarch.rewards(b) == {"yr": 1.0, "bg": -1.0}
    assert b.sides() == ["yr", "bg"] and b.alliances() == ["yr", "bg"]
    record = tmp_path / "g.pgn"
    subprocess.run(
        [BIN, "match", "--variant", "judtho", "--engine", "self", "--depth", "1", "--games", "1", "--max-plies", "80", "--quiet", "--pgn", str(record)],
        check=True,
        capture_output=True,
    )
    r = tetrarch.Board.from_record(record.read_text())
    assert r.variant == "judtho" and len(r.moves) > 48


def binary_search(variant, board, depth):
    b = Binary()
    out = b.ask(f"setoption name USI_Variant value {variant}", "setoption name USI_Hash value 16", position_line(board), f"go depth {depth}", until="bestmove")
    b.close()
    info = [l for l in out if l.startswith("info depth")][-1].split()
    score = (info[info.index("score") + 1], int(info[info.index("score") + 2]))
    return out[-1].split()[1], score, int(info[info.index("nodes") + 1])


@pytest.mark.parametrize("variant,depth", [("judkins", 6), ("dojo", 5), ("chaturanga", 4), ("chaturanga-ffa", 3), ("judtho", 3)])
def test_searches_run_in_parallel_threads_as_the_binary_searches(variant, depth):
    boards = [b.copy() for i, b in enumerate(games(variant, 1, 60, 13)) if i in (4, 30)]
    results = {}
    progress = []

    def search(k):
        e = tetrarch.Engine(variant, hash_mib=16)
        results[k] = e.search(boards[k], depth=depth)

    threads = [threading.Thread(target=search, args=(k,)) for k in range(len(boards))]
    for t in threads:
        t.start()
    # The searches leave the interpreter free: this thread counts while they run.
    while any(t.is_alive() for t in threads):
        progress.append(1)
    for t in threads:
        t.join()
    assert len(progress) > 100
    for k, board in enumerate(boards):
        mv, score, nodes = binary_search(variant, board, depth)
        r = results[k]
        assert (r["move"], r["score"], r["nodes"]) == (mv, score, nodes), (variant, board.moves)
        assert r["pv"][0] == mv and r["depth"] == depth


def test_pettingzoo_api():
    need("pettingzoo")
    from pettingzoo.test import api_test

    from tetrarch.pettingzoo import env

    for v in VARIANTS:
        api_test(env(v), num_cycles=200)


def test_openspiel_random_simulation():
    pyspiel = need("pyspiel")
    import tetrarch.openspiel  # noqa: F401 - registers the games

    for v in VARIANTS:
        game = pyspiel.load_game("python_tetrarch_" + v.replace("-", "_"), {"max_plies": 250})
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_bad_input_raises_the_protocols_error_and_changes_nothing(binary):
    b = tetrarch.Board("judkins")
    b.push("6e6d")
    before = (b.position(), b.moves)
    cases = [
        (lambda: tetrarch.Board("shatranj"), "setoption name USI_Variant value shatranj"),
        (lambda: tetrarch.Board("judkins", "rbnsgk/5p/6"), "position sfen rbnsgk/5p/6"),
        (lambda: b.push("1a1a"), None),
    ]
    for call, line in cases:
        with pytest.raises(ValueError) as e:
            call()
        if line is not None:
            binary.ask("setoption name USI_Variant value judkins")
            said = [l for l in binary.ask(line) if l.startswith("info string error")]
            # The same words; the protocol's line may name its command first.
            assert len(said) == 1 and said[0].endswith(" " + str(e.value)), (line, said, str(e.value))
        assert (b.position(), b.moves) == before
    # The illegal move, as `position ... moves` quotes it.
    with pytest.raises(ValueError, match="illegal or malformed move '1a1a'"):
        b.push("1a1a")
    with pytest.raises(IndexError):
        tetrarch.Board("dojo").pop()
    with pytest.raises(ValueError):
        b.action_to_move(b.num_actions + 5)
    with pytest.raises(ValueError):
        tetrarch.Board.from_record("no record here")
    assert (b.position(), b.moves) == before


def test_errors_are_typed_and_still_value_errors():
    b = tetrarch.Board("judkins")
    for catch in (tetrarch.IllegalMoveError, ValueError):
        try:
            b.push("1a1a")
            raise AssertionError("an illegal push was taken")
        except catch as e:
            assert isinstance(e, tetrarch.IllegalMoveError) and "1a1a" in str(e)
    with pytest.raises(tetrarch.InvalidPositionError):
        tetrarch.Board("judkins", "rbnsgk/5p/6")
    with pytest.raises(tetrarch.InvalidMoveError):
        b.action_to_move(b.num_actions + 5)
    with pytest.raises(tetrarch.IllegalMoveError):
        b.action_to_move(b.num_actions - 1)
    assert b.moves == []


def test_status_gives_the_ranking_as_the_binary_does(binary):
    binary.ask("setoption name USI_Variant value chaturanga-ffa")
    rng = random.Random(5)
    ranked = 0
    for _ in range(6):
        b = tetrarch.Board("chaturanga-ffa")
        while b.legal_moves():
            b.push(rng.choice(b.legal_moves()))
        said = [l for l in binary.ask(position_line(b), "status") if l.startswith("status ")][-1]
        assert said.endswith("outcome " + b.status()["outcome"]), (said, b.status())
        ranked += " ranking " in b.status()["outcome"]
    assert ranked > 0


def test_players_and_kinds_come_from_the_library():
    assert tetrarch.players("chaturanga") == ["yr", "bg"] and tetrarch.players("judtho") == list("wryb")
    with pytest.raises(ValueError):
        tetrarch.players("shatranj")
    for v in VARIANTS:
        b = tetrarch.Board(v)
        assert sorted("".join(tetrarch.players(v))) == sorted("".join(b.seats))
        assert len(set(b.kinds)) == len(b.kinds) > 0


def test_observation_planes_hold_the_pieces_where_they_stand():
    # Judkins, gote to move: sente (b) has S, R and two B in hand, gote (w) a G.
    b = tetrarch.Board("judkins", "2r3/1P4/2N2k/3s2/1G2p1/2KN2 w SR2Bg 30")
    k = {kind: i for i, kind in enumerate(b.kinds)}
    n = len(b.kinds)
    o = b.observation("w")
    # Group 0 is the observer's (gote's), group 1 sente's; rows from the top of the board.
    assert o[k["R"], 0, 2] == 1.0 and o[k["K"], 2, 5] == 1.0 and o[k["S"], 3, 3] == 1.0
    assert o[n + k["P"], 1, 1] == 1.0 and o[n + k["N"], 2, 2] == 1.0 and o[n + k["K"], 5, 2] == 1.0
    assert o[: 2 * n].sum() == 9  # every piece on the board, once
    hands = 2 * n
    assert (o[hands + n + k["B"]] == 2 / 8).all() and (o[hands + n + k["S"]] == 1 / 8).all()
    assert (o[hands + k["G"]] == 1 / 8).all() and o[hands + k["R"]].sum() == 0
    # Seen by sente the groups swap.
    s = b.observation("b")
    assert s[n + k["R"], 0, 2] == 1.0 and s[k["P"], 1, 1] == 1.0
    assert (s[hands + k["B"]] == 2 / 8).all()
    # The last plane: the observer is to move.
    assert (o[-1] == 1).all() and (s[-1] == 0).all()
    # Dojo: a passive member stands under the piece of its square.
    d = tetrarch.Board("dojo", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1:p -")
    dk = {kind: i for i, kind in enumerate(d.kinds)}
    do = d.observation("w")
    assert do[dk["K"], 7, 4] == 1.0 and do[len(d.kinds) + dk["K"], 0, 4] == 1.0
    stacks = 2 * len(d.kinds)
    assert do[stacks + len(d.kinds) + dk["P"], 7, 4] == 1.0 and do[stacks : stacks + 2 * len(d.kinds)].sum() == 1
    # Two alike members count 2; `clip` cuts them to 1, as the environments' [0, 1] space wants.
    d2 = tetrarch.Board("dojo", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1:pp -")
    assert d2.observation("w")[stacks + len(d.kinds) + dk["P"], 7, 4] == 2.0
    clipped = d2.observation("w", clip=True)
    assert clipped[stacks + len(d.kinds) + dk["P"], 7, 4] == 1.0 and clipped.max() == 1.0
    # Judtho, read off its board rather than its diagram (`Draw::sight`): white (w) to move.
    j = tetrarch.Board("judtho", "rK10bK/3rN8/12/12/12/12/7wR4/12/12/12/10yPyP/wK10yK w w:S,r:C,y:C,b:S wr wryb 0 100")
    jk = {kind: i for i, kind in enumerate(j.kinds)}
    w = j.observation("w")
    assert w[jk["K"], 11, 0] == 1.0 and w[jk["R"], 6, 7] == 1.0
    assert w[8 + jk["K"], 0, 0] == 1.0 and w[8 + jk["N"], 1, 3] == 1.0
    assert w[16 + jk["P"], 10, 10] == w[16 + jk["P"], 10, 11] == w[24 + jk["K"], 0, 11] == 1.0
    assert w[:32].sum() == 8
    assert (w[32 + jk["S"]] == 1 / 8).all() and (w[32 + 8 + jk["C"]] == 1 / 8).all() and w[32:64].sum() == 4 * 144 / 8
    # Seen by yellow, yellow's pieces are group 0 and white's group 2.
    y = j.observation("y")
    assert y[jk["P"], 10, 10] == 1.0 and y[16 + jk["K"], 11, 0] == 1.0 and (y[-1] == 0).all() and (w[-1] == 1).all()


def test_a_search_late_in_a_game_costs_no_replay():
    import time

    rng = random.Random(3)
    b = tetrarch.Board("judtho")
    while len(b.moves) < 300:
        moves = b.legal_moves()
        if not moves:
            b = tetrarch.Board("judtho")
            continue
        b.push(rng.choice(moves))
    fresh = tetrarch.Board("judtho", b.position())
    e = tetrarch.Engine("judtho", hash_mib=1)

    def cost(board):
        times = []
        for _ in range(15):
            e.clear()
            t = time.perf_counter()
            e.search(board, depth=1)
            times.append(time.perf_counter() - t)
        return sorted(times)[len(times) // 2]

    # The same position, searched after its 300 moves and as a start of its own.
    late, alone = cost(b), cost(fresh)
    assert late < 2 * alone + 0.002, (late, alone)


def test_the_engine_evaluates_with_the_network_the_binary_would_use():
    net = str(ROOT / "fixtures" / "nnue" / "judkins-h16.nnue")
    b = tetrarch.Board("judkins")
    learned = tetrarch.Engine("judkins", eval_file=net)
    assert learned.network == ("judkins", 888, 16)
    classical = tetrarch.Engine("judkins", use_nnue=False)
    assert classical.network is None
    # By default the network built into the binary, as the binary's own default.
    assert tetrarch.Engine("judkins").network == ("judkins", 888, 64)
    assert tetrarch.Engine("chaturanga").network == ("chaturanga", 1280, 32)
    assert tetrarch.Engine("dojo").network == ("dojo", 1650, 32)
    # The same network as the binary's `EvalFile`: the same search, node for node.
    found = learned.search(b, depth=5)
    engine = Binary()
    out = engine.ask("setoption name EvalFile value " + net, "position startpos", "go depth 5", until="bestmove")
    engine.close()
    last = [l for l in out if l.startswith("info depth 5 ")][-1]
    assert " nodes %d " % found["nodes"] in last, (found, last)
    assert found["nodes"] != classical.search(b, depth=5)["nodes"]
    with pytest.raises(ValueError, match="eval_file .*not a network"):
        tetrarch.Engine("judkins", eval_file=str(ROOT / "Cargo.toml"))
    with pytest.raises(ValueError, match="for judkins, not dojo"):
        tetrarch.Engine("dojo", eval_file=net)


def test_an_illegal_step_changes_nothing_in_either_adapter():
    need("pettingzoo")
    from tetrarch.pettingzoo import raw_env

    r = raw_env("judkins")
    r.reset()
    mask = r.observe(r.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad in (illegal, -1, len(mask), 10**6):
        with pytest.raises(ValueError, match="not legal"):
            r.step(bad)
        # The refused action is not kept: the same agent still has its whole choice.
        assert (r.observe(r.agent_selection)["action_mask"] == mask).all()
    r.step(int(np.flatnonzero(mask)[0]))

    pyspiel = need("pyspiel")
    import tetrarch.openspiel  # noqa: F401 - registers the games

    state = pyspiel.load_game("python_tetrarch_judkins").new_initial_state()
    legal = state.legal_actions()
    for bad in (0 if 0 not in legal else max(legal) + 1, 10**6):
        with pytest.raises(Exception, match="not legal"):
            state.apply_action(bad)
        assert state.legal_actions() == legal and not state.is_terminal()
    # An action that ends a move reads as the move's text (each Judkins move is one action).
    texts = {state.action_to_string(state.current_player(), a) for a in legal}
    assert texts == set(tetrarch.Board("judkins").legal_moves()), texts


def test_the_benchmark_script_runs_from_the_repository_root():
    out = subprocess.run([os.sys.executable, str(ROOT / "python" / "bench.py"), "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_arguments_are_refused_by_their_python_names():
    b = tetrarch.Board("judkins")
    e = tetrarch.Engine("judkins")
    type_cases = [
        (lambda: e.search(b, depth="3"), "depth must be an int, not str"),
        (lambda: e.search(b, depth=3.0), "depth must be an int, not float"),
        (lambda: e.search(b, depth=True), "depth must be an int, not bool"),
        (lambda: e.search(b, nodes=[1]), "nodes must be an int, not list"),
        (lambda: e.search(b, depth=2, callback=5), "callback must be callable"),
        (lambda: b.perft(None), "depth must be an int, not NoneType"),
        (lambda: b.perft(2.5), "depth must be an int, not float"),
        (lambda: tetrarch.Engine("judkins", hash_mib="16"), "hash_mib must be an int, not str"),
        (lambda: b.action_to_move("6e6d"), "actions must be an action"),
        (lambda: b.observation(1.5), "seat must be a seat's letter or its index"),
    ]
    for call, words in type_cases:
        with pytest.raises(TypeError, match=words):
            call()
    value_cases = [
        (lambda: e.search(b, depth=-1), "depth must be from 1 to 128, not -1"),
        (lambda: e.search(b, depth=0), "depth must be from 1 to 128, not 0"),
        (lambda: e.search(b, nodes=0), "nodes must be from 1 to"),
        (lambda: e.search(b, movetime=0), "movetime must be from 1 to"),
        (lambda: e.search(b, movetime=2**70), "movetime must be from 1 to"),
        (lambda: b.perft(0), "depth must be from 1 to 64, not 0"),
        (lambda: b.perft(65), "depth must be from 1 to 64, not 65"),
        (lambda: tetrarch.Engine("judkins", hash_mib=-1), "hash_mib must be from 1 to 8192, not -1"),
        (lambda: tetrarch.Engine("judkins", threads=1000), "threads must be from 1 to 256, not 1000"),
        (lambda: tetrarch.Board("judkins", ""), "empty position"),
        (lambda: tetrarch.Board("judkins", "   "), "empty position"),
        (lambda: b.legal_action_mask([99999]), "action 99999 is outside"),
    ]
    for call, words in value_cases:
        with pytest.raises(ValueError, match=words):
            call()
    # The engine still searches after all of them.
    assert e.search(b, depth=2)["move"] in b.legal_moves()


def interrupted(e, b):
    """A search and a perft, each sent SIGINT after 0.3 s: both raise KeyboardInterrupt."""
    import signal
    import time

    for name, run in (("search", lambda: e.search(b, movetime=10000)), ("perft", lambda: b.perft(30))):
        sent = []
        killer = threading.Timer(0.3, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT)))
        start = time.monotonic()
        killer.start()
        try:
            returned = run()
        except KeyboardInterrupt:
            returned = None
        else:
            # Say when it returned and when the signal went, should this ever happen.
            took = time.monotonic() - start
            try:
                killer.join()
                time.sleep(0.1)
                later = "not raised afterwards"
            except KeyboardInterrupt:
                later = "raised afterwards"
            pytest.fail(f"{name} returned {returned!r} after {took:.3f} s; SIGINT sent at {[t - start for t in sent]}, {later}")
        assert time.monotonic() - start < 5


def test_searches_and_perft_stop_when_asked():
    import signal
    import time

    b = tetrarch.Board("judkins")
    e = tetrarch.Engine("judkins")
    # stop() from another thread ends a ten-second search at once, with a legal move.
    timer = threading.Timer(0.3, e.stop)
    start = time.monotonic()
    timer.start()
    found = e.search(b, movetime=10000)
    took = time.monotonic() - start
    # Far below the ten seconds asked: the stop ended it (its latency is measured, not held to).
    assert took < 5, took
    assert found["move"] in b.legal_moves()
    # Ctrl-C (SIGINT to this process) ends a search with KeyboardInterrupt, and the engine
    # searches again afterwards. Python raises KeyboardInterrupt only where its handler is
    # installed, which it is not in a process started with SIGINT ignored (a background job of
    # a shell without job control, as CI runners may start it): the test installs it itself.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupted(e, b)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert e.search(b, depth=3)["move"] in b.legal_moves()
    # A callback hears each iteration; the exception it raises ends the search and comes out.
    heard = []
    e.search(b, depth=5, callback=heard.append)
    assert [h["depth"] for h in heard] == [1, 2, 3, 4, 5]
    assert all(set(h) == {"multipv", "depth", "seldepth", "score", "nodes", "nps", "time_ms", "pv"} for h in heard)

    def enough(info):
        if info["depth"] >= 3:
            raise RuntimeError("enough")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        e.search(b, movetime=10000, callback=enough)
    assert time.monotonic() - start < 5
    assert e.search(b, depth=2)["move"] in b.legal_moves()


@pytest.mark.parametrize("variant", VARIANTS)
def test_sparse_actions_evaluation_and_equality(variant):
    b = tetrarch.Board(variant)
    rng = random.Random(3)
    for _ in range(30):
        if b.is_game_over():
            break
        mask = b.legal_action_mask()
        assert b.legal_actions().tolist() == np.flatnonzero(mask).tolist()
        first = int(b.legal_actions()[0])
        assert b.legal_actions([first]).tolist() == np.flatnonzero(b.legal_action_mask([first])).tolist()
        assert isinstance(b.evaluate(), int)
        b.push(rng.choice(b.legal_moves()))
    assert b.ply == len(b.moves)
    # Equal positions are equal boards with equal keys, however they were reached.
    same = tetrarch.Board(variant, b.position())
    assert same == b and same.position_hash == b.position_hash and same.ply == 0
    b.push(b.legal_moves()[0]) if not b.is_game_over() else b.pop()
    assert same != b and same.position_hash != b.position_hash
    # str() is the engine's diagram (`d`), which ends with the position string.
    assert b != b.position() and ("position " + b.position()) in str(b).splitlines()
    with pytest.raises(TypeError):
        hash(b)


@pytest.mark.parametrize("variant", VARIANTS)
def test_python_chess_conveniences(variant):
    rng = random.Random(7)
    players = tetrarch.players(variant)
    ends = 0
    for game in range(6):
        b = tetrarch.Board(variant)
        while not b.is_game_over() and b.ply < 300:
            assert b.result() == "*" and b.outcome() is None and not b.is_checkmate()
            view = b.legal_moves
            listed = b.legal_moves()
            assert list(view) == listed and len(view) == len(listed)
            assert all(m in view for m in listed) and "zz" not in view and 3 not in view
            b.push(rng.choice(listed))
        assert b.move_stack == b.moves and len(b.move_stack) == b.ply
        o = b.outcome()
        if o is None:
            continue
        ends += 1
        # The result is each player's points in the order of `players`; the Outcome reads as
        # the dict it was.
        parts = o.result().split("-")
        assert b.result() == o.result() and len(parts) == len(players)
        for player, text in zip(players, parts):
            assert text == {1.0: "1", 0.5: "1/2", 0.0: "0"}[o.points[player[0]]]
        if len(players) == 2:
            assert o.result() in ("1-0", "0-1", "1/2-1/2")
        assert o["winners"] == o.winners and o["places"] == o.places and o["reason"] == o.reason
        assert b.is_checkmate() == (o.reason == "checkmate")
        assert set(o.winners) == {s for s, p in o.points.items() if p == 1.0}
        with pytest.raises(KeyError):
            o["nothing"]
    assert ends > 0, variant


def test_results_and_checkmates_of_known_ends():
    b = tetrarch.Board("chaturanga", "fen bK6rK/8/6rP1/8/7gK/2bPrPyK3/8/yRyR6 y - 0 1")
    assert b.result() == "1-0" and b.outcome().result() == "1-0"
    assert b.outcome().points == {"y": 1.0, "r": 1.0, "b": 0.0, "g": 0.0}
    assert b.is_checkmate() == (b.outcome().reason == "checkmate")
    # Judkins: random games until one ends in checkmate; the mated side to move has lost.
    rng = random.Random(11)
    for _ in range(50):
        b = tetrarch.Board("judkins")
        while not b.is_game_over():
            b.push(rng.choice(b.legal_moves()))
        if b.is_checkmate():
            loser = b.turn
            assert b.outcome().losers == [loser]
            assert b.result() == ("0-1" if loser == "b" else "1-0")
            return
    raise AssertionError("no checkmate in 50 random Judkins games")


def test_uci_texts_of_judkins_are_fairy_stockfish_s():
    b = tetrarch.Board("judkins")
    assert b.uci("6e6d") == "a2a3" and b.parse_uci("a2a3") == "6e6d"
    assert b.uci_position() == "rbnsgk/5p/6/6/P5/KGSNBR[-] w - 1"
    with pytest.raises(tetrarch.IllegalMoveError):
        b.uci("6e6c")
    with pytest.raises(ValueError):
        b.parse_uci("a2a5")
    with pytest.raises(tetrarch.InvalidPositionError):
        tetrarch.Board.from_uci("judkins", "not a position")
    rng = random.Random(5)
    for _ in range(200):
        if b.is_game_over():
            b = tetrarch.Board("judkins")
        # Every legal move and the position go to the dialect and back unchanged.
        for m in b.legal_moves():
            assert b.parse_uci(b.uci(m)) == m
        assert tetrarch.Board.from_uci("judkins", b.uci_position()) == b
        b.push(rng.choice(b.legal_moves()))
    # The other variants write their own texts in the dialect.
    d = tetrarch.Board("dojo")
    assert d.uci("e2e4") == "e2e4" and d.uci_position() == d.position()


@pytest.mark.parametrize("variant", VARIANTS)
def test_multipv_gives_the_best_moves_in_order(variant):
    b = tetrarch.Board(variant)
    rng = random.Random(9)
    for _ in range(10):
        b.push(rng.choice(b.legal_moves()))
    e = tetrarch.Engine(variant)
    heard = []
    found = e.search(b, depth=3, multipv=3, callback=heard.append)
    lines = found["lines"]
    legal = b.legal_moves()
    assert len(lines) == min(3, len(legal))
    moves = [l["move"] for l in lines]
    assert len(set(moves)) == len(moves) and all(m in legal for m in moves)
    assert lines[0]["move"] == found["move"] and lines[0]["pv"] == found["pv"]
    assert all(l["pv"][0] == l["move"] and l["depth"] == 3 for l in lines)
    # Best first, for the side to move.
    values = [s[1] if s[0] == "cp" else (100000 - s[1] if s[1] > 0 else -100000 - s[1]) for s in (l["score"] for l in lines)]
    assert values == sorted(values, reverse=True), lines
    assert [h["multipv"] for h in heard if h["depth"] == 3] == [1, 2, 3][: len(lines)]
    # One line without it; a bad count names the argument.
    assert len(e.search(b, depth=2)["lines"]) == 1
    with pytest.raises(ValueError, match="multipv"):
        e.search(b, depth=2, multipv=0)
