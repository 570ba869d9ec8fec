"""The whole pipeline on tiny data, as CI runs it (.ci/run): self-play data from the engine,
its inputs exported, a short training run whose validation loss falls, and the network it
writes read by the engine through `EvalFile` and searched with; training then goes on from
that network (`--init`), which starts where the first run ended. The binary is `$TETRARCH_BIN`,
else the project's `target/release/tetrarch`."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("TETRARCH_BIN", str(ROOT / "target" / "release" / "tetrarch"))


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=600).stdout


def test_data_training_and_the_engine_agree(tmp_path):
    data = tmp_path / "tiny.tdg"
    run(BIN, "datagen", "--variant", "judkins", "--depth", "2", "--games", "60", "--seed", "7", "--out", str(data))
    inputs = tmp_path / "tiny.nnin"
    said = run(BIN, "datagen", "--export", str(inputs), str(data))
    positions = int(said.split("positions ")[1].split()[0])
    assert 300 <= positions, said
    for base in ("none", "own"):
        net = tmp_path / ("tiny-%s.nnue" % base)
        out = run(sys.executable, str(ROOT / "trainer" / "train.py"), str(inputs), "--out", str(net), "--hidden", "16",
                  "--epochs", "6", "--patience", "6", "--batch", "64", "--base", base, "--threads", "1")
        valid = [float(l.split(" valid ")[1].split()[0]) for l in out.splitlines() if l.startswith("epoch ")]
        assert len(valid) == 6 and min(valid[1:]) < valid[0], out
        summary = json.loads(out.splitlines()[-1])
        assert abs(summary["final_valid_loss"] - min(valid)) < 1e-6 and summary["settings"]["base"] == base
        engine = subprocess.run([BIN], input="usi\nsetoption name EvalFile value %s\nposition startpos\ngo depth 4\n"
                                "isready\n" % net, capture_output=True, text=True, timeout=60).stdout.splitlines()
        assert "info string evaluation: network judkins (888 inputs, 16 wide) from %s" % net in engine, engine
        assert any(l.startswith("bestmove ") for l in engine), engine
        if base == "own":
            # Read back, the network is the one trained (up to its quantization): training from it
            # starts at its validation loss, not a random network's.
            again = run(sys.executable, str(ROOT / "trainer" / "train.py"), str(inputs), "--out",
                        str(tmp_path / "again.nnue"), "--init", str(net), "--epochs", "2", "--batch", "64",
                        "--base", base, "--threads", "1")
            start = float(again.split("the network of --init: valid ")[1].split()[0])
            assert abs(start - summary["final_valid_loss"]) < 0.05 * summary["final_valid_loss"], again
            assert start < valid[0], again
            assert json.loads(again.splitlines()[-1])["settings"]["init"] == str(net)


def test_judtho_seats_and_alliances_train_and_play(tmp_path):
    # Four seats whose sides change: the same pipeline, the network correcting Judtho's own
    # evaluation, read by the engine for Judtho and searched with from the Assembly.
    data = tmp_path / "judtho.tdg"
    run(BIN, "datagen", "--variant", "judtho", "--nodes", "300", "--games", "20", "--seed", "3", "--out", str(data))
    inputs = tmp_path / "judtho.nnin"
    said = run(BIN, "datagen", "--export", str(inputs), str(data))
    assert 500 <= int(said.split("positions ")[1].split()[0]), said
    assert int(said.split("held out ")[1].split(")")[0]) > 0, said
    net = tmp_path / "judtho.nnue"
    out = run(sys.executable, str(ROOT / "trainer" / "train.py"), str(inputs), "--out", str(net), "--hidden", "16",
              "--epochs", "4", "--patience", "4", "--batch", "64", "--base", "own", "--lambda", "0", "--threads", "1")
    valid = [float(l.split(" valid ")[1].split()[0]) for l in out.splitlines() if l.startswith("epoch ")]
    assert len(valid) == 4 and min(valid[1:]) < valid[0], out
    engine = subprocess.run([BIN], input="usi\nsetoption name USI_Variant value judtho\nsetoption name EvalFile value %s\n"
                            "position startpos\ngo depth 3\nisready\n" % net, capture_output=True, text=True,
                            timeout=60).stdout.splitlines()
    assert "info string evaluation: network judtho (11591 inputs, 16 wide) from %s" % net in engine, engine
    assert any(l.startswith("bestmove ") for l in engine), engine
